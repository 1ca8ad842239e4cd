"""Expected values of every number chapter 4 (*The convergence proof*) glues into its text.

Each value is recomputed here from perceptron_lib and numpy, with code of its own: the
proof's quantities from plain loops over the updates rather than from
``proof_quantities``, the cycle from a loop that records theta at the start of every
epoch, the runs on data with added points and the random-start run from a separate
implementation.
"""

from __future__ import annotations

import numpy as np

import perceptron_lib as pl
from perceptron_lib.separability import is_linearly_separable, max_margin


def _through_origin(X, y, theta, tau):
    """PERCEPTRON-THROUGH-ORIGIN from ``theta``: (theta after each update, epoch of each)."""
    thetas, epochs, starts = [], [], []
    for t in range(1, tau + 1):
        starts.append(tuple(theta))
        clean = True
        for x, label in zip(X, y, strict=True):
            if label * float(theta @ x) <= 0:
                theta = theta + label * x
                thetas.append(theta)
                epochs.append(t)
                clean = False
        if clean:
            break
    return thetas, epochs, starts


def _first_run() -> dict[str, object]:
    data = pl.make_separable(100, d=2, gamma=0.05, R=1.0, seed=4)
    gamma = pl.margin(data.X, data.y, data.theta)
    R = float(np.max(np.sqrt(np.sum(data.X**2, axis=1))))
    thetas, epochs, _ = _through_origin(data.X, data.y, np.zeros(2), 1000)
    K = len(thetas)
    unit = data.theta / np.linalg.norm(data.theta)
    align = [float(th @ unit) for th in thetas]
    norm_sq = [float(th @ th) for th in thetas]
    return {
        "ch4_run_n": 100,
        "ch4_run_gamma": gamma,
        "ch4_run_R": R,
        "ch4_run_bound": (R / gamma) ** 2,
        "ch4_run_mistakes": K,
        "ch4_run_epochs": epochs[-1] + 1,  # the clean epoch after the last update
        "ch4_run_align_step": align[-1] / K,
        "ch4_run_norm_step": norm_sq[-1] / K,
        "ch4_run_max_norm_ratio": max(v / ((k + 1) * R**2) for k, v in enumerate(norm_sq)),
        "ch4_run_final_cos": align[-1] / np.sqrt(norm_sq[-1]),
        # the (R B)^2 form with the least B = ||w|| of functional margins >= 1
        "ch4_run_B_opt": 1 / max_margin(data.X, data.y, offset=False).gamma,
        "ch4_run_rb_opt": (R / max_margin(data.X, data.y, offset=False).gamma) ** 2,
    }


def _experiment() -> dict[str, object]:
    rng = np.random.default_rng(2024)
    bounds, mistakes, converged = [], [], []
    for run_id in range(300):
        d = (2, 10, 50)[run_id % 3]
        g = float(np.exp(rng.uniform(np.log(0.01), np.log(0.3))))
        ds = pl.make_separable(100, d=d, gamma=g, R=1.0, seed=run_id)
        bound = (pl.radius(ds.X) / pl.margin(ds.X, ds.y, ds.theta)) ** 2
        r = pl.perceptron_through_origin(ds.X, ds.y, tau=int(bound) + 1)
        bounds.append(bound)
        mistakes.append(r.mistakes)
        converged.append(r.converged)
    b, m = np.array(bounds), np.array(mistakes)
    return {
        "ch4_exp_runs": 300,
        "ch4_exp_converged": int(sum(converged)),
        "ch4_exp_above": int(np.sum(m > b)),
        "ch4_exp_median_ratio": float(np.median(m / b)),
        "ch4_exp_max_ratio": float(np.max(m / b)),
        "ch4_exp_max_mistakes": int(m.max()),
        "ch4_exp_max_bound": float(b.max()),
    }


