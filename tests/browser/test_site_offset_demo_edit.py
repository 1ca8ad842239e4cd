"""Chapter 2's offset demo in a real browser: the reader's data, Undo, the charts, the URL.

A reader of the offset chapter can edit the data of the demo (book/_demos/offset): a click
in the left picture adds a point with the chosen label, a click on a point selects it, a
drag moves it; from the keyboard, Tab reaches the points, Delete, Enter and
the arrow keys edit them, "a" adds one.  These tests drive those edits by mouse and
keyboard and hold every number that follows to perceptron_lib on the edited data: both
runs (through the origin on the data lifted by c, and on the data as they are), and the
chart of each run (updates per epoch, training mistakes after each epoch, the epoch in
progress).  They check Undo (button and Ctrl+Z) with the runs back at their step, that a
link carries the edited points exactly, that Back returns to the data before an edit,
that a malformed link never breaks the page, and that both themes read well.
"""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest
from harness import BURST_WAIT_MS, DemoPages
from naive import naive_epoch_chart
from test_site_offset_demo import (
    API,
    PAGE,
    SEL,
    arrays,
    assert_finished_as_the_library,
    assert_readout_is_the_library,
    assert_runs_at,
    library_runs,
    open_runs,
    shown,
    state,
    url_param,
)

import perceptron_lib as pl


@pytest.fixture
def open_page(browser, base_url):
    pages = DemoPages(browser, API, SEL, f"{API}.state().active")
    yield lambda query="", **kw: pages.open(f"{base_url}/{PAGE}{query}", **kw)
    pages.close()


def assert_charts_are_the_library(page, st: dict) -> None:
    """Both charts (the numbers and the bars drawn) against the library's runs."""
    X, y = arrays(st)
    lifted, origin = library_runs(st)
    want = {"lifted": naive_epoch_chart(X, y, lifted, st["steps"], c=st["c"]),
            "origin": naive_epoch_chart(X, y, origin, st["steps"])}
    assert st["chart"] == want
    for key, ref in want.items():
        bars = page.locator(f"{SEL} .od-chart-{key} rect.ec-bar").count()
        pale = page.locator(f"{SEL} .od-chart-{key} rect.ec-bar-partial").count()
        assert (bars, pale) == (len(ref["rows"]), int(ref["partial"] is not None))


def click_at(page, p: list[float], shift: bool = False) -> None:
    """A click on the data point p of the left picture (Shift held if shift)."""
    page.locator(f"{SEL} svg.od-layer").scroll_into_view_if_needed()
    x, y = page.evaluate(f"(p) => {API}.clientPoint(p)", p)
    page.mouse.move(x, y)
    if shift:
        page.keyboard.down("Shift")
    page.mouse.down()
    page.mouse.up()
    if shift:
        page.keyboard.up("Shift")


def on_point(page, p: list[float], key: str) -> None:
    """A click on the point at p selects it; then a key: Enter flips it, Delete removes it."""
    click_at(page, p)
    page.keyboard.press(key)


def drag(page, p: list[float], q: list[float]) -> None:
    """A drag from the data point p to q in the left picture."""
    a = page.evaluate(f"(p) => {API}.clientPoint(p)", p)
    b = page.evaluate(f"(p) => {API}.clientPoint(p)", q)
    page.mouse.move(*a)
    page.mouse.down()
    page.mouse.move((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    page.mouse.move(*b)
    page.mouse.up()


def empty_spot(X: np.ndarray) -> list[float]:
    """A place inside the data's box as far as possible from every point."""
    lo, hi = X.min(axis=0), X.max(axis=0)
    grid = np.stack(np.meshgrid(np.linspace(lo[0], hi[0], 25), np.linspace(lo[1], hi[1], 25)),
                    axis=-1).reshape(-1, 2)
    far = np.min(np.linalg.norm(grid[:, None, :] - X[None, :, :], axis=-1), axis=1)
    return grid[int(np.argmax(far))].tolist()


def loneliest(X: np.ndarray) -> int:
    """The point farthest from its nearest neighbour (a click on it hits it alone)."""
    dist = np.linalg.norm(X[:, None, :] - X[None, :, :], axis=-1)
    np.fill_diagonal(dist, np.inf)
    return int(np.argmax(dist.min(axis=1)))


def on_grid(v: float, step: float = 0.1) -> bool:
    return abs(v / step - round(v / step)) < 1e-9


def snap_of(X: np.ndarray) -> float:
    """The grid of new points in the picture of 2-D data X: a tenth of its grid step (1, 2
    or 5 times a power of ten, at least a sixth of the picture's span, the origin and a
    margin of 8% included)."""
    lo, hi = np.minimum(X.min(axis=0), 0), np.maximum(X.max(axis=0), 0)
    span = float(np.max(hi - lo)) * 1.16 if np.max(hi - lo) >= 1 else float(np.max(hi - lo) + 0.16)
    p = 10.0 ** np.floor(np.log10(span / 6))
    return next(m * p for m in (1, 2, 5, 10) if m * p >= span / 6) / 10


def param(page) -> dict | None:
    key = page.locator(SEL).get_attribute("id")
    page.evaluate(f"() => {API}.flushUrl()")
    text = page.evaluate("(k) => new URLSearchParams(location.search).get(k)", key)
    if text is None:
        return None
    return json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))


