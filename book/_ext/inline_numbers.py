"""Numbers in the chapters' text that read the same on the site and in JupyterLab.

A chapter computes a number in a code cell and glues it under a name
(:func:`perceptron_lib.inline.glue`), and its text shows the number with the ``eval``
role, in one of two forms::

    {eval}`ch3_sd_norm`                  the value as it prints
    {eval}`f"{ch3_exp_median:.2f}"`      the value with a format specification

In JupyterLab the ``jupyterlab-myst`` extension evaluates each form in the kernel after
the cell above has run (``glue`` also binds the name there), so a reader who runs the
notebook sees the numbers.  The site's build has no kernel at hand (notebooks are
executed once, into a cache), so this role reads the same name from the glued outputs,
exactly as myst-nb's ``glue:text`` role does, and applies the same format.  Both sides
format the same Python value with Python's ``format``, so the notebook and the page show
the same digits.  Any other expression is an error: the site could not reproduce it.
"""

from __future__ import annotations

import re

from myst_nb.ext.glue.roles import PasteTextRole
from sphinx.application import Sphinx

# NAME, or f"{NAME:SPEC}" / f'{NAME:SPEC}' with a format specification and nothing else
NAME = r"[A-Za-z_][A-Za-z0-9_]*"
FORMS = (
    re.compile(rf"^(?P<name>{NAME})$"),
    re.compile(rf"""^f(?P<q>["']){{(?P<name>{NAME}):(?P<spec>[^{{}}"':]+)}}(?P=q)$"""),
)


def parse(text: str) -> tuple[str, str | None]:
    """The glued name and format specification an ``eval`` role's text stands for.

    Raises
    ------
    ValueError
        When the text is neither a bare name nor an f-string of one formatted name.
    """
    text = text.strip()
    for form in FORMS:
        match = form.match(text)
        if match:
            return match["name"], match.groupdict().get("spec")
    raise ValueError(
        f"{{eval}}`{text}` must be a glued name or f\"{{name:format}}\" so that the site "
        "can show the same number as the notebook")


class InlineNumberRole(PasteTextRole):
    """``{eval}`` on the site: the glued value of a name, formatted as the kernel would."""

    def run(self):
        try:
            name, spec = parse(self.text)
        except ValueError as exc:
            msg = self.inliner.reporter.error(str(exc), line=self.lineno)
            return [], [msg]
        self.text = name if spec is None else f"{name}:{spec}"
        return super().run()


def setup(app: Sphinx) -> dict:
    # myst-nb registers an ``eval`` role that needs a live kernel (its "inline"
    # execution mode); the book executes into a cache, so this one replaces it.
    app.add_role("eval", InlineNumberRole(), override=True)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
