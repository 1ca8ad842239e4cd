"""The core path: every section of a chapter carries its track, and the core sections of
chapters 1 to 5 read in about three hours (at most 20,000 words of prose).

The marks are written under each ``##`` heading of the notebooks (``**Core path**`` or
``**Deeper track**``) and turned into classes of the built sections by
``book/_ext/tracks.py``.  The words are counted in the built pages, as a reader meets
them: the prose of the core sections, without code cells and their outputs, formulas,
and the folded boxes a reader opens only if she wants to (solutions, "Reading the
sources").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

#: the chapters of the one-week unit, and the most words its core path may have
CORE_CHAPTERS = ["01_algorithm", "02_offset", "03_margin", "04_convergence", "05_spam"]
ALL_CHAPTERS = [*CORE_CHAPTERS, "06_variants", "07_beyond"]
CORE_WORDS = 20_000

#: what a reader does not read as prose: code and its output, formulas, folded boxes
NOT_PROSE = ", ".join([
    "div.cell", "pre", "script", "style", "math", "mjx-container", ".math",
    "details", ".dropdown", ".toggle-hidden",
])
WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")


def words_of(html: str, track: str) -> int:
    """The words of prose in the sections of ``track`` (``core`` or ``deeper``)."""
    soup = BeautifulSoup(html, "html.parser")
    sections = soup.select(f"section.track-{track}")
    for section in sections:
        for node in section.select(NOT_PROSE):
            node.decompose()
    return sum(len(WORD.findall(s.get_text(" "))) for s in sections)


def unmarked_sections(html: str) -> list[str]:
    """The titles of a chapter's sections without a track (the References excepted)."""
    soup = BeautifulSoup(html, "html.parser")
    article = soup.select_one("article") or soup
    out = []
    for h2 in article.find_all("h2"):
        section = h2.find_parent("section")
        title = re.sub(r"^[\d.]+\s*", "", h2.get_text(" ", strip=True).rstrip("#").strip())
        classes = section.get("class", []) if section else []
        if title != "References" and not {"track-core", "track-deeper"} & set(classes):
            out.append(title)
    return out


def source_boxes(html: str) -> list[tuple[str, bool]]:
    """The title of every "Reading the sources" box of a page, and whether it is folded."""
    soup = BeautifulSoup(html, "html.parser")
    out = []
    for title in soup.select("p.admonition-title"):
        text = " ".join(title.get_text(" ").split())
        if text.startswith("Reading the sources"):
            box = title.find_parent(class_="admonition")
            out.append((text, "dropdown" in (box.get("class") or [])))
    return out


def page(site: Path, stem: str) -> str:
    return (site / "book" / f"{stem}.html").read_text(encoding="utf-8")


# ---- the counter itself --------------------------------------------------------------

SAMPLE = """<article>
<section class="track-core"><h2>One two</h2><p class="track-mark"><strong>Core path</strong></p>
<p>Three four five, and θ₀’s sixth.</p><span class="math">x y z w</span>
<div class="cell"><pre>code code code</pre></div>
<div class="note dropdown admonition"><p>folded folded folded</p></div></section>
<section class="track-deeper"><h2>Deep</h2><p>seven eight</p></section>
<section><h2>Nothing</h2></section>
<section><h2>References</h2></section>
</article>"""


def test_the_counter_counts_prose_and_leaves_out_code_formulas_and_folded_boxes():
    # "One two", "Core path", "Three four five and θ₀’s sixth"
    assert words_of(SAMPLE, "core") == 2 + 2 + 6
    assert words_of(SAMPLE, "deeper") == 1 + 2


def test_the_checker_finds_a_section_without_a_track():
    assert unmarked_sections(SAMPLE) == ["Nothing"]


# ---- the built book --------------------------------------------------------------------

@pytest.mark.parametrize("stem", ALL_CHAPTERS)
def test_every_section_of_a_chapter_has_its_track(site, stem):
    html = page(site, stem)
    assert unmarked_sections(html) == []
    assert "track-core" in html and 'class="track-mark' in html


def test_the_core_path_reads_in_about_three_hours(site):
    core = {stem: words_of(page(site, stem), "core") for stem in CORE_CHAPTERS}
    deeper = {stem: words_of(page(site, stem), "deeper") for stem in CORE_CHAPTERS}
    total = sum(core.values())
    report = ", ".join(f"{s[:2]}: {core[s]} core + {deeper[s]} deeper" for s in CORE_CHAPTERS)
    print(f"core path {total} words ({report})")
    assert all(core.values()), "every chapter of the unit has core sections"
    assert total <= CORE_WORDS, f"the core path has {total} words: {report}"


def test_the_audits_of_the_sources_are_folded_boxes(site):
    """Every "Reading the sources" box is folded (so on no path), and the chapters that
    audit their sources have them: the history and conventions of chapter 1, the notes'
    bias step in chapter 2, their slip in chapter 3, the paper in chapter 5."""
    boxes = {stem: source_boxes(page(site, stem)) for stem in ALL_CHAPTERS}
    unfolded = [(stem, t) for stem, found in boxes.items() for t, folded in found if not folded]
    assert unfolded == []
    counts = {stem: len(found) for stem, found in boxes.items()}
    assert counts["01_algorithm"] >= 3 and counts["05_spam"] >= 4, counts
    assert counts["02_offset"] >= 1 and counts["03_margin"] >= 1, counts


def test_the_box_check_sees_an_open_box():
    html = """<div class="note admonition"><p class="admonition-title">Reading the sources: x</p>
    </div><div class="note dropdown admonition"><p class="admonition-title">Reading the
    sources: y</p></div>"""
    assert source_boxes(html) == [("Reading the sources: x", False),
                                  ("Reading the sources: y", True)]
