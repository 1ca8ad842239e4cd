"""What a graded function returns, in the words of its exercise, and how answers differ.

Each graded function (chapters 1-7 exercises) declares the shape of its answer with the
kinds below: a :class:`Number`, a :class:`Flag`, an :class:`Array`, a set of
:class:`Indices`, a :class:`Group` of named values (a tuple, or a list where the
exercise allows it) or a :class:`Sequence` of such groups.  A kind compares an answer
with the expected one and, when they differ, says how in lines a student can act on:
the differing entries of an array with their positions, integers as integers, plain
numbers, and the type the exercise asks for in its own words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .codec import Unsupported

RTOL, ATOL = 1e-9, 1e-12
SHOWN = 5  # differing entries listed before "and N more"

# What a type that differs from the exercise's tells the student to return.  A type
# passes when every use the book makes of the answer works the same with it: an int
# where a float is asked, numpy's bool where a bool is, a list where a tuple of named
# values is (it unpacks the same way).  The others fail the case with these hints.
ARRAY_HINT = ("the exercise asks for a numpy array, and {kind} is not one: `2 * v` "
              "repeats a list instead of doubling it and `v.shape` fails; return "
              "`np.array(...)`")
COUNT_HINT = ("the exercise asks for a count, an int: start it at `0`, not `0.0`, and add "
              "`1` (or return `int(...)`)")


@dataclass(frozen=True)
class Mismatch:
    """How an answer differs from the expected one: lines to show, and a hint when the
    kind of answer itself tells what went wrong (an array where a number belongs)."""

    lines: tuple[str, ...]
    hint: str | None = None

    def text(self) -> str:
        return "; ".join(self.lines)


# ------------------------------------------------------------------------ formatting
def is_number(value: Any) -> bool:
    """A real number that is not a bool (Python or numpy scalar)."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_))


def _float_text(x: float, digits: int) -> str:
    if np.isnan(x) or np.isinf(x):
        return str(x)
    text = f"{x:.{digits}g}"
    return text if ("e" in text or "." in text or "n" in text) else text + ".0"


def number(x: Any, other: Any = None) -> str:
    """A number as a student would write it: ``3`` for an int, ``0.5`` for a float.

    With ``other`` (the number it is compared with), enough digits to tell them apart.
    """
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    x = float(x)
    for digits in (6, 10, 17):
        text = _float_text(x, digits)
        if other is None or not is_number(other) or float(other) == x:
            return text
        if text != _float_text(float(other), digits):
            return text
    return repr(x)


def _nested(a: np.ndarray) -> str:
    if a.ndim == 0:
        return number(a.item())
    return "[" + ", ".join(_nested(row) for row in a) + "]"


