"""The platform's scale: grades exported on the assignment's points on the platform.

The rosters are written as the platforms write them: Canvas's gradebook export as
``lib/gradebook_exporter.rb`` of Canvas LMS builds it (header, ``Manual Posting`` row,
``    Points Possible`` row with two decimals, students by sortable name, the Test Student
last); Moodle's grading worksheet as ``mod/assign/gradingtable.php`` downloads it (column
names from ``mod/assign/lang/en/assign.php``; the maximum with the grade item's two
decimals).  The submissions are named as the platforms' bulk downloads name them:
Canvas's ``lovelaceada_42_9001_perceptron.ipynb`` (name, user id, submission id, file)
and Moodle's ``Student 01_1001_assignsubmission_file_notebook.ipynb``.
"""

from __future__ import annotations

import contextlib
import csv
import io
from decimal import Decimal
from pathlib import Path

import pytest
from grading_class import KINDS, make_class, notebook_text

from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.judge.roster import match, read_roster
from perceptron_lib.grading.outputs.exports import summary_lines, write_exports
from perceptron_lib.grading.outputs.scale import Scale, resolve

CANVAS_EXPORT = """\
Student,ID,SIS User ID,SIS Login ID,Section,Perceptron 1 (5521),Perceptron 2 (5522),\
Current Score,Unposted Current Score,Final Score,Unposted Final Score
,,,,,Manual Posting,,,,,
    Points Possible,,,,,100.00,50.00,(read only),(read only),(read only),(read only)
"Lovelace, Ada",42,S-1001,ada,Section A,,,,,,
"Turing, Alan",43,S-1002,alan,Section A,,,,,,
"Student, Test",99,,3f786850e387550fdab836ed7e6dc881de23001b,Section A,,,,,,
"""
WORKSHEET = """\
Identifier,"Full name","Email address",Status,Grade,"Maximum Grade","Grade can be changed",\
"Last modified (submission)","Last modified (grade)","Feedback comments"
"Participant 1001","Student 01",student01@example.org,"Submitted for grading",,10.00,Yes,\
"Monday, 3 March 2025, 9:40 AM",-,
"Participant 1002","Student 02",student02@example.org,"Submitted for grading",,10.00,Yes,\
"Monday, 3 March 2025, 9:41 AM",-,
"""


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def record(name: str, sid: str, total: float, assignment: str = "01_algorithm",
           status: str = "ok") -> dict:
    return {"student": name, "student_id": sid, "assignment": assignment, "total": total,
            "max": 9.0, "status": status, "tasks": [], "adjustments": []}


