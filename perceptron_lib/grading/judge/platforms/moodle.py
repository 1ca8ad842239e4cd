"""Moodle's offline grading worksheet (an assignment's "Download grading worksheet"),
read as a roster.

The file as Moodle writes it (``mod/assign/gradingtable.php`` downloading, with the
strings of ``mod/assign/lang/en/assign.php``), unchanged from Moodle 2.3 to 4.x:
``Identifier`` (``Participant 123456``), ``Full name`` and the identity fields the site
shows (``Email address``, ``ID number``...; neither with blind marking), ``Status``,
``Group`` (group submissions), ``Marker`` (marking allocation), ``Grade``,
``Maximum Grade`` (``Scale`` where the assignment is graded on a scale), ``Marking
workflow state``, ``Grade can be changed``, ``Last modified (submission)``, the
submissions' text columns, ``Last modified (grade)``, the feedback columns
(``Feedback comments``).  The grade and the maximum are written with the grade item's
decimals (``100.00``, with a comma in a language that writes one).

The participant id is Moodle's number for the student *in this assignment* (its
``assign_user_mapping``): the names of the same assignment's submission download carry
it, and another assignment's worksheet numbers the same students differently.
"""

from __future__ import annotations

import re

from ..roster_rows import RosterEntry, Sheet
from ..tables import Table, decimal

LAYOUT = "Moodle grading worksheet"
#: ``Participant 123456``, in any language (Moodle's string ``hiddenuser`` and the id).
PARTICIPANT = re.compile(r"^[^\W\d_]+\.?\s*(\d+)$")


def recognises(table: Table) -> bool:
    """Whether the header is a grading worksheet's (it has ``Identifier``)."""
    return table.has("Identifier")


def read(table: Table) -> Sheet:
    """The participants of a worksheet, and the assignment's maximum grade."""
    sheet = Sheet(LAYOUT, "moodle")
    sheet.scale = "Scale" if table.has("Scale") and not table.has("Maximum Grade") else ""
    maxima: dict[object, int] = {}
    for line, row in table.rows:
        ident = row.get("identifier", "")
        found = PARTICIPANT.match(ident)
        if ident and not found:
            sheet.problems.append(f"line {line}: the Identifier {ident!r} is not Moodle's "
                                  "'Participant 123456'")
        text = row.get("maximumgrade", "")
        if text:
            value = decimal(text)
            if value is None:
                sheet.problems.append(f"line {line}: the Maximum Grade {text!r} is not a "
                                      "number")
            maxima.setdefault(value, line)
        sheet.entries.append(RosterEntry(found[1] if found else "", row.get("fullname", ""),
                                         row.get("emailaddress", ""),
                                         sis_user_id=row.get("idnumber", ""), line=line))
    numbers = {v: line for v, line in maxima.items() if v is not None}
    if len(numbers) > 1:
        shown = ", ".join(f"{v} on line {line}" for v, line in numbers.items())
        sheet.problems.append(f"the Maximum Grade is not the same on every row ({shown}): "
                              "a worksheet is one assignment's")
    elif numbers:
        sheet.maximum = next(iter(numbers))
    return sheet
