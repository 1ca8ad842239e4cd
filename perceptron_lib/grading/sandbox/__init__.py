"""Stage 2, the sandbox: a submission's code run away from the grader and the class.

:mod:`.runner` starts the child (:mod:`.child`) under bubblewrap with its limits and
reads its answers back; :mod:`.memory` holds the memory of all a run's processes
together (a cgroup of the run's own, or a watchdog); :mod:`.standins` builds the
library the child sees, in which every route to a graded function raises.
"""

from .runner import (
    CANCELLED,
    FollowUp,
    Limits,
    RunResult,
    bwrap_path,
    can_follow,
    cancel,
    describe,
    isolation_report,
    mode,
    reset_cancel,
    run,
)

__all__ = ["CANCELLED", "FollowUp", "Limits", "RunResult", "bwrap_path", "can_follow",
           "cancel", "describe", "isolation_report", "mode", "reset_cancel", "run"]
