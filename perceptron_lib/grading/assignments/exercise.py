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

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Case:
    """One call: the arguments, and what the case is about."""

    args: tuple
    about: str


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
    hidden: Callable[[], list[Case]]
    #: The kind of answer (see :mod:`.answers`), in the exercise's own words.
    answer: Any
    signature: str = ""
    known: tuple[Mistake, ...] = ()
    #: The graded functions before it in its notebook that its solution builds on
    #: (``("update",)`` for ``perceptron``): when it loses points and so does one of
    #: these that it calls, it is also graded with their references (see
    #: :mod:`..judge.cascade`).  None: any graded function before it in its notebook.
    calls: tuple[str, ...] | None = None

    def all_cases(self) -> list[Case]:
        """The public cases, then the cases used only at grading time."""
        return list(self.public) + list(self.hidden())

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
