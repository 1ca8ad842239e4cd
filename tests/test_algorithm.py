"""The perceptron loop, the single update and predict (chapters 1 and 2)."""

import numpy as np
import pytest
from hypothesis import given
from naive import naive_perceptron
from strategies import integer_data

import perceptron_lib as pl


def test_worked_update_from_the_notes():
    ex = pl.notes_example()
    theta, theta_0, updated = pl.update(ex.theta, ex.theta_0, ex.X[0], ex.y[0])
    assert updated
    np.testing.assert_array_equal(theta, [2.0, 2.0])
    assert theta_0 == 2.0
    # the new hypothesis now gets the negative point wrong, and only it
    wrong = pl.predict(ex.X, theta, theta_0) != ex.y
    np.testing.assert_array_equal(wrong, [False, False, True])
    # before the update only x(1) was wrong
    np.testing.assert_array_equal(pl.predict(ex.X, ex.theta, ex.theta_0) != ex.y,
                                  [True, False, False])


def test_update_leaves_a_correct_example_alone():
    theta, theta_0, updated = pl.update([2.0, 2.0], 2.0, [1.0, 3.0], 1)
    assert not updated
    np.testing.assert_array_equal(theta, [2.0, 2.0])
    assert theta_0 == 2.0


@pytest.mark.parametrize("label", [1, -1])
def test_a_point_on_the_boundary_is_a_mistake_for_either_label(label):
    theta, theta_0, updated = pl.update([1.0, -1.0], 0.0, [2.0, 2.0], label)
    assert updated
    np.testing.assert_array_equal(theta, np.array([1.0, -1.0]) + label * np.array([2.0, 2.0]))
    assert theta_0 == label


def test_update_raises_the_score_by_the_squared_norm():
    # y theta'.x = y theta.x + ||x||^2 (offset adds y^2 = 1)
    theta, x, y = np.array([0.5, -2.0, 1.0]), np.array([1.0, 2.0, -0.5]), 1.0
    new, new0, _ = pl.update(theta, 0.0, x, y)
    assert y * (new @ x) == pytest.approx(y * (theta @ x) + x @ x)
    assert new0 == 1.0


def test_predict_uses_strictly_positive_for_plus_one():
    X = np.array([[1.0, 1.0], [-1.0, 1.0], [0.0, 0.0]])
    np.testing.assert_array_equal(pl.predict(X, [1.0, 0.0]), [1, -1, -1])
    np.testing.assert_array_equal(pl.predict(X, [1.0, 0.0], 0.5), [1, -1, 1])


def test_offset_example_run():
    ex = pl.offset_example()
    r = pl.perceptron(ex.X, ex.y, tau=100)
    assert r.converged
    np.testing.assert_array_equal(pl.predict(ex.X, r.theta, r.theta_0), ex.y)
    ref = naive_perceptron(ex.X.tolist(), ex.y.tolist(), 100)
    assert (list(r.theta), r.theta_0, r.mistakes, r.epochs) == (ref[0], ref[1], ref[2], ref[3])


def test_through_origin_cannot_separate_the_offset_example():
    ex = pl.offset_example()
    r = pl.perceptron_through_origin(ex.X, ex.y, tau=50)
    assert not r.converged
    assert r.epochs == 50
    assert r.theta_0 == 0.0


def test_epochs_count_the_final_clean_pass():
    # one point: the first visit is a mistake, the second epoch is clean
    r = pl.perceptron([[1.0, 0.0]], [1], tau=10)
    assert (r.mistakes, r.epochs, r.converged) == (1, 2, True)
    # tau=1 stops before it can see the clean pass
    r = pl.perceptron([[1.0, 0.0]], [1], tau=1)
    assert (r.mistakes, r.epochs, r.converged) == (1, 1, False)


def test_tau_caps_the_epochs_on_xor():
    X, y = pl.make_xor(5, spread=0.1, seed=0)
    r = pl.perceptron(X, y, tau=7)
    assert not r.converged and r.epochs == 7
    assert r.mistakes >= 7  # at least one mistake in every epoch


