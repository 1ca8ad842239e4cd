"""Compiled fast path of the perceptron (chapter 1) and of the margin perceptron (chapter 7),
bit-for-bit equal to their loops.

The kernel runs the same arithmetic as the reference loop, with one difference that
could matter: it sums ``theta . x`` in the order its compiler vectorizes best, while
the loop's ``theta @ x`` lets numpy's BLAS choose.  The two sums can differ in the last bits, and
only a score within that rounding error of zero could then be classified differently.
So the kernel bounds the rounding error of every score
(``|error| <= gamma_d * sum_j |theta_j x_j| <= gamma_d * d * max|theta_j| * max|x_j|``
with ``gamma_d = d u / (1 - d u)``; Higham, *Accuracy and Stability of Numerical
Algorithms*, section 3.1) and hands any score
inside four times that bound back to Python, which decides it with the loop's own
expression.  Such near-ties are rare on real data, so the fast path stays fast and
the results stay identical.

This module imports numba; :mod:`perceptron_lib` loads it only when the fast path
is first used, so ``import perceptron_lib`` stays light.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numba import njit

from ._result import PerceptronResult

_U = 2.0**-53  # unit roundoff of float64
_TINY = 2.0**-1074  # smallest subnormal: bounds underflow in each product

DONE = 0
UNDECIDED = 1


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def _dot(theta, X, i):
    """``theta . X[i]`` in whatever order the compiler vectorizes best.

    The order is free because every score near zero is re-decided by the caller;
    the rounding error bound holds for any order of summation.
    """
    s = 0.0
    for j in range(theta.shape[0]):
        s += theta[j] * X[i, j]
    return s


@njit(cache=True, nogil=True)
def _row_absmax(X):
    """``max_j |X[i, j]|`` for every row, in one pass and without a temporary array."""
    out = np.empty(X.shape[0])
    for i in range(X.shape[0]):
        m = 0.0
        for j in range(X.shape[1]):
            m = max(m, abs(X[i, j]))
        out[i] = m
    return out


@njit(cache=True, nogil=True)
def _epoch(X, y, order, start, theta, theta_0, theta_max, row_max, bound, offset, margin):
    """Run one epoch from position ``start`` of ``order``; ``theta`` is updated in place.

    An example is a mistake when ``y (theta . x + theta_0) <= margin`` (``margin`` is 0
    for the perceptron, the threshold of the margin perceptron of chapter 7).  Returns
    (position reached, updates made, theta_0, max|theta_j|, status).  Status UNDECIDED
    means the example at that position has a score too close to the threshold to be
    decided here; the caller decides it and resumes at the next position.
    """
    d = X.shape[1]
    updates = 0
    for p in range(start, order.shape[0]):
        i = order[p]
        v = _dot(theta, X, i) + theta_0
        # The scores' rounding error, and that of adding theta_0 and comparing with
        # the threshold (an ulp of either, where the threshold is not 0).
        if theta_max > 0.0 and abs(y[i] * v - margin) <= 4.0 * (
                bound * theta_max * row_max[i] + d * _TINY
                + _U * (abs(theta_0) + margin)):
            return p, updates, theta_0, theta_max, UNDECIDED
        if y[i] * v <= margin:
            yi = y[i]
            theta_max = 0.0
            for j in range(d):
                theta[j] = theta[j] + yi * X[i, j]
                theta_max = max(theta_max, abs(theta[j]))
            if offset:
                theta_0 = theta_0 + yi
            updates += 1
    return order.shape[0], updates, theta_0, theta_max, DONE


def _error_bound(d: int) -> float:
    """``d * gamma_d``: scores within ``4 * this * max|theta| * max|x|`` of zero are re-decided."""
    return d * (d * _U / (1.0 - d * _U))


def fast_perceptron(
    X: np.ndarray,
    y: np.ndarray,
    tau: int,
    offset: bool,
    orders: Iterable[np.ndarray],
    margin: float = 0.0,
) -> PerceptronResult:
    """Run the perceptron on checked inputs with the compiled kernel (chapter 1).

    ``X`` (C-ordered float64, shape (n, d)), ``y`` (float64, -1/+1) and ``tau`` must
    already be checked; ``orders`` yields one visiting order per epoch.  Returns the
    same :class:`PerceptronResult` as the reference loop, without history.  With
    ``margin > 0`` it is the margin perceptron's loop (chapter 7,
    :func:`perceptron_lib.margin_perceptron`), bit for bit.
    """
    _n, d = X.shape
    theta = np.zeros(d)
    theta_0 = 0.0
    theta_max = 0.0
    row_max = _row_absmax(X)
    bound = _error_bound(d)
    mistakes = 0
    converged = False
    epochs = 0
    for order in orders:
        epochs += 1
        order = np.ascontiguousarray(order, dtype=np.int64)
        made = 0
        p = 0
        while True:
            p, k, theta_0, theta_max, status = _epoch(
                X, y, order, p, theta, theta_0, theta_max, row_max, bound, offset, margin
            )
            made += k
            if status == DONE:
                break
            # A near-tie: decide it exactly as the reference loop does.
            i = order[p]
            if y[i] * (theta @ X[i] + theta_0) <= margin:
                theta += y[i] * X[i]
                if offset:
                    theta_0 = theta_0 + y[i]
                theta_max = float(np.abs(theta).max())
                made += 1
            p += 1
        mistakes += made
        if made == 0:
            converged = True
            break
    return PerceptronResult(
        theta=theta,
        theta_0=float(theta_0),
        mistakes=mistakes,
        epochs=epochs,
        converged=converged,
        history=None,
    )
