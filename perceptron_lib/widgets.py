"""Explorers: interactive views of the book's ideas for a live Jupyter kernel.

Each explorer is an object with a live ipywidgets interface (``.ui``), methods that do
what its buttons and sliders do (so it can be driven from code and tested), and
``figure()``, which draws its current state.  Put an explorer as the last expression of
a cell: Jupyter shows the live interface, while the book's static pages, which have no
kernel, show a picture of the starting state and say how to run it live (the site is
configured to drop the widget view, so it never shows controls that do nothing).

- :class:`StepTrainer` (chapter 1): the perceptron one example at a time.
- :class:`OffsetExplorer` (chapter 2): 1-D data with a threshold, and the lifted picture.
- :class:`MarginExplorer` (chapter 3): turn and shift a separator, watch the margins.
- :class:`ConvergenceExplorer` (chapter 4): mistakes against the bound ``(R/gamma)^2``.
- :class:`MessageExplorer` (chapter 5): a message, its features and the verdict.
- :class:`KernelExplorer` (chapter 6): the kernel perceptron's boundary as the kernel changes.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

import ipywidgets as w
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Circle
from numpy.typing import ArrayLike
from PIL import Image

from . import plotting
from ._validate import check_data, check_scalar, check_tau, check_theta
from .algorithm import PerceptronResult, perceptron_through_origin, update
from .generate import make_separable
from .margin import mistake_bound, point_margins, radius
from .spam import FEATURE_NAMES, count_message, spam_features, tokenize
from .variants import (
    Kernel,
    KernelResult,
    kernel_perceptron,
    kernel_predict,
    linear_kernel,
    polynomial_kernel,
    rbf_kernel,
)

_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")

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

    def __init__(self) -> None:
        self._image = w.Image(format="png", layout=w.Layout(max_width="100%", height="auto"))
        self._status = w.HTML()
        self._controls: list[w.Widget] = []
        self._ui: w.Widget | None = None
        self._quiet = False
        self._fig: Figure | None = None
        self._background = None
        self._static_key: object = None
        self._dynamic: list = []

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
        raise NotImplementedError

    # -- shared -----------------------------------------------------------------------
    def figure(self) -> Figure:
        """A new matplotlib figure of the current state (not registered with pyplot)."""
        fig = Figure(figsize=self.figsize, dpi=self.dpi)
        self.draw_static(fig)
        fig.tight_layout()
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
            fig.tight_layout()
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
        """The live interface: controls, status line and picture."""
        if self._ui is None:
            self.refresh()
            self._ui = w.VBox([*self._controls, self._status, self._image])
        return self._ui

    def static_html(self) -> str:
        """A picture of the state with alt text, and how to run the explorer live."""
        data = base64.b64encode(self.png()).decode("ascii")
        return (
            '<figure class="explorer-static">'
            f'<img src="data:image/png;base64,{data}" alt="{html.escape(self.alt_text())}" '
            'style="max-width:100%;height:auto"/>'
            f"<figcaption>{html.escape(LIVE_HINT)}</figcaption></figure>"
        )

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = dict(self.ui._repr_mimebundle_(include=include, exclude=exclude) or {})
        bundle["text/html"] = self.static_html()
        bundle["text/plain"] = f"{type(self).__name__}: {self.alt_text()}"
        return bundle


class StepTrainer(Explorer):
    """The perceptron one example at a time (chapter 1).

    Buttons: *Step* considers the next example, *Epoch* finishes the current pass,
    *Run* goes on until a clean pass or ``tau`` passes, *Reset* starts again from
    ``theta = 0``.  The picture shows the boundary and the normal vector, and rings the
    example just considered.  The same moves are the methods :meth:`step`,
    :meth:`epoch`, :meth:`run` and :meth:`reset`; after :meth:`run` the state equals
    what :func:`perceptron_lib.perceptron` returns.  With ``show_average`` it also draws
    the average of the hypothesis over every visit so far (chapter 6), which after
    :meth:`run` equals what :func:`perceptron_lib.averaged_perceptron` returns.  Up to
    ``LABELLED_POINTS`` points carry their index ``x^(i)``.

    Parameters
    ----------
    X : array_like, shape (n, 2)
    y : array_like of -1/+1
    tau : int, default 10
    offset : bool, default True
        False runs PERCEPTRON-THROUGH-ORIGIN (``theta_0`` stays 0).
    show_average : bool, default False
        Also draw the running average of the hypotheses, the averaged perceptron.
    """

    LABELLED_POINTS = 12

    def __init__(self, X: ArrayLike, y: ArrayLike, tau: int = 10, offset: bool = True,
                 show_average: bool = False) -> None:
        super().__init__()
        self.X, self.y = check_data(X, y)
        if self.X.shape[1] != 2:
            raise ValueError(f"StepTrainer draws 2-D data, got {self.X.shape[1]} features")
        self.tau = check_tau(tau)
        self.offset = bool(offset)
        self.show_average = bool(show_average)
        self._xlim, self._ylim = _view_box(self.X)
        buttons = []
        for label, action, tip in (
            ("Step", self.step, "consider the next example"),
            ("Epoch", self.epoch, "finish the current pass over the data"),
            ("Run", self.run, "run until a clean pass or tau passes"),
            ("Reset", self.reset, "start again from theta = 0"),
        ):
            b = w.Button(description=label, tooltip=tip, layout=w.Layout(width="auto"))
            b.on_click(lambda _b, act=action: (act(), self.refresh()))
            buttons.append(b)
        self._controls = [w.HBox(buttons)]
        self.reset()

    def reset(self) -> None:
        """Back to ``theta = 0``, ``theta_0 = 0``, epoch 1, first example."""
        self.theta = np.zeros(2)
        self.theta_0 = 0.0
        self.mistakes = 0
        self.t = 1
        self.i = 0
        self.converged = False
        self._changed = False
        self.last: tuple[int, bool] | None = None  # (index, was it a mistake)
        self.visits = 0
        self._sum_theta = np.zeros(2)
        self._sum_theta_0 = 0.0

    @property
    def average(self) -> tuple[np.ndarray, float] | None:
        """The mean of ``(theta, theta_0)`` after every visit so far; None before the first."""
        if self.visits == 0:
            return None
        return self._sum_theta / self.visits, float(self._sum_theta_0 / self.visits)

    @property
    def done(self) -> bool:
        """True after a clean pass, or once ``tau`` passes are over."""
        return self.converged or self.t > self.tau

    def step(self) -> None:
        """Consider the next example and update if it is a mistake."""
        if self.done:
            return
        i = self.i
        theta, theta_0, updated = update(self.theta, self.theta_0, self.X[i], self.y[i])
        if updated:
            self.theta = theta
            self.theta_0 = theta_0 if self.offset else 0.0
            self.mistakes += 1
            self._changed = True
        self.last = (i, updated)
        self._sum_theta = self._sum_theta + self.theta
        self._sum_theta_0 += self.theta_0
        self.visits += 1
        self.i += 1
        if self.i == len(self.y):
            if not self._changed:
                self.converged = True
            else:
                self.t += 1
                self.i = 0
                self._changed = False

    def epoch(self) -> None:
        """Step to the end of the current pass."""
        if self.done:
            return
        t = self.t
        while not self.done and self.t == t:
            self.step()

    def run(self) -> None:
        """Run until a clean pass or until ``tau`` passes are over."""
        while not self.done:
            self.step()

    def draw_static(self, fig: Figure) -> None:
        ax = fig.add_subplot()
        plotting.style_axes(ax, self._xlim, self._ylim)
        ax.set_title(" ", fontsize=10)
        if len(self.y) <= self.LABELLED_POINTS:
            for k, (a, b) in enumerate(self.X, start=1):
                ax.annotate(f"$x^{{({k})}}$", (a, b), textcoords="offset points",
                            xytext=(7, 5), fontsize=10)
        entries = ["boundary", "normal", "pos", "neg", "ring"]
        if self.show_average:
            entries.insert(1, "average")
        _legend(ax, entries, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3,
                fontsize=8)

    def draw_dynamic(self, fig: Figure) -> None:
        ax = fig.axes[0]
        if np.any(self.theta):
            plotting.plot_boundary(ax, self.theta, self.theta_0)
            plotting.plot_normal(ax, self.theta, self.theta_0)
        avg = self.average if self.show_average else None
        if avg is not None and np.any(avg[0]):
            plotting.plot_boundary(ax, avg[0], avg[1], shade=False, color=AVERAGE_COLOR,
                                   linewidth=2.5, linestyle="--", label=None)
        current = self.last[0] if self.last else self.i
        plotting.plot_points(ax, self.X, self.y, highlight=current)
        ax.set_title(self._headline(), fontsize=10)

    def _headline(self) -> str:
        if self.converged:
            return f"converged: a clean pass in epoch {self.t}"
        if self.t > self.tau:
            return f"stopped after tau = {self.tau} epochs"
        if self.last is None:
            return "theta = 0: every point is on the boundary"
        i, mistake = self.last
        return f"x({i + 1}): " + ("mistake, so an update" if mistake else "correct, no update")

    def status(self) -> str:
        state = "converged" if self.converged else ("stopped" if self.done else "running")
        return (
            f"<b>epoch</b> {min(self.t, self.tau)} &nbsp; <b>next example</b> x({self.i + 1})"
            f" &nbsp; <b>updates</b> {self.mistakes} &nbsp; <b>&theta;</b> = "
            f"{_fmt_vec(self.theta)} &nbsp; <b>&theta;<sub>0</sub></b> = {self.theta_0:g}"
            f" &nbsp; ({state})" + self._average_status()
        )

    def _average_status(self) -> str:
        avg = self.average if self.show_average else None
        if avg is None:
            return ""
        return (f"<br><b>average over {self.visits} visits</b> &nbsp; <b>&theta;&#773;</b> = "
                f"{_fmt_vec(avg[0])} &nbsp; <b>&theta;&#773;<sub>0</sub></b> = {avg[1]:.4g}")

    def alt_text(self) -> str:
        return (
            f"Step-through trainer on {len(self.y)} labelled points, epoch {self.t}, "
            f"{self.mistakes} updates so far, theta = {_fmt_vec(self.theta)}, "
            f"theta_0 = {self.theta_0:g}."
        )


class OffsetExplorer(Explorer):
    """A threshold on the line, and the same classifier after lifting (chapter 2).

    Left: 1-D data and the threshold ``x = -theta_0 / theta``.  Right: the lifted points
    ``(x, 1)`` and the line ``theta x_1 + theta_0 x_2 = 0`` through the origin with its
    normal ``(theta, theta_0)``.  Sliders set ``theta`` and ``theta_0``.
    """

    figsize = (8.0, 3.8)

    def __init__(self, x: ArrayLike, y: ArrayLike, theta: float = -1.0,
                 theta_0: float = 2.5) -> None:
        super().__init__()
        xa = np.asarray(x, dtype=float)
        if xa.ndim != 1:
            raise ValueError(f"x must be 1-D (one number per example), got shape {xa.shape}")
        X, self.y = check_data(xa.reshape(-1, 1), y)
        self.x = X[:, 0]
        self._theta = w.FloatSlider(description="θ", min=-3.0, max=3.0, step=0.1,
                                    continuous_update=True)
        self._theta_0 = w.FloatSlider(description="θ₀", min=-8.0, max=8.0, step=0.1,
                                      continuous_update=True)
        self.set(theta, theta_0)
        self._observe([self._theta, self._theta_0], self._from_sliders)
        self._controls = [w.HBox([self._theta, self._theta_0])]

    def _from_sliders(self) -> None:
        self.theta, self.theta_0 = float(self._theta.value), float(self._theta_0.value)

    def set(self, theta: float, theta_0: float) -> None:
        """Set the classifier (and the sliders)."""
        self.theta = check_scalar(theta, "theta")
        self.theta_0 = check_scalar(theta_0, "theta_0")
        with self._syncing():
            self._theta.value, self._theta_0.value = self.theta, self.theta_0

    @property
    def errors(self) -> int:
        """Number of misclassified points (a point on the threshold counts as one)."""
        return int(np.sum(self.y * (self.theta * self.x + self.theta_0) <= 0))

    def _limits(self) -> tuple[float, float, float]:
        lo, hi = float(self.x.min()) - 1.5, float(self.x.max()) + 1.5
        return lo, hi, max(abs(lo), abs(hi), 2.0)

    def draw_static(self, fig: Figure) -> None:
        ax1, ax2 = fig.subplots(1, 2)
        lo, hi, box = self._limits()
        ax1.set_xlim(lo, hi)
        ax1.set_ylim(-1, 1)
        ax1.axhline(0, color="#bbbbbb", linewidth=0.8, zorder=0)
        ax1.set_yticks([])
        ax1.set_xlabel("$x$")
        ax1.set_title(" ", fontsize=10)
        _legend(ax1, ["pos", "neg", "boundary"], {"boundary": "threshold"})
        plotting.style_axes(ax2, (-box, box), (-box, box))
        ax2.set_xlabel("$x$")
        ax2.set_ylabel("lifted coordinate")
        ax2.set_title(" ", fontsize=10)
        _legend(ax2, ["boundary", "normal", "pos", "neg"],
                {"boundary": "boundary through 0", "normal": r"$(\theta, \theta_0)$"},
                loc="lower left", fontsize=7)

    def draw_dynamic(self, fig: Figure) -> None:
        ax1, ax2 = fig.axes
        lo, hi, box = self._limits()
        if self.theta != 0:
            cut = -self.theta_0 / self.theta
            ax1.axvline(cut, color=plotting.BOUNDARY_COLOR, linewidth=2.0)
            side = (cut, hi) if self.theta > 0 else (lo, cut)
            ax1.axvspan(*side, color=plotting.POSITIVE_COLOR, alpha=0.08)
        plotting.plot_points(ax1, np.column_stack([self.x, np.zeros_like(self.x)]), self.y)
        ax1.set_xlim(lo, hi)
        ax1.set_ylim(-1, 1)
        ax1.set_title(f"on the line: {self.errors} misclassified", fontsize=10)
        normal = np.array([self.theta, self.theta_0])
        if np.any(normal):
            plotting.plot_boundary(ax2, normal, 0.0)
            plotting.plot_normal(ax2, normal, 0.0,
                                 length=min(float(np.linalg.norm(normal)), box * 0.8))
        plotting.plot_points(ax2, np.column_stack([self.x, np.ones_like(self.x)]), self.y)
        ax2.set_title("lifted: (x, 1)", fontsize=10)

    def status(self) -> str:
        cut = "none" if self.theta == 0 else f"{-self.theta_0 / self.theta:.3g}"
        return (f"<b>&theta;</b> = {self.theta:g} &nbsp; <b>&theta;<sub>0</sub></b> = "
                f"{self.theta_0:g} &nbsp; <b>threshold</b> x = {cut} &nbsp; "
                f"<b>misclassified</b> {self.errors}")

    def alt_text(self) -> str:
        return (f"Offset explorer: {len(self.y)} points on a line with theta = {self.theta:g} "
                f"and theta_0 = {self.theta_0:g} ({self.errors} misclassified), and the "
                "same points lifted to (x, 1) with the boundary through the origin.")


class MarginExplorer(Explorer):
    """Turn and shift a separator and watch every point's margin (chapter 3).

    The separator has unit normal ``(cos angle, sin angle)`` and offset ``shift``.  Each
    point is joined to the boundary by a dotted segment labelled with its margin; the
    point of smallest margin is ringed, and when every margin is positive the margin
    band of the data set is drawn.
    """

    def __init__(self, X: ArrayLike, y: ArrayLike, angle: float = 45.0,
                 shift: float = 0.0) -> None:
        super().__init__()
        self.X, self.y = check_data(X, y)
        if self.X.shape[1] != 2:
            raise ValueError(f"MarginExplorer draws 2-D data, got {self.X.shape[1]} features")
        self._xlim, self._ylim = _view_box(self.X)
        reach = float(radius(self.X)) + 1.0
        self._angle = w.FloatSlider(description="angle °", min=0.0, max=360.0, step=1.0)
        self._shift = w.FloatSlider(description="θ₀", min=-reach, max=reach, step=0.05)
        self.set(angle, shift)
        self._observe([self._angle, self._shift], self._from_sliders)
        self._controls = [w.HBox([self._angle, self._shift])]

    def _from_sliders(self) -> None:
        self.angle, self.shift = float(self._angle.value), float(self._shift.value)

    def set(self, angle: float, shift: float) -> None:
        """Set the separator: normal angle in degrees and offset."""
        self.angle = check_scalar(angle, "angle") % 360.0
        self.shift = check_scalar(shift, "shift")
        with self._syncing():
            self._angle.value, self._shift.value = self.angle, self.shift

    @property
    def theta(self) -> np.ndarray:
        a = np.deg2rad(self.angle)
        return np.array([np.cos(a), np.sin(a)])

    @property
    def margins(self) -> np.ndarray:
        """Margin of every point with respect to the current separator."""
        return point_margins(self.X, self.y, self.theta, self.shift)

    @property
    def margin(self) -> float:
        """Margin of the data set: the smallest point margin."""
        return float(self.margins.min())

    def draw_static(self, fig: Figure) -> None:
        ax = fig.add_subplot()
        plotting.style_axes(ax, self._xlim, self._ylim)
        ax.set_title(" ", fontsize=10)
        _legend(ax, ["boundary", "normal", "band", "pos", "neg", "ring"],
                {"ring": "smallest margin"}, loc="upper center", bbox_to_anchor=(0.5, -0.14),
                ncol=3, fontsize=8)

    def draw_dynamic(self, fig: Figure) -> None:
        ax = fig.axes[0]
        th, t0, m = self.theta, self.shift, self.margins
        if m.min() > 0:
            plotting.plot_margin_band(ax, th, t0, float(m.min()))
        plotting.plot_boundary(ax, th, t0)
        plotting.plot_normal(ax, th, t0)
        feet = self.X - (self.X @ th + t0)[:, None] * th
        for (a, b), (fa, fb), mi in zip(self.X, feet, m, strict=True):
            ax.plot([a, fa], [b, fb], linestyle=":", color="#555555", linewidth=1)
            ax.annotate(f"{mi:.2f}", (a, b), textcoords="offset points", xytext=(6, -12),
                        fontsize=8, color=plotting.NEGATIVE_COLOR if mi <= 0 else "#333333")
        plotting.plot_points(ax, self.X, self.y, highlight=int(np.argmin(m)))
        ax.set_title(f"data-set margin {m.min():.3f}", fontsize=10)

    def status(self) -> str:
        return (f"<b>angle</b> {self.angle:.0f}° &nbsp; <b>&theta;</b> = {_fmt_vec(self.theta)}"
                f" &nbsp; <b>&theta;<sub>0</sub></b> = {self.shift:.3g} &nbsp; "
                f"<b>margin</b> {self.margin:.4f}"
                + (" (every point correct)" if self.margin > 0 else " (some point wrong)"))

    def alt_text(self) -> str:
        return (f"Margin explorer: {len(self.y)} points, a separator with normal angle "
                f"{self.angle:.0f} degrees and offset {self.shift:.3g}; the smallest point "
                f"margin is {self.margin:.3f}.")


class ConvergenceExplorer(Explorer):
    """Mistakes of PERCEPTRON-THROUGH-ORIGIN against the bound ``(R/gamma)^2`` (chapter 4).

    Generates ``n`` points in the disc of radius ``R``, separated through the origin with
    margin ``gamma`` (:func:`perceptron_lib.make_separable`), runs the perceptron to
    convergence, and shows the data with both separators and a bar chart of mistakes
    against the bound.  Sliders set ``gamma``, ``R``, ``n`` and the seed.
    """

    figsize = (8.0, 3.9)

    def __init__(self, n: int = 40, gamma: float = 0.1, R: float = 1.0, seed: int = 0) -> None:
        super().__init__()
        self._gamma = w.FloatLogSlider(description="γ", base=10, min=-2.0, max=-0.1, step=0.05)
        self._R = w.FloatSlider(description="R", min=0.5, max=3.0, step=0.1)
        self._n = w.IntSlider(description="n", min=2, max=300)
        self._seed = w.IntSlider(description="seed", min=0, max=50)
        self.n, self.gamma_requested, self.R, self.seed = n, gamma, R, seed
        self.set()
        self._observe([self._gamma, self._R, self._n, self._seed], self._from_sliders)
        self._controls = [w.HBox([self._gamma, self._R]), w.HBox([self._n, self._seed])]

    def _from_sliders(self) -> None:
        self._compute(int(self._n.value), float(self._gamma.value), float(self._R.value),
                      int(self._seed.value))

    def set(self, n: int | None = None, gamma: float | None = None, R: float | None = None,
            seed: int | None = None) -> None:
        """Change any of the parameters, regenerate the data and rerun."""
        n = self.n if n is None else n
        gamma = self.gamma_requested if gamma is None else gamma
        R = self.R if R is None else R
        seed = self.seed if seed is None else seed
        self._compute(n, gamma, R, seed)
        with self._syncing():
            self._gamma.value, self._R.value = self.gamma_requested, self.R
            self._n.value, self._seed.value = self.n, self.seed

    def _compute(self, n: int, gamma: float, R: float, seed: int) -> None:
        R = check_scalar(R, "R")
        gamma = min(check_scalar(gamma, "gamma"), 0.95 * R)
        self.n, self.gamma_requested, self.R, self.seed = int(n), gamma, R, int(seed)
        self.data = make_separable(self.n, 2, gamma=gamma, R=R, seed=self.seed)
        self.bound = mistake_bound(self.data.R, self.data.gamma)
        self.result: PerceptronResult = perceptron_through_origin(
            self.data.X, self.data.y, tau=int(self.bound) + 2)

    def draw_static(self, fig: Figure) -> None:
        # The data are drawn in units of R: the picture, like the bound, does not
        # depend on the scale (chapter 4), and the axes never have to change.
        ax1, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.3, 1]})
        plotting.style_axes(ax1, (-1.15, 1.15), (-1.15, 1.15))
        ax1.set_xlabel("$x_1 / R$")
        ax1.set_ylabel("$x_2 / R$")
        ax1.add_patch(Circle((0, 0), 1.0, fill=False, linestyle="--", color="#777777"))
        ax1.set_title(" ", fontsize=10)
        _legend(ax1, ["circle", "band", "true", "boundary", "pos", "neg"],
                {"circle": "radius R", "band": "margin band", "true": "true separator",
                 "boundary": "perceptron"}, fontsize=6)
        ax2.set_yscale("log")
        ax2.set_ylim(0.5, 3e5)
        ax2.set_xlim(-0.6, 1.6)
        ax2.set_xticks([0, 1], ["updates", "bound (R/γ)²"])
        ax2.grid(True, axis="y", color="#dddddd", linewidth=0.6)
        ax2.set_title(" ", fontsize=10)

    def draw_dynamic(self, fig: Figure) -> None:
        ax1, ax2 = fig.axes
        X = self.data.X / self.data.R
        g = self.data.gamma / self.data.R
        plotting.plot_margin_band(ax1, self.data.theta, 0.0, g)
        plotting.plot_boundary(ax1, self.data.theta, 0.0, shade=False, linestyle="--",
                               color="#777777")
        if np.any(self.result.theta):
            plotting.plot_boundary(ax1, self.result.theta, 0.0)
        plotting.plot_points(ax1, X, self.data.y, size=40)
        ax1.set_title(f"n = {self.n}, γ = {self.data.gamma:.3g}, R = {self.data.R:.3g}",
                      fontsize=10)
        ax2.bar([0, 1], [max(self.result.mistakes, 0.5), self.bound],
                color=[plotting.POSITIVE_COLOR, "#999999"])
        ax2.set_title(f"{self.result.mistakes} updates, bound {self.bound:.4g}", fontsize=10)

    def status(self) -> str:
        return (f"<b>&gamma;</b> = {self.data.gamma:.4g} &nbsp; <b>R</b> = {self.data.R:.4g}"
                f" &nbsp; <b>bound</b> (R/&gamma;)<sup>2</sup> = {self.bound:.4g} &nbsp; "
                f"<b>updates</b> {self.result.mistakes} &nbsp; <b>epochs</b> "
                f"{self.result.epochs}")

    def alt_text(self) -> str:
        return (f"Convergence explorer: {self.n} separable points with margin "
                f"{self.data.gamma:.3g} and radius {self.data.R:.3g}; the perceptron made "
                f"{self.result.mistakes} updates against a bound of {self.bound:.4g}.")


class MessageExplorer(Explorer):
    """Type a message, see its counts, features and the classifier's verdict (chapter 5).

    Parameters
    ----------
    theta : array_like
        Weights of the classifier over the chosen feature columns.
    theta_0 : float
    message : str
    features : tuple of int, default (0, 1)
        Which of the three spam features (caps ratio, digits ratio, exclamations) the
        classifier uses; with two, the picture shows the feature plane.
    X, y : array_like, optional
        Training points in those features, drawn for reference.
    """

    figsize = (5.0, 4.4)

    def __init__(self, theta: ArrayLike, theta_0: float, message: str = "",
                 features: tuple[int, ...] = (0, 1), X: ArrayLike | None = None,
                 y: ArrayLike | None = None) -> None:
        super().__init__()
        self.features = tuple(int(f) for f in features)
        if not self.features or any(f not in (0, 1, 2) for f in self.features):
            raise ValueError(f"features must be indices among 0, 1, 2, got {features!r}")
        self.theta = check_theta(theta, d=len(self.features))
        self.theta_0 = check_scalar(theta_0, "theta_0")
        self.X = self.y = None
        if X is not None:
            self.X, self.y = check_data(X, y)
        self._text = w.Textarea(description="message", layout=w.Layout(width="95%"),
                                continuous_update=True)
        self.set_message(message)
        self._observe([self._text], self._from_text)
        self._controls = [self._text]

    def _from_text(self) -> None:
        self.message = self._text.value

    def set_message(self, message: str) -> None:
        """Classify a new message."""
        if not isinstance(message, str):
            raise TypeError(f"message must be a str, got {type(message).__name__}")
        self.message = message
        with self._syncing():
            self._text.value = message

    @property
    def features_all(self) -> np.ndarray | None:
        """The three features of the message, or None for an empty message."""
        if not tokenize(self.message):
            return None
        return spam_features(self.message)

    @property
    def point(self) -> np.ndarray | None:
        f = self.features_all
        return None if f is None else f[list(self.features)]

    @property
    def score(self) -> float | None:
        p = self.point
        return None if p is None else float(self.theta @ p + self.theta_0)

    @property
    def verdict(self) -> str | None:
        """'spam' when the score is positive, 'not spam' otherwise."""
        s = self.score
        return None if s is None else ("spam" if s > 0 else "not spam")

    def static_key(self) -> object:
        # The axes grow only when the message's point falls outside the usual view.
        p = self.point
        if p is None or len(self.features) != 2:
            return None
        hi = self._upper(with_point=False)
        return None if np.all(p <= hi) else tuple(np.round(p, 6))

    def _upper(self, with_point: bool = True) -> np.ndarray:
        pts = [np.zeros((1, 2)), np.full((1, 2), 0.5)]
        if self.X is not None:
            pts.append(self.X)
        hi = np.vstack(pts).max(axis=0) * 1.15 + 0.15
        p = self.point
        if with_point and p is not None and len(self.features) == 2:
            hi = np.maximum(hi, p * 1.1 + 0.05)
        return hi

    def draw_static(self, fig: Figure) -> None:
        ax = fig.add_subplot()
        ax.set_title(" ", fontsize=10)
        if len(self.features) != 2:
            ax.axis("off")
            return
        hi = self._upper()
        ax.set_xlim(-0.05, hi[0])
        ax.set_ylim(-0.05, hi[1])
        ax.grid(True, color="#dddddd", linewidth=0.6)
        names = [FEATURE_NAMES[f] for f in self.features]
        ax.set_xlabel(names[0])
        ax.set_ylabel(names[1])
        entries = ["boundary", "message"] + (["pos", "neg"] if self.X is not None else [])
        _legend(ax, entries, {"boundary": "classifier", "message": "your message",
                              "pos": "spam", "neg": "not spam"},
                loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=4, fontsize=8)

    def draw_dynamic(self, fig: Figure) -> None:
        ax = fig.axes[0]
        if len(self.features) != 2:
            ax.text(0.5, 0.5, f"verdict: {self.verdict or '-'}", ha="center", fontsize=14)
            return
        if np.any(self.theta):
            plotting.plot_boundary(ax, self.theta, self.theta_0)
        if self.X is not None:
            plotting.plot_points(ax, self.X, self.y)
        if self.point is not None:
            ax.scatter(*self.point, marker="*", s=260, color="black", zorder=5)
        ax.set_title(f"verdict: {self.verdict or '(type a message)'}", fontsize=10)

    def status(self) -> str:
        if self.features_all is None:
            return "Type a message to classify it."
        c = count_message(self.message)
        f = self.features_all
        return (f"<b>words</b> {c.words}, <b>all-caps</b> {c.caps_words}, <b>digits</b> "
                f"{c.digits}, <b>!</b> {c.exclamations} &nbsp; <b>features</b> "
                f"{_fmt_vec(f)} &nbsp; <b>score</b> {self.score:.3g} &nbsp; "
                f"<b>verdict</b> {self.verdict}")

    def alt_text(self) -> str:
        if self.features_all is None:
            return "Message explorer with an empty message."
        return (f"Message explorer: the message has features {_fmt_vec(self.features_all)}, "
                f"score {self.score:.3g}, verdict {self.verdict}.")


class KernelExplorer(Explorer):
    """The kernel perceptron on 2-D data: choose a kernel, see the boundary (chapter 6).

    Runs :func:`perceptron_lib.kernel_perceptron` on the chosen data set and draws the
    boundary ``f(x) = 0`` in the plane of the points, the region where ``f > 0``, and a
    ring around every example with ``alpha_j > 0``, the only ones that enter ``f``.
    Controls choose the data set, the kernel (linear, polynomial of some degree with
    ``coef0 = 1``, or RBF with some ``gamma``) and ``tau``; :meth:`set` does the same
    from code.  After any change, :attr:`result` is what ``kernel_perceptron`` returns
    for the current choice.

    Parameters
    ----------
    datasets : mapping of str to (X, y)
        Named 2-D data sets with -1/+1 labels; the first is shown first.
    kernel : {"linear", "polynomial", "RBF"}, default "polynomial"
    degree : int, default 2
        Degree of the polynomial kernel, 1 to 6.
    gamma : float, default 1.0
        Width parameter of the RBF kernel, 0.01 to 100.
    tau : int, default 100
    """

    KERNELS = ("linear", "polynomial", "RBF")
    GRID = 121

    def __init__(self, datasets: Mapping[str, tuple[ArrayLike, ArrayLike]],
                 kernel: str = "polynomial", degree: int = 2, gamma: float = 1.0,
                 tau: int = 100) -> None:
        super().__init__()
        if not isinstance(datasets, Mapping) or not datasets:
            raise ValueError("datasets must be a non-empty mapping of name to (X, y)")
        self.datasets: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for name, pair in datasets.items():
            try:
                X, y = pair
            except (TypeError, ValueError):
                raise ValueError(f"data set {name!r} must be a pair (X, y)") from None
            X, y = check_data(X, y)
            if X.shape[1] != 2:
                raise ValueError(f"data set {name!r} has {X.shape[1]} features; "
                                 "KernelExplorer draws 2-D data")
            self.datasets[str(name)] = (X, y)
        first = next(iter(self.datasets))
        self._data = w.Dropdown(description="data", options=list(self.datasets))
        self._kernel = w.ToggleButtons(description="kernel", options=list(self.KERNELS),
                                       style={"button_width": "auto"})
        self._degree = w.IntSlider(description="degree", min=1, max=6)
        self._gamma = w.FloatLogSlider(description="γ (RBF)", base=10, min=-2.0, max=2.0,
                                       step=0.1)
        self._tau = w.IntSlider(description="τ", min=1, max=300)
        self.dataset, self.kernel, self.degree, self.gamma, self.tau = (
            first, "polynomial", 2, 1.0, 100)
        self.set(kernel=kernel, degree=degree, gamma=gamma, tau=tau)
        self._observe([self._data, self._kernel, self._degree, self._gamma, self._tau],
                      self._from_controls)
        self._controls = [w.HBox([self._data, self._tau]), self._kernel,
                          w.HBox([self._degree, self._gamma])]

    def _from_controls(self) -> None:
        self.set(dataset=self._data.value, kernel=self._kernel.value,
                 degree=self._degree.value, gamma=self._gamma.value, tau=self._tau.value)

    def set(self, dataset: str | None = None, kernel: str | None = None,
            degree: int | None = None, gamma: float | None = None,
            tau: int | None = None) -> None:
        """Change any of the choices and rerun the kernel perceptron."""
        dataset = self.dataset if dataset is None else dataset
        if dataset not in self.datasets:
            raise ValueError(f"unknown data set {dataset!r}; choose one of "
                             f"{', '.join(self.datasets)}")
        kernel = self.kernel if kernel is None else kernel
        if kernel not in self.KERNELS:
            raise ValueError(f"kernel must be one of {', '.join(self.KERNELS)}, got {kernel!r}")
        degree = self.degree if degree is None else degree
        if isinstance(degree, bool) or int(degree) != degree or not 1 <= degree <= 6:
            raise ValueError(f"degree must be a whole number from 1 to 6, got {degree!r}")
        gamma = self.gamma if gamma is None else check_scalar(gamma, "gamma")
        if not 0.01 <= gamma <= 100:
            raise ValueError(f"gamma must lie between 0.01 and 100, got {gamma}")
        tau = check_tau(self.tau if tau is None else tau)
        self.dataset, self.kernel, self.degree = dataset, kernel, int(degree)
        self.gamma, self.tau = float(gamma), tau
        X, y = self.datasets[dataset]
        self.result: KernelResult = kernel_perceptron(X, y, self.kernel_function(), tau)
        self._scores = None
        with self._syncing():
            self._data.value, self._kernel.value = self.dataset, self.kernel
            self._degree.value, self._gamma.value = self.degree, self.gamma
            self._tau.value = self.tau

    def kernel_function(self) -> Kernel:
        """The kernel of the current choice, as :mod:`perceptron_lib` builds it."""
        if self.kernel == "linear":
            return linear_kernel()
        if self.kernel == "polynomial":
            return polynomial_kernel(self.degree)
        return rbf_kernel(self.gamma)

    def formula(self) -> str:
        """The current kernel written out, in plain text."""
        if self.kernel == "linear":
            return "K(x, x′) = x·x′"
        if self.kernel == "polynomial":
            return f"K(x, x′) = (x·x′ + 1){str(self.degree).translate(_SUPERSCRIPTS)}"
        return f"K(x, x′) = exp(−{self.gamma:.3g}·‖x − x′‖²)"

    def _title(self) -> str:
        # Plain text, not mathtext: parsing a new formula at every move of the gamma
        # slider would cost more than the rest of the redraw.
        if not np.any(self.grid_scores()[2]):
            return self.formula() + ":  f(x) = 0 everywhere"
        return self.formula()

    @property
    def training_errors(self) -> int:
        """How many of the data set's points the final hypothesis gets wrong."""
        X, y = self.datasets[self.dataset]
        return int(np.sum(kernel_predict(self.result, X) != y))

    def _limits(self) -> tuple[tuple[float, float], tuple[float, float]]:
        X, _ = self.datasets[self.dataset]
        return _view_box(X, pad=0.6)

    def grid_scores(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The grid of the picture and ``f`` on it, ``(gx, gy, f)``; rounding noise is 0."""
        if self._scores is None:
            (x0, x1), (y0, y1) = self._limits()
            gx, gy = np.meshgrid(np.linspace(x0, x1, self.GRID), np.linspace(y0, y1, self.GRID))
            G = np.column_stack([gx.ravel(), gy.ravel()])
            r = self.result
            K = np.asarray(r.kernel(r.X, G))
            f = (r.alpha * r.y) @ K + r.theta_0
            # Scores that are zero up to rounding (XOR under the linear kernel, say) are
            # drawn as zero, so that rounding noise does not draw a boundary.
            f[np.abs(f) <= 1e-9 * (r.alpha @ np.abs(K) + abs(r.theta_0))] = 0.0
            self._scores = (gx, gy, f.reshape(gx.shape))
        return self._scores

    def static_key(self) -> object:
        return self.dataset

    def draw_static(self, fig: Figure) -> None:
        ax = fig.add_subplot()
        plotting.style_axes(ax, *self._limits())
        ax.set_title(" ", fontsize=10)
        _legend(ax, ["boundary", "pos", "neg", "support"],
                {"boundary": "f(x) = 0", "support": "α > 0"},
                loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=4, fontsize=8)

    def draw_dynamic(self, fig: Figure) -> None:
        ax = fig.axes[0]
        gx, gy, f = self.grid_scores()
        if f.min() < 0 < f.max():
            ax.contourf(gx, gy, f, levels=[0, np.inf], colors=[plotting.POSITIVE_COLOR],
                        alpha=0.12)
            ax.contour(gx, gy, f, levels=[0], colors=[plotting.BOUNDARY_COLOR],
                       linewidths=2)
        elif f.min() > 0:
            ax.contourf(gx, gy, np.ones_like(f), levels=[0, 2],
                        colors=[plotting.POSITIVE_COLOR], alpha=0.12)
        X, y = self.datasets[self.dataset]
        plotting.plot_points(ax, X, y, size=40)
        used = self.result.alpha > 0
        if used.any():
            ax.scatter(*X[used].T, s=170, facecolors="none", edgecolors="black",
                       linewidths=1.2, zorder=4)
        ax.set_title(self._title(), fontsize=10)

    def _outcome(self) -> str:
        r = self.result
        if r.converged:
            return f"converged after {r.mistakes} updates in {r.epochs} epochs"
        return f"not converged: {r.mistakes} updates in tau = {self.tau} epochs"

    def status(self) -> str:
        n = len(self.result.y)
        used = int(np.sum(self.result.alpha > 0))
        return (f"<b>{html.escape(self.formula())}</b> &nbsp; {self._outcome()} &nbsp; "
                f"<b>&alpha; &gt; 0</b> on {used} of {n} examples &nbsp; "
                f"<b>training errors</b> {self.training_errors}")

    def alt_text(self) -> str:
        used = int(np.sum(self.result.alpha > 0))
        return (f"Kernel explorer on the data set {self.dataset} "
                f"({len(self.result.y)} points) with {self.formula()}: the kernel "
                f"perceptron {self._outcome()}; {used} examples have alpha > 0 and "
                f"{self.training_errors} points are misclassified.")


__all__ = [
    "ConvergenceExplorer",
    "Explorer",
    "KernelExplorer",
    "MarginExplorer",
    "MessageExplorer",
    "OffsetExplorer",
    "StepTrainer",
]
