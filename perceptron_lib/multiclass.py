"""The multiclass perceptron and Kesler's construction (chapter 7).

One weight vector per class; an example goes to the class of the largest score.  On
a mistake the true class's vector moves towards the example and the offending
class's vector away from it (the form Collins gives).  Kesler's construction turns
the whole problem into one binary problem through the origin, in a space of
dimension ``m (d + 1)``, on which this algorithm *is* the binary perceptron.

Rules, stated once:

- Classes are the sorted distinct labels (``numpy.unique``), or the ``classes``
  given; ``Theta[k]`` and ``theta_0[k]`` belong to ``classes[k]``.
- Prediction: the class of the largest score ``Theta[k] . x + theta_0[k]``; on a tie,
  the first such class in ``classes`` order.
- Training: at example ``(x, y)`` the *rival* ``p`` is the highest-scoring class
  other than ``y`` (the first in ``classes`` order on a tie).  The example is a
  mistake when ``score[p] >= score[y]``: a tie involving ``y`` is a mistake, as a
  score of exactly 0 is for the binary perceptron.  The update is
  ``Theta[y] += x``, ``Theta[p] -= x``, ``theta_0[y] += 1``, ``theta_0[p] -= 1``.
- With two classes this is :func:`perceptron_lib.perceptron` with the second class
  as +1: ``Theta[1]`` is the binary ``theta`` and ``Theta[0] = -Theta[1]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._validate import check_finite, check_tau, check_X
from .algorithm import _visit_order

__all__ = [
    "KeslerData",
    "MulticlassResult",
    "MulticlassUpdate",
    "kesler_construction",
    "kesler_weights",
    "multiclass_margin",
    "multiclass_perceptron",
    "multiclass_predict",
    "multiclass_scores",
]


def _check_classes(
    labels: ArrayLike, n: int, classes: ArrayLike | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(classes, codes)``: the sorted classes and each label's row in them."""
    lab = np.asarray(labels)
    if lab.ndim != 1 or lab.shape[0] != n:
        raise ValueError(
            f"labels must have shape ({n},): one label per row of X, got shape {lab.shape}"
        )
    if lab.dtype.kind == "f" and not np.all(np.isfinite(lab)):
        first = int(np.argmax(~np.isfinite(lab)))
        raise ValueError(f"labels contain NaN or infinity (first at index {first})")
    try:
        found = np.unique(lab)
    except TypeError as exc:
        raise ValueError(
            f"labels must be sortable values of one kind (integers or strings): {exc}"
        ) from exc
    if classes is None:
        cls = found
    else:
        cls = np.asarray(classes)
        if cls.ndim != 1:
            raise ValueError(f"classes must be 1-D, got shape {cls.shape}")
        try:
            uniq = np.unique(cls)
        except TypeError as exc:
            raise ValueError(f"classes must be sortable values of one kind: {exc}") from exc
        if uniq.size != cls.size:
            raise ValueError(f"classes must be distinct, got {cls.tolist()}")
        missing = [v for v in found.tolist() if v not in set(cls.tolist())]
        if missing:
            raise ValueError(f"labels {missing[:5]} are not among classes {cls.tolist()}")
    if cls.size < 2:
        raise ValueError(
            f"a multiclass problem needs at least 2 classes, got {cls.size}: {cls.tolist()}"
        )
    order = np.argsort(cls, kind="stable")
    pos = np.searchsorted(cls[order], lab)
    codes = order[pos]
    return cls, codes


@dataclass(frozen=True)
class MulticlassUpdate:
    """One update of a traced multiclass perceptron run (chapter 7).

    Attributes
    ----------
    epoch : int
        The pass in which it happened, counted from 1.
    index : int
        Row of ``X`` of the example.
    true : int
        Row in ``classes`` of the example's class (its vector moved towards ``x``).
    rival : int
        Row in ``classes`` of the rival class (its vector moved away from ``x``).
    scores : numpy.ndarray, shape (m,)
        Every class's score *before* the update.
    Theta, theta_0
        The hypothesis *after* the update.
    """

    epoch: int
    index: int
    true: int
    rival: int
    scores: np.ndarray
    Theta: np.ndarray
    theta_0: np.ndarray


