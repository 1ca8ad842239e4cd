"""Adjustments by a person, the late policy, and a gradebook that nothing can half-write.

Unit tests read the files and apply the adjustments to records made here; the tests
that grade use a class of three (``grading_class.py``): a right answer, one with a
known mistake, and a file that is not a notebook.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from grading_class import make_class, notebook_text

from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.judge import adjustments as adj
from perceptron_lib.grading.judge.late import parse_penalty, parse_time, read_policy
from perceptron_lib.grading.judge.tables import InputError
from perceptron_lib.grading.outputs import gradebook, outdir

ROOT = Path(__file__).resolve().parents[1]
KEYS = [("Ada Lovelace", "1"), ("Ada Lovelace", "2"), ("Alan Turing", "3"), ("broken", "")]
FUNCTIONS = {("Ada Lovelace", "1"): ["update", "predict"], ("Ada Lovelace", "2"): ["update"],
             ("Alan Turing", "3"): ["update"], ("broken", ""): None}


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def run(args: list) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = grade_folder([str(a) for a in args] + ["--workers", "2", "--wall-seconds", "8"])
    return code, out.getvalue(), err.getvalue()


def totals(out: Path) -> dict[str, dict]:
    with open(out / "grades.csv", encoding="utf-8-sig") as fh:
        return {r["student"]: r for r in csv.DictReader(fh)}


# ------------------------------------------------------------------ reading the file
def test_an_adjustments_file_from_a_spreadsheet_is_read(tmp_path):
    path = write(tmp_path / "a.csv", "\ufeffStudent;Function;Points;Reason\n"
                                     "Alan Turing (3);update;+1.5;regrade request\n"
                                     "3;TOTAL;\u22122;late by a day\n")
    f = adj.read_adjustments(path)
    assert [(line, a.student, a.function, a.points, a.reason) for line, a in f.rows] == [
        (2, "Alan Turing (3)", "update", 1.5, "regrade request"),
        (3, "3", "total", -2.0, "late by a day")]
    assert f.rows[0][1].source == "a.csv line 2"


def test_every_mistake_of_an_adjustments_file_is_listed_with_its_line(tmp_path):
    path = write(tmp_path / "a.csv",
                 "student,function,points,reason\n"
                 "Ada Lovelace (1),update,1,5,regrade\n"  # a comma in the points
                 "Ada Lovelace (1),update,\"1,5\",regrade\n"
                 "Ada Lovelace (1),update,lots,regrade\n"
                 "Ada Lovelace (1),update,1,\n"
                 "Ada Lovelace (1),update,2,regrade request\n"
                 "ada lovelace (1),update,3,Regrade  request\n"
                 "Ada Lovelace (1),update,nan,x\n")
    with pytest.raises(InputError) as err:
        adj.read_adjustments(path)
    assert err.value.problems == [
        "line 2: 5 cells for 4 columns (a comma inside a value? put the value in double quotes)",
        "line 3: points '1,5' is not a number (write 1.5)",
        "line 4: points 'lots' is not a number",
        "line 5: no reason",
        "line 7: the same student, function and reason as line 6 (a duplicate? give each "
        "adjustment its own reason)",
        "line 8: points 'nan' is not a finite number"]
    assert str(err.value).startswith(f"adjustments file {path}: 6 problems")


def test_a_missing_column_names_what_is_needed(tmp_path):
    path = write(tmp_path / "a.csv", "student,function,points\nAda,update,1\n")
    with pytest.raises(InputError, match=r"missing column reason \(or comment, why\); the "
                                         r"header has 'student', 'function', 'points'"):
        adj.read_adjustments(path)


def test_students_and_functions_are_checked_against_the_run(tmp_path):
    path = write(tmp_path / "a.csv", "student,function,points,reason\n"
                                     "Alan Turring,update,1,typo in the name\n"
                                     "Ada Lovelace,update,1,two students have this name\n"
                                     "Alan Turing,perceptron,1,not in this assignment\n"
                                     "broken,update,1,nothing was graded\n"
                                     "broken,total,1,this one is fine\n"
                                     "Ada Lovelace (2),update,1,so is this one\n"
                                     "2,update,1,SO IS THIS ONE\n")
    with pytest.raises(InputError) as err:
        adj.resolve(adj.read_adjustments(path), KEYS, FUNCTIONS)
    assert err.value.problems == [
        "line 2: no student 'Alan Turring' in this run (did you mean Alan Turing (3)?)",
        "line 3: 'Ada Lovelace' could be Ada Lovelace (1), Ada Lovelace (2): write the id",
        "line 4: Alan Turing (3) has no graded function 'perceptron' (the graded functions "
        "are update or total)",
        "line 5: broken has no graded function 'update' (this submission has no graded "
        "functions: use total)",
        "line 8: the same student (Ada Lovelace (2)), function and reason as line 7 (a "
        "duplicate?)"]


def test_applying_adjustments_starts_from_the_graders_points_every_time():
    g = {"student": "a", "total": 5.0, "max": 9.0,
         "tasks": [{"name": "update", "points": 2.0}, {"name": "predict", "points": 3.0}]}
    rows = [adj.Adjustment("a", "update", 1.0, "regrade"), adj.Adjustment("a", "total", -0.5, "x")]
    adj.apply(g, rows)
    adj.apply(g, rows)  # a second run on the record the first one wrote
    assert (g["total"], g["graded_total"], g["adjustment"]) == (5.5, 5.0, 0.5)
    assert [t["points"] for t in g["tasks"]] == [3.0, 3.0]
    assert [t["graded_points"] for t in g["tasks"]] == [2.0, 3.0]
    adj.apply(g, [])
    assert (g["total"], g["adjustment"], g["adjustments"]) == (5.0, 0.0, [])
    adj.restore(g)
    assert "graded_total" not in g and g["tasks"][0] == {"name": "update", "points": 2.0}


# ------------------------------------------------------------------ the late policy
def test_penalties_and_times_are_read_as_people_write_them():
    assert parse_penalty("10%") == (10.0, True) and parse_penalty(" 1.5 ") == (1.5, False)
    with pytest.raises(ValueError, match="points per day"):
        parse_penalty("-1")
    assert parse_time("2025-03-01T23:59+01:00").utcoffset() == timedelta(hours=1)
    assert parse_time("2025-03-01 23:59").tzinfo is not None  # the machine's time zone
    assert parse_time("Saturday, 1 March 2025, 11:59 PM").hour == 23  # Moodle's worksheet
    with pytest.raises(ValueError, match="2025-03-01 23:59"):
        parse_time("1st of March")


def test_a_started_day_counts_and_no_total_goes_below_zero(tmp_path):
    times = write(tmp_path / "t.csv", "student,submitted\n"
                                      "Ada Lovelace (1),2025-03-01T23:59:00+00:00\n"
                                      "Ada Lovelace (2),2025-03-02T00:00:30+00:00\n"
                                      "3,2025-03-03T01:00:00+00:00\n")
    policy = read_policy("2025-03-01T23:59:00+00:00", "10%", str(times), KEYS)
    assert [policy.days_late(k) for k in KEYS] == [0, 1, 2, 0]
    assert policy.unknown == [("broken", "")]
    late = policy.adjustment(("Ada Lovelace", "2"), {"total": 7.0, "max": 9.0})
    assert (late.function, late.points) == ("total", -0.9)
    assert late.reason.startswith("1 day late (submitted 2025-03-02 00:00, deadline "
                                  "2025-03-01 23:59): 1 × 0.9 points")
    capped = policy.adjustment(("Alan Turing", "3"), {"total": 1.0, "max": 9.0})
    assert capped.points == -1.0 and "a total never goes below 0" in capped.reason
    assert policy.adjustment(("Ada Lovelace", "1"), {"total": 7.0, "max": 9.0}) is None


def test_moodles_worksheet_gives_the_submission_times(tmp_path):
    times = write(tmp_path / "w.csv", "Identifier,Full name,Last modified (submission)\n"
                                      "Participant 1,Ada Lovelace,"
                                      "\"Sunday, 2 March 2025, 9:00 AM\"\n"
                                      "Participant 3,Alan Turing,-\n")
    policy = read_policy("2025-03-01 23:59", "1", str(times), KEYS)
    assert set(policy.times) == {("Ada Lovelace", "1")}


def test_a_bad_times_file_is_refused_with_its_lines(tmp_path):
    times = write(tmp_path / "t.csv", "student,submitted\nNobody,2025-03-01 10:00\n"
                                      "3,yesterday\n3,2025-03-01 10:00\n3,2025-03-01 11:00\n")
    with pytest.raises(InputError) as err:
        read_policy("2025-03-01 23:59", "1", str(times), KEYS)
    assert [p.split(":")[0] for p in err.value.problems] == ["line 2", "line 3", "line 5"]
    assert "Alan Turing (3) is also on line 4" in err.value.problems[2]


# ------------------------------------------------------------------ a whole run
@pytest.fixture
def small_class(tmp_path):
    who = make_class(tmp_path / "subs", {"right": 1, "strict": 1, "not_json": 1})
    assert who == {"right": ["Student 01 (1001)"], "strict": ["Student 02 (1002)"],
                   "not_json": ["Student 03 (1003)"]}
    write(tmp_path / "adj.csv", "student,function,points,reason\n"
                                "Student 02 (1002),update,+1,regrade request\n"
                                "1003,total,3,the answer was mailed as a PDF and read by hand\n"
                                "1001,total,-0.5,presentation\n")
    return tmp_path


def test_adjustments_survive_the_cache_force_and_a_run_without_the_option(small_class):
    base = small_class
    args = [base / "subs", "--out", base / "out", "--adjustments", base / "adj.csv",
            "--assignment", "01_algorithm", "--export", "moodle"]
    code, printed, err = run(args)
    assert code == 0, err
    first = totals(base / "out")
    graded_02 = float(first["Student 02"]["graded"])
    assert graded_02 < 9
    assert float(first["Student 02"]["total"]) == graded_02 + 1
    assert float(first["Student 03"]["total"]) == 3  # not a notebook: 0, and 3 by hand
    assert float(first["Student 01"]["total"]) == 8.5
    want = {k: r["total"] for k, r in first.items()}
    code, printed, _ = run(args)  # the cache: nothing graded again
    assert "0 to grade, 3 unchanged" in printed
    assert {k: r["total"] for k, r in totals(base / "out").items()} == want
    code, printed, _ = run([*args, "--force"])
    assert "3 to grade" in printed
    assert {k: r["total"] for k, r in totals(base / "out").items()} == want
    code, printed, _ = run(args[:3] + args[5:])  # without --adjustments
    assert code == 0
    assert f"adjustments: applying again the 3 rows of the last run (from {base / 'adj.csv'})" \
        in printed
    assert {k: r["total"] for k, r in totals(base / "out").items()} == want
    moodle = {r["Identifier"]: r["Grade"]
              for r in csv.DictReader(open(base / "out" / "export-moodle.csv"))}
    assert moodle == {"Participant 1001": "8.5", "Participant 1002": want["Student 02"]
                      .removesuffix(".0"), "Participant 1003": "3"}
    code, printed, _ = run([*args[:3], *args[5:], "--no-adjustments"])
    rows = totals(base / "out")
    assert "adjustment" not in next(iter(rows.values()))
    assert float(rows["Student 01"]["total"]) == 9 and float(rows["Student 03"]["total"]) == 0
    results = json.loads((base / "out" / "results.json").read_text())
    assert results["inputs"] == {}


def test_a_changed_file_is_said_when_the_last_runs_rows_are_applied_again(small_class):
    base = small_class
    args = [base / "subs", "--out", base / "out", "--assignment", "01_algorithm"]
    assert run([*args, "--adjustments", base / "adj.csv"])[0] == 0
    write(base / "adj.csv", "student,function,points,reason\n1001,total,-1,changed\n")
    _, printed, _ = run(args)
    assert f"warning: {base / 'adj.csv'} changed since: give it again" in printed
    assert float(totals(base / "out")["Student 01"]["total"]) == 8.5  # the rows applied


def test_remembered_rows_for_a_student_who_left_are_an_error_that_says_what_to_do(small_class):
    base = small_class
    args = [base / "subs", "--out", base / "out", "--assignment", "01_algorithm"]
    assert run([*args, "--adjustments", base / "adj.csv"])[0] == 0
    (base / "subs" / "Student 03_1003_assignsubmission_file_notebook.ipynb").unlink()
    code, _, err = run(args)
    assert code == 2
    assert "line 3: no student '1003' in this run" in err
    assert "these are the rows the last run applied: give --adjustments FILE" in err
    assert run([*args, "--no-adjustments"])[0] == 0


def test_a_bad_adjustments_file_stops_the_run_and_writes_nothing(small_class):
    base = small_class
    args = [base / "subs", "--out", base / "out", "--assignment", "01_algorithm"]
    assert run(args)[0] == 0
    before = {p.name: p.read_bytes() for p in (base / "out").iterdir() if p.is_file()}
    write(base / "bad.csv", "student,function,points,reason\nStudent 9,update,1,x\n"
                            "Student 01,perceptron,one,y\n")
    code, printed, err = run([*args, "--adjustments", base / "bad.csv", "--force"])
    assert code == 2
    assert "line 3: points 'one' is not a number" in err  # read before the submissions
    write(base / "bad.csv", "student,function,points,reason\nStudent 9,update,1,x\n"
                            "Student 01,fit,1,y\n")
    code, printed, err = run([*args, "--adjustments", base / "bad.csv", "--force"])
    assert code == 2 and "to grade" not in printed
    (line,) = [x for x in err.splitlines() if "line 2:" in x]
    assert "no student 'Student 9' in this run (did you mean" in line
    assert "Student 01 (1001)" in line
    assert "line 3: Student 01 (1001) has no graded function 'fit'" in err
    assert "nothing was graded or written" in err
    assert {p.name: p.read_bytes() for p in (base / "out").iterdir() if p.is_file()} == before


def test_a_bad_roster_stops_the_run_before_grading(small_class):
    base = small_class
    write(base / "roster.csv", "id,name\n1001,Student 01\n")
    code, _, err = run([base / "subs", "--out", base / "out", "--roster",
                              base / "roster.csv"])
    assert code == 2 and "missing column email" in err and not (base / "out").exists()


def test_the_late_policy_in_a_run(small_class):
    base = small_class
    write(base / "times.csv", "student,submitted\n1001,2025-03-01 12:00\n"
                              "1002,2025-03-02 13:00\n")
    args = [base / "subs", "--out", base / "out", "--assignment", "01_algorithm",
            "--deadline", "2025-03-01 23:59", "--late-penalty", "0.5",
            "--submitted", base / "times.csv"]
    code, _, err = run(args)
    assert code == 0, err
    rows = totals(base / "out")
    assert float(rows["Student 01"]["adjustment"]) == 0
    assert float(rows["Student 02"]["total"]) == pytest.approx(
        float(rows["Student 02"]["graded"]) - 0.5)
    report = (base / "out" / "report.html").read_text()
    assert "Late policy: 0.5 points per day or part of a day after 2025-03-01 23:59" in report
    assert "1 late submission; 1 student without a time" in report
    text = (base / "out" / "feedback" / "Student 02_1002.txt").read_text()
    assert "-0.5 on total: 1 day late (submitted 2025-03-02 13:00" in text
    code, _, err = run([base / "subs", "--out", base / "out", "--deadline", "2025-03-01"])
    assert code == 2 and "--deadline and --late-penalty go together" in err
    code, _, err = run([base / "subs", "--out", base / "out", "--submitted",
                        base / "times.csv"])
    assert code == 2 and "--submitted belongs to a late policy" in err


# ------------------------------------------------------------------ the output folder
def test_an_out_folder_of_another_assignment_is_refused(small_class, tmp_path):
    base = small_class
    assert run([base / "subs", "--out", base / "out", "--assignment", "01_algorithm"])[0] == 0
    before = (base / "out" / "grades.csv").read_bytes()
    other = tmp_path / "other"
    other.mkdir()
    write(other / "x.ipynb", notebook_text(["x = 1"], "02_offset"))
    code, _, err = run([other, "--out", base / "out"])
    assert code == 2
    assert "holds the gradebook of 01_algorithm, and this run grades 02_offset" in err
    assert (base / "out" / "grades.csv").read_bytes() == before


def test_a_folder_that_is_not_a_gradebook_is_refused(small_class):
    base = small_class
    (base / "docs").mkdir()
    write(base / "docs" / "thesis.tex", "\\documentclass{book}")
    code, _, err = run([base / "subs", "--out", base / "docs"])
    assert code == 2 and "is not empty and holds no gradebook (it has thesis.tex)" in err
    write(base / "docs" / "results.json", "{ not json")
    with pytest.raises(outdir.OutFolderError, match=r"is not the results\.json of a gradebook"):
        outdir.check_out(base / "docs", {"01_algorithm"})


def test_an_interrupted_write_leaves_the_old_file_whole(tmp_path):
    path = write(tmp_path / "grades.csv", "old,complete\n")
    with pytest.raises(KeyboardInterrupt), outdir.replacing(path) as fh:
        fh.write("new, half")
        raise KeyboardInterrupt
    assert path.read_text() == "old,complete\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv"]


def test_a_run_interrupted_while_writing_keeps_every_file_whole(small_class, monkeypatch):
    base = small_class
    args = [base / "subs", "--out", base / "out", "--assignment", "01_algorithm"]
    assert run(args)[0] == 0
    out = base / "out"
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}

    def interrupted(*a, **k):
        raise KeyboardInterrupt  # Ctrl+C while the report is written

    from perceptron_lib.grading.outputs import report

    monkeypatch.setattr(report, "write_report", interrupted)
    code, _, err = run([*args, "--adjustments", write(base / "adj2.csv",
                                                      "student,function,points,reason"
                                                      "\n1001,total,-1,late\n")])
    assert code == 130 and "interrupted: 3 graded submissions kept in" in err
    # grades.csv and the feedback were written whole before; results.json is the old one
    assert (out / "results.json").read_bytes() == before[out / "results.json"]
    rows = totals(out)
    assert len(rows) == 3 and float(rows["Student 01"]["total"]) == 8
    assert not list(out.rglob(".*.tmp"))


KILLER = """
import os, signal, sys
from perceptron_lib.grading.outputs import csvsafe, gradebook

