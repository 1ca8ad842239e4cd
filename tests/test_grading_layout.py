"""The grading package shows the road a submission travels, and no import runs back up it.

The stages, in the order a submission meets them: ``assignments`` (what is graded, the
base every stage stands on), ``intake``, ``sandbox``, ``judge``, ``outputs``; the
modules at the package's top (the command, the check cells, the exercise generator)
call the stages.  A module may import from its own stage and from the stages before
it, never from a later stage or from the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import perceptron_lib.grading as grading

PACKAGE = Path(grading.__file__).parent
STAGES = ["assignments", "intake", "sandbox", "judge", "outputs"]
TOP = len(STAGES)


def _rank(module: str) -> int:
    """The position of ``module`` (dotted, under the grading package) on the road."""
    first = module.split(".")[0]
    return STAGES.index(first) if first in STAGES else TOP


def _module_of(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join(parts)


def _imports(path: Path, module: str | None = None) -> list[tuple[int, str]]:
    """(line, imported module under the grading package) for every import of ``path``
    (whose dotted name under the package is ``module``, by default its place there)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = _module_of(path) if module is None else module
    here = module.split(".") if module else []
    package = here if path.name == "__init__.py" else here[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                target = [*base, *(node.module.split(".") if node.module else [])]
            elif node.module and node.module.startswith("perceptron_lib.grading"):
                target = node.module.split(".")[2:]
            else:
                continue
            for alias in node.names:  # ``from . import sandbox`` imports a module
                name = ".".join([*target, alias.name])
                sub = PACKAGE.joinpath(*target, alias.name)
                found.append((node.lineno, name if sub.is_dir() or sub.with_suffix(".py")
                              .exists() else ".".join(target)))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("perceptron_lib.grading."):
                    found.append((node.lineno, ".".join(alias.name.split(".")[2:])))
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_the_package_is_laid_out_in_stages():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert top == ["__init__.py", "__main__.py", "check.py", "generate.py", "pipeline.py"]
    for stage in STAGES:
        assert (PACKAGE / stage / "__init__.py").is_file(), stage


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module_of(p) or "__init__")
def test_no_import_runs_back_up_the_road(path):
    rank = _rank(_module_of(path)) if path.parent != PACKAGE else TOP
    backwards = [f"line {line}: {name}" for line, name in _imports(path)
                 if name and _rank(name) > rank]
    assert not backwards, f"{_module_of(path)} imports a later stage: {backwards}"


def test_the_checker_sees_a_backward_import(tmp_path):
    text = (PACKAGE / "intake" / "submissions.py").read_text(encoding="utf-8")
    fake = tmp_path / "submissions.py"
    fake.write_text(text + "\nfrom ..outputs import report\n", encoding="utf-8")
    names = [name for _, name in _imports(fake, "intake.submissions")]
    assert "outputs.report" in names and _rank("outputs.report") > _rank("intake.submissions")
