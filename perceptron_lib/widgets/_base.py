"""Common machinery of the explorers: a picture of the state, a status line, the live interface."""

from __future__ import annotations

import base64
import html
import io
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import ipywidgets as w
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from .. import plotting

_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")

#: The least width of an explorer's slider: its description, a track of at least 150 px
#: and its readout.  Side by side in a panel, JupyterLab squeezed the tracks to 17-124 px.
SLIDER_WIDTH = "330px"


def slider_row() -> w.Layout:
    """The layout of an explorer's slider: a row of its own, never below SLIDER_WIDTH."""
    return w.Layout(width="100%", min_width=SLIDER_WIDTH)

AVERAGE_COLOR = "#CC79A7"  # reddish purple (Okabe-Ito), the averaged hypothesis

LIVE_HINT = (
    "A picture of the explorer's starting state. To use it, run this page as a notebook: "
    "launch it (rocket icon at the top of the page) or download it."
)


def _fmt_vec(v: np.ndarray) -> str:
    return "(" + ", ".join(f"{x:.4g}" for x in v) + ")"


def _view_box(X: np.ndarray, pad: float = 1.0) -> tuple[tuple[float, float], tuple[float, float]]:
    lo = X.min(axis=0) - pad
    hi = X.max(axis=0) + pad
    span = float(max(hi - lo))
    mid = (lo + hi) / 2
    return ((mid[0] - span / 2, mid[0] + span / 2), (mid[1] - span / 2, mid[1] + span / 2))


