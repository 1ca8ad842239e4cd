"""Chapter 6, Variants: ``averaged_perceptron``, ``voted_predict``,
``one_vs_all_predict``, ``polynomial_gram`` and ``kernel_perceptron``."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

import perceptron_lib as pl

from ._common import grid, int_data
from .answers import Array, Group, Number
from .exercise import Case, Mistake, Seeds, Task

XOR_X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
XOR_Y = np.array([1.0, 1.0, -1.0, -1.0])
NOTES_X = np.array([[1.0, 3.0], [2.0, 1.0], [-1.0, 2.0]])
NOTES_Y = np.array([1.0, 1.0, -1.0])
EXTRA_EPOCH = ("run at most tau epochs: `range(tau)` runs tau of them, `range(tau + 1)` "
               "or `while epoch <= tau` one more")


# ----------------------------------------------------------------- averaged_perceptron
def averaged_reference(X: ArrayLike, y: ArrayLike, tau: int) -> tuple[np.ndarray, float]:
    """The averaged perceptron's (theta, theta_0)."""
    r = pl.averaged_perceptron(X, y, tau)
    return r.theta, r.theta_0


def _averaged(X, y, tau, *, strict=False, add="after", divide="visits", extra_epochs=0,
              early_stop=True):
    """The averaged perceptron with one rule changed: which hypotheses it adds up
    (``add``: "after" each visit, "before", "updates" only, "epochs", "start" as well,
    or "last" with no average), what it divides by, and when it stops."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    n, d = X.shape
    theta, theta_0 = np.zeros(d), 0.0
    total, total_0, count = np.zeros(d), 0.0, 0
    if add == "start":
        count = 1
    for _ in range(tau + extra_epochs):
        changed = False
        for i in range(n):
            if add == "before":
                total, total_0, count = total + theta, total_0 + theta_0, count + 1
            score = y[i] * (theta @ X[i] + theta_0)
            mistake = bool(score < 0 if strict else score <= 0)
            if mistake:
                theta, theta_0, changed = theta + y[i] * X[i], theta_0 + y[i], True
            if add in ("after", "start") or (add == "updates" and mistake):
                total, total_0, count = total + theta, total_0 + theta_0, count + 1
        if add == "epochs":
            total, total_0, count = total + theta, total_0 + theta_0, count + 1
        if not changed and early_stop:
            break
    if add == "last":
        return theta, theta_0
    count = n * tau if divide == "n_tau" else count
    if count == 0:
        raise ValueError("nothing to average")
    return total / count, total_0 / count


def _averaged_variant(**kw):
    def run(X, y, tau):
        return _averaged(X, y, tau, **kw)

    return run


def _averaged_hidden(seeds: Seeds) -> list[Case]:
    cases = [Case((*int_data(seeds(1100 + k), n, d), tau), f"random data {k + 1}")
             for k, (n, d, tau) in enumerate([(6, 2, 5), (10, 3, 20), (15, 2, 1), (8, 1, 50),
                                              (12, 4, 3)])]
    for k, seed in enumerate((1153, 1154)):
        X = seeds.rng(seed).integers(-5, 6, size=(40, 2)).astype(float)
        scores = X @ np.array([2.0, -3.0]) + 1.0
        X, scores = X[scores != 0][:20], scores[scores != 0][:20]
        cases.append(Case((X, np.where(scores > 0, 1.0, -1.0), 100),
                          f"separable data {k + 1}: the run converges before tau"))
    noisy_X, noisy_y = pl.make_noisy(30, 2, flip=0.1, gamma=0.2, seed=seeds(1160))
    cases.append(Case((np.round(noisy_X * 8), noisy_y, 10), "noisy data, tau = 10"))
    cases.append(Case((*pl.make_xor(2, spread=0.0, seed=0), 4),
                      "XOR with two copies of each corner"))
    return cases


AVERAGED_PERCEPTRON = Task(
    name="averaged_perceptron",
    points=4,
    signature="averaged_perceptron(X, y, tau) -> (theta, theta_0)",
    reference=averaged_reference,
    answer=Group((("theta", Array("a 1-D array of floats")), ("theta_0", Number("a float"))),
                 "a tuple of two values (theta, theta_0)"),
    public=(
        Case((np.array([[1.0], [2.0], [-1.0]]), np.array([1.0, 1.0, -1.0]), 10),
             "three points on a line: theta after the six visits is 1, 1, 2, 2, 2, 2"),
        Case((NOTES_X, NOTES_Y, 10), "the three points of the worked example"),
        Case((np.array([[-2.0], [-1.0], [1.0]]), np.array([1.0, -1.0, 1.0]), 2),
             "three points on a line that no threshold separates, tau = 2"),
    ),
    hidden=_averaged_hidden,
    known=(
        Mistake("strict",
                "the test must be `<= 0`; with `< 0` nothing ever updates from theta = 0",
                _averaged_variant(strict=True)),
        Mistake("last", "return the AVERAGE of the hypotheses, not the last one",
                _averaged_variant(add="last")),
        Mistake("updates only", "add the hypothesis after EVERY visit, not only after "
                "updates: a hypothesis that survives many visits must weigh more",
                _averaged_variant(add="updates")),
        Mistake("per epoch", "average over the visits (n per epoch), not over the epochs",
                _averaged_variant(add="epochs")),
        Mistake("before", "add the hypothesis AFTER the visit (after its update, if any), "
                "not before", _averaged_variant(add="before")),
        Mistake("with start", "average the V hypotheses after the visits: the starting "
                "theta = 0 is not one of them", _averaged_variant(add="start")),
        Mistake("n tau", "divide by the number of visits made: a run that converges stops "
                "before tau epochs", _averaged_variant(divide="n_tau")),
        Mistake("no early stop", "stop after an epoch with no mistake: the visits of "
                "further epochs would add the final hypothesis again",
                _averaged_variant(early_stop=False)),
        Mistake("extra epoch", EXTRA_EPOCH, _averaged_variant(extra_epochs=1)),
    ),
)


# ----------------------------------------------------------------------- voted_predict
def voted_reference(X: ArrayLike, thetas: ArrayLike, theta_0s: ArrayLike,
                    counts: ArrayLike) -> np.ndarray:
    """The labels of the voted perceptron's weighted vote."""
    model = pl.VotedResult(np.asarray(thetas, float), np.asarray(theta_0s, float),
                           np.asarray(counts), 0, 0, True)
    return pl.voted_predict(model, X)


