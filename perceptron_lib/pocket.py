"""Gallant's pocket algorithm: the perceptron that keeps its best hypothesis (chapter 6).

On data that no hyperplane separates the perceptron never settles: its last hypothesis
is whichever one the last few mistakes left behind, good or bad.  Gallant (1990) keeps a
second hypothesis "in the pocket", the best one seen so far, and returns that.  This is
the *ratchet* form of the pocket: after each update the new hypothesis is scored on the
whole training set, and it replaces the pocket only when it makes strictly fewer errors.

The updates are those of :func:`perceptron_lib.perceptron` (the shared loop of
:mod:`perceptron_lib.variants`), so ``result.last_theta`` is the perceptron's own result
for the same arguments.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._validate import check_data, check_tau
from .algorithm import _visit_order
from .variants import _visits

__all__ = ["PocketResult", "pocket_perceptron"]


def _errors(X: np.ndarray, y: np.ndarray, theta: np.ndarray, theta_0: float) -> int:
    """Training errors of ``(theta, theta_0)``: examples with ``y (theta . x + theta_0) <= 0``."""
    return int(np.count_nonzero(y * (X @ theta + theta_0) <= 0))


@dataclass(frozen=True)
class PocketResult:
    """What the pocket algorithm returns (chapter 6).

    Attributes
    ----------
    theta : numpy.ndarray, shape (d,)
        The hypothesis in the pocket: the one with the fewest training errors of all the
        hypotheses the run went through (the first of them on a tie).
    theta_0 : float
        Its offset (0.0 with ``offset=False``).
    errors : int
        Its number of training errors, ``y (theta . x + theta_0) <= 0``.
    last_theta, last_theta_0
        The perceptron's last hypothesis, what :func:`perceptron_lib.perceptron` returns.
    last_errors : int
        Its number of training errors.
    mistakes : int
        Number of updates made, over all epochs (as for the perceptron).
    epochs : int
        Number of passes started.
    converged : bool
        True when a pass made no update (the data are then separated, and the pocket
        holds the separator).
    error_history : tuple of int
        The pocket's training errors at the start (``theta = 0``: every example is an
        error) and after each update: ``mistakes + 1`` numbers, never increasing.
    last_error_history : tuple of int
        The training errors of the perceptron's hypothesis at the same moments.
    """

    theta: np.ndarray
    theta_0: float
    errors: int
    last_theta: np.ndarray
    last_theta_0: float
    last_errors: int
    mistakes: int
    epochs: int
    converged: bool
    error_history: tuple[int, ...]
    last_error_history: tuple[int, ...]

    def __repr__(self) -> str:
        return (
            f"PocketResult(theta={np.array2string(self.theta, precision=4)}, "
            f"theta_0={self.theta_0:g}, errors={self.errors}, "
            f"last_errors={self.last_errors}, mistakes={self.mistakes}, "
            f"epochs={self.epochs}, converged={self.converged})"
        )


def pocket_perceptron(
    X: ArrayLike,
    y: ArrayLike,
    tau: int = 100,
    *,
    offset: bool = True,
    shuffle: bool = False,
    seed: int | None = None,
) -> PocketResult:
    """Gallant's pocket algorithm with ratchet: the best perceptron hypothesis (chapter 6).

    Runs :func:`perceptron_lib.perceptron` (the same updates, in the same order) and
    keeps in a *pocket* the hypothesis with the fewest training errors seen so far.
    After every update the new hypothesis is scored on the whole training set; it goes
    into the pocket only when it makes *strictly* fewer errors than the one there
    (Gallant 1990's ratchet, which never lets the pocket get worse).  The pocket starts
    with ``theta = 0, theta_0 = 0``, which gets every example wrong.

    Guarantees, which follow from the definition:

    - at every moment of the run the pocket's training error is at most that of the
      perceptron's current hypothesis (the pocket is the best of all the hypotheses so
      far, the current one included), so in the end ``errors <= last_errors``;
    - the pocket's training error never increases (``error_history`` is non-increasing);
    - on linearly separable data, as soon as the perceptron reaches a separator (zero
      training errors) the pocket holds it: when the run converges, ``errors == 0``
      and the pocket is the perceptron's final hypothesis.

    What the pocket does *not* promise is the hyperplane with the fewest errors of all
    (:func:`perceptron_lib.erm_halfspace`): it is the best of the hypotheses the
    perceptron happened to visit.  Gallant shows that with examples drawn at random the
    pocket reaches an optimal hypothesis with probability tending to 1 as the run grows;
    a fixed order (``shuffle=False``) can cycle and miss it.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Training examples, one per row.
    y : array_like, shape (n,)
        Labels, each -1 or +1.
    tau : int, default 100
        Maximum number of passes; the run stops early after a pass with no update.
    offset : bool, default True
        Learn ``theta_0``; False runs PERCEPTRON-THROUGH-ORIGIN.
    shuffle : bool, default False
        Visit the examples in a fresh random order in each epoch, as
        :func:`perceptron_lib.perceptron` does (recommended on noisy data).
    seed : int, optional
        Seed for the shuffling.

    Returns
    -------
    PocketResult

    Raises
    ------
    ValueError, TypeError
        For labels other than -1/+1, mismatched lengths, ``X`` not 2-D, NaN or
        infinity, no examples, or ``tau`` not a positive integer.

    Examples
    --------
    One example labelled against its neighbours: no threshold on the line gets all four
    right, and the pocket keeps a threshold that gets three.

    >>> r = pocket_perceptron([[1.0], [2.0], [3.0], [4.0]], [1, 1, -1, 1], tau=20)
    >>> r.errors, r.last_errors, r.converged
    (1, 2, False)
    >>> r.error_history[:4]
    (4, 1, 1, 1)
    """
    Xa, ya = check_data(X, y)
    tau = check_tau(tau)
    n, d = Xa.shape
    best_theta, best_theta_0 = np.zeros(d), 0.0
    best = _errors(Xa, ya, best_theta, best_theta_0)
    theta, theta_0, current = best_theta, best_theta_0, best
    pocket_hist, last_hist = [best], [current]
    mistakes, epochs, converged, epoch_clean = 0, 0, False, True
    for t, _i, mistake, theta, theta_0 in _visits(
        Xa, ya, tau, offset, _visit_order(n, tau, shuffle, seed)
    ):
        if t != epochs:  # a new pass began
            epochs, epoch_clean = t, True
        if not mistake:
            continue
        epoch_clean = False
        mistakes += 1
        current = _errors(Xa, ya, theta, theta_0)
        if current < best:  # the ratchet: strictly fewer errors on the whole set
            best_theta, best_theta_0, best = theta, theta_0, current
        pocket_hist.append(best)
        last_hist.append(current)
    converged = epoch_clean
    return PocketResult(
        theta=np.array(best_theta, dtype=float),
        theta_0=float(best_theta_0),
        errors=best,
        last_theta=np.array(theta, dtype=float),
        last_theta_0=float(theta_0),
        last_errors=current,
        mistakes=mistakes,
        epochs=epochs,
        converged=converged,
        error_history=tuple(pocket_hist),
        last_error_history=tuple(last_hist),
    )
