"""Every page of the built site in headless Chromium at 1280 px.

One visit per page records what the page asked of the network and the console, waits
until every formula is typeset, reads the facts the tests below check, brings each demo
into view until it has started (the demos build their pictures and controls only then),
and runs two accessibility checkers, npm packages injected into the page: axe-core, whose
violations fail at every impact, and HTML_CodeSniffer by its WCAG 2 AA standard, whose
errors fail (its warnings and notices are points a person checks by hand, such as "check
that the title describes the document", which no test decides).
"""

from __future__ import annotations

import urllib.error
import urllib.request
from urllib.parse import urldefrag

import pytest
from harness import (
    AXE,
    AXE_RUN,
    HTMLCS,
    HTMLCS_RUN,
    PAGE_FACTS,
    SCROLL_STOPS,
    SHOW_DEMOS,
    load,
    site_pages,
)

CHAPTERS = ("01_algorithm", "02_offset", "03_margin", "04_convergence", "05_spam",
            "06_variants", "07_beyond")


@pytest.fixture(scope="module")
def visits(browser, base_url, site) -> dict[str, dict]:
    out = {}
    axe = AXE.read_text() if AXE.is_file() else None  # test_axe_* say when it is missing
    htmlcs = HTMLCS.read_text() if HTMLCS.is_file() else None  # so do test_html_codesniffer_*
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        for rel in site_pages(site):
            page = ctx.new_page()
            rec = load(page, f"{base_url}/{rel}")
            rec.update(page.evaluate(PAGE_FACTS))
            rec.update(page.evaluate(SCROLL_STOPS))
            rec.update(page.evaluate(SHOW_DEMOS))
            if axe is not None:
                page.add_script_tag(content=axe)
                rec["axe"] = page.evaluate(AXE_RUN)
            if htmlcs is not None:
                page.add_script_tag(content=htmlcs)
                rec["htmlcs"] = page.evaluate(HTMLCS_RUN)
            page.close()
            out[rel] = rec
    finally:
        ctx.close()
    return out


def offenders(visits: dict[str, dict], key: str) -> dict[str, list]:
    return {page: rec[key] for page, rec in visits.items() if rec[key]}


def test_every_page_of_the_site_is_visited(visits, site):
    assert len(visits) >= 10
    for chapter in CHAPTERS:
        assert f"book/{chapter}.html" in visits
    assert visits["index.html"]["final_url"].endswith("/book/intro.html")


def test_no_request_fails(visits, base_url):
    bad = offenders(visits, "failed")
    assert not bad, bad
    # what the server refused, including requests the browser makes on its own
    assert base_url.errors == []


def test_no_request_goes_to_another_host(visits):
    bad = offenders(visits, "external")
    assert not bad, bad


def test_no_console_errors(visits):
    bad = offenders(visits, "console")
    assert not bad, bad


def test_every_formula_is_typeset(visits):
    for key, what in [("rawTex", "raw TeX left in the page text"),
                      ("mathErrors", "formulas MathJax could not typeset"),
                      ("mathUnknown", "formulas with a command MathJax does not know"),
                      ("mathjaxLoaded", "MathJax loaded by the page (formulas are typeset "
                                        "when the site is built)"),
                      ("mathFontsFailed", "formula fonts that did not load")]:
        bad = offenders(visits, key)
        assert not bad, f"{what}: {bad}"
    # the chapters are full of mathematics: make sure it was found at all
    for chapter in CHAPTERS:
        assert visits[f"book/{chapter}.html"]["formulas"] > 20, chapter


def test_every_section_is_laid_out_and_what_scrolls_can_be_focused(visits):
    # book/_ext/page-load.js lays the sections out in idle time and gives a tab stop to
    # each formula, code block, output or table that scrolls sideways
    for key, what in [("sectionsWaiting", "sections never laid out"),
                      ("scrollUnfocusable", "blocks that scroll but cannot be focused")]:
        bad = offenders(visits, key)
        assert not bad, f"{what}: {bad}"


def test_every_image_and_graphic_has_a_text_alternative(visits):
    for key in ("imagesWithoutAlt", "unnamedGraphics", "brokenImages"):
        bad = offenders(visits, key)
        assert not bad, f"{key}: {bad}"


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.status
    except urllib.error.HTTPError as err:
        return err.code


def test_internal_links_and_anchors_resolve(visits, base_url):
    ids = {}
    for rec in visits.values():
        ids[urldefrag(rec["url"])[0]] = set(rec["ids"])
    broken, checked, statuses = [], 0, {}
    for page, rec in visits.items():
        for href in rec["links"]:
            if not href.startswith(base_url + "/"):
                continue
            target, fragment = urldefrag(href)
            if target.endswith("/"):
                target += "index.html"
            checked += 1
            if target in ids:
                if fragment and fragment not in ids[target]:
                    broken.append(f"{page}: {href} (no element with id {fragment!r})")
                continue
            if target not in statuses:
                statuses[target] = _status(target)
            if statuses[target] != 200:
                broken.append(f"{page}: {href} (HTTP {statuses[target]})")
    assert checked > 100  # the pages do link to each other
    assert not broken, broken[:20]


def test_every_demo_is_scanned_built(visits):
    # the scans below see each demo as a reader does, started (SHOW_DEMOS): one per chapter
    assert all(visits[f"book/{chapter}.html"]["demos"] == 1 for chapter in CHAPTERS)
    bad = offenders(visits, "demosNotStarted")
    assert not bad, bad


def test_axe_finds_no_violation(visits, axe_source):
    # at every impact, the minor and moderate ones too
    bad = offenders(visits, "axe")
    assert not bad, bad


def test_html_codesniffer_finds_no_error(visits, htmlcs_source):
    bad = offenders(visits, "htmlcs")
    assert not bad, bad


# Faults that each checker reports, put into a page of the site: an image without a text
# alternative (serious for axe), a header cell with nothing in it (minor for axe), a form
# without a submit button and an empty heading (errors for HTML_CodeSniffer).
FAULTS = """() => {
  const main = document.querySelector('main');
  const img = document.createElement('img');
  img.src = '../_static/favicon.svg';
  const table = document.createElement('table');
  table.innerHTML = '<tr><th></th><th>math</th></tr><tr><td>a</td><td>b</td></tr>';
  const form = document.createElement('form');
  form.innerHTML = '<input type="search" name="q" aria-label="Search">';
  main.prepend(img, table, form, document.createElement('h2'));
}"""


def _with_faults(browser, base_url, checker: str, run: str) -> list:
    page = browser.new_page()
    try:
        page.goto(f"{base_url}/book/intro.html", wait_until="load")
        page.evaluate(FAULTS)
        page.add_script_tag(content=checker)
        return page.evaluate(run)
    finally:
        page.close()


def test_axe_can_fail(browser, base_url, axe_source):
    found = {v["id"]: v["impact"] for v in _with_faults(browser, base_url, axe_source, AXE_RUN)}
    assert found.get("image-alt") == "critical"
    assert found.get("empty-table-header") == "minor"  # which the test above counts too


def test_html_codesniffer_can_fail(browser, base_url, htmlcs_source):
    found = {e["code"] for e in _with_faults(browser, base_url, htmlcs_source, HTMLCS_RUN)}
    assert "WCAG2AA.Principle1.Guideline1_1.1_1_1.H37" in found  # the image
    assert "WCAG2AA.Principle3.Guideline3_2.3_2_2.H32.2" in found  # the form
    assert "WCAG2AA.Principle1.Guideline1_3.1_3_1.H42.2" in found  # the heading
