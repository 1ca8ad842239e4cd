"""The run's scratch folder: every temporary file of a grading run, gone on every exit.

A run keeps everything temporary in one folder, ``perceptron-grading-run-*`` in the
system's temporary folder: the notebooks the intake copies out of archives, the
stand-in library the sandbox builds, the working folders of runs without bubblewrap.
The folder holds a lock file (with the run's process id in it) that the run keeps
locked (:func:`fcntl.flock`) while it lives; the kernel drops the lock when the process
ends, however it ends.  So:

- a run that ends normally, by an exception or by Ctrl+C deletes its folder
  (:func:`release`, registered with :mod:`atexit`);
- a run that was killed (SIGKILL, a power cut) leaves its folder unlocked, and the next
  run deletes it (:func:`sweep`), while the folders of runs still going are left alone.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

PREFIX = "perceptron-grading-run-"
LOCK = ".lock"
#: A folder without a lock younger than this may be a run being set up: left alone.
YOUNG_SECONDS = 60.0

_lock = threading.Lock()
_state: dict[str, object] = {}


def root() -> Path:
    """This process's scratch folder (made, locked and world-readable on first use).

    It is readable by all (mode 0755) because the sandbox's unprivileged user reads the
    stand-in library from it; what a run copies into it from submissions is kept in
    folders of mode 0700 (see :func:`folder`).
    """
    with _lock:
        if _state.get("pid") != os.getpid():  # a forked child makes a folder of its own
            path = Path(tempfile.mkdtemp(prefix=PREFIX))
            os.chmod(path, 0o755)
            fd = os.open(path / LOCK, os.O_CREAT | os.O_WRONLY, 0o600)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.write(fd, f"{os.getpid()}\n".encode())  # whose it is, for people to read
            _state.update(pid=os.getpid(), path=path, fd=fd)
            atexit.register(release)
        return _state["path"]  # type: ignore[return-value]


def folder(prefix: str, private: bool = True) -> Path:
    """A new folder in the scratch folder (mode 0700 when ``private``, else 0755)."""
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=root()))
    os.chmod(path, 0o700 if private else 0o755)
    return path


def release() -> None:
    """Delete this process's scratch folder (nothing happens when it has none)."""
    with _lock:
        if _state.get("pid") != os.getpid():
            return
        path, fd = _state.pop("path"), _state.pop("fd")
        _state.pop("pid")
        shutil.rmtree(path, ignore_errors=True)  # type: ignore[arg-type]
        with contextlib.suppress(OSError):
            os.close(fd)  # type: ignore[arg-type]


def sweep(where: Path | None = None) -> list[Path]:
    """Delete the scratch folders that killed runs left; the folders deleted.

    Parameters
    ----------
    where
        The temporary folder to look in (the system's by default).

    Returns
    -------
    list of Path
        The folders whose lock no process holds, now deleted.  A folder whose lock is
        held belongs to a run still going and is left alone.
    """
    where = Path(tempfile.gettempdir()) if where is None else Path(where)
    removed = []
    for path in sorted(where.glob(f"{PREFIX}*")):
        if path == _state.get("path") or not path.is_dir() or path.is_symlink():
            continue
        try:
            fd = os.open(path / LOCK, os.O_RDONLY | os.O_NOFOLLOW)
        except FileNotFoundError:
            fd = None  # killed before it made its lock, or a run making it right now
            with contextlib.suppress(OSError):
                if time.time() - path.stat().st_mtime < YOUNG_SECONDS:
                    continue
        except OSError:
            continue
        try:
            if fd is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue  # a run still going
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
        finally:
            if fd is not None:
                os.close(fd)
    return removed
