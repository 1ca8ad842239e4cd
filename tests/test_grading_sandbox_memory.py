"""The memory of a submission is held for all its processes together, not each alone.

A submission that forks several processes, each below the per-process limit, must still
stop at the total; the cells before it still count.  Both schemes are tried: the run's
own memory cgroup (where the machine allows one) and the sampling watchdog.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from perceptron_lib.grading import sandbox
from perceptron_lib.grading.assignments import ASSIGNMENTS
from perceptron_lib.grading.judge.grade import grade
from perceptron_lib.grading.sandbox import memory

ROOT = Path(__file__).resolve().parents[1]
MAX = sum(t.points for t in ASSIGNMENTS["01_algorithm"])
MiB = 1024**2
LIMITS = sandbox.Limits(total_memory_bytes=600 * MiB, memory_bytes=2 * 1024**3)


def _solution_cells() -> list[str]:
    nb = json.loads((ROOT / "solutions" / "01_algorithm.ipynb").read_text())
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"
            and "check" not in c.get("metadata", {}).get("tags", [])]


def _hog(processes: int) -> str:
    """A cell that forks ``processes`` processes, each holding 300 MB for a second."""
    return ("import os, time\n"
            "kids = []\n"
            f"for _ in range({processes}):\n"
            "    pid = os.fork()\n"
            "    if pid == 0:\n"
            "        block = b'x' * (300 * 1024**2)\n"
            "        time.sleep(1.0)\n"
            "        os._exit(0)\n"
            "    kids.append(pid)\n"
            "for pid in kids:\n"
            "    os.waitpid(pid, 0)\n")


def _notebook(path: Path, cells: list[str]) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["perceptron_course"] = {"assignment": "01_algorithm"}
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nbformat.write(nb, str(path))
    return path


@pytest.fixture(params=["cgroup", "sampled", "sampled without bubblewrap"])
def scheme(request, monkeypatch) -> str:
    """Each scheme in turn: the cgroup one only where this machine has it."""
    if request.param == "cgroup":
        monkeypatch.delenv(memory.FORCE, raising=False)
        if not memory.scheme().name.startswith("cgroup"):
            pytest.skip(f"no memory cgroup here: {memory.scheme().why}")
    else:
        monkeypatch.setenv(memory.FORCE, "sampled")
    if request.param.endswith("without bubblewrap"):
        monkeypatch.setattr(sandbox.runner, "_mode", ["limits-only"])
    return memory.scheme().name


def _graded(tmp_path: Path, monkeypatch, cells: list[str]):
    """The grade of ``cells`` and the sandbox's own result for it."""
    runs = []
    real = sandbox.run

    def spy(*args, **kwargs):
        runs.append(real(*args, **kwargs))
        return runs[-1]

    monkeypatch.setattr(sandbox, "run", spy)
    g = grade(_notebook(tmp_path / "student.ipynb", cells), limits=LIMITS)
    return g, runs[0]


def test_processes_together_past_the_total_are_stopped(tmp_path, monkeypatch, scheme):
    g, run = _graded(tmp_path, monkeypatch, [*_solution_cells(), _hog(3)])
    assert run.limit_hit == "memory", (scheme, run.status, run.peak_memory_bytes)
    assert run.status.startswith(
        "memory: the submission's processes together used more than 600 MiB"), run.status
    assert g.total == MAX, (scheme, g.status, g.notes)  # the honest cells still count
    assert any("600 MiB of memory for all its processes together" in n for n in g.notes)


def test_one_process_below_the_total_passes(tmp_path, monkeypatch, scheme):
    g, run = _graded(tmp_path, monkeypatch, [*_solution_cells(), _hog(1)])
    assert run.limit_hit is None and run.status == "ok", (scheme, run.status)
    assert g.total == MAX and g.status == "ok"
    if run.peak_memory_bytes is not None:  # measured: the 300 MB were there
        assert 300 * MiB <= run.peak_memory_bytes <= 600 * MiB, run.peak_memory_bytes


