"""Gallant's pocket algorithm with ratchet (chapter 7): perceptron_lib.pocket."""

import numpy as np
import pytest
from hypothesis import given
from naive import naive_pocket
from strategies import gaussian_data, integer_data

import perceptron_lib as pl


@given(integer_data())
def test_matches_the_naive_pocket_on_exact_data(data):
    X, y = data
    for offset in (True, False):
        r = pl.pocket_perceptron(X, y, tau=7, offset=offset)
        theta, theta_0, errors, last, hist, last_hist = naive_pocket(
            X.tolist(), y.tolist(), 7, offset)
        assert r.theta.tolist() == theta and r.theta_0 == theta_0
        assert (r.errors, r.last_errors) == (errors, last)
        assert list(r.error_history) == hist and list(r.last_error_history) == last_hist


@given(gaussian_data())
def test_the_promises(data):
    X, y = data
    r = pl.pocket_perceptron(X, y, tau=5, shuffle=True, seed=1)
    hist, last = np.array(r.error_history), np.array(r.last_error_history)
    assert hist.size == r.mistakes + 1 == last.size
    assert hist[0] == len(y)                      # theta = 0 gets everything wrong
    assert np.all(np.diff(hist) <= 0)             # never worse
    assert np.all(hist <= last)                   # never worse than the perceptron, ever
    assert r.errors == pl.training_errors(X, y, r.theta, r.theta_0) == hist[-1]
    assert r.last_errors == pl.training_errors(X, y, r.last_theta, r.last_theta_0)
    assert r.errors <= r.last_errors


@pytest.mark.parametrize("shuffle", [False, True])
def test_the_last_hypothesis_is_the_perceptrons(shuffle):
    X, y = pl.make_noisy(60, d=3, flip=0.15, seed=2)
    r = pl.pocket_perceptron(X, y, tau=12, shuffle=shuffle, seed=5)
    p = pl.perceptron(X, y, tau=12, shuffle=shuffle, seed=5, method="loop")
    assert np.array_equal(r.last_theta, p.theta) and r.last_theta_0 == p.theta_0
    assert (r.mistakes, r.epochs, r.converged) == (p.mistakes, p.epochs, p.converged)
    q = pl.pocket_perceptron(X, y, tau=12, offset=False, shuffle=shuffle, seed=5)
    p = pl.perceptron_through_origin(X, y, tau=12, shuffle=shuffle, seed=5, method="loop")
    assert np.array_equal(q.last_theta, p.theta) and q.theta_0 == 0.0 == q.last_theta_0


@pytest.mark.parametrize("seed", range(5))
def test_separable_data_end_with_zero_errors(seed):
    data = pl.make_separable(50, d=3, gamma=0.1, seed=seed)
    r = pl.pocket_perceptron(data.X, data.y, tau=1000)
    assert r.converged and r.errors == 0 == r.last_errors
    assert np.array_equal(r.theta, r.last_theta) and r.theta_0 == r.last_theta_0
    # the pocket reached zero at the very update at which the perceptron did
    assert r.error_history.index(0) == r.last_error_history.index(0)


def test_the_pocket_beats_the_last_hypothesis_on_noisy_data_and_erm_beats_both():
    X, y = pl.make_noisy(40, d=2, flip=0.1, gamma=0.1, R=1, seed=4)
    r = pl.pocket_perceptron(X, y, tau=100, shuffle=True, seed=0)
    best = pl.erm_halfspace(X, y).errors
    assert best <= r.errors <= r.last_errors
    assert not r.converged


def test_worked_example():
    r = pl.pocket_perceptron([[1.0], [2.0], [3.0], [4.0]], [1, 1, -1, 1], tau=20)
    assert (r.errors, r.last_errors, r.mistakes, r.epochs) == (1, 2, 39, 20)


@pytest.mark.parametrize("bad,match", [
    (([[1.0], [2.0]], [0, 1]), "labels must be -1 or \\+1"),
    (([1.0, 2.0], [1, -1]), "X must be 2-D"),
    (([[1.0], [np.nan]], [1, -1]), "X contains NaN"),
    ((np.empty((0, 2)), []), "X has no examples"),
    (([[1.0], [2.0]], [1]), "y has 1 labels but X has 2 rows"),
])
def test_bad_input(bad, match):
    with pytest.raises(ValueError, match=match):
        pl.pocket_perceptron(*bad)


def test_bad_tau():
    with pytest.raises(ValueError, match="tau must be a positive integer"):
        pl.pocket_perceptron([[1.0]], [1], tau=0)
    with pytest.raises(TypeError, match="tau must be a positive integer"):
        pl.pocket_perceptron([[1.0]], [1], tau=2.5)
