"""Grading in the test's own process: the sandbox's channel without the sandbox.

Each call gets its inputs through the same JSON encoding the sandbox uses, runs while
the library's versions of the assignment's graded functions stand in for themselves,
and its answer, error and changed inputs come back as the sandbox reports them.  Fast
enough to grade a whole corpus of implementations; a few end-to-end runs through the
real grader check that it agrees.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import traceback

import numpy as np

import perceptron_lib as pl
from perceptron_lib.grading.assignments import ASSIGNMENTS, find_task, graded_names
from perceptron_lib.grading.assignments.codec import decode, encode
from perceptron_lib.grading.assignments.exercise import Task
from perceptron_lib.grading.judge.grade import TaskResult, score
from perceptron_lib.grading.sandbox.standins import standing_in


def define(source: str, name: str):
    """The function ``name`` that ``source`` defines, as a student's notebook would."""
    namespace = {"np": np, "pl": pl, "math": math, "re": re, "__name__": "__main__"}
    exec(compile(source, f"<{name}>", "exec"), namespace)
    return namespace[name]


def _through_json(value):
    return json.loads(json.dumps(value))


def answers_of(fn, task: Task, assignment: str | None = None, *,
               stand_in: bool = True) -> dict[str, dict]:
    """What the sandbox would report for ``fn`` on every case of ``task``.

    ``stand_in`` False lets the library's graded functions run (for the grader's own
    references and known mistakes, which are built on them).
    """
    assignment = assignment or find_task(task.name)[0]
    out = {}
    cases = task.all_cases()
    with standing_in(graded_names(assignment)) if stand_in else contextlib.nullcontext():
        for k, case in enumerate(cases):
            sent = _through_json([encode(a) for a in case.args])
            args = [decode(a) for a in sent]
            record: dict = {}
            try:
                value = fn(*args)
                record["value"] = decode(_through_json(encode(value)))
            except Exception as exc:
                record["error"] = traceback.format_exception_only(type(exc), exc)[-1].strip()
            record["mutated"] = [j for j, (s, a) in enumerate(zip(sent, args, strict=True))
                                 if encode(a) != s]
            out[f"{task.name}:{k}"] = record
    return out


def grade_in_process(fn, name: str) -> TaskResult:
    """The grader's score for ``fn`` as the graded function ``name``."""
    assignment, task = find_task(name)
    return score(task, task.all_cases(), answers_of(fn, task, assignment), len(task.public))


__all__ = ["ASSIGNMENTS", "answers_of", "define", "grade_in_process"]
