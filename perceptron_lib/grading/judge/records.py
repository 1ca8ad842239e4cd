"""Grade records: a :class:`~.grade.Grade` as the dictionary every later stage reads.

A grade record is the dictionary :func:`record` makes of a grade; the records of a run
are also what the next run reads back (:mod:`..outputs.kept`) to skip the submissions
that did not change.  A student is identified by the name and the platform's id
together (:func:`identity`), never by a file's name.
"""

from __future__ import annotations

from dataclasses import asdict

from .grade import Grade


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
