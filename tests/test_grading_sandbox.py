"""Attacks on the grader by a determined student: each must fail, and an honest classmate
graded after (or beside) the attacker keeps full marks with the notebook unchanged.

These need bubblewrap (Debian's ``bubblewrap``).  Without it they skip with one line,
unless PERCEPTRON_COURSE_REQUIRE_SANDBOX is set (as in CI), where they fail.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import nbformat
import pytest
from readable_view import readable_view

from perceptron_lib.grading import sandbox
from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.assignments import ASSIGNMENTS

ROOT = Path(__file__).resolve().parents[1]
MAX = sum(t.points for t in ASSIGNMENTS["01_algorithm"])


def _need_sandbox() -> None:
    if sandbox.mode() == "limits-only":
        message = ("bubblewrap is not installed or not allowed namespaces here "
                   "(apt-get install bubblewrap)")
        if os.environ.get("PERCEPTRON_COURSE_REQUIRE_SANDBOX"):
            pytest.fail(message + " (required: PERCEPTRON_COURSE_REQUIRE_SANDBOX is set)")
        pytest.skip(message)


@pytest.fixture(autouse=True)
def _sandbox_required():
    _need_sandbox()


def _solution_cells() -> list[str]:
    nb = json.loads((ROOT / "solutions" / "01_algorithm.ipynb").read_text())
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"
            and "check" not in c.get("metadata", {}).get("tags", [])]


def _write(path: Path, cells: list[str]) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["perceptron_course"] = {"assignment": "01_algorithm"}
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nbformat.write(nb, str(path))
    return path


def _grade(tmp_path: Path, attackers: dict[str, list[str]], workers: int = 2):
    """Grade the attackers and an honest classmate (named to be graded last)."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    honest = _write(folder / "zz_honest.ipynb", _solution_cells())
    digest = hashlib.sha256(honest.read_bytes()).hexdigest()
    for name, cells in attackers.items():
        _write(folder / f"{name}.ipynb", cells)
    out = tmp_path / "out"
    code = grade_folder([str(folder), "--out", str(out), "--workers", str(workers),
                         "--wall-seconds", "30"])
    assert code == 0
    with open(out / "grades.csv", encoding="utf-8-sig") as fh:
        rows = {r["student"]: r for r in csv.DictReader(fh)}
    assert float(rows["zz_honest"]["total"]) == MAX, rows["zz_honest"]
    assert rows["zz_honest"]["status"] == "ok"
    assert hashlib.sha256(honest.read_bytes()).hexdigest() == digest
    return rows, out


STUBS = ("def update(theta, theta_0, x, y):\n    raise NotImplementedError\n"
         "def predict(X, theta, theta_0):\n    raise NotImplementedError\n")


def _perceptron_via(body: str) -> list[str]:
    """A submission whose perceptron gets its answer through ``body``."""
    return ["import numpy as np\nimport perceptron_lib as pl", STUBS,
            "def perceptron(X, y, tau):\n" + textwrap.indent(body, "    ")]


def test_the_library_answer_is_out_of_reach(tmp_path):
    routes = {
        "plain": "r = pl.perceptron(X, y, tau)\nreturn r.theta, r.theta_0, r.mistakes",
        "reload": "import importlib, perceptron_lib.algorithm as a\nimportlib.reload(a)\n"
                  "r = a.perceptron(X, y, tau)\nreturn r.theta, r.theta_0, r.mistakes",
        "exec_source": f"ns = {{'__name__': 'perceptron_lib.algorithm', "
                       f"'__package__': 'perceptron_lib'}}\n"
                       f"exec(open({str(ROOT / 'perceptron_lib' / 'algorithm.py')!r}).read(), ns)\n"
                       "r = ns['perceptron'](X, y, tau)\nreturn r.theta, r.theta_0, r.mistakes",
        "fast_path": "from perceptron_lib import _fast\nfrom perceptron_lib.algorithm import "
                     "_visit_order\nX = np.asarray(X, float); y = np.asarray(y, float)\n"
                     "r = _fast.fast_perceptron(X, y, tau, True, _visit_order(len(y), tau, "
                     "False, None))\nreturn r.theta, r.theta_0, r.mistakes",
        "method_loop": "r = pl.evaluation.perceptron(X, y, tau, method='loop')\n"
                       "return r.theta, r.theta_0, r.mistakes",
        "grading_internals": "from perceptron_lib.grading import cases\n"
                             "return cases._loop(X, y, tau)",
        "through_origin": "Z = np.hstack([np.asarray(X, float), np.ones((len(y), 1))])\n"
                          "r = pl.perceptron_through_origin(Z, y, tau)\n"
                          "return r.theta[:-1], r.theta[-1], r.mistakes",
        "estimator": "m = pl.Perceptron(tau=1)\nm.partial_fit(X, y, classes=[-1, 1])\n"
                     "return m.coef_[0], m.intercept_[0], 0",
        "pycache": "import glob\nfound = glob.glob('/**/algorithm*.pyc', recursive=True)\n"
                   "raise RuntimeError(str(found))",
    }
    rows, _ = _grade(tmp_path, {name: _perceptron_via(body) for name, body in routes.items()})
    for name in routes:
        assert float(rows[name]["perceptron"]) == 0, name


