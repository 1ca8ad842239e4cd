"""The margin demo's HTML, built from the chapter's own arrays (chapter 7).

Chapter 7's page carries a demo that runs in the reader's browser
(``book/_demos/margin``: JavaScript that a test holds to the library, number for
number).  On each of the chapter's data sets the reader steps the margin perceptron
(:func:`perceptron_lib.margin_perceptron`, which updates while
``y (theta . x + theta_0) <= mu``), and sets a target margin ``gamma`` against a
reference separator ``(u, u_0)``: the demo marks the examples with a hinge deficiency
``d_i > 0``, shows the total ``D`` (:func:`perceptron_lib.hinge_deficiency`) and
Freund and Schapire's bound ``((R + D) / gamma)^2``
(:func:`perceptron_lib.freund_schapire_bound`) against the mistakes made so far.  The
reader may also add points by clicking on the plot (with a label of their choice), remove
points by clicking them, and undo edits: the run starts again on the edited data, against
the same reference separator, and a link carries the edited points.

:class:`MarginDemo` writes a ``<div class="margin-demo">`` whose ``data-*`` attributes
hold the data sets as JSON, and inside it a picture of the starting state (class
``explorer-static``, drawn with matplotlib when the page is built) for readers without
JavaScript, in a notebook, or on a page opened as a file.

The offset enters as in chapters 2 and 4: the run has an offset, so the bound is that of
the perceptron through the origin on the points lifted to ``(x, 1)``; ``R`` is the
radius of the lifted points and ``(u, u_0)`` is normalised as one lifted vector.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._validate import check_count, check_data, check_scalar, check_theta
from .page import Explorer, data_json, framed, mime_bundle
from .playground import demo_id, held_out

#: The positions of the demo's mu slider (``book/_demos/margin/margin-core.mjs`` has the
#: same list): 0 is the plain perceptron.
MUS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)
#: The gamma slider has this many positions, ``k R / GAMMA_STEPS`` for k = 1, 2, ...
GAMMA_STEPS = 200
PAGE_NOTE = (
    "On the book's site this is a demo that runs in the browser; it needs JavaScript and "
    "a page served over HTTP (run python3 tasks.py serve for a local copy of the book)."
)
KEYS = ("X", "y", "theta", "theta_0")


def _lifted(X: np.ndarray, y: np.ndarray, u: np.ndarray, u_0: float) -> tuple[float, np.ndarray]:
    """R of the lifted points and the lifted margins of the unit (u, u_0) / ||(u, u_0)||."""
    from ..margin import radius
    from ..offset import add_offset_feature

    R = radius(add_offset_feature(X))
    margins = y * (X @ u + u_0) / float(np.linalg.norm(np.append(u, u_0)))
    return R, margins


def start_gamma(X: ArrayLike, y: ArrayLike, theta: ArrayLike, theta_0: float) -> float:
    """Where the demo's gamma slider starts for a data set (chapter 7).

    At the smallest positive lifted margin of the reference separator, moved down to a
    position of the slider (``k R / GAMMA_STEPS``, k >= 1, ``R`` the radius of the
    lifted points): when the separator classifies every point correctly, ``D = 0``
    there and the bound is chapter 4's ``(R / gamma)^2``; otherwise only the points it
    misclassifies have ``d_i > 0`` there.  The demo's button finds the ``gamma`` with
    the smallest bound.
    """
    Xa, ya = check_data(X, y)
    u = check_theta(theta, Xa.shape[1], "theta")
    R, m = _lifted(Xa, ya, u, check_scalar(theta_0, "theta_0"))
    positive = m[m > 0]
    if positive.size == 0:
        return float(R / GAMMA_STEPS)
    k = max(1, int(np.floor(float(positive.min()) / R * GAMMA_STEPS)))
    return float(k * R / GAMMA_STEPS)


def _dataset(name: object, spec: object) -> dict[str, Any]:
    from ..separability import is_linearly_separable, max_margin

    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"data set names must be non-empty strings, got {name!r}")
    if not isinstance(spec, Mapping):
        raise TypeError(f"data set {name!r} must be a mapping with keys {', '.join(KEYS)}, "
                        f"got {type(spec).__name__}")
    missing = [k for k in KEYS if k not in spec]
    if missing:
        raise ValueError(f"data set {name!r} lacks {', '.join(missing)} (it needs "
                         f"{', '.join(KEYS)})")
    extra = sorted(set(spec) - {*KEYS, "gamma", "X_test", "y_test"})
    if extra:
        raise ValueError(f"data set {name!r}: unknown keys {extra}; the keys are "
                         f"{', '.join(KEYS)} and, optionally, gamma and a held-out test set "
                         f"X_test, y_test")
    if ("X_test" in spec) != ("y_test" in spec):
        raise ValueError(f"data set {name!r}: a held-out test set needs both X_test and y_test")
    try:
        X, y = check_data(spec["X"], spec["y"])
        if X.shape[1] != 2:
            raise ValueError(f"the demo draws points in the plane, so X needs 2 columns, "
                             f"got shape {X.shape}")
        u = check_theta(spec["theta"], 2, "theta")
        u_0 = check_scalar(spec["theta_0"], "theta_0")
        if not np.any(u):
            raise ValueError("the reference separator's theta is zero: it has no line to draw")
        R, _ = _lifted(X, y, u, u_0)
        if "gamma" in spec:
            gamma = check_scalar(spec["gamma"], "gamma")
            if not 0 < gamma <= R:
                raise ValueError(f"gamma must lie in (0, R], R = {R:.6g} the radius of the "
                                 f"lifted points, got {gamma}")
        else:
            gamma = start_gamma(X, y, u, u_0)
    except (ValueError, TypeError) as err:
        raise type(err)(f"data set {name!r}: {err}") from None
    gamma_opt = float(max_margin(X, y).gamma) if is_linearly_separable(X, y) else None
    out = {"name": name, "X": X.tolist(), "y": [int(v) for v in y], "theta": u.tolist(),
           "theta0": u_0, "gamma": gamma, "gammaOpt": gamma_opt}
    if "X_test" in spec:
        out.update(held_out(name, spec["X_test"], spec["y_test"], 2))
    return out


def _check_mu(mu: object) -> float:
    if isinstance(mu, bool) or not isinstance(mu, int | float):
        raise TypeError(f"mu must be a number, got {mu!r}")
    if float(mu) not in MUS:
        raise ValueError(f"mu must be one of the slider's values {MUS}, got {mu!r}")
    return float(mu)


class MarginDemo:
    """The margin perceptron and Freund and Schapire's bound on a page (chapter 7).

    Parameters
    ----------
    datasets : mapping of str to mapping
        The data sets of the demo's menu, in order (the first is shown first):
        ``{title: {"X": X, "y": y, "theta": u, "theta_0": u_0}}``, ``X`` with 2 columns,
        labels in {-1, +1}, and ``(u, u_0)`` the chapter's reference separator (``u``
        not zero).  An optional ``"gamma"`` in ``(0, R]`` sets the starting target
        margin; without it the demo starts at the slider position with the smallest
        bound (:func:`start_gamma`).  An optional held-out test set ``"X_test"``,
        ``"y_test"`` from the same distribution adds its errors after each epoch to the
        chart and the readout.
    mu : float, default 0.0
        The margin perceptron's threshold at the start: one of :data:`MUS`.
    tau : int, default 100
        The most epochs a run makes.
    element_id : str, optional
        The id of the demo's element, which keys its state in the page's URL (a link
        reproduces what the reader saw); by default ``margin-demo-`` and 8 hex digits of
        a hash of the demo's data, the same from one build to the next.
    explorer : bool, default False
        Also make the live :class:`perceptron_lib.widgets.MarginPerceptronExplorer` of
        the same data sets, ``mu`` and ``tau`` (it needs ipywidgets): Jupyter shows it,
        while the book's pages, which drop the widget view, show the demo.

    Raises
    ------
    ValueError, TypeError
        On an empty mapping, a data set without its four keys, bad data (shape, labels,
        NaN), a zero ``u``, a ``gamma`` outside ``(0, R]`` or a ``mu`` the slider lacks.

    Examples
    --------
    >>> X = [[1.0, 2.0], [2.0, 0.5], [-1.0, -1.0], [-2.0, 0.5]]
    >>> demo = MarginDemo({"four points": {"X": X, "y": [1, 1, -1, -1],
    ...                                    "theta": [1.0, 0.5], "theta_0": 0.0}})
    >>> demo._repr_html_().startswith('<div id="margin-demo-')
    True
    """

    def __init__(self, datasets: Mapping[str, Mapping[str, Any]], *, mu: float = 0.0,
                 tau: int = 100, element_id: str | None = None,
                 explorer: bool = False) -> None:
        if not isinstance(datasets, Mapping) or not datasets:
            raise ValueError("MarginDemo needs a non-empty mapping of title -> "
                             "{'X', 'y', 'theta', 'theta_0'}")
        self.mu = _check_mu(mu)
        self.tau = check_count(tau, "tau", 1)
        self.datasets = [_dataset(name, spec) for name, spec in datasets.items()]
        self.element_id = element_id
        demo_id("margin-demo", {}, element_id)  # a bad id fails here, not at display
        self._explorer: Explorer | None = None
        if explorer:
            from ..widgets import MarginPerceptronExplorer

            self._explorer = MarginPerceptronExplorer(datasets, mu=self.mu, tau=self.tau)

    # -- the picture for readers without JavaScript ------------------------------------
    def alt_text(self) -> str:
        """What the fallback picture shows, in words."""
        d = self.datasets[0]
        X, y = np.array(d["X"]), np.array(d["y"], dtype=float)
        _, m = _lifted(X, y, np.array(d["theta"]), d["theta0"])
        k = int(np.sum(m < d["gamma"]))
        return (f"The data set '{d['name']}': {len(y)} points, {int(np.sum(y > 0))} labelled "
                f"+1 and {int(np.sum(y < 0))} labelled \u22121, with the reference separator as "
                f"a dashed line and the band where its lifted margin is below \u03b3 = "
                f"{d['gamma']:.3g}; {k} points have a hinge deficiency above zero and are "
                "ringed. The solid line is where the margin perceptron ends with "
                f"\u03bc = {self.mu:g}.")

    def summary(self) -> str:
        """The numbers of the fallback picture's first data set, in a sentence."""
        from ..bounds import freund_schapire_bound
        from ..hinge import hinge_deficiency
        from ..margin_perceptron import margin_perceptron

        d = self.datasets[0]
        X, y = np.array(d["X"]), np.array(d["y"], dtype=float)
        R, _ = _lifted(X, y, np.array(d["theta"]), d["theta0"])
        D = hinge_deficiency(X, y, d["theta"], d["theta0"], d["gamma"])
        if self.mu == 0:
            words = (f"With \u03b3 = {d['gamma']:.3g}: D = {D:.3g}, R = {R:.3g}, and the "
                     f"perceptron makes at most ((R + D)/\u03b3)\u00b2 = "
                     f"{freund_schapire_bound(R, d['gamma'], D):.3g} mistakes in one epoch.")
        else:
            Rmu = float(np.sqrt(R * R + 2 * self.mu))
            words = (f"With \u03b3 = {d['gamma']:.3g}: D = {D:.3g}, R = {R:.3g}, and the "
                     "margin perceptron makes at most "
                     f"((\u221a(R\u00b2 + 2\u03bc) + D)/\u03b3)\u00b2 = "
                     f"{freund_schapire_bound(Rmu, d['gamma'], D):.3g} updates in one epoch.")
        r = margin_perceptron(X, y, margin=self.mu, tau=self.tau)
        how = (f"converged in {r.epochs} epochs" if r.converged
               else f"stopped after \u03c4 = {self.tau} epochs")
        return (f"{words} Run on these data with \u03bc = {self.mu:g}, it made {r.mistakes} "
                f"updates and {how}.")

    def png(self) -> bytes:
        """The fallback picture of the first data set, as PNG bytes."""
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        from .. import plotting
        from ..margin_perceptron import margin_perceptron

        d = self.datasets[0]
        X, y = np.array(d["X"]), np.array(d["y"], dtype=float)
        u, u_0, gamma = np.array(d["theta"]), d["theta0"], d["gamma"]
        _, m = _lifted(X, y, u, u_0)
        fig = Figure(figsize=(5.2, 5.2), dpi=100)
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        lo, hi = X.min(axis=0) - 0.6, X.max(axis=0) + 0.6
        span, mid = float(max(hi - lo)), (lo + hi) / 2
        plotting.style_axes(ax, xlim=(mid[0] - span / 2, mid[0] + span / 2),
                            ylim=(mid[1] - span / 2, mid[1] + span / 2), title=d["name"])
        # lifted margin < gamma is a band of half-width gamma ||(u, u_0)|| / ||u|| in the plane
        width = gamma * float(np.linalg.norm(np.append(u, u_0)) / np.linalg.norm(u))
        plotting.plot_margin_band(ax, u, u_0, width, label=f"lifted margin < γ = {gamma:.3g}")
        plotting.plot_boundary(ax, u, u_0, shade=False, label="reference separator",
                               linestyle="--", color="0.35")
        r = margin_perceptron(X, y, margin=self.mu, tau=self.tau)
        if np.any(r.theta):
            plotting.plot_boundary(ax, r.theta, r.theta_0, shade=False,
                                   label=f"margin perceptron, μ = {self.mu:g}")
        plotting.plot_points(ax, X, y, size=60)
        bad = m < gamma
        if np.any(bad):
            ax.scatter(X[bad, 0], X[bad, 1], s=230, facecolors="none", edgecolors="black",
                       linewidths=1.2, zorder=4, label="$d_i > 0$")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, fontsize=8,
                  frameon=False)
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
        return buf.getvalue()

    def static_html(self) -> str:
        """The fallback: a picture of the starting state with alt text, and a caption."""
        data = base64.b64encode(self.png()).decode("ascii")
        return ('<figure class="explorer-static">'
                f'<img src="data:image/png;base64,{data}" alt="{html.escape(self.alt_text())}" '
                'style="max-width:100%;height:auto"/>'
                f"<figcaption>{html.escape(self.summary())} {html.escape(PAGE_NOTE)}"
                "</figcaption></figure>")

    # -- the element ----------------------------------------------------------------------
    @property
    def html(self) -> str:
        """The ``<div class="margin-demo">`` with its data and its fallback."""
        attrs = {
            "class": "margin-demo demo-kit demo-framed",
            "data-mu": repr(self.mu),
            "data-tau": str(self.tau),
            "data-datasets": data_json(self.datasets),
        }
        attrs = {"id": demo_id("margin-demo", attrs, self.element_id), **attrs}
        return framed(attrs, "md", self.static_html())

    def _repr_html_(self) -> str:
        return self.html

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict:
        """The page's HTML and, made with ``explorer=True``, the live explorer's view."""
        return mime_bundle(self._explorer, self.html, repr(self), include, exclude)

    def __repr__(self) -> str:
        n = len(self.datasets)
        return f"<margin demo, {n} data set{'s' if n != 1 else ''}, mu = {self.mu:g}>"
