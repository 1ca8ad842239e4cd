"""Serve the perceptron playground from the site itself, on the pages that have one.

The playground (``book/_playground``: ``perceptron-core.mjs``, ``playground.mjs`` and
``playground.css``) runs in the reader's browser with no other host.  This extension
copies its ``*.mjs`` and ``*.css`` files into the build's ``_static/playground`` before
the pages are written, and adds

    <script type="module" src="../_static/playground/playground.mjs"></script>
    <link rel="stylesheet" href="../_static/playground/playground.css" />

to the pages whose body holds an element of class ``perceptron-playground`` (a raw HTML
``<div class="perceptron-playground" data-datasets='...'></div>`` in a Markdown cell or
a notebook's HTML output), and to no other page.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from sphinx.application import Sphinx

SOURCE = Path(__file__).resolve().parent.parent / "_playground"
TARGET = "playground"  # folder inside the build's _static
SCRIPT = "playground.mjs"
STYLE = "playground.css"
# class="... perceptron-playground ..." with either quote, as the HTML writer or an
# author may write it.
MARKER = re.compile(
    r"""class\s*=\s*(["'])(?:(?!\1).)*(?<![\w-])perceptron-playground(?![\w-])""", re.S
)


def playground_files() -> list[Path]:
    """The files the pages load: every .mjs and .css file of book/_playground."""
    files = sorted([*SOURCE.glob("*.mjs"), *SOURCE.glob("*.css")])
    names = {f.name for f in files}
    missing = {SCRIPT, STYLE} - names
    if missing:
        raise RuntimeError(f"playground files missing from {SOURCE}: {sorted(missing)}")
    return files


def _copy(app: Sphinx) -> None:
    # Before any page is written, so that Sphinx can add each file's checksum (?v=...)
    # to its URL and a changed playground is not served from a browser's cache.
    if app.builder.format != "html":
        return
    dest = Path(app.outdir) / "_static" / TARGET
    dest.mkdir(parents=True, exist_ok=True)
    for f in playground_files():
        shutil.copyfile(f, dest / f.name)


def has_playground(body: str) -> bool:
    """Whether a page's HTML body holds an element of class perceptron-playground."""
    return bool(MARKER.search(body or ""))


def _add_to_page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    # Called on html-page-context: add_js_file and add_css_file then add the files to
    # this page only (Sphinx resets the lists before the next page).
    if not has_playground(context.get("body", "")):
        return
    app.add_js_file(f"{TARGET}/{SCRIPT}", type="module")
    app.add_css_file(f"{TARGET}/{STYLE}")


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", _copy)
    app.connect("html-page-context", _add_to_page)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
