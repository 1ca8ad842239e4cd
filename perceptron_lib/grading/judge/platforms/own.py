"""The grader's own roster layout: ``id``, ``name``, ``email``, and optional columns.

The optional columns are ``first_name``, ``last_name``, ``sis_user_id``,
``sis_login_id``, ``section`` and ``submission`` (the name of the student's notebook or
folder, where it is neither the name nor the id).  The ids may be of any platform.
"""

from __future__ import annotations

from ..roster_rows import RosterEntry, Sheet
from ..tables import Table, key, require

LAYOUT = "id, name, email"
PLAIN = {"id": ("id", "student id", "user id"), "name": ("name", "full name"),
         "email": ("email", "e-mail", "email address")}
OPTIONAL = ("first_name", "last_name", "sis_user_id", "sis_login_id", "section", "submission")


def recognises(table: Table) -> bool:
    """Any header: a file of no platform is read as this layout (which names what is
    missing)."""
    return True


def read(table: Table) -> Sheet:
    """The students of the file.

    Raises
    ------
    InputError
        A required column is missing.
    """
    cols = require(table, "roster", PLAIN)
    present = {key(c) for c in table.columns}
    sheet = Sheet(LAYOUT, "")
    for line, row in table.rows:
        extra = {name: row.get(key(name), "") for name in OPTIONAL if key(name) in present}
        sheet.entries.append(RosterEntry(row[cols["id"]], row[cols["name"]],
                                         row[cols["email"]], line=line, **extra))
    return sheet
