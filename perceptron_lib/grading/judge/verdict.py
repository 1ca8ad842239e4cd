"""Comparing an answer with the expected one, and saying what went wrong.

Shared by the check cells of the exercise notebooks (:mod:`.check`) and the grader
(:func:`.grader.score`), so that both judge an answer alike and word it alike
(chapters 1-7 exercises).
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..assignments.answers import ATOL, RTOL, Mismatch, is_number, show
from ..assignments.codec import encode
from ..assignments.exercise import INTEGER_INPUTS, Case, Mistake, Task

#: A check-cell or grading call of a library function that stands in for a graded one
#: raises a RuntimeError whose text says so (see :mod:`.standins`).
_LIBRARY_CALL = re.compile(r"perceptron_lib(?:'s|\.[\w.]+) .*write (?:it|\w+) yourself")
_LIBRARY_NAME = re.compile(r"perceptron_lib's (\w+)")
_LIBRARY_ROUTE = re.compile(r"perceptron_lib\.([\w.]+) is switched off while (\w+) is graded")


def mismatch(task: Task, expected: Any, got: Any) -> Mismatch | None:
    """How ``got`` differs from ``expected`` for ``task``'s kind of answer (None: alike)."""
    return task.answer.mismatch(expected, got)


def same(task: Task, expected: Any, got: Any) -> bool:
    """True when ``got`` is an acceptable answer where ``expected`` is the right one."""
    try:
        return mismatch(task, expected, got) is None
    except Exception:
        return False


