"""Chapter 7, Beyond separability: ``hinge_deficiency``, ``margin_perceptron`` and
``multiclass_perceptron``."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

import perceptron_lib as pl

from ._common import int_data
from .answers import Array, Group, Number
from .exercise import Case, Mistake, Seeds, Task

NOTES_X = np.array([[1.0, 3.0], [2.0, 1.0], [-1.0, 2.0]])
NOTES_Y = np.array([1.0, 1.0, -1.0])
XOR_X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
XOR_Y = np.array([1.0, 1.0, -1.0, -1.0])
EXTRA_EPOCH = ("run at most tau epochs: `range(tau)` runs tau of them, `range(tau + 1)` "
               "or `while epoch <= tau` one more")


# -------------------------------------------------------------------- hinge_deficiency
def deficiency_reference(X: ArrayLike, y: ArrayLike, theta: ArrayLike, theta_0: float,
                         gamma: float) -> float:
    """Freund and Schapire's total deficiency D of the data for (theta, theta_0)."""
    return float(pl.hinge_deficiency(X, y, theta, theta_0, gamma))


def _deficiency(X, y, theta, theta_0, gamma, *, clip=True, total="root", normalize="lifted",
                offset=True, label=True):
    """D with one rule changed: ``clip`` False keeps negative xi_i; ``total`` "root"
    (right), "sum", "squares", "mean" or "max"; ``normalize`` "lifted" (right: by the
    norm of (theta, theta_0)), "none" or "theta" (by ||theta|| alone); ``offset`` False
    drops theta_0 (from the score and the norm); ``label`` False leaves y out."""
    X, y, theta = np.asarray(X, float), np.asarray(y, float), np.asarray(theta, float)
    theta_0 = theta_0 if offset else 0.0
    scores = X @ theta + theta_0
    if normalize == "theta":
        scores = scores / np.linalg.norm(theta)
    elif normalize == "lifted":
        scores = scores / np.hypot(np.linalg.norm(theta), theta_0)
    margins = y * scores if label else scores
    d = gamma - margins
    if clip:
        d = np.maximum(0.0, d)
    if total == "sum":
        return float(np.sum(d))
    if total == "squares":
        return float(np.sum(d**2))
    if total == "mean":
        return float(np.sqrt(np.mean(d**2)))
    if total == "max":
        return float(np.max(d))
    return float(np.sqrt(np.sum(d**2)))


def _deficiency_variant(**kw):
    def run(X, y, theta, theta_0, gamma):
        return _deficiency(X, y, theta, theta_0, gamma, **kw)

    return run


def _deficiency_hidden(seeds: Seeds) -> list[Case]:
    cases = []
    for k, (n, d, gamma) in enumerate([(6, 2, 0.5), (10, 3, 1.0), (8, 1, 2.0), (12, 4, 0.25),
                                       (15, 2, 3.0)]):
        X, y = int_data(seeds(1700 + k), n, d)
        rng = seeds.rng(1750 + k)
        theta = rng.integers(-3, 4, size=d).astype(float)
        theta[0] = theta[0] or 1.0
        cases.append(Case((X, y, theta, float(rng.integers(-2, 3)), gamma),
                          f"random data and hypothesis {k + 1}, gamma = {gamma:g}"))
    sep = pl.make_separable(20, 2, gamma=0.3, seed=seeds(1760))
    cases.append(Case((sep.X, sep.y, sep.theta, sep.theta_0, 0.2),
                      "separable data with margin 0.3, gamma = 0.2: D = 0"))
    noisy_X, noisy_y = pl.make_noisy(30, 2, flip=0.1, gamma=0.2, seed=seeds(1761))
    cases.append(Case((noisy_X, noisy_y, np.array([3.0, 4.0]), -0.5, 0.5),
                      "noisy data, theta = (3, 4), theta_0 = -1/2"))
    return cases


