"""Grade one submitted notebook: extract its code, run it in the sandbox, score it."""

from __future__ import annotations

import copy
import hashlib
import pickle
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from .. import sandbox
from ..assignments import ASSIGNMENTS, Case, Task
from ..assignments.codec import encode
from ..intake.notebook import (
    SubmissionError,
    cell_numbers,
    named_assignment,
    read_submission,
)
from . import cascade
from .verdict import Verdict, fit_hints, judge, show_input


@dataclass
class TaskResult:
    """One graded function's result.

    ``with_reference`` names the graded functions whose references it earned these
    points with, in place of the student's (empty: with the student's own; see
    :mod:`.cascade`), and ``own_passed`` how many cases it passed with the student's
    own (None unless ``with_reference``); ``passed``, ``details`` and ``feedback`` are
    those of the run that scored.
    """

    name: str
    points: float
    max_points: float
    passed: int
    cases: int
    feedback: list[str] = field(default_factory=list)
    details: list[dict] = field(default_factory=list)
    with_reference: list[str] = field(default_factory=list)
    own_passed: int | None = None


@dataclass
class Grade:
    """One submission's grade.

    ``student`` and ``student_id`` say who (the id is the platform's, empty when the
    student is known by a name only); ``source`` is where the notebook was found;
    ``warnings`` are what the instructor should know about the submission (a late file,
    several notebooks); ``notes`` are the cells that raised an error.
    """

    student: str
    assignment: str | None
    status: str
    tasks: list[TaskResult] = field(default_factory=list)
    submission_sha256: str = ""
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    student_id: str = ""
    source: str = ""
    warnings: list[str] = field(default_factory=list)

    @property
    def total(self) -> float:
        return round(sum(t.points for t in self.tasks), 3)

    @property
    def max(self) -> float:
        """The points on offer: the assignment's, even when nothing could be run."""
        if self.tasks:
            return sum(t.max_points for t in self.tasks)
        if self.assignment in ASSIGNMENTS:
            return float(sum(t.points for t in ASSIGNMENTS[self.assignment]))
        return 0.0


def grader_sha256(key: bytes | None = None) -> str:
    """A hash of the grader's own code and cases, recorded with every grade: with a run's
    key (``--secret``, :func:`..assignments.exercise.cases_key`), of the key too, so that
    a rerun with another secret (or none) grades everyone again."""
    h = hashlib.sha256()
    here = Path(__file__).resolve().parents[1]  # the whole grading package
    for path in sorted(here.rglob("*.py")):
        h.update(path.relative_to(here).as_posix().encode())
        h.update(path.read_bytes())
    if key is not None:
        h.update(b"cases drawn with " + hashlib.sha256(key).digest())
    return h.hexdigest()


def _details_lines(d: dict, hints: dict[str, int]) -> list[str]:
    lines = [f"  case {d['case']} ({d['kind']}, {d['about']}):"]
    if d.get("input"):
        lines.append(f"    input: {d['input']}")
    lines += [f"    {line}" for line in d.get("differences", [d.get("error", "")])]
    hint = d.get("hint")
    if hint and hint in hints:
        lines.append(f"    hint: as for case {hints[hint]}")
    elif hint:
        hints[hint] = d["case"]
        lines.append(f"    hint: {hint}")
    return lines


_expected: OrderedDict[tuple[str, bytes], object] = OrderedDict()
_expected_lock = threading.Lock()
EXPECTED_KEPT = 4096  # reference answers kept (a class shares one assignment's cases)


def expected_answer(task: Task, case: Case):
    """The reference's answer to ``case``: computed once for every submission of a run
    (each copy handed out is the caller's own)."""
    try:
        key = (task.name, hashlib.sha256(pickle.dumps(case.args, protocol=5)).digest())
    except Exception:  # arguments pickle cannot write: no sharing
        return task.reference(*copy.deepcopy(case.args))
    with _expected_lock:
        if key in _expected:
            _expected.move_to_end(key)
            return copy.deepcopy(_expected[key])
    value = task.reference(*copy.deepcopy(case.args))
    with _expected_lock:
        _expected[key] = copy.deepcopy(value)
        while len(_expected) > EXPECTED_KEPT:
            _expected.popitem(last=False)
    return value


