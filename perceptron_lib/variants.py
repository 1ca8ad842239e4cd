"""Variants of the perceptron (chapter 6): averaged, voted, one-vs-all, kernel.

Each keeps the course's conventions: labels -1/+1 (one-vs-all: any labels), a mistake
when ``y * score <= 0``, examples visited in the given order unless ``shuffle``, a run
that stops after a pass with no update or after ``tau`` passes.  They share one loop,
:func:`_visits`, which makes exactly the updates of :func:`perceptron_lib.perceptron`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from ._validate import check_count, check_data, check_tau, check_X
from .algorithm import _visit_order


def _visits(
    X: np.ndarray,
    y: np.ndarray,
    tau: int,
    offset: bool,
    orders,
    theta: np.ndarray | None = None,
    theta_0: float = 0.0,
) -> Iterator[tuple[int, int, bool, np.ndarray, float]]:
    """The perceptron's loop, one visit at a time: ``(epoch, i, mistake, theta, theta_0)``.

    ``theta`` and ``theta_0`` are the hypothesis *after* the visit.  The arithmetic is
    that of the reference loop, so the updates are the same bit for bit.  The caller
    learns that the run converged when an epoch ends with no mistake.
    """
    theta = np.zeros(X.shape[1]) if theta is None else theta
    for t, order in enumerate(orders, start=1):
        changed = False
        for i in order:
            score = theta @ X[i] + theta_0
            mistake = bool(y[i] * score <= 0)
            if mistake:
                theta = theta + y[i] * X[i]
                if offset:
                    theta_0 = theta_0 + y[i]
                changed = True
            yield t, int(i), mistake, theta, float(theta_0)
        if not changed:
            return


@dataclass(frozen=True)
class AveragedResult:
    """The averaged perceptron's hypothesis, next to the plain one (chapter 6).

    Attributes
    ----------
    theta, theta_0
        The average of the hypothesis over every visit of the run.
    last_theta, last_theta_0
        The final hypothesis, the one :func:`perceptron_lib.perceptron` returns.
    mistakes, epochs, converged
        As for :func:`perceptron_lib.perceptron`.
    """

    theta: np.ndarray
    theta_0: float
    last_theta: np.ndarray
    last_theta_0: float
    mistakes: int
    epochs: int
    converged: bool


def averaged_perceptron(
    X: ArrayLike,
    y: ArrayLike,
    tau: int = 100,
    *,
    offset: bool = True,
    shuffle: bool = False,
    seed: int | None = None,
    method: Literal["running", "lazy", "cached"] = "running",
) -> AveragedResult:
    """The averaged perceptron: the mean hypothesis of a perceptron run (chapter 6).

    Runs :func:`perceptron_lib.perceptron` (the same updates) and returns, besides its
    final hypothesis, the average of ``(theta, theta_0)`` taken after every visit of
    an example.  A hypothesis that survived many visits weighs in proportion, so the
    last few updates on noisy data, which the plain perceptron keeps however unlucky,
    move the average only a little.  The average equals the weighted vote of
    :func:`voted_perceptron` turned into a single linear classifier.

    By default (``"running"``) ``theta`` is added to a running sum after every visit,
    as the definition reads; the step-by-step explorer of chapter 6 does the same and
    agrees bit for bit.  That doubles the work of the loop.  The two other methods
    touch the sum only at updates (chapter 7), and agree with it to rounding:

    - ``"lazy"`` adds each hypothesis once, times the number of visits it lasted
      (the counts of :func:`voted_perceptron`).  It sums the very vectors the running
      sum adds, so it agrees to about 1e-14 relative, coordinate by coordinate.
    - ``"cached"`` is Daume's cached counter (*A Course in Machine Learning*, ch. 4):
      with ``c`` the number of the visit, it keeps ``U = sum c y x`` over the updates
      and returns ``((V + 1) theta_V - U) / V`` after ``V`` visits, because
      ``sum_t theta_t = sum_s (V - s + 1) y_s x_s``.  The subtraction cancels
      leading digits: it agrees to about 1e-12 of the average's largest coordinate,
      and a coordinate much smaller than the others can lose more of its own digits.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    tau : int, default 100
        Maximum number of epochs; the run stops after a clean pass.
    offset : bool, default True
        Learn ``theta_0``; False is PERCEPTRON-THROUGH-ORIGIN.
    shuffle, seed
        As for :func:`perceptron_lib.perceptron`.
    method : {"running", "lazy", "cached"}, default "running"
        How the average is accumulated (above); the updates are the same.

    Returns
    -------
    AveragedResult

    Examples
    --------
    >>> r = averaged_perceptron([[1.0], [2.0], [-1.0]], [1, 1, -1])
    >>> r.last_theta, r.last_theta_0, r.mistakes
    (array([2.]), 0.0, 2)
    >>> r.theta, r.theta_0   # theta after the six visits: 1, 1, 2, 2, 2, 2
    (array([1.66666667]), 0.3333333333333333)
    >>> [averaged_perceptron([[1.0], [2.0], [-1.0]], [1, 1, -1], method=m).theta
    ...  for m in ("lazy", "cached")]
    [array([1.66666667]), array([1.66666667])]
    """
    Xa, ya = check_data(X, y)
    tau = check_tau(tau)
    if method not in ("running", "lazy", "cached"):
        raise ValueError(f"method must be 'running', 'lazy' or 'cached', got {method!r}")
    n, d = Xa.shape
    # running: total = the sum of theta after every visit; lazy: total = the sum over
    # hypotheses of (visits it lasted) * hypothesis, `held` counting the visits of the
    # hypothesis in force; cached: weighted = sum_s s y_s x_s
    total, total_0, held = np.zeros(d), 0.0, 0
    weighted, weighted_0 = np.zeros(d), 0.0
    visits, mistakes, epoch = 0, 0, 0
    theta, theta_0, clean = np.zeros(d), 0.0, True
    for t, i, mistake, after, after_0 in _visits(Xa, ya, tau, offset,
                                                _visit_order(n, tau, shuffle, seed)):
        if t != epoch:
            epoch, clean = t, True
        visits += 1
        if mistake:
            clean = False
            mistakes += 1
            if method == "lazy":  # the hypothesis before this update lasted `held` visits
                total = total + held * theta
                total_0 += held * theta_0
                held = 0
            elif method == "cached":
                weighted = weighted + visits * (ya[i] * Xa[i])
                weighted_0 += visits * ya[i] if offset else 0.0
        theta, theta_0 = after, after_0
        held += 1
        if method == "running":
            total = total + theta
            total_0 += theta_0
    if method == "running":
        avg, avg_0 = total / visits, total_0 / visits
    elif method == "lazy":
        avg = (total + held * theta) / visits
        avg_0 = (total_0 + held * theta_0) / visits
    else:
        avg = ((visits + 1) * theta - weighted) / visits
        avg_0 = ((visits + 1) * theta_0 - weighted_0) / visits
    # every epoch is visited in full, so the run converged when its last one was clean
    return AveragedResult(
        theta=avg,
        theta_0=float(avg_0),
        last_theta=theta,
        last_theta_0=float(theta_0),
        mistakes=int(mistakes),
        epochs=epoch,
        converged=clean,
    )


@dataclass(frozen=True)
class VotedResult:
    """The voted perceptron's hypotheses and their votes (chapter 6).

    ``thetas[k]``, ``theta_0s[k]`` is the k-th hypothesis of the run (the first is 0),
    ``counts[k]`` the number of visits it survived, its vote in :func:`voted_predict`.
    """

    thetas: np.ndarray
    theta_0s: np.ndarray
    counts: np.ndarray
    mistakes: int
    epochs: int
    converged: bool


def voted_perceptron(
    X: ArrayLike,
    y: ArrayLike,
    tau: int = 100,
    *,
    offset: bool = True,
    shuffle: bool = False,
    seed: int | None = None,
) -> VotedResult:
    """The voted perceptron of Freund and Schapire (chapter 6).

    Keeps every hypothesis of a perceptron run with the number of visits it lasted:
    the starting hypothesis counts the visits before the first mistake, and each
    update starts a new hypothesis whose count includes the visit that created it.
    :func:`voted_predict` lets them vote, each with its count as weight.

    Parameters and conventions are those of :func:`averaged_perceptron`.

    Examples
    --------
    >>> r = voted_perceptron([[1.0], [2.0], [-1.0]], [1, 1, -1])
    >>> r.thetas.ravel(), r.counts
    (array([0., 1., 2.]), array([0, 2, 4]))
    """
    Xa, ya = check_data(X, y)
    tau = check_tau(tau)
    n, d = Xa.shape
    thetas, theta_0s, counts = [np.zeros(d)], [0.0], [0]
    mistakes, epoch, clean = 0, 0, True
    for t, _i, mistake, theta, theta_0 in _visits(Xa, ya, tau, offset,
                                                 _visit_order(n, tau, shuffle, seed)):
        if t != epoch:
            epoch, clean = t, True
        clean = clean and not mistake
        if mistake:
            mistakes += 1
            thetas.append(theta)
            theta_0s.append(theta_0)
            counts.append(1)
        else:
            counts[-1] += 1
    return VotedResult(
        thetas=np.array(thetas),
        theta_0s=np.array(theta_0s),
        counts=np.array(counts),
        mistakes=mistakes,
        epochs=epoch,
        converged=clean,
    )


def voted_predict(model: VotedResult, X: ArrayLike) -> np.ndarray:
    """Labels by the weighted vote of a :class:`VotedResult`'s hypotheses (chapter 6).

    Each hypothesis votes +1 when its score is ``> 0`` and -1 otherwise, with its count
    as weight; the label is +1 exactly when the weighted sum is ``> 0``.
    """
    Xa = check_X(X)
    if Xa.shape[1] != model.thetas.shape[1]:
        raise ValueError(f"X has {Xa.shape[1]} features, the model {model.thetas.shape[1]}")
    votes = np.where(Xa @ model.thetas.T + model.theta_0s > 0, 1, -1)
    return np.where(votes @ model.counts > 0, 1, -1)


# ---------------------------------------------------------------------------------------
# More than two classes


@dataclass(frozen=True)
class OneVsAllResult:
    """One perceptron per class, each separating it from all the others (chapter 6)."""

    classes: np.ndarray
    thetas: np.ndarray
    theta_0s: np.ndarray
    converged: np.ndarray


def one_vs_all(X: ArrayLike, labels: ArrayLike, tau: int = 100) -> OneVsAllResult:
    """Train one perceptron per class against the rest (chapter 6).

    For each class ``c`` (in sorted order) the perceptron learns to tell ``c`` (+1)
    from every other class (-1).  :func:`one_vs_all_predict` gives each example the
    class whose perceptron scores it highest.

    Parameters
    ----------
    X : array_like, shape (n, d)
    labels : array_like, shape (n,)
        Any labels (numbers or strings), at least two distinct ones.
    tau : int, default 100

    Raises
    ------
    ValueError
        On fewer than two classes, or bad ``X``.
    """
    from .algorithm import perceptron

    Xa = check_X(X)
    lab = np.asarray(labels)
    if lab.ndim != 1 or lab.shape[0] != Xa.shape[0]:
        raise ValueError(f"labels must have shape ({Xa.shape[0]},), got {lab.shape}")
    classes = np.unique(lab)
    if classes.size < 2:
        raise ValueError(f"one-vs-all needs at least 2 classes, got {classes.size}: {classes}")
    runs = [perceptron(Xa, np.where(lab == c, 1.0, -1.0), tau=tau) for c in classes]
    return OneVsAllResult(
        classes=classes,
        thetas=np.array([r.theta for r in runs]),
        theta_0s=np.array([r.theta_0 for r in runs]),
        converged=np.array([r.converged for r in runs]),
    )


def one_vs_all_scores(model: OneVsAllResult, X: ArrayLike) -> np.ndarray:
    """Every class's score ``theta_c . x + theta_0c``, shape (n, classes) (chapter 6)."""
    Xa = check_X(X)
    if Xa.shape[1] != model.thetas.shape[1]:
        raise ValueError(f"X has {Xa.shape[1]} features, the model {model.thetas.shape[1]}")
    return Xa @ model.thetas.T + model.theta_0s


