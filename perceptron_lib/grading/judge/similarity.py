"""Graded functions that are the same up to names, comments and formatting (for instructors).

After a grading run the grader can list, for a person to look at, the graded functions
that several students wrote the same way, and those that are the same as the library's
own implementation or as the reference answer in ``solutions/``.  The list never
changes a score: two students may well arrive at the same short function on their own,
and only a person who reads both can tell.

Two functions count as the same when their *fingerprints* are equal.  A fingerprint is
a hash of the function's syntax tree after normalisation:

- comments, blank lines and layout disappear with the parse;
- docstrings and other statements that are only a string are dropped;
- the function's name, its parameters, its local variables (loop, comprehension,
  ``with`` and ``except`` variables included) and the names of imported modules
  (``np``, ``numpy``, ``pl``...: free names used before a dot) are renamed to
  canonical names in order of first appearance, one name for one name throughout the
  function (a function that uses ``i`` for two loops is not the same as one that uses
  ``i`` and ``j``);
- type annotations, default values and decorators are dropped: the grader calls every
  graded function with all of its arguments, and a body pasted under the exercise's own
  ``def`` line is still the same body;
- the operands of ``+``, ``*``, ``&``, ``|``, ``^``, ``==`` and ``!=`` are put in one
  order, and ``a > b`` is read as ``b < a`` (swapped operands are the same function);
- a graded name bound to another function (``update = my_update``) is that function;
- attribute names, constants, operators, calls to other functions by name, and the
  structure are kept, so ``<`` for ``<=``, ``np.sign`` for ``np.where`` or ``0.5`` for
  ``0`` make two functions different.

Besides the other students, each graded function is compared with the library's
functions that compute it or part of it (its routes, the private loops included) and
with the reference solution.

Functions too small to say anything (see :data:`MIN_SIZE`) and the unchanged exercise
stub get no fingerprint and are never listed.  Fingerprints are compared within one
grading run only: the syntax tree's textual form can change between Python versions.
"""

from __future__ import annotations

import functools
import inspect
from collections import defaultdict
from pathlib import Path

import perceptron_lib

from ..intake.bounded import Bounds, BoundsExceeded, run_many, run_script
from ..intake.notebook import SubmissionError, read_submission
from ..sandbox import standins
from . import fingerprint as fingerprint_module
from .fingerprint import (  # noqa: F401  (re-exported: the normalisation is described here)
    MIN_SIZE,
    fingerprint,
    function_sources,
    is_stub,
    size,
    strip_magics,
)

#: How many students a line of :func:`summary_lines` names before it counts the rest.
SUMMARY_NAMES = 12

SOLUTION_LABEL = "the reference solution"


# ------------------------------------------------------------------ comparing submissions
#: The bounds of the helper that reads one submission's functions.
FINGERPRINT_BOUNDS = Bounds(memory_bytes=1024 * 1024**2, cpu_seconds=20, wall_seconds=40,
                            output_bytes=1024**2)


def student_fingerprints(cells: list[str], names: list[str]) -> dict[str, list]:
    """:func:`.fingerprint.fingerprints` of one submission, in a bounded helper process.

    Raises
    ------
    BoundsExceeded
        Reading the cells needed more memory or time than :data:`FINGERPRINT_BOUNDS`.
    """
    answer = run_script(Path(fingerprint_module.__file__), {"cells": cells, "names": names},
                        FINGERPRINT_BOUNDS)
    return {name: (str(fp), int(body)) for name, (fp, body) in answer.items()
            if name in names}


def _fingerprints_of(todo: list[tuple],
                     workers: int) -> list[dict[str, tuple[str, int]] | BoundsExceeded]:
    """:func:`student_fingerprints` of each ``(student, assignment, cells, names)``, many
    to a helper and ``workers`` helpers at once (:func:`..intake.bounded.run_many`); a
    :class:`BoundsExceeded` for each submission that could not be read within
    :data:`FINGERPRINT_BOUNDS`."""
    answers = run_many(Path(fingerprint_module.__file__),
                       [{"cells": cells, "names": names} for _, _, cells, names in todo],
                       FINGERPRINT_BOUNDS, workers)
    return [answer if isinstance(answer, BoundsExceeded) else
            {name: (str(fp), int(body)) for name, (fp, body) in answer.items()
             if name in names}
            for (_, _, _, names), answer in zip(todo, answers, strict=True)]


def _record(key: tuple[str, str, str], students: list[str], same_as: list[str],
            sizes: dict[tuple[str, str, str], int]) -> dict:
    return {"assignment": key[0], "function": key[1], "students": sorted(students),
            "same_as": sorted(same_as), "size": sizes[key]}


