"""The notebook-only list of references at the end of every chapter.

A chapter cites a work as a link ``[[Rosenblatt, 1958]](#rosenblatt1958)``: JupyterLab
(``jupyterlab-myst``) shows its words, and on the site ``book/_ext/notebook_citations.py``
makes it a ``{cite}`` role, so the site shows the author and year linked into the list of
the ``{bibliography}`` directive.  JupyterLab shows no bibliography, so every chapter
ends with a Markdown cell tagged ``remove-cell`` (the site drops it) that lists each key
the chapter cites with the full reference, generated here from ``book/references.bib``,
each entry with an anchor that the chapter's citation links land on;
``test_chapter_cells.py`` keeps the cells in sync.

Run ``python3 tests/chapter_references.py`` to write the cells after a change of the
citations or of the bibliography.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat
from pybtex.database import parse_file
from pybtex.plugin import find_plugin

ROOT = Path(__file__).resolve().parents[1]
BIB = ROOT / "book" / "references.bib"
CHAPTERS = sorted((ROOT / "book").glob("0[0-9]_*.ipynb"))
CELL_ID = "notebook-references"
TAG = "remove-cell"  # Jupyter Book drops the cell from the page
INTRO = "The works cited above, by the key each citation links to:"


def _notebook_citations():
    """The site's extension that reads the chapters' citations (its ``citation_keys``)."""
    path = ROOT / "book" / "_ext" / "notebook_citations.py"
    spec = importlib.util.spec_from_file_location("notebook_citations", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


NOTEBOOK_CITATIONS = _notebook_citations()


def visible_markdown(nb: nbformat.NotebookNode) -> list[tuple[int, str]]:
    """Index and text of every Markdown cell that the site shows (no ``remove-cell``)."""
    return [(i, c.source) for i, c in enumerate(nb.cells)
            if c.cell_type == "markdown" and TAG not in c.metadata.get("tags", [])]


def cited_keys(nb: nbformat.NotebookNode) -> list[str]:
    """The bibliography keys a chapter cites in its text, sorted."""
    keys = {key for _, text in visible_markdown(nb)
            for group in NOTEBOOK_CITATIONS.citation_keys(text) for key in group}
    return sorted(keys)


def reference_texts(keys: list[str], bib: Path = BIB) -> dict[str, str]:
    """The full reference of each key, as plain text, from the course's BibTeX file.

    Raises
    ------
    KeyError
        When a key is not in the bibliography.
    """
    data = parse_file(str(bib))
    missing = [k for k in keys if k not in data.entries]
    if missing:
        raise KeyError(f"cited but not in {bib.name}: {', '.join(missing)}")
    style = find_plugin("pybtex.style.formatting", "plain")()
    backend = find_plugin("pybtex.backends", "text")()
    entries = [data.entries[k] for k in keys]
    formatted = style.format_entries(entries)
    return {entry.key: entry.text.render(backend) for entry in formatted}


def citation_targets(nb: nbformat.NotebookNode) -> list[str]:
    """The target of every citation link in a chapter's text (``key`` or ``key1,key2``),
    once each, in order."""
    return list(dict.fromkeys(",".join(group) for _, text in visible_markdown(nb)
                              for group in NOTEBOOK_CITATIONS.citation_keys(text)))


def citation_groups(nb: nbformat.NotebookNode) -> list[list[str]]:
    """The keys of each citation of several works in a chapter's text, in order."""
    return [t.split(",") for t in citation_targets(nb) if "," in t]


def anchors(keys: list[str], groups: list[list[str]] = ()) -> dict[str, list[str]]:
    """The link targets each listed reference carries: its key, and the target of every
    citation of several works of which it comes first in the list (such a link,
    ``#key1,key2``, lands on the one of its works listed first)."""
    out = {k: [k] for k in keys}
    for group in groups:
        out[min(group, key=keys.index)].append(",".join(group))
    return out


def references_source(keys: list[str], groups: list[list[str]] = ()) -> str:
    """The Markdown of the notebook-only cell that lists ``keys`` with their references.

    Each entry starts with an empty anchor per link target (JupyterLab keeps it as
    ``data-jupyter-id`` and scrolls to it when a citation is clicked).
    """
    texts = reference_texts(keys)
    marks = anchors(keys, groups)
    lines = [INTRO, ""] + [
        "- " + "".join(f'<a id="{target}"></a>' for target in marks[k]) + f"`{k}`: {texts[k]}"
        for k in keys]
    return "\n".join(lines)


def references_cell(nb: nbformat.NotebookNode) -> tuple[int, nbformat.NotebookNode] | None:
    """The notebook-only references cell of a chapter and its index, if it has one."""
    for i, cell in enumerate(nb.cells):
        if cell.get("id") == CELL_ID:
            return i, cell
    return None


def bibliography_index(nb: nbformat.NotebookNode) -> int:
    """Index of the Markdown cell holding the chapter's ``{bibliography}`` directive."""
    for i, text in visible_markdown(nb):
        if "{bibliography}" in text:
            return i
    raise ValueError("the chapter has no {bibliography} directive")


def write(path: Path) -> bool:
    """Put the up-to-date references cell right after the bibliography; True if changed."""
    nb = nbformat.read(path, as_version=4)
    source = references_source(cited_keys(nb), citation_groups(nb))
    found = references_cell(nb)
    if found is not None:
        index, cell = found
        if cell.source == source and cell.metadata.get("tags") == [TAG] \
                and index == bibliography_index(nb) + 1:
            return False
        del nb.cells[index]
    cell = nbformat.v4.new_markdown_cell(source, metadata={"tags": [TAG]})
    cell["id"] = CELL_ID
    nb.cells.insert(bibliography_index(nb) + 1, cell)
    nbformat.write(nb, path)
    return True


if __name__ == "__main__":
    for chapter in CHAPTERS:
        print(chapter.name, "written" if write(chapter) else "up to date")
