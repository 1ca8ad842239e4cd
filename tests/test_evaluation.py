"""Accuracy, splits, k-fold cross-validation and standardization (chapter 5)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score
from sklearn.model_selection import KFold
from sklearn.model_selection import train_test_split as sk_train_test_split
from sklearn.preprocessing import StandardScaler
from strategies import gaussian_data

import perceptron_lib as pl
from perceptron_lib.evaluation import (
    accuracy,
    cross_val_accuracy,
    kfold_indices,
    majority_baseline,
    standardize,
    train_test_split,
)

# --- accuracy ------------------------------------------------------------------------


def naive_accuracy(y_true, y_pred):
    right = 0
    for a, b in zip(y_true, y_pred, strict=True):
        right += a == b
    return right / len(y_true)


@given(st.lists(st.tuples(st.sampled_from([-1, 1]), st.sampled_from([-1, 1])), min_size=1))
def test_accuracy_matches_a_loop_and_scikit_learn(pairs):
    y_true = [a for a, _ in pairs]
    y_pred = [b for _, b in pairs]
    acc = accuracy(y_true, y_pred)
    assert acc == pytest.approx(naive_accuracy(y_true, y_pred), rel=1e-12)
    assert acc == pytest.approx(accuracy_score(y_true, y_pred), rel=1e-12)
    assert isinstance(acc, float)


def test_accuracy_takes_the_output_of_predict():
    X = np.array([[1.0], [-1.0], [2.0]])
    assert accuracy([1, -1, -1], pl.predict(X, [1.0])) == pytest.approx(2 / 3)


def test_accuracy_errors():
    with pytest.raises(ValueError, match="3 labels but y_pred has 2"):
        accuracy([1, 1, -1], [1, 1])
    with pytest.raises(ValueError, match="must be -1 or \\+1"):
        accuracy([0, 1], [1, 1])
    with pytest.raises(ValueError, match="must be -1 or \\+1"):
        accuracy([1, 1], [1, 2])
    with pytest.raises(ValueError, match="empty"):
        accuracy([], [])


# --- train_test_split ------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 10, 101, 4601])
@pytest.mark.parametrize("frac", [0.25, 0.5, 0.125, 0.75])
def test_split_sizes_match_scikit_learn(n, frac):
    if int(np.ceil(frac * n)) >= n:  # scikit-learn refuses too
        with pytest.raises(ValueError):
            sk_train_test_split(np.arange(n), test_size=frac, random_state=3)
        with pytest.raises(ValueError, match="no example would be left"):
            train_test_split(n, test_fraction=frac, seed=3)
        return
    train, test = train_test_split(n, test_fraction=frac, seed=3)
    sk_train, sk_test = sk_train_test_split(np.arange(n), test_size=frac, random_state=3)
    assert (len(train), len(test)) == (len(sk_train), len(sk_test))


def test_split_uses_the_decimal_fraction():
    # 0.3 * 10 is 3.0000000000000004 in floating point; the test part has 3, not 4
    train, test = train_test_split(10, test_fraction=0.3)
    assert (len(train), len(test)) == (7, 3)


@given(st.integers(2, 300), st.floats(0.01, 0.99), st.integers(0, 2**31))
def test_split_partitions_the_indices(n, frac, seed):
    if int(np.ceil(frac * n)) >= n:
        with pytest.raises(ValueError, match="no example would be left"):
            train_test_split(n, frac, seed)
        return
    train, test = train_test_split(n, frac, seed)
    both = np.concatenate([train, test])
    np.testing.assert_array_equal(np.sort(both), np.arange(n))
    assert len(test) >= 1 and len(train) >= 1
    assert train.dtype.kind == "i" and test.dtype.kind == "i"


def test_split_is_determined_by_the_seed():
    a = train_test_split(100, 0.2, seed=7)
    b = train_test_split(100, 0.2, seed=7)
    c = train_test_split(100, 0.2, seed=8)
    for u, v in zip(a, b, strict=True):
        np.testing.assert_array_equal(u, v)
    assert not np.array_equal(a[1], c[1])


def test_split_returns_indices_in_random_order():
    train, test = train_test_split(1000, 0.25, seed=0)
    assert not np.all(np.diff(train) > 0)
    assert not np.all(np.diff(test) > 0)


def test_stratified_split_keeps_the_class_balance():
    y = np.array([1] * 30 + [-1] * 70)
    train, test = train_test_split(100, 0.2, seed=1, stratify=y)
    assert len(test) == 20
    assert np.sum(y[test] == 1) == 6 and np.sum(y[test] == -1) == 14
    np.testing.assert_array_equal(np.sort(np.concatenate([train, test])), np.arange(100))


@given(st.lists(st.sampled_from([-1, 1, 5]), min_size=4, max_size=200), st.integers(0, 99))
def test_stratified_split_matches_the_proportions(labels, seed):
    y = np.array(labels)
    n = len(y)
    frac = 0.25
    train, test = train_test_split(n, frac, seed, stratify=y)
    n_test = int(np.ceil(frac * n))
    assert len(test) == n_test
    for c in np.unique(y):
        share = n_test * np.sum(y == c) / n
        assert abs(np.sum(y[test] == c) - share) < 1 + 1e-9
    np.testing.assert_array_equal(np.sort(np.concatenate([train, test])), np.arange(n))


def test_split_errors():
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        train_test_split(10, 0.0)
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        train_test_split(10, 1.0)
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        train_test_split(10, -0.5)
    with pytest.raises(TypeError, match="test_fraction"):
        train_test_split(10, "0.2")
    with pytest.raises(ValueError, match="at least 2"):
        train_test_split(1, 0.5)
    with pytest.raises(TypeError, match="n must be an integer"):
        train_test_split(10.0, 0.5)
    with pytest.raises(ValueError, match="no example would be left"):
        train_test_split(3, 0.9)
    with pytest.raises(ValueError, match="one label per example"):
        train_test_split(10, 0.5, stratify=[1, -1])
    with pytest.raises(TypeError, match="seed"):
        train_test_split(10, 0.5, seed=1.5)


# --- kfold_indices ----------------------------------------------------------------------


@pytest.mark.parametrize("n,k", [(2, 2), (10, 3), (10, 10), (17, 5), (4601, 5)])
def test_kfold_without_shuffle_is_scikit_learns_kfold(n, k):
    ours = kfold_indices(n, k, shuffle=False)
    theirs = list(KFold(n_splits=k).split(np.zeros(n)))
    assert len(ours) == len(theirs) == k
    for (tr, te), (str_, ste) in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(te, ste)
        np.testing.assert_array_equal(tr, str_)


def test_kfold_with_shuffle_cuts_a_seeded_permutation():
    n, k, seed = 23, 4, 5
    perm = np.random.default_rng(seed).permutation(n)
    ours = kfold_indices(n, k, seed)
    for (_, te), (_, ste) in zip(ours, KFold(n_splits=k).split(np.zeros(n)), strict=True):
        np.testing.assert_array_equal(te, perm[ste])


@given(st.integers(2, 200), st.integers(2, 12), st.integers(0, 2**31), st.booleans())
def test_folds_partition_the_indices(n, k, seed, shuffle):
    if k > n:
        with pytest.raises(ValueError, match="at least k examples"):
            kfold_indices(n, k, seed, shuffle=shuffle)
        return
    splits = kfold_indices(n, k, seed, shuffle=shuffle)
    tests = np.concatenate([te for _, te in splits])
    np.testing.assert_array_equal(np.sort(tests), np.arange(n))  # each index tested once
    sizes = [len(te) for _, te in splits]
    assert max(sizes) - min(sizes) <= 1
    for tr, te in splits:
        assert len(np.intersect1d(tr, te)) == 0
        np.testing.assert_array_equal(np.sort(np.concatenate([tr, te])), np.arange(n))


def test_kfold_is_determined_by_the_seed():
    a = kfold_indices(50, 5, seed=1)
    b = kfold_indices(50, 5, seed=1)
    c = kfold_indices(50, 5, seed=2)
    for (tr1, te1), (tr2, te2) in zip(a, b, strict=True):
        np.testing.assert_array_equal(tr1, tr2)
        np.testing.assert_array_equal(te1, te2)
    assert not all(np.array_equal(u[1], v[1]) for u, v in zip(a, c, strict=True))


def test_kfold_errors():
    with pytest.raises(ValueError, match="k must be at least 2"):
        kfold_indices(10, 1)
    with pytest.raises(ValueError, match="at least k examples"):
        kfold_indices(4, 5)
    with pytest.raises(TypeError, match="k must be an integer"):
        kfold_indices(10, 2.5)
    with pytest.raises(TypeError, match="k must be an integer"):
        kfold_indices(10, True)


# --- standardize ------------------------------------------------------------------------


@given(gaussian_data(max_n=30, max_d=5))
def test_standardize_matches_standard_scaler(data):
    X, _ = data
    if X.shape[0] < 2:
        return
    X_other = X[::-1] * 2.0 + 1.0
    Z, Z_other = standardize(X, X_other)
    scaler = StandardScaler().fit(X)
    np.testing.assert_allclose(Z, scaler.transform(X), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(Z_other, scaler.transform(X_other), rtol=1e-9, atol=1e-9)


def test_standardize_against_the_formula():
    X = np.array([[1.0, 10.0], [3.0, 30.0], [5.0, 20.0]])
    other = np.array([[7.0, 0.0]])
    Z, Z_other = standardize(X, other)
    mean = X.sum(axis=0) / 3
    std = np.sqrt(((X - mean) ** 2).sum(axis=0) / 3)
    np.testing.assert_allclose(Z, (X - mean) / std)
    np.testing.assert_allclose(Z_other, (other - mean) / std)
    np.testing.assert_allclose(Z.mean(axis=0), 0.0, atol=1e-15)
    np.testing.assert_allclose(Z.std(axis=0), 1.0)


def test_a_constant_column_becomes_zero_and_keeps_scale_one():
    X = np.array([[0.1, 1.0], [0.1, 2.0], [0.1, 4.0]])
    Z, Z_other = standardize(X, [[0.6, 1.0]])
    np.testing.assert_array_equal(Z[:, 0], 0.0)
    assert Z_other[0, 0] == pytest.approx(0.5)
    np.testing.assert_allclose(Z, StandardScaler().fit_transform(X), atol=1e-12)


def test_standardize_uses_only_the_training_rows():
    X = np.array([[0.0], [2.0]])
    _, a = standardize(X, [[4.0]])
    _, b = standardize(X, [[4.0], [1000.0]])
    assert a[0, 0] == b[0, 0] == 3.0


def test_standardize_does_not_modify_its_inputs():
    X = np.array([[1.0, 2.0], [3.0, 5.0]])
    other = np.array([[0.0, 0.0]])
    X0, other0 = X.copy(), other.copy()
    standardize(X, other)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(other, other0)


def test_standardize_errors():
    with pytest.raises(ValueError, match="2 features but X_other has 3"):
        standardize([[1.0, 2.0]], [[1.0, 2.0, 3.0]])
    with pytest.raises(ValueError, match="X_train must be 2-D"):
        standardize([1.0, 2.0], [[1.0]])
    with pytest.raises(ValueError, match="NaN"):
        standardize([[1.0], [np.nan]], [[1.0]])


# --- majority_baseline ------------------------------------------------------------------


def test_majority_baseline():
    np.testing.assert_array_equal(majority_baseline([1, 1, -1], 2), [1, 1])
    np.testing.assert_array_equal(majority_baseline([1, -1, -1], 3), [-1, -1, -1])
    np.testing.assert_array_equal(majority_baseline([1, -1], 2), [-1, -1])  # tie: -1
    assert majority_baseline([1], 0).shape == (0,)
    y = np.array([1] * 4 + [-1] * 6)
    assert accuracy(y, majority_baseline(y, 10)) == pytest.approx(0.6)


def test_majority_baseline_errors():
    with pytest.raises(ValueError, match="empty"):
        majority_baseline([], 3)
    with pytest.raises(ValueError, match="must be -1 or \\+1"):
        majority_baseline([0, 1], 3)
    with pytest.raises(ValueError, match="n must be at least 0"):
        majority_baseline([1], -1)


# --- cross_val_accuracy -----------------------------------------------------------------


def naive_cross_val(X, y, k, tau, seed, scale):
    """The same procedure written out with numpy only, for comparison."""
    n = len(y)
    order = np.random.default_rng(seed).permutation(n)
    folds = np.array_split(order, k)
    out = []
    for j in range(k):
        test = folds[j]
        train = np.concatenate([folds[i] for i in range(k) if i != j])
        A, B = X[train], X[test]
        if scale:
            mu, sd = A.mean(axis=0), A.std(axis=0)
            sd[sd == 0] = 1.0
            A, B = (A - mu) / sd, (B - mu) / sd
        r = pl.perceptron(A, y[train], tau=tau)
        out.append(np.mean(np.where(B @ r.theta + r.theta_0 > 0, 1, -1) == y[test]))
    return np.array(out)


@pytest.mark.parametrize("scale", [True, False])
@pytest.mark.parametrize("k", [2, 3, 5])
def test_cross_val_accuracy_matches_the_procedure_written_out(scale, k):
    rng = np.random.default_rng(11)
    X = rng.standard_normal((60, 3)) * [1.0, 10.0, 0.1]
    y = np.where(X[:, 0] + 0.1 * X[:, 1] + rng.standard_normal(60) * 0.5 > 0, 1.0, -1.0)
    got = cross_val_accuracy(X, y, k=k, tau=15, seed=4, scale=scale)
    assert got.shape == (k,)
    np.testing.assert_allclose(got, naive_cross_val(X, y, k, 15, 4, scale), rtol=1e-12)


@pytest.mark.parametrize("method", ["loop", "fast"])
def test_cross_val_accuracy_is_the_same_for_every_method(method):
    rng = np.random.default_rng(5)
    X = rng.standard_normal((200, 4))
    y = np.where(X @ [1.0, -2.0, 0.5, 0.0] + rng.standard_normal(200) > 0, 1.0, -1.0)
    np.testing.assert_array_equal(
        cross_val_accuracy(X, y, k=4, tau=7, seed=2, method=method),
        cross_val_accuracy(X, y, k=4, tau=7, seed=2),
    )


def test_cross_val_accuracy_on_separable_data_is_perfect():
    data = pl.make_separable(n=80, d=2, gamma=0.2, seed=0)
    scores = cross_val_accuracy(data.X, data.y, k=4, tau=500, scale=False)
    assert scores.min() >= 0.9


def test_cross_val_accuracy_errors():
    X = np.zeros((6, 2))
    with pytest.raises(ValueError, match="at least k examples"):
        cross_val_accuracy(X, [1, -1, 1, -1, 1, -1], k=7)
    with pytest.raises(ValueError, match="k must be at least 2"):
        cross_val_accuracy(X, [1, -1, 1, -1, 1, -1], k=1)
    with pytest.raises(ValueError, match="5 labels but X has 6 rows"):
        cross_val_accuracy(X, [1, -1, 1, -1, 1], k=2)
    with pytest.raises(ValueError, match="must be -1 or \\+1"):
        cross_val_accuracy(X, [1, 0, 1, 0, 1, 0], k=2)
    with pytest.raises(ValueError, match="tau must be a positive integer"):
        cross_val_accuracy(X, [1, -1, 1, -1, 1, -1], k=2, tau=0)
    with pytest.raises(ValueError, match="method must be"):
        cross_val_accuracy(X, [1, -1, 1, -1, 1, -1], k=2, method="quick")
