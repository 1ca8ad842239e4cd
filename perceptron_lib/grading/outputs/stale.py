"""Files of the last run that this run does not write again, removed.

A student who left the class, or a platform no longer exported, would otherwise leave
their feedback files (``OUT/feedback/*.txt`` and ``.html``), their export
(``OUT/export-*.csv``) or a platform's feedback zip in the output folder, where they
could be mailed or imported by mistake.  Only files the grader itself wrote are
removed: a file is removed when the last run's ``results.json`` records writing it,
its name is one the grader writes, and this run does not write it.  Anything else in
the folder (a file a person put there, a name the grader never writes) is left alone.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable
from pathlib import Path

from .feedback_zip import ZIPS

#: The names of the files the grader writes in ``OUT`` that may go stale.
_FEEDBACK = re.compile(r"feedback/[^/\\]+\.(?:txt|html)")
_EXPORT = re.compile(r"export-(?:canvas|moodle|gradescope)(?:-[0-9A-Za-z_]+)?\.csv")


def ours(name: str) -> bool:
    """Whether ``name`` (relative to ``OUT``, with ``/``) is a name of a file the grader
    writes and may remove: a feedback file, an export, a platform's feedback zip."""
    if name in ZIPS.values() or _EXPORT.fullmatch(name):
        return True
    return bool(_FEEDBACK.fullmatch(name)) and not name.split("/")[1].startswith(".")


def recorded(out: Path) -> set[str]:
    """The files the last run's ``results.json`` records writing (relative to ``out``);
    none when it cannot be read."""
    try:
        data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return set()
    if not isinstance(data, dict):
        return set()
    found: set[str] = set()
    with contextlib.suppress(AttributeError, TypeError):
        for g in data.get("grades", []):
            found |= {g.get(k) for k in ("feedback", "feedback_html")}
        for e in [*data.get("exports", []), *data.get("feedback_zips", [])]:
            if e.get("written", True):
                found.add(e.get("file"))
    return {f for f in found if isinstance(f, str)}


def remove(out: Path, before: Iterable[str], written: Iterable[str]) -> list[str]:
    """Remove the files of ``before`` (what the last run wrote) that are not
    ``written`` by this run; the names removed.

    A name is compared without case as well (``Ada.txt`` and ``ada.txt`` are one file
    on macOS and Windows), and only a regular file (or a link, itself) is removed.
    """
    keep = {w.casefold() for w in written}
    removed = []
    for name in sorted(set(before)):
        if name.casefold() in keep or not ours(name):
            continue
        path = out / name
        if path.is_symlink() or path.is_file():
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(name)
    return removed
