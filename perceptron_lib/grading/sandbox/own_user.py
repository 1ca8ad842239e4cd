"""A user of its own for a submission run with limits only by a grader that is root.

Without bubblewrap (or where the kernel refuses it namespaces, as inside most
containers) the sandbox runs a submission with limits only, as the grader's own user
(see :mod:`.runner`).  When that user is root, as in Gradescope's container, the
submission's code could read the grader's references and cases, rewrite the results,
or stop the grader and write results of its own.  :func:`separate` closes that door as
far as a limits-only run allows: it puts a small script in front of the sandbox's
Python (:data:`.runner.PYTHON`, the program every run and the isolation probe start),
which

1. gives the run's fresh working folder (``submission-*`` in the run's scratch folder,
   :mod:`..intake.scratch`) to the submission's uid, so that the code can write its
   files there as it could in ``/tmp`` under bubblewrap;
2. starts Python with ``setpriv`` (util-linux) as :data:`UID`, a uid and gid no account
   has: no supplementary groups, no capabilities (bounding and inheritable sets
   emptied), ``no_new_privs`` (a set-uid program cannot raise it again).

Files and folders only root may open (mode 0700 or 0600) are then out of the
submission's reach; what every user may read stays readable, and the network, the list
of processes and ``/tmp`` are shared: that is what limits-only means.  The limits of
:mod:`.runner` are set before the script runs and hold for the uid's processes
(``RLIMIT_NPROC`` counts the processes of the uid).  :func:`kill_left` ends what the uid
left running.

:func:`separate` checks its work before it is used: the script must start the Python
and report the uid (a Python that lives in a folder only root may open, such as
root's home folder, cannot be started by the uid, and then nothing is changed).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..intake import scratch
from . import runner

#: The submission's uid and gid: outside the range of per-run uids of :mod:`.runner`
#: (``UID_BASE`` and the ``UID_SPAN`` after it) and of accounts.
UID = 3_200_000
#: The name of the wrapper script in its private folder.
WRAPPER = "python-as-submission"

_SCRIPT = """#!/bin/sh
# Start the sandbox's Python as uid {uid}, with no groups, capabilities or new
# privileges; a run's own working folder is first given to that uid.
# (perceptron_lib.grading.sandbox.own_user)
here="$(pwd -P)"
case "$here" in
  {scratch}/submission-*) {chown} {uid}:{uid} "$here" || exit 126 ;;
esac
exec {setpriv} --reuid={uid} --regid={uid} --clear-groups --inh-caps=-all \\
  --bounding-set=-all --no-new-privs -- {python} "$@"
"""


@dataclass(frozen=True)
class Separation:
    """What :func:`separate` did.

    Attributes
    ----------
    uid
        The uid submissions run as, or None when they run as the grader's own user.
    python
        The sandbox's Python before (the program the wrapper starts).
    why
        Why submissions are not separated, when ``uid`` is None ("" otherwise).
    """

    uid: int | None
    python: str
    why: str = ""

    def describe(self) -> str:
        """One sentence on who a submission's code runs as."""
        if self.uid is not None:
            return (f"a submission runs as uid {self.uid} (no account, no groups, no "
                    "capabilities, no_new_privs): it cannot open what only root may")
        return f"a submission runs as the grader's own user: {self.why}"


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def wrapper_text(python: str, setpriv: str, chown: str, scratch_root: Path,
                 uid: int = UID) -> str:
    """The script put in front of ``python`` (see the module's docstring)."""
    return _SCRIPT.format(uid=int(uid), python=shlex.quote(python),
                          setpriv=shlex.quote(setpriv), chown=shlex.quote(chown),
                          scratch=shlex.quote(str(scratch_root)))


