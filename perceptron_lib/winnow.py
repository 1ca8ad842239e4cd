"""Winnow: multiplicative updates for few relevant features among many (chapter 6).

Littlestone (1988) learns a *monotone disjunction* ``x_{i1} or ... or x_{ik}`` of ``k``
of ``d`` Boolean variables with a number of mistakes that grows like ``k log d``; the
perceptron's grows like ``k d`` on such data.  Winnow keeps one positive weight per
variable, predicts +1 when ``w . x > threshold``, and on a mistake multiplies the
weights of the active variables (those with ``x_i = 1``) instead of adding to them:

- a positive example predicted -1 (*promotion*): ``w_i <- alpha w_i``;
- a negative example predicted +1: Winnow2 *demotes*, ``w_i <- w_i / alpha``;
  Winnow1 *eliminates*, ``w_i <- 0``.

The course's conventions hold: labels -1/+1, a mistake when
``y (w . x - threshold) <= 0`` (the boundary is a mistake for either label), examples
in the given order unless ``shuffle``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from ._validate import check_count, check_data, check_scalar, check_tau, check_theta, check_X
from .algorithm import _visit_order

__all__ = ["WinnowComparison", "WinnowResult", "sparse_disjunction", "winnow",
           "winnow_mistake_bound", "winnow_predict", "winnow_vs_perceptron"]

Variant = Literal["winnow1", "winnow2"]


def sparse_disjunction(
    n: int, d: int, k: int, *, seed: int | None = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Boolean examples labelled by a monotone disjunction of ``k`` of ``d`` variables.

    ``k`` distinct relevant variables are drawn; each bit of each example is 1 with
    probability ``p = 1 - 2^(-1/k)``, independently, and the label is +1 when at least
    one relevant bit is 1.  That ``p`` makes the chance of no relevant bit exactly
    ``(1 - p)^k = 1/2``, so positives and negatives are equally likely whatever ``k``
    and ``d`` (chapter 6).

    Parameters
    ----------
    n : int, >= 1
        Number of examples.
    d : int, >= 1
        Number of variables.
    k : int, 1 <= k <= d
        Number of relevant variables.
    seed : int, optional, default 0

    Returns
    -------
    X : numpy.ndarray of float, shape (n, d)
        Entries 0.0 and 1.0 (``n d`` floats: 160 MB for 2 000 examples of 10 000 bits).
    y : numpy.ndarray, shape (n,)
        Labels -1/+1.
    relevant : numpy.ndarray of int, shape (k,)
        The relevant variables, sorted.

    Examples
    --------
    >>> X, y, relevant = sparse_disjunction(6, 8, 2, seed=1)
    >>> X.shape, relevant.tolist()
    ((6, 8), [3, 4])
    >>> bool(np.all(y == np.where(X[:, relevant].any(axis=1), 1, -1)))
    True
    """
    nn = check_count(n, "n", 1)
    dd = check_count(d, "d", 1)
    kk = check_count(k, "k", 1)
    if kk > dd:
        raise ValueError(f"k = {kk} relevant variables cannot be drawn from d = {dd}")
    rng = np.random.default_rng(seed)
    relevant = np.sort(rng.choice(dd, size=kk, replace=False))
    p = 1.0 - 2.0 ** (-1.0 / kk)
    X = np.empty((nn, dd))
    rows = max(1, 2_000_000 // dd)   # draw in blocks: no temporary larger than 16 MB
    for start in range(0, nn, rows):
        stop = min(nn, start + rows)
        X[start:stop] = rng.random((stop - start, dd)) < p
    y = np.where(X[:, relevant].any(axis=1), 1.0, -1.0)
    return X, y, relevant


@dataclass(frozen=True)
class WinnowResult:
    """What a run of Winnow returns (chapter 6).

    Attributes
    ----------
    weights : numpy.ndarray, shape (d,)
        The final weights, all >= 0.
    threshold : float
        The threshold used: predict +1 when ``weights . x > threshold``.
    mistakes : int
        Number of mistakes (each one an update), over all epochs.
    promotions, demotions : int
        Mistakes on positive and on negative examples (for Winnow1 the demotions are
        eliminations).
    epochs : int
        Number of passes started.
    converged : bool
        True when a pass made no mistake.
    history : numpy.ndarray of int
        The number of mistakes so far after each visit, one entry per visit.
    """

    weights: np.ndarray
    threshold: float
    mistakes: int
    promotions: int
    demotions: int
    epochs: int
    converged: bool
    history: np.ndarray

    def __repr__(self) -> str:
        return (
            f"WinnowResult(mistakes={self.mistakes}, promotions={self.promotions}, "
            f"demotions={self.demotions}, epochs={self.epochs}, "
            f"converged={self.converged}, threshold={self.threshold:g}, "
            f"weights=<{self.weights.shape[0]} weights>)"
        )


def _check_binary(X: np.ndarray) -> None:
    bad = (X != 0.0) & (X != 1.0)
    if bad.any():
        where = tuple(int(v) for v in np.argwhere(bad)[0])
        raise ValueError(
            f"Winnow needs Boolean features: X must hold only 0 and 1, found {float(X[where])!r} "
            f"at index {where}"
        )


def _check_alpha(alpha: object) -> float:
    a = check_scalar(alpha, "alpha")
    if a <= 1.0:
        raise ValueError(f"alpha must be greater than 1 (the promotion factor), got {a}")
    return a


def _check_threshold(threshold: object, d: int) -> float:
    if threshold is None:
        return float(d)
    th = check_scalar(threshold, "threshold")
    if th <= 0:
        raise ValueError(f"threshold must be positive, got {th}")
    return th


def _check_variant(variant: object) -> str:
    if variant not in ("winnow1", "winnow2"):
        raise ValueError(f"variant must be 'winnow1' or 'winnow2', got {variant!r}")
    return str(variant)


def winnow(
    X: ArrayLike,
    y: ArrayLike,
    *,
    alpha: float = 2.0,
    threshold: float | None = None,
    variant: Variant = "winnow2",
    tau: int = 1,
    shuffle: bool = False,
    seed: int | None = None,
) -> WinnowResult:
    """Littlestone's Winnow on Boolean examples, online (chapter 6).

    Starts from ``w = (1, ..., 1)`` and visits the examples in order; a mistake is
    ``y (w . x - threshold) <= 0``.  On a mistake on a positive example every active
    weight (``x_i = 1``) is multiplied by ``alpha``; on a negative example, divided by
    ``alpha`` (``"winnow2"``) or set to 0 (``"winnow1"``, for which a weight set to 0
    stays 0).  By default one pass, the online setting of the mistake bound
    (:func:`winnow_mistake_bound`); with ``tau > 1`` the run stops after a pass with
    no mistake, like the perceptron.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Examples with entries 0 and 1.
    y : array_like, shape (n,)
        Labels -1/+1.
    alpha : float, > 1, default 2.0
        The promotion (and Winnow2's demotion) factor.
    threshold : float, > 0, optional
        Default ``d``, the number of variables.
    variant : {"winnow2", "winnow1"}, default "winnow2"
    tau : int, default 1
        Maximum number of passes.
    shuffle, seed
        As for :func:`perceptron_lib.perceptron`.

    Returns
    -------
    WinnowResult

    Raises
    ------
    ValueError, TypeError
        For labels other than -1/+1, ``X`` not 2-D or with entries other than 0 and 1,
        NaN, no examples, mismatched lengths, ``alpha <= 1``, ``threshold <= 0``, an
        unknown variant or a bad ``tau``.

    Examples
    --------
    >>> X, y, relevant = sparse_disjunction(200, 64, 2, seed=0)
    >>> r = winnow(X, y)
    >>> r.mistakes, r.mistakes <= winnow_mistake_bound(2, 64)
    (22, True)
    """
    Xa, ya = check_data(X, y)
    _check_binary(Xa)
    a = _check_alpha(alpha)
    n, d = Xa.shape
    th = _check_threshold(threshold, d)
    var = _check_variant(variant)
    tau = check_tau(tau)
    w = np.ones(d)
    mistakes = promotions = demotions = 0
    history = np.zeros(n * tau, dtype=np.int64)
    visit, epochs, converged = 0, 0, False
    for t, order in enumerate(_visit_order(n, tau, shuffle, seed), start=1):
        epochs, changed = t, False
        for i in order:
            x = Xa[i]
            if ya[i] * (w @ x - th) <= 0:
                active = x > 0
                if ya[i] > 0:
                    w[active] *= a
                    promotions += 1
                elif var == "winnow2":
                    w[active] /= a
                    demotions += 1
                else:
                    w[active] = 0.0
                    demotions += 1
                mistakes += 1
                changed = True
            history[visit] = mistakes
            visit += 1
        if not changed:
            converged = True
            break
    return WinnowResult(weights=w, threshold=th, mistakes=mistakes, promotions=promotions,
                        demotions=demotions, epochs=epochs, converged=converged,
                        history=history[:visit])


def winnow_predict(w: ArrayLike, X: ArrayLike, threshold: float) -> np.ndarray:
    """Winnow's prediction: +1 when ``w . x > threshold``, -1 otherwise (chapter 6).

    Parameters
    ----------
    w : array_like, shape (d,)
        Weights, as in :attr:`WinnowResult.weights`.
    X : array_like, shape (n, d)
    threshold : float

    Returns
    -------
    numpy.ndarray of int, shape (n,)

    Examples
    --------
    >>> winnow_predict([4.0, 1.0, 1.0], [[1, 0, 0], [0, 1, 1], [0, 1, 0]], 3.0)
    array([ 1, -1, -1])
    """
    Xa = check_X(X)
    wa = check_theta(w, d=Xa.shape[1], name="w")
    th = check_scalar(threshold, "threshold")
    return np.where(Xa @ wa > th, 1, -1)


def winnow_mistake_bound(
    k: int,
    d: int,
    *,
    alpha: float = 2.0,
    threshold: float | None = None,
    variant: Variant = "winnow2",
) -> float:
    """Winnow's mistake bound for a monotone disjunction of ``k`` of ``d`` variables.

    Theorem (chapter 6).  Let every example be labelled by a disjunction of ``k`` of
    the ``d`` variables, ``alpha > 1`` and ``threshold = theta >= 1``.  Then Winnow
    makes at most

    - Winnow2: ``(alpha + 1) k (log_alpha(theta) + 1) + alpha d / ((alpha - 1) theta)``,
      which is ``3 k (log2 d + 1) + 2`` for ``alpha = 2``, ``theta = d``;
    - Winnow1: ``alpha k (log_alpha(theta) + 1) + d / theta``, which is
      ``2 k (log2 d + 1) + 1`` for ``alpha = 2``, ``theta = d``

    mistakes, on any sequence of such examples, in any number of passes.  The Winnow1
    bound is Littlestone's (1988) theorem for Winnow1 on ``k``-literal monotone
    disjunctions; the Winnow2 bound comes from the same argument (Littlestone proves a
    more general theorem for Winnow2; the constants 3 and 2 are those of Blum's
    lecture notes for ``alpha = 2``, ``theta = d``).

    Proof.  A relevant variable is never active in a negative example, so its weight is
    never demoted; a mistake on a positive example has ``w . x <= theta``, so each
    active weight is at most ``theta`` before its promotion, and a relevant weight,
    ``alpha^m`` after ``m`` promotions, is promoted at most ``log_alpha(theta) + 1``
    times.  Every positive example has an active relevant variable, so there are at
    most ``M_+ = k (log_alpha(theta) + 1)`` promotions.  The total weight starts at
    ``d``; a promotion adds ``(alpha - 1) w . x <= (alpha - 1) theta``; a mistake on a
    negative example has ``w . x >= theta`` and removes ``(1 - 1/alpha) w . x`` (Winnow2)
    or all of ``w . x`` (Winnow1).  The total stays positive, which bounds the mistakes
    on negative examples by ``alpha d / ((alpha - 1) theta) + alpha M_+`` (Winnow2)
    and by ``d / theta + (alpha - 1) M_+`` (Winnow1).  Add ``M_+``.

    Parameters
    ----------
    k : int, 1 <= k <= d
    d : int, >= 1
    alpha : float, > 1, default 2.0
    threshold : float, >= 1, optional
        Default ``d``.
    variant : {"winnow2", "winnow1"}, default "winnow2"

    Returns
    -------
    float

    Examples
    --------
    >>> winnow_mistake_bound(5, 1024), winnow_mistake_bound(5, 1024, variant="winnow1")
    (167.0, 111.0)
    """
    kk = check_count(k, "k", 1)
    dd = check_count(d, "d", 1)
    if kk > dd:
        raise ValueError(f"k = {kk} relevant variables cannot exceed d = {dd}")
    a = _check_alpha(alpha)
    th = _check_threshold(threshold, dd)
    if th < 1:
        raise ValueError(f"the bound needs threshold >= 1, got {th}")
    var = _check_variant(variant)
    promotions = kk * (math.log(th) / math.log(a) + 1.0)
    if var == "winnow2":
        return (a + 1.0) * promotions + a * dd / ((a - 1.0) * th)
    return a * promotions + dd / th


@dataclass(frozen=True)
class WinnowComparison:
    """Online mistakes on one sparse disjunction, by Winnow and the perceptron (chapter 6).

    Attributes
    ----------
    d : int
        Number of variables.
    winnow2, winnow1, perceptron : int
        Mistakes in one online pass over the same examples.
    winnow2_bound, winnow1_bound : float
        :func:`winnow_mistake_bound` for ``alpha = 2``, ``threshold = d``.
    perceptron_bound : float
        Chapter 4's ``(R / gamma)^2`` for the perceptron with an offset, on the lifted
        examples ``(x, 1)`` and the separator ``(1 on the relevant variables, -1/2)``
        normalised: ``R^2 (4 k + 1)`` with ``R^2 = 1 + max ||x||^2``.
    """

    d: int
    winnow2: int
    winnow1: int
    perceptron: int
    winnow2_bound: float
    winnow1_bound: float
    perceptron_bound: float


def winnow_vs_perceptron(
    n: int, ds: ArrayLike, k: int, *, seed: int | None = 0
) -> list[WinnowComparison]:
    """Mistakes of Winnow2, Winnow1 and the perceptron as the number of variables grows.

    For each ``d`` in ``ds``, draws ``sparse_disjunction(n, d, k, seed=seed)`` and runs
    each learner once through the examples, in order (the online setting of the mistake
    bounds): :func:`winnow` with ``alpha = 2`` and ``threshold = d``, and
    :func:`perceptron_lib.perceptron` with ``tau=1``.  The perceptron learns an offset
    ``theta_0``, its counterpart of Winnow's threshold, so both can represent the
    disjunction (chapter 6).

    Winnow's mistakes grow like ``k log d`` and stay under its bound; the
    perceptron's grow roughly in proportion to ``d``, as its bound ``R^2 (4k + 1)`` does
    (``R^2`` is about ``p d`` for bits drawn with probability ``p``).

    Parameters
    ----------
    n : int, >= 1
        Number of examples.
    ds : sequence of int
        The numbers of variables, each ``>= k``.
    k : int, >= 1
        Number of relevant variables.
    seed : int, optional, default 0

    Returns
    -------
    list of WinnowComparison
        One per ``d``, in the order given.

    Examples
    --------
    >>> [(r.d, r.winnow2, r.perceptron) for r in winnow_vs_perceptron(300, [20, 200], 2)]
    [(20, 16, 37), (200, 26, 120)]
    """
    from .algorithm import perceptron

    nn = check_count(n, "n", 1)
    kk = check_count(k, "k", 1)
    dims = [check_count(v, "each d", kk) for v in np.atleast_1d(np.asarray(ds)).tolist()]
    if not dims:
        raise ValueError("ds is empty: give at least one number of variables")
    rows = []
    for d in dims:
        X, y, _ = sparse_disjunction(nn, d, kk, seed=seed)
        r2 = winnow(X, y)
        r1 = winnow(X, y, variant="winnow1")
        p = perceptron(X, y, tau=1, method="loop")
        R2 = 1.0 + float(X.sum(axis=1).max())
        rows.append(WinnowComparison(
            d=d, winnow2=r2.mistakes, winnow1=r1.mistakes, perceptron=p.mistakes,
            winnow2_bound=winnow_mistake_bound(kk, d),
            winnow1_bound=winnow_mistake_bound(kk, d, variant="winnow1"),
            perceptron_bound=R2 * (4 * kk + 1),
        ))
    return rows
