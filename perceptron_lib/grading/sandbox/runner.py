"""Run one submission's code away from the grader, the machine and the other students.

The sandbox is bubblewrap (``bwrap``, Debian's ``bubblewrap`` package, the tool Flatpak
relies on): a well-kept program that builds a process its own namespaces, in place of
hand-written ``unshare`` and ``mount`` calls.  What a submission gets (the README's
instructor section says the same):

- **A file system of its own, read-only**: the system folders (``/usr``, ``/etc``...),
  the Python installation and its environment, and a *stand-in* build of
  ``perceptron_lib`` in which every route to a graded function raises (see
  :mod:`.standins`); the real library's files are not there.  The only writable place is
  a fresh, size-capped ``/tmp``.  Everything else is absent: the submissions folder, the
  output folder, the repository (``solutions/``, ``tests/``, ``.git``), home folders.
- **Its own process namespace**: it sees and can signal only its own processes, and
  when the run ends the namespace's first process dies and the kernel kills every
  process left in it (forked, ``setsid`` or double-forked alike).
- **No network** (its own network namespace with no interface), its own IPC and host
  name.
- **An unprivileged user**: when the grader runs as root, every run gets a uid and gid
  of its own (no supplementary groups, no capabilities, ``no_new_privs``); as an
  ordinary user, bubblewrap's user namespace maps the grader's own uid.
- **Limits**: per cell and per call (time and CPU; see :mod:`.child`), memory (each
  process, and all the run's processes together: see :mod:`.memory`), file size,
  processes, output, and a wall-clock limit for the whole run.

Without bubblewrap (or where the kernel refuses it namespaces) the grader still runs,
with limits only, and says so on the terminal and in ``results.json``.
:func:`isolation_report` says which protections are active, from a probe run inside
the sandbox.
"""

from __future__ import annotations

import compileall
import fcntl
import functools
import json
import math
import os
import platform
import pwd
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..assignments.codec import decode
from ..intake import scratch
from . import memory, standins

HERE = Path(__file__).resolve().parent
#: The Python that runs submissions: the grader's own, whose environment is bound
#: read-only into the sandbox.  It runs isolated (``-I``: no ``PYTHONPATH``, no user
#: site), so the stand-in library is put on its path by name (:func:`_library_path`).
PYTHON = sys.executable
UID_BASE = 3_100_000  # the uids given to runs when the grader is root
UID_SPAN = 100_000
TMP_BYTES = 64 * 1024**2


@dataclass(frozen=True)
class Limits:
    """Resource limits for one submission (stated in every exercise notebook)."""

    cpu_seconds: int = 60  # a backstop per process; cells and calls have their own
    wall_seconds: float = 60.0
    memory_bytes: int = 2 * 1024**3  # each process (its address space)
    total_memory_bytes: int = 2 * 1024**3  # all the run's processes together
    file_bytes: int = 8 * 1024**2
    processes: int = 32
    answer_bytes: int = 16 * 1024**2
    call_seconds: float = 2.0
    cell_seconds: float = 5.0


def in_words(size: int) -> str:
    """A number of bytes as the limits state it (``2 GiB``, ``600 MiB``)."""
    if size >= 1024**3:
        return f"{size / 1024**3:g} GiB"
    return f"{size / 1024**2:g} MiB"


def describe(limits: Limits) -> str:
    """The limits in words, as the feedback and the exercise notebooks state them."""
    each, total = limits.memory_bytes, limits.total_memory_bytes
    memory_words = (f"{in_words(total)} of memory for all its processes together"
                    if each >= total else
                    f"{in_words(each)} of memory per process and {in_words(total)} for all "
                    "its processes together")
    return (f"each cell may run for {limits.cell_seconds:g} s, each call of a graded "
            f"function for {limits.call_seconds:g} s, the whole notebook for "
            f"{limits.wall_seconds:g} s, with {memory_words}")


#: Which limit stopped a cell or a call, as the child reports it in the error's
#: ``"limit"`` field (see :mod:`.child`); other values are dropped.
CHILD_LIMITS = frozenset({"time", "cpu", "memory", "file size"})


