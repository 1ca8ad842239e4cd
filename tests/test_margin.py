"""Signed distance, margins, radius and the mistake bound (chapters 3 and 4)."""

import math

import numpy as np
import pytest
from hypothesis import given
from strategies import gaussian_data

import perceptron_lib as pl


def test_margins_of_the_notes_example():
    ex = pl.notes_example()
    m = pl.point_margins(ex.X, ex.y, ex.theta, ex.theta_0)
    np.testing.assert_allclose(m, [-math.sqrt(2) / 2, math.sqrt(2), math.sqrt(2)], rtol=1e-15)
    assert pl.margin(ex.X, ex.y, ex.theta, ex.theta_0) == pytest.approx(-math.sqrt(2) / 2)


def test_signed_distance_against_a_hand_computation():
    X = np.array([[3.0, 4.0], [0.0, 0.0], [-3.0, 0.0]])
    d = pl.signed_distance(X, [3.0, 4.0], -5.0)  # the line 3a + 4b = 5, ||theta|| = 5
    np.testing.assert_allclose(d, [(9 + 16 - 5) / 5, -1.0, (-9 - 5) / 5])


def test_signed_distance_is_a_distance():
    # The foot of the perpendicular lies on the line, at the reported distance.
    rng = np.random.default_rng(0)
    theta, theta_0 = rng.standard_normal(3), 0.7
    X = rng.standard_normal((20, 3))
    dist = pl.signed_distance(X, theta, theta_0)
    unit = theta / np.linalg.norm(theta)
    feet = X - dist[:, None] * unit
    np.testing.assert_allclose(feet @ theta + theta_0, 0.0, atol=1e-12)


@given(gaussian_data(max_n=20))
def test_margins_do_not_depend_on_the_scale_of_theta(data):
    X, y = data
    theta = np.arange(1.0, X.shape[1] + 1)
    a = pl.point_margins(X, y, theta, 0.5)
    b = pl.point_margins(X, y, 7.5 * theta, 7.5 * 0.5)
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12 * np.abs(X).max())
    assert pl.margin(X, y, theta, 0.5) == pytest.approx(a.min())


def test_margin_is_positive_exactly_when_all_points_are_right():
    ex = pl.offset_example()
    assert pl.margin(ex.X, ex.y, ex.theta, ex.theta_0) == pytest.approx(0.5)
    assert pl.margin(ex.X, ex.y, [1.0], -2.5) == pytest.approx(-1.5)


def test_radius_and_bound():
    assert pl.radius([[3.0, 4.0], [1.0, 0.0], [-6.0, 8.0]]) == 10.0
    assert pl.mistake_bound(10.0, 2.0) == 25.0
    assert pl.mistake_bound(0.0, 1.0) == 0.0


@pytest.mark.parametrize("gamma", [0.0, -1.0])
def test_bound_needs_a_positive_gamma(gamma):
    with pytest.raises(ValueError, match="gamma must be positive"):
        pl.mistake_bound(1.0, gamma)


def test_bound_rejects_negative_radius_and_non_numbers():
    with pytest.raises(ValueError, match="cannot be negative"):
        pl.mistake_bound(-1.0, 1.0)
    with pytest.raises(TypeError, match="gamma must be a real number"):
        pl.mistake_bound(1.0, "0.5")
    with pytest.raises(ValueError, match="gamma must be finite"):
        pl.mistake_bound(1.0, float("nan"))


def test_zero_theta_has_no_distance():
    with pytest.raises(ValueError, match="zero vector"):
        pl.signed_distance([[1.0, 2.0]], [0.0, 0.0])
