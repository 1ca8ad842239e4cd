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
  to create a new assignment named after the course's (``01_algorithm``).
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
platform's own file, else with the id the intake read from the file name, else with the
roster's ``id``.  A student with no such id
(for Gradescope: no e-mail) is not exported and is listed, with the reason, in the
terminal, the report and ``results.json``; so is a roster row with no submission,
which is exported with an empty grade (the platforms leave an empty grade unchanged).

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
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

from ..judge.roster import Key, Roster, RosterEntry, RosterMatch, display_key
from . import csvsafe, outdir
from .classstats import assignments as assignments_of
from .htmlkit import count

SYSTEMS = ("canvas", "moodle", "gradescope")
CANVAS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE = ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade",
          "Grade can be changed", "Last modified (submission)", "Last modified (grade)",
          "Feedback comments"]
GRADESCOPE = ["First Name", "Last Name", "SID", "Email", "Total Score", "Max Points", "Status"]
PARTICIPANT = "Participant "


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

    def record(self) -> dict:
        """What ``results.json`` keeps of the export."""
        return {"system": self.system, "assignment": self.assignment, "file": self.path.name,
                "written": not self.withheld, "withheld": self.withheld,
                "rows": self.rows, "without_submission": self.empty,
                "skipped": [{"student": s, "why": w} for s, w in self.skipped],
                "warnings": self.warnings}


def points(value: float) -> str:
    """Points as the platforms read them: ``7``, ``7.5``, ``2.769`` (a dot, no exponent)."""
    text = f"{round(float(value), 3):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _number(value: float) -> Decimal:
    """Points for a cell: written as :func:`points` writes them, and as a number (never
    quoted or prefixed by :mod:`.csvsafe`)."""
    return Decimal(points(value))


def _check_key(export: Export, who: str, what: str, value: str) -> None:
    """Warn when a cell the platform matches students by is changed by :mod:`.csvsafe`."""
    if value != csvsafe.neutralise(value):
        export.warnings.append(f"{who}: the {what} {value!r} starts as a spreadsheet formula "
                               "does, so it is written with a ' before it, and the platform "
                               "may not match it")


def _key(g: dict) -> Key:
    return g["student"], g.get("student_id") or ""


def _id_for(system: str, g: dict | None, entry: RosterEntry | None,
            roster: Roster | None, kinds: dict[Key, str]) -> str:
    """The platform's id of a student (see the module's docstring for the order)."""
    if g is not None and g.get("student_id") and kinds.get(_key(g)) == system:
        return str(g["student_id"])
    own = roster is not None and roster.platform == system
    if entry is not None and own:
        return entry.id
    if g is not None and g.get("student_id"):
        return str(g["student_id"])
    return entry.id if entry is not None else ""


def _comment(g: dict) -> str:
    """A short account of the grade for the platform's feedback column."""
    parts = [f"Score {points(g['total'])} of {points(g['max'])}."]
    for t in g.get("tasks", []):
        parts.append(f"{t['name']}: {t['passed']} of {t['cases']} cases right.")
    for a in g.get("adjustments", []):
        where = "" if a["function"] == "total" else f" on {a['function']}"
        parts.append(f"Adjusted {a['points']:+g}{where}: {a['reason']}.")
    if g["status"] != "ok":
        parts.append(f"Status: {g['status']}.")
    return " ".join(parts)


def _now() -> str:
    return datetime.now(UTC).astimezone().isoformat(timespec="seconds")


