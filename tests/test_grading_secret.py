"""Cases a lookup table cannot know: ``--secret FILE`` draws the grading cases.

The package holds every case and reference, so without a secret anyone can compute the
answers at home; with one, the cases beyond the fixed edge cases are drawn from seeds
derived from the secret, so that they exist nowhere before grading, and the same secret
gives the same cases (and grades) on every rerun.
"""

from __future__ import annotations

import json

import nbformat
import numpy as np
import pytest
from grading_class import SOLUTION

from perceptron_lib.grading.__main__ import CASES_PUBLIC
from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.assignments import ASSIGNMENTS
from perceptron_lib.grading.assignments.codec import encode
from perceptron_lib.grading.assignments.exercise import cases_key
from perceptron_lib.grading.judge.grade import expected_answer, score

TASKS = [t for tasks in ASSIGNMENTS.values() for t in tasks]
KEY, OTHER = cases_key(b"the instructor's secret"), cases_key(b"another secret")


def _fingerprint(cases) -> list[str]:
    return [json.dumps([encode(a) for a in c.args], sort_keys=True) for c in cases]


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.name)
def test_a_secret_draws_cases_of_its_own(task):
    public = _fingerprint(task.all_cases())
    drawn = _fingerprint(task.all_cases(KEY))
    assert drawn[:len(task.public)] == public[:len(task.public)]  # the check cell's
    assert drawn == _fingerprint(task.all_cases(KEY))  # the same secret, the same cases
    unknown = set(drawn) - set(public)
    assert unknown, "no grading case depends on the secret"
    assert set(drawn) != set(_fingerprint(task.all_cases(OTHER)))


def _lookup_table(task):
    """What a student computes at home from the package: every case's answer."""
    return {f: expected_answer(task, c)
            for f, c in zip(_fingerprint(task.all_cases()), task.all_cases(), strict=True)}


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.name)
def test_a_lookup_table_built_from_the_package_scores_below_full(task):
    table = _lookup_table(task)

    def answers(cases):
        out = {}
        for k, (f, _) in enumerate(zip(_fingerprint(cases), cases, strict=True)):
            out[f"{task.name}:{k}"] = ({"value": table[f], "mutated": []} if f in table
                                       else {"error": "not in the table"})
        return out

    public_cases = task.all_cases()
    assert score(task, public_cases, answers(public_cases), len(task.public)).points == \
        task.points  # the table is right wherever the cases are the package's
    secret_cases = task.all_cases(KEY)
    result = score(task, secret_cases, answers(secret_cases), len(task.public))
    assert result.points < task.points


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.name)
def test_the_drawn_cases_are_as_many_and_every_reference_answers_them(task):
    cases = task.all_cases(KEY)
    assert len(cases) == len(task.all_cases())
    for case in cases:  # raises for an input the reference refuses
        expected_answer(task, case)


def _class(folder):
    folder.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.metadata["perceptron_course"] = {"assignment": "01_algorithm"}
    nb.cells = [nbformat.v4.new_code_cell(SOLUTION)]
    nbformat.write(nb, str(folder / "right.ipynb"))
    wrong = SOLUTION.replace("<= 0", "< 0")
    nb.cells = [nbformat.v4.new_code_cell(wrong)]
    nbformat.write(nb, str(folder / "strict.ipynb"))


def test_the_run_says_where_its_cases_come_from(tmp_path, capsys):
    _class(tmp_path / "subs")
    out = tmp_path / "out"
    assert grade_folder([str(tmp_path / "subs"), "--out", str(out), "--workers", "2"]) == 0
    said = capsys.readouterr().out
    assert CASES_PUBLIC in said
    data = json.loads((out / "results.json").read_text())
    assert data["cases"] == {"secret": False, "said": CASES_PUBLIC}
    assert "which anyone can compute" in (out / "report.html").read_text()
    public = {g["student"]: g for g in data["grades"]}

    secret = tmp_path / "secret.txt"
    secret.write_text("7f3a9c0e5b2d41a8")
    args = [str(tmp_path / "subs"), "--out", str(out), "--workers", "2", "--secret",
            str(secret)]
    assert grade_folder(args) == 0
    said = capsys.readouterr().out
    assert f"drawn from the secret in {secret}" in said
    assert "2 to grade" in said  # another secret: everyone graded again
    data = json.loads((out / "results.json").read_text())
    assert data["cases"]["secret"] is True
    first = {g["student"]: g for g in data["grades"]}
    assert first["right"]["total"] == first["right"]["max"]
    assert first["strict"]["total"] < first["strict"]["max"]
    assert first["strict"]["grader_sha256"] != public["strict"]["grader_sha256"]
    cases = [d["about"] for t in first["strict"]["tasks"] for d in t["details"]]
    assert cases != [d["about"] for t in public["strict"]["tasks"] for d in t["details"]] \
        or first["strict"]["tasks"] != public["strict"]["tasks"]

    assert grade_folder(args) == 0  # the same secret: nothing changed, nothing graded
    assert "0 to grade" in capsys.readouterr().out
    again = json.loads((out / "results.json").read_text())["grades"]
    assert {g["student"]: g["total"] for g in again} == {k: g["total"] for k, g in first.items()}


@pytest.mark.parametrize("content, words", [("", "the file is empty"),
                                            (None, "No such file")])
def test_a_secret_that_cannot_serve_is_refused(tmp_path, capsys, content, words):
    _class(tmp_path / "subs")
    secret = tmp_path / "secret.txt"
    if content is not None:
        secret.write_text(content)
    with pytest.raises(SystemExit):
        grade_folder([str(tmp_path / "subs"), "--out", str(tmp_path / "out"), "--secret",
                      str(secret)])
    assert words in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_secret_inside_the_submissions_is_refused(tmp_path, capsys):
    _class(tmp_path / "subs")
    (tmp_path / "subs" / "secret.txt").write_text("abc")
    with pytest.raises(SystemExit):
        grade_folder([str(tmp_path / "subs"), "--out", str(tmp_path / "out"), "--secret",
                      str(tmp_path / "subs" / "secret.txt")])
    assert "must not be inside" in capsys.readouterr().err


def test_the_seeds_are_the_written_numbers_without_a_secret():
    from perceptron_lib.grading.assignments.exercise import Seeds

    assert Seeds(None, "update")(101) == 101
    assert Seeds(KEY, "update")(101) != 101
    assert Seeds(KEY, "update")(101) != Seeds(KEY, "perceptron")(101)
    assert np.array_equal(Seeds(KEY, "x").rng(5).integers(100, size=5),
                          Seeds(KEY, "x").rng(5).integers(100, size=5))
