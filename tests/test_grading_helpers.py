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


#: A helper script whose requests say what to do: answer, recurse forever, spin, or
#: exit.  It runs by path with ``python -I -S``, so it finds ``helper.py`` by path too.
CHOOSER = f"""
import sys
sys.path.insert(0, {str(Path(bounded.__file__).parent)!r})
from helper import serve

def work(request):
    what = request["do"]
    if what == "recurse":
        def down(n):
            return down(n + 1)
        return down(0)
    if what == "spin":
        while True:
            pass
    if what == "exit":
        import os
        os._exit(7)
    return {{"echo": request["n"]}}

serve(work)
"""


@pytest.fixture
def chooser(tmp_path):
    script = tmp_path / "chooser.py"
    script.write_text(CHOOSER, encoding="utf-8")
    return script


def _outcome(result):
    return f"error: {result}" if isinstance(result, bounded.BoundsExceeded) else result


def test_many_requests_to_a_helper_answer_as_one_each(chooser, monkeypatch):
    started = []
    real = bounded._helper
    monkeypatch.setattr(bounded, "_helper", lambda *a: started.append(1) or real(*a))
    requests = [{"do": "echo", "n": n} for n in range(70)]
    answers = bounded.run_many(chooser, requests)
    assert answers == [{"echo": n} for n in range(70)]
    assert len(started) == 3  # 32 to a helper
    started.clear()
    assert bounded.run_many(chooser, requests, workers=2) == answers  # order kept
    assert len(started) == 3  # parts of 32, 32 and 6, two at a time


def test_a_request_that_stops_its_helper_costs_itself_alone(chooser):
    bounds = bounded.Bounds(cpu_seconds=1, wall_seconds=20)
    requests = [{"do": "echo", "n": 0}, {"do": "recurse", "n": 1}, {"do": "echo", "n": 2},
                {"do": "spin", "n": 3}, {"do": "echo", "n": 4}, {"do": "exit", "n": 5},
                {"do": "echo", "n": 6}]
    many = [_outcome(r) for r in bounded.run_many(chooser, requests, bounds)]
    alone = []
    for request in requests:
        try:
            alone.append(bounded.run_script(chooser, request, bounds))
        except bounded.BoundsExceeded as exc:
            alone.append(f"error: {exc}")
    assert many == alone
    assert many[0::2] == [{"echo": n} for n in (0, 2, 4, 6)]
    assert many[1] == "error: stopped: RecursionError"
    assert many[3] == "error: took more than 1 s of processor time"
    assert many[5] == "error: stopped: exit 7"


def test_notebooks_read_ahead_are_read_once(tmp_path, monkeypatch):
    paths = []
    for k in range(5):
        path = tmp_path / f"nb{k}.ipynb"
        cells = [{"cell_type": "code", "source": f"x = {k}", "metadata": {}, "outputs": [],
                  "execution_count": None}]
        path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4}))
        paths.append(path)
    (tmp_path / "nb2.ipynb").write_text("{" * 100_000)  # nested too deep to parse
    notebook.read_ahead(paths)
    monkeypatch.setattr(notebook, "run_script", lambda *a: pytest.fail("read again"))
    assert [notebook.read(p).get("cells") for p in paths] == [
        ["x = 0"], ["x = 1"], None, ["x = 3"], ["x = 4"]]
    assert "not a readable notebook" in notebook.read(paths[2])["problem"]
