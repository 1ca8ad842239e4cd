"""Citations that read as references in JupyterLab and are citations on the site.

A chapter cites a work as a Markdown link whose text is what the site shows and whose
target is the work's key in ``book/references.bib``::

    [[Rosenblatt, 1958]](#rosenblatt1958)
    [[Du, n.d., Lauer, n.d.]](#du_perceptron,lauer_mlweb)

``jupyterlab-myst`` shows that link as the words "[Rosenblatt, 1958]" (a ``{cite}`` role
there shows the key with a warning sign, "Citation Not Found", since JupyterLab has no
bibliography).  Before Sphinx parses a chapter, this extension turns every such link
whose keys are all in the bibliography back into ``{cite}`rosenblatt1958```, so that
the site's citations are exactly those of the ``cite`` role of ``sphinxcontrib-bibtex``
(author and year, linked into the chapter's bibliography) and the bibliography lists
every work cited.  A link with an unknown key is left alone, and the build's ``-n``
reports it as a reference that goes nowhere.
"""

from __future__ import annotations

import re
from pathlib import Path

from sphinx.application import Sphinx

#: ``[[text]](#key)`` or ``[[text]](#key1,key2)``: the text in brackets, without brackets
#: inside it, then the keys.
CITATION = re.compile(r"\[\[(?P<text>[^\[\]\n]*)\]\]\(#(?P<keys>[\w:.+-]+(?:,[\w:.+-]+)*)\)")
BIB_KEY = re.compile(r"^\s*@\s*(?!comment|string|preamble)\w+\s*[{(]\s*([^,\s]+)\s*,",
                     re.MULTILINE | re.IGNORECASE)


def citation_keys(text: str) -> list[list[str]]:
    """The keys of each notebook citation in ``text``, in order."""
    return [m["keys"].split(",") for m in CITATION.finditer(text)]


def bib_keys(paths: list[Path]) -> set[str]:
    """Every entry key of the BibTeX files ``paths``."""
    return {key for path in paths for key in BIB_KEY.findall(path.read_text(encoding="utf-8"))}


def to_cite_roles(text: str, known: set[str]) -> str:
    """``text`` with every notebook citation of known keys written as a ``{cite}`` role."""

    def replace(match: re.Match) -> str:
        keys = match["keys"].split(",")
        if not all(key in known for key in keys):
            return match.group(0)
        return "{cite}`" + ",".join(keys) + "`"

    return CITATION.sub(replace, text)


def _source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    if "[[" not in source[0]:
        return
    paths = [Path(app.srcdir) / name for name in app.config.bibtex_bibfiles]
    source[0] = to_cite_roles(source[0], bib_keys(paths))


def setup(app: Sphinx) -> dict:
    app.connect("source-read", _source_read)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