@dataclass
class RunResult:
    """What came back from the child, and what the grader saw of the run.

    The facts of the whole run come from the grader's own observation, never from what
    the child says: ``limit_hit`` names the limit the run reached, ``"memory"`` (all its
    processes together, see :mod:`.memory`), ``"time"`` (the wall clock of the whole
    notebook) or ``"answers"`` (the size of what came back), or None; ``killed_by`` the
    signal that ended the sandbox's first process before the grader stopped it;
    ``peak_memory_bytes`` the most the run's processes held together, where the scheme
    measures it.  A cell error (``{"cell": n, "error": text}``) or a call's error may
    carry ``"limit"``: which of :data:`CHILD_LIMITS` stopped it, as the child says.
    """

    status: str
    cell_errors: list[dict] = field(default_factory=list)
    answers: dict[str, dict] = field(default_factory=dict)
    printed: str = ""
    seconds: float = 0.0
    limit_hit: str | None = None
    killed_by: str | None = None
    peak_memory_bytes: int | None = None
    later: dict[str, dict] = field(default_factory=dict)


@dataclass
class FollowUp:
    """The second part of a run (see :mod:`.child`), which grades functions again
    with the references of the graded functions they call: ``calls`` (ids of their
    own), the ``references`` bound in place of the submission's functions of their
    names, and ``blocked``, the graded functions that still stand in (at least those
    the calls name; the library's other functions are real, as in a run of their own).
    Its answers are the result's ``later``; nothing in it changes the first part's.
    """

    calls: list[dict]
    references: list[dict]
    blocked: frozenset[str]


def can_follow(before: frozenset[str], after: frozenset[str]) -> bool:
    """Whether a run that blocks ``before`` can go on with only ``after`` blocked
    (:class:`FollowUp`): the library functions that become real are functions of its
    core modules (:func:`.standins.made_real`)."""
    return standins.made_real(before, after) is not None


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


# ------------------------------------------------------------- uids for root runs
_uid_lock = threading.Lock()
_uids_in_use: dict[int, int] = {}  # uid -> the descriptor of its lock file
_next_uid = [UID_BASE + os.getpid() % UID_SPAN]


def _uid_locks() -> Path:
    """The folder of the uids' lock files, shared by every grading run of the machine
    (root's own: only root runs take uids)."""
    base = Path("/run") if os.access("/run", os.W_OK) else Path(tempfile.gettempdir())
    folder = base / "perceptron-grading-uids"
    folder.mkdir(mode=0o700, exist_ok=True)
    if folder.is_symlink() or folder.stat().st_uid != os.geteuid():
        raise OSError(f"{folder} is not the grader's own folder")
    return folder


