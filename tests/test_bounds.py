"""Chapter 7's mistake bounds: hand-computed values, and runs that never exceed them."""

import math

import numpy as np
import pytest

import perceptron_lib as pl


def test_hand_computed_values():
    assert pl.freund_schapire_bound(2.0, 0.5, 1.0) == 36.0   # ((2 + 1) / 0.5)^2
    assert pl.freund_schapire_bound(3.0, 1.0, 0.0) == pl.mistake_bound(3.0, 1.0)
    assert pl.freund_schapire_bound(1.0, 1.0, 1.0, passes=9) == 16.0   # (1 + 3 * 1)^2
    assert pl.multiclass_mistake_bound(3.0, 1.5) == 8.0                # 2 * (3 / 1.5)^2
    assert pl.margin_perceptron_bound(2.0, 0.5, 2.0) == 32.0           # (4 + 4) / 0.25
    assert pl.margin_perceptron_bound(2.0, 0.5, 0.0) == pl.mistake_bound(2.0, 0.5)
    assert pl.kernel_mistake_bound(np.diag([1.0, 9.0, 4.0]), 0.5) == 36.0
    assert pl.online_to_batch_bound(9, 3.0) == pytest.approx(0.6)
    assert pl.online_to_batch_bound(9, [1.0, 2.0, 6.0], voted=False) == pytest.approx(0.3)


# ---------------------------------------------------------------------------------------
# Freund and Schapire's bound on any data


def _datasets():
    out = []
    for seed in range(30):
        rng = np.random.default_rng(seed)
        n, d = int(rng.integers(5, 60)), int(rng.integers(1, 5))
        R = float(rng.uniform(0.5, 5))
        gamma = float(rng.uniform(0.02, 0.3)) * R
        if seed % 3 == 0:
            sep = pl.make_separable(n, d=d, gamma=gamma, R=R, seed=seed)
            out.append((sep.X, sep.y))
        elif seed % 3 == 1:
            sep = pl.make_separable(n, d=d, gamma=gamma, R=R, seed=seed)
            out.append((sep.X, pl.flip_labels(sep.y, float(rng.uniform(0.05, 0.4)), seed=seed)))
        else:
            out.append(pl.make_noisy(n, d=d, flip=float(rng.uniform(0, 0.3)), gamma=gamma,
                                     R=R, seed=seed))
    out.append(pl.make_xor(6, seed=1))
    return out


DATA = _datasets()


def _unit_vectors(X, y, rng, offset):
    """Candidate separators: random directions, the best one when separable, the
    normals of perceptron runs."""
    d = X.shape[1] + offset
    cands = [v / np.linalg.norm(v) for v in rng.standard_normal((5, d))]
    Xl = pl.add_offset_feature(X) if offset else X
    try:  # the best separator through the origin of the (lifted) data
        cands.append(pl.max_margin(Xl, y, offset=False).theta)
    except ValueError:  # not separable
        pass
    r = pl.perceptron_through_origin(Xl, y, tau=50)
    if np.any(r.theta):
        cands.append(r.theta / np.linalg.norm(r.theta))
    return cands


@pytest.mark.parametrize("k", range(len(DATA)))
def test_one_pass_through_the_origin(k):
    X, y = DATA[k]
    rng = np.random.default_rng(k)
    R = pl.radius(X)
    r = pl.perceptron_through_origin(X, y, tau=1)
    checked = 0
    for u in _unit_vectors(X, y, rng, offset=False):
        for gamma in np.geomspace(0.01, 2.0, 12) * R:
            D = pl.hinge_deficiency(X, y, u, 0.0, gamma)
            assert r.mistakes <= pl.freund_schapire_bound(R, gamma, D)
            checked += 1
    assert checked >= 60


@pytest.mark.parametrize("k", range(len(DATA)))
def test_many_passes_count_each_pass_in_D(k):
    X, y = DATA[k]
    rng = np.random.default_rng(100 + k)
    for offset in (False, True):
        Xl = pl.add_offset_feature(X) if offset else X
        R = pl.radius(Xl)
        r = (pl.perceptron if offset else pl.perceptron_through_origin)(X, y, tau=25)
        for u in _unit_vectors(X, y, rng, offset):
            theta, theta_0 = (u[:-1], u[-1]) if offset else (u, 0.0)
            for gamma in np.geomspace(0.01, 2.0, 10) * R:
                D = pl.hinge_deficiency(X, y, theta, theta_0, gamma)
                assert r.mistakes <= pl.freund_schapire_bound(R, gamma, D, passes=r.epochs)


