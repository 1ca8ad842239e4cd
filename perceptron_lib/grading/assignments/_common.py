"""Data and loops shared by the assignments' cases and their known mistakes."""

from __future__ import annotations

import numpy as np


def int_data(seed: int, n: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` points of small integer coordinates in ``d`` dimensions, random labels."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, d)).astype(float)
    y = rng.choice([-1.0, 1.0], size=n)
    return X, y


def grid(low: int, high: int, step: int = 1) -> np.ndarray:
    """The integer points of a square, row by row: many of them sit on boundaries."""
    ticks = np.arange(low, high + 1, step, dtype=float)
    return np.array([[a, b] for b in ticks[::-1] for a in ticks])


def perceptron_loop(X, y, tau, *, strict=False, offset=True, sign=1.0, extra_epochs=0,
                    until_converged=False, count="all", offset_outside=False, skip_last=False):
    """The perceptron of chapter 1 (chapter 2 without ``offset``), or a wrong variant.

    ``strict`` tests ``< 0``; ``sign`` -1 subtracts; ``extra_epochs`` runs past tau;
    ``until_converged`` ignores tau; ``count`` "epoch" keeps only the last epoch's
    count; ``offset_outside`` tests ``y * theta @ x + theta_0`` (theta_0 not times y);
    ``skip_last`` never visits the last example.
    """
    X, y = np.asarray(X, float), np.asarray(y, float)
    theta, theta_0, mistakes = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(10_000 if until_converged else tau + extra_epochs):
        changed = False
        if count == "epoch":
            mistakes = 0
        for i in range(len(y) - 1 if skip_last else len(y)):
            score = (y[i] * (theta @ X[i]) + theta_0 if offset_outside
                     else y[i] * (theta @ X[i] + theta_0))
            if score < 0 if strict else score <= 0:
                theta = theta + sign * y[i] * X[i]
                if offset:
                    theta_0 += sign * y[i]
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, theta_0, mistakes