def _lock_uid(uid: int) -> int | None:
    """Lock ``uid`` for this process (a lock no other run can hold at once: it is
    released when the descriptor closes, or the process ends); its descriptor, or None
    when another run holds it."""
    fd = os.open(_uid_locks() / f"{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW
                 | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def _take_uid() -> int:
    """A uid (and gid) no account and no other run of this machine uses right now.

    Concurrent grading runs never share one: each uid is locked (:func:`_lock_uid`)
    while a run uses it, and a uid that still owns a process is not handed out.
    """
    with _uid_lock:
        while True:
            uid = _next_uid[0]
            _next_uid[0] = UID_BASE + (uid + 1 - UID_BASE) % UID_SPAN
            if uid in _uids_in_use:
                continue
            try:
                pwd.getpwuid(uid)
                continue
            except KeyError:
                pass
            fd = _lock_uid(uid)
            if fd is None:
                continue
            if any(_owner(pid) == uid for pid in _pids()):
                os.close(fd)
                continue
            _uids_in_use[uid] = fd
            return uid


def _give_back_uid(uid: int) -> None:
    with _uid_lock:
        fd = _uids_in_use.pop(uid, None)
        if fd is not None:
            os.close(fd)


def _pids() -> list[int]:
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def _owner(pid: int) -> int | None:
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None


def _kill_uid(uid: int) -> int:
    """SIGKILL every process of ``uid`` still there (root runs: a second guard behind the
    process namespace, whose end already kills them; a uid is not handed out again while
    a process of it exists, see :func:`_take_uid`)."""
    killed = 0
    for pid in _pids():
        if _owner(pid) == uid:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except ProcessLookupError:
                pass
    return killed


# ------------------------------------------------------------- what the child sees
_builds: dict[frozenset, Path] = {}
_build_lock = threading.Lock()


def _build(blocked: frozenset) -> Path:
    """A folder with the stand-in library and the child's scripts, made once per set."""
    with _build_lock:
        if blocked not in _builds or not _builds[blocked].is_dir():
            root = scratch.folder("library-", private=False)
            standins.stub_library(sorted(blocked), root)
            runner = root / "runner"
            runner.mkdir()
            shutil.copy(HERE / "child.py", runner / "child.py")
            shutil.copy(HERE.parent / "assignments" / "codec.py", runner / "codec.py")
            # Compiled once here: the sandbox's file system is read-only, so a library
            # without its bytecode would be compiled again by every run that imports it.
            # Each file is named as the child sees it (the library is mounted at its
            # real place under bubblewrap), so that a traceback can show its lines.
            alone = bwrap_path() is None  # (mode() itself builds: not asked here)
            compileall.compile_dir(str(root / "perceptron_lib"), quiet=2, ddir=str(
                root / "perceptron_lib" if alone else standins.LIBRARY))
            compileall.compile_dir(str(runner), quiet=2,
                                   ddir=str(runner) if alone else "/grader")
            for path in root.rglob("*"):
                os.chmod(path, 0o755 if path.is_dir() else 0o644)
            _builds[blocked] = root
        return _builds[blocked]


def bwrap_path() -> str | None:
    """The bubblewrap program, if installed."""
    return shutil.which("bwrap")


def _ro_bind(source: str, dest: str, made: set[str]) -> list[str]:
    """Bind ``source`` read-only at ``dest``, its parent folders made searchable."""
    args: list[str] = []
    parent = Path(dest).parent
    for folder in reversed([parent, *parent.parents]):
        if str(folder) != "/" and str(folder) not in made:
            made.add(str(folder))
            args += ["--perms", "0755", "--dir", str(folder)]
    return [*args, "--ro-bind", source, dest]


def _binds(made: set[str]) -> list[str]:
    """Read-only binds of what Python needs, and nothing else."""
    args: list[str] = []
    for top in ("/usr", "/etc"):
        if os.path.isdir(top):
            args += ["--ro-bind", top, top]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    seen = ["/usr"]
    for prefix in (sys.base_prefix, sys.prefix):
        real = os.path.realpath(prefix)
        for p in {prefix, real}:
            if not any(p == s or p.startswith(s + "/") for s in seen):
                args += _ro_bind(p, p, made)
                seen.append(p)
    return args


def _bwrap_argv(build: Path, uid: int | None) -> list[str]:
    argv = [bwrap_path() or "bwrap", "--die-with-parent", "--new-session",
            "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--hostname", "sandbox"]
    if uid is None:
        argv += ["--unshare-user", "--disable-userns"]
    # /tmp first: what is bound below it (an environment in /tmp/...) goes on top.
    argv += ["--perms", "1777", "--size", str(TMP_BYTES), "--tmpfs", "/tmp"]
    made: set[str] = {"/tmp"}
    argv += _binds(made)
    argv += _ro_bind(str(build / "perceptron_lib"), str(standins.LIBRARY), made)
    argv += ["--ro-bind", str(build / "runner"), "/grader",
             "--proc", "/proc", "--dev", "/dev",
             "--remount-ro", "/", "--chdir", "/tmp", "--cap-drop", "ALL"]
    if uid is not None:
        setpriv = shutil.which("setpriv") or "/usr/bin/setpriv"
        argv += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID",
                 "--cap-add", "CAP_SETPCAP", "--",
                 setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                 "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]
    else:
        argv += ["--"]
    return [*argv, PYTHON, "-I", "-S", "/grader/child.py"]


def _library_path(how: str, build: Path) -> str:
    """The folder the child puts first on its path to import the stand-in library:
    without bubblewrap the build itself; with it, the folder where the library is
    mounted (the real library's place, which an install of the course, editable or
    not, may also name; a grader started with ``PYTHONPATH`` needs this one)."""
    return str(build) if how == "limits-only" else str(standins.LIBRARY.parent)


@functools.cache
def site_folders() -> tuple[str, ...]:
    """The folders ``site`` adds to the path of ``PYTHON -I`` (its site-packages, and
    the folders its .pth files name).  The child starts with ``-S`` and adds these
    itself: the .pth files' code (an editable install's import hook, coverage's start-up)
    would cost every run some milliseconds and has no business in a submission's run."""
    code = "import json, sys; print(json.dumps(sys.path))"
    try:
        full, bare = (json.loads(subprocess.run(
            [PYTHON, *flags, "-c", code], capture_output=True, text=True, timeout=60,
            check=True).stdout) for flags in (["-I"], ["-I", "-S"]))
    except (OSError, ValueError, subprocess.SubprocessError):
        import site
        return tuple(site.getsitepackages())
    return tuple(p for p in full if p not in bare)


def _child_env() -> dict[str, str]:
    keep = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL") if k in os.environ}
    keep.update({
        "HOME": "/tmp",
        "TMPDIR": "/tmp",
        "MPLBACKEND": "Agg",
        "MPLCONFIGDIR": "/tmp",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "NUMBA_DISABLE_JIT": "1",
        "PERCEPTRON_GRADING_SITE": os.pathsep.join(site_folders()),
    })
    return keep


def _user_process_count() -> int:
    uid = os.getuid()
    return sum(1 for pid in _pids() if _owner(pid) == uid)


def _make_preexec(limits: Limits, uid: int | None, guard: memory.Guard):
    nproc = limits.processes if uid is not None or _is_root() else (
        _user_process_count() + limits.processes)

    def preexec() -> None:  # runs in the child between fork and exec
        guard.enter()  # its memory cgroup, before anything of the submission runs
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))

    return preexec


