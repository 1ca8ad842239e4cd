"""A chapter's load kept short: sections laid out in idle time, tab stops measured lazily.

A chapter page holds some twenty thousand elements (its formulas are typeset when the
site is built, :mod:`static_math`).  Measured as it happens (``bench/bench_lighthouse.py
--provided``), the load blocked the main thread for 0.5 to 1.3 s, for two reasons:

- the browser laid out the whole chapter several times while the page arrived;
- the theme (pydata-sphinx-theme) then measured every code block and output, one after
  the other, to give those that scroll sideways a tab stop, and did so again after every
  change to the page, which a playing demo makes several times a second.

``page-load.css`` lets the browser skip the sections below the first screen while the
page loads; ``page-load.js`` lays them out one at a time when the page is idle, and gives
the tab stops (the theme's blocks and the displayed formulas) in the same pass.  The
theme's own pass is taken out of its script when the site is built: the build stops
with a message if a new version of the theme no longer has it where this module looks.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

HERE = Path(__file__).resolve().parent
FILES = (HERE / "page-load.js", HERE / "page-load.css")
THEME_SCRIPT = Path("_static") / "scripts" / "pydata-sphinx-theme.js"

#: The theme's call of its tab-stop pass at load (its minified name varies by version).
_THEME_CALL = re.compile(
    r'"complete"===document\.readyState\?(?P<f>\w+)\(\):'
    r'window\.addEventListener\("load",(?P=f)\)')
_THEME_PASS = 'function {f}(){{const e=()=>{{document.querySelectorAll(["pre"'
#: The first line of the theme's script once the call is taken out.
MARK = "/* book/_ext/page_load.py: the tab-stop pass is not called at load */\n"


def without_theme_pass(script: str) -> str:
    """The theme's script with its tab-stop pass no longer called at load.

    Raises
    ------
    ValueError
        When the script does not call the pass the way this module knows.
    """
    call = _THEME_CALL.search(script)
    if call is None or _THEME_PASS.format(f=call["f"]) not in script:
        raise ValueError("the theme's tab-stop pass (addTabStopsToScrollableElements) "
                         "was not found in its script")
    return MARK + script[:call.start()] + "void 0" + script[call.end():]


def _copy(app: Sphinx) -> None:
    if app.builder.format != "html":
        return
    dest = Path(app.outdir) / "_static"
    dest.mkdir(parents=True, exist_ok=True)
    for f in FILES:
        shutil.copyfile(f, dest / f.name)


def _patch_theme(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    path = Path(app.outdir) / THEME_SCRIPT
    script = path.read_text(encoding="utf-8")
    if script.startswith(MARK):
        return  # taken out by an earlier build into this folder
    try:
        path.write_text(without_theme_pass(script), encoding="utf-8")
    except ValueError as err:
        raise ExtensionError(f"{path}: {err}; book/_ext/page_load.py must follow the "
                             "theme's new script") from err


def setup(app: Sphinx) -> dict:
    """Connect the extension (every page)."""
    app.connect("builder-inited", _copy)
    app.connect("build-finished", _patch_theme)
    app.add_css_file("page-load.css")
    app.add_js_file("page-load.js", loading_method="defer")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
