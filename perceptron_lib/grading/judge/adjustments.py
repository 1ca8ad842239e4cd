"""Adjustments a person makes to grades: a regrade request, a penalty, an answer read by hand.

``--adjustments FILE`` is a CSV file with the columns ``student``, ``function``,
``points`` and ``reason``, one adjustment a row::

    student,function,points,reason
    Ada Lovelace (123456),update,+1.5,regrade request: case 4 accepted after discussion
    alan.turing@example.org,total,-2,copied the explanation cell (see e-mail of 3 March)
    lovelaceada,total,3,free-text answer of question 5, read by hand

- ``student``: the student as the gradebook shows them (``Name (id)``), the id, the
  name when no other student has it, or, with ``--roster``, the e-mail or roster id.
- ``function``: a graded function of the student's assignment, or ``total`` for points
  that belong to no function.
- ``points``: a number, with a sign or not (``1.5``, ``+1.5``, ``-2``).
- ``reason``: said to the student in the feedback, so write it for them.

A student may have several rows, for several functions or several reasons; two rows
with the same student, function and reason are refused as a duplicate.  Every problem
of the file (a missing column, an unknown student or function, points that are not a
number, a duplicate) is reported with its line, and nothing is graded until the file
is right.

The adjustments are applied after grading, to the grader's points, on every run:
whether a submission was graded again (``--force``, a changed notebook) or taken from
the last run unchanged, its record keeps the grader's points (``graded_points``,
``graded_total``) and gets the adjustments on top (:func:`apply`), so they never add
up twice and are never lost.  ``results.json`` records the file's rows and SHA-256; a
later run without ``--adjustments`` applies the same rows again and says so
(``--no-adjustments`` drops them).
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from .roster import Key, RosterMatch, display_key, find_students, normalise
from .tables import InputError, read_table, require

TOTAL = "total"
COLUMNS = {"student": ("student", "name", "id"), "function": ("function", "task", "question"),
           "points": ("points", "adjustment"), "reason": ("reason", "comment", "why")}


@dataclass(frozen=True)
class Adjustment:
    """Points added to (or taken from) one student's function or total, and why."""

    student: str
    function: str
    points: float
    reason: str
    source: str = ""

    def as_dict(self) -> dict:
        """The adjustment as ``results.json`` and the records keep it."""
        return asdict(self)


@dataclass
class AdjustmentFile:
    """The rows of an adjustments file, with where they came from."""

    path: str
    sha256: str
    rows: list[tuple[int, Adjustment]]

    def record(self) -> dict:
        """What ``results.json`` keeps of the file, so that a later run can apply it."""
        return {"file": self.path, "sha256": self.sha256,
                "rows": [{"line": line, **a.as_dict()} for line, a in self.rows]}

    @classmethod
    def from_record(cls, data: dict) -> AdjustmentFile:
        """The inverse of :meth:`record`."""
        rows = [(int(r["line"]), Adjustment(r["student"], r["function"], float(r["points"]),
                                            r["reason"], r.get("source", "")))
                for r in data["rows"]]
        return cls(str(data["file"]), str(data["sha256"]), rows)


def parse_points(text: str) -> float:
    """A number of points as people write them (``2``, ``+1.5``, ``-0.25``).

    Raises
    ------
    ValueError
        Not a finite number; the message suggests a fix for a decimal comma.
    """
    cleaned = text.strip().replace("\u2212", "-")  # a typographic minus sign
    try:
        value = float(cleaned)
    except ValueError:
        hint = f" (write {cleaned.replace(',', '.')})" if "," in cleaned else ""
        raise ValueError(f"points {text!r} is not a number{hint}") from None
    if not math.isfinite(value):
        raise ValueError(f"points {text!r} is not a finite number")
    return value


