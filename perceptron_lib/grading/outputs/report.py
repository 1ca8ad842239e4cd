"""The class report: ``OUT/report.html``, and the summary the terminal prints after a run.

One self-contained page (see :mod:`.htmlkit`) that shows an instructor at a glance how
the class did and what to look at:

- first, what needs a person (:mod:`.attention`): the grader's errors, files refused
  or unreadable, notebooks of another assignment, submissions stopped by a limit,
  students with several notebooks, the roster's loose ends, students left out of an
  export or a feedback zip...; each item names its students and links to the details;
- a row per student (:mod:`.report_students`): the name (the roster's when a row
  matched), the id, the total, the status, whether late, the adjustments, and a link to
  the feedback page;
- the scores of each assignment (a histogram, with its numbers), mean and median;
- per graded function, the share of students with every case right, and per case the
  share that passed it;
- the most common mistakes, named by the hints the feedback gives, with how many
  students made each and who; then the other failures (a function not defined, not
  written yet, raising an error, a wrong answer that is no known mistake), by kind and
  student by student, each kind once per student with its number of cases, and what a
  case said cut at a word boundary;
- every submission that did not finish normally (a timeout, a crash, a file that is
  not a notebook...), with its status, and the slowest submissions;
- the adjustments made by a person and the late policy, the roster's unmatched rows
  and submissions, the export files and whom they leave out, the platforms' feedback
  zips (:mod:`.feedback_zip`) and whom they leave out;
- the graded functions that are the same across students (never used in scores).

The numbers come from :mod:`.classstats`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..judge.adjustments import AdjustmentFile
from ..judge.late import CANVAS_LATE, LatePolicy
from ..judge.records import identity
from ..judge.roster import Roster, RosterMatch, display_key
from . import attention, feedback_zip, outdir
from . import classstats as cs
from .exports import Export
from .htmlkit import (
    Raw,
    bars_svg,
    count,
    esc,
    figure,
    histogram_svg,
    num,
    page,
    percent,
    prose,
    rate,
    shorten,
    table,
)
from .report_students import students_table

#: How many students a "who" list of the report names before it counts the rest.
WHO_SHOWN = 60
SLOWEST = 10
#: How long what a failed case said may be in the report (cut at a word boundary).
SAID_SHOWN = 80


@dataclass
class RunInfo:
    """What the report says besides the records: the run's inputs and outputs."""

    submissions: str = ""
    seconds: float = 0.0
    refused: list[str] = field(default_factory=list)
    similar: list[dict] = field(default_factory=list)
    isolation: dict | None = None
    adjustments: AdjustmentFile | None = None
    adjustments_reused: bool = False
    late: LatePolicy | None = None
    roster: Roster | None = None
    matched: RosterMatch | None = None
    exports: list[Export] = field(default_factory=list)
    #: Where the grading cases came from (``{"secret": bool, "said": words}``).
    cases: dict | None = None
    generated: datetime = field(default_factory=lambda: datetime.now().astimezone())


def _who(g: dict) -> str:
    return display_key((g["student"], g.get("student_id") or ""))


class _Links:
    """Students' names as links to their feedback pages (relative to the report)."""

    def __init__(self, records: list[dict]) -> None:
        self.pages = {_who(g): g.get("feedback_html", "") for g in records}

    def __call__(self, who: str) -> Raw:
        href = self.pages.get(who)
        return Raw(f'<a href="{esc(href)}">{esc(who)}</a>' if href else esc(who))

    def names(self, who: list[str]) -> str:
        """The first :data:`WHO_SHOWN` of ``who`` as links, then how many more."""
        shown = ", ".join(self(w) for w in who[:WHO_SHOWN])
        return shown + (f" and {len(who) - WHO_SHOWN} more" if len(who) > WHO_SHOWN else "")

    def many(self, who: list[str], noun: str = "student") -> Raw:
        """A count that opens onto the names (the first :data:`WHO_SHOWN` of them)."""
        said = count(len(who), noun)
        return Raw(f"<details><summary>{said}</summary><p>{self.names(who)}</p></details>")


