"""The output folder: files written whole or not at all, and a folder of the right kind.

Every file of the gradebook is written to a temporary file in the same folder, flushed
to disk, then moved over the old one with :func:`os.replace`, which is atomic on the
same file system: a run interrupted at any moment (Ctrl+C, a killed process, a full
disk) leaves each file either as the previous run wrote it or as this run wrote it,
never half written.  ``results.json`` is written last, so that it always describes
files that exist.  Temporary files that a killed run could not delete start with
``.`` and end with ``.tmp``; the next run deletes them (:func:`remove_leftovers`).

:func:`check_out` refuses an output folder that holds the gradebook of other
assignments, or files that are not a gradebook's.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

#: What a gradebook folder may hold (the files this grader writes).
GRADEBOOK_NAMES = frozenset({"grades.csv", "results.json", "report.html", "feedback",
                             "records", "feedback-moodle.zip", "feedback-canvas.zip"})
TEMPORARY_SUFFIX = ".tmp"


class OutFolderError(Exception):
    """The output folder is not one this run may write into; the message says why."""


@contextlib.contextmanager
def replacing(path: Path, newline: str | None = None) -> Iterator[IO[str]]:
    """Open a text file that replaces ``path`` only when the block ends without error.

    Parameters
    ----------
    path
        The file to write (its folder must exist).
    newline
        As for :func:`open` (``""`` for the :mod:`csv` module).

    Yields
    ------
    file object
        A UTF-8 text file in the same folder as ``path`` (a character UTF-8 cannot
        write, such as a lone surrogate, is written as ``?``).  On an exception (including
        ``KeyboardInterrupt``) it is deleted and ``path`` is left as it was.
    """
    path = Path(path)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                suffix=TEMPORARY_SUFFIX)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="replace", newline=newline) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (see :func:`replacing`)."""
    with replacing(path) as fh:
        fh.write(text)


def remove_leftovers(folders: Iterable[Path]) -> int:
    """Delete the temporary files a killed run left in ``folders``; how many there were."""
    removed = 0
    for folder in folders:
        if not folder.is_dir():
            continue
        for p in folder.glob(f".*{TEMPORARY_SUFFIX}"):
            with contextlib.suppress(OSError):
                p.unlink()
                removed += 1
    return removed


def _ours(name: str) -> bool:
    return (name in GRADEBOOK_NAMES or name.startswith(".")
            or (name.startswith("export-") and name.endswith(".csv")))


def previous_assignments(out: Path) -> set[str] | None:
    """The assignments of the gradebook in ``out`` (None when it holds no results.json).

    Raises
    ------
    OutFolderError
        ``results.json`` exists but is not a gradebook's.
    """
    results = out / "results.json"
    if not results.exists():
        return None
    try:
        grades = json.loads(results.read_text(encoding="utf-8"))["grades"]
        return {g["assignment"] for g in grades if g.get("assignment")}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise OutFolderError(
            f"{results} is not the results.json of a gradebook ({type(exc).__name__}: "
            f"{exc}); choose another --out, or delete that file") from exc


def check_out(out: Path, assignments: set[str]) -> None:
    """Refuse an output folder that is not this run's to write into.

    Parameters
    ----------
    out
        The output folder (it may not exist yet).
    assignments
        The assignments this run grades (from ``--assignment`` or the notebooks).

    Raises
    ------
    OutFolderError
        ``out`` holds the gradebook of other assignments only (writing there would mix
        two assignments in one gradebook and one set of exports), or it is not empty
        and holds files that no gradebook has (it is probably not the folder meant).
    """
    if not out.exists():
        return
    if not out.is_dir():
        raise OutFolderError(f"--out {out} is a file, not a folder")
    previous = previous_assignments(out)
    if previous is None:
        strangers = sorted(p.name for p in out.iterdir() if not _ours(p.name))
        if strangers:
            shown = ", ".join(strangers[:5]) + (", ..." if len(strangers) > 5 else "")
            raise OutFolderError(
                f"--out {out} is not empty and holds no gradebook (it has {shown}); "
                "choose a new or empty folder")
        return
    if previous and assignments and not previous & assignments:
        raise OutFolderError(
            f"--out {out} holds the gradebook of {', '.join(sorted(previous))}, and this "
            f"run grades {', '.join(sorted(assignments))}; choose another --out for it "
            "(or delete that folder to start again)")
