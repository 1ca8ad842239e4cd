"""The course's perceptron as a scikit-learn estimator (chapters 5 and 6).

``perceptron_lib.Perceptron`` runs the very updates of :func:`perceptron_lib.perceptron`
(or of :func:`perceptron_lib.averaged_perceptron` with ``average=True``) behind
scikit-learn's interface, so that the course's perceptron can go into pipelines,
``cross_val_score`` and grid searches.  This module, and only this one, needs
scikit-learn: ``import perceptron_lib`` does not load it.

Labels
------
Any two labels work.  ``classes_`` holds them sorted; the first, ``classes_[0]``, plays
the part of -1 and the second, ``classes_[1]``, the part of +1.  With labels -1 and +1
this is the course's own convention, and ``coef_``, ``intercept_`` are ``theta``,
``theta_0`` exactly.  A point with score ``<= 0`` is predicted ``classes_[0]``.

With more than two labels, one perceptron per class learns that class (+1) against all
the others (-1), and a point goes to the class whose perceptron scores it highest (the
first such class on a tie), as in :func:`perceptron_lib.one_vs_all`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validate import check_count
from .algorithm import _visit_order, perceptron, perceptron_through_origin
from .variants import _visits


class Perceptron(ClassifierMixin, BaseEstimator):
    """The course's perceptron with scikit-learn's interface (chapters 5 and 6).

    Parameters
    ----------
    tau : int, default 100
        The most epochs (passes over the data) of :meth:`fit`; a run stops earlier
        after a pass with no update.
    offset : bool, default True
        Learn ``theta_0`` (``intercept_``); False runs PERCEPTRON-THROUGH-ORIGIN.
    average : bool, default False
        Keep the averaged perceptron's hypothesis, the mean of the hypothesis over every
        visit of an example (:func:`perceptron_lib.averaged_perceptron`), instead of
        the last one.
    shuffle : bool, default False
        Visit the examples in a fresh random order in each epoch instead of the given
        order.
    random_state : int, RandomState instance or None, default None
        Seeds the shuffling (used only with ``shuffle=True``).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The labels seen in ``fit``, sorted.
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        ``theta`` of the perceptron (one row per class with more than two classes).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        ``theta_0``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the most over the one-vs-all perceptrons).
    n_updates_ : int
        Updates made (summed over the one-vs-all perceptrons).
    converged_ : bool
        Whether every perceptron ended with a pass without update.

    Examples
    --------
    >>> X = [[1.0, 3.0], [2.0, 1.0], [-1.0, 2.0]]
    >>> clf = Perceptron(tau=10).fit(X, ["spam", "spam", "ham"])
    >>> clf.classes_.tolist(), clf.coef_.tolist(), clf.intercept_.tolist()
    (['ham', 'spam'], [[5.0, 0.0]], [-1.0])
    >>> clf.predict([[1.0, 0.0], [-1.0, 0.0]]).tolist()
    ['spam', 'ham']
    """

    def __init__(
        self,
        tau: int = 100,
        *,
        offset: bool = True,
        average: bool = False,
        shuffle: bool = False,
        random_state=None,
    ) -> None:
        self.tau = tau
        self.offset = offset
        self.average = average
        self.shuffle = shuffle
        self.random_state = random_state

    # -- helpers ------------------------------------------------------------------------
    def _seed(self) -> int | None:
        if not self.shuffle:
            return None
        return int(check_random_state(self.random_state).randint(np.iinfo(np.int32).max))

    def _targets(self) -> list[tuple[int, object]]:
        """(row of coef_, label that is +1 for it) of every perceptron of the model."""
        if len(self.classes_) == 2:
            return [(0, self.classes_[1])]
        return list(enumerate(self.classes_))

    def _check_classes(self, y: np.ndarray) -> None:
        check_classification_targets(y)
        classes = np.unique(y)
        if classes.size < 2:
            raise ValueError(
                "The perceptron needs examples of at least 2 classes to learn a boundary; "
                f"got 1 class: {classes.tolist()}"
            )

    def _reset(self, d: int) -> None:
        rows = len(self._targets())
        self._theta = np.zeros((rows, d))
        self._theta_0 = np.zeros(rows)
        self._sum_coef = np.zeros((rows, d))
        self._sum_intercept = np.zeros(rows)
        self._visits = np.zeros(rows, dtype=np.int64)
        self.n_iter_, self.n_updates_, self.converged_ = 0, 0, True

    def _epochs(self, X: np.ndarray, y: np.ndarray, tau: int) -> None:
        """Every perceptron of the model, from its current state, for at most ``tau``
        epochs: the loop of :func:`perceptron_lib.perceptron`, keeping the sums the
        average needs."""
        seed = self._seed()
        n = X.shape[0]
        epochs, clean_all = 0, True
        for k, positive in self._targets():
            yk = np.where(y == positive, 1.0, -1.0)
            start, start_0 = self._theta[k].copy(), float(self._theta_0[k])
            theta, theta_0 = start, start_0
            epoch, clean = 0, True
            for t, _i, mistake, theta, theta_0 in _visits(
                    X, yk, tau, self.offset, _visit_order(n, tau, self.shuffle, seed),
                    theta=start, theta_0=start_0):
                if t != epoch:
                    epoch, clean = t, True
                clean = clean and not mistake
                self.n_updates_ += int(mistake)
                self._sum_coef[k] += theta
                self._sum_intercept[k] += theta_0
                self._visits[k] += 1
            self._theta[k], self._theta_0[k] = theta, theta_0
            epochs, clean_all = max(epochs, epoch), clean_all and clean
        self.n_iter_ += epochs
        self.converged_ = clean_all
        self._publish()

    def _publish(self) -> None:
        if self.average:
            self.coef_ = self._sum_coef / self._visits[:, None]
            self.intercept_ = self._sum_intercept / self._visits
        else:
            self.coef_ = self._theta.copy()
            self.intercept_ = self._theta_0.copy()

    # -- scikit-learn's interface -------------------------------------------------------
    def fit(self, X: ArrayLike, y: ArrayLike) -> Perceptron:
        """Learn from scratch, for at most ``tau`` epochs."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        tau = check_count(self.tau, "tau", 1)
        self._check_classes(y)
        self.classes_ = np.unique(y)
        self._reset(X.shape[1])
        if self.average:
            self._epochs(X, y, tau)
            return self
        # the plain perceptron: the library's run, compiled for large data (same updates)
        run = perceptron if self.offset else perceptron_through_origin
        seed = self._seed()
        for k, positive in self._targets():
            r = run(X, np.where(y == positive, 1.0, -1.0), tau, shuffle=self.shuffle, seed=seed)
            self._theta[k], self._theta_0[k] = r.theta, r.theta_0
            self.n_iter_ = max(self.n_iter_, r.epochs)
            self.n_updates_ += r.mistakes
            self.converged_ = self.converged_ and r.converged
        self._publish()
        return self

    def partial_fit(self, X: ArrayLike, y: ArrayLike, classes: ArrayLike | None = None
                    ) -> Perceptron:
        """One epoch over ``X``, going on from the current hypothesis.

        The first call (before any ``fit``) must name every class in ``classes``.  With
        ``average=True`` the average runs over every visit since the first call.
        """
        first = not hasattr(self, "classes_")
        X, y = validate_data(self, X, y, dtype=np.float64, reset=first)
        check_classification_targets(y)
        if first:
            if classes is None:
                raise ValueError("the first call to partial_fit must give `classes`, every "
                                 "label the data may hold")
            classes = np.unique(np.asarray(classes))
            if classes.size < 2:
                raise ValueError(f"partial_fit needs at least 2 classes, got 1 class: "
                                 f"{classes.tolist()}")
            self.classes_ = classes
            self._reset(X.shape[1])
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(f"`classes` {np.unique(classes).tolist()} differs from the "
                             f"classes of the first call {self.classes_.tolist()}")
        unknown = np.setdiff1d(np.unique(y), self.classes_)
        if unknown.size:
            raise ValueError(f"labels {unknown.tolist()} are not among classes_ "
                             f"{self.classes_.tolist()}")
        self._epochs(X, y, 1)
        return self

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """Scores ``theta . x + theta_0``: shape (n,) for two classes, else (n, classes)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        scores = X @ self.coef_.T + self.intercept_
        return scores.ravel() if len(self.classes_) == 2 else scores

    def predict(self, X: ArrayLike) -> np.ndarray:
        """``classes_[1]`` where the score is ``> 0``, else ``classes_[0]``; with more
        classes, the class of the highest score."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]
