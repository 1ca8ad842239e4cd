"""The chapters read right in both places they are read: the site and JupyterLab.

``jupyterlab-myst`` renders most of the chapters' MyST, but shows a ``{numref}`` to a
figure made by a code cell as its label, a ``{cite}`` as its key, the ``{bibliography}``
as nothing, and knows no ``{only}`` directive.  So the chapters refer to figures in
words (``{ref}`the figure below <fig-...>```), end with a notebook-only list of their
references (``chapter_references.py``), keep words meant only for the page out of their
Markdown (an explorer's picture on the page carries its own caption), and tag every
notebook-only cell ``remove-cell`` so the site drops it.
"""

from __future__ import annotations

import re

import nbformat
import pytest
from chapter_references import (
    CELL_ID,
    CHAPTERS,
    TAG,
    bibliography_index,
    cited_keys,
    references_cell,
    references_source,
    visible_markdown,
)

# Words that only make sense on the static page, where an explorer is a picture.
PAGE_ONLY = re.compile(
    r"on this page|this page you see|starting state\b.*\bpage|launch button|rocket|"
    r"download (?:it|this)|run this (?:page|notebook)|runs in your browser|"
    r"below you see|static (?:picture|page)",
    re.IGNORECASE | re.DOTALL)
# Words that only make sense in a notebook.
NOTEBOOK_ONLY = re.compile(
    r"shows its key|\bRun All\b|in this notebook|as JupyterLab shows",
    re.IGNORECASE)
# MyST that jupyterlab-myst shows raw or wrong.
RAW_IN_LAB = re.compile(r"\{numref\}`|\{glue(?::\w+)?\}`|\{only\}|\{eq\}`fig-")


def page_only_words(text: str) -> list[str]:
    """The page-only phrases in ``text``."""
    return [m.group(0) for m in PAGE_ONLY.finditer(text)]


def needs_tag(text: str) -> bool:
    """Whether a Markdown cell with ``text`` is meant for the notebook only."""
    return bool(NOTEBOOK_ONLY.search(text))


@pytest.fixture(scope="module", params=CHAPTERS, ids=lambda p: p.stem)
def chapter(request) -> tuple[str, nbformat.NotebookNode]:
    return request.param.name, nbformat.read(request.param, as_version=4)


def test_there_are_chapters():
    assert len(CHAPTERS) >= 6


def test_no_page_only_words_in_the_notebook(chapter):
    name, nb = chapter
    found = [(i, page_only_words(text)) for i, text in visible_markdown(nb)]
    assert [f for f in found if f[1]] == [], f"{name}: page-only words in visible Markdown"


def test_notebook_only_cells_are_removed_from_the_page(chapter):
    name, nb = chapter
    untagged = [i for i, text in visible_markdown(nb) if needs_tag(text)]
    assert untagged == [], f"{name}: notebook-only cells {untagged} lack the {TAG} tag"


def test_no_myst_that_jupyterlab_shows_raw(chapter):
    name, nb = chapter
    raw = [(i, RAW_IN_LAB.findall(text)) for i, text in visible_markdown(nb)]
    assert [r for r in raw if r[1]] == [], name


def test_references_cell_lists_every_cited_key(chapter):
    name, nb = chapter
    keys = cited_keys(nb)
    assert keys, f"{name} cites nothing"
    found = references_cell(nb)
    assert found is not None, f"{name}: run python3 tests/chapter_references.py"
    index, cell = found
    assert cell.cell_type == "markdown"
    assert cell.metadata.get("tags") == [TAG]
    assert index == bibliography_index(nb) + 1, "the list belongs under the References heading"
    assert cell.source == references_source(keys), (
        f"{name}: references out of date; run python3 tests/chapter_references.py")
    listed = re.findall(r"^- `([^`]+)`:", cell.source, re.MULTILINE)
    assert listed == keys


@pytest.mark.parametrize("text", [
    "Run this notebook (launch button at the top) to use the explorer.",
    "on this page you see its starting state.",
    "On this page it runs in your browser.",
])
def test_page_only_words_are_caught(text):
    assert page_only_words(text)


@pytest.mark.parametrize("text, expected", [
    ("In a notebook each citation above shows its key; the keys stand for:", True),
    ("After Run All every number shows.", True),
    ("On the book's web page it runs in the browser; in a notebook the same cell shows "
     "the explorer.", False),
])
def test_notebook_only_words_are_caught(text, expected):
    assert needs_tag(text) is expected


def test_a_stale_references_cell_is_caught(chapter):
    _, nb = chapter
    _, cell = references_cell(nb)
    keys = cited_keys(nb)
    assert cell.source != references_source(keys[1:])  # one key dropped
    assert CELL_ID == cell.get("id")
