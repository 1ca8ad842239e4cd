"""A failure while reading one entry is that entry's student's, never the class's.

Folders nested very deep, submissions of very many files and any error while reading
one file or folder become a refusal naming that entry; :func:`collect` raises only for
the folder or zip given itself.
"""

import os
import subprocess

import pytest
from test_grading_intake import by_student, make_zip, nb, write

from perceptron_lib.grading.intake import IntakeError, collect
from perceptron_lib.grading.intake import submissions as submissions_module
from perceptron_lib.grading.intake import tree as tree_module

#: Deeper than Python's recursion limit: a walk that recurses per level fails.
VERY_DEEP = 1500


@pytest.fixture
def deep_folder(tmp_path):
    """``mallory/a/a/.../a/nb.ipynb`` on disk, :data:`VERY_DEEP` folders deep."""
    top = tmp_path / "subs" / "mallory"
    top.mkdir(parents=True)
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(VERY_DEEP):
        os.mkdir("a", dir_fd=fd)
        inner = os.open("a", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = inner
    with open(os.open("nb.ipynb", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "w") as fh:
        fh.write(nb())
    os.close(fd)
    yield tmp_path / "subs"
    subprocess.run(["rm", "-rf", str(top)], check=True)  # deeper than rmtree's recursion


def test_folders_nested_too_deep_are_that_students_problem(deep_folder):
    write(deep_folder / "alice.ipynb", nb())
    with collect(deep_folder) as found:
        subs = by_student(found)
        assert subs["alice"].path is not None
        mallory = subs["mallory"]
        assert mallory.path is None
        assert mallory.problem == ("refused mallory" + "/a" * 19 + ": holds folders more "
                                   "than 20 levels deep; not read")


def test_a_zip_member_nested_too_deep_refuses_the_archive(tmp_path):
    deep_name = "a/" * VERY_DEEP + "nb.ipynb"
    make_zip(tmp_path / "Mallory_7_assignsubmission_file_deep.zip", {deep_name: nb()})
    make_zip(tmp_path / "deep.zip", {deep_name: nb()})
    write(tmp_path / "alice.ipynb", nb())
    with collect(tmp_path) as found:
        subs = by_student(found)
        assert sorted(subs) == ["Mallory (7)", "alice"]
        why = (f"member {deep_name[:100] + '...'!r} is {VERY_DEEP + 1} levels deep, more "
               "than the 20 levels a path may have")
        assert subs["Mallory (7)"].problem == (
            f"refused Mallory_7_assignsubmission_file_deep.zip: {why}")
        assert found.refused == [f"deep.zip: {why}"]


def test_a_submission_of_too_many_files_is_refused_for_that_student(tmp_path, monkeypatch):
    monkeypatch.setattr(tree_module, "MAX_MEMBERS", 30)
    write(tmp_path / "alice" / "nb.ipynb", nb())
    for k in range(40):
        write(tmp_path / "mallory" / f"d{k % 4}" / f"f{k}.txt", "x")
    write(tmp_path / "mallory" / "nb.ipynb", nb())
    with collect(tmp_path) as found:
        subs = by_student(found)
        assert subs["alice"].path is not None
        assert subs["mallory"].path is None
        assert subs["mallory"].problem == ("refused mallory: more than 30 files and folders "
                                           "in one submission; not read")
        assert found.skipped == {}  # nothing of the refused folder was looked at


def test_a_folder_of_very_many_entries_is_listed_only_up_to_the_limit(tmp_path,
                                                                      monkeypatch):
    monkeypatch.setattr(tree_module, "MAX_MEMBERS", 30)
    for k in range(300):
        write(tmp_path / "Course" / "mallory" / f"f{k}.txt", "x")
    write(tmp_path / "Course" / "alice" / "nb.ipynb", nb())
    listed = []
    entry_node = tree_module._entry_node
    monkeypatch.setattr(tree_module, "_entry_node",
                        lambda *args: listed.append(1) or entry_node(*args))
    with collect(tmp_path) as found:
        subs = by_student(found)
        assert subs["mallory"].problem == ("refused Course/mallory: more than 30 files and "
                                           "folders in one submission; not read")
        assert subs["alice"].path is not None
    assert len(listed) < 100  # not the 300 files


def test_the_whole_walk_is_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(tree_module, "MAX_WALKED", 20)
    write(tmp_path / "alice.ipynb", nb())
    for k in range(5):
        write(tmp_path / "bob" / f"f{k}.ipynb", nb())
    for k in range(15):
        write(tmp_path / "mallory" / f"f{k}.txt", "x")
    write(tmp_path / "zed" / "nb.ipynb", nb())
    with collect(tmp_path) as found:
        subs = by_student(found)
        assert subs["alice"].path is not None
        assert subs["bob"].problem.startswith("several notebooks (bob/f0.ipynb, ")
        why = "the submissions folder holds more than 20 files and folders; the rest is not read"
        assert subs["mallory"].problem == f"refused mallory: {why}"
        assert subs["zed"].problem == f"refused zed: {why}"
    monkeypatch.setattr(tree_module, "MAX_WALKED", 3)
    with pytest.raises(IntakeError) as exc:  # the folder given itself cannot be read
        collect(tmp_path)
    assert str(exc.value) == f"{tmp_path} cannot be read: {why.replace('20', '3')}"


def test_any_error_reading_one_entry_is_that_entrys_problem(tmp_path, monkeypatch):
    write(tmp_path / "alice.ipynb", nb())
    write(tmp_path / "bob" / "nb.ipynb", nb())
    write(tmp_path / "carol" / "nb.ipynb", nb())
    write(tmp_path / "dave" / "a.ipynb", nb())
    write(tmp_path / "dave" / "b.ipynb", nb())
    make_zip(tmp_path / "erin.zip", {"nb.ipynb": nb()})
    list_folder, check_archive = tree_module._list_folder, submissions_module.check_archive

    def failing_list(node, *args):
        if node.name == "bob":
            raise MemoryError()
        if node.name == "carol":
            raise RecursionError("maximum recursion depth exceeded")
        return list_folder(node, *args)

    def failing_check(archive, label, *args):
        if label == "erin.zip":
            raise KeyError("erin")
        return check_archive(archive, label, *args)

    def failing_names(path):
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(tree_module, "_list_folder", failing_list)
    monkeypatch.setattr(submissions_module, "check_archive", failing_check)
    monkeypatch.setattr(submissions_module, "named_assignment", failing_names)
    with collect(tmp_path) as found:
        subs = by_student(found)
        assert sorted(subs) == ["alice", "bob", "carol", "dave"]
        assert subs["alice"].path is not None
        assert subs["bob"].problem == "refused bob: MemoryError"
        assert subs["carol"].problem == ("refused carol: RecursionError: maximum recursion "
                                         "depth exceeded")
        dave = subs["dave"]  # which notebook names the assignment is unknown: a choice
        assert dave.path is None and dave.problem.startswith("several notebooks")
        assert found.refused == ["erin.zip: KeyError: 'erin'"]
