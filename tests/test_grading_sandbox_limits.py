"""Which limit stopped a run, a cell or a call is a field, never a word in a message.

A student who prints or raises "killed" or "time limit" does not get the note on the
grading limits; a cell, a call or a whole run stopped by one gets it, and the field
names the limit.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from perceptron_lib.grading import sandbox
from perceptron_lib.grading.judge.grade import _hit_a_limit, grade

ROOT = Path(__file__).resolve().parents[1]
WORDS = "killed: time limit per cell, CPU time, MemoryError, whole notebook, size limit"


def _solution_cells() -> list[str]:
    nb = json.loads((ROOT / "solutions" / "01_algorithm.ipynb").read_text())
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"
            and "check" not in c.get("metadata", {}).get("tags", [])]


def _notebook(path: Path, cells: list[str]) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["perceptron_course"] = {"assignment": "01_algorithm"}
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nbformat.write(nb, str(path))
    return path


def _limits_note(g) -> bool:
    return any(n.startswith("When graded") for n in g.notes)


def test_a_student_saying_killed_gets_no_limits_note(tmp_path):
    cells = [*_solution_cells(), f"print({WORDS!r})", f"raise RuntimeError({WORDS!r})",
             "def predict(X, theta, theta_0):\n"
             f"    raise RuntimeError('stopped: it was killed (time or memory) ' + {WORDS!r})"]
    g = grade(_notebook(tmp_path / "words.ipynb", cells))
    assert any(WORDS in n for n in g.notes), g.notes  # the cell's error is shown...
    assert not _limits_note(g), g.notes  # ...and taken for what it is: the student's words
    assert g.status == "ok"


def test_a_cell_past_its_time_gets_the_note(tmp_path):
    g = grade(_notebook(tmp_path / "slow.ipynb", [*_solution_cells(), "while True:\n    pass"]),
              limits=sandbox.Limits(cell_seconds=1, wall_seconds=20))
    assert _limits_note(g), g.notes


def test_the_hit_is_read_from_the_fields():
    said = sandbox.RunResult(status="exited before finishing: killed",
                             cell_errors=[{"cell": 1, "error": WORDS}],
                             answers={"a": {"error": WORDS}})
    assert not _hit_a_limit(said)
    assert _hit_a_limit(sandbox.RunResult(status="ok", limit_hit="memory"))
    assert _hit_a_limit(sandbox.RunResult(status="ok", cell_errors=[
        {"cell": 1, "error": "stopped", "limit": "time"}]))
    assert _hit_a_limit(sandbox.RunResult(status="ok", answers={
        "a": {"error": "timed out", "limit": "time"}}))


# ------------------------------------------------------------- the fields, from the sandbox
def test_cells_and_calls_name_the_limit_that_stopped_them():
    run = sandbox.run(
        ["while True:\n    pass",
         "block = bytearray(3 * 1024**3)",
         "open('/tmp/big', 'wb').write(b'x' * (9 * 1024**2))",
         f"raise RuntimeError({WORDS!r})",
         "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)",
         "def slow():\n    while True:\n        pass",
         "def words():\n    raise RuntimeError('killed')",
         "def hungry():\n    return len(bytearray(3 * 1024**3))"],
        [{"id": "slow", "function": "slow", "args": []},
         {"id": "words", "function": "words", "args": []},
         {"id": "hungry", "function": "hungry", "args": []}],
        sandbox.Limits(cell_seconds=1, call_seconds=1, wall_seconds=30))
    limits = {e["cell"]: e.get("limit") for e in run.cell_errors}
    assert limits == {1: "time", 2: "memory", 3: "file size", 4: None, 5: None}, run.cell_errors
    assert run.answers["slow"]["limit"] == "time"
    assert "limit" not in run.answers["words"]
    assert run.answers["hungry"]["limit"] == "memory"
    assert run.status == "ok" and run.limit_hit is None


def test_the_whole_notebooks_time_is_the_graders_to_say():
    run = sandbox.run(["import time\ntime.sleep(10)"], [],
                      sandbox.Limits(cell_seconds=20, wall_seconds=2))
    assert run.limit_hit == "time" and run.status.startswith("timeout:")


def test_answers_too_large_are_the_graders_to_say():
    run = sandbox.run(["def f():\n    return 'x' * 100_000"],
                      [{"id": "a", "function": "f", "args": []}],
                      sandbox.Limits(answer_bytes=10_000))
    assert run.limit_hit == "answers"
    assert run.status.startswith("answers too large"), run.status


def test_a_child_that_claims_a_limit_it_cannot_name_is_not_believed():
    run = sandbox.run(
        ["import os, sys, json\n"
         "out = int(sys.argv[1])\n"
         "line = {'kind': 'call', 'id': 'a', 'error': 'x', 'limit': 'anything'}\n"
         "os.write(out, (json.dumps(line) + '\\n').encode())"],
        [{"id": "a", "function": "f", "args": []}])
    assert run.answers["a"] == {"error": "x"}


def test_the_first_process_killed_is_seen_by_the_grader():
    if sandbox.mode() == "limits-only":
        pytest.skip("needs the sandbox's own process namespace")
    # The oldest of its own processes running the child is the one the sandbox waits on.
    run = sandbox.run(["import os, signal\n"
                       "mine = [int(p) for p in os.listdir('/proc') if p.isdigit()\n"
                       "        and os.stat(f'/proc/{p}').st_uid == os.getuid()\n"
                       "        and b'child.py' in open(f'/proc/{p}/cmdline', 'rb').read()]\n"
                       "os.kill(min(mine), signal.SIGKILL)\n"
                       "import time\ntime.sleep(5)"], [])
    assert run.killed_by == "SIGKILL", run.status
    assert run.status.startswith("exited before finishing"), run.status
    assert run.limit_hit is None
