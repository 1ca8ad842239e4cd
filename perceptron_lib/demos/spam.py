"""Chapter 5's message demo for the book's pages, built from the chapter's own classifier.

On the published site nobody runs a kernel, so chapter 5 places a demo that runs in the
reader's browser (``book/_demos/spam``): a text box, the three spam features computed as
the reader types (by ``spam-core.mjs``, which a test holds to :mod:`perceptron_lib.spam`
on a corpus of messages), the message as a point among the chapter's training messages
in the chapter's feature plane, and the verdict of the chapter's perceptron.

:class:`SpamDemo` takes that perceptron as the chapter computed it (``theta``,
``theta_0``, the feature columns it uses and, for a classifier trained on standardized
features, the ``mean`` and ``scale`` of the training rows) and writes the page's
element: the demo's markup, drawn here for the chapter's initial message so that the
page does not move when the script starts, and the static picture of
:class:`perceptron_lib.widgets.MessageExplorer` for readers without JavaScript.  In a
live Jupyter kernel the same object shows the explorer itself.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._validate import check_data, check_scalar, check_theta
from ..spam import FEATURE_NAMES, MessageCounts, count_message, spam_features, tokenize
from .page import attributes, data_json, mime_bundle

#: Drawing units of the feature plane (the SVG's viewBox) and its plot area.
VIEW = (420, 360)
BOX = {"left": 58.0, "top": 14.0, "right": 406.0, "bottom": 304.0}
AXIS_TITLES = ("x\u2081, caps ratio", "x\u2082, digits ratio", "x\u2083, exclamation marks")
ROW_HEADERS = (
    ("x\u2081", "all-caps words \u00f7 other words"),
    ("x\u2082", "digits \u00f7 words"),
    ("x\u2083", "exclamation marks"),
)
EMPTY_PROMPT = "Type a message to classify it."

_counter = itertools.count(1)


@dataclass(frozen=True)
class SpamModel:
    """A linear classifier over some of the three spam features (chapter 5).

    The score of a message with features ``x`` is ``sum_j theta[j] * z[j] + theta_0``,
    summed left to right with ``theta_0`` added last, where ``z[j] = x[columns[j]]``,
    standardized as ``(z[j] - mean[j]) / scale[j]`` when ``mean`` and ``scale`` are
    given.  The page's script computes the same sum in the same order.

    Attributes
    ----------
    theta : numpy.ndarray, shape (k,)
    theta_0 : float
    columns : tuple of int
        Which features (0 caps ratio, 1 digits ratio, 2 exclamation marks) it uses.
    mean, scale : numpy.ndarray of shape (k,), or None
    """

    theta: np.ndarray
    theta_0: float
    columns: tuple[int, ...]
    mean: np.ndarray | None = None
    scale: np.ndarray | None = None

    @classmethod
    def make(cls, theta: ArrayLike, theta_0: float, columns: Sequence[int] = (0, 1),
             mean: ArrayLike | None = None, scale: ArrayLike | None = None) -> SpamModel:
        """Check the parts and build the model.

        Raises
        ------
        ValueError, TypeError
            On columns outside 0..2 or repeated, a theta of another length, a NaN, or
            a scale with a zero.
        """
        cols = tuple(int(c) for c in columns)
        if not cols or any(c not in (0, 1, 2) for c in cols) or len(set(cols)) != len(cols):
            raise ValueError(f"columns must be distinct indices among 0, 1, 2, got {columns!r}")
        th = check_theta(theta, d=len(cols))
        t0 = check_scalar(theta_0, "theta_0")
        m = None if mean is None else check_theta(mean, d=len(cols), name="mean")
        s = None if scale is None else check_theta(scale, d=len(cols), name="scale")
        if s is not None and np.any(s == 0):
            raise ValueError("scale has a zero: a feature cannot be divided by 0")
        return cls(th, t0, cols, m, s)

    def score(self, features: ArrayLike) -> float:
        """The score of a message's three features (see the class)."""
        x = np.asarray(features, dtype=float)
        total = 0.0
        for j, col in enumerate(self.columns):
            z = float(x[col])
            if self.mean is not None:
                z -= float(self.mean[j])
            if self.scale is not None:
                z /= float(self.scale[j])
            total += float(self.theta[j]) * z
        return total + self.theta_0

    def verdict(self, features: ArrayLike) -> int:
        """+1 (spam) when the score is positive, -1 (not spam) otherwise."""
        return 1 if self.score(features) > 0 else -1

    def raw_line(self) -> tuple[np.ndarray, float]:
        """``(a, c)`` with ``a . x + c`` the score as a function of the raw features."""
        a = self.theta.copy()
        c = self.theta_0
        if self.scale is not None:
            a = a / self.scale
        if self.mean is not None:
            c -= float(a @ self.mean)
        return a, float(c)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"columns": list(self.columns),
                               "theta": [float(v) for v in self.theta],
                               "theta0": float(self.theta_0)}
        if self.mean is not None:
            out["mean"] = [float(v) for v in self.mean]
        if self.scale is not None:
            out["scale"] = [float(v) for v in self.scale]
        return out


