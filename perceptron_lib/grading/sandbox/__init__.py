"""Stage 2, the sandbox: a submission's code run away from the grader and the class.

:mod:`.runner` starts the child (:mod:`.child`) under bubblewrap with its limits and
reads its answers back; :mod:`.standins` builds the library the child sees, in which
every route to a graded function raises.
"""

from .runner import (
    Limits,
    RunResult,
    bwrap_path,
    describe,
    isolation_report,
    mode,
    run,
)

__all__ = ["Limits", "RunResult", "bwrap_path", "describe", "isolation_report", "mode", "run"]
