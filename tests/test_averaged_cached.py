"""The averaged perceptron's three accumulations (chapters 6 and 7) against brute force.

The reference adds theta after every visit and sums with math.fsum (exactly rounded).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from naive import naive_averaged
from strategies import gaussian_data, integer_data

import perceptron_lib as pl


def _cases():
    out = []
    for seed in range(30):
        rng = np.random.default_rng(seed)
        n, d = int(rng.integers(3, 120)), int(rng.integers(1, 6))
        scale = float(rng.choice([1e-3, 1.0, 50.0]))
        X, y = pl.make_noisy(n, d=d, flip=float(rng.uniform(0, 0.3)), gamma=0.05 * scale,
                             R=scale, seed=seed)
        out.append((X, y, int(rng.integers(1, 40))))
    for seed in range(5):
        sep = pl.make_separable(50, d=3, gamma=0.02, R=1.0, theta_0=0.5, seed=seed)
        out.append((sep.X, sep.y, 500))
    out.append((*pl.make_xor(5, seed=3), 60))
    return out


CASES = _cases()


@pytest.mark.parametrize("k", range(len(CASES)))
@pytest.mark.parametrize("offset", [True, False])
@pytest.mark.parametrize("method", ["running", "lazy"])
def test_the_average_equals_the_running_average(k, offset, method):
    X, y, tau = CASES[k]
    r = pl.averaged_perceptron(X, y, tau=tau, offset=offset, method=method)
    theta, theta_0 = naive_averaged(X.tolist(), y.tolist(), tau, offset)
    np.testing.assert_allclose(r.theta, theta, rtol=1e-12, atol=0)
    assert r.theta_0 == pytest.approx(theta_0, rel=1e-12, abs=1e-300)
    plain = (pl.perceptron if offset else pl.perceptron_through_origin)(X, y, tau=tau)
    np.testing.assert_array_equal(r.last_theta, plain.theta)
    assert (r.mistakes, r.epochs, r.converged) == (plain.mistakes, plain.epochs, plain.converged)


@pytest.mark.parametrize("k", range(len(CASES)))
@pytest.mark.parametrize("offset", [True, False])
def test_daumes_cached_counter_equals_the_running_average(k, offset):
    X, y, tau = CASES[k]
    r = pl.averaged_perceptron(X, y, tau=tau, offset=offset, method="cached")
    lazy = pl.averaged_perceptron(X, y, tau=tau, offset=offset, method="lazy")
    theta, theta_0 = naive_averaged(X.tolist(), y.tolist(), tau, offset)
    # the subtraction (V + 1) theta - U cancels digits: 1e-12 of the largest coordinate
    scale = np.abs(theta).max()
    np.testing.assert_allclose(r.theta, theta, rtol=1e-12, atol=1e-12 * scale)
    assert r.theta_0 == pytest.approx(theta_0, rel=1e-12, abs=1e-12 * max(1.0, abs(theta_0)))
    np.testing.assert_array_equal(r.last_theta, lazy.last_theta)
    assert (r.mistakes, r.epochs, r.converged) == (lazy.mistakes, lazy.epochs, lazy.converged)


def test_unknown_method():
    with pytest.raises(ValueError, match="method must be 'running', 'lazy' or 'cached'"):
        pl.averaged_perceptron([[1.0]], [1], method="naive")


@settings(max_examples=120, deadline=None)
@given(integer_data())
def test_exact_on_integer_data(data):
    # integer data: every sum is an integer below 2**53, so both averages are one
    # correctly rounded division of the same integer, and agree exactly
    X, y = data
    for offset in (True, False):
        theta, theta_0 = naive_averaged(X.tolist(), y.tolist(), 9, offset)
        for method in ("running", "lazy", "cached"):
            r = pl.averaged_perceptron(X, y, tau=9, offset=offset, method=method)
            np.testing.assert_array_equal(r.theta, theta)
            assert r.theta_0 == theta_0


@settings(max_examples=60, deadline=None)
@given(gaussian_data())
def test_shuffled_runs_average_their_own_visits(data):
    X, y = data
    r = pl.averaged_perceptron(X, y, tau=6, shuffle=True, seed=11, method="lazy")
    # the same visits, replayed in the order the library drew them
    rng = np.random.default_rng(11)
    theta, theta_0 = np.zeros(X.shape[1]), 0.0
    seen, seen_0 = [], []
    for _ in range(6):
        clean = True
        for i in rng.permutation(X.shape[0]):
            if y[i] * (theta @ X[i] + theta_0) <= 0:
                theta, theta_0, clean = theta + y[i] * X[i], theta_0 + y[i], False
            seen.append(theta)
            seen_0.append(theta_0)
        if clean:
            break
    np.testing.assert_allclose(r.theta, np.mean(seen, axis=0), rtol=1e-12, atol=1e-300)
    assert r.theta_0 == pytest.approx(np.mean(seen_0), rel=1e-12, abs=1e-300)
    np.testing.assert_array_equal(r.last_theta, theta)