def ratio_text(num: int, den: int, places: int = 3) -> str:
    """``num / den`` rounded half up to ``places`` decimals, by integer arithmetic.

    The page's script rounds the same way, so both print the same digits.

    Examples
    --------
    >>> ratio_text(1, 16), ratio_text(2, 15), ratio_text(3, 1)
    ('0.063', '0.133', '3.000')
    """
    unit = 10**places
    scaled = (2 * num * unit + den) // (2 * den)
    whole, frac = divmod(scaled, unit)
    return f"{whole}.{frac:0{places}d}" if places else str(whole)


def score_text(score: float) -> str:
    """A score with three decimals and a typographic minus, as the page writes it."""
    return f"{score:.3f}".replace("-", "\u2212")


def feature_cells(c: MessageCounts) -> list[tuple[str, str]]:
    """``(counts, value)`` of each feature row of the demo, e.g. ``("2 / 15", "0.133")``."""
    other, words = max(c.other_words, 1), max(c.words, 1)
    return [
        (f"{c.caps_words} / {other}", ratio_text(c.caps_words, other)),
        (f"{c.digits} / {words}", ratio_text(c.digits, words)),
        (f"{c.exclamations}", str(c.exclamations)),
    ]


def _nice_step(span: float, most: int = 8) -> float:
    p = 10.0 ** np.floor(np.log10(span / most))
    for m in (1, 2, 5, 10):
        if span / (m * p) <= most:
            return m * p
    return 10 * p  # pragma: no cover - the loop always returns


def _ticks(lo: float, hi: float) -> list[float]:
    step = _nice_step(hi - lo)
    k = np.ceil(lo / step - 1e-9)
    out = []
    while k * step <= hi + 1e-9:
        out.append(round(float(k * step), 10) + 0.0)
        k += 1
    return out


def _clip(poly: list[tuple[float, float]], a: np.ndarray, c: float) -> list[tuple[float, float]]:
    """The part of a convex polygon where ``a . p + c > 0`` (one Sutherland-Hodgman edge)."""
    out = []
    for k, p in enumerate(poly):
        q = poly[(k + 1) % len(poly)]
        fp, fq = a[0] * p[0] + a[1] * p[1] + c, a[0] * q[0] + a[1] * q[1] + c
        if fp > 0:
            out.append(p)
        if (fp > 0) != (fq > 0):
            s = fp / (fp - fq)
            out.append((p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1])))
    return out


class _Plane:
    """The map from feature values to drawing units."""

    def __init__(self, xlim: tuple[float, float], ylim: tuple[float, float]):
        self.xlim, self.ylim = xlim, ylim

    def px(self, x: float) -> float:
        return BOX["left"] + (x - self.xlim[0]) / (self.xlim[1] - self.xlim[0]) * (
            BOX["right"] - BOX["left"])

    def py(self, y: float) -> float:
        return BOX["bottom"] - (y - self.ylim[0]) / (self.ylim[1] - self.ylim[0]) * (
            BOX["bottom"] - BOX["top"])

    def place(self, x: float, y: float) -> tuple[float, float, bool]:
        """Drawing position of a point, held inside the plot; and whether it was outside."""
        inside = self.xlim[0] <= x <= self.xlim[1] and self.ylim[0] <= y <= self.ylim[1]
        pad = 6.0
        u = min(max(self.px(x), BOX["left"] + pad), BOX["right"] - pad)
        v = min(max(self.py(y), BOX["top"] + pad), BOX["bottom"] - pad)
        return u, v, not inside


def _tick(v: float) -> str:
    return f"{v:g}".replace("-", "\u2212")