def score(task: Task, cases: list[Case], answers: dict[str, dict], public: int) -> TaskResult:
    """Compare the answers to one task's cases with the reference (grader side only).

    Parameters
    ----------
    task
        The graded function (chapters 1-7 exercises).
    cases
        Its cases, public ones first, in the order the answers were keyed.
    answers
        ``"name:k"`` -> ``{"value": ...}`` or ``{"error": text}``; ``"mutated"`` lists
        the 0-based positions of the arguments the call changed in place (absent: none),
        and such a case fails whatever the value.
    public
        How many of ``cases`` are public.

    Returns
    -------
    TaskResult
        The points (in proportion to the cases right), a detail per case and the
        feedback lines, judged as the check cells judge (:func:`.verdict.judge`); a
        known mistake's hint only where it explains most of the failed cases
        (:func:`.verdict.fit_hints`).
    """
    result = TaskResult(task.name, 0.0, float(task.points), 0, len(cases))
    verdicts: list[Verdict] = []
    given = [answers.get(f"{task.name}:{k}") for k in range(len(cases))]
    for k, (case, answer) in enumerate(zip(cases, given, strict=True)):
        kind = "public" if k < public else "grading"
        detail = {"case": k + 1, "kind": kind, "about": case.about, "passed": False}
        if answer is None:
            verdict = Verdict(False, ("no answer (the run stopped before this case)",))
        else:
            if "seconds" in answer:
                detail["seconds"] = answer.get("seconds")
            expected = expected_answer(task, case)
            verdict = judge(task, case, expected, value=answer.get("value"),
                            error=answer.get("error") if "error" in answer else None,
                            mutated=list(answer.get("mutated") or []))
        verdicts.append(verdict)
        result.details.append(detail)
    for case, detail, verdict, answer in zip(cases, result.details, fit_hints(task, verdicts),
                                             given, strict=True):
        if verdict.passed:
            detail["passed"] = True
            result.passed += 1
            continue
        detail["error"] = "; ".join(verdict.lines)
        if answer is not None:
            detail["differences"] = list(verdict.lines)
        if verdict.hint:
            detail["hint"] = verdict.hint
        shown = show_input(task, case)
        if shown:
            detail["input"] = shown
    result.points = round(task.points * result.passed / max(len(cases), 1), 3)
    failed = [d for d in result.details if not d["passed"]]
    if not failed:
        result.feedback.append(f"{task.name}: all {len(cases)} cases right.")
    else:
        result.feedback.append(
            f"{task.name}: {result.passed} of {len(cases)} cases right "
            f"({result.points:g} of {task.points:g} points).")
        result.feedback += _failures(failed)
    return result


def _failures(failed: list[dict]) -> list[str]:
    """The feedback lines of the first three failed cases."""
    hints: dict[str, int] = {}
    return [line for d in failed[:3] for line in _details_lines(d, hints)]


def with_references(own: TaskResult, alt: TaskResult, names: list[str]) -> TaskResult:
    """The result of a function that did better with the references of ``names`` than
    with the student's own (see :mod:`.cascade`): ``alt``'s points and cases, and the
    feedback that says so."""
    passes = alt.passed == alt.cases
    which = cascade.with_the_references(names)
    mine = "yours" if len(names) == 1 else "your own"
    head = (f"{alt.name}: all {alt.cases} cases right with {which}" if passes else
            f"{alt.name}: {alt.passed} of {alt.cases} cases right with {which}")
    feedback = [f"{head} ({alt.points:g} of {alt.max_points:g} points; with {mine}, "
                f"{own.passed} of {own.cases}).",
                f"  {cascade.note(alt.name, names, passes=passes)}."]
    if not passes:
        feedback += _failures([d for d in alt.details if not d["passed"]])
    return TaskResult(alt.name, alt.points, alt.max_points, alt.passed, alt.cases, feedback,
                      alt.details, list(names), own.passed)