def _voted(X, thetas, theta_0s, counts, *, vote="sign", weigh=True, final="> 0",
           offset=True):
    """A vote with one rule changed: ``vote`` "sign" (right), "np.sign" or "score";
    ``final`` "> 0" (right), ">= 0" or "np.sign"; ``weigh`` False gives every hypothesis
    one vote; ``offset`` False leaves theta_0 out of the scores."""
    scores = np.asarray(X, float) @ np.asarray(thetas, float).T
    if offset:
        scores = scores + np.asarray(theta_0s, float)
    votes = {"sign": np.where(scores > 0, 1, -1), "np.sign": np.sign(scores),
             "score": scores}[vote]
    total = votes @ (np.asarray(counts) if weigh else np.ones(len(counts)))
    if final == "np.sign":
        return np.sign(total)
    return np.where(total >= 0 if final == ">= 0" else total > 0, 1, -1)


def _voted_variant(**kw):
    def run(X, thetas, theta_0s, counts):
        return _voted(X, thetas, theta_0s, counts, **kw)

    return run


def _voted_run_case(X, y, tau, X_new, about):
    r = pl.voted_perceptron(X, y, tau)
    return Case((np.asarray(X_new, float), r.thetas, r.theta_0s, r.counts), about)


def _voted_hidden(seeds: Seeds) -> list[Case]:
    cases = []
    for k, (n, d, tau) in enumerate([(8, 2, 10), (12, 2, 3), (10, 3, 20), (15, 2, 50)]):
        X, y = int_data(seeds(1200 + k), n, d)
        X_new = int_data(seeds(1250 + k), 12, d)[0]
        cases.append(_voted_run_case(X, y, tau, np.vstack([X, X_new]),
                                     f"a voted perceptron trained on random data {k + 1}"))
    xor_X, xor_y = pl.make_xor(1, spread=0.0, seed=0)
    cases.append(_voted_run_case(xor_X, xor_y, 5, grid(-2, 2),
                                 "the voted perceptron of XOR, on a grid of points"))
    noisy = pl.make_noisy(30, 2, flip=0.15, gamma=0.2, seed=seeds(1260))
    cases.append(_voted_run_case(np.round(noisy[0] * 6), noisy[1], 8, grid(-6, 6, 2),
                                 "noisy data, on a grid of points"))
    cases.append(Case((grid(-2, 2), np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
                       np.array([0.0, 0.0, -1.0]), np.array([2, 2, 3])),
                      "hand-made hypotheses with many scores of exactly 0"))
    return cases


