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
