"""Serve the demos that run in the reader's browser from the site itself, on their pages.

The demos live in ``book/_demos``, one folder each beside the kit they share:

- ``kit/``: what every demo builds on (the style sheet ``kit.css``, the perceptron of the
  page, the plot's geometry, point editing, keys, Undo and Redo, the URL state, Play, the
  chart of epochs, the generator of data);
- ``playground/`` (chapters 1, 3 and 4), ``offset/`` (chapter 2), ``spam/`` (chapter 5),
  ``kernel/`` (chapter 6) and ``margin/`` (chapter 7): what is each demo's own.

A demo imports the kit as ``../kit/<module>.mjs``, the path that Node.js and the tests
resolve in the repository.  Before any page is written this extension copies the whole
tree, as it is, into the build's ``_static/demos``, so the same imports resolve on the
site and no file is rewritten on the way.  Sphinx adds each file's checksum (``?v=...``)
to the URLs it writes, so a changed demo is never served from a browser's cache.

Every page whose body holds an element of a demo's class, and no other page, gets in its
head:

- where the demo asks for it, a one-line script that marks ``<html>`` with a class where
  the page is served (module scripts do not run from pages opened as files), so that the
  style sheet keeps the demo's room and hides its fallback picture before the body is
  drawn, and nothing below it moves when the demo starts;
- the kit's style sheet (once, whichever demos the page holds), then the demo's;
- the demo's module.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from sphinx.application import Sphinx

BOOK = Path(__file__).resolve().parent.parent
#: The demos' tree in the book, and its place in the build's ``_static``.
SOURCE = BOOK / "_demos"
TARGET = "demos"
#: The kit every demo's own style sheet builds on.
KIT_STYLE = f"{TARGET}/kit/kit.css"


@dataclass(frozen=True)
class PageDemo:
    """One demo: its folder in ``book/_demos``, the class that places it, its files."""

    folder: str  # e.g. "spam", inside book/_demos
    css_class: str  # the class of the element a chapter writes
    script: str
    style: str
    mark_class: str | None = None  # added to <html> where the page is served
    marker: re.Pattern = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # class="... name ..." with either quote, as the HTML writer or an author writes it
        name = re.escape(self.css_class)
        object.__setattr__(self, "marker", re.compile(
            rf"""class\s*=\s*(["'])(?:(?!\1).)*(?<![\w-]){name}(?![\w-])""", re.S))

    def on_page(self, body: str) -> bool:
        """Whether a page's HTML body holds an element of the demo's class."""
        return bool(self.marker.search(body or ""))

    def head(self) -> tuple[str | None, str, str]:
        """The mark script's body (or None), the style sheet and the module, as served."""
        mark = None
        if self.mark_class:
            mark = ('if (location.protocol !== "file:") '
                    f'document.documentElement.classList.add("{self.mark_class}");')
        return mark, f"{TARGET}/{self.folder}/{self.style}", f"{TARGET}/{self.folder}/{self.script}"


DEMOS = (
    PageDemo("playground", "perceptron-playground", "playground.mjs", "playground.css"),
    PageDemo("offset", "offset-demo", "offset-demo.mjs", "offset-demo.css", "offset-demo-js"),
    PageDemo("spam", "spam-demo", "spam-demo.mjs", "spam-demo.css", "spam-demo-js"),
    PageDemo("kernel", "kernel-playground", "kernel-playground.mjs", "kernel-playground.css",
             "kernel-playground-js"),
    PageDemo("margin", "margin-demo", "margin-demo.mjs", "margin-demo.css", "margin-demo-js"),
)


def served_files(source: Path = SOURCE) -> list[Path]:
    """Every ``.mjs`` and ``.css`` file of the demos' tree, as paths inside it."""
    files = sorted(p.relative_to(source) for p in source.rglob("*")
                   if p.suffix in {".mjs", ".css"})
    wanted = {Path("kit/kit.css")} | {Path(d.folder, f) for d in DEMOS
                                       for f in (d.script, d.style)}
    missing = wanted - set(files)
    if missing:
        raise RuntimeError(f"demo files missing from {source}: "
                           f"{sorted(str(m) for m in missing)}")
    return files


def install(static: Path, source: Path = SOURCE) -> Path:
    """Copy the demos' tree into ``static/demos`` unchanged; the folder it made."""
    dest = static / TARGET
    for rel in served_files(source):
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / rel, dest / rel)
    return dest


def demos_on_page(body: str) -> list[PageDemo]:
    """The demos whose element a page's HTML body holds, in the table's order."""
    return [d for d in DEMOS if d.on_page(body)]


def _copy(app: Sphinx) -> None:
    if app.builder.format == "html":
        install(Path(app.outdir) / "_static")


def _add_to_page(app: Sphinx, pagename: str, templatename: str, context: dict,
                 doctree) -> None:
    # On html-page-context, add_js_file and add_css_file add to this page only
    # (Sphinx resets the lists before the next page).
    demos = demos_on_page(context.get("body", ""))
    if not demos:
        return
    app.add_css_file(KIT_STYLE, priority=450)
    for demo in demos:
        mark, style, script = demo.head()
        if mark:
            app.add_js_file(None, body=mark, priority=100)
        app.add_css_file(style)
        app.add_js_file(script, type="module")


def setup(app: Sphinx) -> dict:
    """Connect the demos to a Sphinx build."""
    app.connect("builder-inited", _copy)
    app.connect("html-page-context", _add_to_page)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
