"""A late-submission policy: points off for every day, or part of a day, after the deadline.

    --deadline "2025-03-01 23:59" --late-penalty 10% --submitted times.csv

- ``--deadline``: a date and time (ISO 8601; without a time zone it is the machine's).
- ``--late-penalty``: points off per day late (``1.5``), or a percentage of the
  assignment's maximum per day (``10%``).  A submission 1 minute late is 1 day late;
  25 hours late, 2 days.  The penalty never takes a total below zero.
- ``--submitted``: when each student submitted, as a CSV file with the columns
  ``student`` and ``submitted`` (students named as in an adjustments file), or Moodle's
  grading worksheet, whose ``Last modified (submission)`` column is that time.
- Extensions (:mod:`.extensions`): a column ``extension`` of that file, or
  ``--extensions FILE``, gives a student extra days or a deadline of their own.  Such a
  student is late only after their own deadline: no penalty is taken, and so none has
  to be given back by an adjustment.

The penalty of each late student is an adjustment of their total (see
:mod:`.adjustments`), with its reason (``2 days late: ...``), applied after the others.
A student missing from the file is not penalised, and the report lists them, unless
Canvas's download marks their file ``LATE`` (``lovelaceada_LATE_42_1001_nb.ipynb``,
noted by the intake as :data:`CANVAS_LATE`): Canvas marks a file so when it came after
the student's due date in Canvas, so with no time known the submission counts as late
by a started day, one day, and the reason says so.  An extension given here wins over
the mark (Canvas may not know of it): with no time known, such a student is not
penalised.
"""

from __future__ import annotations

import argparse
import math
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from .adjustments import TOTAL, Adjustment
from .extensions import COLUMN, Extensions, read_extensions
from .roster import Key, RosterMatch, display_key, find_students
from .tables import InputError, read_table, require
from .times import MOODLE_TIME, parse_time

__all__ = ["CANVAS_LATE", "DAY", "MOODLE_TIME", "LatePolicy", "Lateness", "add_arguments",
           "parse_penalty", "parse_time", "read_policy"]

DAY = timedelta(days=1)
#: The note the intake gives a file that Canvas's download names ``..._LATE_...``.
CANVAS_LATE = "submitted late (Canvas marks the file LATE)"


def add_arguments(group: argparse._ArgumentGroup) -> None:
    """The late policy's own option besides ``--deadline``, ``--late-penalty`` and
    ``--submitted``: ``--extensions FILE``."""
    group.add_argument("--extensions", type=Path, metavar="FILE",
                       help="late policy: CSV of student, extension (extra days, or the "
                            "student's own deadline)")


def parse_penalty(text: str) -> tuple[float, bool]:
    """``"10%"`` gives (10, True), ``"1.5"`` gives (1.5, False).

    Raises
    ------
    ValueError
        Not a non-negative number, with or without ``%``.
    """
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(%?)\s*", text)
    if not match:
        raise ValueError(f"--late-penalty {text!r}: write points per day (1.5) or a "
                         "percentage of the maximum per day (10%)")
    return float(match[1]), bool(match[2])


@dataclass(frozen=True)
class Lateness:
    """How late one student is: whole days (a started day counting as one), and what
    says so, for the reason the student reads."""

    days: int
    why: str


@dataclass
class LatePolicy:
    """The deadline, the penalty per day, each student's submission time, and each
    extended student's own deadline."""

    deadline: datetime
    per_day: float
    percent: bool
    times_file: str
    sha256: str
    times: dict[Key, datetime] = field(default_factory=dict)
    unknown: list[Key] = field(default_factory=list)
    extensions: dict[Key, datetime] = field(default_factory=dict)
    extensions_file: str = ""
    extensions_sha256: str = ""

    def describe(self) -> str:
        """The policy in words, for the terminal and the report."""
        per = f"{self.per_day:g}% of the maximum" if self.percent else f"{self.per_day:g} points"
        return f"{per} per day or part of a day after {self.deadline:%Y-%m-%d %H:%M %Z}"

    def record(self) -> dict:
        """What ``results.json`` keeps, so that a later run can apply the same policy."""
        return {"deadline": self.deadline.isoformat(), "per_day": self.per_day,
                "percent": self.percent, "file": self.times_file, "sha256": self.sha256,
                "times": [[k[0], k[1], t.isoformat()] for k, t in sorted(self.times.items())],
                "extensions": [[k[0], k[1], t.isoformat()]
                               for k, t in sorted(self.extensions.items())],
                "extensions_file": self.extensions_file,
                "extensions_sha256": self.extensions_sha256}

    @classmethod
    def from_record(cls, data: dict) -> LatePolicy:
        """The inverse of :meth:`record` (a record of a run before extensions has none)."""
        times = {(n, i): datetime.fromisoformat(t) for n, i, t in data["times"]}
        extended = {(n, i): datetime.fromisoformat(t) for n, i, t in data.get("extensions", [])}
        return cls(datetime.fromisoformat(data["deadline"]), float(data["per_day"]),
                   bool(data["percent"]), str(data["file"]), str(data["sha256"]), times,
                   extensions=extended, extensions_file=str(data.get("extensions_file", "")),
                   extensions_sha256=str(data.get("extensions_sha256", "")))

    def deadline_of(self, k: Key) -> datetime:
        """The deadline of one student: their extension's, else the class's."""
        return self.extensions.get(k, self.deadline)

    def lateness(self, k: Key, g: dict | None = None) -> Lateness | None:
        """How late the student ``k`` (whose record is ``g``) is, or None when on time
        or not known to be late.

        With a submission time, the days after the student's own deadline.  Without
        one, a file that Canvas's download marks late (:data:`CANVAS_LATE` among the
        record's ``warnings``) is a started day late, unless the student has an
        extension.
        """
        t = self.times.get(k)
        own = self.deadline_of(k)
        extended = k in self.extensions
        said = "extended deadline" if extended else "deadline"
        if t is not None:
            if t <= own:
                return None
            days = math.ceil((t - own) / DAY)
            return Lateness(days, f"submitted {t:%Y-%m-%d %H:%M}, {said} {own:%Y-%m-%d %H:%M}")
        if g is not None and not extended and CANVAS_LATE in g.get("warnings", []):
            return Lateness(1, "Canvas marks the file LATE and no submission time is known: "
                               f"counted as a started day after the deadline "
                               f"{own:%Y-%m-%d %H:%M}")
        return None

    def days_late(self, k: Key, g: dict | None = None) -> int:
        """Whole days late, a started day counting as one (0 when on time or unknown;
        see :meth:`lateness`)."""
        late = self.lateness(k, g)
        return late.days if late is not None else 0

    def adjustment(self, k: Key, g: dict) -> Adjustment | None:
        """The penalty of one record (after its other adjustments), or None."""
        late = self.lateness(k, g)
        if late is None:
            return None
        days = late.days
        per_day = self.per_day * g["max"] / 100 if self.percent else self.per_day
        wanted = round(days * per_day, 3)
        points = round(min(wanted, max(g["total"], 0.0)), 3)
        reason = f"{days} day{'s' * (days != 1)} late ({late.why}): {days} × {per_day:g} points"
        if points < wanted:
            reason += f", {points:g} taken (a total never goes below 0)"
        return Adjustment(display_key(k), TOTAL, -points, reason, "late policy")