def one_vs_all_predict(model: OneVsAllResult, X: ArrayLike) -> np.ndarray:
    """The class with the highest score (the first such class on a tie) (chapter 6)."""
    return model.classes[np.argmax(one_vs_all_scores(model, X), axis=1)]


# ---------------------------------------------------------------------------------------
# Kernels

Kernel = Callable[[np.ndarray, np.ndarray], np.ndarray]


def linear_kernel() -> Kernel:
    """``K(a, b) = a . b``: the kernel perceptron is then the perceptron (chapter 6)."""
    return lambda A, B: A @ B.T


def polynomial_kernel(degree: int = 2, coef0: float = 1.0) -> Kernel:
    """``K(a, b) = (a . b + coef0) ** degree`` (chapter 6)."""
    degree = check_count(degree, "degree", 1)
    return lambda A, B: (A @ B.T + coef0) ** degree


def rbf_kernel(gamma: float = 1.0) -> Kernel:
    """``K(a, b) = exp(-gamma ||a - b||^2)`` (chapter 6)."""
    if not gamma > 0:
        raise ValueError(f"gamma must be positive, got {gamma}")

    def k(A: np.ndarray, B: np.ndarray) -> np.ndarray:
        sq = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T
        return np.exp(-gamma * np.maximum(sq, 0.0))

    return k


