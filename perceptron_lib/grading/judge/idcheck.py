"""The roster's ids checked against the download's, before anything is graded.

Moodle numbers the participants of each assignment anew: the names of an assignment's
submission download (``Ada Lovelace_123456_assignsubmission_file_``) carry the
participant ids of that assignment, and its grading worksheet (``Participant 123456``)
the same ones.  Another assignment's worksheet has other numbers for the same students;
with it, every submission would fall back to its name, and an export would carry ids
that Moodle skips, or that are other students' in this assignment.  Canvas's user ids
are the same in every course of a Canvas site: a gradebook export whose ids are not the
download's is another course's.

:func:`check_ids` refuses a platform's roster when fewer than half of the ids that the
download's file names give for that platform are in it (none, usually), and says which
file to download instead.  A few ids missing (a student who joined after the worksheet
was downloaded) are not an error: those students are reported unmatched.
"""

from __future__ import annotations

from collections.abc import Iterable

from .roster import Key, Roster
from .tables import InputError

#: How a submission was recognised (the intake's ``layout``) to the platform of its id.
PLATFORM_OF_LAYOUT = {"Moodle folder": "moodle", "Moodle file": "moodle",
                      "Canvas file": "canvas"}

#: What to download instead, by platform, when the ids are another assignment's.
ADVICE = {
    "moodle": ("these participant ids belong to another assignment: download the grading "
               "worksheet of this assignment's page (Moodle numbers the participants of "
               "each assignment anew)"),
    "canvas": ("these Canvas user ids are not the download's: export the gradebook of the "
               "course the submissions were downloaded from"),
}
WHAT = {"moodle": "participant ids", "canvas": "Canvas user ids"}
#: How many of the download's ids the roster must hold (a share of them).
ENOUGH = 0.5
SHOWN = 5


def kinds_of(students: Iterable[tuple[Key, str]]) -> dict[Key, str]:
    """The platform whose file names gave each student's id.

    Parameters
    ----------
    students
        ``((name, id), layout)`` per submission, ``layout`` as the intake says it.

    Returns
    -------
    dict
        ``"moodle"``, ``"canvas"`` or ``""`` (no id, or a name of no platform) per student.
    """
    return {k: (PLATFORM_OF_LAYOUT.get(layout, "") if k[1] else "") for k, layout in students}


def check_ids(roster: Roster, kinds: dict[Key, str]) -> None:
    """Refuse a platform's roster that holds too few of the download's ids of that platform.

    Raises
    ------
    InputError
        Fewer than half of the ids are in the roster: the message says how many, shows
        some that are not, and which file to use.
    """
    platform = roster.platform
    if platform not in ADVICE:
        return
    ids = sorted({k[1] for k, kind in kinds.items() if kind == platform}, key=_number)
    if not ids:
        return
    known = {e.id for e in roster.entries}
    found = [i for i in ids if i in known]
    if len(found) >= ENOUGH * len(ids):
        return
    absent = [i for i in ids if i not in known]
    shown = ", ".join(absent[:SHOWN]) + (" ..." if len(absent) > SHOWN else "")
    theirs = sorted(known, key=_number)
    sample = ", ".join(theirs[:SHOWN]) + (" ..." if len(theirs) > SHOWN else "")
    raise InputError(f"roster {roster.path} ({roster.layout})", [
        f"{len(found)} of the {len(ids)} {WHAT[platform]} of the download's file names "
        f"are in it (not {shown}; it has {sample}): {ADVICE[platform]}"])


def _number(text: str) -> tuple[int, str]:
    return (int(text), "") if text.isdigit() else (0, text)
