"""Linear separability by a linear program and the maximum-margin separator (chapter 3)."""

import math

import numpy as np
import pytest
from sklearn.svm import SVC

import perceptron_lib as pl
from perceptron_lib.separability import MaxMarginResult, is_linearly_separable, max_margin


def svc_separator(X, y):
    """A hard-margin SVM from scikit-learn: unit normal, offset and margin 1 / ||w||."""
    # A huge C leaves no room for margin violations; the tight tol makes libsvm solve
    # its dual to about 1e-9 instead of its default 1e-3.
    svc = SVC(kernel="linear", C=1e10, tol=1e-12).fit(X, y)
    w, b = svc.coef_[0], float(svc.intercept_[0])
    nw = np.linalg.norm(w)
    return w / nw, b / nw, 1.0 / nw


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("d", [2, 3, 5])
def test_agrees_with_a_hard_margin_svm(seed, d):
    data = pl.make_separable(60, d, gamma=0.05, R=1.0, theta_0=0.2 * (seed % 2), seed=seed)
    r = max_margin(data.X, data.y)
    theta, theta_0, gamma = svc_separator(data.X, data.y)
    assert isinstance(r, MaxMarginResult)
    assert np.linalg.norm(r.theta) == pytest.approx(1.0, rel=1e-12)
    np.testing.assert_allclose(r.theta, theta, atol=1e-5)
    assert r.theta_0 == pytest.approx(theta_0, abs=1e-5)
    assert r.gamma == pytest.approx(gamma, abs=1e-5)
    # the reported gamma is the data's margin for the reported separator ...
    assert r.gamma == pl.margin(data.X, data.y, r.theta, r.theta_0)
    # ... and no worse than the margin scikit-learn's separator actually achieves
    assert r.gamma >= pl.margin(data.X, data.y, theta, theta_0) - 1e-12


@pytest.mark.parametrize("seed", range(10))
def test_is_at_least_the_margin_of_the_generating_separator(seed):
    data = pl.make_separable(40, 2 + seed % 3, gamma=0.1, R=2.0, theta_0=0.3, seed=seed)
    r = max_margin(data.X, data.y)
    assert r.gamma >= data.gamma - 1e-12
    assert np.all(pl.point_margins(data.X, data.y, r.theta, r.theta_0) >= r.gamma)


def test_the_one_dimensional_offset_example():
    ex = pl.offset_example()
    r = max_margin(ex.X, ex.y)
    assert r.gamma == pytest.approx(0.5, rel=1e-9)
    np.testing.assert_allclose(r.theta, [-1.0])
    assert r.theta_0 == pytest.approx(2.5, rel=1e-9)
    assert is_linearly_separable(ex.X, ex.y)
    assert not is_linearly_separable(ex.X, ex.y, offset=False)
    with pytest.raises(ValueError, match="not linearly separable through the origin"):
        max_margin(ex.X, ex.y, offset=False)


def test_the_notes_example_by_hand():
    # The point of the segment from (1, 3) to (2, 1) nearest to (-1, 2) is (1, 3), so the
    # best line is the perpendicular bisector of (1, 3) and (-1, 2): normal (2, 1), margin
    # sqrt(5) / 2.  The third point, (2, 1), lies at the same distance from it.
    ex = pl.notes_example()
    r = max_margin(ex.X, ex.y)
    np.testing.assert_allclose(r.theta, [2 / math.sqrt(5), 1 / math.sqrt(5)], atol=1e-9)
    assert r.gamma == pytest.approx(math.sqrt(5) / 2, rel=1e-9)
    assert r.theta_0 == pytest.approx(-math.sqrt(5) / 2, rel=1e-9)
    np.testing.assert_allclose(pl.point_margins(ex.X, ex.y, r.theta, r.theta_0), r.gamma)


def test_many_support_vectors_and_units():
    X = np.array([[a, b] for a in (-2, -1, 1, 2) for b in (-1, 0, 1)], dtype=float)
    y = np.sign(X[:, 0])
    for offset in (True, False):
        r = max_margin(X, y, offset=offset)
        np.testing.assert_allclose(r.theta, [1.0, 0.0], atol=1e-9)
        assert r.gamma == pytest.approx(1.0, rel=1e-9)
    # a change of units scales the margin and moves nothing else
    big = max_margin(1e6 * X + 3e6, y)
    assert big.gamma == pytest.approx(1e6, rel=1e-9)
    assert big.theta_0 == pytest.approx(-3e6, rel=1e-9)
    assert max_margin(1e-6 * X, y).gamma == pytest.approx(1e-6, rel=1e-9)


def test_through_the_origin():
    r = max_margin([[1.0], [2.0], [-1.0]], [1, 1, -1], offset=False)
    assert r.theta_0 == 0.0
    assert r.gamma == pytest.approx(1.0, rel=1e-9)
    # one class is fine through the origin: the margin cannot grow without bound
    r = max_margin([[0.0, 1.0], [1.0, 1.0]], [1, 1], offset=False)
    np.testing.assert_allclose(r.theta, [0.0, 1.0], atol=1e-9)
    # a point at the origin has score 0 for every separator through the origin
    assert not is_linearly_separable([[0.0, 0.0], [1.0, 1.0]], [1, -1], offset=False)


def test_xor_is_not_separable():
    X, y = pl.make_xor(10, seed=0)
    assert not is_linearly_separable(X, y)
    with pytest.raises(ValueError, match="not linearly separable"):
        max_margin(X, y)
    corners = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    assert not is_linearly_separable(corners, [1, 1, -1, -1])


def test_separability_against_the_perceptron():
    # where the perceptron converges the data are separable; label noise breaks it
    for seed in range(5):
        data = pl.make_separable(50, 3, gamma=0.1, seed=seed)
        assert pl.perceptron(data.X, data.y, tau=1000).converged
        assert is_linearly_separable(data.X, data.y)
        X, y = pl.make_noisy(200, 3, flip=0.2, seed=seed)
        assert not is_linearly_separable(X, y)


def test_one_class_with_an_offset_has_no_largest_margin():
    assert is_linearly_separable([[0.0, 1.0], [1.0, 1.0]], [1, 1])
    with pytest.raises(ValueError, match="no largest margin"):
        max_margin([[0.0, 1.0], [1.0, 1.0]], [1, 1])


@pytest.mark.parametrize("func", [max_margin, is_linearly_separable])
def test_bad_input(func):
    with pytest.raises(ValueError, match="labels must be -1 or \\+1"):
        func([[1.0], [2.0]], [0, 1])
    with pytest.raises(ValueError, match="one label per example"):
        func([[1.0], [2.0]], [1])
    with pytest.raises(ValueError, match="must be 2-D"):
        func([1.0, 2.0], [1, -1])
    with pytest.raises(ValueError, match="NaN"):
        func([[1.0], [np.nan]], [1, -1])


def test_inputs_are_not_modified():
    data = pl.make_separable(20, 2, seed=0)
    X, y = data.X.copy(), data.y.copy()
    max_margin(X, y)
    is_linearly_separable(X, y)
    np.testing.assert_array_equal(X, data.X)
    np.testing.assert_array_equal(y, data.y)


def test_scipy_is_not_loaded_by_the_package():
    import subprocess
    import sys

    code = (
        "import sys, perceptron_lib.separability; "
        "print(any(m == 'scipy' or m.startswith('scipy.') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
