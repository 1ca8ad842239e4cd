"""Feedback back through the platforms: ``OUT/feedback-moodle.zip`` and ``feedback-canvas.zip``.

Each zip holds one feedback file per student, named so that the platform's own bulk
import attaches it to that student.  A student is in a zip only when their notebook
came in that platform's download, whose file names carry the ids the import matches
(the platforms write them, for this very assignment); the others are listed, with the
reason, in the report.  A zip is written when at least one student is in it.

**Moodle** ("Upload multiple feedback files in a zip", the feedback files plugin
``assignfeedback_file``: ``mod/assign/feedback/file/importziplib.php``,
``assignfeedback_file_zip_importer::is_valid_filename_for_import``).  The importer
splits each folder (and file) name of the zip at ``_`` into at most five parts:
``full name``, participant id, plugin type, plugin name, the rest.  It takes the first
part whose participant id (a number) is a participant of the assignment and whose
plugin type and name are a plugin of the assignment, and stores the file in that
participant's feedback files whichever plugin the name gives.  The folder written here
is the one Moodle's own download names (``mod/assign/classes/downloader.php``): the
full name with ``_`` made a space, the participant id, ``assignsubmission_file``, and a
trailing ``_`` as before Moodle 4.1, which every version's importer reads (the importer
of Moodle 3.x needs the five parts; that of 4.1 and later reads both forms)::

    Ada Lovelace_123456_assignsubmission_file_/feedback-01_algorithm.html

The file is the student's feedback page (:mod:`.feedback_html`), self-contained.

**Canvas** (the assignment page's "Re-Upload Submissions", which
``Assignment#generate_comments_from_files`` in ``app/models/assignment.rb`` reads).
Canvas takes the first two parts of each file's name, split at ``_``, that are
numbers: the user id and the id of a file of that student's current submission, as
its download names them (``lovelaceada_42_1001_nb.ipynb``: user 42, file 1001); a file
whose numbers are no such pair is ignored.  The file is attached to a submission
comment ("See attached file"), under the *name of the student's submitted file*
(``attachment.display_name``).  So the feedback is written as a notebook, whose one
Markdown cell holds the feedback text, and only for students whose graded notebook is
itself a file of Canvas's download (not a notebook inside a zip the student sent,
whose feedback would carry the zip's name)::

    lovelaceada_42_1001_feedback.ipynb

Canvas matches the file of the submission that was downloaded: a student who submits
again after the download is skipped by Canvas (download and grade again).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from ..intake.names import CANVAS, parse_name
from ..judge.records import display, identity
from ..judge.roster import Key
from .feedback_html import feedback_page

MOODLE_ZIP = "feedback-moodle.zip"
CANVAS_ZIP = "feedback-canvas.zip"
#: The zip of each platform, in the order the report lists them.
ZIPS = {"moodle": MOODLE_ZIP, "canvas": CANVAS_ZIP}
#: What a folder name of Moodle's zip may not hold (besides ``_``): what Moodle's
#: ``clean_filename`` removes, and control characters.
_MOODLE_UNSAFE = re.compile(r"[\x00-\x1f\x7f&<>\"`|':\\/*?]")


@dataclass
class Planned:
    """One platform's zip: the member of each student in it, and who is left out."""

    platform: str
    file: str
    members: dict[Key, str] = field(default_factory=dict)
    left_out: list[tuple[Key, str]] = field(default_factory=list)

    def record(self) -> dict:
        """What ``results.json`` keeps of the zip."""
        return {"platform": self.platform, "file": self.file, "written": bool(self.members),
                "students": len(self.members),
                "left_out": [{"student": k[0], "id": k[1], "why": why}
                             for k, why in self.left_out]}


def _parts(source: str) -> list[str]:
    """The folder and file names of where a notebook was found (``a.zip: x/y.ipynb``)."""
    return [p for p in re.split(r": |/", source) if p]


def moodle_id(g: dict) -> str:
    """The Moodle participant id the download's names give the record's student, or
    ``""`` when the notebook is not from Moodle's download."""
    sid = g.get("student_id") or ""
    parts = _parts(g.get("source") or "")
    for k, part in enumerate(parts):
        named = parse_name(part, is_folder=k < len(parts) - 1)
        if named is not None and named.layout.startswith("Moodle") and \
                named.student.id == sid:
            return sid
    return ""


