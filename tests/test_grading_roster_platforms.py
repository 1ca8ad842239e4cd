"""Rosters exactly as the platforms write them, and every problem of a roster at once.

Each file here is written as its platform writes it:

- Canvas's gradebook export, as ``lib/gradebook_exporter.rb`` of Canvas LMS builds it:
  ``Student`` (or ``LastName``, ``FirstName``), ``ID``, ``SIS User ID`` (only for a user
  allowed to see SIS ids), ``SIS Login ID``, ``Section``, one column per assignment
  titled ``Title (id)``, the totals; then the ``Manual Posting`` row (only when an
  assignment posts its grades by hand: empty cells, the words under those assignments),
  the ``    Points Possible`` row (two decimals; ``(read only)`` under the totals), the
  students by sortable name, and the Test Student last (``Student, Test``, a SIS Login
  ID that is a 40-digit hexadecimal hash).  Ruby's CSV writes nil as an empty cell and
  quotes only a cell that needs it; where the language writes a decimal comma, the file
  is separated by semicolons and starts with a byte-order mark.
- Moodle's grading worksheet, as ``mod/assign/gradingtable.php`` downloads it, with the
  column names of ``mod/assign/lang/en/assign.php`` (``Identifier`` = ``Participant
  123456``, ``Maximum Grade``, ``Grade can be changed``, ``Last modified (grade)``...).
- Gradescope's roster, as its Roster page downloads it (``First Name``, ``Last Name``,
  ``SID``, ``Email``, ``Role``, ``Sections``) and as its help asks one to be uploaded
  (a name column, a unique ``Email``, an optional ``SID``).
"""

from __future__ import annotations

import contextlib
import io
from decimal import Decimal
from pathlib import Path

import pytest

from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.judge.roster import read_roster
from perceptron_lib.grading.judge.tables import InputError

TOTALS = ["Assignments Current Points", "Assignments Final Points",
          "Assignments Current Score", "Assignments Unposted Current Score",
          "Assignments Final Score", "Assignments Unposted Final Score", "Current Points",
          "Final Points", "Current Score", "Unposted Current Score", "Final Score",
          "Unposted Final Score"]
ASSIGNMENTS = ["Perceptron 1 (5521)", "Perceptron 2 (5522)"]
TEST_LOGIN = "3f786850e387550fdab836ed7e6dc881de23001b"  # Canvas: hmac_sha1 of the name


def _cell(value: str | None, sep: str) -> str:
    """A cell as Ruby's CSV writes it: nil empty, quotes only where needed."""
    if value is None:
        return ""
    if any(c in value for c in (sep, '"', "\n")):
        return '"' + value.replace('"', '""') + '"'
    return value


def canvas_export(*, sis: bool = True, manual: bool = True, points: bool = True,
                  split: bool = False, sep: str = ",", comma: bool = False,
                  students: list[tuple[str, str, str, str]] | None = None,
                  test_student: bool = True) -> str:
    """A gradebook export of two assignments (the first posted by hand) as Canvas writes
    it; ``students`` are (sortable name, ID, SIS User ID, SIS Login ID)."""
    students = students if students is not None else [
        ("Lovelace, Ada", "42", "S-1001", "ada"), ("Turing, Alan", "43", "S-1002", "alan")]
    names = ["LastName", "FirstName"] if split else ["Student"]
    info = [*names, "ID", *(["SIS User ID"] if sis else []), "SIS Login ID", "Section"]
    header = [*info, *ASSIGNMENTS, *TOTALS]
    rows: list[list[str | None]] = [header]
    blank: list[str | None] = [None] * len(info)
    if manual:
        rows.append([*blank, "Manual Posting", None, *([None] * len(TOTALS))])
    if points:
        number = "9,00" if comma else "9.00"
        rows.append(["    Points Possible", *blank[1:], number, "100,00" if comma else "100.00",
                     *(["(read only)"] * len(TOTALS))])
    people = [*students, *([("Student, Test", "99", "", TEST_LOGIN)] if test_student else [])]
    for sortable, ident, sis_id, login in people:
        last, first = (p.strip() for p in sortable.split(",", 1))
        who = [last, first] if split else [sortable]
        row = [*who, ident, *([sis_id] if sis else []), login, "Section A", None, None,
               *(["0.00"] * len(TOTALS))]
        rows.append(row)
    text = "\n".join(sep.join(_cell(c, sep) for c in row) for row in rows) + "\n"
    return ("\ufeff" + text) if comma else text


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------ Canvas
@pytest.mark.parametrize("sis", [True, False], ids=["sis", "no-sis"])
@pytest.mark.parametrize("manual", [True, False], ids=["manual-posting", "no-manual"])
@pytest.mark.parametrize("points", [True, False], ids=["points", "no-points"])
def test_every_shape_of_a_canvas_export_gives_its_students(tmp_path, sis, manual, points):
    roster = read_roster(write(tmp_path / "grades.csv",
                               canvas_export(sis=sis, manual=manual, points=points)))
    assert roster.layout == "Canvas gradebook export" and roster.platform == "canvas"
    assert [(e.id, e.name, e.sis_user_id, e.sis_login_id, e.section, e.line)
            for e in roster.entries] == [
        ("42", "Lovelace, Ada", "S-1001" if sis else "", "ada", "Section A", 2 + manual + points),
        ("43", "Turing, Alan", "S-1002" if sis else "", "alan", "Section A", 3 + manual + points)]
    assert roster.columns == ({"Perceptron 1 (5521)": Decimal("9.00"),
                               "Perceptron 2 (5522)": Decimal("100.00")} if points else
                              dict.fromkeys(ASSIGNMENTS))
    (left,) = roster.left_out
    assert left.startswith(f"line {4 + manual + points}: Student, Test, Canvas's Test Student")


