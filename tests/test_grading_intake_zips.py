"""A zip among students' files is one student's archive, or refused: never a class.

A zip with a plain name in a folder is read as a platform's bulk download only when
everything in it is named as the platforms name submissions and nothing beside it is a
student's own file; a zip with no platform-named entry is the archive of the student
its stem names; anything else is refused, naming the zip and saying why.
"""

import json
import zipfile

from test_grading_intake import by_student, make_zip, nb, write

from perceptron_lib.grading.intake import collect


def code_of(submission) -> str:
    return json.loads(submission.path.read_text())["cells"][0]["source"]


def future_zip(path, name: str, text: str) -> None:
    """A zip holding one file dated far in the future (the newest of any)."""
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(zipfile.ZipInfo(name, date_time=(2099, 1, 1, 0, 0, 0)), text)


def test_a_classmates_name_in_a_students_zip_replaces_nothing(tmp_path):
    write(tmp_path / "alice.ipynb", nb(code="alice = 1"))
    write(tmp_path / "bob.ipynb", nb(code="bob = 1"))
    future_zip(tmp_path / "mallory.zip", "alice.ipynb", nb(code="pass  # blank"))
    with collect(tmp_path, "01_algorithm") as found:
        subs = by_student(found)
        assert sorted(subs) == ["alice", "bob", "mallory"]
        alice = subs["alice"]
        assert (alice.source, alice.notes, code_of(alice)) == ("alice.ipynb", [], "alice = 1")
        mallory = subs["mallory"]  # the blank notebook is the zip's student's
        assert (mallory.source, mallory.layout) == ("mallory.zip: alice.ipynb",
                                                    "student archive")
        assert code_of(mallory) == "pass  # blank"
        assert found.refused == []


def test_a_students_zip_in_the_given_zip_is_that_students(tmp_path):
    inner = tmp_path / "inner.zip"
    future_zip(inner, "alice.ipynb", nb(code="pass  # blank"))
    make_zip(tmp_path / "download.zip", {"alice.ipynb": nb(code="alice = 1"),
                                         "mallory.zip": inner.read_bytes()})
    with collect(tmp_path / "download.zip") as found:
        subs = by_student(found)
        assert sorted(subs) == ["alice", "mallory"]
        assert code_of(subs["alice"]) == "alice = 1"
        assert subs["mallory"].source == "download.zip: mallory.zip: alice.ipynb"


def test_a_students_zip_with_folders_is_all_that_students(tmp_path):
    write(tmp_path / "alice.ipynb", nb())
    make_zip(tmp_path / "carol.zip", {"work/a.ipynb": nb(code="a = 1"),
                                      "work/b.ipynb": nb(code="b = 1"),
                                      "bob/nb.ipynb": nb(code="c = 1")})
    with collect(tmp_path) as found:
        subs = by_student(found)
        assert sorted(subs) == ["alice", "carol"]
        assert subs["carol"].problem.startswith("several notebooks (carol.zip: ")


def test_a_platform_zip_among_students_files_is_refused(tmp_path):
    write(tmp_path / "alice.ipynb", nb(code="alice = 1"))
    make_zip(tmp_path / "mallory.zip", {
        "Alice Smith_1_assignsubmission_file_/nb.ipynb": nb(code="pass"),
        "smithalice_1_2_nb.ipynb": nb(code="pass")})
    with collect(tmp_path) as found:
        assert sorted(by_student(found)) == ["alice"]
        assert found.refused == [
            "mallory.zip: holds platform-named submissions but sits among students' own "
            "files: give it to the grader on its own"]


def test_a_platform_zip_beside_student_folders_is_refused(tmp_path):
    write(tmp_path / "alice" / "nb.ipynb", nb())
    make_zip(tmp_path / "download.zip", {"smithalice_1_2_nb.ipynb": nb()})
    with collect(tmp_path) as found:
        assert sorted(by_student(found)) == ["alice"]
        assert found.refused == [
            "download.zip: holds platform-named submissions but sits among students' own "
            "files: give it to the grader on its own"]


def test_a_zip_of_platform_names_and_plain_names_is_refused(tmp_path):
    make_zip(tmp_path / "moodle.zip", {"Ada Lovelace_1_assignsubmission_file_/nb.ipynb": nb()})
    make_zip(tmp_path / "mallory.zip", {"smithalice_1_2_nb.ipynb": nb(),
                                        "alice.ipynb": nb(), "notes.txt": "x"})
    with collect(tmp_path) as found:
        assert sorted(by_student(found)) == ["Ada Lovelace (1)"]
        assert found.refused == [
            "mallory.zip: holds both platform-named submissions (smithalice_1_2_nb.ipynb) "
            "and other notebooks or folders (alice.ipynb): neither a platform's download "
            "nor one student's archive"]


def test_bulk_downloads_in_a_folder_of_their_own_are_read(tmp_path):
    make_zip(tmp_path / "moodle.zip", {
        "Course-Assignment 1/Ada Lovelace_1_assignsubmission_file_/nb.ipynb": nb(),
        "Course-Assignment 1/Alan Turing_2_assignsubmission_file_/nb.ipynb": nb()})
    make_zip(tmp_path / "canvas.zip", {"hopperg_3_4_nb.ipynb": nb(), "notes.txt": "x"})
    write(tmp_path / "readme.txt", "from the platforms")
    with collect(tmp_path) as found:
        assert sorted(by_student(found)) == ["Ada Lovelace (1)", "Alan Turing (2)",
                                             "hopperg (3)"]
        assert found.refused == []
