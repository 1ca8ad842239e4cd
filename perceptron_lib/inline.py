"""Numbers a chapter computes and its text quotes, for the site and for JupyterLab.

Every chapter's text quotes numbers its code cells compute, through the ``eval`` role:
``{eval}`name``` or ``{eval}`f"{name:.3f}"```.  :func:`glue` stores a value under a name
twice over: in the cell's outputs, where the site's build finds it (myst-nb's glue,
read by ``book/_ext/inline_numbers.py``), and as a variable of the running kernel,
where ``jupyterlab-myst`` evaluates the role when a reader runs the notebook.  So the
page and the notebook show the same number, formatted by the same Python ``format``.
"""

from __future__ import annotations

import keyword
from typing import Any


def glue(name: str, value: Any, display: bool = False) -> None:
    """Store ``value`` under ``name`` for the text of a chapter (every chapter).

    Parameters
    ----------
    name : str
        A Python identifier, unique in its chapter (``ch3_sd_norm``).
    value : int, float, str or bool
        A plain Python value, so that the page (which reads it back from its printed
        form) and the notebook (which formats the value itself) show the same text.
        Convert numpy scalars first (``float(x)``, ``int(k)``).
    display : bool, default False
        Also show the value below the cell.

    Raises
    ------
    ValueError
        If ``name`` is not an identifier the text could evaluate.
    TypeError
        If ``value`` is not a plain int, float, str or bool.
    """
    if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
        raise ValueError(f"a glued name must be a Python identifier, got {name!r}")
    if type(value) not in (int, float, str, bool):
        raise TypeError(
            f"glue({name!r}, ...) needs a plain int, float, str or bool so that the page "
            f"and the notebook print it alike; got {type(value).__name__} "
            "(convert it first, e.g. float(x))")
    from myst_nb import glue as store  # the site's build reads the cell's outputs

    store(name, value, display=display)
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with Jupyter
        return
    shell = get_ipython()
    if shell is not None:
        shell.user_ns[name] = value
