"""What a roster file holds once read: its students, and what its platform says besides.

Each layout's reader (:mod:`.platforms`) turns a :class:`~.tables.Table` into a
:class:`Sheet`; :func:`.roster.read_roster` checks it (ids, e-mails) and keeps it as a
:class:`Roster`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path


@dataclass(frozen=True)
class RosterEntry:
    """One student of the roster, with the line of the file it came from."""

    id: str
    name: str
    email: str = ""
    first_name: str = ""
    last_name: str = ""
    sis_user_id: str = ""
    sis_login_id: str = ""
    section: str = ""
    submission: str = ""
    line: int = 0

    def first_and_last(self) -> tuple[str, str]:
        """The first and last names (split from ``name`` when the file has no columns)."""
        if self.first_name or self.last_name:
            return self.first_name, self.last_name
        if "," in self.name:  # Canvas writes "Last, First"
            last, first = (s.strip() for s in self.name.split(",", 1))
            return first, last
        parts = self.name.split()
        return (" ".join(parts[:-1]), parts[-1]) if len(parts) > 1 else (self.name, "")


@dataclass
class Sheet:
    """A roster file as one layout's reader reads it, before the common checks.

    Attributes
    ----------
    layout
        What the file is, for people (``"Canvas gradebook export"``).
    platform
        Whose ids its ``id`` column holds: ``"canvas"`` (Canvas user ids), ``"moodle"``
        (the participant ids of one Moodle assignment), ``"gradescope"`` (students' own
        ids, or e-mails), ``""`` for the grader's own layout (ids of any kind).
    entries
        The students, in the file's order.
    problems
        What is wrong, each with its line.
    left_out
        Rows read and left out on purpose (Canvas's Test Student, a course's staff), each
        with its line and why.
    maximum
        The assignment's maximum points on the platform, where the file says it
        (Moodle's ``Maximum Grade``, Gradescope's ``Max Points``).
    columns
        Canvas's assignment columns as the file titles them (``Title (id)``), each with
        its ``Points Possible`` (None where the file gives none).
    scale
        The name of the column that says the assignment is graded on a scale rather
        than in points (Moodle's ``Scale``), else ``""``.
    """

    layout: str
    platform: str
    entries: list[RosterEntry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    maximum: Decimal | None = None
    columns: dict[str, Decimal | None] = field(default_factory=dict)
    scale: str = ""


@dataclass
class Roster:
    """A roster read from a file: its layout, its hash and its students.

    The attributes after ``entries`` are those of :class:`Sheet`.
    """

    path: Path
    sha256: str
    layout: str
    entries: list[RosterEntry]
    platform: str = ""
    left_out: list[str] = field(default_factory=list)
    maximum: Decimal | None = None
    columns: dict[str, Decimal | None] = field(default_factory=dict)
    scale: str = ""
