"""Distances, margins, the radius and the mistake bound (chapters 3 and 4)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._validate import check_data, check_scalar, check_theta, check_X


def _normal(theta: ArrayLike, d: int) -> np.ndarray:
    th = check_theta(theta, d=d)
    if not np.any(th):
        raise ValueError("theta is the zero vector: it defines no boundary, so no distance")
    return th


def signed_distance(X: ArrayLike, theta: ArrayLike, theta_0: float = 0.0) -> np.ndarray:
    """Signed distance of each row of ``X`` to the hyperplane ``theta . x + theta_0 = 0``.

    ``(theta . x + theta_0) / ||theta||``: positive on the side ``theta`` points to
    (chapter 3).

    Parameters
    ----------
    X : array_like, shape (n, d)
    theta : array_like, shape (d,), non-zero
    theta_0 : float, default 0.0

    Returns
    -------
    numpy.ndarray, shape (n,)
    """
    Xa = check_X(X)
    th = _normal(theta, Xa.shape[1])
    t0 = check_scalar(theta_0, "theta_0")
    return (Xa @ th + t0) / np.linalg.norm(th)


def point_margins(
    X: ArrayLike, y: ArrayLike, theta: ArrayLike, theta_0: float = 0.0
) -> np.ndarray:
    """Margin of each labelled point: ``y * (theta . x + theta_0) / ||theta||`` (chapter 3).

    Positive exactly when the point is on its own label's side; its size is then the
    point's distance to the boundary.

    Returns
    -------
    numpy.ndarray, shape (n,)
    """
    Xa, ya = check_data(X, y)
    return ya * signed_distance(Xa, theta, theta_0)


def margin(X: ArrayLike, y: ArrayLike, theta: ArrayLike, theta_0: float = 0.0) -> float:
    """Margin of a data set with respect to a separator: the smallest point margin.

    Positive exactly when ``theta, theta_0`` classifies every point correctly (chapter 3).

    Examples
    --------
    >>> round(margin([[1, 3], [2, 1], [-1, 2]], [1, 1, -1], [1, -1], 1), 4)
    -0.7071
    """
    return float(np.min(point_margins(X, y, theta, theta_0)))


def radius(X: ArrayLike) -> float:
    """R = max ||x||: the radius of the smallest origin-centred ball holding the data.

    The convergence theorem of chapter 4 needs ``||x|| <= R`` for every example.
    """
    Xa = check_X(X)
    return float(np.max(np.linalg.norm(Xa, axis=1)))


def mistake_bound(R: float, gamma: float) -> float:
    """The convergence theorem's bound ``(R / gamma) ** 2`` on the number of updates.

    Chapter 4: on data with ``||x|| <= R`` that some separator through the origin
    classifies with margin ``gamma > 0``, PERCEPTRON-THROUGH-ORIGIN makes at most this
    many updates.

    Parameters
    ----------
    R : float, >= 0
        Bound on the norms of the examples.
    gamma : float, > 0
        Margin of a separator.

    Examples
    --------
    >>> mistake_bound(2.0, 0.5)
    16.0
    """
    r = check_scalar(R, "R")
    g = check_scalar(gamma, "gamma")
    if r < 0:
        raise ValueError(f"R bounds the norms of the examples and cannot be negative, got {r}")
    if g <= 0:
        raise ValueError(
            f"gamma must be positive (a margin of a separator), got {g}; "
            "a non-positive margin means the separator misclassifies a point"
        )
    return (r / g) ** 2
