"""Per-student extensions of the late policy's deadline.

An extension is given per student, as a number of extra days or as the student's own
deadline, in one cell::

    student,extension
    Ada Lovelace (123456),2
    alan.turing@example.org,2025-03-05 23:59

- as the column ``extension`` of the submission times file (``--submitted``), beside
  ``student`` and ``submitted`` (a row may give an extension and no time);
- or in a file of its own (``--extensions FILE``), with the columns ``student`` and
  ``extension``, when the times come from Moodle's worksheet, which has no such column.

Extra days may be a decimal (``1.5`` is a day and a half); a deadline is written as
``--deadline`` is (ISO 8601, or as Moodle writes times).  An extension that ends before
the class's deadline is refused, and so is a student given two extensions.  A student
with an extension is late only after their own deadline (:mod:`.late`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .roster import Key, RosterMatch, display_key, find_students
from .tables import decimal, read_table, require
from .times import parse_time

COLUMN = "extension"


def parse_extension(text: str, deadline: datetime) -> datetime:
    """The deadline an extension gives: ``"2"`` is two days after ``deadline``, a date
    and time is the new deadline itself.

    Raises
    ------
    ValueError
        Neither a number of days nor a time, fewer than 0 days, or a time before
        ``deadline``; the message says what to write.
    """
    days = decimal(text)
    if days is not None:
        if days < 0 or not math.isfinite(float(days)):
            raise ValueError(f"extension {text!r}: a number of extra days is 0 or more")
        return deadline + timedelta(days=float(days))
    try:
        when = parse_time(text)
    except ValueError:
        raise ValueError(f"extension {text!r} is neither a number of extra days (2, 1.5) "
                         "nor a deadline (2025-03-05 23:59)") from None
    if when < deadline:
        raise ValueError(f"extension {text!r} ends before the class's deadline "
                         f"{deadline:%Y-%m-%d %H:%M}")
    return when


@dataclass
class Extensions:
    """Each student's own deadline, and the lines that gave them (for messages)."""

    deadlines: dict[Key, datetime] = field(default_factory=dict)
    lines: dict[Key, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def add(self, rows: list[tuple[int, str, str]], path: str, deadline: datetime,
            keys: list[Key], matched: RosterMatch | None) -> None:
        """Record the extensions of ``rows``, ``(line, student, extension)`` each (an
        empty extension is none) of the file ``path``, or the problem of each row, with
        its line."""
        for line, who, text in rows:
            if not text:
                continue
            at = f"line {line}"
            found = find_students(who, keys, matched)
            if len(found) != 1:
                self.problems.append(f"{at}: " + (f"no student {who!r} in this run"
                                                  if not found
                                                  else f"{who!r} could be several students"))
                continue
            try:
                when = parse_extension(text, deadline)
            except ValueError as exc:
                self.problems.append(f"{at}: {exc}")
                continue
            k = found[0]
            if k in self.deadlines:
                self.problems.append(f"{at}: {display_key(k)} already has an extension "
                                     f"({self.lines[k]})")
                continue
            self.deadlines[k] = when
            self.lines[k] = f"line {line} of {path}"


def read_extensions(path: str, deadline: datetime, keys: list[Key],
                    matched: RosterMatch | None, into: Extensions) -> str:
    """Read ``--extensions FILE`` into ``into`` (its rows' problems too); the file's
    SHA-256.

    Raises
    ------
    InputError
        The file cannot be read, or has no ``student`` or ``extension`` column.
    """
    table = read_table(path, "extensions file")
    cols = require(table, "extensions file", {"student": ("student", "name", "id"),
                                              COLUMN: (COLUMN, "extra days")})
    into.problems += table.problems
    into.add([(line, row[cols["student"]], row[cols[COLUMN]]) for line, row in table.rows],
             str(path), deadline, keys, matched)
    return table.sha256
