"""The mistakes corpus: wrong implementations fail their check cell and lose points in
grading, with the hint that fits them and no other; valid ones pass both.

Grading here runs in the test's process (``grading_inprocess``), through the same JSON
channel as the sandbox; ``test_end_to_end_through_the_grader`` runs a few of the same
implementations through the real grader.
"""

from __future__ import annotations

import ast
import csv
import importlib
import json
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
from grading_corpus import HINTS, INSEPARABLE, Valid, Wrong
from grading_inprocess import define, grade_in_process

from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.assignments import ASSIGNMENTS, find_task
from perceptron_lib.grading.check import public_outcomes, run_checks
from perceptron_lib.grading.sandbox.standins import routes

ROOT = Path(__file__).resolve().parents[1]
MODULES = {name: importlib.import_module(f"grading_corpus.a{name}") for name in ASSIGNMENTS}
WRONG = [(a, e) for a, m in MODULES.items() for e in m.WRONG]
VALID = [(a, e) for a, m in MODULES.items() for e in m.VALID]


def _id(entry: Wrong | Valid) -> str:
    return f"{entry.function}: {entry.about}"


KIND_TEXT = {"changed input": "in place", "library": "you called the library's",
             "one element": "an array holding one number", "type": "the exercise asks for",
             "single": "compute in float64",
             "integers": "build it in floats instead"}
assert set(KIND_TEXT) == set(HINTS)


def expected_hint(entry: Wrong) -> str | None:
    """The text the hint must contain: a known mistake's hint, or a kind of HINTS."""
    if entry.hint is None:
        return None
    if entry.hint in KIND_TEXT:
        return KIND_TEXT[entry.hint]
    return find_task(entry.function)[1].mistake(entry.hint).hint


def test_the_corpus_names_only_known_mistakes():
    for _, entry in WRONG:
        _, task = find_task(entry.function)
        if entry.hint is not None and entry.hint not in HINTS:
            task.mistake(entry.hint)  # raises KeyError for a name the task does not know


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # wrong code may divide by zero
@pytest.mark.parametrize("assignment,entry", WRONG, ids=[_id(e) for _, e in WRONG])
def test_a_wrong_implementation_fails_its_check_cell_and_loses_points(assignment, entry):
    fn = define(entry.source, entry.function)
    _, task = find_task(entry.function)
    failed = [o for o in public_outcomes(fn, task, assignment) if not o.verdict.passed]
    assert failed, "the check cell passes a wrong implementation"
    result = grade_in_process(fn, entry.function)
    assert result.points < task.points
    want = expected_hint(entry)
    shown = [o.verdict.hint for o in failed]
    graded = [d.get("hint") for d in result.details if not d["passed"]]
    if want is None:
        assert shown == [None] * len(shown), "a hint for a mistake it does not describe"
        assert graded == [None] * len(graded), "a hint for a mistake it does not describe"
        return
    # every hint given names this mistake (alone, or with one it cannot be told from) ...
    assert all(h is None or want in h for h in shown + graded), (want, shown + graded)
    # ... and the check cell gives this hint, alone, on some case
    alone = [h is not None and want in h and "more than one" not in h for h in shown]
    assert any(alone) or (entry.function, entry.hint) in INSEPARABLE, (want, shown)


@pytest.mark.parametrize("assignment,entry", VALID, ids=[_id(e) for _, e in VALID])
def test_a_valid_alternative_passes_its_check_cell_and_scores_full(assignment, entry):
    fn = define(entry.source, entry.function)
    _, task = find_task(entry.function)
    outcomes = public_outcomes(fn, task, assignment)
    assert all(o.verdict.passed for o in outcomes), [o.verdict for o in outcomes]
    result = grade_in_process(fn, entry.function)
    assert result.points == task.points, result.feedback


@pytest.mark.parametrize("assignment", list(ASSIGNMENTS))
def test_the_corpus_covers_every_known_mistake_and_route(assignment):
    wrong = [e for a, e in WRONG if a == assignment]
    valid = [e for a, e in VALID if a == assignment]
    for task in ASSIGNMENTS[assignment]:
        named = {e.hint for e in wrong if e.function == task.name}
        missing = {m.name for m in task.known} - named
        assert not missing, f"{task.name}: no implementation of {missing}"
        if routes([task.name]):  # the library has a version of it, or a road to one
            assert "library" in named, f"{task.name}: no call of the library's version"
        assert any(e.function == task.name for e in valid), f"{task.name}: no valid one"


def test_check_cells_print_the_hint_that_fits(capsys):
    entry = next(e for _, e in WRONG if e.function == "predict" and e.hint == "no offset")
    assert run_checks(define(entry.source, "predict")) is False
    out = capsys.readouterr().out
    assert "add the offset theta_0" in out and "`>= 0`" not in out
    assert "input: X = [[1.0, 0.0], [3.0, 0.0]], theta = [1.0, 0.0], theta_0 = -2.0" in out
    entry = next(e for _, e in WRONG if e.function == "predict" and e.hint == "zero one")
    assert run_checks(define(entry.source, "predict")) is False
    out = capsys.readouterr().out
    assert "not 1 and 0" in out and "np.sign" not in out.split("hint:")[1]


