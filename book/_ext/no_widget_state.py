"""Keep the pages free of saved widget state.

When a chapter is executed for the site, the notebook records the state of every
widget an explorer created, and myst-nb would embed that state in the page for a widget
manager to bring back.  The site has no kernel, so revived sliders would change nothing:
the pages show each explorer's static picture instead (``nb_mime_priority_overrides``
in ``_config.yml``).  This extension drops the saved state, so no page carries dead
controls or asks for a widget manager.
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment


def _drop_widget_state(app: Sphinx, env: BuildEnvironment) -> None:
    for data in getattr(env, "nb_metadata", {}).values():
        js_files = data.get("js_files", {})
        for key in [k for k in js_files if k.startswith("ipywidgets")]:
            del js_files[key]


def setup(app: Sphinx) -> dict:
    app.connect("env-updated", _drop_widget_state)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
