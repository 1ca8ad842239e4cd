"""Undo and Redo keep the keyboard in the demo, in every demo whose data a reader edits.

An edit from the keyboard (Delete on a focused point), then Ctrl+Z: the data come back,
the focus is still inside the demo (on the point of the same index where there is one),
and the next key does what it says (``s`` takes a step), instead of landing on the page's
body.  Then Redo, by its keys (Ctrl+Shift+Z, Ctrl+Y) and its button: the edited data come
back, and the focus stays in the demo too.
"""

from __future__ import annotations

import pytest
from harness import DemoPages

DEMOS = [
    # chapter, page, demo root, its API, what it says of its data and run, what takes the
    # focus, the edit key
    ("1", "book/01_algorithm.html", "div.perceptron-playground", "perceptronPlayground",
     "state().X", "state()", "g.pg-pt", "Delete"),
    ("2", "book/02_offset.html", "div.offset-demo", "offsetDemo", "state().X", "state()",
     "g.od-pt", "Delete"),
    ("6", "book/06_variants.html", "div.kernel-playground", "kernelPlayground", "state().X",
     "state()", "g.kp-pt", "Delete"),
    ("7", "book/07_beyond.html", "div.margin-demo", "marginDemo", "getState().points",
     "snapshot()", "g.md-pt", "Delete"),
]
IDS = [f"chapter {d[0]}" for d in DEMOS]

WHERE = """(sel) => {
  const root = document.querySelector(sel);
  const a = document.activeElement;
  const point = a && a.closest('[data-i]');
  return {inside: root.contains(a) && a !== document.body,
          index: point ? point.dataset.i : null, tag: a ? a.tagName : null};
}"""


def opened(pages, url, sel, api, data_, target):
    """The page with the demo, a function that reads the demo's data (JSON), and its
    second point (the first where it has one point) given the focus."""
    page = pages.open(url)
    state = f"() => JSON.stringify(document.querySelector('{sel}').{api}.{data_})"
    points = page.locator(f"{sel} {target}")
    (points.nth(1) if points.count() > 1 else points.first).focus()
    return page, lambda: page.evaluate(state)


def steps_on_s(page, sel, api, run_) -> bool:
    """Whether the key s takes a step (the next key is the demo's)."""
    run = f"() => JSON.stringify(document.querySelector('{sel}').{api}.{run_})"
    was = page.evaluate(run)
    page.keyboard.press("s")
    return page.evaluate(run) != was


@pytest.mark.parametrize(("chapter", "page_", "sel", "api", "data_", "run_", "target", "key"),
                         DEMOS, ids=IDS)
def test_undo_keeps_the_focus_in_the_demo(browser, base_url, chapter, page_, sel, api, data_,
                                          run_, target, key):
    pages = DemoPages(browser, f"document.querySelector('{sel}').{api}", sel,
                      f"document.querySelector('{sel}').{api}")
    try:
        page, state = opened(pages, f"{base_url}/{page_}", sel, api, data_, target)
        data = state()
        before = page.evaluate(WHERE, sel)
        assert before["inside"]
        page.keyboard.press(key)
        assert state() != data, "the key edited the data"
        page.keyboard.press("Control+z")
        assert state() == data, "Undo put the data back"
        after = page.evaluate(WHERE, sel)
        assert after["inside"], after
        assert after["index"] == before["index"], (before, after)
        assert steps_on_s(page, sel, api, run_)  # and the next key is the demo's: a step
        assert page.errors == []
    finally:
        pages.close()


@pytest.mark.parametrize(("chapter", "page_", "sel", "api", "data_", "run_", "target", "key"),
                         DEMOS, ids=IDS)
def test_redo_puts_the_edit_back_and_keeps_the_focus_in_the_demo(browser, base_url, chapter,
                                                                  page_, sel, api, data_, run_,
                                                                  target, key):
    pages = DemoPages(browser, f"document.querySelector('{sel}').{api}", sel,
                      f"document.querySelector('{sel}').{api}")
    try:
        page, state = opened(pages, f"{base_url}/{page_}", sel, api, data_, target)
        data = state()
        page.keyboard.press(key)
        edited = state()
        assert edited != data, "the key edited the data"
        where = page.evaluate(WHERE, sel)  # the point now in the removed one's place
        assert where["inside"] and where["index"] is not None, where
        for redo in ("Control+Shift+z", "Control+y"):
            page.keyboard.press("Control+z")
            assert state() == data, "Undo put the data back"
            page.keyboard.press(redo)
            assert state() == edited, f"{redo} put the edit back"
            after = page.evaluate(WHERE, sel)
            assert after == where, (redo, where, after)
        # the Redo button: the focus stays on it, and the next key is the demo's
        page.keyboard.press("Control+z")
        button = page.locator(f"{sel} button[class*='-redo']")
        assert button.count() == 1 and button.get_attribute("aria-disabled") == "false"
        button.click()
        assert state() == edited
        assert page.evaluate(WHERE, sel)["tag"] == "BUTTON"
        assert button.get_attribute("aria-disabled") == "true"
        assert steps_on_s(page, sel, api, run_)
        assert page.errors == []
    finally:
        pages.close()