# ---------------------------------------------------------------------------------------
# The charts


def test_the_charts_grow_with_the_runs_as_the_library_counts(open_page):
    page = open_page()
    st = state(page)
    assert st["chart"]["lifted"] == {"rows": [], "partial": None}
    assert_charts_are_the_library(page, st)
    step = page.locator(f"{SEL} button.od-btn-step")
    for visits in (1, 2, 3, 4, 5, 6):  # inside epoch 1, its end, inside epoch 2
        step.click()
        st = state(page)
        assert st["steps"] == visits
        assert_charts_are_the_library(page, st)
    assert st["chart"]["lifted"]["partial"] == {"epoch": 2, "updates": st["chart"]["lifted"][
        "partial"]["updates"]}
    page.locator(f"{SEL} button.od-btn-run").click()
    st = state(page)
    assert_charts_are_the_library(page, st)
    # the chapter's outcome in the charts: the lifted run ends with a clean epoch, the run
    # through the origin never has one
    assert st["chart"]["lifted"]["rows"][-1]["updates"] == 0
    assert all(r["updates"] > 0 for r in st["chart"]["origin"]["rows"])
    assert len(st["chart"]["origin"]["rows"]) == st["tau"]
    # the other data set, at another c, midway
    page.evaluate(f"() => {API}.setState({{dataset: 'generated data', c: 3.16, steps: 250}})")
    st = state(page)
    assert_charts_are_the_library(page, st)
    # the charts are named images with a table of their values
    open_runs(page)
    for key in ("lifted", "origin"):
        chart = page.locator(f"{SEL} .od-chart-{key} svg.ec-svg")
        assert chart.get_attribute("role") == "img"
        assert "updates per epoch" in chart.get_attribute("aria-label")
        page.locator(f"{SEL} .od-chart-{key} details summary").click()  # the table, opened
        rows = page.locator(f"{SEL} .od-chart-{key} tbody tr").count()
        values = st["chart"][key]
        assert rows == len(values["rows"]) + int(values["partial"] is not None)
    assert page.errors == []


# ---------------------------------------------------------------------------------------
# Editing by mouse