def _rows(system: str, group: list[dict], matched: RosterMatch | None, roster: Roster | None,
          export: Export, unknown: list[dict], kinds: dict[Key, str]) -> list[list[str]]:
    rows: list[list[str]] = []
    pairs = matched.pairs if matched else {}
    now = _now()
    entries: list[tuple[dict | None, RosterEntry | None]] = [(g, pairs.get(_key(g)))
                                                             for g in group]
    if matched is not None and roster is not None:  # roster rows with no submission here
        here = {pairs[_key(g)].line for g in group + unknown if _key(g) in pairs}
        entries += [(None, e) for e in roster.entries if e.line not in here]
    for g, entry in entries:
        who = display_key(_key(g)) if g is not None else f"{entry.name} (roster line {entry.line})"
        name = entry.name if entry is not None else g["student"]
        email = entry.email if entry is not None else ""
        total = _number(g["total"]) if g is not None else ""
        maximum = _number(g["max"]) if g is not None else ""
        status = g["status"] if g is not None else "no submission"
        if system == "canvas":
            ident = _id_for("canvas", g, entry, roster, kinds)
            sis = (entry.sis_user_id, entry.sis_login_id, entry.section) if entry else ("",) * 3
            if not ident and not any(sis[:2]):
                export.skipped.append((who, "no Canvas id: add the student to the roster"))
                continue
            for what, value in (("Canvas id", ident), ("SIS user id", sis[0]),
                                ("SIS login id", sis[1])):
                _check_key(export, who, what, value)
            rows.append([name, ident, *sis, total])
        elif system == "moodle":
            ident = _id_for("moodle", g, entry, roster, kinds)
            if not ident:
                export.skipped.append((who, "no Moodle participant id: add the student to "
                                            "the roster"))
                continue
            if g is not None and (g["total"] > g["max"] or g["total"] < 0):
                export.warnings.append(f"{who}: {total} is outside 0 to {maximum}; Moodle "
                                       "skips a grade outside the assignment's range")
            rows.append([f"{PARTICIPANT}{ident}", name, email, status, total, maximum, "Yes",
                         "", now if g is not None else "", _comment(g) if g else ""])
        else:
            if not email:
                export.skipped.append((who, "no e-mail, which Gradescope needs: give a "
                                            "roster with e-mails (--roster)"))
                continue
            first, last = entry.first_and_last() if entry else (name, "")
            sid = (entry.sis_user_id or entry.id) if entry else ""
            _check_key(export, who, "SID", sid)
            _check_key(export, who, "e-mail", email)
            rows.append([first, last, sid, email, total, maximum, status])
        if g is None:
            export.empty += 1
    export.rows = len(rows)
    return rows


WRONG = "wrong assignment"


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


def write_exports(out: Path, systems: list[str], grades: list[dict],
                  matched: RosterMatch | None = None, roster: Roster | None = None,
                  canvas_column: str | None = None,
                  kinds: dict[Key, str] | None = None) -> list[Export]:
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
        name if None.
    kinds
        The platform whose file names gave each student's id (``"moodle"``,
        ``"canvas"`` or ``""``), if known.

    Returns
    -------
    list of Export
    """
    present = assignments_of(grades)
    unknown = [g for g in grades if g["assignment"] not in present]
    done: list[Export] = []
    for system in dict.fromkeys(systems):
        for assignment in present or [""]:
            name = (f"export-{system}.csv" if len(present) <= 1
                    else f"export-{system}-{assignment}.csv")
            export = Export(system, assignment, out / name)
            group = sorted((g for g in grades if g["assignment"] == assignment), key=_key)
            column = canvas_column if canvas_column and len(present) == 1 else assignment
            header = {"canvas": [*CANVAS, column], "moodle": MOODLE,
                      "gradescope": GRADESCOPE}[system]
            done.append(export)
            export.withheld = _withheld(group, assignment)
            if export.withheld:
                if export.path.is_file():
                    export.path.unlink()
                    export.withheld += f" (the {name} of the last run was removed)"
                export.warnings.append(export.withheld)
                continue
            rows = _rows(system, group, matched if present else None, roster, export, unknown,
                         kinds or {})
            with outdir.replacing(export.path, newline="") as fh:
                writer = csvsafe.writer(fh)
                writer.writerow(header)
                writer.writerows(rows)
        export.skipped += [(display_key(_key(g)), "no assignment (the notebook could not be "
                            "read): grade with --assignment to export it with 0 points")
                           for g in unknown]
    return done


def summary_lines(exports: list[Export], shown: int = 10) -> list[str]:
    """What the terminal says of the exports: the files, then who is not in them, once per
    reason (the report lists them all)."""
    lines = []
    left: dict[str, dict[str, list[str]]] = {}
    for e in exports:
        extra = (f", {count(e.empty, 'roster row')} without a submission (empty grade)"
                 if e.empty else "")
        if e.withheld:
            lines.append(f"export: {e.path}: {e.withheld}")
            continue
        lines.append(f"export: {e.path} ({count(e.rows, 'row')}{extra})")
        for who, why in e.skipped:
            left.setdefault(why, {}).setdefault(who, []).append(e.path.name)
        lines += [f"  warning: {w}" for w in e.warnings[:shown]]
    for why, students in left.items():
        files = sorted({f for names in students.values() for f in names})
        names = list(students)
        more = f" and {len(names) - shown} more" if len(names) > shown else ""
        lines.append(f"  not in {', '.join(files)}: {count(len(names), 'student')}, {why}: "
                     f"{', '.join(names[:shown])}{more}")
    return lines
