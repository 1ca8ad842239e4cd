"""Read a student's bytes in a helper process within bounds, never in the grader's own.

Parsing what a student sent (a notebook's JSON, the syntax of its code) can take any
amount of memory, time or recursion if the student wants it to: JSON nested some
thousands deep, a cell of some megabytes whose syntax tree takes gigabytes.  The
grader's own process must never pay for that, so such work runs in a short-lived
helper: a script of this package run by path with ``python -I -S`` (the standard
library only, nothing of the course's imported), under limits of memory, processor
time, wall-clock time and output size.  Whatever goes wrong there (a ``MemoryError``,
a crash, a limit) comes back as :class:`BoundsExceeded` with a plain message, which
the caller turns into that student's status.

A helper script reads its request (JSON) on standard input and writes one JSON
document to standard output; :func:`.helper.serve` is its main loop (a module of its
own, so that a helper imports little more than ``json``).  A helper's start costs more
than most requests (some 50 ms), so :func:`run_many` hands one helper many requests,
each within the bounds of one; a request that stops its helper is run again alone, and
the others are never charged for it.
"""

from __future__ import annotations

import contextlib
import json
import resource
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MIB = 1024**2


@dataclass(frozen=True)
class Bounds:
    """What one helper may use.

    Attributes
    ----------
    memory_bytes
        Its address space (``RLIMIT_AS``): a ``MemoryError`` beyond it.
    cpu_seconds
        Processor time (``RLIMIT_CPU``).
    wall_seconds
        Wall-clock time, after which it is killed.
    output_bytes
        The most it may write as its answer (``RLIMIT_FSIZE`` on the answer's file).
    """

    memory_bytes: int = 1024 * MIB
    cpu_seconds: int = 30
    wall_seconds: float = 60.0
    output_bytes: int = 256 * MIB


class BoundsExceeded(Exception):
    """The helper could not do its work within its bounds; the message says which."""


def _limit(bounds: Bounds, requests: int = 1) -> Callable[[], None]:
    """The limits of a helper given ``requests`` requests: one request's memory; one
    request's processor time at a time (a helper of many raises its soft limit before
    each, see :func:`.helper.serve`), up to ``requests`` of them; one answer of the
    largest size, or room for two when there are several."""
    cpu_hard = requests * bounds.cpu_seconds + 1
    output = bounds.output_bytes * (1 if requests == 1 else 2)

    def preexec() -> None:  # in the helper, between fork and exec
        resource.setrlimit(resource.RLIMIT_AS, (bounds.memory_bytes, bounds.memory_bytes))
        resource.setrlimit(resource.RLIMIT_CPU, (bounds.cpu_seconds, cpu_hard))
        resource.setrlimit(resource.RLIMIT_FSIZE, (output, output))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return preexec


def _died(code: int, bounds: Bounds, stderr: bytes) -> str:
    """Why a helper that gave no answer stopped, in words."""
    if code == -signal.SIGXCPU or code == -signal.SIGKILL:
        return f"took more than {bounds.cpu_seconds} s of processor time"
    if code == -signal.SIGXFSZ:
        return f"gave an answer larger than {bounds.output_bytes // MIB} MiB"
    tail = stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit {code}"]
    if "MemoryError" in tail[0]:
        return f"needed more than {bounds.memory_bytes // MIB} MiB of memory"
    return f"stopped: {tail[0][:200]}"


def _helper(script: Path, request: Any, limits: Callable[[], None], wall_seconds: float,
            answer, errors) -> tuple[int, bool]:
    """Run a helper on ``request``, its answer into ``answer`` and its errors into
    ``errors`` (open files); its exit code, and whether the wall-clock bound stopped it."""
    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", str(script)], stdin=subprocess.PIPE,
        stdout=answer, stderr=errors, preexec_fn=limits, start_new_session=True, cwd="/")
    late = threading.Event()

    def stop() -> None:  # the wall-clock bound: a timer, so that the wait blocks
        late.set()       # (a wait with a timeout polls, and costs every helper)
        with contextlib.suppress(OSError):
            proc.kill()

    timer = threading.Timer(wall_seconds, stop)
    timer.start()
    try:
        try:
            proc.stdin.write(json.dumps(request).encode("utf-8"))
        except BrokenPipeError:  # it stopped before reading it all
            pass
        finally:
            with contextlib.suppress(OSError):
                proc.stdin.close()
        proc.wait()
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    finally:
        timer.cancel()
    return proc.returncode, late.is_set()


