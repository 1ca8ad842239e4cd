"""Chapter 2's offset demo in a real browser: mouse, keyboard, room, and the library.

The demo (book/_demos/offset) is on the offset chapter.  These tests drive it the way a
reader does (clicks on the buttons and the menu; Tab, arrow keys on the sliders and the
keys s, e, r, 0) and compare every number it shows with perceptron_lib on the same data:
the updates of PERCEPTRON-THROUGH-ORIGIN on the data lifted by c (PERCEPTRON's own for
c = 1) and on the data as they are, the classifier's mistakes, margins and radii before
and after lifting, and the updates the lifted run needs at each c.  They also check that
the page keeps the demo's room before its script runs (no layout shift), that it starts
when it comes into view, that nothing overflows at phone width, that it passes axe-core in
the light and the dark theme, that its state round-trips through getState/setState, and
that readers without JavaScript see the explorer's picture.
"""

from __future__ import annotations

import base64
import functools
import json
import re

import numpy as np
import pytest
from harness import (
    LAID_OUT,
    LAID_OUT_MS,
    LAY_OUT_NOW,
    DemoPages,
    assert_demo_speaks,
    demo_violations,
    picture_without_javascript,
)

import perceptron_lib as pl

PAGE = "book/02_offset.html"
SEL = "div.offset-demo"
API = f"document.querySelector('{SEL}').offsetDemo"
C_VALUES = [float(f"{10 ** ((k - 10) / 10):.3g}") for k in range(31)]


# ---------------------------------------------------------------------------------------
# Reading the page, and the library on the same data


@pytest.fixture
def open_page(browser, base_url):
    pages = DemoPages(browser, API, SEL, f"{API}.state().active")
    yield lambda **kw: pages.open(f"{base_url}/{PAGE}", **kw)
    pages.close()


def state(page) -> dict:
    return page.evaluate(f"() => {API}.state()")


def arrays(st: dict) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(st["X"], float), np.asarray(st["y"], float)


@functools.lru_cache(maxsize=16)
def _through_origin(X: bytes, d: int, y: bytes, tau: int):
    return pl.perceptron_through_origin(np.frombuffer(X).reshape(-1, d), np.frombuffer(y),
                                        tau=tau, trace=True)


def through_origin(X: np.ndarray, y: np.ndarray, tau: int):
    """pl.perceptron_through_origin, traced (cached: the same run is asked for often)."""
    return _through_origin(X.tobytes(), X.shape[1], y.tobytes(), tau)


def library_runs(st: dict):
    """The library's two traced runs on the demo's data: lifted by c, and as they are."""
    X, y = arrays(st)
    return (through_origin(pl.add_offset_feature(X, value=st["c"]), y, st["tau"]),
            through_origin(X, y, st["tau"]))


def after(result, n: int, visits: int, d: int) -> tuple[list[float], int]:
    """theta and the update count of a traced run after ``visits`` visits."""
    theta, count = [0.0] * d, 0
    for u in result.history:
        if (u.epoch - 1) * n + u.index + 1 > visits:
            break
        theta, count = u.theta.tolist(), count + 1
    return theta, count


def page_history(page, key: str) -> list[dict]:
    """Every update of the page's run "lifted" or "origin" (as JSON text: a hundred
    thousand objects cross from the page far quicker as one string)."""
    return json.loads(page.evaluate(f"(k) => JSON.stringify({API}.history(k))", key))


def assert_runs_at(st: dict, visits: int) -> None:
    X, _ = arrays(st)
    n, d = X.shape
    lifted, origin = library_runs(st)
    assert (st["lifted"]["theta"], st["lifted"]["mistakes"]) == after(lifted, n, visits, d + 1)
    assert (st["origin"]["theta"], st["origin"]["mistakes"]) == after(origin, n, visits, d)


