"""The check cells of the exercise notebooks: public cases, feedback that teaches.

``check(update)`` runs the public cases of the graded function ``update`` against the
student's function, in the student's own kernel, and prints what happened.  It never
raises, so a half-done notebook still runs from top to bottom, and it never claims more
than it checked: grading uses further cases.
"""

from __future__ import annotations

import contextlib
import copy
import io
import signal
import threading

from .cases import find_task
from .feedback import explain, same
from .grader import _hint, _safe

CASE_SECONDS = 5.0


class _TookTooLong(Exception):
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


def check(fn, name: str | None = None) -> None:
    """Run the public cases of a graded function and print feedback (returns nothing)."""
    run_checks(fn, name)


def run_checks(fn, name: str | None = None) -> bool:
    """What :func:`check` does; True when every public case passes."""
    try:
        name = name or getattr(fn, "__name__", None)
        _, task = find_task(name)
    except (KeyError, TypeError) as exc:
        print(f"check: {exc}")
        return False
    if not callable(fn):
        print(f"check: {name} is not a function yet")
        return False
    passed = 0
    for k, case in enumerate(task.public, start=1):
        expected = task.reference(*copy.deepcopy(case.args))
        try:
            with contextlib.redirect_stdout(io.StringIO()), _time_limit(CASE_SECONDS):
                got = fn(*copy.deepcopy(case.args))
        except NotImplementedError:
            print(f"✗ {name}: not written yet (it still raises NotImplementedError).")
            return False
        except _TookTooLong:
            print(f"✗ case {k} ({case.about}): your function ran for more than "
                  f"{CASE_SECONDS:g} s and was stopped (an endless loop?)")
            continue
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            print(f"✗ case {k} ({case.about}): your function raised "
                  f"{type(exc).__name__}: {exc}")
            continue
        if task.normalize is not None:
            expected, got = task.normalize(expected), _safe(task.normalize, got)
        if same(expected, got):
            passed += 1
            continue
        print(f"✗ case {k} ({case.about}): {explain(expected, got)}")
        hint = _hint(task, case, got)
        if hint:
            print(f"  hint: {hint}")
    more = len(task.hidden())
    if passed == len(task.public):
        which = "the public case passes" if passed == 1 else f"the {passed} public cases pass"
        print(f"✓ {name}: {which}. Grading uses {more} more cases.")
        return True
    print(f"{name}: {passed} of {len(task.public)} public cases pass "
          f"(grading uses {more} more).")
    return False
