"""Shattering and the VC dimension of halfspaces (chapter 7): perceptron_lib.shattering."""

import itertools
from math import comb

import numpy as np
import pytest
from naive import naive_erm_line, naive_erm_plane

import perceptron_lib as pl

XOR = [[-1, -1], [1, 1], [-1, 1], [1, -1]]   # one diagonal, then the other


def test_the_triangle_is_shattered_and_xor_is_not():
    assert pl.shatters([[0, 0], [1, 0], [0, 1]])
    assert pl.unrealizable_labelings([[0, 0], [1, 0], [0, 1]]) == []
    assert not pl.shatters(XOR)
    assert pl.unrealizable_labelings(XOR) == [(-1, -1, 1, 1), (1, 1, -1, -1)]


@pytest.mark.parametrize("d", [1, 2, 3, 4])
def test_zero_and_the_unit_vectors_are_shattered(d):
    points = np.vstack([np.zeros(d), np.eye(d)])
    assert pl.shatters(points)
    assert len(points) == pl.vc_dimension_halfspaces(d)
    # through the origin: the unit vectors, but not with the origin added
    assert pl.shatters(np.eye(d), offset=False)
    assert not pl.shatters(points, offset=False)
    assert d == pl.vc_dimension_halfspaces(d, offset=False)


@pytest.mark.parametrize("d", [1, 2, 3])
@pytest.mark.parametrize("seed", range(3))
def test_no_d_plus_2_points_are_shattered(d, seed):   # Radon's theorem
    X = np.random.default_rng(seed).standard_normal((d + 2, d))
    assert not pl.shatters(X)
    assert not pl.shatters(X[: d + 1], offset=False)


@pytest.mark.parametrize("n,d,offset", [(6, 2, True), (7, 2, True), (6, 3, True),
                                        (6, 3, False), (7, 2, False)])
def test_cover_counts_the_separable_labellings(n, d, offset):
    # Cover (1965): n points in general position admit 2 * sum_{k < D} C(n - 1, k)
    # separable labellings, D = d + 1 with an offset and D = d without.
    X = np.random.default_rng(n + d).standard_normal((n, d))
    D = d + 1 if offset else d
    separable = 2**n - len(pl.unrealizable_labelings(X, offset=offset))
    assert separable == 2 * sum(comb(n - 1, k) for k in range(D))


@pytest.mark.parametrize("seed", range(8))
def test_every_labelling_against_the_exact_sweep(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 6))
    if seed % 2:   # integer points: collinear triples make extra labellings impossible
        X = rng.integers(-1, 2, size=(n, 2)).astype(float)
    else:
        X = rng.standard_normal((n, 2))
    naive = [lab for lab in itertools.product((-1, 1), repeat=n)
             if naive_erm_plane(X.tolist(), list(lab)) > 0]
    assert pl.unrealizable_labelings(X) == naive
    assert pl.shatters(X) == (naive == [])


def test_on_the_line():
    x = [[0.0], [1.0], [2.0]]
    expected = [lab for lab in itertools.product((-1, 1), repeat=3)
                if naive_erm_line([0.0, 1.0, 2.0], list(lab)) > 0]
    assert pl.unrealizable_labelings(x) == expected == [(-1, 1, -1), (1, -1, 1)]
    assert pl.shatters([[0.0], [1.0]]) and not pl.shatters([[1.0], [1.0]])
    assert pl.unrealizable_labelings([[1.0], [1.0]]) == [(-1, 1), (1, -1)]
    assert pl.unrealizable_labelings([[0.0]], offset=False) == [(-1,), (1,)]


def test_bad_input():
    with pytest.raises(ValueError, match="X must be 2-D"):
        pl.shatters([1.0, 2.0])
    with pytest.raises(ValueError, match="X contains NaN"):
        pl.unrealizable_labelings([[np.nan, 1.0]])
    with pytest.raises(ValueError, match="X has no examples"):
        pl.shatters(np.empty((0, 2)))
    with pytest.raises(ValueError, match="limited to 16 points"):
        pl.shatters(np.zeros((17, 2)))
    with pytest.raises(ValueError, match="d must be at least 1"):
        pl.vc_dimension_halfspaces(0)
    with pytest.raises(TypeError, match="d must be an integer"):
        pl.vc_dimension_halfspaces(2.0)
