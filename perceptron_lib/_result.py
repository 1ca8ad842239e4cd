"""What a run of the perceptron returns (chapters 1, 2 and 4).

Its own module so that the readable loop (:mod:`perceptron_lib.algorithm`) and the
compiled fast path (:mod:`perceptron_lib._fast`) both use it without importing each
other.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Update:
    """One update made by the perceptron (chapters 1 and 4).

    Attributes
    ----------
    epoch : int
        The pass over the data in which it happened, counted from 1 like ``t`` in
        the pseudocode.
    index : int
        Row of ``X`` (counted from 0, as in Python) of the misclassified example.
    score : float
        ``theta . x + theta_0`` *before* the update; ``y * score <= 0`` made it a mistake.
    theta, theta_0
        The hypothesis *after* the update.
    """

    epoch: int
    index: int
    score: float
    theta: np.ndarray
    theta_0: float


@dataclass(frozen=True)
class PerceptronResult:
    """What a run of the perceptron returns (chapters 1 and 2).

    Attributes
    ----------
    theta : numpy.ndarray
        The learned normal vector, shape (d,).
    theta_0 : float
        The learned offset (always 0.0 for the through-origin variant).
    mistakes : int
        Number of updates made, over all epochs.
    epochs : int
        Number of passes over the data that were started (at most ``tau``).  When the
        run converged, the last of them is the clean pass that made no update.
    converged : bool
        True when a full pass made no update, so the result separates the data.
    history : tuple of Update or None
        Every update in order when the run was traced, otherwise None.
    """

    theta: np.ndarray
    theta_0: float
    mistakes: int
    epochs: int
    converged: bool
    history: tuple[Update, ...] | None = None

    def __repr__(self) -> str:
        return (
            f"PerceptronResult(theta={np.array2string(self.theta, precision=4)}, "
            f"theta_0={self.theta_0:g}, mistakes={self.mistakes}, epochs={self.epochs}, "
            f"converged={self.converged}"
            + ("" if self.history is None else f", history=<{len(self.history)} updates>")
            + ")"
        )
