"""Seeded data for the in-page playgrounds, the same in Python and in the browser.

The playgrounds of chapters 1, 3, 4 and 6 let a reader generate data (separable with a
chosen margin, XOR, some labels flipped).  The page computes them in JavaScript
(``book/_demos/kit/generator.mjs``); this module computes the very same points, so that
a chapter can show in Python what a reader saw in the page, and the tests can hold the
two to each other.  numpy's generators cannot be reproduced cheaply in JavaScript, so both
use a small portable generator whose every step is written down here.

The random numbers: mulberry32
    A 32-bit state ``a`` (the seed, an integer in ``[0, 2**32)``).  Each draw, in
    arithmetic modulo ``2**32`` on unsigned integers (``imul`` is the low 32 bits of the
    product, ``>>`` a logical shift)::

        a = (a + 0x6D2B79F5) mod 2**32
        t = imul(a ^ (a >> 15), a | 1)
        t = ((t + imul(t ^ (t >> 7), t | 61)) mod 2**32) ^ t
        u = (t ^ (t >> 14)) / 2**32          # a float64 in [0, 1), exact

    Everything after it uses only ``+``, ``-``, ``*``, ``/`` and ``floor`` on float64
    values, which IEEE 754 rounds the same way in every language, in the order written
    below: no ``sin``, ``log`` or ``exp``, whose last bits may differ between engines.

The data (``k`` counts the points from 0; ``draw()`` is the next ``u``)
    separable
        A direction: draw ``a = 2 draw() - 1``, ``b = 2 draw() - 1`` until
        ``1/16 <= a*a + b*b <= 1``; ``r = sqrt(a*a + b*b)``; ``a = a / r``; ``b = b / r``;
        ``c = (2 draw() - 1) / 2``.  Point ``k`` wants label ``+1`` for even ``k`` and
        ``-1`` for odd ``k``; draw ``x1 = (floor(401 draw()) - 200) / 100``, then ``x2``
        the same way, until ``s = a*x1 + b*x2 + c`` (in that order) has ``want * s > 0``
        and ``want * s >= margin``.  So every point lies on a 0.01 grid in ``[-2, 2]^2``
        at distance at least ``margin`` from the line ``a x1 + b x2 + c = 0``, which
        separates the classes: the data's margin is at least ``margin``.
    xor
        Point ``k`` belongs to the corner ``k mod 4`` of ``(1, 1)``, ``(-1, -1)``,
        ``(1, -1)``, ``(-1, 1)`` (labels ``+1, +1, -1, -1``: the label is the sign of
        ``x1 * x2`` at the corner); each coordinate is the corner's plus
        ``(2 draw() - 1) * spread``, rounded to the 0.01 grid as
        ``floor(v * 100 + 0.5) / 100`` (first ``x1``, then ``x2``).
    flipped labels (either kind)
        ``m = floor(flip * n + 0.5)`` labels are flipped after the points are made: a
        partial Fisher-Yates shuffle of the indices ``0 .. n-1`` (for ``i < m``:
        ``j = i + floor(draw() * (n - i))``, swap positions ``i`` and ``j``) picks them.
    the held-out test set (either kind)
        After the flips, ``n_test`` more points from the same distribution, drawn as
        above with ``k`` counting from 0 again (the same line for the separable kind: no
        new direction is drawn), then their own ``floor(flip * n_test + 0.5)`` flips,
        picked the same way among ``0 .. n_test-1``.  The training data do not depend
        on ``n_test``.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from .._validate import check_count, check_scalar

KINDS = ("separable", "xor")
MAX_POINTS = 500
MAX_MARGIN = 1.0
MAX_SPREAD = 1.0
MAX_FLIP = 0.5
MAX_TRIES = 100_000  # draws for one point of the separable kind (never reached in practice)
_M32 = 0xFFFFFFFF
_CORNERS = ((1.0, 1.0, 1.0), (-1.0, -1.0, 1.0), (1.0, -1.0, -1.0), (-1.0, 1.0, -1.0))


class Mulberry32:
    """The playgrounds' random numbers (mulberry32, see the module's docstring).

    Parameters
    ----------
    seed : int
        An integer in ``[0, 2**32)``.

    Examples
    --------
    >>> rng = Mulberry32(1)
    >>> 0 <= rng.next_float() < 1
    True
    """

    def __init__(self, seed: int):
        self.state = check_seed(seed)

    def next_uint32(self) -> int:
        """The next 32-bit integer."""
        a = (self.state + 0x6D2B79F5) & _M32
        self.state = a
        t = ((a ^ (a >> 15)) * (a | 1)) & _M32
        t = ((t + (((t ^ (t >> 7)) * (t | 61)) & _M32)) & _M32) ^ t
        return (t ^ (t >> 14)) & _M32

    def next_float(self) -> float:
        """The next float64 in ``[0, 1)``: the 32-bit integer divided by ``2**32``."""
        return self.next_uint32() / 4294967296.0


def check_seed(seed: object) -> int:
    """Return ``seed`` as an int in ``[0, 2**32)``, or raise naming the problem."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an integer from 0 to 2**32 - 1, got {seed!r}")
    if not 0 <= seed <= _M32:
        raise ValueError(f"seed must be an integer from 0 to 2**32 - 1, got {seed}")
    return int(seed)


def _in_range(value: object, name: str, hi: float) -> float:
    v = check_scalar(value, name)
    if not 0.0 <= v <= hi:
        raise ValueError(f"{name} must be between 0 and {hi}, got {v}")
    return v