def test_a_canvas_export_in_a_language_with_a_decimal_comma_and_split_names(tmp_path):
    path = write(tmp_path / "grades.csv", canvas_export(split=True, sep=";", comma=True))
    roster = read_roster(path)
    assert [(e.id, e.name, e.first_and_last()) for e in roster.entries] == [
        ("42", "Ada Lovelace", ("Ada", "Lovelace")), ("43", "Alan Turing", ("Alan", "Turing"))]
    assert roster.columns["Perceptron 1 (5521)"] == Decimal("9.00")
    assert len(roster.left_out) == 1


def test_the_test_student_is_known_by_its_hashed_login_in_any_language(tmp_path):
    text = canvas_export(test_student=False,
                         students=[("Lovelace, Ada", "42", "", "ada"),
                                   ("Prueba, Estudiante", "99", "", TEST_LOGIN)])
    roster = read_roster(write(tmp_path / "grades.csv", text))
    assert [e.id for e in roster.entries] == ["42"]
    assert "Prueba, Estudiante, Canvas's Test Student" in roster.left_out[0]


def test_a_name_canvas_wrote_as_a_formula_is_read_as_the_name(tmp_path):
    # Canvas writes a name that starts with "=" as ="=..." (student_name in the exporter)
    text = canvas_export(students=[('="=Eve, Nym"', "44", "", "eve")], test_student=False)
    (entry,) = read_roster(write(tmp_path / "grades.csv", text)).entries
    assert entry.name == "=Eve, Nym"


def test_an_export_with_only_the_test_student_has_no_students(tmp_path):
    text = canvas_export(students=[])
    with pytest.raises(InputError) as err:
        read_roster(write(tmp_path / "grades.csv", text))
    assert "no students: line 4: Student, Test, Canvas's Test Student" in str(err.value)


# ------------------------------------------------------------------ Moodle
WORKSHEET = """\
Identifier,"Full name","Email address",Status,Grade,"Maximum Grade","Grade can be changed",\
"Last modified (submission)","Last modified (grade)","Feedback comments"
"Participant 1001","Student 01",student01@example.org,"Submitted for grading",,10.00,Yes,\
"Monday, 3 March 2025, 9:40 AM",-,
"Participant 1002","Student 02",student02@example.org,"Submitted for grading - Graded",7.50,\
10.00,Yes,"Monday, 3 March 2025, 10:02 AM","Tuesday, 4 March 2025, 8:00 AM","Good work"
"Participant 1003","Student 03",student03@example.org,"No submission",,10.00,Yes,-,-,
"""
# The same worksheet with blind marking, for a grader who may not see identities
BLIND = """\
Identifier,Status,Grade,"Maximum Grade","Grade can be changed","Last modified (submission)",\
"Last modified (grade)","Feedback comments"
"Participant 1001","Submitted for grading",,"10,00",Yes,"Monday, 3 March 2025, 9:40 AM",-,
"""


def test_a_moodle_worksheet_gives_its_participants_and_its_maximum_grade(tmp_path):
    roster = read_roster(write(tmp_path / "w.csv", WORKSHEET))
    assert (roster.layout, roster.platform, roster.maximum) == (
        "Moodle grading worksheet", "moodle", Decimal("10.00"))
    assert [(e.id, e.name, e.email, e.line) for e in roster.entries] == [
        ("1001", "Student 01", "student01@example.org", 2),
        ("1002", "Student 02", "student02@example.org", 3),
        ("1003", "Student 03", "student03@example.org", 4)]


def test_a_blind_marking_worksheet_has_ids_and_no_names(tmp_path):
    roster = read_roster(write(tmp_path / "w.csv", BLIND))
    assert [(e.id, e.name) for e in roster.entries] == [("1001", "")]
    assert roster.maximum == Decimal("10.00")


def test_a_worksheet_of_an_assignment_graded_on_a_scale_says_so(tmp_path):
    text = ("Identifier,Full name,Status,Grade,Scale,Grade can be changed\n"
            '"Participant 1001","Student 01",Submitted for grading,,"Bad\nGood",Yes\n')
    roster = read_roster(write(tmp_path / "w.csv", text))
    assert roster.scale == "Scale" and roster.maximum is None