def _section(ident: str, title: str, body: str) -> str:
    return (f'<section id="{ident}" aria-labelledby="{ident}-h">\n'
            f'<h2 id="{ident}-h">{esc(title)}</h2>\n{body}\n</section>')


def _cards(items: list[tuple[str, str]]) -> str:
    return ('<dl class="cards">' + "".join(f"<div><dt>{esc(k)}</dt><dd>{esc(v)}</dd></div>"
                                            for k, v in items) + "</dl>")


# ------------------------------------------------------------------ sections
def _attention(records: list[dict], info: RunInfo, links: _Links,
               zips: list[feedback_zip.Planned]) -> str:
    found = attention.items(records, info.refused, info.matched, info.exports, zips,
                            info.late)
    if not found:
        return _section("attention", "Needs attention",
                        "<p>Nothing needs a person: every submission was graded normally, "
                        "and every student is in the files written.</p>")
    lines = []
    for item in found:
        n = len(item.who) + len(item.files)
        head = f'<a href="#{item.section}">{esc(item.what)}</a>' + (f" ({n})" if n else "")
        names = links.names(item.who) if item.who else ""
        files = ", ".join(esc(f) for f in item.files)
        rest = "; ".join(x for x in (names, files) if x)
        lines.append(f"<li>{head}{': ' + rest if rest else ''}</li>")
    return _section("attention", "Needs attention",
                    f'<ul class="attention">{"".join(lines)}</ul>')


def _students(records: list[dict], info: RunInfo) -> str:
    body = ["<p>The name is the roster's where a roster row matched the submission. The "
            "feedback page is what the student reads.</p>",
            students_table(records, info.matched, info.late)]
    return _section("students", "Students", "\n".join(body))


def _summary(records: list[dict], info: RunInfo) -> str:
    kinds = cs.statuses(records)
    ok = dict(kinds).get("ok", 0)
    items = [("Submissions", str(len(records))), ("Finished normally", str(ok)),
             ("Did not finish normally", str(len(records) - ok)),
             ("Adjusted by a person", str(sum(bool(g.get("adjustments")) for g in records)))]
    if info.matched is not None:
        items += [("Not in the roster", str(len(info.matched.unmatched))),
                  ("Roster rows without a submission", str(len(info.matched.missing)))]
    body = [_cards(items)]
    for assignment in cs.assignments(records):
        s = cs.scores(records, assignment)
        body.append(f"<p><strong>{esc(assignment)}</strong>: {s['students']} students, mean "
                    f"{num(s['mean'])} and median {num(s['median'])} of {num(s['max'])} "
                    f"points; {s['full']} with full marks, {s['zero']} with none.</p>")
    body.append(table("Statuses of the submissions", ["Status", "Submissions"],
                      [(k, v) for k, v in kinds], numeric=[1]))
    return _section("summary", "Summary", "\n".join(body))


def _scores(records: list[dict], assignment: str, k: int) -> str:
    s = cs.scores(records, assignment)
    bins = cs.histogram(s["totals"], s["max"])
    words = "; ".join(f"{b['count']} scored {b['label']}" + (" (full marks)" if b["full"]
                                                               else "") for b in bins)
    name = f"Histogram of the totals of {assignment}, {s['students']} students"
    svg = histogram_svg(bins, name, f"{name}: {words}.", ident=f"h{k}")
    rows = [(("full marks, " if b["full"] else "") + (f"{num(b['low'])}" if b["full"] else
             f"from {num(b['low'])} to under {num(b['high'])}"), b["count"],
             percent(b["count"], s["students"])) for b in bins]
    numbers = table(f"Totals of {assignment}", ["Points", "Students", "Share"], rows,
                    numeric=[1, 2])
    caption = (f"Totals of {s['students']} students out of {num(s['max'])} points (columns: "
               f"how many students scored in each range; the hatched column is full marks). "
               f"Mean {num(s['mean'])}, median {num(s['median'])}.")
    extra = (f"<p>{s['adjusted']} total{'s' * (s['adjusted'] != 1)} include an adjustment by "
             "a person.</p>" if s["adjusted"] else "")
    return (f'<h3 id="scores-{esc(assignment)}">{esc(assignment)}</h3>\n'
            + figure(svg, caption, numbers) + extra)