@dataclass(frozen=True)
class MulticlassResult:
    """What a run of the multiclass perceptron returns (chapter 7).

    Attributes
    ----------
    Theta : numpy.ndarray, shape (m, d)
        One weight vector per class, row ``k`` for ``classes[k]``.
    theta_0 : numpy.ndarray, shape (m,)
        One offset per class (all 0.0 when trained with ``offset=False``).
    classes : numpy.ndarray, shape (m,)
        The classes, sorted unless given in another order.
    mistakes : int
        Number of updates, over all epochs.
    epochs : int
        Number of passes started (at most ``tau``); when the run converged, the last
        one is the clean pass.
    converged : bool
        True when a full pass made no update.
    history : tuple of MulticlassUpdate or None
        Every update in order when the run was traced.
    """

    Theta: np.ndarray
    theta_0: np.ndarray
    classes: np.ndarray
    mistakes: int
    epochs: int
    converged: bool
    history: tuple[MulticlassUpdate, ...] | None = None

    def __repr__(self) -> str:
        return (
            f"MulticlassResult(classes={self.classes.tolist()}, "
            f"Theta=<{self.Theta.shape[0]}x{self.Theta.shape[1]}>, "
            f"mistakes={self.mistakes}, epochs={self.epochs}, converged={self.converged}"
            + ("" if self.history is None else f", history=<{len(self.history)} updates>")
            + ")"
        )


def _rival(scores: np.ndarray, k: int) -> int:
    """The highest-scoring class other than ``k`` (the first on a tie)."""
    others = scores.copy()
    others[k] = -np.inf
    return int(np.argmax(others))


def multiclass_perceptron(
    X: ArrayLike,
    y: ArrayLike,
    tau: int = 100,
    trace: bool = False,
    *,
    classes: ArrayLike | None = None,
    offset: bool = True,
    shuffle: bool = False,
    seed: int | None = None,
) -> MulticlassResult:
    """The multiclass perceptron: one weight vector per class (chapter 7).

    Starts from ``Theta = 0``, ``theta_0 = 0`` and visits the examples in order, ``tau``
    times at most, stopping after a pass with no update.  At example ``(x, y)`` let
    ``p`` be the highest-scoring class other than ``y`` (the first in ``classes`` order
    on a tie).  If ``score[p] >= score[y]`` (a tie counts as a mistake) the update is

        Theta[y] += x,  Theta[p] -= x,  theta_0[y] += 1,  theta_0[p] -= 1.

    When ``y`` is wrongly predicted, ``p`` is the predicted class.  With two classes
    the run is :func:`perceptron_lib.perceptron` with the second class as +1.  It is
    also the binary perceptron on Kesler's vectors
    (:func:`kesler_construction`), and so it stops on data that some ``Theta``
    separates: at most ``2 (R / gamma)^2`` updates
    (:func:`perceptron_lib.multiclass_mistake_bound`).

    Parameters
    ----------
    X : array_like, shape (n, d)
        Training examples, one per row.
    y : array_like, shape (n,)
        Class labels: integers, strings, any sortable values of one kind.
    tau : int, default 100
        Maximum number of passes.
    trace : bool, default False
        Record every update in ``result.history``.
    classes : array_like, optional
        The classes in the order of ``Theta``'s rows (and of tie-breaking); by
        default the sorted distinct labels.  May include classes with no example.
    offset : bool, default True
        Learn one offset per class; False keeps ``theta_0 = 0``.
    shuffle, seed
        As for :func:`perceptron_lib.perceptron`.

    Returns
    -------
    MulticlassResult

    Raises
    ------
    ValueError, TypeError
        On bad ``X`` (not 2-D, empty, NaN), labels of the wrong length, NaN labels,
        fewer than two classes, or a bad ``tau``.

    Examples
    --------
    >>> X = [[2.0, 0.0], [0.0, 2.0], [-2.0, -2.0]]
    >>> r = multiclass_perceptron(X, ["a", "b", "c"])
    >>> r.converged, r.mistakes, multiclass_predict(r, X).tolist()
    (True, 3, ['a', 'b', 'c'])
    """
    Xa = check_X(X)
    cls, codes = _check_classes(y, Xa.shape[0], classes)
    tau = check_tau(tau)
    m, (n, d) = cls.size, Xa.shape
    Theta = np.zeros((m, d))
    theta_0 = np.zeros(m)
    mistakes, converged, t = 0, False, 0
    history: list[MulticlassUpdate] | None = [] if trace else None
    for t, order in enumerate(_visit_order(n, tau, shuffle, seed), start=1):
        changed = False
        for i in order:
            x, k = Xa[i], int(codes[i])
            scores = Theta @ x + theta_0
            p = _rival(scores, k)
            if scores[p] >= scores[k]:
                Theta = Theta.copy()  # a new array: traced hypotheses stay as they were
                Theta[k] += x
                Theta[p] -= x
                if offset:
                    theta_0 = theta_0.copy()
                    theta_0[k] += 1.0
                    theta_0[p] -= 1.0
                if history is not None:
                    history.append(MulticlassUpdate(t, int(i), k, p, scores, Theta, theta_0))
                mistakes += 1
                changed = True
        if not changed:
            converged = True
            break
    return MulticlassResult(Theta, theta_0, cls, mistakes, t, converged,
                            None if history is None else tuple(history))