def separate(uid: int = UID) -> Separation:
    """Make limits-only runs start as ``uid``, when the grader is root; what was done.

    Nothing is changed where bubblewrap runs (each run already has a uid of its own
    there, when the grader is root), where the grader is not root (it cannot give a
    uid), where ``setpriv`` is missing, or where the uid cannot start the sandbox's
    Python with ``numpy`` (the reason is in :attr:`Separation.why`).  Call
    :func:`restore` to undo.
    """
    python = runner.PYTHON
    if runner.mode() != "limits-only":
        return Separation(None, python, f"not needed: the sandbox is {runner.mode()}")
    if not _is_root():
        return Separation(None, python, "the grader is not root, so it cannot give a "
                                        "submission another uid")
    setpriv, chown = shutil.which("setpriv"), shutil.which("chown")
    if setpriv is None or chown is None:
        return Separation(None, python, "setpriv and chown (util-linux, coreutils) are "
                                        "needed")
    folder = scratch.folder("own-user-")  # mode 0700: only root runs the script
    script = folder / WRAPPER
    script.write_text(wrapper_text(python, setpriv, chown, scratch.root(), uid),
                      encoding="utf-8")
    os.chmod(script, 0o700)
    problem = _check(script, uid)
    if problem:
        return Separation(None, python, problem)
    runner.PYTHON = str(script)
    return Separation(uid, python)


def _check(script: Path, uid: int) -> str:
    """"" when ``script`` starts Python as ``uid`` with numpy; else what went wrong."""
    try:
        done = subprocess.run([str(script), "-I", "-c", "import os, numpy; print(os.getuid())"],
                              capture_output=True, text=True, timeout=60, cwd="/",
                              env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                                   "HOME": "/tmp"})
    except (OSError, subprocess.SubprocessError) as exc:
        return f"the script that starts Python as uid {uid} could not run: {exc}"
    finally:
        kill_left(uid)
    if done.stdout.strip() == str(uid):
        return ""
    said = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
    return (f"uid {uid} cannot start the grader's Python ({runner.PYTHON}) with numpy: "
            f"{said[-1][:300] if said else f'status {done.returncode}'}; install the "
            "environment in a folder every user may open (not in /root)")


_REACH = """
import json, os, sys
read, write = json.loads(sys.argv[1])
found = []
for p in read:
    try:
        if os.path.isdir(p):
            os.listdir(p)
        else:
            with open(p, "rb") as fh:
                fh.read(1)
        found.append("read " + p)
    except OSError:
        pass
for p in write:
    try:
        name = os.path.join(p, ".reach-probe-%d" % os.getpid())
        with open(name, "x"):
            pass
        os.unlink(name)
        found.append("write " + p)
    except OSError:
        pass
print(json.dumps(found))
"""


def reachable(separation: Separation, read: list[Path] = (), write: list[Path] = ()) -> list[str]:
    """Which of ``read`` the submission's uid can read, and of ``write`` (folders) it can
    write into, found by running code as that uid: ``["read PATH", "write PATH"...]``.

    Raises
    ------
    RuntimeError
        The check could not run (``separation`` did not separate, or the script failed).
    """
    if separation.uid is None:
        raise RuntimeError(f"submissions are not separated: {separation.why}")
    request = json.dumps([[str(p) for p in read], [str(p) for p in write]])
    try:
        done = subprocess.run([runner.PYTHON, "-I", "-c", _REACH, request],
                              capture_output=True, text=True, timeout=60, cwd="/",
                              env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                                   "HOME": "/tmp"})
        found = json.loads(done.stdout.strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError) as exc:
        raise RuntimeError(f"the check of what uid {separation.uid} reaches failed: "
                           f"{exc}") from exc
    finally:
        kill_left(separation.uid)
    return [str(f) for f in found] if isinstance(found, list) else []


def restore(separation: Separation) -> None:
    """Start submissions with the Python :func:`separate` found again."""
    runner.PYTHON = separation.python


def kill_left(uid: int = UID) -> int:
    """SIGKILL every live process of ``uid`` (until none is left); how many there were."""
    killed: set[int] = set()
    for _ in range(20):
        pids = [p for p in _pids() if _owner(p) == uid and not _zombie(p)]
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except (ProcessLookupError, PermissionError):
                pass
    return len(killed)


def _zombie(pid: int) -> bool:
    """Whether ``pid`` has ended and waits for its parent (it holds nothing then)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return True
    return stat.rpartition(")")[2].split()[:1] in (["Z"], ["X"])


def _pids() -> list[int]:
    try:
        return [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return []


def _owner(pid: int) -> int | None:
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None
