"""Comparing an answer with the expected one, and saying what went wrong."""

from __future__ import annotations

from typing import Any

import numpy as np

from .codec import Unsupported


def _describe(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return np.array2string(value, precision=6, threshold=20) + f" (shape {value.shape})"
    if isinstance(value, tuple):
        return "(" + ", ".join(_describe(v) for v in value) + ")"
    return repr(value)


def same(expected: Any, got: Any) -> bool:
    """True when ``got`` matches ``expected`` (numbers to 1e-9 relative)."""
    if isinstance(got, Unsupported):
        return False
    if isinstance(expected, tuple):
        return (isinstance(got, (tuple, list)) and len(got) == len(expected)
                and all(same(e, g) for e, g in zip(expected, got, strict=True)))
    if isinstance(expected, (bool, np.bool_)):
        return isinstance(got, (bool, np.bool_)) and bool(got) == bool(expected)
    if isinstance(expected, (np.ndarray, list)):
        try:
            g = np.asarray(got, dtype=float)
        except (TypeError, ValueError):
            return False
        e = np.asarray(expected, dtype=float)
        return g.shape == e.shape and bool(np.allclose(g, e, rtol=1e-9, atol=1e-12))
    if isinstance(expected, (int, float, np.integer, np.floating)):
        if isinstance(got, (bool, np.bool_)) or not isinstance(
                got, (int, float, np.integer, np.floating)):
            return False
        return bool(np.isclose(float(got), float(expected), rtol=1e-9, atol=1e-12))
    return expected == got


def explain(expected: Any, got: Any) -> str:
    """A one-line account of how ``got`` differs from ``expected``."""
    if isinstance(got, Unsupported):
        return f"expected {_describe(expected)}, got {got!r}"
    if isinstance(expected, tuple) and not isinstance(got, (tuple, list)):
        return (f"expected a tuple of {len(expected)} values {_describe(expected)}, "
                f"got {_describe(got)}")
    if isinstance(expected, tuple) and len(got) != len(expected):
        return f"expected {len(expected)} values, got {len(got)}: {_describe(got)}"
    return f"expected {_describe(expected)}, got {_describe(got)}"
