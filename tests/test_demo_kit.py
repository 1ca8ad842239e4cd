"""The demo kit's style sheet (``book/_demos/kit/kit.css``): every demo stands on it,
and no demo's own sheet says again what the kit says.

The kit holds the theme's colours as ``--demo-*`` variables, the frame, focus rings, the
fallback picture and the parts the demos share (buttons, key hints, the legend, the
status line, rows of values, sliders and menus, all of class ``demo-*``); each demo's
sheet keeps only what is the demo's own, its rules for a shared part scoped to the demo
with ``:where(.root)`` so that they weigh what they weighed before (chapters 1-7).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from perceptron_lib.demos import kernel, margin, offset, playground, spam

BOOK = Path(__file__).resolve().parents[1] / "book" / "_demos"
KIT = BOOK / "kit" / "kit.css"
#: Each demo's sheet, and the class of its root element.
SHEETS = {
    "playground/playground.css": "perceptron-playground",
    "offset/offset-demo.css": "offset-demo",
    "margin/margin-demo.css": "margin-demo",
    "kernel/kernel-playground.css": "kernel-playground",
    "spam/spam-demo.css": "spam-demo",
}
#: The prefix of each demo's own classes and variables.
PREFIXES = {"playground/playground.css": "pg", "offset/offset-demo.css": "od",
            "margin/margin-demo.css": "md",
            "kernel/kernel-playground.css": "kp", "spam/spam-demo.css": "sd"}


def _rules(css: str, context: str = "") -> list[tuple[str, str, list[str]]]:
    """(at-rule context, selector, declarations) of every rule, at-rules walked into."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    out, i = [], 0
    while (j := css.find("{", i)) >= 0:
        selector = " ".join(css[i:j].split())
        depth, k = 1, j + 1
        while depth:
            depth += {"{": 1, "}": -1}.get(css[k], 0)
            k += 1
        body = css[j + 1:k - 1]
        if selector.startswith("@"):
            out += _rules(body, context + selector + " | ")
        else:
            out.append((context, selector, [" ".join(d.split()) for d in body.split(";")
                                            if d.strip()]))
        i = k
    return out


def _kit() -> dict[tuple[str, str], set[str]]:
    return {(c, s): set(d) for c, s, d in _rules(KIT.read_text())}


def test_the_kit_parses_and_holds_the_palette_in_both_themes():
    kit = _kit()
    light = kit[("", ".demo-kit")]
    dark = kit[("", 'html[data-theme="dark"] .demo-kit')]
    names = {d.split(":")[0] for d in light if d.startswith("--demo-")}
    assert {"--demo-fg", "--demo-bg", "--demo-focus", "--demo-pos-text"} <= names
    assert names == {d.split(":")[0] for d in dark}, "a colour without its dark version"


@pytest.mark.parametrize("sheet,root", list(SHEETS.items()))
def test_a_demo_sheet_says_nothing_the_kit_says(sheet, root):
    kit = _kit()
    framed = kit[("", ".demo-kit.demo-framed")]
    for context, selector, declarations in _rules((BOOK / sheet).read_text()):
        # a demo's own rule for a kit class is scoped to the demo with :where(.root)
        as_kit = re.sub(rf"^:where\(\.{re.escape(root)}\) ", "", selector)
        as_kit = re.sub(rf"(?<![\w-]){re.escape(root)}(?![\w-])", "demo-kit", as_kit)
        said = kit.get((context, as_kit), set()) | (framed if as_kit == ".demo-kit" else set())
        again = sorted(set(declarations) & said)
        assert not again, f"{sheet}: {selector} repeats the kit's {again}"


@pytest.mark.parametrize("sheet", list(SHEETS))
def test_every_kit_variable_a_demo_uses_is_defined(sheet):
    text = (BOOK / sheet).read_text()
    defined = set(re.findall(r"(--demo-[\w-]+)\s*:", KIT.read_text() + text))
    used = set(re.findall(r"var\((--demo-[\w-]+)", text))
    assert used, f"{sheet} uses none of the kit's colours"
    assert used <= defined, sorted(used - defined)
    prefix = PREFIXES[sheet]
    kit_names = re.findall(r"--demo-([\w-]+)\s*:", KIT.read_text())
    for name in kit_names:  # the demo's own copies of the kit's colours are gone
        assert f"--{prefix}-{name}:" not in text, name


def test_every_demo_element_stands_on_the_kit():
    import numpy as np

    import perceptron_lib as pl

    X, y = np.array([[1.0, 0.0], [-1.0, 0.5], [0.5, 1.0]]), np.array([1.0, -1.0, 1.0])
    s = pl.make_separable(12, 2, gamma=0.1, R=2.0, seed=1)
    mm = pl.max_margin(s.X, s.y)
    pages = {
        "playground": playground.playground_html({"three": (X, y)}),
        "offset": offset.offset_demo_html({"line": (X, y, np.array([1.0, 0.0]), 0.0)}),
        "margin": margin.MarginDemo({"separable": {
            "X": s.X, "y": s.y, "theta": mm.theta, "theta_0": mm.theta_0}}).html,
        "kernel": kernel.kernel_playground_html({"three": (X, y)}),
        "spam": spam.spam_demo_html(np.array([1.0, 1.0]), 0.0, X, y),
    }
    for name, html in pages.items():
        root = re.match(r'<div (?:id="[^"]*" )?class="([^"]*)"', html)
        assert root and "demo-kit" in root.group(1).split(), name
        if name != "spam":
            assert "demo-framed" in root.group(1).split(), name
        if name in ("offset", "margin", "kernel"):  # a picture until the script runs
            assert re.search(r'class="[^"]*\bdemo-fallback\b', html), name


@pytest.mark.parametrize("sheet,root", list(SHEETS.items()))
def test_a_demo_rule_for_a_shared_part_reaches_only_its_own_demo(sheet, root):
    own = re.compile(rf"(?<![\w-])({re.escape(root)}[\w-]*|[a-z]{{2,4}}-(?<!demo-)[\w-]+)")
    for _, selector, _ in _rules((BOOK / sheet).read_text()):
        for part in selector.split(","):
            if "demo-" not in part or part.strip().startswith(":where("):
                continue
            # a selector of kit classes alone would style every demo of the page
            named = [t for t in own.findall(part) if not t.startswith("demo-")]
            assert named, f"{sheet}: {part.strip()} is not scoped to its demo"


#: Each demo's module, and what it builds from the kit's module (demo-kit.mjs).
MODULES = ["playground/playground.mjs", "offset/offset-demo.mjs",
           "margin/margin-demo.mjs", "kernel/kernel-playground.mjs"]


@pytest.mark.parametrize("module", MODULES)
def test_a_demo_builds_its_buttons_errors_and_mounting_with_the_kit(module):
    text = (BOOK / module).read_text()
    imported = re.search(r'import \{([^}]*)\} from "[./_a-z]*demo-kit\.mjs";', text)
    assert imported, f"{module} does not import the kit's module"
    names = {n.strip() for n in imported.group(1).split(",")}
    assert {"buttonRow", "mountEvery", "showError"} <= names
    for own in ("function showError", "querySelectorAll(\"div.", "b.append(el(\"kbd\"",
                'setAttribute("role", "group")', 'type: "range"'):
        assert own not in text, f"{module} has its own {own}"
    assert "groupRoot(" in text
