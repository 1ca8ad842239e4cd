"""Chapter 7's multiclass perceptron and Kesler's construction.

Against a naive loop, against the binary perceptron (two classes, and Kesler's
vectors), against one-vs-all and scikit-learn, and against its mistake bound.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from naive import naive_kesler, naive_multiclass_perceptron
from strategies import integer_data

import perceptron_lib as pl


@st.composite
def integer_multiclass(draw, max_n=12, max_d=3, max_m=4):
    """Small integer X (so ties are real) and integer labels, at least two distinct."""
    n = draw(st.integers(2, max_n))
    d = draw(st.integers(1, max_d))
    X = draw(hnp.arrays(np.float64, (n, d), elements=st.integers(-4, 4).map(float)))
    m = draw(st.integers(2, max_m))
    y = draw(hnp.arrays(np.int64, (n,), elements=st.integers(-1, m - 2)))
    y[1] = y[0] + 1 if y[0] < m - 2 else -1
    return X, y


def separable_multiclass(n, d, m, gamma, seed, offset=True):
    """Points in the unit ball labelled by the argmax of a random (Theta*, theta_0*),
    keeping those whose best score beats the others by at least gamma."""
    rng = np.random.default_rng(seed)
    Theta = rng.standard_normal((m, d))
    theta_0 = 0.3 * rng.standard_normal(m) if offset else np.zeros(m)
    norm = np.sqrt((Theta ** 2).sum() + theta_0 @ theta_0)
    Theta, theta_0 = Theta / norm, theta_0 / norm
    X = np.empty((0, d))
    while X.shape[0] < n:
        cand = rng.standard_normal((4 * n, d))
        cand *= (rng.random(4 * n) ** (1 / d) / np.linalg.norm(cand, axis=1))[:, None]
        s = np.sort(cand @ Theta.T + theta_0, axis=1)
        X = np.vstack([X, cand[s[:, -1] - s[:, -2] >= gamma]])
    X = X[:n]
    y = np.argmax(X @ Theta.T + theta_0, axis=1)
    return X, y, Theta, theta_0


# ---------------------------------------------------------------------------------------
# the algorithm


@settings(max_examples=200, deadline=None)
@given(integer_multiclass(), st.booleans())
def test_against_the_naive_loop(data, offset):
    X, y = data
    r = pl.multiclass_perceptron(X, y, tau=10, trace=True, offset=offset)
    Theta, theta_0, classes, mistakes, epochs, converged, updates = naive_multiclass_perceptron(
        X.tolist(), y.tolist(), 10, offset)
    assert r.classes.tolist() == classes
    np.testing.assert_array_equal(r.Theta, Theta)
    np.testing.assert_array_equal(r.theta_0, theta_0)
    assert (r.mistakes, r.epochs, r.converged) == (mistakes, epochs, converged)
    assert [(u.epoch, u.index, u.true, u.rival) for u in r.history] == updates


def _binary_cases():
    out = [(pl.notes_example().X, pl.notes_example().y), (pl.offset_example().X,
                                                         pl.offset_example().y)]
    for seed in range(8):
        sep = pl.make_separable(30, d=1 + seed % 3, gamma=0.1, R=2.0, theta_0=0.5, seed=seed)
        out.append((sep.X, sep.y))
        out.append(pl.make_noisy(30, d=3, flip=0.2, seed=50 + seed))
    out.append(pl.make_xor(3, seed=0))
    return out


BINARY = _binary_cases()


@pytest.mark.parametrize("k", range(len(BINARY)))
@pytest.mark.parametrize("offset", [True, False])
def test_two_classes_is_the_binary_perceptron(k, offset):
    X, y = BINARY[k]
    run = pl.perceptron if offset else pl.perceptron_through_origin
    for tau in (1, 4, 60):
        b = run(X, y, tau=tau, method="loop")
        r = pl.multiclass_perceptron(X, y, tau=tau, offset=offset)
        assert r.classes.tolist() == [-1.0, 1.0]
        np.testing.assert_array_equal(r.Theta[1], b.theta)
        np.testing.assert_array_equal(r.Theta[0], -b.theta)
        np.testing.assert_array_equal(r.theta_0, [-b.theta_0, b.theta_0])
        assert (r.mistakes, r.epochs, r.converged) == (b.mistakes, b.epochs, b.converged)
        np.testing.assert_array_equal(np.where(pl.multiclass_predict(r, X) > 0, 1, -1),
                                      pl.predict(X, b.theta, b.theta_0))


@settings(max_examples=150, deadline=None)
@given(integer_data())
def test_two_classes_with_exact_ties(data):
    X, y = data
    if np.unique(y).size < 2:
        return
    b = pl.perceptron(X, y, tau=8)
    r = pl.multiclass_perceptron(X, y, tau=8, classes=[-1, 1])
    np.testing.assert_array_equal(r.Theta, [-b.theta, b.theta])
    assert (r.mistakes, r.epochs, r.converged) == (b.mistakes, b.epochs, b.converged)
    # a tie in prediction goes to the first class, -1, as predict gives -1 at score 0
    np.testing.assert_array_equal(pl.multiclass_predict(r, X),
                                  pl.predict(X, b.theta, b.theta_0))


def test_the_tie_rules():
    # training: all scores 0, so the first rival in class order takes the update
    r = pl.multiclass_perceptron([[0.0, 0.0]], [2], classes=[0, 1, 2], trace=True)
    u = r.history[0]
    assert (u.true, u.rival) == (2, 0)
    np.testing.assert_array_equal(r.theta_0, [-1.0, 0.0, 1.0])
    assert r.converged and r.mistakes == 1
    # a tie between the true class and another is a mistake, even when the true class
    # would win the prediction's tie-break
    r = pl.multiclass_perceptron([[1.0]], [0], classes=[0, 1], trace=True, offset=False)
    assert r.history[0].rival == 1 and r.mistakes == 1
    # prediction: the first class in `classes` order among the largest scores
    model = pl.MulticlassResult(np.zeros((3, 1)), np.array([0.0, 2.0, 2.0]),
                                np.array(["c", "a", "b"]), 0, 1, True)
    assert pl.multiclass_predict(model, [[5.0]]).tolist() == ["a"]


def test_labels_of_any_kind_and_given_classes():
    X, y, *_ = separable_multiclass(60, 2, 3, 0.1, seed=1)
    ref = pl.multiclass_perceptron(X, y, tau=50)
    for labels in (np.array(["ant", "bee", "cat"])[y], y * 10 - 7, y.astype(float) / 2):
        r = pl.multiclass_perceptron(X, labels, tau=50)
        np.testing.assert_array_equal(r.Theta, ref.Theta)
        assert r.classes.tolist() == sorted(set(labels.tolist()))
        assert pl.multiclass_predict(r, X).tolist() == list(labels)
    # a class with no example keeps a vector, updated only as a rival
    r = pl.multiclass_perceptron(X, y, tau=50, classes=[0, 1, 2, 3])
    assert r.Theta.shape == (4, 2) and r.converged
    assert np.all(pl.multiclass_predict(r, X) == y)
    # given order: rows of Theta follow it
    r = pl.multiclass_perceptron(X, y, tau=50, classes=[2, 0, 1])
    assert r.classes.tolist() == [2, 0, 1]
    assert np.all(pl.multiclass_predict(r, X) == y)


def test_scores_shape_and_result_fields():
    X, y, *_ = separable_multiclass(40, 3, 4, 0.1, seed=2)
    r = pl.multiclass_perceptron(X, y, tau=200, classes=range(4))
    S = pl.multiclass_scores(r, X)
    assert S.shape == (40, 4) and r.theta_0.shape == (4,)
    np.testing.assert_allclose(S, X @ r.Theta.T + r.theta_0)
    assert r.converged and r.epochs <= 200
    assert "mistakes=" in repr(r)
    off = pl.multiclass_perceptron(X, y, tau=200, offset=False, classes=range(4))
    np.testing.assert_array_equal(off.theta_0, np.zeros(4))


def test_shuffle_is_seeded():
    X, y, *_ = separable_multiclass(50, 2, 3, 0.05, seed=3)
    a = pl.multiclass_perceptron(X, y, shuffle=True, seed=4, trace=True)
    b = pl.multiclass_perceptron(X, y, shuffle=True, seed=4, trace=True)
    c = pl.multiclass_perceptron(X, y, trace=True)
    assert [u.index for u in a.history] == [u.index for u in b.history]
    assert [u.index for u in a.history] != [u.index for u in c.history]


# ---------------------------------------------------------------------------------------
# Kesler's construction


@settings(max_examples=100, deadline=None)
@given(integer_multiclass(), st.booleans())
def test_kesler_vectors_against_the_naive_construction(data, offset):
    X, y = data
    classes = sorted(set(y.tolist()) | {y.max() + 1})
    k = pl.kesler_construction(X, y, classes, offset=offset)
    np.testing.assert_array_equal(k.X, naive_kesler(X.tolist(), y.tolist(), classes, offset))
    assert np.all(k.y == 1.0)
    m = len(classes)
    assert k.X.shape == (X.shape[0] * (m - 1), m * (X.shape[1] + offset))
    np.testing.assert_array_equal(k.example, np.repeat(np.arange(X.shape[0]), m - 1))


def test_kesler_score_is_the_score_difference():
    X, y, *_ = separable_multiclass(20, 3, 4, 0.0, seed=5)
    rng = np.random.default_rng(0)
    Theta, theta_0 = rng.standard_normal((4, 3)), rng.standard_normal(4)
    k = pl.kesler_construction(X, y)
    W = np.concatenate([Theta.ravel(), theta_0])
    S = X @ Theta.T + theta_0
    np.testing.assert_allclose(k.X @ W, S[k.example, k.true] - S[k.example, k.rival])
    T, t0 = pl.kesler_weights(W, k)
    np.testing.assert_array_equal(T, Theta)
    np.testing.assert_array_equal(t0, theta_0)
    # the binary margin of the Kesler data is the multiclass margin
    assert pl.margin(k.X, k.y, W) == pytest.approx(pl.multiclass_margin(X, y, Theta, theta_0))
    with pytest.raises(ValueError, match="W must have shape"):
        pl.kesler_weights(W[:-1], k)


def _kesler_most_violated(k, tau):
    """PERCEPTRON-THROUGH-ORIGIN on Kesler vectors, shown at each example's visit the
    one vector (of its m - 1) with the smallest score, the first on a tie."""
    W = np.zeros(k.X.shape[1])
    n = int(k.example.max()) + 1
    updates, mistakes, epochs = [], 0, 0
    for t in range(1, tau + 1):
        epochs, clean = t, True
        for i in range(n):
            rows = np.flatnonzero(k.example == i)
            j = rows[np.argmin(k.X[rows] @ W)]
            if k.y[j] * (W @ k.X[j]) <= 0:
                W = W + k.y[j] * k.X[j]
                updates.append((t, i, int(k.true[j]), int(k.rival[j])))
                mistakes, clean = mistakes + 1, False
        if clean:
            return W, mistakes, epochs, True, updates
    return W, mistakes, epochs, False, updates


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("offset", [True, False])
def test_multiclass_is_the_binary_perceptron_on_kesler_vectors(seed, offset):
    m = 2 + seed % 4
    X, y, *_ = separable_multiclass(40, 1 + seed % 3, m, 0.02, seed, offset)
    if seed % 3 == 0:  # and on data no Theta separates
        y = np.random.default_rng(seed).integers(0, m, size=y.size)
    r = pl.multiclass_perceptron(X, y, tau=30, trace=True, offset=offset)
    k = pl.kesler_construction(X, y, r.classes, offset=offset)
    W, mistakes, epochs, converged, updates = _kesler_most_violated(k, 30)
    assert [(u.epoch, u.index, u.true, u.rival) for u in r.history] == updates
    assert (r.mistakes, r.epochs, r.converged) == (mistakes, epochs, converged)
    T, t0 = pl.kesler_weights(W, k)
    np.testing.assert_array_equal(T, r.Theta)
    np.testing.assert_array_equal(t0, r.theta_0)


@pytest.mark.parametrize("k", range(len(BINARY)))
def test_two_classes_kesler_in_plain_order(k):
    # one Kesler vector per example: the plain binary perceptron, in the data's order
    X, y = BINARY[k]
    r = pl.multiclass_perceptron(X, y, tau=20)
    ks = pl.kesler_construction(X, y)
    b = pl.perceptron_through_origin(ks.X, ks.y, tau=20, method="loop")
    T, t0 = pl.kesler_weights(b.theta, ks)
    np.testing.assert_array_equal(T, r.Theta)
    np.testing.assert_array_equal(t0, r.theta_0)
    assert (b.mistakes, b.epochs, b.converged) == (r.mistakes, r.epochs, r.converged)


# ---------------------------------------------------------------------------------------
# the mistake bound


@pytest.mark.parametrize("seed", range(40))
def test_mistakes_within_the_multiclass_bound(seed):
    rng = np.random.default_rng(seed)
    m, d = int(rng.integers(2, 6)), int(rng.integers(1, 5))
    offset = bool(seed % 2)
    X, y, Theta, theta_0 = separable_multiclass(int(rng.integers(10, 80)), d, m,
                                                float(rng.uniform(0.02, 0.3)), seed, offset)
    classes = np.arange(m)  # a class may have lost all its points: keep its row
    gamma = pl.multiclass_margin(X, y, Theta, theta_0, classes)
    R = pl.radius(pl.add_offset_feature(X)) if offset else pl.radius(X)
    bound = pl.multiclass_mistake_bound(R, gamma)
    r = pl.multiclass_perceptron(X, y, tau=100_000, classes=classes, offset=offset,
                                 shuffle=bool(seed % 3), seed=seed)
    assert r.converged
    assert r.mistakes <= bound
    assert np.all(pl.multiclass_predict(r, X) == y)
    # the binary perceptron on all Kesler vectors in turn obeys the same bound
    k = pl.kesler_construction(X, y, classes, offset=offset)
    b = pl.perceptron_through_origin(k.X, k.y, tau=100_000)
    assert b.converged and b.mistakes <= bound
    T, t0 = pl.kesler_weights(b.theta, k)
    assert pl.multiclass_margin(X, y, T, t0, classes) > 0


# ---------------------------------------------------------------------------------------
# one-vs-all and scikit-learn


def intervals():
    """Three classes on a line, the middle one between the others: separable by the
    multiclass perceptron, but the middle class is not separable from the rest."""
    X = np.array([[-3.0], [-2.0], [-1.5], [-0.4], [0.0], [0.4], [1.5], [2.0], [3.0]])
    return X, np.array([0, 0, 0, 1, 1, 1, 2, 2, 2])


def test_multiclass_separates_what_one_vs_all_cannot():
    X, y = intervals()
    r = pl.multiclass_perceptron(X, y, tau=1000)
    assert r.converged and np.all(pl.multiclass_predict(r, X) == y)
    assert pl.multiclass_margin(X, y, r.Theta, r.theta_0) > 0
    ova = pl.one_vs_all(X, y, tau=1000)
    assert ova.converged.tolist() == [True, False, True]
    assert not pl.is_linearly_separable(X, np.where(y == 1, 1, -1))


def test_scikit_learn_multiclass_perceptron_is_one_vs_all():
    from sklearn.linear_model import Perceptron

    X, y = intervals()
    sk = Perceptron(penalty=None, eta0=1.0, fit_intercept=True, shuffle=False, tol=None,
                    max_iter=200).fit(X, y)
    ova = pl.one_vs_all(X, y, tau=200)
    # each of scikit-learn's rows is the binary perceptron of its class against the rest
    # (the middle one never converges and runs all 200 epochs, as scikit-learn does)
    for c in range(3):
        b = pl.perceptron(X, np.where(y == c, 1, -1), tau=200)
        np.testing.assert_array_equal(sk.coef_[c], b.theta)
        assert sk.intercept_[c] == b.theta_0
        np.testing.assert_array_equal(ova.thetas[c], b.theta)
    np.testing.assert_array_equal(sk.predict(X), pl.one_vs_all_predict(ova, X))
    # the multiclass perceptron's vectors are not one-vs-all vectors: they are learned
    # together, and converge here
    r = pl.multiclass_perceptron(X, y, tau=200)
    assert r.converged and np.all(pl.multiclass_predict(r, X) == y)
    assert not np.array_equal(r.Theta, ova.thetas)


@pytest.mark.parametrize("seed", range(8, 20))
def test_one_vs_all_needs_each_class_separable_from_the_rest(seed):
    X, y, *_ = separable_multiclass(80, 2, 3, 0.1, seed=seed)
    r = pl.multiclass_perceptron(X, y, tau=1000)
    assert r.converged and np.all(pl.multiclass_predict(r, X) == y)
    ova = pl.one_vs_all(X, y, tau=1000)
    alone = [pl.is_linearly_separable(X, np.where(y == c, 1, -1)) for c in ova.classes]
    assert ova.converged.tolist() == alone
    if all(alone):  # every one-vs-all perceptron separates: so does their argmax
        assert np.all(pl.one_vs_all_predict(ova, X) == y)


def test_some_class_is_not_separable_from_the_rest():
    # among the data sets above, some need the multiclass perceptron
    misses = 0
    for seed in range(8, 20):
        X, y, *_ = separable_multiclass(80, 2, 3, 0.1, seed=seed)
        misses += not all(pl.is_linearly_separable(X, np.where(y == c, 1, -1))
                          for c in np.unique(y))
    assert misses >= 3


# ---------------------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize(("X", "y", "kw", "exc", "match"), [
    ([[1.0], [2.0]], [0, 0], {}, ValueError, "at least 2 classes"),
    ([[1.0], [2.0]], [0, 1, 2], {}, ValueError, "one label per row"),
    ([[1.0], [2.0]], [[0], [1]], {}, ValueError, "one label per row"),
    ([[1.0], [2.0]], [0.0, np.nan], {}, ValueError, "NaN"),
    ([[1.0], [2.0]], np.array([0, "a"], dtype=object), {}, ValueError, "sortable"),
    ([[1.0], [2.0]], [0, 1], {"classes": [0, 2]}, ValueError, "not among classes"),
    ([[1.0], [2.0]], [0, 1], {"classes": [0, 1, 1]}, ValueError, "distinct"),
    ([[np.nan], [2.0]], [0, 1], {}, ValueError, "NaN"),
    (np.zeros((0, 2)), [], {}, ValueError, "no examples"),
    ([1.0, 2.0], [0, 1], {}, ValueError, "2-D"),
    ([[1.0], [2.0]], [0, 1], {"tau": 0}, ValueError, "tau"),
])
def test_bad_input_is_named(X, y, kw, exc, match):
    with pytest.raises(exc, match=match):
        pl.multiclass_perceptron(X, y, **kw)
    if "tau" not in kw:
        with pytest.raises(exc, match=match):
            pl.kesler_construction(X, y, **kw)


def test_bad_prediction_and_margin_input():
    r = pl.multiclass_perceptron([[1.0, 0.0], [0.0, 1.0]], [0, 1])
    with pytest.raises(ValueError, match="features"):
        pl.multiclass_predict(r, [[1.0, 2.0, 3.0]])
    with pytest.raises(ValueError, match="Theta must have shape"):
        pl.multiclass_margin([[1.0], [2.0]], [0, 1], [[1.0]])
    with pytest.raises(ValueError, match="all zero"):
        pl.multiclass_margin([[1.0], [2.0]], [0, 1], [[0.0], [0.0]])


def test_inputs_are_not_modified():
    X, y, *_ = separable_multiclass(20, 2, 3, 0.1, seed=9)
    X0, y0 = X.copy(), y.copy()
    pl.multiclass_perceptron(X, y)
    pl.kesler_construction(X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


@pytest.mark.parametrize("offset", [True, False])
def test_the_trace_records_each_hypothesis(offset):
    X, y, *_ = separable_multiclass(50, 3, 4, 0.02, seed=11, offset=offset)
    r = pl.multiclass_perceptron(X, y, tau=100, trace=True, offset=offset, classes=range(4))
    assert len(r.history) == r.mistakes > 0
    prev, prev0 = np.zeros_like(r.Theta), np.zeros_like(r.theta_0)
    for u in r.history:
        # the scores before the update, then the hypothesis plus the update
        np.testing.assert_array_equal(u.scores, prev @ X[u.index] + prev0)
        assert u.scores[u.rival] >= u.scores[u.true]
        step = np.zeros_like(prev)
        step[u.true], step[u.rival] = X[u.index], -X[u.index]
        np.testing.assert_array_equal(u.Theta, prev + step)
        step0 = np.zeros_like(prev0)
        if offset:
            step0[u.true], step0[u.rival] = 1.0, -1.0
        np.testing.assert_array_equal(u.theta_0, prev0 + step0)
        prev, prev0 = u.Theta, u.theta_0
    np.testing.assert_array_equal(prev, r.Theta)
    np.testing.assert_array_equal(prev0, r.theta_0)


@settings(max_examples=150, deadline=None)
@given(integer_multiclass(), st.booleans())
def test_kesler_equivalence_with_exact_ties(data, offset):
    # integer data: scores tie exactly, so the tie rules of both sides are put to work
    X, y = data
    r = pl.multiclass_perceptron(X, y, tau=6, trace=True, offset=offset)
    k = pl.kesler_construction(X, y, offset=offset)
    W, mistakes, epochs, converged, updates = _kesler_most_violated(k, 6)
    assert [(u.epoch, u.index, u.true, u.rival) for u in r.history] == updates
    assert (r.mistakes, r.epochs, r.converged) == (mistakes, epochs, converged)
    T, t0 = pl.kesler_weights(W, k)
    np.testing.assert_array_equal(T, r.Theta)
    np.testing.assert_array_equal(t0, r.theta_0)
