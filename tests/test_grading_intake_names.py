"""Names that are not UTF-8 leave the intake as text, and say when the text is a guess.

A zip made on Windows names its files in a DOS code page; extracted with ``unzip``,
the names on disk are those bytes (``b'M\\x81ller.ipynb'``), which Python reads with
surrogates that no file or terminal can take.  The intake opens the file by its real
name and shows it decoded: UTF-8, else the legacy code page reading with the most
letters (cp1252, cp850, cp437, in that order on a tie), with a note.
"""

import os
import stat
import zipfile

import pytest
from test_grading_intake import by_student, make_zip, nb, rows_of, run

from perceptron_lib.grading.intake import collect
from perceptron_lib.grading.intake.names import name_text


def make_bytes_file(folder, name: bytes, text: str) -> None:
    with open(os.path.join(os.fsencode(folder), name), "w") as fh:
        fh.write(text)


def all_text(found) -> list[str]:
    """Every string about the students that leaves the intake."""
    texts = [found.summary(), *found.refused, *found.skipped]
    for s in found.submissions:
        texts += [s.student.name, s.source, s.problem, *s.notes]
    return texts


def assert_valid_text(found) -> None:
    for text in all_text(found):
        text.encode("utf-8")  # raises UnicodeEncodeError for a surrogate


@pytest.mark.parametrize("raw, text, codec", [
    (b"M\xc3\xbcller", "Müller", ""),  # UTF-8: sure
    (b"M\x81ller", "Müller", "cp850"),  # DOS: 0x81 is not in cp1252
    (b"M\xfcller", "Müller", "cp1252"),  # Windows: more letters than in cp850
    (b"Jos\x82", "José", "cp850"),  # cp1252 reads a quotation mark: fewer letters
    (b"Fran\xe7ois", "François", "cp1252"),  # as many letters: cp1252 first
])
def test_a_name_is_read_as_utf8_else_as_the_code_page_with_most_letters(raw, text, codec):
    shown, note = name_text(raw)
    assert shown == text
    if codec:
        assert note == f"the name {raw!r} is not UTF-8: read as {text!r} ({codec}, a guess)"
    else:
        assert note == ""


def test_control_characters_in_a_name_are_shown_escaped():
    shown, note = name_text(b"a\x1b[2Jb")
    assert shown == "a\\x1b[2Jb"
    assert note == "the name 'a\\x1b[2Jb' holds control characters, shown as \\xNN"


def test_a_dos_name_on_disk_is_read_and_shown_as_text(tmp_path):
    make_bytes_file(tmp_path, b"M\x81ller.ipynb", nb(code="m = 1"))
    os.mkdir(os.path.join(os.fsencode(tmp_path), b"Fran\xe7ois"))
    make_bytes_file(tmp_path / "François".encode("cp1252").decode("utf-8", "surrogateescape"),
                    b"nb.ipynb", nb())
    make_bytes_file(tmp_path, b"notes.\xff", "x")
    os.symlink(b"/nowhere/\xff", os.path.join(os.fsencode(tmp_path), b"link\xff.ipynb"))
    with collect(tmp_path) as found:
        assert_valid_text(found)
        subs = by_student(found)
        assert sorted(subs) == ["François", "Müller", "linkÿ"]
        muller = subs["Müller"]
        assert muller.source == "Müller.ipynb" and "m = 1" in muller.path.read_text()
        assert muller.notes == ["the name b'M\\x81ller.ipynb' is not UTF-8: read as "
                                "'Müller.ipynb' (cp850, a guess)"]
        assert subs["François"].source == "François/nb.ipynb"
        assert subs["linkÿ"].problem == ("refused linkÿ.ipynb: a symbolic link (to "
                                         "/nowhere/ÿ); links are not followed")
        assert dict(found.skipped) == {".ÿ": 1}


def test_a_dos_name_on_disk_reaches_the_gradebook(tmp_path, capsys):
    folder = tmp_path / "subs"
    folder.mkdir()
    make_bytes_file(folder, b"M\x81ller.ipynb", "{ not json")
    code, printed, _ = run([folder, "--out", tmp_path / "out"], capsys)
    assert code == 0
    assert "note: Müller: the name b'M\\x81ller.ipynb' is not UTF-8" in printed
    (row,) = rows_of(tmp_path / "out")
    assert (row["student"], row["file"]) == ("Müller", "Müller.ipynb")
    assert "not UTF-8" in row["notes"]
    assert (tmp_path / "out" / "feedback" / "Müller.txt").is_file()


def dos_zip(path, members: dict[bytes, str]) -> None:
    """A zip whose member names are the bytes given, without the UTF-8 flag."""
    placeholders = {}
    with zipfile.ZipFile(path, "w") as zf:
        for k, (raw, text) in enumerate(members.items()):
            stand_in = f"{k:0{len(raw)}d}"[-len(raw):]
            placeholders[stand_in.encode()] = raw
            zf.writestr(stand_in, text)
    data = path.read_bytes()
    for stand_in, raw in placeholders.items():
        data = data.replace(stand_in, raw)
    path.write_bytes(data)


def test_a_dos_name_in_a_zip_is_a_noted_guess(tmp_path):
    dos_zip(tmp_path / "moodle.zip", {
        b"M\x81ller Hans_5_assignsubmission_file_/nb.ipynb": nb(),
        b"Jos\x82 Ruiz_6_assignsubmission_file_/nb.ipynb": nb()})
    with collect(tmp_path) as found:
        assert_valid_text(found)
        subs = by_student(found)
        assert sorted(subs) == ["José Ruiz (6)", "Müller Hans (5)"]
        assert subs["Müller Hans (5)"].notes == [
            "the name b'M\\x81ller Hans_5_assignsubmission_file_/nb.ipynb' is not UTF-8: "
            "read as 'Müller Hans_5_assignsubmission_file_/nb.ipynb' (cp850, a guess)"]


def test_a_refused_archive_with_a_dos_name_is_named_as_text(tmp_path):
    with zipfile.ZipFile(tmp_path / "links.zip", "w") as zf:
        link = zipfile.ZipInfo("xx.ipynb")
        link.create_system = 3
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
    os.rename(tmp_path / "links.zip", os.path.join(os.fsencode(tmp_path), b"M\x81ller.zip"))
    make_zip(tmp_path / "ok.zip", {"alice.ipynb": nb()})
    with collect(tmp_path) as found:
        assert_valid_text(found)
        assert found.refused == ["Müller.zip: member 'xx.ipynb' is a symbolic link"]