@dataclass(frozen=True)
class KernelUpdate:
    """One update of a traced kernel perceptron run (chapter 6).

    Attributes
    ----------
    epoch : int
        The epoch of the update, counted from 1.
    index : int
        The example that was a mistake; its ``alpha`` grew by one.
    score : float
        ``f(x_index)`` just before the update (``y * score <= 0``).
    """

    epoch: int
    index: int
    score: float


@dataclass(frozen=True)
class KernelResult:
    """A kernel perceptron: how often each example triggered an update (chapter 6).

    The hypothesis is ``f(x) = sum_j alpha_j y_j K(x_j, x) + theta_0`` with
    ``theta_0 = sum_j alpha_j y_j`` when the run learns an offset.  ``history`` holds
    every update in order when the run was traced, otherwise None.
    """

    X: np.ndarray
    y: np.ndarray
    alpha: np.ndarray
    theta_0: float
    kernel: Kernel
    mistakes: int
    epochs: int
    converged: bool
    history: tuple[KernelUpdate, ...] | None = None


def kernel_perceptron(
    X: ArrayLike,
    y: ArrayLike,
    kernel: Kernel | None = None,
    tau: int = 100,
    *,
    offset: bool = True,
    trace: bool = False,
) -> KernelResult:
    """The perceptron in the feature space of a kernel, through dot products only (chapter 6).

    The perceptron's ``theta`` is always a sum of the examples it updated on,
    ``theta = sum_j alpha_j y_j x_j`` with ``alpha_j`` the number of updates made on
    example ``j``.  Its score ``theta . x`` is then ``sum_j alpha_j y_j (x_j . x)``;
    replacing the dot product by ``K(x_j, x)`` runs the perceptron on features
    ``phi(x)`` that are never computed.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    kernel : callable, default :func:`polynomial_kernel` of degree 2
        ``kernel(A, B)`` returns the matrix of ``K(a_i, b_j)``.
    tau : int, default 100
    offset : bool, default True
    trace : bool, default False
        Record every update (epoch, example, score) in ``history``; the browser
        playground of chapter 6 is tested against this record.

    Examples
    --------
    >>> X, y = [[1, 1], [-1, -1], [1, -1], [-1, 1]], [1, 1, -1, -1]   # XOR
    >>> r = kernel_perceptron(X, y, polynomial_kernel(2))
    >>> r.converged, kernel_predict(r, X).tolist()
    (True, [1, 1, -1, -1])
    """
    Xa, ya = check_data(X, y)
    tau = check_tau(tau)
    k = polynomial_kernel(2) if kernel is None else kernel
    G = np.asarray(k(Xa, Xa), dtype=float)
    n = Xa.shape[0]
    if G.shape != (n, n) or not np.all(np.isfinite(G)):
        raise ValueError(f"the kernel must return a finite ({n}, {n}) matrix, got {G.shape}")
    alpha = np.zeros(n)
    theta_0 = 0.0
    mistakes, converged, epochs = 0, False, 0
    history: list[KernelUpdate] | None = [] if trace else None
    for t in range(1, tau + 1):
        epochs = t
        changed = False
        for i in range(n):
            score = (alpha * ya) @ G[:, i] + theta_0
            if ya[i] * score <= 0:
                if history is not None:
                    history.append(KernelUpdate(t, i, float(score)))
                alpha[i] += 1
                if offset:
                    theta_0 += ya[i]
                mistakes += 1
                changed = True
        if not changed:
            converged = True
            break
    return KernelResult(Xa, ya, alpha, float(theta_0), k, mistakes, epochs, converged,
                        None if history is None else tuple(history))


def kernel_decision(model: KernelResult, X: ArrayLike) -> np.ndarray:
    """Scores ``sum_j alpha_j y_j K(x_j, x) + theta_0`` of new examples (chapter 6)."""
    Xa = check_X(X)
    if Xa.shape[1] != model.X.shape[1]:
        raise ValueError(f"X has {Xa.shape[1]} features, the model {model.X.shape[1]}")
    return (model.alpha * model.y) @ np.asarray(model.kernel(model.X, Xa)) + model.theta_0


def kernel_predict(model: KernelResult, X: ArrayLike) -> np.ndarray:
    """Labels in {-1, +1}: +1 exactly when the kernel score is ``> 0`` (chapter 6)."""
    return np.where(kernel_decision(model, X) > 0, 1, -1)
