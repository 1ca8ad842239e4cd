"""The step-through trainer of chapter 1 (and the averaged hypothesis of chapter 6)."""

from __future__ import annotations

import ipywidgets as w
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .. import plotting
from .._validate import check_data, check_tau
from ..algorithm import update
from ._base import AVERAGE_COLOR, Explorer, _fmt_vec, _legend, _view_box, for_people


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
            ("Epoch", self.epoch, "finish the current epoch"),
            ("Run", self.run, "run until an epoch without a mistake or \u03c4 epochs"),
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
        return for_people(
            f"Step-through trainer on {len(self.y)} labelled points, epoch {self.t}, "
            f"{self.mistakes} updates so far, \u03b8 = {_fmt_vec(self.theta)}, "
            f"\u03b8\u2080 = {self.theta_0:g}."
        )
