"""Keep a page's text still while MathJax typesets the formulas in view.

Until MathJax runs, a formula is its TeX source (``\\(\\theta_0\\)``), wider than the
typeset formula; when MathJax replaces it the lines rewrap, and when MathJax's fonts
arrive they rewrap again.  Each time the text below moves: Lighthouse measured a
cumulative layout shift of 0.1 to 0.25 on the chapters (bench/README.md).

On every page with a formula this extension adds to the head:

- a preload of MathJax's lazy-typesetting module and of its three most used fonts,
  so that they arrive with MathJax rather than one round trip after it;
- a small script (``math-settle.js``) that hides the article, keeping its room, until
  the formulas in view are typeset with their fonts, and for at most two seconds; the
  header and the sidebars show at once.

Pages opened without JavaScript show everything as before (the class that hides the
article is set by the script).  Chapters 1 to 7 all have formulas.
"""

from __future__ import annotations

import re
from pathlib import Path

from sphinx.application import Sphinx

SCRIPT = (Path(__file__).resolve().parent / "math-settle.js").read_text()
STYLE = "<style>html.math-settling .bd-article { visibility: hidden; }</style>\n"
FONTS = ("MathJax_Zero.woff", "MathJax_Main-Regular.woff", "MathJax_Math-Italic.woff")
_MATH = re.compile(r"""class\s*=\s*(["'])(?:(?!\1).)*(?<![\w-])math(?![\w-])""", re.S)


def has_math(body: str) -> bool:
    """Whether a page body holds a formula (Sphinx writes each with class ``math``)."""
    return bool(_MATH.search(body or ""))


def head_links(static: str) -> str:
    """The preload links, with ``static`` the page's relative path to ``_static``."""
    base = f"{static}/mathjax"
    links = [f'<link rel="preload" href="{base}/ui/lazy.js" as="script" />']
    links += [f'<link rel="preload" href="{base}/output/chtml/fonts/woff-v2/{font}" '
              'as="font" type="font/woff" crossorigin="anonymous" />' for font in FONTS]
    return "\n".join(links) + "\n"


def _page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if not has_math(context.get("body", "")):
        return
    static = context["pathto"]("_static", 1)
    context["metatags"] = context.get("metatags", "") + head_links(static) + STYLE
    app.add_js_file(None, body=SCRIPT, priority=100)


def setup(app: Sphinx) -> dict:
    """Connect the extension (every chapter's formulas)."""
    app.connect("html-page-context", _page)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