def test_mouse_adds_selects_and_drags_points_and_the_runs_follow(open_page):
    page = open_page()
    page.locator(f"{SEL} button.od-btn-epoch").click()
    # a click between 2 and 3 adds a point with label +1, on the grid of new points
    click_at(page, [2.46])
    st = state(page)
    X, y = arrays(st)
    assert st["edited"] and len(y) == 5 and y[-1] == 1
    assert abs(X[-1, 0] - 2.46) <= 0.06 and on_grid(X[-1, 0])
    assert st["steps"] == 0  # the runs start again on the new data
    assert "Added example 5" in shown(st["status"]) and "start again" in st["status"]
    # the other label, chosen by its button; a point left of the others
    page.locator(f"{SEL} .demo-radio-neg").click()
    click_at(page, [0.52])
    st = state(page)
    X, y = arrays(st)
    assert len(y) == 6 and y[-1] == -1 and abs(X[-1, 0] - 0.5) <= 0.06
    assert "label -1" in shown(st["status"])
    # a click on a point selects it (the data stay), Enter flips its label, Delete removes it
    click_at(page, X[4].tolist())
    st = state(page)
    assert len(st["y"]) == 6 and st["selected"] == 4
    page.keyboard.press("Enter")
    st = state(page)
    assert arrays(st)[1][4] == -1 and "Example 5 now has label -1" in shown(st["status"])
    click_at(page, arrays(st)[0][0].tolist())
    page.keyboard.press("Delete")
    st = state(page)
    X, y = arrays(st)
    assert len(y) == 5 and 1.0 not in X[:, 0].tolist()
    assert "Removed example 1" in shown(st["status"])
    # a drag moves a point along the line: one edit, one Undo
    drag(page, X[0].tolist(), [X[0][0] + 0.5])
    st = state(page)
    assert abs(arrays(st)[0][0][0] - (X[0][0] + 0.5)) <= 0.06 and len(st["y"]) == 5
    page.keyboard.press("Control+z")
    st = state(page)
    X, y = arrays(st)
    assert len(y) == 5 and "Undone: moving example 1" in shown(st["status"])
    # the numbers on the edited data are the library's
    assert_readout_is_the_library(page, st)
    for steps in (3, 7):
        page.evaluate(f"(k) => {{ {API}.reset(); for (let i = 0; i < k; i++) {API}.step(); }}",
                      steps)
        st = state(page)
        assert_runs_at(st, steps)
        assert_charts_are_the_library(page, st)
    page.locator(f"{SEL} button.od-btn-run").click()
    st = state(page)
    assert_finished_as_the_library(page, st)
    assert_charts_are_the_library(page, st)
    # the chart's mistakes after the last epoch are those of the classifier read back
    X, y = arrays(st)
    theta, theta_0 = np.array(st["lifted"]["theta"][:-1]), st["c"] * st["lifted"]["theta"][-1]
    assert st["chart"]["lifted"]["rows"][-1]["mistakes"] == int(
        np.sum(y * (X @ theta + theta_0) <= 0))

    # 2-D data: a click in the plane adds (x1, x2); after a finished run, the runs end again
    page.locator(f"{SEL} select.demo-dataset").select_option(label="generated data")
    page.locator(f"{SEL} .demo-radio-pos").click()
    X0, _ = arrays(state(page))
    target = empty_spot(X0)
    click_at(page, target)
    st = state(page)
    X, y = arrays(st)
    assert len(y) == len(X0) + 1 and y[-1] == 1
    snap = snap_of(X0)
    assert np.all(np.abs(X[-1] - target) <= 0.6 * snap) and all(on_grid(v, snap) for v in X[-1])
    assert "ran again to their end" in st["status"]
    assert_finished_as_the_library(page, st)
    assert_charts_are_the_library(page, st)
    assert_readout_is_the_library(page, st)
    assert page.errors == []


def test_the_last_point_cannot_go_and_chapters_data_comes_back(open_page):
    page = open_page()
    page.evaluate(f"() => {API}.setState({{points: [[2, 1]]}})")
    on_point(page, [2.0], "Delete")
    st = state(page)
    assert st["X"] == [[2.0]] and "at least one example" in st["status"]
    page.locator(f"{SEL} button.od-btn-data").click()
    st = state(page)
    assert not st["edited"] and st["X"] == [[1.0], [2.0], [3.0], [4.0]]
    assert "chapter's data again" in shown(st["status"])
    assert "points" not in page.evaluate(f"() => {API}.getState()")
    assert page.errors == []


# ---------------------------------------------------------------------------------------
# Editing by keyboard


def focused_label(page) -> str:
    return page.evaluate("() => document.activeElement.getAttribute('aria-label') || "
                         "document.activeElement.innerText")


def test_keyboard_alone_edits_the_points(open_page):
    page = open_page()
    page.locator(f"{SEL} input.od-theta0").focus()
    page.keyboard.press("Tab")  # the first point (each point is a tab stop)
    assert shown(focused_label(page)) == "example 1 at (1), label +1"
    page.keyboard.press("n")
    page.keyboard.press("n")
    assert shown(focused_label(page)) == "example 3 at (3), label -1"
    page.keyboard.press("Enter")  # flips the label
    st = state(page)
    assert st["y"] == [1, 1, 1, -1] and "Example 3 now has label +1" in shown(st["status"])
    assert shown(focused_label(page)) == "example 3 at (3), label +1"
    for _ in range(3):  # three steps right by a tenth of the grid: one edit
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+ArrowLeft")  # a whole grid step left
    st = state(page)
    assert st["X"][2] == [2.3] and st["undoDepth"] == 2
    assert "Example 3 moved to (2.3)" in shown(st["status"])
    page.keyboard.press("Delete")
    st = state(page)
    assert st["X"] == [[1.0], [2.0], [4.0]] and "Removed example 3" in shown(st["status"])
    assert shown(focused_label(page)) == "example 3 at (4), label -1"
    page.keyboard.press("-")  # the label of new points
    page.keyboard.press("a")  # a point in the middle of the picture
    st = state(page)
    X, y = arrays(st)
    assert len(y) == 4 and y[-1] == -1 and st["label"] == -1
    assert X[-1].tolist() == [2.0]  # the middle of the picture of 0 to 4
    assert page.locator(f"{SEL} .demo-radio-neg input").is_checked()
    assert shown(focused_label(page)).startswith("example 4 at (")
    assert_readout_is_the_library(page, st)
    page.keyboard.press("r")
    st = state(page)
    assert_finished_as_the_library(page, st)
    assert_charts_are_the_library(page, st)
    # the choice of label is reached by Tab and moved by the arrow keys
    page.locator(f"{SEL} .demo-radio-neg input").focus()
    page.keyboard.press("ArrowLeft")
    assert state(page)["label"] == 1
    assert page.errors == []