def read_rows(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def run(args: list) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = grade_folder([str(a) for a in args] + ["--workers", "2", "--wall-seconds", "8"])
    return code, out.getvalue(), err.getvalue()


# ------------------------------------------------------------------ where the scale comes from
def test_the_scale_is_read_from_the_roster_or_given(tmp_path):
    canvas = read_roster(write(tmp_path / "c.csv", CANVAS_EXPORT))
    moodle = read_roster(write(tmp_path / "w.csv", WORKSHEET))
    assert resolve(["canvas"], canvas, None, "Perceptron 1 (5521)") == (
        {"canvas": Scale(Decimal("100.00"), "Points Possible in the roster")}, [])
    # Canvas's importer finds a column by its id: a renamed title still names it
    assert resolve(["canvas"], canvas, None, "Perceptron one (5522)")[0]["canvas"].maximum \
        == Decimal("50.00")
    assert resolve(["moodle", "canvas"], moodle, None, None) == (
        {"moodle": Scale(Decimal("10.00"), "Maximum Grade in the roster"),
         "canvas": Scale()}, [])
    assert resolve(["gradescope"], None, Decimal("20"), None) == (
        {"gradescope": Scale(Decimal("20"), "--points")}, [])
    assert resolve(["canvas"], canvas, Decimal("100"), "Perceptron 1 (5521)")[1] == []


def test_the_options_that_contradict_the_roster_are_each_named(tmp_path):
    canvas = read_roster(write(tmp_path / "c.csv", CANVAS_EXPORT))
    _, problems = resolve(["canvas"], canvas, None, "Perceptron 3 (5599)")
    assert problems == [f"--canvas-column 'Perceptron 3 (5599)' is not a column of the "
                        f"gradebook export {tmp_path / 'c.csv'} (its assignments: "
                        "'Perceptron 1 (5521)', 'Perceptron 2 (5522)')"]
    moodle = read_roster(write(tmp_path / "w.csv", WORKSHEET))
    _, problems = resolve(["moodle"], moodle, Decimal("20"), None)
    assert problems == [f"--points 20 but the Maximum Grade in the roster {tmp_path / 'w.csv'}"
                        " is 10.00: give one or the other"]
    zero = read_roster(write(tmp_path / "z.csv", WORKSHEET.replace("10.00", "0.00")))
    assert "is 0: give the assignment its points in Moodle" in resolve(["moodle"], zero,
                                                                       None, None)[1][0]
    scale = read_roster(write(tmp_path / "s.csv", "Identifier,Full name,Grade,Scale\n"
                              '"Participant 1001",Ada,,"Bad\nGood"\n'))
    assert "graded on a scale (its column 'Scale')" in resolve(["moodle"], scale, None,
                                                               None)[1][0]


# ------------------------------------------------------------------ the files
def test_a_full_mark_is_exported_as_the_platforms_full_mark(tmp_path):
    roster = read_roster(write(tmp_path / "c.csv", CANVAS_EXPORT))
    grades = [record("lovelaceada", "42", 9.0), record("turingalan", "43", 4.5)]
    kinds = {("lovelaceada", "42"): "canvas", ("turingalan", "43"): "canvas"}
    scales, _ = resolve(["canvas"], roster, None, "Perceptron 1 (5521)")
    (export,) = write_exports(tmp_path, ["canvas"], grades, match(roster, list(kinds), kinds),
                              roster, "Perceptron 1 (5521)", kinds, scales)
    points_row, *rows = read_rows(export.path)
    assert (points_row["Student"], points_row["Perceptron 1 (5521)"]) == \
        ("    Points Possible", "100")
    assert {r["ID"]: r["Perceptron 1 (5521)"] for r in rows} == {"42": "100", "43": "50"}
    lines = summary_lines([export])
    assert "export: grades scaled from 9 to 100 points (Points Possible in the roster)" in lines


def test_moodle_grades_on_the_worksheets_maximum_and_its_range(tmp_path):
    roster = read_roster(write(tmp_path / "w.csv", WORKSHEET))
    grades = [record("Student 01", "1001", 9.0), record("Student 02", "1002", 10.0)]
    kinds = {("Student 01", "1001"): "moodle", ("Student 02", "1002"): "moodle"}
    scales, _ = resolve(["moodle"], roster, None, None)
    (export,) = write_exports(tmp_path, ["moodle"], grades, match(roster, list(kinds), kinds),
                              roster, kinds=kinds, scales=scales)
    rows = {r["Identifier"]: r for r in read_rows(export.path)}
    assert (rows["Participant 1001"]["Grade"], rows["Participant 1001"]["Maximum Grade"]) == \
        ("10", "10")
    assert rows["Participant 1001"]["Feedback comments"].startswith(
        "Score 9 of 9 (10 of 10 on this assignment's scale).")
    # 10 of 9 (a bonus) is 11.111 of 10: outside the platform's range, not the grader's
    assert export.warnings == ["Student 02 (1002): 11.111 is outside 0 to 10; Moodle skips a "
                               "grade outside the assignment's range"]


def test_a_new_canvas_column_gets_its_points_possible_row(tmp_path):
    roster = read_roster(write(tmp_path / "c.csv", CANVAS_EXPORT))
    grades = [record("lovelaceada", "42", 9.0)]
    kinds = {("lovelaceada", "42"): "canvas"}
    (export,) = write_exports(tmp_path, ["canvas"], grades, match(roster, list(kinds), kinds),
                              roster, None, kinds, {"canvas": Scale()})
    points_row, row = read_rows(export.path)[:2]
    assert (points_row["Student"], points_row["01_algorithm"], row["01_algorithm"]) == \
        ("    Points Possible", "9", "9")
    assert export.notes == ["Canvas makes a new assignment '01_algorithm' of 9 points from "
                            "this file; give --canvas-column 'Title (id)' to fill an "
                            "assignment Canvas has (the gradebook export has 'Perceptron 1 "
                            "(5521)', 'Perceptron 2 (5522)')"]
    assert "export: grades on the grader's 9 points: Canvas's Points Possible for the " \
           "assignment is not known" in "\n".join(summary_lines([export]))


def test_an_existing_column_of_unknown_points_keeps_canvass_points(tmp_path):
    grades = [record("lovelaceada", "42", 9.0)]
    (export,) = write_exports(tmp_path, ["canvas"], grades, canvas_column="Perceptron 1 (5521)")
    (row,) = read_rows(export.path)  # no Points Possible row: Canvas keeps its points
    assert row["Perceptron 1 (5521)"] == "9"
    assert export.notes == ["no Points Possible row: the points of 'Perceptron 1 (5521)' in "
                            "Canvas are not known, and Canvas keeps them"]


def test_a_student_graded_as_another_assignment_is_named_not_left_empty(tmp_path):
    path = write(tmp_path / "r.csv", "id,name,email\n1001,Student 01,a@x.org\n"
                                     "1002,Student 02,b@x.org\n")
    roster = read_roster(path)
    grades = [record("Student 01", "1001", 9.0),
              {**record("Student 02", "1002", 3.0, "02_offset"), "max": 8.0}]
    m = match(roster, [("Student 01", "1001"), ("Student 02", "1002")])
    first, second = write_exports(tmp_path, ["moodle"], grades, m, roster)
    assert [r["Identifier"] for r in read_rows(first.path)] == ["Participant 1001"]
    assert first.empty == 0
    assert first.skipped == [("Student 02 (1002)", "graded as 02_offset, the assignment its "
                              "notebook names, so in export-moodle-02_offset.csv: grade with "
                              "--assignment 01_algorithm to have it in this file")]
    assert [r["Identifier"] for r in read_rows(second.path)] == ["Participant 1002"]


# ------------------------------------------------------------------ the command
@pytest.fixture
def canvas_class(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    for name, ident, kind in (("lovelaceada", "42", "right"), ("turingalan", "43", "strict")):
        (subs / f"{name}_{ident}_90{ident}_perceptron.ipynb").write_text(
            notebook_text(KINDS[kind]))
    write(tmp_path / "grades.csv", CANVAS_EXPORT)
    return tmp_path


def test_the_command_exports_on_canvass_points_and_says_so(canvas_class):
    base = canvas_class
    code, printed, err = run([base / "subs", "--out", base / "out", "--roster",
                              base / "grades.csv", "--export", "canvas",
                              "--canvas-column", "Perceptron 1 (5521)"])
    assert code == 0, err
    assert "export: grades scaled from 9 to 100 points (Points Possible in the roster)" \
        in printed
    assert "roster: 2 submissions matched; 0 with no roster row, 0 roster rows with no " \
           "submission" in printed
    assert "left out: line 6: Student, Test, Canvas's Test Student" in printed
    points_row, *rows = read_rows(base / "out" / "export-canvas.csv")
    assert points_row["Perceptron 1 (5521)"] == "100"
    exported = {r["ID"]: float(r["Perceptron 1 (5521)"]) for r in rows}
    with open(base / "out" / "grades.csv", encoding="utf-8-sig") as fh:
        graded = {r["id"]: float(r["total"]) for r in csv.DictReader(fh)}
    assert exported["42"] == 100 and graded["42"] == 9
    assert exported["43"] == pytest.approx(graded["43"] * 100 / 9, abs=0.001)


@pytest.mark.parametrize("extra, message", [
    (["--canvas-column", "Perceptron 1 (5521)"],
     "--canvas-column 'Perceptron 1 (5521)' names a column of Canvas's gradebook, and no "
     "Canvas export was asked for"),
    (["--export", "canvas", "--canvas-column", "Perceptron 9 (5599)", "--roster", "ROSTER"],
     "--canvas-column 'Perceptron 9 (5599)' is not a column of the gradebook export"),
    (["--export", "canvas", "--canvas-column", "Perceptron 1 (5521)", "--roster", "ROSTER",
      "--points", "10"],
     "--points 10 but the Points Possible in the roster's column 'Perceptron 1 (5521)' is "
     "100.00: give one or the other"),
])
def test_export_options_the_command_refuses_before_grading(canvas_class, extra, message):
    base = canvas_class
    extra = [base / "grades.csv" if a == "ROSTER" else a for a in extra]
    code, _, err = run([base / "subs", "--out", base / "out", *extra])
    assert code == 2 and message in err
    assert not (base / "out").exists()


def test_one_canvas_column_for_two_assignments_is_refused(tmp_path):
    make_class(tmp_path / "subs", {"right": 1})
    (tmp_path / "subs" / "Student 02_1002_assignsubmission_file_nb.ipynb").write_text(
        notebook_text(KINDS["right"], assignment="02_offset"))
    code, _, err = run([tmp_path / "subs", "--out", tmp_path / "out", "--export", "canvas",
                        "--canvas-column", "Perceptron 1 (5521)"])
    assert code == 2
    assert ("--canvas-column 'Perceptron 1 (5521)' is one Canvas column, and the notebooks "
            "name 2 assignments (01_algorithm (1), 02_offset (1)): give --assignment") in err
    assert "nothing was graded or written" in err and not (tmp_path / "out").exists()


def test_points_given_scale_a_moodle_export_without_a_worksheet(tmp_path):
    make_class(tmp_path / "subs", {"right": 1})
    code, printed, err = run([tmp_path / "subs", "--out", tmp_path / "out", "--export",
                              "moodle", "--points", "20"])
    assert code == 0, err
    assert "export: grades scaled from 9 to 20 points (--points)" in printed
    (row,) = read_rows(tmp_path / "out" / "export-moodle.csv")
    assert (row["Identifier"], row["Grade"], row["Maximum Grade"]) == \
        ("Participant 1001", "20", "20")
