"""Repair two things in the finished pages that make them invalid or hard to read aloud.

- **Repeated ids.**  sphinx-proof and sphinx-exercise give every theorem, lemma,
  exercise and solution body the same id (``proof-content``, ``exercise-content``,
  ``solution-content``; an unlabelled proof is ``proof``), so a page with two of them
  repeats an id, which HTML forbids and which breaks ``aria-labelledby`` and fragment
  links.  The first element keeps the id; each later one becomes ``ID-2``, ``ID-3``...
  (a number no other id of the page has).
- **Header cells without scope.**  The tables of pandas (chapters 5 and 6) and of
  Markdown give their ``<th>`` no ``scope``, so a screen reader must guess what a header
  labels.  A ``<th>`` in a ``<thead>`` gets ``scope="col"``, any other ``scope="row"``;
  an empty ``<th>`` (the corner of a pandas table, or of a Markdown table whose first
  column has no heading, which docutils writes as ``<th scope="col"><p></p></th>``)
  labels nothing and becomes a ``<td>`` (axe-core's rule "empty-table-header").

Both are repaired on the written files once the build has finished, so the repairs
cover everything a page holds: the theme's template, the doctree, and the raw HTML of
notebook outputs.  Each repair is idempotent; a page that needs none is not rewritten.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from sphinx.application import Sphinx

SKIP_DIRS = {"_static", "_sources", "_images", "_downloads", "jupyter_execute"}
_ID_ATTR = re.compile(r"""(\sid\s*=\s*)("[^"]*"|'[^']*'|[^\s"'>]+)""", re.I)
_SCOPE_ATTR = re.compile(r"""\sscope\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)""", re.I)
# elements that hold nothing to read by themselves: a cell of only these is empty
_HOLDERS = {"p", "span", "div", "br"}


@dataclass
class _Cell:
    start: int
    tag_text: str
    section: str
    has_scope: bool
    content: bool = False
    end: tuple[int, int] | None = None  # the end tag's span


class _Scan(HTMLParser):
    """Where the ids and the header cells of a page are, as offsets into its text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.ids: list[tuple[int, str, str]] = []  # (start, tag text, id)
        self.cells: list[_Cell] = []
        self._lines = [0]
        for m in re.finditer("\n", self.text):
            self._lines.append(m.end())
        self._sections: list[str] = []
        self._open: list[_Cell] = []

    def _offset(self) -> int:
        line, col = self.getpos()
        return self._lines[line - 1] + col

    def _started(self, tag: str, attrs: list[tuple[str, str | None]], start: int,
                 text: str) -> None:
        for name, value in attrs:
            if name == "id" and value is not None:
                self.ids.append((start, text, value))
        if self._open and tag not in _HOLDERS:
            self._open[-1].content = True
        if tag == "table":
            self._sections.append("table")
        elif tag in ("thead", "tbody", "tfoot"):
            self._sections.append(tag)
        elif tag == "th":
            scoped = any(name == "scope" and value for name, value in attrs)
            section = next((s for s in reversed(self._sections) if s != "table"), "tbody")
            cell = _Cell(start, text, section, scoped)
            self.cells.append(cell)
            self._open.append(cell)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._started(tag, attrs, self._offset(), self.get_starttag_text() or "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._started(tag, attrs, self._offset(), self.get_starttag_text() or "")
        if tag == "th" and self._open:
            self._open.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag in ("thead", "tbody", "tfoot", "table"):
            while self._sections:
                if self._sections.pop() in (tag, "table"):
                    break
        elif tag == "th" and self._open:
            start = self._offset()
            close = self.text.index(">", start) + 1
            self._open.pop().end = (start, close)

    def handle_data(self, data: str) -> None:
        if self._open and data.strip():
            self._open[-1].content = True

    def handle_entityref(self, name: str) -> None:
        if self._open and name != "nbsp":
            self._open[-1].content = True

    def handle_charref(self, name: str) -> None:
        if self._open:
            self._open[-1].content = True


def repair(text: str) -> str:
    """A page's HTML with repeated ids renamed and header cells scoped (see above)."""
    scan = _Scan(text)
    scan.feed(text)
    scan.close()
    edits: dict[int, tuple[int, str]] = {}  # start -> (end, replacement)
    taken = {value for _, _, value in scan.ids}
    seen: set[str] = set()
    renamed: dict[int, str] = {}
    for start, _, value in scan.ids:
        if value not in seen:
            seen.add(value)
            continue
        n = 2
        while f"{value}-{n}" in taken:
            n += 1
        renamed[start] = f"{value}-{n}"
        taken.add(renamed[start])
    tags: dict[int, str] = {start: tag_text for start, tag_text, _ in scan.ids}
    for cell in scan.cells:
        tags[cell.start] = cell.tag_text
    cells = {cell.start: cell for cell in scan.cells}
    for start, tag_text in tags.items():
        new = tag_text
        if start in renamed:
            new = _ID_ATTR.sub(lambda m, v=renamed[start]: f'{m.group(1)}"{v}"', new, count=1)
        cell = cells.get(start)
        if cell is not None and not cell.content and cell.end is not None:
            new = "<td" + _SCOPE_ATTR.sub("", new[3:])
            edits[cell.end[0]] = (cell.end[1], "</td>")
        elif cell is not None and not cell.has_scope:
            scope = "col" if cell.section == "thead" else "row"
            new = f'<th scope="{scope}"' + new[3:]
        if new != tag_text:
            edits[start] = (start + len(tag_text), new)
    if not edits:
        return text
    out, last = [], 0
    for start in sorted(edits):
        end, new = edits[start]
        out.append(text[last:start])
        out.append(new)
        last = end
    out.append(text[last:])
    return "".join(out)


def pages(outdir: Path) -> list[Path]:
    """The site's HTML pages (not the files under _static and the like)."""
    return sorted(p for p in outdir.rglob("*.html")
                  if not SKIP_DIRS & set(p.relative_to(outdir).parts))


def _repair_pages(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    for page in pages(Path(app.outdir)):
        text = page.read_text(encoding="utf-8")
        fixed = repair(text)
        if fixed != text:
            page.write_text(fixed, encoding="utf-8")


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", _repair_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
