"""perceptron_lib.Perceptron: scikit-learn's conventions, the course's updates."""

import os
import subprocess
import sys

import numpy as np
import pytest
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

import perceptron_lib as pl
from perceptron_lib.estimator import Perceptron

CONFIGURATIONS = [
    Perceptron(),
    Perceptron(average=True),
    Perceptron(offset=False, tau=20),
    Perceptron(shuffle=True, random_state=0),
]


# scikit-learn's own conformance suite, with no expected failure in any configuration.
# The estimator does not claim array API support, so of the array API checks only the
# NumPy one runs (dispatch switched on must not change results); it needs SciPy imported
# with SCIPY_ARRAY_API=1, which tests/conftest.py sets, and fails here rather than skip.
@parametrize_with_checks(CONFIGURATIONS)
def test_scikit_learn_conformance(estimator, check):
    if "check_array_api_input" in str(check):
        assert os.environ.get("SCIPY_ARRAY_API") == "1", "set by tests/conftest.py"
    check(estimator)


def test_binary_fit_is_the_course_perceptron_bit_for_bit():
    X, y = pl.make_noisy(300, d=4, flip=0.1, gamma=0.05, R=2.0, seed=3)
    clf = Perceptron(tau=15).fit(X, y)
    r = pl.perceptron(X, y, tau=15)
    assert clf.classes_.tolist() == [-1, 1]
    np.testing.assert_array_equal(clf.coef_, r.theta[None, :])
    np.testing.assert_array_equal(clf.intercept_, [r.theta_0])
    assert (clf.n_iter_, clf.n_updates_, clf.converged_) == (r.epochs, r.mistakes, r.converged)
    np.testing.assert_array_equal(clf.decision_function(X), X @ r.theta + r.theta_0)
    np.testing.assert_array_equal(clf.predict(X), pl.predict(X, r.theta, r.theta_0))
    origin = Perceptron(tau=15, offset=False).fit(X, y)
    np.testing.assert_array_equal(origin.coef_[0], pl.perceptron_through_origin(X, y, 15).theta)
    assert origin.intercept_.tolist() == [0.0]


def test_shuffled_fit_uses_the_library_shuffle():
    X, y = pl.make_noisy(100, d=3, flip=0.1, seed=1)
    a = Perceptron(tau=5, shuffle=True, random_state=4).fit(X, y)
    b = Perceptron(tau=5, shuffle=True, random_state=4).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    seed = int(np.random.RandomState(4).randint(np.iinfo(np.int32).max))
    np.testing.assert_array_equal(a.coef_[0], pl.perceptron(X, y, 5, shuffle=True, seed=seed).theta)


def test_any_two_labels_map_to_minus_and_plus_one():
    X, y = pl.make_noisy(80, d=2, flip=0.1, seed=5)
    words = np.where(y > 0, "spam", "ham")  # sorted: ham plays -1, spam +1
    clf = Perceptron(tau=10).fit(X, words)
    assert clf.classes_.tolist() == ["ham", "spam"]
    np.testing.assert_array_equal(clf.coef_[0], pl.perceptron(X, y, 10).theta)
    assert (clf.predict(X) == np.where(pl.predict(X, clf.coef_[0], clf.intercept_[0]) > 0,
                                       "spam", "ham")).all()
    # labels 0/1 and 3/7 behave alike
    for lo, hi in ((0, 1), (3, 7)):
        other = Perceptron(tau=10).fit(X, np.where(y > 0, hi, lo))
        np.testing.assert_array_equal(other.coef_, clf.coef_)


def test_averaged_matches_the_library():
    X, y = pl.make_noisy(120, d=3, flip=0.2, seed=2)
    clf = Perceptron(tau=8, average=True).fit(X, y)
    r = pl.averaged_perceptron(X, y, 8)
    np.testing.assert_allclose(clf.coef_[0], r.theta, rtol=1e-12)
    assert clf.intercept_[0] == pytest.approx(r.theta_0, rel=1e-12)
    assert clf.n_updates_ == r.mistakes