class Writer:
    def __init__(self, fh):
        self.writer, self.rows = csvsafe.writer(fh), 0
    def writerow(self, row):
        self.rows += 1
        if self.rows == 3:
            os.kill(os.getpid(), signal.SIGKILL)  # killed half-way through grades.csv
        self.writer.writerow(row)

class Csv:
    writer = Writer

gradebook.csvsafe = Csv
from perceptron_lib.grading.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_killed_run_leaves_the_previous_gradebook_and_the_next_run_cleans_up(small_class):
    base = small_class
    args = [str(base / "subs"), "--out", str(base / "out"), "--assignment", "01_algorithm",
            "--workers", "2"]
    assert run(args[:-2])[0] == 0
    out = base / "out"
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    proc = subprocess.run([sys.executable, "-c", KILLER, *args, "--force"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == -9, proc.stderr
    leftovers = list(out.glob(".grades.csv.*.tmp"))
    assert len(leftovers) == 1  # the half-written file, never under the real name
    assert (out / "grades.csv").read_bytes() == before[out / "grades.csv"]
    assert (out / "results.json").read_bytes() == before[out / "results.json"]
    assert run(args[:-2])[0] == 0
    assert not list(out.rglob(".*.tmp"))
    assert len(totals(out)) == 3


def test_gradebook_files_are_written_through_the_atomic_writer(tmp_path, monkeypatch):
    written = []
    real = os.replace
    monkeypatch.setattr(outdir.os, "replace", lambda a, b: (written.append(Path(b).name),
                                                            real(a, b)))
    g = {"student": "a", "student_id": "", "assignment": "01_algorithm", "status": "ok",
         "total": 1.0, "max": 9.0, "tasks": [], "notes": [], "warnings": []}
    gradebook.write_gradebook(tmp_path, [g], isolation={"sandbox": "test"})
    assert written == ["a.txt", "a.html", "grades.csv", "results.json"]
