"""Chapter 6's variants against naive references and against the plain perceptron."""

import numpy as np
import pytest
from naive import naive_perceptron

import perceptron_lib as pl


def naive_visits(X, y, tau, offset=True):
    """Every visit's hypothesis, written out with Python floats (a second reference)."""
    X = [list(map(float, r)) for r in np.asarray(X)]
    y = [float(v) for v in np.asarray(y)]
    theta, theta_0, out = [0.0] * len(X[0]), 0.0, []
    for _t in range(tau):
        clean = True
        for x, label in zip(X, y, strict=True):
            score = sum(a * b for a, b in zip(theta, x, strict=True)) + theta_0
            mistake = label * score <= 0
            if mistake:
                theta = [a + label * b for a, b in zip(theta, x, strict=True)]
                theta_0 += label if offset else 0.0
                clean = False
            out.append((list(theta), theta_0, mistake))
        if clean:
            break
    return out


_SEP = pl.make_separable(30, d=2, gamma=0.2, R=1.0, theta_0=0.4, seed=3)
DATA = [
    pl.make_noisy(40, d=3, flip=0.15, gamma=0.1, R=2.0, seed=1),
    pl.make_xor(3, seed=2),
    (pl.notes_example().X, pl.notes_example().y),
    (_SEP.X, _SEP.y),
]


@pytest.mark.parametrize("data", range(len(DATA)))
@pytest.mark.parametrize("offset", [True, False])
def test_averaged_is_the_mean_over_visits(data, offset):
    X, y = DATA[data][:2]
    r = pl.averaged_perceptron(X, y, tau=7, offset=offset)
    visits = naive_visits(X, y, 7, offset)
    np.testing.assert_allclose(r.theta, np.mean([v[0] for v in visits], axis=0), rtol=1e-12)
    assert r.theta_0 == pytest.approx(np.mean([v[1] for v in visits]), rel=1e-12, abs=1e-12)
    plain = (pl.perceptron if offset else pl.perceptron_through_origin)(X, y, tau=7)
    np.testing.assert_array_equal(r.last_theta, plain.theta)  # the same updates, bit for bit
    assert r.last_theta_0 == plain.theta_0
    assert (r.mistakes, r.epochs, r.converged) == (plain.mistakes, plain.epochs, plain.converged)


@pytest.mark.parametrize("data", range(len(DATA)))
def test_voted_counts_and_the_average_identity(data):
    X, y = DATA[data][:2]
    v = pl.voted_perceptron(X, y, tau=5)
    a = pl.averaged_perceptron(X, y, tau=5)
    visits = naive_visits(X, y, 5)
    assert v.counts.sum() == len(visits)
    assert len(v.counts) == 1 + sum(m for *_, m in visits)
    # the average over visits is the count-weighted mean of the voted hypotheses
    np.testing.assert_allclose(v.counts @ v.thetas / v.counts.sum(), a.theta, rtol=1e-12)
    assert v.counts @ v.theta_0s / v.counts.sum() == pytest.approx(a.theta_0, abs=1e-12)


def test_voted_predict_is_a_weighted_vote():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    model = pl.VotedResult(thetas=np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]]),
                           theta_0s=np.zeros(3), counts=np.array([3, 1, 1]),
                           mistakes=2, epochs=1, converged=False)
    # votes: point 1: +3 -1 -1 = 1 > 0; point 2: -3 +1 +1 < 0; point 3: -3 -1 +1 < 0
    assert pl.voted_predict(model, X).tolist() == [1, -1, -1]
    tie = pl.VotedResult(np.array([[1.0], [-1.0]]), np.zeros(2), np.array([2, 2]), 1, 1, False)
    assert pl.voted_predict(tie, [[1.0]]).tolist() == [-1]  # a tied vote is not > 0
    with pytest.raises(ValueError, match="features"):
        pl.voted_predict(model, [[1.0, 2.0, 3.0]])


def test_averaging_helps_on_noisy_data():
    X, y = pl.make_noisy(400, d=5, flip=0.2, gamma=0.1, R=1.0, seed=7)
    Xt, yt = pl.make_noisy(2000, d=5, flip=0.0, gamma=0.1, R=1.0, seed=7)  # same direction
    r = pl.averaged_perceptron(X, y, tau=20, shuffle=True, seed=0)
    last = pl.accuracy(yt, pl.predict(Xt, r.last_theta, r.last_theta_0))
    avg = pl.accuracy(yt, pl.predict(Xt, r.theta, r.theta_0))
    assert avg > last


