"""Shattering and the VC dimension of halfspaces (chapter 7, learning theory).

A set of points is *shattered* by halfspaces when each of its ``2^n`` labellings is
linearly separable.  The VC dimension of a class is the size of the largest set it
shatters: ``d + 1`` for halfspaces with an offset in ``R^d``, ``d`` for halfspaces
through the origin.  The functions here check labellings one by one with the linear
program of :func:`perceptron_lib.is_linearly_separable`, so they are for small sets.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import ArrayLike

from ._validate import check_count, check_X

__all__ = ["shatters", "unrealizable_labelings", "vc_dimension_halfspaces"]

#: The largest set checked: ``2^(n - 1)`` linear programs (a labelling and its negative
#: stand or fall together), about 30 000 at this size.
MAX_POINTS = 16


def _labelings(X: ArrayLike, offset: bool, stop_at_first: bool) -> list[tuple[int, ...]]:
    """The labellings of the rows of ``X`` that no halfspace realises, in the order of
    ``itertools.product((-1, 1), repeat=n)``."""
    from .separability import _feasible_point

    Xa = check_X(X)
    n = Xa.shape[0]
    if n > MAX_POINTS:
        raise ValueError(
            f"X has {n} points: checking their 2^{n} labellings one by one is limited to "
            f"{MAX_POINTS} points (and more than d + 1 = {Xa.shape[1] + 1} points in "
            f"d = {Xa.shape[1]} are never shattered by halfspaces)"
        )
    scale = float(np.max(np.abs(Xa))) or 1.0
    Z = Xa / scale
    if offset:
        Z = np.hstack([Z, np.ones((n, 1))])
    bad: set[tuple[int, ...]] = set()
    # a labelling and its negative are realised together (negate theta and theta_0), so
    # only those with a first label of -1 are solved for
    for rest in itertools.product((-1, 1), repeat=n - 1):
        labels = (-1, *rest)
        if _feasible_point(np.asarray(labels, dtype=float)[:, None] * Z) is None:
            bad.add(labels)
            bad.add(tuple(-v for v in labels))
            if stop_at_first:
                break
    return [lab for lab in itertools.product((-1, 1), repeat=n) if lab in bad]


def unrealizable_labelings(X: ArrayLike, *, offset: bool = True) -> list[tuple[int, ...]]:
    """The labellings of the points ``X`` that no halfspace realises (chapter 7).

    A labelling ``y`` is realised when some ``(theta, theta_0)`` has
    ``y_i (theta . x_i + theta_0) > 0`` for every point, which the linear program of
    :func:`perceptron_lib.is_linearly_separable` decides.  All ``2^n`` labellings are
    checked (half of them by a linear program, the other half as their negatives).

    Parameters
    ----------
    X : array_like, shape (n, d)
        The points, ``n <= 16``.
    offset : bool, default True
        Halfspaces with an offset; False for halfspaces through the origin.

    Returns
    -------
    list of tuple of int
        The labellings (tuples of -1 and +1, one per row of ``X``) that are not
        linearly separable, in the order of ``itertools.product((-1, 1), repeat=n)``.
        Empty exactly when the halfspaces shatter ``X``.

    Raises
    ------
    ValueError, TypeError
        For ``X`` not 2-D, empty, with NaN or infinity, or with more than 16 points.

    Examples
    --------
    The XOR corners, listed as the two points of one diagonal, then the other:

    >>> unrealizable_labelings([[-1, -1], [1, 1], [-1, 1], [1, -1]])
    [(-1, -1, 1, 1), (1, 1, -1, -1)]
    """
    return _labelings(X, offset, stop_at_first=False)


def shatters(X: ArrayLike, *, offset: bool = True) -> bool:
    """Whether halfspaces shatter the points ``X``: every labelling is separable (chapter 7).

    Stops at the first labelling no halfspace realises (see
    :func:`unrealizable_labelings`, which lists them all).

    Parameters
    ----------
    X : array_like, shape (n, d)
        The points, ``n <= 16``.
    offset : bool, default True
        Halfspaces with an offset; False for halfspaces through the origin.

    Returns
    -------
    bool

    Examples
    --------
    >>> shatters([[0, 0], [1, 0], [0, 1]])                 # a triangle
    True
    >>> shatters([[-1, -1], [1, 1], [-1, 1], [1, -1]])     # XOR
    False
    >>> shatters([[1, 0], [0, 1]], offset=False), shatters([[1, 0], [2, 0]], offset=False)
    (True, False)
    """
    return not _labelings(X, offset, stop_at_first=True)


def vc_dimension_halfspaces(d: int, *, offset: bool = True) -> int:
    """The VC dimension of halfspaces in ``R^d``: ``d + 1``, or ``d`` through the origin.

    Theorem (chapter 7).  Halfspaces ``{x : theta . x + theta_0 > 0}`` shatter the
    ``d + 1`` points ``0, e_1, ..., e_d`` (any affinely independent points): for labels
    ``y_0, ..., y_d`` take ``theta_0 = y_0 / 2`` and ``theta_j = y_j - y_0 / 2``.  They
    shatter no ``d + 2`` points: by Radon's theorem any ``d + 2`` points split into two
    groups whose convex hulls meet, and the labelling that gives the groups opposite
    labels is not separable.  Through the origin the answer is ``d``: ``e_1, ..., e_d``
    are shattered (``theta = y``), and any ``d + 1`` vectors are linearly dependent,
    ``sum_i a_i x_i = 0`` with some ``a_i > 0`` (negate ``a`` if needed), so no
    ``theta`` gives ``theta . x_i > 0`` where ``a_i > 0`` and ``< 0`` where ``a_i < 0``.

    Parameters
    ----------
    d : int, >= 1
        The dimension.
    offset : bool, default True
        Halfspaces with an offset ``theta_0``; False for halfspaces through the origin.

    Returns
    -------
    int

    Examples
    --------
    >>> vc_dimension_halfspaces(2), vc_dimension_halfspaces(2, offset=False)
    (3, 2)
    """
    dd = check_count(d, "d", 1)
    return dd + 1 if offset else dd
