"""Chapter 7's Gram matrices and the positive semidefinite test, against naive checks."""

import math

import numpy as np
import pytest

import perceptron_lib as pl


def naive_gram(k, X):
    """G[i, j] = K(x_i, x_j), one pair at a time."""
    n = len(X)
    return np.array([[float(k(X[i:i + 1], X[j:j + 1])[0, 0]) for j in range(n)]
                     for i in range(n)])


def naive_is_psd(G, tol):
    """Symmetric, and the smallest eigenvalue of G no more negative than the tolerance."""
    G = np.asarray(G, dtype=float)
    scale = max(abs(v) for v in G.ravel()) or 1.0
    n = G.shape[0]
    for i in range(n):
        for j in range(n):
            if abs(G[i, j] - G[j, i]) > tol * scale:
                return False
    return min(np.linalg.eigvalsh(G)) >= -tol * n * scale


def sq_dist(A, B):
    return ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=-1)


KERNELS = {
    "linear": pl.linear_kernel(),
    "poly2": pl.polynomial_kernel(2, coef0=1.0),
    "poly3": pl.polynomial_kernel(3, coef0=0.5),
    "rbf": pl.rbf_kernel(0.7),
}
NOT_KERNELS = {
    "minus squared distance": lambda A, B: -sq_dist(A, B),
    "distance": lambda A, B: np.sqrt(sq_dist(A, B)),
    "tanh, negative offset": pl.tanh_kernel(1.0, -1.0),
}