# ---------------------------------------------------------------------------------------
# Undo


def test_undo_takes_back_each_edit_with_the_runs_at_their_step(open_page):
    page = open_page()
    assert page.locator(f"{SEL} button.od-btn-undo").get_attribute("aria-disabled") == "true"
    for _ in range(5):
        page.locator(f"{SEL} button.od-btn-step").click()
    before = page.evaluate(f"() => {API}.getState()")
    click_at(page, [2.46])  # an edit: the runs start again
    assert state(page)["steps"] == 0
    page.locator(f"{SEL} button.od-btn-step").click()
    page.locator(f"{SEL} button.od-btn-undo").click()
    st = state(page)
    assert page.evaluate(f"() => {API}.getState()") == before
    assert st["steps"] == 5 and not st["edited"]
    assert_runs_at(st, 5)
    assert_charts_are_the_library(page, st)
    assert shown(st["status"]).startswith("Undone: adding example 5.")

    # Ctrl+Z: a label flipped, a point removed, c moved (one drag, one edit), the data set
    states = [page.evaluate(f"() => {API}.getState()")]
    on_point(page, [3.0], "Enter")
    states.append(page.evaluate(f"() => {API}.getState()"))
    on_point(page, [1.0], "Delete")
    states.append(page.evaluate(f"() => {API}.getState()"))
    page.locator(f"{SEL} input.od-c").focus()
    for _ in range(3):  # each key on the slider is an edit
        page.keyboard.press("ArrowRight")
        states.append(page.evaluate(f"() => {API}.getState()"))
    page.locator(f"{SEL} select.demo-dataset").select_option(label="generated data")
    page.locator(f"{SEL} button.od-btn-run").click()
    assert state(page)["undoDepth"] == 6
    page.locator(f"{SEL} button.od-btn-step").focus()
    for want in reversed(states):
        page.keyboard.press("Control+z")
        got = page.evaluate(f"() => {API}.getState()")
        assert got == want
        st = state(page)
        assert_runs_at(st, st["steps"])
        assert_readout_is_the_library(page, st)
    assert state(page)["c"] == 1.0 and page.evaluate(f"() => {API}.getState()") == before
    page.keyboard.press("Meta+z")  # every edit is taken back now
    assert state(page)["status"] == "Nothing to undo."
    # the chapter's data button is an edit too
    click_at(page, [2.46])
    page.locator(f"{SEL} button.od-btn-data").click()
    assert not state(page)["edited"]
    page.locator(f"{SEL} button.od-btn-undo").click()
    st = state(page)
    assert st["edited"] and len(st["y"]) == 5
    assert "Undone: the chapter's data" in shown(st["status"])
    assert page.errors == []


def test_a_slider_dragged_is_one_edit(open_page):
    page = open_page()
    for _ in range(3):
        page.locator(f"{SEL} button.od-btn-step").click()
    before = page.evaluate(f"() => {API}.getState()")
    page.locator(f"{SEL} input.od-c").scroll_into_view_if_needed()
    box = page.locator(f"{SEL} input.od-c").bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] / 3, y)  # the thumb at c = 1 (position 10 of 30)
    page.mouse.down()
    for k in range(1, 11):
        page.mouse.move(box["x"] + box["width"] * (1 / 3 + k / 30), y)
    page.mouse.up()
    st = state(page)
    assert st["c"] > 3 and st["undoDepth"] == 1 and st["steps"] == 3
    assert_runs_at(st, 3)
    page.keyboard.press("Control+z")
    assert page.evaluate(f"() => {API}.getState()") == before
    assert shown(state(page)["status"]).startswith("Undone: the change of c.")
    assert page.errors == []


# ---------------------------------------------------------------------------------------
# The URL: a link with the reader's points, Back, malformed links


