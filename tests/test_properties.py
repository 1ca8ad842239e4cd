"""Properties the book states: the mistake bound holds, units do not matter."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from strategies import gaussian_data, integer_data

import perceptron_lib as pl


@given(
    seed=st.integers(0, 10_000),
    n=st.integers(2, 200),
    d=st.integers(1, 8),
    gamma=st.sampled_from([0.02, 0.05, 0.1, 0.3]),
    R=st.sampled_from([1.0, 2.5, 10.0]),
)
def test_mistakes_never_exceed_the_bound(seed, n, d, gamma, R):
    gamma = gamma * R
    data = pl.make_separable(n, d, gamma=gamma, R=R, seed=seed)
    bound = pl.mistake_bound(data.R, data.gamma)
    r = pl.perceptron_through_origin(data.X, data.y, tau=int(bound) + 2)
    assert r.converged
    assert r.mistakes <= bound


def test_the_bound_is_attained_in_one_dimension():
    # One point at distance R = gamma: exactly one mistake, bound (R/gamma)^2 = 1.
    r = pl.perceptron_through_origin([[2.0]], [1.0])
    assert r.mistakes == 1 == pl.mistake_bound(pl.radius([[2.0]]), 2.0)


@given(integer_data(), st.sampled_from([0.125, 0.5, 2.0, 1024.0]))
def test_scaling_x_by_a_power_of_two_changes_no_decision(data, c):
    X, y = data
    a = pl.perceptron_through_origin(X, y, tau=20)
    b = pl.perceptron_through_origin(c * X, y, tau=20)
    assert (a.mistakes, a.epochs, a.converged) == (b.mistakes, b.epochs, b.converged)
    np.testing.assert_array_equal(c * a.theta, b.theta)


@given(gaussian_data(), st.floats(0.01, 100.0))
def test_scaling_x_leaves_the_mistakes_unchanged(data, c):
    X, y = data
    a = pl.perceptron_through_origin(X, y, tau=10)
    b = pl.perceptron_through_origin(c * X, y, tau=10)
    assert (a.mistakes, a.epochs, a.converged) == (b.mistakes, b.epochs, b.converged)
    np.testing.assert_allclose(c * a.theta, b.theta, rtol=1e-9, atol=1e-9 * c * np.abs(X).max())


def test_units_do_not_change_the_bound():
    data = pl.make_separable(100, 3, gamma=0.1, R=1.0, seed=5)
    X2 = 1000.0 * data.X
    scaled = pl.mistake_bound(pl.radius(X2), pl.margin(X2, data.y, data.theta))
    assert np.isclose(scaled, pl.mistake_bound(data.R, data.gamma), rtol=1e-12)
    assert np.isclose(scaled, 100.0, rtol=1e-9)
