"""Mistake bounds beyond separable data, for many classes and in feature space (chapter 7),
chapter 4's bound in the form ``(R B)^2``, and the risk of an online run (chapter 7).

Each function computes the right-hand side of one theorem; the docstring states the
theorem with its conditions.  All of them are about the perceptron *through the
origin*; a perceptron with an offset is that perceptron on the lifted data
``(x, 1)`` (chapter 2), so ``R`` is then the radius of the lifted data and the
separator is the lifted, normalised ``(theta, theta_0)``.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ._validate import check_count, check_finite, check_scalar

__all__ = [
    "freund_schapire_bound",
    "kernel_mistake_bound",
    "margin_perceptron_bound",
    "multiclass_mistake_bound",
    "online_to_batch_bound",
    "online_to_batch_expectation_bound",
    "online_to_batch_risk_bound",
    "rb_squared_bound",
]


def _radius(R: object) -> float:
    r = check_scalar(R, "R")
    if r < 0:
        raise ValueError(f"R bounds the norms of the examples and cannot be negative, got {r}")
    return r


def _gamma(gamma: object) -> float:
    g = check_scalar(gamma, "gamma")
    if g <= 0:
        raise ValueError(f"gamma must be positive (a target margin), got {g}")
    return g


def freund_schapire_bound(R: float, gamma: float, D: float, *, passes: int = 1) -> float:
    """Freund and Schapire's mistake bound ``((R + D) / gamma)^2`` for any data (chapter 7).

    Theorem (Freund and Schapire 1999, for data that need not be separable; Block and
    Novikoff when ``D = 0``).
    Let ``(x_1, y_1), ..., (x_N, y_N)`` be any sequence of examples with
    ``||x_t|| <= R``.  Let ``u`` be any unit vector and ``gamma > 0``; let
    ``d_t = max(0, gamma - y_t u . x_t)`` and ``D = sqrt(sum_t d_t^2)``.  Then
    PERCEPTRON-THROUGH-ORIGIN, run once through the sequence, makes at most
    ``((R + D) / gamma)^2`` mistakes.  Nothing is assumed about separability: the
    bound trades the margin ``gamma`` against how far the examples fall short of it.

    The proof adds one coordinate per example, ``x_t -> (x_t, Delta e_t)``, in which
    ``(u, (y_1 d_1, ..., y_N d_N) / Delta)``, normalised, separates with margin
    ``gamma / sqrt(1 + D^2 / Delta^2)``; on that lifted sequence the perceptron makes
    the same mistakes (each new coordinate is seen once), the separable bound applies,
    and ``Delta^2 = R D`` minimises it.

    Several passes over ``n`` examples are one longer sequence in which each example
    appears once per pass, so its ``D`` is ``sqrt(passes)`` times the ``D`` of one pass:
    ``passes`` makes that substitution.  When ``D > 0`` the bound therefore grows with
    the number of passes (a perceptron on non-separable data never stops making
    mistakes); when ``D = 0`` (margin at least ``gamma``) it holds for any number of
    passes, and is the ``(R / gamma)^2`` of chapter 4.

    Parameters
    ----------
    R : float, >= 0
        Bound on the norms of the examples (of the lifted examples for a perceptron
        with an offset).
    gamma : float, > 0
        The target margin.
    D : float, >= 0
        Total deficiency of one pass, as :func:`perceptron_lib.hinge_deficiency`
        computes it.
    passes : int, default 1
        Number of passes over the data the bound is about.

    Returns
    -------
    float

    Examples
    --------
    >>> freund_schapire_bound(1.0, 0.5, 0.0)
    4.0
    >>> freund_schapire_bound(1.0, 0.5, 0.5)
    9.0
    >>> freund_schapire_bound(1.0, 0.5, 0.5, passes=4)   # D -> 2 * 0.5
    16.0
    """
    r, g = _radius(R), _gamma(gamma)
    dd = check_scalar(D, "D")
    if dd < 0:
        raise ValueError(f"D is a square root of a sum of squares and cannot be negative, got {dd}")
    p = check_count(passes, "passes", 1)
    return ((r + math.sqrt(p) * dd) / g) ** 2


def margin_perceptron_bound(R: float, gamma: float, margin: float) -> float:
    """Updates of the margin perceptron on separable data: ``(R^2 + 2 margin) / gamma^2``.

    Theorem (chapter 7).  If ``||x_t|| <= R`` for every example and a unit vector ``u``
    has ``y_t u . x_t >= gamma > 0`` for every example, the perceptron through the
    origin that updates whenever ``y_t theta . x_t <= margin``
    (:func:`perceptron_lib.margin_perceptron` with ``offset=False``; with an offset, on
    the lifted data) makes at most ``(R^2 + 2 margin) / gamma^2`` updates, in any
    number of passes.  Proof: each update raises ``theta . u`` by at least ``gamma``
    and ``||theta||^2`` by ``2 y theta . x + ||x||^2 <= 2 margin + R^2``.  With
    ``margin = 0`` this is chapter 4's ``(R / gamma)^2``.

    Parameters
    ----------
    R : float, >= 0
        Bound on the norms of the (lifted, with an offset) examples.
    gamma : float, > 0
        Margin of a unit separator through the origin of those examples.
    margin : float, >= 0
        The margin perceptron's threshold.

    Returns
    -------
    float

    Examples
    --------
    >>> margin_perceptron_bound(1.0, 0.5, 0.0), margin_perceptron_bound(1.0, 0.5, 1.0)
    (4.0, 12.0)
    """
    r, g = _radius(R), _gamma(gamma)
    b = check_scalar(margin, "margin")
    if b < 0:
        raise ValueError(f"margin must be >= 0, got {b}")
    return (r * r + 2.0 * b) / (g * g)


def multiclass_mistake_bound(R: float, gamma: float) -> float:
    """Updates of the multiclass perceptron on separable data: ``2 (R / gamma)^2`` (chapter 7).

    Theorem (Kesler's construction; Collins 2002 for the multiclass perceptron).  Let
    ``||x_t|| <= R`` for every example, and let ``(Theta*, theta_0*)``, flattened into
    one vector ``W*`` as :func:`perceptron_lib.kesler_construction` does, have unit norm
    (Frobenius norm of ``Theta*`` together with the offsets) and multiclass margin
    ``gamma > 0``: ``score*_y(x_t) - score*_c(x_t) >= gamma`` for every example and every
    class ``c`` other than its own (:func:`perceptron_lib.multiclass_margin`).  Then
    :func:`perceptron_lib.multiclass_perceptron` makes at most ``2 R^2 / gamma^2``
    updates, in any number of passes.

    Derivation: an update adds to ``W`` the Kesler vector ``z`` of the example and its
    rival.  ``W* . z`` is the score difference, at least ``gamma``, so ``W . W*`` grows
    by at least ``gamma`` per update; ``||z||^2 = 2 ||x||^2 <= 2 R^2`` and
    ``W . z <= 0`` at a mistake, so ``||W||^2`` grows by at most ``2 R^2``.  Hence
    ``k gamma <= ||W|| <= sqrt(2 k) R``.  It is chapter 4's bound for the Kesler data,
    whose radius is ``sqrt(2) R``.  With offsets, ``R`` is the radius of the lifted
    data ``(x, 1)``.

    Parameters
    ----------
    R : float, >= 0
        Bound on the norms of the (lifted, with offsets) examples.
    gamma : float, > 0
        Multiclass margin of a ``(Theta, theta_0)`` of unit norm.

    Returns
    -------
    float

    Examples
    --------
    >>> multiclass_mistake_bound(1.0, 0.5)
    8.0
    """
    r, g = _radius(R), _gamma(gamma)
    return 2.0 * (r / g) ** 2


def kernel_mistake_bound(G: ArrayLike, gamma: float) -> float:
    """The convergence bound in a kernel's feature space: ``max_i K(x_i, x_i) / gamma^2``.

    Theorem (chapter 7; chapter 4's theorem with ``x`` replaced by ``phi(x)``).  Let
    ``K(x, x') = phi(x) . phi(x')`` and ``G`` the Gram matrix of the training data, so
    ``R^2 = max_i ||phi(x_i)||^2 = max_i G[i, i]``.  If a unit vector of the feature
    space classifies every example with margin ``gamma > 0`` (for a vector
    ``sum_j c_j phi(x_j)``, :func:`perceptron_lib.kernel_margin` computes it from
    ``G``), the kernel perceptron without offset
    (:func:`perceptron_lib.kernel_perceptron` with ``offset=False``) makes at most
    ``R^2 / gamma^2`` updates.  The kernel perceptron with an offset is the one without,
    for the kernel ``K + 1``: pass ``G + 1`` and the margin for that kernel.

    Parameters
    ----------
    G : array_like, shape (n, n)
        The Gram matrix ``G[i, j] = K(x_i, x_j)`` of the data.
    gamma : float, > 0
        A margin in feature space.

    Returns
    -------
    float

    Examples
    --------
    >>> kernel_mistake_bound([[4.0, 1.0], [1.0, 2.0]], 0.5)
    16.0
    """
    g = _gamma(gamma)
    Ga = np.asarray(G, dtype=float)
    if Ga.ndim != 2 or Ga.shape[0] != Ga.shape[1] or Ga.shape[0] == 0:
        raise ValueError(f"G must be a non-empty square Gram matrix, got shape {Ga.shape}")
    check_finite(Ga, "G")
    diag = np.diag(Ga)
    if np.any(diag < 0):
        raise ValueError(
            "G has a negative diagonal entry K(x, x) = ||phi(x)||^2: it is not a Gram matrix"
        )
    return float(diag.max()) / (g * g)


def online_to_batch_bound(
    n: int, mistake_bound: float | ArrayLike, *, voted: bool = True
) -> float:
    """Freund and Schapire's bound on the test error of the voted perceptron (chapter 7).

    Theorem (Freund and Schapire 1999, theorem 3; corollary 1 for separable data).
    Let the ``n`` training examples and a test example be drawn independently from the
    same distribution.  Run the perceptron *once* through the ``n`` training examples
    (through the origin; lift the data for an offset) and predict the test label with
    the voted perceptron (:func:`perceptron_lib.voted_perceptron` with ``tau=1``).
    Then the probability, over the draw of all ``n + 1`` examples, that the prediction
    is wrong is at most

        2 / (n + 1) * E[ min over unit u and gamma > 0 of ((R + D_{u,gamma}) / gamma)^2 ],

    where ``R`` and ``D_{u,gamma}`` (:func:`perceptron_lib.hinge_deficiency`) are
    computed on all ``n + 1`` examples and the expectation is over their draw.  On data
    separable with margin ``gamma`` it reads ``2 / (n + 1) * E[(R / gamma)^2]``.

    The randomised classifier that predicts with the hypothesis in force at a uniformly
    random one of the ``n + 1`` steps (Helmbold and Warmuth's leave-one-out
    conversion, on which the proof rests) errs with probability at most the same
    quantity without the factor 2 (``voted=False``).  The proof: by exchangeability,
    that probability equals ``E[mistakes on the n + 1 examples] / (n + 1)``, and the
    mistakes obey :func:`freund_schapire_bound`; the weighted vote errs only when at
    least half the weight errs, which doubles the bound.

    Parameters
    ----------
    n : int, >= 1
        Number of training examples.
    mistake_bound : float or array_like
        The expectation ``E[...]``, or samples of the quantity inside it (one per draw of
        ``n + 1`` examples), whose mean is used.  Any upper bound on the minimum, for
        instance ``((R + D) / gamma)^2`` at one fixed ``u`` and ``gamma``, gives a valid
        (larger) bound.
    voted : bool, default True
        The voted perceptron's factor 2; False for the randomised classifier.

    Returns
    -------
    float
        The bound on the probability of a test error; a value above 1 says nothing.

    Examples
    --------
    >>> online_to_batch_bound(99, 10.0)
    0.2
    >>> online_to_batch_bound(99, [8.0, 12.0], voted=False)
    0.1
    """
    nn = check_count(n, "n", 1)
    samples = np.asarray(mistake_bound, dtype=float)
    if samples.size == 0:
        raise ValueError("mistake_bound is empty: give its expectation or samples of it")
    check_finite(samples, "mistake_bound")
    if np.any(samples < 0):
        raise ValueError("mistake_bound must be >= 0: it bounds a number of mistakes")
    factor = 2.0 if voted else 1.0
    return factor * float(samples.mean()) / (nn + 1)


def rb_squared_bound(R: float, B: float) -> float:
    """The convergence bound in the form ``(R B)^2``, with ``B = ||theta*||`` (chapter 4).

    Theorem (chapter 4, as in Shalev-Shwartz and Ben-David 2014, theorem 9.1).  If
    ``||x_i|| <= R`` for every example and some ``theta*`` has
    ``y_i theta* . x_i >= 1`` for every example, PERCEPTRON-THROUGH-ORIGIN makes at
    most ``(R ||theta*||)^2`` updates, in any number of passes.  Proof: each update
    raises ``theta . theta*`` by at least 1 and ``||theta||^2`` by at most ``R^2``, so
    after ``k`` updates ``k <= theta . theta* <= ||theta|| B <= sqrt(k) R B``.

    It is the ``(R / gamma)^2`` of :func:`perceptron_lib.mistake_bound` read another
    way: the unit vector ``theta* / B`` has margin at least ``gamma = 1 / B``, and the
    ``theta*`` of least norm, ``B = 1 / gamma_opt``, gives the best bound.  With an
    offset, ``R`` and ``theta*`` are those of the lifted data ``(x, 1)``.

    Parameters
    ----------
    R : float, >= 0
        Bound on the norms of the (lifted, with an offset) examples.
    B : float, > 0
        The norm of a ``theta*`` with ``y_i theta* . x_i >= 1`` for every example.

    Returns
    -------
    float

    Examples
    --------
    >>> rb_squared_bound(2.0, 4.0)      # = mistake_bound(2.0, 1 / 4.0)
    64.0
    """
    r = _radius(R)
    b = check_scalar(B, "B")
    if b <= 0:
        raise ValueError(
            f"B is the norm of a theta* with y theta* . x >= 1, so it is positive; got {b}"
        )
    return (r * b) ** 2


def _online_args(mistakes: object, n: object) -> tuple[float, int]:
    nn = check_count(n, "n", 1)
    m = check_scalar(mistakes, "mistakes")
    if m < 0:
        raise ValueError(f"mistakes must be >= 0, got {m}")
    if m > nn:
        raise ValueError(
            f"mistakes = {m:g} exceeds n = {nn}: one online pass over n examples makes "
            "at most n mistakes"
        )
    return m, nn


def online_to_batch_expectation_bound(mistakes: float, n: int) -> float:
    """The expected risk of a hypothesis drawn from an online run: ``E[M] / n`` (chapter 7).

    Setting (Littlestone 1989; Cesa-Bianchi, Conconi and Gentile 2004).  Run an online
    learner (the perceptron, Winnow, ...) once through ``n`` examples drawn
    independently from one distribution.  Let ``h_0, ..., h_(n-1)`` be its hypotheses,
    ``h_(t-1)`` the one that predicts example ``t``, and ``M`` the number of mistakes
    (examples ``t`` that ``h_(t-1)`` gets wrong, ``y (theta . x + theta_0) <= 0`` for
    the perceptron).  Pick one of the ``n`` hypotheses uniformly at random.  Its risk
    (probability of a mistake on a fresh example), averaged over the draw of the data
    and of the hypothesis, is exactly ``E[M] / n``.

    Derivation: ``h_(t-1)`` depends only on the first ``t - 1`` examples, so example
    ``t`` is a fresh example for it, and the chance of a mistake at step ``t`` is the
    expected risk of ``h_(t-1)``.  Summing over ``t`` gives ``E[M]``; the random pick
    divides by ``n``.  Pass the mistakes of one run and the value estimates the
    expectation; pass a mistake bound (chapter 4, :func:`freund_schapire_bound`) and it
    bounds it.  :func:`online_to_batch_risk_bound` holds with high probability for the
    one run observed.

    Parameters
    ----------
    mistakes : float, 0 <= mistakes <= n
        ``E[M]``, an estimate of it, or a bound on it.
    n : int, >= 1
        Number of examples of the pass.

    Returns
    -------
    float

    Examples
    --------
    >>> online_to_batch_expectation_bound(100, 10_000)
    0.01
    """
    m, nn = _online_args(mistakes, n)
    return m / nn


def online_to_batch_risk_bound(mistakes: float, n: int, delta: float) -> float:
    """Risk of the hypotheses of one online pass, with probability ``1 - delta`` (chapter 7).

    Theorem (Cesa-Bianchi, Conconi and Gentile 2004, proposition 1).  Run an online
    learner once through ``n`` examples drawn independently from one distribution,
    with hypotheses ``h_0, ..., h_(n-1)`` (``h_(t-1)`` predicts example ``t``) and
    ``M`` mistakes.  With probability at least ``1 - delta`` over the draw of the
    examples, the average risk of the hypotheses, which is the risk of the randomised
    classifier that predicts with one of them chosen uniformly at random, satisfies

        ``(1/n) sum_t risk(h_(t-1)) <= M / n + sqrt(2 ln(1/delta) / n)``.

    Derivation: ``V_t = risk(h_(t-1)) - [h_(t-1) errs on example t]`` has conditional
    mean 0 given the first ``t - 1`` examples, because ``h_(t-1)`` depends on them
    only, and ``|V_t| <= 1``.  By the Azuma-Hoeffding inequality,
    ``P(sum_t V_t >= n eps) <= exp(-n eps^2 / 2)``; set that to ``delta`` and note that
    ``sum_t V_t = sum_t risk(h_(t-1)) - M``.  Since each ``V_t`` lies in an interval of
    length 1, the sharper form of the inequality gives ``sqrt(ln(1/delta) / (2 n))``,
    half the term used here; this function keeps the constant of the paper.  The same
    high-probability bound holds, up to a factor 2, for the majority vote of the
    hypotheses, which errs only where at least half of them do.

    Parameters
    ----------
    mistakes : float, 0 <= mistakes <= n
        ``M``, the mistakes made in the pass.
    n : int, >= 1
        Number of examples of the pass.
    delta : float, 0 < delta < 1
        The probability allowed for the bound to fail.

    Returns
    -------
    float
        The bound; a value of 1 or more says nothing.

    Examples
    --------
    >>> round(online_to_batch_risk_bound(100, 10_000, 0.05), 4)
    0.0345
    """
    m, nn = _online_args(mistakes, n)
    dl = check_scalar(delta, "delta")
    if not 0.0 < dl < 1.0:
        raise ValueError(f"delta must lie strictly between 0 and 1, got {dl}")
    return m / nn + math.sqrt(2.0 * math.log(1.0 / dl) / nn)