def _functions(records: list[dict], assignment: str) -> str:
    fns = cs.functions(records, assignment)
    parts = [f'<h3 id="functions-{esc(assignment)}">{esc(assignment)}</h3>']
    items = [(f["name"], f["full"], f["students"]) for f in fns]
    name = f"Share of students with every case right, per graded function of {assignment}"
    words = "; ".join(f"{n}: {percent(p, w)} ({p} of {w})" for n, p, w in items)
    parts.append(figure(bars_svg(items, name, f"{name}: {words}."),
                        f"Students whose notebook ran, with every case of the function right. "
                        f"{words}."))
    parts.append(table(f"Graded functions of {assignment}",
                       ["Function", "Points", "Mean points", "Every case right",
                        "No case right"],
                       [(Raw(f"<code>{esc(f['name'])}</code>"), num(f["points"]),
                         num(f["mean"]), rate(f["full"], f["students"]),
                         rate(f["zero"], f["students"])) for f in fns], numeric=[1, 2]))
    for f in fns:
        parts.append(table(f"Cases of {f['name']} ({assignment}): the share of students "
                           "that passed each", ["Case", "Kind", "About", "Passed"],
                           [(c["case"], c["kind"], c["about"], rate(c["passed"], c["students"]))
                            for c in f["cases"]], numeric=[0], wrap=[2],
                           label=f"Cases of {f['name']} ({assignment})"))
    return "\n".join(parts)


def _mistakes(records: list[dict], links: _Links) -> str:
    found = cs.mistakes(records)
    ran = {a: len([g for g in cs.of(records, a) if g.get("tasks")])
           for a in cs.assignments(records)}

    def rows(known: bool) -> list[tuple]:
        return [(prose(e["what"]), Raw(f"<code>{esc(e['function'])}</code>"),
                 rate(e["students"], ran.get(e["assignment"], 0)), e["cases"],
                 links.many(e["who"])) for e in found if e["known"] is known]

    known, other = rows(True), rows(False)
    body = ["<p>A failed case whose answer is what a known mistake gives is named by the "
            "hint the feedback shows the student. Students: how many made the mistake in at "
            "least one case, of those whose notebook ran.</p>"]
    if known:
        body.append(table("Known mistakes, the most common first",
                          ["Mistake (the hint)", "Function", "Students", "Failed cases", "Who"],
                          known, numeric=[3], wrap=[0]))
    else:
        body.append("<p>No failed case matched a known mistake.</p>")
    if other:
        body.append(table("Other failures, the most common first",
                          ["What went wrong", "Function", "Students", "Failed cases", "Who"],
                          other, numeric=[3], wrap=[0]))
    each = cs.failures_by_student(records)
    if each:
        body.append(table("Other failures, student by student",
                          ["Student", "Failed cases", "What went wrong"],
                          [(links(e["student"]), e["cases"], _failed(e["items"]))
                           for e in each], numeric=[1], wrap=[2], row_headers=True))
    return _section("mistakes", "Common mistakes", "\n".join(body))


def _failed(items: list[dict]) -> Raw:
    """A student's failures that are no known mistake: one line per function and kind."""
    lines = []
    for i in items:
        said = (f": <q>{esc(shorten(i['example'], SAID_SHOWN))}</q>"
                if i["example"] else "")
        lines.append(f"<li><code>{esc(i['function'])}</code>: {esc(i['what'])} "
                     f"({count(i['cases'], 'case')}){said}</li>")
    return Raw(f"<ul>{''.join(lines)}</ul>")