def test_one_pass_d_does_not_bound_many_passes():
    # on data no separator fits, the perceptron never stops making mistakes, so the
    # deficiency of one pass cannot bound them all: D must grow with the passes
    X, y = pl.make_xor(5, seed=2)
    R = pl.radius(X)
    r = pl.perceptron_through_origin(X, y, tau=200)
    assert not r.converged
    u = np.array([1.0, 0.0])
    D = pl.hinge_deficiency(X, y, u, 0.0, 0.5)
    assert r.mistakes > pl.freund_schapire_bound(R, 0.5, D)
    assert r.mistakes <= pl.freund_schapire_bound(R, 0.5, D, passes=r.epochs)


def test_the_proofs_extra_coordinates():
    # x_i -> (x_i, Delta e_i), Delta^2 = R D: the perceptron makes the same mistakes on
    # the augmented sequence in one pass, and the augmented data are separable with
    # margin gamma / sqrt(1 + D^2 / Delta^2): chapter 4's bound there is (R + D)^2 / gamma^2
    for k in range(len(DATA)):
        X, y = DATA[k]
        n = X.shape[0]
        R = pl.radius(X)
        u = np.random.default_rng(k).standard_normal(X.shape[1])
        u /= np.linalg.norm(u)
        gamma = 0.3 * R
        D, d = pl.hinge_deficiency(X, y, u, 0.0, gamma, per_example=True)
        if D == 0:
            continue
        delta = math.sqrt(R * D)
        Xa = np.hstack([X, delta * np.eye(n)])
        ua = np.append(u, y * d / delta) / math.sqrt(1 + D ** 2 / delta ** 2)
        plain = pl.perceptron_through_origin(X, y, tau=1, trace=True)
        aug = pl.perceptron_through_origin(Xa, y, tau=1, trace=True)
        assert [h.index for h in plain.history] == [h.index for h in aug.history]
        assert np.linalg.norm(ua) == pytest.approx(1.0)
        gamma_a = pl.margin(Xa, y, ua)
        assert gamma_a >= gamma / math.sqrt(1 + D ** 2 / delta ** 2) * (1 - 1e-12)
        assert pl.mistake_bound(math.sqrt(R ** 2 + delta ** 2),
                                gamma / math.sqrt(1 + D ** 2 / delta ** 2)) == \
            pytest.approx(pl.freund_schapire_bound(R, gamma, D))


def test_hand_computed_cycle():
    # x = 1 and x = -1, both labelled +1: through the origin the perceptron goes
    # 0 -> 1 -> 0 and makes two mistakes in every pass.  With u = 1 and gamma = 1:
    # d = (0, 2), D = 2, R = 1, so one pass is bounded by (1 + 2)^2 = 9 and p passes by
    # (1 + 2 sqrt(p))^2, which grows like the 2 p mistakes
    X, y = [[1.0], [-1.0]], [1, 1]
    D, d = pl.hinge_deficiency(X, y, [1.0], 0.0, 1.0, per_example=True)
    assert d.tolist() == [0.0, 2.0] and D == 2.0
    assert pl.freund_schapire_bound(1.0, 1.0, D) == 9.0
    for p in (1, 4, 25, 100):
        r = pl.perceptron_through_origin(X, y, tau=p)
        assert r.mistakes == 2 * p and not r.converged
        assert r.mistakes <= pl.freund_schapire_bound(1.0, 1.0, D, passes=p) \
            == (1 + 2 * math.sqrt(p)) ** 2


def test_the_bound_is_attained():
    # one point on the sphere, gamma = R: one mistake, and the bound is 1
    assert pl.perceptron_through_origin([[2.0, 0.0]], [1], tau=1).mistakes == 1
    D = pl.hinge_deficiency([[2.0, 0.0]], [1], [1.0, 0.0], 0.0, 2.0)
    assert D == 0.0 and pl.freund_schapire_bound(2.0, 2.0, D) == 1.0


