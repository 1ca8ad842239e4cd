"""Every page on a phone-sized screen in the dark theme.

At 390 px (a common phone width) no page may be wider than the screen: wide formulas,
tables, code and figures scroll inside their own box.  The same visit asks for the dark
colour scheme, brings each demo into view until it has started, and runs axe-core's
colour-contrast rules and HTML_CodeSniffer's WCAG 2 AA standard there (the light theme
gets the full axe-core scan in test_site_pages.py; nothing but the colours differs
between the themes).  Any axe-core violation or HTML_CodeSniffer error fails.
"""

from __future__ import annotations

import pytest
from harness import (
    AXE,
    AXE_RUN,
    HTMLCS,
    HTMLCS_RUN,
    OVERFLOW,
    SCROLL_STOPS,
    SHOW_DEMOS,
    goto,
    site_pages,
)


@pytest.fixture(scope="module")
def phone_visits(browser, base_url, site) -> dict[str, dict]:
    out = {}
    axe = AXE.read_text() if AXE.is_file() else None  # the contrast test says when missing
    htmlcs = HTMLCS.read_text() if HTMLCS.is_file() else None  # so does its test
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True, device_scale_factor=2, color_scheme="dark")
    try:
        for rel in site_pages(site):
            page = ctx.new_page()
            goto(page, f"{base_url}/{rel}")
            rec = page.evaluate(OVERFLOW)
            rec.update(page.evaluate(SCROLL_STOPS))
            rec["theme"] = page.evaluate("() => document.documentElement.dataset.theme")
            rec.update(page.evaluate(SHOW_DEMOS))
            if axe is not None:
                page.add_script_tag(content=axe)
                rec["contrast"] = page.evaluate(AXE_RUN, {"runOnly": ["color-contrast"]})
            if htmlcs is not None:
                page.add_script_tag(content=htmlcs)
                rec["htmlcs"] = page.evaluate(HTMLCS_RUN)
            out[rel] = rec
            page.close()
    finally:
        ctx.close()
    return out


def test_no_page_is_wider_than_a_phone(phone_visits):
    assert len(phone_visits) >= 10
    wide = {p: r["wide"] for p, r in phone_visits.items() if r["scrollWidth"] > r["clientWidth"]}
    assert not wide, wide


def test_what_scrolls_on_a_phone_can_be_focused(phone_visits):
    # at 390 px many formulas and code blocks scroll inside their own box
    assert sum(r["scrolling"] for r in phone_visits.values()) > 20
    bad = {p: r["scrollUnfocusable"] for p, r in phone_visits.items() if r["scrollUnfocusable"]}
    assert not bad, bad
    waiting = {p: r["sectionsWaiting"] for p, r in phone_visits.items() if r["sectionsWaiting"]}
    assert not waiting, waiting


def test_dark_theme_text_keeps_its_contrast(phone_visits, axe_source):
    assert {r["theme"] for r in phone_visits.values()} == {"dark"}
    assert sum(r["demos"] for r in phone_visits.values()) >= 7  # each seen started
    assert not any(r["demosNotStarted"] for r in phone_visits.values())
    bad = {p: r["contrast"] for p, r in phone_visits.items() if r["contrast"]}
    assert not bad, bad


def test_dark_theme_on_a_phone_html_codesniffer_finds_no_error(phone_visits, htmlcs_source):
    bad = {p: r["htmlcs"] for p, r in phone_visits.items() if r["htmlcs"]}
    assert not bad, bad