def assert_finished_as_the_library(page, st: dict, origin_too: bool = True) -> None:
    lifted, origin = library_runs(st)
    pairs = (("lifted", lifted), ("origin", origin)) if origin_too else (("lifted", lifted),)
    for key, ref in pairs:
        got = st[key]
        assert got["theta"] == ref.theta.tolist()
        assert (got["mistakes"], got["epochs"], got["converged"]) == (
            ref.mistakes, ref.epochs, ref.converged)
        history = page_history(page, key)
        assert [(h["epoch"], h["index"], h["theta"]) for h in history] == [
            (u.epoch, u.index, u.theta.tolist()) for u in ref.history]
    if st["c"] == 1.0:  # the theorem of the chapter: PERCEPTRON's updates and result
        X, y = arrays(st)
        full = pl.perceptron(X, y, tau=st["tau"], trace=True)
        assert st["lifted"]["theta"] == [*full.theta.tolist(), full.theta_0]
        assert [(h["epoch"], h["index"]) for h in page_history(page, "lifted")] == [
            (u.epoch, u.index) for u in full.history]
    # what the reader sees in the two boxes, once the fold is opened
    open_runs(page)
    for key, ref in pairs:
        text = shown(page.locator(f"{SEL} .od-run-{key} .od-run-state").inner_text())
        assert text.startswith(f"{ref.mistakes} update"), text
        assert ("converged" in text) == ref.converged
        assert (f"stopped after \u03c4 = {st['tau']} epochs" in text) == (not ref.converged)
        items = page.locator(f"{SEL} .od-run-{key} .od-updates li:not(.od-more)")
        if ref.mistakes:
            assert shown(items.last.inner_text()).startswith(
                f"{ref.mistakes}. epoch {ref.history[-1].epoch}, x({ref.history[-1].index + 1})")


def shown(text: str) -> str:
    return text.replace("\u2212", "-")


def four(v: float) -> float:
    """A number as the page writes it: 4 significant digits."""
    return float(f"{v:.4g}")


