"""The browser tests have what they need: Chromium, which Playwright can drive, and the
accessibility checkers axe-core and HTML_CodeSniffer.

Without Chromium this is the one browser test collected, and it skips saying how to
enable the others (or fails where PERCEPTRON_COURSE_REQUIRE_BROWSER is set).  The checks
the demos' tests share (harness.py) are shown to fail here on pages made to fail them.
"""

import pytest
from harness import assert_demo_speaks, demo_violations, picture_without_javascript, serve


def test_chromium_starts_and_renders_a_page(browser):
    page = browser.new_page()
    try:
        page.set_content("<p id='p'>2 + 2 = <span id='s'></span></p>"
                         "<script>document.getElementById('s').textContent = 2 + 2</script>")
        assert page.inner_text("#p") == "2 + 2 = 4"
    finally:
        page.close()
    assert int(browser.version.split(".")[0]) >= 100


def test_axe_core_is_installed(axe_source):
    assert "axe.run" in axe_source or "runPartial" in axe_source
    assert len(axe_source) > 100_000  # the whole engine, not a stub


def test_html_codesniffer_is_installed(htmlcs_source):
    assert "HTMLCS_WCAG2AA" in htmlcs_source  # the standard the tests run
    assert len(htmlcs_source) > 100_000


def test_the_shared_demo_checks_can_fail(browser, axe_source):
    # A "demo" with an unnamed button, a silent status, the wrong keys and a console error.
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.set_content("<div class='d'><p class='demo-status'>Ready.</p>"
                         "<div class='demo-buttons'><button aria-keyshortcuts='s'></button>"
                         "</div></div><script>console.error('broken')</script>")
        page.errors = errors
        found = demo_violations(page, "div.d", axe_source)
        assert "button-name" in {v["id"] for v in found}
        with pytest.raises(AssertionError):
            assert_demo_speaks(page, "div.d")
    finally:
        page.close()


def test_the_picture_without_javascript_is_read_as_a_reader_sees_it(browser, tmp_path):
    (tmp_path / "index.html").write_text(
        "<!doctype html><html lang='en'><head><title>t</title></head><body>"
        "<div class='demo-ui'>live</div><img alt='A picture' "
        "style='display:block;width:300px;height:150px' "
        "src='data:image/gif;base64,R0lGODlhAQABAAAAACw=' class='pic'>"
        "<div class='demo-ui' style='display:none'>hidden</div></body></html>")
    with serve(tmp_path) as url:
        seen = picture_without_javascript(browser, f"{url}/index.html", "img.pic")
        assert seen["count"] == 1 and seen["visible"] and seen["alt"] == "A picture"
        assert seen["live"] == 1  # the visible live part is counted, the hidden one is not
        assert (seen["width"], seen["height"]) == (300, 150)
        assert picture_without_javascript(browser, f"{url}/index.html", "img.none") == {
            "count": 0, "live": 1}
