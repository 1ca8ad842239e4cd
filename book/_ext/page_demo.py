"""Serve a demo that runs in the reader's browser from the site itself, on its pages only.

A demo is a folder of ``book/`` with its JavaScript modules and its stylesheet (the
playground of chapters 1, 3 and 4, chapter 5's message demo, chapter 6's kernel
playground).  :class:`PageDemo` copies the folder's ``.mjs`` and ``.css`` files into the
build's ``_static/<target>`` before any page is written, so that Sphinx adds each file's
checksum (``?v=...``) to its URL and a changed demo is never served from a browser's
cache, and gives every page whose body holds an element of the demo's class, and no
other page, in its head:

- where asked, a one-line script that marks ``<html>`` with a class where the page is
  served (module scripts do not run from pages opened as files), so that the stylesheet
  can keep the demo's room and hide its fallback picture before the body is drawn;
- the demo kit's stylesheet (``kit.css``, what all the demos share), then the demo's;
- the module.

Each of the demos' extensions is a :class:`PageDemo` and its ``setup``.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from sphinx.application import Sphinx

BOOK = Path(__file__).resolve().parent.parent
#: The demo kit's style sheet (``book/_playground/kit.css``, in the build's
#: ``_static/playground``), which every demo's own sheet builds on.
KIT_STYLE = "playground/kit.css"


@dataclass(frozen=True)
class PageDemo:
    """One demo: its folder in ``book/``, the class that places it, its files."""

    folder: str  # e.g. "_spam_demo", inside book/
    target: str  # folder inside the build's _static
    css_class: str  # the class of the element a chapter writes
    script: str
    style: str
    also_needed: frozenset[str] = frozenset()
    mark_class: str | None = None  # added to <html> where the page is served
    marker: re.Pattern = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # class="... name ..." with either quote, as the HTML writer or an author writes it
        name = re.escape(self.css_class)
        object.__setattr__(self, "marker", re.compile(
            rf"""class\s*=\s*(["'])(?:(?!\1).)*(?<![\w-]){name}(?![\w-])""", re.S))

    @property
    def source(self) -> Path:
        return BOOK / self.folder

    def files(self) -> list[Path]:
        """The files the pages load: every .mjs and .css file of the demo's folder."""
        files = sorted([*self.source.glob("*.mjs"), *self.source.glob("*.css")])
        missing = ({self.script, self.style} | self.also_needed) - {f.name for f in files}
        if missing:
            raise RuntimeError(f"{self.target} files missing from {self.source}: "
                               f"{sorted(missing)}")
        return files

    def on_page(self, body: str) -> bool:
        """Whether a page's HTML body holds an element of the demo's class."""
        return bool(self.marker.search(body or ""))

    def _copy(self, app: Sphinx) -> None:
        if app.builder.format != "html":
            return
        dest = Path(app.outdir) / "_static" / self.target
        dest.mkdir(parents=True, exist_ok=True)
        for f in self.files():
            shutil.copyfile(f, dest / f.name)

    def _add_to_page(self, app: Sphinx, pagename: str, templatename: str, context: dict,
                     doctree) -> None:
        # On html-page-context, add_js_file and add_css_file add to this page only
        # (Sphinx resets the lists before the next page).
        if not self.on_page(context.get("body", "")):
            return
        if self.mark_class:
            app.add_js_file(None, body=('if (location.protocol !== "file:") '
                                        "document.documentElement.classList.add("
                                        f'"{self.mark_class}");'), priority=100)
        # the kit's sheet first (once, whichever demos the page holds), then the demo's
        app.add_css_file(KIT_STYLE, priority=450)
        app.add_css_file(f"{self.target}/{self.style}")
        app.add_js_file(f"{self.target}/{self.script}", type="module")

    def setup(self, app: Sphinx) -> dict:
        """Connect the demo to a Sphinx build (the extension's ``setup``)."""
        app.connect("builder-inited", self._copy)
        app.connect("html-page-context", self._add_to_page)
        return {"parallel_read_safe": True, "parallel_write_safe": True}
