"""What is graded: the graded functions of each exercise notebook, as data.

Every graded function is a :class:`~.exercise.Task` (its reference, its cases, its
known mistakes with their hints); each exercise notebook's tasks live in a module of
this package, one per chapter.  :data:`ASSIGNMENTS` maps a notebook's name to its tasks,
and :func:`find_task` finds a task by the name of its function.  :mod:`.answers` says
how an answer is compared, :mod:`.codec` how values cross into and out of the sandbox.

This package is the base every stage of grading stands on (intake, sandbox, judge,
outputs); it imports none of them.
"""

from __future__ import annotations

from . import (
    a01_algorithm,
    a02_offset,
    a03_margin,
    a04_convergence,
    a05_spam,
    a06_variants,
    a07_beyond,
)
from .exercise import Case, Mistake, Task

__all__ = ["ASSIGNMENTS", "Case", "Mistake", "Task", "find_task", "graded_names"]

#: Assignment (the notebook's name) -> its graded functions, in the notebook's order.
ASSIGNMENTS: dict[str, list[Task]] = {
    "01_algorithm": a01_algorithm.TASKS,
    "02_offset": a02_offset.TASKS,
    "03_margin": a03_margin.TASKS,
    "04_convergence": a04_convergence.TASKS,
    "05_spam": a05_spam.TASKS,
    "06_variants": a06_variants.TASKS,
    "07_beyond": a07_beyond.TASKS,
}


def find_task(name: str) -> tuple[str, Task]:
    """The assignment and task of a graded function name."""
    for assignment, tasks in ASSIGNMENTS.items():
        for task in tasks:
            if task.name == name:
                return assignment, task
    known = sorted(t.name for tasks in ASSIGNMENTS.values() for t in tasks)
    raise KeyError(f"no graded function named {name!r}; graded functions: {known}")


def graded_names(assignment: str) -> list[str]:
    """The names of the functions an assignment grades (all of them stand in for the
    library's versions while a submission of it runs)."""
    return [task.name for task in ASSIGNMENTS[assignment]]
