"""Grade the submitted notebooks in a folder or zip into a gradebook.

    python -m perceptron_lib.grading SUBMISSIONS --out OUT [--assignment NAME]
                                     [--workers N] [--force] [--only STUDENT]...
                                     [--choose STUDENT=FILE]...
                                     [--export {canvas,moodle,gradescope}]... [--roster FILE]
                                     [--points N] [--canvas-column TITLE]
                                     [--adjustments FILE] [--deadline TIME
                                      --late-penalty POINTS [--submitted FILE]
                                      [--extensions FILE]]
    python -m perceptron_lib.grading autograder ...   Gradescope's autograder package
    python -m perceptron_lib.grading gradebook ...    one table of a course's runs

SUBMISSIONS is a folder, or a zip, holding the notebooks: directly (the file's stem is
the student), in a subfolder per student (Moodle's "Download submissions in folders"),
named as Moodle's and Canvas's downloads name them, or inside zips of these (see
``perceptron_lib/grading/intake/submissions.py``).  Each student gets one row; the assignment comes
from the notebook's metadata unless ``--assignment`` names it.  OUT receives
``grades.csv`` (a row per student: ``student``, ``id``, ``assignment``, a column per
graded function, ``total``, ``max``, ``status``, ``notes``, ``file``),
``feedback/STUDENT.txt`` and ``.html``, ``results.json`` (every case's result and
duration, and hashes of the submission and of the grader, what the sandbox isolated, and
the graded functions that are the same across students) and ``report.html``, the class
report (see ``report.py``).  ``--export`` writes the grades in the layout a learning
platform imports, with the ids of ``--roster`` (``exports.py``, ``roster.py``);
``--adjustments`` and the late policy change grades after grading, on every run
(``adjustments.py``, ``late.py``).  Submissions run in parallel, each
isolated in its own sandbox (see ``perceptron_lib/grading/sandbox/runner.py``).  A rerun skips
submissions whose notebook and grader are unchanged, unless ``--force``; ``--only``
grades the students it names and leaves the others' last grades as they were.  A
student with several notebooks that nothing recorded tells apart (Moodle and Canvas
stamp every file with the time of the download) is not graded until ``--choose`` names
one; no export gives such a row a grade.

Each submission's record is kept in ``OUT/records`` as soon as it is graded: Ctrl+C (or
SIGTERM) stops a run within a few seconds, says what was kept, and the same command
grades the rest.  A failure while reading, grading or writing one student's files is
that student's status, never the class's.

Exit status: 0 when every submission found was graded; 1 when something needs the
instructor's attention (no notebook was found, an archive was refused, the grader
failed on a file, or a student's notebook must be chosen: the others are graded and
written all the same); 2 when a file or
option given is wrong (a roster, adjustments, an OUT folder of another assignment):
nothing is graded or written then; 3 when the sandbox cannot run a submission at all (a
broken install: the message says what to do), before anything is graded; 130 when the
run was interrupted.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import signal
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from . import pipeline, sandbox
from .assignments import ASSIGNMENTS
from .assignments.exercise import cases_key
from .intake import Intake, IntakeError, Submission, collect, scratch
from .intake.notebook import SubmissionError, read_submission
from .intake.submissions import CHOSEN, SEVERAL
from .judge import similarity
from .judge.grade import Grade, grade, grader_sha256
from .judge.records import NOT_GRADED, display, identity, record
from .judge.tables import InputError
from .outputs import kept
from .outputs.outdir import OutFolderError

REPO = Path(__file__).resolve().parents[2]
REPO_SOLUTIONS = REPO / "solutions"
#: Places that hold answers, or other students' work: never visible to a submission.
REPO_SECRETS = (REPO_SOLUTIONS, REPO / "tests", REPO / ".git")


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m perceptron_lib.grading", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("submissions", type=Path,
                    help="a folder or a .zip file: Moodle's or Canvas's download as it is, "
                         "a folder per student, or one notebook per student")
    ap.add_argument("--out", type=Path, required=True,
                    help="the gradebook folder (made if missing; a rerun into it grades "
                         "only what changed)")
    ap.add_argument("--assignment", choices=sorted(ASSIGNMENTS),
                    help="grade every notebook as this assignment (default: the one its "
                         "metadata names)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help="submissions graded at once (default: the number of cores)")
    ap.add_argument("--force", action="store_true",
                    help="grade everyone again, even the unchanged")
    ap.add_argument("--only", action="append", default=[], metavar="STUDENT",
                    help="grade only this student (as 'Name (id)', the name or the id), "
                         "even if unchanged; the others keep their last grade "
                         "(repeatable)")
    ap.add_argument("--choose", action="append", default=[], metavar="STUDENT=FILE",
                    help="for a student with several notebooks, the one to grade: its "
                         "file name (repeatable)")
    ap.add_argument("--secret", type=Path, metavar="FILE",
                    help="draw the grading cases from this file (any file kept out of the "
                         "repository and away from students): cases that exist nowhere "
                         "before grading, the same on every rerun with the same file "
                         "(default: the package's own cases, which anyone can compute)")
    ap.add_argument("--wall-seconds", type=float, default=sandbox.Limits.wall_seconds,
                    help="time limit of a whole submission, in seconds (default: "
                         "%(default)g)")
    pipeline.add_arguments(ap)
    return ap


def _choices(ap: argparse.ArgumentParser, given: list[str]) -> dict[str, str]:
    """``--choose STUDENT=FILE`` options as a dictionary (the last one of a student wins)."""
    choices: dict[str, str] = {}
    for text in given:
        student, sep, file = text.rpartition("=")
        if not sep or not student.strip() or not file.strip():
            ap.error(f"--choose {text!r}: write the student, '=' and the notebook's file "
                     "name, as in --choose 'Ada Lovelace (1234)=perceptron_v2.ipynb'")
        choices[student.strip()] = file.strip()
    return choices


def _earlier_choices(out: Path) -> dict[str, str]:
    """The notebooks chosen with ``--choose`` in earlier runs into ``out``: a rerun
    without the option grades the same notebook."""
    found: dict[str, str] = {}
    for g in kept.load(out).values():
        if g.get("source") and any(f"({CHOSEN})" in str(w) for w in g.get("warnings", [])):
            found[display(g)] = str(g["source"])
    return found


def _named(s: Submission, names: set[str]) -> bool:
    """Whether ``names`` (students as ``Name (id)``, names or ids) names ``s``."""
    return not names.isdisjoint(s.student.keys())


def _unknown_students(intake: Intake, choices: dict[str, str], only: list[str]) -> list[str]:
    """The ``--choose`` and ``--only`` students that name nobody in the submissions."""
    unknown = [f"--choose {k!r}" for k in choices
               if not any(_named(s, {k}) for s in intake.submissions)]
    unknown += [f"--only {k!r}" for k in dict.fromkeys(only)
                if not any(_named(s, {k}) for s in intake.submissions)]
    return unknown


def _key(s: Submission) -> tuple[str, str]:
    return s.student.name, s.student.id


def _describe(g: Grade, s: Submission) -> Grade:
    """Add what the intake knows (the id, where the notebook was, the notes) to a grade."""
    g.student, g.student_id, g.source, g.warnings = (s.student.name, s.student.id, s.source,
                                                     list(s.notes))
    return g


def _unchanged(old: dict | None, s: Submission, grader_hash: str,
               assignment: str | None) -> bool:
    if not old or s.path is None or old.get("grader_sha256") != grader_hash:
        return False
    if str(old.get("status", "")).startswith(GRADER_ERROR):
        return False
    if assignment is not None and old.get("assignment") != assignment:
        return False
    return old.get("submission_sha256") == hashlib.sha256(s.path.read_bytes()).hexdigest()


def _report_intake(intake: Intake) -> None:
    print(intake.summary(), flush=True)
    for s in intake.submissions:
        for note in s.notes:
            print(f"note: {s.student}: {note}")
    for refused in intake.refused:
        print(f"refused {refused}", file=sys.stderr)


def _report_end(grades: list[dict], intake: Intake, assignment: str | None) -> None:
    wrong = [g for g in grades if g["status"].startswith("wrong assignment")]
    if wrong:
        print(f"warning: {len(wrong)} notebook{'s' * (len(wrong) != 1)} of another assignment "
              f"than {assignment}, graded as {assignment}:", file=sys.stderr)
        for g in wrong:
            print(f"  {display(g)}: {g['status']}", file=sys.stderr)
    if intake.refused:
        print(f"error: {len(intake.refused)} archive{'s' * (len(intake.refused) != 1)} "
              "refused (see above); their students are not in the gradebook",
              file=sys.stderr)
    several = _several(grades)
    if several:
        print(f"warning: {len(several)} student{'s' * (len(several) != 1)} with several "
              "notebooks and nothing that says which to grade; not graded, and left out of "
              "the exports until --choose 'STUDENT=FILE' names one:", file=sys.stderr)
        for g in several:
            print(f"  {display(g)}: {g['status']}", file=sys.stderr)


def _several(grades: list[dict]) -> list[dict]:
    return [g for g in grades if str(g.get("status", "")).startswith(SEVERAL)]


#: What the run says of its cases, with and without ``--secret``.
CASES_PUBLIC = ("cases: the package's own, which anyone can compute (answers included); "
                "pass --secret FILE to draw the grading cases from a file kept away from "
                "students")
CASES_SECRET = ("cases: drawn from the secret in {file}: they exist nowhere before grading, "
                "and the same file gives the same grades on every rerun")


def _cases_key(ap: argparse.ArgumentParser, secret: Path | None, root: Path,
               out: Path) -> bytes | None:
    """The key of ``--secret FILE`` (None without it); an error for a file that cannot be
    read, is empty, or sits where a student's code could read it."""
    if secret is None:
        return None
    path = secret.resolve()
    if path == root or root in path.parents or out in path.parents:
        ap.error(f"--secret {secret}: the secret must not be inside the submissions or the "
                 "--out folder")
    try:
        data = path.read_bytes()
    except OSError as exc:
        ap.error(f"--secret {secret}: {exc.strerror or exc}")
    if not data.strip():
        ap.error(f"--secret {secret}: the file is empty; put some random text in it (for "
                 "example: python3 -c \"import secrets; print(secrets.token_hex(32))\" > "
                 f"{secret})")
    return cases_key(data)


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else list(argv)
    if given[:1] == ["autograder"]:  # Gradescope's package (outputs/autograder.py)
        from .outputs import autograder
        return autograder.main(given[1:])
    if given[:1] == ["gradebook"]:  # the course's table of several runs (outputs/course.py)
        from .outputs import course
        return course.main(given[1:])
    ap = _parser()
    args = ap.parse_args(argv)
    out = args.out.resolve()
    root = args.submissions.resolve()
    if root.is_dir() and (out == root or root in out.parents):
        ap.error("--out must not be inside the submissions folder")
    args.cases_key = _cases_key(ap, args.secret, root, out)
    sandbox.reset_cancel()
    swept = scratch.sweep()
    if swept:
        print(f"removed {len(swept)} temporary folder{'s' * (len(swept) != 1)} that a "
              "stopped run left", flush=True)
    previous_handler = _interrupt_on_sigterm()
    try:
        return _main(ap, args, out, root)
    except KeyboardInterrupt:
        sandbox.cancel()
        print(f"interrupted: {_kept_line(out)}", file=sys.stderr, flush=True)
        return INTERRUPTED
    finally:
        signal.signal(signal.SIGTERM, previous_handler)
        scratch.release()


