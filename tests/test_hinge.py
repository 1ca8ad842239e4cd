"""Chapter 7's hinge deficiency against a naive loop, the margin and scikit-learn."""

import math

import numpy as np
import pytest

import perceptron_lib as pl


def naive_deficiency(X, y, theta, theta_0, gamma):
    """d_i and D with lists: the lifted vector (theta, theta_0) normalised."""
    norm = math.sqrt(sum(t * t for t in theta) + theta_0 * theta_0)
    d = []
    for x, label in zip(X, y, strict=True):
        score = sum(t * v for t, v in zip(theta, x, strict=True)) + theta_0
        d.append(max(0.0, gamma - label * score / norm))
    return math.sqrt(sum(v * v for v in d)), d


def _cases():
    out = []
    for seed in range(20):
        rng = np.random.default_rng(seed)
        d = int(rng.integers(1, 5))
        if seed % 2:
            X, y = pl.make_noisy(30, d=d, flip=0.2, gamma=0.1, R=3.0, seed=seed)
        else:
            sep = pl.make_separable(30, d=d, gamma=0.2, R=3.0, theta_0=0.5, seed=seed)
            X, y = sep.X, sep.y
        theta, theta_0 = rng.standard_normal(d), float(rng.standard_normal())
        out.append((X, y, theta, theta_0, float(rng.uniform(0.01, 2.0))))
    return out


CASES = _cases()


@pytest.mark.parametrize("k", range(len(CASES)))
def test_against_the_naive_loop(k):
    X, y, theta, theta_0, gamma = CASES[k]
    D, d = pl.hinge_deficiency(X, y, theta, theta_0, gamma, per_example=True)
    nD, nd = naive_deficiency(X.tolist(), y.tolist(), theta.tolist(), theta_0, gamma)
    np.testing.assert_allclose(d, nd, rtol=1e-12, atol=1e-15)
    assert D == pytest.approx(nD, rel=1e-12)
    assert pl.hinge_deficiency(X, y, theta, theta_0, gamma) == D
    # only the direction of (theta, theta_0) matters
    assert pl.hinge_deficiency(X, y, 3.5 * theta, 3.5 * theta_0, gamma) == \
        pytest.approx(D, rel=1e-12)


@pytest.mark.parametrize("k", range(len(CASES)))
def test_against_scikit_learns_hinge_loss(k):
    from sklearn.metrics import hinge_loss

    # d_i = gamma * max(0, 1 - y_i s_i / gamma), s_i the lifted normalised score: the
    # mean of d_i is gamma times scikit-learn's hinge loss of the scores s / gamma
    X, y, theta, theta_0, gamma = CASES[k]
    _, d = pl.hinge_deficiency(X, y, theta, theta_0, gamma, per_example=True)
    s = (X @ theta + theta_0) / np.linalg.norm(np.append(theta, theta_0))
    assert d.mean() == pytest.approx(gamma * hinge_loss(y, s / gamma), rel=1e-12)


@pytest.mark.parametrize("seed", range(15))
def test_zero_exactly_when_the_lifted_margin_reaches_gamma(seed):
    sep = pl.make_separable(40, d=2, gamma=0.1, R=1.0, theta_0=0.3 * (seed % 3), seed=seed)
    u = np.append(sep.theta, sep.theta_0)
    lifted = pl.margin(pl.add_offset_feature(sep.X), sep.y, u)  # margin of (x, 1) w.r.t. u
    assert pl.hinge_deficiency(sep.X, sep.y, sep.theta, sep.theta_0, 0.999 * lifted) == 0.0
    assert pl.hinge_deficiency(sep.X, sep.y, sep.theta, sep.theta_0, 1.001 * lifted) > 0.0
    # d_i exceeds gamma exactly for the points the separator gets wrong
    y = pl.flip_labels(sep.y, 0.2, seed=seed)
    _, d = pl.hinge_deficiency(sep.X, y, sep.theta, sep.theta_0, 0.05, per_example=True)
    wrong = y * (sep.X @ sep.theta + sep.theta_0) < 0
    np.testing.assert_array_equal(d > 0.05, wrong)


def test_through_the_origin_it_uses_the_point_margins():
    X, y = pl.make_noisy(25, d=3, flip=0.2, seed=3)
    theta = np.array([1.0, -2.0, 0.5])
    _, d = pl.hinge_deficiency(X, y, theta, 0.0, 0.3, per_example=True)
    np.testing.assert_allclose(d, np.maximum(0, 0.3 - pl.point_margins(X, y, theta)),
                               rtol=1e-13, atol=1e-15)


def test_hand_computed():
    # u = (0.6, 0.8) (no offset), gamma = 1: scores 1.4, 0.6, -0.2 (label -1: +0.2)
    X = [[1.0, 1.0], [1.0, 0.0], [-1.0, 0.5]]
    D, d = pl.hinge_deficiency(X, [1, 1, -1], [3.0, 4.0], 0.0, 1.0, per_example=True)
    np.testing.assert_allclose(d, [0.0, 0.4, 0.8])
    assert D == pytest.approx(math.sqrt(0.8))
    # with an offset: lifted (0, 3, 4) / 5, lifted x = (7, 0, 1): score 0.8
    assert pl.hinge_deficiency([[7.0, 0.0]], [1], [0.0, 3.0], 4.0, 1.0) == pytest.approx(0.2)


@pytest.mark.parametrize(("args", "exc", "match"), [
    (([[1.0]], [1], [0.0], 0.0, 1.0), ValueError, "all zero"),
    (([[1.0]], [1], [1.0], 0.0, 0.0), ValueError, "gamma must be positive"),
    (([[1.0]], [1], [1.0], 0.0, -1.0), ValueError, "gamma must be positive"),
    (([[1.0]], [1], [1.0], 0.0, float("nan")), ValueError, "gamma must be finite"),
    (([[1.0]], [1], [1.0, 2.0], 0.0, 1.0), ValueError, "length 2"),
    (([[1.0]], [2], [1.0], 0.0, 1.0), ValueError, "labels must be -1 or \\+1"),
    (([[np.nan]], [1], [1.0], 0.0, 1.0), ValueError, "NaN"),
    ((np.zeros((0, 1)), [], [1.0], 0.0, 1.0), ValueError, "no examples"),
    (([[1.0]], [1], [1.0], np.inf, 1.0), ValueError, "theta_0 must be finite"),
])
def test_bad_input_is_named(args, exc, match):
    with pytest.raises(exc, match=match):
        pl.hinge_deficiency(*args)