def multiclass_scores(result: MulticlassResult, X: ArrayLike) -> np.ndarray:
    """Every class's score ``Theta[k] . x + theta_0[k]`` (chapter 7).

    Parameters
    ----------
    result : MulticlassResult
    X : array_like, shape (n, d)

    Returns
    -------
    numpy.ndarray, shape (n, m)
        Column ``k`` for ``result.classes[k]``.
    """
    Xa = check_X(X)
    if Xa.shape[1] != result.Theta.shape[1]:
        raise ValueError(
            f"X has {Xa.shape[1]} features but the model was trained on {result.Theta.shape[1]}"
        )
    return Xa @ result.Theta.T + result.theta_0


def multiclass_predict(result: MulticlassResult, X: ArrayLike) -> np.ndarray:
    """The class of the largest score, the first in ``classes`` order on a tie (chapter 7).

    Parameters
    ----------
    result : MulticlassResult
    X : array_like, shape (n, d)

    Returns
    -------
    numpy.ndarray, shape (n,)
        Values taken from ``result.classes``.
    """
    return result.classes[np.argmax(multiclass_scores(result, X), axis=1)]


# ---------------------------------------------------------------------------------------
# Kesler's construction


@dataclass(frozen=True)
class KeslerData:
    """The binary data set of Kesler's construction (chapter 7).

    Attributes
    ----------
    X : numpy.ndarray, shape (n (m - 1), m d) or (n (m - 1), m (d + 1))
        One vector per example and rival class, rows grouped by example (in the order
        of the data) and, within an example, by rival (in ``classes`` order).
    y : numpy.ndarray, shape (n (m - 1),)
        All +1: each vector must lie on the positive side of ``W``.
    example : numpy.ndarray of int
        Row of the original data each vector comes from.
    true, rival : numpy.ndarray of int
        Rows in ``classes`` of the example's class and of the rival.
    classes : numpy.ndarray, shape (m,)
    d : int
        Number of features of the original data.
    offset : bool
        Whether the last ``m`` coordinates hold the offsets.
    """

    X: np.ndarray
    y: np.ndarray
    example: np.ndarray
    true: np.ndarray
    rival: np.ndarray
    classes: np.ndarray
    d: int
    offset: bool


def kesler_construction(
    X: ArrayLike,
    y: ArrayLike,
    classes: ArrayLike | None = None,
    *,
    offset: bool = True,
) -> KeslerData:
    """Kesler's construction: a multiclass problem as one binary problem (chapter 7).

    A multiclass hypothesis ``(Theta, theta_0)`` is flattened into one vector
    ``W = (Theta[0], ..., Theta[m-1], theta_0[0], ..., theta_0[m-1])`` of length
    ``m (d + 1)`` (``m d`` without offsets): the rows of ``Theta`` first, then the
    offsets.  For an example ``(x, y)`` and each class ``c != y`` the Kesler vector
    ``z`` has ``x`` in block ``y``, ``-x`` in block ``c``, and ``+1``, ``-1`` at the
    offsets of ``y`` and ``c``, so that

        W . z = score_y(x) - score_c(x).

    ``(Theta, theta_0)`` classifies ``(x, y)`` correctly with every rival strictly
    below exactly when ``W . z > 0`` for its ``m - 1`` vectors: the multiclass problem
    is the binary problem "every ``z`` on the positive side of a hyperplane through the
    origin", with all labels +1.

    The binary perceptron update on ``z``, ``W += z``, is the multiclass update with
    rival ``c``.  Hence the exact equivalence tested in the course: the multiclass
    perceptron (:func:`multiclass_perceptron`) makes the same updates as
    PERCEPTRON-THROUGH-ORIGIN on these vectors when, at the visit of example ``i``, the
    binary perceptron is shown the one vector of example ``i`` with the smallest score
    ``W . z`` (the first in ``classes`` order on a tie).  With two classes there is one
    vector per example, so the plain visiting order (this array's order) is exact.
    Visiting all ``m - 1`` vectors of each example in turn gives another perceptron, one
    that may update several times per example; both obey the bound
    ``(R_K / gamma_K)^2`` with ``R_K = sqrt(2) R`` (:func:`multiclass_mistake_bound`).

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Class labels, as for :func:`multiclass_perceptron`.
    classes : array_like, optional
        The classes in block order; by default the sorted distinct labels.
    offset : bool, default True
        Append the ``m`` offset coordinates.

    Returns
    -------
    KeslerData

    Examples
    --------
    >>> k = kesler_construction([[1.0, 2.0]], [1], classes=[0, 1, 2])
    >>> k.X
    array([[-1., -2.,  1.,  2.,  0.,  0., -1.,  1.,  0.],
           [ 0.,  0.,  1.,  2., -1., -2.,  0.,  1., -1.]])
    >>> k.rival.tolist(), k.y.tolist()
    ([0, 2], [1.0, 1.0])
    """
    Xa = check_X(X)
    cls, codes = _check_classes(y, Xa.shape[0], classes)
    m, (n, d) = cls.size, Xa.shape
    width = m * (d + 1) if offset else m * d
    Z = np.zeros((n * (m - 1), width))
    example = np.repeat(np.arange(n), m - 1)
    true = np.repeat(codes, m - 1)
    rival = np.array([c for k in codes for c in range(m) if c != k], dtype=int).reshape(-1)
    rows = np.arange(n * (m - 1))
    for j in range(d):
        Z[rows, true * d + j] = Xa[example, j]
        Z[rows, rival * d + j] = -Xa[example, j]
    if offset:
        Z[rows, m * d + true] = 1.0
        Z[rows, m * d + rival] = -1.0
    return KeslerData(Z, np.ones(n * (m - 1)), example, true.astype(int), rival, cls, d,
                      bool(offset))


