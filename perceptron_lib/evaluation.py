"""Measuring a classifier on data it has not seen (chapter 5, *The spam-feature example*).

A perceptron that stops making mistakes on its training set has shown only that the
training set is separable.  How well it classifies *new* examples is measured on
examples kept out of training.  This module holds the few tools chapter 5 needs:

- :func:`accuracy`: the fraction of correct labels;
- :func:`train_test_split`: one random split into training and test indices;
- :func:`kfold_indices`: the ``k`` splits of standard k-fold cross-validation;
- :func:`standardize`: centre and scale features with statistics of the training rows;
- :func:`majority_baseline`: the classifier that ignores ``x`` (the bar to beat);
- :func:`cross_val_accuracy`: k-fold cross-validated accuracy of :func:`perceptron`.

Every random choice takes a ``seed``, so each split can be repeated exactly.  Index
arrays come back in random order (the order of a permutation drawn from the seed):
feeding ``X[train_idx]`` to the perceptron therefore visits the training examples in
a shuffled order, which matters for data stored class by class.
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ._validate import check_count, check_data, check_labels, check_tau, check_X
from .algorithm import Method, perceptron, predict

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = [
    "accuracy",
    "cross_val_accuracy",
    "kfold_indices",
    "majority_baseline",
    "standardize",
    "train_test_split",
]


def _check_seed(seed: object) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an integer (or None for an unseeded draw), got {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    return int(seed)


def accuracy(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Fraction of examples whose predicted label equals the true one (chapter 5).

    Parameters
    ----------
    y_true : array_like, shape (n,)
        True labels in {-1, +1}.
    y_pred : array_like, shape (n,)
        Predicted labels in {-1, +1}, for example from :func:`perceptron_lib.predict`.

    Returns
    -------
    float
        ``mean(y_true == y_pred)``, between 0 and 1.

    Raises
    ------
    ValueError
        For labels other than -1/+1, arrays that are not 1-D, no labels at all, or
        two arrays of different lengths.

    Examples
    --------
    >>> accuracy([1, -1, 1, 1], [1, 1, 1, -1])
    0.5
    """
    yt = check_labels(y_true, "y_true")
    yp = check_labels(y_pred, "y_pred")
    if yt.shape[0] != yp.shape[0]:
        raise ValueError(
            f"y_true has {yt.shape[0]} labels but y_pred has {yp.shape[0]}: "
            "need one prediction per example"
        )
    if yt.shape[0] == 0:
        raise ValueError("no labels given: accuracy of an empty set is undefined")
    return float(np.mean(yt == yp))


def _check_fraction(value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"test_fraction must be a number between 0 and 1, got {value!r}")
    f = float(value)
    if not (0.0 < f < 1.0):
        raise ValueError(f"test_fraction must lie strictly between 0 and 1, got {f}")
    # The decimal the user wrote (0.3, not 0.29999999999999998890): 0.3 * 10 is 3.
    from fractions import Fraction  # here: it imports decimal, and few runs split data

    return Fraction(repr(f))


def _allocate(total: int, sizes: np.ndarray) -> np.ndarray:
    """Split ``total`` over groups in proportion to ``sizes`` (largest remainders)."""
    from fractions import Fraction

    exact = [Fraction(total * int(s), int(sizes.sum())) for s in sizes]
    out = np.array([math.floor(e) for e in exact], dtype=np.int64)
    rest = total - int(out.sum())
    # Ties in the remainder go to the group listed first: the result is deterministic.
    order = sorted(range(len(sizes)), key=lambda g: (-(exact[g] - out[g]), g))
    for g in order[:rest]:
        out[g] += 1
    return out


