"""Run one submission's code in a child process, with limits, away from the grader.

What is isolated, and where (the README's instructor section says the same):

- Always (Linux): a new session, so the whole process group is killed at the wall-clock
  limit; resource limits on CPU seconds, address space, file size and core dumps; a
  fresh empty working folder; a scrubbed environment; output capped in bytes.  The
  child gets the calls' inputs but never the expected answers, and its answers come
  back as JSON on a pipe; only the grader compares and scores.
- Not running as root: a limit on the number of processes (RLIMIT_NPROC).
- Running as root (CI, most containers): RLIMIT_NPROC does not bind root, so a pids
  cgroup caps the processes when the cgroup file system allows it; a new network
  namespace with no interface up (no network at all); a new mount namespace in which
  the paths the grader names (solutions, the output folder) are covered by empty
  read-only file systems; and every capability is dropped before the submission's
  interpreter starts, so it cannot undo any of this.

``isolation_report()`` says which of these are active on this machine.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import platform
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from .codec import decode

CLONE_NEWNS = 0x00020000
CLONE_NEWNET = 0x40000000
MS_RDONLY = 1
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
PR_SET_NO_NEW_PRIVS = 38
PR_CAPBSET_DROP = 24
PIDS_CGROUP = Path("/sys/fs/cgroup/pids")


@dataclass(frozen=True)
class Limits:
    """Resource limits for one submission."""

    cpu_seconds: int = 20
    wall_seconds: float = 30.0
    memory_bytes: int = 2 * 1024**3
    file_bytes: int = 8 * 1024**2
    processes: int = 32
    answer_bytes: int = 16 * 1024**2
    call_seconds: float = 2.0
    cell_seconds: float = 5.0


@dataclass
class RunResult:
    """What came back from the child."""

    status: str
    cell_errors: list[dict] = field(default_factory=list)
    answers: dict[str, dict] = field(default_factory=dict)
    printed: str = ""
    seconds: float = 0.0


def _libc():
    return ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _pids_cgroup(limit: int) -> Path | None:
    """A fresh pids cgroup with ``limit``, or None where cgroups cannot be written."""
    if not _is_root() or not (PIDS_CGROUP / "cgroup.procs").exists():
        return None
    try:
        path = Path(tempfile.mkdtemp(prefix="perceptron-grader-", dir=PIDS_CGROUP))
    except OSError:
        return None
    try:
        (path / "pids.max").write_text(str(limit))
    except OSError:
        _remove_cgroup(path)
        return None
    return path


def _remove_cgroup(path: Path | None) -> None:
    if path is None:
        return
    for _ in range(50):
        try:
            os.rmdir(path)
            return
        except OSError:
            time.sleep(0.02)


def _make_preexec(limits: Limits, hidden: list[str], cgroup: Path | None):
    root = _is_root()
    libc = _libc() if root else None

    def preexec() -> None:  # runs in the child between fork and exec
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if not root:
            resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))
            return
        if cgroup is not None:
            try:
                with open(cgroup / "cgroup.procs", "w") as fh:
                    fh.write("0")
            except OSError:
                pass
        if libc.unshare(CLONE_NEWNET | CLONE_NEWNS) == 0:
            libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None)
            for path in hidden:
                libc.mount(b"none", path.encode(), b"tmpfs", MS_RDONLY, b"size=4k,mode=0")
        libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        for cap in range(64):
            libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)

    return preexec


def isolation_report(hidden: list[str] | None = None) -> dict:
    """Which protections :func:`run` applies on this machine."""
    root = _is_root()
    cg = _pids_cgroup(8)
    _remove_cgroup(cg)
    return {
        "platform": platform.system(),
        "root": root,
        "process_group_kill": True,
        "rlimits": ["cpu", "address space", "file size", "core"]
        + ([] if root else ["processes"]),
        "pids_cgroup": cg is not None,
        "network_namespace": root,
        "hidden_paths": list(hidden or []) if root else [],
        "capabilities_dropped": root,
    }


def _child_env(workdir: str) -> dict[str, str]:
    keep = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL", "SYSTEMROOT") if k in os.environ}
    keep.update({
        "HOME": workdir,
        "TMPDIR": workdir,
        "MPLBACKEND": "Agg",
        "MPLCONFIGDIR": workdir,
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "NUMBA_DISABLE_JIT": "1",
    })
    return keep


def run(
    cells: list[str],
    calls: list[dict],
    limits: Limits | None = None,
    hidden: list[str | Path] = (),
) -> RunResult:
    """Run ``cells`` in a child process, then make ``calls`` and collect the answers.

    Each call is ``{"id": str, "function": name, "args": [encoded values]}``.  The
    result has, for each call id, ``{"value": decoded answer}`` or ``{"error": text}``;
    calls that never came back (the child died or was killed) are missing.
    """
    limits = limits or Limits()
    hidden_paths = [str(Path(p).resolve()) for p in hidden if Path(p).exists()]
    request = json.dumps({
        "cells": cells,
        "blocked": sorted({c["function"] for c in calls}),
        "cell_seconds": limits.cell_seconds,
        "calls": [{**c, "seconds": limits.call_seconds} for c in calls],
    })
    workdir = tempfile.mkdtemp(prefix="perceptron-submission-")
    cgroup = _pids_cgroup(limits.processes)
    read_fd, write_fd = os.pipe()
    t0 = time.perf_counter()
    chunks: list[bytes] = []
    total = [0]

    def drain() -> None:
        with os.fdopen(read_fd, "rb") as fh:
            while True:
                block = fh.read(65536)
                if not block:
                    return
                if total[0] < limits.answer_bytes:
                    chunks.append(block[: limits.answer_bytes - total[0]])
                total[0] += len(block)

    reader = threading.Thread(target=drain, daemon=True)
    status = "ok"
    try:
        with open(os.path.join(workdir, ".output"), "wb") as sink:
            proc = subprocess.Popen(
                [sys.executable, "-I", "-m", "perceptron_lib.grading._child", str(write_fd)],
                stdin=subprocess.PIPE,
                stdout=sink,
                stderr=subprocess.STDOUT,
                pass_fds=(write_fd,),
                cwd=workdir,
                env=_child_env(workdir),
                start_new_session=True,
                preexec_fn=_make_preexec(limits, hidden_paths, cgroup),
            )
            os.close(write_fd)
            write_fd = -1
            reader.start()
            try:
                proc.stdin.write(request.encode())
                proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass
            try:
                proc.wait(timeout=limits.wall_seconds)
            except subprocess.TimeoutExpired:
                status = f"timeout: killed after {limits.wall_seconds:g} s"
            finally:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
                proc.wait()
            reader.join(timeout=5)
        code = proc.returncode
        if status == "ok" and code != 0:
            if code < 0:
                name = signal.Signals(-code).name
                reason = {"SIGXCPU": "CPU time limit", "SIGKILL": "killed (memory or limit)",
                          "SIGXFSZ": "file size limit", "SIGSEGV": "crashed"}.get(name, name)
                status = f"crashed: {reason}"
            else:
                status = f"exited with code {code}"
    finally:
        if write_fd >= 0:
            os.close(write_fd)
        _remove_cgroup(cgroup)
        shutil.rmtree(workdir, ignore_errors=True)

    result = RunResult(status=status, seconds=time.perf_counter() - t0)
    if total[0] > limits.answer_bytes:
        result.status = "answers too large" if status == "ok" else status
    seen_done = False
    for line in b"".join(chunks).decode("utf-8", "replace").splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict):
            continue
        kind = msg.get("kind")
        if kind == "cells" and isinstance(msg.get("errors"), list):
            result.cell_errors = msg["errors"][:50]
        elif kind == "call" and isinstance(msg.get("id"), str):
            if "value" in msg:
                result.answers[msg["id"]] = {"value": decode(msg["value"]),
                                             "seconds": msg.get("seconds")}
            else:
                result.answers[msg["id"]] = {"error": str(msg.get("error", "failed"))[:500]}
        elif kind == "done":
            seen_done = True
            result.printed = str(msg.get("printed", ""))[-4000:]
    if result.status == "ok" and not seen_done:
        result.status = "exited before finishing"
    return result
