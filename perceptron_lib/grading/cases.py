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
            },
        ),
        Task(
            name="perceptron",
            points=4,
            signature="perceptron(X, y, tau) -> (theta, theta_0, mistakes)",
            reference=_perceptron_ref,
            public=(
                Case((np.array([[1.0], [2.0], [3.0], [4.0]]), np.array([1.0, 1, -1, -1]), 100),
                     "the offset example: four points on a line"),
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
            mistakes={"a score of exactly 0 gives -1: use `> 0`, not `>= 0`": _predict_ge},
        ),
    ],
}


def find_task(name: str) -> tuple[str, Task]:
    """The assignment and task of a graded function name."""
    for assignment, tasks in ASSIGNMENTS.items():
        for task in tasks:
            if task.name == name:
                return assignment, task
    known = sorted(t.name for tasks in ASSIGNMENTS.values() for t in tasks)
    raise KeyError(f"no graded function named {name!r}; graded functions: {known}")
