"""Serve chapter 2's offset demo from the site itself, on the pages that have one.

The demo (``book/_offset_demo``: ``offset-demo.mjs``, ``offset-core.mjs`` and
``offset-demo.css``) runs in the reader's browser with no other host.  Its core imports
the course's perceptron (``book/_playground/perceptron-core.mjs``) as
``../_playground/perceptron-core.mjs``, the path that Node.js and the tests resolve in the
repository.  This extension copies the demo's files into the build's
``_static/offset-demo`` before the pages are written, with that one import pointing to a
copy of the perceptron core beside them (``./perceptron-core.mjs``), so the folder
serves the demo whole.  The demo's other shared pieces (the DOM helpers, the plot's
geometry, the chart of epochs, Undo and the URL state) it imports from
``../playground/*.mjs``, the site's ``_static/playground`` that the playground's
extension serves.  Every page whose body holds an element of class ``offset-demo``
(written by :mod:`perceptron_lib.demos.offset`), and no other page, gets in its head:

- a one-line script that marks ``<html>`` with the class ``offset-demo-js`` where the page
  is served (module scripts do not run from pages opened as files), so that the
  stylesheet keeps the demo's room and hides the fallback picture before the body is
  drawn, and nothing below it moves when the demo starts;
- the stylesheet;
- the module, which builds each demo and starts drawing and running it when it comes
  into view.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from page_demo import BOOK, PageDemo
from sphinx.application import Sphinx

CORE = BOOK / "_playground" / "perceptron-core.mjs"
REPO_IMPORT = '"../_playground/perceptron-core.mjs"'
SITE_IMPORT = '"./perceptron-core.mjs"'


@dataclass(frozen=True)
class OffsetDemoFiles(PageDemo):
    """The demo's folder, with the perceptron core copied beside it on the site."""

    def _copy(self, app: Sphinx) -> None:
        if app.builder.format != "html":
            return
        dest = Path(app.outdir) / "_static" / self.target
        dest.mkdir(parents=True, exist_ok=True)
        for f in self.files():
            text = f.read_text(encoding="utf-8")
            if f.suffix == ".mjs" and REPO_IMPORT in text:
                text = text.replace(REPO_IMPORT, SITE_IMPORT)
            (dest / f.name).write_text(text, encoding="utf-8")
        shutil.copyfile(CORE, dest / CORE.name)


DEMO = OffsetDemoFiles(folder="_offset_demo", target="offset-demo", css_class="offset-demo",
                       script="offset-demo.mjs", style="offset-demo.css",
                       also_needed=frozenset({"offset-core.mjs"}), mark_class="offset-demo-js")
demo_files = DEMO.files
has_demo = DEMO.on_page
setup = DEMO.setup