def test_a_link_carries_the_edited_points_exactly_and_back_returns(open_page, base_url):
    page = open_page()
    page.locator(f"{SEL} select.demo-dataset").select_option(label="generated data")
    X0, y0 = arrays(state(page))
    k = loneliest(X0)
    page.wait_for_timeout(BURST_WAIT_MS)  # each edit an entry of the history, not one burst
    click_at(page, empty_spot(X0))
    page.wait_for_timeout(BURST_WAIT_MS)
    on_point(page, X0[k].tolist(), "Enter")
    for _ in range(30):
        page.locator(f"{SEL} button.od-btn-step").click()
    want = page.evaluate(f"() => {API}.getState()")
    assert param(page) == want
    assert len(want["points"]) == len(y0) + 1 and want["steps"] == 30
    X, y = arrays(state(page))
    assert want["points"] == [[*X[i].tolist(), int(y[i])] for i in range(len(y))]

    # a new visitor with the link sees exactly those points, at the same step
    page2 = open_page(query=f"?{page.locator(SEL).get_attribute('id')}={url_param(want)}")
    st = state(page2)
    assert page2.evaluate(f"() => {API}.getState()") == want
    assert st["X"] == X.tolist() and st["y"] == y.tolist()
    assert shown(st["status"]).startswith("Restored from the link: data set")
    assert "edited" in st["status"]
    assert_runs_at(st, 30)
    assert_charts_are_the_library(page2, st)

    # Back: before the flip, before the added point, the chapter's data
    page.go_back()
    page.wait_for_function(f"() => {API}.state().y[{k}] === {int(y0[k])}")
    st = state(page)
    assert len(st["y"]) == len(y0) + 1 and st["status"].startswith("Back to an earlier state")
    assert_runs_at(st, st["steps"])
    page.go_back()
    page.wait_for_function(f"() => !{API}.state().edited")
    st = state(page)
    assert st["dataset"] == "generated data" and st["X"] == X0.tolist()
    page.go_forward()
    page.wait_for_function(f"() => {API}.state().edited")
    assert len(state(page)["y"]) == len(y0) + 1
    assert page.errors == [] and page2.errors == []


@pytest.mark.parametrize(("bad", "words"), [
    ({"dataset": "offset example", "points": [[1, 1], [2, 0]]}, "has label 0"),
    ({"dataset": "offset example", "points": [[1, 2, 1]]}, "is not [x, label]"),
    ({"dataset": "generated data", "points": []}, "non-empty list"),
    ({"dataset": "generated data", "points": [[1, "a", 1]]}, "not a finite number"),
    ({"dataset": "generated data", "points": [[1, 1e9, 1]]}, "too far out"),
    ({"dataset": "offset example", "points": "1,2"}, "non-empty list"),
])
def test_a_malformed_link_is_ignored_with_a_word(open_page, bad, words):
    key = open_page().locator(SEL).get_attribute("id")
    page = open_page(query=f"?{key}={url_param(bad)}")
    st = state(page)
    assert not st["edited"] and st["X"] == [[1.0], [2.0], [3.0], [4.0]]
    assert "ignored" in st["status"] and words in shown(st["status"]), st["status"]
    assert page.errors == []


def test_garbage_in_the_link_is_ignored(open_page):
    page = open_page()
    key = page.locator(SEL).get_attribute("id")
    for junk in ("%%%", "eyJ2Ijox", "bm90IGpzb24"):
        page = open_page(query=f"?{key}={junk}")
        st = state(page)
        assert "ignored" in st["status"] and not st["edited"]
        page.locator(f"{SEL} button.od-btn-run").click()  # the page still works
        assert_finished_as_the_library(page, state(page))
        assert page.errors == []


# ---------------------------------------------------------------------------------------
# Both themes


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_edited_demo_reads_well_in_both_themes(open_page, scheme, axe_source):
    page = open_page(scheme=scheme)
    click_at(page, [2.46])
    page.locator(f"{SEL} .demo-radio-neg").click()
    click_at(page, [0.52])
    for _ in range(6):
        page.locator(f"{SEL} button.od-btn-step").click()
    page.add_script_tag(content=axe_source)
    found = page.evaluate("""async (sel) => (await axe.run(document.querySelector(sel),
        { runOnly: ["color-contrast"], resultTypes: ["violations"] })).violations
        .map(v => ({ id: v.id, nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ")) }))""",
                          SEL)
    assert found == []
    assert page.errors == []


def test_the_library_reference_of_the_chart_can_fail():
    # a chart off by one update in one epoch is not the library's
    X, y = pl.offset_example().X, pl.offset_example().y
    ref = pl.perceptron_through_origin(X, y, tau=5, trace=True)
    good = naive_epoch_chart(X, y, ref, 10)
    bad = {**good, "rows": [{**good["rows"][0], "updates": good["rows"][0]["updates"] + 1},
                            *good["rows"][1:]]}
    assert bad != naive_epoch_chart(X, y, ref, 10) and good["partial"] == {
        "epoch": 3, "updates": sum(1 for u in ref.history if u.epoch == 3 and u.index < 2)}