def numbers(text: str) -> list[float]:
    return [float(m) for m in re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", shown(text))]


def open_runs(page) -> None:
    """Open the fold that holds the two runs' panels and charts (closed at first), and
    leave the focus where it was (tests/browser/test_site_offset_demo.py clicks it)."""
    page.evaluate(f"() => {{ document.querySelector('{SEL} .od-fold').open = true; }}")


def readout(page, key: str) -> str:
    return page.locator(f"{SEL} .od-row-{key} dd").inner_text()


def assert_readout_is_the_library(page, st: dict) -> None:
    """The rows of the readout against pl.margin, pl.radius and the runs, at st's c."""
    X, y = arrays(st)
    c, theta, theta_0 = st["c"], np.asarray(st["theta"]), st["theta0"]
    X_c = pl.add_offset_feature(X, value=c)
    normal = np.append(theta, theta_0 / c)
    wrong = int(np.sum(y * (X @ theta + theta_0) <= 0))
    assert shown(readout(page, "wrong")) == f"{wrong} of {len(y)} (lifted: {wrong} of {len(y)})"
    assert numbers(readout(page, "normal"))[-len(normal):] == [four(v) for v in normal]
    gamma, gamma_c = pl.margin(X, y, theta, theta_0), pl.margin(X_c, y, normal)
    assert numbers(readout(page, "margin")) == [four(gamma), four(gamma_c)]
    assert numbers(readout(page, "radius")) == [four(pl.radius(X)), four(pl.radius(X_c))]
    if gamma_c > 0:
        assert numbers(readout(page, "bound")) == [four(pl.mistake_bound(pl.radius(X_c),
                                                                         gamma_c))]
    else:
        assert readout(page, "bound").startswith("none")
    full = through_origin(X_c, y, st["tau"])
    assert st["full"] == {"mistakes": full.mistakes, "epochs": full.epochs,
                          "converged": full.converged}
    assert numbers(readout(page, "updates"))[:2] == [full.mistakes, full.epochs]


def focused(page) -> str:
    return page.evaluate("""() => { const e = document.activeElement;
        return (e.labels && e.labels[0] ? e.labels[0].innerText : '') ||
               e.getAttribute('aria-label') || e.innerText || e.tagName; }""")


# ---------------------------------------------------------------------------------------
# When the work starts, and the room on the page


ONE_SCREEN = """(sel) => {
  const root = document.querySelector(sel);
  const header = document.querySelector('.bd-header').getBoundingClientRect().bottom;
  const parts = {
    controls: root.querySelector('.demo-controls'),
    data: root.querySelector('.od-fig-orig svg.od-plot'),
    lifted: root.querySelector('.od-fig-lift svg.od-plot'),
    buttons: root.querySelector('.demo-buttons'),
    status: root.querySelector('.demo-status'),
    readout: root.querySelector('dl.demo-values'),
    runs: root.querySelector('.od-fold > summary'),
  };
  const out = {};
  for (const [k, e] of Object.entries(parts)) {
    const r = e.getBoundingClientRect();
    out[k] = {top: r.top, bottom: r.bottom, height: r.height};
  }
  return {header, view: innerHeight, parts: out, open: root.querySelector('.od-fold').open,
          frame: root.querySelector('.od-frame').getBoundingClientRect().height};
}"""


@pytest.mark.parametrize("width", [1366, 1024])
def test_the_demo_fits_on_one_laptop_screen(open_page, width):
    # At 1366 x 768 the sliders, both pictures, the buttons, the status and the readout are
    # on screen together; the two runs' panels and charts wait in a closed fold.
    page = open_page(width=width, height=768)
    page.evaluate(f"""() => {{
        const top = document.querySelector('{SEL}').getBoundingClientRect().top;
        window.scrollBy(0, top - document.querySelector('.bd-header').offsetHeight); }}""")
    page.wait_for_timeout(300)
    got = page.evaluate(ONE_SCREEN, SEL)
    assert not got["open"]
    assert got["frame"] <= got["view"] - got["header"], got
    for name, box in got["parts"].items():
        assert box["height"] > 0, name
        assert got["header"] - 1 <= box["top"] and box["bottom"] <= got["view"] + 1, (name, got)
    # a click opens the fold on the runs, their updates and their charts
    page.locator(f"{SEL} .od-fold > summary").click()
    assert page.evaluate(f"() => document.querySelector('{SEL} .od-fold').open")
    heights = page.evaluate(f"""() => [...document.querySelectorAll(
        '{SEL} .od-run, {SEL} .demo-chart')].map(e => e.getBoundingClientRect().height)""")
    assert len(heights) == 4 and min(heights) > 50, heights


def test_the_demo_waits_until_it_is_in_view(open_page):
    page = open_page(scroll=False)
    top = page.evaluate(f"() => document.querySelector('{SEL}').getBoundingClientRect().top")
    assert top > page.viewport_size["height"] + 200  # far below the first screen
    st = state(page)
    assert st["active"] is False and st["lifted"] is None and st["full"] is None
    assert page.locator(f"{SEL} svg.od-plot").first.evaluate("s => s.childElementCount") == 0
    # the empty pictures already have names (they are images, drawn later)
    for svg in page.locator(f"{SEL} svg.od-plot").all():
        assert "drawn when the demo comes into view" in svg.get_attribute("aria-label")
    # the controls are there already, and the readout needs no run
    assert shown(readout(page, "wrong")) == "0 of 4 (lifted: 0 of 4)"
    page.locator(SEL).scroll_into_view_if_needed()
    page.wait_for_function(f"() => {API}.state().active")
    assert page.locator(f"{SEL} svg.od-plot").first.evaluate("s => s.childElementCount") > 0
    assert page.errors == []


HEIGHTS = """() => {
  const r = document.querySelector('div.offset-demo');
  const out = r.closest('.cell_output') || r.parentElement;
  let next = out.parentElement;
  while (next && !next.nextElementSibling) next = next.parentElement;
  next = next.nextElementSibling;
  const box = r.getBoundingClientRect();
  return { height: box.height, below: next.getBoundingClientRect().top - box.top,
           marked: document.documentElement.classList.contains('offset-demo-js'),
           fallback: getComputedStyle(r.querySelector('.od-fallback') || r).display,
           ui: Boolean(r.querySelector('.demo-ui')) };
}"""

SETTLED = """() => { window.__lastShift = performance.now(); new PerformanceObserver((list) => {
  if (list.getEntries().length) window.__lastShift = performance.now();
}).observe({type: 'layout-shift', buffered: false}); }"""

SHIFTS = """() => { window.__demoShifts = []; new PerformanceObserver((list) => {
  const demo = document.querySelector('div.offset-demo');
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    const inside = (e.sources || []).filter(s => s.node && (demo.contains(s.node) ||
      (demo.compareDocumentPosition(s.node) & Node.DOCUMENT_POSITION_FOLLOWING)));
    if (inside.length) window.__demoShifts.push(e.value);
  }
}).observe({type: 'layout-shift', buffered: false}); }"""


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (1280, "dark"), (390, "light"),
                                               (390, "dark")])