def _main(ap: argparse.ArgumentParser, args: argparse.Namespace, out: Path, root: Path) -> int:
    try:
        inputs = pipeline.read_inputs(args)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    choices = _choices(ap, args.choose)
    try:
        intake = collect(args.submissions, args.assignment, choices, _earlier_choices(out))
    except IntakeError as exc:
        ap.error(str(exc))
    with intake:
        if intake.notebooks == 0:
            print(f"error: {intake.nothing_found()}", file=sys.stderr)
            return 1
        unknown = _unknown_students(intake, choices, args.only)
        if unknown:
            print(f"error: {', '.join(unknown)}: no such student in {intake.label} (name "
                  "them as the gradebook does: 'Name (id)', the name or the id)\nnothing "
                  "was graded or written", file=sys.stderr)
            return 2
        _report_intake(intake)
        try:
            pipeline.prepare(inputs, args, intake, out)
        except (InputError, OutFolderError) as exc:
            print(f"error: {exc}\nnothing was graded or written", file=sys.stderr)
            return 2
        for note in inputs.notes:
            print(note, flush=True)
        made = not out.exists()
        out.mkdir(parents=True, exist_ok=True)
        hidden = [p for p in (*REPO_SECRETS, out, root, intake.staging)
                  if p is not None and p.exists()]
        limits = sandbox.Limits(wall_seconds=args.wall_seconds)
        isolation = sandbox.isolation_report(hidden, limits=limits)
        if isolation.get("broken_install"):
            if made:
                out.rmdir()
            print(f"error: the sandbox cannot run a submission: {isolation['broken_install']}"
                  "\nnothing was graded or written", file=sys.stderr)
            return BROKEN_INSTALL
        _report_isolation(isolation)
        cases = (CASES_SECRET.format(file=args.secret) if args.cases_key is not None
                 else CASES_PUBLIC)
        print(cases, flush=True)
        t0 = time.perf_counter()
        grades, graded = _grade_all(intake, args, out, hidden)
        skipped: list[dict] = []
        similar = _similar(intake, grades, skipped, args.workers)
        seconds = time.perf_counter() - t0
        summary = pipeline.finish(inputs, out, grades, submissions=str(args.submissions),
                                  refused=intake.refused, isolation=isolation,
                                  similar=similar, seconds=seconds,
                                  cases={"secret": args.cases_key is not None,
                                         "said": cases})
        kept.prune(out, [identity(g) for g in grades])
    print("\n".join(similarity.summary_lines(similar)))
    for s in skipped:
        print(f"note: {s['student']}: {s['why']}")
    print(f"graded {graded} in {seconds:.1f} s; gradebook in {out / 'grades.csv'}")
    print("\n".join(summary))
    _report_end(grades, intake, args.assignment)
    return 1 if intake.refused or _grader_errors(grades) or _several(grades) else 0


