"""Serve chapter 6's kernel playground from the site itself, on the pages that have one.

The playground (``book/_kernel_playground``: ``kernel-playground.mjs``,
``kernel-core.mjs`` and ``kernel-playground.css``) runs in the reader's browser with no
other host.  This extension copies those files into the build's
``_static/kernel-playground`` before the pages are written, and gives every page whose
body holds an element of class ``kernel-playground`` (written by
:mod:`perceptron_lib.kernel_playground`), and no other page, three things in its head:

- a one-line script that marks ``<html>`` with the class ``kernel-playground-js`` where
  the page is served (module scripts do not run from pages opened as files), so that the
  stylesheet keeps the playground's room and hides the fallback picture before the body
  is drawn, and nothing below it moves when the playground starts;
- the stylesheet;
- the module, which builds each playground and starts its arithmetic when it comes into
  view.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from sphinx.application import Sphinx

SOURCE = Path(__file__).resolve().parent.parent / "_kernel_playground"
TARGET = "kernel-playground"  # folder inside the build's _static
SCRIPT = "kernel-playground.mjs"
STYLE = "kernel-playground.css"
FILES = {SCRIPT, STYLE, "kernel-core.mjs"}
MARK = (
    'if (location.protocol !== "file:") '
    'document.documentElement.classList.add("kernel-playground-js");'
)
# class="... kernel-playground ..." with either quote
MARKER = re.compile(r"""class\s*=\s*(["'])(?:(?!\1).)*(?<![\w-])kernel-playground(?![\w-])""", re.S)


def playground_files() -> list[Path]:
    """The files the pages load: every .mjs and .css file of book/_kernel_playground."""
    files = sorted([*SOURCE.glob("*.mjs"), *SOURCE.glob("*.css")])
    missing = FILES - {f.name for f in files}
    if missing:
        raise RuntimeError(f"kernel playground files missing from {SOURCE}: {sorted(missing)}")
    return files


def has_playground(body: str) -> bool:
    """Whether a page's HTML body holds an element of class kernel-playground."""
    return bool(MARKER.search(body or ""))


def _copy(app: Sphinx) -> None:
    # Before any page is written, so that Sphinx adds each file's checksum (?v=...) to
    # its URL and a changed playground is not served from a browser's cache.
    if app.builder.format != "html":
        return
    dest = Path(app.outdir) / "_static" / TARGET
    dest.mkdir(parents=True, exist_ok=True)
    for f in playground_files():
        shutil.copyfile(f, dest / f.name)


def _add_to_page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    # On html-page-context, add_js_file and add_css_file add to this page only.
    if not has_playground(context.get("body", "")):
        return
    app.add_js_file(None, body=MARK, priority=100)
    app.add_css_file(f"{TARGET}/{STYLE}")
    app.add_js_file(f"{TARGET}/{SCRIPT}", type="module")


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", _copy)
    app.connect("html-page-context", _add_to_page)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
