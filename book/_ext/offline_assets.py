"""Serve MathJax from the site itself, so that pages need no other host at read time.

MathJax 3 comes from the PyPI package ``django-static-mathjax`` (pinned in
requirements.txt), which ships MathJax's browser files.  This extension points Sphinx's
``mathjax_path`` at ``_static/mathjax/tex-chtml.js`` and, after each HTML build, copies
the files that script needs (the script, its fonts, and the TeX extensions it may load
on demand) into the build's ``_static/mathjax``.

With MathJax's lazy extension (``_config.yml``) a page typesets the formulas in view
first; ``mathjax-background.js``, added to every page here, typesets the others when
the browser is idle, so that every formula gets its hidden MathML for screen readers
without delaying the page.

It also takes sphinx-thebe's scripts off every page.  Jupyter Book always loads that
extension, whose page scripts would fetch thebe from unpkg.com on demand and which
declare ``THEBE_JS_URL`` twice (an error in the reader's console).  The book offers
Binder and Colab instead of in-page execution, so the scripts are of no use to it.
"""

from __future__ import annotations

import importlib.resources
import shutil
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.config import Config

SCRIPT = "tex-chtml.js"
BACKGROUND = Path(__file__).resolve().parent / "mathjax-background.js"
NEEDED = (SCRIPT, "output/chtml/fonts", "input/tex/extensions", "ui", "a11y/assistive-mml.js")


def mathjax_source() -> Path:
    """Folder of MathJax's browser bundle inside the installed package."""
    root = importlib.resources.files("mathjax") / "static" / "mathjax" / "es5"
    path = Path(str(root))
    if not (path / SCRIPT).is_file():
        raise RuntimeError(f"MathJax's {SCRIPT} not found under {path}")
    return path


def _configure(app: Sphinx, config: Config) -> None:
    # A relative mathjax_path is resolved against the site's _static folder.
    config.mathjax_path = f"mathjax/{SCRIPT}"


def _copy_background(app: Sphinx) -> None:
    # Before the pages are written, so that Sphinx adds the file's checksum to its URL.
    if app.builder.format != "html":
        return
    dest = Path(app.outdir) / "_static"
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(BACKGROUND, dest / BACKGROUND.name)


def _copy(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    src = mathjax_source()
    dest = Path(app.outdir) / "_static" / "mathjax"
    for item in NEEDED:
        s, d = src / item, dest / item
        if not s.exists():
            continue
        d.parent.mkdir(parents=True, exist_ok=True)
        if s.is_dir():
            shutil.copytree(s, d, dirs_exist_ok=True)
        else:
            shutil.copy2(s, d)


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
    app.connect("config-inited", _configure)
    app.connect("builder-inited", _copy_background)
    app.add_js_file(BACKGROUND.name, loading_method="defer")
    app.connect("html-page-context", _drop_thebe)
    app.connect("build-finished", _copy)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