def test_the_page_keeps_the_room_before_the_script_runs(browser, base_url, width, scheme):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    try:
        page = ctx.new_page()
        held = []
        page.route("**/offset-demo.mjs*", lambda route: held.append(route))
        page.goto(f"{base_url}/{PAGE}", wait_until="commit")
        # parsed, styled, and the module still on its way
        page.wait_for_function("""() => document.readyState !== 'loading' &&
            [...document.styleSheets].some(s => s.href && s.href.includes('offset-demo.css'))
            && document.querySelector('div.offset-demo .od-fallback')""")
        if scheme == "dark":
            page.evaluate("() => { document.documentElement.dataset.theme = 'dark'; }")
        assert held, "the module was requested"
        page.evaluate(LAY_OUT_NOW)  # as after the load (which waits for the module)
        page.locator(SEL).scroll_into_view_if_needed()
        page.wait_for_timeout(1000)  # formulas near the demo typeset as they come into view
        # the page settled (a dark theme's images, say): no shift for half a second
        page.evaluate(SETTLED)
        page.wait_for_function("() => performance.now() - window.__lastShift > 500",
                               timeout=20_000)
        before = page.evaluate(HEIGHTS)
        assert before["marked"] and not before["ui"] and before["fallback"] == "none"
        page.evaluate(SHIFTS)
        held[0].continue_()
        page.wait_for_function(f"() => {API} && {API}.state().active")
        page.wait_for_timeout(300)
        after_ = page.evaluate(HEIGHTS)
        assert after_["ui"]
        assert after_["height"] == pytest.approx(before["height"], abs=0.5)
        assert after_["below"] == pytest.approx(before["below"], abs=0.5)
        # no layout shift of the demo or of anything below it
        assert page.evaluate("() => window.__demoShifts") == []
    finally:
        ctx.close()


