"""The class report's table of students: a row per student, what an instructor reads first.

Each row gives the student (the roster's name when a roster row matched, with the name
the submission gave when it differs), the platform's id, the total, the status, whether
the submission was late and by how much (with the late policy: the days, and what says
so; an extension), the adjustments, and a link to the student's feedback page.
"""

from __future__ import annotations

from ..judge.late import CANVAS_LATE, LatePolicy
from ..judge.records import identity
from ..judge.roster import Key, RosterMatch
from . import classstats as cs
from .htmlkit import Raw, count, esc, num, shorten, table

#: How long a status may be in the table (cut at a word boundary; the feedback says all).
STATUS_SHOWN = 90


def late_text(late: LatePolicy | None, k: Key, g: dict) -> str:
    """Whether the student was late, in a few words (``""`` when nothing is known)."""
    marked = CANVAS_LATE in g.get("warnings", [])
    if late is None:
        return "Canvas marks the file LATE (no late policy given)" if marked else ""
    extended = (f"extension to {late.extensions[k]:%Y-%m-%d %H:%M}"
                if k in late.extensions else "")
    lateness = late.lateness(k, g)
    if lateness is not None:
        said = count(lateness.days, "day") + " late"
        said += " (Canvas marks the file LATE; no time known)" if k not in late.times else ""
        return f"{said}; {extended}" if extended else said
    if k in late.times:
        return f"on time; {extended}" if extended else "on time"
    return "; ".join(x for x in ("no time known", extended,
                                 "Canvas marks the file LATE" if marked else "") if x)


def adjustments_text(g: dict) -> str:
    """The record's adjustments in a few words: ``+1 on update; -0.5 late``."""
    parts = []
    for a in g.get("adjustments", []):
        where = "late" if a.get("source") == "late policy" else f"on {a['function']}"
        parts.append(f"{a['points']:+g} {where}")
    return "; ".join(parts)


def _name(g: dict, matched: RosterMatch | None) -> Raw:
    entry = matched.pairs.get(identity(g)) if matched is not None else None
    if entry is None or not entry.name or entry.name == g["student"]:
        return Raw(esc(g["student"]))
    return Raw(f'{esc(entry.name)} <br><span class="muted">submitted as '
               f"{esc(g['student'])}</span>")


def _status(g: dict) -> Raw:
    kind = cs.status_kind(g["status"])
    if kind == "ok":
        return Raw("ok")
    rest = g["status"].strip()
    if rest.lower().startswith(kind):  # "timeout: stopped after..." says its kind once
        rest = rest[len(kind):].lstrip(" :")
    return Raw(f"<strong>{esc(kind)}</strong>" + (f": {esc(shorten(rest, STATUS_SHOWN))}"
                                                  if rest else ""))


def sort_key(g: dict, matched: RosterMatch | None) -> tuple[str, str, str]:
    """Students in the order of the names the table shows."""
    entry = matched.pairs.get(identity(g)) if matched is not None else None
    name = entry.name if entry is not None and entry.name else g["student"]
    return name.casefold(), g["student"], g.get("student_id") or ""


def students_table(records: list[dict], matched: RosterMatch | None,
                   late: LatePolicy | None) -> str:
    """The table of students (sorted by the names it shows)."""
    rows = []
    lates = any(late_text(late, identity(g), g) for g in records)
    for g in sorted(records, key=lambda g: sort_key(g, matched)):
        entry = matched.pairs.get(identity(g)) if matched is not None else None
        ident = g.get("student_id") or (entry.id if entry is not None else "")
        href = g.get("feedback_html", "")
        page = Raw(f'<a href="{esc(href)}">{esc(href.rsplit("/", 1)[-1])}</a>') if href \
            else "—"
        row = [_name(g, matched), ident or "—", f"{num(g['total'])} of {num(g['max'])}",
               _status(g)]
        if lates:
            row.append(late_text(late, identity(g), g) or "—")
        row += [adjustments_text(g) or "—", page]
        rows.append(row)
    headers = ["Student", "Id", "Total", "Status", *(["Late"] if lates else []),
               "Adjustments", "Feedback page"]
    n = len(headers)
    return table(f"The {count(len(records), 'student')}, by name", headers, rows,
                 numeric=[2], wrap=[3, n - 1] + ([4] if lates else []), row_headers=True)
