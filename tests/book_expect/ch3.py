"""Expected values of every number chapter 3 (*The margin*) glues into its text.

Values with a closed form are written as such: the lecture notes' margins
(-sqrt(2)/2, sqrt(2), sqrt(2)), the signed distances to the line 3 x1 + 4 x2 = 5, and
the best margins of the two small examples, worked out by hand.  The rest is recomputed
here with perceptron_lib and numpy, independently of the notebook's code.
"""

from __future__ import annotations

import math

import numpy as np

import perceptron_lib as pl
from perceptron_lib.separability import is_linearly_separable, max_margin


def _strip(k: int, delta: float, seed: int = 0):
    """Pairs of points straddling the line u . x = 0.2 at distance delta (the chapter's data)."""
    rng = np.random.default_rng(seed)
    u = np.array([-0.3, 1.0]) / math.hypot(0.3, 1.0)
    v = np.array([u[1], -u[0]])
    along = rng.uniform(-1.0, 1.0, size=k)
    centre = along[:, None] * v[None, :] + 0.2 * u
    X = np.concatenate([centre + delta * u, centre - delta * u])
    y = np.concatenate([np.ones(k), -np.ones(k)])
    order = rng.permutation(2 * k)
    return X[order], y[order]


def _perceptron_epochs(X, y, tau):
    """Plain PERCEPTRON; returns (converged epoch or None, mistakes) after at most tau epochs."""
    theta, theta_0, mistakes = np.zeros(X.shape[1]), 0.0, 0
    for t in range(1, tau + 1):
        clean = True
        for x, label in zip(X, y, strict=True):
            if label * (theta @ x + theta_0) <= 0:
                theta = theta + label * x
                theta_0 += label
                mistakes += 1
                clean = False
        if clean:
            return t, mistakes
    return None, mistakes


def expected() -> dict[str, object]:
    out: dict[str, object] = {}

    # signed distances to 3 x1 + 4 x2 - 5 = 0, by hand: (3 a + 4 b - 5) / 5
    out["ch3_sd_norm"] = 5.0
    out["ch3_sd_a"] = (3 * 2.0 + 4 * 2.5 - 5) / 5
    out["ch3_sd_b"] = -1.0
    out["ch3_sd_c"] = (3 * -2.0 + 4 * 0.5 - 5) / 5

    # the lecture notes' worked example (margins printed by the notes)
    out["ch3_notes_x2"] = "(2, 1)"
    out["ch3_notes_x3"] = "(-1, 2)"
    out["ch3_notes_m1"] = -math.sqrt(2) / 2
    out["ch3_notes_m2"] = math.sqrt(2)
    out["ch3_notes_m3"] = math.sqrt(2)
    out["ch3_notes_margin"] = -math.sqrt(2) / 2
    out["ch3_notes_score1"] = -1.0  # 1 - 3 + 1

    # functional vs geometric margin for theta = (1, 0), theta_0 = 0
    out["ch3_fg_geo"] = 1.0
    out["ch3_fg_c"] = 10.0
    out["ch3_fg_fun_big"] = 10.0

    # the explorer's start: the notes' hypothesis with a unit normal
    out["ch3_ex_angle"] = 315.0
    out["ch3_ex_shift"] = 1 / math.sqrt(2)
    out["ch3_ex_margin"] = -math.sqrt(2) / 2

    # best line for the three points: bisector of (1, 3) and (-1, 2)
    out["ch3_best_notes_gamma"] = math.sqrt(5) / 2
    out["ch3_best_notes_angle"] = math.degrees(math.atan(0.5))
    out["ch3_best_notes_theta_0"] = -math.sqrt(5) / 2

    # max margin against the perceptron on generated data
    data = pl.make_separable(20, 2, gamma=0.3, R=2.0, theta_0=0.5, seed=1)
    best = max_margin(data.X, data.y)
    res = pl.perceptron(data.X, data.y, tau=500, method="loop")
    pm = pl.margin(data.X, data.y, res.theta, res.theta_0)
    pms = pl.point_margins(data.X, data.y, best.theta, best.theta_0)
    out["ch3_gen_n"] = 20
    out["ch3_gen_gamma"] = data.gamma
    out["ch3_opt_gamma"] = best.gamma
    out["ch3_opt_support"] = int(np.sum(np.isclose(pms, best.gamma, rtol=1e-6)))
    out["ch3_perc_mistakes"] = res.mistakes
    out["ch3_perc_margin"] = pm
    out["ch3_perc_ratio"] = 100 * pm / best.gamma

    ratios = []
    for data_seed in range(30):
        ds = pl.make_separable(20, 2, gamma=0.3, R=2.0, theta_0=0.5, seed=data_seed)
        g = max_margin(ds.X, ds.y).gamma
        for kw in [{}] + [{"shuffle": True, "seed": s} for s in range(10)]:
            r = pl.perceptron(ds.X, ds.y, tau=500, method="loop", **kw)
            assert r.converged
            ratios.append(pl.margin(ds.X, ds.y, r.theta, r.theta_0) / g)
    ratios = np.array(ratios)
    out["ch3_exp_datasets"] = 30
    out["ch3_exp_orders"] = 10
    out["ch3_exp_runs"] = 330
    out["ch3_exp_median"] = float(np.median(ratios))
    out["ch3_exp_min"] = float(ratios.min())
    out["ch3_exp_max"] = float(ratios.max())
    out["ch3_exp_frac90"] = 100 * float(np.mean(ratios >= 0.9))
    out["ch3_exp_frac50"] = 100 * float(np.mean(ratios < 0.5))

    # separable with a tiny margin against one flipped label
    X, y_sep = _strip(10, 0.005)
    flip = int(np.argmin(np.abs(X[:, 0] + 0.3 * X[:, 1])))
    y_non = y_sep.copy()
    y_non[flip] *= -1
    assert is_linearly_separable(X, y_sep) and not is_linearly_separable(X, y_non)
    out["ch3_strip_pairs"] = 10
    out["ch3_strip_delta"] = 0.005
    out["ch3_strip_gamma"] = max_margin(X, y_sep).gamma
    out["ch3_tau_short"] = 50
    out["ch3_tau_long"] = 1000
    out["ch3_short_mistakes_sep"] = _perceptron_epochs(X, y_sep, 50)[1]
    out["ch3_short_mistakes_non"] = _perceptron_epochs(X, y_non, 50)[1]
    epoch, mistakes = _perceptron_epochs(X, y_sep, 1000)
    out["ch3_long_epochs_sep"] = epoch
    out["ch3_long_mistakes_sep"] = mistakes
    out["ch3_long_mistakes_non"] = _perceptron_epochs(X, y_non, 1000)[1]

    # exercises: the 1-D offset example and a change of units
    out["ch3_line_gamma"] = 0.5
    out["ch3_line_lifted_given"] = 0.5 / math.sqrt(1 + 2.5**2)
    out["ch3_line_lifted_opt"] = 0.5 / math.sqrt(1 + 2.5**2)
    out["ch3_scaled_gamma"] = 3 * math.sqrt(5) / 2
    return out
