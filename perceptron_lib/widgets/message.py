"""The message explorer of chapter 5: a message, its features and the verdict."""

from __future__ import annotations

import ipywidgets as w
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .. import plotting
from .._validate import check_data, check_scalar, check_theta
from ..spam import FEATURE_NAMES, count_message, spam_features, tokenize
from ._base import Explorer, _fmt_vec, _legend, for_people

#: The height of the message box, in lines of text.
MESSAGE_ROWS = 6


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
        # rows: a whole message in view (the default two rows show a line of it)
        self._text = w.Textarea(description="message", layout=w.Layout(width="95%"),
                                rows=MESSAGE_ROWS, continuous_update=True)
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
        return for_people(f"Message explorer: the message has features "
                          f"{_fmt_vec(self.features_all)}, score {self.score:.3g}, "
                          f"verdict {self.verdict}.")
