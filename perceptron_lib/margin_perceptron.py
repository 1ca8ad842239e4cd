"""The margin perceptron: update until every point clears a functional margin (chapter 7).

The plain perceptron updates when ``y (theta . x + theta_0) <= 0``.  The margin
perceptron updates as long as ``y (theta . x + theta_0) <= margin`` for a threshold
``margin >= 0``, so it keeps pushing the boundary away from points that are correct
but close.  With ``margin = 0`` it is exactly :func:`perceptron_lib.perceptron`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._result import PerceptronResult, Update
from ._validate import check_data, check_scalar, check_tau
from .algorithm import FAST_PATH_MIN_VISITS, _compiler_off, _visit_order

__all__ = ["margin_perceptron"]


def margin_perceptron(
    X: ArrayLike,
    y: ArrayLike,
    margin: float = 1.0,
    tau: int = 100,
    trace: bool = False,
    *,
    offset: bool = True,
    shuffle: bool = False,
    seed: int | None = None,
) -> PerceptronResult:
    """The perceptron that updates until every point has functional margin > ``margin`` (chapter 7).

    Starts from ``theta = 0``, ``theta_0 = 0`` and visits the examples in order,
    ``tau`` times at most.  Each example with ``y (theta . x + theta_0) <= margin``
    triggers the perceptron's update ``theta += y x``, ``theta_0 += y``; the run stops
    after a pass with no update.  With ``margin = 0`` this is exactly
    :func:`perceptron_lib.perceptron` (the same updates, bit for bit, and the same
    result fields); with ``offset=False`` and ``margin = 0`` it is
    :func:`perceptron_lib.perceptron_through_origin`.

    It still stops on separable data.  Lift the data (chapter 2) so that the offset is
    a weight: if a unit vector ``u`` (in the lifted space) has margin ``gamma > 0`` and
    every lifted example has norm at most ``R``, then each update raises
    ``theta . u`` by at least ``gamma`` and ``||theta||^2`` by at most
    ``R^2 + 2 margin`` (the example had ``y theta . x <= margin``), so after ``k``
    updates ``k gamma <= ||theta|| <= sqrt(k (R^2 + 2 margin))`` and

        k <= (R^2 + 2 margin) / gamma^2

    (:func:`perceptron_lib.margin_perceptron_bound`).  When it stops, every point has
    ``y (theta . x + theta_0) > margin`` and ``||theta|| <= (R^2 + 2 margin) / gamma``,
    so the lifted separator's geometric margin exceeds
    ``margin gamma / (R^2 + 2 margin)``, which tends to ``gamma / 2`` as ``margin``
    grows: unlike the plain perceptron, it guarantees a fraction of the best margin.

    ``margin`` is a *functional* margin, so it interacts with the scale of ``X``.
    Through the origin, running on ``c X`` with threshold ``margin`` makes the same
    updates as running on ``X`` with threshold ``margin / c**2`` (every ``theta`` is
    ``c`` times larger and every score ``c**2`` times larger).  With an offset the
    constant coordinate 1 is not scaled, so the run on ``c X`` is the run on ``X`` with
    threshold ``margin / c**2`` and a lifted coordinate of ``1 / c``.  Standardise the
    features (or scale ``margin`` with ``R**2``) before choosing a threshold.

    A long run (``n * tau`` at least ``FAST_PATH_MIN_VISITS``) without ``trace`` goes
    through the compiled loop of :func:`perceptron_lib.perceptron`'s fast path, which
    makes the same updates bit for bit.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Training examples, one per row.
    y : array_like, shape (n,)
        Labels, each -1 or +1.
    margin : float, default 1.0
        The functional margin to clear; must be finite and ``>= 0``.
    tau : int, default 100
        Maximum number of passes over the data.
    trace : bool, default False
        Record every update in ``result.history``, as :func:`perceptron_lib.perceptron`
        does (``score`` is ``theta . x + theta_0`` before the update).
    offset : bool, default True
        Learn ``theta_0``; False keeps the boundary through the origin.
    shuffle, seed
        As for :func:`perceptron_lib.perceptron`: a fresh random order in each epoch
        from ``numpy.random.default_rng(seed)``.

    Returns
    -------
    PerceptronResult
        ``converged`` is True when a full pass made no update, so that every point has
        ``y (theta . x + theta_0) > margin``.

    Raises
    ------
    ValueError, TypeError
        For the data errors of :func:`perceptron_lib.perceptron`, a ``tau`` that is
        not a positive integer, or a ``margin`` that is negative, NaN or infinite.

    Examples
    --------
    >>> X, y = [[1.0], [2.0], [3.0], [4.0]], [1, 1, -1, -1]
    >>> r = margin_perceptron(X, y, margin=0.0)
    >>> r.mistakes      # the plain perceptron's 25 updates
    25
    >>> r = margin_perceptron(X, y, margin=1.0, tau=1000)
    >>> r.converged, r.mistakes, r.theta, r.theta_0
    (True, 38, array([-4.]), 10.0)
    """
    Xa, ya = check_data(X, y)
    tau = check_tau(tau)
    b = check_scalar(margin, "margin")
    if b < 0:
        raise ValueError(
            f"margin must be >= 0 (the functional margin every point must exceed), got {b}"
        )
    n, d = Xa.shape
    if not trace and n * tau >= FAST_PATH_MIN_VISITS and not _compiler_off():
        from ._fast import fast_perceptron  # the same updates, bit for bit

        return fast_perceptron(Xa, ya, tau, offset, _visit_order(n, tau, shuffle, seed),
                               margin=float(b))
    theta = np.zeros(d)
    theta_0 = 0.0
    mistakes = 0
    history: list[Update] | None = [] if trace else None
    converged = False
    t = 0
    for t, order in enumerate(_visit_order(Xa.shape[0], tau, shuffle, seed), start=1):
        changed = False
        for i in order:
            score = theta @ Xa[i] + theta_0
            if ya[i] * score <= b:
                theta = theta + ya[i] * Xa[i]
                if offset:
                    theta_0 = theta_0 + ya[i]
                mistakes += 1
                changed = True
                if history is not None:
                    history.append(Update(t, int(i), float(score), theta, float(theta_0)))
        if not changed:
            converged = True
            break
    return PerceptronResult(
        theta=theta,
        theta_0=float(theta_0),
        mistakes=mistakes,
        epochs=t,
        converged=converged,
        history=None if history is None else tuple(history),
    )
