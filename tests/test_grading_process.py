"""The grader's own process: one student's file never stops, stalls or bloats a class run.

Each hostile input is graded inside a class of honest students: the run must finish,
every honest student keeps full marks, the hostile file gets a status of its own, and
the grader's own memory stays bounded.  Ctrl+C, SIGTERM and SIGKILL in the middle of a
run are followed by a rerun that grades only what was not kept.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from grading_class import SOLUTION, notebook_text

from perceptron_lib.grading import sandbox
from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.intake import scratch
from perceptron_lib.grading.intake.notebook import SubmissionError, read_submission
from perceptron_lib.grading.judge import similarity

ROOT = Path(__file__).resolve().parents[1]
FULL = 9.0  # chapter 1's points
HONEST = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra"]

#: Runs the grader with ``main`` and prints its own peak memory (the grader's process
#: alone: the sandbox's and the helpers' processes are others).  The peak is VmHWM, the
#: high-water mark of this program's own memory map: ``ru_maxrss`` would also count the
#: test process that started it (Linux keeps the larger of the peaks before and after
#: ``exec``).
MEASURED = """
import sys
from perceptron_lib.grading.__main__ import main
code = main(sys.argv[1:])
with open("/proc/self/status", encoding="ascii") as fh:
    peak = [line.split()[1] for line in fh if line.startswith("VmHWM:")]