def test_classmates_gradebook_repository_and_library_are_out_of_reach(tmp_path):
    lib = ROOT / "perceptron_lib"
    site = Path(sys.prefix) / "lib"
    steal = textwrap.dedent(f"""
        import glob, os, subprocess
        found = []
        for pid in os.listdir('/proc'):
            try:
                found.append(open(f'/proc/{{pid}}/cmdline', 'rb').read().decode(errors='replace'))
            except OSError:
                pass
        leaked = ' '.join(found)
        for path in glob.glob({str(tmp_path / 'submissions' / '*.ipynb')!r}):
            open(path, 'w').write('{{}}')
        for target in ({str(lib / 'evil.py')!r}, {str(site / 'evil.pth')!r},
                       '/etc/hostname', {str(tmp_path / 'out' / 'grades.csv')!r}):
            try:
                open(target, 'a').write('import os')
            except OSError as exc:
                print('refused', target, type(exc).__name__)
        try:
            shown = subprocess.run(['git', '-C', {str(ROOT)!r}, 'show',
                                    'HEAD:solutions/01_algorithm.ipynb'],
                                   capture_output=True, text=True).stdout
        except OSError:
            shown = ''
        solutions = glob.glob({str(ROOT / 'solutions' / '*')!r}) + glob.glob(
            {str(ROOT / '.git' / '*')!r})
    """)
    copy = ("def perceptron(X, y, tau):\n"
            "    raise RuntimeError(repr((leaked, shown[:100], solutions)))\n")
    rows, out = _grade(tmp_path, {"aa_thief": [steal, STUBS, copy]})
    assert float(rows["aa_thief"]["total"]) == 0
    assert not (lib / "evil.py").exists() and not (site / "evil.pth").exists()
    results = json.loads((out / "results.json").read_text())
    thief = next(g for g in results["grades"] if g["student"] == "aa_thief")
    error = thief["tasks"][1]["details"][0]["error"]
    assert "submissions" not in error and "perceptron-grading" not in error
    assert "([" not in error.replace("([],", "")  # nothing found under solutions/ or .git
    assert "BEGIN SOLUTION" not in error and "cells" not in error
    printed = (out / "feedback" / "aa_thief.txt").read_text()
    assert "Cells that raised" not in printed or "Permission" not in printed


def test_no_process_outlives_its_run_or_reaches_the_grader(tmp_path):
    marker = f"perceptron-daemon-{os.getpid()}-{time.time_ns()}"
    daemon = textwrap.dedent(f"""
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execvp('sleep', ['sleep', '300', {marker!r}])
            os._exit(0)
        time.sleep(0.2)
    """)
    killers = {
        "aa_daemon": [daemon, *_solution_cells()],
        "ab_kills_parent": ["import os, signal\nos.kill(os.getppid(), signal.SIGKILL)"],
        "ac_kills_all": ["import os, signal\nos.kill(-1, signal.SIGKILL)"],
        "ad_kills_grader": [f"import os, signal\nos.kill({os.getpid()}, signal.SIGKILL)"],
    }
    rows, _ = _grade(tmp_path, killers)
    assert float(rows["aa_daemon"]["total"]) == MAX
    time.sleep(0.2)
    alive = []
    for pid in os.listdir("/proc"):
        try:
            if marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                alive.append(pid)
        except OSError:
            pass
    assert alive == []


