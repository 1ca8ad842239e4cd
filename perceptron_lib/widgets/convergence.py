"""The convergence explorer of chapter 4: mistakes against the bound."""

from __future__ import annotations

import ipywidgets as w
import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Circle

from .. import plotting
from .._validate import check_scalar
from ..algorithm import PerceptronResult, perceptron_through_origin
from ..generate import make_separable
from ..margin import mistake_bound
from ._base import Explorer, _legend, for_people, slider_row


class ConvergenceExplorer(Explorer):
    """Mistakes of PERCEPTRON-THROUGH-ORIGIN against the bound ``(R/gamma)^2`` (chapter 4).

    Generates ``n`` points in the disc of radius ``R``, separated through the origin with
    margin ``gamma`` (:func:`perceptron_lib.make_separable`), runs the perceptron to
    convergence, and shows the data with both separators and a bar chart of mistakes
    against the bound.  Sliders set ``gamma``, ``R``, ``n`` and the seed.
    """

    figsize = (8.0, 4.8)
    layout_rect = (0.0, 0.1, 1.0, 1.0)

    def __init__(self, n: int = 40, gamma: float = 0.1, R: float = 1.0, seed: int = 0) -> None:
        super().__init__()
        self._gamma = w.FloatLogSlider(description="γ", base=10, min=-2.0, max=-0.1, step=0.05,
                                       layout=slider_row())
        self._R = w.FloatSlider(description="R", min=0.5, max=3.0, step=0.1, layout=slider_row())
        self._n = w.IntSlider(description="n", min=2, max=300, layout=slider_row())
        self._seed = w.IntSlider(description="seed", min=0, max=50, layout=slider_row())
        self.n, self.gamma_requested, self.R, self.seed = n, gamma, R, seed
        self.set()
        self._observe([self._gamma, self._R, self._n, self._seed], self._from_sliders)
        self._controls = [self._gamma, self._R, self._n, self._seed]

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
                 "boundary": "perceptron"},
                loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, fontsize=7)
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
        return for_people(f"Convergence explorer: {self.n} separable points with margin "
                          f"{self.data.gamma:.3g} and radius {self.data.R:.3g}; the perceptron "
                          f"made {self.result.mistakes} updates against a bound of "
                          f"{self.bound:.4g}.")
