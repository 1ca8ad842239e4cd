"""Generated data: separable with exact margin and radius, XOR, label noise."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import perceptron_lib as pl


@given(
    seed=st.integers(0, 2**31),
    n=st.integers(2, 300),
    d=st.integers(1, 10),
    gamma=st.floats(0.001, 0.9),
    R=st.floats(0.5, 50.0),
    offset=st.floats(-0.9, 0.9),
)
def test_separable_data_have_the_requested_margin_and_radius(seed, n, d, gamma, R, offset):
    gamma = gamma * R
    theta_0 = offset * (R - gamma)
    data = pl.make_separable(n, d, gamma=gamma, R=R, theta_0=theta_0, seed=seed)
    assert data.X.shape == (n, d) and data.y.shape == (n,)
    assert set(np.unique(data.y)) == {-1.0, 1.0}
    assert np.linalg.norm(data.theta) == pytest.approx(1.0, rel=1e-15)
    # the reported values are the true ones for the returned separator ...
    assert data.gamma == pl.margin(data.X, data.y, data.theta, data.theta_0)
    assert data.R == pl.radius(data.X)
    # ... and they are the requested ones, to rounding
    assert data.gamma == pytest.approx(gamma, rel=1e-12, abs=1e-12 * R)
    assert data.R == pytest.approx(R, rel=1e-12)
    assert data.theta_0 == theta_0


def test_separable_data_are_reproducible():
    a = pl.make_separable(50, 3, seed=1)
    b = pl.make_separable(50, 3, seed=1)
    np.testing.assert_array_equal(a.X, b.X)
    assert not np.array_equal(a.X, pl.make_separable(50, 3, seed=2).X)


def test_separable_data_reject_impossible_requests():
    with pytest.raises(ValueError, match="R must exceed gamma"):
        pl.make_separable(10, gamma=2.0, R=1.0)
    with pytest.raises(ValueError, match="gamma must be positive"):
        pl.make_separable(10, gamma=0.0)
    with pytest.raises(ValueError, match="theta_0"):
        pl.make_separable(10, gamma=0.1, R=1.0, theta_0=0.95)
    with pytest.raises(ValueError, match="n must be at least 2"):
        pl.make_separable(1)
    with pytest.raises(TypeError, match="d must be an integer"):
        pl.make_separable(10, d=2.5)


def test_xor_is_not_linearly_separable():
    X, y = pl.make_xor(20, seed=0)
    assert X.shape == (80, 2)
    r = pl.perceptron(X, y, tau=200)
    assert not r.converged
    # no line through the centres can do better than 3 of 4 clusters
    centres, labels = np.array([[1, 1], [-1, -1], [1, -1], [-1, 1.0]]), np.array([1, 1, -1, -1.0])
    rng = np.random.default_rng(0)
    for _ in range(500):
        theta, theta_0 = rng.standard_normal(2), rng.standard_normal()
        assert np.any(pl.predict(centres, theta, theta_0) != labels)


def test_flip_labels_flips_exactly_the_fraction():
    y = np.ones(200)
    flipped = pl.flip_labels(y, 0.1, seed=3)
    assert np.sum(flipped != y) == 20
    np.testing.assert_array_equal(y, np.ones(200))
    with pytest.raises(ValueError, match=r"fraction must lie in \[0, 1\]"):
        pl.flip_labels(y, 1.5)


def test_noisy_data_are_not_separated():
    X, y = pl.make_noisy(500, 3, flip=0.1, seed=0)
    assert not pl.perceptron(X, y, tau=30).converged
