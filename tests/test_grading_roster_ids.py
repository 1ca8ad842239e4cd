"""The roster's ids checked against the download's, and no grade put on the wrong student.

Moodle numbers the participants of each assignment anew (``assign_user_mapping``): the
names of an assignment's download (``Student 01_1001_assignsubmission_file_...``) and
its grading worksheet (``Participant 1001``) carry the same numbers, another
assignment's worksheet other ones.  The worksheets here have the columns of
``mod/assign/gradingtable.php`` (names from ``mod/assign/lang/en/assign.php``); the
Canvas export those of ``lib/gradebook_exporter.rb`` of Canvas LMS.  The classes are
written as Moodle's download names them (``grading_class.py``).
"""

from __future__ import annotations

import contextlib
import csv
import io
from pathlib import Path

import pytest
from grading_class import SOLUTION, make_class, notebook_text

from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.judge.idcheck import check_ids, kinds_of
from perceptron_lib.grading.judge.roster import match, read_roster
from perceptron_lib.grading.judge.tables import InputError
from perceptron_lib.grading.outputs.exports import write_exports

HEADER = ('Identifier,"Full name","Email address",Status,Grade,"Maximum Grade",'
          '"Grade can be changed","Last modified (submission)","Last modified (grade)",'
          '"Feedback comments"\n')


def worksheet(path: Path, people: list[tuple[str, str]]) -> Path:
    """A grading worksheet of ``people`` (participant id, full name)."""
    rows = [f'"Participant {i}","{name}",{name.lower().replace(" ", "")}@example.org,'
            f'"Submitted for grading",,9.00,Yes,"Monday, 3 March 2025, 9:40 AM",-,\n'
            for i, name in people]
    path.write_text(HEADER + "".join(rows), encoding="utf-8")
    return path


MOODLE = [(("Student 01", "1001"), "Moodle file"), (("Student 02", "1002"), "Moodle file"),
          (("Student 03", "1003"), "Moodle folder"), (("plainfile", ""), "plain file")]


def run(args: list) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = grade_folder([str(a) for a in args] + ["--workers", "2", "--wall-seconds", "8"])
    return code, out.getvalue(), err.getvalue()


# ------------------------------------------------------------------ the check
def test_the_ids_of_a_download_are_known_by_the_platform_of_their_names():
    assert kinds_of(MOODLE) == {("Student 01", "1001"): "moodle",
                                ("Student 02", "1002"): "moodle",
                                ("Student 03", "1003"): "moodle", ("plainfile", ""): ""}
    assert kinds_of([(("lovelaceada", "42"), "Canvas file")]) == {("lovelaceada", "42"): "canvas"}


def test_another_assignments_worksheet_is_refused_with_the_file_to_download(tmp_path):
    # the same students, numbered by Moodle for another assignment
    roster = read_roster(worksheet(tmp_path / "w.csv", [("2301", "Student 01"),
                                                        ("2302", "Student 02"),
                                                        ("2303", "Student 03")]))
    with pytest.raises(InputError) as err:
        check_ids(roster, kinds_of(MOODLE))
    assert err.value.problems == [
        "0 of the 3 participant ids of the download's file names are in it (not 1001, 1002, "
        "1003; it has 2301, 2302, 2303): these participant ids belong to another "
        "assignment: download the grading worksheet of this assignment's page (Moodle "
        "numbers the participants of each assignment anew)"]


def test_a_worksheet_with_few_of_the_ids_is_refused_and_one_with_most_is_not(tmp_path):
    few = read_roster(worksheet(tmp_path / "few.csv", [("1001", "Student 01"),
                                                       ("2302", "Student 02"),
                                                       ("2303", "Student 03")]))
    with pytest.raises(InputError, match="1 of the 3 participant ids"):
        check_ids(few, kinds_of(MOODLE))
    most = read_roster(worksheet(tmp_path / "most.csv", [("1001", "Student 01"),
                                                         ("1002", "Student 02"),
                                                         ("1077", "Student 03")]))
    check_ids(most, kinds_of(MOODLE))  # a student who joined later: reported, not refused


def test_a_canvas_export_of_another_course_is_refused(tmp_path):
    path = tmp_path / "grades.csv"
    path.write_text('Student,ID,SIS Login ID,Section,Perceptron 1 (5521)\n'
                    '    Points Possible,,,,9.00\n"Lovelace, Ada",77,ada,A,\n', encoding="utf-8")
    with pytest.raises(InputError, match="export the gradebook of the course the submissions"):
        check_ids(read_roster(path), kinds_of([(("lovelaceada", "42"), "Canvas file")]))


