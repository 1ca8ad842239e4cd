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

When some cases fail and the function calls graded functions of its notebook that
fail their own public cases (``perceptron`` calls ``update``), its cases run once more
with the references of those in their place, as grading does (:mod:`.judge.cascade`);
if it does better, the check says so: "`perceptron` passes with the reference
`update`: fix `update` first".

It never raises, so a half-done notebook still runs from top to bottom, and it never
claims more than it checked: grading uses further cases.
"""

from __future__ import annotations

import contextlib
import copy
import io
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

import perceptron_lib

from .assignments import ASSIGNMENTS, find_task, graded_names
from .assignments.exercise import Case, Task
from .judge import cascade
from .judge.verdict import Verdict, changed_arguments, fit_hints, judge, show_input
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
    return _outcomes(fn, task, graded_names(assignment))


@contextlib.contextmanager
def _bound(scope: dict, functions: dict[str, Callable]) -> Iterator[None]:
    """While active, ``scope`` (a notebook's namespace) holds ``functions`` in place of
    its own of the same names; everything is put back on exit."""
    missing = object()
    before = {name: scope.get(name, missing) for name in functions}
    scope.update(functions)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is missing:
                scope.pop(name, None)
            else:
                scope[name] = value


def _outcomes(fn: Callable, task: Task, blocked: Iterable[str],
              references: dict[str, Callable] | None = None) -> list[Outcome]:
    """The public outcomes of ``fn`` while the library's routes to ``blocked`` stand in
    for themselves and ``references`` are bound in ``fn``'s namespace."""
    expected = [task.reference(*copy.deepcopy(case.args)) for case in task.public]
    scope = getattr(fn, "__globals__", None)
    binding = _bound(scope, references) if references and isinstance(scope, dict) else (
        contextlib.nullcontext())
    with standing_in(blocked), binding:
        got = [_call(fn, case) for case in task.public]
    verdicts = []
    for case, e, g in zip(task.public, expected, got, strict=True):
        if g.get("timeout"):
            verdicts.append(Verdict(False, (f"your function ran for more than "
                                            f"{CASE_SECONDS:g} s, the time grading allows "
                                            "each call, and was stopped (an endless loop?)",)))
        else:
            verdicts.append(judge(task, case, e, value=g.get("value"), error=g.get("error"),
                                  mutated=changed_arguments(g["pristine"], g["given"])))
    return [Outcome(k, case, verdict) for k, (case, verdict) in
            enumerate(zip(task.public, fit_hints(task, verdicts), strict=True), start=1)]


@dataclass(frozen=True)
class WithReferences:
    """The public outcomes of a function run with the references of ``names``, the
    graded functions it calls that fail their own public cases."""

    names: tuple[str, ...]
    outcomes: list[Outcome]


def _fails(name: str, scope: dict, assignment: str) -> bool:
    """Whether the notebook's function ``name`` fails one of its public cases (or is
    missing, or not written yet)."""
    fn = scope.get(name)
    if not callable(fn):
        return True
    try:
        return not all(o.verdict.passed for o in public_outcomes(fn, find_task(name)[1],
                                                                 assignment))
    except _NotWritten:
        return True


def with_references(fn: Callable, task: Task, assignment: str) -> WithReferences | None:
    """Run the public cases of ``task`` on ``fn`` with the references of the graded
    functions it calls that fail their own public cases (as grading does, see
    :mod:`.judge.cascade`); None when it calls none such.

    Raises
    ------
    _NotWritten
        When a call still raises NotImplementedError.
    """
    scope = getattr(fn, "__globals__", None)
    if not isinstance(scope, dict):
        return None
    tasks = ASSIGNMENTS[assignment]
    names = [t.name for t in tasks]
    used = cascade.uses_live(fn, names)
    lost = [n for n in cascade.allowed(task, tasks) if n in used and _fails(n, scope,
                                                                           assignment)]
    callees = cascade.callees(task, tasks, used, lost)
    if not callees:
        return None
    references = {t.name: cascade.load_shipped(cascade.shipped(t), {
        "__name__": "reference", "np": np, "pl": perceptron_lib}) for t in tasks
        if t.name in callees}
    blocked = set(names) - cascade.unblocked(callees, tasks)
    return WithReferences(callees, _outcomes(fn, task, blocked, references))


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
    passed = sum(o.verdict.passed for o in outcomes)
    more = len(task.grading_cases())
    if passed == len(task.public):
        which = "the public case passes" if passed == 1 else f"the {passed} public cases pass"
        print(f"✓ {name}: {which}. Grading uses {more} more cases.")
        return True
    try:
        better = with_references(fn, task, assignment)
    except _NotWritten:
        better = None
    if better is not None and sum(o.verdict.passed for o in better.outcomes) > passed:
        _print_with_references(name, task, passed, better)
        return False
    _print_failures(task, outcomes)
    print(f"{name}: {passed} of {len(task.public)} public cases pass "
          f"(grading uses {more} more).")
    return False


def _print_failures(task: Task, outcomes: list[Outcome]) -> None:
    hints: dict[str, int] = {}
    for outcome in outcomes:
        if not outcome.verdict.passed:
            print("\n".join(_report(task, outcome, hints)))


def _print_with_references(name: str, task: Task, passed: int, better: WithReferences) -> None:
    """What the check cell says of a function that does better with the references of
    the graded functions it calls."""
    n = len(task.public)
    theirs = sum(o.verdict.passed for o in better.outcomes)
    which = cascade.with_the_references(better.names)
    yours = "your " + " and ".join(f"`{c}`" for c in better.names)
    if theirs == n:
        print(f"✗ {name}: {passed} of {n} public cases pass with {yours}; all {n} pass "
              f"with {which}.")
        print(f"  {cascade.note(name, better.names, passes=True)}.")
        return
    _print_failures(task, better.outcomes)
    print(f"{name}: {passed} of {n} public cases pass with {yours}, {theirs} with {which} "
          f"(grading uses {len(task.grading_cases())} more).")
    print(f"  {cascade.note(name, better.names, passes=False)}.")