# ------------------------------------------------------------- which mode, probed once
_mode: list[str | None] = []


def mode() -> str:
    """``"bwrap-root"``, ``"bwrap-user"`` or ``"limits-only"`` on this machine."""
    if not _mode:
        _mode.append(_probe_mode())
    return _mode[0]


def _probe_mode() -> str:
    if platform.system() != "Linux" or bwrap_path() is None:
        return "limits-only"
    candidate = "bwrap-root" if _is_root() else "bwrap-user"
    try:
        build = _build(frozenset())
        uid = _take_uid() if candidate == "bwrap-root" else None
        try:
            argv = _bwrap_argv(build, uid)
            argv[-3:] = ["-I", "-c", "print('ok')"]
            done = subprocess.run(argv, capture_output=True, text=True, timeout=30,
                                  env=_child_env())
        finally:
            if uid is not None:
                _give_back_uid(uid)
    except (OSError, subprocess.SubprocessError):
        return "limits-only"
    return candidate if done.stdout.strip() == "ok" else "limits-only"


# ------------------------------------------------------------- cancelling
#: The status of a run stopped by :func:`cancel` (the instructor's Ctrl+C).
CANCELLED = "cancelled: the grading run was interrupted"
_cancelled = threading.Event()


def cancel() -> None:
    """Stop every run in progress (their processes are killed within a fraction of a
    second) and make new runs return at once with the status :data:`CANCELLED`."""
    _cancelled.set()


def reset_cancel() -> None:
    """Let runs start again after :func:`cancel` (a new grading run in this process)."""
    _cancelled.clear()


def _wait(finished: threading.Event, seconds: float) -> str:
    """Wait for ``finished``: ``"done"``, ``"timeout"`` or ``"cancelled"``."""
    deadline = time.monotonic() + seconds
    while not _cancelled.is_set():
        left = deadline - time.monotonic()
        if left <= 0:
            return "timeout"
        if finished.wait(timeout=min(left, 0.1)):
            return "done"
    return "cancelled"


