"""Named data sets: every worked example of the course's sources (chapters 1, 2, 3, 5).

Each function returns fresh arrays, so changing them cannot change the next call.
Where a source shows points only in a figure, the coordinates here are ones we chose
to agree with every number the source prints; the docstring says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Dataset:
    """A small labelled data set with the separator the source discusses.

    Attributes
    ----------
    name : str
    X : numpy.ndarray, shape (n, d)
    y : numpy.ndarray, shape (n,)
        Labels in {-1, +1}.
    theta, theta_0
        The hypothesis the source uses with these data (None when it uses none).
    description : str
    extra : dict
        Anything else the source gives (for example a lifted separator).
    """

    name: str
    X: np.ndarray
    y: np.ndarray
    theta: np.ndarray | None = None
    theta_0: float | None = None
    description: str = ""
    extra: dict = field(default_factory=dict)


def notes_example() -> Dataset:
    """The lecture notes' worked example for the update (chapter 1) and margins (chapter 3).

    The hypothesis ``theta = (1, -1)``, ``theta_0 = 1`` misclassifies ``x = (1, 3)``
    (label +1); one update gives ``theta = (2, 2)``, ``theta_0 = 2``, which then
    misclassifies the negative point.  The point margins are ``-sqrt(2)/2``,
    ``sqrt(2)`` and ``sqrt(2)``.

    The notes show the other two points only in a figure: ``(2, 1)`` (label +1) and
    ``(-1, 2)`` (label -1) are our choice, made to give exactly those margins.
    """
    return Dataset(
        name="notes_example",
        X=np.array([[1.0, 3.0], [2.0, 1.0], [-1.0, 2.0]]),
        y=np.array([1.0, 1.0, -1.0]),
        theta=np.array([1.0, -1.0]),
        theta_0=1.0,
        description="Worked example of the lecture notes: one update, three margins.",
        extra={
            "theta_after_update": np.array([2.0, 2.0]),
            "theta_0_after_update": 2.0,
            "margins": np.array([-np.sqrt(2) / 2, np.sqrt(2), np.sqrt(2)]),
        },
    )


def offset_example() -> Dataset:
    """The one-dimensional offset example (chapter 2).

    ``X = [1, 2, 3, 4]`` with labels ``+1, +1, -1, -1`` is separated by ``theta = -1``,
    ``theta_0 = 2.5`` but by no separator through the origin.  After appending a
    coordinate 1 to every point, ``theta_new = (-1, 2.5)`` separates it through the
    origin.
    """
    return Dataset(
        name="offset_example",
        X=np.array([[1.0], [2.0], [3.0], [4.0]]),
        y=np.array([1.0, 1.0, -1.0, -1.0]),
        theta=np.array([-1.0]),
        theta_0=2.5,
        description="1-D data separable with an offset, not through the origin.",
        extra={"theta_lifted": np.array([-1.0, 2.5])},
    )


@dataclass(frozen=True)
class SpamExample:
    """The text messages of the spam example (chapter 5).

    Attributes
    ----------
    messages : tuple of str
        The four training messages.
    y : numpy.ndarray
        Their labels: spam +1, not spam -1.
    paper_features : numpy.ndarray, shape (4, 3)
        The feature table as the source paper prints it (as fractions).
    test_message : str
    paper_test_features : numpy.ndarray, shape (2,)
        The paper's two features of the test message, ``(3/14, 1/17)``.
    extra_X, extra_y
        The four added training points of the paper's third figure (two features).
    """

    messages: tuple[str, ...]
    y: np.ndarray
    paper_features: np.ndarray
    test_message: str
    paper_test_features: np.ndarray
    extra_X: np.ndarray
    extra_y: np.ndarray


def spam_messages() -> SpamExample:
    """The four labelled messages, the test message and the added points (chapter 5)."""
    messages = (
        "Help me reach my goal of raising $500 for my high school track and field "
        "fundraiser! Thank you for your support!",
        "Hope you are doing well today. If interested in a contractor position with my "
        "startup company, send me your WORD resume, BIRTHDAY, SSN, and ADDRESS. "
        "Technical Recruiter. My cell is 808-326-9607.",
        "Your Bank of America credit card payment of $256.08 is due by 4/1/2019. "
        "Please sign in view bill and pay.",
        "WINNER! You have been selected to receive a $999 prize reward! To claim call "
        "0907146174. Valid 24 hours only.",
    )
    return SpamExample(
        messages=messages,
        y=np.array([-1.0, 1.0, -1.0, 1.0]),
        paper_features=np.array(
            [
                [0.0, 3 / 20, 2.0],
                [4 / 26, 10 / 30, 0.0],
                [0.0, 11 / 18, 0.0],
                [1 / 15, 15 / 16, 2.0],
            ]
        ),
        test_message=(
            "Your W-2s are ready! FILE your simple tax returns for FREE! Sign back in to "
            "TurboTax today."
        ),
        paper_test_features=np.array([3 / 14, 1 / 17]),
        extra_X=np.array([[0.5, 0.5], [0.3, 0.7], [0.3, 0.1], [0.6, 0.9]]),
        extra_y=np.array([1.0, 1.0, -1.0, -1.0]),
    )
