"""How an answer that differs is described: which entries, by how much, and a hint when
the type of the answer explains it (chapters 1-7 exercises)."""

from __future__ import annotations

import numpy as np

from perceptron_lib.grading.assignments import find_task
from perceptron_lib.grading.assignments.answers import Array
from perceptron_lib.grading.judge.grade import expected_answer
from perceptron_lib.grading.judge.verdict import judge


def test_entries_that_differ_say_by_how_much():
    found = Array().mismatch(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.5, 3.0]))
    assert found.lines == ("expected [1.0, 2.0, 3.0], got [1.0, 2.5, 3.0] "
                           "(they differ at [1] (by 0.5))",)
    assert found.hint is None


def test_a_right_answer_in_float32_is_told_to_be_computed_in_float64():
    _, task = find_task("signed_distance")
    case = task.public[0]
    right = expected_answer(task, case)
    verdict = judge(task, case, right, value=np.asarray(right, dtype=np.float32))
    assert not verdict.passed
    assert "float32" in verdict.hint and "float64" in verdict.hint
    assert "(by " in verdict.lines[0]  # the entries printed alike differ: by how much
    assert judge(task, case, right, value=right.copy()).passed


def test_a_float32_answer_that_is_wrong_gets_no_float32_hint():
    found = Array().mismatch(np.array([1.0, 2.0]), np.array([1.0, 3.0], dtype=np.float32))
    assert found is not None and found.hint is None


# ----------------------------------------------------------- types as the text says
def _intro(assignment: str) -> str:
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "exercises" / f"{assignment}.ipynb"
    return "".join(json.loads(path.read_text())["cells"][0]["source"])


def test_every_exercise_says_which_types_pass():
    from perceptron_lib.grading.assignments import ASSIGNMENTS

    for assignment in ASSIGNMENTS:
        text = " ".join(_intro(assignment).split())
        assert "**What your functions return.**" in text, assignment
        for said in ("a list fails even with the right numbers", "`np.array(...)`",
                     "A count is an int (`3`, not `3.0`)", "not `1` or `0`",
                     "an int where the text asks for a float", "numpy's bool",
                     "a list for a tuple of several values"):
            assert said in text, (assignment, said)


def test_a_list_where_an_array_is_asked_fails_and_says_to_return_an_array():
    kind = Array("a 1-D array of floats")
    found = kind.mismatch(np.array([1.0, 2.0]), [1.0, 2.0])
    assert found is not None
    assert "got a list of 2 values: [1.0, 2.0]" in found.lines[0]
    assert found.lines[1] == "the numbers are right, but a list is not a numpy array"
    assert "`np.array(...)`" in found.hint and "asks for a numpy array" in found.hint
    wrong = kind.mismatch(np.array([1.0, 2.0]), (1.0, 3.0))
    assert "a tuple" in wrong.hint and "they differ at [1] (by 1)" in wrong.lines[1]
    assert kind.mismatch(np.array([1.0, 2.0]), np.array([1, 2])) is None  # ints, same numbers


def test_a_count_is_an_int_and_a_float_count_fails_with_what_to_return():
    from perceptron_lib.grading.assignments.answers import Number

    count = Number("an int", integer=True)
    assert count.mismatch(3, 3) is None and count.mismatch(3, np.int64(3)) is None
    found = count.mismatch(3, 3.0)
    assert found.lines == ("expected an int (3), got the float 3.0 (the right count as a "
                           "float)",)
    assert "start it at `0`, not `0.0`" in found.hint
    assert "right count" not in count.mismatch(3, 4.0).lines[0]
    assert count.mismatch(1, True) is not None  # a bool is not a count
    assert Number("a float").mismatch(2.0, 2) is None  # an int where a float is asked


def test_a_flag_is_a_bool_numpy_or_not_and_never_a_number():
    from perceptron_lib.grading.assignments.answers import Flag

    flag = Flag()
    assert flag.mismatch(True, True) is None and flag.mismatch(True, np.bool_(True)) is None
    assert flag.mismatch(True, 1) is not None and flag.mismatch(False, 0) is not None
    assert flag.mismatch(True, np.bool_(False)).lines == ("expected True, got False",)


def test_a_single_precision_array_keeps_its_precision_across_the_sandbox_boundary():
    import json

    from perceptron_lib.grading.assignments.codec import decode, encode

    a = np.array([0.1, -0.7071067811865476], dtype=np.float32)
    back = decode(json.loads(json.dumps(encode(a))))
    assert back.dtype == np.float32 and np.array_equal(back, a)
    b = decode(json.loads(json.dumps(encode(a.astype(float)))))
    assert b.dtype == np.float64
    assert decode({"__ndarray__": [1, 2], "dtype": "i", "shape": [2], "single": True}
                  ).dtype == np.int64  # the flag speaks of floats only
