"""Linear separability by a linear program, for the chapters' independent checks."""

from __future__ import annotations

import numpy as np
from scipy.optimize import linprog


def separable(X, y) -> bool:
    """True when some (theta, theta_0) has y_i (theta . x_i + theta_0) >= 1 for every i."""
    A = y[:, None] * np.hstack([X, np.ones((len(y), 1))])
    res = linprog(np.zeros(A.shape[1]), A_ub=-A, b_ub=-np.ones(len(y)),
                  bounds=[(None, None)] * A.shape[1], method="highs")
    assert res.status in (0, 2)
    return res.status == 0
