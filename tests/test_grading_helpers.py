"""The grader's bounded helper processes (``intake/bounded.py``): their bounds hold, and
a notebook is read once per run however many stages ask for it."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from perceptron_lib.grading.intake import bounded, notebook

SLEEPER = """
import sys, time
sys.stdin.buffer.read()
time.sleep(30)
"""


def test_a_helper_past_its_wall_clock_is_stopped_and_said(tmp_path):
    script = tmp_path / "sleeper.py"
    script.write_text(SLEEPER, encoding="utf-8")
    t0 = time.perf_counter()
    with pytest.raises(bounded.BoundsExceeded, match=r"took more than 1 s"):
        bounded.run_script(script, {"x": 1}, bounded.Bounds(wall_seconds=1))
    assert time.perf_counter() - t0 < 10


def test_a_helper_that_never_reads_its_request_does_not_stall_the_grader(tmp_path):
    script = tmp_path / "deaf.py"
    script.write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    with pytest.raises(bounded.BoundsExceeded, match="exit 3"):
        bounded.run_script(script, {"cells": ["x" * 4_000_000]}, bounded.Bounds())


def test_a_notebook_is_parsed_once_while_unchanged(tmp_path, monkeypatch):
    path = tmp_path / "nb.ipynb"
    cells = [{"cell_type": "code", "source": "x = 1", "metadata": {}, "outputs": [],
              "execution_count": None}]
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4}))
    calls = []
    real = notebook.run_script
    monkeypatch.setattr(notebook, "run_script", lambda *a: calls.append(a) or real(*a))
    first = notebook.read_submission(path)
    first[1].append("changed by a caller")  # a caller's list is its own
    assert notebook.read_submission(path) == (None, ["x = 1"])
    assert notebook.named_assignment(path) is None
    assert len(calls) == 1
    cells[0]["source"] = "x = 2; y = 3"  # a new file: read again
    Path(path).write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4}))
    assert notebook.read_submission(path) == (None, ["x = 2; y = 3"])
    assert len(calls) == 2
