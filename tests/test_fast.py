"""The compiled fast path gives bit-for-bit the loop's result; scikit-learn agrees too."""

import warnings

import numpy as np
import pytest
from hypothesis import given
from strategies import gaussian_data, integer_data

import perceptron_lib as pl
from perceptron_lib import _fast


def assert_same(a, b):
    np.testing.assert_array_equal(a.theta, b.theta)
    assert a.theta.dtype == b.theta.dtype == np.float64
    assert a.theta_0 == b.theta_0
    assert (a.mistakes, a.epochs, a.converged) == (b.mistakes, b.epochs, b.converged)


@given(integer_data(max_n=20))
def test_fast_equals_loop_on_integer_data_with_ties(data):
    X, y = data
    for fn in (pl.perceptron, pl.perceptron_through_origin):
        assert_same(fn(X, y, tau=15, method="fast"), fn(X, y, tau=15, method="loop"))


@given(gaussian_data())
def test_fast_equals_loop_on_real_data(data):
    X, y = data
    for fn in (pl.perceptron, pl.perceptron_through_origin):
        assert_same(fn(X, y, tau=10, method="fast"), fn(X, y, tau=10, method="loop"))


def test_fast_equals_loop_with_shuffling():
    X, y = pl.make_noisy(300, 5, seed=4)
    a = pl.perceptron(X, y, tau=8, shuffle=True, seed=9, method="fast")
    b = pl.perceptron(X, y, tau=8, shuffle=True, seed=9, method="loop")
    assert_same(a, b)


def test_every_near_tie_goes_back_to_the_loop(monkeypatch):
    # With an absurd error bound every score is "too close to call" and decided in
    # Python: the result must still be the loop's.
    monkeypatch.setattr(_fast, "_error_bound", lambda d: 1e300)
    X, y = pl.make_noisy(200, 3, seed=1)
    assert_same(pl.perceptron(X, y, tau=5, method="fast"),
                pl.perceptron(X, y, tau=5, method="loop"))
    ex = pl.offset_example()
    assert_same(pl.perceptron(ex.X, ex.y, method="fast"), pl.perceptron(ex.X, ex.y))


def test_auto_uses_the_fast_path_for_large_inputs(monkeypatch):
    calls = []
    real = _fast.fast_perceptron
    monkeypatch.setattr(_fast, "fast_perceptron", lambda *a: calls.append(1) or real(*a))
    X, y = pl.make_noisy(5000, 4, seed=2)
    pl.perceptron(X, y, tau=10)
    assert calls
    calls.clear()
    pl.perceptron(X[:10], y[:10], tau=10)
    pl.perceptron(X, y, tau=10, trace=True)
    assert not calls


def _sklearn(X, y, epochs, fit_intercept=True):
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    clf = Perceptron(penalty=None, eta0=1.0, fit_intercept=fit_intercept, shuffle=False,
                     tol=None, max_iter=epochs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf.fit(X, y)
    return clf.coef_[0], float(clf.intercept_[0]) if fit_intercept else 0.0


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("n,d", [(50, 2), (400, 7), (2000, 30)])
def test_bit_for_bit_with_scikit_learn(seed, n, d):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X @ rng.standard_normal(d) + 0.3 * rng.standard_normal(n) > 0, 1.0, -1.0)
    if len(np.unique(y)) < 2:
        y[0] = -y[0]
    for fn, intercept in ((pl.perceptron, True), (pl.perceptron_through_origin, False)):
        for method in ("loop", "fast"):
            r = fn(X, y, tau=12, method=method)
            coef, b = _sklearn(X, y, r.epochs, fit_intercept=intercept)
            np.testing.assert_array_equal(r.theta, coef)
            assert r.theta_0 == b


def test_bit_for_bit_with_scikit_learn_on_separable_data():
    data = pl.make_separable(500, 3, gamma=0.05, theta_0=0.3, seed=11)
    r = pl.perceptron(data.X, data.y, tau=1000)
    assert r.converged
    coef, b = _sklearn(data.X, data.y, r.epochs)
    np.testing.assert_array_equal(r.theta, coef)
    assert r.theta_0 == b
