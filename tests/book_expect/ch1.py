"""Expected glue values of chapter 1 (The algorithm), recomputed independently."""

from __future__ import annotations

import numpy as np

import perceptron_lib as pl


def _vec(v) -> str:
    return "(" + ", ".join(f"{float(a):g}" for a in v) + ")"


def _plain_loop(X, y, tau, rate=1.0, mistake=None):
    """PERCEPTRON written out again; ``mistake(label, score)`` replaces the test if given."""
    theta, theta_0, rows, epochs = np.zeros(X.shape[1]), 0.0, [], 0
    for _ in range(tau):
        epochs += 1
        changed = False
        for i in range(len(y)):
            score = theta @ X[i] + theta_0
            wrong = y[i] * score <= 0 if mistake is None else mistake(y[i], score)
            if wrong:
                theta = theta + rate * y[i] * X[i]
                theta_0 = theta_0 + rate * y[i]
                rows.append(i)
                changed = True
        if not changed:
            break
    return theta, theta_0, rows, epochs


def expected() -> dict[str, object]:
    out: dict[str, object] = {}

    # The classifier of the first figure: theta = (1, -1), theta_0 = 1.
    out["ch1_foot"] = "(-0.5, 0.5)"
    out["ch1_dist"] = float(1 / np.sqrt(2))

    # The worked example of the lecture notes: numbers the notes print.
    out["ch1_score_before"] = -1.0
    out["ch1_theta_after"] = "(2, 2)"
    out["ch1_theta0_after"] = 2.0
    out["ch1_score_after"] = 10.0
    out["ch1_gain"] = 11.0  # ||(1, 3)||^2 + 1
    # The negative point (-1, 2) of pl.notes_example(), before and after.
    out["ch1_neg_score_before"] = -2.0
    out["ch1_neg_score_after"] = 4.0
    # One more update on it: theta = (3, 0), theta_0 = 1.
    out["ch1_next_scores"] = "4, 7, -2"

    # The eight points, two orders.
    X8 = np.array([[-1.0, 2.0], [-0.5, -1.5], [-0.5, 1.5], [0.0, -1.0],
                   [2.0, 0.5], [-2.0, 0.0], [2.0, 1.0], [0.0, 0.0]])
    y8 = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
    for name, (X, y) in {"given": (X8, y8), "rev": (X8[::-1], y8[::-1])}.items():
        theta, theta_0, rows, t = _plain_loop(X, y, 100)
        out[f"ch1_{name}_theta"] = _vec(theta)
        out[f"ch1_{name}_theta0"] = float(theta_0)
        out[f"ch1_{name}_mistakes"] = len(rows)
        out[f"ch1_{name}_epochs"] = t
        out[f"ch1_{name}_margin"] = float(
            np.min(y8 * (X8 @ theta + theta_0)) / np.linalg.norm(theta)
        )

    # XOR: never converges.
    Xx, yx = pl.make_xor(n_per_quadrant=10, spread=0.3, seed=0)
    tau = 30
    theta, theta_0 = np.zeros(2), 0.0
    per_epoch = []
    for _ in range(tau):
        k = 0
        for i in range(len(yx)):
            if yx[i] * (theta @ Xx[i] + theta_0) <= 0:
                theta, theta_0, k = theta + yx[i] * Xx[i], theta_0 + yx[i], k + 1
        per_epoch.append(k)
    assert min(per_epoch) > 0
    out["ch1_xor_n"] = len(yx)
    out["ch1_xor_tau"] = tau
    out["ch1_xor_mistakes"] = sum(per_epoch)
    out["ch1_xor_min"] = min(per_epoch)
    out["ch1_xor_max"] = max(per_epoch)
    out["ch1_xor_wrong"] = int(np.sum(np.where(Xx @ theta + theta_0 > 0, 1, -1) != yx))
    # the line x1 + x2 = -1, positive on the side of the cluster around (-1, -1)
    corner = np.where(-Xx[:, 0] - Xx[:, 1] - 1.0 > 0, 1, -1)
    out["ch1_xor_corner_wrong"] = int(np.sum(corner != yx))

    # Conventions: the strict test and sign(0) = +1.
    _, _, rows, _ = _plain_loop(X8, y8, 100, mistake=lambda lab, s: lab * s < 0)
    out["ch1_strict_updates"] = len(rows)
    out["ch1_strict_wrong"] = int(np.sum(y8 > 0))  # theta = 0 predicts -1 everywhere
    theta, theta_0, rows, _ = _plain_loop(
        X8, y8, 100, mistake=lambda lab, s: (1 if s >= 0 else -1) != lab
    )
    out["ch1_plus_mistakes"] = len(rows)
    out["ch1_plus_theta"] = _vec(theta)
    out["ch1_plus_theta0"] = float(theta_0)
    out["ch1_n8"] = len(y8)

    # Learning rate: same updates for every rate, from zero.
    data = pl.make_separable(60, gamma=0.03, R=1.0, theta_0=0.2, seed=0)
    _, _, rows, t = _plain_loop(data.X, data.y, 1000)
    for rate in (0.5, 0.1, 0.01):
        assert _plain_loop(data.X, data.y, 1000, rate=rate)[2] == rows
    out["ch1_lr_n"] = len(data.y)
    out["ch1_lr_mistakes"] = len(rows)
    out["ch1_lr_epochs"] = t
    return out