def _unfinished(records: list[dict], info: RunInfo, links: _Links) -> str:
    bad = cs.unfinished(records)
    body = []
    if bad:
        body.append(table(f"{len(bad)} submission{'s' * (len(bad) != 1)} that did not finish "
                          "normally", ["Student", "Kind", "Status", "File"],
                          [(links(_who(g)), cs.status_kind(g["status"]), g["status"],
                            g.get("source", "")) for g in bad], wrap=[2, 3]))
    else:
        body.append("<p>Every submission finished normally.</p>")
    if info.refused:
        body.append("<p>Archives refused as a whole (their students are not in the "
                    "gradebook):</p><ul>" + "".join(f"<li>{esc(r)}</li>" for r in info.refused)
                    + "</ul>")
    slow = cs.slowest(records, SLOWEST)
    if slow:
        body.append(table(f"The {len(slow)} slowest submissions", ["Student", "Seconds", "Status"],
                          [(links(_who(g)), f"{float(g['seconds']):.2f}", g["status"])
                           for g in slow], numeric=[1], wrap=[2]))
    return _section("unfinished", "Submissions that did not finish normally", "\n".join(body))


def _adjustments(records: list[dict], info: RunInfo, links: _Links) -> str:
    rows = [(links(_who(g)), a["function"], f"{a['points']:+g}", a["reason"], a["source"])
            for g in sorted(records, key=_who) for a in g.get("adjustments", [])]
    body = []
    if info.adjustments is not None:
        again = " (the rows of the last run, applied again)" if info.adjustments_reused else ""
        body.append(f"<p>Adjustments file <code>{esc(info.adjustments.path)}</code>{again}, "
                    f"SHA-256 <code>{esc(info.adjustments.sha256)}</code>: "
                    f"{len(info.adjustments.rows)} rows.</p>")
    if info.late is not None:
        body.append(_late(records, info.late))
    if rows:
        body.append(table("Adjustments applied after grading", ["Student", "Function",
                          "Points", "Reason", "From"], rows, numeric=[2], wrap=[3]))
    else:
        body.append("<p>No grade was adjusted by a person.</p>")
    odd = [g for g in records if g.get("adjustments") and not 0 <= g["total"] <= g["max"]]
    if odd:
        body.append('<p class="note">Totals outside 0 to the maximum after adjustment: '
                    + ", ".join(f"{links(_who(g))} ({num(g['total'])} of {num(g['max'])})"
                                for g in odd) + ".</p>")
    return _section("adjustments", "Adjustments", "\n".join(body))


def _late(records: list[dict], late: LatePolicy) -> str:
    """The late policy in a paragraph: where the times come from, how many were late."""
    days = {identity(g): late.days_late(identity(g), g) for g in records}
    marked = [g for g in records if CANVAS_LATE in g.get("warnings", [])
              and identity(g) not in late.times and days[identity(g)]]
    source = (f"times from <code>{esc(late.times_file)}</code>" if late.times_file
              else "no file of times")
    if late.extensions_file:
        source += f", extensions from <code>{esc(late.extensions_file)}</code>"
    unknown = [k for k in late.unknown if not days.get(k)]
    return (f"<p>Late policy: {esc(late.describe())}; {source}. "
            f"{count(sum(bool(d) for d in days.values()), 'late submission')}"
            + (f" ({len(marked)} of them marked LATE by Canvas, with no time known: "
               "a started day each)" if marked else "")
            + f"; {count(len(unknown), 'student')} without a time (not penalised)"
            + (f"; {count(len(late.extensions), 'extension')}" if late.extensions else "")
            + '. The table of <a href="#students">students</a> says who was late and by how '
              "much.</p>")


def _platforms(zips: list[feedback_zip.Planned], links: _Links) -> str:
    if not zips:
        return _section("platforms", "Feedback for the platforms",
                        "<p>No feedback zip: no notebook came in Moodle's or Canvas's "
                        "download, whose file names carry the ids the platforms' imports "
                        "match. The feedback pages can be mailed as they are.</p>")
    how = {"moodle": "in Moodle, the assignment's grading page, \u201cUpload multiple "
                     "feedback files in a zip\u201d",
           "canvas": "in Canvas, the assignment's \u201cRe-Upload Submissions\u201d (each "
                     "file becomes a comment on the student's submission)"}
    body = [table("Feedback zips to upload", ["File", "Students", "Left out", "Upload it"],
                  [(Raw(f'<a href="{esc(z.file)}">{esc(z.file)}</a>'), len(z.members),
                    len(z.left_out), how[z.platform]) for z in zips],
                  numeric=[1, 2], wrap=[3])]
    left = [(z.file, links(display_key(k)), why) for z in zips for k, why in z.left_out]
    if left:
        body.append(table("Students not in a feedback zip", ["File", "Student", "Why"], left,
                          wrap=[2]))
    return _section("platforms", "Feedback for the platforms", "\n".join(body))