def test_one_vs_all_matches_per_class_perceptrons():
    rng = np.random.default_rng(0)
    centres = np.array([[0.0, 3.0], [3.0, -2.0], [-3.0, -2.0]])
    labels = np.repeat(["green", "amber", "red"], 15)
    X = centres[np.repeat([0, 1, 2], 15)] + rng.normal(scale=0.5, size=(45, 2))
    m = pl.one_vs_all(X, labels, tau=50)
    assert m.classes.tolist() == ["amber", "green", "red"]
    for k, c in enumerate(m.classes):
        r = naive_perceptron(X, np.where(labels == c, 1.0, -1.0), 50)
        np.testing.assert_array_equal(m.thetas[k], r[0])
        assert m.theta_0s[k] == r[1]
    assert (pl.one_vs_all_predict(m, X) == labels).all()
    scores = pl.one_vs_all_scores(m, X)
    assert scores.shape == (45, 3)
    with pytest.raises(ValueError, match="at least 2 classes"):
        pl.one_vs_all(X, ["red"] * 45)
    with pytest.raises(ValueError, match="shape"):
        pl.one_vs_all(X, labels[:10])


def test_one_vs_all_ties_go_to_the_first_class():
    m = pl.OneVsAllResult(np.array([1, 2]), np.array([[1.0], [1.0]]), np.zeros(2),
                          np.array([True, True]))
    assert pl.one_vs_all_predict(m, [[3.0]]).tolist() == [1]


def test_kernel_perceptron_with_the_linear_kernel_is_the_perceptron():
    X, y = pl.make_xor(3, seed=1)
    X = np.round(X * 4)  # integers: every sum is exact, whatever the order
    k = pl.kernel_perceptron(X, y, pl.linear_kernel(), tau=6)
    r = pl.perceptron(X, y, tau=6)
    np.testing.assert_array_equal((k.alpha * k.y) @ X, r.theta)
    assert k.theta_0 == r.theta_0
    assert (k.mistakes, k.epochs, k.converged) == (r.mistakes, r.epochs, r.converged)
    assert k.alpha.sum() == r.mistakes


@pytest.mark.parametrize("offset", [True, False])
def test_a_traced_kernel_run_records_the_perceptrons_updates(offset):
    X, y = pl.make_xor(3, seed=1)
    X = np.round(X * 4)  # integers: every score is exact, whatever the order of the sums
    run = pl.perceptron if offset else pl.perceptron_through_origin
    r = run(X, y, tau=6, trace=True)
    k = pl.kernel_perceptron(X, y, pl.linear_kernel(), tau=6, offset=offset, trace=True)
    assert [(u.epoch, u.index, u.score) for u in k.history] == [
        (u.epoch, u.index, u.score) for u in r.history]
    np.testing.assert_array_equal(np.bincount([u.index for u in k.history],
                                              minlength=len(y)), k.alpha)
    assert all(y[u.index] * u.score <= 0 for u in k.history)
    # without trace nothing is kept, and the result is the same
    plain = pl.kernel_perceptron(X, y, pl.linear_kernel(), tau=6, offset=offset)
    assert plain.history is None
    np.testing.assert_array_equal(plain.alpha, k.alpha)


def test_polynomial_kernel_is_a_dot_product_of_features():
    rng = np.random.default_rng(3)
    A, B = rng.normal(size=(5, 2)), rng.normal(size=(4, 2))

    def phi(P):  # the degree-2 features of (a . b + 1)^2 in the plane
        x1, x2 = P[:, 0], P[:, 1]
        s = np.sqrt(2)
        return np.column_stack([x1**2, x2**2, s * x1 * x2, s * x1, s * x2, np.ones(len(P))])

    np.testing.assert_allclose(pl.polynomial_kernel(2, 1.0)(A, B), phi(A) @ phi(B).T)
    G = pl.rbf_kernel(0.5)(A, A)
    np.testing.assert_allclose(np.diag(G), 1.0)
    assert G.shape == (5, 5) and np.all(G <= 1.0 + 1e-12)


def test_the_kernel_perceptron_solves_xor():
    X, y = pl.make_xor(10, seed=0)
    assert not pl.perceptron(X, y, tau=200).converged
    k = pl.kernel_perceptron(X, y, pl.polynomial_kernel(2), tau=200)
    assert k.converged
    assert (pl.kernel_predict(k, X) == y).all()
    Xt, yt = pl.make_xor(50, seed=1)
    assert pl.accuracy(yt, pl.kernel_predict(k, Xt)) > 0.9


def test_kernel_errors_are_named():
    X, y = pl.make_xor(2, seed=0)
    with pytest.raises(ValueError, match="kernel must return"):
        pl.kernel_perceptron(X, y, lambda A, B: A @ B.T[:, :1])
    with pytest.raises(ValueError, match="gamma"):
        pl.rbf_kernel(0)
    with pytest.raises(ValueError, match="degree"):
        pl.polynomial_kernel(0)
    k = pl.kernel_perceptron(X, y)
    with pytest.raises(ValueError, match="features"):
        pl.kernel_predict(k, np.ones((2, 3)))
    with pytest.raises(ValueError, match="-1"):
        pl.averaged_perceptron(X, np.zeros(len(y)))