# ---------------------------------------------------------------------------------------
# kernels


def _poly_features(X, coef0):
    """phi with phi(a) . phi(b) = (a . b + coef0)^2, written out."""
    n, d = X.shape
    cols = [X[:, i] * X[:, j] * (1.0 if i == j else math.sqrt(2.0))
            for i in range(d) for j in range(i, d)]
    cols += [math.sqrt(2.0 * coef0) * X[:, i] for i in range(d)]
    cols.append(np.full(n, coef0))
    return np.column_stack(cols)


@pytest.mark.parametrize("seed", range(15))
def test_kernel_perceptron_within_the_feature_space_bound(seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(40, 2))
    y = np.where(X[:, 0] ** 2 + 0.5 * X[:, 1] ** 2 < 0.4, 1.0, -1.0)  # an ellipse
    keep = np.abs(X[:, 0] ** 2 + 0.5 * X[:, 1] ** 2 - 0.4) > 0.05
    X, y = X[keep], y[keep]
    kern = pl.polynomial_kernel(2, coef0=1.0)
    G = pl.gram_matrix(kern, X)
    # a separator in feature space: the run on the reversed data, when it converged
    rev = pl.kernel_perceptron(X[::-1], y[::-1], kern, tau=10_000, offset=False)
    assert rev.converged
    coef = (rev.alpha * rev.y)[::-1]
    gamma = pl.kernel_margin(G, y, coef)
    Phi = _poly_features(X, 1.0)
    np.testing.assert_allclose(Phi @ Phi.T, G, rtol=1e-12, atol=1e-12)
    assert gamma == pytest.approx(pl.margin(Phi, y, Phi.T @ coef), rel=1e-9)
    r = pl.kernel_perceptron(X, y, kern, tau=10_000, offset=False)
    assert r.converged
    assert r.mistakes <= pl.kernel_mistake_bound(G, gamma)
    # the best margin in feature space gives the tightest bound, still above the count
    best = pl.max_margin(Phi, y, offset=False).gamma
    assert best >= gamma * (1 - 1e-9)
    assert r.mistakes <= pl.kernel_mistake_bound(G, best)
    # with an offset: the kernel K + 1 through the origin
    with_offset = pl.kernel_perceptron(X, y, kern, tau=10_000)
    plus_one = pl.kernel_perceptron(X, y, lambda A, B: kern(A, B) + 1.0, tau=10_000,
                                    offset=False)
    np.testing.assert_array_equal(with_offset.alpha, plus_one.alpha)
    rev1 = pl.kernel_perceptron(X[::-1], y[::-1], kern, tau=10_000)
    assert rev1.converged
    gamma1 = pl.kernel_margin(G + 1.0, y, (rev1.alpha * rev1.y)[::-1])
    assert gamma1 > 0
    assert with_offset.mistakes <= pl.kernel_mistake_bound(G + 1.0, gamma1)


# ---------------------------------------------------------------------------------------
# online to batch


def _draw(rng, n, u, gamma):
    """n points uniform in the unit disk with |u . x| >= gamma, labelled by sign(u . x)."""
    out = np.empty((0, 2))
    while out.shape[0] < n:
        c = rng.uniform(-1, 1, size=(4 * n + 8, 2))
        c = c[(np.linalg.norm(c, axis=1) <= 1) & (np.abs(c @ u) >= gamma)]
        out = np.vstack([out, c])
    X = out[:n]
    return X, np.where(X @ u > 0, 1.0, -1.0)


def _one_pass(X, y):
    """The hypotheses of one pass through the origin: theta before each example."""
    theta, seq, mistakes = np.zeros(X.shape[1]), [], 0
    for x, label in zip(X, y, strict=True):
        seq.append(theta)
        if label * (theta @ x) <= 0:
            theta, mistakes = theta + label * x, mistakes + 1
    seq.append(theta)
    return np.array(seq), mistakes