def test_a_roster_of_the_graders_own_layout_is_not_checked(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("id,name,email\ns1,Student 01,a@x.org\n", encoding="utf-8")
    check_ids(read_roster(path), kinds_of(MOODLE))


# ------------------------------------------------------------------ the match
def test_the_participant_id_of_the_download_wins_over_a_namesake_row(tmp_path):
    roster = read_roster(worksheet(tmp_path / "w.csv", [("1001", "Student 01"),
                                                        ("1002", "Student 02"),
                                                        ("1077", "Student 03")]))
    kinds = kinds_of(MOODLE)
    m = match(roster, list(kinds), kinds)
    assert {k: e.id for k, e in m.pairs.items()} == {("Student 01", "1001"): "1001",
                                                     ("Student 02", "1002"): "1002"}
    assert m.unmatched[("Student 03", "1003")] == (
        "its Moodle participant id 1003 (from the file names) is not in the roster; line 4 "
        "(Student 03, 1077) has its name with another id: another student, so neither is "
        "matched to the other")
    assert [e.id for e in m.missing] == ["1077"]
    grades = [{"student": k[0], "student_id": k[1], "assignment": "01_algorithm",
               "total": 9.0, "max": 9.0, "status": "ok", "tasks": [], "adjustments": []}
              for k in kinds if k[1]]
    (export,) = write_exports(tmp_path, ["moodle"], grades, m, roster, kinds=kinds)
    with open(export.path, encoding="utf-8", newline="") as fh:
        rows = {r["Identifier"]: r["Grade"] for r in csv.DictReader(fh)}
    assert rows == {"Participant 1001": "9", "Participant 1002": "9",
                    "Participant 1003": "9", "Participant 1077": ""}


def test_ids_of_another_platform_never_match_a_row_by_its_id(tmp_path):
    # Canvas user 1001 is another person than Moodle's participant 1001
    path = tmp_path / "grades.csv"
    path.write_text('Student,ID,SIS Login ID,Section,Perceptron 1 (5521)\n'
                    '"Hopper, Grace",1001,grace,A,\n"Student, 01",1500,s1,A,\n',
                    encoding="utf-8")
    roster = read_roster(path)
    kinds = kinds_of(MOODLE[:1])
    m = match(roster, list(kinds), kinds)
    assert {k: e.id for k, e in m.pairs.items()} == {("Student 01", "1001"): "1500"}
    assert match(roster, list(kinds)).pairs[("Student 01", "1001")].id == "1001"  # unknown


# ------------------------------------------------------------------ the command
def test_the_command_refuses_another_assignments_worksheet_before_grading(tmp_path):
    make_class(tmp_path / "subs", {"right": 3})
    sheet = worksheet(tmp_path / "w.csv", [("2301", "Student 01"), ("2302", "Student 02"),
                                           ("2303", "Student 03")])
    code, _, err = run([tmp_path / "subs", "--out", tmp_path / "out", "--roster", sheet,
                        "--export", "moodle"])
    assert code == 2
    assert "these participant ids belong to another assignment: download the grading " \
           "worksheet of this assignment's page" in err
    assert "nothing was graded or written" in err
    assert not (tmp_path / "out").exists()


def test_no_export_when_most_notebooks_are_another_assignments(tmp_path):
    subs = tmp_path / "subs"
    make_class(subs, {"right": 1})
    for k in (2, 3):
        (subs / f"Student 0{k}_100{k}_assignsubmission_file_notebook.ipynb").write_text(
            notebook_text([SOLUTION], assignment="02_offset"))
    code, printed, _ = run([subs, "--out", tmp_path / "out", "--assignment", "01_algorithm",
                            "--export", "moodle", "--export", "canvas"])
    assert code == 0
    for system in ("moodle", "canvas"):
        assert not (tmp_path / "out" / f"export-{system}.csv").exists()
        assert (f"export-{system}.csv: no file written: 2 of the 3 notebooks graded as "
                "01_algorithm name another assignment in their metadata (02_offset (2))"
                in printed)


def test_an_export_withheld_removes_the_file_of_the_last_run(tmp_path):
    stale = tmp_path / "export-moodle.csv"
    stale.write_text("Identifier\n", encoding="utf-8")
    wrong = "wrong assignment: the notebook is 02_offset, graded as 01_algorithm"
    grades = [{"student": f"S{k}", "student_id": str(k), "assignment": "01_algorithm",
               "total": 0.0, "max": 9.0, "status": wrong if k else "ok", "tasks": [],
               "adjustments": []} for k in range(3)]
    (export,) = write_exports(tmp_path, ["moodle"], grades)
    assert not stale.exists()
    assert export.withheld.endswith("(the export-moodle.csv of the last run was removed)")
    assert export.record()["written"] is False
    grades[1]["status"] = "ok"  # one of three another assignment's: exported, as asked
    (export,) = write_exports(tmp_path, ["moodle"], grades)
    assert not export.withheld and stale.exists()


def test_an_id_of_another_platforms_names_is_never_exported_as_this_ones(tmp_path):
    grades = [{"student": name, "student_id": sid, "assignment": "01_algorithm",
               "total": 9.0, "max": 9.0, "status": "ok", "tasks": [], "adjustments": []}
              for name, sid in (("lovelaceada", "42"), ("Student 01", "1001"))]
    kinds = {("lovelaceada", "42"): "canvas", ("Student 01", "1001"): "moodle"}
    moodle, canvas = write_exports(tmp_path, ["moodle", "canvas"], grades, kinds=kinds)
    with open(moodle.path, encoding="utf-8", newline="") as fh:
        assert [r["Identifier"] for r in csv.DictReader(fh)] == ["Participant 1001"]
    assert moodle.skipped == [("lovelaceada (42)", (
        "no Moodle participant id: its id 42 is a Canvas user id (from the file names), not "
        "a Moodle participant id; give the assignment's grading worksheet as --roster"))]
    assert [who for who, _ in canvas.skipped] == ["Student 01 (1001)"]
