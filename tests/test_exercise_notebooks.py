"""The exercise notebooks tell students the limits their graded notebook runs under."""

import json
from pathlib import Path

import pytest

from perceptron_lib.grading.assignments import ASSIGNMENTS
from perceptron_lib.grading.sandbox import Limits

ROOT = Path(__file__).resolve().parents[1]


def _intro(folder: str, assignment: str) -> str:
    nb = json.loads((ROOT / folder / f"{assignment}.ipynb").read_text(encoding="utf-8"))
    cell = nb["cells"][0]
    assert cell["cell_type"] == "markdown"
    text = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
    return " ".join(text.split())


@pytest.mark.parametrize("folder", ["solutions", "exercises"])
@pytest.mark.parametrize("assignment", list(ASSIGNMENTS))
def test_every_introduction_states_the_grading_limits(folder, assignment):
    limits = Limits()
    gib = limits.memory_bytes / 1024**3
    intro = _intro(folder, assignment)
    for phrase in (f"each cell may run for {limits.cell_seconds:g} s",
                   f"each call of a graded function for {limits.call_seconds:g} s",
                   f"the whole notebook for {limits.wall_seconds:g} s",
                   f"{gib:g} GiB of memory",
                   "runs past its time, exits or crashes is skipped",
                   "the other cells still count"):
        assert phrase in intro, f"{folder}/{assignment}: {phrase!r}"
