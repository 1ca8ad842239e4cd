"""Stage 1, intake: what the instructor downloaded, read as hostile data.

:mod:`.submissions` finds every student's notebook in a folder or zip (the platforms'
layouts, archives read member by member), :mod:`.notebook` reads a notebook's
assignment and code cells.  Nothing here runs a submission's code.
"""

from .names import Student, parse_name
from .submissions import (
    Intake,
    IntakeError,
    Submission,
    collect,
)
from .tree import UnsafeArchive, check_archive

__all__ = ["Intake", "IntakeError", "Student", "Submission", "UnsafeArchive",
           "check_archive", "collect", "parse_name"]
