"""Hypothesis strategies for small labelled data sets."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp


@st.composite
def integer_data(draw, max_n=12, max_d=4, lo=-5, hi=5):
    """Small integer-valued X and -1/+1 labels: every sum is exact, so ties are real."""
    n = draw(st.integers(1, max_n))
    d = draw(st.integers(1, max_d))
    X = draw(hnp.arrays(np.float64, (n, d), elements=st.integers(lo, hi).map(float)))
    y = draw(hnp.arrays(np.float64, (n,), elements=st.sampled_from([-1.0, 1.0])))
    return X, y


@st.composite
def gaussian_data(draw, max_n=40, max_d=6):
    """Random real-valued data from a seed: no ties, almost surely."""
    n = draw(st.integers(1, max_n))
    d = draw(st.integers(1, max_d))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * draw(st.sampled_from([1e-3, 1.0, 1e3]))
    y = rng.choice([-1.0, 1.0], size=n)
    return X, y