def _probe_run(cells: list[str], function: str = "f") -> object:
    run = sandbox.run(cells, [{"id": "a", "function": function, "args": []}])
    return run.answers["a"].get("value", run.answers["a"].get("error"))


def test_a_run_sees_only_its_own_processes_and_no_network():
    seen = _probe_run(["import os, socket\n"
                       "def f():\n"
                       "    pids = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())\n"
                       "    try:\n"
                       "        socket.create_connection(('127.0.0.1', 22), timeout=1)\n"
                       "        net = 'connected'\n"
                       "    except OSError as exc:\n"
                       "        net = type(exc).__name__\n"
                       "    caps = [line.split()[1] for line in open('/proc/self/status')\n"
                       "            if line.startswith('Cap')]\n"
                       "    return [len(pids), max(pids), net, os.getuid(), os.getgroups(),\n"
                       "            caps.count('0000000000000000'), len(caps)]"])
    count, biggest, net, uid, groups, zero_caps, caps = seen
    assert count < 10 and biggest < 50  # its own few processes, numbered from 1
    assert net != "connected"
    assert uid != 0 and groups == []
    assert zero_caps == caps == 5  # CapInh, CapPrm, CapEff, CapBnd and CapAmb all empty


def test_runs_side_by_side_cannot_see_each_other(tmp_path):
    # Two submissions at once: each looks for the other's process and environment.
    look = ("import os, time\n"
            "def f():\n"
            "    time.sleep(1.0)\n"
            "    mine = {p for p in os.listdir('/proc') if p.isdigit()}\n"
            "    texts = []\n"
            "    for p in mine:\n"
            "        try:\n"
            "            texts.append(open(f'/proc/{p}/environ', 'rb').read().decode())\n"
            "        except OSError:\n"
            "            pass\n"
            "    return ' '.join(texts)\n")
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda tag: _probe_run([f"SECRET = 'run-{tag}'", look]),
                                ["one", "two"]))
    for text in results:
        assert "run-one" not in text and "run-two" not in text


def test_the_report_says_what_is_hidden(tmp_path):
    secret = tmp_path / "solutions"
    secret.mkdir()
    report = sandbox.isolation_report([secret, ROOT / ".git", ROOT / "tests"])
    assert set(report["hidden_paths"]) == {str(secret), str(ROOT / ".git"), str(ROOT / "tests")}
    assert report["visible_paths"] == []
    assert report["library"] == "stand-in" and report["etc"] == "read-only"
    assert report["process_namespace"] and report["network_namespace"]


