"""Reading what instructors download: folders, Moodle's and Canvas's layouts, zips.

Most tests call the intake directly on small notebooks built in ``tmp_path``; a few
grade end to end, mostly with notebooks that never reach the sandbox (broken files,
which are graded at once), and two with real code.
"""

import csv
import io
import json
import os
import stat
import tempfile
import uuid
import zipfile
from pathlib import Path

import pytest
from grading_class import SOLUTION as SOLUTION_01

from perceptron_lib.grading import sandbox
from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.assignments import ASSIGNMENTS
from perceptron_lib.grading.intake import (
    Student,
    UnsafeArchive,
    check_archive,
    collect,
    parse_name,
    scratch,
)
from perceptron_lib.grading.intake import tree as intake_module
from perceptron_lib.grading.outputs.gradebook import feedback_names

MAX = {name: float(sum(t.points for t in tasks)) for name, tasks in ASSIGNMENTS.items()}

def nb(assignment="01_algorithm", code="x = 1") -> str:
    """A small notebook's text, with the assignment in its metadata."""
    return json.dumps({
        "cells": [{"cell_type": "code", "id": "c1", "metadata": {}, "outputs": [],
                   "execution_count": None, "source": code}],
        "metadata": {"perceptron_course": {"assignment": assignment}},
        "nbformat": 4, "nbformat_minor": 5})


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def make_zip(path_or_buffer, members: dict) -> None:
    """A zip of ``members`` (name -> text, bytes, or a dict for a zip inside)."""
    with zipfile.ZipFile(path_or_buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in members.items():
            if isinstance(content, dict):
                inner = io.BytesIO()
                make_zip(inner, content)
                content = inner.getvalue()
            zf.writestr(name, content)


def by_student(intake) -> dict:
    return {str(s.student): s for s in intake.submissions}


def rows_of(out: Path) -> list[dict]:
    with open(out / "grades.csv", encoding="utf-8-sig") as fh:
        return list(csv.DictReader(fh))


def run(args, capsys) -> tuple[int, str, str]:
    code = grade_folder([str(a) for a in args] + ["--workers", "2", "--wall-seconds", "8"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# ------------------------------------------------------------------ names
@pytest.mark.parametrize("name, folder, expected", [
    ("Ada Lovelace_123456_assignsubmission_file_", True,
     (Student("Ada Lovelace", "123456"), "Moodle folder", False, 0)),
    ("Ada Lovelace_123456_assignsubmission_file_nb.ipynb", False,
     (Student("Ada Lovelace", "123456"), "Moodle file", False, 0)),
    ("José Núñez_42_assignsubmission_onlinetext_", True,
     (Student("José Núñez", "42"), "Moodle folder", False, 0)),
    ("lovelaceada_9876_5432_perceptron.ipynb", False,
     (Student("lovelaceada", "9876"), "Canvas file", False, 0)),
    ("lovelaceada_LATE_9876_5432_perceptron-2.ipynb", False,
     (Student("lovelaceada", "9876"), "Canvas file", True, 2)),
    ("lovelaceada_9876_5432_my-notes-1.v2.ipynb", False,
     (Student("lovelaceada", "9876"), "Canvas file", False, 1)),
])
def test_platform_names_give_the_student_and_the_id(name, folder, expected):
    named = parse_name(name, folder)
    assert (named.student, named.layout, named.late, named.version) == expected


@pytest.mark.parametrize("name, folder", [
    ("alice.ipynb", False), ("solution_01_algorithm.ipynb", False), ("alice", True),
    ("lovelaceada_9876_5432_perceptron.ipynb", True),  # Canvas names no folders
    ("Ada Lovelace_123456_assignsubmission_file_", False),  # a file needs a name after it
])
def test_other_names_are_not_taken_for_platform_names(name, folder):
    assert parse_name(name, folder) is None


# ------------------------------------------------------------------ layouts
def test_notebooks_directly_in_the_folder_are_named_by_their_stem(tmp_path):
    write(tmp_path / "alice.ipynb", nb())
    write(tmp_path / "bob.ipynb", nb())
    write(tmp_path / "README.txt", "read me")
    write(tmp_path / "data.csv", "1,2")
    with collect(tmp_path) as found:
        subs = by_student(found)
        assert sorted(subs) == ["alice", "bob"]
        assert subs["alice"].source == "alice.ipynb"
        assert subs["alice"].path.parent == found.staging  # the intake's own copy
        assert subs["alice"].layout == "plain file" and subs["alice"].notes == []
        assert dict(found.skipped) == {".txt": 1, ".csv": 1}


def test_moodle_folders_give_name_and_participant_id(tmp_path):
    ada = tmp_path / "Ada Lovelace_123456_assignsubmission_file_"
    write(ada / "homework" / "perceptron.ipynb", nb())  # Moodle keeps the student's folders
    write(ada / ".ipynb_checkpoints" / "perceptron-checkpoint.ipynb", nb())
    write(ada / "report.pdf", "%PDF")
    write(tmp_path / "Alan Turing_654321_assignsubmission_file_" / "perceptron.ipynb", nb())
    write(tmp_path / "Pdf Only_777_assignsubmission_file_" / "answers.pdf", "%PDF")
    (tmp_path / "Nothing Here_888_assignsubmission_file_").mkdir()
    with collect(tmp_path, "01_algorithm") as found:
        subs = by_student(found)
        assert sorted(subs) == ["Ada Lovelace (123456)", "Alan Turing (654321)",
                                "Nothing Here (888)", "Pdf Only (777)"]
        empty = subs["Nothing Here (888)"]
        assert (empty.path, empty.layout) == (None, "Moodle folder")
        assert empty.problem == "no notebook in the submission (an empty folder)"
        assert subs["Ada Lovelace (123456)"].source == f"{ada.name}/homework/perceptron.ipynb"
        assert subs["Ada Lovelace (123456)"].notes == []  # the checkpoint copy is not one
        assert subs["Ada Lovelace (123456)"].layout == "Moodle folder"
        assert subs["Pdf Only (777)"].path is None
        assert subs["Pdf Only (777)"].problem == "no notebook in the submission (found: " \
                                                 "answers.pdf)"
        assert found.notebooks == 2


def test_moodle_flat_files(tmp_path):
    write(tmp_path / "Ada Lovelace_123456_assignsubmission_file_notebook.ipynb", nb())
    write(tmp_path / "Alan Turing_654321_assignsubmission_file_notebook.ipynb", nb())
    with collect(tmp_path) as found:
        subs = by_student(found)
        assert sorted(subs) == ["Ada Lovelace (123456)", "Alan Turing (654321)"]
        assert {s.layout for s in subs.values()} == {"Moodle file"}


def test_canvas_files_late_and_resubmitted(tmp_path):
    write(tmp_path / "lovelaceada_101_9001_perceptron.ipynb", nb())
    write(tmp_path / "lovelaceada_101_9001_perceptron-2.ipynb", nb())
    write(tmp_path / "lovelaceada_101_9001_perceptron-1.ipynb", nb())
    write(tmp_path / "turingalan_LATE_102_9002_perceptron.ipynb", nb())
    write(tmp_path / "hopper_103_9003_slides.pdf", "%PDF")
    with collect(tmp_path) as found:
        subs = by_student(found)
        assert sorted(subs) == ["hopper (103)", "lovelaceada (101)", "turingalan (102)"]
        ada = subs["lovelaceada (101)"]
        assert ada.source == "lovelaceada_101_9001_perceptron-2.ipynb"
        assert ada.notes[0].startswith("3 notebooks: graded lovelaceada_101_9001_perceptron-2"
                                       ".ipynb (Canvas's latest upload (-2))")
        assert "lovelaceada_101_9001_perceptron-1.ipynb" in ada.notes[0]
        assert subs["turingalan (102)"].notes == ["submitted late (Canvas marks the file LATE)"]
        assert subs["hopper (103)"].problem == "no notebook in the submission (found: " \
                                               "hopper_103_9003_slides.pdf)"


def test_several_notebooks_the_one_of_the_assignment_is_graded(tmp_path):
    folder = tmp_path / "Ada Lovelace_1_assignsubmission_file_"
    write(folder / "a_offset.ipynb", nb("02_offset"))
    write(folder / "b_scratch.ipynb", json.dumps({"cells": [], "metadata": {}}))
    write(folder / "c_algorithm.ipynb", nb("01_algorithm"))
    with collect(tmp_path, "02_offset") as found:
        (ada,) = found.submissions
        assert ada.source == "Ada Lovelace_1_assignsubmission_file_/a_offset.ipynb"
        assert "(the only one that names 02_offset)" in ada.notes[0]
        assert "b_scratch.ipynb" in ada.notes[0] and "c_algorithm.ipynb" in ada.notes[0]
    with collect(tmp_path, "03_margin") as found:  # none fits: nothing tells them apart
        (ada,) = found.submissions
        assert ada.path is None and ada.problem.startswith("several notebooks (")
        assert "choose one with --choose 'STUDENT=FILE'" in ada.problem
    choice = {"Ada Lovelace": "c_algorithm.ipynb"}
    with collect(tmp_path, "03_margin", choice) as found:
        (ada,) = found.submissions
        assert ada.source.endswith("/c_algorithm.ipynb")
        assert "(chosen with --choose)" in ada.notes[0]
        assert found.chosen == {"Ada Lovelace"}
    with collect(tmp_path, "03_margin", {"1": "nothing.ipynb"}) as found:
        assert "--choose names 'nothing.ipynb', which is not one of them" in \
            found.submissions[0].problem


def test_moodles_download_times_never_choose_a_notebook(tmp_path):
    """Moodle stamps every file of its zip with the time of the download: two notebooks
    that both name the assignment wait for the instructor's choice."""
    make_zip(tmp_path / "download.zip", {
        "Ada Lovelace_7_assignsubmission_file_/first.ipynb": nb("01_algorithm"),
        "Ada Lovelace_7_assignsubmission_file_/second.ipynb": nb("01_algorithm")})
    with collect(tmp_path / "download.zip", "01_algorithm") as found:
        (ada,) = found.submissions
        assert ada.path is None and ada.problem.startswith("several notebooks")
    with collect(tmp_path / "download.zip", "01_algorithm",
                 {"Ada Lovelace (7)": "second.ipynb"}) as found:
        assert found.submissions[0].source.endswith("/second.ipynb")


def test_a_moodle_zip_and_a_canvas_zip_in_a_folder(tmp_path):
    make_zip(tmp_path / "moodle.zip", {
        "Ada Lovelace_123456_assignsubmission_file_/perceptron.ipynb": nb(code="a = 1"),
        "Ada Lovelace_123456_assignsubmission_onlinetext_/onlinetext.html": "<p>hi</p>",
        "Emmy Noether_5_assignsubmission_file_/sub/perceptron.ipynb": nb(code="e = 1"),
    })
    make_zip(tmp_path / "submissions.zip", {
        "turingalan_102_9002_perceptron.ipynb": nb(code="t = 1"),
        "hopperg_LATE_103_9003_perceptron.ipynb": nb(code="h = 1"),
    })
    with collect(tmp_path) as found:
        subs = by_student(found)
        assert sorted(subs) == ["Ada Lovelace (123456)", "Emmy Noether (5)", "hopperg (103)",
                                "turingalan (102)"]
        ada = subs["Ada Lovelace (123456)"]
        assert ada.source == "moodle.zip: Ada Lovelace_123456_assignsubmission_file_/" \
                             "perceptron.ipynb"
        assert json.loads(ada.path.read_text())["cells"][0]["source"] == "a = 1"
        assert ada.path.parent == found.staging
        assert subs["hopperg (103)"].notes == ["submitted late (Canvas marks the file LATE)"]
        assert found.archives == 2 and dict(found.skipped) == {".html": 1}
        staging = found.staging
    assert not staging.exists()  # the copies are deleted with the intake


def test_the_path_of_one_zip_and_a_wrapping_folder_in_it(tmp_path):
    make_zip(tmp_path / "download.zip", {
        "Course-Assignment 1/alice.ipynb": nb(code="a = 1"),
        "Course-Assignment 1/bob.ipynb": nb(code="b = 1"),
        "__MACOSX/Course-Assignment 1/._alice.ipynb": "junk",
    })
    with collect(tmp_path / "download.zip") as found:
        subs = by_student(found)
        assert sorted(subs) == ["alice", "bob"]
        assert subs["bob"].source == "download.zip: Course-Assignment 1/bob.ipynb"
        assert json.loads(subs["bob"].path.read_text())["cells"][0]["source"] == "b = 1"


def test_a_students_own_zip_inside_the_download_is_read(tmp_path):
    make_zip(tmp_path / "submissions.zip", {
        "lovelaceada_101_9001_mywork.zip": {"mywork/perceptron.ipynb": nb(code="mine = 1"),
                                            "mywork/plot.png": "png"},
        "Emmy Noether_5_assignsubmission_file_/work.zip": {"perceptron.ipynb": nb()},
    })
    with collect(tmp_path) as found:
        subs = by_student(found)
        assert sorted(subs) == ["Emmy Noether (5)", "lovelaceada (101)"]
        ada = subs["lovelaceada (101)"]
        assert ada.source == ("submissions.zip: lovelaceada_101_9001_mywork.zip: "
                              "mywork/perceptron.ipynb")
        assert json.loads(ada.path.read_text())["cells"][0]["source"] == "mine = 1"
        assert found.archives == 3


def test_utf8_names_stored_without_the_utf8_flag_are_read_right(tmp_path):
    """Some zip tools write UTF-8 names without saying so; they are mended, not garbled."""
    make_zip(tmp_path / "moodle.zip", {"JosXX Nunez_5_assignsubmission_file_/nb.ipynb": nb()})
    data = (tmp_path / "moodle.zip").read_bytes()
    (tmp_path / "moodle.zip").write_bytes(data.replace(b"JosXX", "José".encode()))
    with collect(tmp_path) as found:
        assert sorted(by_student(found)) == ["José Nunez (5)"]


# ------------------------------------------------------------------ refusals
def test_a_member_that_leaves_the_folder_refuses_the_archive(tmp_path):
    make_zip(tmp_path / "evil.zip", {"alice.ipynb": nb(), "../escaped.ipynb": nb()})
    make_zip(tmp_path / "absolute.zip", {"/tmp/absolute.ipynb": nb()})
    write(tmp_path / "bob.ipynb", nb())
    with collect(tmp_path) as found:
        assert sorted(by_student(found)) == ["bob"]  # nothing of the refused archives
        assert found.refused == [
            "absolute.zip: member '/tmp/absolute.ipynb' has a path outside the archive's "
            "folder",
            "evil.zip: member '../escaped.ipynb' has a path outside the archive's folder"]
    assert not (tmp_path.parent / "escaped.ipynb").exists()


def test_a_symbolic_link_member_refuses_the_archive(tmp_path):
    with zipfile.ZipFile(tmp_path / "links.zip", "w") as zf:
        zf.writestr("alice.ipynb", nb())
        link = zipfile.ZipInfo("bob.ipynb")
        link.create_system = 3
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
    with collect(tmp_path) as found:
        assert found.submissions == []
        assert found.refused == ["links.zip: member 'bob.ipynb' is a symbolic link"]


def test_too_many_members_refuses_the_archive(tmp_path):
    make_zip(tmp_path / "many.zip", {f"s{k}.ipynb": "" for k in range(5_001)})
    with collect(tmp_path) as found:
        assert found.submissions == []
        assert found.refused == ["many.zip: 5001 members, more than the 5000 an archive "
                                 "(with the archives in it) may hold"]


def test_too_many_bytes_refuses_the_archive_nested_ones_included(tmp_path, monkeypatch):
    monkeypatch.setattr(intake_module, "MAX_ARCHIVE_BYTES", 50_000)
    make_zip(tmp_path / "big.zip", {"alice.ipynb": nb(code="#" * 60_000)})
    # each archive alone is under the limit, together they are over it
    make_zip(tmp_path / "nested.zip", {"bob.ipynb": nb(code="#" * 30_000),
                                       "more.zip": {"carol.ipynb": nb(code="#" * 30_000)}})
    with collect(tmp_path) as found:
        (nested,) = found.submissions  # a student's archive: the refusal is in its row
        assert (str(nested.student), nested.source) == ("nested", "nested.zip: bob.ipynb")
        assert nested.notes[0].startswith("refused nested.zip: more.zip: 30")
        (big,) = found.refused
        assert big.startswith("big.zip: 60") and big.endswith(
            "bytes once uncompressed, more than the 50000 bytes an archive (with the "
            "archives in it) may hold")


def test_a_notebook_over_the_size_limit_is_refused_for_that_student(tmp_path):
    make_zip(tmp_path / "huge.zip", {
        "Ada Lovelace_1_assignsubmission_file_/perceptron.ipynb": nb(code="#" * (21 * 2**20)),
        "Alan Turing_2_assignsubmission_file_/perceptron.ipynb": nb(),
    })
    with collect(tmp_path, "01_algorithm") as found:
        subs = by_student(found)
        assert subs["Alan Turing (2)"].path is not None
        ada = subs["Ada Lovelace (1)"]
        assert ada.path is None
        assert ada.problem == ("refused huge.zip: Ada Lovelace_1_assignsubmission_file_/"
                               "perceptron.ipynb: 21.0 MiB, more than the 20.0 MiB a "
                               "notebook may have")
        assert found.refused == []


def test_archives_nested_more_than_one_level_are_refused(tmp_path):
    deep = {"inner.zip": {"deepest.zip": {"x.ipynb": nb()}, "y.txt": "notes"}}
    make_zip(tmp_path / "outer.zip", {**deep, "alice.ipynb": nb()})
    make_zip(tmp_path / "canvas.zip", {"lovelaceada_1_2_work.zip": {
        "work.zip": {"perceptron.ipynb": nb()}}})
    with collect(tmp_path) as found:
        subs = by_student(found)
        assert sorted(subs) == ["lovelaceada (1)", "outer"]
        assert found.refused == []
        outer = subs["outer"]  # a student's archive, graded on what could be read
        assert outer.path is not None and outer.source.endswith("alice.ipynb")
        assert outer.notes == [
            "refused outer.zip: inner.zip: deepest.zip: an archive inside an archive inside "
            "an archive (only one level of nesting is read)"]
        ada = subs["lovelaceada (1)"]  # the student's own row says why
        assert ada.path is None
        assert ada.problem == ("refused canvas.zip: lovelaceada_1_2_work.zip: work.zip: an "
                               "archive inside an archive inside an archive (only one level "
                               "of nesting is read)")


def test_check_archive_names_the_member():
    buffer = io.BytesIO()
    make_zip(buffer, {"ok.ipynb": "", "a/../../up.ipynb": ""})
    with zipfile.ZipFile(buffer) as zf, pytest.raises(UnsafeArchive) as exc:
        check_archive(zf, "download.zip")
    assert str(exc.value) == ("download.zip: member 'a/../../up.ipynb' has a path outside "
                              "the archive's folder")


# ------------------------------------------------------------------ end to end
def test_no_submissions_is_an_error_that_says_what_was_looked_for(tmp_path, capsys):
    folder = tmp_path / "subs"
    write(folder / "a.pdf", "%PDF")
    write(folder / "b.pdf", "%PDF")
    write(folder / "notes.txt", "x")
    code, _, err = run([folder, "--out", tmp_path / "out"], capsys)
    assert code == 1
    assert f"no submitted notebooks found in {folder}" in err
    assert "*.ipynb" in err and "assignsubmission_file_" in err and ".zip" in err
    assert "saw 3 other files (2 .pdf, 1 .txt)" in err
    assert not (tmp_path / "out" / "grades.csv").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run([empty, "--out", tmp_path / "out"], capsys)
    assert code == 1 and "saw no other files" in err


def test_a_refused_archive_fails_the_run_and_the_others_are_graded(tmp_path, capsys):
    folder = tmp_path / "subs"
    write(folder / "bob.ipynb", "{ not json")
    make_zip(folder / "evil.zip", {"../alice.ipynb": nb()})
    code, _, err = run([folder, "--out", tmp_path / "out", "--assignment", "01_algorithm"],
                       capsys)
    assert code == 1
    assert "evil.zip: member '../alice.ipynb' has a path outside" in err
    assert [r["student"] for r in rows_of(tmp_path / "out")] == ["bob"]
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["refused"] == ["evil.zip: member '../alice.ipynb' has a path outside the "
                                  "archive's folder"]


def test_feedback_file_names_are_unique_and_readable():
    records = [{"student": s, "student_id": i} for s, i in [
        ("a b", ""), ("a_b", ""), ("a:b", ""), ("a?b", ""), ("Ann", ""), ("ann", ""),
        ("Ada Lovelace", "123456"), ("Ada Lovelace", "7"), ("con", "")]]
    names = feedback_names(records)
    assert len(set(names.values())) == len(records)
    assert len({n.casefold() for n in names.values()}) == len(records)
    assert names[("a b", "")] == "a b.txt" and names[("a_b", "")] == "a_b.txt"
    assert names[("a:b", "")].startswith("a_b-") and names[("a?b", "")].startswith("a_b-")
    assert names[("Ada Lovelace", "123456")] == "Ada Lovelace_123456.txt"
    assert names[("Ann", "")].startswith("Ann-") and names[("ann", "")].startswith("ann-")
    assert names[("con", "")].startswith("con-")
    assert all(n.endswith(".txt") and "/" not in n for n in names.values())


def test_feedback_files_never_overwrite_each_other(tmp_path, capsys):
    folder = tmp_path / "subs"
    for stem in ("a b", "a_b", "a:b"):
        write(folder / f"{stem}.ipynb", "{ not json " + stem)
    code, _, _ = run([folder, "--out", tmp_path / "out"], capsys)
    assert code == 0
    files = sorted((tmp_path / "out" / "feedback").glob("*.txt"))
    assert len(files) == 3
    assert len(list((tmp_path / "out" / "feedback").glob("*.html"))) == 3  # a page beside each
    firsts = {f.read_text().splitlines()[0] for f in files}
    assert firsts == {f"Feedback for {s} (no assignment)" for s in ("a b", "a_b", "a:b")}
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert len({g["feedback"] for g in results["grades"]}) == 3


def test_a_broken_file_carries_the_assignments_maximum(tmp_path, capsys):
    folder = tmp_path / "subs"
    write(folder / "not_json.ipynb", "{ not json")
    write(folder / "no_cells.ipynb", json.dumps(
        {"metadata": {"perceptron_course": {"assignment": "03_margin"}}}))
    code, _, _ = run([folder, "--out", tmp_path / "out"], capsys)
    assert code == 0
    rows = {r["student"]: r for r in rows_of(tmp_path / "out")}
    assert rows["no_cells"]["assignment"] == "03_margin"
    assert float(rows["no_cells"]["max"]) == MAX["03_margin"] == 6
    assert "not a notebook" in rows["no_cells"]["status"]
    assert rows["not_json"]["assignment"] == "" and float(rows["not_json"]["max"]) == 0
    code, _, _ = run([folder, "--out", tmp_path / "out2", "--assignment", "02_offset"], capsys)
    rows = {r["student"]: r for r in rows_of(tmp_path / "out2")}
    assert float(rows["not_json"]["max"]) == MAX["02_offset"] == 8
    assert rows["not_json"]["assignment"] == "02_offset"
    assert float(rows["not_json"]["total"]) == 0


def test_rerun_cache_keys_on_the_student_not_the_file_name(tmp_path, capsys):
    folder = tmp_path / "subs"
    ada = write(folder / "Ada Lovelace_1_assignsubmission_file_" / "notebook.ipynb",
                "{ ada's broken file")
    write(folder / "Alan Turing_2_assignsubmission_file_" / "notebook.ipynb",
          "{ alan's broken file")
    write(folder / "Pdf Only_3_assignsubmission_file_" / "answers.pdf", "%PDF")
    out = tmp_path / "out"
    args = [folder, "--out", out, "--assignment", "01_algorithm"]
    code, printed, _ = run(args, capsys)
    assert code == 0
    assert "3 submissions: 2 to grade, 0 unchanged, 1 without a notebook" in printed
    rows = {(r["student"], r["id"]): r for r in rows_of(out)}
    assert set(rows) == {("Ada Lovelace", "1"), ("Alan Turing", "2"), ("Pdf Only", "3")}
    assert rows[("Pdf Only", "3")]["status"] == "no notebook in the submission (found: " \
                                                "answers.pdf)"
    assert float(rows[("Pdf Only", "3")]["max"]) == MAX["01_algorithm"]
    assert rows[("Ada Lovelace", "1")]["file"] == ("Ada Lovelace_1_assignsubmission_file_/"
                                                   "notebook.ipynb")
    _, printed, _ = run(args, capsys)
    assert "2 to grade" not in printed and "0 to grade, 2 unchanged" in printed
    ada.write_text("{ ada's second broken file")
    _, printed, _ = run(args, capsys)
    assert "1 to grade, 1 unchanged" in printed
    assert "[1/1] Ada Lovelace (1)" in printed
    results = json.loads((out / "results.json").read_text())
    assert {(g["student"], g["student_id"]) for g in results["grades"]} == set(rows)


def test_wrong_assignment_is_graded_as_asked_and_said(tmp_path, capsys):
    folder = tmp_path / "subs"
    write(folder / "offset_file.ipynb", nb("02_offset", SOLUTION_01))
    write(folder / "right_file.ipynb", nb("01_algorithm", SOLUTION_01))
    code, _, err = run([folder, "--out", tmp_path / "out", "--assignment", "01_algorithm"],
                       capsys)
    assert code == 0
    rows = {r["student"]: r for r in rows_of(tmp_path / "out")}
    wrong = rows["offset_file"]
    assert wrong["status"] == "wrong assignment: the notebook is 02_offset, graded as " \
                              "01_algorithm"
    assert wrong["assignment"] == "01_algorithm"
    assert float(wrong["total"]) == float(wrong["max"]) == MAX["01_algorithm"]
    assert rows["right_file"]["status"] == "ok"
    assert "warning: 1 notebook of another assignment than 01_algorithm" in err
    assert "offset_file: wrong assignment: the notebook is 02_offset" in err
    assert "wrong assignment" not in (tmp_path / "out" / "feedback" /
                                      "right_file.txt").read_text()


def test_a_mixed_folder_has_an_assignment_column_and_maxima_per_assignment(tmp_path, capsys):
    folder = tmp_path / "subs"
    write(folder / "first.ipynb", nb("01_algorithm", SOLUTION_01))
    write(folder / "second.ipynb", nb("02_offset", "def add_offset_feature(X, value=1.0):\n"
                                                   "    raise NotImplementedError()"))
    code, _, _ = run([folder, "--out", tmp_path / "out"], capsys)
    assert code == 0
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8-sig") as fh:
        header = next(csv.reader(fh))
    assert header[:3] == ["student", "id", "assignment"]
    assert header[-5:] == ["total", "max", "status", "notes", "file"]
    functions = [t.name for t in ASSIGNMENTS["01_algorithm"] + ASSIGNMENTS["02_offset"]]
    assert header[3:-5] == functions
    rows = {r["student"]: r for r in rows_of(tmp_path / "out")}
    assert rows["first"]["assignment"] == "01_algorithm"
    assert float(rows["first"]["max"]) == MAX["01_algorithm"] == float(rows["first"]["total"])
    assert rows["second"]["assignment"] == "02_offset"
    assert float(rows["second"]["max"]) == MAX["02_offset"] != MAX["01_algorithm"]
    assert rows["second"]["update"] == "" and rows["first"]["add_offset_feature"] == ""
    assert float(rows["second"]["add_offset_feature"]) == 0


@pytest.mark.parametrize("given", ["zip", "folder"])
def test_a_submission_cannot_read_the_intakes_copies_of_notebooks(tmp_path, capsys, given):
    if sandbox.mode() == "limits-only":
        message = "hiding paths needs bubblewrap (apt-get install bubblewrap)"
        if os.environ.get("PERCEPTRON_COURSE_REQUIRE_SANDBOX"):
            pytest.fail(message + " (required: PERCEPTRON_COURSE_REQUIRE_SANDBOX is set)")
        pytest.skip(message)
    marker = f"secret-{uuid.uuid4().hex}"
    pattern = f"{tempfile.gettempdir()}/{scratch.PREFIX}*/intake-*/*.ipynb"
    spy = (f"import glob\n"
           f"def update(*args):\n"
           f"    return sum({marker!r} in open(p).read() for p in glob.glob({pattern!r}))")
    notebooks = {"other.ipynb": nb(code=f"# {marker}"), "spy.ipynb": nb(code=spy)}
    if given == "zip":
        make_zip(tmp_path / "download.zip", notebooks)
    else:
        for name, text in notebooks.items():
            write(tmp_path / "download" / name, text)
    out = tmp_path / "out"
    code, _, _ = run([tmp_path / ("download.zip" if given == "zip" else "download"),
                      "--out", out], capsys)
    assert code == 0
    results = json.loads((out / "results.json").read_text())
    (spy_grade,) = [g for g in results["grades"] if g["student"] == "spy"]
    (update,) = [t for t in spy_grade["tasks"] if t["name"] == "update"]
    assert update["details"][0]["error"].endswith("got 0")  # it found no copy to read