def alike(a: Any, b: Any) -> bool:
    """True when two answers are the same values of the same types (numbers to 1e-9
    relative; a tuple and a list alike; a bool never alike a number)."""
    try:
        if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
            if len(a) != len(b):
                return False
            if all(is_number(v) for v in (*a, *b)) and a and b:
                return alike(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
            return all(alike(x, y) for x, y in zip(a, b, strict=True))
        if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
                return False
            if a.shape != b.shape or (a.dtype.kind == "b") != (b.dtype.kind == "b"):
                return False
            return bool(np.allclose(a.astype(float), b.astype(float), rtol=RTOL, atol=ATOL,
                                    equal_nan=True))
        if isinstance(a, (bool, np.bool_)) or isinstance(b, (bool, np.bool_)):
            return isinstance(a, (bool, np.bool_)) and isinstance(b, (bool, np.bool_)) \
                and bool(a) == bool(b)
        if is_number(a) and is_number(b):
            return bool(np.isclose(float(a), float(b), rtol=RTOL, atol=ATOL))
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


def show_input(task: Task, case: Case, limit: int = 400) -> str | None:
    """The case's arguments by name (``X = [[1.0, 2.0]], theta_0 = 1.0``), when short."""
    names = task.parameters
    if len(names) != len(case.args):
        names = tuple(f"argument {k + 1}" for k in range(len(case.args)))
    text = ", ".join(f"{name} = {show(value)}" for name, value in zip(names, case.args,
                                                                         strict=True))
    if len(text) > limit or "an array of shape" in text:
        return None
    return text


# ------------------------------------------------------------ arguments changed in place
def _identical(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            return False
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        try:
            return bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
        except TypeError:
            return bool(np.array_equal(a, b))
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_identical(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_identical(a[k], b[k]) for k in a)
    if isinstance(a, float) and a != a:
        return b != b
    return bool(a == b)


def changed_arguments(pristine: Sequence[Any], after: Sequence[Any]) -> list[int]:
    """The arguments that a call of a graded function changed in place (chapters 1-7).

    Parameters
    ----------
    pristine
        A copy of the arguments, taken before the call.
    after
        The arguments the function was given, looked at after it returned.

    Returns
    -------
    list of int
        The 0-based positions of the arguments that differ (values, shape or type).
    """
    return [k for k, (a, b) in enumerate(zip(pristine, after, strict=True))
            if not _identical(a, b)]


def _named(task: Task, positions: Sequence[int]) -> str:
    names = task.parameters
    named = [f"`{names[k]}`" if k < len(names) else f"argument {k + 1}" for k in positions]
    which = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    return f"its argument{'s' if len(named) > 1 else ''} {which}"


def mutation_hint(task: Task, positions: Sequence[int]) -> str:
    """What to tell a student whose function changed the arguments at ``positions``."""
    names = task.parameters
    name = names[positions[0]] if positions and positions[0] < len(names) else "a"
    return (f"your function changed {_named(task, positions)} in place, and so the "
            "caller's data; the exercise asks you to leave the inputs as they are. Build "
            f"new arrays (`{name} = {name} + ...` makes a new one, `{name} += ...` or "
            f"`{name}[i] = ...` changes the one you were given) or work on a copy "
            f"(`{name} = {name}.copy()`)")


def library_hint(error: str) -> str | None:
    """The hint for an error raised by a library function that stands in for a graded
    one, or None when ``error`` is another error."""
    if not _LIBRARY_CALL.search(error):
        return None
    route = _LIBRARY_ROUTE.search(error)
    if route:  # another library function, which holds the graded one
        where, graded = route.groups()
        return (f"you called the library's `{where}`, which is switched off while "
                f"`{graded}` is graded (it computes `{graded}`, or part of it): write "
                f"`{graded}` yourself")
    found = _LIBRARY_NAME.search(error)
    which = (f"the library's `{found.group(1)}`" if found
             else "the library's version of this function")
    return (f"you called {which}; grading runs without it, as it runs without every library "
            "function that this notebook asks you to write: write it yourself")


_CAST = re.compile(r"Cannot cast ufunc '\w+' output from dtype\('float\d*'\) to "
                   r"dtype\('u?int\d*'\)")


def dtype_hint(error: str) -> str | None:
    """The hint for adding floats into an integer array in place, which is what an array
    built in an input's dtype (``np.zeros_like(x)`` of an integer ``x``) raises."""
    if not _CAST.search(error):
        return None
    return ("a fraction was added in place to an array of integers, which cannot hold it: "
            "if the array is an argument, do not change it in place (`theta = theta + ...`, "
            "not `theta += ...`); if you made it from an input (`np.zeros_like(x)`, "
            "`x.copy()`), build it in floats instead, `np.zeros(d)` or `x.astype(float)`")


# ------------------------------------------------------------------------- one verdict
@dataclass(frozen=True)
class Verdict:
    """What became of one case: passed or not, what differs, and a hint that fits.

    ``mistakes`` names the known mistakes whose answer this is; their hint is given
    only when they explain most of the function's failures (:func:`fit_hints`), and
    ``hint`` holds it then; before, ``hint`` is a hint about this case alone (an input
    changed in place, a call of the library's version, a kind of answer), or None.
    """

    passed: bool
    lines: tuple[str, ...] = ()
    hint: str | None = None
    mistakes: tuple[str, ...] = ()
    #: False for a case of integer inputs, which repeats another case in other dtypes:
    #: it takes no part in deciding which mistake explains most failures.
    votes: bool = True


_RAISED = object()
_WRONG_ANSWERS: dict[tuple[str, str, str], Any] = {}
_WRONG_PENDING: dict[tuple[str, str, str], threading.Lock] = {}
_WRONG_LOCK = threading.Lock()


def _case_key(case: Case) -> str:
    try:
        text = json.dumps([encode(a) for a in case.args], sort_keys=True)
    except (TypeError, ValueError):
        return ""
    return hashlib.sha256(text.encode()).hexdigest()


def _wrong_answer(task: Task, mistake: Mistake, case: Case, key: str) -> Any:
    """What ``mistake`` answers to ``case`` (remembered: the mistakes are deterministic
    and some run many epochs; computed once however many graders ask at the same time)."""
    cached = (task.name, mistake.name, key)
    if not key:
        return _run_mistake(mistake, case)
    with _WRONG_LOCK:
        if cached in _WRONG_ANSWERS:
            return _WRONG_ANSWERS[cached]
        lock = _WRONG_PENDING.setdefault(cached, threading.Lock())
    with lock:  # a second asker waits for the first one's answer
        with _WRONG_LOCK:
            if cached in _WRONG_ANSWERS:
                return _WRONG_ANSWERS[cached]
        wrong = _run_mistake(mistake, case)
        with _WRONG_LOCK:
            if len(_WRONG_ANSWERS) > 20_000:
                _WRONG_ANSWERS.clear()
            _WRONG_ANSWERS[cached] = wrong
            _WRONG_PENDING.pop(cached, None)
    return wrong


def _run_mistake(mistake: Mistake, case: Case) -> Any:
    try:
        return mistake.wrong(*copy.deepcopy(case.args))
    except Exception:
        return _RAISED


def matching_mistakes(task: Task, case: Case, got: Any) -> tuple[str, ...]:
    """The known mistakes of ``task`` whose answer to ``case`` is ``got`` (chapters 1-7).

    Parameters
    ----------
    task
        The graded function, with its known mistakes.
    case
        The case the answer was given to.
    got
        The student's answer.

    Returns
    -------
    tuple of str
        The names of the mistakes that return exactly ``got`` on this case, in the
        task's order; empty when no known mistake gives this answer.
    """
    key = _case_key(case)
    names = []
    for m in task.known:
        wrong = _wrong_answer(task, m, case, key)
        if wrong is not _RAISED and (same(task, wrong, got) or alike(wrong, got)):
            names.append(m.name)
    return tuple(names)


def mistakes_hint(task: Task, names: Sequence[str]) -> str | None:
    """The hint of the named mistakes: one hint, both hints when two mistakes give the
    same answer, or None for no mistake."""
    hints: list[str] = []
    for name in names:
        hint = task.mistake(name).hint
        if hint not in hints:
            hints.append(hint)
    if not hints:
        return None
    if len(hints) == 1:
        return hints[0]
    return "this is the answer of more than one mistake: " + "; or ".join(hints)


def fitting_mistakes(verdicts: Sequence[Verdict]) -> set[str]:
    """The known mistakes that explain most of the failures: each is the answer of more
    than half of the failed cases among ``verdicts`` (one function's cases).  A case of
    integer inputs that repeats another (``votes`` False) is left out of the count,
    unless only such cases failed."""
    failed = [v for v in verdicts if not v.passed]
    failed = [v for v in failed if v.votes] or failed
    counts = Counter(name for v in failed for name in set(v.mistakes))
    return {name for name, n in counts.items() if 2 * n > len(failed)}


def fit_hints(task: Task, verdicts: Sequence[Verdict]) -> list[Verdict]:
    """The verdicts of one function's cases, each with the hint that fits (chapters 1-7).

    A known mistake's hint is given on the cases whose answer is that mistake's only
    when the mistake explains most (more than half) of the function's failed cases, not
    when one case happens to equal its answer (a mean of the margins is, on one case,
    the smallest distance); the other cases keep their own hint.

    Parameters
    ----------
    task
        The graded function.
    verdicts
        The verdicts of its cases (:func:`judge`), all those the hint speaks of: the
        public ones in a check cell, every case in grading.

    Returns
    -------
    list of Verdict
        The same verdicts, in order, with ``hint`` set.
    """
    fitting = fitting_mistakes(verdicts)
    out = []
    for v in verdicts:
        names = [n for n in v.mistakes if n in fitting]
        out.append(replace(v, hint=mistakes_hint(task, names) or v.hint) if names else v)
    return out


def judge(task: Task, case: Case, expected: Any, *, value: Any = None,
          error: str | None = None, mutated: Sequence[int] = ()) -> Verdict:
    """The verdict on one case, the same in a check cell and in grading (chapters 1-7).

    Parameters
    ----------
    task, case
        The graded function and the case it was called on.
    expected
        The reference's answer.
    value
        The student's answer (ignored when ``error`` is given).
    error
        What the call raised (``"ValueError: ..."``), or None.
    mutated
        The 0-based positions of the arguments the call changed in place.

    Returns
    -------
    Verdict
        Passed or not; the lines saying what differs; a hint about this case alone
        where one fits (an input changed in place, a call of the library's version, an
        array of one element where a number belongs) and the known mistakes whose
        answer it is, whose hint :func:`fit_hints` gives when they explain most of the
        function's failures.
    """
    votes = not case.about.startswith(INTEGER_INPUTS)  # see Verdict.votes
    if error is not None:
        # The sandbox's own words (a function not defined, a call stopped at its time
        # limit) stand as they are; anything else is what the function raised.
        said = error if error.startswith(("no function named", "timed out", "stopped:",
                                          "called exit", "unencodable")) else (
            f"your function raised {error}")
        return Verdict(False, (said,), library_hint(error) or dtype_hint(error), votes=votes)
    try:
        differs = mismatch(task, expected, value)
    except Exception as exc:  # an answer no kind can read
        differs = Mismatch((f"the answer could not be compared ({type(exc).__name__})",))
    if mutated:
        changed = f"your function changed {_named(task, mutated)} in place"
        lines = (*differs.lines, changed) if differs else (
            f"the answer is right, but {changed}",)
        return Verdict(False, lines, mutation_hint(task, mutated), votes=votes)
    if differs is None:
        return Verdict(True)
    return Verdict(False, differs.lines, differs.hint, matching_mistakes(task, case, value),
                   votes=votes)
