"""Empirical risk minimisation over halfspaces (chapter 6, the pocket's yardstick; chapter 7,
noisy data and learning theory).

The *empirical risk* of a halfspace ``(theta, theta_0)`` is its fraction of training
errors; ERM returns a halfspace with the fewest errors.  On separable data that is a
linear program (chapter 3).  On data no hyperplane separates it is a combinatorial
problem, NP-hard in general (Johnson and Preparata 1978; Hoeffgen, Simon and Van Horn
1995), which is why the perceptron and the pocket algorithm are heuristics there.  In
the plane and on the line the exact minimum is found here by enumeration.

Errors are counted with the course's rule: ``y (theta . x + theta_0) <= 0``, so a point
on the boundary is an error for either label.  That changes no minimum: a separator
that puts points on its boundary can be shifted a little so that they fall on the side
of its choice and no other point moves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._validate import check_data, check_scalar, check_theta

__all__ = ["ERMResult", "erm_halfspace", "training_errors"]


def training_errors(
    X: ArrayLike, y: ArrayLike, theta: ArrayLike, theta_0: float = 0.0
) -> int:
    """The number of training errors of the halfspace ``(theta, theta_0)`` (chapter 7).

    An example is an error when ``y (theta . x + theta_0) <= 0``, the perceptron's
    mistake rule: a point on the boundary counts for either label.  Divided by ``n``
    it is the *empirical risk* that :func:`erm_halfspace` minimises.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    theta : array_like, shape (d,)
    theta_0 : float, default 0.0

    Returns
    -------
    int

    Examples
    --------
    >>> training_errors([[1.0], [2.0], [3.0]], [-1, 1, 1], [1.0], -1.5)
    0
    >>> training_errors([[1.0], [2.0], [3.0]], [-1, 1, 1], [1.0], -2.0)  # x = 2 on the boundary
    1
    """
    Xa, ya = check_data(X, y)
    th = check_theta(theta, d=Xa.shape[1])
    t0 = check_scalar(theta_0, "theta_0")
    return int(np.count_nonzero(ya * (Xa @ th + t0) <= 0))


@dataclass(frozen=True)
class ERMResult:
    """A halfspace with the fewest training errors (chapters 6 and 7).

    Attributes
    ----------
    theta : numpy.ndarray, shape (d,)
    theta_0 : float
    errors : int
        Its number of training errors, :func:`training_errors`; no halfspace has fewer.
    separable : bool
        Whether the data are linearly separable (then ``errors == 0`` and the halfspace
        satisfies ``y (theta . x + theta_0) >= 1`` for every example).
    """

    theta: np.ndarray
    theta_0: float
    errors: int
    separable: bool


def _best_threshold(t: np.ndarray, y: np.ndarray) -> tuple[int, np.ndarray]:
    """Exact ERM on a line: the best labelling ``sign(a t + b)`` of the values ``t``.

    Such a labelling gives equal values the same label and is constant on each side of a
    threshold between two distinct values (or everywhere).  Returns the fewest errors and
    one labelling that attains it.
    """
    values, group = np.unique(t, return_inverse=True)
    pos = np.bincount(group, weights=(y > 0), minlength=values.size)
    neg = np.bincount(group, weights=(y < 0), minlength=values.size)
    P, N = pos.sum(), neg.sum()
    # cut after group j (j = 0 .. G-2): left gets s, right gets -s
    pl, nl = np.cumsum(pos)[:-1], np.cumsum(neg)[:-1]
    left_pos = nl + (P - pl)   # left +1, right -1: errors are negatives left, positives right
    left_neg = pl + (N - nl)   # left -1, right +1
    options = [N, P]           # everything +1, everything -1
    best = int(min(options))
    choice = ("all", 1.0 if N <= P else -1.0, -1)
    if values.size > 1:
        j1, j2 = int(np.argmin(left_pos)), int(np.argmin(left_neg))
        if left_pos[j1] < best:
            best, choice = int(left_pos[j1]), ("cut", 1.0, j1)
        if left_neg[j2] < best:
            best, choice = int(left_neg[j2]), ("cut", -1.0, j2)
    kind, s, j = choice
    labels = np.full(t.shape[0], s) if kind == "all" else np.where(group <= j, s, -s)
    return best, labels


def _line_candidates(X: np.ndarray, y: np.ndarray):
    """Every labelling made by a line through two data points, nudged (see
    :func:`erm_halfspace`): ``(errors, labels)``, fewest errors first.

    The errors of all candidates are counted first; a candidate's labels are built only
    when it is reached.
    """
    n = X.shape[0]
    rows = []  # (errors, i, q, orientation)
    for i in range(n - 1):
        V = X - X[i]
        Q = V[i + 1:]
        cross = Q[:, :1] * V[None, :, 1] - Q[:, 1:] * V[None, :, 0]   # shape (n-i-1, n)
        sgn = np.sign(cross)
        valid = np.any(Q != 0, axis=1)   # q distinct from p: a line through both
        off_plus = np.count_nonzero(sgn * y < 0, axis=1)
        off_minus = np.count_nonzero(sgn * y > 0, axis=1)
        on = sgn == 0
        on_count = on.sum(axis=1)
        for r in np.flatnonzero(valid):
            if on_count[r] == 2:   # only p and q: all four of their labellings are reachable
                on_err = 0
            else:
                on_err, _ = _best_threshold(V[on[r]] @ Q[r], y[on[r]])
            rows.append((int(off_plus[r]) + on_err, i, i + 1 + int(r), 1.0))
            rows.append((int(off_minus[r]) + on_err, i, i + 1 + int(r), -1.0))
    rows.sort(key=lambda row: row[0])
    for errors, i, q, orient in rows:
        V = X - X[i]
        d = V[q]
        cross = d[0] * V[:, 1] - d[1] * V[:, 0]
        sgn = np.sign(cross)
        labels = orient * sgn
        on = sgn == 0
        _, on_labels = _best_threshold(V[on] @ d, y[on])
        labels[on] = on_labels
        yield errors, labels


def _realise(X: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, float] | None:
    """A halfspace with ``labels (theta . x + theta_0) >= 1``, or None if there is none."""
    from .separability import _constraint_matrix, _feasible_point

    _, _, A, scale = _constraint_matrix(X, labels, True)
    z = _feasible_point(A)
    if z is None:
        return None
    d = X.shape[1]
    return z[:d] / scale + 0.0, float(z[d])


def erm_halfspace(X: ArrayLike, y: ArrayLike) -> ERMResult:
    """Empirical risk minimisation over halfspaces: the fewest training errors (chapters 6 and 7).

    Finds ``(theta, theta_0)`` minimising :func:`training_errors` over every halfspace
    (with an offset), exactly:

    - *Separable data*: the linear program ``y_i (theta . x_i + theta_0) >= 1`` of
      :func:`perceptron_lib.is_linearly_separable` has a solution, which is returned with
      0 errors.
    - *Not separable, d = 1*: the best threshold, by a scan of the sorted values.
    - *Not separable, d = 2*: enumeration.  Take an optimal line and slide it, without
      letting any point cross it, until it touches a data point ``p``; turn it about
      ``p`` until it touches a second point ``q``.  The line through ``p`` and ``q``
      labels the points off it by their side (one of its two orientations), and a small
      turn and shift of it gives the points on it any labelling ``sign(a t + b)`` of
      their position ``t`` along it: all four labellings of ``p`` and ``q`` when no
      other point is on the line.  So the minimum over these candidates (``n (n - 1)``
      of them, and the two constant labellings), each scored in ``O(n)``, is the exact
      minimum over all lines, in ``O(n^3)`` time.  The best candidate labelling is then
      realised by the linear program.  Collinearity is tested exactly on the computed
      cross products, so the result is exact on integer (and other exactly representable)
      coordinates and on points in general position.
    - *Not separable, d > 2*: ``ValueError``.  Minimising the training errors of a
      halfspace is NP-hard in general (Johnson and Preparata 1978; Hoeffgen, Simon and
      Van Horn 1995); the enumeration above grows like ``n^(d + 1)``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Labels in {-1, +1}.

    Returns
    -------
    ERMResult

    Raises
    ------
    ValueError, TypeError
        For bad data (labels, shape, NaN, no examples), and for non-separable data in
        more than two dimensions.

    Examples
    --------
    The XOR corners: every line gets at least one of the four wrong.

    >>> r = erm_halfspace([[-1, -1], [1, 1], [-1, 1], [1, -1]], [1, 1, -1, -1])
    >>> r.errors, r.separable
    (1, False)
    >>> erm_halfspace([[1.0], [2.0], [3.0], [4.0]], [1, 1, -1, 1]).errors
    1
    """
    Xa, ya = check_data(X, y)
    n, d = Xa.shape
    found = _realise(Xa, ya)
    if found is not None:
        theta, theta_0 = found
        return ERMResult(theta, theta_0, int(np.count_nonzero(ya * (Xa @ theta + theta_0) <= 0)),
                         True)
    if d > 2:
        raise ValueError(
            f"the data are not linearly separable and have d = {d} features: exact "
            "empirical risk minimisation over halfspaces is NP-hard in general (Johnson "
            "and Preparata 1978; Hoeffgen, Simon and Van Horn 1995) and is provided for "
            "d <= 2 only; try pocket_perceptron for a good (not necessarily best) halfspace"
        )
    if d == 1:
        candidates = iter([_best_threshold(Xa[:, 0], ya)])
    else:
        constant = (int(min(np.sum(ya > 0), np.sum(ya < 0))),
                    np.full(n, 1.0 if np.sum(ya > 0) >= np.sum(ya < 0) else -1.0))
        candidates = _merge_constant(constant, _line_candidates(Xa, ya))
    for errors, labels in candidates:
        found = _realise(Xa, labels)
        if found is None:   # collinearity misjudged by rounding: take the next candidate
            continue
        theta, theta_0 = found
        got = int(np.count_nonzero(ya * (Xa @ theta + theta_0) <= 0))
        if got == errors:
            return ERMResult(theta, theta_0, got, False)
    raise RuntimeError("no candidate halfspace could be realised; the data are too "
                       "close to degenerate for the linear program")


def _merge_constant(constant, candidates):
    """The constant labelling first when it is at least as good as every line."""
    first = next(candidates, None)
    if first is None or constant[0] <= first[0]:
        yield constant
    if first is not None:
        yield first
        yield from candidates
