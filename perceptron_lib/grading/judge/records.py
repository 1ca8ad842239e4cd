"""Grade records: a :class:`~.grade.Grade` as the dictionary every later stage reads.

A grade record is the dictionary :func:`record` makes of a grade; the records of a run
are also what the next run reads back (:mod:`..outputs.kept`) to skip the submissions
that did not change.  A student is identified by the name and the platform's id
together (:func:`identity`), never by a file's name.
"""

from __future__ import annotations

from dataclasses import asdict

from ..intake.submissions import SEVERAL
from .grade import Grade

#: How the status of a student left ungraded by ``--only`` begins.
NOT_GRADED = "not graded in this run"
#: The statuses that hold no grade yet, only a question for the instructor: such a
#: record is in the gradebook but no export gives it a grade.
PENDING = (SEVERAL, NOT_GRADED)


def pending(g: dict) -> bool:
    """Whether a record waits for the instructor (``--choose``, a run without ``--only``)
    rather than holding a grade.

    >>> pending({"status": "several notebooks (a.ipynb, b.ipynb) and ..."})
    True
    >>> pending({"status": "ok"})
    False
    """
    return str(g.get("status", "")).startswith(PENDING)


def record(g: Grade, grader_hash: str) -> dict:
    """A grade as a JSON-ready dictionary, with its total, maximum and the grader's hash."""
    d = asdict(g)
    d["total"], d["max"], d["grader_sha256"] = g.total, g.max, grader_hash
    return d


def identity(g: dict) -> tuple[str, str]:
    """Who a record is about: (name, id); the id is empty for a student known by name."""
    return g["student"], g.get("student_id") or ""


def display(g: dict) -> str:
    """A student as people read it: ``Ada Lovelace (123456)``, or the name alone."""
    name, sid = identity(g)
    return f"{name} ({sid})" if sid else name
