"""Keep a page's text still while MathJax typesets the formulas in view.

Until MathJax runs, a formula is its TeX source (``\\(\\theta_0\\)``), wider than the
typeset formula; when MathJax replaces it the lines rewrap, and when MathJax's fonts
arrive they rewrap again.  Each time the text below moves: Lighthouse measured a
cumulative layout shift of 0.1 to 0.25 on the chapters (bench/README.md).

On every page with a formula in its first screen (its first formula comes after less
than ``FIRST_SCREEN_CHARS`` characters of text) this extension adds to the head:

- a preload of MathJax's lazy-typesetting module and of its three most used fonts,
  so that they arrive with MathJax rather than one round trip after it;
- a small script (``math-settle.js``) that hides the article, keeping its room, until
  the formulas in view are typeset with their fonts, and for at most two seconds; the
  header and the sidebars show at once.

Pages opened without JavaScript show everything as before (the class that hides the
article is set by the script).  Pages whose first formula is further down (the
introduction, chapter 6) show at once: MathJax typesets it before the reader scrolls to it.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

from sphinx.application import Sphinx

SCRIPT = (Path(__file__).resolve().parent / "math-settle.js").read_text()
STYLE = "<style>html.math-settling .bd-article { visibility: hidden; }</style>\n"
FONTS = ("MathJax_Zero.woff", "MathJax_Main-Regular.woff", "MathJax_Math-Italic.woff")
# About as much text as the first screen of a chapter shows at 1350 x 940 (title, goals
# box, first paragraphs); pages whose first formula comes later keep no formula in view
# at load, so there is nothing to wait for.
FIRST_SCREEN_CHARS = 1500
_MATH = re.compile(r"""class\s*=\s*(["'])(?:(?!\1).)*(?<![\w-])math(?![\w-])""", re.S)


def has_math(body: str) -> bool:
    """Whether a page body holds a formula (Sphinx writes each with class ``math``)."""
    return bool(_MATH.search(body or ""))


def text_before_math(body: str) -> int | None:
    """How many characters of text a page body shows before its first formula.

    None when the body has no formula.  Tags are dropped and runs of white space count
    as one character.
    """
    found = _MATH.search(body or "")
    if found is None:
        return None
    start = body.rfind("<", 0, found.start())  # the tag that holds the class
    text = re.sub(r"<[^>]*>", " ", body[:start])
    return len(" ".join(unescape(text).split()))


def head_links(static: str) -> str:
    """The preload links, with ``static`` the page's relative path to ``_static``."""
    base = f"{static}/mathjax"
    links = [f'<link rel="preload" href="{base}/ui/lazy.js" as="script" />']
    links += [f'<link rel="preload" href="{base}/output/chtml/fonts/woff-v2/{font}" '
              'as="font" type="font/woff" crossorigin="anonymous" />' for font in FONTS]
    return "\n".join(links) + "\n"


def _page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    before = text_before_math(context.get("body", ""))
    if before is None or before > FIRST_SCREEN_CHARS:
        return
    static = context["pathto"]("_static", 1)
    context["metatags"] = context.get("metatags", "") + head_links(static) + STYLE
    app.add_js_file(None, body=SCRIPT, priority=100)


def setup(app: Sphinx) -> dict:
    """Connect the extension (every chapter's formulas)."""
    app.connect("html-page-context", _page)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