ROOM = """() => {
  const r = document.querySelector('div.offset-demo');
  const frame = r.querySelector('.od-frame');
  const cs = getComputedStyle(frame);
  const ui = r.querySelector('.demo-ui');
  const wide = [...r.querySelectorAll('*')].filter(e => e.scrollWidth > e.clientWidth + 1 &&
    getComputedStyle(e).overflowX === 'visible' && e.clientWidth > 0).map(e => e.className);
  // the status line keeps its room and grows with a long sentence (a phone, after a step)
  const status = r.querySelector('.demo-status');
  const grown = status.getBoundingClientRect().height
    - parseFloat(getComputedStyle(status).minHeight);
  return { reserved: parseFloat(cs.minHeight),
           needed: ui.getBoundingClientRect().height + parseFloat(cs.paddingTop)
                   + parseFloat(cs.paddingBottom) - Math.max(0, grown),
           grown: Math.max(0, grown),
           clipped: status.scrollHeight > status.clientHeight + 1,
           frame: frame.getBoundingClientRect().height - Math.max(0, grown),
           right: r.getBoundingClientRect().right, inner: document.documentElement.clientWidth,
           pageWide: document.documentElement.scrollWidth > document.documentElement.clientWidth,
           wide };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_at_every_width_the_kept_room_holds_the_demo(open_page, scheme):
    page = open_page(scheme=scheme)
    for dataset in ("offset example", "generated data"):
        page.evaluate(f"(d) => {API}.setState({{dataset: d, steps: 7}})", dataset)
        for width in (320, 360, 390, 480, 600, 640, 720, 768, 1024, 1280, 1600):
            page.set_viewport_size({"width": width, "height": 900})
            room = page.evaluate(ROOM)
            # the frame is as high as the stylesheet keeps it, so nothing moved when it started
            assert room["needed"] <= room["reserved"] + 0.5, (dataset, width, room)
            assert room["frame"] == pytest.approx(room["reserved"], abs=0.5), (width, room)
            assert room["right"] <= room["inner"] + 0.5 and room["wide"] == [], (width, room)
            assert not room["pageWide"], (width, room)
            assert not room["clipped"], (width, room)  # the status line shows all it says
    assert page.errors == []


# ---------------------------------------------------------------------------------------
# The reader's mouse and keyboard, against the library


def test_mouse_steps_epochs_and_runs_as_the_library(open_page):
    page = open_page()
    st = state(page)
    assert (st["dataset"], st["c"], st["theta"], st["theta0"]) == (
        "offset example", 1.0, [-1.0], 2.5)
    ex = pl.offset_example()
    np.testing.assert_array_equal(arrays(st)[0], ex.X)
    np.testing.assert_array_equal(arrays(st)[1], ex.y)
    assert_readout_is_the_library(page, st)
    step = page.locator(f"{SEL} button.od-btn-step")
    for visits in range(1, 7):
        step.click()
        st = state(page)
        assert st["steps"] == visits
        assert_runs_at(st, visits)
    assert "example 2" in st["status"]
    page.locator(f"{SEL} button.od-btn-epoch").click()  # the rest of epoch 2
    st = state(page)
    assert st["steps"] == 8
    assert_runs_at(st, 8)
    page.locator(f"{SEL} button.od-btn-run").click()
    st = state(page)
    assert_finished_as_the_library(page, st)
    # the chapter's two outcomes: the lifted run converges, the other cannot
    assert st["lifted"]["converged"] and not st["origin"]["converged"]
    assert "converged after" in st["status"] and "without converging" in st["status"]

    # the generated data from the menu: a finished run is followed by the new one's end
    page.locator(f"{SEL} select.demo-dataset").select_option(label="generated data")
    st = state(page)
    assert st["dataset"] == "generated data" and len(st["theta"]) == 2
    assert_finished_as_the_library(page, st)
    assert_readout_is_the_library(page, st)
    page.locator(f"{SEL} button.od-btn-reset").click()
    st = state(page)
    assert st["steps"] == 0 and st["lifted"]["mistakes"] == 0 == st["origin"]["mistakes"]
    assert page.errors == []


def test_keyboard_alone_moves_the_sliders_and_trains(open_page):
    page = open_page()
    page.locator(f"{SEL} select.demo-dataset").focus()
    names = [focused(page)]
    for _ in range(17):
        page.keyboard.press("Tab")
        names.append(focused(page))
    first_lines = [shown(n).split("\n")[0] for n in names]  # (a button's key is on line 2)
    # as they are laid out: the controls, each point of the data, the training buttons
    # with Play and its speed, then the editing line
    assert first_lines == ["Data set", "appended c", "\u03b8", "\u03b80",
                           "example 1 at (1), label +1", "example 2 at (2), label +1",
                           "example 3 at (3), label -1", "example 4 at (4), label -1",
                           "Step", "Epoch", "Run", "Reset", "Play", "Speed", "+1", "Undo", "Redo",
                           "Chapter\u2019s data"], names

    # theta_0 by arrow keys: 2.5 -> 2.7 -> ... the threshold moves, the numbers follow
    t0 = page.locator(f"{SEL} input.od-theta0")
    t0.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    st = state(page)
    assert st["theta0"] == 2.7
    assert shown(t0.get_attribute("aria-valuetext")) == "theta 0 = 2.7"
    assert_readout_is_the_library(page, st)
    for _ in range(6):  # 3.3: the threshold passes 3, one point is misclassified
        page.keyboard.press("ArrowRight")
    st = state(page)
    assert st["theta0"] == 3.3 and st["stats"]["mistakes"] == 1
    assert_readout_is_the_library(page, st)
    assert page.locator(f"{SEL} circle.od-wrong").count() == 2  # ringed in both pictures
    assert "1 of 4 misclassified" in st["status"]

    # the keys s, e, r step both runs
    page.keyboard.press("s")
    assert_runs_at(state(page), 1)
    page.keyboard.press("e")
    assert_runs_at(state(page), 4)

    # c by arrow keys: 1 -> 3.16; the lifted run starts again at the same step
    c = page.locator(f"{SEL} input.od-c")
    c.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    st = state(page)
    assert st["c"] == C_VALUES[15] == 3.16
    assert c.get_attribute("aria-valuetext") == "c = 3.16"
    assert st["steps"] == 4
    assert_runs_at(st, 4)
    assert_readout_is_the_library(page, st)
    page.keyboard.press("r")
    st = state(page)
    assert_finished_as_the_library(page, st)
    # a finished run follows the slider: the next value runs to its end as well
    page.keyboard.press("End")
    st = state(page)
    assert st["c"] == 100.0
    assert_finished_as_the_library(page, st)
    assert_readout_is_the_library(page, st)
    page.keyboard.press("0")
    assert state(page)["steps"] == 0
    assert page.errors == []


@pytest.mark.parametrize("dataset", ["offset example", "generated data"])
def test_every_c_gives_the_librarys_lifted_margin_radius_and_updates(open_page, dataset):
    page = open_page()
    for k, c in enumerate(C_VALUES[::5] if dataset == "generated data" else C_VALUES[::2]):
        page.evaluate("(s) => { " + API + ".setState(s); " + API + ".run(); }",
                      {"dataset": dataset, "c": c})
        st = state(page)
        assert st["c"] == c
        assert_readout_is_the_library(page, st)
        # the run through the origin does not depend on c: compared once
        assert_finished_as_the_library(page, st, origin_too=k == 0)
    assert page.errors == []


def test_the_state_is_one_object_that_round_trips(open_page):
    page = open_page()
    want = {"dataset": "generated data", "c": 0.316, "theta": [0.5, -1.0], "theta0": -4.5,
            "steps": 150}
    got = page.evaluate(f"(s) => {API}.setState(s)", want)
    assert got == want == page.evaluate(f"() => {API}.getState()")
    st = state(page)
    assert_runs_at(st, 150)
    assert_readout_is_the_library(page, st)
    # the sliders show the state
    values = page.evaluate(f"""() => [...document.querySelectorAll('{SEL} input.demo-range')]
        .map(i => [i.className.split(' ').pop(), Number(i.value),
                   i.closest('[hidden]') !== null])""")
    assert values == [["od-c", 5, False], ["od-theta1", 10, False], ["od-theta2", -20, False],
                      ["od-theta0", -45, False]]
    # bad states are refused with a message that names the problem
    for bad, words in [({"dataset": "nope"}, 'no data set named "nope"'),
                       ({"c": 3}, "c must be one of the slider's values"),
                       ({"theta": [1]}, "theta must have 2 entries"),
                       ({"theta0": 0.123}, "not a position of the slider"),
                       ({"steps": -1}, "steps must be a whole number")]:
        message = page.evaluate(f"(s) => {{ try {{ {API}.setState(s); return ''; }} "
                                "catch (e) { return e.message; } }", bad)
        assert words in message, (bad, message)
    assert page.evaluate(f"() => {API}.getState()") == want
    assert page.errors == []


def url_param(state: dict) -> str:
    """A state as the page's URL holds it: JSON, UTF-8, base64url without padding."""
    return base64.urlsafe_b64encode(json.dumps(state).encode()).decode().rstrip("=")