# ------------------------------------------------------------- one run
def run(
    cells: list[str],
    calls: list[dict],
    limits: Limits | None = None,
    hidden: list[str | Path] = (),
    *,
    blocked: frozenset[str] | None = None,
    references: list[dict] = (),
    follow_up: Callable[[RunResult], FollowUp | None] | None = None,
) -> RunResult:
    """Run ``cells`` in the sandbox, then make ``calls`` and collect the answers.

    Each call is ``{"id": str, "function": name, "args": [encoded values]}``; every
    function named by a call is replaced in the library by a stand-in.  The result has,
    for each call id, ``{"value": decoded answer, "seconds": s, "mutated": [argument
    positions changed in place]}`` or ``{"error": text}``; calls that never came back
    are missing.  ``hidden`` names paths that must not be visible to the submission:
    with bubblewrap none is (the sandbox's file system holds only what it needs), and
    without it they are named in the report as visible.

    A run that grades a function with the references of the graded functions it calls
    (see :mod:`..judge.cascade`) gives ``blocked``, the functions replaced by stand-ins
    (by default those the calls name; always at least those), and ``references``, the
    references put in place of the submission's functions of their names once the
    cells have run (``{"name", "source", "entry"}``, real in this run's library).  A
    reference is never shipped for a function whose cases the run answers.

    ``follow_up`` is called once every call has its answer, with the result so far (its
    status ``"ok"``); a :class:`FollowUp` it returns runs in the same sandbox, from the
    state the cells left, and its answers come back in ``later``.  The references reach
    the sandbox only then, once the first part's answers are final: nothing that comes
    after them counts for the first part's calls.
    """
    limits = limits or Limits()
    if _cancelled.is_set():
        return RunResult(status=CANCELLED)
    called = frozenset(c["function"] for c in calls)
    blocked = called if blocked is None else frozenset(blocked)
    shipped = {r["name"] for r in references}
    if not called <= blocked or shipped & blocked:
        raise ValueError("a run blocks every function it calls and ships references of "
                         f"others only (calls {sorted(called)}, blocked {sorted(blocked)}, "
                         f"references {sorted(shipped)})")
    build = _build(blocked)
    how = mode()
    uid = _take_uid() if how == "bwrap-root" else None
    request = json.dumps({
        "cells": cells,
        "cell_seconds": limits.cell_seconds,
        "calls": [{**c, "seconds": limits.call_seconds} for c in calls],
        **({"references": list(references)} if references else {}),
        **({"follow_up": True} if follow_up is not None else {}),
    }) + "\n"
    read_fd, write_fd = os.pipe()
    t0 = time.perf_counter()
    reader = _Reader(read_fd, limits.answer_bytes, {str(c["id"]) for c in calls},
                     follows=follow_up is not None)
    status = "ok"
    sink = tempfile.TemporaryFile()
    guard = memory.guard(limits.total_memory_bytes, limits.processes)
    held = memory.Outcome(hit=False, peak_bytes=None)
    ended, killed_by = "done", None
    held_first: bool | None = None  # the memory limit hit in the first part of two
    try:
        env = {**_child_env(), "PERCEPTRON_GRADING_LIBRARY": _library_path(how, build)}
        if how == "limits-only":
            argv = [PYTHON, "-I", "-S", str(build / "runner" / "child.py")]
            cwd = str(scratch.folder("submission-"))
        else:
            argv, cwd = _bwrap_argv(build, uid), "/"
        proc = subprocess.Popen(
            [*argv, str(write_fd)],
            stdin=subprocess.PIPE, stdout=sink, stderr=subprocess.STDOUT,
            pass_fds=(write_fd,), cwd=cwd, env=env, start_new_session=True,
            preexec_fn=_make_preexec(limits, uid, guard),
        )
        guard.watch(proc.pid, uid)
        os.close(write_fd)
        write_fd = -1
        reader.start()
        try:
            proc.stdin.write(request.encode())
            proc.stdin.flush()
            if follow_up is None:
                proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        ended = _wait(reader.progress, limits.wall_seconds)
        if follow_up is not None:
            if ended == "done" and reader.answered_at is not None:
                held_first = guard.hit_so_far()  # the first part is over: its facts
            first = _first_part(reader, held_first, time.perf_counter() - t0, limits)
            _send_follow_up(proc, follow_up(first) if first is not None else None,
                            blocked, reader, limits)
            if held_first is not None:
                ended = _wait(reader.finished, limits.wall_seconds)
        killed_by = (_ended_by_signal(proc, how)
                     if ended == "done" and not reader.done and held_first is None else None)
        if ended == "timeout":
            status = (f"timeout: stopped after {limits.wall_seconds:g} s "
                      "(the limit for the whole notebook)")
        elif ended == "cancelled":
            status = CANCELLED
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        reader.join(timeout=5)
        if how == "limits-only":
            shutil.rmtree(cwd, ignore_errors=True)
    finally:
        if write_fd >= 0:
            os.close(write_fd)
        held = guard.finish()  # kills what is left in the run's cgroup
        if uid is not None:
            _kill_uid(uid)
            _give_back_uid(uid)
        sink.close()
    result = reader.result(status, time.perf_counter() - t0)
    if held_first is not None:  # what the second part did leaves the first alone
        held = memory.Outcome(hit=held_first, peak_bytes=held.peak_bytes)
        return _observed(result, limits, held=held, timed_out=False, too_large=False,
                         killed_by=None)
    return _observed(result, limits, held=held, timed_out=ended == "timeout",
                     too_large=reader.too_large, killed_by=killed_by)


def _first_part(reader: _Reader, held: bool | None, seconds: float,
                limits: Limits) -> RunResult | None:
    """The first part's result, once the child said every call has its answer
    (``held``: whether the memory limit was hit meanwhile, None before that line), and
    only if nothing stopped it; None otherwise."""
    if held is None or reader.too_large:
        return None
    first = _observed(reader.result("ok", seconds), limits,
                      held=memory.Outcome(hit=held, peak_bytes=None),
                      timed_out=False, too_large=False, killed_by=None)
    return first if first.status == "ok" else None


