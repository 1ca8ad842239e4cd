"""The course's gradebook: the runs of several assignments joined into one table.

    python -m perceptron_lib.grading gradebook OUT1 OUT2 ... --out DIR [--roster FILE]
                                               [--export canvas] [--canvas-column A=TITLE]

Each OUT is the output folder of a grading run (:mod:`.course_runs` reads its
``results.json``); each assignment may come from one run only.  The same person's
records are found across the runs, in this order (:func:`join`):

1. **by the roster** (``--roster``, any layout :mod:`..judge.roster` reads): a record
   is a roster row's when the row's id is the record's and the names agree, else when
   its e-mail is the row's, else when its name is one of the row's (accents, case and
   punctuation aside; Canvas's ``lastnamefirstname`` and ``Last, First`` included).  A
   record that could be several rows, whose id is another name's row, or that shares
   its row with another record of the same run, is listed and joined to no one;
2. **by e-mail**, for the records the roster does not place (a student known by an
   e-mail address);
3. **by name**, for the rest: the records of one name are one person when no run has
   two of that name.  Where a run has two (two John Smiths), records of the same id in
   several runs are joined (platforms whose ids are the same for every assignment, as
   Canvas's); the others are listed, each in a row of its own, never guessed: Moodle's
   participant ids differ from one assignment to the next, so only a roster tells such
   namesakes apart.

A person without a record of an assignment (no submission in that run) has an empty
cell there and is listed; so is a roster row found in no run.  The total adds up the
person's totals (each with the adjustments of its run); the maximum is the course's,
every assignment's maximum.

DIR receives ``course.csv`` (a row per person, with a UTF-8 byte order mark so that
Excel shows accents, safe to open in a spreadsheet: :mod:`.csvsafe`) and ``course.html``
(:mod:`.course_files`).  ``--export canvas`` also writes ``export-canvas.csv``: Canvas's
gradebook import takes several assignment columns at once, so the course table fits
it, with the Canvas ids of a Canvas roster (its gradebook export).  Moodle's grading
worksheet and Gradescope's score upload take one assignment at a time, under that
assignment's own ids: each run's ``--export`` writes those, and this command writes no
such file (it says so).

Exit status: 0 when every record was joined; 1 when some were listed instead (the
table is still written); 2 when a file or option is wrong (nothing is written).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from ..assignments import ASSIGNMENTS
from ..judge.roster import Roster, RosterEntry, entry_aliases, key_aliases, normalise, read_roster
from ..judge.tables import InputError
from .course_runs import CourseError, Record, Run, read_run

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


@dataclass
class Person:
    """One row of the course table.

    Attributes
    ----------
    name, email
        As the roster has them, else as the records do.
    entry
        The roster row, if any.
    grades
        Assignment -> the person's record of it.
    why
        Why the row holds a record that was not joined to anyone ("" for a person).
    """

    name: str
    email: str = ""
    entry: RosterEntry | None = None
    grades: dict[str, Record] = field(default_factory=dict)
    why: str = ""

    def total(self) -> float:
        return round(sum(r.total for r in self.grades.values()), 3)


@dataclass
class Course:
    """The joined table and what the instructor must look at."""

    assignments: list[str]
    maxima: dict[str, float]
    people: list[Person]
    runs: list[Run]
    roster: Roster | None = None
    #: Who lacks which assignments: (person, [assignments]).
    missing: list[tuple[Person, list[str]]] = field(default_factory=list)

    @property
    def unjoined(self) -> list[Person]:
        return [p for p in self.people if p.why]

    @property
    def maximum(self) -> float:
        return round(sum(self.maxima.values()), 3)


def _order(assignment: str) -> tuple[int, str]:
    known = list(ASSIGNMENTS)
    return (known.index(assignment), "") if assignment in known else (len(known), assignment)


def _email_of(r: Record) -> str:
    text = (r.email or r.student).strip()
    return text.casefold() if _EMAIL.match(text) else ""


def _shown(r: Record, assignment: str) -> str:
    return f"{r.student} ({r.student_id})" if r.student_id else r.student


def _names(r: Record) -> set[str]:
    return key_aliases((r.student, ""))


def _roster_candidates(r: Record, roster: Roster) -> tuple[list[RosterEntry], str]:
    """The rows ``r`` may be, by the first rule that finds any; and a reason to list it
    instead ("" when the rows found are a match)."""
    names = _names(r)
    if r.student_id:
        by_id = [e for e in roster.entries if r.student_id in (e.id, e.sis_user_id)]
        agree = [e for e in by_id if names & entry_aliases(e)]
        if agree:
            return agree, ""
        if by_id:
            rows = ", ".join(f"line {e.line} ({e.name})" for e in by_id)
            return [], f"its id {r.student_id} is another name's in the roster: {rows}"
    mail = _email_of(r)
    by_mail = [e for e in roster.entries if mail and e.email.casefold() == mail]
    if by_mail:
        return by_mail, ""
    return [e for e in roster.entries if names & entry_aliases(e)], ""


def _by_roster(items: list[tuple[str, Record]], roster: Roster,
               people: dict[int, Person], listed: list[Person]) -> list[tuple[str, Record]]:
    """Place the records on roster rows; the records it leaves for the next rules."""
    left: list[tuple[str, Record]] = []
    placed: dict[tuple[str, int], list[Record]] = defaultdict(list)
    for assignment, r in items:
        rows, problem = _roster_candidates(r, roster)
        if problem:
            listed.append(_alone(assignment, r, problem))
        elif len(rows) > 1:
            where = ", ".join(f"line {e.line} ({e.name})" for e in rows)
            listed.append(_alone(assignment, r, f"could be any of the roster's {where}"))
        elif rows:
            placed[(assignment, rows[0].line)].append(r)
        else:
            left.append((assignment, r))
    for (assignment, line), records in placed.items():
        if len(records) > 1:
            others = " and ".join(_shown(x, assignment) for x in records)
            for x in records:
                listed.append(_alone(assignment, x, f"{others} of {assignment} both match "
                                                    f"the roster's line {line}"))
        else:
            people[line].grades[assignment] = records[0]
    return left


def _alone(assignment: str, r: Record, why: str) -> Person:
    return Person(name=r.student, email=_email_of(r), grades={assignment: r},
                  why=f"{assignment}: {why}")


def _group(items: list[tuple[str, Record]], key, people: list[Person],
           listed: list[Person], what: str) -> list[tuple[str, Record]]:
    """Join the records whose ``key`` is the same into one person when no run has two
    of them (and no two Canvas ids are among them); the records without a key are
    returned.  Otherwise the records of one id in several runs are joined, and the
    others listed (``what`` names the key in messages)."""
    groups: dict[str, list[tuple[str, Record]]] = defaultdict(list)
    left = []
    for item in items:
        k = key(item[1])
        (groups[k] if k else left).append(item)
    for group in groups.values():
        per_run = Counter(a for a, _ in group)
        canvas = sorted({r.student_id for _, r in group if r.id_kind == "canvas"})
        if max(per_run.values()) == 1 and len(canvas) <= 1:
            people.append(_person(group))
            continue
        shown = group[0][1].student
        if max(per_run.values()) > 1:
            twice = ", ".join(sorted(a for a, n in per_run.items() if n > 1))
            why = (f"the {what} {shown!r} is {max(per_run.values())} people in {twice}: not "
                   "joined to another run (a roster tells namesakes apart by the ids it "
                   "holds; else join them by hand)")
        else:  # a Canvas user id is the same for every assignment: these are two people
            why = (f"the {what} {shown!r} comes with {len(canvas)} Canvas ids "
                   f"({', '.join(canvas)}): not joined to another run")
        by_id: dict[str, list[tuple[str, Record]]] = defaultdict(list)
        for a, r in group:
            by_id[r.student_id].append((a, r))
        for sid, same in by_id.items():
            runs = Counter(a for a, _ in same)
            if sid and len(runs) > 1 and max(runs.values()) == 1:
                people.append(_person(same))  # the same id in several runs
            else:
                listed += [_alone(a, r, why) for a, r in same]
    return left


def _person(group: list[tuple[str, Record]]) -> Person:
    group = sorted(group, key=lambda item: _order(item[0]))
    first = group[0][1]
    return Person(name=first.student, email=next((_email_of(r) for _, r in group
                                                  if _email_of(r)), ""),
                  grades={a: r for a, r in group})


def _maxima(runs: list[Run], assignments: list[str]) -> dict[str, float]:
    out = {}
    for a in assignments:
        if a in ASSIGNMENTS:
            out[a] = float(sum(t.points for t in ASSIGNMENTS[a]))
        else:
            out[a] = max(r.max for run in runs for r in run.records if r.assignment == a)
    return out


def join(runs: list[Run], roster: Roster | None = None) -> Course:
    """Join the runs' records person by person (see the module's docstring).

    Raises
    ------
    CourseError
        An assignment in two runs, or a run whose records name no assignment.
    """
    items: list[tuple[str, Record]] = []
    seen: dict[str, Path] = {}
    for run in runs:
        names = run.assignments
        if not names:
            raise CourseError(f"{run.folder / 'results.json'}: no record names an assignment")
        for a in names:
            if a in seen:
                raise CourseError(f"{a} is in two runs, {seen[a]} and {run.folder}: give each "
                                  "assignment's run once")
            seen[a] = run.folder
        for r in run.records:
            # A notebook that could not be read has no assignment: its run's, if one.
            assignment = r.assignment or (names[0] if len(names) == 1 else None)
            if assignment is None:
                raise CourseError(f"{run.folder / 'results.json'}: {_shown(r, '')} has no "
                                  "assignment and the run holds several: regrade it with "
                                  "--assignment")
            items.append((assignment, r))
    assignments = sorted(seen, key=_order)
    people: list[Person] = []
    listed: list[Person] = []
    by_line: dict[int, Person] = {}
    if roster is not None:
        by_line = {e.line: Person(name=e.name, email=e.email, entry=e)
                   for e in roster.entries}
        items = _by_roster(items, roster, by_line, listed)
    items = _group(items, _email_of, people, listed, "e-mail")
    left = _group(items, lambda r: normalise(r.student), people, listed, "name")
    listed += [_alone(a, r, "no name to join it by") for a, r in left]
    everyone = [*by_line.values(), *people]
    course = Course(assignments, _maxima(runs, assignments),
                    sorted([*everyone, *listed], key=_sort_key), runs, roster)
    course.missing = [(p, [a for a in assignments if a not in p.grades])
                      for p in sorted(everyone, key=_sort_key)
                      if len(p.grades) < len(assignments)]
    return course


def _sort_key(p: Person) -> tuple:
    return normalise(p.name), p.name, p.email, bool(p.why), sorted(p.grades)


# ------------------------------------------------------------------ the command
def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m perceptron_lib.grading gradebook",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", type=Path, nargs="+", metavar="OUT",
                    help="the output folder of a grading run (one per assignment)")
    ap.add_argument("--out", type=Path, required=True, metavar="DIR")
    ap.add_argument("--roster", type=Path, metavar="FILE",
                    help="CSV of the class (id, name, email; or a platform's own file)")
    ap.add_argument("--export", action="append", default=[],
                    choices=("canvas", "moodle", "gradescope"),
                    help="also write the course for a platform (canvas; see above for "
                         "moodle and gradescope)")
    ap.add_argument("--canvas-column", action="append", default=[], metavar="A=TITLE",
                    help="the Canvas column of assignment A, as Canvas's export titles it: "
                         "01_algorithm='Perceptron 1 (4521)' (repeatable)")
    return ap


def _columns(given: list[str], assignments: list[str]) -> dict[str, str]:
    out = {}
    for text in given:
        a, sep, title = text.partition("=")
        if not sep or a not in assignments or not title.strip():
            raise CourseError(f"--canvas-column {text!r}: give ASSIGNMENT=TITLE with one of "
                              f"{', '.join(assignments)}")
        out[a] = title.strip()
    return out


def _check_out(out: Path, runs: list[Path]) -> None:
    resolved = out.resolve()
    for run in runs:
        if resolved == run.resolve():
            raise CourseError(f"--out {out} is one of the runs: the course table goes in a "
                              "folder of its own (a grading run's folder holds its gradebook "
                              "only)")
    if (out / "results.json").exists() or (out / "grades.csv").exists():
        raise CourseError(f"--out {out} holds a grading run's gradebook: give another folder")


def main(argv: list[str] | None = None) -> int:
    """The ``gradebook`` command; its exit status."""
    from . import course_files

    args = _parser().parse_args(argv)
    try:
        _check_out(args.out, args.runs)
        roster = read_roster(args.roster) if args.roster is not None else None
        runs = [read_run(folder) for folder in args.runs]
        course = join(runs, roster)
        columns = _columns(args.canvas_column, course.assignments)
        exports = list(dict.fromkeys(args.export))
        if "canvas" in exports:
            course_files.check_canvas(course)
    except (CourseError, InputError) as exc:
        print(f"error: {exc}\nnothing was written", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    written = course_files.write_all(args.out, course, exports, columns)
    for line in course_files.summary_lines(course, written, exports):
        print(line)
    return 1 if course.unjoined else 0
