"""Linear separability and the separator with the largest margin (chapter 3).

Two questions the perceptron cannot answer on its own:

- *Is a data set linearly separable?*  :func:`is_linearly_separable` decides it with a
  linear program: the data are separable exactly when some ``(w, b)`` satisfies
  ``y_i (w . x_i + b) >= 1`` for every example.
- *Which separator has the largest margin?*  :func:`max_margin` solves the hard-margin
  problem ``min ||w||^2`` subject to the same constraints; its solution, normalised,
  is the separator with the best geometric margin ``gamma_opt = 1 / ||w||``.

Both use :mod:`scipy.optimize`, which is imported on first call only, so
``pl.max_margin`` loads numpy alone until it is called.  They work on the data scaled by
their largest absolute coordinate and report results in the original units: scaling
the data scales every margin by the same factor and changes nothing else.

The answers are numerical.  A data set that is separable only with a margin near the
solver's tolerances (about ``1e-8`` of the data's scale) can be reported either way.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._validate import check_data
from .margin import margin


@dataclass(frozen=True)
class MaxMarginResult:
    """The separator with the largest geometric margin (chapter 3).

    Attributes
    ----------
    theta : numpy.ndarray, shape (d,)
        Unit normal vector of the separator.
    theta_0 : float
        Its offset (0.0 when the separator must pass through the origin).
    gamma : float
        The margin of the data with respect to ``(theta, theta_0)``, computed from the
        data exactly as :func:`perceptron_lib.margin` does: ``gamma_opt``.
    """

    theta: np.ndarray
    theta_0: float
    gamma: float


def _constraint_matrix(X: ArrayLike, y: ArrayLike, offset: bool):
    """Rows ``y_i (x_i, 1)`` (or ``y_i x_i``) of the scaled data, and the scale used."""
    Xa, ya = check_data(X, y)
    scale = float(np.max(np.abs(Xa)))
    if scale == 0.0:
        scale = 1.0
    Xs = Xa / scale
    if offset:
        Xs = np.hstack([Xs, np.ones((Xs.shape[0], 1))])
    return Xa, ya, ya[:, None] * Xs, scale


def _feasible_point(A: np.ndarray) -> np.ndarray | None:
    """A point ``z`` with ``A z >= 1``, or None when the linear program is infeasible."""
    from scipy.optimize import linprog

    n, k = A.shape
    res = linprog(
        c=np.zeros(k),
        A_ub=-A,
        b_ub=-np.ones(n),
        bounds=[(None, None)] * k,
        method="highs",
    )
    if res.status == 0:
        return np.asarray(res.x, dtype=float)
    if res.status == 2:
        return None
    raise RuntimeError(f"the linear program for separability failed: {res.message}")


def is_linearly_separable(X: ArrayLike, y: ArrayLike, offset: bool = True) -> bool:
    """Decide whether a hyperplane separates the labelled data (chapter 3).

    The data are linearly separable when some ``theta, theta_0`` gives
    ``y_i (theta . x_i + theta_0) > 0`` for every example.  With finitely many
    examples that is the same as the feasibility of the linear program
    ``y_i (w . x_i + b) >= 1`` (divide a separator by its smallest score), which
    :func:`scipy.optimize.linprog` settles in time polynomial in ``n`` and ``d``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    offset : bool, default True
        Allow an offset ``theta_0``; with False the separator must pass through the
        origin (``b = 0``), and a point at the origin makes the data inseparable.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_linearly_separable([[1.0], [2.0], [3.0], [4.0]], [1, 1, -1, -1])
    True
    >>> is_linearly_separable([[1.0], [2.0], [3.0], [4.0]], [1, 1, -1, -1], offset=False)
    False
    """
    _, _, A, _ = _constraint_matrix(X, y, offset)
    return _feasible_point(A) is not None


def _polish(A: np.ndarray, z: np.ndarray, k_w: int) -> np.ndarray | None:
    """Solve the problem exactly on the constraints that are active at ``z``.

    On the active set ``S`` the hard-margin problem becomes
    ``min ||w||^2 / 2`` subject to ``A_S z = 1``, whose optimality conditions are a
    linear system.  Returns its solution, or None when the system gives nothing usable.
    """
    slack = A @ z - 1.0
    active = slack <= 1e-6 * max(1.0, float(np.max(np.abs(A @ z))))
    if not active.any():
        return None
    As = A[active]
    k = A.shape[1]
    P = np.zeros((k, k))
    P[np.arange(k_w), np.arange(k_w)] = 1.0
    m = As.shape[0]
    kkt = np.block([[P, -As.T], [As, np.zeros((m, m))]])
    rhs = np.concatenate([np.zeros(k), np.ones(m)])
    sol = np.linalg.lstsq(kkt, rhs, rcond=None)[0]
    out = sol[:k]
    if not np.all(np.isfinite(out)):
        return None
    return out


def max_margin(X: ArrayLike, y: ArrayLike, offset: bool = True) -> MaxMarginResult:
    """The separator with the largest geometric margin, ``gamma_opt`` (chapter 3).

    Solves the hard-margin problem

        minimise ``||w||^2``  subject to  ``y_i (w . x_i + b) >= 1`` for all ``i``

    (``b = 0`` when ``offset`` is False).  At the solution the closest points have
    functional margin exactly 1, so their geometric margin is ``1 / ||w||``, and no
    separator does better.  The result is normalised: ``theta = w / ||w||``,
    ``theta_0 = b / ||w||``.

    The problem is solved with :func:`scipy.optimize.minimize` (SLSQP), started from
    a feasible point found by the linear program of :func:`is_linearly_separable`,
    and then refined by solving the optimality conditions on the active constraints.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Labels in {-1, +1}; with ``offset`` both labels must occur.
    offset : bool, default True
        Allow an offset ``theta_0``; with False the separator passes through the origin.

    Returns
    -------
    MaxMarginResult

    Raises
    ------
    ValueError
        When the labels are not -1/+1, when the data are not linearly separable, or
        when (with an offset) only one class is present, so that the margin has no
        largest value.

    Examples
    --------
    >>> r = max_margin([[1.0], [2.0], [3.0], [4.0]], [1, 1, -1, -1])
    >>> round(r.gamma, 6), r.theta, round(r.theta_0, 6)
    (0.5, array([-1.]), 2.5)
    """
    from scipy.optimize import minimize

    Xa, ya, A, scale = _constraint_matrix(X, y, offset)
    if offset and np.unique(ya).size < 2:
        raise ValueError(
            f"all labels are {int(ya[0]):+d}: with an offset the boundary can move "
            "arbitrarily far away, so there is no largest margin; "
            "use offset=False or add examples of the other class"
        )
    z0 = _feasible_point(A)
    if z0 is None:
        where = "through the origin " if not offset else ""
        raise ValueError(
            f"the data are not linearly separable {where}(the linear program "
            "y_i (w . x_i + b) >= 1 is infeasible), so there is no margin to maximise"
        )
    k = A.shape[1]
    k_w = k - 1 if offset else k
    mask = np.zeros(k)
    mask[:k_w] = 1.0

    res = minimize(
        lambda z: 0.5 * float(np.sum((mask * z) ** 2)),
        z0,
        jac=lambda z: mask * z,
        constraints=[{"type": "ineq", "fun": lambda z: A @ z - 1.0, "jac": lambda z: A}],
        method="SLSQP",
        options={"ftol": 1e-15, "maxiter": 2000},
    )
    candidates = [z0, np.asarray(res.x, dtype=float)]
    polished = _polish(A, candidates[-1], k_w)
    if polished is not None:
        candidates.append(polished)

    def quality(z: np.ndarray) -> float:
        w = z[:k_w]
        nw = float(np.linalg.norm(w))
        if nw == 0.0:
            return -np.inf
        return float(np.min(A @ z)) / nw  # the scaled geometric margin of z

    best = max(candidates, key=quality)
    w = best[:k_w]
    nw = float(np.linalg.norm(w))
    theta = w / nw + 0.0  # + 0.0 turns -0.0 into 0.0
    theta_0 = float(best[k_w] / nw * scale) if offset else 0.0
    return MaxMarginResult(
        theta=theta,
        theta_0=theta_0,
        gamma=margin(Xa, ya, theta, theta_0),
    )