#: Exit status when the sandbox cannot run a submission at all (a broken install).
BROKEN_INSTALL = 3
#: Exit status of a run stopped by Ctrl+C or SIGTERM (128 + SIGINT, as shells report it).
INTERRUPTED = 130


def _interrupt_on_sigterm():
    """Make SIGTERM stop a run as Ctrl+C does (what was graded is kept); the old handler."""
    def handler(signum, frame):
        raise KeyboardInterrupt

    try:
        return signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: leave signals alone
        return signal.getsignal(signal.SIGTERM)


def _kept_line(out: Path) -> str:
    """One line on what an interrupted run kept, and how to go on."""
    n = len(list((out / kept.FOLDER).glob("*.json"))) if (out / kept.FOLDER).is_dir() else 0
    return (f"{n} graded submission{'s' * (n != 1)} kept in {out / kept.FOLDER}; run the "
            "same command again to grade the rest and write the gradebook")


def _grader_errors(grades: list[dict]) -> list[dict]:
    return [g for g in grades if str(g.get("status", "")).startswith(GRADER_ERROR)]


def _report_isolation(isolation: dict) -> None:
    """One line on what the sandbox isolates, and a warning for what it does not."""
    if not isolation["not_isolated"]:
        print(f"sandbox: {isolation['sandbox']}; {isolation['user']}; "
              f"{len(isolation['hidden_paths'])} folders with answers or submissions hidden",
              flush=True)
        return
    print(f"warning: sandbox: {isolation['sandbox']}; not isolated: "
          f"{'; '.join(isolation['not_isolated'])}", file=sys.stderr, flush=True)
    if isolation["visible_paths"]:
        print(f"warning: submissions can see {', '.join(isolation['visible_paths'])}",
              file=sys.stderr, flush=True)