def _send_follow_up(proc: subprocess.Popen, more: FollowUp | None, blocked: frozenset[str],
                    reader: _Reader, limits: Limits) -> None:
    """Write the second part's request (or nothing) and close the child's input."""
    try:
        if more is not None:
            called = frozenset(c["function"] for c in more.calls)
            shipped = {r["name"] for r in more.references}
            library = standins.made_real(blocked, more.blocked)
            if not called <= more.blocked <= blocked or shipped & more.blocked or (
                    library is None):
                raise ValueError(
                    "a follow-up blocks every function it calls, fewer than the run, and "
                    f"ships references of others only (calls {sorted(called)}, blocked "
                    f"{sorted(more.blocked)} of {sorted(blocked)}, references "
                    f"{sorted(shipped)})")
            reader.later_ids = {str(c["id"]) for c in more.calls}
            proc.stdin.write(json.dumps({
                "calls": [{**c, "seconds": limits.call_seconds} for c in more.calls],
                "references": more.references,
                "library": library}).encode() + b"\n")
        proc.stdin.close()
    except (BrokenPipeError, OSError):
        pass


def _ended_by_signal(proc: subprocess.Popen, how: str) -> str | None:
    """The signal that ended the sandbox's first process, if one did (it is given half a
    second to end once its answers stopped coming without its last line)."""
    try:
        code = proc.wait(timeout=0.5)
    except subprocess.TimeoutExpired:
        return None
    number = -code if how == "limits-only" else code - 128  # bubblewrap: 128 + signal
    if number <= 0:
        return None
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _observed(result: RunResult, limits: Limits, *, held: memory.Outcome, timed_out: bool,
              too_large: bool, killed_by: str | None) -> RunResult:
    """``result`` with the facts of the whole run that the grader saw itself."""
    result.peak_memory_bytes = held.peak_bytes
    result.killed_by = killed_by
    if result.status == CANCELLED:
        return result
    hits = [name for name, hit in (("memory", held.hit), ("time", timed_out),
                                   ("answers", too_large)) if hit]
    result.limit_hit = hits[0] if hits else None
    if held.hit:
        words = (f"memory: the submission's processes together used more than "
                 f"{in_words(limits.total_memory_bytes)}")
        result.status = words if result.status == "ok" else f"{words}; {result.status}"
    if killed_by and result.status.endswith("exited before finishing"):
        result.status += f" (the sandbox's first process was killed by {killed_by})"
    return result


class _Reader(threading.Thread):
    """Reads the answer pipe until the child says it is done (or the pipe closes).

    Whatever is on the pipe was written by the child, and so possibly by the
    submission: :meth:`result` reads it as hostile data.
    """

    def __init__(self, fd: int, cap: int, ids: set[str], *, follows: bool = False) -> None:
        super().__init__(daemon=True)
        self.fd, self.cap, self.ids, self.follows = fd, cap, ids, follows
        self.later_ids: set[str] = set()  # the second part's calls (see FollowUp)
        self.lines: list[str] = []
        self.size = 0
        self.too_large = False
        self.done = False  # the child's last line came
        self.answered_at: int | None = None  # the line that ends the first part
        self.finished = threading.Event()
        self.progress = threading.Event()  # finished, or the first part ended

    def run(self) -> None:
        try:
            self._read()
        finally:
            self.finished.set()
            self.progress.set()

    def _read(self) -> None:
        pending = b""
        with os.fdopen(self.fd, "rb", buffering=0) as fh:
            while True:
                block = fh.read(65536)
                if not block:
                    break
                self.size += len(block)
                if self.size > self.cap:
                    self.too_large = True
                    break
                pending += block
                *complete, pending = pending.split(b"\n")
                for line in complete:
                    text = line.decode("utf-8", "replace")
                    self.lines.append(text)
                    if text.startswith('{"kind": "done"'):
                        self.done = True
                        self.finished.set()
                        self.progress.set()
                    elif (self.follows and self.answered_at is None
                          and text.startswith('{"kind": "answered"')):
                        self.answered_at = len(self.lines) - 1
                        self.progress.set()

    def result(self, status: str, seconds: float) -> RunResult:
        """The answers, cell errors and printed output; never raises.

        A line that cannot be read (not JSON, nested too deeply for the parser, a number
        too long, fields of the wrong type) becomes the error of the call it names, or
        is left out when it names none.  Only the calls that were made are answered,
        each by the first line that names it.

        The first part of a run of two (see :class:`FollowUp`) ends at the child's line
        that says so: the lines before it answer the first part's calls, those after it
        the second part's only.
        """
        result = RunResult(status=status, seconds=seconds)
        if self.too_large and status == "ok" and self.answered_at is None:
            result.status = (f"answers too large: more than {in_words(self.cap)} came back "
                             "from the submission")
        cut = len(self.lines) if self.answered_at is None else self.answered_at
        seen_done = self.answered_at is not None
        for k, line in enumerate(self.lines):
            first = k < cut
            ids, answers = (self.ids, result.answers) if first else (
                self.later_ids, result.later)
            try:
                seen_done = self._take(line, result, ids, answers, first) or seen_done
            except Exception as exc:  # anything the child wrote; RecursionError included
                self._unreadable(line, exc, ids, answers)
        if result.status == "ok" and not seen_done:
            result.status = "exited before finishing"
        return result

    def _take(self, line: str, result: RunResult, ids: set[str], answers: dict[str, dict],
              first: bool) -> bool:
        """Read one line into ``result`` (a call's answer into ``answers``, if ``ids``
        holds it); whether it says the child is done."""
        msg = json.loads(line)
        if not isinstance(msg, dict):
            return False
        kind = msg.get("kind")
        if kind == "cells" and first:
            result.cell_errors = _cell_errors(msg.get("errors"))
        elif kind == "call":
            cid = msg.get("id")
            if isinstance(cid, str) and cid in ids and cid not in answers:
                answers[cid] = _answer(msg)
        elif kind == "done":
            printed = msg.get("printed")
            result.printed = printed[-4000:] if isinstance(printed, str) else ""
            return True
        return False

    def _unreadable(self, line: str, exc: BaseException, ids: set[str],
                    answers: dict[str, dict]) -> None:
        cid = _line_id(line)
        if cid in ids and cid not in answers:
            why = ("it is nested too deeply" if isinstance(exc, RecursionError)
                   else f"{type(exc).__name__}: {exc}")
            answers[cid] = {"error": f"the answer could not be read: {why}"[:500]}


