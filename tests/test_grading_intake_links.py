"""The intake reads a student's own files only: no link is followed out of a submission.

Symbolic links (to a device, to a folder, to the instructor's solutions, to a
classmate's notebook), devices, FIFOs, sockets and files with more than one name are
refused for the student they sit with, never read; every notebook graded is the
intake's own copy, read once from a descriptor that was checked.
"""

import os
import socket
import stat
from pathlib import Path

import pytest
from test_grading_intake import by_student, make_zip, nb, rows_of, run, write

from perceptron_lib.grading.intake import collect

SOLUTION = Path(__file__).resolve().parents[1] / "solutions" / "01_algorithm.ipynb"


def test_a_link_to_dev_zero_is_refused_and_never_read(tmp_path):
    write(tmp_path / "bob.ipynb", nb())
    (tmp_path / "alice").mkdir()
    os.symlink("/dev/zero", tmp_path / "alice" / "nb.ipynb")
    with collect(tmp_path) as found:
        subs = by_student(found)
        assert subs["alice"].path is None
        assert subs["alice"].problem == ("refused alice/nb.ipynb: a symbolic link (to "
                                         "/dev/zero); links are not followed")
        assert subs["bob"].path is not None and subs["bob"].problem == ""


def test_a_link_to_the_solutions_is_refused_and_gets_no_marks(tmp_path, capsys):
    assert SOLUTION.is_file()
    folder = tmp_path / "subs"
    write(folder / "bob.ipynb", "{ not json")
    os.symlink(SOLUTION, folder / "mallory.ipynb")
    code, _, _ = run([folder, "--out", tmp_path / "out", "--assignment", "01_algorithm"],
                     capsys)
    assert code == 0
    rows = {r["student"]: r for r in rows_of(tmp_path / "out")}
    assert rows["mallory"]["status"] == (f"refused mallory.ipynb: a symbolic link (to "
                                         f"{SOLUTION}); links are not followed")
    assert float(rows["mallory"]["total"]) == 0


def test_a_link_to_a_classmates_notebook_is_refused(tmp_path):
    write(tmp_path / "alice" / "nb.ipynb", nb(code="alice = 1"))
    (tmp_path / "mallory").mkdir()
    os.symlink("../alice/nb.ipynb", tmp_path / "mallory" / "nb.ipynb")
    with collect(tmp_path) as found:
        subs = by_student(found)
        assert subs["mallory"].path is None
        assert subs["mallory"].problem == ("refused mallory/nb.ipynb: a symbolic link (to "
                                           "../alice/nb.ipynb); links are not followed")
        assert subs["alice"].source == "alice/nb.ipynb"
        assert "alice = 1" in subs["alice"].path.read_text()


def test_a_link_to_a_folder_is_refused_for_its_student(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    write(elsewhere / "nb.ipynb", nb())
    subs_folder = tmp_path / "subs"
    write(subs_folder / "dave" / "mine.ipynb", nb(code="dave = 1"))
    os.symlink(elsewhere, subs_folder / "carol")
    os.symlink(elsewhere, subs_folder / "dave" / "more")
    with collect(subs_folder) as found:
        subs = by_student(found)
        assert sorted(subs) == ["carol", "dave"]
        assert subs["carol"].path is None
        assert subs["carol"].problem == (f"refused carol: a symbolic link (to {elsewhere}); "
                                         "links are not followed")
        dave = subs["dave"]  # graded on his own notebook, told about the link
        assert dave.source == "dave/mine.ipynb"
        assert dave.notes == [f"refused dave/more: a symbolic link (to {elsewhere}); links "
                              "are not followed"]


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _socket(path: Path) -> None:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.close()


def _device(path: Path) -> None:
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 5))  # as /dev/zero
    except PermissionError:
        pytest.skip("making a device needs the right to (CAP_MKNOD)")


@pytest.mark.parametrize("make, what", [
    (_fifo, "a FIFO (named pipe)"), (_socket, "a socket"), (_device, "a character device")])
def test_special_files_are_refused(tmp_path, make, what):
    (tmp_path / "alice").mkdir()
    make(tmp_path / "alice" / "nb.ipynb")
    write(tmp_path / "bob.ipynb", nb())
    with collect(tmp_path) as found:
        alice = by_student(found)["alice"]
        assert alice.path is None
        assert alice.problem == f"refused alice/nb.ipynb: {what}, not a regular file; not read"


def test_a_file_with_another_name_is_refused(tmp_path):
    instructor = tmp_path / "instructor"
    write(instructor / "solution.ipynb", SOLUTION.read_text())
    subs_folder = tmp_path / "subs"
    (subs_folder / "mallory").mkdir(parents=True)
    os.link(instructor / "solution.ipynb", subs_folder / "mallory" / "nb.ipynb")
    write(subs_folder / "bob.ipynb", nb())
    with collect(subs_folder) as found:
        mallory = by_student(found)["mallory"]
        assert mallory.path is None
        assert mallory.problem == ("refused mallory/nb.ipynb: a file with 2 names (hard "
                                   "links); a file that has a name elsewhere is not read")


def test_a_link_to_a_zip_is_refused(tmp_path):
    make_zip(tmp_path / "elsewhere.zip", {"Ada Lovelace_1_assignsubmission_file_/nb.ipynb":
                                          nb()})
    subs_folder = tmp_path / "subs"
    write(subs_folder / "bob.ipynb", nb())
    os.symlink(tmp_path / "elsewhere.zip", subs_folder / "download.zip")
    with collect(subs_folder) as found:
        assert sorted(by_student(found)) == ["bob"]
        assert found.refused == [f"download.zip: a symbolic link (to {tmp_path}/elsewhere.zip);"
                                 " links are not followed"]


def test_the_submissions_folder_itself_may_be_a_link(tmp_path):
    write(tmp_path / "real" / "alice.ipynb", nb())
    os.symlink(tmp_path / "real", tmp_path / "link")
    with collect(tmp_path / "link") as found:
        (alice,) = found.submissions
        assert (str(alice.student), alice.source, alice.problem) == ("alice", "alice.ipynb", "")


def test_every_notebook_is_the_intakes_own_copy_read_once(tmp_path):
    original = write(tmp_path / "alice.ipynb", nb(code="first = 1"))
    write(tmp_path / "Ada Lovelace_1_assignsubmission_file_" / "work" / "nb.ipynb", nb())
    with collect(tmp_path) as found:
        subs = by_student(found)
        for sub in subs.values():
            assert sub.path.parent == found.staging
        alice = subs["alice"]
        assert (alice.source, alice.layout) == ("alice.ipynb", "plain file")
        assert subs["Ada Lovelace (1)"].source == ("Ada Lovelace_1_assignsubmission_file_/"
                                                   "work/nb.ipynb")
        original.write_text(nb(code="changed = 1"))  # later stages read the copy
        assert "first = 1" in alice.path.read_text()
        staging = found.staging
    assert not staging.exists()


def test_a_notebook_over_the_size_limit_on_disk_is_refused(tmp_path):
    write(tmp_path / "alice.ipynb", nb(code="#" * (21 * 2**20)))
    with collect(tmp_path) as found:
        (alice,) = found.submissions
        assert alice.path is None
        assert alice.problem == ("refused alice.ipynb: 21.0 MiB, more than the 20.0 MiB a "
                                 "notebook may have")