def read_adjustments(path: Path) -> AdjustmentFile:
    """Read and check an adjustments file (every problem at once, with its line).

    Raises
    ------
    InputError
        A missing column, an empty student, function or reason, points that are not a
        number, a duplicate row.
    """
    table = read_table(path, "adjustments file")
    cols = require(table, "adjustments file", COLUMNS)
    problems: list[str] = list(table.problems)
    rows: list[tuple[int, Adjustment]] = []
    seen: dict[tuple[str, str, str], int] = {}
    for line, row in table.rows:
        student, function = row[cols["student"]], row[cols["function"]]
        reason, points_text = row[cols["reason"]], row[cols["points"]]
        empty = [name for name, value in (("student", student), ("function", function),
                                          ("points", points_text), ("reason", reason))
                 if not value]
        if empty:
            problems.append(f"line {line}: no {', no '.join(empty)}")
            continue
        try:
            points = parse_points(points_text)
        except ValueError as exc:
            problems.append(f"line {line}: {exc}")
            continue
        same = (normalise(student), function.strip().casefold(), normalise(reason))
        if same in seen:
            problems.append(f"line {line}: the same student, function and reason as line "
                            f"{seen[same]} (a duplicate? give each adjustment its own reason)")
            continue
        seen[same] = line
        function = TOTAL if function.strip().casefold() == TOTAL else function.strip()
        rows.append((line, Adjustment(student, function, points, reason,
                                      f"{Path(path).name} line {line}")))
    if problems:
        raise InputError(f"adjustments file {path}", sorted(problems, key=_line))
    return AdjustmentFile(str(path), table.sha256, rows)


def _line(problem: str) -> int:
    found = re.match(r"line (\d+)", problem)
    return int(found[1]) if found else 0


def resolve(adjustments: AdjustmentFile, keys: list[Key],
            functions_of: dict[Key, list[str] | None],
            matched: RosterMatch | None = None) -> dict[Key, list[Adjustment]]:
    """Attach each row to its student, checking the student and the function.

    Parameters
    ----------
    adjustments
        The file read.
    keys
        The students of this run.
    functions_of
        The graded functions of each student's assignment (None when the assignment is
        unknown: only ``total`` may be adjusted then).
    matched
        The roster's match, to accept e-mails and roster ids.

    Raises
    ------
    InputError
        Every row whose student is unknown or ambiguous, or whose function is not one
        of that student's graded functions.
    """
    problems: list[str] = []
    out: dict[Key, list[Adjustment]] = {}
    seen: dict[tuple[Key, str, str], int] = {}
    shown = [display_key(k) for k in keys]
    for line, a in adjustments.rows:
        found = find_students(a.student, keys, matched)
        if not found:
            close = difflib.get_close_matches(a.student, shown, n=3, cutoff=0.6)
            problems.append(f"line {line}: no student {a.student!r} in this run"
                            + (f" (did you mean {' or '.join(close)}?)" if close else ""))
            continue
        if len(found) > 1:
            problems.append(f"line {line}: {a.student!r} could be "
                            f"{', '.join(display_key(k) for k in found)}: write the id")
            continue
        k = found[0]
        functions = functions_of.get(k)
        if a.function != TOTAL and a.function not in (functions or []):
            which = (f"the graded functions are {', '.join(functions)} or total" if functions
                     else "this submission has no graded functions: use total")
            problems.append(f"line {line}: {display_key(k)} has no graded function "
                            f"{a.function!r} ({which})")
            continue
        same = (k, a.function, normalise(a.reason))
        if same in seen:
            problems.append(f"line {line}: the same student ({display_key(k)}), function and "
                            f"reason as line {seen[same]} (a duplicate?)")
            continue
        seen[same] = line
        out.setdefault(k, []).append(a)
    if problems:
        raise InputError(f"adjustments file {adjustments.path}", problems)
    return out


def restore(g: dict) -> None:
    """Put a record back to the grader's points (undo :func:`apply`)."""
    if "graded_total" in g:
        g["total"] = g.pop("graded_total")
    for t in g.get("tasks", []):
        if "graded_points" in t:
            t["points"] = t.pop("graded_points")
    g.pop("adjustments", None)
    g.pop("adjustment", None)


def apply(g: dict, adjustments: list[Adjustment]) -> None:
    """Set a record's points to the grader's plus ``adjustments``.

    The record keeps the grader's points in ``graded_total`` and each task's
    ``graded_points``; ``adjustment`` is the sum added, ``adjustments`` the list.
    Applying twice gives the same record (it starts from the grader's points).  An
    adjustment to a function the record has no points for (its notebook could not be
    run) goes to the total.
    """
    restore(g)
    tasks = {t["name"]: t for t in g.get("tasks", [])}
    for t in tasks.values():
        t["graded_points"] = t["points"]
    g["graded_total"] = g["total"]
    added = 0.0
    for a in adjustments:
        if a.function in tasks:
            tasks[a.function]["points"] = round(tasks[a.function]["points"] + a.points, 3)
        added += a.points
    g["adjustment"] = round(added, 3)
    g["total"] = round(g["graded_total"] + added, 3)
    g["adjustments"] = [a.as_dict() for a in adjustments]
