"""The kernel playground's HTML, built from the chapter's own arrays (chapter 6).

Chapter 6's page carries a kernel perceptron that runs in the reader's browser
(``book/_demos/kernel``: a JavaScript kernel perceptron that a test holds to
:func:`perceptron_lib.kernel_perceptron`, update for update).  A page asks for one with a
``<div class="kernel-playground">`` whose ``data-*`` attributes give the data sets and
the starting kernel; :func:`kernel_playground_html` writes that element from arrays, so
the playground gets the very data the chapter's code uses.

The element holds a fallback, shown where the playground cannot run (no JavaScript, a
page opened as a file, a notebook).  :class:`KernelPlayground` can take it from a
:class:`perceptron_lib.widgets.KernelExplorer`: a live Jupyter kernel then shows the
explorer's controls, and the book's pages, which have no kernel, show the playground,
with the explorer's picture for readers without JavaScript.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from numpy.typing import ArrayLike

from .._validate import check_count, check_data
from .page import Explorer, ExplorerElement, data_json, framed
from .playground import demo_id, held_out

KERNELS = ("linear", "polynomial", "RBF")
MIN_DEGREE, MAX_DEGREE = 1, 6
#: The constant of the chapter's polynomial kernel, ``(x . x' + 1) ** degree``.
COEF0 = 1.0
#: The positions of the playground's gamma slider: ten per decade from 0.01 to 100, with
#: three significant digits (``book/_demos/kernel/kernel-core.mjs`` has the same).
GAMMAS = tuple(float(f"{10 ** (k / 10 - 2):.3g}") for k in range(41))
DEFAULT_FALLBACK = (
    "<p>The kernel playground needs JavaScript and a page served over HTTP (run "
    "<code>python3 tasks.py serve</code> for a local copy of the book). In Jupyter, use "
    "the kernel explorer instead.</p>"
)
PAGE_NOTE = (
    "<p>On the book's site this is a kernel playground that runs in the browser; it needs "
    "JavaScript and a page served over HTTP.</p>"
)



def _dataset(name: object, data: object, test: object = None) -> dict[str, Any]:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"data set names must be non-empty strings, got {name!r}")
    if not isinstance(data, tuple | list) or len(data) != 2:
        raise TypeError(f"data set {name!r} must be a pair (X, y)")
    X, y = check_data(*data)
    if X.shape[1] != 2:
        raise ValueError(
            f"data set {name!r}: the playground draws points in the plane, so X needs "
            f"2 columns, got shape {X.shape}"
        )
    out: dict[str, Any] = {"name": name, "X": X.tolist(), "y": [int(v) for v in y]}
    if test is not None:
        if not isinstance(test, tuple | list) or len(test) != 2:
            raise TypeError(f"the test set of data set {name!r} must be a pair (X_test, y_test)")
        out.update(held_out(name, test[0], test[1], 2))
    return out


def _check_kernel(kernel: object, degree: object, gamma: object) -> tuple[str, int, float]:
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {', '.join(KERNELS)}, got {kernel!r}")
    if (isinstance(degree, bool) or not isinstance(degree, int | float)
            or int(degree) != degree or not MIN_DEGREE <= degree <= MAX_DEGREE):
        raise ValueError(
            f"degree must be a whole number from {MIN_DEGREE} to {MAX_DEGREE}, got {degree!r}")
    if isinstance(gamma, bool) or not isinstance(gamma, int | float):
        raise TypeError(f"gamma must be a number, got {gamma!r}")
    if float(gamma) not in GAMMAS:
        near = min(GAMMAS, key=lambda g: abs(g - float(gamma)))
        raise ValueError(
            f"gamma must be one of the slider's values (0.01 to 100, ten per decade), got "
            f"{gamma!r}; the nearest is {near:g}")
    return str(kernel), int(degree), float(gamma)


def kernel_playground_html(
    datasets: Mapping[str, tuple[ArrayLike, ArrayLike]],
    *,
    kernel: str = "polynomial",
    degree: int = 2,
    gamma: float = 1.0,
    tau: int = 100,
    held_out: Mapping[str, tuple[ArrayLike, ArrayLike]] | None = None,
    fallback: str = DEFAULT_FALLBACK,
    element_id: str | None = None,
) -> str:
    """The ``<div class="kernel-playground">`` for a page (chapter 6).

    Parameters
    ----------
    datasets : mapping of str to (X, y)
        The data sets of the playground's menu, in order (the first is loaded), each
        with 2 columns and labels in {-1, +1}.
    kernel : {"linear", "polynomial", "RBF"}, default "polynomial"
        The kernel chosen at the start.
    degree : int, default 2
        The degree of the polynomial kernel ``(x . x' + 1) ** degree``, 1 to 6.
    gamma : float, default 1.0
        The width of the RBF kernel ``exp(-gamma ||x - x'||^2)``: one of :data:`GAMMAS`.
    tau : int, default 100
        The most epochs a run makes.
    held_out : mapping of str to (X_test, y_test), optional
        For some of the data sets (by name), a held-out test set from the same
        distribution: the chart then shows the test errors after each epoch beside the
        training mistakes.
    fallback : str
        HTML shown where the playground cannot run (no JavaScript, a page opened as a
        file, a Jupyter notebook).
    element_id : str, optional
        The element's id, which keys the playground's state in the page's URL.  By
        default one made from the data and options
        (:func:`perceptron_lib.demos.playground.demo_id`), the same in every build.

    Returns
    -------
    str
        The element, ready for ``IPython.display.HTML``.

    Raises
    ------
    ValueError, TypeError
        On an empty mapping, bad data (shape, labels, NaN), or a kernel setting that the
        playground's controls cannot show.

    Examples
    --------
    >>> html = kernel_playground_html({"XOR": ([[1, 1], [-1, -1], [1, -1], [-1, 1]],
    ...                                        [1, 1, -1, -1])}, tau=5)
    >>> html.startswith('<div class="kernel-playground demo-kit demo-framed" '
    ...                 'data-kernel="polynomial"')
    True
    """
    if not isinstance(datasets, Mapping) or not datasets:
        raise ValueError("kernel_playground_html needs a non-empty mapping of name -> (X, y)")
    kernel, degree, gamma = _check_kernel(kernel, degree, gamma)
    tau = check_count(tau, "tau", 1)
    held = dict(held_out or {})
    unknown = sorted(set(held) - set(datasets))
    if unknown:
        raise ValueError(f"held_out names data sets the playground does not have: {unknown}")
    sets = [_dataset(name, data, held.get(name)) for name, data in datasets.items()]
    attrs = {
        "class": "kernel-playground demo-kit demo-framed",
        "data-kernel": kernel,
        "data-degree": str(degree),
        "data-gamma": repr(gamma),
        "data-coef0": repr(COEF0),
        "data-tau": str(tau),
        "data-datasets": data_json(sets),
    }
    attrs["id"] = demo_id("kernel-playground", attrs, element_id)
    return framed(attrs, "kp", fallback)


class KernelPlayground(ExplorerElement):
    """A kernel playground that Jupyter and the book's pages display (chapter 6).

    ``KernelPlayground(datasets, **options)`` holds the HTML of
    :func:`kernel_playground_html`.  :meth:`from_explorer` builds one from a
    :class:`perceptron_lib.widgets.KernelExplorer`: same data sets and starting kernel,
    the explorer's picture as the fallback, and the explorer's live controls wherever a
    Jupyter kernel runs.
    """

    kind = "kernel playground"

    def __init__(self, datasets: Mapping[str, tuple[ArrayLike, ArrayLike]],
                 **options: Any) -> None:
        self.html = kernel_playground_html(datasets, **options)
        self.n_datasets = len(datasets)
        self._explorer: Explorer | None = None

    @classmethod
    def from_explorer(cls, explorer: Explorer,
                      held_out: Mapping[str, tuple[ArrayLike, ArrayLike]] | None = None,
                      ) -> KernelPlayground:
        """The playground of a KernelExplorer's data sets and current kernel.

        ``held_out`` gives some data sets a test set (see :func:`kernel_playground_html`).
        """
        out = cls(explorer.datasets, kernel=explorer.kernel, degree=explorer.degree,
                  gamma=explorer.gamma, tau=explorer.tau, held_out=held_out,
                  fallback=explorer.static_html() + PAGE_NOTE)
        out._explorer = explorer
        return out
