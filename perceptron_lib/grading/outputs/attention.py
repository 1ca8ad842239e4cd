"""What an instructor must look at after a run, the report's first list.

:func:`items` gathers, from the records and what the run was given, what a person has
to act on or check before the grades go out: the grader's own errors, files that were
refused or could not be read, notebooks of another assignment, submissions stopped by
their time or memory limit or that crashed, students with several notebooks, the
roster's loose ends, students the exports or the feedback zips leave out, totals that
an adjustment took out of range, and late-policy students with no time known.  Each
item names its students and the section of the report with the details.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..judge.late import CANVAS_LATE, LatePolicy
from ..judge.records import display, identity
from ..judge.roster import RosterMatch, display_key
from . import classstats as cs
from .exports import Export
from .feedback_zip import Planned

#: The status kinds that need a person, with what to say and the section to read.
KINDS = [
    ("grader error", "Grader errors: grade these again (--force); an error that comes "
                     "back is the grader's, not the notebook's", "unfinished"),
    ("not a notebook", "Files that are not notebooks, or cannot be read: ask for the "
                       "notebook", "unfinished"),
    ("no notebook", "Submissions with no notebook to grade, or refused", "unfinished"),
    ("several notebooks", "Several notebooks and nothing says which to grade: choose one "
                          "with --choose 'STUDENT=FILE'", "unfinished"),
    ("wrong assignment", "Notebooks of another assignment than the one graded",
     "unfinished"),
    ("no assignment", "Notebooks that name no assignment of the course: grade them with "
                      "--assignment", "unfinished"),
    ("memory", "Stopped at the memory limit", "unfinished"),
    ("timeout", "Stopped at their time limit", "unfinished"),
    ("crashed", "Crashed before finishing", "unfinished"),
    ("cancelled", "Cancelled before they were graded", "unfinished"),
]
#: The start of the note the intake gives a student whose notebook is one of several.
ONE_OF_SEVERAL = " notebooks: graded "


@dataclass
class Item:
    """One thing to look at: what, the students (``Name (id)``) or files it is about, and
    the report's section (its ``id``) with the details."""

    what: str
    section: str
    who: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def _kinds(records: list[dict]) -> list[Item]:
    found = []
    for kind, what, section in KINDS:
        who = sorted(display(g) for g in records if cs.status_kind(g["status"]) == kind)
        if who:
            found.append(Item(what, section, who))
    several = sorted(display(g) for g in records
                     if any(ONE_OF_SEVERAL in w for w in g.get("warnings", [])))
    if several:
        found.append(Item("Graded on one of several notebooks: check that it is the one "
                          "meant (the notes of grades.csv say which)", "students", several))
    return found


def _roster(matched: RosterMatch | None) -> list[Item]:
    if matched is None:
        return []
    found = []
    if matched.unmatched:
        found.append(Item("Submissions with no roster row", "roster",
                          [display_key(k) for k in sorted(matched.unmatched)]))
    if matched.missing:
        found.append(Item("Roster rows with no submission", "roster",
                          files=[f"{e.name} (line {e.line})" for e in matched.missing]))
    return found


def _exports(exports: list[Export]) -> list[Item]:
    found = []
    for e in exports:
        if e.withheld:
            found.append(Item(f"Export not written: {e.path.name}: {e.withheld}", "exports"))
        elif e.skipped:
            found.append(Item(f"Students not in {e.path.name}", "exports",
                              sorted(dict.fromkeys(who for who, _ in e.skipped))))
    return found


def _late(records: list[dict], late: LatePolicy | None) -> list[Item]:
    if late is None:
        return []
    marked = {identity(g) for g in records if CANVAS_LATE in g.get("warnings", [])}
    unknown = [display_key(k) for k in late.unknown if k not in marked]
    if not unknown:
        return []
    return [Item("No submission time in the late policy's file: not penalised",
                 "adjustments", unknown)]


def items(records: list[dict], refused: list[str], matched: RosterMatch | None,
          exports: list[Export], zips: list[Planned],
          late: LatePolicy | None) -> list[Item]:
    """Everything of the run that needs a person, the most urgent first."""
    found = _kinds(records)
    if refused:
        found.insert(1, Item("Archives refused as a whole: their students are not in the "
                             "gradebook", "unfinished", files=list(refused)))
    found += _roster(matched)
    found += _exports(exports)
    for z in zips:
        if z.left_out:
            found.append(Item(f"Students not in {z.file}", "platforms",
                              [display_key(k) for k, _ in z.left_out]))
    odd = [display(g) for g in records
           if g.get("adjustments") and not 0 <= g["total"] <= g["max"]]
    if odd:
        found.append(Item("Totals outside 0 to the maximum after adjustment",
                          "adjustments", odd))
    return found + _late(records, late)