def run_script(script: Path, request: Any, bounds: Bounds | None = None) -> Any:
    """Run a helper script on ``request`` and return its answer.

    Parameters
    ----------
    script
        A module of this package that runs on the standard library alone, with
        :func:`serve` as its main.
    request
        What the script reads (JSON-ready, made by the grader: file paths, cells).
    bounds
        The limits (:class:`Bounds` by default).

    Returns
    -------
    object
        The script's answer, as parsed JSON (the script's own output: its shape is the
        script's, never the student's).

    Raises
    ------
    BoundsExceeded
        The helper ran out of memory, time or output, or stopped without an answer.
    """
    bounds = bounds or Bounds()
    with tempfile.TemporaryFile() as answer, tempfile.TemporaryFile() as errors:
        code, late = _helper(script, request, _limit(bounds), bounds.wall_seconds,
                             answer, errors)
        if late:
            raise BoundsExceeded(f"took more than {bounds.wall_seconds:g} s")
        errors.seek(0)
        stderr = errors.read(64 * 1024)
        answer.seek(0)
        data = answer.read(bounds.output_bytes + 1)
    if code != 0 or not data:
        raise BoundsExceeded(_died(code, bounds, stderr))
    try:
        return json.loads(data)
    except ValueError as exc:
        raise BoundsExceeded(f"gave no readable answer ({exc})") from None


#: What one helper of :func:`run_many` is handed at most: requests, and their characters.
MANY_ITEMS = 32
MANY_CHARS = 8 * MIB


def _chunk(requests: list, start: int) -> int:
    """The end of the next batch from ``start``: at most :data:`MANY_ITEMS` requests of
    :data:`MANY_CHARS` characters together (at least one)."""
    end, chars = start, 0
    while end < len(requests) and end - start < MANY_ITEMS:
        chars += len(json.dumps(requests[end]))
        if chars > MANY_CHARS and end > start:
            break
        end += 1
    return end


def _batch(script: Path, requests: list,
           bounds: Bounds) -> tuple[list, int | None, bytes]:
    """Run one helper on ``requests``: the answers it finished (parsed, or
    :class:`BoundsExceeded` for one unreadable), its exit code (``None``
    when its wall-clock bound stopped it) and the end of its standard error."""
    with tempfile.TemporaryFile() as answer, tempfile.TemporaryFile() as errors:
        code, late = _helper(script, {"many": requests, "cpu_seconds": bounds.cpu_seconds},
                             _limit(bounds, len(requests)),
                             bounds.wall_seconds * len(requests), answer, errors)
        errors.seek(0)
        stderr = errors.read(64 * 1024)
        answer.seek(0)
        done: list = []
        while len(done) < len(requests):
            # At most one answer's size in the grader's memory, as run_script reads; an
            # answer cut off or too large is the helper's stop: that request runs alone.
            line = answer.readline(bounds.output_bytes + 1)
            if not line.endswith(b"\n"):
                break
            try:
                done.append(json.loads(line))
            except ValueError as exc:
                done.append(BoundsExceeded(f"gave no readable answer ({exc})"))
    return done, (None if late else code), stderr


def run_many(script: Path, requests: list, bounds: Bounds | None = None,
             workers: int = 1) -> list:
    """Run a helper script on each of ``requests``, many to a helper process and
    ``workers`` helpers at once.

    Each request is held to ``bounds`` as in :func:`run_script` (memory, its own
    processor time, output); a request that stops its helper (a crash, memory, a
    time limit) is run again alone, so that its answer or its error is exactly what
    :func:`run_script` would give, and the requests after it go on in a new helper.

    Returns
    -------
    list
        For each request, in order, its answer or the :class:`BoundsExceeded` that
        :func:`run_script` would raise for it.
    """
    bounds = bounds or Bounds()
    step = max(1, min(MANY_ITEMS, -(-len(requests) // max(1, workers))))
    if workers > 1 and len(requests) > step:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            parts = pool.map(lambda k: run_many(script, requests[k:k + step], bounds),
                             range(0, len(requests), step))
            return [answer for part in parts for answer in part]
    results: list = []
    while len(results) < len(requests):
        start = len(results)
        end = _chunk(requests, start)
        if end - start == 1:
            try:
                results.append(run_script(script, requests[start], bounds))
            except BoundsExceeded as exc:
                results.append(exc)
            continue
        done, code, stderr = _batch(script, requests[start:end], bounds)
        results += done
        if len(results) < end and code == -signal.SIGXCPU:
            # Stopped by the budget of the request it was on: that request's own end.
            results.append(BoundsExceeded(_died(code, bounds, stderr)))
        elif len(results) < end:
            try:  # stopped on this one: alone, it gets what run_script says of it
                results.append(run_script(script, requests[len(results)], bounds))
            except BoundsExceeded as exc:
                results.append(exc)
    return results
