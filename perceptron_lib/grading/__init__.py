"""Exercises and grading (the course's exercise notebooks and the instructor's grader).

- :func:`check`: what the check cells of ``exercises/`` call.
- ``python -m perceptron_lib.grading SUBMISSIONS --out OUT``: grade a folder of
  submitted notebooks into a gradebook (see ``__main__``).
- :mod:`.sandbox`: how a submission's code runs, isolated, in a child process.
"""

from .check import check

__all__ = ["check"]
