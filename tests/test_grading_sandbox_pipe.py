"""What comes back on the answer pipe is the submission's to write: it is read as
hostile data.  A line that cannot be read costs that call (or nothing, when it names no
call); a value of absurd shape is refused by its type name; nothing raises out of the
sandbox, and the other calls keep their answers.
"""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path

import nbformat
import numpy as np
import pytest

from perceptron_lib.grading import sandbox
from perceptron_lib.grading.assignments import ASSIGNMENTS
from perceptron_lib.grading.assignments.codec import MAX_DEPTH, Unsupported, decode, encode
from perceptron_lib.grading.judge.grade import grade
from perceptron_lib.grading.sandbox.runner import _Reader

ROOT = Path(__file__).resolve().parents[1]
MAX = sum(t.points for t in ASSIGNMENTS["01_algorithm"])
DEEP = 100_000


def _deep_line(call_id: str | None) -> str:
    """An answer line whose value is nested ``DEEP`` lists deep."""
    head = '{"kind": "call", ' + (f'"id": "{call_id}", ' if call_id else "")
    return head + '"value": ' + "[" * DEEP + "]" * DEEP + "}"


# ------------------------------------------------------------- the codec
@pytest.mark.parametrize("data, name", [
    (encode(np.empty((10_000_000, 0))), "array too large"),
    ({"__ndarray__": [], "dtype": "f", "shape": [10**100, 0]}, "array too large"),
    ({"__ndarray__": [], "dtype": "f", "shape": [1000, 1000, 1000, 0]}, "array too large"),
    ({"__ndarray__": [], "dtype": "f", "shape": [1] * 40}, "array of too many dimensions"),
    ({"__ndarray__": [1.0], "dtype": "f", "shape": [-1]}, "array of a malformed shape"),
    ({"__ndarray__": [1.0], "dtype": "f", "shape": [True]}, "array of a malformed shape"),
    ({"__ndarray__": [1.0], "dtype": "f", "shape": "1"}, "array of a malformed shape"),
    ({"__ndarray__": [1.0, 2.0], "dtype": "f", "shape": [3]}, "array of a malformed shape"),
    ({"__ndarray__": [[1.0], [2.0]], "dtype": "f", "shape": [2]}, "malformed array"),
    ({"__ndarray__": [2**70], "dtype": "i", "shape": [1]}, "malformed array"),
    ({"__ndarray__": [1], "dtype": ["f"], "shape": [1]}, "array of an unknown dtype"),
    ({"__ndarray__": 5, "dtype": "f", "shape": [1]}, "array of a malformed shape"),
    ({"__float__": "1.5"}, "malformed float"),
    ({"__tuple__": 5}, "malformed tuple"),
    ({"__dict__": [1, 2]}, "malformed dict"),
    ({"__unsupported__": [1, 2]}, "unsupported"),
    ({"x": 1}, "dict"),
    (10**30, "integer too large"),
])
def test_the_codec_refuses_what_it_cannot_read(data, name):
    t0 = time.perf_counter()
    assert decode(data) == Unsupported(name)
    assert time.perf_counter() - t0 < 1


def _innermost(value, depth: int = 0):
    """The first thing inside ``value`` that is not a one-element list, and its depth."""
    while isinstance(value, list) and len(value) == 1:
        value, depth = value[0], depth + 1
    return value, depth


def test_the_codec_bounds_nesting_and_size():
    nested: list = []
    for _ in range(500):
        nested = [nested]
    inner, depth = _innermost(decode(nested))
    assert inner == Unsupported("value nested too deeply") and depth == MAX_DEPTH + 1
    assert decode([[1]] * 10) == [[1]] * 10
    assert decode(list(range(2_000_000))) == Unsupported("value too large")
    loop: list = []
    loop.append(loop)
    inner, depth = _innermost(encode(loop))
    assert inner == {"__unsupported__": "value nested too deeply"} and depth == MAX_DEPTH + 1


@pytest.mark.parametrize("value", [
    np.arange(6.0).reshape(2, 3), np.zeros((0,)), np.zeros((3, 0)), np.array([True]),
    (1, [2.5, "a"], {"k": None}), float("inf"), -(2**63), 2**63 - 1,
])
def test_plain_values_still_come_back_whole(value):
    back = decode(json.loads(json.dumps(encode(value))))
    if isinstance(value, np.ndarray):
        assert back.shape == value.shape and back.dtype.kind == value.dtype.kind
        np.testing.assert_array_equal(back, value)
    else:
        assert back == value
    assert math.isnan(decode(encode(float("nan"))))


# ------------------------------------------------------------- the reader
def _read(lines: list[str], ids=("a", "b")) -> sandbox.RunResult:
    r, w = os.pipe()
    os.close(w)
    reader = _Reader(r, 16 * 1024**2, set(ids))
    os.close(r)
    reader.lines = list(lines)
    return reader.result("ok", 0.0)


def test_a_line_that_cannot_be_read_costs_its_call_only():
    result = _read([
        _deep_line("a"),
        _deep_line(None),  # no id: nothing to charge it to
        '{"kind": "call", "id": "b", "value": 2, "seconds": 1e999, "mutated": [0, "x", 1]}',
        '{"kind": "call", "id": "nobody", "value": 3}',  # not a call that was made
        '{"kind": "call", "id": "b", "value": 4}',  # the first answer of a call stands
        '{"kind": "cells", "errors": [1, {"cell": "x"}, {"cell": 2, "error": "E"}]}',
        '{"kind": "done", "printed": [1, 2]}',
        "[" * DEEP,
        '{"kind": "call", "id": "a", "value": 1' + "0" * 5000 + "}",
    ])
    assert result.answers["a"]["error"].startswith("the answer could not be read: ")
    assert result.answers["b"] == {"value": 2, "seconds": None, "mutated": [0, 1]}
    assert set(result.answers) == {"a", "b"}
    assert result.cell_errors == [{"cell": 2, "error": "E"}]
    assert result.printed == "" and result.status == "ok"


