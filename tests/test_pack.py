"""``python3 tasks.py pack``: the zip of exercise notebooks an instructor hands to students."""

from __future__ import annotations

import fnmatch
import importlib.util
import json
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
TASKS = ROOT / "tasks.py"
FOLDER = "perceptron-course-exercises"
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))


def load_tasks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("course_tasks", TASKS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def setup_cell_install(nb: dict) -> str:
    """The requirement that a notebook's setup cell installs, e.g. ``pkg @ git+URL``."""
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        found = re.search(r'%pip install --quiet "([^"]+)"', source)
        if cell["cell_type"] == "code" and found:
            return found.group(1)
    raise AssertionError("no setup cell with a %pip install line")


@pytest.fixture(scope="module")
def pack(tmp_path_factory) -> Path:
    """The zip written by the real command."""
    out = tmp_path_factory.mktemp("pack") / "exercises.zip"
    proc = subprocess.run([sys.executable, str(TASKS), "pack", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert f"{len(EXERCISES)} notebooks" in proc.stdout
    return out


def test_pack_holds_the_exercises_and_a_readme_and_nothing_else(pack: Path):
    assert len(EXERCISES) >= 6
    with zipfile.ZipFile(pack) as zf:
        assert zf.testzip() is None
        names = zf.namelist()
        expected = [f"{FOLDER}/README.md", *(f"{FOLDER}/{nb.name}" for nb in EXERCISES)]
        assert sorted(names) == sorted(expected)
        assert len(names) == len(set(names))
        for nb in EXERCISES:
            data = zf.read(f"{FOLDER}/{nb.name}")
            assert data == nb.read_bytes()  # committed without outputs, so copied as is
            text = data.decode()
            assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text
            assert "raise NotImplementedError()" in text
        for member in names:
            info = zf.getinfo(member)
            assert not info.is_dir()
            assert info.external_attr >> 16 == 0o100644, oct(info.external_attr)


def test_pack_has_no_solution(pack: Path):
    """No line written inside a solution region appears in any member."""
    solution_lines = set()
    for path in (ROOT / "solutions").glob("*.ipynb"):
        for cell in json.loads(path.read_text())["cells"]:
            inside = False
            for line in "".join(cell["source"]).splitlines():
                if line.strip() == "### BEGIN SOLUTION":
                    inside = True
                elif line.strip() == "### END SOLUTION":
                    inside = False
                elif inside and len(line.strip()) > 12:  # skip `return x` and the like
                    solution_lines.add(line.strip())
    assert len(solution_lines) > 20
    with zipfile.ZipFile(pack) as zf:
        for member in zf.namelist():
            text = zf.read(member).decode()
            leaked = [ln for ln in solution_lines if ln in text]
            # A line may be shared with the notebook's own text (a docstring, a
            # call shown in the instructions); a solution would leak many at once.
            assert len(leaked) <= 3, (member, leaked[:10])


def test_pack_readme_tells_students_how_to_run_and_hand_in(pack: Path):
    with zipfile.ZipFile(pack) as zf:
        readme = zf.read(f"{FOLDER}/README.md").decode()
    install = setup_cell_install(json.loads(EXERCISES[0].read_text()))
    package, url = (part.strip() for part in install.split("@", 1))
    assert url.startswith("git+https://github.com/")
    repo = url.removeprefix("git+https://github.com/")
    assert f'pip install jupyterlab "{package}[data] @ {url}"' in readme
    assert "jupyter lab" in readme
    for nb in EXERCISES:
        assert f"`{nb.name}`" in readme
        assert f"https://mybinder.org/v2/gh/{repo}/main?labpath=exercises%2F{nb.name}" in readme
        assert (f"https://colab.research.google.com/github/{repo}/blob/main/exercises/{nb.name}"
                in readme)
    assert "check(...)" in readme and "further ones" in readme
    assert "The algorithm" in readme and "Variants" in readme  # chapter titles
    assert "Handing in" in readme


def test_pack_notebooks_run_top_to_bottom(pack: Path, tmp_path: Path):
    """Extracted as a student would, every cell runs under nbval, as the test command
    runs exercises/: the unfinished functions raise NotImplementedError, which the
    check cells report without raising."""
    where = tmp_path / "student"
    with zipfile.ZipFile(pack) as zf:
        for member in zf.namelist():
            assert not member.startswith("/") and ".." not in Path(member).parts
        zf.extractall(where)
    folder = where / FOLDER
    ini = tmp_path / "pytest.ini"  # none of the repository's settings
    ini.write_text("[pytest]\n")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ini), "--rootdir", str(folder),
         "-p", "no:cacheprovider", "-p", "no:xdist", "--nbval-lax", "-q", str(folder)],
        capture_output=True, text=True, timeout=600, cwd=folder)
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]
    code_cells = sum(
        1 for nb in EXERCISES for cell in json.loads(nb.read_text())["cells"]
        if cell["cell_type"] == "code"
    )
    assert re.search(rf"\b{code_cells} passed\b", proc.stdout), proc.stdout[-2000:]
    assert "failed" not in proc.stdout and "error" not in proc.stdout.lower()


