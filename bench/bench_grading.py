"""Benchmark: grade 300 generated submissions and report seconds per submission.

The submissions are made from ``solutions/01_algorithm.ipynb``: 150 copies of the
reference answers, 90 with one of the known mistakes written in (``< 0`` for
``<= 0``, no offset update, a flipped update, ``>= 0`` in predict), and 60 broken ones
(not JSON, a syntax error, a function deleted, a process that exits at once, an
exception in every function).  All of them are graded with every isolation the
machine offers (see ``perceptron_lib/grading/sandbox/runner.py``), on all cores, with a roster
and the three exports.  Then the parts of the gradebook written after grading are timed
on their own (best of 3): the text gradebook (``grades.csv``, ``feedback/*.txt``,
``results.json``), and what the class report adds to it (``report.html``, the feedback
pages ``feedback/*.html``, the exports).

    python3 tasks.py bench -- --grading
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.intake.notebook import named_assignment
from perceptron_lib.grading.judge.roster import match, read_roster
from perceptron_lib.grading.outputs import exports, gradebook, report
from perceptron_lib.grading.outputs.feedback_html import feedback_page

ROOT = Path(__file__).resolve().parents[1]

MISTAKES = [("<= 0", "< 0"), ("float(theta_0 + y), True", "float(theta_0), True"),
            ("theta + y * x", "theta - y * x"), ("scores > 0", "scores >= 0")]


def _with_code_change(nb: dict, old: str, new: str) -> dict:
    out = json.loads(json.dumps(nb))
    for cell in out["cells"]:
        if cell["cell_type"] == "code":
            src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            cell["source"] = src.replace(old, new)
    return out


def _broken(nb: dict, kind: int) -> str:
    if kind == 0:
        return "{ not json"
    out = json.loads(json.dumps(nb))
    code = [c for c in out["cells"] if c["cell_type"] == "code"]
    if kind == 1:
        code[1]["source"] = "def (:"
    elif kind == 2:
        out["cells"] = [c for c in out["cells"] if "def predict" not in "".join(c["source"])]
    elif kind == 3:
        code[0]["source"] = "import os\nos._exit(1)"
    else:
        out["cells"].append({"cell_type": "code", "metadata": {}, "outputs": [],
                             "execution_count": None,
                             "source": "def update(*a):\n    raise RuntimeError('no')\n"
                                       "perceptron = predict = update"})
    return json.dumps(out)


def make_submissions(folder: Path) -> dict[str, int]:
    nb = json.loads((ROOT / "solutions" / "01_algorithm.ipynb").read_text())
    counts = {"right": 0, "wrong": 0, "broken": 0}
    for k in range(300):
        if k < 150:
            text, kind = json.dumps(nb), "right"
        elif k < 240:
            old, new = MISTAKES[k % len(MISTAKES)]
            text, kind = json.dumps(_with_code_change(nb, old, new)), "wrong"
        else:
            text, kind = _broken(nb, k % 5), "broken"
        (folder / f"student{k:03d}.ipynb").write_text(text)
        counts[kind] += 1
    return counts


def _best(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def write_roster(path: Path, n: int) -> None:
    lines = ["id,name,email"] + [f"{1000 + k},student{k:03d},s{k:03d}@example.org"
                                 for k in range(n)]
    path.write_text("\n".join(lines) + "\n")


def report_cost(out: Path, roster_path: Path, scratch: Path, subs: Path) -> dict[str, float]:
    """Seconds (best of 3) of each part of the gradebook written after grading, and of
    the checks before grading (each notebook's assignment, the roster's match)."""
    data = json.loads((out / "results.json").read_text())
    grades = data["grades"]
    scratch.mkdir()
    (scratch / "feedback").mkdir()
    roster = read_roster(roster_path)
    matched = match(roster, [gradebook.identity(g) for g in grades])
    info = report.RunInfo(submissions="bench", similar=data["similar"], roster=roster,
                          matched=matched)

    def text_gradebook() -> None:
        gradebook.write_csv(scratch / "grades.csv", grades)
        for g in grades:
            (scratch / "feedback" / "x.txt").write_text(gradebook.feedback_text(g))
        gradebook.write_results(scratch / "results.json", grades, isolation=data["isolation"],
                                similar=data["similar"])

    def pages() -> None:
        for g in grades:
            (scratch / "feedback" / "x.html").write_text(feedback_page(g, "x.txt"))

    notebooks = sorted(subs.glob("*.ipynb"))
    keys = [gradebook.identity(g) for g in grades]
    costs = {
        "checks": _best(lambda: ([named_assignment(p) for p in notebooks],
                                 match(read_roster(roster_path), keys))),
        "text gradebook": _best(text_gradebook),
        "report.html": _best(lambda: report.write_report(scratch / "report.html", grades, info)),
        "feedback pages": _best(pages),
        "three exports": _best(lambda: exports.write_exports(
            scratch, list(exports.SYSTEMS), grades, matched, roster)),
    }
    costs["report size KiB"] = (scratch / "report.html").stat().st_size / 1024
    return costs


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="grading-bench-"))
    try:
        subs = tmp / "submissions"
        subs.mkdir()
        counts = make_submissions(subs)
        workers = os.cpu_count() or 1
        write_roster(tmp / "roster.csv", 300)
        t0 = time.perf_counter()
        grade_folder([str(subs), "--out", str(tmp / "out"), "--workers", str(workers),
                      "--force", "--roster", str(tmp / "roster.csv"), "--export", "canvas",
                      "--export", "moodle", "--export", "gradescope"])
        wall = time.perf_counter() - t0
        n = sum(counts.values())
        rows = list(csv.DictReader(open(tmp / "out" / "grades.csv")))
        full = sum(float(r["max"] or 0) > 0 and float(r["total"]) == float(r["max"]) for r in rows)
        print(f"\nfull marks: {full} of {len(rows)} rows (150 submissions are right)")
        print(f"{n} submissions ({counts}) on {workers} cores: {wall:.1f} s in all, "
              f"{wall / n:.3f} s per submission, {wall * workers / n:.3f} s per submission "
              "per core")
        costs = report_cost(tmp / "out", tmp / "roster.csv", tmp / "scratch", subs)
        added = (costs["checks"] + costs["report.html"] + costs["feedback pages"]
                 + costs["three exports"])
        print(f"checks before grading (each notebook's assignment, the roster): "
              f"{costs['checks']:.2f} s")
        print(f"written after grading (best of 3): text gradebook {costs['text gradebook']:.2f} s;"
              f" report.html {costs['report.html']:.2f} s ({costs['report size KiB']:.0f} KiB), "
              f"{n} feedback pages {costs['feedback pages']:.2f} s, three exports "
              f"{costs['three exports']:.2f} s")
        print(f"the checks, the report, the pages and the exports add {added:.2f} s to the run of "
              f"{wall:.1f} s ({100 * added / wall:.1f} %)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