def test_numbers_too_large_for_json_cost_their_call():
    result = _read(['{"kind": "call", "id": "a", "value": 1' + "0" * 5000 + "}"])
    assert result.answers["a"]["error"].startswith("the answer could not be read: ")


# ------------------------------------------------------------- in the sandbox
HOSTILE = [
    "import os, sys\nimport numpy as np\nOUT = int(sys.argv[1])",
    # written straight onto the answer pipe, while the cells run
    f"os.write(OUT, ({_deep_line(None)!r} + '\\n').encode())",
    "def deep():\n"
    f"    os.write(OUT, ({_deep_line('deep')!r} + '\\n').encode())\n"
    "    return 1",
    "def empty():\n    return np.empty((10_000_000, 0))",
    "def plus_one(x):\n    return x + 1",
]


def test_hostile_lines_and_absurd_shapes_are_graded_quickly():
    t0 = time.perf_counter()
    run = sandbox.run(HOSTILE, [{"id": "deep", "function": "deep", "args": []},
                                {"id": "empty", "function": "empty", "args": []},
                                {"id": "one", "function": "plus_one", "args": [1]},
                                {"id": "two", "function": "plus_one", "args": [2]}])
    assert time.perf_counter() - t0 < 15
    assert run.status == "ok" and run.cell_errors == []
    assert run.answers["deep"]["error"].startswith("the answer could not be read: ")
    assert run.answers["empty"]["value"] == Unsupported("array too large")
    assert run.answers["one"]["value"] == 2 and run.answers["two"]["value"] == 3


def test_a_student_who_writes_on_the_pipe_is_graded_as_usual(tmp_path):
    nb = json.loads((ROOT / "solutions" / "01_algorithm.ipynb").read_text())
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"
             and "check" not in c.get("metadata", {}).get("tags", [])]
    book = nbformat.v4.new_notebook()
    book.metadata["perceptron_course"] = {"assignment": "01_algorithm"}
    book.cells = [nbformat.v4.new_code_cell(c) for c in [*cells, *HOSTILE[:2]]]
    nbformat.write(book, str(tmp_path / "pipe.ipynb"))
    t0 = time.perf_counter()
    g = grade(tmp_path / "pipe.ipynb")
    assert time.perf_counter() - t0 < 20
    assert g.total == MAX and g.status == "ok", (g.status, g.notes)
    book.cells.append(nbformat.v4.new_code_cell(
        "def predict(X, theta, theta_0):\n    return np.empty((10_000_000, 0))"))
    nbformat.write(book, str(tmp_path / "empty.ipynb"))
    t0 = time.perf_counter()
    g = grade(tmp_path / "empty.ipynb")
    assert time.perf_counter() - t0 < 20
    points = {t.name: t.points for t in g.tasks}
    assert points["predict"] == 0 and points["perceptron"] > 0, points
    shown = " ".join(d.get("error", "") for t in g.tasks for d in t.details)
    assert "array too large" in shown


# ------------------------------------------------------------- a run in two parts
def _two_parts(lines: list[str], *, follows: bool) -> sandbox.RunResult:
    r, w = os.pipe()
    os.write(w, "".join(line + "\n" for line in lines).encode())
    os.close(w)
    reader = _Reader(r, 16 * 1024**2, {"a", "b"}, follows=follows)
    reader.later_ids = {"again:a"}
    reader.run()
    return reader.result("ok", 0.0)


PARTS = ['{"kind": "call", "id": "a", "value": 1}',
         '{"kind": "answered"}',
         '{"kind": "call", "id": "b", "value": 2}',  # a first-part call, too late
         '{"kind": "cells", "errors": [{"cell": 1, "error": "late"}]}',
         '{"kind": "call", "id": "again:a", "value": 3}',
         '{"kind": "done", "printed": "p"}']


def test_after_the_first_part_only_the_second_parts_calls_count():
    result = _two_parts(PARTS, follows=True)
    assert set(result.answers) == {"a"} and result.cell_errors == []
    assert result.later == {"again:a": {"value": 3, "seconds": None, "mutated": []}}
    assert result.status == "ok" and result.printed == "p"


def test_the_line_that_ends_a_first_part_means_nothing_in_a_run_of_one_part():
    result = _two_parts(PARTS, follows=False)
    assert set(result.answers) == {"a", "b"} and result.later == {}
    assert result.cell_errors == [{"cell": 1, "error": "late"}]


def test_a_second_part_that_never_ends_leaves_the_first_as_it_was():
    result = _two_parts(PARTS[:3], follows=True)  # no "done": the child died meanwhile
    assert result.status == "ok" and set(result.answers) == {"a"} and result.later == {}


FORGED_END = """
import json, os, sys
os.write(int(sys.argv[1]), (json.dumps({"kind": "answered"}) + "\\n").encode())
"""


def test_a_submission_that_ends_the_first_part_early_loses_its_answers(tmp_path):
    seen = []

    def follow_up(first):
        seen.append(dict(first.answers))
        return None

    cells = ["def f(x):\n    return x + 1", FORGED_END]
    calls = [{"id": "f:0", "function": "f", "args": [1]}]
    run = sandbox.run(cells, calls, follow_up=follow_up)
    assert seen == [{}] and run.answers == {} and run.status == "ok"
    # the same line in a run that asked for no second part changes nothing
    run = sandbox.run(cells, calls)
    assert run.answers["f:0"]["value"] == 2