def test_trace_records_every_update():
    ex = pl.offset_example()
    r = pl.perceptron(ex.X, ex.y, tau=100, trace=True)
    assert len(r.history) == r.mistakes
    theta, theta_0 = np.zeros(1), 0.0
    for u in r.history:
        x, y = ex.X[u.index], ex.y[u.index]
        assert u.score == theta @ x + theta_0
        assert y * u.score <= 0
        theta, theta_0, updated = pl.update(theta, theta_0, x, y)
        assert updated
        np.testing.assert_array_equal(u.theta, theta)
        assert u.theta_0 == theta_0
    np.testing.assert_array_equal(theta, r.theta)
    assert [u.epoch for u in r.history] == sorted(u.epoch for u in r.history)
    assert pl.perceptron(ex.X, ex.y).history is None


def test_trace_matches_naive_updates():
    ex = pl.notes_example()
    r = pl.perceptron(ex.X, ex.y, tau=100, trace=True)
    ref = naive_perceptron(ex.X.tolist(), ex.y.tolist(), 100)
    assert [(u.epoch, u.index) for u in r.history] == ref[5]


def test_order_matters_and_shuffle_is_seeded():
    X = np.array([[1.0, 2.0], [2.0, -1.0], [-1.0, -1.5], [-2.0, 1.0], [0.5, 0.4]])
    y = np.array([1.0, 1.0, -1.0, -1.0, 1.0])
    a = pl.perceptron(X, y, shuffle=True, seed=3, trace=True)
    b = pl.perceptron(X, y, shuffle=True, seed=3, trace=True)
    assert [u.index for u in a.history] == [u.index for u in b.history]
    orders = {
        tuple(u.index for u in pl.perceptron(X, y, shuffle=True, seed=s, trace=True).history)
        for s in range(10)
    }
    assert len(orders) > 1
    plain = pl.perceptron(X, y, trace=True)
    assert plain.history[0].index == 0  # visits in the given order


def test_inputs_are_not_modified():
    X = np.array([[1.0, 3.0], [2.0, 1.0], [-1.0, 2.0]])
    y = np.array([1, 1, -1])
    theta = np.array([1.0, -1.0])
    Xc, yc, tc = X.copy(), y.copy(), theta.copy()
    pl.perceptron(X, y, trace=True)
    pl.perceptron_through_origin(X, y)
    pl.perceptron(X, y, method="fast")
    pl.update(theta, 1.0, X[0], 1)
    pl.predict(X, theta)
    pl.add_offset_feature(X)
    pl.point_margins(X, y, theta, 1.0)
    np.testing.assert_array_equal(X, Xc)
    np.testing.assert_array_equal(y, yc)
    np.testing.assert_array_equal(theta, tc)


def test_result_theta_is_a_fresh_array():
    ex = pl.offset_example()
    r = pl.perceptron(ex.X, ex.y)
    assert not np.shares_memory(r.theta, ex.X)
    assert "mistakes=25" in repr(r)


@given(integer_data())
def test_loop_matches_the_naive_reference(data):
    X, y = data
    for offset, fn in ((True, pl.perceptron), (False, pl.perceptron_through_origin)):
        r = fn(X, y, tau=20, trace=True, method="loop")
        theta, theta_0, mistakes, epochs, converged, updates = naive_perceptron(
            X.tolist(), y.tolist(), 20, offset=offset
        )
        assert list(r.theta) == theta
        assert r.theta_0 == theta_0
        assert (r.mistakes, r.epochs, r.converged) == (mistakes, epochs, converged)
        assert [(u.epoch, u.index) for u in r.history] == updates


@given(integer_data())
def test_a_converged_run_separates_the_data(data):
    X, y = data
    r = pl.perceptron(X, y, tau=50)
    if r.converged:
        assert np.all(y * (X @ r.theta + r.theta_0) > 0)
        np.testing.assert_array_equal(pl.predict(X, r.theta, r.theta_0), y)
    else:
        assert r.epochs == 50
