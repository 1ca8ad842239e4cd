"""Checks on the repository itself: pins, clean notebooks, the two commands."""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP = {".venv", "_build", ".git", ".ipynb_checkpoints", "node_modules"}


def tracked_notebooks() -> list[Path]:
    return [p for p in ROOT.rglob("*.ipynb") if not SKIP & set(p.relative_to(ROOT).parts)]


def requirement_lines(name: str) -> list[str]:
    lines = (ROOT / name).read_text().splitlines()
    return [ln.split("#")[0].strip() for ln in lines if ln.split("#")[0].strip()]


def test_notebooks_are_committed_without_outputs():
    dirty = []
    for nb_path in tracked_notebooks():
        nb = json.loads(nb_path.read_text())
        for cell in nb["cells"]:
            if cell["cell_type"] == "code" and (cell.get("outputs") or cell.get("execution_count")):
                dirty.append(str(nb_path.relative_to(ROOT)))
                break
    assert not dirty, f"strip the outputs of: {dirty}"


def test_notebooks_are_valid_with_unique_cell_ids():
    # nbformat 4.5 requires an id on every cell; without one, readers get a warning and
    # a future nbformat refuses the file.
    import nbformat

    for nb_path in tracked_notebooks():
        raw = json.loads(nb_path.read_text())
        name = str(nb_path.relative_to(ROOT))
        assert (raw["nbformat"], raw["nbformat_minor"]) >= (4, 5), name
        ids = [cell.get("id") for cell in raw["cells"]]
        assert None not in ids, f"{name}: cell {ids.index(None)} has no id"
        assert len(set(ids)) == len(ids), f"{name}: repeated cell ids"
        nbformat.validate(nbformat.from_dict(raw))


def test_every_requirement_is_pinned_and_constrained():
    reqs = requirement_lines("requirements.txt")
    assert len(reqs) >= 6
    pins = dict(ln.split("==") for ln in requirement_lines("constraints.txt"))
    norm = {re.sub(r"[-_.]+", "-", k).lower(): v for k, v in pins.items()}
    for line in reqs:
        assert re.fullmatch(r"[A-Za-z0-9_.\-\[\]]+==[A-Za-z0-9_.+!\-]+", line), line
        name, version = line.split("==")
        key = re.sub(r"[-_.]+", "-", name.split("[")[0]).lower()
        assert norm.get(key) == version, f"{name}: constraints.txt has {norm.get(key)}"


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python3 tasks.py book" in readme
    assert "python3 tasks.py test" in readme
    assert "python3 tasks.py test" in ci


def test_layout_of_the_design_card():
    for path in ("_config.yml", "_toc.yml", "book/intro.md", "book/references.bib",
                 "perceptron_lib/__init__.py", "exercises", "solutions", "tests", "bench",
                 "requirements.txt", "pyproject.toml", "README.md", "bench/README.md"):
        assert (ROOT / path).exists(), path
