"""What makes a page fast and well described, checked on every page of the table of contents.

The parts of a Lighthouse audit (bench/bench_lighthouse.py) that do not depend on the
machine's speed: each page has a language, a title and one meta description of its
own (50 to 160 characters), logs no error, gives every picture a size so the browser
keeps its room, and moves less than 0.1 in cumulative layout shift (CLS) while a reader
scrolls through it to the end, so that its demos and formulas start, and back.  CLS is
measured in the page with the Layout Instability API (a PerformanceObserver installed
before the page's scripts), as Chrome defines it: the largest burst of shifts that
followed no input.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import _js, load
from toc_pages import toc_pages

CLS_LIMIT = 0.1
RECORD_SHIFTS = _js("layout_shift_recorder.js")
SCROLL_AND_SHIFT = _js("scroll_and_shift.js")
HEAD_FACTS = _js("head_facts.js")
CHAPTERS = ("01_algorithm", "02_offset", "03_margin", "04_convergence", "05_spam",
            "06_variants")


@pytest.fixture(scope="module")
def visits(browser, base_url, site: Path) -> dict[str, dict]:
    out = {}
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(RECORD_SHIFTS)
    try:
        for rel in toc_pages(site):
            page = ctx.new_page()
            rec = load(page, f"{base_url}/{rel}")
            rec.update(page.evaluate(HEAD_FACTS))
            rec["shift"] = page.evaluate(SCROLL_AND_SHIFT, [120])
            page.close()
            out[rel] = rec
    finally:
        ctx.close()
    return out


def test_every_page_of_the_toc_is_visited(visits):
    for chapter in CHAPTERS:
        assert f"book/{chapter}.html" in visits
    assert "book/intro.html" in visits and "book/exercises.html" in visits


def test_each_page_has_a_language_and_a_title(visits):
    bad = {p: (r["lang"], r["title"]) for p, r in visits.items()
           if not r["lang"] or not r["title"]}
    assert not bad, f"pages without <html lang> or <title>: {bad}"


def test_each_page_has_one_description_of_sensible_length(visits):
    bad = {p: r["descriptions"] for p, r in visits.items()
           if len(r["descriptions"]) != 1 or not 50 <= len(r["descriptions"][0].strip()) <= 160}
    assert not bad, f"want one <meta name=description> of 50 to 160 characters: {bad}"


def test_descriptions_are_unique(visits):
    seen: dict[str, str] = {}
    for page, r in visits.items():
        for text in r["descriptions"]:
            assert text not in seen, f"{page} and {seen[text]} share the description {text!r}"
            seen[text] = page


def test_no_console_errors(visits):
    bad = {p: r["console"] for p, r in visits.items() if r["console"]}
    assert not bad, bad


def test_every_picture_keeps_its_room(visits):
    bad = {p: r["unsizedImages"] for p, r in visits.items() if r["unsizedImages"]}
    assert not bad, f"pictures without width and height (or aspect-ratio): {bad}"


def test_layout_shift_while_scrolling_is_small(visits):
    assert all(r["shift"]["supported"] for r in visits.values()), "no layout-shift API"
    # the scroll went through each page (a chapter is many windows long)
    assert all(visits[f"book/{c}.html"]["shift"]["steps"] > 3 for c in CHAPTERS)
    bad = {p: (round(r["shift"]["cls"], 3), r["shift"]["worst"]) for p, r in visits.items()
           if r["shift"]["cls"] >= CLS_LIMIT}
    assert not bad, f"cumulative layout shift of {CLS_LIMIT} or more: {bad}"


@pytest.mark.parametrize("chapter", ["04_convergence", "07_beyond"])
def test_a_link_followed_while_the_page_loads_lands_on_its_heading(browser, base_url, chapter):
    # The sections below the first screen are laid out in idle time after the load
    # (book/_ext/page-load.js): a link followed before then must still land on its heading.
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    page = ctx.new_page()
    try:
        page.goto(f"{base_url}/book/{chapter}.html", wait_until="domcontentloaded")
        early = page.evaluate("""() => {
            const links = [...document.querySelectorAll("a.nav-link[href^='#']")];
            const id = links[links.length - 2].getAttribute("href").slice(1);
            const section = document.getElementById(id).closest(".bd-article > section > section");
            const skipped = !section.classList.contains("laid-out");
            links[links.length - 2].click();
            return {id, skipped};
        }""")
        assert early["skipped"], "the section was laid out before the load was over"
        page.wait_for_selector("html[data-laid-out]", state="attached")
        page.wait_for_timeout(300)
        top = page.evaluate("id => document.getElementById(id).getBoundingClientRect().top",
                            early["id"])
        assert 0 <= top <= 120, (early["id"], top)
    finally:
        ctx.close()
