"""The platform's scale: the points an export puts a grade on, and where they come from.

A course's notebook is graded on its own points (9 for ``01_algorithm``); the platform's
assignment may be worth other points (Canvas's ``Points Possible``, Moodle's ``Maximum
Grade``), and a grade imported on the wrong scale is wrong (9 of 9 imported into an
assignment of 100 points is 9%).  The platform's maximum is read from the roster where
the roster is that platform's file and says it (Canvas's ``Points Possible`` row under
the ``--canvas-column``, Moodle's ``Maximum Grade``, Gradescope's ``Max Points``), or
given with ``--points N``; the two must agree.  The export then scales every grade
(``total * N / the grader's maximum``) and the terminal says so.  Where neither gives it,
the grades are exported on the grader's points and the terminal says that the
platform's maximum is not known.

:func:`resolve` finds the scale of each platform, or every problem with the options.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from ..judge.platforms.canvas import points_of
from ..judge.roster import Roster

#: What each platform calls its maximum, for messages.
NAMES = {"canvas": "Points Possible", "moodle": "Maximum Grade", "gradescope": "Max Points"}
PLATFORMS = {"canvas": "Canvas", "moodle": "Moodle", "gradescope": "Gradescope"}


@dataclass(frozen=True)
class Scale:
    """The points a platform's assignment is worth, and where that was read.

    Attributes
    ----------
    maximum
        The platform's maximum; None when it is not known (the grader's own is used).
    source
        Where it comes from (``"Points Possible in the roster"``, ``"--points"``).
    """

    maximum: Decimal | None = None
    source: str = ""

    def convert(self, total: float, grader_max: float) -> float:
        """A grade on this scale (unchanged when the maximum is not known)."""
        if self.maximum is None or not grader_max:
            return total
        return total * float(self.maximum) / grader_max

    def top(self, grader_max: float) -> float:
        """The maximum on this scale."""
        return grader_max if self.maximum is None else float(self.maximum)

    def describe(self, system: str, grader_max: float, points: str, shown_max: str) -> str:
        """One line on the scale of an export (``points`` and ``shown_max`` are the two
        maxima as the export writes numbers)."""
        if self.maximum is None:
            return (f"grades on the grader's {points} points: {PLATFORMS[system]}'s "
                    f"{NAMES[system]} for the assignment is not known (give --points N, or "
                    f"the platform's file as --roster, if it is not {points})")
        if float(self.maximum) == grader_max:
            return f"grades on {points} points, as the {self.source}"
        return f"grades scaled from {points} to {shown_max} points ({self.source})"


def resolve(systems: list[str], roster: Roster | None, points: Decimal | None,
            canvas_column: str | None) -> tuple[dict[str, Scale], list[str]]:
    """The scale of each platform exported to, and the problems of the options.

    Parameters
    ----------
    systems
        The platforms exported to.
    roster
        The roster, if one was given.
    points
        ``--points``, if given.
    canvas_column
        ``--canvas-column``, if given.

    Returns
    -------
    (dict, list of str)
        Platform to :class:`Scale`; what is wrong (a ``--canvas-column`` the Canvas
        export does not have, a maximum of 0, ``--points`` that the roster contradicts,
        a Moodle assignment graded on a scale).
    """
    scales: dict[str, Scale] = {}
    problems: list[str] = []
    given = Scale(points, "--points") if points is not None else Scale()
    for system in systems:
        read, where = _from_roster(system, roster, canvas_column, problems)
        if read is None:
            scales[system] = given
            continue
        if read == 0:
            problems.append(f"the {NAMES[system]} in {where} is 0: give the assignment its "
                            f"points in {PLATFORMS[system]}, or --points N")
        if points is not None and read != points:
            problems.append(f"--points {points} but the {NAMES[system]} in {where} is "
                            f"{read}: give one or the other")
        scales[system] = Scale(read, f"{NAMES[system]} in the roster")
    return scales, problems


def _from_roster(system: str, roster: Roster | None, canvas_column: str | None,
                 problems: list[str]) -> tuple[Decimal | None, str]:
    """The maximum the roster gives for ``system`` (None if it gives none), and where."""
    if roster is None or roster.platform != system:
        return None, ""
    if system == "moodle" and roster.scale:
        problems.append(f"the worksheet {roster.path} is of an assignment graded on a scale "
                        f"(its column {roster.scale!r}): Moodle takes a point grade only for "
                        "an assignment whose grade type is Point")
        return None, ""
    if system != "canvas":
        return roster.maximum, f"the roster {roster.path}"
    if not canvas_column:
        return None, ""
    column, value = points_of(roster.columns, canvas_column)
    if not column:
        have = ", ".join(repr(c) for c in roster.columns) or "none"
        problems.append(f"--canvas-column {canvas_column!r} is not a column of the gradebook "
                        f"export {roster.path} (its assignments: {have})")
        return None, ""
    return value, f"the roster's column {column!r}"