def _similar(intake: Intake, grades: list[dict], skipped: list[dict],
             workers: int = 1) -> list[dict]:
    """Graded functions that are the same across students (for a person to look at)."""
    assignment_of = {(g["student"], g.get("student_id", "")): g["assignment"] for g in grades}
    submissions: dict[str, tuple[str, list[str]]] = {}
    for s in intake.submissions:
        assignment = assignment_of.get(_key(s))
        if s.path is None or assignment not in ASSIGNMENTS:
            continue
        try:
            submissions[str(s.student)] = (assignment, read_submission(s.path)[1])
        except SubmissionError:
            continue
    graded = {a: [t.name for t in ASSIGNMENTS[a]] for a in {a for a, _ in submissions.values()}}
    references: dict = {}
    for assignment, names in graded.items():
        references.update(similarity.reference_sources(
            assignment, names, REPO_SOLUTIONS if REPO_SOLUTIONS.is_dir() else None))
    return similarity.find_similar(submissions, graded, references, skipped=skipped,
                                   workers=workers)


GRADER_ERROR = "grader error"


def _graded_record(s: Submission, args: argparse.Namespace, limits: sandbox.Limits,
                   hidden: list[Path], grader_hash: str) -> dict:
    """Grade one submission into its record; any failure is this student's status."""
    try:
        g = grade(s.path, args.assignment, limits, hidden, student=s.student.name,
                  key=args.cases_key)
        return record(_describe(g, s), grader_hash)
    except Exception as exc:  # a failure of the grader on this file: this row only
        text = f"{type(exc).__name__}: {str(exc)[:300]}"
        g = Grade(student=s.student.name, assignment=args.assignment,
                  status=f"{GRADER_ERROR}: {text}")
        return record(_describe(g, s), grader_hash)


