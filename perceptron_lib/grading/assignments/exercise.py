"""A graded function of an exercise notebook: its cases and the mistakes it names.

Every graded function (chapters 1-7 exercises) is a :class:`Task`: the name the student
defines, its points, a reference that computes the expected answer (in the grader's
process only), public cases that the notebook's check cell runs, further cases used
only at grading time, the kind of answer the exercise asks for, and the common
mistakes.  A :class:`Mistake` is a wrong implementation with a hint: when the wrong
implementation's answers are the student's on most of the failing cases, the feedback
gives that hint on those cases, and no hint otherwise.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

#: What the key of a run without the instructor's secret is: its cases are those the
#: package holds, which anyone can compute.
PUBLIC = None


def cases_key(secret: bytes) -> bytes:
    """The key a run's grading cases are drawn with, from the instructor's secret (any
    file kept out of the repository, ``--secret``).  Stretched (PBKDF2, 200,000 rounds),
    so that nothing recorded with a grade lets anyone try guesses of the secret fast."""
    return hashlib.pbkdf2_hmac("sha256", secret, b"perceptron-course grading cases",
                               200_000)


class Seeds:
    """The seeds a task's grading cases are drawn with (``seeds(200 + k)``).

    Without a key they are the numbers written in the assignment, so that the cases are
    the package's own, the same on every machine.  With a run's key (:func:`cases_key`)
    each number gives a seed derived from the key, the task's name and the number: cases
    that exist nowhere before grading, the same on every rerun with the same secret.
    """

    def __init__(self, key: bytes | None, task: str) -> None:
        self.key, self.task = key, task

    def __call__(self, number: int) -> int:
        if self.key is None:
            return number
        digest = hashlib.sha256(self.key + self.task.encode() + b"\0"
                                + str(number).encode()).digest()
        return int.from_bytes(digest[:8], "big")

    def rng(self, number: int) -> np.random.Generator:
        """A generator seeded with ``self(number)``."""
        return np.random.default_rng(self(number))


@dataclass(frozen=True)
class Case:
    """One call: the arguments, and what the case is about."""

    args: tuple
    about: str


#: What the about of an integer twin starts with.
INTEGER_INPUTS = "integer arrays, "


def integer_twin(case: Case) -> Case | None:
    """``case`` with each float array of whole numbers given as an int64 array, or None
    when it has none.  Every exercise allows integer arrays wherever it takes an array
    (its notebook's *What your functions return*), and an answer must not depend on it:
    ``np.zeros_like(x)`` of an integer ``x`` cannot hold ``0.5``."""
    args, changed = [], False
    for a in case.args:
        if isinstance(a, np.ndarray) and a.dtype.kind == "f" and a.size and bool(
                np.all(np.isfinite(a)) and np.all(a == np.round(a))):
            args.append(a.astype(np.int64))
            changed = True
        else:
            args.append(a)
    return Case(tuple(args), INTEGER_INPUTS + case.about) if changed else None


@dataclass(frozen=True)
class Mistake:
    """A common wrong implementation: a short ``name``, the ``hint`` that explains it,
    and ``wrong``, a function that makes the mistake (same arguments as the task)."""

    name: str
    hint: str
    wrong: Callable[..., Any]


@dataclass(frozen=True)
class Task:
    """A graded function of an assignment."""

    name: str
    points: float
    reference: Callable[..., Any]
    public: tuple[Case, ...]
    #: The cases used only at grading time, drawn with the run's seeds (:class:`Seeds`).
    hidden: Callable[[Seeds], list[Case]]
    #: The kind of answer (see :mod:`.answers`), in the exercise's own words.
    answer: Any
    signature: str = ""
    known: tuple[Mistake, ...] = ()
    #: The graded functions before it in its notebook that its solution builds on
    #: (``("update",)`` for ``perceptron``): when it loses points and so does one of
    #: these that it calls, it is also graded with their references (see
    #: :mod:`..judge.cascade`).  None: any graded function before it in its notebook.
    calls: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        # The public cases end with the first of them again in integer arrays, when it
        # takes arrays of whole numbers (:func:`integer_twin`): every exercise allows
        # integer inputs, so its check cell tries one.
        if any(c.about.startswith(INTEGER_INPUTS) for c in self.public):
            return
        twins = [t for t in map(integer_twin, self.public) if t is not None]
        object.__setattr__(self, "public", (*self.public, *twins[:1]))

    def all_cases(self, key: bytes | None = PUBLIC) -> list[Case]:
        """The public cases, then the cases used only at grading time, drawn with
        ``key`` (:func:`cases_key`; the package's own cases without one)."""
        return list(self.public) + self.grading_cases(key)

    def grading_cases(self, key: bytes | None = PUBLIC) -> list[Case]:
        """The cases used only at grading time (see :meth:`all_cases`)."""
        return list(self.hidden(Seeds(key, self.name)))

    @property
    def parameters(self) -> tuple[str, ...]:
        """The argument names of the signature, ``("theta", "theta_0", "x", "y")``."""
        found = re.match(r"\s*\w+\((.*?)\)", self.signature)
        if not found or not found.group(1).strip():
            return ()
        return tuple(p.split("=")[0].strip() for p in found.group(1).split(","))

    @property
    def mistakes(self) -> dict[str, Callable[..., Any]]:
        """Each known mistake's wrong implementation, by the mistake's name."""
        return {m.name: m.wrong for m in self.known}

    def mistake(self, name: str) -> Mistake:
        """The known mistake called ``name``."""
        for m in self.known:
            if m.name == name:
                return m
        raise KeyError(f"{self.name} has no mistake named {name!r}; it has "
                       f"{[m.name for m in self.known]}")
