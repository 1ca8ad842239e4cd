"""The roster (every layout it is read in, and its mistakes) and the exports, without grading.

The exports are written from records made here, then read back as the platforms would.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from perceptron_lib.grading.judge.roster import match, read_roster
from perceptron_lib.grading.judge.tables import InputError
from perceptron_lib.grading.outputs.exports import (
    CANVAS,
    GRADESCOPE,
    MOODLE,
    points,
    write_exports,
)


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_text(text, encoding=encoding)
    return path


def record(name: str, sid: str, total: float, assignment: str = "01_algorithm",
           maximum: float = 9.0, status: str = "ok") -> dict:
    return {"student": name, "student_id": sid, "assignment": assignment, "total": total,
            "max": maximum, "status": status, "tasks": [], "adjustments": []}


# ------------------------------------------------------------------ reading
def test_the_graders_own_layout_from_a_spreadsheet(tmp_path):
    # Excel's "CSV UTF-8" with a byte-order mark, semicolons, capitals, a blank line
    path = write(tmp_path / "r.csv", "\ufeffID;Name;E-mail;Section\n1;Ada Lovelace;ada@x.org;A\n\n"
                                     "2;Alan Turing;alan@x.org;B\n")
    roster = read_roster(path)
    assert roster.layout == "id, name, email"
    assert [(e.id, e.name, e.email, e.section, e.line) for e in roster.entries] == [
        ("1", "Ada Lovelace", "ada@x.org", "A", 2), ("2", "Alan Turing", "alan@x.org", "B", 4)]
    assert len(roster.sha256) == 64


def test_moodles_grading_worksheet_is_a_roster(tmp_path):
    path = write(tmp_path / "w.csv", "Identifier,Full name,Email address,Status,Grade\n"
                                     "Participant 123456,Ada Lovelace,ada@x.org,Submitted,\n")
    (entry,) = read_roster(path).entries
    assert (entry.id, entry.name, entry.email) == ("123456", "Ada Lovelace", "ada@x.org")
    assert read_roster(path).layout == "Moodle grading worksheet"


def test_canvas_gradebook_export_is_a_roster_without_its_points_possible_row(tmp_path):
    path = write(tmp_path / "c.csv",
                 "Student,ID,SIS User ID,SIS Login ID,Section,Perceptron (77)\n"
                 "    Points Possible,,,,,9\n"
                 '"Lovelace, Ada",42,S-1,ada,Sec 1,\n')
    roster = read_roster(path)
    (entry,) = roster.entries
    assert roster.layout == "Canvas gradebook export"
    assert (entry.id, entry.sis_user_id, entry.sis_login_id, entry.section) == \
        ("42", "S-1", "ada", "Sec 1")
    assert entry.first_and_last() == ("Ada", "Lovelace")


def test_gradescopes_roster_is_a_roster(tmp_path):
    path = write(tmp_path / "g.csv", "First Name,Last Name,SID,Email,Role\n"
                                     "Ada,Lovelace,s1,ada@x.org,Student\n")
    (entry,) = read_roster(path).entries
    assert (entry.id, entry.name, entry.first_and_last()) == ("s1", "Ada Lovelace",
                                                              ("Ada", "Lovelace"))


@pytest.mark.parametrize("text, message", [
    ("id,name\n1,Ada\n", "missing column email (or e-mail, email address); the header has "
                         "'id', 'name'"),
    ("id,name,email\n,Ada,a@x.org\n", "line 2: no id"),
    ("id,name,email\n1,Ada,a@x.org\n1,Alan,b@x.org\n", "line 3: the id 1 is also on line 2"),
    ("id,name,email\n1,Ada,a@x.org\n2,Alan,A@X.org\n",
     "line 3: the e-mail A@X.org is also on line 2"),
    ("id,name,email\n", "no students (only a header)"),
    ("", "the file is empty"),
    ("id,name,email\n1,Lovelace, Ada,a@x.org\n", "line 2: 4 cells for 3 columns"),
    ("id,name,Name,email\n1,a,b,c\n", "the columns 'name' and 'Name' are the same column"),
])
def test_a_roster_with_a_mistake_is_refused_with_its_line(tmp_path, text, message):
    with pytest.raises(InputError) as err:
        read_roster(write(tmp_path / "r.csv", text))
    assert message in str(err.value)
    assert str(tmp_path / "r.csv") in str(err.value)


def test_every_problem_of_a_roster_is_listed_at_once(tmp_path):
    path = write(tmp_path / "r.csv", "id,name,email\n,A,a@x\n1,B,b@x\n1,C,c@x\n")
    with pytest.raises(InputError) as err:
        read_roster(path)
    assert err.value.problems == ["line 2: no id", "line 4: the id 1 is also on line 3"]


def test_a_windows_1252_roster_is_read(tmp_path):
    path = tmp_path / "r.csv"
    path.write_bytes("id,name,email\n7,José Núñez,jose@x.org\n".encode("cp1252"))
    assert read_roster(path).entries[0].name == "José Núñez"


# ------------------------------------------------------------------ matching
def test_submissions_are_matched_by_id_then_by_name_email_or_submission(tmp_path):
    roster = read_roster(write(tmp_path / "r.csv",
                               "id,name,email,submission\n"
                               "101,Ada Lovelace,ada@x.org,\n"
                               "102,Alan Turing,alan.turing@x.org,\n"
                               "103,José Núñez,jose@x.org,\n"
                               "104,Grace Hopper,grace@x.org,hw1-final\n"
                               "105,Emmy Noether,emmy@x.org,\n"))
    keys = [("Ada Lovelace", "101"),  # Moodle: the id decides
            ("alan.turing", ""),  # a notebook named after the e-mail
            ("jose nunez", ""),  # accents and case aside
            ("hw1-final", ""),  # the roster's submission column
            ("Someone Else", "")]
    m = match(roster, keys)
    assert {k: e.id for k, e in m.pairs.items()} == {
        ("Ada Lovelace", "101"): "101", ("alan.turing", ""): "102", ("jose nunez", ""): "103",
        ("hw1-final", ""): "104"}
    assert m.unmatched == {("Someone Else", ""): "no roster row has this name, id or e-mail"}
    assert [e.id for e in m.missing] == ["105"]


def test_canvas_file_names_match_canvas_names(tmp_path):
    roster = read_roster(write(tmp_path / "c.csv",
                               "Student,ID,SIS User ID,SIS Login ID,Section\n"
                               '"Lovelace, Ada",42,,,\n"Turing, Alan",43,,,\n'))
    m = match(roster, [("lovelaceada", "999"), ("turingalan", "")])
    assert {k: e.id for k, e in m.pairs.items()} == {("lovelaceada", "999"): "42",
                                                     ("turingalan", ""): "43"}


def test_a_submission_that_could_be_two_rows_is_not_matched_and_says_which(tmp_path):
    roster = read_roster(write(tmp_path / "r.csv", "id,name,email\n1,Ada Lovelace,a@x\n"
                                                   "2,Ada Lovelace,b@x\n"))
    m = match(roster, [("Ada Lovelace", "")])
    assert not m.pairs
    assert m.unmatched[("Ada Lovelace", "")] == (
        "could be any of the roster's line 2 (Ada Lovelace), line 3 (Ada Lovelace)")
    assert len(m.missing) == 2


def test_one_row_is_matched_to_one_submission_only(tmp_path):
    roster = read_roster(write(tmp_path / "r.csv", "id,name,email\n1,Ada Lovelace,a@x\n"))
    m = match(roster, [("Ada Lovelace", "1"), ("ada lovelace", "")])
    assert list(m.pairs) == [("Ada Lovelace", "1")]
    assert "already matched to Ada Lovelace (1)" in m.unmatched[("ada lovelace", "")]


# ------------------------------------------------------------------ exports
def read_csv(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture
def plain_roster(tmp_path):
    return read_roster(write(tmp_path / "roster.csv",
                             "id,name,email\n101,Ada Lovelace,ada@x.org\n"
                             "102,Alan Turing,alan@x.org\n103,Grace Hopper,grace@x.org\n"))


def test_exports_hold_the_totals_and_the_roster_rows_without_submission(tmp_path, plain_roster):
    grades = [record("Ada Lovelace", "101", 7.25), record("Alan Turing", "102", 2.769),
              record("Kurt Godel", "105", 9)]  # not in the roster
    m = match(plain_roster, [(g["student"], g["student_id"]) for g in grades])
    done = write_exports(tmp_path, ["canvas", "moodle", "gradescope", "canvas"], grades, m,
                         plain_roster, canvas_column="Perceptron 1 (5521)")
    assert [(e.system, e.path.name, e.rows, e.empty) for e in done] == [
        ("canvas", "export-canvas.csv", 4, 1), ("moodle", "export-moodle.csv", 4, 1),
        ("gradescope", "export-gradescope.csv", 3, 1)]
    canvas = read_csv(tmp_path / "export-canvas.csv")
    assert list(canvas[0]) == [*CANVAS, "Perceptron 1 (5521)"]
    assert {r["ID"]: r["Perceptron 1 (5521)"] for r in canvas} == {
        "101": "7.25", "102": "2.769", "105": "9", "103": ""}
    moodle = read_csv(tmp_path / "export-moodle.csv")
    assert list(moodle[0]) == MOODLE
    assert {r["Identifier"]: (r["Grade"], r["Maximum Grade"]) for r in moodle} == {
        "Participant 101": ("7.25", "9"), "Participant 102": ("2.769", "9"),
        "Participant 105": ("9", "9"), "Participant 103": ("", "")}
    assert all(r["Last modified (grade)"] for r in moodle if r["Grade"])
    gradescope = read_csv(tmp_path / "export-gradescope.csv")
    assert list(gradescope[0]) == GRADESCOPE
    assert {r["Email"]: r["Total Score"] for r in gradescope} == {
        "ada@x.org": "7.25", "alan@x.org": "2.769", "grace@x.org": ""}
    assert done[2].skipped == [("Kurt Godel (105)", "no e-mail, which Gradescope needs: give "
                                                    "a roster with e-mails (--roster)")]


def test_without_a_roster_the_ids_of_the_file_names_are_used_and_the_rest_reported(tmp_path):
    grades = [record("Ada Lovelace", "101", 9), record("plainfile", "", 3),
              record("broken", "", 0, assignment=None, maximum=0, status="not a notebook")]
    done = write_exports(tmp_path, ["moodle", "gradescope"], grades)
    moodle, gradescope = done
    assert moodle.rows == 1 and [w for w, _ in moodle.skipped] == ["plainfile", "broken"]
    assert "no Moodle participant id" in moodle.skipped[0][1]
    assert "grade with --assignment" in moodle.skipped[1][1]
    assert gradescope.rows == 0 and len(gradescope.skipped) == 3
    assert read_csv(tmp_path / "export-moodle.csv")[0]["Identifier"] == "Participant 101"


def test_a_roster_of_the_platform_gives_its_ids(tmp_path):
    canvas = read_roster(write(tmp_path / "c.csv", "Student,ID,SIS User ID,SIS Login ID,Section\n"
                                                   '"Lovelace, Ada",42,S1,ada,X\n'))
    grades = [record("Ada Lovelace", "123456", 5)]  # a Moodle id from the file name
    m = match(canvas, [("Ada Lovelace", "123456")])
    write_exports(tmp_path, ["canvas"], grades, m, canvas)
    points_row, row = read_csv(tmp_path / "export-canvas.csv")
    assert points_row["Student"] == "    Points Possible"
    assert (row["ID"], row["SIS User ID"], row["SIS Login ID"], row["Section"]) == \
        ("42", "S1", "ada", "X")


def test_several_assignments_give_a_file_each(tmp_path):
    grades = [record("a", "1", 9), record("b", "2", 4, assignment="02_offset", maximum=8)]
    done = write_exports(tmp_path, ["canvas"], grades)
    assert [e.path.name for e in done] == ["export-canvas-01_algorithm.csv",
                                           "export-canvas-02_offset.csv"]
    assert read_csv(done[1].path) == [
        {"Student": "    Points Possible", "ID": "", "SIS User ID": "", "SIS Login ID": "",
         "Section": "", "02_offset": "8"},
        {"Student": "b", "ID": "2", "SIS User ID": "", "SIS Login ID": "", "Section": "",
         "02_offset": "4"}]
    assert done[0].skipped == [("b (2)", "graded as 02_offset, the assignment its notebook "
                                "names, so in export-canvas-02_offset.csv: grade with "
                                "--assignment 01_algorithm to have it in this file")]


def test_moodle_grades_outside_its_range_are_warned_about(tmp_path):
    done = write_exports(tmp_path, ["moodle"], [record("a", "1", 10), record("b", "2", -1)])
    assert len(done[0].warnings) == 2
    assert "Moodle skips a grade outside the assignment's range" in done[0].warnings[0]


@pytest.mark.parametrize("value, text", [(7, "7"), (7.5, "7.5"), (2.76923, "2.769"),
                                         (-0.0, "0"), (1e-7, "0"), (1234.5, "1234.5")])
def test_points_are_written_plainly(value, text):
    assert points(value) == text