def test_without_root_the_sandbox_uses_a_user_namespace():
    """The grader run by an ordinary user (an instructor's laptop)."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root to become an ordinary user for the test")
    home = Path("/tmp") / f"perceptron-nonroot-{os.getpid()}"
    home.mkdir(mode=0o777, exist_ok=True)
    home.chmod(0o777)
    marker = f"perceptron-nonroot-daemon-{time.time_ns()}"
    evil = ROOT / "perceptron_lib" / "evil.py"
    script = textwrap.dedent(f"""
        import json, os
        from perceptron_lib.grading import sandbox
        report = sandbox.isolation_report([os.environ['PROBE_HIDE']])
        cells = [
            "import os, importlib\\nimport perceptron_lib.algorithm as a",
            "if os.fork() == 0:\\n    os.setsid()\\n    if os.fork() == 0:\\n"
            "        os.execvp('sleep', ['sleep', '300', {marker!r}])\\n    os._exit(0)",
            "def f():\\n"
            "    try:\\n"
            "        importlib.reload(a).perceptron([[1.0]], [1.0], 1)\\n"
            "        lib = 'answered'\\n"
            "    except RuntimeError:\\n"
            "        lib = 'stand-in'\\n"
            "    try:\\n"
            "        open({str(evil)!r}, 'w').write('x')\\n"
            "        wrote = 'wrote'\\n"
            "    except OSError:\\n"
            "        wrote = 'refused'\\n"
            "    pids = [p for p in os.listdir('/proc') if p.isdigit()]\\n"
            "    git = os.path.exists({str(ROOT / '.git')!r})\\n"
            "    return [os.getuid(), len(pids), lib, wrote, git]",
        ]
        run = sandbox.run(cells, [{{"id": "a", "function": "f", "args": []}},
                                  {{"id": "b", "function": "perceptron", "args": []}}])
        print(json.dumps({{"mode": sandbox.mode(), "report": report,
                          "answer": run.answers["a"].get("value")}}))
    """)
    view = readable_view([Path(sys.prefix), Path(sys.base_prefix), ROOT])
    try:
        done = subprocess.run(
            [sandbox.bwrap_path(), *view, "--", "setpriv", "--reuid=65534", "--regid=65534",
             "--clear-groups", sys.executable, "-c", script],
            capture_output=True, text=True, timeout=120, cwd=home,
            env={**os.environ, "HOME": str(home), "TMPDIR": str(home),
                 "PROBE_HIDE": str(ROOT / ".git")})
        assert done.returncode == 0, done.stderr[-2000:]
        facts = json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(home, ignore_errors=True)
    if facts["mode"] == "limits-only":
        # The kernel refuses unprivileged namespaces: the report must say so plainly.
        assert facts["report"]["not_isolated"] and facts["report"]["sandbox"].startswith("none")
        return
    assert facts["mode"] == "bwrap-user"
    assert facts["report"]["hidden_paths"] == [str(ROOT / ".git")]
    uid, processes, library, wrote, sees_git = facts["answer"]
    assert uid == 65534 and processes < 10  # its own processes only
    assert library == "stand-in" and wrote == "refused" and not sees_git
    assert not evil.exists()
    assert "uid" in facts["report"]["not_isolated"][0]
    time.sleep(0.2)
    assert not [pid for pid in os.listdir("/proc") if pid.isdigit()
                and marker.encode() in _cmdline(pid)]


def _cmdline(pid: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def test_chapter_7s_functions_answer_no_earlier_exercise(tmp_path):
    routes = {
        "margin_zero": "r = pl.margin_perceptron(X, y, margin=0.0, tau=tau)\n"
                       "return r.theta, r.theta_0, r.mistakes",
        "two_classes": "r = pl.multiclass_perceptron(X, y, tau=tau, classes=[-1.0, 1.0])\n"
                       "return r.Theta[1], r.theta_0[1], r.mistakes",
    }
    rows, _ = _grade(tmp_path, {name: _perceptron_via(body) for name, body in routes.items()})
    for name in routes:
        assert float(rows[name]["perceptron"]) == 0, name


def _beyond_cells() -> list[str]:
    nb = json.loads((ROOT / "solutions" / "07_beyond.ipynb").read_text())
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"
            and "check" not in c.get("metadata", {}).get("tags", [])
            and "%pip" not in "".join(c["source"])]


def test_chapter_7s_library_answers_are_out_of_reach(tmp_path):
    folder = tmp_path / "submissions"
    folder.mkdir()
    cells = _beyond_cells()
    attacks = [
        "def hinge_deficiency(X, y, theta, theta_0, gamma):\n"
        "    return pl.hinge_deficiency(X, y, theta, theta_0, gamma)",
        "def margin_perceptron(X, y, margin, tau):\n"
        "    r = pl.margin_perceptron(X, y, margin=margin, tau=tau)\n"
        "    return r.theta, r.theta_0, r.mistakes",
        "def multiclass_perceptron(X, y, tau):\n"
        "    k = pl.kesler_construction(X, y)\n"
        "    r = pl.perceptron_through_origin(k.X, k.y, tau=tau)\n"
        "    return pl.kesler_weights(r.theta, k)",
    ]
    for name, extra in (("zz_honest", []), ("aa_library", attacks)):
        nb = nbformat.v4.new_notebook()
        nb.metadata["perceptron_course"] = {"assignment": "07_beyond"}
        nb.cells = [nbformat.v4.new_code_cell(c) for c in [*cells, *extra]]
        nbformat.write(nb, str(folder / f"{name}.ipynb"))
    out = tmp_path / "out"
    assert grade_folder([str(folder), "--out", str(out), "--workers", "2"]) == 0
    with open(out / "grades.csv", encoding="utf-8-sig") as fh:
        rows = {r["student"]: r for r in csv.DictReader(fh)}
    tasks = ASSIGNMENTS["07_beyond"]
    assert float(rows["zz_honest"]["total"]) == sum(t.points for t in tasks), rows["zz_honest"]
    for task in tasks:
        assert float(rows["aa_library"][task.name]) == 0, task.name
    feedback = (out / "feedback" / "aa_library.txt").read_text()
    assert feedback.count("you called the library's") >= len(tasks)
