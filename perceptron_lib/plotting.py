"""Plot helpers every chapter reuses: points, boundary, normal vector, margin band.

Classes are told apart by marker shape (``+`` and ``-``) as well as by colour, with
colours from the Okabe-Ito palette, which stays distinct for colour-blind readers.
All helpers draw into a given matplotlib ``Axes`` and return it.  Only 2-D data are
drawn; :func:`plot_line_data` draws 1-D data on a number line (chapter 2).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from ._validate import check_data, check_scalar, check_theta

POSITIVE_COLOR = "#0072B2"  # blue
NEGATIVE_COLOR = "#D55E00"  # vermilion
BOUNDARY_COLOR = "#222222"
NORMAL_COLOR = "#009E73"  # bluish green
BAND_COLOR = "#999999"


def new_axes(xlim=(-3, 3), ylim=(-3, 3), size=(4.5, 4.5), title: str | None = None) -> Axes:
    """A square axes with equal aspect, a light grid and the origin marked."""
    fig, ax = plt.subplots(figsize=size)
    style_axes(ax, xlim, ylim, title)
    fig.tight_layout()
    return ax


def style_axes(ax: Axes, xlim=(-3, 3), ylim=(-3, 3), title: str | None = None) -> Axes:
    """Give an existing axes the look of :func:`new_axes`."""
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal")
    ax.grid(True, color="#dddddd", linewidth=0.6)
    ax.axhline(0, color="#bbbbbb", linewidth=0.8, zorder=0)
    ax.axvline(0, color="#bbbbbb", linewidth=0.8, zorder=0)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    if title:
        ax.set_title(title)
    return ax


def _check_2d(theta: ArrayLike) -> np.ndarray:
    th = check_theta(theta)
    if th.shape[0] != 2:
        raise ValueError(f"plots are 2-D: theta must have length 2, got {th.shape[0]}")
    if not np.any(th):
        raise ValueError("theta is the zero vector: there is no boundary to draw")
    return th


def plot_points(
    ax: Axes,
    X: ArrayLike,
    y: ArrayLike,
    *,
    size: float = 90,
    annotate: bool = False,
    labels: tuple[str, str] = ("$y=+1$", "$y=-1$"),
    highlight: int | None = None,
    highlight_label: str = "current example",
) -> Axes:
    """Draw labelled 2-D points: ``+`` for +1 and ``-`` for -1 (chapters 1 to 5).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    X : array_like, shape (n, 2)
    y : array_like, shape (n,) of -1/+1
    size : float
        Marker size.
    annotate : bool
        Write each point's index (from 1, as in the notes) next to it.
    labels : (str, str)
        Legend entries for the two classes.
    highlight : int, optional
        Row of ``X`` to ring, for example the example under consideration.
    highlight_label : str
        Legend entry of the ring.
    """
    Xa, ya = check_data(X, y)
    if Xa.shape[1] != 2:
        raise ValueError(f"plot_points draws 2-D data, got {Xa.shape[1]} features")
    for label, marker, color, name in (
        (1.0, "+", POSITIVE_COLOR, labels[0]),
        (-1.0, "_", NEGATIVE_COLOR, labels[1]),
    ):
        pts = Xa[ya == label]
        if len(pts):
            ax.scatter(
                pts[:, 0], pts[:, 1], marker=marker, s=size, color=color,
                linewidths=2.5, label=name, zorder=3,
            )
    if annotate:
        for k, (a, b) in enumerate(Xa, start=1):
            ax.annotate(
                f"$x^{{({k})}}$", (a, b), textcoords="offset points", xytext=(7, 5),
                fontsize=10,
            )
    if highlight is not None:
        a, b = Xa[int(highlight)]
        ax.scatter([a], [b], s=size * 4, facecolors="none", edgecolors="black",
                   linewidths=1.5, zorder=4, label=highlight_label)
    return ax


def _line_in_box(theta: np.ndarray, theta_0: float, xlim, ylim, shift: float = 0.0):
    """Endpoints of ``theta . x + theta_0 = shift * ||theta||`` clipped to the view box."""
    a, b = theta
    c = theta_0 - shift * np.hypot(a, b)
    pts = []
    x0, x1 = xlim
    y0, y1 = ylim
    if b != 0:
        for xx in (x0, x1):
            yy = -(a * xx + c) / b
            if y0 - 1e-12 <= yy <= y1 + 1e-12:
                pts.append((xx, yy))
    if a != 0:
        for yy in (y0, y1):
            xx = -(b * yy + c) / a
            if x0 - 1e-12 <= xx <= x1 + 1e-12:
                pts.append((xx, yy))
    if len(pts) < 2:
        return None
    pts = np.array(pts)
    # the two points farthest apart (corners can appear twice)
    i, j = max(
        ((i, j) for i in range(len(pts)) for j in range(i + 1, len(pts))),
        key=lambda ij: np.hypot(*(pts[ij[0]] - pts[ij[1]])),
    )
    return pts[[i, j]]


def _clip_box(xlim, ylim, a: float, b: float, c: float) -> np.ndarray:
    """Corners of the part of the view box where ``a x + b y + c >= 0`` (a convex polygon)."""
    poly = [(xlim[0], ylim[0]), (xlim[1], ylim[0]), (xlim[1], ylim[1]), (xlim[0], ylim[1])]
    return _clip_polygon(np.array(poly), a, b, c)


def _clip_polygon(poly: np.ndarray, a: float, b: float, c: float) -> np.ndarray:
    """Sutherland-Hodgman clipping of a convex polygon by one half-plane."""
    out = []
    n = len(poly)
    for k in range(n):
        p, q = poly[k], poly[(k + 1) % n]
        fp, fq = a * p[0] + b * p[1] + c, a * q[0] + b * q[1] + c
        if fp >= 0:
            out.append(p)
        if (fp >= 0) != (fq >= 0):
            s = fp / (fp - fq)
            out.append(p + s * (q - p))
    return np.array(out).reshape(-1, 2)


def plot_boundary(
    ax: Axes,
    theta: ArrayLike,
    theta_0: float = 0.0,
    *,
    shade: bool = True,
    label: str | None = "boundary",
    **line_kw,
) -> Axes:
    """Draw the line ``theta . x + theta_0 = 0`` across the axes (chapter 1).

    With ``shade`` the half-plane classified +1 is tinted lightly in the +1 colour.
    Extra keyword arguments go to ``Axes.plot`` (for example ``linestyle="--"`` for
    the hypothesis after an update).
    """
    th = _check_2d(theta)
    t0 = check_scalar(theta_0, "theta_0")
    xlim, ylim = ax.get_xlim(), ax.get_ylim()
    seg = _line_in_box(th, t0, xlim, ylim)
    kw = {"color": BOUNDARY_COLOR, "linewidth": 2.0}
    kw.update(line_kw)
    if seg is not None:
        ax.plot(seg[:, 0], seg[:, 1], label=label, zorder=2, **kw)
    if shade:
        region = _clip_box(xlim, ylim, th[0], th[1], t0)
        if len(region) >= 3:
            ax.fill(region[:, 0], region[:, 1], color=POSITIVE_COLOR, alpha=0.08, zorder=0,
                    linewidth=0)
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    return ax


def plot_normal(
    ax: Axes,
    theta: ArrayLike,
    theta_0: float = 0.0,
    *,
    length: float | None = None,
    label: str | None = r"normal $\theta$",
    color: str = NORMAL_COLOR,
) -> Axes:
    """Draw the normal vector ``theta`` as an arrow from the boundary (chapter 1).

    The arrow starts at the point of the boundary closest to the origin,
    ``-theta_0 theta / ||theta||^2``, and points to the side classified +1.  By
    default it has the length of ``theta``; pass ``length`` to draw a fixed length.
    """
    th = _check_2d(theta)
    t0 = check_scalar(theta_0, "theta_0")
    nrm = np.linalg.norm(th)
    foot = -t0 * th / nrm**2
    vec = th if length is None else th / nrm * length
    ax.annotate(
        "", xy=foot + vec, xytext=foot,
        arrowprops={"arrowstyle": "-|>", "color": color, "linewidth": 2.0,
                    "mutation_scale": 16},
        zorder=4,
    )
    if label:
        ax.plot([], [], color=color, linewidth=2.0, label=label)
    return ax


def plot_margin_band(
    ax: Axes,
    theta: ArrayLike,
    theta_0: float,
    gamma: float,
    *,
    label: str | None = "margin band",
) -> Axes:
    """Shade the band of points within distance ``gamma`` of the boundary (chapter 3)."""
    th = _check_2d(theta)
    t0 = check_scalar(theta_0, "theta_0")
    g = check_scalar(gamma, "gamma")
    if g <= 0:
        raise ValueError(f"gamma must be positive to draw a band, got {g}")
    xlim, ylim = ax.get_xlim(), ax.get_ylim()
    nrm = float(np.linalg.norm(th))
    band = _clip_box(xlim, ylim, th[0], th[1], t0 + g * nrm)
    band = _clip_polygon(band, -th[0], -th[1], -t0 + g * nrm) if len(band) else band
    if len(band) >= 3:
        ax.fill(band[:, 0], band[:, 1], color=BAND_COLOR, alpha=0.25, zorder=1, linewidth=0)
    for sh in (-g, g):
        seg = _line_in_box(th, t0, xlim, ylim, shift=sh)
        if seg is not None:
            ax.plot(seg[:, 0], seg[:, 1], color=BAND_COLOR, linestyle=":", linewidth=1.5,
                    zorder=2)
    if label:
        ax.fill([], [], color=BAND_COLOR, alpha=0.25, label=label)
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    return ax


def plot_classifier(
    X: ArrayLike,
    y: ArrayLike,
    theta: ArrayLike | None = None,
    theta_0: float = 0.0,
    *,
    ax: Axes | None = None,
    gamma: float | None = None,
    pad: float = 1.0,
    annotate: bool = False,
    highlight: int | None = None,
    title: str | None = None,
    legend: bool = True,
) -> Axes:
    """Points, and when ``theta`` is given its boundary and normal vector (chapters 1-5).

    The view is the data's bounding box grown by ``pad``; with ``gamma`` the margin
    band is drawn too.
    """
    Xa, ya = check_data(X, y)
    if ax is None:
        lo = Xa.min(axis=0) - pad
        hi = Xa.max(axis=0) + pad
        span = max(hi - lo)
        mid = (lo + hi) / 2
        ax = new_axes(xlim=(mid[0] - span / 2, mid[0] + span / 2),
                      ylim=(mid[1] - span / 2, mid[1] + span / 2), title=title)
    elif title:
        ax.set_title(title)
    if theta is not None and np.any(np.asarray(theta, dtype=float)):
        if gamma is not None:
            plot_margin_band(ax, theta, theta_0, gamma)
        plot_boundary(ax, theta, theta_0)
        plot_normal(ax, theta, theta_0)
    plot_points(ax, Xa, ya, annotate=annotate, highlight=highlight)
    if legend:
        ax.legend(loc="best", fontsize=8, framealpha=0.9, markerscale=0.7)
    return ax


def plot_line_data(
    ax: Axes,
    x: ArrayLike,
    y: ArrayLike,
    *,
    theta: float | None = None,
    theta_0: float = 0.0,
) -> Axes:
    """Draw 1-D labelled data on a number line, with the threshold ``-theta_0 / theta``.

    Chapter 2 uses it for the offset example.
    """
    xa = np.asarray(x, dtype=float).reshape(-1, 1)
    Xa, ya = check_data(xa, y)
    plot_points(ax, np.hstack([Xa, np.zeros_like(Xa)]), ya)
    ax.axhline(0, color="#bbbbbb", linewidth=0.8, zorder=0)
    ax.set_yticks([])
    ax.set_xlabel("$x$")
    if theta is not None and theta != 0:
        cut = -check_scalar(theta_0, "theta_0") / check_scalar(theta, "theta")
        ax.axvline(cut, color=BOUNDARY_COLOR, linewidth=2.0, label=f"threshold $x={cut:g}$")
    return ax