VOTED_PREDICT = Task(
    name="voted_predict",
    points=2,
    signature="voted_predict(X, thetas, theta_0s, counts) -> array of +1/-1",
    reference=voted_reference,
    answer=Array("a 1-D array of m labels 1 or -1"),
    public=(
        Case((np.array([[1.0], [-1.0], [2.0]]), np.array([[1.0], [-1.0], [-1.0]]),
              np.zeros(3), np.array([5, 1, 1])),
             "three hypotheses: the counts outweigh the majority"),
        _voted_run_case(NOTES_X, NOTES_Y, 10, np.vstack([NOTES_X, grid(-1, 1)]),
                        "the voted perceptron of the worked example"),
        Case((np.array([[1.0, 1.0], [-1.0, 1.0], [1.0, 0.0], [2.0, -1.0]]),
              np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), np.zeros(3),
              np.array([1, 2, 3])),
             "ties: theta = 0 votes -1, and a weighted sum of 0 gives -1"),
        Case((np.array([[-2.0], [2.0], [-1.0]]), np.array([[1.0], [2.0], [-1.0]]),
              np.array([2.0, -1.0, 0.0]), np.array([1, 2, 3])),
             "hypotheses with offsets: a score of 0 and two weighted sums of 0"),
    ),
    hidden=_voted_hidden,
    known=(
        Mistake("unweighted", "weigh each hypothesis's vote by its count",
                _voted_variant(weigh=False)),
        Mistake("score votes", "each hypothesis votes the SIGN of its score (+1 or -1), "
                "not the score itself", _voted_variant(vote="score")),
        Mistake("np.sign votes", "a hypothesis whose score is exactly 0 votes -1 (np.sign "
                "would give it 0)", _voted_variant(vote="np.sign")),
        Mistake("np.sign total", "a weighted sum of exactly 0 gives -1 (np.sign would "
                "give 0)", _voted_variant(final="np.sign")),
        Mistake("ge total", "the label is +1 only when the weighted sum is `> 0`; a tie "
                "gives -1", _voted_variant(final=">= 0")),
        Mistake("no offset", "each score is theta_k^T x + theta_0k: add the offsets",
                _voted_variant(offset=False)),
    ),
)


# ------------------------------------------------------------------ one_vs_all_predict
def ova_reference(X: ArrayLike, thetas: ArrayLike, theta_0s: ArrayLike,
                  classes: ArrayLike) -> np.ndarray:
    """The class of the highest one-vs-all score."""
    model = pl.OneVsAllResult(np.asarray(classes), np.asarray(thetas, float),
                              np.asarray(theta_0s, float), np.ones(len(classes), dtype=bool))
    return pl.one_vs_all_predict(model, X)


def _ova(X, thetas, theta_0s, classes, *, pick="first max", offset=True, normalize=False,
         index=False):
    """A one-vs-all rule with one change: ``pick`` "first max" (right), "last max",
    "min" or "first positive" (the first class whose score is > 0)."""
    scores = np.asarray(X, float) @ np.asarray(thetas, float).T
    if offset:
        scores = scores + np.asarray(theta_0s, float)
    if normalize:
        with np.errstate(divide="ignore", invalid="ignore"):
            scores = scores / np.linalg.norm(np.asarray(thetas, float), axis=1)
    if pick == "min":
        k = np.argmin(scores, axis=1)
    elif pick == "last max":
        k = scores.shape[1] - 1 - np.argmax(scores[:, ::-1], axis=1)
    elif pick == "first positive":
        k = np.argmax(scores > 0, axis=1)
    else:
        k = np.argmax(scores, axis=1)
    return k if index else np.asarray(classes)[k]


