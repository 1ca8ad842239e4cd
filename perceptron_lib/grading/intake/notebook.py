"""Read a submitted notebook: the assignment its metadata names, and its code cells.

A notebook is a student's JSON, so it is parsed in a bounded helper process
(:mod:`.bounded`), never in the grader's own: JSON nested thousands deep, or a file
built to take gigabytes once parsed, costs that helper and becomes the student's
status (:class:`SubmissionError`).  This module is also that helper's script: run by
path, it reads ``{"path": ...}`` and answers with :func:`parse`'s dictionary.

The grader reads each notebook once or twice (the intake looks at the metadata, the
judge at the cells); what a notebook names is kept by file identity, so that asking
again costs nothing.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections import OrderedDict
from pathlib import Path

if __package__:
    from .bounded import Bounds, BoundsExceeded, run_many, run_script

METADATA_KEY = "perceptron_course"
#: The largest notebook the helper reads (the intake refuses larger ones before).
MAX_BYTES = 20 * 1024**2
#: The helper's bounds: a notebook of :data:`MAX_BYTES` parses in well under them.
READ_MEMORY = 1024 * 1024**2
READ_SECONDS = 30
if __package__:
    BOUNDS = Bounds(memory_bytes=READ_MEMORY, cpu_seconds=READ_SECONDS,
                    wall_seconds=2 * READ_SECONDS, output_bytes=8 * MAX_BYTES)


class SubmissionError(Exception):
    """A submission that cannot be graded at all (not a notebook, no assignment...)."""


def _text(value: str) -> str:
    """``value`` as text that can be written anywhere: lone surrogates (JSON allows
    ``"\\ud800"``) become ``?``."""
    return value.encode("utf-8", "replace").decode("utf-8")


def _assignment(nb: object) -> str | None:
    meta = nb.get("metadata") if isinstance(nb, dict) else None
    entry = meta.get(METADATA_KEY) if isinstance(meta, dict) else None
    value = entry.get("assignment") if isinstance(entry, dict) else None
    return _text(value)[:200] if isinstance(value, str) else None


def _code_cells(cells: list) -> tuple[list[str], list[int]]:
    """The code cells to run, and the number of each among all the notebook's code cells
    (the ``[n]`` Jupyter shows beside it after *Restart Kernel and Run All*)."""
    found: list[str] = []
    numbers: list[int] = []
    number = 0
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        number += 1
        meta = cell.get("metadata")
        tags = meta.get("tags", []) if isinstance(meta, dict) else []
        if isinstance(tags, list) and "check" in tags:
            continue  # the public checks: nothing to grade there
        source = cell.get("source", "")
        if isinstance(source, list):
            source = "".join(s for s in source if isinstance(s, str))
        if isinstance(source, str):
            found.append(_text(source))
            numbers.append(number)
    return found, numbers


def parse(data: bytes) -> dict:
    """What a notebook's bytes hold (in the helper process).

    Parameters
    ----------
    data
        The file's bytes.

    Returns
    -------
    dict
        ``{"assignment": name or None, "cells": [code cells in order], "numbers":
        [each one's number among all code cells]}``, the cells tagged ``check`` left
        out; or ``{"assignment": ..., "problem": why}`` when the
        bytes are not a notebook.
    """
    try:
        nb = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return {"assignment": None, "problem": f"not a readable notebook: not UTF-8 ({exc})"}
    except RecursionError:
        return {"assignment": None,
                "problem": "not a readable notebook: its JSON is nested far deeper than "
                           "a notebook's"}
    except ValueError as exc:
        return {"assignment": None, "problem": f"not a readable notebook: {str(exc)[:200]}"}
    assignment = _assignment(nb)
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        return {"assignment": assignment, "problem": "not a notebook: no list of cells"}
    cells, numbers = _code_cells(nb["cells"])
    return {"assignment": assignment, "cells": cells, "numbers": numbers}


def _read_file(request: dict) -> dict:
    """The helper's work: read the file named by ``request["path"]`` and parse it."""
    try:
        with open(request["path"], "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        return {"assignment": None, "problem": f"unreadable file: {exc.strerror}"}
    if len(data) > MAX_BYTES:
        return {"assignment": None,
                "problem": f"not read: larger than {MAX_BYTES // 1024**2} MiB"}
    return parse(data)


# ------------------------------------------------------------------ in the grader
_names: dict[tuple, str | None] = {}
_names_lock = threading.Lock()
#: The last answers read, by file (a notebook is read when its assignment is checked,
#: when it is graded and for the similarity pass): kept while their cells together
#: hold at most :data:`CACHED_CHARS` characters.
_answers: OrderedDict[tuple, tuple[dict, int]] = OrderedDict()
CACHED_CHARS = 64 * 1024**2
_cached_total = 0  # characters held in _answers


def _size(answer: dict) -> int:
    cells = answer.get("cells", [])
    return sum(len(c) for c in cells if isinstance(c, str)) + 256


def _remember(key: tuple, answer: dict) -> None:
    size = _size(answer)
    if size > CACHED_CHARS // 4:
        return
    global _cached_total
    with _names_lock:
        if key in _answers:
            _cached_total -= _answers.pop(key)[1]
        _answers[key] = (answer, size)
        _cached_total += size
        while _cached_total > CACHED_CHARS:
            _, (_, n) = _answers.popitem(last=False)
            _cached_total -= n


def _cached(key: tuple) -> dict | None:
    with _names_lock:
        found = _answers.get(key)
        if found is None:
            return None
        _answers.move_to_end(key)
        answer = found[0]
    return {**answer, "cells": list(answer["cells"])} if "cells" in answer else dict(answer)


def _identity(path: Path) -> tuple:
    st = path.stat()
    return (str(path), st.st_ino, st.st_size, st.st_mtime_ns)


def read(path: Path) -> dict:
    """:func:`parse`'s answer for the notebook at ``path``, from a bounded helper.

    Raises
    ------
    SubmissionError
        The file cannot be read, or the helper ran out of its bounds (the message
        says how, as the student's status).
    """
    path = Path(path)
    try:
        key = _identity(path)
    except OSError as exc:
        raise SubmissionError(f"unreadable file: {exc.strerror}") from exc
    cached = _cached(key)
    if cached is not None:
        return cached
    try:
        answer = run_script(Path(__file__), {"path": os.path.abspath(path)}, BOUNDS)
    except BoundsExceeded as exc:
        answer = exc
    return _keep(key, answer)


def _keep(key: tuple, answer: object) -> dict:
    """A helper's answer for the file of ``key`` (or why it gave none), remembered."""
    if isinstance(answer, BoundsExceeded):
        answer = {"assignment": None,
                  "problem": f"not a readable notebook: reading it {answer}"}
    if not isinstance(answer, dict):
        answer = {"assignment": None, "problem": "not a readable notebook"}
    with _names_lock:
        _names[key] = answer.get("assignment")
    _remember(key, answer)
    return _cached(key) or answer


def read_ahead(paths: list[Path], workers: int = 1) -> None:
    """Read the notebooks at ``paths`` that are not remembered yet, many to a helper
    and ``workers`` helpers at once (:func:`.bounded.run_many`), so that :func:`read`
    and :func:`named_assignment`
    then find them; a file that cannot be read is left to them."""
    todo: dict[tuple, str] = {}
    for path in paths:
        try:
            key = _identity(Path(path))
        except OSError:
            continue
        with _names_lock:
            if key in _answers or key in todo:
                continue
        todo[key] = os.path.abspath(path)
    keys = list(todo)
    answers = run_many(Path(__file__), [{"path": todo[k]} for k in keys], BOUNDS, workers)
    for key, answer in zip(keys, answers, strict=True):
        _keep(key, answer)


def read_submission(path: Path) -> tuple[str | None, list[str]]:
    """The assignment named in the notebook's metadata, and its code cells in order.

    Raises
    ------
    SubmissionError
        Not a notebook (the message is the student's status).
    """
    answer = read(path)
    if "problem" in answer:
        raise SubmissionError(answer["problem"])
    return answer.get("assignment"), list(answer.get("cells", []))


def cell_numbers(path: Path) -> list[int]:
    """The number of each cell :func:`read_submission` returns among all the notebook's
    code cells, as Jupyter shows it after *Restart Kernel and Run All* (the cells tagged
    ``check`` count there, and are not graded)."""
    try:
        answer = read(path)
    except SubmissionError:
        return []
    cells, numbers = answer.get("cells", []), answer.get("numbers")
    if not (isinstance(numbers, list) and len(numbers) == len(cells)
            and all(isinstance(n, int) for n in numbers)):
        return list(range(1, len(cells) + 1))
    return list(numbers)


def named_assignment(path: Path) -> str | None:
    """The assignment a notebook's metadata names, or None (also for unreadable files)."""
    path = Path(path)
    try:
        key = _identity(path)
    except OSError:
        return None
    with _names_lock:
        if key in _names:
            return _names[key]
    try:
        return read(path).get("assignment")
    except SubmissionError:
        return None


if __name__ == "__main__":  # the helper process
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from helper import serve  # type: ignore[import-not-found]

    serve(_read_file)
