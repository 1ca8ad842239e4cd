"""The rows of one platform's export file: who is in it, with which id, on which scale.

:func:`rows` builds the rows of one assignment's file (:mod:`.exports` writes it), and
notes in its :class:`Sheet` the students left out and why, and the warnings.  The id
of each student is chosen as :mod:`.exports` describes; every grade is put on the
platform's scale (:class:`.scale.Scale`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal

from ..judge.records import pending
from ..judge.roster import Key, Roster, RosterEntry, RosterMatch, display_key
from . import csvsafe
from .scale import Scale

PARTICIPANT = "Participant "
#: The ids each platform's file names carry, and each platform's roster, for messages.
ID_KINDS = {"moodle": "Moodle participant id", "canvas": "Canvas user id",
            "gradescope": "Gradescope e-mail"}
PLATFORM_FILES = {"moodle": "the assignment's grading worksheet",
                  "canvas": "the course's gradebook export",
                  "gradescope": "a roster with e-mails"}


@dataclass
class Sheet:
    """What one file holds besides its rows: who is left out, warnings, empty rows."""

    skipped: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    empty: int = 0  # roster rows exported without a grade (no submission)


@dataclass
class Context:
    """What the rows of one file are made from, besides the records."""

    system: str
    assignment: str
    scale: Scale
    grader_max: float
    matched: RosterMatch | None = None
    roster: Roster | None = None
    kinds: dict[Key, str] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)  # assignment -> its file's name


def points(value: float) -> str:
    """Points as the platforms read them: ``7``, ``7.5``, ``2.769`` (a dot, no exponent)."""
    text = f"{round(float(value), 3):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def number(value: float) -> Decimal:
    """Points for a cell: written as :func:`points` writes them, and as a number (never
    quoted or prefixed by :mod:`.csvsafe`)."""
    return Decimal(points(value))


def key_of(g: dict) -> Key:
    """Who a record is about: (name, id)."""
    return g["student"], g.get("student_id") or ""


def _check_key(sheet: Sheet, who: str, what: str, value: str) -> None:
    """Warn when a cell the platform matches students by is changed by :mod:`.csvsafe`."""
    if value != csvsafe.neutralise(value):
        sheet.warnings.append(f"{who}: the {what} {value!r} starts as a spreadsheet formula "
                              "does, so it is written with a ' before it, and the platform "
                              "may not match it")


def _id_for(c: Context, g: dict | None, entry: RosterEntry | None) -> str:
    """The platform's id of a student (see :mod:`.exports` for the order); never an id
    known to be another platform's, nor a roster's of another platform."""
    sid = str(g.get("student_id") or "") if g is not None else ""
    kind = c.kinds.get(key_of(g), "") if g is not None else ""
    if sid and kind == c.system:
        return sid
    platform = c.roster.platform if c.roster is not None else ""
    if entry is not None and platform == c.system:
        return entry.id
    if sid and not kind:
        return sid
    return entry.id if entry is not None and not platform else ""


def _no_id(c: Context, g: dict | None) -> str:
    """Why a student has no id of this platform (the end of the sentence)."""
    kind = c.kinds.get(key_of(g), "") if g is not None else ""
    if g is not None and kind and kind != c.system:
        return (f": its id {g['student_id']} is a {ID_KINDS[kind]} (from the file names), "
                f"not a {ID_KINDS[c.system]}; give {PLATFORM_FILES[c.system]} as --roster")
    return ": add the student to the roster"


def _comment(g: dict, scaled: tuple[Decimal, Decimal] | None) -> str:
    """A short account of the grade for the platform's feedback column."""
    on = f" ({scaled[0]} of {scaled[1]} on this assignment's scale)" if scaled else ""
    parts = [f"Score {points(g['total'])} of {points(g['max'])}{on}."]
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