def _left_as_it_was(s: Submission, old: dict | None, assignment: str | None,
                    grader_hash: str) -> dict:
    """The record of a student ``--only`` leaves out: the last run's, or a row that says
    it was not graded (which no export gives a grade)."""
    if old is None:
        g = Grade(student=s.student.name, assignment=assignment,
                  status=f"{NOT_GRADED}: --only named other students; run without --only "
                         "to grade this one")
        return record(_describe(g, s), grader_hash)
    old.update(student_id=s.student.id, source=s.source, warnings=list(s.notes))
    if old.get("submission_sha256") != hashlib.sha256(s.path.read_bytes()).hexdigest():
        old["warnings"] = [*old["warnings"], "the notebook changed since this grade: run "
                                             "without --only to grade it again"]
    return old


def _grade_all(intake: Intake, args: argparse.Namespace,
               out: Path, hidden: list[Path]) -> tuple[list[dict], int]:
    """Grade what changed since the last run; the records, and how many were graded.

    Each record is kept in ``OUT/records`` as soon as it is graded (:mod:`.outputs.kept`),
    so that an interrupted run loses only what was being graded.
    """
    grader_hash = grader_sha256(args.cases_key)
    only = set(args.only)
    previous = {} if args.force and not only else kept.load(out)
    limits = sandbox.Limits(wall_seconds=args.wall_seconds)
    results: dict[tuple[str, str], dict] = {}
    todo: list[Submission] = []
    for s in intake.submissions:
        old = previous.get(_key(s))
        if s.path is None:
            g = Grade(student=s.student.name, assignment=args.assignment, status=s.problem)
            results[_key(s)] = record(_describe(g, s), grader_hash)
        elif only and not _named(s, only):
            results[_key(s)] = _left_as_it_was(s, old, args.assignment, grader_hash)
        elif not only and _unchanged(old, s, grader_hash, args.assignment):
            old.update(student_id=s.student.id, source=s.source, warnings=list(s.notes))
            results[_key(s)] = old
        else:
            todo.append(s)
    missing = sum(s.path is None for s in intake.submissions)
    print(f"{len(intake.submissions)} submissions: {len(todo)} to grade, "
          f"{len(results) - missing} unchanged"
          + (f", {missing} without a notebook" if missing else "")
          + f" (workers: {args.workers})", flush=True)
    pool = ThreadPoolExecutor(max_workers=max(1, args.workers))
    try:
        futures = {pool.submit(_graded_record, s, args, limits, hidden, grader_hash): s
                   for s in todo}
        for done, future in enumerate(as_completed(futures), start=1):
            s = futures[future]
            rec = future.result()
            if str(rec["status"]).endswith(sandbox.CANCELLED):
                continue  # stopped by Ctrl+C: graded again next time
            kept.keep(out, rec)
            results[_key(s)] = rec
            print(f"[{done}/{len(todo)}] {s.student}: {rec['total']:g}/{rec['max']:g} "
                  f"{rec['status']}", flush=True)
    except BaseException:
        sandbox.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return list(results.values()), len(todo)


if __name__ == "__main__":
    sys.exit(main())
