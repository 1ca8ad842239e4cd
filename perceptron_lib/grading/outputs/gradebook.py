"""Write the gradebook: ``grades.csv``, a feedback file per submission, ``results.json``.

A grade record is the dictionary :func:`record` makes of a :class:`~.grader.Grade`; the
records of a run are also what the next run reads back (:mod:`.kept`) to skip
the submissions that did not change.  A student is identified by the name and the
platform's id together (:func:`identity`), never by a file's name.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

from .. import sandbox
from ..assignments import ASSIGNMENTS
from ..judge.grade import grader_sha256
from ..judge.records import display, identity, record  # noqa: F401  (re-exported)
from . import csvsafe, feedback_zip, outdir, stale

HEAD = ["student", "id", "assignment"]
TAIL = ["total", "max", "status", "notes", "file"]
#: Columns added before ``total`` when a person adjusted grades (see :mod:`.adjustments`).
ADJUSTED = ["graded", "adjustment"]
#: The byte-order mark ``grades.csv`` starts with: without it, Excel reads a CSV file in
#: the machine's legacy code page and shows ``Ã©`` for ``é``.  Read the file back with
#: ``encoding="utf-8-sig"``, which drops it.
BOM = "\ufeff"
#: Characters kept as they are in a feedback file's name.
NAME_CHARS = set(" -_.()")
#: The longest readable part of a feedback file's name, in UTF-8 bytes.
NAME_LENGTH = 120
WINDOWS_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{k}" for k in range(1, 10)),
                    *(f"LPT{k}" for k in range(1, 10))}


def function_columns(grades: Iterable[dict]) -> list[str]:
    """A column per graded function of the assignments present, in the course's order."""
    names: list[str] = []
    present = {g["assignment"] for g in grades if g["assignment"] in ASSIGNMENTS}
    for assignment in sorted(present):
        names += [t.name for t in ASSIGNMENTS[assignment] if t.name not in names]
    return names


def _tag(key: tuple[str, str]) -> str:
    return hashlib.sha256("\0".join(key).encode()).hexdigest()[:8]


def _readable(key: tuple[str, str]) -> tuple[str, bool]:
    """A file name made of the student's name and id, and whether it lost anything."""
    name, sid = key
    text = f"{name}_{sid}" if sid else name
    safe = "".join(c if c.isalnum() or c in NAME_CHARS else "_" for c in text)
    # Cut in bytes: file systems count bytes (255), and a name of 130 accented letters
    # is 260 of them.
    safe = safe.strip(" .").encode("utf-8")[:NAME_LENGTH].decode("utf-8", "ignore")
    safe = safe.strip(" .") or "student"
    lossy = safe != text or safe.upper().split(".")[0] in WINDOWS_RESERVED
    return safe, lossy


def feedback_names(grades: Iterable[dict]) -> dict[tuple[str, str], str]:
    """A feedback file name per student, readable and never shared by two students.

    The name is the student's name (and id), with characters that are not safe in a
    file name replaced by ``_``.  When that changed anything, or when two names differ
    only in case (one file on macOS and Windows), a short hash of the student's
    identity is appended: ``a:b`` and ``a_b`` give ``a_b-1f2e3d4c.txt`` and ``a_b.txt``.
    """
    keys = sorted({identity(g) for g in grades})
    names: dict[tuple[str, str], str] = {}
    for key in keys:
        safe, lossy = _readable(key)
        names[key] = f"{safe}-{_tag(key)}" if lossy else safe
    by_case: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for key, name in names.items():
        by_case[name.casefold()].append(key)
    for clash in by_case.values():
        if len(clash) > 1:
            for key in clash:
                if not names[key].endswith(_tag(key)):
                    names[key] = f"{names[key]}-{_tag(key)}"
    return {key: f"{name}.txt" for key, name in names.items()}


def feedback_text(g: dict) -> str:
    """The feedback a student reads: the score, what was graded, and per function why."""
    lines = [f"Feedback for {display(g)} ({g['assignment'] or 'no assignment'})",
             f"Score: {g['total']:g} of {g['max']:g}" + (
                 "" if g["status"] == "ok" else f"   [{g['status']}]")]
    if g.get("source"):
        lines.append(f"Graded: {g['source']}")
    lines += [f"Note: {w}" for w in g.get("warnings", [])]
    if g.get("adjustments"):
        lines.append(f"The grader gave {g['graded_total']:g}; adjusted by a person:")
        lines += [f"  {a['points']:+g} on {a['function']}: {a['reason']}"
                  for a in g["adjustments"]]
    lines.append("")
    for t in g["tasks"]:
        lines += t["feedback"]
    if g["notes"]:
        lines += ["", "Cells that raised an error when run in order ([n] as Jupyter numbers "
                      "them after Restart Kernel and Run All):"]
        lines += [f"  {n}" for n in g["notes"]]
    return "\n".join(lines) + "\n"


