"""A sandbox that cannot run a submission stops the grader before it grades anything, and
the isolation report claims only what its probe checked.

Two installs: a Python that lacks numpy (the system's, where it has none) is a broken
install; a grader started with ``PYTHONPATH`` pointing at the repository, with no
``pip install -e .``, is not: the child finds the stand-in library by its path.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest

from perceptron_lib.grading import sandbox
from perceptron_lib.grading.__main__ import main as grade_folder

ROOT = Path(__file__).resolve().parents[1]
SYSTEM_PYTHON = "/usr/bin/python3"


@pytest.fixture
def python_without_numpy(monkeypatch) -> str:
    """The sandbox's Python swapped for one that cannot import numpy."""
    if not os.path.exists(SYSTEM_PYTHON) or subprocess.run(
            [SYSTEM_PYTHON, "-I", "-c", "import numpy"], capture_output=True).returncode == 0:
        pytest.skip(f"{SYSTEM_PYTHON} is missing or has numpy")
    monkeypatch.setattr(sandbox.runner, "PYTHON", SYSTEM_PYTHON)
    return SYSTEM_PYTHON


@pytest.mark.parametrize("how", ["as found", "limits-only"])
def test_a_python_without_numpy_is_a_broken_install(python_without_numpy, tmp_path,
                                                     monkeypatch, how):
    if how == "limits-only":
        monkeypatch.setattr(sandbox.runner, "_mode", ["limits-only"])
    report = sandbox.isolation_report([tmp_path])
    assert report["verified"] is False
    assert "No module named 'numpy'" in report["broken_install"], report["broken_install"]
    assert "pip install -e ." in report["broken_install"]
    assert "python3 tasks.py test" in report["broken_install"]
    # Nothing the probe did not check is claimed.
    assert report["hidden_paths"] == [] and report["visible_paths"] == []
    assert report["unchecked_paths"] == [str(tmp_path.resolve())]
    assert report["library"] == "unknown"
    assert any("not checked" in item for item in report["not_isolated"])


def test_the_report_of_a_working_install_is_verified(tmp_path):
    report = sandbox.isolation_report([tmp_path])
    assert report["verified"] is True and "broken_install" not in report
    assert "unchecked_paths" not in report


def test_a_broken_install_stops_the_grader_before_grading(python_without_numpy, tmp_path,
                                                          capsys):
    folder = tmp_path / "submissions"
    folder.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.metadata["perceptron_course"] = {"assignment": "01_algorithm"}
    nb.cells = [nbformat.v4.new_code_cell("x = 1")]
    nbformat.write(nb, str(folder / "ann.ipynb"))
    code = grade_folder([str(folder), "--out", str(tmp_path / "out")])
    assert code == 3
    assert "No module named 'numpy'" in capsys.readouterr().err
    assert not (tmp_path / "out" / "grades.csv").exists()


# ------------------------------------------------------------- PYTHONPATH, no install
def _venv_without_the_library(where: Path) -> Path:
    """A Python environment with numpy and the grader's other packages but no install of
    ``perceptron_lib``: numpy is linked into it (the sandbox sees the environment's own
    folder only), the rest is reached from the course's environment by a ``.pth``."""
    subprocess.run([sys._base_executable, "-m", "venv", "--without-pip", str(where)],
                   check=True, capture_output=True)
    python = where / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig."
                                "get_paths()['purelib'])"], capture_output=True, text=True,
                               check=True).stdout.strip())
    ours = Path(next(p for p in sys.path if p.endswith("site-packages")))
    for name in ("numpy", "numpy.libs"):
        if (ours / name).is_dir():
            try:
                shutil.copytree(ours / name, site / name, copy_function=os.link)
            except OSError:
                shutil.copytree(ours / name, site / name)
    (site / "course.pth").write_text(f"{ours}\n")  # not processed: no editable finder
    return python


def test_a_grader_started_with_pythonpath_runs_submissions(tmp_path):
    python = _venv_without_the_library(tmp_path / "env")
    alone = subprocess.run([python, "-I", "-c", "import perceptron_lib"],
                           capture_output=True, text=True)
    assert "No module named 'perceptron_lib'" in alone.stderr  # only PYTHONPATH finds it
    script = textwrap.dedent("""
        import json
        from perceptron_lib.grading import sandbox
        report = sandbox.isolation_report()
        run = sandbox.run(
            ["import numpy as np\\nimport perceptron_lib as pl\\n"
             "def f():\\n"
             "    try:\\n"
             "        pl.perceptron([[1.0]], [1.0], 1)\\n"
             "        return 'real'\\n"
             "    except RuntimeError:\\n"
             "        return 'stand-in'"],
            [{"id": "a", "function": "f", "args": []},
             {"id": "b", "function": "perceptron", "args": []}])
        print(json.dumps({"report": report, "answers": {k: str(v) for k, v in
                          run.answers.items()}, "status": run.status,
                          "mode": sandbox.mode()}))
    """)
    done = subprocess.run([python, "-c", script], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    facts = json.loads(done.stdout.strip().splitlines()[-1])
    assert facts["report"]["verified"] is True, facts["report"].get("broken_install")
    assert facts["report"]["library"] == "stand-in"
    assert facts["status"] == "ok", facts
    assert "stand-in" in facts["answers"]["a"], facts["answers"]
