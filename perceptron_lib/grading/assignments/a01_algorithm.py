"""Chapter 1, The algorithm: ``update``, ``perceptron`` and ``predict``."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

import perceptron_lib as pl

from ._common import int_data, perceptron_loop
from .answers import Array, Flag, Group, Number
from .exercise import Case, Mistake, Seeds, Task

NOTES_X = np.array([[1.0, 3.0], [2.0, 1.0], [-1.0, 2.0]])
NOTES_Y = np.array([1.0, 1.0, -1.0])
XOR_X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
XOR_Y = np.array([1.0, 1.0, -1.0, -1.0])


# ------------------------------------------------------------------------------ update
def update_reference(theta: ArrayLike, theta_0: float, x: ArrayLike,
                     y: float) -> tuple[np.ndarray, float, bool]:
    """The library's rule: (theta, theta_0, updated)."""
    return pl.update(theta, theta_0, x, y)


def _update(theta, theta_0, x, y, *, strict=False, offset=True, sign=1.0, label=True,
            offset_outside=False, flag=bool):
    theta, x = np.asarray(theta, float), np.asarray(x, float)
    score = y * (theta @ x) + theta_0 if offset_outside else y * (theta @ x + theta_0)
    if score < 0 if strict else score <= 0:
        step = y if label else 1.0
        return (theta + sign * step * x, float(theta_0 + sign * step * offset),
                flag(True))
    return theta.copy(), float(theta_0), flag(False)


def _update_variant(**kw):
    def run(theta, theta_0, x, y):
        return _update(theta, theta_0, x, y, **kw)

    return run


def _update_hidden(seeds: Seeds) -> list[Case]:
    rng = seeds.rng(101)
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


UPDATE = Task(
    name="update",
    points=3,
    signature="update(theta, theta_0, x, y) -> (theta, theta_0, updated)",
    reference=update_reference,
    answer=Group((("theta", Array("a 1-D array of floats")), ("theta_0", Number("a float")),
                  ("updated", Flag("a bool, True or False"))),
                 "a tuple of three values (theta, theta_0, updated)"),
    public=(
        Case((np.array([1.0, -1.0]), 1.0, np.array([1.0, 3.0]), 1.0),
             "the worked example of the chapter"),
        Case((np.array([2.0, 2.0]), 2.0, np.array([1.0, 3.0]), 1.0),
             "an example that is already classified correctly"),
        Case((np.zeros(2), 0.0, np.array([1.0, 2.0]), -1.0),
             "theta = 0: the score is 0, which counts as a mistake"),
        Case((np.array([1.0, 1.0]), 2.0, np.array([1.0, 0.0]), -1.0),
             "label -1 and an offset: the score y (theta^T x + theta_0) is -3, a mistake"),
    ),
    hidden=_update_hidden,
    known=(
        Mistake("strict", "the test must be `<= 0`: a score of exactly 0 is a mistake",
                _update_variant(strict=True)),
        Mistake("no offset", "the offset must change too: theta_0 + y",
                _update_variant(offset=False)),
        Mistake("subtracts", "the update adds y * x (and y); yours subtracts",
                _update_variant(sign=-1.0)),
        Mistake("no label", "the update adds y * x and y: multiply by the label y",
                _update_variant(label=False)),
        Mistake("int flag", "`updated` must be True or False, not 1 or 0",
                _update_variant(flag=int)),
        Mistake("offset outside",
                "multiply the whole score by y: y * (theta @ x + theta_0); in "
                "`y * theta @ x + theta_0` the offset is not multiplied by y",
                _update_variant(offset_outside=True)),
    ),
)


# -------------------------------------------------------------------------- perceptron
def perceptron_reference(X: ArrayLike, y: ArrayLike,
                         tau: int) -> tuple[np.ndarray, float, int]:
    """PERCEPTRON of chapter 1: (theta, theta_0, mistakes)."""
    r = pl.perceptron(X, y, tau=tau, method="loop")
    return r.theta, r.theta_0, r.mistakes


def _loop_variant(**kw):
    def run(X, y, tau):
        return perceptron_loop(X, y, tau, **kw)

    return run


def _perceptron_hidden(seeds: Seeds) -> list[Case]:
    cases = [Case((*int_data(seeds(200 + k), int(n), int(d)), int(tau)), f"random data {k + 1}")
             for k, (n, d, tau) in enumerate([(6, 2, 5), (10, 3, 20), (15, 2, 1), (8, 1, 50),
                                              (12, 4, 3), (20, 2, 100)])]
    sep = pl.make_separable(25, 2, gamma=0.2, seed=seeds(7))
    cases.append(Case((np.round(sep.X * 8), sep.y, 100), "separable data"))
    xor_X, xor_y = pl.make_xor(3, spread=0.0, seed=0)
    cases.append(Case((xor_X, xor_y, 4), "XOR, which never converges"))
    return cases


