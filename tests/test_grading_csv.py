"""Every CSV file the grader writes opens in a spreadsheet as data, never as formulas.

A student chooses their name, their file's name, what their notebook's metadata says
(which ends up in the status) and more; a cell that starts with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return would be a formula in the instructor's spreadsheet.
The unit tests check :mod:`.csvsafe`'s rule and its reader; the others check
``grades.csv`` and the platforms' exports, written from records made here and by the
grader itself on a small class.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import re
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
from grading_class import SOLUTION, notebook_text

from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.judge.grade import Grade, TaskResult
from perceptron_lib.grading.judge.records import record
from perceptron_lib.grading.judge.roster import Roster, RosterEntry, RosterMatch
from perceptron_lib.grading.outputs import csvsafe, exports, gradebook

#: Texts that a spreadsheet reads as formulas, one per dangerous first character.
FORMULAS = ['=HYPERLINK("http://x","click")', "+cmd|' /C calc'!A0", "@SUM(1)", "-2+3",
            "\t=1+1", "\r=1+1"]
SYSTEMS = ["canvas", "moodle", "gradescope"]


def cells(path: Path) -> list[list]:
    """The file's rows as a spreadsheet meets them: quoted cells as text, the others as
    numbers (a cell that is neither makes the reading fail); a byte-order mark is
    dropped, as a spreadsheet drops it."""
    with open(path, newline="", encoding="utf-8-sig") as fh:
        return list(csv.reader(fh, quoting=csv.QUOTE_NONNUMERIC))


#: A number as the grader writes one (the only thing that may start with ``-``).
NUMBER = re.compile(r"-?\d+(\.\d+)?")


def formulas_in(text: str) -> list[str]:
    """What starts as a formula does at any place where a spreadsheet that splits lines
    at commas, semicolons or tabs, and ignores the quoting, would start a cell."""
    found = []
    for piece in re.split(r"[,;\t\r\n]", text):
        bare = piece.lstrip('"')
        if bare.startswith(csvsafe.DANGEROUS[:4]) and not NUMBER.fullmatch(piece):
            found.append(piece)
    return found


def assert_no_formula(path: Path) -> list[list]:
    """No text cell of the file starts as a formula does, even for a spreadsheet that
    splits its lines elsewhere; the unquoted cells are finite numbers."""
    rows = cells(path)
    for row in rows:
        for c in row:
            if isinstance(c, str):
                assert not c.startswith(csvsafe.DANGEROUS), (path.name, c)
            else:
                assert isinstance(c, float) and math.isfinite(c), (path.name, c)
    assert formulas_in(path.read_text(encoding="utf-8-sig")) == [], path.name
    return rows


def read_back(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8-sig") as fh:
        return list(csvsafe.dict_reader(fh))


# ------------------------------------------------------------------ the rule
@pytest.mark.parametrize("text", FORMULAS)
def test_a_cell_that_starts_as_a_formula_gets_a_quote_and_comes_back(text):
    safe = csvsafe.neutralise(text)
    assert safe.startswith("'" + text[0])
    assert csvsafe.restore(safe) == text


@pytest.mark.parametrize("text", ["Ada Lovelace", "O'Brien", "", " =1+1", "1-2", "Zoë",
                                  "x=1", "'Ana", "'", "''", "Expecting ',' delimiter", "ok"])
def test_other_text_is_left_as_it_is(text):
    assert csvsafe.neutralise(text) == text
    assert csvsafe.restore(text) == text


@pytest.mark.parametrize(("text", "safe"), [
    ("a.ipynb;=HYPERLINK(1)", "a.ipynb;'=HYPERLINK(1)"),
    ("a,@SUM(1)", "a,'@SUM(1)"),
    ('a;"-2+3', "a;\"'-2+3"),
    ("line\n+1\r\n-1", "line\n'+1\r\n'-1"),
    ("a\t=1", "a\t'=1"),
    ("\t=1", "'\t'=1"),
])
def test_a_formula_after_a_separator_inside_the_text_gets_a_quote_too(text, safe):
    assert csvsafe.neutralise(text) == safe
    assert csvsafe.restore(safe) == text


@pytest.mark.parametrize("text", ["'=1+1", "''=1+1", "a;'-2", "''@"])
def test_quotes_of_the_students_own_before_a_formula_come_back(text):
    safe = csvsafe.neutralise(text)
    assert safe != text
    assert csvsafe.restore(safe) == text


def test_text_that_looks_like_a_number_is_text_and_numbers_are_numbers():
    assert csvsafe.cell("-2") == "'-2"  # a student named -2
    assert csvsafe.cell("123456") == "123456"  # a platform's id
    assert csvsafe.cell(-2) == -2 and csvsafe.cell(-1.5) == -1.5
    assert csvsafe.cell(Decimal("-7.50")) == Decimal("-7.50")
    assert type(csvsafe.cell(np.float64(2.5))) is float
    assert type(csvsafe.cell(np.int64(-3))) is int
    assert csvsafe.cell(None) == ""
    assert csvsafe.cell(True) == "True"
    assert csvsafe.cell(float("nan")) == "nan"
    assert csvsafe.cell(float("-inf")) == "'-inf"


def test_the_writer_quotes_text_and_writes_numbers_bare():
    buf = io.StringIO(newline="")
    w = csvsafe.writer(buf)
    w.writerow(["=1+1", -1.5, -2, Decimal("7.50"), "a;b", None])
    assert buf.getvalue() == "\"'=1+1\",-1.5,-2,7.50,\"a;b\",\"\"\r\n"
    assert list(csvsafe.reader(io.StringIO(buf.getvalue(), newline=""))) == [
        ["=1+1", "-1.5", "-2", "7.50", "a;b", ""]]


def test_a_spreadsheet_that_splits_on_semicolons_meets_no_formula():
    """OWASP's note: a separator inside a student's text must not start a new cell."""
    rows = [["Ana;=HYPERLINK(1)", "b,@SUM(1)"], ["x", "y;+1;-2", 'z;"=1', -2]]
    plain = io.StringIO(newline="")
    csv.writer(plain).writerows(rows)
    assert formulas_in(plain.getvalue())  # what the rule is for
    buf = io.StringIO(newline="")
    csvsafe.writer(buf).writerows(rows)
    assert formulas_in(buf.getvalue()) == []
    for delimiter in ",;":
        for row in csv.reader(io.StringIO(buf.getvalue(), newline=""), delimiter=delimiter):
            assert not [c for c in row if c.startswith(csvsafe.DANGEROUS[:4])
                        and not NUMBER.fullmatch(c)], delimiter
    back = list(csvsafe.reader(io.StringIO(buf.getvalue(), newline="")))
    assert back == [[str(c) for c in row] for row in rows]


# ------------------------------------------------------------------ the files
def _grade(k: int, name: str, status: str, note: str, source: str, sid: str) -> dict:
    tasks = [TaskResult("update", 1.5 * (k % 3), 3.0, k % 3, 2),
             TaskResult("perceptron", 0.0, 4.0, 0, 3)]
    g = Grade(student=name, assignment="01_algorithm", status=status, tasks=tasks,
              student_id=sid, source=source, warnings=[note], notes=[note])
    return record(g, "hash")


def _records() -> list[dict]:
    """A record per dangerous text, which is the name, the status, the note and the file."""
    return [_grade(k, text, text, text, f"{text}.ipynb", str(3000 + k))
            for k, text in enumerate(FORMULAS)]


def _roster(grades: list[dict]) -> tuple[Roster, RosterMatch]:
    entries = [RosterEntry(g["student_id"], g["student"], f"s{k}@example.org", line=k + 2)
               for k, g in enumerate(grades)]
    matched = RosterMatch(pairs={(g["student"], g["student_id"]): e
                                 for g, e in zip(grades, entries, strict=True)})
    return Roster(Path("roster.csv"), "0" * 64, "id, name, email", entries), matched


def test_grades_csv_neutralises_names_statuses_notes_and_files(tmp_path):
    grades = _records()
    gradebook.write_gradebook(tmp_path, grades, isolation={})
    rows = assert_no_formula(tmp_path / "grades.csv")
    assert rows[0][:3] == ["student", "id", "assignment"]
    back = {r["student"]: r for r in read_back(tmp_path / "grades.csv")}
    assert set(back) == set(FORMULAS)
    for text in FORMULAS:
        r = back[text]
        assert (r["status"], r["notes"], r["file"]) == (text, text, f"{text}.ipynb")
    assert {r["update"] for r in back.values()} == {"0.0", "1.5", "3.0"}


def test_every_export_neutralises_names_and_statuses_and_keeps_the_ids(tmp_path):
    grades = _records()
    roster, matched = _roster(grades)
    done = exports.write_exports(tmp_path, SYSTEMS, grades, matched, roster)
    assert [e.rows for e in done] == [len(FORMULAS)] * 3
    for e in done:
        assert_no_formula(e.path)
    canvas = read_back(tmp_path / "export-canvas.csv")
    assert canvas[0]["Student"] == "    Points Possible"  # Canvas's row of maxima
    canvas = canvas[1:]
    assert sorted(r["Student"] for r in canvas) == sorted(FORMULAS)
    assert sorted(r["ID"] for r in canvas) == [str(3000 + k) for k in range(len(FORMULAS))]
    moodle = read_back(tmp_path / "export-moodle.csv")
    assert {r["Full name"]: r["Status"] for r in moodle} == {t: t for t in FORMULAS}
    gradescope = read_back(tmp_path / "export-gradescope.csv")
    assert sorted(r["Status"] for r in gradescope) == sorted(FORMULAS)
    assert not any(e.warnings for e in done)


def test_a_key_the_platform_matches_by_that_gets_a_quote_is_warned_about(tmp_path):
    grades = _records()[:1]
    roster, matched = _roster(grades)
    entry = roster.entries[0]
    bad = RosterEntry(entry.id, entry.name, "-s0@example.org", line=entry.line)
    roster.entries[0] = bad
    matched.pairs = {k: bad for k in matched.pairs}
    (done,) = exports.write_exports(tmp_path, ["gradescope"], grades, matched, roster)
    assert read_back(done.path)[0]["Email"] == "-s0@example.org"
    assert assert_no_formula(done.path)[1][3] == "'-s0@example.org"
    assert any("'-s0@example.org'" in w and "may not match" in w for w in done.warnings)


def test_points_stay_numbers_even_when_negative(tmp_path):
    g = _grade(1, "-1", "ok", "", "-1.ipynb", "3001")
    g.update(graded_total=g["total"], adjustment=-2.0, total=g["total"] - 2.0,
             adjustments=[{"student": "3001", "function": "total", "points": -2.0,
                           "reason": "late", "source": ""}])
    gradebook.write_csv(tmp_path / "grades.csv", [g])
    header, row = assert_no_formula(tmp_path / "grades.csv")
    by = dict(zip(header, row, strict=True))
    assert by["student"] == "'-1"
    assert by["adjustment"] == -2.0 and by["total"] == -0.5 and by["update"] == 1.5
    roster, matched = _roster([g])
    (moodle,) = exports.write_exports(tmp_path, ["moodle"], [g], matched, roster)
    header, row = assert_no_formula(moodle.path)
    assert dict(zip(header, row, strict=True))["Grade"] == -0.5
    assert "\",-0.5,7,\"" in moodle.path.read_text(encoding="utf-8")


# ------------------------------------------------------------------ the grader
#: A class whose names and files start as formulas do.  Slashes cannot be in a file's
#: name, so the files use a backslash; the roster (by id) gives the names as they are.
CLASS = ['=HYPERLINK("http:\\\\x","click")', "+cmd|' \\C calc'!A0", "@SUM(1)", "-2+3",
         "'quoted"]
ROSTER_NAMES = ['=HYPERLINK("http://x","click")', "+cmd|' /C calc'!A0", "@SUM(1)", "-2+3",
                "'quoted"]


@pytest.mark.slow
def test_the_grader_writes_spreadsheet_safe_files(tmp_path):
    folder = tmp_path / "submissions"
    folder.mkdir()
    for k, name in enumerate(CLASS):
        text = notebook_text([SOLUTION]) if k == 0 else "{ not a notebook"
        (folder / f"{name}_{2001 + k}_assignsubmission_file_{name}.ipynb").write_text(text)
    (folder / "\tTab.ipynb").write_text("{")  # (the intake shows these as \x09, \x0d)
    (folder / "\rReturn.ipynb").write_text("{")
    with open(tmp_path / "roster.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "name", "email"])
        w.writerows([2001 + k, n, f"s{k}@example.org"] for k, n in enumerate(ROSTER_NAMES))
    (tmp_path / "adjust.csv").write_text("student,function,points,reason\n"
                                         "2001,total,-1.5,=reason\n2004,total,-2,@why\n")
    out = tmp_path / "out"
    args = [folder, "--out", out, "--assignment", "01_algorithm", "--roster",
            tmp_path / "roster.csv", "--adjustments", tmp_path / "adjust.csv",
            *(a for s in SYSTEMS for a in ("--export", s)), "--workers", "2",
            "--wall-seconds", "8"]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert grade_folder([str(a) for a in args]) == 0

    grades = read_back(out / "grades.csv")
    header, *rows = assert_no_formula(out / "grades.csv")
    records = json.loads((out / "results.json").read_text(encoding="utf-8"))["grades"]
    assert sorted((r["student"], r["id"], r["file"]) for r in grades) == sorted(
        (g["student"], g["student_id"], g["source"]) for g in records)
    assert set(CLASS) < {r["student"] for r in grades}
    for k, name in enumerate(CLASS):
        r = next(r for r in grades if r["student"] == name)
        assert r["file"] == f"{name}_{2001 + k}_assignsubmission_file_{name}.ipynb"
        assert r["id"] == str(2001 + k)
    by_name = {dict(zip(header, row, strict=True))["student"]: dict(zip(header, row,
                                                                          strict=True))
               for row in rows}
    right, adjusted = by_name["'" + CLASS[0]], by_name["'-2+3"]
    assert right["adjustment"] == -1.5 and right["total"] == right["max"] - 1.5
    assert adjusted["adjustment"] == -2.0 and adjusted["total"] == -2.0
    assert isinstance(right["update"], float)

    for system in SYSTEMS:
        assert_no_formula(out / f"export-{system}.csv")
    canvas = {r["ID"]: r for r in read_back(out / "export-canvas.csv")[1:]}
    assert {i: r["Student"] for i, r in canvas.items()} == {
        str(2001 + k): n for k, n in enumerate(ROSTER_NAMES)}
    assert canvas["2004"]["01_algorithm"] == "-2"
    moodle = {r["Full name"]: r for r in read_back(out / "export-moodle.csv")}
    assert sorted(moodle) == sorted(ROSTER_NAMES)
    assert moodle["-2+3"]["Grade"] == "-2" and moodle["-2+3"]["Identifier"] == "Participant 2004"
    gradescope = read_back(out / "export-gradescope.csv")
    assert {r["Email"] for r in gradescope} == {f"s{k}@example.org" for k in range(5)}
