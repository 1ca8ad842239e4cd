"""The quantities of the convergence proof (chapter 4): perceptron_lib.convergence."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from naive import naive_perceptron

import perceptron_lib as pl
from perceptron_lib.convergence import (
    LemmaCheck,
    ProofTrace,
    check_lemmas,
    proof_quantities,
)

# Small integers: every sum the perceptron forms is exact, so the naive lists agree
# with the library to the last bit.
INTEGER_DATA = (
    np.array(
        [[-1.0, 5.0], [5.0, -2.0], [-2.0, -3.0], [4.0, 3.0], [4.0, -3.0], [-1.0, 3.0]]
    ),
    np.array([1.0, 1.0, -1.0, 1.0, -1.0, 1.0]),  # the side of the line x1 + 2 x2 = 0
)


def naive_quantities(X, y, theta_star, tau=100):
    """Recompute the proof's quantities from the update list of the naive perceptron."""
    *_, updates = naive_perceptron(X.tolist(), y.tolist(), tau, offset=False)
    d = X.shape[1]
    theta = [0.0] * d
    star_norm = math.sqrt(sum(v * v for v in theta_star))
    rows = [(list(theta), 0.0, 0.0)]
    for _t, i in updates:
        theta = [theta[j] + y[i] * X[i][j] for j in range(d)]
        align = sum(theta[j] * theta_star[j] for j in range(d)) / star_norm
        rows.append((list(theta), align, sum(v * v for v in theta)))
    return [i for _t, i in updates], rows


def test_quantities_match_a_naive_recomputation():
    X, y = INTEGER_DATA
    theta_star = [1.0, 2.0]
    r = pl.perceptron_through_origin(X, y, tau=100, trace=True)
    q = proof_quantities(r, theta_star)
    index, rows = naive_quantities(X, y, theta_star)
    assert isinstance(q, ProofTrace)
    assert r.mistakes == len(index) > 2
    np.testing.assert_array_equal(q.k, np.arange(len(rows)))
    np.testing.assert_array_equal(q.index, index)
    np.testing.assert_array_equal(q.theta, [row[0] for row in rows])
    np.testing.assert_array_equal(q.norm_sq, [row[2] for row in rows])
    np.testing.assert_allclose(q.alignment, [row[1] for row in rows], rtol=1e-15, atol=1e-15)
    norms = np.sqrt(q.norm_sq[1:])
    np.testing.assert_allclose(q.cos[1:], q.alignment[1:] / norms, rtol=1e-15)
    assert np.isnan(q.cos[0])
    np.testing.assert_array_equal(q.theta[-1], r.theta)


def test_only_the_direction_of_theta_star_matters():
    X, y = INTEGER_DATA
    r = pl.perceptron_through_origin(X, y, trace=True)
    a = proof_quantities(r, [1.0, 2.0])
    b = proof_quantities(r, [4.0, 8.0])
    np.testing.assert_allclose(a.alignment, b.alignment, rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(a.cos, b.cos, rtol=1e-14)


@given(
    seed=st.integers(0, 2**31),
    d=st.integers(1, 8),
    gamma=st.floats(0.02, 0.5),
    R=st.floats(0.1, 100.0),
)
def test_the_two_lemmas_hold_on_generated_data(seed, d, gamma, R):
    data = pl.make_separable(60, d, gamma=gamma * R, R=R, seed=seed)
    check = check_lemmas(data.X, data.y, data.theta)
    assert isinstance(check, LemmaCheck)
    assert check.result.converged
    assert check.gamma == pytest.approx(data.gamma, rel=1e-12)
    assert check.R == data.R
    k = check.trace.k
    assert np.all(check.trace.alignment >= k * check.gamma - 1e-9 * k * check.R)
    assert np.all(check.trace.norm_sq <= k * check.R**2 * (1 + 1e-9))
    assert check.lemma1_holds and check.lemma2_holds and check.bound_holds
    assert check.result.mistakes <= check.bound * (1 + 1e-9)
    # cos(theta^(k), theta*) >= sqrt(k) gamma / R, and a cosine is at most 1
    cos = check.trace.cos[1:]
    assert np.all(cos <= 1 + 1e-12)
    assert np.all(cos >= np.sqrt(k[1:]) * check.gamma / check.R * (1 - 1e-9))


def test_slack_arrays_are_the_differences():
    data = pl.make_separable(40, 3, gamma=0.1, seed=3)
    c = check_lemmas(data.X, data.y, data.theta)
    np.testing.assert_allclose(c.lemma1_slack, c.trace.alignment - c.trace.k * c.gamma)
    np.testing.assert_allclose(c.lemma2_slack, c.trace.k * c.R**2 - c.trace.norm_sq)
    assert c.bound == pl.mistake_bound(c.R, c.gamma)


def test_the_bound_is_attained_by_orthonormal_examples():
    # x^(i) = e_i, all labels +1: d mistakes, R = 1, gamma = 1/sqrt(d) for theta* = (1,...,1).
    d = 7
    c = check_lemmas(np.eye(d), np.ones(d), np.ones(d))
    assert c.result.mistakes == d
    assert c.bound == pytest.approx(d, rel=1e-12)
    np.testing.assert_allclose(c.trace.norm_sq, c.trace.k * 1.0)  # lemma 2 with equality


def test_lemma_two_needs_no_separability():
    X, y = pl.make_xor(5, seed=0)
    r = pl.perceptron_through_origin(X, y, tau=30, trace=True)
    assert not r.converged
    q = proof_quantities(r, [1.0, 0.0])
    assert np.all(q.norm_sq <= q.k * pl.radius(X) ** 2 * (1 + 1e-12))


def test_proof_quantities_rejects_bad_input():
    X, y = INTEGER_DATA
    untraced = pl.perceptron_through_origin(X, y)
    with pytest.raises(ValueError, match="trace=True"):
        proof_quantities(untraced, [1.0, 0.0])
    traced = pl.perceptron_through_origin(X, y, trace=True)
    with pytest.raises(TypeError, match="PerceptronResult"):
        proof_quantities((traced.theta, traced.theta_0), [1.0, 0.0])
    with pytest.raises(ValueError, match="theta_star has length 3"):
        proof_quantities(traced, [1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="zero vector"):
        proof_quantities(traced, [0.0, 0.0])
    with pytest.raises(ValueError, match="theta_star contains NaN"):
        proof_quantities(traced, [np.nan, 1.0])
    with_offset = pl.perceptron(X, y, trace=True)
    with pytest.raises(ValueError, match="add_offset_feature"):
        proof_quantities(with_offset, [1.0, 0.0])


def test_check_lemmas_rejects_a_non_separator():
    X, y = INTEGER_DATA
    with pytest.raises(ValueError, match="does not separate"):
        check_lemmas(X, y, [-1.0, 0.0])
    with pytest.raises(ValueError, match="labels must be -1 or \\+1"):
        check_lemmas(X, np.where(y > 0, 1, 0), [1.0, 2.0])
    with pytest.raises(ValueError, match="rtol must be non-negative"):
        check_lemmas(X, y, [1.0, 2.0], rtol=-1.0)


def test_inputs_are_not_modified():
    data = pl.make_separable(30, 2, gamma=0.1, seed=5)
    X, y, star = data.X.copy(), data.y.copy(), data.theta.copy()
    check_lemmas(X, y, star)
    np.testing.assert_array_equal(X, data.X)
    np.testing.assert_array_equal(y, data.y)
    np.testing.assert_array_equal(star, data.theta)