def _added_points() -> dict[str, object]:
    """Points added one by one inside the best margin; a fresh run after each."""
    n_sets, n_steps = 20, 10
    epochs = np.empty((n_sets, n_steps + 1), dtype=int)
    updates = np.empty((n_sets, n_steps + 1), dtype=int)
    bounds = np.empty((n_sets, n_steps + 1))
    for j in range(n_sets):
        ds = pl.make_separable(20, d=2, gamma=0.2, R=1.0, seed=j)
        X, y = ds.X, ds.y
        rng = np.random.default_rng(1000 + j)
        for step in range(n_steps + 1):
            best = max_margin(X, y, offset=False)
            thetas, when, _ = _through_origin(X, y, np.zeros(2), 100_000)
            assert all(label * float(thetas[-1] @ x) > 0 for x, label in zip(X, y, strict=True))
            updates[j, step] = len(thetas)
            epochs[j, step] = when[-1] + 1  # the clean epoch after the last update
            R = max(float(np.sqrt(x @ x)) for x in X)
            bounds[j, step] = (R / best.gamma) ** 2
            if step == n_steps:
                break
            u = best.theta / np.linalg.norm(best.theta)
            dist = rng.uniform(0.3, 0.9) * best.gamma
            side = rng.choice([-1.0, 1.0])
            along = rng.uniform(-0.9, 0.9) * np.sqrt(1.0 - dist**2)
            point = side * dist * u + along * np.array([-u[1], u[0]])
            X = np.vstack([X, point])
            y = np.append(y, side)
    d_epochs = np.diff(epochs, axis=1)
    d_updates = np.diff(updates, axis=1)
    assert np.all(np.diff(bounds, axis=1) >= 0)
    j_max, step_max = divmod(int(np.argmax(epochs)), n_steps + 1)
    return {
        "ch4_add_sets": n_sets,
        "ch4_add_n0": 20,
        "ch4_add_gamma0": 0.2,
        "ch4_add_steps": n_steps,
        "ch4_add_total": n_sets * n_steps,
        "ch4_add_up": int(np.sum(d_epochs > 0)),
        "ch4_add_same": int(np.sum(d_epochs == 0)),
        "ch4_add_down": int(np.sum(d_epochs < 0)),
        "ch4_add_upd_up": int(np.sum(d_updates > 0)),
        "ch4_add_upd_down": int(np.sum(d_updates < 0)),
        "ch4_add_never_down": sum(1 for row in d_epochs if min(row) >= 0),
        "ch4_add_bound_first": float(np.median(bounds[:, 0])),
        "ch4_add_bound_last": float(np.median(bounds[:, -1])),
        "ch4_add_epochs_first": float(np.median(epochs[:, 0])),
        "ch4_add_epochs_last": float(np.median(epochs[:, -1])),
        "ch4_add_epochs_max": int(epochs.max()),
        "ch4_add_epochs_after_max": int(epochs[j_max, step_max + 1]),
    }


def _tight() -> dict[str, object]:
    d = 10
    r = pl.perceptron_through_origin(np.eye(d), np.ones(d), tau=100)
    gamma = pl.margin(np.eye(d), np.ones(d), np.ones(d))
    return {"ch4_tight_d": d, "ch4_tight_mistakes": r.mistakes, "ch4_tight_bound": 1 / gamma**2}


def _lift() -> dict[str, object]:
    off = pl.make_separable(60, d=2, gamma=0.1, R=2.5, theta_0=1.5, seed=7)
    R, t0 = pl.radius(off.X), off.theta_0
    gamma = pl.margin(off.X, off.y, off.theta, t0)
    errs = []
    for c in (0.5, 1.0, np.sqrt(R * abs(t0)), R):
        lifted = np.column_stack([off.X, np.full(len(off.X), c)])
        R_c = float(np.max(np.linalg.norm(lifted, axis=1)))
        theta_c = np.append(off.theta, t0 / c)
        g_c = float(np.min(off.y * (lifted @ theta_c)) / np.linalg.norm(theta_c))
        errs.append(abs(R_c / np.sqrt(R**2 + c**2) - 1))
        errs.append(abs(g_c / (gamma / np.sqrt(1 + t0**2 / c**2)) - 1))
    return {
        "ch4_lift_R": R,
        "ch4_lift_theta0": t0,
        "ch4_lift_max_rel_err": max(errs),
        "ch4_lift_cbest": float(np.sqrt(R * abs(t0))),
    }