print("MAXRSS_KIB", peak[0], flush=True)
sys.exit(code)
"""


def honest_class(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in HONEST:
        (folder / f"{name}.ipynb").write_text(notebook_text([SOLUTION]), encoding="utf-8")


def grades(out: Path) -> dict[str, dict]:
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as fh:
        return {row["student"].lstrip("'"): row for row in csv.DictReader(fh)}


def run_measured(args: list, timeout: float = 300) -> tuple[subprocess.CompletedProcess, int]:
    proc = subprocess.run([sys.executable, "-c", MEASURED, *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)
    kib = [int(line.split()[1]) for line in proc.stdout.splitlines()
           if line.startswith("MAXRSS_KIB")]
    return proc, (kib[0] if kib else -1)


def deep_notebook(depth: int) -> str:
    return '{"cells": ' + "[" * depth + "]" * depth + ', "metadata": {}, "nbformat": 4}'


# ------------------------------------------------------------------ reading within bounds
def test_a_deeply_nested_notebook_is_its_students_status(tmp_path):
    path = tmp_path / "deep.ipynb"
    path.write_text(deep_notebook(50_000), encoding="utf-8")
    with pytest.raises(SubmissionError, match="nested far deeper"):
        read_submission(path)


def test_a_huge_cell_costs_its_helper_not_the_grader():
    cell = "def predict(X, theta, theta_0):\n" + "    x = [[[[1]]]] + [[[[2]]]]\n" * 200_000
    assert len(cell) > 5 * 1024**2
    before = _maxrss_kib()
    try:
        found = similarity.student_fingerprints([cell], ["predict"])
        assert set(found) <= {"predict"}
    except similarity.BoundsExceeded as exc:  # the helper ran out: said in words
        assert str(exc).startswith(("needed more than", "took more than"))
    assert _maxrss_kib() - before < 100 * 1024, "the grader's own memory grew"


def _maxrss_kib() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


# ------------------------------------------------------------------ a hostile class
HOSTILE_CELLS = {
    # a line on its own answer pipe, nested 100,000 deep, then the right answers
    "Pipe Writer": [SOLUTION, "import os, sys\nos.write(int(sys.argv[1]), b'{\"kind\": \"call\","
                              " \"id\": \"predict:0\", \"value\": ' + b'[' * 100000 + b']' * "
                              "100000 + b'}\\n')"],
    # an empty array of ten million rows from predict: zero bytes, absurd shape
    "Empty Rows": [SOLUTION.replace(
        "def predict(X, theta, theta_0):\n    return",
        "def predict(X, theta, theta_0):\n    return np.empty((10_000_000, 0))\n"
        "    return")],
    # a cell of about six megabytes (the similarity pass must not parse it in the grader)
    "Big Cell": [SOLUTION, "def helper():\n" + "    y = [[[1]]] + [[[2]]]\n" * 250_000],
}


@pytest.mark.skipif(sandbox.mode() == "limits-only",
                    reason="needs bubblewrap for the sandbox's limits (apt-get install "
                           "bubblewrap)")
def test_no_hostile_file_stops_the_class_and_the_honest_keep_full_marks(tmp_path):
    subs = tmp_path / "subs"
    honest_class(subs)
    (subs / "Deep Json.ipynb").write_text(deep_notebook(20_000), encoding="utf-8")
    for name, cells in HOSTILE_CELLS.items():
        (subs / f"{name}.ipynb").write_text(notebook_text(cells), encoding="utf-8")
    out = tmp_path / "out"
    t0 = time.perf_counter()
    proc, kib = run_measured([subs, "--out", out, "--assignment", "01_algorithm",
                              "--workers", "2"])
    seconds = time.perf_counter() - t0
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = grades(out)
    for name in HONEST:
        assert float(rows[name]["total"]) == FULL, rows[name]
    assert "nested far deeper" in rows["Deep Json"]["status"]
    assert float(rows["Empty Rows"]["total"]) < FULL
    results = (out / "results.json").read_bytes()
    assert len(results) < 5 * 1024**2, "the results grew with a student's answer"
    feedback = (out / "feedback").glob("Empty Rows*.txt")
    assert all(p.stat().st_size < 64 * 1024 for p in feedback)
    assert 0 < kib < 400 * 1024, f"the grader's own peak memory: {kib / 1024:.0f} MiB"
    assert seconds < 90, f"{seconds:.0f} s"


# ------------------------------------------------------------------ interrupted runs
SLOW = "import time\ntime.sleep(2)"


def slow_class(folder: Path, n: int = 6) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(n):
        cells = [SOLUTION, SLOW] if k else [SOLUTION]
        (folder / f"student{k:02d}.ipynb").write_text(notebook_text(cells), encoding="utf-8")


def start(args: list, env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "perceptron_lib.grading", *map(str, args)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)


def wait_for_records(out: Path, n: int, proc: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(list((out / "records").glob("*.json"))) >= n:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError("no record was kept")


def scratch_folders(pid: int | None = None, where: Path | None = None) -> set[Path]:
    """The runs' scratch folders (of the process ``pid`` only, if given), in ``where``
    (the temporary folder by default)."""
    found = set()
    for path in Path(where or tempfile.gettempdir()).glob(f"{scratch.PREFIX}*"):
        try:
            owner = int((path / scratch.LOCK).read_text().split()[0])
        except (OSError, ValueError, IndexError):
            owner = None
        if pid is None or owner == pid:
            found.add(path)
    return found


@pytest.mark.skipif(sandbox.mode() == "limits-only", reason="needs bubblewrap")
@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_keeps_what_was_graded_and_a_rerun_grades_the_rest(tmp_path, how):
    subs, out = tmp_path / "subs", tmp_path / "out"
    slow_class(subs)
    args = [subs, "--out", out, "--assignment", "01_algorithm", "--workers", "1"]
    proc = start(args)
    wait_for_records(out, 1, proc)
    assert scratch_folders(proc.pid), "the run keeps its temporary files in one folder"
    stopped = time.monotonic()
    proc.send_signal(how)
    stdout, stderr = proc.communicate(timeout=30)
    took = time.monotonic() - stopped
    assert took < 8, f"the run went on for {took:.1f} s after the interrupt"
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    line = [x for x in stderr.splitlines() if x.startswith("interrupted:")]
    assert len(line) == 1 and "kept in" in line[0] and "run the same command" in line[0]
    kept = len(list((out / "records").glob("*.json")))
    assert 1 <= kept < 6
    assert not (out / "grades.csv").exists()
    assert not scratch_folders(proc.pid), "the interrupted run left its temporary folder"
    again = start(args)
    stdout, stderr = again.communicate(timeout=300)
    assert again.returncode == 0, stderr
    assert f"6 submissions: {6 - kept} to grade, {kept} unchanged" in stdout
    assert all(float(r["total"]) == FULL for r in grades(out).values())


@pytest.fixture()
def private_tmp():
    """A temporary folder of this test's runs alone, readable by the sandbox's own user
    (pytest's are not), removed after."""
    folder = Path(tempfile.mkdtemp(prefix="grading-sweep-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(sandbox.mode() == "limits-only", reason="needs bubblewrap")
def test_a_killed_run_is_swept_and_resumed(tmp_path, private_tmp):
    subs, out = tmp_path / "subs", tmp_path / "out"
    slow_class(subs, 4)
    args = [subs, "--out", out, "--assignment", "01_algorithm", "--workers", "1"]
    env = {**os.environ, "TMPDIR": str(private_tmp)}  # no other test's run sweeps it
    proc = start(args, env)
    wait_for_records(out, 1, proc)
    proc.kill()
    proc.communicate(timeout=30)
    left = scratch_folders(proc.pid, private_tmp)
    assert left, "a killed run leaves its scratch folder (it cannot remove it)"
    again = start(args, env)
    stdout, stderr = again.communicate(timeout=300)
    assert again.returncode == 0, stderr
    assert "removed" in stdout and "temporary folder" in stdout
    assert not any(p.exists() for p in left), "the stale folder is still there"
    kept = int(stdout.split(" to grade, ")[1].split(" unchanged")[0])
    assert kept >= 1
    assert len(grades(out)) == 4


def test_the_sweep_leaves_a_running_runs_folder_alone(tmp_path):
    alive = scratch.root()
    try:
        dead = tmp_path / f"{scratch.PREFIX}dead"
        dead.mkdir()
        (dead / scratch.LOCK).write_text("")
        removed = scratch.sweep(tmp_path)
        assert removed == [dead] and not dead.exists()
        assert alive.exists() and alive not in scratch.sweep(alive.parent)
    finally:
        scratch.release()
    assert not alive.exists()


# ------------------------------------------------------------------ a broken install
def test_a_broken_install_stops_before_grading(tmp_path, monkeypatch, capsys):
    subs, out = tmp_path / "subs", tmp_path / "out"
    honest_class(subs)
    real = sandbox.isolation_report

    def broken(hidden=None, limits=None):
        report = real(hidden, limits=limits)
        report["broken_install"] = "No module named 'numpy': install the course's environment"
        return report

    from perceptron_lib.grading import __main__ as command

    monkeypatch.setattr(command.sandbox, "isolation_report", broken)
    code = grade_folder([str(subs), "--out", str(out), "--assignment", "01_algorithm"])
    err = capsys.readouterr().err
    assert code == 3
    assert "No module named 'numpy'" in err and "nothing was graded or written" in err
    assert not out.exists()


def test_grader_errors_are_one_students_status(tmp_path, monkeypatch, capsys):
    subs, out = tmp_path / "subs", tmp_path / "out"
    honest_class(subs)
    from perceptron_lib.grading import __main__ as command

    real = command.grade

    def fails_for_ada(path, *a, student=None, **k):
        if student == "Ada Lovelace":
            raise RecursionError("maximum recursion depth exceeded")
        return real(path, *a, student=student, **k)

    monkeypatch.setattr(command, "grade", fails_for_ada)
    code = grade_folder([str(subs), "--out", str(out), "--assignment", "01_algorithm"])
    assert code == 1  # needs the instructor's attention
    rows = grades(out)
    assert rows["Ada Lovelace"]["status"].startswith("grader error: RecursionError")
    assert all(float(rows[n]["total"]) == FULL for n in HONEST[1:])
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert len(results["grades"]) == 4
    assert io.StringIO(capsys.readouterr().out).getvalue()


def test_records_are_kept_as_they_finish(tmp_path):
    subs, out = tmp_path / "subs", tmp_path / "out"
    honest_class(subs)
    assert grade_folder([str(subs), "--out", str(out), "--assignment", "01_algorithm"]) == 0
    kept = sorted((out / "records").glob("*.json"))
    assert len(kept) == 4
    students = {json.loads(p.read_text(encoding="utf-8"))["student"] for p in kept}
    assert students == set(HONEST)
    (subs / "Ada Lovelace.ipynb").unlink()
    assert grade_folder([str(subs), "--out", str(out), "--assignment", "01_algorithm"]) == 0
    assert len(list((out / "records").glob("*.json"))) == 3, "a departed student's record"
    assert os.path.isdir(out / "records")


# ------------------------------------------------------------------ concurrent runs
HOLD_UID = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="uids are handed out to root runs only")
def test_two_grading_runs_never_share_a_uid():
    from perceptron_lib.grading.sandbox import runner

    nxt = runner._next_uid[0]
    lock = runner._uid_locks() / f"{nxt}.lock"
    other = subprocess.Popen([sys.executable, "-c", HOLD_UID, str(lock)],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "held"  # another run uses that uid
        uid = runner._take_uid()
        try:
            assert uid != nxt
            # and this run's uid is locked against the others in turn
            probe = subprocess.run([sys.executable, "-c", (
                "import fcntl, os, sys\n"
                "fd = os.open(sys.argv[1], os.O_RDWR)\n"
                "try:\n    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
                "except BlockingIOError:\n    sys.exit(7)\n"),
                str(runner._uid_locks() / f"{uid}.lock")])
            assert probe.returncode == 7
        finally:
            runner._give_back_uid(uid)
    finally:
        other.kill()
        other.wait()
