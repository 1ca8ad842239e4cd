"""Student-like implementations of the graded functions, one module per exercise notebook.

Each module lists ``WRONG``, realistic wrong implementations with the hint the feedback
must give them (the name of a known mistake of the task, one of the kinds in
:data:`HINTS`, or None for no hint at all), and ``VALID``, right implementations
written differently from the solutions, which must pass everything.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Hints that are not a known mistake of a task: an input changed in place, a call of
#: the library's version, an array of one element where a number belongs, a type the
#: exercise does not ask for (a list for an array, a float for a count), numbers
#: computed in float32, fractions added in place to an array of integers.
HINTS = ("changed input", "library", "one element", "type", "single", "integers")

#: Mistakes whose answer, wherever it is wrong, is also another mistake's answer: their
#: hint names both.  Leaving the label out of ``update`` (theta + x, theta_0 + 1) is
#: only wrong for y = -1, where it is exactly what subtracting y * x and y gives.
INSEPARABLE = {("update", "no label"): "subtracts"}


@dataclass(frozen=True)
class Wrong:
    """A wrong implementation of ``function``: fails its check cell, scores below full."""

    function: str
    about: str
    source: str
    hint: str | None


@dataclass(frozen=True)
class Valid:
    """A right implementation of ``function``, written another way."""

    function: str
    about: str
    source: str