def test_pack_clears_outputs_of_a_notebook_saved_after_a_run(tmp_path: Path):
    tasks = load_tasks()
    nb = json.loads(EXERCISES[0].read_text())
    for i, cell in enumerate(c for c in nb["cells"] if c["cell_type"] == "code"):
        cell["execution_count"] = i + 1
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "ran\n"}]
    ran = tmp_path / "ran.ipynb"
    ran.write_text(json.dumps(nb, indent=1))
    cleaned = json.loads(tasks.clean_notebook(ran))
    code = [c for c in cleaned["cells"] if c["cell_type"] == "code"]
    assert code and all(c["outputs"] == [] and c["execution_count"] is None for c in code)
    assert [c["source"] for c in cleaned["cells"]] == [c["source"] for c in nb["cells"]]
    assert tasks.clean_notebook(EXERCISES[0]) == EXERCISES[0].read_bytes()


def test_pack_follows_the_repository_of_config(monkeypatch, tmp_path: Path):
    """A fork that changes ``repository:`` in _config.yml gets its own links."""
    tasks = load_tasks()
    assert tasks.repository() == ("https://github.com/perceptron-course/perceptron-course",
                                  "main")
    (tmp_path / "_config.yml").write_text(
        "title: x\nrepository:\n  url: https://github.com/someone/perceptrons/\n"
        "  path_to_book: \"\"\n  branch: spring\nhtml:\n  baseurl: y\n")
    monkeypatch.setattr(tasks, "ROOT", tmp_path)
    assert tasks.repository() == ("https://github.com/someone/perceptrons", "spring")
    readme = tasks.student_readme(["01_algorithm.ipynb"], {"01_algorithm.ipynb": "The algorithm"},
                                  *tasks.repository())
    assert "mybinder.org/v2/gh/someone/perceptrons/spring?labpath=" in readme
    assert "github/someone/perceptrons/blob/spring/exercises/01_algorithm.ipynb" in readme
    assert "git+https://github.com/someone/perceptrons\"" in readme


def test_a_pip_install_brings_every_subpackage():
    """The README's pip line (and Colab's setup cell) installs the library from the
    repository; the check cells import perceptron_lib.grading, so the package list
    must hold every subpackage, not only the top one."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = config.get("packages")
    patterns = (config.get("packages", {}).get("find", {}).get("include")
                if isinstance(listed, dict) else None)
    subpackages = sorted(
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "perceptron_lib").rglob("__init__.py")
        if "__pycache__" not in p.parts
    )
    assert "perceptron_lib.grading" in subpackages
    for name in subpackages:
        if isinstance(listed, list):
            assert name in listed, name
        else:
            assert patterns and any(fnmatch.fnmatchcase(name, pat) for pat in patterns), name
