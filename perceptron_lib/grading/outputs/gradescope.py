"""Grade one submission inside Gradescope's autograder container, into its results.json.

The autograder package (:mod:`.autograder`) runs, for every submission,

    python -m perceptron_lib.grading.outputs.gradescope --assignment NAME [--root /autograder]

which follows Gradescope's autograder specification ("Autograder Specifications",
gradescope-autograders.readthedocs.io, ``specs``): the student's upload is in
``ROOT/submission``, Gradescope's facts about it in ``ROOT/submission_metadata.json``
(read for the student's name only), this package in ``ROOT/source``, and the result
goes to ``ROOT/results/results.json``:

- ``score``: the grader's total (it overrides the sum of the tests, which rounding could
  move by a thousandth);
- ``tests``: one per graded case, in the notebook's order: ``name`` (function, case,
  public or grading, what it is about), ``number``, ``score`` and ``max_score`` (the
  function's points shared equally among its cases, as the grader shares them),
  ``status`` (``passed`` or ``failed``), ``output`` (for a failed case: its input, what
  was expected against what came back, and the hint of a known mistake), ``tags``, and
  ``visibility``: ``visible`` for a public case, ``--grading-cases`` for the others;
- ``output``: the feedback text a student gets from the grading command
  (:func:`.gradebook.feedback_text`); ``execution_time``; ``stdout_visibility``
  ``hidden`` (what this program prints, for the instructor, says what the sandbox
  isolated); ``extra_data``: the assignment, status and hashes.

The submission's code runs in the grader's sandbox (:mod:`..sandbox`).  Inside
Gradescope's container bubblewrap usually cannot make its namespaces, so the run has
limits only; the grader is root there, so :mod:`..sandbox.own_user` runs the
submission's code as a uid of its own, and before grading ``ROOT/source`` (the grader,
the library, the cases) is made root-only (0700) and so is the metadata file (0600: it
holds the earlier submissions' results).  A results folder that others could write is
made 0755.  What the submission could still reach is said on standard output, checked
by running code as its uid.

The environment variable ``AUTOGRADER_ROOT`` replaces ``/autograder`` (to try the
package in a folder laid out as Gradescope lays it out).
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from pathlib import Path, PurePosixPath

from .. import sandbox
from ..assignments import ASSIGNMENTS
from ..assignments.exercise import cases_key
from ..intake import IntakeError, Submission, collect
from ..intake.notebook import named_assignment
from ..judge.grade import Grade, grade, grader_sha256
from ..judge.records import record
from ..sandbox import own_user
from . import outdir
from .gradebook import feedback_text

#: Gradescope's visibility settings of a test.
VISIBILITY = ("visible", "after_due_date", "after_published", "hidden")
#: The most of ``submission_metadata.json`` that is read.
METADATA_BYTES = 16 * 1024**2
ROOT_VARIABLE = "AUTOGRADER_ROOT"


class Layout:
    """The folders of Gradescope's container, below ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.source = self.root / "source"
        self.submission = self.root / "submission"
        self.results = self.root / "results"
        self.metadata = self.root / "submission_metadata.json"

    def secrets(self) -> list[Path]:
        """What a submission's code must not read (inside folders, so that a probe of
        existence says whether their folder can be opened)."""
        inside = [self.source / "autograder.json",
                  self.source / "perceptron_lib" / "grading" / "assignments"]
        return [p for p in [*inside, self.metadata] if p.exists()]


# ------------------------------------------------------------------ results.json
def _case_output(d: dict) -> str:
    if d.get("passed"):
        return "right"
    lines = [f"input: {d['input']}"] if d.get("input") else []
    lines += list(d.get("differences") or [d.get("error") or "wrong"])
    if d.get("hint"):
        lines.append(f"hint: {d['hint']}")
    return "\n".join(lines)


def _shares(points: float, n: int) -> list[float]:
    """``points`` shared among ``n`` cases, to 4 decimals, the last taking what rounding
    left, so that the cases add up to the function's points."""
    if n <= 0:
        return []
    each = round(points / n, 4)
    return [each] * (n - 1) + [round(points - each * (n - 1), 4)]


def tests(rec: dict, grading_cases: str = "visible") -> list[dict]:
    """One Gradescope test per graded case of the record ``rec`` (see the module).

    A record without results per function (a file that is not a notebook, say) gets
    every case of its assignment, failed, with the record's status as output.
    """
    found = {t["name"]: t for t in rec.get("tasks") or []}
    out: list[dict] = []
    for ti, task in enumerate(ASSIGNMENTS.get(rec.get("assignment") or "", []), start=1):
        done = found.get(task.name)
        if done is not None:
            details, points = done["details"], float(done["max_points"])
        else:
            cases = task.all_cases()
            details = [{"case": k + 1, "kind": "public" if k < len(task.public) else "grading",
                        "about": c.about, "passed": False, "error": rec["status"]}
                       for k, c in enumerate(cases)]
            points = float(task.points)
        shares = _shares(points, len(details))
        for d, each in zip(details, shares, strict=True):
            kind = d["kind"]
            out.append({
                "name": f"{task.name}, case {d['case']} of {len(details)} ({kind}): "
                        f"{d['about']}",
                "number": f"{ti}.{d['case']}",
                "score": each if d["passed"] else 0.0,
                "max_score": each,
                "status": "passed" if d["passed"] else "failed",
                "output": _case_output(d),
                "tags": [task.name, kind],
                "visibility": "visible" if kind == "public" else grading_cases,
            })
    return out


