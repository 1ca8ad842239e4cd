"""Empirical risk minimisation over halfspaces (chapter 7): perceptron_lib.erm."""

import numpy as np
import pytest
from hypothesis import given
from naive import naive_erm_line, naive_erm_plane, naive_errors
from strategies import integer_data

import perceptron_lib as pl


def grid_upper_bound(X, y, angles=3600):
    """The best line over a grid of directions, each with its best threshold: an upper
    bound on the minimum (a line of each grid direction is a halfspace)."""
    phi = np.linspace(0, 2 * np.pi, angles, endpoint=False)
    P = X @ np.stack([np.cos(phi), np.sin(phi)])          # (n, angles)
    order = np.argsort(P, axis=0)
    ys = y[order]
    # labels +1 above a cut: errors = positives at or below + negatives above
    pos_below = np.vstack([np.zeros(angles), np.cumsum(ys > 0, axis=0)])
    neg_below = np.vstack([np.zeros(angles), np.cumsum(ys < 0, axis=0)])
    neg_total = neg_below[-1]
    errs = pos_below + (neg_total - neg_below)
    return int(errs.min())   # both orientations: phi and phi + pi are both in the grid


def test_training_errors_against_the_naive_count():
    rng = np.random.default_rng(0)
    X = rng.integers(-3, 4, size=(30, 3)).astype(float)
    y = rng.choice([-1.0, 1.0], size=30)
    for _ in range(20):
        theta, theta_0 = rng.integers(-2, 3, size=3).astype(float), float(rng.integers(-2, 3))
        assert pl.training_errors(X, y, theta, theta_0) == naive_errors(
            X.tolist(), y.tolist(), theta.tolist(), theta_0)


def test_hand_examples():
    xor = [[-1, -1], [1, 1], [-1, 1], [1, -1]]
    r = pl.erm_halfspace(xor, [1, 1, -1, -1])
    assert (r.errors, r.separable) == (1, False)
    assert pl.training_errors(xor, [1, 1, -1, -1], r.theta, r.theta_0) == 1
    assert pl.erm_halfspace([[1.0], [2.0], [3.0], [4.0]], [1, -1, 1, -1]).errors == 1
    assert pl.erm_halfspace([[0.0], [0.0]], [1, -1]).errors == 1   # one point, two labels
    assert pl.erm_halfspace([[1.0, 1.0], [1.0, 1.0]], [1, -1]).errors == 1


@pytest.mark.parametrize("seed", range(40))
def test_exact_in_the_plane_against_the_naive_sweep(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 9))
    if seed % 2:   # small integers: many collinear triples and repeated points
        X = rng.integers(-2, 3, size=(n, 2)).astype(float)
    else:
        X = rng.standard_normal((n, 2))
    y = rng.choice([-1.0, 1.0], size=n)
    r = pl.erm_halfspace(X, y)
    assert r.errors == naive_erm_plane(X.tolist(), y.tolist())
    assert r.errors == pl.training_errors(X, y, r.theta, r.theta_0)
    assert r.errors <= grid_upper_bound(X, y)


@pytest.mark.parametrize("seed", range(20))
def test_exact_on_the_line_against_every_threshold(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 15))
    x = rng.integers(-4, 5, size=n).astype(float)
    y = rng.choice([-1.0, 1.0], size=n)
    r = pl.erm_halfspace(x.reshape(-1, 1), y)
    assert r.errors == naive_erm_line(x.tolist(), y.tolist())
    assert r.errors == pl.training_errors(x.reshape(-1, 1), y, r.theta, r.theta_0)


@pytest.mark.parametrize("seed", range(6))
def test_noisy_sets_below_the_grid_and_the_pocket(seed):
    X, y = pl.make_noisy(60, d=2, flip=0.15, gamma=0.05, seed=seed)
    r = pl.erm_halfspace(X, y)
    assert r.errors <= grid_upper_bound(X, y)
    assert r.errors <= pl.pocket_perceptron(X, y, tau=50, shuffle=True, seed=seed).errors
    assert r.errors <= round(0.15 * 60)   # the generating separator gets only the flips wrong


@given(integer_data(max_n=7, max_d=2, lo=-2, hi=2))
def test_property_never_worse_than_any_perceptron_hypothesis(data):
    X, y = data
    r = pl.erm_halfspace(X, y)
    assert r.errors == pl.training_errors(X, y, r.theta, r.theta_0)
    assert r.errors <= min(np.sum(y > 0), np.sum(y < 0))       # a constant labelling
    assert r.errors <= pl.pocket_perceptron(X, y, tau=10).errors
    assert (r.errors == 0) == pl.is_linearly_separable(X, y)


@pytest.mark.parametrize("d", [2, 3, 5, 8])
def test_separable_data_have_zero_errors_like_the_perceptron(d):
    data = pl.make_separable(80, d=d, gamma=0.05, seed=d)
    r = pl.erm_halfspace(data.X, data.y)
    assert r.separable and r.errors == 0
    assert np.all(data.y * (data.X @ r.theta + r.theta_0) >= 1 - 1e-7)
    p = pl.perceptron(data.X, data.y, tau=10_000, method="loop")
    assert p.converged and pl.training_errors(data.X, data.y, p.theta, p.theta_0) == 0


def test_non_separable_in_three_dimensions_is_refused():
    X, y = pl.make_noisy(30, d=3, flip=0.2, seed=0)
    with pytest.raises(ValueError, match=r"NP-hard in general .*d <= 2 only"):
        pl.erm_halfspace(X, y)


@pytest.mark.parametrize("fn", [pl.erm_halfspace,
                                lambda X, y: pl.training_errors(X, y, [1.0], 0.0)])
@pytest.mark.parametrize("bad,match", [
    (([[1.0], [2.0]], [0, 1]), "labels must be -1 or \\+1"),
    (([1.0, 2.0], [1, -1]), "X must be 2-D"),
    (([[1.0], [np.inf]], [1, -1]), "X contains infinity"),
    ((np.empty((0, 1)), []), "X has no examples"),
    (([[1.0], [2.0]], [1, -1, 1]), "y has 3 labels but X has 2 rows"),
])
def test_bad_input(fn, bad, match):
    with pytest.raises(ValueError, match=match):
        fn(*bad)


def test_bad_theta():
    with pytest.raises(ValueError, match="theta has length 2 but the data have 1 features"):
        pl.training_errors([[1.0]], [1], [1.0, 2.0])
    with pytest.raises(ValueError, match="theta_0 must be finite"):
        pl.training_errors([[1.0]], [1], [1.0], np.nan)
