"""The platforms' feedback zips, and the files of the last run that a run removes.

Two small classes are graded: one as Moodle's download names it (a folder per
participant, a flat file, and a plain notebook with no id), one as Canvas's (a file, a
late resubmission, and a zip the student sent).  Every member name of the zips is
checked against the importer's own rules, restated here from the platforms' source:
Moodle's ``assignfeedback_file_zip_importer::is_valid_filename_for_import`` (Moodle 4.1
and later, and 3.x) and Canvas's ``Assignment#infer_comment_context_from_filename``.
The removal of stale files is tested on records made here.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import zipfile
from pathlib import Path

import nbformat
import pytest
from grading_class import SOLUTION, notebook_text

from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.outputs import feedback_zip, gradebook, stale

#: The submission plugins and feedback plugins of an assignment with file submissions
#: and feedback files: the (type, name) pairs Moodle's ``get_plugin_by_type`` finds.
MOODLE_PLUGINS = {("assignsubmission", "file"), ("assignsubmission", "onlinetext"),
                  ("assignsubmission", "comments"), ("assignfeedback", "file"),
                  ("assignfeedback", "comments")}


def moodle_match(member: str, participants: set[str]) -> tuple[str, str] | None:
    """The participant and file name Moodle 4.1+'s importer reads from a member of the
    zip (``is_valid_filename_for_import``), or None when it skips the member."""
    basename = member.rsplit("/", 1)[-1]
    if member.endswith("/") or basename.startswith((".", "~")):
        return None
    parts = member.split("/")
    while parts:
        info = parts.pop(0).split("_", 4)  # PHP's explode('_', $part, 5)
        if len(info) < 4 or not info[1].isdigit() or info[1] not in participants:
            continue
        if (info[2], info[3]) not in MOODLE_PLUGINS:
            continue
        rest = info[4] if len(info) == 5 else ""
        return info[1], "/".join([rest, *parts])
    return None


def moodle_3_match(member: str, participants: set[str]) -> tuple[str, str] | None:
    """The same for Moodle 3.x's importer, which splits the whole path at once (the
    files are extracted under ``/import/``)."""
    info = ("/import/" + member).split("_", 4)
    if len(info) < 5 or not info[1].isdigit() or info[1] not in participants:
        return None
    return (info[1], info[4]) if (info[2], info[3]) in MOODLE_PLUGINS else None


def canvas_match(member: str) -> tuple[str, str] | None:
    """The user id and submitted file id Canvas reads from a member's name, or None."""
    name = member.rsplit("/", 1)[-1]
    split = name.split("_")
    numbers = [p for p in split if re.fullmatch(r"\d+", p)][:2]
    if len(numbers) < 2 or split[-1].startswith("link") or name.startswith("._"):
        return None
    return numbers[0], numbers[1]


def run(args: list) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = grade_folder([str(a) for a in args] + ["--workers", "2", "--wall-seconds", "8"])
    return code, out.getvalue(), err.getvalue()


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def members(path: Path) -> dict[str, str]:
    with zipfile.ZipFile(path) as zf:
        assert zf.testzip() is None
        return {i.filename: zf.read(i).decode("utf-8") for i in zf.infolist()}


# ------------------------------------------------------------------ Moodle
@pytest.fixture(scope="module")
def moodle_class(tmp_path_factory):
    base = tmp_path_factory.mktemp("moodle")
    subs = base / "subs"
    write(subs / "Zoë Ångström_1007_assignsubmission_file_" / "perceptron.ipynb",
          notebook_text([SOLUTION]))
    write(subs / "Alan Turing_1002_assignsubmission_file_nb.ipynb",
          notebook_text([SOLUTION.replace("<= 0", "< 0")]))
    write(subs / "late addition.ipynb", notebook_text([SOLUTION]))
    code, _, err = run([subs, "--out", base / "out", "--assignment", "01_algorithm"])
    assert code == 0, err
    return base


