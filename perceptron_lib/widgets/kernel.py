"""The kernel explorer of chapter 6: the kernel perceptron's boundary as the kernel changes."""

from __future__ import annotations

import html
from collections.abc import Mapping

import ipywidgets as w
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .. import plotting
from .._validate import check_data, check_scalar, check_tau
from ..variants import (
    Kernel,
    KernelResult,
    kernel_perceptron,
    kernel_predict,
    linear_kernel,
    polynomial_kernel,
    rbf_kernel,
)
from ._base import _SUPERSCRIPTS, Explorer, _legend, _view_box, for_people, slider_row


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
        self._degree = w.IntSlider(description="degree", min=1, max=6, layout=slider_row())
        self._gamma = w.FloatLogSlider(description="β (RBF)", base=10, min=-2.0, max=2.0,
                                       step=0.1, style={"description_width": "initial"},
                                       layout=slider_row())
        self._tau = w.IntSlider(description="τ", min=1, max=300, layout=slider_row())
        self.dataset, self.kernel, self.degree, self.gamma, self.tau = (
            first, "polynomial", 2, 1.0, 100)
        self.set(kernel=kernel, degree=degree, gamma=gamma, tau=tau)
        self._observe([self._data, self._kernel, self._degree, self._gamma, self._tau],
                      self._from_controls)
        self._controls = [self._data, self._kernel, self._degree, self._gamma, self._tau]

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
        return f"not converged: {r.mistakes} updates in τ = {self.tau} epochs"

    def status(self) -> str:
        n = len(self.result.y)
        used = int(np.sum(self.result.alpha > 0))
        return (f"<b>{html.escape(self.formula())}</b> &nbsp; {self._outcome()} &nbsp; "
                f"<b>&alpha; &gt; 0</b> on {used} of {n} examples &nbsp; "
                f"<b>training errors</b> {self.training_errors}")

    def alt_text(self) -> str:
        used = int(np.sum(self.result.alpha > 0))
        return for_people(f"Kernel explorer on the data set {self.dataset} "
                          f"({len(self.result.y)} points) with {self.formula()}: the kernel "
                          f"perceptron {self._outcome()}; {used} examples have \u03b1 > 0 and "
                          f"{self.training_errors} points are misclassified.")
