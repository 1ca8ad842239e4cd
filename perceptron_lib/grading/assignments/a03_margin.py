"""Chapter 3, The margin: ``signed_distance``, ``point_margins`` and ``margin``."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

import perceptron_lib as pl

from ._common import int_data
from .answers import Array, Number
from .exercise import Case, Mistake, Seeds, Task

NOTES_X = np.array([[1.0, 3.0], [2.0, 1.0], [-1.0, 2.0]])
NOTES_Y = np.array([1.0, 1.0, -1.0])
NOTES_THETA = np.array([1.0, -1.0])


def _score(X, theta, theta_0):
    return np.asarray(X, float) @ np.asarray(theta, float) + theta_0


def _norm(theta):
    return float(np.linalg.norm(np.asarray(theta, float)))


def _cases_margin_data(seeds: Seeds) -> list[Case]:
    out = []
    for k in range(5):
        X, y = int_data(seeds(700 + k), 7, 2 + k % 2)
        rng = seeds.rng(800 + k)
        theta = rng.integers(-3, 4, size=X.shape[1]).astype(float)
        theta[0] = theta[0] or 1.0
        out.append(Case((X, y, theta, float(k - 2)), f"random data {k + 1}"))
    return out


def _cases_separated(seeds: Seeds) -> list[Case]:
    """Data that a given separator classifies correctly: positive margins."""
    out = []
    for k in range(2):
        data = pl.make_separable(8, 2, gamma=0.2, theta_0=0.1 * k, seed=seeds(850 + k))
        out.append(Case((np.round(data.X, 3), data.y, 2.0 * data.theta, 2.0 * data.theta_0),
                        f"a separator that gets every point right {k + 1}"))
    return out


def _drop_y(cases: list[Case]) -> list[Case]:
    return [Case((c.args[0], *c.args[2:]), c.about) for c in cases]


# ---------------------------------------------------------------------- signed_distance
def signed_distance_reference(X: ArrayLike, theta: ArrayLike, theta_0: float) -> np.ndarray:
    """The signed distance of each row of X to the hyperplane."""
    return pl.signed_distance(X, theta, theta_0)


def _distance_squared_norm(X, theta, theta_0):
    return _score(X, theta, theta_0) / _norm(theta) ** 2


def _distance_no_offset(X, theta, theta_0):
    return _score(X, theta, 0.0) / _norm(theta)


def _distance_abs(X, theta, theta_0):
    return np.abs(_score(X, theta, theta_0)) / _norm(theta)


def _distance_lifted_norm(X, theta, theta_0):
    return _score(X, theta, theta_0) / float(np.linalg.norm([*np.asarray(theta, float),
                                                            theta_0]))


def _distance_offset_undivided(X, theta, theta_0):
    return _score(X, theta, 0.0) + theta_0 / _norm(theta)


SIGNED_DISTANCE = Task(
    name="signed_distance",
    points=2,
    signature="signed_distance(X, theta, theta_0) -> array of n distances",
    reference=signed_distance_reference,
    answer=Array("a 1-D array of n floats"),
    public=(Case((NOTES_X, NOTES_THETA, 1.0), "the worked example"),
            Case((np.array([[3.0, 4.0], [0.0, 0.0]]), np.array([3.0, 4.0]), -5.0),
                 "a 3-4-5 triangle")),
    hidden=lambda seeds: _drop_y(_cases_margin_data(seeds)),
    known=(
        Mistake("score", "divide the score by ||theta|| (that is what makes it a distance)",
                _score),
        Mistake("squared norm", "divide by ||theta||, not by ||theta||^2",
                _distance_squared_norm),
        Mistake("no offset", "the score is theta^T x + theta_0: add the offset",
                _distance_no_offset),
        Mistake("abs", "keep the sign: a point on the other side has a negative distance",
                _distance_abs),
        Mistake("offset undivided", "divide the whole score by the norm: "
                "(X @ theta + theta_0) / norm; `X @ theta + theta_0 / norm` divides only "
                "theta_0", _distance_offset_undivided),
        Mistake("lifted norm", "divide by the norm of theta alone, without theta_0: "
                "||theta|| = sqrt(theta_1^2 + ... + theta_d^2)", _distance_lifted_norm),
    ),
)


# ------------------------------------------------------------------------ point_margins
def point_margins_reference(X: ArrayLike, y: ArrayLike, theta: ArrayLike,
                            theta_0: float) -> np.ndarray:
    """The margin of each labelled point."""
    return pl.point_margins(X, y, theta, theta_0)


def _margins_unlabelled(X, y, theta, theta_0):
    return _score(X, theta, theta_0) / _norm(theta)


def _margins_abs(X, y, theta, theta_0):
    return np.abs(_score(X, theta, theta_0)) / _norm(theta)


def _margins_functional(X, y, theta, theta_0):
    return np.asarray(y, float) * _score(X, theta, theta_0)


def _margins_no_offset(X, y, theta, theta_0):
    return np.asarray(y, float) * _score(X, theta, 0.0) / _norm(theta)


def _margins_offset_outside(X, y, theta, theta_0):
    return (np.asarray(y, float) * _score(X, theta, 0.0) + theta_0) / _norm(theta)


FUNCTIONAL = ("divide by ||theta||: y (theta^T x + theta_0) is the functional margin, "
              "which changes when theta and theta_0 are scaled; the geometric margin "
              "asked for does not")

POINT_MARGINS = Task(
    name="point_margins",
    points=2,
    signature="point_margins(X, y, theta, theta_0) -> array of n margins",
    reference=point_margins_reference,
    answer=Array("a 1-D array of n floats"),
    public=(Case((NOTES_X, NOTES_Y, NOTES_THETA, 1.0),
                 "the worked example: -sqrt(2)/2, sqrt(2), sqrt(2)"),),
    hidden=lambda seeds: _cases_margin_data(seeds) + _cases_separated(seeds),
    known=(
        Mistake("no label",
                "multiply by the label y: a margin is negative for a misclassified point",
                _margins_unlabelled),
        Mistake("abs", "keep the sign: no absolute value", _margins_abs),
        Mistake("functional", FUNCTIONAL, _margins_functional),
        Mistake("no offset", "the score is theta^T x + theta_0: add the offset",
                _margins_no_offset),
        Mistake("offset outside", "multiply the whole score by y: y * (X @ theta + theta_0); "
                "in `y * X @ theta + theta_0` the offset is not multiplied by y",
                _margins_offset_outside),
    ),
)


# ------------------------------------------------------------------------------- margin
def margin_reference(X: ArrayLike, y: ArrayLike, theta: ArrayLike, theta_0: float) -> float:
    """The margin of the data set: the smallest point margin."""
    return pl.margin(X, y, theta, theta_0)


def _margin_max(X, y, theta, theta_0):
    return float(pl.point_margins(X, y, theta, theta_0).max())


def _margin_distance(X, y, theta, theta_0):
    return float(np.min(np.abs(_score(X, theta, theta_0))) / _norm(theta))


def _margin_unlabelled(X, y, theta, theta_0):
    return float(np.min(_score(X, theta, theta_0)) / _norm(theta))


def _margin_functional(X, y, theta, theta_0):
    return float(np.min(np.asarray(y, float) * _score(X, theta, theta_0)))


def _margin_no_offset(X, y, theta, theta_0):
    return float(np.min(np.asarray(y, float) * _score(X, theta, 0.0)) / _norm(theta))


MARGIN = Task(
    name="margin",
    points=2,
    signature="margin(X, y, theta, theta_0) -> float",
    reference=margin_reference,
    answer=Number("a float"),
    public=(Case((NOTES_X, NOTES_Y, NOTES_THETA, 1.0), "the worked example: -sqrt(2)/2"),
            Case((np.array([[3.0, 4.0], [0.0, 0.0]]), np.array([1.0, -1.0]),
                  np.array([3.0, 4.0]), -5.0),
                 "both points right: their margins are 4 and 1")),
    hidden=lambda seeds: _cases_margin_data(seeds) + _cases_separated(seeds),
    known=(
        Mistake("max", "the margin of a data set is the SMALLEST point margin", _margin_max),
        Mistake("distance", "take the smallest margin, with its sign, not the smallest "
                "distance: a misclassified point has a negative margin", _margin_distance),
        Mistake("no label", "multiply by the labels y before taking the smallest: the "
                "smallest signed distance is not a margin", _margin_unlabelled),
        Mistake("functional", FUNCTIONAL, _margin_functional),
        Mistake("no offset", "the score is theta^T x + theta_0: add the offset",
                _margin_no_offset),
    ),
)

TASKS = [SIGNED_DISTANCE, POINT_MARGINS, MARGIN]
