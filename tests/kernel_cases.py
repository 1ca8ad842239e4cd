"""Chapter 6's kernel data sets, built as the chapter builds them, for the tests.

The chapter (``book/06_variants.ipynb``, the cell that sets ``kernel_data``) hands these
four data sets to its kernel explorer and to the page's kernel playground.  The tests
rebuild them here; ``tests/test_book.py`` checks that the built page carries exactly these
arrays, so a change to the chapter's data shows up as a failure there rather than as a
silent difference.
"""

from __future__ import annotations

import numpy as np

import perceptron_lib as pl

#: The playground's kernel settings: the slider values and the chapter's coef0.
DEGREES = range(1, 7)
GAMMAS = [float(f"{10 ** (k / 10 - 2):.3g}") for k in range(41)]
COEF0 = 1.0


def disc_in_ring(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """n points labelled +1 in the disc of radius 0.8, n labelled -1 in the ring 1.3-2."""
    rng = np.random.default_rng(seed)
    r = np.concatenate([rng.uniform(0.0, 0.8, n), rng.uniform(1.3, 2.0, n)])
    angle = rng.uniform(0.0, 2 * np.pi, 2 * n)
    X = np.column_stack([r * np.cos(angle), r * np.sin(angle)])
    return X, np.repeat([1, -1], n)


def chapter6_kernel_data() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The chapter's ``kernel_data``: name -> (X, y), in the chapter's order."""
    corners = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    y_corners = np.array([1, 1, -1, -1])
    Xx, yx = pl.make_xor(n_per_quadrant=10, spread=0.3, seed=0)
    X_ring, y_ring = disc_in_ring(30, seed=0)
    y_flipped = pl.flip_labels(yx, 0.1, seed=0)
    return {
        "disc in a ring": (X_ring, y_ring),
        "XOR corners": (corners, y_corners),
        "XOR clouds": (Xx, yx),
        "XOR clouds, 10% flipped": (Xx, y_flipped),
    }


def kernel_of(spec: dict):
    """The library's kernel for a playground description {kind, degree, gamma}."""
    if spec["kind"] == "linear":
        return pl.linear_kernel()
    if spec["kind"] == "polynomial":
        return pl.polynomial_kernel(spec["degree"], spec.get("coef0", COEF0))
    return pl.rbf_kernel(spec["gamma"])


def every_kernel() -> list[dict]:
    """Every kernel the playground's controls can choose."""
    return ([{"kind": "linear"}]
            + [{"kind": "polynomial", "degree": p, "coef0": COEF0} for p in DEGREES]
            + [{"kind": "RBF", "gamma": g} for g in GAMMAS])
