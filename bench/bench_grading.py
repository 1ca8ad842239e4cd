"""Benchmark: grade 300 generated submissions and report seconds per submission.

The submissions are made from ``solutions/01_algorithm.ipynb``: 150 copies of the
reference answers, 90 with one of the known mistakes written in (``< 0`` for
``<= 0``, no offset update, a flipped update, ``>= 0`` in predict), and 60 broken ones
(not JSON, a syntax error, a function deleted, a process that exits at once, an
exception in every function).  All of them are graded with every isolation the
machine offers (see ``perceptron_lib/grading/sandbox.py``), on all cores.

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


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="grading-bench-"))
    try:
        subs = tmp / "submissions"
        subs.mkdir()
        counts = make_submissions(subs)
        workers = os.cpu_count() or 1
        t0 = time.perf_counter()
        grade_folder([str(subs), "--out", str(tmp / "out"), "--workers", str(workers),
                      "--force"])
        wall = time.perf_counter() - t0
        n = sum(counts.values())
        rows = list(csv.DictReader(open(tmp / "out" / "grades.csv")))
        full = sum(float(r["max"] or 0) > 0 and float(r["total"]) == float(r["max"]) for r in rows)
        print(f"\nfull marks: {full} of {len(rows)} rows (150 submissions are right)")
        print(f"{n} submissions ({counts}) on {workers} cores: {wall:.1f} s in all, "
              f"{wall / n:.3f} s per submission, {wall * workers / n:.3f} s per submission "
              "per core")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