def _roster(info: RunInfo, links: _Links) -> str:
    if info.roster is None or info.matched is None:
        return _section("roster", "Roster", "<p>No roster was given (<code>--roster</code>): "
                        "the exports use the ids read from the submissions' file names.</p>")
    m = info.matched
    body = [f"<p>Roster <code>{esc(info.roster.path)}</code> ({esc(info.roster.layout)}), "
            f"SHA-256 <code>{esc(info.roster.sha256)}</code>: {len(info.roster.entries)} "
            f"students, {len(m.pairs)} matched to a submission.</p>"]
    if m.unmatched:
        body.append(table("Submissions with no roster row", ["Student", "Why"],
                          [(links(display_key(k)), why) for k, why in sorted(m.unmatched.items())],
                          wrap=[1]))
    if m.missing:
        body.append(table("Roster rows with no submission", ["Line", "Id", "Name", "E-mail"],
                          [(e.line, e.id, e.name, e.email) for e in m.missing], numeric=[0]))
    if not m.unmatched and not m.missing:
        body.append("<p>Every submission has its roster row, and every row a submission.</p>")
    return _section("roster", "Roster", "\n".join(body))


def _exports(info: RunInfo) -> str:
    if not info.exports:
        return _section("exports", "Exports", "<p>No export was asked for (<code>--export "
                        "canvas</code>, <code>moodle</code> or <code>gradescope</code>).</p>")
    body = [table("Files for the learning platforms", ["File", "Platform", "Rows",
                  "Without a submission", "Not exported"],
                  [(Raw(f'<a href="{esc(e.path.name)}">{esc(e.path.name)}</a>'), e.system,
                    e.rows, e.empty, len(e.skipped)) for e in info.exports], numeric=[2, 3, 4])]
    left = [(e.path.name, who, why) for e in info.exports for who, why in e.skipped]
    if left:
        body.append(table("Students not exported", ["File", "Student", "Why"], left, wrap=[2]))
    warnings = [(e.path.name, w) for e in info.exports for w in e.warnings]
    if warnings:
        body.append(table("Warnings", ["File", "Warning"], warnings, wrap=[1]))
    return _section("exports", "Exports", "\n".join(body))


def _similar(info: RunInfo, links: _Links) -> str:
    body = ["<p>Graded functions that are the same up to names, comments, layout and the "
            "order of operands (<code>a + b</code>, <code>b + a</code>), or the same as the "
            "library's code or the reference solution. They are never used in scores: "
            "students may well write a short function the same way on their own; only a "
            "person who reads both can tell.</p>"]
    if info.similar:
        body.append(table("The functions, and who wrote them the same way",
                          ["Assignment", "Function", "Size (nodes)",
                           "Students", "Same as"],
                          [(s["assignment"], Raw(f"<code>{esc(s['function'])}</code>"),
                            s["size"], links.many(list(s["students"])),
                            " and ".join(s["same_as"]) or "—") for s in info.similar],
                          numeric=[2], wrap=[4]))
    else:
        body.append("<p>No graded function is the same across students.</p>")
    return _section("similar", "Similar graded functions", "\n".join(body))


# ------------------------------------------------------------------ the page
SECTIONS = [("attention", "Needs attention"), ("students", "Students"),
            ("summary", "Summary"), ("scores", "Scores"), ("functions", "Functions and cases"),
            ("mistakes", "Common mistakes"), ("unfinished", "Did not finish"),
            ("adjustments", "Adjustments"), ("roster", "Roster"), ("exports", "Exports"),
            ("platforms", "Feedback zips"), ("similar", "Similar functions")]


