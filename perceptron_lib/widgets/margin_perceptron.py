"""The margin perceptron and Freund and Schapire's bound, live in Jupyter (chapter 7).

:class:`MarginPerceptronExplorer` is the notebook twin of the page's margin demo
(:mod:`perceptron_lib.demos.margin`): the same data sets with their reference separators,
a ``mu`` slider for the margin perceptron (:func:`perceptron_lib.margin_perceptron`),
Step / Epoch / Run / Reset, and a ``gamma`` slider for the hinge deficiencies of the
reference separator (:func:`perceptron_lib.hinge_deficiency`) and Freund and Schapire's
bound (:func:`perceptron_lib.freund_schapire_bound`) against the updates made so far.
It needs a live kernel (ipywidgets); the book's pages use the demo instead.

The offset is lifted as in chapters 2 and 4: ``R`` is the radius of the points
``(x, 1)``, and for ``mu > 0`` the bound on updates uses ``sqrt(R^2 + 2 mu)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import ipywidgets as w
import numpy as np
from matplotlib.figure import Figure

from .. import plotting
from .._validate import check_tau
from ..bounds import freund_schapire_bound
from ..demos.margin import GAMMA_STEPS, MUS, _dataset
from ..hinge import hinge_deficiency
from ..margin import margin, radius
from ..offset import add_offset_feature
from ._base import Explorer, _legend, _view_box, for_people, slider_row


class MarginPerceptronExplorer(Explorer):
    """Step the margin perceptron and weigh Freund and Schapire's bound (chapter 7).

    Parameters
    ----------
    datasets : mapping of str to mapping
        As for :class:`perceptron_lib.demos.margin.MarginDemo`:
        ``{title: {"X": X, "y": y, "theta": u, "theta_0": u_0}}`` with 2 columns, labels
        -1/+1 and a reference separator ``(u, u_0)``, ``u`` not zero.
    mu : float, default 0.0
        The threshold at the start, one of :data:`perceptron_lib.demos.margin.MUS`.
    tau : int, default 100
        The most passes a run makes.

    The moves are also methods: :meth:`step`, :meth:`epoch`, :meth:`run`, :meth:`reset`,
    :meth:`select` (a data set by position), :meth:`set_mu` and :meth:`set_gamma`.
    After :meth:`run` the hypothesis equals what
    ``margin_perceptron(X, y, margin=mu, tau=tau)`` returns.
    """

    figsize = (5.2, 5.6)

    def __init__(self, datasets: Mapping[str, Mapping[str, Any]], mu: float = 0.0,
                 tau: int = 100) -> None:
        super().__init__()
        if not isinstance(datasets, Mapping) or not datasets:
            raise ValueError("MarginPerceptronExplorer needs a non-empty mapping of title -> "
                             "{'X', 'y', 'theta', 'theta_0'}")
        self.sets = [_dataset(name, spec) for name, spec in datasets.items()]
        self.tau = check_tau(tau)
        if isinstance(mu, bool) or not isinstance(mu, int | float) or float(mu) not in MUS:
            raise ValueError(f"mu must be one of {MUS}, got {mu!r}")
        self.mu = float(mu)
        self._menu = w.Dropdown(options=[(d["name"], k) for k, d in enumerate(self.sets)],
                                value=0, description="Data set")
        self._mu = w.SelectionSlider(options=[(f"{m:g}", m) for m in MUS], value=self.mu,
                                     description="\u03bc", layout=slider_row())
        self._gamma = w.IntSlider(min=1, max=GAMMA_STEPS, value=1, description="\u03b3 step",
                                  readout=False, layout=slider_row())
        buttons = []
        for label, action, tip in (
            ("Step", self.step, "visit the next example"),
            ("Epoch", self.epoch, "finish the current epoch"),
            ("Run", self.run, "run until an epoch without an update or \u03c4 epochs"),
            ("Reset", self.reset, "start again from theta = 0"),
        ):
            b = w.Button(description=label, tooltip=tip, layout=w.Layout(width="auto"))
            b.on_click(lambda _b, act=action: (act(), self.refresh()))
            buttons.append(b)
        self._observe([self._menu], lambda: self.select(self._menu.value))
        self._observe([self._mu], lambda: self.set_mu(self._mu.value))
        self._observe([self._gamma],
                      lambda: self.set_gamma(self._gamma.value * self.R / GAMMA_STEPS))
        self._controls = [self._menu, self._mu, self._gamma, w.HBox(buttons)]
        self.select(0)

    # -- state ---------------------------------------------------------------------------
    def select(self, k: int) -> None:
        """Show data set ``k`` (from 0), at its starting gamma, from theta = 0."""
        if not isinstance(k, int) or not 0 <= k < len(self.sets):
            raise ValueError(f"there is no data set {k!r}; there are {len(self.sets)}")
        self.k = k
        d = self.sets[k]
        self.X, self.y = np.array(d["X"], dtype=float), np.array(d["y"], dtype=float)
        self.u, self.u_0 = np.array(d["theta"]), float(d["theta0"])
        self.R = radius(add_offset_feature(self.X))
        self.gamma_opt = d["gammaOpt"]
        self._xlim, self._ylim = _view_box(self.X, pad=0.6)
        self.gamma = float(d["gamma"])
        self._sync()
        self.reset()

    def set_mu(self, mu: float) -> None:
        """A new threshold: one of MUS; the run starts again."""
        if float(mu) not in MUS:
            raise ValueError(f"mu must be one of {MUS}, got {mu!r}")
        self.mu = float(mu)
        self._sync()
        self.reset()

    def set_gamma(self, gamma: float) -> None:
        """A new target margin in (0, R]; the run stays."""
        g = float(gamma)
        if not 0 < g <= self.R:
            raise ValueError(f"gamma must lie in (0, R], R = {self.R:.6g}, got {gamma!r}")
        self.gamma = g
        self._sync()

    def _sync(self) -> None:
        with self._syncing():
            self._menu.value = self.k
            self._mu.value = self.mu
            self._gamma.value = min(GAMMA_STEPS, max(1, round(self.gamma / self.R * GAMMA_STEPS)))
            self._gamma.description = f"\u03b3 = {self.gamma:.3g}"

    def reset(self) -> None:
        """theta = 0, theta_0 = 0, pass 1, no visit."""
        self.theta, self.theta_0 = np.zeros(2), 0.0
        self.updates = self.mistakes = 0
        self.t, self.i = 1, 0
        self.visits = np.zeros(len(self.y), dtype=int)
        self.converged = self.stopped = False
        self._changed = False
        self.last: tuple[int, bool] | None = None

    @property
    def done(self) -> bool:
        """True after a pass without an update, or once tau passes are over."""
        return self.converged or self.stopped

    def step(self) -> None:
        """Visit the next example; update when y (theta . x + theta_0) <= mu."""
        if self.done:
            return
        i, x, label = self.i, self.X[self.i], self.y[self.i]
        score = float(self.theta @ x + self.theta_0)
        self.visits[i] += 1
        self.mistakes += label * score <= 0
        updated = label * score <= self.mu
        if updated:
            self.theta = self.theta + label * x
            self.theta_0 += label
            self.updates += 1
            self._changed = True
        self.last = (i, bool(updated))
        self.i += 1
        if self.i == len(self.y):
            if not self._changed:
                self.converged = True
            elif self.t == self.tau:
                self.stopped = True
            else:
                self.t, self.i, self._changed = self.t + 1, 0, False

    def epoch(self) -> None:
        """Step to the end of the current pass."""
        t = self.t
        while not self.done and self.t == t:
            self.step()

    def run(self) -> None:
        """Run until a pass without an update or tau passes."""
        while not self.done:
            self.step()

    # -- the numbers -----------------------------------------------------------------------
    def numbers(self) -> dict[str, Any]:
        """D and the bound for one pass and for the visits so far; the margin of theta."""
        D1, d = hinge_deficiency(self.X, self.y, self.u, self.u_0, self.gamma, per_example=True)
        rows = np.repeat(np.arange(len(self.y)), self.visits)
        Dnow = (hinge_deficiency(self.X[rows], self.y[rows], self.u, self.u_0, self.gamma)
                if len(rows) else 0.0)
        Rmu = math.sqrt(self.R * self.R + 2 * self.mu)
        return {
            "d": d, "D1": D1, "Dnow": Dnow, "Rmu": Rmu,
            "bound1": freund_schapire_bound(Rmu, self.gamma, D1),
            "boundNow": freund_schapire_bound(Rmu, self.gamma, Dnow),
            "margin": (margin(self.X, self.y, self.theta, self.theta_0)
                       if np.any(self.theta) else None),
        }

    # -- the picture -------------------------------------------------------------------------
    def static_key(self) -> object:
        return self.k

    def draw_static(self, fig: Figure) -> None:
        ax = fig.add_subplot()
        plotting.style_axes(ax, self._xlim, self._ylim)
        ax.set_title(self.sets[self.k]["name"], fontsize=10)
        _legend(ax, ["boundary", "band", "true", "pos", "neg", "support", "ring"],
                labels={"band": "y\u00b7score \u2264 \u03bc", "true": "reference u",
                        "support": "$d_i > 0$", "ring": "last visited"},
                loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=4, fontsize=8)

    def draw_dynamic(self, fig: Figure) -> None:
        ax = fig.axes[0]
        v = self.numbers()
        # lifted margin = +-gamma: u . x + u_0 = +-gamma ||(u, u_0)||
        reach = self.gamma * float(np.linalg.norm(np.append(self.u, self.u_0)))
        for shift in (-reach, reach):
            plotting.plot_boundary(ax, self.u, self.u_0 + shift, shade=False, label=None,
                                   color="#777777", linestyle=":", linewidth=1)
        plotting.plot_boundary(ax, self.u, self.u_0, shade=False, label=None,
                               color="#777777", linestyle="--")
        if np.any(self.theta):
            if self.mu > 0:
                plotting.plot_margin_band(ax, self.theta, self.theta_0,
                                          self.mu / float(np.linalg.norm(self.theta)),
                                          label=None)
            plotting.plot_boundary(ax, self.theta, self.theta_0, shade=False, label=None)
        plotting.plot_points(ax, self.X, self.y, size=60,
                             highlight=self.last[0] if self.last else None)
        bad = v["d"] > 0
        if np.any(bad):
            ax.scatter(self.X[bad, 0], self.X[bad, 1], s=200, facecolors="none",
                       edgecolors="black", linewidths=1.2, zorder=4)

    def status(self) -> str:
        v = self.numbers()
        what = "mistakes" if self.mu == 0 else "updates"
        state = ("converged" if self.converged else "stopped" if self.stopped
                 else "running")
        m = "none" if v["margin"] is None else f"{v['margin']:.4g}"
        opt = ("not separable" if self.gamma_opt is None
               else f"&gamma;<sub>opt</sub> {self.gamma_opt:.4g}")
        return (f"<b>epoch</b> {self.t} &nbsp; <b>updates</b> {self.updates} &nbsp; "
                f"<b>mistakes</b> {self.mistakes} &nbsp; ({state})<br>"
                f"<b>&theta;</b> = ({self.theta[0]:.4g}, {self.theta[1]:.4g}), "
                f"<b>&theta;<sub>0</sub></b> = {self.theta_0:g}; margin {m}; {opt}<br>"
                f"<b>&gamma;</b> = {self.gamma:.4g}: <b>D</b> = {v['D1']:.4g} for one epoch, "
                f"bound {v['bound1']:.4g}; over the {int(self.visits.sum())} visits so far "
                f"D = {v['Dnow']:.4g}, bound {v['boundNow']:.4g} &ge; {self.updates} {what}")

    def alt_text(self) -> str:
        v = self.numbers()
        return for_people(
            f"Margin perceptron explorer on '{self.sets[self.k]['name']}' ({len(self.y)} "
            f"points), \u03bc = {self.mu:g}, epoch {self.t}, {self.updates} updates; "
            f"\u03b3 = {self.gamma:.3g}, {int(np.sum(v['d'] > 0))} points with "
            f"d\u1d62 > 0 circled, bound {v['bound1']:.4g} for one epoch.")