def test_a_link_reproduces_the_state_and_back_returns(browser, base_url):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base_url}/{PAGE}", wait_until="load")
        page.wait_for_function(LAID_OUT, timeout=LAID_OUT_MS)
        page.wait_for_function(f"() => {API}")
        key = page.locator(SEL).get_attribute("id")
        assert re.fullmatch(r"offset-demo-[0-9a-f]{8}", key)
        want = {"dataset": "offset example", "c": 3.16, "theta": [-1.0], "theta0": 2.7,
                "steps": 9}
        page.goto(f"{base_url}/{PAGE}?{key}={url_param(want)}", wait_until="load")
        page.wait_for_function(LAID_OUT, timeout=LAID_OUT_MS)
        page.wait_for_function(f"() => {API}")
        page.locator(SEL).scroll_into_view_if_needed()
        page.wait_for_function(f"() => {API}.state().active")
        assert page.evaluate(f"() => {API}.getState()") == want
        st = state(page)
        assert st["status"].startswith("Restored from the link")
        assert_runs_at(st, 9)
        assert_readout_is_the_library(page, st)
        # a step is written to the URL in place; another data set is a new entry
        page.locator(f"{SEL} button.od-btn-step").click()
        page.evaluate(f"() => {API}.flushUrl()")
        written = page.evaluate("(k) => new URLSearchParams(location.search).get(k)", key)
        assert json.loads(base64.urlsafe_b64decode(written + "=" * (-len(written) % 4))) == (
            {**want, "steps": 10})
        page.locator(f"{SEL} select.demo-dataset").select_option(label="generated data")
        assert state(page)["dataset"] == "generated data"
        page.go_back()
        page.wait_for_function(f"() => {API}.getState().dataset === 'offset example'")
        assert page.evaluate(f"() => {API}.getState()") == {**want, "steps": 10}
        assert state(page)["status"].startswith("Back to an earlier state")
        # a broken link is ignored, with a word in the status line
        page.goto(f"{base_url}/{PAGE}?{key}={url_param({'c': 2.5})}", wait_until="load")
        page.wait_for_function(LAID_OUT, timeout=LAID_OUT_MS)
        page.wait_for_function(f"() => {API}")
        assert page.evaluate(f"() => {API}.getState()")["c"] == 1.0
        assert "ignored" in state(page)["status"] and "c must be one of" in state(page)["status"]
        assert errors == []
    finally:
        ctx.close()


