"""The offset demo's HTML, built from the chapter's own arrays (chapter 2, *The offset*).

Chapter 2's page carries a demo that runs in the reader's browser
(``book/_demos/offset``): each data set is drawn beside its lifted picture (1-D data as
points ``(x, c)`` in the plane, 2-D data as points ``(x_1, x_2, c)`` in space), with a
classifier set by sliders, the separator through the origin it becomes after lifting,
PERCEPTRON-THROUGH-ORIGIN on the lifted data beside the same algorithm on the data as
they are, with a chart of each run's updates per epoch, and a slider for the appended
value ``c``.  The reader may edit the data (add, remove, move a point, flip a label; Undo
takes an edit back), and a link carries the edited points.  A test holds its JavaScript to
:func:`perceptron_lib.perceptron_through_origin`, :func:`perceptron_lib.add_offset_feature`,
:func:`perceptron_lib.margin` and :func:`perceptron_lib.radius`, update for update.

A page asks for the demo with a ``<div class="offset-demo">`` whose ``data-*`` attributes
give the data sets, each with a starting classifier, the starting ``c`` and ``tau``;
:func:`offset_demo_html` writes that element from arrays.  The element holds a fallback,
shown where the demo cannot run (no JavaScript, a page opened as a file, a notebook).
:meth:`OffsetDemo.from_explorer` takes it from a
:class:`perceptron_lib.widgets.OffsetExplorer`: a live Jupyter kernel then shows the
explorer's controls, and the book's pages show the demo, with the explorer's picture for
readers without JavaScript.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._validate import check_count, check_data, check_scalar
from .page import Explorer, ExplorerElement, data_json, framed
from .playground import demo_id

#: The positions of the demo's c slider: ten per decade from 0.1 to 100, with three
#: significant digits (``book/_demos/offset/offset-core.mjs`` has the same).
C_VALUES = tuple(float(f"{10 ** ((k - 10) / 10):.3g}") for k in range(31))
#: The sliders for each entry of theta (-3 to 3 by 0.05) and for theta_0 (-8 to 8 by
#: 0.1): (lowest position, highest position, positions per unit); a value is
#: ``position / per``.
THETA_STEPS = (-60, 60, 20)
THETA0_STEPS = (-80, 80, 10)
DEFAULT_FALLBACK = (
    "<p>The offset demo needs JavaScript and a page served over HTTP (run "
    "<code>python3 tasks.py serve</code> for a local copy of the book). In Jupyter, use "
    "the offset explorer instead.</p>"
)
PAGE_NOTE = (
    "<p>On the book's site this is an offset demo that runs in the browser; it needs "
    "JavaScript and a page served over HTTP.</p>"
)



def _on_slider(value: float, steps: tuple[int, int, int], name: str) -> float:
    lo, hi, per = steps
    k = round(value * per)
    if not lo <= k <= hi or k / per != value:
        near = min(max(k, lo), hi) / per
        raise ValueError(
            f"{name} = {value!r} is not a position of its slider ({lo / per:g} to "
            f"{hi / per:g} in steps of {1 / per:g}); the nearest is {near:g}")
    return k / per


def _dataset(name: object, data: object) -> dict[str, Any]:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"data set names must be non-empty strings, got {name!r}")
    if not isinstance(data, tuple | list) or len(data) != 4:
        raise TypeError(f"data set {name!r} must be (X, y, theta, theta_0): the data and "
                        "the classifier the sliders start from")
    X, y = check_data(data[0], data[1])
    d = X.shape[1]
    if d not in (1, 2):
        raise ValueError(f"data set {name!r}: the demo draws 1-D and 2-D data (lifted to "
                         f"the plane and to space), so X needs 1 or 2 columns, got shape "
                         f"{X.shape}")
    theta = np.atleast_1d(np.asarray(data[2], dtype=float))
    if theta.shape != (d,):
        raise ValueError(f"data set {name!r}: theta must have {d} entr{'y' if d == 1 else 'ies'}"
                         f" like the rows of X, got shape {theta.shape}")
    theta = [_on_slider(float(t), THETA_STEPS, f"data set {name!r}: theta[{j}]")
             for j, t in enumerate(theta)]
    theta_0 = _on_slider(check_scalar(data[3], "theta_0"), THETA0_STEPS,
                         f"data set {name!r}: theta_0")
    return {"name": name, "X": X.tolist(), "y": [int(v) for v in y], "theta": theta,
            "theta0": theta_0}


def offset_demo_html(
    datasets: Mapping[str, tuple[ArrayLike, ArrayLike, ArrayLike, float]],
    *,
    c: float = 1.0,
    tau: int = 2000,
    fallback: str = DEFAULT_FALLBACK,
    element_id: str | None = None,
) -> str:
    """The ``<div class="offset-demo">`` for a page (chapter 2).

    Parameters
    ----------
    datasets : mapping of str to (X, y, theta, theta_0)
        The data sets of the demo's menu, in order (the first is loaded): 1 or 2
        columns, labels in {-1, +1}, and the classifier the sliders start from, each
        entry on its slider (theta from -3 to 3 by 0.05, theta_0 from -8 to 8 by 0.1).
    c : float, default 1.0
        The appended value at the start: one of :data:`C_VALUES` (0.1 to 100).
    tau : int, default 2000
        The most epochs a run makes (enough for every c of the slider to converge on
        the chapter's data, where the data lifted by c are separable).
    fallback : str
        HTML shown where the demo cannot run (no JavaScript, a page opened as a file, a
        Jupyter notebook).
    element_id : str, optional
        The element's id, which keys the demo's state in the page's URL.  By default one
        made from the data and options
        (:func:`perceptron_lib.demos.playground.demo_id`), the same in every build.

    Returns
    -------
    str
        The element, ready for ``IPython.display.HTML``.

    Raises
    ------
    ValueError, TypeError
        On an empty mapping, bad data (shape, labels, NaN), a classifier off its
        sliders, or a c the slider cannot show.

    Examples
    --------
    >>> html = offset_demo_html({"line": ([[1], [2], [3], [4]], [1, 1, -1, -1], [-1], 2.5)})
    >>> html.startswith('<div class="offset-demo demo-kit demo-framed" data-c="1.0"')
    True
    """
    if not isinstance(datasets, Mapping) or not datasets:
        raise ValueError("offset_demo_html needs a non-empty mapping of "
                         "name -> (X, y, theta, theta_0)")
    if isinstance(c, bool) or not isinstance(c, int | float):
        raise TypeError(f"c must be a number, got {c!r}")
    if float(c) not in C_VALUES:
        near = min(C_VALUES, key=lambda v: abs(v - float(c)))
        raise ValueError(f"c must be one of the slider's values (0.1 to 100, ten per "
                         f"decade), got {c!r}; the nearest is {near:g}")
    tau = check_count(tau, "tau", 1)
    sets = [_dataset(name, data) for name, data in datasets.items()]
    attrs = {
        "class": "offset-demo demo-kit demo-framed",
        "data-c": repr(float(c)),
        "data-tau": str(tau),
        "data-datasets": data_json(sets),
    }
    attrs["id"] = demo_id("offset-demo", attrs, element_id)
    return framed(attrs, "od", fallback)


class OffsetDemo(ExplorerElement):
    """An offset demo that Jupyter and the book's pages display (chapter 2).

    ``OffsetDemo(datasets, **options)`` holds the HTML of :func:`offset_demo_html`.
    :meth:`from_explorer` adds a :class:`perceptron_lib.widgets.OffsetExplorer`: its
    picture becomes the fallback, and its live controls show wherever a Jupyter kernel
    runs.
    """

    kind = "offset demo"

    def __init__(self, datasets: Mapping[str, tuple[ArrayLike, ArrayLike, ArrayLike, float]],
                 **options: Any) -> None:
        self.html = offset_demo_html(datasets, **options)
        self.n_datasets = len(datasets)
        self._explorer: Explorer | None = None

    @classmethod
    def from_explorer(cls, explorer: Explorer,
                      datasets: Mapping[str, tuple[ArrayLike, ArrayLike, ArrayLike, float]],
                      **options: Any) -> OffsetDemo:
        """The demo of ``datasets``, with the explorer for Jupyter and as the fallback."""
        out = cls(datasets, fallback=explorer.static_html() + PAGE_NOTE, **options)
        out._explorer = explorer
        return out