def test_leave_one_out_identity_behind_the_conversion():
    # P(h_r errs on a fresh point), r uniform in 0..n, equals E[mistakes on n + 1] / (n + 1)
    rng = np.random.default_rng(0)
    u, gamma, n, trials = np.array([0.6, 0.8]), 0.1, 8, 3000
    lhs, rhs = [], []
    for _ in range(trials):
        X, y = _draw(rng, n + 1, u, gamma)
        seq, _m = _one_pass(X[:n], y[:n])
        Xt, yt = _draw(rng, 50, u, gamma)
        lhs.append(np.mean(np.where(yt[:, None] * (Xt @ seq.T) <= 0, 1.0, 0.0)))
        X2, y2 = _draw(rng, n + 1, u, gamma)
        rhs.append(_one_pass(X2, y2)[1] / (n + 1))
    lhs, rhs = np.array(lhs), np.array(rhs)
    se = math.sqrt(lhs.var() / trials + rhs.var() / trials)
    assert abs(lhs.mean() - rhs.mean()) < 4 * se
    # and the bound of the randomised classifier: E[mistakes] <= (R / gamma)^2
    assert lhs.mean() <= pl.online_to_batch_bound(n, 1 / gamma ** 2, voted=False)


def test_voted_perceptron_test_error_within_the_bound():
    rng = np.random.default_rng(1)
    u, gamma, n = np.array([0.8, -0.6]), 0.2, 60
    errors, samples = [], []
    for _ in range(300):
        X, y = _draw(rng, n, u, gamma)
        v = pl.voted_perceptron(X, y, tau=1, offset=False)
        Xt, yt = _draw(rng, 200, u, gamma)
        errors.append(np.mean(pl.voted_predict(v, Xt) != yt))
        # the quantity inside the expectation, at the fixed u, on the n + 1 examples
        Xa, ya = np.vstack([X, Xt[:1]]), np.append(y, yt[:1])
        g = pl.margin(Xa, ya, u)
        samples.append(pl.freund_schapire_bound(pl.radius(Xa), g, 0.0))
    bound = pl.online_to_batch_bound(n, samples)
    assert 0 < np.mean(errors) <= bound < 1


@pytest.mark.parametrize(("f", "args", "match"), [
    (pl.freund_schapire_bound, (-1.0, 1.0, 0.0), "R bounds the norms"),
    (pl.freund_schapire_bound, (1.0, 0.0, 0.0), "gamma must be positive"),
    (pl.freund_schapire_bound, (1.0, 1.0, -0.1), "D .* cannot be negative"),
    (pl.freund_schapire_bound, (1.0, float("nan"), 0.0), "gamma must be finite"),
    (pl.multiclass_mistake_bound, (1.0, -2.0), "gamma must be positive"),
    (pl.margin_perceptron_bound, (1.0, 1.0, -1.0), "margin must be >= 0"),
    (pl.kernel_mistake_bound, ([[1.0, 2.0]], 1.0), "square"),
    (pl.kernel_mistake_bound, ([[-1.0]], 1.0), "negative diagonal"),
    (pl.kernel_mistake_bound, ([[np.nan]], 1.0), "NaN"),
    (pl.online_to_batch_bound, (0, 1.0), "n must be at least 1"),
    (pl.online_to_batch_bound, (5, []), "empty"),
    (pl.online_to_batch_bound, (5, [-1.0]), ">= 0"),
])
def test_bad_input_is_named(f, args, match):
    with pytest.raises(ValueError, match=match):
        f(*args)
    with pytest.raises(TypeError):
        pl.freund_schapire_bound(1.0, 1.0, 0.0, passes=1.5)


# ---------------------------------------------------------------------------------------
# Chapter 4's bound as (R B)^2, and the risk of the hypotheses of one online pass


def test_rb_squared_bound():
    assert pl.rb_squared_bound(2.0, 4.0) == 64.0 == pl.mistake_bound(2.0, 0.25)
    assert pl.rb_squared_bound(0.0, 3.0) == 0.0
    # on data: B = 1 / gamma_opt for the least-norm theta*, and the perceptron obeys it
    for seed in range(3):
        data = pl.make_separable(40, d=3, gamma=0.1, seed=seed)   # through the origin
        best = pl.max_margin(data.X, data.y, offset=False)
        B = 1.0 / best.gamma
        assert pl.rb_squared_bound(pl.radius(data.X), B) == pytest.approx(
            pl.mistake_bound(pl.radius(data.X), best.gamma))
        r = pl.perceptron_through_origin(data.X, data.y, tau=10_000, method="loop")
        assert r.converged and r.mistakes <= pl.rb_squared_bound(pl.radius(data.X), B)


