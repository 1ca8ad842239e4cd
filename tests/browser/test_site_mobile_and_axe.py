"""Every page on a phone-sized screen, and an accessibility scan of every page.

At 390 px (a common phone width) no page may be wider than the screen: wide formulas,
tables, code and figures scroll inside their own box.  axe-core, the npm package
injected into the page, then scans each page at 1280 px once every formula is typeset;
a serious or critical violation fails the test.
"""

from __future__ import annotations

import pytest
from harness import AXE_RUN, OVERFLOW, goto, site_pages

BLOCKING = {"serious", "critical"}


@pytest.fixture(scope="module")
def phone_widths(browser, base_url, site) -> dict[str, dict]:
    out = {}
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True, device_scale_factor=2)
    try:
        for rel in site_pages(site):
            page = ctx.new_page()
            goto(page, f"{base_url}/{rel}")
            out[rel] = page.evaluate(OVERFLOW)
            page.close()
    finally:
        ctx.close()
    return out


def test_no_page_is_wider_than_a_phone(phone_widths):
    assert len(phone_widths) >= 10
    wide = {p: r for p, r in phone_widths.items() if r["scrollWidth"] > r["clientWidth"]}
    assert not wide, wide


@pytest.fixture(scope="module")
def axe_results(browser, base_url, site, axe_source) -> dict[str, list]:
    out = {}
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        for rel in site_pages(site):
            page = ctx.new_page()
            goto(page, f"{base_url}/{rel}")
            page.add_script_tag(content=axe_source)
            out[rel] = page.evaluate(AXE_RUN)
            page.close()
    finally:
        ctx.close()
    return out


def test_axe_finds_no_serious_or_critical_violation(axe_results):
    assert len(axe_results) >= 10
    bad = {
        page: [v for v in violations if v["impact"] in BLOCKING]
        for page, violations in axe_results.items()
    }
    bad = {page: v for page, v in bad.items() if v}
    assert not bad, bad


def test_axe_really_ran(axe_results, browser, base_url, axe_source):
    # The scan must be able to fail: on a page with a known violation it reports it.
    page = browser.new_page()
    try:
        page.goto(f"{base_url}/book/intro.html", wait_until="load")
        page.evaluate("() => { const i = document.createElement('img'); i.src = '../_static/favicon.svg';"
                      " document.querySelector('main').prepend(i); }")
        page.add_script_tag(content=axe_source)
        ids = {v["id"] for v in page.evaluate(AXE_RUN)}
    finally:
        page.close()
    assert "image-alt" in ids
