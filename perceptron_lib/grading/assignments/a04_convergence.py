"""Chapter 4, The convergence proof: ``radius``, ``mistake_bound`` and
``lemma_quantities``."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

import perceptron_lib as pl

from ._common import int_data
from .answers import Array, Group, Number
from .exercise import Case, Mistake, Task


# ------------------------------------------------------------------------------ radius
def radius_reference(X: ArrayLike) -> float:
    """R, the largest norm of a row of X."""
    return pl.radius(X)


def _rows(X):
    return np.asarray(X, float)


def _radius_squared(X):
    return float(np.max(np.sum(_rows(X) ** 2, axis=1)))


def _radius_mean(X):
    return float(np.mean(np.linalg.norm(_rows(X), axis=1)))


def _radius_coordinate(X):
    return float(np.max(np.abs(_rows(X))))


def _radius_columns(X):
    return float(np.max(np.linalg.norm(_rows(X), axis=0)))


def _radius_whole(X):
    return float(np.linalg.norm(_rows(X)))


def _radius_centred(X):
    X = _rows(X)
    return float(np.max(np.linalg.norm(X - X.mean(axis=0), axis=1)))


RADIUS = Task(
    name="radius",
    points=1,
    signature="radius(X) -> float",
    reference=radius_reference,
    answer=Number("a float"),
    public=(Case((np.array([[3.0, 4.0], [1.0, 0.0], [-6.0, 8.0]]),), "norms 5, 1, 10"),),
    hidden=lambda seeds: [Case((int_data(seeds(900 + k), 6, 3)[0],), f"random data {k + 1}")
                          for k in range(4)],
    known=(
        Mistake("squared", "R is the largest norm, not the largest squared norm",
                _radius_squared),
        Mistake("mean", "R is the largest norm, not the mean norm", _radius_mean),
        Mistake("coordinate", "R is the largest norm of a row, sqrt(x_1^2 + ... + x_d^2), "
                "not the largest coordinate", _radius_coordinate),
        Mistake("columns", "the examples are the ROWS of X: take the norm along axis=1",
                _radius_columns),
        Mistake("whole", "take the norm of each row, then the largest; np.linalg.norm(X) "
                "without an axis is the norm of all the entries together", _radius_whole),
        Mistake("centred", "do not subtract the mean: R is measured from the origin",
                _radius_centred),
    ),
)


# ----------------------------------------------------------------------- mistake_bound
def mistake_bound_reference(R: float, gamma: float) -> float:
    """The bound (R / gamma) ** 2 of the convergence theorem."""
    return pl.mistake_bound(R, gamma)


ROUNDED = ("return the exact bound (R / gamma) ** 2, a float: do not round it to a "
           "whole number (no math.ceil, int or round)")

MISTAKE_BOUND = Task(
    name="mistake_bound",
    points=1,
    signature="mistake_bound(R, gamma) -> float",
    reference=mistake_bound_reference,
    answer=Number("a float"),
    public=(Case((2.0, 0.5), "R = 2, gamma = 1/2: the bound is 16"),
            Case((3.0, 0.8), "R = 3, gamma = 0.8: the bound is 14.0625")),
    hidden=lambda seeds: [*(Case((r, g), f"R = {r}, gamma = {g}")
                            for r, g in [(1.0, 0.1), (3.0, 1.5), (10.0, 0.25), (0.5, 0.2),
                                         (1.0, 0.3)]),
                          *_drawn_bounds(seeds.rng(950))],
    known=(
        Mistake("ratio", "square the ratio: (R / gamma) ** 2", lambda R, g: R / g),
        Mistake("offset bound", "that is the bound with an offset; here it is "
                "(R / gamma) ** 2", lambda R, g: (2 * R / g) ** 2),
        Mistake("floor division", "`//` is floor division, which rounds R / gamma down: "
                "use `/`", lambda R, g: (R // g) ** 2),
        Mistake("ceil", ROUNDED, lambda R, g: math.ceil((R / g) ** 2)),
        Mistake("floor", ROUNDED, lambda R, g: math.floor((R / g) ** 2)),
        Mistake("round", ROUNDED, lambda R, g: round((R / g) ** 2)),
        Mistake("gamma not squared", "square both: (R / gamma) ** 2 = R ** 2 / gamma ** 2",
                lambda R, g: R**2 / g),
        Mistake("R not squared", "square both: (R / gamma) ** 2 = R ** 2 / gamma ** 2",
                lambda R, g: R / g**2),
    ),
)


def _drawn_bounds(rng: np.random.Generator) -> list[Case]:
    """Two pairs (R, gamma) with gamma < R, in quarters, whose bound is not whole."""
    found: list[Case] = []
    while len(found) < 2:
        r, g = (float(v) / 4 for v in rng.integers(1, 41, size=2))
        if g < r and ((r / g) ** 2) % 1:
            found.append(Case((r, g), f"R = {r:g}, gamma = {g:g}"))
    return found


# -------------------------------------------------------------------- lemma_quantities
def lemma_reference(thetas: ArrayLike, theta_star: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The alignments and squared norms of the two lemmas."""
    thetas, theta_star = np.asarray(thetas, float), np.asarray(theta_star, float)
    return thetas @ theta_star / np.linalg.norm(theta_star), np.sum(thetas**2, axis=1)