def report_html(records: list[dict], info: RunInfo) -> str:
    """The whole report page for the records of a run (adjustments applied)."""
    links = _Links(records)
    zips = feedback_zip.plan(records)
    present = cs.assignments(records)
    title = f"Class report: {', '.join(present) or 'no assignment'}"
    nav = "".join(f'<li><a href="#{k}">{esc(v)}</a></li>' for k, v in SECTIONS)
    head = (f"<header>\n<h1>{esc(title)}</h1>\n<p class=\"muted\">{len(records)} submissions "
            f"from <code>{esc(info.submissions)}</code>, graded "
            f"{info.generated:%Y-%m-%d %H:%M}.</p>\n<nav aria-label=\"Sections of the report\">"
            f"<ul>{nav}</ul></nav>\n</header>")
    scores = "\n".join(_scores(records, a, k) for k, a in enumerate(present)) or \
        "<p>No submission named an assignment of the course.</p>"
    functions = "\n".join(_functions(records, a) for a in present)
    main = "\n".join([_attention(records, info, links, zips), _students(records, info),
                      _summary(records, info), _section("scores", "Scores", scores),
                      _section("functions", "Functions and cases", functions or
                               "<p>Nothing was graded.</p>"),
                      _mistakes(records, links), _unfinished(records, info, links),
                      _adjustments(records, info, links), _roster(info, links),
                      _exports(info), _platforms(zips, links), _similar(info, links)])
    sandbox = (info.isolation or {}).get("sandbox", "")
    said = (info.cases or {}).get("said")
    foot = (f"<footer><p>Grader SHA-256 {esc(_grader_hash(records))}"
            + (f"; sandbox: {esc(sandbox)}" if sandbox else "")
            + (f"; {esc(said)}" if isinstance(said, str) else "")
            + ". This page loads nothing from anywhere: it can be kept, mailed or "
              "printed as it is.</p></footer>")
    return page(title, f"{head}\n<main>\n{main}\n</main>\n{foot}",
                f"How the class did on {', '.join(present)}")


def _grader_hash(records: list[dict]) -> str:
    hashes = sorted({g.get("grader_sha256", "") for g in records} - {""})
    return ", ".join(hashes) or "unknown"


def write_report(path: Path, records: list[dict], info: RunInfo) -> None:
    """Write ``report.html`` whole or not at all."""
    outdir.write_text(path, report_html(records, info))


def summary_lines(records: list[dict], info: RunInfo, report: Path) -> list[str]:
    """What the terminal prints at the end of a run: the class in a few lines."""
    kinds = cs.statuses(records)
    lines = [f"Class: {len(records)} submissions; statuses: "
             + ", ".join(f"{v} {k}" for k, v in kinds)]
    for assignment in cs.assignments(records):
        s = cs.scores(records, assignment)
        lines.append(f"  {assignment}: {count(s['students'], 'student')}, mean "
                     f"{num(s['mean'])}, median {num(s['median'])} of {num(s['max'])}; "
                     f"{s['full']} with full marks, {s['zero']} at zero")
    known = [e for e in cs.mistakes(records) if e["known"]][:3]
    for e in known:
        lines.append(f"  common mistake in {e['function']} ({count(e['students'], 'student')}):"
                     f" {e['what']}")
    adjusted = sum(bool(g.get("adjustments")) for g in records)
    if adjusted:
        lines.append(f"  {count(adjusted, 'total')} adjusted by a person (see the report)")
    found = attention.items(records, info.refused, info.matched, info.exports,
                            feedback_zip.plan(records), info.late)
    if found:
        sizes = [len(i.who) + len(i.files) for i in found]
        said = "; ".join(i.what.split(":")[0] + (f" ({n})" if n else "")
                         for i, n in zip(found, sizes, strict=True))
        lines.append(f"Needs attention: {said} (the report's first list)")
    lines.append(f"Report: {report}")
    return lines