def test_check_cells_show_what_differs_in_plain_numbers(capsys):
    source = next(e.source for _, e in WRONG if e.function == "spam_features"
                  and e.hint == "split space")
    run_checks(define(source, "spam_features"))
    out = capsys.readouterr().out
    assert "message = 'Reply YES\\tor NO,\\nto 8080 now!'" in out
    assert "np.float64" not in out and "array(" not in out
    source = next(e.source for _, e in WRONG if e.function == "kfold_indices"
                  and e.hint == "test first")
    run_checks(define(source, "kfold_indices"))
    out = capsys.readouterr().out
    assert re.search(r"expected \{[\d, ]+\}, got \{[\d, ]+\}", out)
    assert not re.search(r"\d\.0\b", out), "indices printed as floats"
    assert "tuple" not in out


def test_long_arrays_show_the_entries_that_differ():
    from perceptron_lib.grading.assignments.answers import Array

    expected = np.arange(40.0)
    got = expected.copy()
    got[[3, 17, 31]] = -1.0
    text = Array("an array of floats").mismatch(expected, got).text()
    assert "3 of the 40 entries differ" in text
    for k in (3, 17, 31):
        assert f"at [{k}] expected {k}.0, got -1.0" in text


# ----------------------------------------------------------- the exercise notebooks
def _exercise(assignment: str) -> dict:
    return json.loads((ROOT / "exercises" / f"{assignment}.ipynb").read_text())


def _defined(source: str, name: str) -> list[str] | None:
    if not re.search(rf"^def {name}\(", source, re.MULTILINE):
        return None
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return [a.arg for a in node.args.args]
    return None


@pytest.mark.parametrize("assignment", list(ASSIGNMENTS))
def test_exercise_notebooks_ask_for_the_functions_the_corpus_implements(assignment):
    nb = _exercise(assignment)
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    for task in ASSIGNMENTS[assignment]:
        cells = [c for c in code if _defined(_source(c), task.name) is not None]
        assert len(cells) == 1, f"{task.name}: defined in {len(cells)} cells"
        assert _defined(_source(cells[0]), task.name) == list(task.parameters)
        assert "raise NotImplementedError()" in _source(cells[0])
        for entry in [e for _, e in WRONG + VALID if e.function == task.name]:
            assert _defined(entry.source, task.name) == list(task.parameters), _id(entry)


def _source(cell: dict) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


@pytest.mark.parametrize("assignment", list(ASSIGNMENTS))
def test_exercises_that_receive_arrays_say_not_to_change_them(assignment):
    cells = _exercise(assignment)["cells"]
    for task in ASSIGNMENTS[assignment]:
        if not any(isinstance(a, np.ndarray) for c in task.public for a in c.args):
            continue
        at = next(k for k, c in enumerate(cells) if c["cell_type"] == "code"
                  and _defined(_source(c), task.name) is not None)
        checks = [k for k in range(at) if "check" in cells[k].get("metadata", {}).get(
            "tags", [])]
        start = checks[-1] if checks else 0
        text = " ".join(_source(c) for c in cells[start:at] if c["cell_type"] == "markdown")
        assert re.search(r"[Dd]o not change|must not change", text), task.name


# ------------------------------------------------------------------- end to end
E2E = [("01_algorithm", "update", "changed input"), ("01_algorithm", "predict", "no offset"),
       ("01_algorithm", "perceptron", "library"), ("02_offset", "lifted_to_offset",
                                                   "one element"),
       ("05_spam", "spam_features", "split space"), ("06_variants", "one_vs_all_predict",
                                                     "normalised")]


def _solution_cells(assignment: str) -> list[str]:
    nb = json.loads((ROOT / "solutions" / f"{assignment}.ipynb").read_text())
    return [_source(c) for c in nb["cells"] if c["cell_type"] == "code"]


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_end_to_end_through_the_grader(tmp_path):
    folder = tmp_path / "submissions"
    folder.mkdir()
    students = {}
    for assignment, function, hint in E2E:
        entry = next(e for a, e in WRONG if a == assignment and e.function == function
                     and e.hint == hint)
        students[f"wrong_{function}"] = (assignment, function, entry)
    for assignment, function in [("01_algorithm", "update"), ("05_spam", "kfold_indices")]:
        entry = next(e for a, e in VALID if a == assignment and e.function == function)
        students[f"valid_{function}"] = (assignment, function, entry)
    for student, (assignment, _, entry) in students.items():
        nb = nbformat.v4.new_notebook()
        nb.metadata["perceptron_course"] = {"assignment": assignment}
        nb.cells = [nbformat.v4.new_code_cell(c) for c in
                    [*_solution_cells(assignment), entry.source]]
        nbformat.write(nb, str(folder / f"{student}.ipynb"))
    out = tmp_path / "out"
    assert grade_folder([str(folder), "--out", str(out), "--workers", "2"]) == 0
    with open(out / "grades.csv", encoding="utf-8-sig") as fh:
        rows = {r["student"]: r for r in csv.DictReader(fh)}
    for student, (_, function, entry) in students.items():
        points = find_task(function)[1].points
        feedback = (out / "feedback" / f"{student}.txt").read_text()
        if isinstance(entry, Valid):
            assert float(rows[student][function]) == points, feedback
            continue
        assert float(rows[student][function]) < points, feedback
        in_process = grade_in_process(define(entry.source, function), function)
        assert float(rows[student][function]) == in_process.points, feedback
        assert expected_hint(entry) in feedback, feedback
