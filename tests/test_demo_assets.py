"""The extension that serves the demos (``book/_ext/demo_assets.py``).

The demos' tree (``book/_demos``: the kit and one folder per demo) is copied into the
build unchanged, so every import between its modules resolves on the site as it does in
the repository, and a page gets a demo's style sheet and module exactly when it holds
the demo's element.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import demo_assets  # noqa: E402

IMPORT = re.compile(r"""(?:from|import)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""")


def imports_of(module: Path) -> list[str]:
    """The relative module specifiers a module imports, statically or dynamically."""
    code = re.sub(r"^\s*//.*$", "", module.read_text(), flags=re.M)
    return IMPORT.findall(code)


def test_the_extension_is_the_books_one_demo_extension():
    config = (ROOT / "_config.yml").read_text()
    assert "    demo_assets: book/_ext\n" in config
    assert not re.search(r"^\s+\w+_demo_assets:|^\s+\w*playground_assets:", config, re.M)


def test_the_tree_is_installed_unchanged_and_every_import_resolves(tmp_path):
    dest = demo_assets.install(tmp_path)
    served = sorted(p.relative_to(dest) for p in dest.rglob("*") if p.is_file())
    assert served == demo_assets.served_files()
    assert {p.parts[0] for p in served} == {"kit", *(d.folder for d in demo_assets.DEMOS)}
    for rel in served:
        assert (dest / rel).read_bytes() == (demo_assets.SOURCE / rel).read_bytes(), rel
    checked = 0
    for module in dest.rglob("*.mjs"):
        for spec in imports_of(module):
            target = (module.parent / spec).resolve()
            assert target.is_file(), f"{module.relative_to(dest)} imports {spec}"
            assert dest.resolve() in target.parents, f"{spec} leaves the served tree"
            checked += 1
    assert checked > 40  # the demos do import the kit


def test_the_import_check_can_fail(tmp_path):
    (tmp_path / "a.mjs").write_text('import { x } from "../_playground/dom.mjs";\n'
                                    '// import { y } from "./nowhere.mjs";\n'
                                    'const m = await import("./b.mjs");\n')
    assert imports_of(tmp_path / "a.mjs") == ["../_playground/dom.mjs", "./b.mjs"]


def test_a_missing_demo_file_stops_the_build(tmp_path):
    (tmp_path / "kit").mkdir()
    (tmp_path / "kit" / "kit.css").write_text("")
    with pytest.raises(RuntimeError, match=r"playground/playground\.mjs"):
        demo_assets.served_files(tmp_path)


@pytest.mark.parametrize("demo", demo_assets.DEMOS, ids=lambda d: d.folder)
def test_a_page_gets_a_demo_when_its_body_holds_the_demos_element(demo):
    name = demo.css_class
    assert demo.on_page(f'<div class="{name}" data-x="1">')
    assert demo.on_page(f"<div class='cell_output {name} wide'>")
    assert not demo.on_page(f'<div class="{name}-fallback">')
    assert not demo.on_page(f"<p>The {name} is below.</p>")
    mark, style, script = demo.head()
    assert style == f"demos/{demo.folder}/{demo.style}"
    assert script == f"demos/{demo.folder}/{demo.script}"
    assert (mark is None) == (demo.mark_class is None)
    if mark:
        assert f'classList.add("{demo.mark_class}")' in mark


def test_a_page_with_two_demos_gets_both():
    body = '<div class="offset-demo"></div><div class="perceptron-playground"></div>'
    assert [d.folder for d in demo_assets.demos_on_page(body)] == ["playground", "offset"]
    assert demo_assets.demos_on_page("<p>No demo.</p>") == []