def _entries(c: Context, group: list[dict], others: list[dict], unknown: list[dict],
             sheet: Sheet) -> list[tuple[dict | None, RosterEntry | None]]:
    """The records of the file with their roster rows, then the roster rows with no
    submission; a student graded as another assignment is named, not left empty."""
    pairs = c.matched.pairs if c.matched else {}
    entries: list[tuple[dict | None, RosterEntry | None]] = [(g, pairs.get(key_of(g)))
                                                             for g in group]
    for g in others:
        where = c.files.get(g["assignment"], "")
        sheet.skipped.append((display_key(key_of(g)), (
            f"graded as {g['assignment']}, the assignment its notebook names"
            + (f", so in {where}" if where else "")
            + f": grade with --assignment {c.assignment} to have it in this file")))
    if c.matched is not None and c.roster is not None:
        placed = {pairs[key_of(g)].line for g in group + unknown + others if key_of(g) in pairs}
        entries += [(None, e) for e in c.roster.entries if e.line not in placed]
    return entries


def rows(c: Context, group: list[dict], others: list[dict], unknown: list[dict],
         sheet: Sheet) -> list[list]:
    """The rows of one file (after its header), on the platform's scale.

    Parameters
    ----------
    c
        The platform, assignment, scale and roster.
    group
        The records of the assignment.
    others
        The records graded as another of the run's assignments (named in ``sheet``).
    unknown
        The records with no assignment (their roster rows are not exported empty).
    sheet
        Receives who is left out and why, the warnings, the rows without a grade.
    """
    out: list[list] = []
    now = _now()
    for g, entry in _entries(c, group, others, unknown, sheet):
        who = (display_key(key_of(g)) if g is not None
               else f"{entry.name} (roster line {entry.line})")
        name = entry.name if entry is not None else g["student"]
        email = entry.email if entry is not None else ""
        gmax = (g["max"] or c.grader_max) if g is not None else c.grader_max
        total = number(c.scale.convert(g["total"], gmax)) if g is not None else ""
        top = number(c.scale.top(gmax))
        status = g["status"] if g is not None else "no submission"
        if g is not None and pending(g):  # no grade yet: the LMS keeps what it has
            sheet.skipped.append((who, f"no grade yet ({status.split(':')[0].split(' (')[0]}"
                                       "): see the report's list of what needs attention"))
            continue
        if c.system == "canvas":
            ident = _id_for(c, g, entry)
            sis = (entry.sis_user_id, entry.sis_login_id, entry.section) if entry else ("",) * 3
            if not ident and not any(sis[:2]):
                sheet.skipped.append((who, f"no Canvas id{_no_id(c, g)}"))
                continue
            for what, value in (("Canvas id", ident), ("SIS user id", sis[0]),
                                ("SIS login id", sis[1])):
                _check_key(sheet, who, what, value)
            out.append([name, ident, *sis, total])
        elif c.system == "moodle":
            ident = _id_for(c, g, entry)
            if not ident:
                sheet.skipped.append((who, f"no Moodle participant id{_no_id(c, g)}"))
                continue
            if g is not None and (total > top or total < 0):
                sheet.warnings.append(f"{who}: {total} is outside 0 to {top}; Moodle skips "
                                      "a grade outside the assignment's range")
            scaled = (total, top) if g is not None and c.scale.maximum is not None \
                and top != number(gmax) else None
            out.append([f"{PARTICIPANT}{ident}", name, email, status, total,
                        top if g is not None else "", "Yes", "",
                        now if g is not None else "", _comment(g, scaled) if g else ""])
        else:
            if not email:
                sheet.skipped.append((who, "no e-mail, which Gradescope needs: give a "
                                           "roster with e-mails (--roster)"))
                continue
            first, last = entry.first_and_last() if entry else (name, "")
            own = c.roster is not None and c.roster.platform == "gradescope"
            sid = (entry.sis_user_id or ("" if own else entry.id)) if entry else ""
            _check_key(sheet, who, "SID", sid)
            _check_key(sheet, who, "e-mail", email)
            out.append([first, last, sid, email, total, top if g is not None else "", status])
        if g is None:
            sheet.empty += 1
    return out
