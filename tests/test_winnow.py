"""Winnow on sparse disjunctions, against the perceptron (chapter 6): perceptron_lib.winnow."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from naive import naive_winnow

import perceptron_lib as pl


@given(st.integers(0, 2**32 - 1), st.sampled_from(["winnow1", "winnow2"]),
       st.sampled_from([2.0, 4.0]), st.sampled_from([None, 1.0, 2.5]))
def test_matches_the_naive_winnow(seed, variant, alpha, threshold):
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(1, 25)), int(rng.integers(1, 9))
    X = (rng.random((n, d)) < 0.4).astype(float)
    y = rng.choice([-1.0, 1.0], size=n)
    r = pl.winnow(X, y, alpha=alpha, threshold=threshold, variant=variant, tau=3)
    th = float(d) if threshold is None else threshold
    w, mistakes, history = naive_winnow(X.tolist(), y.tolist(), alpha, th, variant, 3)
    assert r.weights.tolist() == w and r.mistakes == mistakes
    assert r.history.tolist() == history and r.threshold == th
    assert r.promotions + r.demotions == r.mistakes


def test_sparse_disjunction():
    X, y, rel = pl.sparse_disjunction(4000, 30, 3, seed=5)
    assert X.shape == (4000, 30) and set(np.unique(X)) <= {0.0, 1.0}
    assert rel.tolist() == sorted(set(rel.tolist())) and len(rel) == 3
    assert np.array_equal(y, np.where(X[:, rel].sum(axis=1) > 0, 1.0, -1.0))
    assert abs(np.mean(y > 0) - 0.5) < 0.03                  # (1 - p)^k = 1/2
    assert abs(X.mean() - (1 - 2 ** (-1 / 3))) < 0.01
    again = pl.sparse_disjunction(4000, 30, 3, seed=5)
    assert np.array_equal(again[0], X) and np.array_equal(again[2], rel)


@pytest.mark.parametrize("variant", ["winnow1", "winnow2"])
@pytest.mark.parametrize("seed", range(6))
def test_mistakes_stay_under_the_bound_in_any_number_of_passes(variant, seed):
    rng = np.random.default_rng(seed)
    d, k = int(rng.integers(5, 400)), int(rng.integers(1, 5))
    X, y, rel = pl.sparse_disjunction(300, d, k, seed=seed)
    alpha = [2.0, 1.5, 3.0][seed % 3]
    for threshold in (None, d / 2):
        r = pl.winnow(X, y, alpha=alpha, threshold=threshold, variant=variant, tau=20)
        bound = pl.winnow_mistake_bound(k, d, alpha=alpha, threshold=threshold,
                                        variant=variant)
        assert r.mistakes <= bound
        assert np.all(r.weights[rel] >= 1.0)   # relevant weights are never demoted
        if r.converged:
            assert np.array_equal(pl.winnow_predict(r.weights, X, r.threshold), y)


def test_bound_formulas():
    assert pl.winnow_mistake_bound(5, 1024) == 3 * 5 * (10 + 1) + 2
    assert pl.winnow_mistake_bound(5, 1024, variant="winnow1") == 2 * 5 * 11 + 1
    assert pl.winnow_mistake_bound(2, 81, alpha=3.0, threshold=9.0) == pytest.approx(
        4 * 2 * 3 + 3 * 81 / (2 * 9))
    assert pl.winnow_mistake_bound(3, 100, variant="winnow1") == pytest.approx(
        2 * 3 * (math.log2(100) + 1) + 1)


def test_winnow_predict_against_loops():
    rng = np.random.default_rng(0)
    w, X = rng.random(6) * 3, (rng.random((20, 6)) < 0.5).astype(float)
    expected = [1 if sum(wj * xj for wj, xj in zip(w, x, strict=True)) > 2.0 else -1
                for x in X]
    assert pl.winnow_predict(w, X, 2.0).tolist() == expected


def test_winnow_against_the_perceptron():
    table = pl.winnow_vs_perceptron(1000, [50, 500, 5000], 4, seed=0)
    assert [row.d for row in table] == [50, 500, 5000]
    for row in table:
        assert row.winnow2 <= row.winnow2_bound and row.winnow1 <= row.winnow1_bound
        assert row.perceptron <= row.perceptron_bound
    w2 = [row.winnow2 for row in table]
    p = [row.perceptron for row in table]
    assert p[0] < p[1] < p[2] and w2[2] < p[2] / 4
    # Winnow: each tenfold d adds about the same number of mistakes (log d);
    # the perceptron's grow far faster
    assert w2[2] - w2[1] < 2 * (w2[1] - w2[0]) + 10
    assert p[2] - p[1] > 3 * (w2[2] - w2[1])


def test_bad_input():
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1, -1])
    with pytest.raises(ValueError, match=r"only 0 and 1, found 0\.5 at index \(1, 0\)"):
        pl.winnow([[1.0, 0.0], [0.5, 1.0]], y)
    with pytest.raises(ValueError, match="labels must be -1 or \\+1"):
        pl.winnow(X, [0, 1])
    with pytest.raises(ValueError, match="X contains NaN"):
        pl.winnow([[np.nan, 0.0], [0.0, 1.0]], y)
    with pytest.raises(ValueError, match="X has no examples"):
        pl.winnow(np.empty((0, 2)), [])
    with pytest.raises(ValueError, match="alpha must be greater than 1"):
        pl.winnow(X, y, alpha=1.0)
    with pytest.raises(ValueError, match="threshold must be positive"):
        pl.winnow(X, y, threshold=0)
    with pytest.raises(ValueError, match="variant must be 'winnow1' or 'winnow2'"):
        pl.winnow(X, y, variant="winnow3")
    with pytest.raises(ValueError, match="tau must be a positive integer"):
        pl.winnow(X, y, tau=0)
    with pytest.raises(ValueError, match="k = 5 relevant variables cannot"):
        pl.sparse_disjunction(10, 4, 5)
    with pytest.raises(ValueError, match="threshold >= 1"):
        pl.winnow_mistake_bound(1, 4, threshold=0.5)
    with pytest.raises(ValueError, match="w has length 3 but the data have 2 features"):
        pl.winnow_predict([1.0, 1.0, 1.0], X, 1.0)
    with pytest.raises(ValueError, match="each d must be at least 3"):
        pl.winnow_vs_perceptron(10, [2, 5], 3)