def results(rec: dict, grading_cases: str = "visible", notes: list[str] = ()) -> dict:
    """The results.json of one graded record (Gradescope's autograder output format).

    ``notes`` go before the feedback in ``output`` (which notebook was graded).
    """
    if grading_cases not in VISIBILITY:
        raise ValueError(f"visibility {grading_cases!r}: one of {', '.join(VISIBILITY)}")
    feedback = "\n".join([*notes, ""]) if notes else ""
    return {
        "score": float(rec["total"]),
        "execution_time": round(float(rec.get("seconds") or 0.0), 3),
        "output": feedback + feedback_text(rec),
        "stdout_visibility": "hidden",
        "tests": tests(rec, grading_cases),
        "extra_data": {"assignment": rec.get("assignment"), "status": rec["status"],
                       "max": rec["max"], "grader_sha256": rec.get("grader_sha256", ""),
                       "submission_sha256": rec.get("submission_sha256", "")},
    }


def not_graded(message: str) -> dict:
    """The results.json of a submission that could not be graded at all."""
    return {"score": 0.0, "output": message, "stdout_visibility": "hidden", "tests": []}


def write(layout: Layout, data: dict) -> Path:
    """Write ``results.json`` whole or not at all; its path."""
    layout.results.mkdir(parents=True, exist_ok=True)
    path = layout.results / "results.json"
    outdir.write_text(path, json.dumps(data, indent=1, ensure_ascii=False))
    return path


# ------------------------------------------------------------------ the container
def student_of(metadata: Path) -> tuple[str, str]:
    """The name(s) and Gradescope user id(s) of the submission's authors ("" if unknown).

    The file is Gradescope's; it is read with bounds and anything unexpected in it is
    left out.
    """
    try:
        with open(metadata, "rb") as fh:
            text = fh.read(METADATA_BYTES + 1)
        if len(text) > METADATA_BYTES:
            return "", ""
        data = json.loads(text)
    except (OSError, ValueError, RecursionError):
        return "", ""
    users = data.get("users") if isinstance(data, dict) else None
    users = [u for u in users if isinstance(u, dict)][:20] if isinstance(users, list) else []
    names = [u["name"][:200] for u in users if isinstance(u.get("name"), str)]
    ids = [str(u["id"])[:40] for u in users if isinstance(u.get("id"), (int, str))]
    return ", ".join(n for n in names if n.strip()), ", ".join(ids)


def lock_down(layout: Layout) -> list[str]:
    """Make the grader's files and Gradescope's metadata root-only; what was done."""
    done = []
    for path, mode in ((layout.source, 0o700), (layout.metadata, 0o600)):
        try:
            if path.exists() and stat.S_IMODE(path.stat().st_mode) != mode:
                os.chmod(path, mode)
                done.append(f"{path}: mode {mode:o}")
        except OSError as exc:
            done.append(f"{path}: could not be made root-only: {exc}")
    try:
        if layout.results.is_dir() and layout.results.stat().st_mode & 0o022:
            os.chmod(layout.results, 0o755)
            done.append(f"{layout.results}: others may no longer write there")
    except OSError as exc:
        done.append(f"{layout.results}: {exc}")
    return done


def choose(found: list[Submission], assignment: str) -> tuple[Submission | None, list[str]]:
    """The notebook to grade among what the student uploaded, and what to tell them.

    The notebooks whose metadata names ``assignment`` come first, then those whose file
    is named after it; the others are named as not graded.
    """
    usable = [s for s in found if s.path is not None]
    if not usable:
        return None, [s.problem for s in found if s.problem]

    def rank(s: Submission) -> tuple[bool, bool, str]:
        stem = PurePosixPath(s.source.rpartition(": ")[2]).stem
        return named_assignment(s.path) == assignment, stem == assignment, s.source

    best = max(usable, key=rank)
    notes = list(best.notes)
    if len(usable) > 1:
        rest = ", ".join(s.source for s in usable if s is not best)
        notes.insert(0, f"You uploaded {len(usable)} notebooks: graded {best.source}; "
                        f"not graded: {rest}.")
    return best, notes