def _ova_variant(**kw):
    def run(X, thetas, theta_0s, classes):
        return _ova(X, thetas, theta_0s, classes, **kw)

    return run


def _blobs(seed: int, classes, per_class: int, spread: float = 1.2):
    """Integer points around one centre per class (one-vs-all's training data)."""
    rng = np.random.default_rng(seed)
    centres = rng.integers(-5, 6, size=(len(classes), 2)) * 2
    X = np.vstack([c + rng.normal(0, spread, size=(per_class, 2)) for c in centres])
    return np.round(X), np.repeat(np.asarray(classes), per_class)


def _ova_hidden(seeds: Seeds) -> list[Case]:
    cases = []
    for k, classes in enumerate([[0, 1, 2], [2, 5, 7], [1, 2, 3, 4], [-1, 0, 1]]):
        X, labels = _blobs(seeds(1300 + k), classes, 6)
        model = pl.one_vs_all(X, labels, tau=20)
        cases.append(Case((np.vstack([X, grid(-8, 8, 2)]), model.thetas, model.theta_0s,
                           model.classes),
                          f"a one-vs-all model of {len(classes)} classes, trained on blobs"))
    rng = seeds.rng(1350)
    for k in range(3):
        thetas = rng.integers(-3, 4, size=(4, 3)).astype(float)
        thetas[:, 0] = np.where(thetas[:, 0] == 0, 1.0, thetas[:, 0])
        cases.append(Case((rng.integers(-3, 4, size=(15, 3)).astype(float), thetas,
                           rng.integers(-2, 3, size=4).astype(float), np.array([3, 1, 4, 9])),
                          f"four random classifiers in 3-D {k + 1}, with ties"))
    return cases


ONE_VS_ALL_PREDICT = Task(
    name="one_vs_all_predict",
    points=2,
    signature="one_vs_all_predict(X, thetas, theta_0s, classes) -> array of classes",
    reference=ova_reference,
    answer=Array("a 1-D array of m labels taken from classes"),
    public=(
        Case((np.array([[2.0, 0.0], [0.0, 3.0], [-2.0, -1.0], [-5.0, -5.0], [1.0, 3.0]]),
              np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]),
              np.array([0.0, -1.0, -1.0]), np.array([1, 2, 3])),
             "three classes 1, 2, 3 in the plane; the last point is claimed by two"),
        Case((np.array([[1.0, 1.0], [0.0, 0.0], [3.0, -1.0]]),
              np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]]),
              np.array([0.0, 0.0, -1.0]), np.array([7, 5, 2])),
             "ties: the first class with the highest score wins"),
        Case((np.array([[0.0, 1.0], [-1.0, 2.0]]),
              np.array([[2.0, 0.0], [0.0, 1.0]]), np.array([-1.0, -3.0]),
              np.array([0, 1])),
             "every score negative: the highest still wins"),
        Case((np.array([[1.0, 1.0]]), np.array([[3.0, 0.0], [0.0, 1.0], [0.0, -1.0]]),
              np.array([0.0, 1.5, -2.0]), np.array([4, 6, 8])),
             "scores 3, 2.5 and -3: the raw scores decide, not the distances 1, 2.5, -3"),
        Case((np.array([[2.0, 0.0], [0.0, 2.0], [-2.0, -2.0]]),
              np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]), np.zeros(3),
              np.array([3, 1, 2])),
             "classes given out of order (3, 1, 2): the answer is classes[k] as given"),
    ),
    hidden=_ova_hidden,
    known=(
        Mistake("argmin", "pick the class with the HIGHEST score (argmax)",
                _ova_variant(pick="min")),
        Mistake("index", "return the class, classes[k], not its index k",
                _ova_variant(index=True)),
        Mistake("last max", "on a tie the FIRST class with the highest score wins "
                "(np.argmax does that)", _ova_variant(pick="last max")),
        Mistake("no offset", "add each class's offset theta_0 to its score",
                _ova_variant(offset=False)),
        Mistake("normalised", "compare the raw scores theta_c^T x + theta_0c; do not divide "
                "by ||theta_c||", _ova_variant(normalize=True)),
        Mistake("first positive", "compare the scores themselves, not only their signs: "
                "the class with the highest score wins, even when several (or no) "
                "perceptrons say +1", _ova_variant(pick="first positive")),
    ),
)