def train_test_split(
    n: int,
    test_fraction: float = 0.25,
    seed: int | None = 0,
    *,
    stratify: ArrayLike | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Split the indices ``0, ..., n-1`` at random into a training and a test part (chapter 5).

    The test part gets ``ceil(test_fraction * n)`` indices (the rule scikit-learn
    uses), the training part the rest.  Both are returned in random order.

    Parameters
    ----------
    n : int
        Number of examples, at least 2.
    test_fraction : float, default 0.25
        Share of the examples held out for testing, strictly between 0 and 1.
    seed : int or None, default 0
        Seed of the random permutation; the same seed gives the same split.  None
        draws fresh randomness (not reproducible).
    stratify : array_like of shape (n,), optional
        Class labels.  When given, each class is split in the same proportion (up to
        rounding), so the test part has (almost) the class balance of the whole.

    Returns
    -------
    train_idx, test_idx : numpy.ndarray of int
        Disjoint index arrays whose union is ``0, ..., n-1``.

    Raises
    ------
    ValueError, TypeError
        For ``n < 2``, a fraction outside (0, 1), a split that would leave one part
        empty, or ``stratify`` of the wrong length.

    Examples
    --------
    >>> train, test = train_test_split(8, test_fraction=0.25, seed=0)
    >>> len(train), len(test), sorted([*train, *test]) == list(range(8))
    (6, 2, True)
    """
    n = check_count(n, "n", 2)
    frac = _check_fraction(test_fraction)
    seed = _check_seed(seed)
    n_test = math.ceil(frac * n)
    if n_test >= n:
        raise ValueError(
            f"test_fraction={float(frac)} of n={n} examples puts all of them in the test "
            "part: no example would be left for training"
        )
    rng = np.random.default_rng(seed)
    if stratify is None:
        perm = rng.permutation(n)
        return perm[n_test:], perm[:n_test]

    labels = np.asarray(stratify)
    if labels.ndim != 1 or labels.shape[0] != n:
        raise ValueError(
            f"stratify must hold one label per example: expected shape ({n},), "
            f"got {labels.shape}"
        )
    classes, inverse = np.unique(labels, return_inverse=True)
    sizes = np.bincount(inverse, minlength=len(classes))
    quotas = _allocate(n_test, sizes)
    train_parts, test_parts = [], []
    for c in range(len(classes)):
        members = rng.permutation(np.flatnonzero(inverse == c))
        test_parts.append(members[: quotas[c]])
        train_parts.append(members[quotas[c]:])
    train = rng.permutation(np.concatenate(train_parts))
    test = rng.permutation(np.concatenate(test_parts))
    return train, test


def kfold_indices(
    n: int, k: int = 5, seed: int | None = 0, *, shuffle: bool = True
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The ``k`` train/test splits of standard k-fold cross-validation (chapter 5).

    The indices ``0, ..., n-1`` are permuted (when ``shuffle``) and cut into ``k``
    consecutive *folds* whose sizes differ by at most one (the first ``n % k`` folds
    get one index more).  Split ``j`` tests on fold ``j`` and trains on the other
    ``k - 1`` folds, so every index is tested exactly once over the ``k`` splits.

    With ``shuffle=False`` the folds are the same as scikit-learn's ``KFold(k)``.

    Parameters
    ----------
    n : int
        Number of examples.
    k : int, default 5
        Number of folds, ``2 <= k <= n``.
    seed : int or None, default 0
        Seed of the permutation (ignored when ``shuffle`` is False).
    shuffle : bool, default True
        Permute the indices before cutting them into folds.  Leave it on unless the
        rows are already in random order: data sets are often stored class by class.

    Returns
    -------
    list of (train_idx, test_idx)
        ``k`` pairs of integer arrays.

    Raises
    ------
    ValueError, TypeError
        For ``k < 2``, ``k > n`` or non-integer ``n``, ``k``.

    Examples
    --------
    >>> [test.tolist() for _, test in kfold_indices(5, 2, shuffle=False)]
    [[0, 1, 2], [3, 4]]
    """
    n = check_count(n, "n", 2)
    k = check_count(k, "k", 2)
    if k > n:
        raise ValueError(f"k={k} folds need at least k examples, got n={n}")
    seed = _check_seed(seed)
    order = np.random.default_rng(seed).permutation(n) if shuffle else np.arange(n)
    sizes = np.full(k, n // k)
    sizes[: n % k] += 1
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    splits = []
    for j in range(k):
        test = order[bounds[j]: bounds[j + 1]]
        train = np.concatenate([order[: bounds[j]], order[bounds[j + 1]:]])
        splits.append((train, test))
    return splits


def standardize(X_train: ArrayLike, X_other: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Centre and scale every feature with the mean and std of the training rows (chapter 5).

    Each column ``j`` becomes ``(x_j - mean_j) / std_j`` where ``mean_j`` and ``std_j``
    (population standard deviation, ``ddof=0``) come from ``X_train`` only; the same
    transformation is applied to ``X_other`` (test or validation rows), so nothing
    about them leaks into training.  A column that is constant on the training rows
    is only centred (its std is taken to be 1), so it becomes 0 there.  This is what
    scikit-learn's ``StandardScaler`` computes.

    Parameters
    ----------
    X_train : array_like, shape (n, d)
        Training rows.
    X_other : array_like, shape (m, d)
        Rows to transform with the training statistics.

    Returns
    -------
    Z_train, Z_other : numpy.ndarray
        New arrays; the inputs are not modified.

    Raises
    ------
    ValueError
        For arrays that are not 2-D, contain NaN or infinity, or have different
        numbers of columns.

    Examples
    --------
    >>> Z_train, Z_test = standardize([[0.0, 5.0], [2.0, 5.0]], [[4.0, 6.0]])
    >>> Z_train.tolist(), Z_test.tolist()
    ([[-1.0, 0.0], [1.0, 0.0]], [[3.0, 1.0]])
    """
    A = check_X(X_train, "X_train")
    B = check_X(X_other, "X_other")
    if A.shape[1] != B.shape[1]:
        raise ValueError(
            f"X_train has {A.shape[1]} features but X_other has {B.shape[1]}: "
            "both must have the same columns"
        )
    mean = A.mean(axis=0)
    std = A.std(axis=0)
    constant = A.max(axis=0) == A.min(axis=0)
    # A constant column is centred on its own value, so it becomes exactly 0.
    mean = np.where(constant, A[0], mean)
    std = np.where(constant, 1.0, std)
    return (A - mean) / std, (B - mean) / std


def majority_baseline(y_train: ArrayLike, n: int) -> np.ndarray:
    """Predict the most frequent training label for ``n`` examples (chapter 5).

    This classifier never looks at the features.  Its accuracy, the share of the
    majority class, is the bar a learned classifier has to clear.  A tie goes to
    -1 (for a spam filter: when in doubt, deliver the message).

    Parameters
    ----------
    y_train : array_like, shape (m,)
        Training labels in {-1, +1}, at least one.
    n : int
        Number of predictions wanted (for example the size of the test set).

    Returns
    -------
    numpy.ndarray of int, shape (n,)
        The majority label, ``n`` times.

    Examples
    --------
    >>> majority_baseline([1, -1, -1], 4).tolist()
    [-1, -1, -1, -1]
    """
    ya = check_labels(y_train, "y_train")
    if ya.shape[0] == 0:
        raise ValueError("y_train is empty: there is no majority label")
    n = check_count(n, "n", 0)
    label = 1 if np.sum(ya == 1.0) > np.sum(ya == -1.0) else -1
    return np.full(n, label, dtype=np.int64)


def cross_val_accuracy(
    X: ArrayLike,
    y: ArrayLike,
    k: int = 5,
    tau: int = 20,
    seed: int | None = 0,
    scale: bool = True,
    *,
    shuffle: bool = True,
    method: Method = "auto",
) -> np.ndarray:
    """Accuracy of :func:`perceptron` on each fold of k-fold cross-validation (chapter 5).

    For each split of :func:`kfold_indices`, the perceptron is trained for ``tau``
    epochs on the ``k - 1`` training folds (visited in the order of the split, random
    when ``shuffle``) and its final hypothesis is scored on the held-out fold.  With
    ``scale``, the features are first standardized with the statistics of the
    training folds only (:func:`standardize`).

    Parameters
    ----------
    X : array_like, shape (n, d)
        Examples, one per row.
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    k : int, default 5
        Number of folds, ``2 <= k <= n``.
    tau : int, default 20
        Epochs of each perceptron run.
    seed : int or None, default 0
        Seed of the fold assignment.
    scale : bool, default True
        Standardize the features inside each split.
    shuffle : bool, default True
        Permute the examples before cutting folds (see :func:`kfold_indices`).
    method : {"auto", "loop", "fast"}, default "auto"
        Passed to :func:`perceptron`; every method gives the same result, ``"fast"``
        is the quickest on large data.

    Returns
    -------
    numpy.ndarray, shape (k,)
        The test accuracy of each fold; their mean is the cross-validated accuracy.

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]]
    >>> cross_val_accuracy(X, [-1, -1, -1, 1, 1, 1], k=3, tau=50).tolist()
    [1.0, 1.0, 1.0]
    """
    Xa, ya = check_data(X, y)
    tau = check_tau(tau)
    splits = kfold_indices(Xa.shape[0], k, seed, shuffle=shuffle)
    scores = np.empty(len(splits))
    for j, (train, test) in enumerate(splits):
        X_train, X_test = Xa[train], Xa[test]
        if scale:
            X_train, X_test = standardize(X_train, X_test)
        r = perceptron(X_train, ya[train], tau=tau, method=method)
        scores[j] = accuracy(ya[test], predict(X_test, r.theta, r.theta_0))
    return scores
