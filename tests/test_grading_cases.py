"""Tests of the tests: references score full marks, known mistakes lose points."""

import copy
import json
import subprocess
import sys

import pytest

from perceptron_lib.grading.cases import ASSIGNMENTS
from perceptron_lib.grading.codec import decode, encode
from perceptron_lib.grading.generate import strip_solutions
from perceptron_lib.grading.grader import score

TASKS = [(a, t) for a, tasks in ASSIGNMENTS.items() for t in tasks]


def answers_of(fn, task):
    """What a student's function would send back, through the same JSON channel."""
    out = {}
    for k, case in enumerate(task.all_cases()):
        try:
            value = fn(*copy.deepcopy(case.args))
            out[f"{task.name}:{k}"] = {"value": decode(json.loads(json.dumps(encode(value))))}
        except Exception as exc:
            out[f"{task.name}:{k}"] = {"error": str(exc)}
    return out


@pytest.mark.parametrize("assignment,task", TASKS, ids=[t.name for _, t in TASKS])
def test_the_reference_scores_full_marks(assignment, task):
    cases = task.all_cases()
    result = score(task, cases, answers_of(task.reference, task), len(task.public))
    assert result.points == task.points and result.passed == len(cases)
    assert len(task.hidden()) >= 2, "grading needs cases beyond the public ones"
    assert task.signature


MISTAKES = [(t, hint, fn) for _, t in TASKS for hint, fn in t.mistakes.items()]


@pytest.mark.parametrize("task,hint,wrong", MISTAKES,
                         ids=[f"{t.name}-{i}" for i, (t, _, _) in enumerate(MISTAKES)])
def test_every_known_mistake_loses_points_and_is_named(task, hint, wrong):
    cases = task.all_cases()
    result = score(task, cases, answers_of(wrong, task), len(task.public))
    assert result.points < task.points
    failed = [d for d in result.details if not d["passed"]]
    assert failed
    assert any(d.get("hint") == hint for d in failed)


def test_missing_answers_and_errors_score_zero():
    task = ASSIGNMENTS["01_algorithm"][0]
    cases = task.all_cases()
    result = score(task, cases, {}, len(task.public))
    assert result.points == 0 and "no answer" in result.details[0]["error"]


def test_strip_solutions():
    src = ("def f(x):\n    '''Doc.'''\n    ### BEGIN SOLUTION\n    return 2 * x\n"
           "    ### END SOLUTION\n")
    assert strip_solutions(src) == (
        "def f(x):\n    '''Doc.'''\n    # YOUR CODE HERE\n    raise NotImplementedError()\n")
    with pytest.raises(ValueError, match="without ### END"):
        strip_solutions("### BEGIN SOLUTION\nx = 1")
    with pytest.raises(ValueError, match="without ### BEGIN"):
        strip_solutions("x = 1\n### END SOLUTION")


def test_exercises_are_what_the_generator_makes_from_solutions():
    proc = subprocess.run([sys.executable, "-m", "perceptron_lib.grading.generate", "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
