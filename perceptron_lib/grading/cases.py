"""The graded functions, their cases, and the common mistakes the feedback recognises.

Every graded function is a :class:`Task` (see :mod:`.exercise`); each exercise
notebook's tasks live in a module of :mod:`.assignments`, one per chapter.  This module
gathers them: :data:`ASSIGNMENTS` maps a notebook's name to its tasks, and
:func:`find_task` finds a task by the name of its function.
"""

from __future__ import annotations

from .assignments import ASSIGNMENTS
from .exercise import Case, Mistake, Task

__all__ = ["ASSIGNMENTS", "Case", "Mistake", "Task", "find_task", "graded_names"]


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
