"""The quantities of the convergence proof, measured along a run (chapter 4).

The proof that PERCEPTRON-THROUGH-ORIGIN stops after at most ``(R / gamma) ** 2``
updates follows two numbers along the hypotheses ``theta^(0) = 0, theta^(1), ...,
theta^(K)`` of a run, one per update:

- the *alignment* ``theta^(k) . theta* / ||theta*||``, which grows by at least
  ``gamma`` per update (lemma 1: it is at least ``k gamma``);
- the *squared norm* ``||theta^(k)||^2``, which grows by at most ``R^2`` per update
  (lemma 2: it is at most ``k R^2``).

:func:`proof_quantities` computes both, and the cosine of the angle between
``theta^(k)`` and ``theta*``, from a traced run; :func:`check_lemmas` runs the
perceptron on a data set and tests the two inequalities and the bound.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._validate import check_data, check_scalar, check_theta
from .algorithm import PerceptronResult, perceptron_through_origin
from .margin import margin, mistake_bound, radius


@dataclass(frozen=True)
class ProofTrace:
    """The quantities of the convergence proof after each update (chapter 4).

    Index ``k`` of every array refers to the hypothesis ``theta^(k)`` after ``k``
    updates; entry 0 is the starting hypothesis ``theta^(0) = 0``.

    Attributes
    ----------
    k : numpy.ndarray of int, shape (K + 1,)
        ``0, 1, ..., K`` where ``K`` is the number of updates of the run.
    theta : numpy.ndarray, shape (K + 1, d)
        The hypotheses ``theta^(0), ..., theta^(K)``, one per row.
    index : numpy.ndarray of int, shape (K,)
        Row of ``X`` whose mistake caused update ``k`` (entry ``k - 1``).
    alignment : numpy.ndarray, shape (K + 1,)
        ``theta^(k) . theta* / ||theta*||``: the length of the projection of
        ``theta^(k)`` on the direction of ``theta*``.  Lemma 1: ``>= k gamma``.
    norm_sq : numpy.ndarray, shape (K + 1,)
        ``||theta^(k)||^2``.  Lemma 2: ``<= k R^2``.
    cos : numpy.ndarray, shape (K + 1,)
        ``cos(theta^(k), theta*) = alignment / ||theta^(k)||``; NaN where
        ``theta^(k) = 0`` (always at ``k = 0``), since the zero vector has no
        direction.
    """

    k: np.ndarray
    theta: np.ndarray
    index: np.ndarray
    alignment: np.ndarray
    norm_sq: np.ndarray
    cos: np.ndarray


@dataclass(frozen=True)
class LemmaCheck:
    """The two lemmas and the theorem of chapter 4, tested on one run.

    Attributes
    ----------
    result : PerceptronResult
        The traced run of PERCEPTRON-THROUGH-ORIGIN.
    trace : ProofTrace
        The proof's quantities along it.
    gamma : float
        Margin of the data with respect to ``theta_star``.
    R : float
        ``max ||x||`` over the data.
    bound : float
        ``(R / gamma) ** 2``.
    lemma1_slack : numpy.ndarray, shape (K + 1,)
        ``alignment - k gamma``; lemma 1 says it is never negative.
    lemma2_slack : numpy.ndarray, shape (K + 1,)
        ``k R^2 - norm_sq``; lemma 2 says it is never negative.
    lemma1_holds, lemma2_holds : bool
        Whether every slack is ``>= 0`` up to rounding (see :func:`check_lemmas`).
    bound_holds : bool
        Whether ``result.mistakes <= bound`` up to rounding.
    """

    result: PerceptronResult
    trace: ProofTrace
    gamma: float
    R: float
    bound: float
    lemma1_slack: np.ndarray
    lemma2_slack: np.ndarray
    lemma1_holds: bool
    lemma2_holds: bool
    bound_holds: bool


def _direction(theta_star: ArrayLike, d: int) -> np.ndarray:
    th = check_theta(theta_star, d=d, name="theta_star")
    if not np.any(th):
        raise ValueError("theta_star is the zero vector: it defines no direction to align with")
    return th


def proof_quantities(result: PerceptronResult, theta_star: ArrayLike) -> ProofTrace:
    """Alignment, squared norm and cosine after each update of a run (chapter 4).

    The convergence proof compares each hypothesis ``theta^(k)`` (after ``k``
    updates) with a separator ``theta*``: lemma 1 bounds the alignment
    ``theta^(k) . theta* / ||theta*||`` from below by ``k gamma``, lemma 2 bounds
    ``||theta^(k)||^2`` from above by ``k R^2``.  This function measures both along a
    real run, so the inequalities can be checked and plotted.

    Parameters
    ----------
    result : PerceptronResult
        A traced run of PERCEPTRON-THROUGH-ORIGIN:
        ``perceptron_through_origin(X, y, trace=True)``.
    theta_star : array_like, shape (d,)
        A non-zero vector, normally a separator through the origin.  Its length does
        not matter: only its direction enters.

    Returns
    -------
    ProofTrace
        Arrays indexed by ``k = 0, ..., K`` (``K = result.mistakes``).

    Raises
    ------
    TypeError
        If ``result`` is not a :class:`PerceptronResult`.
    ValueError
        If the run was not traced (``result.history`` is None), if it learned an
        offset (the proof is about separators through the origin: lift the data
        with :func:`perceptron_lib.add_offset_feature` instead), or if
        ``theta_star`` has the wrong length, is zero, or holds NaN or infinity.

    Examples
    --------
    >>> import perceptron_lib as pl
    >>> r = pl.perceptron_through_origin([[1.0, 0.0], [0.0, 1.0]], [1, 1], trace=True)
    >>> q = proof_quantities(r, [1.0, 1.0])
    >>> q.k, q.norm_sq
    (array([0, 1, 2]), array([0., 1., 2.]))
    """
    if not isinstance(result, PerceptronResult):
        raise TypeError(
            "result must be the PerceptronResult of a traced run, "
            f"perceptron_through_origin(X, y, trace=True); got {type(result).__name__}"
        )
    if result.history is None:
        raise ValueError(
            "result has no history: run perceptron_through_origin(X, y, trace=True) "
            "so that every update is recorded"
        )
    if result.theta_0 != 0.0 or any(u.theta_0 != 0.0 for u in result.history):
        raise ValueError(
            "result comes from a run with an offset (theta_0 != 0); the proof is about "
            "PERCEPTRON-THROUGH-ORIGIN: lift the data with add_offset_feature and run "
            "perceptron_through_origin on it"
        )
    d = result.theta.shape[0]
    direction = _direction(theta_star, d)
    thetas = np.vstack([np.zeros((1, d))] + [u.theta.reshape(1, d) for u in result.history])
    alignment = thetas @ direction / np.linalg.norm(direction)
    norm_sq = np.einsum("ij,ij->i", thetas, thetas)
    norms = np.sqrt(norm_sq)
    with np.errstate(invalid="ignore", divide="ignore"):
        cos = np.where(norms > 0, alignment / norms, np.nan)
    return ProofTrace(
        k=np.arange(thetas.shape[0]),
        theta=thetas,
        index=np.array([u.index for u in result.history], dtype=int),
        alignment=alignment,
        norm_sq=norm_sq,
        cos=cos,
    )


def check_lemmas(
    X: ArrayLike,
    y: ArrayLike,
    theta_star: ArrayLike,
    tau: int | None = None,
    rtol: float = 1e-9,
) -> LemmaCheck:
    """Run PERCEPTRON-THROUGH-ORIGIN and test the lemmas and the bound (chapter 4).

    Computes ``gamma = margin(X, y, theta_star)`` and ``R = radius(X)``, runs the
    perceptron with tracing, and compares the proof's quantities with ``k gamma``
    and ``k R^2``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,) of -1/+1
    theta_star : array_like, shape (d,)
        A separator through the origin: ``y theta_star . x > 0`` for every example.
    tau : int, optional
        Maximum number of epochs.  By default ``floor((R / gamma) ** 2) + 1``, which
        the theorem guarantees to be enough: every epoch but the last makes at least
        one update.
    rtol : float, default 1e-9
        Rounding allowance: lemma 1 counts as holding when
        ``alignment - k gamma >= -rtol * k * R`` for every ``k``, lemma 2 when
        ``k R^2 - norm_sq >= -rtol * k * R^2``, the bound when
        ``mistakes <= bound * (1 + rtol)``.

    Returns
    -------
    LemmaCheck

    Raises
    ------
    ValueError
        For invalid data or ``theta_star`` (see :func:`proof_quantities`), or when
        ``theta_star`` does not separate the data (its margin is not positive), since
        the theorem then says nothing.

    Examples
    --------
    >>> import perceptron_lib as pl
    >>> data = pl.make_separable(50, 2, gamma=0.2, R=1.0, seed=0)
    >>> c = check_lemmas(data.X, data.y, data.theta)
    >>> c.lemma1_holds, c.lemma2_holds, c.bound_holds, c.result.mistakes <= c.bound
    (True, True, True, True)
    """
    Xa, ya = check_data(X, y)
    direction = _direction(theta_star, Xa.shape[1])
    tol = check_scalar(rtol, "rtol")
    if tol < 0:
        raise ValueError(f"rtol must be non-negative, got {tol}")
    gamma = margin(Xa, ya, direction)
    if gamma <= 0:
        raise ValueError(
            f"theta_star does not separate the data (its margin is {gamma:.6g} <= 0): "
            "the lemmas need a separator through the origin with a positive margin"
        )
    R = radius(Xa)
    bound = mistake_bound(R, gamma)
    if tau is None:
        tau = int(np.floor(bound)) + 1
    result = perceptron_through_origin(Xa, ya, tau=tau, trace=True)
    trace = proof_quantities(result, direction)
    slack1 = trace.alignment - trace.k * gamma
    slack2 = trace.k * R**2 - trace.norm_sq
    return LemmaCheck(
        result=result,
        trace=trace,
        gamma=gamma,
        R=R,
        bound=bound,
        lemma1_slack=slack1,
        lemma2_slack=slack2,
        lemma1_holds=bool(np.all(slack1 >= -tol * trace.k * R)),
        lemma2_holds=bool(np.all(slack2 >= -tol * trace.k * R**2)),
        bound_holds=bool(result.mistakes <= bound * (1 + tol)),
    )
