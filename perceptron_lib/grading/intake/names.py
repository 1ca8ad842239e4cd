"""Who sent a file: the student that Moodle's and Canvas's file and folder names name.

Names are also made text here (:func:`name_text`): a name on disk or in a zip is bytes,
and one made on Windows may not be UTF-8 (Windows's zip tool writes names in the DOS
code page; ``unzip`` extracts them as those bytes).  Every name that leaves the intake
is valid text, and says so when it is a guess.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MOODLE = re.compile(r"^(?P<name>[^_]+)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z]+)"
                    r"(?:_(?P<file>.*))?$", re.DOTALL)
CANVAS = re.compile(r"^(?P<name>[^_]+?)(?P<late>_LATE)?_(?P<id>\d+)_(?P<submission>\d+)_"
                    r"(?P<file>.+)$", re.DOTALL)
RESUBMITTED = re.compile(r"-(\d+)$")


@dataclass(frozen=True, order=True)
class Student:
    """Who sent a submission: a name, and the platform's id for that person if known."""

    name: str
    id: str = ""

    def __str__(self) -> str:
        return f"{self.name} ({self.id})" if self.id else self.name

    def keys(self) -> tuple[str, ...]:
        """How an instructor may name this student on the command line (``--choose``,
        ``--only``): ``Name (id)``, the name, or the id."""
        return tuple(k for k in (str(self), self.name, self.id) if k)


@dataclass(frozen=True)
class Named:
    """What a file or folder name says: the student, the layout, and Canvas's marks."""

    student: Student
    layout: str
    late: bool = False
    version: int = 0


def parse_name(name: str, is_folder: bool = False) -> Named | None:
    """The student a Moodle or Canvas file or folder name names, or None for other names.

    Parameters
    ----------
    name
        A file or folder name (no path).
    is_folder
        Whether ``name`` is a folder's: only Moodle's names folders.

    Returns
    -------
    Named or None
        For ``Ada Lovelace_123456_assignsubmission_file_`` (a folder) or
        ``Ada Lovelace_123456_assignsubmission_file_nb.ipynb``: Ada Lovelace, id 123456.
        For Canvas's ``lovelaceada_LATE_42_1001_nb-2.ipynb``: lovelaceada, id 42, late,
        version 2.
    """
    moodle = MOODLE.match(name)
    if moodle and (is_folder or moodle["file"]):
        student = Student(moodle["name"].strip(), moodle["id"])
        return Named(student, "Moodle folder" if is_folder else "Moodle file")
    if is_folder:
        return None
    canvas = CANVAS.match(name)
    if canvas:
        first = canvas["file"].split(".")[0]  # Canvas puts -1 before the first dot
        again = RESUBMITTED.search(first)
        return Named(Student(canvas["name"], canvas["id"]), "Canvas file",
                     late=bool(canvas["late"]), version=int(again[1]) if again else 0)
    return None


# ------------------------------------------------------------------ names as text
#: The code pages a name that is not UTF-8 is read in: Windows's Western code page
#: (names written by Windows programs), then the DOS code pages of Western Europe and
#: of the United States (names written by Windows's own zip tool).
LEGACY_CODE_PAGES = ("cp1252", "cp850", "cp437")


def _legacy(raw: bytes) -> tuple[str, str]:
    """The reading of ``raw`` with the most letters among :data:`LEGACY_CODE_PAGES`,
    the first of them on a tie, and its code page (cp437 reads any bytes).

    Letters decide because the code pages differ where names differ: bytes 0x80-0x9F
    are accented letters in the DOS code pages and punctuation in cp1252 (or nothing),
    bytes 0xC0-0xFF are accented letters in cp1252 and box-drawing in cp437.
    """
    best = ("", "", -1)
    for codec in LEGACY_CODE_PAGES:
        try:
            text = raw.decode(codec)
        except UnicodeDecodeError:
            continue
        letters = sum(c.isalpha() for c in text)
        if letters > best[2]:
            best = (text, codec, letters)
    return best[0], best[1]


def _visible(text: str) -> str:
    """``text`` with its control characters shown as ``\\xNN`` (a name printed in a
    terminal must not move its cursor or clear it)."""
    return "".join(f"\\x{ord(c):02x}" if unicodedata.category(c) == "Cc" else c
                   for c in text)


def name_text(raw: bytes) -> tuple[str, str]:
    """A file or folder name's bytes as text to show, and a note when it is a guess.

    Parameters
    ----------
    raw
        The name's bytes (``os.fsencode`` of a name read on disk).

    Returns
    -------
    (str, str)
        The name decoded as UTF-8 when it is UTF-8, else read in the legacy code page
        that gives the most letters (:func:`_legacy`), with control characters shown
        as ``\\xNN``; never a surrogate.  The note is "" for a UTF-8 name without
        control characters, else says what was read and how.
    """
    try:
        text, note = raw.decode("utf-8"), ""
    except UnicodeDecodeError:
        text, codec = _legacy(raw)
        note = f"the name {raw!r} is not UTF-8: read as {text!r} ({codec}, a guess)"
    shown = _visible(text)
    if shown != text and not note:
        note = f"the name {text!r} holds control characters, shown as \\xNN"
    return shown, note


def as_text(value: str) -> str:
    """``value`` as valid text: a surrogate left in it (a name Python read from bytes
    that are not UTF-8, inside an error message) is shown as ``\\udcNN``."""
    return value.encode("utf-8", "backslashreplace").decode("utf-8")
