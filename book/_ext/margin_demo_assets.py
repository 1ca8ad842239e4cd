"""Serve chapter 7's margin demo from the site itself, on the pages that have one.

The demo (``book/_margin_demo``: ``margin-demo.mjs``, ``margin-core.mjs`` and
``margin-demo.css``) runs in the reader's browser with no other host.  Its core imports
the course's perceptron (``book/_playground/perceptron-core.mjs``), which the
playground's extension copies into the build's ``_static/playground``; in the book the
demo's folder is ``_margin_demo`` beside ``_playground``, in the build
``_static/margin-demo`` beside ``_static/playground``, so the copies of the demo's
modules name the build's folder in that import.

Every page whose body holds an element of class ``margin-demo`` (written by
:mod:`perceptron_lib.demos.margin`), and no other page, gets in its head:

- a one-line script that marks ``<html>`` with the class ``margin-demo-js`` where the
  page is served (module scripts do not run from pages opened as files), so that the
  stylesheet keeps the demo's room and hides the fallback picture before the body is
  drawn, and nothing below it moves when the demo starts;
- the stylesheet;
- the module, which builds each demo in idle time once it is within a screen of the
  viewport and starts its arithmetic when it comes into view: nothing of the demo runs
  while the page loads.
"""

from __future__ import annotations

from pathlib import Path

from page_demo import PageDemo
from sphinx.application import Sphinx

#: The import of the shared perceptron in the book, and in the build.
SHARED_IN_BOOK = '"../_playground/'
SHARED_IN_BUILD = '"../playground/'


class _MarginDemo(PageDemo):
    def install(self, static: Path) -> Path:
        """Copy the demo's files into ``static/<target>`` (imports renamed); the folder."""
        dest = static / self.target
        dest.mkdir(parents=True, exist_ok=True)
        for f in self.files():
            text = f.read_text(encoding="utf-8")
            if f.suffix == ".mjs":
                text = text.replace(SHARED_IN_BOOK, SHARED_IN_BUILD)
            (dest / f.name).write_text(text, encoding="utf-8")
        return dest

    def _copy(self, app: Sphinx) -> None:
        if app.builder.format == "html":
            self.install(Path(app.outdir) / "_static")


DEMO = _MarginDemo(folder="_margin_demo", target="margin-demo", css_class="margin-demo",
                   script="margin-demo.mjs", style="margin-demo.css",
                   also_needed=frozenset({"margin-core.mjs"}), mark_class="margin-demo-js")
demo_files = DEMO.files
has_demo = DEMO.on_page
setup = DEMO.setup
