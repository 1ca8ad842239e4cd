"""One style sheet of an extension served on every HTML page (``a11y``, ``image_sizes``).

``add_style_sheet(app, css)`` copies the file into the build's ``_static`` when the
builder starts and links it from every page.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from sphinx.application import Sphinx


def add_style_sheet(app: Sphinx, css: Path) -> None:
    """Serve ``css`` (a file beside the extension) on every HTML page."""

    def copy(app: Sphinx) -> None:
        if app.builder.format != "html":
            return
        dest = Path(app.outdir) / "_static"
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(css, dest / css.name)

    app.connect("builder-inited", copy)
    app.add_css_file(css.name)
