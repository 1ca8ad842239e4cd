"""Make the student notebooks of ``exercises/`` from the reference ones in ``solutions/``.

In a solution notebook, each graded function's body is written between the lines
``### BEGIN SOLUTION`` and ``### END SOLUTION``.  The exercise notebook is the same
notebook with each such region replaced by ``# YOUR CODE HERE`` and
``raise NotImplementedError()`` at the region's indentation, with every output cleared
and the assignment's name recorded in the notebook's metadata.

    python -m perceptron_lib.grading.generate            # write exercises/
    python -m perceptron_lib.grading.generate --check    # fail if exercises/ differs
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path

from .grader import METADATA_KEY

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


def render(nb: dict) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def build(solutions: Path = ROOT / "solutions") -> dict[str, str]:
    """File name -> text of every exercise notebook."""
    out = {}
    for path in sorted(solutions.glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        out[path.name] = render(exercise_from_solution(nb, path.stem))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m perceptron_lib.grading.generate",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="only compare, write nothing")
    args = ap.parse_args(argv)
    exercises = ROOT / "exercises"
    made = build()
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
