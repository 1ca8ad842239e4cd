"""Gradescope's course roster, or an assignment's score export, read as a roster.

Gradescope's help ("Adding Students and Staff", 2024-2025) describes the roster CSV a
course's Roster page takes: a header row, each member's name in one column (``Name``)
or as ``First Name`` and ``Last Name``, a unique ``Email`` per member, and optionally
``SID`` (the student's own id) and sections.  The roster the same page downloads has
``First Name``, ``Last Name``, ``SID``, ``Email``, ``Role`` and ``Sections``; an
assignment's score export starts ``First Name``, ``Last Name``, ``SID``, ``Email`` and has
``Total Score``, ``Max Points`` and ``Status``.

Gradescope knows a student by e-mail: a row's id is its ``SID``, or its e-mail where the
SID is empty.  A member whose ``Role`` is not ``Student`` (an instructor, a TA, a
reader) is left out.  ``Max Points`` gives the assignment's maximum.
"""

from __future__ import annotations

from decimal import Decimal

from ..roster_rows import RosterEntry, Sheet
from ..tables import Table, decimal

LAYOUT = "Gradescope roster"
#: The grader's own layout's id columns: a file with one is the grader's layout.
OWN_IDS = ("id", "student id", "user id")


def recognises(table: Table) -> bool:
    """Whether the header is Gradescope's: an ``Email`` and an ``SID``, or an ``Email``
    and the names with no id column of the grader's own layout."""
    if not table.has("Email"):
        return False
    names = table.has("Name") or table.has("Full Name") or table.has("First Name", "Last Name")
    return table.has("SID") or (names and not any(table.has(c) for c in OWN_IDS))


def read(table: Table) -> Sheet:
    """The students of the roster (staff left out), and ``Max Points`` if it has it."""
    sheet = Sheet(LAYOUT, "gradescope")
    maxima: dict[Decimal, int] = {}
    for line, row in table.rows:
        role = row.get("role", "")
        first, last = row.get("firstname", ""), row.get("lastname", "")
        name = (row.get("name", "") or row.get("fullname", "")
                or " ".join(p for p in (first, last) if p))
        if role and role.casefold() != "student":
            sheet.left_out.append(f"line {line}: {name or row.get('email', '')}, "
                                  f"{role} of the course, not a student")
            continue
        text = row.get("maxpoints", "")
        if text:
            value = decimal(text)
            if value is None:
                sheet.problems.append(f"line {line}: the Max Points {text!r} is not a "
                                      "number")
            else:
                maxima.setdefault(value, line)
        sid, email = row.get("sid", ""), row.get("email", "")
        sheet.entries.append(RosterEntry(sid or email, name, email, first_name=first,
                                         last_name=last, sis_user_id=sid,
                                         section=row.get("sections", "")
                                         or row.get("section", ""), line=line))
    if len(maxima) > 1:
        shown = ", ".join(f"{v} on line {line}" for v, line in maxima.items())
        sheet.problems.append(f"the Max Points is not the same on every row ({shown})")
    elif maxima:
        sheet.maximum = next(iter(maxima))
    return sheet
