"""Freund and Schapire's hinge deficiency: how far data fall short of a margin (chapter 7).

For a unit vector ``u`` and a target margin ``gamma > 0``, example ``i`` falls short by
``xi_i = max(0, gamma - y_i u . x_i)``, the hinge loss of ``u`` at margin ``gamma``; the
total deficiency is ``D = sqrt(sum_i xi_i^2)``.  It enters the mistake bound
``((R + D) / gamma)^2`` (:func:`perceptron_lib.freund_schapire_bound`), which holds on
any data, separable or not.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._validate import check_data, check_scalar, check_theta

__all__ = ["hinge_deficiency"]


def hinge_deficiency(
    X: ArrayLike,
    y: ArrayLike,
    theta: ArrayLike,
    theta_0: float,
    gamma: float,
    *,
    per_example: bool = False,
) -> float | tuple[float, np.ndarray]:
    """Total deficiency ``D`` of the data at margin ``gamma`` for a separator (chapter 7).

    The offset enters as in chapter 2: each example is lifted to ``(x, 1)`` and the
    separator to ``(theta, theta_0)``, and the lifted vector is normalised,

        u = (theta, theta_0) / ||(theta, theta_0)||,
        xi_i = max(0, gamma - y_i (theta . x_i + theta_0) / ||(theta, theta_0)||),
        D = sqrt(sum_i xi_i^2).

    So ``D`` is about a separator through the origin of the lifted data, the data on
    which PERCEPTRON-THROUGH-ORIGIN makes the updates of :func:`perceptron_lib.perceptron`.
    The matching radius for the bound of :func:`perceptron_lib.freund_schapire_bound` is
    that of the lifted data, ``radius(add_offset_feature(X))``.  With ``theta_0 = 0``
    the normalisation is by ``||theta||`` alone, and ``D`` is also the deficiency of the
    unlifted data, so ``radius(X)`` serves for
    :func:`perceptron_lib.perceptron_through_origin`.  (This differs from
    :func:`perceptron_lib.margin`, which divides by ``||theta||``: a geometric margin in
    the original space.)

    ``D`` is 0 exactly when every example has lifted margin at least ``gamma``.  Each
    ``xi_i`` is below ``gamma`` for an example strictly on its own side, equal to it on
    the boundary (a mistake, by the course's convention) and above it on the wrong
    side.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    theta : array_like, shape (d,)
    theta_0 : float
        Offset; 0 for a separator through the origin.
    gamma : float, > 0
        The target margin.
    per_example : bool, default False
        Also return the vector of ``xi_i``.

    Returns
    -------
    D : float
    d : numpy.ndarray, shape (n,)
        Only with ``per_example=True``.

    Raises
    ------
    ValueError, TypeError
        On bad data or labels, ``theta`` of the wrong length, ``(theta, theta_0)`` all
        zero (no direction to normalise), or ``gamma`` not positive and finite.

    Examples
    --------
    The 1-D data of chapter 2 with the separator ``theta = -1, theta_0 = 2.5`` (lifted
    norm ``sqrt(7.25)``): the closest points have lifted margin ``0.5 / sqrt(7.25)``,
    about 0.186.

    >>> X, y = [[1.0], [2.0], [3.0], [4.0]], [1, 1, -1, -1]
    >>> hinge_deficiency(X, y, [-1.0], 2.5, 0.1)
    0.0
    >>> D, d = hinge_deficiency(X, y, [-1.0], 2.5, 0.5, per_example=True)
    >>> d.round(4), round(D, 4)
    (array([0.    , 0.3143, 0.3143, 0.    ]), 0.4445)
    """
    Xa, ya = check_data(X, y)
    th = check_theta(theta, d=Xa.shape[1])
    t0 = check_scalar(theta_0, "theta_0")
    g = check_scalar(gamma, "gamma")
    if g <= 0:
        raise ValueError(f"gamma must be positive (the target margin), got {g}")
    norm = float(np.sqrt(th @ th + t0 * t0))
    if norm == 0.0:
        raise ValueError(
            "theta and theta_0 are all zero: they define no separator, so no margin"
        )
    d = np.maximum(0.0, g - ya * (Xa @ th + t0) / norm)
    D = float(np.sqrt(d @ d))
    return (D, d) if per_example else D