def test_a_worksheet_whose_identifiers_or_maxima_are_wrong_lists_each(tmp_path):
    text = WORKSHEET.replace('"Participant 1002"', "1002").replace(
        'No submission",,10.00', 'No submission",,20.00')
    with pytest.raises(InputError) as err:
        read_roster(write(tmp_path / "w.csv", text))
    assert err.value.problems == [
        "line 3: the Identifier '1002' is not Moodle's 'Participant 123456'",
        "the Maximum Grade is not the same on every row (10.00 on line 2, 20.00 on line 4): "
        "a worksheet is one assignment's"]


# ------------------------------------------------------------------ Gradescope
def test_gradescopes_roster_download_leaves_the_staff_out(tmp_path):
    text = ("First Name,Last Name,SID,Email,Role,Sections\n"
            "Ada,Lovelace,s1001,ada@example.org,Student,Section A\n"
            "Grace,Hopper,,grace@example.org,Instructor,\n"
            "Alan,Turing,,alan@example.org,Student,\n")
    roster = read_roster(write(tmp_path / "g.csv", text))
    assert roster.platform == "gradescope"
    assert [(e.id, e.name, e.email, e.sis_user_id) for e in roster.entries] == [
        ("s1001", "Ada Lovelace", "ada@example.org", "s1001"),
        ("alan@example.org", "Alan Turing", "alan@example.org", "")]
    assert roster.left_out == ["line 3: Grace Hopper, Instructor of the course, not a student"]


def test_a_roster_made_for_gradescopes_upload_is_read(tmp_path):
    roster = read_roster(write(tmp_path / "g.csv", "Name,Email\nAda Lovelace,ada@example.org\n"))
    assert roster.layout == "Gradescope roster"
    assert [(e.id, e.name) for e in roster.entries] == [("ada@example.org", "Ada Lovelace")]


def test_gradescopes_score_export_gives_the_maximum(tmp_path):
    text = ("First Name,Last Name,SID,Email,Total Score,Max Points,Status\n"
            "Ada,Lovelace,s1,ada@example.org,7.0,10.0,Graded\n"
            "Alan,Turing,s2,alan@example.org,,10.0,Missing\n")
    assert read_roster(write(tmp_path / "g.csv", text)).maximum == Decimal("10.0")


# ------------------------------------------------------------------ every problem at once
def test_every_problem_of_a_canvas_export_is_listed_with_its_line(tmp_path):
    text = canvas_export(test_student=False, students=[
        ("Lovelace, Ada", "42", "", "ada"), ("Turing, Alan", "42", "", "alan"),
        ("Hopper, Grace", "x7", "", "grace"), ("Noether, Emmy", "", "", "emmy")])
    lines = text.splitlines()
    lines.insert(4, '"Lovelace, Ada" Jr,45,,ada2,Section A' + "," * 13)  # bad quoting
    lines.append('"Godel, Kurt",46,,kurt,Section A,,' + ",0.00" * 12 + ",extra")
    path = write(tmp_path / "grades.csv", "\n".join(lines) + "\n")
    with pytest.raises(InputError) as err:
        read_roster(path)
    assert err.value.problems == [
        "line 5: a value in double quotes goes on after its closing quote (',' expected "
        "after '\"'): put the whole value in the quotes, and double a quote inside it",
        "line 6: the id 42 is also on line 4",
        "line 7: the ID 'x7' is not a Canvas user id (digits)",
        "line 8: no ID",
        "line 9: 20 cells for 19 columns (a comma inside a value? put the value in double "
        "quotes)"]
    assert str(path) in str(err.value) and "Canvas gradebook export" in str(err.value)


def test_a_quote_never_closed_is_named_with_the_lines_it_would_swallow(tmp_path):
    path = write(tmp_path / "r.csv", 'id,name,email\n1,"Ada,a@x\n2,Alan,b@x\n3,Grace,c@x\n')
    with pytest.raises(InputError) as err:
        read_roster(path)
    assert err.value.problems[0].startswith(
        "line 2: a double quote opened on this line is never closed, so lines 2 to 4")


def test_a_bad_roster_stops_the_command_before_anything_is_read_or_graded(tmp_path):
    (tmp_path / "subs").mkdir()
    (tmp_path / "subs" / "ada.ipynb").write_text("{}")
    roster = write(tmp_path / "grades.csv",
                   canvas_export().replace('"Turing, Alan",43', '"Turing, Alan" Jr,43'))
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = grade_folder([str(tmp_path / "subs"), "--out", str(tmp_path / "out"),
                             "--roster", str(roster), "--export", "canvas"])
    assert code == 2
    assert "line 5: a value in double quotes goes on after its closing quote" in err.getvalue()
    assert not (tmp_path / "out").exists()