@dataclass(frozen=True)
class DemoData:
    """Data made by :func:`make_demo_data` (chapters 1, 3, 4 and 6's playgrounds).

    Attributes
    ----------
    X : numpy.ndarray, shape (n, 2)
        The points, on a 0.01 grid.
    y : numpy.ndarray, shape (n,)
        Their labels in {-1, +1}, after the flips.
    flipped : numpy.ndarray of int, shape (m,)
        The indices whose label was flipped, in the order they were picked.
    clean_y : numpy.ndarray, shape (n,)
        The labels before the flips.
    X_test : numpy.ndarray, shape (n_test, 2)
        The held-out points, from the same distribution (chapter 7's test error).
    y_test : numpy.ndarray, shape (n_test,)
        Their labels, with the same fraction flipped.
    """

    X: np.ndarray
    y: np.ndarray
    flipped: np.ndarray
    clean_y: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray


def _grid_point(draw) -> float:
    return (math.floor(401 * draw()) - 200) / 100


def _line(draw) -> tuple[float, float, float]:
    while True:
        a = 2 * draw() - 1
        b = 2 * draw() - 1
        r2 = a * a + b * b
        if 0.0625 <= r2 <= 1:
            break
    r = math.sqrt(r2)
    return a / r, b / r, (2 * draw() - 1) / 2


def _separable(n: int, margin: float, draw, line: tuple[float, float, float]) -> tuple[list, list]:
    a, b, c = line
    X, y = [], []
    for k in range(n):
        want = 1.0 if k % 2 == 0 else -1.0
        for _ in range(MAX_TRIES):
            x1 = _grid_point(draw)
            x2 = _grid_point(draw)
            s = a * x1 + b * x2 + c
            if want * s > 0 and want * s >= margin:
                break
        else:  # pragma: no cover - the margin is capped so that this cannot happen
            raise RuntimeError(f"no point found at margin {margin} after {MAX_TRIES} draws")
        X.append([x1, x2])
        y.append(want)
    return X, y


def _xor(n: int, spread: float, draw) -> tuple[list, list]:
    X, y = [], []
    for k in range(n):
        cx, cy, label = _CORNERS[k % 4]
        x1 = math.floor((cx + (2 * draw() - 1) * spread) * 100 + 0.5) / 100
        x2 = math.floor((cy + (2 * draw() - 1) * spread) * 100 + 0.5) / 100
        X.append([x1, x2])
        y.append(label)
    return X, y


def make_demo_data(
    kind: str,
    n: int,
    seed: int,
    *,
    margin: float = 0.3,
    spread: float = 0.3,
    flip: float = 0.0,
    n_test: int = 0,
) -> DemoData:
    """The data a playground's generator makes (chapters 1, 3, 4 and 6).

    The same arguments give the same float64 points and labels as ``generate`` of
    ``book/_demos/kit/generator.mjs`` in the reader's browser; the module's docstring
    writes down every step.

    Parameters
    ----------
    kind : {"separable", "xor"}
        Separable by a line with at least ``margin``, or the four XOR corners.
    n : int
        The number of points, 2 to 500.
    seed : int
        The seed of :class:`Mulberry32`, 0 to ``2**32 - 1``.
    margin : float, default 0.3
        ``separable`` only: every point's distance to the generating line is at least
        this (0 to 1), so the data's margin is at least this too.
    spread : float, default 0.3
        ``xor`` only: each coordinate lies within this of its corner's (0 to 1), up to
        the rounding to the 0.01 grid.
    flip : float, default 0.0
        The fraction of labels flipped afterwards (0 to 0.5): ``floor(flip n + 0.5)`` of
        them, chosen at random.
    n_test : int, default 0
        The size of a held-out test set from the same distribution (0 to 500), drawn
        after the training data, which do not depend on it.

    Returns
    -------
    DemoData

    Raises
    ------
    ValueError, TypeError
        On an unknown kind, or a count, seed or option out of its range.

    Examples
    --------
    >>> d = make_demo_data("xor", 8, seed=7, spread=0.2, flip=0.25)
    >>> d.X.shape, len(d.flipped), int((d.y != d.clean_y).sum())
    ((8, 2), 2, 2)
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    n = check_count(n, "n", 2)
    if n > MAX_POINTS:
        raise ValueError(
            f"n must be at most {MAX_POINTS} (a playground draws every point), got {n}")
    rng = Mulberry32(seed)
    margin = _in_range(margin, "margin", MAX_MARGIN)
    spread = _in_range(spread, "spread", MAX_SPREAD)
    flip = _in_range(flip, "flip", MAX_FLIP)
    n_test = check_count(n_test, "n_test", 0)
    if n_test > MAX_POINTS:
        raise ValueError(f"n_test must be at most {MAX_POINTS}, got {n_test}")
    draw = rng.next_float
    line = _line(draw) if kind == "separable" else None

    def points(count: int) -> tuple[list, list]:
        if kind == "separable":
            return _separable(count, margin, draw, line)
        return _xor(count, spread, draw)

    X, y = points(n)
    clean = list(y)
    flipped = _flip(y, flip, draw)
    X_test, y_test = points(n_test) if n_test else ([], [])
    _flip(y_test, flip, draw)
    return DemoData(
        X=np.array(X, dtype=float).reshape(n, 2),
        y=np.array(y, dtype=float),
        flipped=np.array(flipped, dtype=int),
        clean_y=np.array(clean, dtype=float),
        X_test=np.array(X_test, dtype=float).reshape(n_test, 2),
        y_test=np.array(y_test, dtype=float),
    )


def _flip(y: list, flip: float, draw) -> list[int]:
    """Flip ``floor(flip n + 0.5)`` of the labels in place; return their indices."""
    n = len(y)
    m = math.floor(flip * n + 0.5)
    order = list(range(n))
    for i in range(m):
        j = i + math.floor(draw() * (n - i))
        order[i], order[j] = order[j], order[i]
        y[order[i]] = -y[order[i]]
    return order[:m]
