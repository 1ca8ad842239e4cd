"""Undo keeps the keyboard in the demo, in every demo whose data a reader edits.

An edit from the keyboard (Delete on a focused point, or Enter at the cursor of chapter
7's plot), then Ctrl+Z: the data come back, the focus is still inside the demo (on the
point of the same index where there is one), and the next key does what it says
(``s`` takes a step), instead of landing on the page's body.
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
     "snapshot()", "svg.md-layer", "Enter"),
]

WHERE = """(sel) => {
  const root = document.querySelector(sel);
  const a = document.activeElement;
  const point = a && a.closest('[data-i]');
  return {inside: root.contains(a) && a !== document.body,
          index: point ? point.dataset.i : null, tag: a ? a.tagName : null};
}"""


@pytest.mark.parametrize(("chapter", "page_", "sel", "api", "data_", "run_", "target", "key"),
                         DEMOS, ids=[f"chapter {d[0]}" for d in DEMOS])
def test_undo_keeps_the_focus_in_the_demo(browser, base_url, chapter, page_, sel, api, data_,
                                          run_, target, key):
    pages = DemoPages(browser, f"document.querySelector('{sel}').{api}", sel,
                      f"document.querySelector('{sel}').{api}")
    try:
        page = pages.open(f"{base_url}/{page_}")
        state = f"() => JSON.stringify(document.querySelector('{sel}').{api}.{data_})"
        data = page.evaluate(state)
        points = page.locator(f"{sel} {target}")
        pick = points.nth(1) if points.count() > 1 else points.first
        pick.focus()
        before = page.evaluate(WHERE, sel)
        assert before["inside"]
        page.keyboard.press(key)
        assert page.evaluate(state) != data, "the key edited the data"
        page.keyboard.press("Control+z")
        assert page.evaluate(state) == data, "Undo put the data back"
        after = page.evaluate(WHERE, sel)
        assert after["inside"], after
        assert after["index"] == before["index"], (before, after)
        # and the next key is the demo's: a step
        run = f"() => JSON.stringify(document.querySelector('{sel}').{api}.{run_})"
        was = page.evaluate(run)
        page.keyboard.press("s")
        assert page.evaluate(run) != was
        assert page.errors == []
    finally:
        pages.close()