# ---------------------------------------------------------------------------------------
# Accessibility, the dark theme, and readers without JavaScript


@pytest.mark.parametrize(("width", "scheme", "dataset"), [
    (1280, "light", "offset example"), (1280, "dark", "generated data"),
    (390, "dark", "offset example"), (390, "light", "generated data")])
def test_axe_finds_nothing_in_the_demo(open_page, axe_source, width, scheme, dataset):
    page = open_page(width=width, scheme=scheme)
    page.evaluate(f"(d) => {{ {API}.setState({{dataset: d, c: 3.16}}); {API}.epoch(); }}",
                  dataset)
    found = demo_violations(page, SEL, axe_source, scheme)
    assert found == [], found  # at every impact
    for svg in page.locator(f"{SEL} svg.od-plot").all():
        assert svg.get_attribute("role") == "img" and len(svg.get_attribute("aria-label")) > 40
    assert_demo_speaks(page, SEL)


def test_readers_without_javascript_see_the_explorers_picture(browser, base_url):
    seen = picture_without_javascript(browser, f"{base_url}/{PAGE}",
                                      f"{SEL} .od-fallback figure.explorer-static img")
    assert seen["count"] == 1 and seen["visible"] and seen["live"] == 0
    assert "Offset explorer" in seen["alt"]
    assert seen["width"] > 200 and seen["height"] > 100
