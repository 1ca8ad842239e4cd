"""The browser playground's HTML, built from the library's own data (chapters 1, 3 and 4).

The book's pages carry a perceptron playground that runs in the reader's browser
(``book/_demos/playground``: a JavaScript perceptron that a test holds to the library's
updates).  A page asks for one with a ``<div class="perceptron-playground">`` whose
``data-*`` attributes name the data sets and the options.  :func:`playground_html`
writes that element from arrays, so the chapters feed the playground the very data
their code uses instead of copying numbers by hand.

In a live Jupyter kernel the element shows its fallback text only: the playground's
script is served by the book's site, and the explorers of :mod:`perceptron_lib.widgets`
play its part there.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from numpy.typing import ArrayLike

from .._validate import check_count, check_data
from .page import attributes, data_json

MODES = (None, "margin")
#: What an element id must look like to key a demo's state in the page's URL
#: (``book/_demos/kit/url-state.mjs`` checks the same).
ID_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")
DEFAULT_FALLBACK = (
    "The playground needs JavaScript and a page served over HTTP (run "
    "<code>python3 tasks.py serve</code> for a local copy of the book). In Jupyter, use "
    "the explorer of this section instead."
)


def best_margin(X: ArrayLike, y: ArrayLike, offset: bool = True) -> float:
    """The largest margin the mistake bound may use for these data (chapter 4).

    Through the origin this is ``gamma_opt`` of :func:`perceptron_lib.max_margin`.
    With an offset the convergence theorem is applied to the points lifted to
    ``(x, 1)`` and separators through the origin there, so the margin that enters
    ``(R / gamma)^2`` is the best one of the lifted data (chapter 4, the offset case).

    Raises
    ------
    ValueError
        When the data are not linearly separable (there is no margin to report).
    """
    from ..offset import add_offset_feature
    from ..separability import max_margin

    Xa, ya = check_data(X, y)
    if offset:
        Xa = add_offset_feature(Xa)
    return float(max_margin(Xa, ya, offset=False).gamma)


def demo_id(prefix: str, attrs: Mapping[str, str], element_id: str | None) -> str:
    """The id of a demo's element: the one given, checked, or one made from its content.

    The id keys the demo's state in the page's URL (chapters 1, 3, 4 and 6), so it must
    stay the same from one build of the book to the next while the demo does: the
    default is ``prefix`` and the first 8 hex digits of the SHA-256 of the attributes.

    Raises
    ------
    ValueError
        When ``element_id`` is not a letter followed by up to 63 letters, digits, ``-``
        or ``_``.
    """
    if element_id is None:
        digest = hashlib.sha256(json.dumps(dict(attrs), sort_keys=True).encode()).hexdigest()
        return f"{prefix}-{digest[:8]}"
    if not isinstance(element_id, str) or not ID_PATTERN.fullmatch(element_id):
        raise ValueError(
            "element_id must be a letter followed by up to 63 letters, digits, '-' or '_' "
            f"(it names the demo in the page's URL), got {element_id!r}")
    return element_id


def best_separator(X: ArrayLike, y: ArrayLike, offset: bool = True) -> dict[str, Any] | None:
    """The separator of largest margin and its margin ``gamma_opt``, for a page (chapter 3).

    ``{"theta": [...], "theta0": ..., "gamma": ...}`` from :func:`perceptron_lib.max_margin`
    (``theta`` a unit vector), or None when the data are not linearly separable (or, with
    an offset, hold one label only): then there is no best margin to show.
    """
    from ..separability import max_margin

    Xa, ya = check_data(X, y)
    try:
        best = max_margin(Xa, ya, offset=offset)
    except ValueError:
        return None
    return {"theta": [float(v) for v in best.theta], "theta0": float(best.theta_0),
            "gamma": float(best.gamma)}


def _dataset(name: object, data: object, offset: bool, with_best: bool,
             with_opt: bool = False) -> dict[str, Any]:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"playground data set names must be non-empty strings, got {name!r}")
    if not isinstance(data, tuple | list) or len(data) not in (2, 4):
        raise TypeError(f"data set {name!r} must be a pair (X, y) or (X, y, X_test, y_test)")
    X, y = check_data(*data[:2])
    if X.shape[1] != 2:
        raise ValueError(
            f"data set {name!r}: the playground draws points in the plane, so X needs "
            f"2 columns, got shape {X.shape}"
        )
    out: dict[str, Any] = {"name": name, "X": X.tolist(), "y": [int(v) for v in y]}
    if len(data) == 4:
        out.update(held_out(name, data[2], data[3], X.shape[1]))
    if with_best:
        out["best_gamma"] = best_margin(X, y, offset=offset)
    if with_opt:
        opt = best_separator(X, y, offset=offset)
        if opt is not None:
            out["max_margin"] = opt
    return out


def held_out(name: str, X_test: ArrayLike, y_test: ArrayLike, d: int) -> dict[str, Any]:
    """A data set's held-out test set for a page's demo, checked (chapters 1, 6 and 7).

    The demos show, after each epoch, how many of these examples the hypothesis gets
    wrong beside the training mistakes; they must come from the same distribution as
    the training data (:func:`perceptron_lib.demos.data.make_demo_data` with ``n_test``).
    """
    try:
        Xt, yt = check_data(X_test, y_test)
    except (TypeError, ValueError) as err:
        raise type(err)(f"the test set of data set {name!r}: {err}") from None
    if Xt.shape[1] != d:
        raise ValueError(f"the test set of data set {name!r} has {Xt.shape[1]} columns, "
                         f"its training points {d}")
    return {"X_test": Xt.tolist(), "y_test": [int(v) for v in yt]}


def playground_html(
    datasets: Mapping[str, tuple[ArrayLike, ArrayLike]],
    *,
    tau: int = 100,
    offset: bool = True,
    mode: str | None = None,
    show_best_margin: bool = False,
    fallback: str = DEFAULT_FALLBACK,
    element_id: str | None = None,
) -> str:
    """The ``<div class="perceptron-playground">`` for a page (chapters 1, 3 and 4).

    Parameters
    ----------
    datasets : mapping of str to (X, y) or (X, y, X_test, y_test)
        The data sets of the playground's menu, in order (the first is loaded), each
        with 2 columns and labels in {-1, +1}; with a held-out test set from the same
        distribution, the chart also shows the test errors after each epoch.  An empty
        set for the reader's own points is always added by the playground.
    tau : int, default 100
        The most epochs a run makes.
    offset : bool, default True
        False runs PERCEPTRON-THROUGH-ORIGIN (``theta_0`` stays 0).
    mode : None or "margin"
        "margin" writes every point's margin and rings the smallest (chapter 3); each
        separable data set then carries its separator of largest margin and
        ``gamma_opt`` (:func:`best_separator`), which the playground draws dashed and
        writes beside the current margin until the reader edits the data.
    show_best_margin : bool, default False
        Also give the bound with the best margin of each data set (computed here with
        :func:`best_margin`); the playground shows it until the reader edits the data.
        Every data set must then be linearly separable.
    fallback : str
        HTML shown where the playground cannot run (no JavaScript, a page opened as a
        file, a Jupyter notebook).
    element_id : str, optional
        The element's id, which keys the playground's state in the page's URL (a link
        to the page then restores what the reader saw).  By default one made from the
        data and options (:func:`demo_id`), the same in every build.

    Returns
    -------
    str
        The element, ready for ``IPython.display.HTML``.

    Raises
    ------
    ValueError, TypeError
        On an empty mapping, bad data (shape, labels, NaN), a bad ``tau`` or ``mode``.

    Examples
    --------
    >>> html = playground_html({"two points": ([[1, 0], [-1, 0]], [1, -1])}, tau=5)
    >>> html.startswith('<div class="perceptron-playground demo-kit demo-framed" data-tau="5"')
    True
    """
    if not isinstance(datasets, Mapping) or not datasets:
        raise ValueError("playground_html needs a non-empty mapping of name -> (X, y)")
    tau = check_count(tau, "tau", 1)
    if mode not in MODES:
        raise ValueError(f"mode must be None or 'margin', got {mode!r}")
    sets = [_dataset(name, data, bool(offset), show_best_margin, mode == "margin")
            for name, data in datasets.items()]
    attrs = {
        "class": "perceptron-playground demo-kit demo-framed",
        "data-tau": str(tau),
        "data-offset": "true" if offset else "false",
    }
    if mode:
        attrs["data-mode"] = mode
    attrs["data-datasets"] = data_json(sets)
    attrs["id"] = demo_id("playground", attrs, element_id)
    return f'<div {attributes(attrs)}>\n<p class="playground-fallback">{fallback}</p>\n</div>'


class Playground:
    """A playground element that Jupyter and the book's pages display (chapters 1, 3, 4).

    Holds the HTML of :func:`playground_html` and shows it through ``_repr_html_``.
    """

    def __init__(self, datasets: Mapping[str, tuple[ArrayLike, ArrayLike]], **options: Any):
        self.html = playground_html(datasets, **options)

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        n = self.html.count('"name"') or self.html.count("&quot;name&quot;")
        return f"<perceptron playground, {n} data set{'s' if n != 1 else ''}>"
