"""Values as JSON, both ways: how inputs reach student code and answers come back.

Only plain data crosses the boundary between the grader and the child process that
runs a submission: numbers, strings, booleans, None, lists, tuples, dicts with string
keys and numeric numpy arrays.  Anything else is reported by its type name, never
unpickled or evaluated.

What comes back from a submission is its own to write, so :func:`decode` reads it as
hostile: anything malformed, nested too deeply, or of absurd size (an array of shape
``(10_000_000, 0)`` holds no number but is ten million rows to compare) becomes an
:class:`Unsupported` that names the problem, never an exception.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

MAX_ITEMS = 1_000_000  # elements in one encoded value (an array's: rows of its shape)
MAX_DEPTH = 64  # lists, tuples and dicts inside one another
MAX_NDIM = 32  # dimensions of one array
MAX_DIMENSION = 1_000_000  # the length of one dimension of an array
MAX_INT = 2**63  # integers are those numpy holds (int64), in either sign
_KINDS = {"b": bool, "i": np.int64, "u": np.int64, "f": np.float64}
_FLOATS = ("nan", "inf", "-inf")


class Unsupported:
    """Stands for a value of a type that cannot cross the boundary."""

    def __init__(self, type_name: str) -> None:
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"<an object of type {self.type_name}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unsupported) and other.type_name == self.type_name


def _float(x: float) -> Any:
    if math.isnan(x):
        return {"__float__": "nan"}
    if math.isinf(x):
        return {"__float__": "inf" if x > 0 else "-inf"}
    return x


def encode(value: Any, _budget: list[int] | None = None, _depth: int = 0) -> Any:
    """Turn ``value`` into something ``json.dumps`` accepts, losslessly for plain data."""
    budget = _budget if _budget is not None else [MAX_ITEMS]
    budget[0] -= 1
    if budget[0] < 0:
        return {"__unsupported__": "value too large"}
    if _depth > MAX_DEPTH:
        return {"__unsupported__": "value nested too deeply"}
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, np.bool_):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (float, np.floating)):
        return _float(float(value))
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf" or value.size > budget[0]:
            return {"__unsupported__": f"numpy array of dtype {value.dtype}"}
        budget[0] -= value.size
        flat = [_float(float(v)) if value.dtype.kind == "f" else v.item() for v in value.ravel()]
        out = {"__ndarray__": flat, "dtype": value.dtype.kind, "shape": list(value.shape)}
        if value.dtype.kind == "f" and value.dtype.itemsize < 8:
            out["single"] = True  # float32 or float16: its precision is part of the answer
        return out
    if isinstance(value, tuple):
        return {"__tuple__": [encode(v, budget, _depth + 1) for v in value]}
    if isinstance(value, list):
        return [encode(v, budget, _depth + 1) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"__dict__": {k: encode(v, budget, _depth + 1) for k, v in value.items()}}
    return {"__unsupported__": type(value).__name__}


def decode(data: Any, _budget: list[int] | None = None, _depth: int = 0) -> Any:
    """Inverse of :func:`encode`; anything else becomes :class:`Unsupported`.

    Never raises: a value nested more than :data:`MAX_DEPTH` deep, with more than
    :data:`MAX_ITEMS` elements, an integer outside int64, an array whose shape is absurd
    (more than :data:`MAX_NDIM` dimensions, one longer than :data:`MAX_DIMENSION`, more
    rows than :data:`MAX_ITEMS` even with no element) or malformed in any way comes back
    as an :class:`Unsupported` whose name says which.
    """
    budget = _budget if _budget is not None else [MAX_ITEMS]
    budget[0] -= 1
    if budget[0] < 0:
        return Unsupported("value too large")
    if _depth > MAX_DEPTH:
        return Unsupported("value nested too deeply")
    if isinstance(data, int) and not isinstance(data, bool) and not -MAX_INT <= data < MAX_INT:
        return Unsupported("integer too large")
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        if len(data) > budget[0]:
            return Unsupported("value too large")
        return [decode(v, budget, _depth + 1) for v in data]
    if isinstance(data, dict):
        return _decode_dict(data, budget, _depth)
    return Unsupported(type(data).__name__)


def _decode_dict(data: dict, budget: list[int], depth: int) -> Any:
    """A tagged value: a float that JSON cannot hold, an array, a tuple, a dict."""
    if "__float__" in data:
        text = data["__float__"]
        return float(text) if text in _FLOATS else Unsupported("malformed float")
    if "__ndarray__" in data:
        return _decode_array(data, budget)
    if "__tuple__" in data:
        items = data["__tuple__"]
        if not isinstance(items, list):
            return Unsupported("malformed tuple")
        value = decode(items, budget, depth)
        return tuple(value) if isinstance(value, list) else value
    if "__dict__" in data:
        items = data["__dict__"]
        if not isinstance(items, dict):
            return Unsupported("malformed dict")
        if len(items) > budget[0]:
            return Unsupported("value too large")
        return {k: decode(v, budget, depth + 1) for k, v in items.items()}
    if "__unsupported__" in data:
        name = data["__unsupported__"]
        return Unsupported(name[:100] if isinstance(name, str) else "unsupported")
    return Unsupported("dict")


def _shape(shape: Any) -> tuple[int, ...] | Unsupported:
    """An array's shape, or why it is refused."""
    if not isinstance(shape, list) or not all(
            isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
        return Unsupported("array of a malformed shape")
    if len(shape) > MAX_NDIM:
        return Unsupported("array of too many dimensions")
    if any(d > MAX_DIMENSION for d in shape) or math.prod(max(d, 1) for d in shape) > MAX_ITEMS:
        return Unsupported("array too large")
    return tuple(shape)


def _decode_array(data: dict, budget: list[int]) -> Any:
    kind = _KINDS.get(data.get("dtype")) if isinstance(data.get("dtype"), str) else None
    if kind is None:
        return Unsupported("array of an unknown dtype")
    shape = _shape(data.get("shape"))
    if isinstance(shape, Unsupported):
        return shape
    flat = data["__ndarray__"]
    if not isinstance(flat, list) or len(flat) != math.prod(shape):
        return Unsupported("array of a malformed shape")
    if len(flat) > budget[0] or math.prod(max(d, 1) for d in shape) > budget[0]:
        return Unsupported("array too large")
    budget[0] -= len(flat)
    values = [float(v["__float__"]) if isinstance(v, dict) and v.get("__float__") in _FLOATS
              else v for v in flat]
    if not all(isinstance(v, (bool, int, float)) for v in values):
        return Unsupported("malformed array")
    if kind is np.float64 and data.get("single") is True:
        kind = np.float32
    try:
        return np.array(values, dtype=kind).reshape(shape)
    except (TypeError, ValueError, OverflowError):
        return Unsupported("malformed array")