def _offset_and_units() -> dict[str, object]:
    n_sets = 100
    b2r, sharp, br = [], [], []
    r2 = {0.125: [], 1.0: [], 8.0: []}
    plain = {0.125: [], 1.0: [], 8.0: []}
    for j in range(n_sets):
        rng_j = np.random.default_rng(j)
        ds = pl.make_separable(40, d=2, gamma=0.05, R=1.0,
                               theta_0=float(rng_j.uniform(-0.9, 0.9)), seed=j)
        best = max_margin(ds.X, ds.y)
        R = pl.radius(ds.X)
        b2r.append((2 * R / best.gamma) ** 2)
        sharp.append(2 * (R**2 + best.theta_0**2) / best.gamma**2)
        br.append((R / best.gamma) ** 2)
        for s in r2:
            Xs = s * ds.X
            lifted = pl.add_offset_feature(Xs, value=pl.radius(Xs))
            r2[s].append(pl.perceptron_through_origin(lifted, ds.y, tau=100_000).mistakes)
            plain[s].append(pl.perceptron(Xs, ds.y, tau=100_000).mistakes)
    b2r, sharp, br = np.array(b2r), np.array(sharp), np.array(br)
    r2 = {s: np.array(v) for s, v in r2.items()}
    plain = {s: np.array(v) for s, v in plain.items()}
    same = (r2[0.125] == r2[1.0]) & (r2[8.0] == r2[1.0])
    return {
        "ch4_off_sets": n_sets,
        "ch4_off_above_sharp": int(np.sum(r2[1.0] > sharp)),
        "ch4_off_above_2r": int(np.sum(r2[1.0] > b2r)),
        "ch4_off_max_ratio": float(np.max(r2[1.0] / b2r)),
        "ch4_off_max_sharp_ratio": float(np.max(r2[1.0] / sharp)),
        "ch4_units_r2_same": int(same.sum()),
        "ch4_units_small_above": int(np.sum(plain[0.125] > b2r)),
        "ch4_units_small_max_ratio": float(np.max(plain[0.125] / b2r)),
        "ch4_units_large_above": int(np.sum(plain[8.0] > b2r)),
        "ch4_units_one_above": int(np.sum(plain[1.0] > b2r)),
        "ch4_units_small_above_r": int(np.sum(plain[0.125] > br)),
        "ch4_units_small_max_ratio_r": float(np.max(plain[0.125] / br)),
        "ch4_units_one_above_r": int(np.sum(plain[1.0] > br)),
    }


def _noisy() -> dict[str, object]:
    X, y = pl.make_noisy(40, d=2, flip=0.1, gamma=0.1, R=1.0, seed=4)
    Xg = np.round(10 * X)
    assert not is_linearly_separable(Xg, y, offset=False)
    tau = 60
    thetas, epochs, starts = _through_origin(Xg, y, np.zeros(2), tau)
    R = float(np.max(np.linalg.norm(Xg, axis=1)))
    per_epoch = np.bincount(epochs, minlength=tau + 1)[1:]
    first = {}
    for t, key in enumerate(starts, start=1):
        if key in first:
            cycle_from, cycle_to = first[key], t
            break
        first[key] = t
    return {
        "ch4_noisy_flipped": 4,
        "ch4_noisy_tau": tau,
        "ch4_noisy_mistakes": len(thetas),
        "ch4_noisy_min_per_epoch": int(per_epoch.min()),
        "ch4_noisy_R": R,
        "ch4_noisy_max_norm": float(max(np.linalg.norm(th) for th in thetas)),
        "ch4_noisy_sqrt_bound": float(np.sqrt(len(thetas)) * R),
        "ch4_cycle_from": cycle_from,
        "ch4_cycle_to": cycle_to,
        "ch4_cycle_len": cycle_to - cycle_from,
        "ch4_cycle_updates": int(sum(1 for e in epochs if cycle_from <= e < cycle_to)),
    }


def _random_start() -> dict[str, object]:
    small = pl.make_separable(50, d=2, gamma=0.001, R=0.01, seed=4)
    start = np.random.default_rng(4).random(2)
    thetas, _, _ = _through_origin(small.X, small.y, start.copy(), 10_000)
    zero, _, _ = _through_origin(small.X, small.y, np.zeros(2), 10_000)
    R, gamma = pl.radius(small.X), pl.margin(small.X, small.y, small.theta)
    a = float(start @ small.theta)
    b2 = float(start @ start)
    p = R**2 - 2 * a * gamma
    return {
        "ch4_start_random": len(thetas),
        "ch4_start_zero": len(zero),
        "ch4_start_bound": (R / gamma) ** 2,
        "ch4_start_a": a,
        "ch4_start_b": float(np.sqrt(b2)),
        "ch4_start_kmax": (p + np.sqrt(p**2 + 4 * gamma**2 * (b2 - a**2))) / (2 * gamma**2),
    }


def expected() -> dict[str, object]:
    out: dict[str, object] = {}
    for part in (_first_run, _experiment, _added_points, _tight, _lift, _offset_and_units,
                 _noisy, _random_start):
        out.update(part())
    return out