def find_similar(submissions: dict[str, tuple[str, list[str]]],
                 graded: dict[str, list[str]],
                 references: dict[tuple[str, str], dict[str, str]] | None = None,
                 skipped: list[dict] | None = None, workers: int = 1) -> list[dict]:
    """The graded functions that are the same across students or as a reference.

    Parameters
    ----------
    submissions : dict of str to (str, list of str)
        Student id to the assignment and the code cells of the submission.
    graded : dict of str to list of str
        Assignment to the names of its graded functions (other functions and other
        assignments are not compared).
    references : dict of (str, str) to dict of str to str, optional
        (assignment, function) to named reference sources, such as
        ``{"the library's perceptron_lib.algorithm.update": source}``
        (see :func:`reference_sources`).
    skipped : list, optional
        Receives ``{"student", "why"}`` for each submission whose functions could not
        be read within the helper's bounds (they are left out of the comparison).
    workers : int, optional
        How many helper processes read the submissions at once.

    Returns
    -------
    list of dict
        One record per fingerprint of a graded function that two or more students
        share, or that at least one student shares with a reference:
        ``{"assignment", "function", "students" (sorted ids), "same_as" (sorted
        names of the matching references, possibly empty), "size" (nodes of the
        body)}``.  Sorted by assignment, function and students.
    """
    students: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    sizes: dict[tuple[str, str, str], int] = {}
    todo = [(student, assignment, cells, graded.get(assignment, []))
            for student, (assignment, cells) in submissions.items()]
    todo = [t for t in todo if t[3]]

    answers = _fingerprints_of(todo, workers)
    for (student, assignment, _, _), found in zip(todo, answers, strict=True):
        if isinstance(found, BoundsExceeded):
            if skipped is not None:
                skipped.append({"student": student, "why": f"not compared: reading its "
                                                           f"functions {found}"})
            continue
        for name, (fp, body) in found.items():
            key = (assignment, name, fp)
            students[key].append(student)
            sizes[key] = body
    same_as: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for (assignment, name), named in (references or {}).items():
        for label, source in named.items():
            fp = fingerprint(source)
            if fp is not None:
                same_as[(assignment, name, fp)].append(label)
    records = [_record(key, ids, same_as.get(key, []), sizes)
               for key, ids in students.items() if len(ids) >= 2 or key in same_as]
    return sorted(records, key=lambda r: (r["assignment"], r["function"], r["students"]))


def _library_source(name: str) -> tuple[str, str] | None:
    # Only the names of the library's core modules (loaded here if they are not yet):
    # getattr on any name would import the modules that load matplotlib or ipywidgets.
    if name not in perceptron_lib._OWNER:
        return None
    obj = getattr(perceptron_lib, name)
    if not inspect.isfunction(obj):
        return None
    try:
        source = inspect.getsource(obj)
    except (OSError, TypeError):
        return None
    return f"the library's {obj.__module__}.{obj.__qualname__}", source


def _route_sources(name: str) -> dict[str, str]:
    """The library's top-level functions that compute ``name`` or part of it, labelled
    with their module: among its routes (:func:`..sandbox.standins.routes`), the private
    helpers of the module that defines ``name`` (a loop such as ``_reference_loop``
    pasted under the exercise's name is the library's code too) and the functions that
    compute the same thing (:data:`..sandbox.standins.EQUIVALENTS`)."""
    home = f"perceptron_lib.{perceptron_lib._OWNER[name]}" if name in perceptron_lib._OWNER \
        else None
    same = set(standins.EQUIVALENTS.get(name, ()))
    found = {}
    for key in standins.routes([name]):
        module, qual = key.split(":")
        if "." in qual or not (qual in same or (module == home and qual.startswith("_"))):
            continue
        source = _top_level_sources(module).get(qual)
        if source is not None:
            found[f"the library's {module}.{qual}"] = source
    return found


@functools.lru_cache(maxsize=64)
def _top_level_sources(module: str) -> dict[str, str]:
    """The source of each top-level function of a library module, read from its file."""
    path = standins.library_files().get(module)
    if path is None:
        return {}
    return function_sources([path.read_text(encoding="utf-8")])


def _solution_sources(assignment: str, solutions_dir: Path | None) -> dict[str, str]:
    if solutions_dir is None:
        return {}
    path = Path(solutions_dir) / f"{assignment}.ipynb"
    if not path.is_file():
        return {}
    try:
        return function_sources(read_submission(path)[1])
    except SubmissionError:
        return {}


def reference_sources(assignment: str, names: list[str], solutions_dir: Path | None,
                      ) -> dict[tuple[str, str], dict[str, str]]:
    """The references a graded function is compared with, read in the grader's process.

    Parameters
    ----------
    assignment : str
        The assignment, such as ``"01_algorithm"``.
    names : list of str
        Its graded functions.
    solutions_dir : Path or None
        The folder of the reference solutions (``solutions/``); the notebook
        ``<assignment>.ipynb`` there is read when it exists.  None: the library only.

    Returns
    -------
    dict of (str, str) to dict of str to str
        (assignment, function) to ``{label: source}``: the library's function of the
        same public name on ``perceptron_lib`` (labelled with its module, such as
        ``"the library's perceptron_lib.algorithm.update"``) and the solution
        notebook's definition (labelled :data:`SOLUTION_LABEL`).  Functions with
        neither are left out.
    """
    solutions = _solution_sources(assignment, solutions_dir)
    found: dict[tuple[str, str], dict[str, str]] = {}
    for name in names:
        named: dict[str, str] = dict(_route_sources(name))
        library = _library_source(name)
        if library is not None:
            named[library[0]] = library[1]
        if name in solutions:
            named[SOLUTION_LABEL] = solutions[name]
        if named:
            found[(assignment, name)] = named
    return found


def summary_lines(groups: list[dict]) -> list[str]:
    """A short summary of :func:`find_similar`'s records for the terminal.

    Parameters
    ----------
    groups : list of dict
        The records of :func:`find_similar`.

    Returns
    -------
    list of str
        A heading and one line per record (assignment, function, size, the students,
        and the references it is the same as), or a single line saying that there is
        nothing to look at.
    """
    if not groups:
        return ["No graded function is the same across students."]
    lines = ["Similar graded functions (not used in scores; for a person to look at):"]
    for g in groups:
        ids = g["students"]
        shown = ", ".join(ids[:SUMMARY_NAMES])
        if len(ids) > SUMMARY_NAMES:
            shown += f" and {len(ids) - SUMMARY_NAMES} more"
        count = "1 student" if len(ids) == 1 else f"{len(ids)} students"
        line = f"  {g['assignment']} {g['function']} ({g['size']} nodes), {count}: {shown}"
        if g["same_as"]:
            line += "; same as " + " and ".join(g["same_as"])
        lines.append(line)
    return lines