def kesler_weights(W: ArrayLike, kesler: KeslerData) -> tuple[np.ndarray, np.ndarray]:
    """Unflatten a binary weight vector on Kesler data into ``(Theta, theta_0)`` (chapter 7).

    The inverse of the flattening of :func:`kesler_construction`: ``Theta`` has shape
    (m, d), ``theta_0`` shape (m,) (zeros when the construction has no offsets).

    Parameters
    ----------
    W : array_like, shape (m d,) or (m (d + 1),)
        A weight vector on the Kesler data, e.g. the ``theta`` of
        :func:`perceptron_lib.perceptron_through_origin` run on ``kesler.X``.
    kesler : KeslerData
        The construction ``W`` belongs to.

    Returns
    -------
    Theta : numpy.ndarray, shape (m, d)
    theta_0 : numpy.ndarray, shape (m,)
    """
    m, d = kesler.classes.size, kesler.d
    width = kesler.X.shape[1]
    Wa = np.asarray(W, dtype=float)
    if Wa.shape != (width,):
        raise ValueError(f"W must have shape ({width},) for this construction, got {Wa.shape}")
    Theta = Wa[: m * d].reshape(m, d).copy()
    theta_0 = Wa[m * d:].copy() if kesler.offset else np.zeros(m)
    return Theta, theta_0


def multiclass_margin(
    X: ArrayLike,
    y: ArrayLike,
    Theta: ArrayLike,
    theta_0: ArrayLike | None = None,
    classes: ArrayLike | None = None,
) -> float:
    """The multiclass margin of ``(Theta, theta_0)`` on labelled data (chapter 7).

    ``min_i min_{c != y_i} (score_{y_i}(x_i) - score_c(x_i)) / ||W||``, where ``W`` is
    ``Theta`` flattened together with ``theta_0`` (the Frobenius norm of the two), as in
    :func:`kesler_construction`.  It is the binary margin of the Kesler data with
    respect to ``W``, the ``gamma`` of :func:`perceptron_lib.multiclass_mistake_bound`;
    positive exactly when every example's own class scores strictly highest.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
    Theta : array_like, shape (m, d)
        One row per class, in the order of ``classes``.
    theta_0 : array_like, shape (m,), optional
        Offsets; None for none (zeros).
    classes : array_like, optional
        By default the sorted distinct labels.

    Returns
    -------
    float

    Examples
    --------
    >>> X, y = [[2.0, 0.0], [0.0, 2.0]], [0, 1]
    >>> multiclass_margin(X, y, [[1.0, 0.0], [0.0, 1.0]])   # (2 - 0) / sqrt(2)
    1.414213562373095
    """
    Xa = check_X(X)
    cls, codes = _check_classes(y, Xa.shape[0], classes)
    m, d = cls.size, Xa.shape[1]
    Th = np.asarray(Theta, dtype=float)
    if Th.shape != (m, d):
        raise ValueError(f"Theta must have shape ({m}, {d}): one row per class, got {Th.shape}")
    t0 = np.zeros(m) if theta_0 is None else np.asarray(theta_0, dtype=float)
    if t0.shape != (m,):
        raise ValueError(f"theta_0 must have shape ({m},), got {t0.shape}")
    check_finite(Th, "Theta")
    check_finite(t0, "theta_0")
    norm = float(np.sqrt((Th * Th).sum() + t0 @ t0))
    if norm == 0.0:
        raise ValueError("Theta and theta_0 are all zero: they define no classifier, no margin")
    scores = Xa @ Th.T + t0
    n = Xa.shape[0]
    own = scores[np.arange(n), codes]
    others = scores.copy()
    others[np.arange(n), codes] = -np.inf
    return float(np.min(own - others.max(axis=1)) / norm)
