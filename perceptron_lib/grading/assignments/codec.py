"""Values as JSON, both ways: how inputs reach student code and answers come back.

Only plain data crosses the boundary between the grader and the child process that
runs a submission: numbers, strings, booleans, None, lists, tuples, dicts with string
keys and numeric numpy arrays.  Anything else is reported by its type name, never
unpickled or evaluated.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

MAX_ITEMS = 1_000_000  # elements in one encoded value


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


def encode(value: Any, _budget: list[int] | None = None) -> Any:
    """Turn ``value`` into something ``json.dumps`` accepts, losslessly for plain data."""
    budget = _budget if _budget is not None else [MAX_ITEMS]
    budget[0] -= 1
    if budget[0] < 0:
        return {"__unsupported__": "value too large"}
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
        return {"__ndarray__": flat, "dtype": value.dtype.kind, "shape": list(value.shape)}
    if isinstance(value, tuple):
        return {"__tuple__": [encode(v, budget) for v in value]}
    if isinstance(value, list):
        return [encode(v, budget) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"__dict__": {k: encode(v, budget) for k, v in value.items()}}
    return {"__unsupported__": type(value).__name__}


def decode(data: Any) -> Any:
    """Inverse of :func:`encode`; unknown shapes become :class:`Unsupported`."""
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        return [decode(v) for v in data]
    if isinstance(data, dict):
        if "__float__" in data:
            return float(data["__float__"])
        if "__ndarray__" in data:
            kind = {"b": bool, "i": np.int64, "u": np.int64, "f": np.float64}.get(data["dtype"])
            if kind is None:
                return Unsupported("array")
            flat = [decode(v) for v in data["__ndarray__"]]
            return np.array(flat, dtype=kind).reshape(data["shape"])
        if "__tuple__" in data:
            return tuple(decode(v) for v in data["__tuple__"])
        if "__dict__" in data:
            return {k: decode(v) for k, v in data["__dict__"].items()}
        if "__unsupported__" in data:
            return Unsupported(str(data["__unsupported__"]))
    return Unsupported(type(data).__name__)