def read_policy(deadline: str, penalty: str, path: str | None, keys: list[Key],
                matched: RosterMatch | None = None,
                extensions: str | None = None) -> LatePolicy:
    """Read the policy's options, the times file and the extensions, attaching each
    time and extension to a student.

    Parameters
    ----------
    deadline, penalty
        ``--deadline`` and ``--late-penalty``.
    path
        ``--submitted``: the times file, whose ``extension`` column, if any, gives
        extensions (:mod:`.extensions`); None when no time is known (then only the
        files Canvas marks late are penalised).
    keys, matched
        The students of the run, and the roster's match (students may be named by
        e-mail or roster id).
    extensions
        ``--extensions FILE``, if given.

    Raises
    ------
    InputError
        A bad deadline or penalty, a missing column, an unknown or ambiguous student,
        a time or an extension that cannot be read, a student given twice.
    """
    try:
        when = parse_time(deadline)
    except ValueError as exc:
        raise InputError("--deadline", [str(exc)]) from None
    try:
        per_day, percent = parse_penalty(penalty)
    except ValueError as exc:
        raise InputError("--late-penalty", [str(exc)]) from None
    policy = LatePolicy(when, per_day, percent, str(path or ""), "")
    extended = Extensions()
    failed: list[InputError] = []
    if path is not None:
        problems = _read_times(policy, path, keys, matched, extended) + extended.problems
        extended.problems = []
        if problems:
            failed.append(InputError(f"submission times file {path}", problems))
    if extensions is not None:
        policy.extensions_file = str(extensions)
        policy.extensions_sha256 = read_extensions(extensions, when, keys, matched, extended)
        if extended.problems:
            failed.append(InputError(f"extensions file {extensions}", extended.problems))
    if len(failed) == 1:
        raise failed[0]
    if failed:
        raise InputError("the late policy's files", [str(e) for e in failed])
    policy.extensions = extended.deadlines
    policy.unknown = sorted(k for k in keys if k not in policy.times)
    return policy


def _read_times(policy: LatePolicy, path: str, keys: list[Key],
                matched: RosterMatch | None, extended: Extensions) -> list[str]:
    """Read the times file into ``policy`` and its extension column into ``extended``;
    the problems of the file, each with its line."""
    table = read_table(path, "submission times file")
    policy.sha256 = table.sha256
    moodle = table.has("Identifier", "Last modified (submission)")
    if moodle:
        cols = {"student": "identifier", "submitted": "lastmodifiedsubmission"}
    else:
        cols = require(table, "submission times file",
                       {"student": ("student",), "submitted": ("submitted", "time")})
    problems = list(table.problems)
    seen: dict[Key, int] = {}
    rows = []
    for line, row in table.rows:
        who, text = row[cols["student"]], row[cols["submitted"]]
        if moodle:  # "Participant 123456": the id the intake read from the file names
            who = re.sub(r"^\D+(?=\d+$)", "", who)
        rows.append((line, who, row.get(COLUMN, "")))
        if not text or text == "-":
            continue  # Moodle writes "-" for no submission
        found = find_students(who, keys, matched)
        if len(found) != 1:
            problems.append(f"line {line}: " + (f"no student {who!r} in this run" if not found
                                                else f"{who!r} could be several students"))
            continue
        try:
            t = parse_time(text)
        except ValueError as exc:
            problems.append(f"line {line}: {exc}")
            continue
        if found[0] in seen:
            problems.append(f"line {line}: {display_key(found[0])} is also on line "
                            f"{seen[found[0]]}")
            continue
        seen[found[0]] = line
        policy.times[found[0]] = t
    extended.add(rows, str(path), policy.deadline, keys, matched)
    return problems
