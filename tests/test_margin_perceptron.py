"""Chapter 7's margin perceptron against the plain perceptron, a naive loop and its bound."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import naive_margin_perceptron
from strategies import gaussian_data, integer_data

import perceptron_lib as pl


def _datasets():
    out = []
    for seed in range(12):
        sep = pl.make_separable(25 + 5 * seed, d=1 + seed % 4, gamma=0.05 + 0.02 * seed,
                                R=1.0 + seed, theta_0=0.3 * (seed % 3) * (seed > 2), seed=seed)
        out.append((sep.X, sep.y))
    for seed in range(6):
        out.append(pl.make_noisy(40, d=3, flip=0.1, gamma=0.1, R=2.0, seed=100 + seed))
    out.append(pl.make_xor(4, seed=1))
    out.append((pl.offset_example().X, pl.offset_example().y))
    out.append((pl.notes_example().X, pl.notes_example().y))
    return out


DATA = _datasets()


def _same_result(a, b):
    np.testing.assert_array_equal(a.theta, b.theta)
    assert a.theta_0 == b.theta_0
    assert (a.mistakes, a.epochs, a.converged) == (b.mistakes, b.epochs, b.converged)


@pytest.mark.parametrize("k", range(len(DATA)))
def test_margin_zero_is_the_perceptron(k):
    X, y = DATA[k]
    for tau in (1, 3, 50):
        _same_result(pl.margin_perceptron(X, y, margin=0.0, tau=tau),
                     pl.perceptron(X, y, tau=tau, method="loop"))
        _same_result(pl.margin_perceptron(X, y, margin=0.0, tau=tau, offset=False),
                     pl.perceptron_through_origin(X, y, tau=tau, method="loop"))
    a = pl.margin_perceptron(X, y, 0.0, 20, trace=True, shuffle=True, seed=5)
    b = pl.perceptron(X, y, 20, trace=True, shuffle=True, seed=5)
    _same_result(a, b)
    assert [(u.epoch, u.index, u.score, u.theta_0) for u in a.history] == \
           [(u.epoch, u.index, u.score, u.theta_0) for u in b.history]
    for ua, ub in zip(a.history, b.history, strict=True):
        np.testing.assert_array_equal(ua.theta, ub.theta)


def test_margin_zero_matches_the_fast_path_too():
    X, y = pl.make_noisy(300, d=4, flip=0.05, gamma=0.05, seed=9)
    _same_result(pl.margin_perceptron(X, y, 0.0, tau=100),
                 pl.perceptron(X, y, tau=100, method="fast"))


@settings(max_examples=150, deadline=None)
@given(integer_data(), st.sampled_from([0.0, 0.5, 1.0, 3.0, 10.0]))
def test_against_the_naive_loop(data, b):
    X, y = data
    for offset in (True, False):
        r = pl.margin_perceptron(X, y, b, tau=15, trace=True, offset=offset)
        theta, theta_0, mistakes, epochs, converged, updates = naive_margin_perceptron(
            X.tolist(), y.tolist(), 15, b, offset)
        np.testing.assert_array_equal(r.theta, theta)
        assert r.theta_0 == theta_0
        assert (r.mistakes, r.epochs, r.converged) == (mistakes, epochs, converged)
        assert [(u.epoch, u.index) for u in r.history] == updates


@settings(max_examples=60, deadline=None)
@given(gaussian_data())
def test_a_converged_run_clears_the_margin(data):
    X, y = data
    b = 0.7
    r = pl.margin_perceptron(X, y, b, tau=30)
    scores = y * (X @ r.theta + r.theta_0)
    if r.converged:
        assert np.all(scores > b)
    else:
        assert r.epochs == 30


@pytest.mark.parametrize("seed", range(40))
def test_updates_within_the_margin_perceptron_bound(seed):
    rng = np.random.default_rng(seed)
    sep = pl.make_separable(int(rng.integers(5, 80)), d=int(rng.integers(1, 5)),
                            gamma=float(rng.uniform(0.05, 0.3)), R=float(rng.uniform(0.5, 3)),
                            seed=seed)
    b = float(rng.choice([0.0, 0.1, 1.0, 5.0]))
    # through the origin: u = sep.theta has margin sep.gamma, radius sep.R
    r = pl.margin_perceptron(sep.X, sep.y, b, tau=100_000, offset=False)
    assert r.converged
    bound = pl.margin_perceptron_bound(sep.R, sep.gamma, b)
    assert r.mistakes <= bound
    # and the guaranteed fraction of the margin: geometric margin > b gamma / (R^2 + 2b)
    if b > 0:
        assert pl.margin(sep.X, sep.y, r.theta) > b * sep.gamma / (sep.R ** 2 + 2 * b)


def test_with_an_offset_the_bound_is_on_the_lifted_data():
    for seed in range(15):
        sep = pl.make_separable(40, d=2, gamma=0.15, R=1.0, theta_0=0.4, seed=seed)
        Xl = pl.add_offset_feature(sep.X)
        u = np.append(sep.theta, sep.theta_0)
        gamma = pl.margin(Xl, sep.y, u / np.linalg.norm(u))
        r = pl.margin_perceptron(sep.X, sep.y, 2.0, tau=100_000)
        assert r.converged
        assert r.mistakes <= pl.margin_perceptron_bound(pl.radius(Xl), gamma, 2.0)
        lifted = pl.margin_perceptron(Xl, sep.y, 2.0, tau=100_000, offset=False)
        np.testing.assert_array_equal(lifted.theta, np.append(r.theta, r.theta_0))


@pytest.mark.parametrize("c", [0.5, 2.0, 4.0])
def test_scaling_the_data_is_scaling_the_margin(c):
    # c is a power of two: scaling is exact, so the two runs agree exactly
    X, y = pl.make_noisy(30, d=3, flip=0.1, seed=4)
    for b in (0.25, 1.0, 8.0):
        big = pl.margin_perceptron(c * X, y, b, tau=40, offset=False, trace=True)
        small = pl.margin_perceptron(X, y, b / c ** 2, tau=40, offset=False, trace=True)
        assert [(u.epoch, u.index) for u in big.history] == \
               [(u.epoch, u.index) for u in small.history]
        np.testing.assert_array_equal(big.theta, c * small.theta)
        # with an offset: the lifted coordinate becomes 1 / c
        big = pl.margin_perceptron(c * X, y, b, tau=40, trace=True)
        lifted = pl.margin_perceptron(pl.add_offset_feature(X, 1.0 / c), y, b / c ** 2, tau=40,
                                      offset=False, trace=True)
        assert [(u.epoch, u.index) for u in big.history] == \
               [(u.epoch, u.index) for u in lifted.history]


def test_a_larger_margin_gives_a_wider_separator():
    sep = pl.make_separable(60, d=2, gamma=0.05, R=1.0, seed=2)
    gammas = [pl.margin(sep.X, sep.y, pl.margin_perceptron(sep.X, sep.y, b, tau=10_000,
                                                           offset=False).theta)
              for b in (0.0, 1.0, 10.0)]
    assert gammas[0] < gammas[2]
    best = pl.max_margin(sep.X, sep.y, offset=False).gamma
    # the guarantee: margin > b gamma / (R^2 + 2 b), here with b = 10 and gamma = gamma_opt
    assert gammas[2] > 10.0 * best / (sep.R ** 2 + 20.0)


@pytest.mark.parametrize(("bad", "exc", "match"), [
    (-0.5, ValueError, "margin must be >= 0"),
    (float("nan"), ValueError, "margin must be finite"),
    (float("inf"), ValueError, "margin must be finite"),
    ("1", TypeError, "margin must be a real number"),
])
def test_bad_margin(bad, exc, match):
    with pytest.raises(exc, match=match):
        pl.margin_perceptron([[1.0]], [1], margin=bad)


def test_bad_data_is_named():
    with pytest.raises(ValueError, match="labels must be -1 or \\+1"):
        pl.margin_perceptron([[1.0], [2.0]], [0, 1])
    with pytest.raises(ValueError, match="NaN"):
        pl.margin_perceptron([[np.nan], [2.0]], [1, -1])
    with pytest.raises(ValueError, match="no examples"):
        pl.margin_perceptron(np.zeros((0, 2)), [])
    with pytest.raises(ValueError, match="2-D"):
        pl.margin_perceptron([1.0, 2.0], [1, -1])
    with pytest.raises(ValueError, match="tau"):
        pl.margin_perceptron([[1.0]], [1], tau=0)


def test_inputs_are_not_modified():
    X, y = pl.make_noisy(20, seed=1)
    X0, y0 = X.copy(), y.copy()
    pl.margin_perceptron(X, y, 1.0, tau=5)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


@pytest.mark.parametrize("kind", ["floats", "integers with ties"])
def test_the_compiled_path_makes_the_loops_updates_bit_for_bit(kind, monkeypatch):
    import perceptron_lib._fast as fast

    calls = []
    real = fast.fast_perceptron
    monkeypatch.setattr(fast, "fast_perceptron", lambda *a, **k: calls.append(1) or real(*a, **k))
    rng = np.random.default_rng(7)
    for seed in range(12):
        if kind == "floats":
            ds = pl.make_separable(40, 3, gamma=0.05, R=1.0, theta_0=0.3, seed=seed)
            X, y = ds.X, ds.y
        else:  # small integers: scores land exactly on the threshold
            X = rng.integers(-3, 4, size=(40, 2)).astype(float)
            y = np.where(X[:, 0] + X[:, 1] >= 0.5, 1, -1)
        for margin in (0.0, 0.5, 1.0, 3.0):
            kwargs = dict(margin=margin, tau=1000, shuffle=True, seed=seed)
            compiled = pl.margin_perceptron(X, y, **kwargs)
            loop = pl.margin_perceptron(X, y, trace=True, **kwargs)  # the loop only
            assert np.array_equal(compiled.theta, loop.theta)
            assert (compiled.theta_0, compiled.mistakes, compiled.epochs, compiled.converged) \
                == (loop.theta_0, loop.mistakes, loop.epochs, loop.converged)
    assert len(calls) == 12 * 4  # every run above took the compiled path
