"""Canvas's gradebook export (the Gradebook's "Export Entire Gradebook"), read as a roster.

The file as Canvas LMS writes it (``lib/gradebook_exporter.rb``) and reads it back on
import (``app/models/gradebook_importer.rb``), 2015 to 2025:

- the header: ``Student`` (or ``LastName``, ``FirstName`` where the course shows split
  names), ``ID`` (the Canvas user id), ``SIS User ID`` (only for a user allowed to see
  SIS ids), ``SIS Login ID``, ``Integration ID`` and ``Root Account`` (with the SIS ids,
  at some institutions), ``Section``, the course's custom columns, a column per
  assignment titled ``Title (assignment id)``, then the totals (``Current Score``...);
- a row with ``Manual Posting`` under each assignment whose grades are posted by hand
  (``Muted`` before 2019), every other cell empty, when any assignment is;
- the row ``    Points Possible``, with each assignment's points as Canvas writes
  numbers (two decimals: ``100.00``, or ``100,00`` in a language that writes a decimal
  comma, the file then separated by semicolons) and ``(read only)`` under the totals;
- the students, by sortable name (``Lovelace, Ada``; a name that starts with ``=``
  written ``="=..."``), then the course's Test Student, the account of Student View:
  ``Student, Test`` (in the course's language), whose SIS Login ID is a 40-digit
  hexadecimal hash and who has no SIS User ID.

The special rows are recognised as Canvas's importer recognises them: the first cell
holds ``Points Possible``; every non-empty cell is ``Muted`` or ``Manual Posting...``.
The Test Student is left out (named in the roster's ``left_out``), never a student.
"""

from __future__ import annotations

import re
from decimal import Decimal

from ..roster_rows import RosterEntry, Sheet
from ..tables import Table, decimal, key

LAYOUT = "Canvas gradebook export"
#: Columns after ``Section`` that are Canvas's totals, not assignments (with
#: ``Unposted`` before them, an assignment group's name, or a grading period after).
TOTALS = re.compile(r"Current Score|Current Points|Current Grade|Final Score|Final Points|"
                    r"Final Grade|Override Score|Override Grade|Override Status")
TITLE_WITH_ID = re.compile(r"^(?P<title>.*?)\s*\((?P<id>\d+)\)$")
HIDDEN = re.compile(r"^\s*(Muted|Manual Posting.*)?\s*$", re.IGNORECASE)
TEST_LOGIN = re.compile(r"^[0-9a-f]{40}$")
TEST_NAMES = {"student, test", "test student"}
READ_ONLY = "(read only)"


def recognises(table: Table) -> bool:
    """Whether the header is a Canvas gradebook export's (as Canvas's importer checks it,
    with a ``Section`` column)."""
    c = table.columns
    named = ((len(c) > 3 and "Student" in c[0] and "ID" in c[1])
             or (len(c) > 4 and "LastName" in c[0] and "FirstName" in c[1] and "ID" in c[2]))
    return named and table.has("Section")


def assignment_columns(table: Table) -> list[str]:
    """The assignment columns of the header, as titled there (``Title (id)``)."""
    after = table.columns[[key(c) for c in table.columns].index("section") + 1:]
    return [c for c in after if TITLE_WITH_ID.match(c) and not TOTALS.search(c)]


def column_id(title: str) -> str:
    """The assignment id of a column title ``Title (id)``, or ``""``."""
    found = TITLE_WITH_ID.match(title.strip())
    return found["id"] if found else ""


def _name(row: dict[str, str]) -> tuple[str, str, str]:
    """(name, first name, last name) of a row, undoing Canvas's ``="=..."``."""
    if "student" in row:
        name = row["student"]
        quoted = re.fullmatch(r'="(.*)"', name)
        return (quoted[1] if quoted else name), "", ""
    first, last = row.get("firstname", ""), row.get("lastname", "")
    return " ".join(p for p in (first, last) if p), first, last


def _points(sheet: Sheet, line: int, row: dict[str, str], columns: list[str]) -> None:
    for title in columns:
        text = row.get(key(title), "")
        value = decimal(text)
        if text and value is None and text != READ_ONLY:
            sheet.problems.append(f"line {line}: the Points Possible of {title!r} is "
                                  f"{text!r}, not a number")
        sheet.columns[title] = value


def _is_test_student(name: str, row: dict[str, str]) -> bool:
    login, sis = row.get("sisloginid", ""), row.get("sisuserid", "")
    return name.casefold() in TEST_NAMES or (bool(TEST_LOGIN.match(login)) and not sis)


def read(table: Table) -> Sheet:
    """The students of a gradebook export, its assignment columns and their points."""
    sheet = Sheet(LAYOUT, "canvas")
    columns = assignment_columns(table)
    sheet.columns = dict.fromkeys(columns)
    first_key = "student" if "student" in {key(c) for c in table.columns} else "lastname"
    for line, row in table.rows:
        if "Points Possible" in row.get(first_key, ""):
            _points(sheet, line, row, columns)
            continue
        if all(HIDDEN.match(v) for v in row.values()):
            continue  # the row of Manual Posting (or Muted) assignments
        name, first, last = _name(row)
        if _is_test_student(name, row):
            sheet.left_out.append(f"line {line}: {name}, Canvas's Test Student (the account "
                                  "of Student View), not a student")
            continue
        ident = row.get("id", "")
        if ident and not ident.isdigit():
            sheet.problems.append(f"line {line}: the ID {ident!r} is not a Canvas user id "
                                  "(digits)")
        sheet.entries.append(RosterEntry(ident, name, "", first_name=first, last_name=last,
                                         sis_user_id=row.get("sisuserid", ""),
                                         sis_login_id=row.get("sisloginid", ""),
                                         section=row.get("section", ""), line=line))
    return sheet


def points_of(columns: dict[str, Decimal | None], title: str) -> tuple[str, Decimal | None]:
    """The column of ``columns`` that ``title`` names, and its points; ``("", None)`` if
    none does.  A column is named by its assignment id, as Canvas's importer finds it, or
    by its whole title."""
    wanted = column_id(title)
    for column, value in columns.items():
        if (wanted and column_id(column) == wanted) or column.strip() == title.strip():
            return column, value
    return "", None