def canvas_ids(g: dict) -> tuple[str, str, str] | None:
    """The name, user id and file id that Canvas's download gives the record's notebook
    (``lovelaceada_42_1001_nb.ipynb``), or None when the notebook is not itself a
    file of Canvas's download."""
    parts = _parts(g.get("source") or "")
    found = CANVAS.match(parts[-1]) if parts else None
    if found is None or found["id"] != (g.get("student_id") or ""):
        return None
    return found["name"], found["id"], found["submission"]


def moodle_member(g: dict, participant: str) -> str:
    """The member of Moodle's zip that holds the student's feedback page."""
    name = " ".join(_MOODLE_UNSAFE.sub(" ", g["student"].replace("_", " ")).split())
    folder = f"{name or 'Participant'}_{participant}_assignsubmission_file_"
    return f"{folder}/feedback-{g['assignment'] or 'none'}.html"


def canvas_member(name: str, user: str, file_id: str) -> str:
    """The member of Canvas's zip for one student: the download's name, user id and
    file id, then ``feedback.ipynb`` (the name holds no number of its own)."""
    name = name if name and not name.isdigit() else "student"
    return f"{name}_{user}_{file_id}_feedback.ipynb"


def _why_not(g: dict, platform: str) -> str:
    parts = _parts(g.get("source") or "")
    if platform == "canvas" and any(CANVAS.match(p) for p in parts[:-1]):
        return ("the notebook came inside a file the student sent, and Canvas would name "
                "the feedback after that file")
    word = {"moodle": "Moodle's", "canvas": "Canvas's"}[platform]
    return f"the notebook is not a file of {word} download (no id of {word} file names)"


def plan(grades: list[dict]) -> list[Planned]:
    """The zips to write for these records: one per platform with a student in it."""
    out = []
    for platform, file in ZIPS.items():
        planned = Planned(platform, file)
        for g in sorted(grades, key=identity):
            if platform == "moodle":
                participant = moodle_id(g)
                member = moodle_member(g, participant) if participant else ""
            else:
                ids = canvas_ids(g)
                member = canvas_member(*ids) if ids else ""
            if member:
                planned.members[identity(g)] = member
            else:
                planned.left_out.append((identity(g), _why_not(g, platform)))
        if planned.members:
            out.append(planned)
    return out


def feedback_notebook(g: dict, text: str) -> str:
    """A notebook (nbformat 4) whose one Markdown cell is the feedback ``text``
    (:func:`.gradebook.feedback_text`), under its first line as a heading, the rest as
    it is (in a fence longer than any run of backticks it holds)."""
    title, _, body = text.partition("\n")
    heading = f"Feedback for {display(g)} ({g['assignment'] or 'no assignment'})"
    if title != heading:
        body = text
    fence = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", body)), default=0))
    source = f"# {heading}\n\n{fence}text\n{body.strip(chr(10))}\n{fence}\n"
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {},
          "cells": [{"cell_type": "markdown", "id": "feedback", "metadata": {},
                     "source": source}]}
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def _write_zip(path: Path, members: list[tuple[str, str]]) -> None:
    """Write a zip of ``(name, text)`` members whole or not at all (as :mod:`.outdir`
    writes text files: a temporary file beside it, then :func:`os.replace`)."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    stamp = time.localtime()[:6]
    try:
        with os.fdopen(fd, "wb") as fh:
            with zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED) as zf:
                for member, text in members:
                    info = zipfile.ZipInfo(member, date_time=stamp)
                    info.compress_type = zipfile.ZIP_DEFLATED
                    info.external_attr = 0o644 << 16
                    zf.writestr(info, text.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


def write_zips(out: Path, grades: list[dict], texts: dict[Key, str]) -> list[Planned]:
    """Write the platforms' zips into ``out`` (:func:`plan`); what each holds.

    Parameters
    ----------
    out
        The output folder.
    grades
        The final records (adjustments applied).
    texts
        Each student's feedback text (:func:`.gradebook.feedback_text`), for Canvas's
        notebooks.
    """
    planned = plan(grades)
    by_key = {identity(g): g for g in grades}
    for p in planned:
        members = []
        for k, member in p.members.items():
            g = by_key[k]
            body = (feedback_page(g) if p.platform == "moodle"
                    else feedback_notebook(g, texts[k]))
            members.append((member, body))
        _write_zip(out / p.file, members)
    return planned
