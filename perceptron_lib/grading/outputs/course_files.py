"""The files of the course table: ``course.csv``, ``course.html``, ``export-canvas.csv``.

``course.csv`` has a row per person (:class:`.course.Person`, sorted by name): ``student``,
``email``, ``roster id``, ``ids`` (each run's id of the person: Moodle's differ per
assignment), a column of points per assignment (empty where the person has no record),
``total``, ``max`` (the course's), ``missing`` (the assignments without a record) and
``notes`` (why a row was not joined to others; a status other than ``ok``).  It starts
with a UTF-8 byte order mark, which Excel needs to read accents and other scripts
rightly, and goes through :mod:`.csvsafe`.

``course.html`` is the same table as a self-contained page (:mod:`.htmlkit`), with what
needs a look first: the records not joined, who misses which assignment, the roster rows
in no run.

``export-canvas.csv`` follows the layout of :mod:`.exports` for Canvas (``Student``,
``ID``, ``SIS User ID``, ``SIS Login ID``, ``Section``), with one column per assignment:
Canvas's gradebook import reads several assignment columns in one file.  Its ids are
those of the roster, which must be Canvas's gradebook export (Canvas's ids are matched
by people, never guessed from file names); a person not in it is left out and listed.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from . import csvsafe, outdir
from .course_runs import CourseError
from .exports import CANVAS, points
from .htmlkit import Raw, count, esc, num, page, table

if TYPE_CHECKING:
    from .course import Course, Person

BOM = "\ufeff"
HEAD = ["student", "email", "roster id", "ids"]
TAIL = ["total", "max", "missing", "notes"]


def _number(value: float) -> Decimal:
    return Decimal(points(value))


def notes(p: Person, course: Course) -> str:
    """What the ``notes`` column says of a person."""
    said = [p.why] if p.why else []
    said += [f"{a}: {r.status}" for a in course.assignments
             if (r := p.grades.get(a)) is not None and r.status != "ok"]
    return "; ".join(said)


def _missing(p: Person, course: Course) -> list[str]:
    return [] if p.why else [a for a in course.assignments if a not in p.grades]


def rows(course: Course) -> list[list]:
    """The course table's rows (header first)."""
    out: list[list] = [[*HEAD, *course.assignments, *TAIL]]
    for p in course.people:
        ids = "; ".join(f"{a}: {p.grades[a].student_id}" for a in course.assignments
                        if a in p.grades and p.grades[a].student_id)
        cells = [_number(p.grades[a].total) if a in p.grades else None
                 for a in course.assignments]
        out.append([p.name, p.email, p.entry.id if p.entry else "", ids, *cells,
                    _number(p.total()), _number(course.maximum),
                    ", ".join(_missing(p, course)), notes(p, course)])
    return out


def write_csv(path: Path, course: Course) -> None:
    """``course.csv``, whole or not at all."""
    with outdir.replacing(path, newline="") as fh:
        fh.write(BOM)
        csvsafe.writer(fh).writerows(rows(course))


def check_canvas(course: Course) -> None:
    """Raise :class:`.course_runs.CourseError` unless the roster is Canvas's."""
    roster = course.roster
    platform = getattr(roster, "platform", "") if roster is not None else ""
    if roster is None or not (platform == "canvas" or roster.layout.lower().startswith(
            "canvas")):
        raise CourseError("--export canvas needs Canvas's gradebook export as --roster: "
                          "its ids are the ones Canvas matches, and file names are not "
                          "read for them at the course's level")


def write_canvas(path: Path, course: Course, columns: dict[str, str]) -> list[str]:
    """``export-canvas.csv``; who is left out of it, and why."""
    header = [*CANVAS, *(columns.get(a, a) for a in course.assignments)]
    out, left = [], []
    for p in course.people:
        if p.entry is None:
            left.append(f"{p.name}: not in the Canvas roster"
                        + (" (not joined, see the notes)" if p.why else ""))
            continue
        e = p.entry
        out.append([e.name, e.id, e.sis_user_id, e.sis_login_id, e.section,
                    *(_number(p.grades[a].total) if a in p.grades else None
                      for a in course.assignments)])
    with outdir.replacing(path, newline="") as fh:
        writer = csvsafe.writer(fh)
        writer.writerow(header)
        writer.writerows(out)
    return left


