"""The offset as one more coordinate (chapter 2, *The offset*)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._validate import check_scalar, check_X


def add_offset_feature(X: ArrayLike, value: float = 1.0) -> np.ndarray:
    """Append a constant coordinate to every example (chapter 2).

    With ``x_new = (x_1, ..., x_d, value)`` and ``theta_new = (theta, theta_0 / value)``,
    ``theta_new . x_new = theta . x + theta_0``: a separator with offset in d dimensions
    becomes a separator through the origin in d + 1.  The lecture notes use
    ``value = 1``; an online course page uses -1, and the scale of ``value`` changes
    how many mistakes the through-origin perceptron makes.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Examples, one per row.
    value : float, default 1.0
        The constant to append; must be non-zero.

    Returns
    -------
    numpy.ndarray, shape (n, d + 1)
        A new array; ``X`` is not modified.

    Examples
    --------
    >>> add_offset_feature([[1.0], [2.0]])
    array([[1., 1.],
           [2., 1.]])
    """
    Xa = check_X(X)
    v = check_scalar(value, "value")
    if v == 0.0:
        raise ValueError("value must be non-zero: a zero coordinate cannot carry an offset")
    return np.hstack([Xa, np.full((Xa.shape[0], 1), v)])