def _trace_case(seed: int, n: int, d: int) -> Case:
    data = pl.make_separable(n, d, gamma=0.15, seed=seed)
    r = pl.perceptron_through_origin(data.X, data.y, tau=1000, trace=True)
    thetas = np.vstack([np.zeros(d), *[u.theta for u in r.history]])
    return Case((thetas, 3.0 * data.theta), f"a traced run on {n} points in {d}-D")


#: Hypotheses whose row 0 is not zero: the exercise says not to rely on theta^(0) = 0.
NONZERO_START = Case((np.array([[1.0, -2.0], [2.0, -1.0], [3.0, 1.0]]), np.array([0.0, 2.0])),
                     "row 0 is not zero: theta^(0) = (1, -2), theta_star = (0, 2)")


def _lemma_unnormalised(thetas, theta_star):
    thetas = np.asarray(thetas, float)
    return thetas @ np.asarray(theta_star, float), np.sum(thetas**2, axis=1)


def _lemma_norms(thetas, theta_star):
    return lemma_reference(thetas, theta_star)[0], np.linalg.norm(np.asarray(thetas, float),
                                                                  axis=1)


def _lemma_squared_star(thetas, theta_star):
    thetas, theta_star = np.asarray(thetas, float), np.asarray(theta_star, float)
    return thetas @ theta_star / (theta_star @ theta_star), np.sum(thetas**2, axis=1)


def _lemma_swapped(thetas, theta_star):
    alignment, norm_sq = lemma_reference(thetas, theta_star)
    return norm_sq, alignment


def _lemma_total(thetas, theta_star):
    return lemma_reference(thetas, theta_star)[0], float(np.sum(np.asarray(thetas,
                                                                           float) ** 2))


LEMMA_QUANTITIES = Task(
    name="lemma_quantities",
    points=3,
    signature="lemma_quantities(thetas, theta_star) -> (alignment, norm_sq)",
    reference=lemma_reference,
    answer=Group((("alignment", Array("a 1-D array of K + 1 floats")),
                  ("norm_sq", Array("a 1-D array of K + 1 floats"))),
                 "a tuple of two arrays (alignment, norm_sq)"),
    public=(Case((np.array([[0.0, 0.0], [1.0, 2.0], [3.0, 1.0]]), np.array([3.0, 4.0])),
                 "three hypotheses, theta_star = (3, 4)"),),
    hidden=lambda seeds: [*(_trace_case(seeds(1000 + k), 20 + 10 * k, 2 + k)
                            for k in range(3)), NONZERO_START],
    known=(
        Mistake("unnormalised", "divide by ||theta_star||: the proof uses the unit vector",
                _lemma_unnormalised),
        Mistake("norms", "the second lemma is about the SQUARED norm", _lemma_norms),
        Mistake("squared star", "divide by ||theta_star||, not by ||theta_star||^2",
                _lemma_squared_star),
        Mistake("swapped", "return the alignments first, then the squared norms",
                _lemma_swapped),
        Mistake("total", "one squared norm per hypothesis, that is per row: "
                "np.sum(thetas ** 2, axis=1)", _lemma_total),
    ),
)

TASKS = [RADIUS, MISTAKE_BOUND, LEMMA_QUANTITIES]
