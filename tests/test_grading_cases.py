"""Tests of the cases: references score full marks, known mistakes are caught by the
public cases (so the check cell reports them) and lose points, each with its hint."""

import subprocess
import sys

import pytest
from grading_corpus import INSEPARABLE
from grading_inprocess import answers_of

from perceptron_lib.grading.assignments import ASSIGNMENTS, find_task, graded_names
from perceptron_lib.grading.generate import problems, strip_solutions
from perceptron_lib.grading.judge.grade import score
from perceptron_lib.grading.judge.verdict import alike, same

TASKS = [(a, t) for a, tasks in ASSIGNMENTS.items() for t in tasks]
MISTAKES = [(a, t, m) for a, t in TASKS for m in t.known]


@pytest.mark.parametrize("assignment,task", TASKS, ids=[t.name for _, t in TASKS])
def test_the_reference_scores_full_marks(assignment, task):
    cases = task.all_cases()
    result = score(task, cases, answers_of(task.reference, task, assignment, stand_in=False),
                   len(task.public))
    assert result.points == task.points and result.passed == len(cases)
    assert len(task.grading_cases()) >= 2, "grading needs cases beyond the public ones"
    assert task.signature and task.parameters
    assert find_task(task.name) == (assignment, task)
    assert task.name in graded_names(assignment)


@pytest.mark.parametrize("assignment,task,mistake", MISTAKES,
                         ids=[f"{t.name}-{m.name}" for _, t, m in MISTAKES])
def test_every_known_mistake_fails_a_public_case_with_its_hint_alone(assignment, task,
                                                                     mistake):
    answers = answers_of(mistake.wrong, task, assignment, stand_in=False)
    result = score(task, task.all_cases(), answers, len(task.public))
    assert result.points < task.points
    public = [d for d in result.details[: len(task.public)] if not d["passed"]]
    assert public, "no public case catches it: the check cell would pass it"
    twin = INSEPARABLE.get((task.name, mistake.name))
    alone = [d.get("hint") == mistake.hint for d in public]
    named = [twin is not None and task.mistake(twin).hint in d.get("hint", "") for d in public]
    assert any(alone) or all(named)
    failed = [d for d in result.details if not d["passed"]]
    assert all(mistake.hint in d.get("hint", "") for d in failed), "a hint that does not fit"


@pytest.mark.parametrize("assignment,task", TASKS, ids=[t.name for _, t in TASKS])
def test_public_cases_tell_the_known_mistakes_apart_where_they_can(assignment, task):
    """Where a mistake fails a public case, some public case tells its answer apart
    from each other mistake's (unless the two are INSEPARABLE)."""
    for m in task.known:
        for other in task.known:
            if other is m or other.hint == m.hint or INSEPARABLE.get(
                    (task.name, m.name)) == other.name:
                continue
            told_apart = []
            for case in task.public:
                expected = task.reference(*case.args)
                a, b = m.wrong(*case.args), other.wrong(*case.args)
                if not same(task, expected, a):
                    told_apart.append(not (same(task, b, a) or alike(a, b)))
            if told_apart:
                assert any(told_apart), (m.name, other.name)


def test_missing_answers_and_errors_score_zero():
    task = ASSIGNMENTS["01_algorithm"][0]
    cases = task.all_cases()
    result = score(task, cases, {}, len(task.public))
    assert result.points == 0 and "no answer" in result.details[0]["error"]
    answers = {f"update:{k}": {"error": "ValueError: boom"} for k in range(len(cases))}
    result = score(task, cases, answers, len(task.public))
    assert result.points == 0 and "raised ValueError: boom" in result.details[0]["error"]
    assert "hint" not in result.details[0]


def test_an_answer_that_changed_its_input_loses_the_case_with_the_argument_named():
    assignment, task = find_task("perceptron")
    answers = answers_of(task.reference, task, assignment, stand_in=False)
    key = "perceptron:1"
    answers[key] = {**answers[key], "mutated": [0]}
    old_run = {k: {kk: vv for kk, vv in v.items() if kk != "mutated"}
               for k, v in answers.items() if k != key}
    result = score(task, task.all_cases(), {**old_run, key: answers[key]}, len(task.public))
    assert result.passed == len(task.all_cases()) - 1
    detail = result.details[1]
    assert not detail["passed"] and "`X`" in detail["hint"] and "in place" in detail["hint"]
    assert "the answer is right" in detail["error"]


def test_check_cells_allow_each_call_the_time_grading_allows():
    import importlib

    from perceptron_lib.grading.sandbox import Limits

    check = importlib.import_module("perceptron_lib.grading.check")
    assert check.CASE_SECONDS == Limits().call_seconds


def test_strip_solutions():
    src = ("def f(x):\n    '''Doc.'''\n    ### BEGIN SOLUTION\n    return 2 * x\n"
           "    ### END SOLUTION\n")
    assert strip_solutions(src) == (
        "def f(x):\n    '''Doc.'''\n    # YOUR CODE HERE\n    raise NotImplementedError()\n")
    with pytest.raises(ValueError, match="without ### END"):
        strip_solutions("### BEGIN SOLUTION\nx = 1")
    with pytest.raises(ValueError, match="without ### BEGIN"):
        strip_solutions("x = 1\n### END SOLUTION")


def test_the_generator_refuses_a_notebook_that_lacks_a_graded_function():
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "solutions" / "04_convergence.ipynb"
    nb = json.loads(path.read_text())
    assert problems(nb, "04_convergence") == []
    for cell in nb["cells"]:
        text = "".join(cell["source"])
        if "def radius(X)" in text:
            cell["source"] = text.replace("def radius(X)", "def radius(points)")
        if text == "check(mistake_bound)":
            cell["metadata"]["tags"] = []
    found = " ".join(problems(nb, "04_convergence"))
    assert "radius('points',) takes other arguments" in found
    assert "no check cell (tagged check) for mistake_bound" in found
    assert problems(nb, "07_unknown")


def test_exercises_are_what_the_generator_makes_from_solutions():
    proc = subprocess.run([sys.executable, "-m", "perceptron_lib.grading.generate", "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
