"""The margin explorer of chapter 3: turn and shift a separator, watch the margins."""

from __future__ import annotations

import ipywidgets as w
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .. import plotting
from .._validate import check_data, check_scalar
from ..margin import point_margins, radius
from ._base import Explorer, _fmt_vec, _legend, _view_box, for_people, slider_row


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
        self._angle = w.FloatSlider(description="angle °", min=0.0, max=360.0, step=1.0,
                                    layout=slider_row())
        self._shift = w.FloatSlider(description="θ₀", min=-reach, max=reach, step=0.05,
                                    layout=slider_row())
        self.set(angle, shift)
        self._observe([self._angle, self._shift], self._from_sliders)
        self._controls = [self._angle, self._shift]

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
        return for_people(f"Margin explorer: {len(self.y)} points, a separator with normal "
                          f"angle {self.angle:.0f} degrees and offset {self.shift:.3g}; the "
                          f"smallest point margin is {self.margin:.3f}.")