# --------------------------------------------------------------------- polynomial_gram
def gram_reference(A: ArrayLike, B: ArrayLike, degree: int, coef0: float) -> np.ndarray:
    """The polynomial kernel's matrix between the rows of A and of B."""
    return pl.polynomial_kernel(degree, coef0)(np.asarray(A, float), np.asarray(B, float))


def _dots(A, B):
    return np.asarray(A, float) @ np.asarray(B, float).T


def _gram_hidden(seeds: Seeds) -> list[Case]:
    cases = []
    for k, (m, p, d, degree, coef0) in enumerate([(4, 4, 2, 2, 1.0), (3, 5, 3, 3, 0.0),
                                                   (6, 2, 2, 1, 2.5), (5, 5, 4, 4, -1.0),
                                                   (2, 7, 1, 3, 0.5)]):
        A = int_data(seeds(1400 + k), m, d)[0]
        B = int_data(seeds(1450 + k), p, d)[0]
        cases.append(Case((A, B, degree, coef0), f"random points, degree {degree}, "
                                                 f"coef0 {coef0:g}"))
    return cases


POLYNOMIAL_GRAM = Task(
    name="polynomial_gram",
    points=1,
    signature="polynomial_gram(A, B, degree, coef0) -> array of shape (len(A), len(B))",
    reference=gram_reference,
    answer=Array("a float array of shape (len(A), len(B))"),
    public=(
        Case((XOR_X, XOR_X, 2, 1.0), "the four XOR points, degree 2, coef0 = 1"),
        Case((np.array([[1.0, 2.0], [0.0, -1.0]]),
              np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 1.0]]), 3, 0.5),
             "two points against three, degree 3, coef0 = 1/2"),
    ),
    hidden=_gram_hidden,
    known=(
        Mistake("coef0 after", "add coef0 BEFORE raising to the power: "
                "(a^T b + coef0) ** degree", lambda A, B, deg, c: _dots(A, B) ** deg + c),
        Mistake("transposed", "entry (i, j) pairs row i of A with row j of B: the shape "
                "is (len(A), len(B))", lambda A, B, deg, c: gram_reference(B, A, deg, c)),
        Mistake("times degree", "raise to the power `degree`, do not multiply by it",
                lambda A, B, deg, c: (_dots(A, B) + c) * deg),
        Mistake("no coef0", "add the constant coef0 to each dot product",
                lambda A, B, deg, c: _dots(A, B) ** deg),
    ),
)


# ------------------------------------------------------------------- kernel_perceptron
def kernel_reference(G: ArrayLike, y: ArrayLike, tau: int) -> tuple[np.ndarray, float]:
    """The kernel perceptron's (alpha, theta_0), run on a Gram matrix."""
    # The library's loop, run on the indices 0, ..., n-1 with a kernel that looks up G.
    G = np.asarray(G, float)

    def lookup(A, B):
        return G[np.ix_(A[:, 0].astype(int), B[:, 0].astype(int))]

    r = pl.kernel_perceptron(np.arange(len(G), dtype=float)[:, None], y, lookup, tau)
    return r.alpha, r.theta_0


def _kernel(G, y, tau, *, strict=False, offset=True, until_converged=False, with_y=True,
            signed=False, extra_epochs=0, score_offset=True, stale=False):
    """A kernel perceptron with one rule changed; ``signed`` keeps alpha_j + y_j instead
    of a count; ``stale`` computes an epoch's scores before its first update."""
    G, y = np.asarray(G, float), np.asarray(y, float)
    alpha, theta_0 = np.zeros(len(y)), 0.0
    for _ in range(10_000 if until_converged else tau + extra_epochs):
        changed = False
        frozen = ((alpha * y) @ G + theta_0) if stale else None
        for i in range(len(y)):
            weights = alpha if signed or not with_y else alpha * y
            s = frozen[i] if stale else weights @ G[:, i] + (theta_0 if score_offset else 0)
            if y[i] * s <= 0 if not strict else y[i] * s < 0:
                alpha[i] += y[i] if signed else 1
                theta_0 += y[i] if offset else 0.0
                changed = True
        if not changed:
            break
    return alpha, theta_0


