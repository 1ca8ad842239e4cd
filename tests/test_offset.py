"""The offset as a lifted coordinate (chapter 2)."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import integer_data

import perceptron_lib as pl


def test_add_offset_feature():
    X = np.array([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(pl.add_offset_feature(X), [[1, 2, 1], [3, 4, 1]])
    np.testing.assert_array_equal(pl.add_offset_feature(X, -1), [[1, 2, -1], [3, 4, -1]])
    with pytest.raises(ValueError, match="non-zero"):
        pl.add_offset_feature(X, 0.0)


def test_offset_example_needs_the_offset():
    ex = pl.offset_example()
    # separable with theta = -1, theta_0 = 2.5
    assert pl.margin(ex.X, ex.y, ex.theta, ex.theta_0) > 0
    # ... but no threshold through the origin works: theta.x has one sign on x > 0
    for theta in np.linspace(-5, 5, 101):
        assert np.any(pl.predict(ex.X, [theta]) != ex.y)
    # lifted, theta_new = [-1, 2.5] separates through the origin
    lifted = pl.add_offset_feature(ex.X)
    np.testing.assert_array_equal(pl.predict(lifted, ex.extra["theta_lifted"]), ex.y)
    assert pl.margin(lifted, ex.y, ex.extra["theta_lifted"]) > 0
    r = pl.perceptron_through_origin(lifted, ex.y, tau=100)
    assert r.converged


@given(integer_data(), st.sampled_from(["loop", "fast"]))
def test_perceptron_on_d_makes_the_updates_of_through_origin_on_lifted_d(data, method):
    X, y = data
    a = pl.perceptron(X, y, tau=25, trace=method == "loop", method=method)
    b = pl.perceptron_through_origin(pl.add_offset_feature(X), y, tau=25,
                                     trace=method == "loop", method=method)
    np.testing.assert_array_equal(np.append(a.theta, a.theta_0), b.theta)
    assert (a.mistakes, a.epochs, a.converged) == (b.mistakes, b.epochs, b.converged)
    if method == "loop":
        assert [(u.epoch, u.index) for u in a.history] == [
            (u.epoch, u.index) for u in b.history
        ]


def test_the_scale_of_the_lifted_coordinate_changes_the_run():
    ex = pl.offset_example()
    counts = {
        v: pl.perceptron_through_origin(pl.add_offset_feature(ex.X, v), ex.y, tau=1000).mistakes
        for v in (0.25, 1.0, 4.0)
    }
    assert counts[1.0] == pl.perceptron(ex.X, ex.y, tau=1000).mistakes
    assert len(set(counts.values())) > 1


def test_through_origin_never_moves_the_offset():
    X, y = pl.make_noisy(50, 3, seed=0)
    for method in ("loop", "fast"):
        assert pl.perceptron_through_origin(X, y, tau=5, method=method).theta_0 == 0.0


def test_lifting_keeps_the_order_of_columns():
    X = np.arange(12.0).reshape(4, 3)
    lifted = pl.add_offset_feature(X, 2.0)
    for i, j in itertools.product(range(4), range(3)):
        assert lifted[i, j] == X[i, j]
    assert np.all(lifted[:, 3] == 2.0)