def _data(seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((int(rng.integers(2, 30)), int(rng.integers(1, 5))))


@pytest.mark.parametrize("name", KERNELS)
@pytest.mark.parametrize("seed", range(10))
def test_kernels_give_psd_gram_matrices(name, seed):
    X = _data(seed)
    G = pl.gram_matrix(KERNELS[name], X)
    np.testing.assert_allclose(G, naive_gram(KERNELS[name], X), rtol=1e-12, atol=1e-12)
    assert pl.is_positive_semidefinite(G)
    assert naive_is_psd(G, 1e-10)


@pytest.mark.parametrize("seed", range(10))
def test_gram_matrices_match_scikit_learn(seed):
    from sklearn.metrics import pairwise

    X = _data(seed)
    np.testing.assert_allclose(pl.gram_matrix(pl.linear_kernel(), X),
                               pairwise.linear_kernel(X), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(pl.gram_matrix(pl.polynomial_kernel(3, coef0=0.5), X),
                               pairwise.polynomial_kernel(X, degree=3, gamma=1.0, coef0=0.5),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(pl.gram_matrix(pl.rbf_kernel(0.7), X),
                               pairwise.rbf_kernel(X, gamma=0.7), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(pl.gram_matrix(pl.tanh_kernel(0.3, -1.0), X),
                               pairwise.sigmoid_kernel(X, gamma=0.3, coef0=-1.0),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", NOT_KERNELS)
def test_functions_that_are_not_kernels_fail_on_some_data(name):
    k = NOT_KERNELS[name]
    failures = 0
    for seed in range(10):
        X = _data(seed)
        if X.shape[0] < 2:
            continue
        G = pl.gram_matrix(k, X)
        verdict = pl.is_positive_semidefinite(G)
        assert verdict == naive_is_psd(G, 1e-10)
        failures += not verdict
    assert failures > 0


def test_why_the_distances_fail():
    # zero diagonal, positive off-diagonal: the trace (sum of eigenvalues) is 0 while
    # G is not 0, so some eigenvalue is negative; for two points, G = [[0, a], [a, 0]]
    X = np.array([[0.0], [2.0]])
    for k, a in ((NOT_KERNELS["distance"], 2.0), (NOT_KERNELS["minus squared distance"], -4.0)):
        G = pl.gram_matrix(k, X)
        np.testing.assert_array_equal(G, [[0.0, a], [a, 0.0]])
        assert not pl.is_positive_semidefinite(G)
    # tanh with a negative offset: K(x, x) < 0 for x near the origin
    G = pl.gram_matrix(pl.tanh_kernel(1.0, -1.0), [[0.1, 0.0]])
    assert G[0, 0] == pytest.approx(math.tanh(0.01 - 1.0))
    assert not pl.is_positive_semidefinite(G)


@pytest.mark.parametrize("seed", range(40))
def test_psd_check_against_the_naive_one(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 12))
    A = rng.standard_normal((n, int(rng.integers(1, 6))))
    kind = seed % 4
    if kind == 0:
        G = A @ A.T                       # PSD, possibly singular
    elif kind == 1:
        S = rng.standard_normal((n, n))
        G = S + S.T                       # symmetric, usually indefinite
    elif kind == 2:
        B = rng.standard_normal((n + 1, n))  # rank n in dimension n + 1, minus a little
        G = B @ B.T - 1e-3 * np.eye(n + 1) * np.abs(B @ B.T).max()
    else:
        G = A @ A.T + np.triu(rng.standard_normal((n, n)), 1)    # not symmetric
    for tol in (0.0, 1e-12, 1e-10, 1e-6):
        assert pl.is_positive_semidefinite(G, tol) == naive_is_psd(G, tol)
    if kind == 2:
        assert not pl.is_positive_semidefinite(G)
    if kind == 3 and n > 1:
        assert not pl.is_positive_semidefinite(G, 1e-6)


def test_rounding_of_a_singular_psd_matrix_passes():
    # rank 1: the exact eigenvalues are 0 except one; computed ones can be -1e-16 or so
    x = np.linspace(-1, 1, 30)[:, None] * 3.0
    G = pl.gram_matrix(pl.linear_kernel(), x)
    assert np.linalg.eigvalsh(G).min() < 1e-12
    assert pl.is_positive_semidefinite(G)
    assert pl.is_positive_semidefinite(np.zeros((3, 3)))


def test_kernel_margin_against_explicit_features():
    rng = np.random.default_rng(3)
    Phi = rng.standard_normal((15, 4))
    y = np.where(Phi @ np.array([1.0, -1.0, 0.5, 0.0]) > 0, 1.0, -1.0)
    coef = rng.standard_normal(15)
    w = Phi.T @ coef
    assert pl.kernel_margin(Phi @ Phi.T, y, coef) == pytest.approx(pl.margin(Phi, y, w),
                                                                   rel=1e-12)
    with pytest.raises(ValueError, match="zero vector"):
        pl.kernel_margin(Phi @ Phi.T, y, np.zeros(15))
    with pytest.raises(ValueError, match="need shape"):
        pl.kernel_margin(Phi @ Phi.T, y[:-1], coef)


@pytest.mark.parametrize(("call", "exc", "match"), [
    (lambda: pl.gram_matrix("rbf", [[1.0]]), TypeError, "kernel must be a function"),
    (lambda: pl.gram_matrix(lambda A, B: A, [[1.0, 2.0]] * 3), ValueError, "\\(3, 3\\) matrix"),
    (lambda: pl.gram_matrix(lambda A, B: np.full((1, 1), np.inf), [[1.0]]), ValueError,
     "infinity"),
    (lambda: pl.gram_matrix(pl.linear_kernel(), [1.0, 2.0]), ValueError, "2-D"),
    (lambda: pl.gram_matrix(pl.linear_kernel(), np.zeros((0, 2))), ValueError, "no examples"),
    (lambda: pl.is_positive_semidefinite([[1.0, 2.0]]), ValueError, "square"),
    (lambda: pl.is_positive_semidefinite(np.zeros((0, 0))), ValueError, "empty"),
    (lambda: pl.is_positive_semidefinite([[np.nan]]), ValueError, "NaN"),
    (lambda: pl.is_positive_semidefinite([[1.0]], tol=-1), ValueError, "tol must be >= 0"),
])
def test_bad_input_is_named(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
