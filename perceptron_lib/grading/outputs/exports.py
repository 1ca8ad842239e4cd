"""Grades in the CSV layouts that learning platforms import, with no spreadsheet work.

``--export canvas``, ``--export moodle``, ``--export gradescope`` (repeatable) write
``OUT/export-canvas.csv`` and so on, one row per student, with the final total
(adjustments included).  When a run holds several assignments, each gets its own file
(``export-canvas-01_algorithm.csv``), since a platform imports one assignment's column
at a time.

The layouts, and the versions followed:

- **Canvas** (the Gradebook's "Import" of a CSV file, as documented for Canvas LMS in
  2024-2025; Instructure's guide "How do I import grades in the Gradebook?", and
  university guides that restate it, such as Ohio State's "Import a CSV file into
  Carmen grades"): the columns ``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID``,
  ``Section``, then one column per assignment.  Canvas matches students by ``ID`` (its
  user id, the number in the names of the files of Canvas's bulk download) or by the
  SIS ids.  The assignment's column is matched by its title as in the gradebook's own
  export, ``Title (assignment id)``: pass it with ``--canvas-column``, or Canvas offers
  to create a new assignment named after the course's (``01_algorithm``).  The second
  row is ``    Points Possible`` with the assignment's points, as in Canvas's own
  export (``lib/gradebook_exporter.rb``; its importer,
  ``app/models/gradebook_importer.rb``, sets an assignment's points from that row): a new
  column gets its points so; for an existing column the row is written only where its
  points are known (from the roster or ``--points``), so that it never changes them.
  ``--canvas-column`` is used, or refused before grading: without ``--export canvas``,
  with a run of several assignments, or when the gradebook export given as the roster
  has no such column.
- **Moodle** (the assignment's offline grading worksheet, read by
  ``mod/assign/feedback/offline``'s importer, unchanged from Moodle 2.3 to 4.x): the
  columns of the worksheet Moodle's "Download grading worksheet" writes,
  ``Identifier``, ``Full name``, ``Email address``, ``Status``, ``Grade``,
  ``Maximum Grade``, ``Grade can be changed``, ``Last modified (submission)``,
  ``Last modified (grade)``, ``Feedback comments``.  The importer reads
  ``Identifier`` (``Participant 123456``: the participant id of the names of Moodle's
  download), ``Grade``, ``Last modified (grade)`` (it skips a grade changed in Moodle
  after that time, so the time written is the export's) and the feedback columns.  It
  also skips a grade above the assignment's maximum grade in Moodle or below zero: the
  terminal and the report list those.
- **Gradescope** (an assignment's scores, in the layout of Gradescope's own score
  export, whose first columns ``First Name``, ``Last Name``, ``SID``, ``Email``,
  ``Total Score``, ``Max Points``, ``Status`` Gradescope's score upload matches by
  ``Email`` or ``SID``; Gradescope's public help pages describe the upload but not its
  columns, so the layout follows the export, as of 2024-2025): Gradescope needs the
  e-mail, which only a roster gives.

A student is exported with the id the intake read from the submission's file names when
they are the platform's own (Moodle's participant id wins over the worksheet's), else
with the platform's id from the roster (``--roster``) when the roster is that
platform's own file, else with an id from a file name of no platform, else with the id
of the grader's own roster layout.  An id known to be another platform's (a Canvas user
id from Canvas's file names, in a Moodle export) is never written: it could be another
student's id there.  A student with no such id
(for Gradescope: no e-mail) is not exported and is listed, with the reason, in the
terminal, the report and ``results.json``; so is a roster row with no submission,
which is exported with an empty grade (the platforms leave an empty grade unchanged).

Every grade is exported on the platform's scale (:mod:`.scale`): the assignment's points
on the platform, read from the roster or given with ``--points``; a full mark of 9 of 9
is exported as 100 where the assignment is worth 100 points, and the terminal says so.

A student graded as another of the run's assignments (the notebook named it, and no
``--assignment`` was given) is in that assignment's file, and each other file names
them with the reason (with a roster, their row is not exported empty there).

No file is written for an assignment when most of the notebooks graded as it name
another assignment in their metadata (``--assignment`` overrode them): the download, or
``--assignment``, is probably not the one meant, and the grades would go to the
platform's column of another assignment.  The terminal says so, and a file the last run
wrote under that name is removed, so that no stale file is imported.

The files are safe to open in a spreadsheet (:mod:`.csvsafe`): a name, a status or a
comment that starts as a formula does (``=``, ``+``, ``-``, ``@``) gets a leading single
quote, and the points are written as numbers.  The platforms' ids (digits, or
``Participant 123456``) are never changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..assignments import ASSIGNMENTS
from ..judge.roster import Key, Roster, RosterMatch, display_key
from . import csvsafe, outdir
from .classstats import assignments as assignments_of
from .export_rows import PARTICIPANT, Context, Sheet, key_of, number, points, rows
from .htmlkit import count
from .scale import Scale

__all__ = ["CANVAS", "GRADESCOPE", "MOODLE", "PARTICIPANT", "SYSTEMS", "Export", "points",
           "summary_lines", "write_exports"]

SYSTEMS = ("canvas", "moodle", "gradescope")
CANVAS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE = ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade",
          "Grade can be changed", "Last modified (submission)", "Last modified (grade)",
          "Feedback comments"]
GRADESCOPE = ["First Name", "Last Name", "SID", "Email", "Total Score", "Max Points", "Status"]
#: The first cell of Canvas's row of each assignment's points, as Canvas writes it.
POINTS_POSSIBLE = "    Points Possible"
WRONG = "wrong assignment"


@dataclass
class Export:
    """One file written: its platform, path, rows, and the students left out (and why)."""

    system: str
    assignment: str
    path: Path
    rows: int = 0
    empty: int = 0  # roster rows exported without a grade (no submission)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    withheld: str = ""  # why no file was written, if none was
    scale: str = ""  # the points the grades are on, and where they come from
    notes: list[str] = field(default_factory=list)
    maximum: float = 0.0  # the platform's maximum the grades are on
    grader_max: float = 0.0

    def record(self) -> dict:
        """What ``results.json`` keeps of the export."""
        return {"system": self.system, "assignment": self.assignment, "file": self.path.name,
                "written": not self.withheld, "withheld": self.withheld,
                "rows": self.rows, "without_submission": self.empty,
                "points": {"maximum": self.maximum, "grader_maximum": self.grader_max,
                           "scale": self.scale},
                "skipped": [{"student": s, "why": w} for s, w in self.skipped],
                "warnings": self.warnings, "notes": self.notes}


def _withheld(group: list[dict], assignment: str) -> str:
    """Why no file is written for ``group`` (most of its notebooks name another
    assignment), or ``""``."""
    wrong = [g for g in group if str(g.get("status", "")).startswith(WRONG)]
    if not group or len(wrong) * 2 <= len(group):
        return ""
    named: dict[str, int] = {}
    for g in wrong:
        found = re.search(r"the notebook is (\S+),", g["status"])
        other = found[1] if found else "another"
        named[other] = named.get(other, 0) + 1
    names = ", ".join(f"{a} ({n})" for a, n in sorted(named.items()))
    return (f"no file written: {len(wrong)} of the {len(group)} notebooks graded as "
            f"{assignment} name another assignment in their metadata ({names}); check "
            "--assignment and the download, since these grades would go to the wrong "
            "assignment on the platform")


def grader_maximum(assignment: str, group: list[dict]) -> float:
    """The points the grader gives ``assignment`` (from the course, else the records)."""
    if assignment in ASSIGNMENTS:
        return float(sum(t.points for t in ASSIGNMENTS[assignment]))
    return max((float(g["max"]) for g in group), default=0.0)


def _wrong_ones(export: Export, group: list[dict]) -> None:
    """Name the notebooks of another assignment that were graded as this one."""
    for g in group:
        if str(g.get("status", "")).startswith(WRONG):
            export.warnings.append(f"{display_key(key_of(g))}: {g['status'].split(';')[0]}; "
                                   "exported with that grade")


def _canvas_header(export: Export, c: Context, column: str, canvas_column: str | None,
                   roster: Roster | None) -> list[list]:
    """The header and the Points Possible row of a Canvas file (see the docstring)."""
    known = c.scale.maximum is not None
    pp = number(c.scale.top(c.grader_max))
    if canvas_column is None:
        export.notes.append(
            f"Canvas makes a new assignment {column!r} of {pp} points from this file; give "
            "--canvas-column 'Title (id)' to fill an assignment Canvas has"
            + (f" (the gradebook export has {', '.join(repr(t) for t in roster.columns)})"
               if roster is not None and roster.columns else ""))
    elif not known:
        export.notes.append(f"no Points Possible row: the points of {column!r} in Canvas "
                            "are not known, and Canvas keeps them")
    header = [[*CANVAS, column]]
    if canvas_column is None or known:
        header.append([POINTS_POSSIBLE, "", "", "", "", pp])
    return header


def write_exports(out: Path, systems: list[str], grades: list[dict],
                  matched: RosterMatch | None = None, roster: Roster | None = None,
                  canvas_column: str | None = None,
                  kinds: dict[Key, str] | None = None,
                  scales: dict[str, Scale] | None = None) -> list[Export]:
    """Write one file per platform (and assignment) into ``out``; what each holds.

    Parameters
    ----------
    out
        The output folder.
    systems
        Some of :data:`SYSTEMS` (repeated ones are written once).
    grades
        The final records (adjustments applied).
    matched, roster
        The roster and its match with the submissions, if a roster was given.
    canvas_column
        The title of the assignment's column in Canvas (``Title (id)``); the assignment's
        name (a new column) if None.
    kinds
        The platform whose file names gave each student's id (``"moodle"``,
        ``"canvas"`` or ``""``), if known.
    scales
        The platform's scale of each system (:func:`.scale.resolve`); the grader's own
        points for a system not in it.

    Returns
    -------
    list of Export

    Raises
    ------
    ValueError
        ``canvas_column`` with records of several assignments (the command refuses
        this before grading).
    """
    present = assignments_of(grades)
    unknown = [g for g in grades if g["assignment"] not in present]
    if canvas_column and len(present) > 1 and "canvas" in systems:
        raise ValueError(f"one Canvas column for {len(present)} assignments")
    done: list[Export] = []
    for system in dict.fromkeys(systems):
        files = {a: (f"export-{system}.csv" if len(present) <= 1
                     else f"export-{system}-{a}.csv") for a in present or [""]}
        for assignment, name in files.items():
            export = Export(system, assignment, out / name)
            done.append(export)
            group = sorted((g for g in grades if g["assignment"] == assignment), key=key_of)
            others = sorted((g for g in grades if g["assignment"] in present
                             and g["assignment"] != assignment), key=key_of)
            scale = (scales or {}).get(system, Scale())
            c = Context(system, assignment, scale, grader_maximum(assignment, group),
                        matched if present else None, roster, kinds or {}, files)
            export.maximum, export.grader_max = c.scale.top(c.grader_max), c.grader_max
            export.scale = scale.describe(system, c.grader_max, points(c.grader_max),
                                          points(export.maximum))
            export.withheld = _withheld(group, assignment)
            if export.withheld:
                if export.path.is_file():
                    export.path.unlink()
                    export.withheld += f" (the {name} of the last run was removed)"
                export.warnings.append(export.withheld)
                continue
            _wrong_ones(export, group)
            column = canvas_column or assignment
            header = ({"moodle": [MOODLE], "gradescope": [GRADESCOPE]}.get(system)
                      or _canvas_header(export, c, column, canvas_column, roster))
            sheet = Sheet()
            body = rows(c, group, others, unknown, sheet)
            export.rows, export.empty = len(body), sheet.empty
            export.skipped += sheet.skipped
            export.warnings += sheet.warnings
            with outdir.replacing(export.path, newline="") as fh:
                writer = csvsafe.writer(fh)
                writer.writerows(header)
                writer.writerows(body)
        export.skipped += [(display_key(key_of(g)), "no assignment (the notebook could not "
                            "be read): grade with --assignment to export it with 0 points")
                           for g in unknown]
    return done


def summary_lines(exports: list[Export], shown: int = 10) -> list[str]:
    """What the terminal says of the exports: the files, their scale, then who is not in
    them, once per reason (the report lists them all)."""
    lines = []
    left: dict[str, dict[str, list[str]]] = {}
    for e in exports:
        if e.withheld:
            lines.append(f"export: {e.path}: {e.withheld}")
            continue
        extra = (f", {count(e.empty, 'roster row')} without a submission (empty grade)"
                 if e.empty else "")
        lines.append(f"export: {e.path} ({count(e.rows, 'row')}{extra})")
        lines.append(f"export: {e.scale}")
        lines += [f"  note: {n}" for n in e.notes]
        for who, why in e.skipped:
            left.setdefault(why, {}).setdefault(who, []).append(e.path.name)
        lines += [f"  warning: {w}" for w in e.warnings[:shown]]
        if len(e.warnings) > shown:
            lines.append(f"  ... and {len(e.warnings) - shown} more warnings (the report "
                         "lists them all)")
    for why, students in left.items():
        files = sorted({f for names in students.values() for f in names})
        names = list(students)
        more = f" and {len(names) - shown} more" if len(names) > shown else ""
        lines.append(f"  not in {', '.join(files)}: {count(len(names), 'student')}, {why}: "
                     f"{', '.join(names[:shown])}{more}")
    return lines