HINGE_DEFICIENCY = Task(
    name="hinge_deficiency",
    points=2,
    signature="hinge_deficiency(X, y, theta, theta_0, gamma) -> float",
    reference=deficiency_reference,
    answer=Number("a float"),
    public=(
        Case((np.array([[2.0, 0.0], [1.0, 0.0], [-1.0, 1.0]]), np.array([1.0, 1.0, -1.0]),
              np.array([1.0, 0.0]), 0.0, 1.5),
             "margins 2, 1 and 1 with gamma = 3/2: d = 0, 1/2, 1/2"),
        Case((NOTES_X, NOTES_Y, np.array([3.0, 4.0]), -3.0, 1.5),
             "the worked example's points, theta = (3, 4), theta_0 = -3, gamma = 3/2: "
             "the lifted vector (3, 4, -3) has norm sqrt(34)"),
        Case((np.array([[1.0], [2.0], [3.0], [4.0]]), np.array([1.0, 1.0, -1.0, -1.0]),
              np.array([-1.0]), 2.5, 1.0),
             "four points on a line, separated by theta = -1, theta_0 = 5/2"),
        Case((XOR_X, XOR_Y, np.array([1.0, 0.0]), 0.0, 1.0),
             "XOR: a point on the wrong side has xi_i larger than gamma"),
    ),
    hidden=_deficiency_hidden,
    known=(
        Mistake("no max", "xi_i = max(0, gamma - margin_i): an example whose margin is "
                "larger than gamma contributes 0, not a negative number",
                _deficiency_variant(clip=False)),
        Mistake("sum", "D is the square root of the sum of the SQUARES of the xi_i, not "
                "their sum", _deficiency_variant(total="sum")),
        Mistake("no root", "D is the square ROOT of sum_i xi_i ** 2",
                _deficiency_variant(total="squares")),
        Mistake("mean", "D sums the squares xi_i ** 2 over the examples; do not average "
                "them", _deficiency_variant(total="mean")),
        Mistake("max", "D takes every example into account: sqrt(sum_i xi_i ** 2), not the "
                "largest xi_i", _deficiency_variant(total="max")),
        Mistake("functional", "the margin is geometric: divide y (theta^T x + theta_0) by "
                "the norm of the lifted vector (theta, theta_0), so that it is a unit vector u",
                _deficiency_variant(normalize="none")),
        Mistake("theta norm", "divide by the norm of the lifted vector, "
                "sqrt(||theta||^2 + theta_0^2), not by ||theta|| alone: the offset is one "
                "more weight of the lifted separator", _deficiency_variant(normalize="theta")),
        Mistake("no offset", "the offset counts twice: in the score theta^T x + theta_0 "
                "and in the norm of the lifted vector (theta, theta_0)",
                _deficiency_variant(offset=False)),
        Mistake("no label", "the margin of example i is y_i times its signed distance: "
                "multiply by the label", _deficiency_variant(label=False)),
    ),
)


# ------------------------------------------------------------------- margin_perceptron
def margin_reference(X: ArrayLike, y: ArrayLike, margin: float,
                     tau: int) -> tuple[np.ndarray, float, int]:
    """The margin perceptron's (theta, theta_0, updates)."""
    r = pl.margin_perceptron(X, y, margin=margin, tau=tau)
    return r.theta, r.theta_0, r.mistakes


