"""A student's feedback as a web page, beside the text file (``feedback/NAME.html``).

It says what the text file says, laid out for reading: the score, any adjustment and
its reason, then per graded function how many cases passed and, for the first failures,
the case, what was expected, what came back and the hint of a known mistake.  The page
is self-contained (see :mod:`.htmlkit`): it can be mailed, or uploaded as a file of
feedback to a platform.
"""

from __future__ import annotations

import re

from ..judge.cascade import note
from ..judge.roster import display_key
from .htmlkit import Raw, bar, esc, num, page, prose, table

#: How many failed cases a function's section shows (as the text file does).
SHOWN_FAILURES = 3
_EXPECTED = re.compile(r"^(?:(?P<part>[\w ]+): )?expected (?P<expected>.*?), got (?P<got>.*)$",
                       re.DOTALL)


def expected_and_received(detail: dict) -> tuple[str, str] | None:
    """The expected and received values of a failed case, or None when it has none.

    Read from the case's ``expected`` and ``got`` (or ``received``) fields when the
    grader records them, else from its ``differences`` (one ``part: expected X, got Y``
    per differing part of an answer, joined one per line) or its ``error`` text
    (``expected X, got Y``).
    """
    if "expected" in detail and ("got" in detail or "received" in detail):
        return str(detail["expected"]), str(detail.get("got", detail.get("received")))
    lines = detail.get("differences") or [str(detail.get("error", ""))]
    found = [_EXPECTED.match(str(line)) for line in lines]
    if not found or not all(found):
        return None
    named = [(f"{m['part']} = " if m["part"] else "", m) for m in found]
    return ("\n".join(p + m["expected"] for p, m in named),
            "\n".join(p + m["got"] for p, m in named))


def _failure(d: dict) -> str:
    title = f"Case {d['case']}" + (f" ({d['kind']} case)" if d.get("kind") else "")
    if d.get("about"):
        title += f": {d['about']}"
    items = []
    if d.get("input"):  # the arguments, as the text feedback shows them
        items.append(("Input", Raw(f"<code>{esc(d['input'])}</code>")))
    values = expected_and_received(d)
    if values is not None:
        items += [("Expected", Raw(f"<code>{esc(values[0])}</code>")),
                  ("Received", Raw(f"<code>{esc(values[1])}</code>"))]
    else:
        items.append(("What happened", d.get("error", "failed")))
    if d.get("hint"):
        items.append(("Hint", prose(d["hint"])))
    pairs = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in items)
    return f"<li><p>{esc(title)}</p><dl class=\"pair\">{pairs}</dl></li>"


def _function(t: dict) -> str:
    failed = [d for d in t.get("details", []) if not d.get("passed")]
    graded = t.get("graded_points", t["points"])
    head = (f'<h2 id="fn-{esc(t["name"])}"><code>{esc(t["name"])}</code></h2>\n'
            f"<p>{bar(t['passed'], t['cases'])}{t['passed']} of {t['cases']} cases right: "
            f"{num(graded)} of {num(t['max_points'])} points.</p>")
    if t.get("with_reference"):
        names = list(t["with_reference"])
        yours = " and ".join(f"`{n}`" for n in names)
        said = note(t["name"], names, passes=t["passed"] == t["cases"])
        head += (f"\n<p>{prose(said)}. The points are those it earns with the reference; "
                 f"with your {prose(yours)}, {t.get('own_passed') or 0} of {t['cases']} "
                 "cases are right.</p>")
    if not failed:
        return head + f'\n<p class="ok">All {t["cases"]} cases right.</p>'
    shown = failed[:SHOWN_FAILURES]
    more = (f"<p>{len(failed) - len(shown)} more failed case"
            f"{'s' * (len(failed) - len(shown) != 1)} not shown.</p>"
            if len(failed) > len(shown) else "")
    first = "The first failures" if len(failed) > 1 else "The failure"
    return (head + f"\n<h3>{first}</h3>\n<ol>\n"
            + "\n".join(_failure(d) for d in shown) + f"\n</ol>\n{more}")


def feedback_page(g: dict, text_name: str = "") -> str:
    """The feedback page of one record (see :func:`.gradebook.record`).

    Parameters
    ----------
    g
        The record, with its adjustments applied.
    text_name
        The file name of the text feedback beside it, linked from the page.
    """
    who = display_key((g["student"], g.get("student_id") or ""))
    assignment = g["assignment"] or "no assignment"
    parts = [f"<header>\n<h1>Feedback for {esc(who)}</h1>\n"
             f"<p class=\"muted\">Assignment {esc(assignment)}</p>\n</header>\n<main>"]
    cards = [("Score", f"{num(g['total'])} of {num(g['max'])}")]
    if g.get("adjustments"):
        cards.append(("Before adjustments", num(g.get("graded_total", g["total"]))))
    parts.append('<dl class="cards">' + "".join(
        f"<div><dt>{esc(k)}</dt><dd>{esc(v)}</dd></div>" for k, v in cards) + "</dl>")
    if g["status"] != "ok":
        parts.append(f'<p class="note"><strong>Status:</strong> {esc(g["status"])}</p>')
    if g.get("source"):
        parts.append(f"<p>Graded: <code>{esc(g['source'])}</code></p>")
    parts += [f"<p>Note: {esc(w)}</p>" for w in g.get("warnings", [])]
    if g.get("adjustments"):
        parts.append('<h2 id="adjustments">Adjustments</h2>')
        parts.append(table("Changes to the grader's points, with their reasons",
                           ["Function", "Points", "Reason"],
                           [(a["function"], f"{a['points']:+g}", a["reason"])
                            for a in g["adjustments"]], numeric=[1], wrap=[2]))
    for t in g.get("tasks", []):
        parts.append(_function(t))
    if g.get("notes"):
        parts.append('<h2 id="cells">Cells that raised an error when run in order</h2>\n'
                     "<p>[n] is the number Jupyter shows beside a cell after Restart Kernel "
                     "and Run All.</p>\n<ul>"
                     + "".join(f"<li><code>{esc(n)}</code></li>" for n in g["notes"])
                     + "</ul>")
    parts.append("</main>")
    link = (f' The same feedback as text: <a href="{esc(text_name)}">{esc(text_name)}</a>.'
            if text_name else "")
    parts.append(f"<footer><p>Graded automatically: each function is called on public and "
                 f"further grading cases, and compared with the reference.{link}</p></footer>")
    return page(f"Feedback: {who} ({assignment})", "\n".join(parts),
                f"Score {num(g['total'])} of {num(g['max'])}")
