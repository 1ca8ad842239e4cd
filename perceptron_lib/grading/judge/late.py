"""A late-submission policy: points off for every day, or part of a day, after the deadline.

    --deadline "2025-03-01 23:59" --late-penalty 10% --submitted times.csv

- ``--deadline``: a date and time (ISO 8601; without a time zone it is the machine's).
- ``--late-penalty``: points off per day late (``1.5``), or a percentage of the
  assignment's maximum per day (``10%``).  A submission 1 minute late is 1 day late;
  25 hours late, 2 days.  The penalty never takes a total below zero.
- ``--submitted``: when each student submitted, as a CSV file with the columns
  ``student`` and ``submitted`` (students named as in an adjustments file), or Moodle's
  grading worksheet, whose ``Last modified (submission)`` column is that time.

The penalty of each late student is an adjustment of their total (see
:mod:`.adjustments`), with its reason (``2 days late: ...``), applied after the others.
A student missing from the file is not penalised, and the report lists them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .adjustments import TOTAL, Adjustment
from .roster import Key, RosterMatch, display_key, find_students
from .tables import InputError, read_table, require

DAY = timedelta(days=1)
MOODLE_TIME = "%A, %d %B %Y, %I:%M %p"  # Moodle's strftimedatetime, in English


def parse_time(text: str) -> datetime:
    """A date and time in ISO 8601 or as Moodle writes it, made time-zone aware.

    Raises
    ------
    ValueError
        Neither form; the message shows the expected one.
    """
    text = text.strip()
    for parse in (datetime.fromisoformat, lambda t: datetime.strptime(t, MOODLE_TIME)):
        try:
            value = parse(text)
        except ValueError:
            continue
        return value if value.tzinfo else value.astimezone()
    raise ValueError(f"{text!r} is not a date and time (write it as 2025-03-01 23:59, or "
                     "2025-03-01T23:59+01:00)")


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


@dataclass
class LatePolicy:
    """The deadline, the penalty per day, and each student's submission time."""

    deadline: datetime
    per_day: float
    percent: bool
    times_file: str
    sha256: str
    times: dict[Key, datetime] = field(default_factory=dict)
    unknown: list[Key] = field(default_factory=list)

    def describe(self) -> str:
        """The policy in words, for the terminal and the report."""
        per = f"{self.per_day:g}% of the maximum" if self.percent else f"{self.per_day:g} points"
        return f"{per} per day or part of a day after {self.deadline:%Y-%m-%d %H:%M %Z}"

    def record(self) -> dict:
        """What ``results.json`` keeps, so that a later run can apply the same policy."""
        return {"deadline": self.deadline.isoformat(), "per_day": self.per_day,
                "percent": self.percent, "file": self.times_file, "sha256": self.sha256,
                "times": [[k[0], k[1], t.isoformat()] for k, t in sorted(self.times.items())]}

    @classmethod
    def from_record(cls, data: dict) -> LatePolicy:
        """The inverse of :meth:`record`."""
        times = {(n, i): datetime.fromisoformat(t) for n, i, t in data["times"]}
        return cls(datetime.fromisoformat(data["deadline"]), float(data["per_day"]),
                   bool(data["percent"]), str(data["file"]), str(data["sha256"]), times)

    def days_late(self, k: Key) -> int:
        """Whole days late, a started day counting as one (0 when on time or unknown)."""
        t = self.times.get(k)
        if t is None or t <= self.deadline:
            return 0
        return math.ceil((t - self.deadline) / DAY)

    def adjustment(self, k: Key, g: dict) -> Adjustment | None:
        """The penalty of one record (after its other adjustments), or None."""
        days = self.days_late(k)
        if not days:
            return None
        per_day = self.per_day * g["max"] / 100 if self.percent else self.per_day
        wanted = round(days * per_day, 3)
        points = round(min(wanted, max(g["total"], 0.0)), 3)
        reason = (f"{days} day{'s' * (days != 1)} late (submitted "
                  f"{self.times[k]:%Y-%m-%d %H:%M}, deadline {self.deadline:%Y-%m-%d %H:%M}): "
                  f"{days} × {per_day:g} points")
        if points < wanted:
            reason += f", {points:g} taken (a total never goes below 0)"
        return Adjustment(display_key(k), TOTAL, -points, reason, "late policy")


def read_policy(deadline: str, penalty: str, path: str, keys: list[Key],
                matched: RosterMatch | None = None) -> LatePolicy:
    """Read the policy's options and the times file, attaching each time to a student.

    Raises
    ------
    InputError
        A bad deadline or penalty, a missing column, an unknown or ambiguous student,
        a time that cannot be read, a student given twice.
    """
    problems: list[str] = []
    try:
        when = parse_time(deadline)
    except ValueError as exc:
        raise InputError("--deadline", [str(exc)]) from None
    try:
        per_day, percent = parse_penalty(penalty)
    except ValueError as exc:
        raise InputError("--late-penalty", [str(exc)]) from None
    table = read_table(path, "submission times file")
    moodle = table.has("Identifier", "Last modified (submission)")
    if moodle:
        cols = {"student": "identifier", "submitted": "lastmodifiedsubmission"}
    else:
        cols = require(table, "submission times file",
                       {"student": ("student",), "submitted": ("submitted", "time")})
    policy = LatePolicy(when, per_day, percent, str(path), table.sha256)
    problems += table.problems
    seen: dict[Key, int] = {}
    for line, row in table.rows:
        who, text = row[cols["student"]], row[cols["submitted"]]
        if not text or text == "-":
            continue  # Moodle writes "-" for no submission
        if moodle:  # "Participant 123456": the id the intake read from the file names
            who = re.sub(r"^\D+(?=\d+$)", "", who)
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
    if problems:
        raise InputError(f"submission times file {path}", problems)
    policy.unknown = sorted(k for k in keys if k not in policy.times)
    return policy
