"""The HTML writing shared by the in-page demos (chapters 1 to 7).

The playground (chapters 1, 3, 4), the message demo (chapter 5), the offset demo
(chapter 2), the kernel playground (chapter 6) and the margin demo (chapter 7) each write
one ``<div>`` whose attributes carry their data as JSON, with a fallback inside for
readers without JavaScript, and show a live explorer in Jupyter.  This module writes
those parts; each demo module keeps its own data and options.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from typing import Any, Protocol


class Explorer(Protocol):
    """What a demo reads from the widget explorer it wraps."""

    def static_html(self) -> str: ...

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict: ...


def data_json(value: Any) -> str:
    """Compact JSON for a ``data-*`` attribute; NaN and infinity raise ``ValueError``."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def attributes(attrs: Mapping[str, str]) -> str:
    """The attributes ``k="v"``, in order, each value escaped for HTML."""
    return " ".join(f'{k}="{html.escape(v, quote=True)}"' for k, v in attrs.items())


def framed(attrs: Mapping[str, str], prefix: str, fallback: str) -> str:
    """The demo's ``<div>``: a ``{prefix}-frame`` around a ``{prefix}-fallback``.

    The frame keeps the demo's room on the page before its script has run.
    """
    return (f'<div {attributes(attrs)}>\n<div class="{prefix}-frame">\n'
            f'<div class="{prefix}-fallback demo-fallback">\n{fallback}\n</div>\n</div>\n</div>')


def mime_bundle(explorer: Explorer | None, page_html: str, text: str,
                include: Any = None, exclude: Any = None) -> dict:
    """The demo's MIME bundle: the explorer's widget view, if any, and the page's HTML.

    The widget view wins in Jupyter; pages without a kernel drop it
    (``nb_mime_priority_overrides`` in ``_config.yml``) and use the ``text/html``.
    """
    bundle: dict = {}
    if explorer is not None:
        bundle.update(explorer._repr_mimebundle_(include=include, exclude=exclude))
    bundle["text/html"] = page_html
    bundle["text/plain"] = text
    return bundle


class ExplorerElement:
    """A demo's element and, in Jupyter, the explorer it was made from (chapters 2, 6).

    Subclasses set ``html``, ``n_datasets`` and ``_explorer`` (``None`` without an
    explorer), and name themselves in ``kind``.
    """

    kind = "demo"
    html: str
    n_datasets: int
    _explorer: Explorer | None

    def _repr_html_(self) -> str:
        return self.html

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict:
        return mime_bundle(self._explorer, self.html, repr(self), include, exclude)

    def __repr__(self) -> str:
        n = self.n_datasets
        return f"<{self.kind}, {n} data set{'s' if n != 1 else ''}>"
