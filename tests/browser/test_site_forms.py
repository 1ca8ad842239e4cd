"""The site's one form, the search box, is submitted from the keyboard alone.

tests/test_site_html.py checks every form of every page for a submit button or a single
field that Enter submits; here a reader opens the search box with its shortcut, types,
presses Enter, and lands on the search results.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from harness import load


def test_the_search_box_opens_and_submits_from_the_keyboard(context, base_url):
    page = context.new_page()
    load(page, f"{base_url}/book/05_spam.html")
    page.keyboard.press("Control+k")
    field = page.locator("input[type=search]:visible").first
    field.wait_for(state="visible")
    assert page.evaluate("() => document.activeElement.type") == "search"
    page.keyboard.type("margin")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    url = urlparse(page.url)
    assert url.path.endswith("/search.html")
    assert parse_qs(url.query)["q"] == ["margin"]
