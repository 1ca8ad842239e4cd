"""The late policy's extensions, and Canvas's ``LATE`` mark as evidence of a late file.

Unit tests read times and extensions files made here and apply the policy to records
made here; one test grades a class of three notebooks named as Canvas's download names
them, one marked ``LATE``, with an extension for another student.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
from datetime import timedelta
from pathlib import Path

import pytest
from grading_class import SOLUTION, notebook_text

from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.intake import collect
from perceptron_lib.grading.judge.extensions import parse_extension
from perceptron_lib.grading.judge.late import CANVAS_LATE, LatePolicy, read_policy
from perceptron_lib.grading.judge.tables import InputError
from perceptron_lib.grading.judge.times import parse_time

ADA, ALAN, GRACE = ("Ada Lovelace", "1"), ("Alan Turing", "2"), ("Grace Hopper", "3")
KEYS = [ADA, ALAN, GRACE]
DEADLINE = "2025-03-01T23:59:00+00:00"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def record(*warnings: str, total: float = 9.0) -> dict:
    return {"total": total, "max": 9.0, "warnings": list(warnings)}


# ------------------------------------------------------------------ extensions
def test_an_extension_is_extra_days_or_a_deadline_of_its_own():
    deadline = parse_time(DEADLINE)
    assert parse_extension("2", deadline) == deadline + timedelta(days=2)
    assert parse_extension("1,5", deadline) == deadline + timedelta(days=1.5)
    assert parse_extension("2025-03-05T12:00+00:00", deadline) == \
        parse_time("2025-03-05T12:00+00:00")
    with pytest.raises(ValueError, match="before the class's deadline"):
        parse_extension("2025-02-20 10:00", deadline)
    with pytest.raises(ValueError, match="0 or more"):
        parse_extension("-1", deadline)
    with pytest.raises(ValueError, match="neither a number of extra days"):
        parse_extension("next week", deadline)


def test_a_student_with_an_extension_is_late_only_after_their_own_deadline(tmp_path):
    times = write(tmp_path / "t.csv", "student,submitted,extension\n"
                                      "1,2025-03-03T10:00:00+00:00,2\n"
                                      "2,2025-03-03T10:00:00+00:00,2025-03-02T23:59+00:00\n"
                                      "3,2025-03-03T10:00:00+00:00,\n")
    policy = read_policy(DEADLINE, "1", str(times), KEYS)
    assert policy.adjustment(ADA, record()) is None  # within their two extra days
    late = policy.adjustment(ALAN, record())  # 10 hours after their own deadline
    assert late.points == -1
    assert "extended deadline 2025-03-02 23:59" in late.reason and late.reason.startswith(
        "1 day late (submitted 2025-03-03 10:00")
    assert policy.adjustment(GRACE, record()).points == -2  # no extension: 2 started days
    assert [policy.days_late(k) for k in KEYS] == [0, 1, 2]


def test_an_extensions_file_of_its_own_with_moodles_worksheet_for_the_times(tmp_path):
    worksheet = write(tmp_path / "w.csv", "Identifier,Full name,Last modified (submission)\n"
                                          "Participant 1,Ada Lovelace,"
                                          "\"Monday, 3 March 2025, 10:00 AM\"\n")
    extensions = write(tmp_path / "e.csv", "Student;Extra days\nAda Lovelace (1);3\n")
    policy = read_policy("2025-03-01 23:59", "1", str(worksheet), KEYS,
                         extensions=str(extensions))
    assert policy.adjustment(ADA, record()) is None
    assert policy.extensions_file == str(extensions) and len(policy.extensions_sha256) == 64
    again = LatePolicy.from_record(json.loads(json.dumps(policy.record())))
    assert again.extensions == policy.extensions and again.adjustment(ADA, record()) is None


def test_bad_extensions_are_refused_with_their_lines(tmp_path):
    times = write(tmp_path / "t.csv", "student,submitted,extension\n"
                                      "1,2025-03-02 10:00,2\n"
                                      "Nobody,,2\n"
                                      "2,,soon\n")
    extensions = write(tmp_path / "e.csv", "student,extension\n1,4\n3,2025-01-01 10:00\n")
    with pytest.raises(InputError) as err:
        read_policy(DEADLINE, "1", str(times), KEYS, extensions=str(extensions))
    text = str(err.value)
    assert f"submission times file {times}" in text and f"extensions file {extensions}" in text
    assert "line 3: no student 'Nobody' in this run" in text
    assert "line 4: extension 'soon' is neither a number of extra days" in text
    assert f"line 2: Ada Lovelace (1) already has an extension (line 2 of {times})" in text
    assert "line 3: extension '2025-01-01 10:00' ends before the class's deadline" in text


# ------------------------------------------------------------------ Canvas's LATE mark
def test_the_intake_notes_canvas_late_mark_in_the_policys_words(tmp_path):
    write(tmp_path / "turingalan_LATE_2_9002_perceptron.ipynb", notebook_text([SOLUTION]))
    with collect(tmp_path) as found:
        (alan,) = found.submissions
        assert CANVAS_LATE in alan.notes


def test_canvas_late_mark_is_a_started_day_when_no_time_is_known(tmp_path):
    times = write(tmp_path / "t.csv", "student,submitted,extension\n"
                                      "1,2025-03-01T12:00:00+00:00,\n"
                                      "3,,1\n")
    policy = read_policy(DEADLINE, "10%", str(times), KEYS)
    late = policy.adjustment(ALAN, record(CANVAS_LATE))
    assert late.points == -0.9
    assert late.reason.startswith("1 day late (Canvas marks the file LATE and no "
                                  "submission time is known")
    # a time known wins over the mark; an extension wins over the mark (Canvas may not
    # know of it); no mark and no time: not penalised
    assert policy.adjustment(ADA, record(CANVAS_LATE)) is None
    assert policy.adjustment(GRACE, record(CANVAS_LATE)) is None
    assert policy.adjustment(ALAN, record()) is None
    assert policy.unknown == [ALAN, GRACE]


def test_without_a_times_file_only_the_marked_files_are_penalised():
    policy = read_policy(DEADLINE, "0.5", None, KEYS)
    assert policy.adjustment(ADA, record()) is None
    assert policy.adjustment(ALAN, record(CANVAS_LATE)).points == -0.5
    assert policy.times == {} and policy.unknown == KEYS


# ------------------------------------------------------------------ a run
def run(args: list) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = grade_folder([str(a) for a in args] + ["--workers", "2", "--wall-seconds", "8"])
    return code, out.getvalue(), err.getvalue()


def test_a_run_with_an_extension_and_a_file_canvas_marks_late(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    for name in ("lovelaceada_1_9001_perceptron.ipynb", "turingalan_LATE_2_9002_nb.ipynb",
                 "hoppergrace_LATE_3_9003_nb.ipynb"):
        write(subs / name, notebook_text([SOLUTION]))
    # Ada was given two more days and used them; Alan's time is not known, and Canvas
    # marks his file late; Grace was given an extension Canvas did not know of
    times = write(tmp_path / "times.csv", "student,submitted,extension\n"
                                          "lovelaceada (1),2025-03-03 12:00,2\n"
                                          "hoppergrace (3),,2025-03-04 23:59\n")
    code, _, err = run([subs, "--out", tmp_path / "out", "--deadline",
                              "2025-03-01 23:59", "--late-penalty", "1", "--submitted", times])
    assert code == 0, err
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8-sig", newline="") as fh:
        rows = {r["student"]: r for r in csv.DictReader(fh)}
    assert float(rows["lovelaceada"]["total"]) == 9 and "adjustment" in rows["lovelaceada"]
    assert float(rows["lovelaceada"]["adjustment"]) == 0
    assert float(rows["hoppergrace"]["adjustment"]) == 0
    assert float(rows["turingalan"]["total"]) == 8
    feedback = tmp_path / "out" / "feedback"
    for name in ("lovelaceada_1.txt", "hoppergrace_3.txt"):
        text = (feedback / name).read_text(encoding="utf-8")
        assert "adjusted by a person" not in text and " on total:" not in text, text
    alan = (feedback / "turingalan_2.txt").read_text(encoding="utf-8")
    assert "-1 on total: 1 day late (Canvas marks the file LATE" in alan
    assert "+1" not in alan
