"""Take sphinx-thebe's scripts off every page, so that pages need no other host at read time.

Jupyter Book always loads that extension, whose page scripts would fetch thebe from
unpkg.com on demand and which declare ``THEBE_JS_URL`` twice (an error in the reader's
console).  The book offers Binder and Colab instead of in-page execution, so the scripts
are of no use to it.  (Formulas are typeset when the site is built: ``static_math.py``.)
"""

from __future__ import annotations

from sphinx.application import Sphinx


def is_thebe_script(script: object) -> bool:
    """Whether a page script is sphinx-thebe's (its loader or its inline settings)."""
    filename = str(getattr(script, "filename", "") or "")
    body = str(getattr(script, "attributes", {}).get("body", ""))
    return filename.endswith("sphinx-thebe.js") or "thebe" in filename or "THEBE_JS_URL" in body


def _drop_thebe(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    scripts = context.get("script_files")
    if scripts:
        scripts[:] = [s for s in scripts if not is_thebe_script(s)]
    styles = context.get("css_files")
    if styles:
        styles[:] = [s for s in styles if "thebe" not in str(getattr(s, "filename", ""))]


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", _drop_thebe)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