_ID = re.compile(r'"id"\s*:\s*("(?:[^"\\]|\\.){0,200}")')


def _line_id(line: str) -> str | None:
    """The call id near the start of a line that could not be read whole, if any."""
    found = _ID.search(line[:1000])
    if found is None:
        return None
    try:
        cid = json.loads(found.group(1))
    except ValueError:
        return None
    return cid if isinstance(cid, str) else None


def _answer(msg: dict) -> dict:
    """One call's answer from the child's line: its value or its error."""
    if "value" not in msg:
        error = msg.get("error")
        return {"error": error[:500] if isinstance(error, str) else "the call failed",
                **_limit(msg)}
    seconds = msg.get("seconds")
    mutated = msg.get("mutated")
    return {"value": decode(msg["value"]),
            "seconds": seconds if isinstance(seconds, (int, float)) and not isinstance(
                seconds, bool) and math.isfinite(seconds) else None,
            "mutated": [k for k in mutated[:64] if isinstance(k, int)
                        and not isinstance(k, bool)] if isinstance(mutated, list) else []}


def _cell_errors(errors: object) -> list[dict]:
    """The cells' errors from the child's line, each ``{"cell": n, "error": text}``."""
    if not isinstance(errors, list):
        return []
    kept = []
    for e in errors[:50]:
        if isinstance(e, dict) and isinstance(e.get("cell"), int) and isinstance(
                e.get("error"), str):
            kept.append({"cell": e["cell"], "error": e["error"][:500], **_limit(e)})
    return kept


def _limit(record: dict) -> dict:
    """``{"limit": name}`` when the child named one of :data:`CHILD_LIMITS`, else ``{}``."""
    limit = record.get("limit")
    return {"limit": limit} if isinstance(limit, str) and limit in CHILD_LIMITS else {}


# ------------------------------------------------------------- what is isolated
PROBE = """
import json, os, sys
paths = json.loads(sys.argv[1])
sys.path[:0] = [p for p in sys.argv[2:] if p]
seen = [p for p in paths if os.path.exists(p)]
import perceptron_lib, perceptron_lib.algorithm as a
try:
    a.perceptron([[1.0]], [1.0], 1)
    library = "real"
except RuntimeError:
    library = "stand-in"
try:
    open("/etc/hostname", "a").close()
    etc = "writable"
except OSError:
    etc = "read-only"
pids = [p for p in os.listdir("/proc") if p.isdigit()]
print(json.dumps({"visible": seen, "library": library, "etc": etc, "uid": os.getuid(),
                  "groups": os.getgroups(), "processes_seen": len(pids)}))
"""