def show(value: Any, limit: int = 40) -> str:
    """A short, plain rendering of a value (an input or an answer)."""
    if isinstance(value, Unsupported):
        return repr(value)
    if isinstance(value, str):
        text = repr(value)
        return text if len(text) <= 300 else text[:297] + "...'"
    if isinstance(value, (bool, np.bool_)) or is_number(value):
        return number(value)
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":
            return f"an array of dtype {value.dtype}"
        if value.size > limit:
            return f"an array of shape {value.shape}"
        return _nested(value)
    if isinstance(value, tuple):
        inner = ", ".join(show(v, limit) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        if len(value) > limit:
            return f"a list of {len(value)} values"
        return "[" + ", ".join(show(v, limit) for v in value) + "]"
    if value is None:
        return "None"
    return f"a {type(value).__name__}"


def describe(value: Any) -> str:
    """What a returned value is, for "expected ..., got <describe>"."""
    if value is None:
        return "None (did the function forget to return?)"
    if isinstance(value, Unsupported):
        return repr(value)
    if isinstance(value, np.ndarray):
        shown = show(value)
        return shown if shown.startswith("an array") else (
            f"an array of shape {value.shape}: {shown}")
    if isinstance(value, (tuple, list)):
        kind = "a tuple" if isinstance(value, tuple) else "a list"
        return f"{kind} of {len(value)} value{'s' * (len(value) != 1)}: {show(value)}"
    if isinstance(value, (bool, np.bool_)) or is_number(value):
        return show(value)
    if isinstance(value, str):
        return f"the string {show(value)}"
    return show(value)


def _wanted(words: str, shape: tuple[int, ...]) -> str:
    """The array an exercise asks for, with the shape this case expects."""
    return f"{words}, here {shape}" if "shape" in words else f"{words} of shape {shape}"


def _close(e: float, g: float) -> bool:
    return bool(np.isclose(g, e, rtol=RTOL, atol=ATOL))


# ----------------------------------------------------------------------------- kinds
@dataclass(frozen=True)
class Number:
    """A single number: a float (an int passes), or an int (``integer``) such as a count
    of updates, where a float fails with the hint to count in ints."""

    words: str = "a float"
    integer: bool = False

    def mismatch(self, expected: Any, got: Any) -> Mismatch | None:
        if is_number(got):
            if self.integer and not isinstance(got, (int, np.integer)):
                right = float(got).is_integer() and _close(float(expected), float(got))
                return Mismatch(
                    (f"expected {self.words} ({number(expected)}), got the float "
                     f"{number(float(got))}" + (" (the right count as a float)" if right
                                                else ""),),
                    hint=COUNT_HINT)
            if _close(float(expected), float(got)):
                return None
            return Mismatch((f"expected {number(expected, got)}, got {number(got, expected)}",))
        if isinstance(got, np.ndarray) and got.size == 1 and got.dtype.kind in "iuf":
            return Mismatch(
                (f"expected {self.words} ({number(expected)}), got {describe(got)}",),
                hint="that is an array holding one number, not a number: return the number "
                     "itself, by taking the entry (`a[0]` or `a[-1]`, not `a[:1]` or `a[-1:]`) "
                     "or with `float(...)`")
        return Mismatch((f"expected {self.words} ({number(expected)}), got {describe(got)}",))


@dataclass(frozen=True)
class Flag:
    """True or False: a bool (numpy's bool too, which a comparison of numpy values
    gives), not 1 or 0 (a known mistake of the task that returns one says why)."""

    words: str = "a bool, True or False"

    def mismatch(self, expected: Any, got: Any) -> Mismatch | None:
        if isinstance(got, (bool, np.bool_)):
            if bool(got) == bool(expected):
                return None
            return Mismatch((f"expected {bool(expected)}, got {bool(got)}",))
        return Mismatch((f"expected {bool(expected)} ({self.words}), got {describe(got)}",))


def _as_array(got: Any) -> np.ndarray | None:
    if isinstance(got, (str, bytes, dict, Unsupported)) or got is None:
        return None
    try:
        a = np.asarray(got)
    except (TypeError, ValueError):
        return None
    if a.dtype.kind not in "biuf":
        return None
    return a


def _entry(a: np.ndarray, index: tuple) -> Any:
    return a[index].item()


def _position(index: tuple) -> str:
    return "[" + ", ".join(str(i) for i in index) + "]"


#: Relative precision of numpy's float32, the "single precision" an array gets from
#: ``dtype=np.float32``: about 7 significant digits.
SINGLE = 1e-6


@dataclass(frozen=True)
class Array:
    """A numpy array of numbers, ints or floats: a list or a tuple is not one (the hint
    says to return an array); an array of numpy's float32 (7 digits) that differs is
    told to be computed in float64."""

    words: str = "an array of floats"

    def mismatch(self, expected: Any, got: Any) -> Mismatch | None:
        e = np.asarray(expected)
        if isinstance(got, (list, tuple)):
            return self._not_an_array(e, got)
        g = _as_array(got)
        if g is None or g.ndim == 0:
            return Mismatch((f"expected {_wanted(self.words, e.shape)}, got {describe(got)}",))
        if g.shape != e.shape:
            return Mismatch((f"expected {_wanted(self.words, e.shape)}, got "
                             f"{describe(g)}",))
        values = self._values(e, g)
        if values is None:
            return None
        if g.dtype.kind == "f" and g.dtype.itemsize < 8 and e.dtype.kind in "fiu" and np.allclose(
                g.astype(float), e.astype(float), rtol=SINGLE, atol=SINGLE):
            return Mismatch(values.lines,
                            hint=f"your array holds {g.dtype} values (about 7 digits): "
                                 "compute in float64, numpy's default (no `dtype=np.float32`"
                                 ", no `.astype(np.float32)`)")
        return values

    def _not_an_array(self, e: np.ndarray, got: list | tuple) -> Mismatch:
        """A list (or tuple) where the exercise asks for an array: what it holds, and
        whether its numbers are the right ones, with the hint to return an array."""
        kind = "a list" if isinstance(got, list) else "a tuple"
        lines = [f"expected {_wanted(self.words, e.shape)}, got {describe(got)}"]
        g = _as_array(got)
        if g is not None and g.shape == e.shape:
            values = self._values(e, g)
            lines += ([f"the numbers are right, but {kind} is not a numpy array"]
                      if values is None else list(values.lines))
        return Mismatch(tuple(lines), hint=ARRAY_HINT.format(kind=kind))

    @staticmethod
    def _values(e: np.ndarray, g: np.ndarray) -> Mismatch | None:
        """How the values of ``g`` differ from ``e`` (same shape), or None."""
        ok = np.isclose(g.astype(float), e.astype(float), rtol=RTOL, atol=ATOL)
        if ok.all():
            return None
        wrong = list(zip(*np.nonzero(~ok), strict=True))
        if e.size <= 8:
            gap = np.abs(g.astype(float) - e.astype(float))
            where = ", ".join(f"{_position(i)} (by {gap[i]:.2g})" for i in wrong)
            return Mismatch((f"expected {show(e)}, got {show(g)} (they differ at {where})",))
        shown = [f"at {_position(i)} expected {number(_entry(e, i), _entry(g, i))}, "
                 f"got {number(_entry(g, i), _entry(e, i))}" for i in wrong[:SHOWN]]
        more = f", and {len(wrong) - SHOWN} more" if len(wrong) > SHOWN else ""
        return Mismatch((f"{len(wrong)} of the {e.size} entries differ: "
                         + "; ".join(shown) + more,))


@dataclass(frozen=True)
class Indices:
    """A set of indices: an array or a list of ints whose order does not matter."""

    words: str = "a list or an array of ints"

    def mismatch(self, expected: Any, got: Any) -> Mismatch | None:
        e = sorted(int(i) for i in np.asarray(expected).ravel())
        g = _as_array(got)
        if g is None or g.ndim != 1:
            return Mismatch((f"expected {self.words}, got {describe(got)}",))
        if g.size and not np.all(np.mod(g, 1) == 0):
            return Mismatch((f"expected {self.words}, got non-whole numbers: {show(g)}",))
        g_list = sorted(int(i) for i in g)
        if g_list == e:
            return None
        if len(e) <= 12 and len(g_list) <= 12:
            text = f"expected {_set(e)}, got {_set(g_list)} (in any order)"
        else:
            text = f"expected {len(e)} indices, got {len(g_list)}"
            missing, extra = sorted(set(e) - set(g_list)), sorted(set(g_list) - set(e))
            if missing:
                text += f"; missing {_set(missing)}"
            if extra:
                text += f"; not expected {_set(extra)}"
        if len(set(g_list)) < len(g_list):
            text += "; some indices appear more than once"
        return Mismatch((text,))


def _set(values: list[int]) -> str:
    if len(values) > 12:
        return "{" + ", ".join(map(str, values[:12])) + f", ... ({len(values)} in all)}}"
    return "{" + ", ".join(map(str, values)) + "}"


@dataclass(frozen=True)
class Group:
    """Several named values returned together: a tuple (a list is accepted too)."""

    parts: tuple[tuple[str, Any], ...]
    words: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.parts)

    def mismatch(self, expected: Any, got: Any) -> Mismatch | None:
        n = len(self.parts)
        words = self.words or f"a tuple ({', '.join(self.names)})"
        if not isinstance(got, (tuple, list)):
            return Mismatch((f"expected {words}, got {describe(got)}",))
        if len(got) != n:
            return Mismatch((f"expected {n} values ({', '.join(self.names)}), got "
                             f"{len(got)}: {show(got)}",))
        lines, hints = [], []
        for (name, kind), e, g in zip(self.parts, expected, got, strict=True):
            m = kind.mismatch(e, g)
            if m is not None:
                lines += [f"{name}: {line}" for line in m.lines]
                if m.hint:
                    hints.append(f"{name}: {m.hint}")
        if not lines:
            return None
        return Mismatch(tuple(lines), "; ".join(hints) or None)


@dataclass(frozen=True)
class Sequence:
    """A list of ``item`` answers, one per ``label`` (a tuple is accepted too)."""

    item: Any
    label: str = "item"
    words: str = "a list"

    def mismatch(self, expected: Any, got: Any) -> Mismatch | None:
        if not isinstance(got, (tuple, list)):
            return Mismatch((f"expected {self.words} of {len(expected)}, got "
                             f"{describe(got)}",))
        if len(got) != len(expected):
            return Mismatch((f"expected {self.words} of {len(expected)}, got {len(got)} "
                             "values",))
        differing = []
        for j, (e, g) in enumerate(zip(expected, got, strict=True)):
            m = self.item.mismatch(e, g)
            if m is not None:
                differing.append((j, m))
        if not differing:
            return None
        j, first = differing[0]
        lines = [f"{self.label} {j}, {line}" for line in first.lines]
        if len(differing) > 1:
            others = ", ".join(str(k) for k, _ in differing[1:])
            lines.append(f"{self.label}{'s' if len(differing) > 2 else ''} {others} "
                         "differ too")
        return Mismatch(tuple(lines), first.hint)
