"""The course's gradebook: the runs of several assignments joined person by person.

Each run's ``results.json`` is written directly from grade records (``record(Grade(...))``)
rather than by grading, with the names the platforms' downloads give: Moodle's
participant ids differ from one assignment to the next, Canvas's user ids do not.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from perceptron_lib.grading.__main__ import main as grading_main
from perceptron_lib.grading.judge.grade import Grade, TaskResult
from perceptron_lib.grading.judge.records import record
from perceptron_lib.grading.outputs import course, csvsafe
from perceptron_lib.grading.outputs.course_runs import CourseError, read_run

A, B, C = "01_algorithm", "02_offset", "03_margin"
MAX = {A: 9.0, B: 8.0, C: 6.0}


def rec(name: str, assignment: str | None, points: float, sid: str = "", source: str = "",
        status: str = "ok") -> dict:
    maximum = MAX.get(assignment or "", 9.0)
    tasks = [TaskResult("f", points, maximum, 1, 1)] if status == "ok" else []
    return record(Grade(student=name, assignment=assignment, status=status, tasks=tasks,
                        student_id=sid, source=source), "hash")


def moodle(name: str, assignment: str, points: float, sid: str) -> dict:
    return rec(name, assignment, points, sid, f"{name}_{sid}_assignsubmission_file_/nb.ipynb")


def canvas(compact: str, assignment: str, points: float, sid: str) -> dict:
    return rec(compact, assignment, points, sid, f"{compact}_{sid}_9{sid}_nb.ipynb")


def write_run(folder: Path, records: list[dict]) -> Path:
    folder.mkdir(parents=True)
    (folder / "results.json").write_text(json.dumps({"grader_sha256": "x", "grades": records}),
                                         encoding="utf-8")
    return folder


@pytest.fixture
def runs(tmp_path) -> list[Path]:
    """Three Moodle runs: the same people under other participant ids in each."""
    a = write_run(tmp_path / "out-a", [
        moodle("Zoë Ñandú", A, 9, "101"), moodle("王小明", A, 7.5, "102"),
        moodle("John Smith", A, 3, "103"), moodle("John Smith", A, 4, "104"),
        moodle("José García", A, 6, "105"), rec("ada@example.org", A, 8),
    ])
    b = write_run(tmp_path / "out-b", [
        moodle("Zoë Ñandú", B, 8, "201"), moodle("王小明", B, 6, "202"),
        moodle("John Smith", B, 5, "203"), moodle("John Smith", B, 2, "204"),
        moodle("Jose Garcia", B, 1, "205"), rec("ADA@example.org", B, 7),
    ])
    c = write_run(tmp_path / "out-c", [
        moodle("Zoë Ñandú", C, 6, "301"), moodle("John Smith", C, 1, "303"),
        moodle("José García", C, 0, "305"),
        rec("Ada Lovelace", None, 0, "", "ada.ipynb", status="not a readable notebook"),
    ])
    return [a, b, c]


def read_csv(path: Path) -> list[dict]:
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # Excel reads the accents rightly
    return list(csvsafe.dict_reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))


def by_name(rows: list[dict], name: str) -> list[dict]:
    return [r for r in rows if r["student"] == name]


def test_the_same_people_are_joined_across_runs_and_namesakes_are_listed(runs, tmp_path,
                                                                         capsys):
    out = tmp_path / "course"
    code = grading_main(["gradebook", *map(str, runs), "--out", str(out)])
    assert code == 1  # records were listed rather than joined
    rows = read_csv(out / "course.csv")
    assert list(rows[0])[:7] == ["student", "email", "roster id", "ids", A, B, C]
    zoe, = by_name(rows, "Zoë Ñandú")  # Moodle's ids differ per assignment: by name
    assert (zoe[A], zoe[B], zoe[C], zoe["total"], zoe["max"]) == ("9", "8", "6", "23", "23")
    assert zoe["ids"] == f"{A}: 101; {B}: 201; {C}: 301"
    wang, = by_name(rows, "王小明")
    assert (wang[A], wang[B], wang[C], wang["total"]) == ("7.5", "6", "", "13.5")
    assert wang["missing"] == C
    garcia, = by_name(rows, "José García")  # accents aside
    assert (garcia[A], garcia[B], garcia[C]) == ("6", "1", "0")
    ada, = by_name(rows, "ada@example.org")  # by e-mail, case aside
    assert (ada["email"], ada[A], ada[B]) == ("ada@example.org", "8", "7")
    smiths = by_name(rows, "John Smith")  # two in A and in B, one in C: never guessed
    assert len(smiths) == 5
    assert sorted((s[A], s[B], s[C]) for s in smiths) == [
        ("", "", "1"), ("", "2", ""), ("", "5", ""), ("3", "", ""), ("4", "", "")]
    assert all("2 people in 01_algorithm, 02_offset" in s["notes"] for s in smiths)
    assert all(s["missing"] == "" for s in smiths)  # listed, not counted as missing
    unreadable, = by_name(rows, "Ada Lovelace")  # no assignment: its run's
    assert unreadable[C] == "0" and "03_margin: not a readable notebook" in unreadable["notes"]
    said = capsys.readouterr().out
    assert "not joined: John Smith" in said and "missing: 王小明: 03_margin" in said
    page = (out / "course.html").read_text(encoding="utf-8")
    assert "Zoë Ñandú" in page and "王小明" in page and "Needs a look" in page


def test_a_roster_places_whom_its_ids_name_and_lists_what_it_cannot_tell(runs, tmp_path):
    roster = tmp_path / "worksheet.csv"  # Moodle's worksheet of 01_algorithm
    roster.write_text(
        "Identifier,Full name,Email address,Status,Grade,Maximum Grade\n"
        "Participant 101,Zoë Ñandú,zoe@example.org,,,9\n"
        "Participant 103,John Smith,john.a@example.org,,,9\n"
        "Participant 104,John Smith,john.b@example.org,,,9\n"
        "Participant 102,王小明,wang@example.org,,,9\n"
        "Participant 106,Grace Hopper,grace@example.org,,,9\n", encoding="utf-8")
    out = tmp_path / "course"
    assert grading_main(["gradebook", *map(str, runs), "--out", str(out),
                         "--roster", str(roster)]) == 1
    rows = read_csv(out / "course.csv")
    zoe, = by_name(rows, "Zoë Ñandú")
    assert (zoe["email"], zoe["roster id"], zoe[A], zoe[B], zoe[C]) == (
        "zoe@example.org", "101", "9", "8", "6")
    smiths = by_name(rows, "John Smith")
    placed = {s["email"]: s for s in smiths if not s["notes"]}
    # 01_algorithm's ids are the worksheet's: those two are placed; the others are not
    assert (placed["john.a@example.org"][A], placed["john.b@example.org"][A]) == ("3", "4")
    listed = [s for s in smiths if s["notes"]]
    assert len(listed) == 3 and len(smiths) == 5
    assert all("could be any of the roster's line 3 (John Smith), line 4 (John Smith)"
               in s["notes"] for s in listed)
    grace, = by_name(rows, "Grace Hopper")  # in the roster, in no run
    assert grace["missing"] == f"{A}, {B}, {C}" and grace["total"] == "0"
    assert "(in the roster, in no run)" in (out / "course.html").read_text(encoding="utf-8")


def test_an_id_of_another_name_in_the_roster_is_listed_not_placed(tmp_path):
    a = write_run(tmp_path / "a", [moodle("Alan Turing", A, 9, "7")])
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name,email\n7,Ada Lovelace,ada@example.org\n", encoding="utf-8")
    course_ = course.join([read_run(a)], course.read_roster(roster))
    alan, = [p for p in course_.people if p.name == "Alan Turing"]
    assert alan.entry is None and "is another name's in the roster" in alan.why


def test_canvas_ids_join_namesakes_and_tell_apart_two_people_of_one_name(tmp_path):
    a = write_run(tmp_path / "a", [canvas("smithjohn", A, 3, "7"), canvas("smithjohn", A, 4, "8"),
                                   canvas("leeann", A, 5, "9")])
    b = write_run(tmp_path / "b", [canvas("smithjohn", B, 6, "7"), canvas("smithjohn", B, 1, "8"),
                                   canvas("leeann", B, 2, "10")])
    joined = course.join([read_run(a), read_run(b)])
    smiths = sorted((p.grades[A].total, p.grades[B].total) for p in joined.people
                    if p.name == "smithjohn")
    assert smiths == [(3.0, 6.0), (4.0, 1.0)]  # the same Canvas id in both runs
    lees = [p for p in joined.people if p.name == "leeann"]
    assert len(lees) == 2 and all("2 Canvas ids (10, 9)" in p.why for p in lees)


def test_the_canvas_export_has_a_column_per_assignment_and_the_rosters_ids(tmp_path):
    a = write_run(tmp_path / "a", [canvas("smithjohn", A, 3, "7"), canvas("lovelaceada", A, 9, "5"),
                                   canvas("nobodyelse", A, 1, "99")])
    b = write_run(tmp_path / "b", [canvas("lovelaceada", B, 8, "5")])
    roster = tmp_path / "canvas.csv"
    roster.write_text(
        "Student,ID,SIS User ID,SIS Login ID,Section,Perceptron 1 (4521)\n"
        "    Points Possible,,,,,9\n"
        '"Smith, John",7,s7,jsmith,Sec 1,\n'
        '"Lovelace, Ada",5,s5,alovelace,Sec 1,\n', encoding="utf-8")
    out = tmp_path / "course"
    code = grading_main(["gradebook", str(a), str(b), "--out", str(out), "--roster",
                         str(roster), "--export", "canvas", "--export", "moodle",
                         "--canvas-column", f"{A}=Perceptron 1 (4521)"])
    assert code == 0
    with open(out / "export-canvas.csv", encoding="utf-8", newline="") as fh:
        table = list(csv.reader(fh))
    assert table[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                        "Perceptron 1 (4521)", B]
    assert sorted(table[1:]) == [["Lovelace, Ada", "5", "s5", "alovelace", "Sec 1", "9", "8"],
                                 ["Smith, John", "7", "s7", "jsmith", "Sec 1", "3", ""]]
    assert not (out / "export-moodle.csv").exists()


def test_the_canvas_export_needs_a_canvas_roster(runs, tmp_path, capsys):
    out = tmp_path / "course"
    assert grading_main(["gradebook", *map(str, runs), "--out", str(out),
                         "--export", "canvas"]) == 2
    assert "needs Canvas's gradebook export as --roster" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(("text", "said"), [
    ("not json", "not the JSON a grading run writes"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"grades": 3}', "no list of grades"),
    ('{"grades": [{"student": "a", "assignment": "01_algorithm", "max": 9, "status": "ok"}]}',
     "grades[0]: no total"),
    ('{"grades": [{"student": "a", "assignment": "01_algorithm", "total": NaN, "max": 9, '
     '"status": "ok"}]}', "grades[0]: total is nan, not a finite number"),
    ('{"grades": [{"student": 5, "assignment": "01_algorithm", "total": 1, "max": 9, '
     '"status": "ok"}]}', "grades[0]: student is int, not text"),
])
def test_a_malformed_results_file_is_an_error_naming_it(runs, tmp_path, capsys, text, said):
    (runs[1] / "results.json").write_text(text, encoding="utf-8")
    out = tmp_path / "course"
    assert grading_main(["gradebook", *map(str, runs), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert str(runs[1] / "results.json") in err and said in err and "nothing was written" in err
    assert not out.exists()


def test_a_results_file_is_read_within_bounds(tmp_path, monkeypatch):
    from perceptron_lib.grading.outputs import course_runs

    run = write_run(tmp_path / "a", [rec("x", A, 1)])
    monkeypatch.setattr(course_runs, "MAX_BYTES", 100)
    with pytest.raises(CourseError, match="larger than"):
        read_run(run)
    with pytest.raises(CourseError, match="cannot be read"):
        read_run(tmp_path / "absent")


def test_one_assignment_twice_or_the_output_in_a_run_is_refused(runs, tmp_path, capsys):
    again = write_run(tmp_path / "again", [moodle("Zoë Ñandú", A, 1, "901")])
    assert grading_main(["gradebook", str(runs[0]), str(again), "--out",
                         str(tmp_path / "x")]) == 2
    assert "01_algorithm is in two runs" in capsys.readouterr().err
    assert grading_main(["gradebook", *map(str, runs), "--out", str(runs[0])]) == 2
    assert "is one of the runs" in capsys.readouterr().err
    assert not (runs[0] / "course.csv").exists()


def test_the_files_are_safe_with_hostile_names(tmp_path):
    a = write_run(tmp_path / "a", [rec("=HYPERLINK(\"http://x\")", A, 1),
                                   rec("<script>alert(1)</script>", A, 2)])
    out = tmp_path / "course"
    assert grading_main(["gradebook", str(a), "--out", str(out)]) == 0
    text = (out / "course.csv").read_text(encoding="utf-8-sig")
    assert "'=HYPERLINK" in text
    page = (out / "course.html").read_text(encoding="utf-8")
    assert "<script>alert" not in page and "&lt;script&gt;" in page