PERCEPTRON = Task(
    name="perceptron",
    points=4,
    signature="perceptron(X, y, tau) -> (theta, theta_0, mistakes)",
    reference=perceptron_reference,
    answer=Group((("theta", Array("a 1-D array of floats")), ("theta_0", Number("a float")),
                  ("mistakes", Number("an int", integer=True))),
                 "a tuple of three values (theta, theta_0, mistakes)"),
    public=(
        Case((np.array([[1.0], [2.0], [3.0], [4.0]]), np.array([1.0, 1, -1, -1]), 100),
             "four points on a line"),
        Case((NOTES_X, NOTES_Y, 10), "the three points of the worked example"),
        Case((XOR_X, XOR_Y, 3), "XOR with tau = 3: exactly 3 epochs"),
        Case((np.array([[1.0], [-1.0], [-2.0]]), np.array([-1.0, 1.0, -1.0]), 2),
             "three points on a line, tau = 2: labels -1 with an offset"),
    ),
    hidden=_perceptron_hidden,
    known=(
        Mistake("strict",
                "the test must be `<= 0`; with `< 0` nothing ever updates from theta = 0",
                _loop_variant(strict=True)),
        Mistake("no offset", "remember the offset: theta_0 + y at every update",
                _loop_variant(offset=False)),
        Mistake("ignores tau", "stop after tau epochs even if the data are not separated",
                _loop_variant(until_converged=True)),
        Mistake("extra epoch", "run at most tau epochs: `range(tau)` runs tau of them, "
                "`range(tau + 1)` or `while epoch <= tau` one more",
                _loop_variant(extra_epochs=1)),
        Mistake("subtracts", "the update adds y * x (and y); yours subtracts",
                _loop_variant(sign=-1.0)),
        Mistake("epoch count", "`mistakes` counts the updates of the whole run, over all "
                "epochs: set it to 0 once, before the first epoch",
                _loop_variant(count="epoch")),
        Mistake("offset outside",
                "multiply the whole score by y: y * (theta @ x + theta_0); in "
                "`y * theta @ x + theta_0` the offset is not multiplied by y",
                _loop_variant(offset_outside=True)),
        Mistake("skips last", "visit every example in each epoch, rows 0 to n - 1: "
                "`range(len(y))`, not `range(len(y) - 1)`", _loop_variant(skip_last=True)),
    ),
)


# ----------------------------------------------------------------------------- predict
def predict_reference(X: ArrayLike, theta: ArrayLike, theta_0: float) -> np.ndarray:
    """The labels +1/-1 of chapter 1's linear classifier."""
    return pl.predict(X, theta, theta_0)


def _scores(X, theta, theta_0):
    return np.asarray(X, float) @ np.asarray(theta, float) + theta_0


def _predict_ge(X, theta, theta_0):
    return np.where(_scores(X, theta, theta_0) >= 0, 1, -1)


def _predict_sign(X, theta, theta_0):
    return np.sign(_scores(X, theta, theta_0))


def _predict_no_offset(X, theta, theta_0):
    return np.where(_scores(X, theta, 0.0) > 0, 1, -1)


def _predict_zero_one(X, theta, theta_0):
    return (_scores(X, theta, theta_0) > 0).astype(int)


def _predict_hidden(seeds: Seeds) -> list[Case]:
    cases = []
    for k in range(5):
        X, _ = int_data(seeds(300 + k), 9, 3)
        rng = seeds.rng(400 + k)
        cases.append(Case((X, rng.integers(-2, 3, size=3).astype(float), float(k - 2)),
                          f"random classifier {k + 1}"))
    return cases


PREDICT = Task(
    name="predict",
    points=2,
    signature="predict(X, theta, theta_0) -> array of +1/-1",
    reference=predict_reference,
    answer=Array("a 1-D array of labels 1 or -1"),
    public=(
        Case((NOTES_X, np.array([1.0, -1.0]), 1.0), "the worked example's classifier"),
        Case((np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 2.0]]), np.array([1.0, -1.0]), 0.0),
             "two points on the boundary, which get -1, and one below it"),
        Case((np.array([[1.0, 0.0], [3.0, 0.0]]), np.array([1.0, 0.0]), -2.0),
             "the offset moves the boundary to x_1 = 2"),
    ),
    hidden=_predict_hidden,
    known=(
        Mistake("ge", "a score of exactly 0 gives -1: use `> 0`, not `>= 0`", _predict_ge),
        Mistake("np.sign", "np.sign gives 0 on the boundary; the label there is -1",
                _predict_sign),
        Mistake("no offset", "the score is theta^T x + theta_0: add the offset theta_0",
                _predict_no_offset),
        Mistake("zero one", "the labels are 1 and -1, not 1 and 0 (nor True and False): "
                "np.where(scores > 0, 1, -1)", _predict_zero_one),
        Mistake("scores", "return the labels 1 or -1, not the scores themselves",
                _scores),
    ),
)

TASKS = [UPDATE, PERCEPTRON, PREDICT]
