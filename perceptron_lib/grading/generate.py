"""Make the student notebooks of ``exercises/`` from the reference ones in ``solutions/``.

In a solution notebook, each graded function's body is written between the lines
``### BEGIN SOLUTION`` and ``### END SOLUTION``.  The exercise notebook is the same
notebook with each such region replaced by ``# YOUR CODE HERE`` and
``raise NotImplementedError()`` at the region's indentation, with every output cleared
and the assignment's name recorded in the notebook's metadata.

Each solution notebook must define every function its assignment grades (chapters 1-7
exercises), with the arguments the grader calls it with, a solution region and a check
cell; the generator refuses notebooks that do not.

    python -m perceptron_lib.grading.generate            # write exercises/
    python -m perceptron_lib.grading.generate --check    # fail if exercises/ differs
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import re
import sys
from pathlib import Path

from .assignments import ASSIGNMENTS
from .intake.notebook import METADATA_KEY

ROOT = Path(__file__).resolve().parents[2]
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"


def strip_solutions(source: str) -> str:
    """Replace every marked solution region of a cell's source by a stub."""
    out, inside = [], False
    for line in source.split("\n"):
        marker = line.strip()
        if marker == BEGIN:
            if inside:
                raise ValueError("a solution region opens inside another one")
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            out += [f"{indent}# YOUR CODE HERE", f"{indent}raise NotImplementedError()"]
        elif marker == END:
            if not inside:
                raise ValueError("### END SOLUTION without ### BEGIN SOLUTION")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise ValueError("### BEGIN SOLUTION without ### END SOLUTION")
    return "\n".join(out)


def exercise_from_solution(nb: dict, assignment: str) -> dict:
    """The exercise notebook (as JSON data) made from a solution notebook."""
    ex = copy.deepcopy(nb)
    ex.setdefault("metadata", {})[METADATA_KEY] = {"assignment": assignment}
    for cell in ex["cells"]:
        if cell.get("cell_type") != "code":
            continue
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        cell["source"] = strip_solutions(source)
        cell["outputs"] = []
        cell["execution_count"] = None
    return ex


def _source(cell: dict) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def _parameters(source: str, name: str) -> list[str] | None:
    if not re.search(rf"^def {name}\(", source, re.MULTILINE):
        return None
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return [a.arg for a in node.args.args]
    return None


def problems(nb: dict, assignment: str) -> list[str]:
    """What a solution notebook lacks for the functions its assignment grades."""
    if assignment not in ASSIGNMENTS:
        return [f"{assignment}: no graded functions are defined for it in the grader"]
    found = []
    code = [c for c in nb.get("cells", []) if c.get("cell_type") == "code"]
    for task in ASSIGNMENTS[assignment]:
        cells = [c for c in code if _parameters(_source(c), task.name) is not None]
        if len(cells) != 1:
            found.append(f"{assignment}: {task.name} is defined in {len(cells)} cells")
            continue
        params = _parameters(_source(cells[0]), task.name)
        if params != list(task.parameters):
            found.append(f"{assignment}: {task.name}{tuple(params)} takes other arguments "
                         f"than the grader's {task.signature}")
        if BEGIN not in _source(cells[0]):
            found.append(f"{assignment}: {task.name} has no solution region")
        if not any(f"check({task.name})" in _source(c)
                   and "check" in c.get("metadata", {}).get("tags", []) for c in code):
            found.append(f"{assignment}: no check cell (tagged check) for {task.name}")
    return found


def render(nb: dict) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def build(solutions: Path = ROOT / "solutions") -> dict[str, str]:
    """File name -> text of every exercise notebook.

    Raises ValueError naming what a solution notebook lacks (see :func:`problems`).
    """
    out, found = {}, []
    for path in sorted(solutions.glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        found += problems(nb, path.stem)
        out[path.name] = render(exercise_from_solution(nb, path.stem))
    if found:
        raise ValueError("; ".join(found))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m perceptron_lib.grading.generate",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="only compare, write nothing")
    args = ap.parse_args(argv)
    exercises = ROOT / "exercises"
    try:
        made = build()
    except ValueError as exc:
        print(f"solutions/ cannot be made into exercises: {exc}", file=sys.stderr)
        return 1
    stale = [name for name, text in made.items()
             if not (exercises / name).exists() or (exercises / name).read_text() != text]
    extra = [p.name for p in exercises.glob("*.ipynb") if p.name not in made]
    if args.check:
        if stale or extra:
            print(f"exercises/ is out of date: {sorted(stale + extra)}; run "
                  "python -m perceptron_lib.grading.generate", file=sys.stderr)
            return 1
        print(f"exercises/ matches solutions/ ({len(made)} notebooks)")
        return 0
    for name, text in made.items():
        (exercises / name).write_text(text, encoding="utf-8")
    for name in extra:
        (exercises / name).unlink()
    print(f"wrote {len(made)} exercise notebooks to {exercises}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