def test_moodles_zip_has_a_folder_per_participant_that_its_importer_matches(moodle_class):
    out = moodle_class / "out"
    found = members(out / "feedback-moodle.zip")
    assert sorted(found) == [
        "Alan Turing_1002_assignsubmission_file_/feedback-01_algorithm.html",
        "Zoë Ångström_1007_assignsubmission_file_/feedback-01_algorithm.html"]
    participants = {"1002", "1007"}
    for member, page in found.items():
        pid = member.split("_")[1]
        for match in (moodle_match, moodle_3_match):
            got = match(member, participants)
            assert got is not None and got[0] == pid, (match.__name__, member)
            assert got[1].rsplit("/", 1)[-1] == "feedback-01_algorithm.html"
        # the student's own feedback page, self-contained (no link to the text file)
        assert f"({pid})</h1>" in page and "<script" not in page and ".txt" not in page
    assert moodle_match("Alan Turing_1002_assignsubmission_file_/x.html", {"1007"}) is None
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    (zipped,) = results["feedback_zips"]
    assert zipped["students"] == 2 and [e["student"] for e in zipped["left_out"]] == \
        ["late addition"]
    assert "not a file of Moodle's download" in zipped["left_out"][0]["why"]
    assert not (out / "feedback-canvas.zip").exists()


def _record(out: Path, name: str) -> dict:
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return next(g for g in results["grades"] if g["student"] == name)


def test_a_student_who_left_loses_their_feedback_files_and_zip_member(moodle_class):
    base = moodle_class
    out = base / "out"
    alan = _record(out, "Alan Turing")
    mine = write(out / "feedback" / "notes by hand.txt", "kept")
    (base / "subs" / "Alan Turing_1002_assignsubmission_file_nb.ipynb").unlink()
    code, _, err = run([base / "subs", "--out", out, "--assignment", "01_algorithm"])
    assert code == 0, err
    assert not (out / alan["feedback"]).exists() and not (out / alan["feedback_html"]).exists()
    assert mine.read_text() == "kept"
    assert sorted(members(out / "feedback-moodle.zip")) == [
        "Zoë Ångström_1007_assignsubmission_file_/feedback-01_algorithm.html"]
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert sorted(results["removed"]) == sorted([alan["feedback"], alan["feedback_html"]])


# ------------------------------------------------------------------ Canvas
@pytest.fixture(scope="module")
def canvas_class(tmp_path_factory):
    base = tmp_path_factory.mktemp("canvas")
    subs = base / "subs"
    write(subs / "lovelaceada_42_9001_perceptron.ipynb", notebook_text([SOLUTION]))
    write(subs / "turingalan_LATE_43_9002_nb-1.ipynb", notebook_text([SOLUTION]))
    subs.mkdir(exist_ok=True)
    with zipfile.ZipFile(subs / "hoppergrace_44_9003_work.zip", "w") as zf:
        zf.writestr("work/perceptron.ipynb", notebook_text([SOLUTION]))
    code, _, err = run([subs, "--out", base / "out", "--assignment", "01_algorithm"])
    assert code == 0, err
    return base


def test_canvas_zip_names_each_file_by_user_and_submitted_file(canvas_class):
    out = canvas_class / "out"
    found = members(out / "feedback-canvas.zip")
    assert sorted(found) == ["lovelaceada_42_9001_feedback.ipynb",
                             "turingalan_43_9002_feedback.ipynb"]
    submitted = {"42": "9001", "43": "9002"}  # each student's file in Canvas's download
    for member, text in found.items():
        user, file_id = canvas_match(member)
        assert submitted[user] == file_id, member
        # Canvas attaches it under the submitted notebook's name: it is a notebook
        nb = nbformat.reads(text, as_version=4)
        nbformat.validate(nb)
        (cell,) = nb.cells
        assert cell.cell_type == "markdown" and "\nScore: 9 of 9\n" in cell.source
        assert cell.source.startswith(f"# Feedback for {member.split('_')[0]} ({user}) "
                                      "(01_algorithm)\n\n```text\nScore: 9 of 9")
    assert not (out / "feedback-moodle.zip").exists()
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    (zipped,) = results["feedback_zips"]
    (left,) = zipped["left_out"]
    assert left["student"] == "hoppergrace" and "inside a file the student sent" in left["why"]


