"""Input checks shared by every public function.

Each check turns a user's input into the array the algorithms expect, or raises a
``ValueError`` / ``TypeError`` whose message names the problem.  Nothing here
modifies its input.
"""

from __future__ import annotations

import numbers

import numpy as np
from numpy.typing import ArrayLike


def _as_float_array(value: ArrayLike, name: str) -> np.ndarray:
    try:
        arr = np.asarray(value)
    except Exception as exc:  # ragged nested lists and the like
        raise ValueError(f"{name} could not be read as an array: {exc}") from exc
    if arr.dtype == object:
        raise ValueError(
            f"{name} could not be read as a numeric array (ragged rows or mixed types?)"
        )
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    return np.asarray(arr, dtype=np.float64)


def _first_bad(arr: np.ndarray) -> tuple[int, ...]:
    return tuple(int(k) for k in np.argwhere(~np.isfinite(arr))[0])


def check_finite(arr: np.ndarray, name: str) -> None:
    """Raise ``ValueError`` naming the first NaN or infinity in ``arr``."""
    # A NaN or an infinity makes the sum non-finite, so a finite sum clears the array
    # without a temporary array; an overflowing sum falls through to the full check.
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(arr.sum()):
            return
    if not np.isfinite(arr).all():
        where = _first_bad(arr)
        value = arr[where]
        kind = "NaN" if np.isnan(value) else "infinity"
        raise ValueError(f"{name} contains {kind} at index {where}; remove or impute it first")


def check_X(X: ArrayLike, name: str = "X") -> np.ndarray:
    """Return ``X`` as a C-ordered float64 array of shape (n, d), n >= 1, d >= 1."""
    arr = _as_float_array(X, name)
    if arr.ndim != 2:
        hint = ""
        if arr.ndim == 1:
            hint = (
                f"; for n examples of one feature use {name}.reshape(-1, 1), "
                f"for one example use {name}.reshape(1, -1)"
            )
        raise ValueError(
            f"{name} must be 2-D with one example per row, got shape {arr.shape}{hint}"
        )
    n, d = arr.shape
    if n == 0:
        raise ValueError(f"{name} has no examples (shape {arr.shape}): need at least one row")
    if d == 0:
        raise ValueError(f"{name} has no features (shape {arr.shape}): need at least one column")
    check_finite(arr, name)
    return np.ascontiguousarray(arr)


def check_labels(y: ArrayLike, name: str = "y") -> np.ndarray:
    """Return labels as a float64 vector of -1.0 and +1.0, or raise naming bad values."""
    arr = _as_float_array(y, name)
    if arr.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D (one label per example), got shape {arr.shape}; "
            f"use {name}.ravel() for a column of labels"
        )
    bad = ~np.isin(arr, (-1.0, 1.0))
    if bad.any():
        found = np.unique(arr[bad])
        shown = ", ".join(repr(float(v)) for v in found[:5])
        more = f" and {found.size - 5} more" if found.size > 5 else ""
        first = int(np.argmax(bad))
        raise ValueError(
            f"labels must be -1 or +1; found {shown}{more} (first at index {first}). "
            "Map your classes to -1/+1 first, e.g. y = np.where(y == positive, 1, -1)"
        )
    return arr


def check_data(X: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Check a labelled data set: ``X`` of shape (n, d) and ``y`` of n labels in {-1, +1}."""
    Xa = check_X(X)
    ya = check_labels(y)
    if ya.shape[0] != Xa.shape[0]:
        raise ValueError(
            f"y has {ya.shape[0]} labels but X has {Xa.shape[0]} rows: need one label per example"
        )
    return Xa, ya


def check_tau(tau: object) -> int:
    """Return ``tau`` as a Python int, requiring a positive integer."""
    if isinstance(tau, bool) or not isinstance(tau, numbers.Integral):
        raise TypeError(f"tau must be a positive integer (number of epochs), got {tau!r}")
    if tau <= 0:
        raise ValueError(f"tau must be a positive integer (number of epochs), got {tau}")
    return int(tau)


def check_count(value: object, name: str, minimum: int) -> int:
    """Return ``value`` as a Python int, requiring an integer ``>= minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return int(value)


def check_theta(theta: ArrayLike, d: int | None = None, name: str = "theta") -> np.ndarray:
    """Return ``theta`` as a float64 vector, of length ``d`` when given."""
    arr = _as_float_array(theta, name)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D vector, got shape {arr.shape}")
    if d is not None and arr.shape[0] != d:
        raise ValueError(
            f"{name} has length {arr.shape[0]} but the data have {d} features"
        )
    check_finite(arr, name)
    return arr


def check_scalar(value: object, name: str) -> float:
    """Return a finite real number as float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        arr = np.asarray(value)
        if arr.ndim == 0 and arr.dtype.kind in "iuf":
            value = arr.item()
        else:
            raise TypeError(f"{name} must be a real number, got {value!r}")
    out = float(value)
    if not np.isfinite(out):
        raise ValueError(f"{name} must be finite, got {out}")
    return out


def check_label(value: object, name: str = "y") -> float:
    """Return a single label as -1.0 or +1.0."""
    out = check_scalar(value, name)
    if out not in (-1.0, 1.0):
        raise ValueError(f"a label must be -1 or +1, got {value!r}")
    return out
