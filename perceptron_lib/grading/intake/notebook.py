"""Read a submitted notebook: the assignment its metadata names, and its code cells."""

from __future__ import annotations

import json
from pathlib import Path

METADATA_KEY = "perceptron_course"


class SubmissionError(Exception):
    """A submission that cannot be graded at all (not a notebook, no assignment...)."""


def read_submission(path: Path) -> tuple[str | None, list[str]]:
    """The assignment named in the notebook's metadata, and its code cells in order."""
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise SubmissionError(f"not a readable notebook: {str(exc)[:200]}") from exc
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise SubmissionError("not a notebook: no list of cells")
    meta = nb.get("metadata", {})
    assignment = None
    if isinstance(meta, dict) and isinstance(meta.get(METADATA_KEY), dict):
        value = meta[METADATA_KEY].get("assignment")
        assignment = value if isinstance(value, str) else None
    cells = []
    for cell in nb["cells"]:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        tags = cell.get("metadata", {}).get("tags", []) if isinstance(
            cell.get("metadata"), dict) else []
        if isinstance(tags, list) and "check" in tags:
            continue  # the public checks: nothing to grade there
        source = cell.get("source", "")
        if isinstance(source, list):
            source = "".join(s for s in source if isinstance(s, str))
        if isinstance(source, str):
            cells.append(source)
    return assignment, cells


def named_assignment(path: Path) -> str | None:
    """The assignment a notebook's metadata names, or None (also for unreadable files)."""
    try:
        nb = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    meta = nb.get("metadata") if isinstance(nb, dict) else None
    entry = meta.get(METADATA_KEY) if isinstance(meta, dict) else None
    value = entry.get("assignment") if isinstance(entry, dict) else None
    return value if isinstance(value, str) else None
