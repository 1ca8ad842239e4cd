"""Choosing among a student's notebooks, and grading one student of a class.

Moodle's and Canvas's downloads stamp every file with the time of the download, so a
student with two notebooks that both name the assignment cannot be graded on "the
newest": the row waits for ``--choose``, no export gives it a grade, and the run exits 1.
``--only`` grades the students it names and leaves the others' grades as they were.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from grading_class import SOLUTION
from test_grading_intake import make_zip, nb, rows_of, run

from perceptron_lib.grading import sandbox

FULL = 9.0  # chapter 1's points
WRONG = "def perceptron(X, y, T):\n    raise NotImplementedError()"

pytestmark = pytest.mark.skipif(sandbox.mode() == "limits-only",
                                reason="needs bubblewrap (apt-get install bubblewrap)")


def moodle_download(path: Path) -> Path:
    """Ada (participant 7) uploaded two notebooks of the assignment; Alan (8) one."""
    folder = "{}_{}_assignsubmission_file_/{}"
    make_zip(path, {
        folder.format("Ada Lovelace", 7, "draft.ipynb"): nb("01_algorithm", WRONG),
        folder.format("Ada Lovelace", 7, "final.ipynb"): nb("01_algorithm", SOLUTION),
        folder.format("Alan Turing", 8, "perceptron.ipynb"): nb("01_algorithm", SOLUTION)})
    return path


def moodle_rows(out: Path) -> dict[str, dict]:
    with open(out / "export-moodle.csv", encoding="utf-8-sig", newline="") as fh:
        return {r["Identifier"]: r for r in csv.DictReader(fh)}


def by_name(out: Path) -> dict[str, dict]:
    return {r["student"]: r for r in rows_of(out)}


def test_several_notebooks_wait_for_a_choice_that_later_runs_remember(tmp_path, capsys):
    download = moodle_download(tmp_path / "download.zip")
    out = tmp_path / "out"
    code, stdout, stderr = run([download, "--out", out, "--export", "moodle",
                                "--assignment", "01_algorithm"], capsys)
    assert code == 1, stderr  # a choice is needed
    assert "1 student with several notebooks" in stderr
    ada = by_name(out)["Ada Lovelace"]
    assert ada["status"].startswith("several notebooks (") and float(ada["total"]) == 0
    assert "draft.ipynb" in ada["status"] and "final.ipynb" in ada["status"]
    exported = moodle_rows(out)
    assert "Participant 7" not in exported  # no grade goes out for her
    assert float(exported["Participant 8"]["Grade"]) == FULL
    report = (out / "report.html").read_text(encoding="utf-8")
    assert "choose one with --choose" in report

    code, stdout, stderr = run([download, "--out", out, "--export", "moodle",
                                "--choose", "Ada Lovelace (7)=final.ipynb"], capsys)
    assert code == 0, stderr
    assert "1 to grade, 1 unchanged" in stdout  # Alan is not graded again
    ada = by_name(out)["Ada Lovelace"]
    assert (float(ada["total"]), ada["status"]) == (FULL, "ok")
    assert "(chosen with --choose)" in ada["notes"]
    assert float(moodle_rows(out)["Participant 7"]["Grade"]) == FULL

    # the same command without the option: the choice holds, nothing is graded again
    code, stdout, stderr = run([download, "--out", out, "--export", "moodle"], capsys)
    assert code == 0, stderr
    assert "0 to grade, 2 unchanged" in stdout
    assert float(by_name(out)["Ada Lovelace"]["total"]) == FULL

    # a choice given now wins over the remembered one
    code, stdout, stderr = run([download, "--out", out, "--choose", "7=draft.ipynb"], capsys)
    assert code == 0, stderr
    assert float(by_name(out)["Ada Lovelace"]["total"]) < FULL


def test_a_choice_must_name_a_student_and_one_of_the_notebooks(tmp_path, capsys):
    download = moodle_download(tmp_path / "download.zip")
    out = tmp_path / "out"
    code, _, stderr = run([download, "--out", out, "--choose", "Ada Lovelace=nope.ipynb",
                           "--choose", "Grace Hopper=final.ipynb"], capsys)
    assert code == 2
    assert "--choose 'Grace Hopper': no such student" in stderr
    assert not out.exists()
    code, _, stderr = run([download, "--out", out, "--choose", "Ada Lovelace=nope.ipynb"],
                          capsys)
    assert code == 1
    assert by_name(out)["Ada Lovelace"]["status"].startswith(
        "several notebooks: --choose names 'nope.ipynb', which is not one of them")
    with pytest.raises(SystemExit):
        run([download, "--out", out, "--choose", "Ada Lovelace"], capsys)
    assert "write the student, '=' and the notebook's file name" in capsys.readouterr().err


def test_only_grades_the_students_it_names(tmp_path, capsys):
    subs = tmp_path / "subs"
    subs.mkdir()
    for name in ("ada", "alan", "grace"):
        (subs / f"{name}.ipynb").write_text(nb("01_algorithm", SOLUTION), encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, stderr = run([subs, "--out", out, "--only", "ada"], capsys)
    assert code == 0, stderr
    assert "1 to grade" in stdout
    rows = by_name(out)
    assert float(rows["ada"]["total"]) == FULL
    for other in ("alan", "grace"):  # never graded: said so, and no grade exported
        assert rows[other]["status"].startswith("not graded in this run: --only named")

    code, stdout, stderr = run([subs, "--out", out], capsys)  # the rest
    assert code == 0 and "2 to grade, 1 unchanged" in stdout

    # alan changes his notebook; regrading grace alone leaves alan's grade as it was
    (subs / "alan.ipynb").write_text(nb("01_algorithm", WRONG), encoding="utf-8")
    code, stdout, stderr = run([subs, "--out", out, "--only", "grace"], capsys)
    assert code == 0 and "1 to grade" in stdout
    alan = by_name(out)["alan"]
    assert float(alan["total"]) == FULL
    assert "the notebook changed since this grade" in alan["notes"]
    code, _, stderr = run([subs, "--out", out, "--only", "nobody"], capsys)
    assert code == 2 and "--only 'nobody': no such student" in stderr