def test_online_to_batch_values():
    assert round(pl.online_to_batch_risk_bound(100, 10_000, 0.05), 4) == 0.0345
    for m, n, delta in [(0, 1, 0.5), (3, 7, 0.01), (250, 1000, 0.2)]:
        naive = m / n + (2 * math.log(1 / delta) / n) ** 0.5
        assert pl.online_to_batch_risk_bound(m, n, delta) == pytest.approx(naive, rel=1e-15)
        assert pl.online_to_batch_expectation_bound(m, n) == m / n
    # smaller delta, larger bound; more data, smaller deviation term
    assert pl.online_to_batch_risk_bound(10, 100, 0.01) > pl.online_to_batch_risk_bound(
        10, 100, 0.1)
    assert pl.online_to_batch_risk_bound(100, 10_000, 0.05) < pl.online_to_batch_risk_bound(
        1, 100, 0.05)


def _one_pass_risks(X, y, X_test, y_test):
    """Mistakes of one online pass (offset, lifted) and the risk of each hypothesis."""
    n = len(y)
    H = np.zeros((n, X.shape[1] + 1))
    w, mistakes = np.zeros(X.shape[1] + 1), 0
    for t in range(n):
        H[t] = w
        x = np.append(X[t], 1.0)
        if y[t] * (w @ x) <= 0:
            w = w + y[t] * x
            mistakes += 1
    scores = H[:, :-1] @ X_test.T + H[:, -1:]
    risks = np.mean(y_test[None, :] * scores <= 0, axis=1)
    return mistakes, risks


def test_online_to_batch_on_simulated_runs():
    data = pl.make_separable(20, d=2, gamma=0.05, seed=3)
    X_test, y_test = pl.sample_like(data, 2000, flip=0.1, seed=99)
    n, runs, delta = 120, 30, 0.1
    avg_risk, rate, held = [], [], 0
    for seed in range(runs):
        X, y = pl.sample_like(data, n, flip=0.1, seed=seed)
        mistakes, risks = _one_pass_risks(X, y, X_test, y_test)
        avg_risk.append(risks.mean())
        rate.append(pl.online_to_batch_expectation_bound(mistakes, n))
        held += risks.mean() <= pl.online_to_batch_risk_bound(mistakes, n, delta)
    # E[average risk] = E[M] / n: the two means agree within sampling error
    spread = np.std(np.array(avg_risk) - np.array(rate)) / np.sqrt(runs)
    assert abs(np.mean(avg_risk) - np.mean(rate)) < 4 * spread + 0.005
    assert held >= (1 - delta) * runs


@pytest.mark.parametrize("call,exc,match", [
    (lambda: pl.rb_squared_bound(-1.0, 1.0), ValueError, "R bounds the norms"),
    (lambda: pl.rb_squared_bound(1.0, 0.0), ValueError, "B is the norm of a theta"),
    (lambda: pl.rb_squared_bound(1.0, np.nan), ValueError, "B must be finite"),
    (lambda: pl.online_to_batch_risk_bound(1, 0, 0.1), ValueError, "n must be at least 1"),
    (lambda: pl.online_to_batch_risk_bound(1, 10.0, 0.1), TypeError, "n must be an integer"),
    (lambda: pl.online_to_batch_risk_bound(-1, 10, 0.1), ValueError, "mistakes must be >= 0"),
    (lambda: pl.online_to_batch_risk_bound(11, 10, 0.1), ValueError, "at most n mistakes"),
    (lambda: pl.online_to_batch_risk_bound(1, 10, 0.0), ValueError, "strictly between 0 and 1"),
    (lambda: pl.online_to_batch_risk_bound(1, 10, 1.0), ValueError, "strictly between 0 and 1"),
    (lambda: pl.online_to_batch_expectation_bound(np.inf, 10), ValueError,
     "mistakes must be finite"),
    (lambda: pl.online_to_batch_expectation_bound("3", 10), TypeError,
     "mistakes must be a real number"),
])
def test_bad_arguments_of_the_new_bounds(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
