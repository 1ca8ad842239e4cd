"""One grading run's records, read back from its ``OUT/results.json`` for the course table.

``results.json`` is the grader's own file, but the course table reads it as any file
given on the command line: within bounds (a regular file of at most
:data:`MAX_BYTES`, JSON nested no deeper than the parser allows) and checked field by
field.  Whatever is wrong raises :class:`CourseError` naming the file, and the record
and field where one is at fault; nothing is guessed or skipped.
"""

from __future__ import annotations

import json
import math
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ..intake.names import parse_name

#: The largest results.json read (a class of thousands, every case's detail).
MAX_BYTES = 256 * 1024**2
#: How many records a run may hold.
MAX_RECORDS = 100_000
#: The longest name, id, assignment or status kept.
MAX_TEXT = 1000


class CourseError(Exception):
    """A file or option of the course table is wrong; the message names it."""


@dataclass
class Record:
    """What the course table needs of one grade record."""

    student: str
    student_id: str
    assignment: str | None
    total: float
    max: float
    status: str
    email: str = ""
    source: str = ""

    @property
    def id_kind(self) -> str:
        """``"canvas"`` or ``"moodle"`` when the id came from the platform's file names
        (a Canvas user id is the same for every assignment, a Moodle participant id is
        not); ``""`` otherwise."""
        if not self.student_id:
            return ""
        path = self.source.rpartition(": ")[2]
        parts = path.split("/")
        named = parse_name(parts[0], is_folder=len(parts) > 1)
        if named is None or named.student.id != self.student_id:
            return ""
        return "canvas" if named.layout.startswith("Canvas") else "moodle"


@dataclass
class Run:
    """One grading run: its folder and records."""

    folder: Path
    records: list[Record]

    @property
    def assignments(self) -> list[str]:
        """The assignments its records name, sorted."""
        return sorted({r.assignment for r in self.records if r.assignment})


def _load(path: Path) -> object:
    """The JSON of ``path``, read within bounds."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise CourseError(f"{path}: cannot be read ({exc.strerror or exc}): give the "
                          "output folder of a grading run") from exc
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise CourseError(f"{path}: not a regular file")
        data = fh.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise CourseError(f"{path}: larger than {MAX_BYTES // 1024**2} MiB")
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)[:200]
        raise CourseError(f"{path}: not the JSON a grading run writes ({why})") from exc


def _text(value: object, where: str, field: str, optional: bool = False) -> str:
    if value is None and optional:
        return ""
    if not isinstance(value, str):
        raise CourseError(f"{where}: {field} is {type(value).__name__}, not text")
    return value[:MAX_TEXT]


def _number(value: object, where: str, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(
            value):
        raise CourseError(f"{where}: {field} is {value!r:.40}, not a finite number")
    return float(value)


def record_of(g: object, where: str) -> Record:
    """One record of ``grades``, checked (``where`` names it in messages)."""
    if not isinstance(g, dict):
        raise CourseError(f"{where}: not a record (an object with student, total, max...)")
    for name in ("student", "assignment", "total", "max", "status"):
        if name not in g:
            raise CourseError(f"{where}: no {name}")
    assignment = g["assignment"]
    if assignment is not None:
        assignment = _text(assignment, where, "assignment") or None
    return Record(student=_text(g["student"], where, "student"),
                  student_id=_text(g.get("student_id"), where, "student_id", optional=True),
                  assignment=assignment,
                  total=_number(g["total"], where, "total"),
                  max=_number(g["max"], where, "max"),
                  status=_text(g["status"], where, "status"),
                  email=_text(g.get("email"), where, "email", optional=True),
                  source=_text(g.get("source"), where, "source", optional=True))


def read_run(folder: Path) -> Run:
    """The records of the grading run whose output folder is ``folder``.

    Raises
    ------
    CourseError
        No ``results.json`` there, or one that is not what the grader writes.
    """
    path = Path(folder) / "results.json"
    data = _load(path)
    grades = data.get("grades") if isinstance(data, dict) else None
    if not isinstance(grades, list):
        raise CourseError(f"{path}: no list of grades (is it a grading run's results.json?)")
    if len(grades) > MAX_RECORDS:
        raise CourseError(f"{path}: more than {MAX_RECORDS} records")
    records = [record_of(g, f"{path}: grades[{k}]") for k, g in enumerate(grades)]
    return Run(Path(folder), records)