def _margin(X, y, mu, tau, *, strict=False, plain=False, geometric=False, offset=True,
            offset_outside=False, extra_epochs=0, until_converged=False, count="all",
            stop="updates"):
    """The margin perceptron with one rule changed: ``strict`` tests ``< mu``; ``plain``
    tests ``<= 0`` (the plain perceptron); ``geometric`` divides the score by
    ||theta||; ``stop`` "mistakes" ends after an epoch with no score <= 0 instead of
    no update."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    theta, theta_0, updates = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(10_000 if until_converged else tau + extra_epochs):
        changed, wrong = False, False
        if count == "epoch":
            updates = 0
        for i in range(len(y)):
            score = (y[i] * (theta @ X[i]) + theta_0 if offset_outside
                     else y[i] * (theta @ X[i] + theta_0))
            norm = np.linalg.norm(theta)
            if geometric and norm > 0:
                score = score / norm
            threshold = 0.0 if plain else mu
            wrong = wrong or score <= 0
            if score < threshold if strict else score <= threshold:
                theta = theta + y[i] * X[i]
                if offset:
                    theta_0 += y[i]
                updates += 1
                changed = True
        if not (wrong if stop == "mistakes" else changed):
            break
    return theta, theta_0, updates


def _margin_variant(**kw):
    def run(X, y, margin, tau):
        return _margin(X, y, margin, tau, **kw)

    return run


def _margin_hidden(seeds: Seeds) -> list[Case]:
    cases = [Case((*int_data(seeds(1800 + k), n, d), mu, tau),
                  f"random data {k + 1}, margin {mu:g}")
             for k, (n, d, mu, tau) in enumerate([(6, 2, 1.0, 5), (10, 3, 4.0, 20),
                                                  (8, 1, 2.0, 50), (12, 2, 0.5, 3),
                                                  (15, 4, 10.0, 10)])]
    sep = pl.make_separable(20, 2, gamma=0.2, seed=seeds(1860))
    cases.append(Case((np.round(sep.X * 8), sep.y, 5.0, 200),
                      "separable data: the run stops once every score exceeds the margin"))
    cases.append(Case((np.round(sep.X * 8), sep.y, 50.0, 200), "the same data, margin 50"))
    noisy_X, noisy_y = pl.make_noisy(25, 2, flip=0.1, gamma=0.2, seed=seeds(1861))
    cases.append(Case((np.round(noisy_X * 6), noisy_y, 3.0, 10),
                      "noisy data, margin 3, tau = 10"))
    cases.append(Case((NOTES_X, NOTES_Y, 0.0, 100),
                      "margin 0: the plain perceptron, on the worked example"))
    return cases


MARGIN_PERCEPTRON = Task(
    name="margin_perceptron",
    points=3,
    signature="margin_perceptron(X, y, margin, tau) -> (theta, theta_0, updates)",
    reference=margin_reference,
    answer=Group((("theta", Array("a 1-D array of floats")), ("theta_0", Number("a float")),
                  ("updates", Number("an int", integer=True))),
                 "a tuple of three values (theta, theta_0, updates)"),
    public=(
        Case((NOTES_X, NOTES_Y, 1.0, 100),
             "the worked example, margin 1: the plain perceptron would stop sooner"),
        Case((np.array([[1.0], [2.0], [3.0], [4.0]]), np.array([1.0, 1.0, -1.0, -1.0]), 2.0,
              100), "four points on a line, margin 2"),
        Case((np.array([[-3.0, -1.0], [0.0, -1.0], [1.0, 3.0]]), np.array([-1.0, 1.0, -1.0]),
              2.0, 100), "three points, margin 2: an epoch without a mistake still updates"),
        Case((XOR_X, XOR_Y, 1.0, 3), "XOR with tau = 3: exactly 3 epochs"),
    ),
    hidden=_margin_hidden,
    known=(
        Mistake("strict", "update when y (theta^T x + theta_0) <= margin: a score equal "
                "to the margin updates too (`<=`, not `<`)", _margin_variant(strict=True)),
        Mistake("plain", "that is the plain perceptron's test (`<= 0`); the margin "
                "perceptron updates whenever the score is at most the margin",
                _margin_variant(plain=True)),
        Mistake("geometric", "compare the functional score y (theta^T x + theta_0) with "
                "the margin, without dividing by ||theta||",
                _margin_variant(geometric=True)),
        Mistake("no offset", "remember the offset: theta_0 + y at every update",
                _margin_variant(offset=False)),
        Mistake("offset outside",
                "multiply the whole score by y: y * (theta @ x + theta_0); in "
                "`y * theta @ x + theta_0` the offset is not multiplied by y",
                _margin_variant(offset_outside=True)),
        Mistake("ignores tau", "stop after tau epochs even if updates go on",
                _margin_variant(until_converged=True)),
        Mistake("extra epoch", EXTRA_EPOCH, _margin_variant(extra_epochs=1)),
        Mistake("epoch count", "`updates` counts the updates of the whole run, over all "
                "epochs: set it to 0 once, before the first epoch",
                _margin_variant(count="epoch")),
        Mistake("stops without mistakes", "the run stops after an epoch with no UPDATE; "
                "an epoch with no mistake (score <= 0) may still update examples whose "
                "score is below the margin", _margin_variant(stop="mistakes")),
    ),
)


# --------------------------------------------------------------- multiclass_perceptron
def multiclass_reference(X: ArrayLike, y: ArrayLike, tau: int) -> tuple[np.ndarray, np.ndarray]:
    """The multiclass perceptron's (Theta, theta_0), rows in the sorted classes' order."""
    r = pl.multiclass_perceptron(X, y, tau=tau)
    return r.Theta, r.theta_0


def _multiclass(X, y, tau, *, demote=True, offset=True, rule="rival", ties="first", strict=False,
                order="sorted", extra_epochs=0, until_converged=False, demote_all=False):
    """The multiclass perceptron with one rule changed.

    The right rule (``rule`` "rival"): the rival p is the highest-scoring class other
    than the true one t (the first on a tie), and the example is a mistake when
    ``scores[p] >= scores[t]``.  ``rule`` "argmax" predicts the first highest score of
    all the classes and updates only when that is not t (a tie won by t is no
    mistake); ``strict`` updates only when the rival scores strictly higher; ``ties``
    "last" picks the last of equal rivals; ``demote`` False leaves
    the rival alone; ``demote_all`` demotes every class whose score reaches t's;
    ``order`` "seen" numbers the classes in order of appearance.
    """
    X, y = np.asarray(X, float), np.asarray(y)
    classes = np.unique(y) if order == "sorted" else np.array(list(dict.fromkeys(y.tolist())))
    index = {c: j for j, c in enumerate(classes.tolist())}
    Theta, theta_0 = np.zeros((len(classes), X.shape[1])), np.zeros(len(classes))
    for _ in range(10_000 if until_converged else tau + extra_epochs):
        changed = False
        for i in range(len(y)):
            scores = Theta @ X[i] + (theta_0 if offset else 0.0)
            t = index[y[i].item()]
            if rule == "argmax":
                p = int(np.argmax(scores))
                if p == t:
                    continue
            else:
                others = scores.copy()
                others[t] = -np.inf
                p = (len(others) - 1 - int(np.argmax(others[::-1])) if ties == "last"
                     else int(np.argmax(others)))
                if scores[p] <= scores[t] if strict else scores[p] < scores[t]:
                    continue
            losers = [j for j in np.flatnonzero(scores >= scores[t]) if j != t] if (
                demote_all) else [p]
            Theta[t] = Theta[t] + X[i]
            theta_0[t] += 1.0 if offset else 0.0
            if demote:
                for j in losers:
                    Theta[j] = Theta[j] - X[i]
                    theta_0[j] -= 1.0 if offset else 0.0
            changed = True
        if not changed:
            break
    return Theta, theta_0


def _multiclass_variant(**kw):
    def run(X, y, tau):
        return _multiclass(X, y, tau, **kw)

    return run


def _blobs(seed: int, classes, per_class: int, spread: float = 1.5):
    """Integer points around one centre per class, interleaved (class after class)."""
    rng = np.random.default_rng(seed)
    centres = rng.integers(-4, 5, size=(len(classes), 2)) * 2
    X = np.vstack([c + rng.normal(0, spread, size=(per_class, 2)) for c in centres])
    labels = np.repeat(np.asarray(classes), per_class)
    order = rng.permutation(len(labels))
    return np.round(X[order]), labels[order]


def _multiclass_hidden(seeds: Seeds) -> list[Case]:
    cases = []
    for k, (classes, tau) in enumerate([([0, 1, 2], 20), ([2, 5, 7], 5), ([1, 2, 3, 4], 50),
                                        ([-1, 0, 1], 10), ([9, 3, 6], 30)]):
        X, labels = _blobs(seeds(1900 + k), classes, 6)
        cases.append(Case((X, labels, tau),
                          f"{len(classes)} classes {sorted(classes)} around centres, "
                          f"tau = {tau}"))
    rng = seeds.rng(1950)
    for k in range(3):
        cases.append(Case((rng.integers(-3, 4, size=(12, 3)).astype(float),
                           rng.choice([4, 8, 15, 16], size=12), 8),
                          f"random points in 3-D with four random classes {k + 1}"))
    cases.append(Case((NOTES_X, np.array([1, 1, -1]), 10),
                      "two classes -1 and 1: the worked example"))
    return cases


MULTICLASS_PERCEPTRON = Task(
    name="multiclass_perceptron",
    points=4,
    signature="multiclass_perceptron(X, y, tau) -> (Theta, theta_0)",
    reference=multiclass_reference,
    answer=Group((("Theta", Array("a 2-D array of floats, one row per class")),
                  ("theta_0", Array("a 1-D array of floats, one offset per class"))),
                 "a tuple of two values (Theta, theta_0)"),
    public=(
        Case((np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]), np.array([1, 2, 3]), 10),
             "three points, three classes 1, 2, 3"),
        Case((np.array([[2.0, 1.0], [0.0, 3.0], [-2.0, 0.0], [1.0, -2.0], [0.0, 2.0]]),
              np.array([7, 5, 2, 7, 5]), 20),
             "classes 2, 5, 7, given out of order: the rows follow the sorted classes"),
        Case((np.array([[1.0], [2.0], [3.0], [4.0], [5.0], [6.0]]),
              np.array([0, 0, 1, 1, 2, 2]), 3),
             "six points on a line, three classes, tau = 3"),
        Case((np.array([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]]),
              np.array([0, 1, 0, 1]), 4),
             "XOR as two classes, tau = 4: it never converges"),
    ),
    hidden=_multiclass_hidden,
    known=(
        Mistake("no demotion", "on a mistake, also subtract x from the row of the "
                "rival class (and 1 from its offset)", _multiclass_variant(demote=False)),
        Mistake("no offset", "each class has an offset: add 1 to the true class's and "
                "subtract 1 from the rival's", _multiclass_variant(offset=False)),
        Mistake("tie won", "a tie between the true class and the rival is a mistake, as a "
                "score of exactly 0 is for the binary perceptron: update when "
                "score[rival] >= score[true], with the rival the best class OTHER than the "
                "true one", _multiclass_variant(rule="argmax")),
        Mistake("strict", "a tie is a mistake: update when score[rival] >= score[true] "
                "(`>=`, not `>`); with `>` nothing ever updates from Theta = 0",
                _multiclass_variant(strict=True)),
        Mistake("last rival", "on a tie among the other classes, the rival is the FIRST "
                "of them (np.argmax does that)", _multiclass_variant(ties="last")),
        Mistake("unsorted", "row j belongs to the j-th class in SORTED order "
                "(np.unique(y)), not in order of appearance",
                _multiclass_variant(order="seen")),
        Mistake("demotes all", "demote only the rival, the best of the other classes, not "
                "every class whose score reaches the true class's",
                _multiclass_variant(demote_all=True)),
        Mistake("ignores tau", "stop after tau epochs even if mistakes go on",
                _multiclass_variant(until_converged=True)),
        Mistake("extra epoch", EXTRA_EPOCH, _multiclass_variant(extra_epochs=1)),
    ),
)

TASKS = [HINGE_DEFICIENCY, MARGIN_PERCEPTRON, MULTICLASS_PERCEPTRON]