NOT_WRITTEN = {
    "moodle": "no Moodle file for the course: Moodle's grading worksheet is one "
              "assignment's, under that assignment's participant ids; each run's "
              "--export moodle writes it",
    "gradescope": "no Gradescope file for the course: Gradescope's score upload is one "
                  "assignment's; each run's --export gradescope writes it",
}


def _cell(r) -> object:
    return num(r.total) if r is not None else Raw('<span class="muted">no record</span>')


def html(course: Course) -> str:
    """``course.html``: the table and what needs a look."""
    heads = ["Student", "E-mail", *course.assignments, "Total", "Notes"]
    body_rows = [[p.name, p.email, *(_cell(p.grades.get(a)) for a in course.assignments),
                  f"{num(p.total())} of {num(course.maximum)}", notes(p, course)]
                 for p in course.people]
    n = len(course.assignments)
    numeric = range(2, 3 + n)
    look: list[str] = []
    look += [f"<li>{esc(p.name)}: {esc(p.why)}</li>" for p in course.unjoined]
    look += [f"<li>{esc(p.name)}: no record of {esc(', '.join(m))}"
             + (" (in the roster, in no run)" if len(m) == n else "") + "</li>"
             for p, m in course.missing]
    runs = table("The runs read", ["Folder", "Assignments", "Records"],
                 [[str(r.folder), ", ".join(r.assignments), len(r.records)]
                  for r in course.runs], numeric=[2])
    cards = "".join(f"<div><dt>{esc(k)}</dt><dd>{esc(v)}</dd></div>" for k, v in (
        ("people", len(course.people) - len(course.unjoined)),
        ("assignments", n), ("not joined", len(course.unjoined)),
        ("missing a record", len(course.missing))))
    roster = (f"<p>Roster: <code>{esc(course.roster.path)}</code> "
              f"({esc(course.roster.layout)}).</p>" if course.roster is not None else
              "<p>No roster: records were joined by e-mail and by name.</p>")
    main = (f"<main>\n<dl class=\"cards\">{cards}</dl>\n{roster}\n"
            + (f"<h2>Needs a look</h2>\n<ul>\n{chr(10).join(look)}\n</ul>\n" if look else "")
            + "<h2>The course</h2>\n"
            + table(f"{count(len(course.people), 'row')}, points of each assignment and "
                    f"the total of {num(course.maximum)}", heads, body_rows,
                    numeric=numeric, wrap=[3 + n])
            + f"\n<h2>Runs</h2>\n{runs}\n</main>")
    header = ("<header><h1>Course gradebook</h1><p class=\"muted\">"
              f"{esc(', '.join(course.assignments))}</p></header>")
    footer = ("<footer><p>Written by <code>python -m perceptron_lib.grading gradebook</code>;"
              " the same table is in <code>course.csv</code>.</p></footer>")
    return page("Course gradebook", f"{header}\n{main}\n{footer}",
                f"Course gradebook of {n} assignments")


def write_all(out: Path, course: Course, exports: list[str],
              columns: dict[str, str]) -> dict[str, list[str]]:
    """Write every file; ``file name -> people left out of it``."""
    written: dict[str, list[str]] = {}
    outdir.remove_leftovers([out])
    write_csv(out / "course.csv", course)
    written["course.csv"] = []
    if "canvas" in exports:
        written["export-canvas.csv"] = write_canvas(out / "export-canvas.csv", course, columns)
    outdir.write_text(out / "course.html", html(course))
    written["course.html"] = []
    return written


def summary_lines(course: Course, written: dict[str, list[str]], exports: list[str],
                  shown: int = 10) -> list[str]:
    """What the terminal says."""
    people = len(course.people) - len(course.unjoined)
    lines = [f"course: {count(people, 'person', 'people')}, "
             f"{count(len(course.assignments), 'assignment')} "
             f"({', '.join(course.assignments)}), out of {num(course.maximum)}"]
    for p in course.unjoined[:shown]:
        lines.append(f"  not joined: {p.name}: {p.why}")
    for p, m in course.missing[:shown]:
        lines.append(f"  missing: {p.name}: {', '.join(m)}")
    if max(len(course.unjoined), len(course.missing)) > shown:
        lines.append("  (course.html lists them all)")
    for name, left in written.items():
        lines.append(f"wrote {name}" + (f" ({count(len(left), 'person', 'people')} left "
                                         "out)" if left else ""))
        lines += [f"  left out of {name}: {w}" for w in left[:shown]]
    lines += [f"note: {NOT_WRITTEN[s]}" for s in exports if s in NOT_WRITTEN]
    return lines
