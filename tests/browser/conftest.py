"""Fixtures of the browser tests: the built site on a local server, and Chromium.

Where no Chromium is found, the browser tests are not collected and the one test of
test_browser_tools.py skips, with one line saying how to enable them.  Without npm's
axe-core or HTML_CodeSniffer only the accessibility scans skip.  With
PERCEPTRON_COURSE_REQUIRE_BROWSER=1 (set by .ci/run) every one of these skips is a failure
instead.
"""

from __future__ import annotations

import pytest
from harness import AXE, HOW_TO_ENABLE, HTMLCS, browser_required, chromium, find_chromium, serve

if find_chromium() is None and not browser_required():
    # one skip line for the lot (test_browser_tools.py), not one per test
    collect_ignore_glob = ["test_site_*.py", "test_playground.py", "test_report_page.py"]


def _missing(what: str) -> None:
    message = f"browser tests: {what}; {HOW_TO_ENABLE}"
    if browser_required():
        pytest.fail(message + " (required here: PERCEPTRON_COURSE_REQUIRE_BROWSER is set)")
    pytest.skip(message)


@pytest.fixture(scope="session")
def chromium_executable() -> str:
    found = find_chromium()
    if found is None:
        _missing("no Chromium found")
    return found


@pytest.fixture(scope="session")
def axe_source() -> str:
    if not AXE.is_file():
        _missing(f"axe-core not found at {AXE.relative_to(AXE.parents[2])} (npm ci)")
    return AXE.read_text()


@pytest.fixture(scope="session")
def htmlcs_source() -> str:
    if not HTMLCS.is_file():
        _missing(f"HTML_CodeSniffer not found at {HTMLCS.relative_to(HTMLCS.parents[3])} (npm ci)")
    return HTMLCS.read_text()


@pytest.fixture(scope="session")
def base_url(site) -> str:
    with serve(site) as url:
        yield url


@pytest.fixture(scope="session")
def browser(chromium_executable):
    with chromium(chromium_executable) as b:
        yield b


@pytest.fixture
def context(browser, base_url):
    """A fresh browser context (empty storage, a desktop-sized window)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield ctx
    ctx.close()