def test_no_group_is_left_behind():
    s = memory.scheme()
    if not s.name.startswith("cgroup"):
        pytest.skip(f"no memory cgroup here: {s.why}")
    sandbox.run(["import os\nif os.fork() == 0:\n    os.setsid()\n    import time\n"
                 "    time.sleep(300)"], [], LIMITS)
    left = [p.name for p in s.parent.iterdir()
            if p.name.startswith(f"{memory.PREFIX}{__import__('os').getpid()}-")]
    assert left == []


def test_the_report_names_the_scheme_and_the_limit(monkeypatch):
    report = sandbox.isolation_report([], LIMITS)
    assert report["memory"]["limit_bytes"] == 600 * MiB
    assert report["memory"]["per_process_bytes"] == 2 * 1024**3
    assert report["memory"]["scheme"] == memory.scheme().name
    monkeypatch.setenv(memory.FORCE, "sampled")
    forced = sandbox.isolation_report([], LIMITS)["memory"]
    assert forced["scheme"] == "sampled" and memory.FORCE in forced["why"]
    assert forced["sample_seconds"] == memory.SAMPLE_SECONDS


def test_the_limits_in_words():
    assert sandbox.describe(sandbox.Limits()).endswith(
        "with 2 GiB of memory for all its processes together")
    assert sandbox.describe(LIMITS).endswith(  # each process may hold the whole total
        "with 600 MiB of memory for all its processes together")
    assert sandbox.describe(sandbox.Limits(memory_bytes=512 * MiB)).endswith(
        "with 512 MiB of memory per process and 2 GiB for all its processes together")


# ------------------------------------------------------------- finding the grader's cgroup
HYBRID_CGROUP = "4:memory:/jobs/one\n1:cpu:/\n0::/\n"


def _mountinfo(*mounts: tuple[str, str, str, str]) -> str:
    return "".join(f"{30 + k} 1 0:{k} {root} {point} rw,relatime shared:1 - {kind} "
                   f"{kind} {options}\n" for k, (root, point, kind, options) in
                   enumerate(mounts))


def test_a_v1_memory_hierarchy_is_found_below_its_mount(tmp_path):
    info = _mountinfo(("/", str(tmp_path / "unified"), "cgroup2", "rw"),
                      ("/", str(tmp_path / "memory"), "cgroup", "rw,memory"))
    assert memory.locate(HYBRID_CGROUP, info) == ("cgroup v1", tmp_path / "memory/jobs/one")
    # A container whose mount is rooted at its own group.
    info = _mountinfo(("/jobs", str(tmp_path / "memory"), "cgroup", "rw,memory"))
    assert memory.locate(HYBRID_CGROUP, info) == ("cgroup v1", tmp_path / "memory/one")
    # A mount of another part of the hierarchy does not hold the grader's group.
    info = _mountinfo(("/other", str(tmp_path / "memory"), "cgroup", "rw,memory"))
    assert isinstance(memory.locate(HYBRID_CGROUP, info), str)


def test_a_v2_hierarchy_counts_only_with_its_memory_controller(tmp_path):
    own = tmp_path / "user.slice" / "grader"
    own.mkdir(parents=True)
    info = _mountinfo(("/", str(tmp_path), "cgroup2", "rw,nsdelegate"))
    (own / "cgroup.controllers").write_text("cpu io pids\n")
    found = memory.locate("0::/user.slice/grader\n", info)
    assert isinstance(found, str) and "memory controller" in found
    (own / "cgroup.controllers").write_text("cpu io memory pids\n")
    assert memory.locate("0::/user.slice/grader\n", info) == ("cgroup v2", own)
    assert memory.locate("", "") == "this system has no cgroups"


def test_the_kernels_counts_are_read(tmp_path):
    (tmp_path / "memory.events").write_text("low 0\nhigh 0\nmax 12\noom 1\noom_kill 0\n")
    assert not memory._hit("cgroup v2", tmp_path)
    (tmp_path / "memory.events").write_text("low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\n")
    assert memory._hit("cgroup v2", tmp_path)
    (tmp_path / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n")
    assert memory._hit("cgroup v1", tmp_path)
    (tmp_path / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\n")
    (tmp_path / "memory.failcnt").write_text("0\n")
    assert not memory._hit("cgroup v1", tmp_path)
