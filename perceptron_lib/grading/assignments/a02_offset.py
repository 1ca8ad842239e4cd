"""Chapter 2, The offset: ``add_offset_feature``, ``perceptron_through_origin`` and
``lifted_to_offset``."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

import perceptron_lib as pl

from ._common import int_data, perceptron_loop
from .answers import Array, Group, Number
from .exercise import Case, Mistake, Seeds, Task

LINE_X = np.array([[1.0], [2.0], [3.0], [4.0]])
LINE_Y = np.array([1.0, 1.0, -1.0, -1.0])


# -------------------------------------------------------------------- add_offset_feature
def lift_reference(X: ArrayLike, value: float = 1.0) -> np.ndarray:
    """The data with a last column equal to ``value``."""
    return pl.add_offset_feature(X, value)


def _lift_first(X, value=1.0):
    return np.hstack([np.full((len(X), 1), float(value)), np.asarray(X, float)])


def _lift_keeps_dtype(X, value=1.0):
    X = np.asarray(X)
    out = np.empty((X.shape[0], X.shape[1] + 1), dtype=X.dtype)
    out[:, :-1], out[:, -1] = X, value
    return out


def _lift_ones(X, value=1.0):
    return np.hstack([np.asarray(X, float), np.ones((len(X), 1))])


def _lift_row(X, value=1.0):
    X = np.asarray(X, float)
    return np.vstack([X, np.full((1, X.shape[1]), float(value))])


def _cases_lift(seeds: Seeds) -> list[Case]:
    return [*(Case((int_data(seeds(500 + k), 5, d)[0], float(v)), f"random data, value {v}")
              for k, (d, v) in enumerate([(1, 1), (2, -1), (3, 2.5), (4, 0.5)])),
            Case((np.array([[0, -2, 7]]), -2.5), "one row of integers, value -2.5"),
            Case((np.array([[1.0], [2.0]]),), "value left out: the constant is 1.0")]


ADD_OFFSET_FEATURE = Task(
    name="add_offset_feature",
    points=2,
    signature="add_offset_feature(X, value) -> array of shape (n, d + 1)",
    reference=lift_reference,
    answer=Array("a float array of shape (n, d + 1)"),
    public=(Case((np.array([[1.0], [2.0], [3.0], [4.0]]), 1.0), "the offset example"),
            Case((np.array([[1.0, 2.0], [3.0, 4.0]]), -1.0), "the -1 convention"),
            Case((np.array([[1, 2], [3, 4], [-5, 0]]), 0.5),
                 "integer arrays, X and value 1/2: the new column holds 0.5, so the result is "
                 "a float array")),
    hidden=_cases_lift,
    known=(
        Mistake("first column", "append the constant as the LAST column, not the first",
                _lift_first),
        Mistake("ones", "the new column holds `value`, which need not be 1", _lift_ones),
        Mistake("keeps dtype", "return a float array: with an integer X the new column "
                "must still hold `value` (0.5 stays 0.5); convert first, "
                "np.asarray(X, dtype=float)", _lift_keeps_dtype),
        Mistake("row", "append a COLUMN (one more entry in every row), not a row: the "
                "result has shape (n, d + 1)", _lift_row),
    ),
)


# ------------------------------------------------------------- perceptron_through_origin
def through_origin_reference(X: ArrayLike, y: ArrayLike, tau: int) -> tuple[np.ndarray, int]:
    """PERCEPTRON-THROUGH-ORIGIN of chapter 2: (theta, mistakes)."""
    r = pl.perceptron_through_origin(X, y, tau=tau, method="loop")
    return r.theta, r.mistakes


def _origin_variant(**kw):
    def run(X, y, tau):
        theta, _, mistakes = perceptron_loop(X, y, tau, offset=False, **kw)
        return theta, mistakes

    return run


def _origin_with_offset(X, y, tau):
    theta, _, mistakes = perceptron_loop(X, y, tau)
    return theta, mistakes


def _cases_origin(seeds: Seeds) -> list[Case]:
    out = [Case((*int_data(seeds(600 + k), n, d), tau), f"random data {k + 1}")
           for k, (n, d, tau) in enumerate([(6, 2, 10), (9, 3, 1), (12, 2, 50), (7, 4, 5)])]
    ex = pl.offset_example()
    out.append(Case((pl.add_offset_feature(ex.X), ex.y, 100), "the lifted offset example"))
    return out


PERCEPTRON_THROUGH_ORIGIN = Task(
    name="perceptron_through_origin",
    points=4,
    signature="perceptron_through_origin(X, y, tau) -> (theta, mistakes)",
    reference=through_origin_reference,
    answer=Group((("theta", Array("a 1-D array of floats")),
                  ("mistakes", Number("an int", integer=True))),
                 "a tuple of two values (theta, mistakes)"),
    public=(Case((LINE_X, LINE_Y, 10), "the offset example, which it cannot separate"),
            Case((np.array([[1.0, 1.0], [2.0, 1.0], [3.0, 1.0], [4.0, 1.0]]), LINE_Y, 100),
                 "the lifted offset example")),
    hidden=_cases_origin,
    known=(
        Mistake("strict", "the test must be `<= 0`: from theta = 0 every score is 0",
                _origin_variant(strict=True)),
        Mistake("ignores tau", "stop after tau epochs even if the data are not separated",
                _origin_variant(until_converged=True)),
        Mistake("extra epoch", "run at most tau epochs: `range(tau)` runs tau of them, "
                "`range(tau + 1)` or `while epoch <= tau` one more",
                _origin_variant(extra_epochs=1)),
        Mistake("subtracts", "the update adds y * x; yours subtracts",
                _origin_variant(sign=-1.0)),
        Mistake("epoch count", "`mistakes` counts the updates of the whole run, over all "
                "epochs: set it to 0 once, before the first epoch",
                _origin_variant(count="epoch")),
        Mistake("with offset", "through the origin there is no theta_0: the test is "
                "y * (theta @ x) <= 0 and the update theta + y * x only",
                _origin_with_offset),
    ),
)


# ---------------------------------------------------------------------- lifted_to_offset
def lifted_to_offset_reference(theta_new: ArrayLike, value: float) -> tuple[np.ndarray, float]:
    """(theta, theta_0) of a through-origin vector on data lifted by ``value``."""
    theta_new = np.asarray(theta_new, dtype=float)
    return theta_new[:-1], float(theta_new[-1] * value)


def _back_plain(theta_new, value):
    theta_new = np.asarray(theta_new, float)
    return theta_new[:-1], float(theta_new[-1])


def _back_divide(theta_new, value):
    theta_new = np.asarray(theta_new, float)
    return theta_new[:-1], float(theta_new[-1] / value)


def _back_scaled(theta_new, value):
    theta_new = np.asarray(theta_new, float)
    return theta_new[:-1] * value, float(theta_new[-1] * value)


def _back_first(theta_new, value):
    theta_new = np.asarray(theta_new, float)
    return theta_new[1:], float(theta_new[0] * value)


def _cases_lifted_to_offset(seeds: Seeds) -> list[Case]:
    rng = seeds.rng(550)
    drawn = [Case((rng.integers(-8, 9, size=int(rng.integers(2, 6))) / 2.0, float(value)),
                  f"random theta_new {k + 1}, value {value:g}")
             for k, value in enumerate(rng.choice([-3.0, -0.5, 0.25, 1.5, 2.0, 4.0], size=2,
                                                  replace=False))]
    return [Case((np.array([2.0, -1.0, 3.0]), 2.0), "value 2"),
            Case((np.array([0.5, 4.0]), -1.0), "value -1"),
            Case((np.array([1.0, 1.0, 1.0, -6.0]), 0.25), "value 1/4"), *drawn]


LIFTED_TO_OFFSET = Task(
    name="lifted_to_offset",
    points=2,
    signature="lifted_to_offset(theta_new, value) -> (theta, theta_0)",
    reference=lifted_to_offset_reference,
    answer=Group((("theta", Array("a 1-D array of floats")),
                  ("theta_0", Number("a float"))),
                 "a tuple of two values (theta, theta_0)"),
    public=(Case((np.array([-1.0, 2.5]), 1.0), "theta_new = (-1, 2.5), value 1"),
            Case((np.array([1.0, 2.0, -1.5]), 2.0), "theta_new = (1, 2, -1.5), value 2"),
            Case((np.array([2, -1, 3]), 0.5), "integer arrays, theta_new = (2, -1, 3), "
                 "value 1/2: theta_0 = 1.5")),
    hidden=_cases_lifted_to_offset,
    known=(
        Mistake("not multiplied", "theta_0 is the last entry TIMES the appended value",
                _back_plain),
        Mistake("divides", "multiply by the appended value, do not divide", _back_divide),
        Mistake("theta scaled", "only theta_0 is multiplied by the value; theta is the "
                "other entries as they are", _back_scaled),
        Mistake("first entry", "the constant was appended as the LAST coordinate: theta_0 "
                "comes from the last entry, and theta is all the others", _back_first),
    ),
)

TASKS = [ADD_OFFSET_FEATURE, PERCEPTRON_THROUGH_ORIGIN, LIFTED_TO_OFFSET]