#: What to do when the probe cannot run (the grader stops before grading).
INSTALL_ADVICE = ("install the course's environment: python3 tasks.py test once, or "
                  "pip install -e . in the environment the grader runs with")


def _probe(hidden: list[str]) -> tuple[dict, str]:
    """Run a small script inside the sandbox, as a submission would.

    Returns its facts, and an empty string; or no facts and what went wrong (the end of
    what the probe wrote on its error output, such as ``No module named 'numpy'``).
    """
    how = mode()
    build = _build(frozenset({"perceptron"}))
    uid = _take_uid() if how == "bwrap-root" else None
    library = _library_path(how, build)
    try:
        if how == "limits-only":
            argv = [PYTHON, "-I", "-c", PROBE, json.dumps(hidden), library]
        else:
            argv = [*_bwrap_argv(build, uid)[:-2], "-c", PROBE, json.dumps(hidden), library]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                              env=_child_env(), cwd="/")
    except subprocess.TimeoutExpired:
        return {}, "the probe did not finish within 60 s"
    except OSError as exc:
        return {}, f"the probe could not start: {exc}"
    finally:
        if uid is not None:
            _kill_uid(uid)
            _give_back_uid(uid)
    try:
        facts = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        facts = None
    if isinstance(facts, dict) and isinstance(facts.get("visible"), list):
        return facts, ""
    said = [line.strip() for line in (done.stderr + done.stdout).splitlines() if line.strip()]
    return {}, (said[-1][:300] if said else
                f"the probe ended with status {done.returncode} and wrote nothing")


def isolation_report(hidden: list[str | Path] | None = None,
                     limits: Limits | None = None) -> dict:
    """What :func:`run` isolates on this machine, checked by a probe in the sandbox.

    ``verified`` says whether the probe ran.  When it did, ``hidden_paths`` lists the
    paths of ``hidden`` that it could not see and ``visible_paths`` those it could.
    When it did not, the sandbox cannot run a submission either: ``broken_install``
    says what failed and what to do, and the paths are listed as ``unchecked_paths``
    only.  ``memory`` says how the memory of all a run's processes together is held
    (:func:`.memory.report`: the scheme and the limit).
    """
    limits = limits or Limits()
    how = mode()
    paths = [str(Path(p).resolve()) for p in (hidden or []) if Path(p).exists()]
    probe, failure = _probe(paths)
    verified = not failure
    visible = [p for p in probe.get("visible", []) if p in paths]
    sandboxed = how != "limits-only"
    not_isolated = [] if how == "bwrap-root" else (
        ["runs share the grader's uid (separated by namespaces)"] if sandboxed else
        ["file system (the submission can read and write what the grader can)",
         "network", "other processes of the same user", "processes left behind"])
    report = {
        "platform": platform.system(),
        "root": _is_root(),
        "sandbox": (f"bubblewrap ({bwrap_path()})" if sandboxed else
                    "none: bubblewrap is not installed or the kernel refused its namespaces"),
        "user": ("a uid and gid of its own for every run, no groups, no capabilities"
                 if how == "bwrap-root" else
                 "the grader's own uid, inside a user namespace" if how == "bwrap-user"
                 else "the grader's own user"),
        "process_namespace": sandboxed,
        "network_namespace": sandboxed,
        "file_system": ("read-only system, Python and stand-in library; a fresh /tmp is the "
                        "only writable place" if sandboxed else "the grader's, unchanged"),
        "verified": verified,
        "library": probe.get("library", "unknown"),
        "etc": probe.get("etc", "unknown"),
        "processes_seen": probe.get("processes_seen"),
        "limits": ["cpu per cell and per call", "wall clock", "address space", "file size",
                   "core", "processes", "memory of all processes together"],
        "memory": {**memory.report(limits.total_memory_bytes),
                   "per_process_bytes": limits.memory_bytes},
        "hidden_paths": [p for p in paths if p not in visible] if verified else [],
        "visible_paths": visible,
        "not_isolated": not_isolated,
    }
    if not verified:
        report["broken_install"] = (f"the sandbox's Python ({PYTHON} -I) failed to start "
                                    f"a submission's process: {failure}; {INSTALL_ADVICE}")
        report["unchecked_paths"] = paths
        report["not_isolated"] = [*not_isolated, "unverified: the probe did not run in "
                                  "the sandbox, so what this report says is not checked"]
    return report
