"""The offset explorer of chapter 2: a threshold on the line, and the lifted picture."""

from __future__ import annotations

import ipywidgets as w
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .. import plotting
from .._validate import check_data, check_scalar
from ._base import Explorer, _legend, for_people, slider_row


class OffsetExplorer(Explorer):
    """A threshold on the line, and the same classifier after lifting (chapter 2).

    Left: 1-D data and the threshold ``x = -theta_0 / theta``.  Right: the lifted points
    ``(x, 1)`` and the line ``theta x_1 + theta_0 x_2 = 0`` through the origin with its
    normal ``(theta, theta_0)``.  Sliders set ``theta`` and ``theta_0``.
    """

    figsize = (8.0, 4.4)

    def __init__(self, x: ArrayLike, y: ArrayLike, theta: float = -1.0,
                 theta_0: float = 2.5) -> None:
        super().__init__()
        xa = np.asarray(x, dtype=float)
        if xa.ndim != 1:
            raise ValueError(f"x must be 1-D (one number per example), got shape {xa.shape}")
        X, self.y = check_data(xa.reshape(-1, 1), y)
        self.x = X[:, 0]
        self._theta = w.FloatSlider(description="θ", min=-3.0, max=3.0, step=0.1,
                                    continuous_update=True, layout=slider_row())
        self._theta_0 = w.FloatSlider(description="θ₀", min=-8.0, max=8.0, step=0.1,
                                      continuous_update=True, layout=slider_row())
        self.set(theta, theta_0)
        self._observe([self._theta, self._theta_0], self._from_sliders)
        self._controls = [self._theta, self._theta_0]

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
        _legend(ax1, ["pos", "neg", "boundary"], {"boundary": "threshold"},
                loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, fontsize=8)
        plotting.style_axes(ax2, (-box, box), (-box, box))
        ax2.set_xlabel("$x$")
        ax2.set_ylabel("lifted coordinate")
        ax2.set_title(" ", fontsize=10)
        _legend(ax2, ["boundary", "normal", "pos", "neg"],
                {"boundary": "boundary through 0", "normal": r"$(\theta, \theta_0)$"},
                loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=8)

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
        return for_people(f"Offset explorer: {len(self.y)} points on a line with "
                          f"\u03b8 = {self.theta:g} and \u03b8\u2080 = {self.theta_0:g} "
                          f"({self.errors} misclassified), and the same points lifted to "
                          "(x, 1) with the boundary through the origin.")
