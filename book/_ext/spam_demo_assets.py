"""Serve chapter 5's message demo from the site itself, on the pages that have one.

The demo (``book/_spam_demo``: ``spam-demo.mjs``, ``spam-core.mjs``,
``char-classes.mjs`` and ``spam-demo.css``) runs in the reader's browser with no other
host.  This extension copies those files into the build's ``_static/spam-demo`` before
the pages are written, and gives every page whose body holds an element of class
``spam-demo`` (written by :mod:`perceptron_lib.spam_demo`) three things in its head:

- a one-line script that marks ``<html>`` with the class ``spam-demo-js`` where the page
  is served (module scripts do not run from pages opened as files), so that the
  stylesheet shows the demo's markup instead of the explorer's picture before the body
  is drawn, and nothing moves when the demo starts;
- the stylesheet;
- the module, which starts each demo when it scrolls into view.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from sphinx.application import Sphinx

SOURCE = Path(__file__).resolve().parent.parent / "_spam_demo"
TARGET = "spam-demo"  # folder inside the build's _static
SCRIPT = "spam-demo.mjs"
STYLE = "spam-demo.css"
MARK = (
    'if (location.protocol !== "file:") '
    'document.documentElement.classList.add("spam-demo-js");'
)
MARKER = re.compile(r"""class\s*=\s*(["'])(?:(?!\1).)*(?<![\w-])spam-demo(?![\w-])""", re.S)


def demo_files() -> list[Path]:
    """The files the pages load: every .mjs and .css file of book/_spam_demo."""
    files = sorted([*SOURCE.glob("*.mjs"), *SOURCE.glob("*.css")])
    missing = {SCRIPT, STYLE, "spam-core.mjs", "char-classes.mjs"} - {f.name for f in files}
    if missing:
        raise RuntimeError(f"spam demo files missing from {SOURCE}: {sorted(missing)}")
    return files


def has_demo(body: str) -> bool:
    """Whether a page's HTML body holds an element of class spam-demo."""
    return bool(MARKER.search(body or ""))


def _copy(app: Sphinx) -> None:
    if app.builder.format != "html":
        return
    dest = Path(app.outdir) / "_static" / TARGET
    dest.mkdir(parents=True, exist_ok=True)
    for f in demo_files():
        shutil.copyfile(f, dest / f.name)


def _add_to_page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if not has_demo(context.get("body", "")):
        return
    app.add_js_file(None, body=MARK, priority=100)
    app.add_css_file(f"{TARGET}/{STYLE}")
    app.add_js_file(f"{TARGET}/{SCRIPT}", type="module")


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", _copy)
    app.connect("html-page-context", _add_to_page)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
