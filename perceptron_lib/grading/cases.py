"""The graded functions, their cases, and the common mistakes the feedback recognises.

Every graded function is a :class:`Task`: the name the student defines, its points, a
reference that computes the expected answer (in the grader's process only), a few
public cases that the notebook's check cell runs, a deterministic set of further cases
used only at grading time, and known-wrong variants.  When a student's answer to a
failing case equals what a known-wrong variant returns, the feedback names that
mistake.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import perceptron_lib as pl


@dataclass(frozen=True)
class Case:
    """One call: the arguments, and what the case is about."""

    args: tuple
    about: str


@dataclass(frozen=True)
class Task:
    """A graded function of an assignment."""

    name: str
    points: float
    reference: Callable[..., Any]
    public: tuple[Case, ...]
    hidden: Callable[[], list[Case]]
    mistakes: dict[str, Callable[..., Any]] = field(default_factory=dict)
    signature: str = ""
    #: Applied to both the expected and the given answer before comparing (for answers
    #: whose order does not matter, such as sets of indices).
    normalize: Callable[[Any], Any] | None = None

    def all_cases(self) -> list[Case]:
        return list(self.public) + list(self.hidden())


# ---------------------------------------------------------------- chapter 1: update, ...
def _update_ref(theta, theta_0, x, y):
    return pl.update(theta, theta_0, x, y)


def _update_strict(theta, theta_0, x, y):
    theta, x = np.asarray(theta, float), np.asarray(x, float)
    if y * (theta @ x + theta_0) < 0:
        return theta + y * x, theta_0 + y, True
    return theta.copy(), float(theta_0), False


def _update_no_offset(theta, theta_0, x, y):
    th, _, up = pl.update(theta, theta_0, x, y)
    return th, float(theta_0), up


def _update_flipped(theta, theta_0, x, y):
    theta, x = np.asarray(theta, float), np.asarray(x, float)
    if y * (theta @ x + theta_0) <= 0:
        return theta - y * x, theta_0 - y, True
    return theta.copy(), float(theta_0), False


def _perceptron_ref(X, y, tau):
    r = pl.perceptron(X, y, tau=tau, method="loop")
    return r.theta, r.theta_0, r.mistakes


def _loop(X, y, tau, strict=False, offset=True, sign=1.0, until_converged=False):
    X, y = np.asarray(X, float), np.asarray(y, float)
    theta, theta_0, mistakes = np.zeros(X.shape[1]), 0.0, 0
    epochs = 10_000 if until_converged else tau
    for _ in range(epochs):
        changed = False
        for i in range(len(y)):
            score = y[i] * (theta @ X[i] + theta_0)
            if score < 0 if strict else score <= 0:
                theta = theta + sign * y[i] * X[i]
                if offset:
                    theta_0 += sign * y[i]
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, theta_0, mistakes


def _predict_ref(X, theta, theta_0):
    return pl.predict(X, theta, theta_0)


def _predict_ge(X, theta, theta_0):
    return np.where(np.asarray(X, float) @ np.asarray(theta, float) + theta_0 >= 0, 1, -1)


def _int_data(seed: int, n: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, d)).astype(float)
    y = rng.choice([-1.0, 1.0], size=n)
    return X, y


def _update_hidden() -> list[Case]:
    rng = np.random.default_rng(101)
    cases = []
    for k in range(12):
        d = int(rng.integers(1, 5))
        theta = rng.integers(-3, 4, size=d).astype(float)
        x = rng.integers(-3, 4, size=d).astype(float)
        cases.append(Case((theta, float(rng.integers(-2, 3)), x, float(rng.choice([-1, 1]))),
                          f"random hypothesis {k + 1}"))
    cases.append(Case((np.array([1.0, -1.0]), 0.0, np.array([2.0, 2.0]), -1.0),
                      "a point on the boundary, label -1"))
    return cases


def _perceptron_hidden() -> list[Case]:
    cases = [Case((*_int_data(200 + k, int(n), int(d)), int(tau)), f"random data {k + 1}")
             for k, (n, d, tau) in enumerate([(6, 2, 5), (10, 3, 20), (15, 2, 1), (8, 1, 50),
                                              (12, 4, 3), (20, 2, 100)])]
    sep = pl.make_separable(25, 2, gamma=0.2, seed=7)
    cases.append(Case((np.round(sep.X * 8), sep.y, 100), "separable data"))
    xor_X, xor_y = pl.make_xor(3, spread=0.0, seed=0)
    cases.append(Case((xor_X, xor_y, 4), "XOR, which never converges"))
    return cases


def _predict_hidden() -> list[Case]:
    cases = []
    for k in range(5):
        X, _ = _int_data(300 + k, 9, 3)
        rng = np.random.default_rng(400 + k)
        cases.append(Case((X, rng.integers(-2, 3, size=3).astype(float), float(k - 2)),
                          f"random classifier {k + 1}"))
    return cases


ASSIGNMENTS: dict[str, list[Task]] = {
    "01_algorithm": [
        Task(
            name="update",
            points=3,
            signature="update(theta, theta_0, x, y) -> (theta, theta_0, updated)",
            reference=_update_ref,
            public=(
                Case((np.array([1.0, -1.0]), 1.0, np.array([1.0, 3.0]), 1.0),
                     "the worked example of the lecture notes"),
                Case((np.array([2.0, 2.0]), 2.0, np.array([1.0, 3.0]), 1.0),
                     "an example that is already classified correctly"),
                Case((np.zeros(2), 0.0, np.array([1.0, 2.0]), -1.0),
                     "theta = 0: the score is 0, which counts as a mistake"),
            ),
            hidden=_update_hidden,
            mistakes={
                "the test must be `<= 0`: a score of exactly 0 is a mistake": _update_strict,
                "the offset must change too: theta_0 + y": _update_no_offset,
                "the update adds y * x (and y); yours subtracts": _update_flipped,
                "`updated` must be True or False, not 1 or 0":
                    lambda *a: (*pl.update(*a)[:2], int(pl.update(*a)[2])),
            },
        ),
        Task(
            name="perceptron",
            points=4,
            signature="perceptron(X, y, tau) -> (theta, theta_0, mistakes)",
            reference=_perceptron_ref,
            public=(
                Case((np.array([[1.0], [2.0], [3.0], [4.0]]), np.array([1.0, 1, -1, -1]), 100),
                     "four points on a line"),
                Case((np.array([[1.0, 3.0], [2.0, 1.0], [-1.0, 2.0]]), np.array([1.0, 1, -1]),
                      10), "the three points of the worked example"),
                Case((np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]),
                      np.array([1.0, 1, -1, -1]), 3), "XOR with tau = 3"),
            ),
            hidden=_perceptron_hidden,
            mistakes={
                "the test must be `<= 0`; with `< 0` nothing ever updates from theta = 0":
                    lambda X, y, tau: _loop(X, y, tau, strict=True),
                "remember the offset: theta_0 + y at every update":
                    lambda X, y, tau: _loop(X, y, tau, offset=False),
                "stop after tau epochs even if the data are not separated":
                    lambda X, y, tau: _loop(X, y, tau, until_converged=True),
                "the update adds y * x (and y); yours subtracts":
                    lambda X, y, tau: _loop(X, y, tau, sign=-1.0),
            },
        ),
        Task(
            name="predict",
            points=2,
            signature="predict(X, theta, theta_0) -> array of +1/-1",
            reference=_predict_ref,
            public=(
                Case((np.array([[1.0, 3.0], [2.0, 1.0], [-1.0, 2.0]]), np.array([1.0, -1.0]),
                      1.0), "the worked example's classifier"),
                Case((np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([1.0, -1.0]), 0.0),
                     "points on the boundary get -1"),
            ),
            hidden=_predict_hidden,
            mistakes={"a score of exactly 0 gives -1: use `> 0`, not `>= 0`": _predict_ge,
                      "np.sign gives 0 on the boundary; the label there is -1":
                      lambda X, t, t0: np.sign(np.asarray(X, float) @ np.asarray(t, float) + t0)},
        ),
    ],
}


# ---------------------------------------------------------------- chapter 2: the offset
def _lift_ref(X, value):
    return pl.add_offset_feature(X, value)


def _through_origin_ref(X, y, tau):
    r = pl.perceptron_through_origin(X, y, tau=tau, method="loop")
    return r.theta, r.mistakes


def _lifted_to_offset_ref(theta_new, value):
    theta_new = np.asarray(theta_new, dtype=float)
    return theta_new[:-1], float(theta_new[-1] * value)


def _origin_variant(**kw):
    def run(X, y, tau):
        theta, _, mistakes = _loop(X, y, tau, offset=False, **kw)
        return theta, mistakes

    return run


def _cases_lift() -> list[Case]:
    return [Case((_int_data(500 + k, 5, d)[0], float(v)), f"random data, value {v}")
            for k, (d, v) in enumerate([(1, 1), (2, -1), (3, 2.5), (4, 0.5)])]


def _cases_origin() -> list[Case]:
    out = [Case((*_int_data(600 + k, n, d), tau), f"random data {k + 1}")
           for k, (n, d, tau) in enumerate([(6, 2, 10), (9, 3, 1), (12, 2, 50), (7, 4, 5)])]
    ex = pl.offset_example()
    out.append(Case((pl.add_offset_feature(ex.X), ex.y, 100), "the lifted offset example"))
    return out


def _cases_lifted_to_offset() -> list[Case]:
    return [Case((np.array([2.0, -1.0, 3.0]), 2.0), "value 2"),
            Case((np.array([0.5, 4.0]), -1.0), "value -1"),
            Case((np.array([1.0, 1.0, 1.0, -6.0]), 0.25), "value 1/4")]


# ---------------------------------------------------------------- chapter 3: the margin
def _cases_margin_data() -> list[Case]:
    out = []
    for k in range(5):
        X, y = _int_data(700 + k, 7, 2 + k % 2)
        rng = np.random.default_rng(800 + k)
        theta = rng.integers(-3, 4, size=X.shape[1]).astype(float)
        theta[0] = theta[0] or 1.0
        out.append(Case((X, y, theta, float(k - 2)), f"random data {k + 1}"))
    return out


def _cases_separated() -> list[Case]:
    """Data that a given separator classifies correctly: positive margins."""
    out = []
    for k in range(2):
        data = pl.make_separable(8, 2, gamma=0.2, theta_0=0.1 * k, seed=850 + k)
        out.append(Case((np.round(data.X, 3), data.y, 2.0 * data.theta, 2.0 * data.theta_0),
                        f"a separator that gets every point right {k + 1}"))
    return out


def _drop_y(cases: list[Case]) -> list[Case]:
    return [Case((c.args[0], *c.args[2:]), c.about) for c in cases]


# ---------------------------------------------------------- chapter 4: the convergence proof
def _lemma_ref(thetas, theta_star):
    thetas, theta_star = np.asarray(thetas, float), np.asarray(theta_star, float)
    return thetas @ theta_star / np.linalg.norm(theta_star), np.sum(thetas**2, axis=1)


def _trace_case(seed: int, n: int, d: int) -> Case:
    data = pl.make_separable(n, d, gamma=0.15, seed=seed)
    r = pl.perceptron_through_origin(data.X, data.y, tau=1000, trace=True)
    thetas = np.vstack([np.zeros(d), *[u.theta for u in r.history]])
    return Case((thetas, 3.0 * data.theta), f"a traced run on {n} points in {d}-D")


# ---------------------------------------------------------- chapter 5: the spam example
def _digits_as_numbers(message):
    c = pl.count_message(message)
    return np.array([c.caps_words / max(c.other_words, 1), c.numbers / max(c.words, 1),
                     float(c.exclamations)])


def _caps_over_all(message):
    c = pl.count_message(message)
    return np.array([c.caps_words / max(c.words, 1), c.digits / max(c.words, 1),
                     float(c.exclamations)])


def _sorted_parts(value):
    if isinstance(value, tuple | list) and all(isinstance(v, tuple | list) for v in value):
        return tuple(_sorted_parts(v) for v in value)
    if isinstance(value, tuple | list):
        return tuple(np.sort(np.asarray(v, dtype=float)) for v in value)
    return value


def _kfold_large_last(n, k, seed):
    order = np.random.default_rng(seed).permutation(n)
    sizes = np.full(k, n // k)
    if n % k:
        sizes[-(n % k):] += 1
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    return [(np.concatenate([order[: bounds[j]], order[bounds[j + 1]:]]),
             order[bounds[j]: bounds[j + 1]]) for j in range(k)]


MESSAGES = [
    "FREE entry!!! Text WIN to 80086 now",
    "see you at 7, bring the notes",
    "URGENT: your account 4421 is LOCKED. Call 0800 555 0101!",
    "Lunch?",
    "I said NO. OK?",
    "$$$ CASH $$$ 1000000 prize!!!",
    "HELLO WORLD",
    "12345 67890",
]


ASSIGNMENTS.update({
    "02_offset": [
        Task(
            name="add_offset_feature",
            points=2,
            signature="add_offset_feature(X, value) -> array of shape (n, d + 1)",
            reference=_lift_ref,
            public=(Case((np.array([[1.0], [2.0], [3.0], [4.0]]), 1.0), "the offset example"),
                    Case((np.array([[1.0, 2.0], [3.0, 4.0]]), -1.0), "the -1 convention")),
            hidden=_cases_lift,
            mistakes={"append the constant as the LAST column, not the first":
                      lambda X, v: np.hstack([np.full((len(X), 1), v), np.asarray(X, float)])},
        ),
        Task(
            name="perceptron_through_origin",
            points=4,
            signature="perceptron_through_origin(X, y, tau) -> (theta, mistakes)",
            reference=_through_origin_ref,
            public=(Case((np.array([[1.0], [2.0], [3.0], [4.0]]), np.array([1.0, 1, -1, -1]),
                          10), "the offset example, which it cannot separate"),
                    Case((np.array([[1.0, 1.0], [2.0, 1.0], [3.0, 1.0], [4.0, 1.0]]),
                          np.array([1.0, 1, -1, -1]), 100), "the lifted offset example")),
            hidden=_cases_origin,
            mistakes={
                "the test must be `<= 0`: from theta = 0 every score is 0":
                    _origin_variant(strict=True),
                "stop after tau epochs even if the data are not separated":
                    _origin_variant(until_converged=True),
                "the update adds y * x; yours subtracts": _origin_variant(sign=-1.0),
            },
        ),
        Task(
            name="lifted_to_offset",
            points=2,
            signature="lifted_to_offset(theta_new, value) -> (theta, theta_0)",
            reference=_lifted_to_offset_ref,
            public=(Case((np.array([-1.0, 2.5]), 1.0), "theta_new = (-1, 2.5), value 1"),
                    Case((np.array([1.0, 2.0, -1.5]), 2.0), "theta_new = (1, 2, -1.5), value 2")),
            hidden=_cases_lifted_to_offset,
            mistakes={"theta_0 is the last entry TIMES the appended value":
                      lambda t, v: (np.asarray(t, float)[:-1], float(np.asarray(t)[-1])),
                      "multiply by the appended value, do not divide":
                      lambda t, v: (np.asarray(t, float)[:-1], float(np.asarray(t)[-1] / v))},
        ),
    ],
    "03_margin": [
        Task(
            name="signed_distance",
            points=2,
            signature="signed_distance(X, theta, theta_0) -> array of n distances",
            reference=lambda X, theta, theta_0: pl.signed_distance(X, theta, theta_0),
            public=(Case((np.array([[1.0, 3.0], [2.0, 1.0], [-1.0, 2.0]]), np.array([1.0, -1.0]),
                          1.0), "the worked example"),
                    Case((np.array([[3.0, 4.0], [0.0, 0.0]]), np.array([3.0, 4.0]), -5.0),
                         "a 3-4-5 triangle")),
            hidden=lambda: _drop_y(_cases_margin_data()),
            mistakes={
                "divide the score by ||theta|| (that is what makes it a distance)":
                    lambda X, t, t0: np.asarray(X, float) @ np.asarray(t, float) + t0,
                "divide by ||theta||, not by ||theta||^2":
                    lambda X, t, t0: (np.asarray(X, float) @ t + t0) / (np.asarray(t) @ t),
            },
        ),
        Task(
            name="point_margins",
            points=2,
            signature="point_margins(X, y, theta, theta_0) -> array of n margins",
            reference=lambda X, y, theta, theta_0: pl.point_margins(X, y, theta, theta_0),
            public=(Case((np.array([[1.0, 3.0], [2.0, 1.0], [-1.0, 2.0]]), np.array([1.0, 1, -1]),
                          np.array([1.0, -1.0]), 1.0),
                         "the worked example: -sqrt(2)/2, sqrt(2), sqrt(2)"),),
            hidden=lambda: _cases_margin_data() + _cases_separated(),
            mistakes={
                "multiply by the label y: a margin is negative for a misclassified point":
                    lambda X, y, t, t0: pl.signed_distance(X, t, t0),
                "keep the sign: no absolute value":
                    lambda X, y, t, t0: np.abs(pl.signed_distance(X, t, t0)),
            },
        ),
        Task(
            name="margin",
            points=2,
            signature="margin(X, y, theta, theta_0) -> float",
            reference=lambda X, y, theta, theta_0: pl.margin(X, y, theta, theta_0),
            public=(Case((np.array([[1.0, 3.0], [2.0, 1.0], [-1.0, 2.0]]), np.array([1.0, 1, -1]),
                          np.array([1.0, -1.0]), 1.0), "the worked example: -sqrt(2)/2"),),
            hidden=lambda: _cases_margin_data() + _cases_separated(),
            mistakes={
                "the margin of a data set is the SMALLEST point margin":
                    lambda X, y, t, t0: float(pl.point_margins(X, y, t, t0).max()),
                "take the smallest margin, not the smallest distance":
                    lambda X, y, t, t0: float(np.abs(pl.signed_distance(X, t, t0)).min()),
            },
        ),
    ],
    "04_convergence": [
        Task(
            name="radius",
            points=1,
            signature="radius(X) -> float",
            reference=lambda X: pl.radius(X),
            public=(Case((np.array([[3.0, 4.0], [1.0, 0.0], [-6.0, 8.0]]),), "norms 5, 1, 10"),),
            hidden=lambda: [Case((_int_data(900 + k, 6, 3)[0],), f"random data {k + 1}")
                            for k in range(4)],
            mistakes={"R is the largest norm, not the largest squared norm":
                      lambda X: float(np.max(np.sum(np.asarray(X, float) ** 2, axis=1))),
                      "R is the largest norm, not the mean norm":
                      lambda X: float(np.mean(np.linalg.norm(np.asarray(X, float), axis=1)))},
        ),
        Task(
            name="mistake_bound",
            points=1,
            signature="mistake_bound(R, gamma) -> float",
            reference=lambda R, gamma: pl.mistake_bound(R, gamma),
            public=(Case((2.0, 0.5), "R = 2, gamma = 1/2"),),
            hidden=lambda: [Case((r, g), f"R = {r}, gamma = {g}")
                            for r, g in [(1.0, 0.1), (3.0, 1.5), (10.0, 0.25), (0.5, 0.2)]],
            mistakes={"square the ratio: (R / gamma) ** 2": lambda R, g: R / g,
                      "that is the bound with an offset; here it is (R / gamma) ** 2":
                      lambda R, g: (2 * R / g) ** 2},
        ),
        Task(
            name="lemma_quantities",
            points=3,
            signature="lemma_quantities(thetas, theta_star) -> (alignment, norm_sq)",
            reference=_lemma_ref,
            public=(Case((np.array([[0.0, 0.0], [1.0, 2.0], [3.0, 1.0]]), np.array([3.0, 4.0])),
                         "three hypotheses, theta_star = (3, 4)"),),
            hidden=lambda: [_trace_case(1000 + k, 20 + 10 * k, 2 + k) for k in range(3)],
            mistakes={"divide by ||theta_star||: the proof uses the unit vector":
                      lambda th, ts: (np.asarray(th, float) @ np.asarray(ts, float),
                                      np.sum(np.asarray(th, float) ** 2, axis=1)),
                      "the second lemma is about the SQUARED norm":
                      lambda th, ts: (_lemma_ref(th, ts)[0],
                                      np.linalg.norm(np.asarray(th, float), axis=1))},
        ),
    ],
    "05_spam": [
        Task(
            name="spam_features",
            points=3,
            signature="spam_features(message) -> array (caps ratio, digits ratio, !)",
            reference=lambda message: pl.spam_features(message),
            public=tuple(Case((m,), f"training message {k + 1} of the paper")
                         for k, m in enumerate(pl.spam_messages().messages[:2])),
            hidden=lambda: [Case((m,), f"message {k + 1}")
                            for k, m in enumerate([*pl.spam_messages().messages[2:],
                                                   pl.spam_messages().test_message, *MESSAGES])],
            mistakes={"the second feature counts DIGITS, not numbers": _digits_as_numbers,
                      "divide the all-caps words by the OTHER words, not by all words":
                      _caps_over_all},
        ),
        Task(
            name="accuracy",
            points=1,
            signature="accuracy(y_true, y_pred) -> float",
            reference=lambda a, b: pl.accuracy(a, b),
            public=(Case((np.array([1, -1, 1, 1]), np.array([1, 1, 1, -1])), "two of four"),),
            hidden=lambda: [Case((np.array(a), np.array(b)), f"labels {k + 1}")
                            for k, (a, b) in enumerate([([1, 1, 1], [1, 1, 1]),
                                                        ([1, -1], [-1, 1]),
                                                        ([-1] * 5 + [1] * 3, [-1] * 8)])],
            mistakes={"accuracy is the share of RIGHT answers":
                      lambda a, b: float(np.mean(np.asarray(a) != np.asarray(b)))},
        ),
        Task(
            name="train_test_split",
            points=2,
            signature="train_test_split(n, test_fraction, seed) -> (train_idx, test_idx)",
            reference=lambda n, f, s: pl.train_test_split(n, f, s),
            public=(Case((8, 0.25, 0), "8 examples, a quarter held out"),
                    Case((10, 0.25, 0), "10 examples: 2.5 rounds up to 3 test examples")),
            hidden=lambda: [Case(a, f"n = {a[0]}, fraction {a[1]}")
                            for a in [(10, 0.3, 1), (101, 0.2, 2), (5, 0.5, 3)]],
            normalize=_sorted_parts,
            mistakes={"the test part gets ceil(test_fraction * n) examples":
                      lambda n, f, s: (np.random.default_rng(s).permutation(n)[int(f * n):],
                                       np.random.default_rng(s).permutation(n)[:int(f * n)]),
                      "return the training part first, then the test part":
                      lambda n, f, s: pl.train_test_split(n, f, s)[::-1]},
        ),
        Task(
            name="kfold_indices",
            points=2,
            signature="kfold_indices(n, k, seed) -> list of (train_idx, test_idx)",
            reference=lambda n, k, s: pl.kfold_indices(n, k, s),
            public=(Case((10, 5, 0), "10 examples, 5 folds"),
                    Case((11, 3, 0), "11 examples, 3 folds: sizes 4, 4, 3")),
            hidden=lambda: [Case(a, f"n = {a[0]}, k = {a[1]}")
                            for a in [(13, 3, 1), (7, 7, 2), (50, 4, 3), (22, 5, 4)]],
            normalize=_sorted_parts,
            mistakes={"shuffle first: np.random.default_rng(seed).permutation(n)":
                      lambda n, k, s: pl.kfold_indices(n, k, s, shuffle=False),
                      "the first n % k folds are the larger ones": _kfold_large_last},
        ),
    ],
})


# ---------------------------------------------------------------- chapter 6: variants
def _averaged_ref(X, y, tau):
    r = pl.averaged_perceptron(X, y, tau)
    return r.theta, r.theta_0


def _averaged_variant(strict=False, add="after", divide="visits"):
    """A wrong averaged perceptron: which hypotheses it adds up, and what it divides by.

    ``add`` is "after" (right), "before" a visit, "updates" only, "epochs" (once per
    epoch) or "last" (no average); ``divide`` is "visits" (right) or "n_tau".
    """

    def run(X, y, tau):
        X, y = np.asarray(X, float), np.asarray(y, float)
        n, d = X.shape
        theta, theta_0 = np.zeros(d), 0.0
        total, total_0, count = np.zeros(d), 0.0, 0
        for _ in range(tau):
            changed = False
            for i in range(n):
                if add == "before":
                    total, total_0, count = total + theta, total_0 + theta_0, count + 1
                score = y[i] * (theta @ X[i] + theta_0)
                mistake = bool(score < 0 if strict else score <= 0)
                if mistake:
                    theta, theta_0, changed = theta + y[i] * X[i], theta_0 + y[i], True
                if add == "after" or (add == "updates" and mistake):
                    total, total_0, count = total + theta, total_0 + theta_0, count + 1
            if add == "epochs":
                total, total_0, count = total + theta, total_0 + theta_0, count + 1
            if not changed:
                break
        if add == "last":
            return theta, theta_0
        count = n * tau if divide == "n_tau" else count
        if count == 0:
            raise ValueError("nothing to average")
        return total / count, total_0 / count

    return run


def _averaged_hidden() -> list[Case]:
    cases = [Case((*_int_data(1100 + k, n, d), tau), f"random data {k + 1}")
             for k, (n, d, tau) in enumerate([(6, 2, 5), (10, 3, 20), (15, 2, 1), (8, 1, 50),
                                              (12, 4, 3)])]
    for k, seed in enumerate((1153, 1154)):
        X = np.random.default_rng(seed).integers(-5, 6, size=(40, 2)).astype(float)
        scores = X @ np.array([2.0, -3.0]) + 1.0
        X, scores = X[scores != 0][:20], scores[scores != 0][:20]
        cases.append(Case((X, np.where(scores > 0, 1.0, -1.0), 100),
                          f"separable data {k + 1}: the run converges before tau"))
    noisy_X, noisy_y = pl.make_noisy(30, 2, flip=0.1, gamma=0.2, seed=1160)
    cases.append(Case((np.round(noisy_X * 8), noisy_y, 10), "noisy data, tau = 10"))
    cases.append(Case((*pl.make_xor(2, spread=0.0, seed=0), 4),
                      "XOR with two copies of each corner"))
    return cases


def _voted_ref(X, thetas, theta_0s, counts):
    model = pl.VotedResult(np.asarray(thetas, float), np.asarray(theta_0s, float),
                           np.asarray(counts), 0, 0, True)
    return pl.voted_predict(model, X)


def _voted_variant(vote="sign", weigh=True, final="> 0"):
    """A wrong vote: ``vote`` "sign" (right), "np.sign" or "score"; ``final`` "> 0"
    (right), ">= 0" or "np.sign"; ``weigh`` False gives every hypothesis one vote."""

    def run(X, thetas, theta_0s, counts):
        scores = (np.asarray(X, float) @ np.asarray(thetas, float).T
                  + np.asarray(theta_0s, float))
        votes = {"sign": np.where(scores > 0, 1, -1), "np.sign": np.sign(scores),
                 "score": scores}[vote]
        total = votes @ (np.asarray(counts) if weigh else np.ones(len(counts)))
        if final == "np.sign":
            return np.sign(total)
        return np.where(total >= 0 if final == ">= 0" else total > 0, 1, -1)

    return run


def _voted_run_case(X, y, tau, X_new, about):
    r = pl.voted_perceptron(X, y, tau)
    return Case((np.asarray(X_new, float), r.thetas, r.theta_0s, r.counts), about)


def _grid(low: int, high: int, step: int = 1) -> np.ndarray:
    """The integer points of a square, row by row: many of them sit on boundaries."""
    ticks = np.arange(low, high + 1, step, dtype=float)
    return np.array([[a, b] for b in ticks[::-1] for a in ticks])


def _voted_hidden() -> list[Case]:
    cases = []
    for k, (n, d, tau) in enumerate([(8, 2, 10), (12, 2, 3), (10, 3, 20), (15, 2, 50)]):
        X, y = _int_data(1200 + k, n, d)
        X_new = _int_data(1250 + k, 12, d)[0]
        cases.append(_voted_run_case(X, y, tau, np.vstack([X, X_new]),
                                     f"a voted perceptron trained on random data {k + 1}"))
    xor_X, xor_y = pl.make_xor(1, spread=0.0, seed=0)
    cases.append(_voted_run_case(xor_X, xor_y, 5, _grid(-2, 2),
                                 "the voted perceptron of XOR, on a grid of points"))
    noisy = pl.make_noisy(30, 2, flip=0.15, gamma=0.2, seed=1260)
    cases.append(_voted_run_case(np.round(noisy[0] * 6), noisy[1], 8, _grid(-6, 6, 2),
                                 "noisy data, on a grid of points"))
    cases.append(Case((_grid(-2, 2), np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
                       np.array([0.0, 0.0, -1.0]), np.array([2, 2, 3])),
                      "hand-made hypotheses with many scores of exactly 0"))
    return cases


def _ova_ref(X, thetas, theta_0s, classes):
    model = pl.OneVsAllResult(np.asarray(classes), np.asarray(thetas, float),
                              np.asarray(theta_0s, float), np.ones(len(classes), dtype=bool))
    return pl.one_vs_all_predict(model, X)


def _ova_scores(X, thetas, theta_0s, offset=True):
    scores = np.asarray(X, float) @ np.asarray(thetas, float).T
    return scores + np.asarray(theta_0s, float) if offset else scores


def _ova_variant(pick="first max", offset=True, normalize=False, index=False):
    """A wrong one-vs-all rule: ``pick`` "first max" (right), "last max" or "min"."""

    def run(X, thetas, theta_0s, classes):
        scores = _ova_scores(X, thetas, theta_0s, offset)
        if normalize:
            with np.errstate(divide="ignore", invalid="ignore"):
                scores = scores / np.linalg.norm(np.asarray(thetas, float), axis=1)
        if pick == "min":
            k = np.argmin(scores, axis=1)
        elif pick == "last max":
            k = scores.shape[1] - 1 - np.argmax(scores[:, ::-1], axis=1)
        else:
            k = np.argmax(scores, axis=1)
        return k if index else np.asarray(classes)[k]

    return run


def _blobs(seed: int, classes, per_class: int, spread: float = 1.2):
    """Integer points around one centre per class (one-vs-all's training data)."""
    rng = np.random.default_rng(seed)
    centres = rng.integers(-5, 6, size=(len(classes), 2)) * 2
    X = np.vstack([c + rng.normal(0, spread, size=(per_class, 2)) for c in centres])
    return np.round(X), np.repeat(np.asarray(classes), per_class)


def _ova_hidden() -> list[Case]:
    cases = []
    for k, classes in enumerate([[0, 1, 2], [2, 5, 7], [1, 2, 3, 4], [-1, 0, 1]]):
        X, labels = _blobs(1300 + k, classes, 6)
        model = pl.one_vs_all(X, labels, tau=20)
        cases.append(Case((np.vstack([X, _grid(-8, 8, 2)]), model.thetas, model.theta_0s,
                           model.classes),
                          f"a one-vs-all model of {len(classes)} classes, trained on blobs"))
    rng = np.random.default_rng(1350)
    for k in range(3):
        thetas = rng.integers(-3, 4, size=(4, 3)).astype(float)
        thetas[:, 0] = np.where(thetas[:, 0] == 0, 1.0, thetas[:, 0])
        cases.append(Case((rng.integers(-3, 4, size=(15, 3)).astype(float), thetas,
                           rng.integers(-2, 3, size=4).astype(float), np.array([3, 1, 4, 9])),
                          f"four random classifiers in 3-D {k + 1}, with ties"))
    return cases


def _gram_ref(A, B, degree, coef0):
    return pl.polynomial_kernel(degree, coef0)(np.asarray(A, float), np.asarray(B, float))


def _gram_hidden() -> list[Case]:
    cases = []
    for k, (m, p, d, degree, coef0) in enumerate([(4, 4, 2, 2, 1.0), (3, 5, 3, 3, 0.0),
                                                   (6, 2, 2, 1, 2.5), (5, 5, 4, 4, -1.0),
                                                   (2, 7, 1, 3, 0.5)]):
        A = _int_data(1400 + k, m, d)[0]
        B = _int_data(1450 + k, p, d)[0]
        cases.append(Case((A, B, degree, coef0), f"random points, degree {degree}, "
                                                 f"coef0 {coef0:g}"))
    return cases


def _kernel_ref(G, y, tau):
    # The library's loop, run on the indices 0, ..., n-1 with a kernel that looks up G.
    G = np.asarray(G, float)

    def lookup(A, B):
        return G[np.ix_(A[:, 0].astype(int), B[:, 0].astype(int))]

    r = pl.kernel_perceptron(np.arange(len(G), dtype=float)[:, None], y, lookup, tau)
    return r.alpha, r.theta_0


def _kernel_variant(strict=False, offset=True, until_converged=False, with_y=True,
                    signed=False):
    """A wrong kernel perceptron; ``signed`` keeps alpha_j + y_j instead of a count."""

    def run(G, y, tau):
        G, y = np.asarray(G, float), np.asarray(y, float)
        alpha, theta_0 = np.zeros(len(y)), 0.0
        for _ in range(10_000 if until_converged else tau):
            changed = False
            for i in range(len(y)):
                weights = alpha if signed or not with_y else alpha * y
                score = y[i] * (weights @ G[:, i] + theta_0)
                if score < 0 if strict else score <= 0:
                    alpha[i] += y[i] if signed else 1
                    theta_0 += y[i] if offset else 0.0
                    changed = True
            if not changed:
                break
        return alpha, theta_0

    return run


def _gram_case(X, y, tau, degree, coef0, about):
    X = np.asarray(X, float)
    return Case((_gram_ref(X, X, degree, coef0), np.asarray(y, float), tau), about)


def _kernel_hidden() -> list[Case]:
    cases = []
    for k, (n, d, degree, tau) in enumerate([(6, 2, 2, 10), (10, 2, 2, 30), (8, 3, 3, 5),
                                             (12, 2, 1, 20), (9, 1, 2, 50)]):
        X, y = _int_data(1500 + k, n, d)
        cases.append(_gram_case(X, y, tau, degree, 1.0,
                                f"random data {k + 1}, polynomial kernel of degree {degree}"))
    circle = _grid(-3, 3)
    inside = np.where(np.sum(circle**2, axis=1) <= 4, 1.0, -1.0)
    cases.append(_gram_case(circle, inside, 100, 2, 1.0,
                            "a disc inside a square, polynomial kernel of degree 2"))
    xor_X, xor_y = pl.make_xor(2, spread=0.0, seed=0)
    cases.append(_gram_case(xor_X * 2, xor_y, 4, 1, 0.0, "XOR, linear kernel, tau = 4"))
    cases.append(_gram_case(xor_X, xor_y, 20, 2, 0.0,
                            "XOR, polynomial kernel of degree 2 without coef0"))
    return cases


XOR_X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
XOR_Y = np.array([1.0, 1.0, -1.0, -1.0])
NOTES_X = np.array([[1.0, 3.0], [2.0, 1.0], [-1.0, 2.0]])
NOTES_Y = np.array([1.0, 1.0, -1.0])


ASSIGNMENTS.update({
    "06_variants": [
        Task(
            name="averaged_perceptron",
            points=4,
            signature="averaged_perceptron(X, y, tau) -> (theta, theta_0)",
            reference=_averaged_ref,
            public=(
                Case((np.array([[1.0], [2.0], [-1.0]]), np.array([1.0, 1.0, -1.0]), 10),
                     "three points on a line: theta after the six visits is 1, 1, 2, 2, 2, 2"),
                Case((NOTES_X, NOTES_Y, 10), "the three points of the worked example"),
                Case((XOR_X, XOR_Y, 3), "XOR with tau = 3, which never converges"),
            ),
            hidden=_averaged_hidden,
            mistakes={
                "the test must be `<= 0`; with `< 0` nothing ever updates from theta = 0":
                    _averaged_variant(strict=True),
                "return the AVERAGE of the hypotheses, not the last one":
                    _averaged_variant(add="last"),
                "add the hypothesis after EVERY visit, not only after updates: a hypothesis "
                "that survives many visits must weigh more": _averaged_variant(add="updates"),
                "average over the visits (n per epoch), not over the epochs":
                    _averaged_variant(add="epochs"),
                "add the hypothesis AFTER the visit (after its update, if any), not before":
                    _averaged_variant(add="before"),
                "divide by the number of visits made: a run that converges stops before "
                "tau epochs": _averaged_variant(divide="n_tau"),
            },
        ),
        Task(
            name="voted_predict",
            points=2,
            signature="voted_predict(X, thetas, theta_0s, counts) -> array of +1/-1",
            reference=_voted_ref,
            public=(
                Case((np.array([[1.0], [-1.0], [2.0]]), np.array([[1.0], [-1.0], [-1.0]]),
                      np.zeros(3), np.array([5, 1, 1])),
                     "three hypotheses: the counts outweigh the majority"),
                _voted_run_case(NOTES_X, NOTES_Y, 10, np.vstack([NOTES_X, _grid(-1, 1)]),
                                "the voted perceptron of the worked example"),
                Case((np.array([[1.0, 1.0], [-1.0, 1.0], [1.0, 0.0], [2.0, -1.0]]),
                      np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), np.zeros(3),
                      np.array([1, 2, 3])),
                     "ties: theta = 0 votes -1, and a weighted sum of 0 gives -1"),
            ),
            hidden=_voted_hidden,
            mistakes={
                "weigh each hypothesis's vote by its count": _voted_variant(weigh=False),
                "each hypothesis votes the SIGN of its score (+1 or -1), not the score itself":
                    _voted_variant(vote="score"),
                "a hypothesis whose score is exactly 0 votes -1 (np.sign would give it 0)":
                    _voted_variant(vote="np.sign"),
                "a weighted sum of exactly 0 gives -1 (np.sign would give 0)":
                    _voted_variant(final="np.sign"),
                "the label is +1 only when the weighted sum is `> 0`; a tie gives -1":
                    _voted_variant(final=">= 0"),
            },
        ),
        Task(
            name="one_vs_all_predict",
            points=2,
            signature="one_vs_all_predict(X, thetas, theta_0s, classes) -> array of classes",
            reference=_ova_ref,
            public=(
                Case((np.array([[2.0, 0.0], [0.0, 3.0], [-2.0, -1.0], [-5.0, -5.0]]),
                      np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]),
                      np.array([0.0, -1.0, -1.0]), np.array([1, 2, 3])),
                     "three classes 1, 2, 3 in the plane"),
                Case((np.array([[1.0, 1.0], [0.0, 0.0], [3.0, -1.0]]),
                      np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]]),
                      np.array([0.0, 0.0, -1.0]), np.array([7, 5, 2])),
                     "ties: the first class with the highest score wins"),
                Case((np.array([[0.0, 0.0], [1.0, -1.0]]),
                      np.array([[2.0, 0.0], [0.0, 1.0]]), np.array([-3.0, -1.0]),
                      np.array([0, 1])),
                     "every score negative: the highest still wins"),
            ),
            hidden=_ova_hidden,
            mistakes={
                "pick the class with the HIGHEST score (argmax)": _ova_variant(pick="min"),
                "return the class, classes[k], not its index k": _ova_variant(index=True),
                "on a tie the FIRST class with the highest score wins (np.argmax does that)":
                    _ova_variant(pick="last max"),
                "add each class's offset theta_0 to its score": _ova_variant(offset=False),
                "compare the raw scores theta . x + theta_0; do not divide by ||theta||":
                    _ova_variant(normalize=True),
            },
        ),
        Task(
            name="polynomial_gram",
            points=1,
            signature="polynomial_gram(A, B, degree, coef0) -> array of shape (len(A), len(B))",
            reference=_gram_ref,
            public=(
                Case((XOR_X, XOR_X, 2, 1.0), "the four XOR points, degree 2, coef0 = 1"),
                Case((np.array([[1.0, 2.0], [0.0, -1.0]]),
                      np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 1.0]]), 3, 0.5),
                     "two points against three, degree 3, coef0 = 1/2"),
            ),
            hidden=_gram_hidden,
            mistakes={
                "add coef0 BEFORE raising to the power: (a . b + coef0) ** degree":
                    lambda A, B, deg, c: (np.asarray(A, float) @ np.asarray(B, float).T) ** deg
                    + c,
                "entry (i, j) pairs row i of A with row j of B: the shape is (len(A), len(B))":
                    lambda A, B, deg, c: _gram_ref(B, A, deg, c),
                "raise to the power `degree`, do not multiply by it":
                    lambda A, B, deg, c: (np.asarray(A, float) @ np.asarray(B, float).T + c)
                    * deg,
            },
        ),
        Task(
            name="kernel_perceptron",
            points=3,
            signature="kernel_perceptron(G, y, tau) -> (alpha, theta_0)",
            reference=_kernel_ref,
            public=(
                _gram_case(XOR_X, XOR_Y, 10, 2, 1.0,
                           "XOR, polynomial kernel of degree 2 with coef0 = 1"),
                _gram_case(NOTES_X, NOTES_Y, 10, 1, 0.0,
                           "the worked example, linear kernel: the plain perceptron"),
                _gram_case(XOR_X, XOR_Y, 3, 1, 0.0,
                           "XOR, linear kernel, tau = 3: it never converges"),
            ),
            hidden=_kernel_hidden,
            mistakes={
                "the test must be `<= 0`; with `< 0` nothing ever updates from alpha = 0":
                    _kernel_variant(strict=True),
                "remember the offset: theta_0 + y_i at every update":
                    _kernel_variant(offset=False),
                "stop after tau epochs even if the data are not separated":
                    _kernel_variant(until_converged=True),
                "the score is sum_j alpha_j y_j G[j, i] + theta_0: multiply by the labels":
                    _kernel_variant(with_y=False),
                "alpha_j counts the updates on example j (add 1, not y_j); the label enters "
                "the score": _kernel_variant(signed=True),
            },
        ),
    ],
})


def find_task(name: str) -> tuple[str, Task]:
    """The assignment and task of a graded function name."""
    for assignment, tasks in ASSIGNMENTS.items():
        for task in tasks:
            if task.name == name:
                return assignment, task
    known = sorted(t.name for tasks in ASSIGNMENTS.values() for t in tasks)
    raise KeyError(f"no graded function named {name!r}; graded functions: {known}")