def _kernel_variant(**kw):
    def run(G, y, tau):
        return _kernel(G, y, tau, **kw)

    return run


def _gram_case(X, y, tau, degree, coef0, about):
    X = np.asarray(X, float)
    return Case((gram_reference(X, X, degree, coef0), np.asarray(y, float), tau), about)


def _kernel_hidden(seeds: Seeds) -> list[Case]:
    cases = []
    for k, (n, d, degree, tau) in enumerate([(6, 2, 2, 10), (10, 2, 2, 30), (8, 3, 3, 5),
                                             (12, 2, 1, 20), (9, 1, 2, 50)]):
        X, y = int_data(seeds(1500 + k), n, d)
        cases.append(_gram_case(X, y, tau, degree, 1.0,
                                f"random data {k + 1}, polynomial kernel of degree {degree}"))
    circle = grid(-3, 3)
    inside = np.where(np.sum(circle**2, axis=1) <= 4, 1.0, -1.0)
    cases.append(_gram_case(circle, inside, 100, 2, 1.0,
                            "a disc inside a square, polynomial kernel of degree 2"))
    xor_X, xor_y = pl.make_xor(2, spread=0.0, seed=0)
    cases.append(_gram_case(xor_X * 2, xor_y, 4, 1, 0.0, "XOR, linear kernel, tau = 4"))
    cases.append(_gram_case(xor_X, xor_y, 20, 2, 0.0,
                            "XOR, polynomial kernel of degree 2 without coef0"))
    return cases


KERNEL_PERCEPTRON = Task(
    name="kernel_perceptron",
    points=3,
    signature="kernel_perceptron(G, y, tau) -> (alpha, theta_0)",
    reference=kernel_reference,
    answer=Group((("alpha", Array("a 1-D array of n counts")), ("theta_0", Number("a float"))),
                 "a tuple of two values (alpha, theta_0)"),
    public=(
        _gram_case(XOR_X, XOR_Y, 10, 2, 1.0, "XOR, polynomial kernel of degree 2 with coef0 = 1"),
        _gram_case(NOTES_X, NOTES_Y, 10, 1, 0.0,
                   "the worked example, linear kernel: the plain perceptron"),
        _gram_case(XOR_X, XOR_Y, 3, 1, 0.0, "XOR, linear kernel, tau = 3: it never converges"),
        _gram_case(np.array([[2.0], [3.0]]), np.array([-1.0, 1.0]), 10, 1, 0.0,
                   "two points on a line, linear kernel: the offset decides"),
    ),
    hidden=_kernel_hidden,
    known=(
        Mistake("strict",
                "the test must be `<= 0`; with `< 0` nothing ever updates from alpha = 0",
                _kernel_variant(strict=True)),
        Mistake("no offset", "remember the offset: theta_0 + y_i at every update",
                _kernel_variant(offset=False)),
        Mistake("offset not scored", "the score includes the offset: "
                "sum_j alpha_j y_j G[j, i] + theta_0", _kernel_variant(score_offset=False)),
        Mistake("ignores tau", "stop after tau epochs even if the data are not separated",
                _kernel_variant(until_converged=True)),
        Mistake("extra epoch", EXTRA_EPOCH, _kernel_variant(extra_epochs=1)),
        Mistake("no labels", "the score is sum_j alpha_j y_j G[j, i] + theta_0: multiply by "
                "the labels", _kernel_variant(with_y=False)),
        Mistake("signed", "alpha_j counts the updates on example j (add 1, not y_j); the "
                "label enters the score", _kernel_variant(signed=True)),
        Mistake("stale scores", "compute each score at its visit, with the current alpha "
                "and theta_0: an update changes the scores of the examples visited after it",
                _kernel_variant(stale=True)),
    ),
)

TASKS = [AVERAGED_PERCEPTRON, VOTED_PREDICT, ONE_VS_ALL_PREDICT, POLYNOMIAL_GRAM,
         KERNEL_PERCEPTRON]