def _f(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


STAR = ("M0,-11 L2.6,-3.6 L10.5,-3.4 L4.2,1.4 L6.5,9 L0,4.5 L-6.5,9 L-4.2,1.4 "
        "L-10.5,-3.4 L-2.6,-3.6 Z")


def plane_svg(model: SpamModel, X: np.ndarray, y: np.ndarray, xlim: tuple[float, float],
              ylim: tuple[float, float], point: np.ndarray | None) -> str:
    """The feature plane: grid, axes, the classifier's line and spam side, the training
    points numbered from 1, and the message's star (chapter 5)."""
    plane = _Plane(xlim, ylim)
    a, c = model.raw_line()
    title = html.escape(plane_title(point, xlim, ylim, model), quote=True)
    parts = [f'<svg class="sd-plane" viewBox="0 0 {VIEW[0]} {VIEW[1]}" role="img" '
             f'aria-label="{title}" focusable="false">']
    box = [(xlim[0], ylim[0]), (xlim[1], ylim[0]), (xlim[1], ylim[1]), (xlim[0], ylim[1])]
    spam_side = _clip(box, a, c)
    if len(spam_side) >= 3:
        pts = " ".join(f"{_f(plane.px(p))},{_f(plane.py(q))}" for p, q in spam_side)
        parts.append(f'<polygon class="sd-spam-side" points="{pts}"/>')
    for t in _ticks(*xlim):
        u = _f(plane.px(t))
        parts.append(f'<line class="sd-grid" x1="{u}" x2="{u}" y1="{BOX["top"]}" '
                     f'y2="{BOX["bottom"]}"/>')
        parts.append(f'<text class="sd-tick" x="{u}" y="{BOX["bottom"] + 17}" '
                     f'text-anchor="middle">{_tick(t)}</text>')
    for t in _ticks(*ylim):
        v = _f(plane.py(t))
        parts.append(f'<line class="sd-grid" x1="{BOX["left"]}" x2="{BOX["right"]}" '
                     f'y1="{v}" y2="{v}"/>')
        parts.append(f'<text class="sd-tick" x="{BOX["left"] - 6}" y="{v}" '
                     f'text-anchor="end" dominant-baseline="middle">{_tick(t)}</text>')
    parts.append(f'<rect class="sd-frame" x="{BOX["left"]}" y="{BOX["top"]}" '
                 f'width="{BOX["right"] - BOX["left"]}" height="{BOX["bottom"] - BOX["top"]}"/>')
    cols = model.columns
    parts.append(f'<text class="sd-axis" x="{(BOX["left"] + BOX["right"]) / 2}" '
                 f'y="{VIEW[1] - 8}" text-anchor="middle">{AXIS_TITLES[cols[0]]}</text>')
    mid = (BOX["top"] + BOX["bottom"]) / 2
    parts.append(f'<text class="sd-axis" transform="translate(14 {mid}) rotate(-90)" '
                 f'text-anchor="middle" dominant-baseline="middle">{AXIS_TITLES[cols[1]]}</text>')
    ends = _line_in_box(a, c, xlim, ylim)
    if ends is not None:
        (p0, q0), (p1, q1) = ends
        parts.append(f'<line class="sd-boundary" x1="{_f(plane.px(p0))}" y1="{_f(plane.py(q0))}" '
                     f'x2="{_f(plane.px(p1))}" y2="{_f(plane.py(q1))}"/>')
    for i, (row, label) in enumerate(zip(X, y, strict=True), start=1):
        u, v, _ = plane.place(float(row[0]), float(row[1]))
        if label > 0:
            parts.append(f'<path class="sd-pos" d="M{_f(u - 7)},{_f(v)}h14'
                         f'M{_f(u)},{_f(v - 7)}v14"/>')
        else:
            parts.append(f'<path class="sd-neg" d="M{_f(u - 7)},{_f(v)}h14"/>')
        parts.append(f'<text class="sd-index" x="{_f(u + 9)}" y="{_f(v - 8)}">{i}</text>')
    if point is None:
        parts.append(f'<g class="sd-star" transform="translate({BOX["left"]} {BOX["bottom"]})" '
                     'hidden=""><path d="' + STAR + '"/></g>')
    else:
        u, v, outside = plane.place(float(point[0]), float(point[1]))
        cls = "sd-star sd-outside" if outside else "sd-star"
        parts.append(f'<g class="{cls}" transform="translate({_f(u)} {_f(v)})">'
                     f'<path d="{STAR}"/></g>')
    parts.append("</svg>")
    return "\n".join(parts)


def _line_in_box(a: np.ndarray, c: float, xlim: tuple[float, float],
                 ylim: tuple[float, float]) -> tuple[tuple[float, float], ...] | None:
    pts = []
    if a[1] != 0:
        for x in xlim:
            yv = -(a[0] * x + c) / a[1]
            if ylim[0] <= yv <= ylim[1]:
                pts.append((x, yv))
    if a[0] != 0:
        for yv in ylim:
            x = -(a[1] * yv + c) / a[0]
            if xlim[0] <= x <= xlim[1]:
                pts.append((x, yv))
    if len(pts) < 2:
        return None
    best = max(itertools.combinations(pts, 2),
               key=lambda pq: np.hypot(pq[0][0] - pq[1][0], pq[0][1] - pq[1][1]))
    return best


def plane_title(point: np.ndarray | None, xlim: tuple[float, float],
                ylim: tuple[float, float], model: SpamModel) -> str:
    """The text alternative of the plane (the page's script writes the same)."""
    start = ("The feature plane: the chapter's training messages, numbered, spam as plus "
             "and not spam as minus signs, and the perceptron's line with the spam side "
             "shaded.")
    if point is None:
        return start + " No message yet."
    x, y = float(point[0]), float(point[1])
    inside = xlim[0] <= x <= xlim[1] and ylim[0] <= y <= ylim[1]
    where = "" if inside else ", outside the plot (shown at its edge)"
    return f"{start} Your message is the star at ({x:.3f}, {y:.3f}){where}."


def spam_demo_html(theta: ArrayLike, theta_0: float, X: ArrayLike, y: ArrayLike, *,
                   columns: Sequence[int] = (0, 1), mean: ArrayLike | None = None,
                   scale: ArrayLike | None = None, message: str = "",
                   examples: Mapping[str, str] | None = None,
                   xlim: tuple[float, float] | None = None,
                   ylim: tuple[float, float] | None = None,
                   fallback: str = "") -> str:
    """The ``<div class="spam-demo">`` of chapter 5's page.

    Parameters
    ----------
    theta, theta_0 : the chapter's trained perceptron, over the features ``columns``.
    X, y : array_like
        The training messages' points in those two features, and their labels; drawn
        numbered from 1.
    columns : pair of int, default (0, 1)
        The features of the plane and of the classifier (0 caps ratio, 1 digits ratio,
        2 exclamation marks).
    mean, scale : array_like, optional
        The standardization the classifier was trained with, per column.
    message : str
        The message the demo starts with.
    examples : mapping of str to str, optional
        Messages the reader can load with a button, by button label.
    xlim, ylim : pair of float, optional
        The plane's axes; by default the training points with a margin.
    fallback : str
        HTML shown where the demo cannot run (no JavaScript, a notebook).

    Returns
    -------
    str
        The element, ready for ``IPython.display.HTML``.

    Examples
    --------
    >>> html = spam_demo_html([1.0, -1.0], 0.5, [[0.1, 0.2], [0.0, 0.5]], [1, -1],
    ...                       message="FREE entry!!")
    >>> html.startswith('<div class="spam-demo demo-kit"')
    True
    """
    model = SpamModel.make(theta, theta_0, columns, mean, scale)
    if len(model.columns) != 2:
        raise ValueError("the demo draws a plane: columns must name two features")
    Xa, ya = check_data(X, y)
    if Xa.shape[1] != 2:
        raise ValueError(f"X holds the points in the plane's two features, got shape {Xa.shape}")
    if not isinstance(message, str):
        raise TypeError(f"message must be a str, got {type(message).__name__}")
    xlim = _limits(xlim, Xa[:, 0], "xlim")
    ylim = _limits(ylim, Xa[:, 1], "ylim")
    examples = dict(examples or {})
    for label, text in examples.items():
        if not isinstance(label, str) or not isinstance(text, str):
            raise TypeError("examples must map button labels (str) to messages (str)")

    n = next(_counter)
    ids = {k: f"spam-demo-{n}-{k}" for k in ("message", "caption", "verdict")}
    counts = count_message(message) if tokenize(message) else None
    feats = spam_features(message) if counts else None
    point = None if feats is None else feats[list(model.columns)]
    config = {**model.to_json(), "xlim": list(xlim), "ylim": list(ylim), "box": BOX,
              "examples": list(examples.values())}
    esc = html.escape

    rows = []
    cells = feature_cells(counts) if counts else [("\u2014", "\u2014")] * 3
    for k, ((sym, what), (cnt, val)) in enumerate(zip(ROW_HEADERS, cells, strict=True)):
        used = " sd-used" if k in model.columns else ""
        rows.append(f'<tr class="sd-row-{k}{used}"><th scope="row"><span class="sd-sym">{sym}'
                    f'</span> {what}</th><td class="sd-count">{cnt}</td>'
                    f'<td class="sd-value">{val}</td></tr>')
    if feats is None:
        score_line, verdict_line, verdict_cls = "score \u2014", EMPTY_PROMPT, "sd-none"
    else:
        s = model.score(feats)
        score_line = f"score \u03b8\u1d40x + \u03b8\u2080 = {score_text(s)}"
        verdict_line = "verdict: spam" if s > 0 else "verdict: not spam"
        verdict_cls = "sd-spam" if s > 0 else "sd-ham"
    buttons = [f'<button type="button" class="sd-example" data-example="{k}">{esc(label)}'
               "</button>" for k, label in enumerate(examples)]
    buttons.append('<button type="button" class="sd-clear">clear</button>')
    group = ('<div class="sd-examples" role="group" aria-label="Load a message">'
             '<span class="sd-examples-label" aria-hidden="true">Load:</span>'
             + "".join(buttons) + "</div>")
    used = " and ".join(ROW_HEADERS[c][0] for c in model.columns)
    head = "".join(f'<th scope="col">{h}</th>' for h in ("feature", "counts", "value"))
    legend = ('<span class="sd-key-pos" aria-hidden="true">+</span> spam, '
              '<span class="sd-key-neg" aria-hidden="true">\u2212</span> not spam '
              "(the chapter's messages); the line is the perceptron's boundary, the shaded "
              'side is classified spam; <span class="sd-key-star" aria-hidden="true">'
              "\u2605</span> your message.")
    live = "\n".join([
        # hidden where the book's stylesheet does not show it (a notebook, no JavaScript)
        '<div class="spam-demo-live" style="display:none">',
        '<div class="sd-top">',
        f'<label class="sd-label" for="{ids["message"]}">Your message</label>',
        f'<textarea id="{ids["message"]}" class="sd-message" rows="3" spellcheck="false" '
        f'autocomplete="off">{esc(message)}</textarea>',
        group,
        "</div>",
        '<div class="sd-readout">',
        '<table class="sd-features">',
        "<caption>The message's features</caption>",
        f"<thead><tr>{head}</tr></thead>",
        "<tbody>", *rows, "</tbody>",
        "</table>",
        f'<p class="sd-score">{score_line}</p>',
        f'<p class="sd-verdict {verdict_cls}" id="{ids["verdict"]}" role="status">'
        f"{verdict_line}</p>",
        f'<p class="sd-note">The perceptron uses {used}.</p>',
        "</div>",
        '<figure class="sd-figure">',
        plane_svg(model, Xa, ya, xlim, ylim, point),
        f'<figcaption id="{ids["caption"]}" class="sd-legend">{legend}</figcaption>',
        "</figure>",
        "</div>",
    ])
    attrs = attributes({"class": "spam-demo demo-kit", "data-config": data_json(config)})
    return (f'<div {attrs}>\n'
            f'<div class="spam-demo-fallback">{fallback}</div>\n{live}\n</div>')


def _limits(lim: tuple[float, float] | None, values: np.ndarray,
            name: str) -> tuple[float, float]:
    if lim is None:
        lo, hi = float(min(values.min(), 0.0)), float(max(values.max(), 0.5))
        pad = 0.1 * (hi - lo)
        return (lo - pad, hi + pad)
    try:
        lo, hi = (float(v) for v in lim)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a pair of numbers, got {lim!r}") from None
    if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
        raise ValueError(f"{name} must be two finite numbers, the first smaller, got {lim!r}")
    return (lo, hi)


class SpamDemo:
    """Chapter 5's message demo: the page's in-browser demo, or the live explorer.

    On the book's pages it is the element of :func:`spam_demo_html`, with the picture of
    a :class:`~perceptron_lib.widgets.MessageExplorer` inside it for readers without
    JavaScript.  In a Jupyter kernel with widgets it is that explorer, live.  Takes the
    parameters of :func:`spam_demo_html` but ``fallback``.
    """

    def __init__(self, theta: ArrayLike, theta_0: float, X: ArrayLike, y: ArrayLike,
                 **options: Any) -> None:
        if "fallback" in options:
            raise TypeError("SpamDemo makes its own fallback (the explorer's picture)")
        self.model = SpamModel.make(theta, theta_0, options.get("columns", (0, 1)),
                                    options.get("mean"), options.get("scale"))
        a, c = self.model.raw_line()
        from ..widgets import MessageExplorer

        self.explorer = MessageExplorer(a, c, message=options.get("message", ""),
                                        features=self.model.columns, X=X, y=y)
        self.html = spam_demo_html(theta, theta_0, X, y, **options,
                                   fallback=self.explorer.static_html())

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, Any]:
        return mime_bundle(self.explorer, self.html, f"SpamDemo: {self.explorer.alt_text()}",
                           include, exclude)

    def __repr__(self) -> str:
        return f"<spam demo, theta={self.model.theta.tolist()}, theta_0={self.model.theta_0}>"


__all__ = ["FEATURE_NAMES", "SpamDemo", "SpamModel", "feature_cells", "plane_title",
           "ratio_text", "score_text", "spam_demo_html"]
