"""Who sent a file: the student that Moodle's and Canvas's file and folder names name."""

from __future__ import annotations

import re
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