def grade(path: Path, assignment: str | None = None,
          limits: sandbox.Limits | None = None,
          hidden: list[Path] = (), *, student: str | None = None,
          key: bytes | None = None) -> Grade:
    """Grade one notebook; never raises for anything the submission does.

    ``key`` draws the grading cases (:func:`..assignments.exercise.cases_key`, from the
    instructor's ``--secret``); without one they are the package's own.

    ``student`` names the row (the file's stem if None).  When ``assignment`` is given
    and the notebook's metadata names another one, the notebook is still graded as
    ``assignment``: that is what the instructor set, and a student who started from the
    wrong exercise file may still have written the functions asked for.  The status
    says so (``wrong assignment: the notebook is ..., graded as ...``), so that the
    instructor sees it rather than a silent 0.
    """
    path = Path(path)
    g = Grade(student=path.stem if student is None else student, assignment=assignment,
              status="ok")
    try:
        g.submission_sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        g.status = f"unreadable file: {exc}"
        return g
    try:
        named, cells = read_submission(path)
    except SubmissionError as exc:
        g.status = str(exc)
        g.assignment = assignment or named_assignment(path)  # so that max is known
        return g
    g.assignment = assignment or named
    if g.assignment not in ASSIGNMENTS:
        g.status = (f"unknown assignment {g.assignment!r}" if g.assignment else
                    "no assignment in the notebook's metadata (use --assignment)")
        return g
    wrong = (f"wrong assignment: the notebook is {named}, graded as {assignment}"
             if assignment and named and named != assignment else None)
    if wrong:
        g.status = wrong
    tasks = ASSIGNMENTS[g.assignment]
    all_cases = {t.name: t.all_cases(key) for t in tasks}
    calls = [c for t in tasks for c in _calls(t, all_cases[t.name])]
    again = _Again(cells, tasks, all_cases)
    run = sandbox.run(cells, calls, limits or sandbox.Limits(), hidden=list(hidden),
                      follow_up=again if again.possible() else None)
    g.seconds = round(run.seconds, 3)
    g.tasks = [score(t, all_cases[t.name], run.answers, len(t.public)) for t in tasks]
    if run.status == sandbox.CANCELLED:  # not graded: the next run grades it
        g.status = sandbox.CANCELLED
        return g
    if run.status != "ok":
        g.status = f"{wrong}; {run.status}" if wrong else run.status
    elif not _with_references(g, cells, tasks, all_cases, limits, hidden,
                              answered=again.answered(run)):
        g.status = sandbox.CANCELLED
        return g
    numbers = cell_numbers(path) if run.cell_errors else []
    for err in run.cell_errors[:5]:
        k = err["cell"]
        shown = numbers[k - 1] if 0 < k <= len(numbers) else k
        g.notes.append(f"cell [{shown}] raised {err['error']}")
    if _hit_a_limit(run):
        g.notes.append(f"When graded, {sandbox.describe(limits or sandbox.Limits())}; a cell "
                       "that runs past its time, exits or crashes is skipped and the others "
                       "still count.")
    return g


def _dependents(scores: list[TaskResult], cells: list[str],
                tasks: list[Task]) -> list[tuple[int, tuple[str, ...]]]:
    """The functions to grade again with references (see :mod:`.cascade`): those that
    lost points and call graded functions that lost points too, each ``(its index,
    the functions whose references it gets)``."""
    lost = {t.name for t in scores if t.passed < t.cases}
    functions: dict[str, set[str]] | None = None
    found = []
    for k, task in enumerate(tasks):
        if task.name not in lost or not set(cascade.allowed(task, tasks)) & lost:
            continue
        if functions is None:  # read the cells only when some function needs it
            functions = cascade.uses_in_cells(cells, {t.name for t in tasks})
        callees = cascade.callees(task, tasks, functions.get(task.name, ()), lost)
        if callees:
            found.append((k, callees))
    return found


def _calls(task: Task, cases: list[Case], prefix: str = "") -> list[dict]:
    return [{"id": f"{prefix}{task.name}:{j}", "function": task.name,
             "args": [encode(a) for a in c.args]} for j, c in enumerate(cases)]


