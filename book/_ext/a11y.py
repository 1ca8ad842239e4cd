"""Small accessibility repairs to the HTML that the book's extensions write.

axe-core (tests/browser) flagged three things that are not the book's own markup:

- sphinxcontrib-bibtex writes each reference as ``role="doc-biblioentry"`` inside a
  ``role="list"``: the role is deprecated, and a list must hold list items.  Entries
  become ``role="listitem"``.
- myst-nb names the summary of every folded code cell "Toggle hidden content" with
  ``aria-label``, which hides its visible text ("Show code cell source") from screen
  readers; the label is dropped so the visible text names it.
- The theme's link blue is a little too light on the tinted boxes (``a11y.css``).

HTML_CodeSniffer (tests/browser) flagged an empty heading on the pages that are no
document (the index, the proof index): sphinx-book-theme heads every page with a
print-only ``<h1>`` of the page's title, which it knows for documents only.  Those pages
get their own title (``Index``, ``Proof Index``) there.

The theme's search button is fixed by a template (``book/_templates/search-button-field.html``).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.locale import _
from static_css import add_style_sheet

CSS = Path(__file__).resolve().parent / "a11y.css"

_BIBLIOENTRY = re.compile(r'role="doc-biblioentry"')
_SUMMARY_LABEL = re.compile(r'<summary aria-label="Toggle hidden content">')


def repair(body: str) -> str:
    """The page body with the repairs above applied."""
    body = _BIBLIOENTRY.sub('role="listitem"', body)
    return _SUMMARY_LABEL.sub("<summary>", body)


_TAG = re.compile(r"<[^>]*>")


def print_title(context: dict, templatename: str) -> str | None:
    """The title for the theme's print-only heading where the theme has none, else None.

    Sphinx's index templates set their title themselves (``{% set title = ... %}``): the
    general index is "Index", a domain's index (the proof index) has it in ``indextitle``.
    """
    if context.get("pagetitle"):
        return None
    title = context.get("title") or context.get("indextitle")
    if not title and templatename == "genindex.html":
        title = _("Index")
    if not title:
        return None
    return html.escape(html.unescape(_TAG.sub("", str(title))).strip()) or None


def _page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if "body" in context:
        context["body"] = repair(context["body"])
    title = print_title(context, templatename)
    if title is not None:
        context["pagetitle"] = title


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", _page)
    add_style_sheet(app, CSS)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