def test_the_feedback_text_in_a_notebook_keeps_its_backticks():
    text = "Hint: use ```<= 0``` here\n"
    nb = json.loads(feedback_zip.feedback_notebook(
        {"student": "a", "student_id": "1", "assignment": "01_algorithm"}, text))
    source = nb["cells"][0]["source"]
    assert "````text\nHint: use ```<= 0``` here\n````\n" in source


# ------------------------------------------------------------------ stale files
def _g(name: str, sid: str = "") -> dict:
    return {"student": name, "student_id": sid, "assignment": "01_algorithm",
            "status": "ok", "total": 9.0, "max": 9.0, "tasks": [], "notes": [],
            "warnings": []}


def test_only_the_files_the_last_run_wrote_are_removed(tmp_path):
    out = tmp_path / "out"
    gradebook.write_gradebook(out, [_g("Ada"), _g("Alan")], isolation={},
                              extra={"exports": [{"file": "export-canvas.csv",
                                                  "written": True}]})
    (out / "export-canvas.csv").write_text("old export")
    (out / "export-moodle.csv").write_text("a person's file, never recorded")
    (out / "feedback" / "Alan.html.bak").write_text("a person's copy")
    removed = gradebook.write_gradebook(out, [_g("Ada")], isolation={}, extra={"exports": []})
    assert removed == ["export-canvas.csv", "feedback/Alan.html", "feedback/Alan.txt"]
    assert sorted(p.name for p in (out / "feedback").iterdir()) == [
        "Ada.html", "Ada.txt", "Alan.html.bak"]
    assert (out / "export-moodle.csv").exists() and not (out / "export-canvas.csv").exists()


def test_names_the_grader_never_writes_are_never_removed(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "thesis.tex").write_text("x")
    (out / "feedback").mkdir()
    (out / "feedback" / ".hidden.txt").write_text("x")
    recorded = {"grades": [{"feedback": "../thesis.tex", "feedback_html": "feedback/.hidden.txt"}],
                "exports": [{"file": "grades.csv"}, {"file": "export-canvas.csv/x"}],
                "feedback_zips": [{"file": "results.json"}]}
    (out / "results.json").write_text(json.dumps(recorded))
    assert stale.remove(out, stale.recorded(out), []) == []
    assert (out / "thesis.tex").exists() and (out / "feedback" / ".hidden.txt").exists()
    assert stale.ours("feedback/Ada Lovelace_1.html") and stale.ours("export-moodle.csv")
    assert stale.ours("export-canvas-01_algorithm.csv") and stale.ours("feedback-canvas.zip")


def test_a_name_that_differs_in_case_only_is_the_same_file(tmp_path):
    out = tmp_path / "out"
    (out / "feedback").mkdir(parents=True)
    (out / "feedback" / "ada.txt").write_text("now Ada.txt on a case-blind disk")
    assert stale.remove(out, ["feedback/ada.txt"], ["feedback/Ada.txt"]) == []
    assert (out / "feedback" / "ada.txt").exists()


def test_member_names_hold_no_separator_of_their_own():
    g = {"student": "Ada_Lovelace/x: y", "student_id": "12", "assignment": "01_algorithm"}
    member = feedback_zip.moodle_member(g, "12")
    assert member == "Ada Lovelace x y_12_assignsubmission_file_/feedback-01_algorithm.html"
    assert moodle_match(member, {"12"})[0] == moodle_3_match(member, {"12"})[0] == "12"
    assert canvas_match(feedback_zip.canvas_member("2024", "42", "9")) == ("42", "9")