class _Again:
    """The grading run's second part (:class:`.sandbox.FollowUp`): once the run's own
    answers are in, the first functions to grade again with references (those that get
    the same references) are answered in the same sandbox, where the library allows it
    (:func:`.sandbox.can_follow`); any others get runs of their own."""

    PREFIX = "again:"

    def __init__(self, cells: list[str], tasks: list[Task],
                 all_cases: dict[str, list[Case]]) -> None:
        self.cells, self.tasks, self.all_cases = cells, tasks, all_cases
        self.names = frozenset(t.name for t in tasks)
        self.chosen: set[str] = set()

    def possible(self) -> bool:
        return any(cascade.allowed(t, self.tasks) for t in self.tasks)

    def __call__(self, first: sandbox.RunResult) -> sandbox.FollowUp | None:
        scores = [score(t, self.all_cases[t.name], first.answers, len(t.public))
                  for t in self.tasks]
        found = _dependents(scores, self.cells, self.tasks)
        if not found:
            return None
        callees = found[0][1]
        blocked = self.names - cascade.unblocked(callees, self.tasks)
        if not sandbox.can_follow(self.names, blocked):
            return None
        group = [self.tasks[k] for k, c in found if c == callees]
        self.chosen = {t.name for t in group}
        return sandbox.FollowUp(
            calls=[c for t in group for c in _calls(t, self.all_cases[t.name], self.PREFIX)],
            references=[cascade.shipped(t) for t in self.tasks if t.name in callees],
            blocked=frozenset(blocked))

    def answered(self, run: sandbox.RunResult) -> dict[str, dict[str, dict]]:
        """The second part's answers, by function, keyed as a run of their own keys them."""
        found: dict[str, dict[str, dict]] = {name: {} for name in self.chosen}
        for cid, answer in run.later.items():
            key = cid.removeprefix(self.PREFIX)
            if key.split(":")[0] in found:
                found[key.split(":")[0]][key] = answer
        return found


def _with_references(g: Grade, cells: list[str], tasks: list[Task],
                     all_cases: dict[str, list[Case]], limits: sandbox.Limits | None,
                     hidden: list[Path], answered: dict[str, dict[str, dict]]) -> bool:
    """Grade again, with the references of the graded functions it calls, each function
    that lost points and calls graded functions that lost points too; keep the better
    score (see :mod:`.cascade`).  False when grading was cancelled meanwhile.

    The functions the grading run answered again in its second part (``answered``, by
    :class:`_Again`) take those answers; each other one gets a run of its own, after the
    grading run has ended.  Either way the run answers that function's cases only, its
    library stands in for every graded function but the references shipped (and what
    they build on, :func:`.cascade.unblocked`), and what it answers counts for that
    function only, when it does better.
    """
    names = {t.name for t in tasks}
    for k, callees in _dependents(g.tasks, cells, tasks):
        task, own = tasks[k], g.tasks[k]
        cases = all_cases[task.name]
        answers = answered.get(task.name)
        if answers is None:
            references = [cascade.shipped(t) for t in tasks if t.name in callees]
            run = sandbox.run(cells, _calls(task, cases), limits or sandbox.Limits(),
                              hidden=list(hidden),
                              blocked=frozenset(names - cascade.unblocked(callees, tasks)),
                              references=references)
            g.seconds = round(g.seconds + run.seconds, 3)
            if run.status == sandbox.CANCELLED:
                return False
            answers = run.answers
        alt = score(task, cases, answers, len(task.public))
        if alt.passed > own.passed:
            g.tasks[k] = with_references(own, alt, list(callees))
    return True


def _hit_a_limit(run: sandbox.RunResult) -> bool:
    """Whether a cell, a call or the whole run stopped at one of the sandbox's limits.

    The sandbox says so in fields: ``limit_hit`` for the whole run (what the grader saw
    itself), ``"limit"`` in the error of a cell or a call (what the child reports);
    never in words, which a student's own message may hold too.
    """
    return (run.limit_hit is not None
            or any(e.get("limit") for e in run.cell_errors)
            or any(a.get("limit") for a in run.answers.values()))