def write_csv(path: Path, grades: list[dict]) -> None:
    """``grades.csv``: a row per student, a column of points per graded function.

    With adjustments, ``graded`` (the grader's total) and ``adjustment`` (what a person
    added) come before ``total``, which includes it.  Written whole or not at all, and
    safe to open in a spreadsheet (:mod:`.csvsafe`: the text a student chose never
    becomes a formula, points stay numbers; :func:`.csvsafe.dict_reader` reads it back),
    starting with a byte-order mark (:data:`BOM`) so that Excel reads it as UTF-8.
    """
    names = function_columns(grades)
    adjusted = any(g.get("adjustments") for g in grades)
    with outdir.replacing(path, newline="") as fh:
        fh.write(BOM)
        writer = csvsafe.writer(fh)
        writer.writerow([*HEAD, *names, *(ADJUSTED if adjusted else []), *TAIL])
        for g in sorted(grades, key=lambda g: (*identity(g), g["assignment"] or "")):
            points = {t["name"]: t["points"] for t in g["tasks"]}
            extra = [g.get("graded_total", g["total"]), g.get("adjustment", 0)] if adjusted else []
            writer.writerow([g["student"], g.get("student_id", ""), g["assignment"] or "",
                             *[points.get(n, "") for n in names], *extra,
                             g["total"], g["max"], g["status"],
                             "; ".join(g.get("warnings", [])), g.get("source", "")])


def write_feedback(folder: Path, grades: list[dict]) -> dict[tuple[str, str], str]:
    """A feedback file per student in ``folder``, as text and as a web page beside it
    (same stem, ``.html``); returns the text file's name of each."""
    from .feedback_html import feedback_page

    folder.mkdir(parents=True, exist_ok=True)
    names = feedback_names(grades)
    for g in grades:
        name = names[identity(g)]
        outdir.write_text(folder / name, feedback_text(g))
        outdir.write_text(folder / html_name(name), feedback_page(g, name))
    return names


def html_name(text_name: str) -> str:
    """The feedback page's file name beside a text feedback file's."""
    return text_name.removesuffix(".txt") + ".html"


def write_results(path: Path, grades: list[dict], refused: Iterable[str] = (),
                  isolation: dict | None = None, similar: list[dict] | None = None,
                  extra: dict | None = None) -> None:
    """``results.json``: every record, the grader's hash, the isolation, the refusals, the
    graded functions that are the same across students (never used in scores), and
    ``extra`` (what else the run recorded: adjustments, roster, exports)."""
    outdir.write_text(path, json.dumps({"grader_sha256": grader_sha256(),
                                        "isolation": isolation or sandbox.isolation_report(),
                                        "refused": list(refused),
                                        "similar": list(similar or []),
                                        **(extra or {}),
                                        "grades": grades}, indent=1))


def write_gradebook(out: Path, grades: list[dict], refused: Iterable[str] = (),
                    isolation: dict | None = None, similar: list[dict] | None = None,
                    extra: dict | None = None,
                    before_results: Callable[[], None] | None = None) -> list[str]:
    """Write ``feedback/*``, ``grades.csv``, the platforms' feedback zips and
    ``results.json`` into ``out``, and remove the files of the last run that this run
    does not write again.

    Every file is written whole or not at all (:mod:`.outdir`), and ``results.json``
    last, so that an interrupted run leaves each file as the last run or this one wrote
    it.

    Parameters
    ----------
    out
        The output folder (created if missing).
    grades
        The records (:func:`record`), one per student; each gets ``feedback`` and
        ``feedback_html``, the paths of its feedback files.
    refused
        The archives refused as a whole, recorded in ``results.json``.
    isolation, similar
        What the sandbox isolated (:func:`.sandbox.isolation_report`) and the similar
        graded functions (:func:`.similarity.find_similar`), for ``results.json``.
    extra
        More entries for ``results.json`` (it may be filled by ``before_results``; its
        ``exports``, :meth:`.exports.Export.record` each, say which export files this
        run wrote).  ``feedback_zips`` (:mod:`.feedback_zip`) and ``removed`` (the
        files of the last run removed) are added.
    before_results
        Called after the feedback, ``grades.csv`` and the zips, before ``results.json``
        (to write the report and the exports).

    Returns
    -------
    list of str
        The files of the last run removed (:mod:`.stale`), relative to ``out``.
    """
    out.mkdir(parents=True, exist_ok=True)
    outdir.remove_leftovers([out, out / "feedback"])
    extra = {} if extra is None else extra
    before = stale.recorded(out)
    names = write_feedback(out / "feedback", grades)
    for g in grades:
        g["feedback"] = f"feedback/{names[identity(g)]}"
        g["feedback_html"] = f"feedback/{html_name(names[identity(g)])}"
    write_csv(out / "grades.csv", grades)
    zips = feedback_zip.write_zips(out, grades, {identity(g): feedback_text(g) for g in grades})
    extra["feedback_zips"] = [z.record() for z in zips]
    if before_results is not None:
        before_results()
    written = {f for g in grades for f in (g["feedback"], g["feedback_html"])}
    written |= {z.file for z in zips}
    written |= {e.get("file", "") for e in extra.get("exports", []) if e.get("written", True)}
    removed = stale.remove(out, before, written)
    extra["removed"] = removed
    write_results(out / "results.json", grades, refused, isolation, similar, extra)
    return removed
