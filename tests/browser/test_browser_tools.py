"""The browser tests have what they need: Chromium, which Playwright can drive, and the
accessibility checkers axe-core and HTML_CodeSniffer.

Without Chromium this is the one browser test collected, and it skips saying how to
enable the others (or fails where PERCEPTRON_COURSE_REQUIRE_BROWSER is set).
"""



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
