"""What the class report says, computed from the grade records of a run.

Every function takes the records of ``results.json`` (see :func:`.gradebook.record`) and
returns plain data, so that the report (:mod:`.report`), the terminal summary and the
tests read the same numbers.  Scores are the final ones (adjustments included); what a
function or a case says about the class uses the grader's results alone.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable

from ..assignments import ASSIGNMENTS

#: The statuses in the order the report lists them; anything else keeps its first words.
STATUS_KINDS = ("ok", "wrong assignment", "timeout", "memory", "crashed", "not a notebook",
                "no notebook", "several notebooks", "no assignment", "grader error")
#: The label of a failure that is none of the kinds :func:`failure` knows; what it said
#: is in :func:`failures_by_student`.
OTHER = "another failure (see the failures student by student)"

_FAILURES = [
    (re.compile(r"^no function named \S+"), "the function is not defined"),
    (re.compile(r"NotImplementedError"), "not written yet (raises NotImplementedError)"),
    (re.compile(r"^timed out"), "timed out (a call ran past its time limit)"),
    (re.compile(r"^called exit"), "called exit()"),
    (re.compile(r"^no answer"), "no answer (the run stopped before this case)"),
    (re.compile(r"^unencodable answer"), "returned something that is not a value to compare"),
    (re.compile(r"^the answer could not be compared"), "an answer of the wrong kind"),
    (re.compile(r"^the answer is right, but your function changed"),
     "a right answer, but an argument changed in place"),
]
_STOPPED = re.compile(r"^stopped: (.*?)(?: \(|$)")
_RAISED = re.compile(r"^(?:your function raised )?([A-Za-z_][\w.]*(?:Error|Exception|Exit|"
                     r"Interrupt|Warning))\b")
_WRONG = re.compile(r"^(?:[\w ]+: )?expected ")
#: The labels of :func:`failure` whose case's own words say more (the error's message).
_TELLING = ("raised ", "stopped: ", OTHER)


def status_kind(status: str) -> str:
    """A short name for a record's status: ``ok``, ``timeout``, ``crashed``...

    >>> status_kind("timeout: stopped after 60 s (the whole notebook)")
    'timeout'
    >>> status_kind("not a readable notebook: Expecting value")
    'not a notebook'
    >>> status_kind("memory: the submission's processes together used more than 2 GiB")
    'memory'
    """
    s = status.strip().lower()
    if s == "ok":
        return "ok"
    if s.startswith("wrong assignment"):
        return "wrong assignment"
    if "timeout" in s or "timed out" in s:
        return "timeout"
    if s.startswith(("not a readable notebook", "not a notebook", "unreadable file")):
        return "not a notebook"
    if s.startswith("several notebooks"):
        return "several notebooks"
    if s.startswith(("no notebook", "refused")):
        return "no notebook"
    if s.startswith(("no assignment", "unknown assignment")):
        return "no assignment"
    if s.startswith("grader error"):
        return "grader error"
    if s.startswith("memory"):
        return "memory"
    if s.startswith("cancelled"):
        return "cancelled"
    if s.startswith(("exited", "answers too large")) or "killed" in s or "crash" in s:
        return "crashed"
    return status.split(":")[0].strip()[:40] or "unknown"


def statuses(records: Iterable[dict]) -> list[tuple[str, int]]:
    """How many records have each status kind, in :data:`STATUS_KINDS` order."""
    counts = Counter(status_kind(g["status"]) for g in records)
    order = {k: i for i, k in enumerate(STATUS_KINDS)}
    return sorted(counts.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))


def assignments(records: Iterable[dict]) -> list[str]:
    """The course's assignments present in the records, in the course's order."""
    present = {g["assignment"] for g in records}
    return [a for a in ASSIGNMENTS if a in present]


def of(records: Iterable[dict], assignment: str) -> list[dict]:
    """The records of one assignment."""
    return [g for g in records if g["assignment"] == assignment]


def scores(records: list[dict], assignment: str) -> dict:
    """The distribution of one assignment's totals.

    Returns
    -------
    dict
        ``students``, ``max`` (the assignment's), ``mean``, ``median``, ``full``
        (students at or above the maximum), ``zero`` (at or below 0), ``adjusted``
        (students with an adjustment) and ``totals`` (sorted).
    """
    group = of(records, assignment)
    maximum = float(sum(t.points for t in ASSIGNMENTS[assignment]))
    totals = sorted(float(g["total"]) for g in group)
    return {"assignment": assignment, "students": len(group), "max": maximum,
            "mean": statistics.fmean(totals) if totals else 0.0,
            "median": statistics.median(totals) if totals else 0.0,
            "full": sum(t >= maximum - 1e-9 for t in totals),
            "zero": sum(t <= 1e-9 for t in totals),
            "adjusted": sum(bool(g.get("adjustments")) for g in group),
            "totals": totals}


def histogram(totals: list[float], maximum: float) -> list[dict]:
    """Bins of totals: one point wide up to 20 points (else a tenth of the maximum), and
    a last bin for full marks.

    Returns
    -------
    list of dict
        ``low``, ``high`` (the bin holds ``low <= total < high``; the last one, full
        marks, ``total >= low``), ``label`` and ``count``.  Totals below 0 count in the
        first bin, totals above the maximum in the last.
    """
    if maximum <= 0:
        return [{"low": 0.0, "high": 0.0, "label": "0", "count": len(totals), "full": True}]
    width = 1.0 if maximum <= 20 and float(maximum).is_integer() else maximum / 10
    count = max(1, math.ceil(maximum / width - 1e-9))
    edges = [(k * width, min((k + 1) * width, maximum)) for k in range(count)]
    bins = [{"low": lo, "high": hi, "label": f"{lo:.3g}–{hi:.3g}", "count": 0, "full": False}
            for lo, hi in edges]
    bins.append({"low": maximum, "high": maximum, "label": f"{maximum:g}", "count": 0,
                 "full": True})
    for t in totals:
        if t >= maximum - 1e-9:
            bins[-1]["count"] += 1
            continue
        k = max(0, min(len(bins) - 2, int(t // width)))
        bins[k]["count"] += 1
    return bins


def _graded(records: list[dict], assignment: str) -> list[dict]:
    return [g for g in of(records, assignment) if g.get("tasks")]


def functions(records: list[dict], assignment: str) -> list[dict]:
    """Per graded function: how the class did on it (the grader's points, no adjustments).

    Returns
    -------
    list of dict
        In the assignment's order: ``name``, ``points`` (on offer), ``students`` (whose
        notebook ran), ``full`` (all cases right), ``zero`` (no case right), ``mean``
        (points) and ``cases``: per case ``case``, ``kind``, ``about``, ``passed``.
    """
    graded = _graded(records, assignment)
    out = []
    for task in ASSIGNMENTS[assignment]:
        results = [t for g in graded for t in g["tasks"] if t["name"] == task.name]
        cases: dict[int, dict] = {}
        for t in results:
            for d in t.get("details", []):
                c = cases.setdefault(d["case"], {"case": d["case"], "kind": d.get("kind", ""),
                                                 "about": d.get("about", ""), "passed": 0,
                                                 "students": 0})
                c["students"] += 1
                c["passed"] += bool(d.get("passed"))
        points = [float(t.get("graded_points", t["points"])) for t in results]
        out.append({"name": task.name, "points": float(task.points), "students": len(results),
                    "full": sum(t["passed"] == t["cases"] for t in results),
                    "zero": sum(t["passed"] == 0 for t in results),
                    "mean": statistics.fmean(points) if points else 0.0,
                    "cases": [cases[k] for k in sorted(cases)]})
    return out


def failure(detail: dict) -> tuple[bool, str]:
    """What a failed case says: (True, the hint) for a known mistake, else (False, the kind
    of failure: not defined, not written yet, timed out, raised ValueError, a wrong
    answer...; :data:`OTHER` for anything else).  The kinds are few, so that a table of
    them never repeats one failure case after case."""
    if detail.get("hint"):
        return True, str(detail["hint"])
    error = str(detail.get("error", ""))
    for pattern, label in _FAILURES:
        if pattern.search(error):
            return False, label
    stopped = _STOPPED.match(error)
    if stopped:
        return False, f"stopped: {stopped[1]}"
    raised = _RAISED.match(error)
    if raised:
        return False, f"raised {raised[1].rsplit('.', 1)[-1]}"
    if _WRONG.match(error):
        return False, "a wrong answer that is none of the known mistakes"
    return False, OTHER if error else "failed"


def said(detail: dict) -> str:
    """What a failed case's error says, without the grader's ``your function raised``."""
    return str(detail.get("error", "")).removeprefix("your function raised ")


def mistakes(records: list[dict]) -> list[dict]:
    """The failures of the class, grouped by what went wrong, the most common first.

    Returns
    -------
    list of dict
        ``assignment``, ``function``, ``known`` (True: a known mistake named by its
        hint), ``what`` (the hint, or the kind of failure), ``students`` (how many made
        it), ``cases`` (failed cases in all) and ``who`` (the students, sorted).
    """
    groups: dict[tuple[str, str, bool, str], dict] = {}
    for g in records:
        student = g["student"] + (f" ({g['student_id']})" if g.get("student_id") else "")
        for t in g.get("tasks", []):
            for d in t.get("details", []):
                if d.get("passed"):
                    continue
                known, what = failure(d)
                key = (g["assignment"], t["name"], known, what)
                entry = groups.setdefault(key, {"assignment": key[0], "function": key[1],
                                                "known": known, "what": what, "cases": 0,
                                                "who": set()})
                entry["cases"] += 1
                entry["who"].add(student)
    out = []
    for entry in groups.values():
        entry["who"] = sorted(entry["who"])
        entry["students"] = len(entry["who"])
        out.append(entry)
    return sorted(out, key=lambda e: (-e["students"], -e["cases"], e["assignment"] or "",
                                      e["function"], e["what"]))


def failures_by_student(records: list[dict]) -> list[dict]:
    """The failures that are no known mistake, student by student.

    Returns
    -------
    list of dict
        One per student with such failures, sorted: ``student`` (``Name (id)``),
        ``assignment``, ``cases`` (failed cases in all) and ``items``, one per function
        and kind of failure: ``function``, ``what`` (:func:`failure`'s kind), ``cases``
        and ``example`` (what the first such case said, where it says more than the
        kind: an error's message; else ``""``).
    """
    out = []
    for g in records:
        items: dict[tuple[str, str], dict] = {}
        for t in g.get("tasks", []):
            for d in t.get("details", []):
                if d.get("passed"):
                    continue
                known, what = failure(d)
                if known:
                    continue
                item = items.setdefault((t["name"], what), {
                    "function": t["name"], "what": what, "cases": 0,
                    "example": said(d) if what.startswith(_TELLING) else ""})
                item["cases"] += 1
        if items:
            out.append({"student": g["student"] + (f" ({g['student_id']})"
                                                   if g.get("student_id") else ""),
                        "assignment": g["assignment"], "items": list(items.values()),
                        "cases": sum(i["cases"] for i in items.values())})
    return sorted(out, key=lambda e: (e["student"], e["assignment"] or ""))


def slowest(records: list[dict], n: int = 10) -> list[dict]:
    """The ``n`` submissions that took longest to grade (those that ran at all)."""
    ran = [g for g in records if g.get("seconds")]
    return sorted(ran, key=lambda g: -float(g["seconds"]))[:n]


def unfinished(records: list[dict]) -> list[dict]:
    """The records whose status is not ``ok``, grouped by status kind."""
    order = {k: i for i, k in enumerate(STATUS_KINDS)}
    bad = [g for g in records if g["status"] != "ok"]
    return sorted(bad, key=lambda g: (order.get(status_kind(g["status"]), len(order)),
                                      g["student"], g.get("student_id", "")))


def by_assignment(records: list[dict]) -> dict[str, list[dict]]:
    """Records grouped by assignment (None for those whose assignment is unknown)."""
    out: dict[str, list[dict]] = defaultdict(list)
    for g in records:
        out[g["assignment"]].append(g)
    return dict(out)
