"""A naive perceptron in plain Python lists: an independent reference for the tests.

It shares no code with perceptron_lib.  Its sums run left to right, so it agrees with
the library exactly on data whose arithmetic is exact (small integers, halves, ...).
"""

from __future__ import annotations


def naive_perceptron(X, y, tau, offset=True):
    """Return (theta, theta_0, mistakes, epochs, converged, updates) with updates=[(t, i)]."""
    d = len(X[0])
    theta = [0.0] * d
    theta_0 = 0.0
    mistakes = 0
    updates = []
    epochs = 0
    for t in range(1, tau + 1):
        epochs = t
        changed = False
        for i, (x, label) in enumerate(zip(X, y, strict=True)):
            score = 0.0
            for j in range(d):
                score += theta[j] * x[j]
            score += theta_0
            if label * score <= 0:
                theta = [theta[j] + label * x[j] for j in range(d)]
                if offset:
                    theta_0 += label
                mistakes += 1
                updates.append((t, i))
                changed = True
        if not changed:
            return theta, theta_0, mistakes, epochs, True, updates
    return theta, theta_0, mistakes, epochs, False, updates
