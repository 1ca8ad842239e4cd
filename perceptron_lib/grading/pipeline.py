"""What a grading run does besides grading: read the instructor's files, adjust, report.

``__main__`` calls, in order:

1. :func:`read_inputs` before anything is read or graded: the roster and the
   adjustments file are read and checked on their own (columns, numbers, duplicates),
   and each platform's scale is found (:func:`.scale.resolve`: ``--points``, the
   roster's maximum, ``--canvas-column`` in the roster's columns);
2. :func:`prepare` once the submissions are found: the output folder is checked
   (:func:`.outdir.check_out`), what the last run applied is taken up again when no new
   file is given, the roster's ids are checked against the download's
   (:func:`.idcheck.check_ids`: a worksheet of another Moodle assignment is refused) and
   the roster is matched with the submissions, and every adjustment and submission time
   is attached to its student (an unknown student or function is an error, before any
   grading), and ``--canvas-column`` is refused for a run of several assignments;
3. :func:`finish` after grading: the adjustments are applied to every record, and the
   feedback, ``grades.csv``, the exports, ``report.html`` and ``results.json`` are
   written, each whole or not at all.

A problem with a file the instructor gave raises :class:`.tables.InputError` (or
:class:`.outdir.OutFolderError`) with every problem listed; nothing is written then.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from .assignments import ASSIGNMENTS
from .intake import Intake
from .intake.notebook import named_assignment, read_ahead
from .judge import adjustments as adj
from .judge.idcheck import check_ids, kinds_of
from .judge.late import LatePolicy, read_policy
from .judge.late import add_arguments as late_options
from .judge.platforms.canvas import points_of
from .judge.roster import Key, Roster, RosterMatch, match, read_roster
from .judge.tables import InputError, decimal, sha256_of
from .outputs import exports, gradebook, outdir, report
from .outputs.htmlkit import count
from .outputs.scale import Scale, resolve

#: How many unmatched submissions, and roster rows, the terminal names.
SHOWN = 10


@dataclass
class Inputs:
    """The instructor's files and options for a run, read and then resolved."""

    adjustments: adj.AdjustmentFile | None = None
    adjustments_reused: bool = False
    roster: Roster | None = None
    late: LatePolicy | None = None
    late_reused: bool = False
    exports: list[str] = field(default_factory=list)
    canvas_column: str | None = None
    scales: dict[str, Scale] = field(default_factory=dict)
    matched: RosterMatch | None = None
    kinds: dict[Key, str] = field(default_factory=dict)
    resolved: dict[Key, list[adj.Adjustment]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """The options of this module on the grading command's parser."""
    g = ap.add_argument_group("reports, exports and adjustments")
    g.add_argument("--export", action="append", default=[], choices=exports.SYSTEMS,
                   metavar="{canvas,moodle,gradescope}",
                   help="also write OUT/export-SYSTEM.csv for that platform (repeatable)")
    g.add_argument("--roster", type=Path, metavar="FILE",
                   help="CSV of the class (id, name, email; or the platform's own export)")
    g.add_argument("--canvas-column", metavar="TITLE",
                   help="the assignment's column in Canvas, as in its gradebook export: "
                        "'Title (id)' (needs --export canvas and one assignment)")
    g.add_argument("--points", type=_points, metavar="N",
                   help="the assignment's points on the platform (Canvas's Points "
                        "Possible, Moodle's Maximum Grade): the exports are scaled to it; "
                        "read from the platform's roster when it says it")
    g.add_argument("--adjustments", type=Path, metavar="FILE",
                   help="CSV of student, function (or total), points, reason")
    g.add_argument("--no-adjustments", action="store_true",
                   help="forget the adjustments and late policy the last run applied")
    g.add_argument("--deadline", metavar="TIME", help="late policy: the deadline (ISO 8601)")
    g.add_argument("--late-penalty", metavar="POINTS",
                   help="late policy: points per day late, or a percentage of the maximum "
                        "(10%%)")
    g.add_argument("--submitted", type=Path, metavar="FILE",
                   help="late policy: CSV of student, submitted (time); without it, only "
                        "the files Canvas marks LATE are late")
    late_options(g)


def _points(text: str) -> Decimal:
    """``--points``: a number above 0."""
    value = decimal(text)
    if value is None or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of points above 0")
    return value


def _options(args: argparse.Namespace, inputs: Inputs) -> list[str]:
    """What is wrong with the export options on their own (the roster read)."""
    problems = []
    if args.canvas_column is not None and "canvas" not in inputs.exports:
        problems.append(f"--canvas-column {args.canvas_column!r} names a column of Canvas's "
                        "gradebook, and no Canvas export was asked for: add --export canvas, "
                        "or leave --canvas-column out")
    if args.canvas_column is not None and not args.canvas_column.strip():
        problems.append("--canvas-column is empty: give the column's title as Canvas's "
                        "gradebook export has it, 'Title (id)'")
    inputs.scales, more = resolve(inputs.exports, inputs.roster, args.points,
                                  args.canvas_column)
    roster = inputs.roster
    if args.canvas_column and roster is not None and roster.platform == "canvas":
        # the title as the gradebook export has it (Canvas finds a column by its id)
        inputs.canvas_column = points_of(roster.columns, args.canvas_column)[0] or \
            args.canvas_column
    return problems + more


def read_inputs(args: argparse.Namespace) -> Inputs:
    """Read the roster and the adjustments file (no student is known yet), and check
    the export options against the roster."""
    inputs = Inputs(exports=list(dict.fromkeys(args.export)), canvas_column=args.canvas_column)
    late = (args.deadline, args.late_penalty)
    if any(x is not None for x in late) and not all(x is not None for x in late):
        raise InputError("late policy", ["--deadline and --late-penalty go together: give "
                                         "both (and --submitted FILE with the times)"])
    if args.deadline is None and (args.submitted or args.extensions) is not None:
        given = "--submitted" if args.submitted is not None else "--extensions"
        raise InputError("late policy", [f"{given} belongs to a late policy: give "
                                         "--deadline and --late-penalty too"])
    problems: list[InputError] = []
    if args.roster is not None:
        try:
            inputs.roster = read_roster(args.roster)
        except InputError as exc:
            problems.append(exc)
    if args.adjustments is not None:
        try:
            inputs.adjustments = adj.read_adjustments(args.adjustments)
        except InputError as exc:
            problems.append(exc)
    options = _options(args, inputs) if not problems else []
    if options:
        problems.append(InputError("the export options", options))
    if problems:
        raise InputError("the files given", [str(p) for p in problems]) if len(problems) > 1 \
            else problems[0]
    return inputs


def _one_column(inputs: Inputs, of: dict[Key, str | None]) -> None:
    """Refuse ``--canvas-column`` for a run of several assignments: which of them would
    the one column be?"""
    named = Counter(a for a in of.values() if a)
    if inputs.canvas_column is None or len(named) < 2:
        return
    shown = ", ".join(f"{a} ({n})" for a, n in named.most_common())
    raise InputError("the export options", [
        f"--canvas-column {inputs.canvas_column!r} is one Canvas column, and the notebooks "
        f"name {len(named)} assignments ({shown}): give --assignment to grade them all as "
        "the column's assignment, or leave --canvas-column out to export each to a new "
        "column"])


def _assignments(intake: Intake, assignment: str | None,
                 workers: int = 1) -> dict[Key, str | None]:
    """Each student's assignment: ``assignment``, or the one the notebook names.

    Every notebook is read here, by ``workers`` helper processes at once and many to a
    helper (:func:`.intake.notebook.read_ahead`): grading then finds it read.
    """
    found = [s.path for s in intake.submissions if s.path is not None]
    paths = [s.path if assignment is None else None for s in intake.submissions]
    read_ahead(found, workers)
    named = [named_assignment(p) if p is not None else None for p in paths]
    return {(s.student.name, s.student.id): assignment or n
            for s, n in zip(intake.submissions, named, strict=True)}


def _previous(out: Path) -> dict:
    try:
        data = json.loads((out / "results.json").read_text(encoding="utf-8"))
        return data.get("inputs", {}) if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def prepare(inputs: Inputs, args: argparse.Namespace, intake: Intake, out: Path) -> None:
    """Check the output folder and attach the inputs to the students found.

    Raises
    ------
    InputError, OutFolderError
    """
    of = _assignments(intake, args.assignment, getattr(args, "workers", 1))
    _one_column(inputs, of)
    outdir.check_out(out, {a for a in of.values() if a})
    keys = sorted(of)
    inputs.kinds = kinds_of(((s.student.name, s.student.id), s.layout)
                            for s in intake.submissions)
    if inputs.roster is not None:
        check_ids(inputs.roster, inputs.kinds)
        inputs.matched = match(inputs.roster, keys, inputs.kinds)
    previous = {} if args.no_adjustments else _previous(out)
    if inputs.adjustments is None and previous.get("adjustments"):
        inputs.adjustments = adj.AdjustmentFile.from_record(previous["adjustments"])
        inputs.adjustments_reused = True
        inputs.notes.append(_reused("adjustments", inputs.adjustments.path,
                                    inputs.adjustments.sha256, len(inputs.adjustments.rows)))
    if inputs.adjustments is not None:
        functions = {k: [t.name for t in ASSIGNMENTS[a]] if a in ASSIGNMENTS else None
                     for k, a in of.items()}
        try:
            inputs.resolved = adj.resolve(inputs.adjustments, keys, functions, inputs.matched)
        except InputError as exc:
            if inputs.adjustments_reused:
                exc.problems.append("these are the rows the last run applied: give "
                                    "--adjustments FILE to replace them, or --no-adjustments")
            raise
    if args.deadline is not None:
        inputs.late = read_policy(
            args.deadline, args.late_penalty,
            str(args.submitted) if args.submitted is not None else None, keys,
            inputs.matched,
            extensions=str(args.extensions) if args.extensions is not None else None)
    elif previous.get("late_policy"):
        inputs.late = LatePolicy.from_record(previous["late_policy"])
        inputs.late.unknown = sorted(k for k in keys if k not in inputs.late.times)
        inputs.late_reused = True
        inputs.notes.append(_reused("late policy times", inputs.late.times_file,
                                    inputs.late.sha256, len(inputs.late.times)))


def _reused(what: str, path: str, sha256: str, rows: int) -> str:
    line = (f"{what}: applying again the {rows} rows of the last run (from {path}); "
            "--no-adjustments drops them")
    try:
        if sha256_of(Path(path)) != sha256:
            line += f"; warning: {path} changed since: give it again to apply the new rows"
    except OSError:
        pass
    return line


def apply_all(inputs: Inputs, grades: list[dict]) -> None:
    """Apply the adjustments, then the late policy, to every record (from the grader's
    points, whether the record is new or the last run's)."""
    for g in grades:
        k = gradebook.identity(g)
        rows = list(inputs.resolved.get(k, []))
        adj.apply(g, rows)
        if inputs.late is not None:
            late = inputs.late.adjustment(k, g)
            if late is not None:
                adj.apply(g, [*rows, late])


def _extra(inputs: Inputs) -> dict:
    extra: dict = {"inputs": {}}
    if inputs.adjustments is not None:
        extra["inputs"]["adjustments"] = inputs.adjustments.record()
    if inputs.late is not None:
        extra["inputs"]["late_policy"] = inputs.late.record()
    if inputs.roster is not None and inputs.matched is not None:
        m = inputs.matched
        extra["roster"] = {"file": str(inputs.roster.path), "sha256": inputs.roster.sha256,
                           "layout": inputs.roster.layout, "matched": len(m.pairs),
                           "left_out": list(inputs.roster.left_out),
                           "unmatched": [{"student": k[0], "id": k[1], "why": why}
                                         for k, why in sorted(m.unmatched.items())],
                           "missing": [{"line": e.line, "id": e.id, "name": e.name,
                                        "email": e.email} for e in m.missing]}
    return extra


def finish(inputs: Inputs, out: Path, grades: list[dict], *, submissions: str,
           refused: list[str], isolation: dict, similar: list[dict],
           seconds: float, cases: dict | None = None) -> list[str]:
    """Apply the adjustments and write the whole gradebook; the lines to print.

    ``cases`` says where the grading cases came from (``{"secret": bool, "said": the
    run's words}``), recorded in ``results.json`` and the report."""
    apply_all(inputs, grades)
    extra = _extra(inputs)
    if cases is not None:
        extra["cases"] = cases
    info = report.RunInfo(submissions=submissions, seconds=seconds, refused=list(refused),
                          similar=similar, isolation=isolation,
                          adjustments=inputs.adjustments,
                          adjustments_reused=inputs.adjustments_reused, late=inputs.late,
                          roster=inputs.roster, matched=inputs.matched, cases=cases)

    def exports_and_report() -> None:
        info.exports = exports.write_exports(out, inputs.exports, grades, inputs.matched,
                                             inputs.roster, inputs.canvas_column,
                                             inputs.kinds, inputs.scales)
        extra["exports"] = [e.record() for e in info.exports]
        report.write_report(out / "report.html", grades, info)

    gradebook.write_gradebook(out, grades, refused, isolation=isolation, similar=similar,
                              extra=extra, before_results=exports_and_report)
    lines: list[str] = []
    if inputs.matched is not None:
        m = inputs.matched
        lines.append(f"roster: {count(len(m.pairs), 'submission')} matched; "
                     f"{len(m.unmatched)} with no roster row, "
                     f"{count(len(m.missing), 'roster row')} with no submission")
        lines += [f"  no roster row: {gradebook.display(_as_record(k))}: {why}"
                  for k, why in sorted(m.unmatched.items())[:SHOWN]]
        lines += [f"  no submission: line {e.line}: {e.name} ({e.id})"
                  for e in m.missing[:SHOWN]]
        lines += [f"  left out: {why}" for why in inputs.roster.left_out[:SHOWN]]
        if max(len(m.unmatched), len(m.missing), len(inputs.roster.left_out)) > SHOWN:
            lines.append("  (the report lists them all)")
    if inputs.late is not None:
        late = sum(bool(inputs.late.days_late(gradebook.identity(g), g)) for g in grades)
        lines.append(f"late policy: {inputs.late.describe()}: {count(late, 'late submission')}"
                     f", {count(len(inputs.late.unknown), 'student')} without a time")
    lines += exports.summary_lines(info.exports)
    lines += report.summary_lines(grades, info, out / "report.html")
    return lines


def _as_record(k: Key) -> dict:
    return {"student": k[0], "student_id": k[1]}