def _legend(ax, entries: list[str], labels: dict[str, str] | None = None, **kw) -> None:
    """A legend built from stand-in handles, so that it can be drawn once and kept."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    names = {"boundary": "boundary", "normal": r"normal $\theta$", "pos": "$y=+1$",
             "neg": "$y=-1$", "ring": "current example", "band": "margin band",
             "average": "average"}
    names.update(labels or {})
    handles = {
        "boundary": Line2D([], [], color=plotting.BOUNDARY_COLOR, linewidth=2),
        "normal": Line2D([], [], color=plotting.NORMAL_COLOR, linewidth=2),
        "average": Line2D([], [], color=AVERAGE_COLOR, linewidth=2.5, linestyle="--"),
        "pos": Line2D([], [], color=plotting.POSITIVE_COLOR, marker="+", linestyle="",
                      markersize=9, markeredgewidth=2.5),
        "neg": Line2D([], [], color=plotting.NEGATIVE_COLOR, marker="_", linestyle="",
                      markersize=9, markeredgewidth=2.5),
        "ring": Line2D([], [], color="black", marker="o", linestyle="", markersize=10,
                       markerfacecolor="none"),
        "band": Patch(color=plotting.BAND_COLOR, alpha=0.25),
        "true": Line2D([], [], color="#777777", linestyle="--", linewidth=2),
        "circle": Line2D([], [], color="#777777", linestyle="--", linewidth=1),
        "message": Line2D([], [], color="black", marker="*", linestyle="", markersize=12),
        "support": Line2D([], [], color="black", marker="o", linestyle="", markersize=11,
                          markerfacecolor="none", markeredgewidth=1.2),
    }
    ax.legend([handles[e] for e in entries], [names[e] for e in entries],
              framealpha=0.9, **{"loc": "upper left", "fontsize": 8, **kw})


class Explorer:
    """Common machinery: a picture of the state, a status line, and the live interface."""

    figsize: tuple[float, float] = (5.0, 5.2)
    dpi: int = 90
    # The part of the figure the axes may fill (left, bottom, right, top); the rest is
    # kept for a legend below the axes where tight_layout would not leave it room.
    layout_rect: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)

    def __init__(self) -> None:
        # The picture is shown at the size it is drawn (never enlarged, which blurs it),
        # and shrinks with a narrow cell.
        width, _ = self.pixel_size
        self._image = w.Image(format="png", layout=w.Layout(
            width=f"{width}px", max_width="100%", height="auto", flex="0 1 auto",
            object_fit="contain"))
        self._status = w.HTML()
        self._controls: list[w.Widget] = []
        self._ui: w.Widget | None = None
        self._quiet = False
        self._fig: Figure | None = None
        self._background = None
        self._static_key: object = None
        self._dynamic: list = []

    @property
    def pixel_size(self) -> tuple[int, int]:
        """Width and height of the picture in pixels: ``figsize`` times ``dpi``."""
        return (round(self.figsize[0] * self.dpi), round(self.figsize[1] * self.dpi))

    @contextmanager
    def _syncing(self) -> Iterator[None]:
        """Set controls from code without their observers firing."""
        self._quiet = True
        try:
            yield
        finally:
            self._quiet = False

    def _observe(self, controls: list[w.Widget], handler: Callable[[], None]) -> None:
        """Call ``handler`` and redraw whenever the user moves one of ``controls``."""

        def on_change(_change) -> None:
            if not self._quiet:
                handler()
                self.refresh()

        for c in controls:
            c.observe(on_change, names="value")

    # -- what subclasses provide -------------------------------------------------------
    def draw_static(self, fig: Figure) -> None:  # pragma: no cover - abstract
        """Create the axes and everything that does not change when a control moves."""
        raise NotImplementedError

    def draw_dynamic(self, fig: Figure) -> None:  # pragma: no cover - abstract
        """Add what the current state shows, to the axes made by :meth:`draw_static`."""
        raise NotImplementedError

    def static_key(self) -> object:
        """Anything :meth:`draw_static` depends on; a new value redraws the static part."""
        return None

    def status(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def alt_text(self) -> str:  # pragma: no cover - abstract
        """What the picture shows, in words, with the book's symbols (see :func:`for_people`)."""
        raise NotImplementedError

    # -- shared -----------------------------------------------------------------------
    def figure(self) -> Figure:
        """A new matplotlib figure of the current state (not registered with pyplot)."""
        fig = Figure(figsize=self.figsize, dpi=self.dpi)
        self.draw_static(fig)
        fig.tight_layout(rect=self.layout_rect)
        self.draw_dynamic(fig)
        return fig

    def png(self) -> bytes:
        """The current state as PNG bytes.

        The static part (axes, ticks, labels, legend) is drawn once and kept as pixels;
        each redraw restores those pixels and draws only what the state changes, the way
        animations blit.  ``bench/bench_widgets.py`` measures the time per redraw.
        """
        if self._fig is None:
            self._fig = Figure(figsize=self.figsize, dpi=self.dpi)
            FigureCanvasAgg(self._fig)
        fig = self._fig
        key = self.static_key()
        if self._background is None or key != self._static_key:
            fig.clear()
            self.draw_static(fig)
            fig.tight_layout(rect=self.layout_rect)
            fig.canvas.draw()
            self._background = fig.canvas.copy_from_bbox(fig.bbox)
            self._static_key = key
            self._dynamic = []
        else:
            fig.canvas.restore_region(self._background)
        for artist in self._dynamic:
            artist.remove()
        before = {ax: set(ax.get_children()) for ax in fig.axes}
        self.draw_dynamic(fig)
        self._dynamic = [a for ax in fig.axes for a in ax.get_children()
                         if a not in before[ax]]
        for artist in sorted(self._dynamic, key=lambda a: a.get_zorder()):
            fig.draw_artist(artist)
        for ax in fig.axes:
            fig.draw_artist(ax.title)
            if ax.get_legend() is not None:
                fig.draw_artist(ax.get_legend())
        width, height = fig.canvas.get_width_height()
        image = Image.frombuffer("RGBA", (width, height), fig.canvas.buffer_rgba(), "raw",
                                 "RGBA", 0, 1)
        buf = io.BytesIO()
        image.save(buf, format="png", compress_level=1)
        return buf.getvalue()

    def refresh(self) -> None:
        """Redraw the picture and the status line (what every control does last)."""
        self._image.value = self.png()
        self._status.value = self.status()

    @property
    def ui(self) -> w.Widget:
        """The live interface: the picture, with the controls and status line beside it.

        Where the cell is wide enough the controls stand to the right of the picture, so
        that a whole explorer fits in a laptop's window (1366 x 768); in a narrow cell
        they wrap below it.
        """
        if self._ui is None:
            self.refresh()
            panel = w.VBox([*self._controls, self._status], layout=w.Layout(
                flex="1 1 300px", min_width="260px", max_width="520px",
                margin="0 0 0 12px"))
            self._ui = w.Box([self._image, panel], layout=w.Layout(
                display="flex", flex_flow="row wrap", align_items="flex-start",
                width="100%"))
        return self._ui

    def static_html(self) -> str:
        """A picture of the state with alt text, and how to run the explorer live."""
        data = base64.b64encode(self.png()).decode("ascii")
        width, height = self.pixel_size
        return (
            '<figure class="explorer-static">'
            f'<img src="data:image/png;base64,{data}" alt="{html.escape(self.alt_text())}" '
            f'width="{width}" height="{height}" style="max-width:100%;height:auto"/>'
            f"<figcaption>{html.escape(LIVE_HINT)}</figcaption></figure>"
        )

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = dict(self.ui._repr_mimebundle_(include=include, exclude=exclude) or {})
        bundle["text/html"] = self.static_html()
        bundle["text/plain"] = f"{type(self).__name__}: {self.alt_text()}"
        return bundle




_MINUS = re.compile(r"(^|[\s(\[,=/:])-(?=[\d.])")


def for_people(text: str) -> str:
    """Text for a reader, as the demos write it: a minus sign (U+2212) before a number
    where the text has a hyphen, so that an alt text says "θ = −1" and not "theta = -1"."""
    return _MINUS.sub("\\1\u2212", text)