def run(root: Path, assignment: str, grading_cases: str = "visible",
        limits: sandbox.Limits | None = None, key: bytes | None = None) -> int:
    """Grade ``ROOT/submission`` and write ``ROOT/results/results.json``; the exit status.

    ``key`` draws the grading cases (the package's ``--secret``, see
    :func:`..assignments.exercise.cases_key`).

    0 when the submission was graded (whatever its score), or had nothing to grade;
    1 when the sandbox cannot run a submission here (the results say it is the
    autograder's fault, not the student's).
    """
    layout = Layout(root)
    name, ids = student_of(layout.metadata)
    for line in lock_down(layout):
        print(f"lock down: {line}", flush=True)
    separation = own_user.separate()
    try:
        return _grade(layout, assignment, grading_cases, limits or sandbox.Limits(),
                      name or "student", ids, separation, key)
    finally:
        own_user.restore(separation)
        if separation.uid is not None:
            own_user.kill_left(separation.uid)


def _grade(layout: Layout, assignment: str, grading_cases: str, limits: sandbox.Limits,
           name: str, ids: str, separation: own_user.Separation,
           key: bytes | None = None) -> int:
    isolation = sandbox.isolation_report(layout.secrets(), limits)
    _say_isolation(layout, isolation, separation)
    if isolation.get("broken_install"):
        write(layout, not_graded(
            "The autograder could not run your notebook: its own installation is broken "
            "(this is not your work's fault). Your course staff have been told; "
            "submit again once they fixed it."))
        print(f"error: {isolation['broken_install']}", flush=True)
        return 1
    try:
        intake = collect(layout.submission, assignment)
    except IntakeError as exc:
        write(layout, not_graded(f"Your upload could not be read: {exc}"))
        return 0
    with intake:
        best, notes = choose(intake.submissions, assignment)
        notes += [f"Not read: {r}" for r in intake.refused]
        if best is None:
            write(layout, not_graded(
                "\n".join([f"No notebook to grade: upload your {assignment}.ipynb "
                           "(the exercise notebook you worked in).", *notes])))
            print(intake.nothing_found() if not intake.submissions else intake.summary())
            return 0
        try:
            g = grade(best.path, assignment, limits, layout.secrets(), student=name,
                      key=key)
        except Exception as exc:  # the grader's failure: said as such, never a silent 0
            g = Grade(student=name, assignment=assignment,
                      status=f"grader error: {type(exc).__name__}: {str(exc)[:300]}")
        g.student_id, g.source, g.warnings = ids, best.source, []
        rec = record(g, grader_sha256(key))
    if separation.uid is not None:
        left = own_user.kill_left(separation.uid)
        if left:
            print(f"ended {left} process(es) the submission left running", flush=True)
    path = write(layout, results(rec, grading_cases, notes))
    print(f"{rec['student']}: {rec['total']:g} of {rec['max']:g} ({rec['status']}); "
          f"{path}", flush=True)
    return 0


def _say_isolation(layout: Layout, isolation: dict, separation: own_user.Separation) -> None:
    """Print (for the instructor) what the sandbox isolates in this container."""
    print(f"sandbox: {isolation['sandbox']}", flush=True)
    if sandbox.mode() != "limits-only":
        print(f"sandbox: {isolation['user']}; hidden: {', '.join(isolation['hidden_paths'])}")
        return
    print(f"sandbox: limits only; {separation.describe()}", flush=True)
    if separation.uid is None:
        print("warning: the submission's code can read the grader's references and write "
              "the results: grade these submissions with the grading command instead",
              flush=True)
        return
    try:
        reach = own_user.reachable(separation, read=layout.secrets(),
                                   write=[layout.results, layout.source])
    except RuntimeError as exc:
        print(f"warning: what the submission can reach was not checked: {exc}", flush=True)
    else:
        for line in reach:
            print(f"warning: the submission can {line}", flush=True)
        if not reach:
            print("sandbox: checked: the submission's uid can neither read the grader's "
                  "source and the metadata nor write the results", flush=True)
    print("sandbox: not isolated here: the network, the list of processes, /tmp, and "
          "whatever every user may read in the container", flush=True)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m perceptron_lib.grading.outputs.gradescope",
                                 description="Grade a submission in Gradescope's "
                                             "autograder container.")
    ap.add_argument("--assignment", required=True, choices=sorted(ASSIGNMENTS))
    ap.add_argument("--root", type=Path, default=None,
                    help=f"the container's folder (${ROOT_VARIABLE}, else /autograder)")
    ap.add_argument("--grading-cases", choices=VISIBILITY, default="visible",
                    help="when students see the cases used only at grading time")
    ap.add_argument("--wall-seconds", type=float, default=sandbox.Limits.wall_seconds)
    ap.add_argument("--secret", type=Path, metavar="FILE",
                    help="draw the grading cases from this file (the package's secret)")
    return ap


def main(argv: list[str] | None = None) -> int:
    """The command that ``run_autograder`` runs."""
    args = _parser().parse_args(argv)
    root = args.root or Path(os.environ.get(ROOT_VARIABLE) or "/autograder")
    key = cases_key(args.secret.read_bytes()) if args.secret is not None else None
    return run(root, args.assignment, args.grading_cases,
               sandbox.Limits(wall_seconds=args.wall_seconds), key)


if __name__ == "__main__":
    sys.exit(main())