def test_multiclass_is_one_vs_all():
    rng = np.random.default_rng(0)
    labels = np.repeat(["green", "amber", "red"], 20)
    X = np.array([[0, 3], [3, -2], [-3, -2]])[np.repeat([1, 0, 2], 20)] + rng.normal(
        scale=0.8, size=(60, 2))
    clf = Perceptron(tau=30).fit(X, labels)
    m = pl.one_vs_all(X, labels, tau=30)
    assert clf.classes_.tolist() == m.classes.tolist()
    np.testing.assert_array_equal(clf.coef_, m.thetas)
    np.testing.assert_array_equal(clf.intercept_, m.theta_0s)
    assert clf.decision_function(X).shape == (60, 3)
    assert (clf.predict(X) == pl.one_vs_all_predict(m, X)).all()


def test_same_updates_as_scikit_learn_perceptron():
    # Integer data: every sum is exact, so both must agree exactly.
    rng = np.random.default_rng(11)
    X = rng.integers(-5, 6, size=(60, 3)).astype(float)
    y = np.where(X @ [1.0, -2.0, 0.5] + 0.5 > 0, 1, -1)
    ours = Perceptron(tau=50).fit(X, y)
    sk = SkPerceptron(penalty=None, eta0=1.0, fit_intercept=True, shuffle=False, tol=None,
                      max_iter=ours.n_iter_).fit(X, y)
    np.testing.assert_array_equal(ours.coef_, sk.coef_)
    np.testing.assert_array_equal(ours.intercept_, sk.intercept_)


def test_cross_val_score_matches_the_course_k_fold_loop():
    data = pl.load_spam7()
    rows = np.random.default_rng(0).permutation(len(data.y))[:1500]  # both classes
    X, y = data.X[rows], data.y[rows]
    for k, tau in ((5, 20), (4, 3)):
        splits = pl.kfold_indices(len(y), k, seed=1)
        sk = cross_val_score(make_pipeline(StandardScaler(), Perceptron(tau=tau)), X, y, cv=splits)
        ours = pl.cross_val_accuracy(X, y, k=k, tau=tau, seed=1, scale=True)
        np.testing.assert_array_equal(sk, ours)


def test_partial_fit_goes_on_one_epoch_at_a_time():
    X, y = pl.make_noisy(90, d=3, flip=0.25, seed=8)  # noisy: no clean epoch, no early stop
    for average in (False, True):
        inc = Perceptron(average=average)
        for _ in range(4):
            inc.partial_fit(X, y, classes=[-1, 1])
        whole = Perceptron(tau=4, average=average).fit(X, y)
        assert not whole.converged_
        np.testing.assert_allclose(inc.coef_, whole.coef_, rtol=1e-12)
        np.testing.assert_allclose(inc.intercept_, whole.intercept_, rtol=1e-12)
        assert inc.n_iter_ == 4 and inc.n_updates_ == whole.n_updates_


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: Perceptron().fit([[1.0], [2.0]], [1, 1]), "1 class"),
        (lambda: Perceptron().fit([[np.nan], [2.0]], [1, -1]), "NaN"),
        (lambda: Perceptron(tau=0).fit([[1.0], [2.0]], [1, -1]), "tau"),
        (lambda: Perceptron().fit([[1.0], [2.0]], [0.5, 1.5]), "Unknown label type"),
        (lambda: Perceptron().partial_fit([[1.0], [2.0]], [1, -1]), "classes"),
        (lambda: Perceptron().partial_fit([[1.0], [2.0]], [1, 3], classes=[1, 2]), "not among"),
        (lambda: Perceptron().fit([[1.0], [2.0]], [1, -1]).predict([[1.0, 2.0]]), "features"),
    ],
)
def test_bad_input_is_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_scikit_learn_is_loaded_only_by_the_estimator():
    code = ("import sys, perceptron_lib as pl; pl.averaged_perceptron([[1.0]], [1]);"
            "assert 'sklearn' not in sys.modules; pl.Perceptron;"
            "assert 'sklearn' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
