"""Grades kept as they finish: one file per graded submission in ``OUT/records``.

Each submission's record (:func:`..judge.records.record`) is written to
``OUT/records/`` the moment it is graded, whole or not at all (:mod:`.outdir`), so a
run stopped at any point (Ctrl+C, a killed process, a power cut) loses only the
submissions being graded at that moment.  The next run reads them back with
:func:`load` and grades only what is missing or changed; ``results.json`` and the
rest of the gradebook are written from the records at the end of a run, and
:func:`prune` then drops the records of students no longer in the run.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

from ..judge.records import identity
from . import outdir

FOLDER = "records"


def _file(out: Path, key: tuple[str, str]) -> Path:
    """The record file of a student: a hash of the identity, so any name is safe."""
    digest = hashlib.sha256("\0".join(key).encode("utf-8", "replace")).hexdigest()[:24]
    return out / FOLDER / f"{digest}.json"


def keep(out: Path, record: dict) -> Path:
    """Write one graded submission's record now; the file written."""
    path = _file(out, identity(record))
    path.parent.mkdir(parents=True, exist_ok=True)
    outdir.write_text(path, json.dumps(record))
    return path


def _results(out: Path) -> list:
    try:
        grades = json.loads((out / "results.json").read_text(encoding="utf-8"))["grades"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return []
    return grades if isinstance(grades, list) else []


def _kept(out: Path) -> list:
    found = []
    folder = out / FOLDER
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        with contextlib.suppress(OSError, ValueError, RecursionError):
            found.append(json.loads(path.read_text(encoding="utf-8")))
    return found


def load(out: Path) -> dict[tuple[str, str], dict]:
    """The records of earlier runs in ``out``, by :func:`..judge.records.identity`.

    The kept records (``OUT/records``) win over ``results.json``: they are at least as
    new, and a run that was stopped before writing ``results.json`` has only them.
    A file that cannot be read is skipped (its student is graded again).
    """
    found: dict[tuple[str, str], dict] = {}
    for g in [*_results(out), *_kept(out)]:
        with contextlib.suppress(KeyError, TypeError, AttributeError):
            found[identity(g)] = g
    return found


def prune(out: Path, keys: Iterable[tuple[str, str]]) -> int:
    """Delete the kept records of students not in ``keys``; how many were deleted."""
    wanted = {_file(out, k).name for k in keys}
    removed = 0
    folder = out / FOLDER
    for path in folder.glob("*.json") if folder.is_dir() else []:
        if path.name not in wanted:
            with contextlib.suppress(OSError):
                path.unlink()
                removed += 1
    outdir.remove_leftovers([folder])
    return removed
