"""Grade a folder of submitted notebooks into a gradebook.

    python -m perceptron_lib.grading SUBMISSIONS --out OUT [--assignment NAME]
                                     [--workers N] [--force]

Every ``*.ipynb`` in SUBMISSIONS is graded (the student is the file's stem; the
assignment comes from the notebook's metadata unless ``--assignment`` names it).  OUT
receives ``grades.csv`` (a row per student: a column per graded function, ``total``,
``max``, ``status``), ``feedback/STUDENT.txt`` and ``results.json`` (every case's
result and duration, and hashes of the submission and of the grader).  Submissions run
in parallel, each isolated in its own child process (see
``perceptron_lib/grading/sandbox.py``).  A rerun skips submissions whose file and grader
are unchanged, unless ``--force``.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict
from pathlib import Path

from . import sandbox
from .cases import ASSIGNMENTS
from .grader import Grade, grade, grader_sha256

REPO_SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"


def _columns(grades: list[dict]) -> list[str]:
    names: list[str] = []
    for assignment in sorted({g["assignment"] for g in grades if g["assignment"] in ASSIGNMENTS}):
        names += [t.name for t in ASSIGNMENTS[assignment] if t.name not in names]
    return names


def write_gradebook(out: Path, grades: list[dict]) -> None:
    """Write grades.csv, feedback/*.txt and results.json from grade records."""
    out.mkdir(parents=True, exist_ok=True)
    names = _columns(grades)
    with open(out / "grades.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["student", *names, "total", "max", "status"])
        for g in sorted(grades, key=lambda g: g["student"]):
            points = {t["name"]: t["points"] for t in g["tasks"]}
            writer.writerow([g["student"], *[points.get(n, "") for n in names],
                             g["total"], g["max"], g["status"]])
    fb = out / "feedback"
    fb.mkdir(exist_ok=True)
    for g in grades:
        lines = [f"Feedback for {g['student']} ({g['assignment'] or 'no assignment'})",
                 f"Score: {g['total']:g} of {g['max']:g}" + (
                     "" if g["status"] == "ok" else f"   [{g['status']}]"), ""]
        for t in g["tasks"]:
            lines += t["feedback"]
        if g["notes"]:
            lines += ["", "Cells that raised an error when run in order:"]
            lines += [f"  {n}" for n in g["notes"]]
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in g["student"])
        (fb / f"{safe}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / "results.json").write_text(json.dumps({"grader_sha256": grader_sha256(),
                                                  "isolation": sandbox.isolation_report(),
                                                  "grades": grades}, indent=1))


def record(g: Grade, grader_hash: str) -> dict:
    d = asdict(g)
    d["total"], d["max"], d["grader_sha256"] = g.total, g.max, grader_hash
    return d


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m perceptron_lib.grading", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("submissions", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--assignment", choices=sorted(ASSIGNMENTS))
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--force", action="store_true", help="regrade everything")
    ap.add_argument("--wall-seconds", type=float, default=sandbox.Limits.wall_seconds)
    args = ap.parse_args(argv)
    if not args.submissions.is_dir():
        ap.error(f"{args.submissions} is not a folder")
    paths = sorted(args.submissions.glob("*.ipynb"))
    out = args.out.resolve()
    if out == args.submissions.resolve() or args.submissions.resolve() in out.parents:
        ap.error("--out must not be inside the submissions folder")
    grader_hash = grader_sha256()
    previous: dict[str, dict] = {}
    if (out / "results.json").exists() and not args.force:
        try:
            for g in json.loads((out / "results.json").read_text())["grades"]:
                previous[g["student"]] = g
        except (ValueError, KeyError, TypeError):
            previous = {}
    limits = sandbox.Limits(wall_seconds=args.wall_seconds)
    out.mkdir(parents=True, exist_ok=True)
    hidden = [p for p in (REPO_SOLUTIONS, out) if p.exists()]
    results: dict[str, dict] = {}
    todo = []
    for path in paths:
        old = previous.get(path.stem)
        if old and old.get("grader_sha256") == grader_hash and old.get(
                "submission_sha256") == hashlib.sha256(path.read_bytes()).hexdigest() and (
                args.assignment is None or old.get("assignment") == args.assignment):
            results[path.stem] = old
        else:
            todo.append(path)
    print(f"{len(paths)} submissions: {len(todo)} to grade, {len(results)} unchanged "
          f"(workers: {args.workers})", flush=True)
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, args.workers)) as pool:
        futures = {pool.submit(grade, p, args.assignment, limits, hidden): p for p in todo}
        for done, future in enumerate(as_completed(futures), start=1):
            path = futures[future]
            try:
                g = future.result()
            except Exception as exc:
                g = Grade(student=path.stem, assignment=args.assignment,
                          status=f"grader error: {type(exc).__name__}: {exc}")
            results[path.stem] = record(g, grader_hash)
            print(f"[{done}/{len(todo)}] {path.stem}: {g.total:g}/{g.max:g} {g.status}",
                  flush=True)
    write_gradebook(out, list(results.values()))
    took = time.perf_counter() - t0
    print(f"graded {len(todo)} in {took:.1f} s; gradebook in {out / 'grades.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
