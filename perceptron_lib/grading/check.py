"""The check cells of the exercise notebooks: public cases, feedback that teaches.

``check(update)`` runs the public cases of the graded function ``update`` against the
student's function, in the student's own kernel, and prints what happened (chapters
1-7 exercises).  It judges each answer as the grader does (:func:`.feedback.judge`), so
whatever grading would score below full on these cases, the check cell reports as
wrong, with the reason:

- each call runs while the library's versions of the notebook's graded functions stand
  in for themselves and raise (:func:`.standins.standing_in`), as they do in grading;
- each call gets copies of the case's inputs, and an input changed in place is
  reported, naming it;
- a call that runs longer than grading allows is stopped.

It never raises, so a half-done notebook still runs from top to bottom, and it never
claims more than it checked: grading uses further cases.
"""

from __future__ import annotations

import contextlib
import copy
import io
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .assignments import find_task, graded_names
from .assignments.exercise import Case, Task
from .judge.verdict import Verdict, changed_arguments, judge, show_input
from .sandbox.standins import standing_in

try:  # the time grading allows each call (the sandbox needs a Unix system; checks do not)
    from .sandbox import Limits

    CASE_SECONDS = Limits().call_seconds
except ImportError:  # pragma: no cover - Windows
    CASE_SECONDS = 2.0


class _TookTooLong(Exception):
    pass


class _NotWritten(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds: float):
    """Stop a call after ``seconds`` where the platform allows it (main thread, Unix)."""
    usable = (hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def on_alarm(signum, frame):
        raise _TookTooLong()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Outcome:
    """One public case run in the student's kernel, and its verdict."""

    number: int
    case: Case
    verdict: Verdict


def _call(fn: Callable, case: Case) -> dict[str, Any]:
    """Call ``fn`` on copies of the case's inputs: its answer, or the error it raised,
    and the inputs it changed in place."""
    pristine = copy.deepcopy(case.args)
    given = copy.deepcopy(case.args)
    try:
        with contextlib.redirect_stdout(io.StringIO()), _time_limit(CASE_SECONDS):
            value = fn(*given)
    except NotImplementedError as exc:
        raise _NotWritten() from exc
    except _TookTooLong:
        return {"timeout": True}
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        return {"error": f"{type(exc).__name__}: {exc}", "given": given, "pristine": pristine}
    return {"value": value, "given": given, "pristine": pristine}


def public_outcomes(fn: Callable, task: Task, assignment: str) -> list[Outcome]:
    """Run every public case of ``task`` on ``fn`` and judge the answers (chapters 1-7).

    The calls run while the library's versions of every function the assignment grades
    stand in for themselves (as in grading); the expected answers are computed before,
    and the answers judged after, by :func:`.feedback.judge`.

    Parameters
    ----------
    fn
        The student's function.
    task
        The graded function it implements.
    assignment
        The notebook ``task`` belongs to.

    Returns
    -------
    list of Outcome
        One per public case, in order.

    Raises
    ------
    _NotWritten
        When ``fn`` still raises NotImplementedError.
    """
    expected = [task.reference(*copy.deepcopy(case.args)) for case in task.public]
    with standing_in(graded_names(assignment)):
        got = [_call(fn, case) for case in task.public]
    outcomes = []
    for k, (case, e, g) in enumerate(zip(task.public, expected, got, strict=True), start=1):
        if g.get("timeout"):
            verdict = Verdict(False, (f"your function ran for more than {CASE_SECONDS:g} s, "
                                      "the time grading allows each call, and was stopped "
                                      "(an endless loop?)",))
        else:
            verdict = judge(task, case, e, value=g.get("value"), error=g.get("error"),
                            mutated=changed_arguments(g["pristine"], g["given"]))
        outcomes.append(Outcome(k, case, verdict))
    return outcomes


def _report(task: Task, outcome: Outcome, hints: dict[str, int]) -> list[str]:
    lines = [f"✗ case {outcome.number} ({outcome.case.about})"]
    shown = show_input(task, outcome.case)
    if shown:
        lines.append(f"    input: {shown}")
    lines += [f"    {line}" for line in outcome.verdict.lines]
    hint = outcome.verdict.hint
    if hint and hint in hints:
        lines.append(f"  hint: as for case {hints[hint]}")
    elif hint:
        hints[hint] = outcome.number
        lines.append(f"  hint: {hint}")
    return lines


def check(fn, name: str | None = None) -> None:
    """Run the public cases of a graded function and print feedback (returns nothing)."""
    run_checks(fn, name)


def run_checks(fn, name: str | None = None) -> bool:
    """What :func:`check` does; True when every public case passes."""
    try:
        name = name or getattr(fn, "__name__", None)
        assignment, task = find_task(name)
    except (KeyError, TypeError) as exc:
        print(f"check: {exc}")
        return False
    if not callable(fn):
        print(f"check: {name} is not a function yet")
        return False
    try:
        outcomes = public_outcomes(fn, task, assignment)
    except _NotWritten:
        print(f"✗ {name}: not written yet (it still raises NotImplementedError).")
        return False
    hints: dict[str, int] = {}
    for outcome in outcomes:
        if not outcome.verdict.passed:
            print("\n".join(_report(task, outcome, hints)))
    passed = sum(o.verdict.passed for o in outcomes)
    more = len(task.hidden())
    if passed == len(task.public):
        which = "the public case passes" if passed == 1 else f"the {passed} public cases pass"
        print(f"✓ {name}: {which}. Grading uses {more} more cases.")
        return True
    print(f"{name}: {passed} of {len(task.public)} public cases pass "
          f"(grading uses {more} more).")
    return False
