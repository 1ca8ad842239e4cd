"""The perceptron playground in a real browser: mouse, keyboard, and the library's numbers.

The playground (book/_demos/playground) is on the algorithm, margin and convergence chapters.
These tests drive it the way a reader does (clicks, shift-clicks, drags, keys) and
compare every number it shows with what perceptron_lib computes for the same points.
"""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest
from harness import BURST_WAIT_MS, LAID_OUT, LAID_OUT_MS, assert_demo_speaks

import perceptron_lib as pl
from perceptron_lib.demos.playground import best_margin

PAGES = {
    "book/01_algorithm.html": {"offset": True, "mode": None},
    "book/03_margin.html": {"offset": True, "mode": "margin"},
    "book/04_convergence.html": {"offset": False, "mode": None},
}
SEL = "div.perceptron-playground"
API = f"document.querySelector('{SEL}').perceptronPlayground"
STATE = f"() => {API}.state()"


@pytest.fixture
def open_page(context, base_url):
    def _open(rel: str):
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{base_url}/{rel}", wait_until="load")
        page.wait_for_function(LAID_OUT, timeout=LAID_OUT_MS)
        page.wait_for_function(f"() => document.querySelector('{SEL}').perceptronPlayground")
        page.locator(SEL).scroll_into_view_if_needed()
        page.errors = errors
        return page

    return _open


def state(page) -> dict:
    return page.evaluate(STATE)


def library_run(X, y, tau: int, offset: bool):
    run = pl.perceptron if offset else pl.perceptron_through_origin
    return run(np.asarray(X, float), np.asarray(y, float), tau=tau, trace=True)


def after_visits(result, n: int, visits: int, d: int = 2) -> tuple[list, float, int]:
    """theta, theta_0 and the update count of a traced run after ``visits`` visits."""
    theta, theta_0, count = [0.0] * d, 0.0, 0
    for u in result.history:
        if (u.epoch - 1) * n + u.index + 1 > visits:
            break
        theta, theta_0, count = list(u.theta), u.theta_0, count + 1
    return theta, theta_0, count


def assert_same_run(st: dict, result) -> None:
    assert st["theta"] == list(result.theta)
    assert st["theta0"] == result.theta_0
    assert st["mistakes"] == result.mistakes
    assert st["epochs"] == result.epochs
    assert st["converged"] == result.converged


def datasets_of(page) -> list[dict]:
    return json.loads(page.locator(SEL).get_attribute("data-datasets"))


def click_at(page, x: float, y: float, shift: bool = False) -> None:
    # The page may still move under the playground (formulas typeset, pictures loaded
    # above it): bring its plot into view, then find the point's place on the screen.
    page.locator(f"{SEL} svg").first.scroll_into_view_if_needed()
    cx, cy = page.evaluate(
        f"([x, y]) => document.querySelector('{SEL}').perceptronPlayground.clientPoint(x, y)",
        [x, y],
    )
    size = page.viewport_size
    assert 0 <= cx < size["width"] and 0 <= cy < size["height"], (cx, cy, size)
    if shift:
        page.keyboard.down("Shift")
    page.mouse.click(cx, cy)
    if shift:
        page.keyboard.up("Shift")


# Points on the playground's 0.1 grid, the class chosen by a plain click (+1) or a
# shift-click (-1).  Separable, and it takes the perceptron a few epochs.
SCRIPT = [(1.0, 1.0, 1), (-1.0, -0.5, -1), (0.2, -1.5, 1), (-0.3, 1.2, -1), (1.5, -0.2, 1),
          (-1.8, 0.4, -1), (0.4, 0.3, -1)]


def test_mouse_clicks_build_the_data_and_every_step_matches_the_library(open_page):
    page = open_page("book/01_algorithm.html")
    empty = next(name for name in state(page)["datasets"] if name.startswith("empty"))
    page.locator(f"{SEL} select.demo-dataset").select_option(label=empty)
    for x, y, label in SCRIPT:
        click_at(page, x, y, shift=label < 0)
    st = state(page)
    assert st["X"] == [[x, y] for x, y, _ in SCRIPT]
    assert st["y"] == [label for *_, label in SCRIPT]
    X, y = st["X"], st["y"]
    result = library_run(X, y, tau=100, offset=True)

    step = page.locator(f"{SEL} button.pg-step")
    for visits in range(1, 2 * len(X) + 1):
        step.click()
        st = state(page)
        theta, theta_0, count = after_visits(result, len(X), visits)
        assert (st["theta"], st["theta0"], st["mistakes"]) == (theta, theta_0, count), visits
    readout = page.locator(f"{SEL} .pg-row-updates dd").inner_text()
    assert readout == str(count)

    page.locator(f"{SEL} button.pg-run").click()
    assert_same_run(state(page), result)
    assert result.converged  # the script is separable: the bound row must show
    bound = page.locator(f"{SEL} .pg-row-bound dd").inner_text()
    R1 = pl.radius(pl.add_offset_feature(np.asarray(X)))
    g1 = pl.margin(pl.add_offset_feature(np.asarray(X)), np.asarray(y),
                   np.append(result.theta, result.theta_0))
    assert f"= {float(f'{pl.mistake_bound(R1, g1):.4g}'):g}".replace("-", "\u2212") in bound
    assert f"updates made: {result.mistakes}" in bound
    assert page.errors == []


def test_dragging_a_point_moves_it_and_starts_again(open_page):
    page = open_page("book/01_algorithm.html")
    page.locator(f"{SEL} button.pg-epoch").click()
    assert state(page)["mistakes"] > 0
    x0, y0 = state(page)["X"][0]
    start = page.evaluate(
        f"([x, y]) => document.querySelector('{SEL}').perceptronPlayground.clientPoint(x, y)",
        [x0, y0])
    end = page.evaluate(
        f"([x, y]) => document.querySelector('{SEL}').perceptronPlayground.clientPoint(x, y)",
        [x0 + 0.5, y0 - 0.3])
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
    page.mouse.move(*end)
    page.mouse.up()
    st = state(page)
    assert st["X"][0] == [round(x0 + 0.5, 10), round(y0 - 0.3, 10)]
    assert len(st["X"]) == 8  # a drag adds no point
    # the run starts again on the moved data
    assert st["mistakes"] == 0 and st["epoch"] == 1 and st["visits"] == 0
    assert "moved to" in st["status"] and "starts again from" in st["status"]
    # after Run, an edit starts the run again and takes it to its end
    page.locator(f"{SEL} button.pg-run").click()
    page.locator(f"{SEL} g.pg-pt").first.focus()
    page.keyboard.press("Enter")  # flip the label of the moved point
    st = state(page)
    ref = library_run(st["X"], st["y"], 100, True)
    assert st["done"] and (st["theta"], st["theta0"]) == (ref.theta.tolist(), ref.theta_0)
    assert "goes to its end" in st["status"]


def test_keyboard_alone_runs_edits_and_resets(open_page):
    page = open_page("book/01_algorithm.html")
    # Tab order: data set menu, label radio, margin band, the update's drawing, Undo, Redo,
    # Clear, then the four buttons
    page.locator(f"{SEL} select.demo-dataset").focus()
    order = []
    for _ in range(8):
        page.keyboard.press("Tab")
        order.append(page.evaluate("() => document.activeElement.className || "
                                   "document.activeElement.type"))
    assert order[:3] == ["radio", "checkbox", "checkbox"]
    assert "pg-undo" in order[3] and "pg-redo" in order[4] and "pg-clear" in order[5]
    assert "pg-step" in order[6] and "pg-epoch" in order[7]

    X, y = state(page)["X"], state(page)["y"]
    result = library_run(X, y, tau=100, offset=True)
    page.keyboard.press("Shift+Tab")  # back to Step
    page.keyboard.press("Enter")  # a focused button works with Enter
    assert state(page)["theta"] == after_visits(result, len(X), 1)[0]
    page.keyboard.press("s")
    assert state(page)["theta"] == after_visits(result, len(X), 2)[0]
    assert "Example 2" in state(page)["status"]  # what the screen reader announces
    page.keyboard.press("e")
    assert state(page)["theta"] == after_visits(result, len(X), len(X))[0]
    page.keyboard.press("r")
    assert_same_run(state(page), result)
    page.keyboard.press("0")
    assert state(page)["mistakes"] == 0 and state(page)["theta"] == [0, 0]

    # add a point in the middle, move it, flip it, delete it: all by keys
    page.keyboard.press("a")
    st = state(page)
    assert len(st["X"]) == 9 and st["selected"] == 8 and st["y"][8] == 1
    x, y8 = st["X"][8]
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    st = state(page)
    assert st["X"][8] == [round(x + 0.3, 10), round(y8 + 0.1, 10)]
    assert st["y"][8] == -1
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == (
        f"Example 9 at ({st['X'][8][0]:g}, {st['X'][8][1]:g}), label \u22121")
    page.keyboard.press("Delete")
    st = state(page)
    assert st["X"] == X and st["y"] == y
    assert "Removed example 9" in st["status"]
    assert page.errors == []


def test_classes_differ_by_shape_and_everything_has_a_name(open_page):
    page = open_page("book/01_algorithm.html")
    marks = page.evaluate(f"""() => [...document.querySelectorAll('{SEL} .pg-pt')].map(g => [
        g.classList.contains('pg-pos') ? 1 : -1, g.querySelector('.pg-mark').getAttribute('d'),
        g.getAttribute('role'), g.getAttribute('aria-label')])""")
    assert {d for label, d, *_ in marks if label > 0} == {"M-7,0H7M0,-7V7"}  # a plus
    assert {d for label, d, *_ in marks if label < 0} == {"M-7,0H7"}  # a minus
    assert all(role == "button" and name and "label" in name for *_, role, name in marks)
    assert page.locator(f"{SEL} svg.pg-plot").get_attribute("aria-label").startswith("Plot of 8")
    assert_demo_speaks(page, SEL)


@pytest.mark.parametrize("rel", sorted(PAGES))
def test_every_data_set_of_every_page_runs_as_the_library_does(open_page, rel):
    page = open_page(rel)
    opts = PAGES[rel]
    tau = int(page.locator(SEL).get_attribute("data-tau"))
    sets = datasets_of(page)
    assert sets
    for k, d in enumerate(sets):
        page.evaluate(f"(k) => document.querySelector('{SEL}').perceptronPlayground"
                      ".selectDataset(k)", k)
        page.evaluate(f"() => document.querySelector('{SEL}').perceptronPlayground.run()")
        st = state(page)
        assert st["X"] == d["X"] and st["y"] == d["y"]
        result = library_run(d["X"], d["y"], tau, opts["offset"])
        assert_same_run(st, result)
        if opts["mode"] == "margin":
            X, y = np.asarray(d["X"]), np.asarray(d["y"])
            margins = pl.point_margins(X, y, result.theta, result.theta_0)
            shown = page.evaluate(f"() => [...document.querySelectorAll('{SEL} .pg-mlabel')]"
                                  ".map(t => t.textContent)")
            assert shown == [f"{m:.2f}".replace("-", "\u2212") for m in margins]
        if "best_gamma" in d:
            X, y = np.asarray(d["X"]), np.asarray(d["y"])
            gamma = best_margin(X, y, offset=opts["offset"])
            assert d["best_gamma"] == pytest.approx(gamma, rel=1e-9)
            bound = pl.mistake_bound(pl.radius(X), gamma)
            text = page.locator(f"{SEL} .pg-row-best dd").inner_text()
            assert f"= {float(f'{bound:.4g}'):g}" in text
            assert f"updates so far: {result.mistakes}" in text
            assert result.mistakes <= bound
    assert page.errors == []


def test_the_bound_with_the_best_margin_goes_when_the_data_change(open_page):
    page = open_page("book/04_convergence.html")
    assert page.locator(f"{SEL} .pg-row-best").is_visible()
    page.locator(f"{SEL} .pg-pt").first.focus()
    page.keyboard.press("ArrowLeft")
    assert state(page)["bestGamma"] is None
    assert not page.locator(f"{SEL} .pg-row-best").is_visible()


# ---------------------------------------------------------------------------------------
# The state in the URL, Back, Undo, the chart of epochs, the generator


def encode_state(state: dict) -> str:
    """url-state.mjs's encoding: JSON, UTF-8, base64url without padding."""
    raw = json.dumps(state, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def key_of(page) -> str:
    return page.locator(SEL).get_attribute("id")


def _url_state(page, key: str) -> dict | None:
    text = page.evaluate("(k) => new URL(location.href).searchParams.get(k)", key)
    if text is None:
        return None
    return json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))


def wait_for_url(page, key: str, present: bool = True, until=None) -> dict | None:
    """The playground's state in the page's URL, once the coalesced write has happened.

    ``until`` (a test of the decoded state) waits for the write that a test expects,
    rather than taking whatever the URL holds when a fixed pause ends.
    """
    page.wait_for_timeout(300)  # url-state.mjs writes at most every 120 ms
    page.wait_for_function("([k, p]) => new URL(location.href).searchParams.has(k) === p",
                           arg=[key, present])
    saved = _url_state(page, key)
    for _ in range(100):
        if until is None or (saved is not None and until(saved)):
            break
        page.wait_for_timeout(100)
        saved = _url_state(page, key)
    return saved


def epoch_rows(X, y, result, test: tuple | None = None) -> list[dict]:
    """The chart's rows from the library: updates per epoch, mistakes after each epoch,
    and with a held-out set (X_test, y_test) the test errors after each epoch."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    theta, theta_0, rows = np.zeros(X.shape[1]), 0.0, []
    for t in range(1, result.epochs + 1):
        ups = [u for u in result.history if u.epoch == t]
        if ups:
            theta, theta_0 = ups[-1].theta, ups[-1].theta_0
        wrong = int(np.sum(y * (X @ theta + theta_0) <= 0))
        rows.append({"epoch": t, "updates": len(ups), "mistakes": wrong})
        if test is not None:
            Xt, yt = np.asarray(test[0], float), np.asarray(test[1], float)
            rows[-1]["test"] = int(np.sum(yt * (Xt @ theta + theta_0) <= 0))
    return rows


def test_the_element_id_keys_the_state_and_steps_replace_the_entry(open_page):
    page = open_page("book/01_algorithm.html")
    key = key_of(page)
    assert key.startswith("playground-")
    assert page.evaluate("() => new URL(location.href).search") == ""  # nothing until asked
    length = page.evaluate("() => history.length")
    for _ in range(3):
        page.locator(f"{SEL} .pg-step").click()
    saved = wait_for_url(page, key)
    assert saved == {"v": 1, "d": 0, "s": 3}
    assert page.evaluate("() => history.length") == length  # steps add no entry
    assert page.errors == []


def test_a_link_restores_points_step_and_options_exactly(open_page, base_url):
    page = open_page("book/03_margin.html")
    key = key_of(page)
    X = [[1.0, 1.2], [-1.5, 0.3], [0.2, -1.4], [2.0, -0.5], [-0.4, 1.9], [0.7, 0.1]]
    y = [1, -1, -1, 1, -1, 1]
    visits = 9
    link = {"v": 1, "d": 0, "p": [[a, b, c] for (a, b), c in zip(X, y, strict=True)],
            "w": [-3.0, 3.0, -3.0, 3.0, 6.0], "s": visits, "b": 0, "l": -1}
    page.goto(f"{base_url}/book/03_margin.html?{key}={encode_state(link)}#the-margin",
              wait_until="load")
    page.wait_for_function(LAID_OUT, timeout=LAID_OUT_MS)
    page.wait_for_function(f"() => document.querySelector('{SEL}').perceptronPlayground")
    st = state(page)
    assert st["X"] == X and st["y"] == y and st["visits"] == visits
    assert st["view"] == {"x0": -3.0, "x1": 3.0, "y0": -3.0, "y1": 3.0}
    assert st["showBand"] is False and st["label"] == -1 and st["custom"] is True
    result = library_run(X, y, tau=100, offset=True)
    theta, theta_0, count = after_visits(result, len(X), visits)
    assert (st["theta"], st["theta0"], st["mistakes"]) == (theta, theta_0, count)
    assert st["status"].startswith("Restored from the link: 6 points")
    # what the page shows: the readout and the points' names
    assert page.locator(f"{SEL} .pg-row-updates dd").inner_text() == str(count)
    names = page.evaluate(f"() => [...document.querySelectorAll('{SEL} .pg-pt')]"
                          ".map(g => g.getAttribute('aria-label'))")
    assert names[1] == "Example 2 at (\u22121.5, 0.3), label \u22121"  # minus signs
    assert page.locator(f"{SEL} .demo-radio-neg input").is_checked()
    assert not page.locator(f"{SEL} .pg-check input").first.is_checked()  # the margin band
    # the fragment (a section anchor) is left alone
    assert page.evaluate("() => location.hash") == "#the-margin"
    assert page.errors == []


@pytest.mark.parametrize("text", [
    "%%%", "e30", encode_state({"v": 2}), encode_state({"v": 1, "d": 99}),
    encode_state({"v": 1, "p": [[0, 0, 2]], "w": [-2, 2, -2, 2, 4]}),
    encode_state({"v": 1, "p": [[0, 0, 1]], "w": [0, 1, 0, 5, 4]}),
    encode_state({"v": 1, "d": 0, "s": 10**9}),
    encode_state({"v": 1, "g": {"kind": "xor", "n": 10**6, "seed": 1}}),
    encode_state({"v": 1, "__proto__": {"polluted": 1}}),
])
def test_a_malformed_or_hostile_link_is_ignored_and_said(open_page, base_url, text):
    page = open_page("book/01_algorithm.html")
    key = key_of(page)
    page.goto(f"{base_url}/book/01_algorithm.html?{key}={text}", wait_until="load")
    page.wait_for_function(LAID_OUT, timeout=LAID_OUT_MS)
    page.wait_for_function(f"() => document.querySelector('{SEL}').perceptronPlayground")
    st = state(page)
    assert "ignored" in st["status"], st["status"]
    assert len(st["X"]) == 8 and st["visits"] == 0  # the default data, untouched
    assert page.evaluate("() => ({}).polluted === undefined")
    page.locator(f"{SEL} .pg-run").click()  # and the playground works
    assert state(page)["converged"]
    assert page.errors == []


def test_back_returns_to_the_state_before_each_edit(open_page):
    page = open_page("book/01_algorithm.html")
    key = key_of(page)
    X0 = state(page)["X"]
    page.locator(f"{SEL} .pg-epoch").click()
    click_at(page, 0.5, -2.0)  # an edit: a new history entry
    wait_for_url(page, key)
    page.locator(f"{SEL} .pg-step").click()
    page.wait_for_timeout(BURST_WAIT_MS)  # a second entry of the history, not one burst
    click_at(page, -1.5, -2.0, shift=True)
    saved = wait_for_url(page, key, until=lambda st: len(st.get("p", [])) >= 2
                         and st["p"][-1][:2] == [-1.5, -2.0])
    assert [p[:2] for p in saved["p"]][-2:] == [[0.5, -2.0], [-1.5, -2.0]]
    assert "s" not in saved  # an edit starts the run again
    page.go_back()
    st = state(page)
    assert len(st["X"]) == 9 and st["visits"] == 1  # one point added, one step made
    page.go_back()
    st = state(page)
    assert st["X"] == X0 and st["visits"] == len(X0)  # the epoch made before the first edit
    assert "Back to" in st["status"]
    page.go_forward()
    assert len(state(page)["X"]) == 9
    assert page.errors == []


def test_undo_by_button_and_keys_returns_data_and_step(open_page):
    page = open_page("book/01_algorithm.html")
    st0 = state(page)
    assert page.locator(f"{SEL} .pg-undo").get_attribute("aria-disabled") == "true"
    page.locator(f"{SEL} .pg-step").click()
    page.locator(f"{SEL} .pg-step").click()
    page.keyboard.press("a")  # add a point in the middle (the focus is on Step)
    added = state(page)["X"][8]
    assert state(page)["undoDepth"] == 1
    page.keyboard.press("ArrowLeft")  # move it twice: one edit
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")  # flip its label
    page.locator(f"{SEL} .pg-clear").click()  # clear
    assert state(page)["X"] == [] and state(page)["undoDepth"] == 4
    page.locator(f"{SEL} .pg-undo").click()
    st = state(page)
    moved = [round(added[0] - 0.2, 10), added[1]]
    assert len(st["X"]) == 9 and st["y"][8] == -1 and st["X"][8] == moved
    page.keyboard.press("Control+z")
    assert state(page)["y"][8] == 1
    page.keyboard.press("Meta+z")
    assert state(page)["X"][8] == added
    page.keyboard.press("Control+z")
    st = state(page)
    # back to the data and the step of before the first edit, theta as the library has it
    assert st["X"] == st0["X"] and st["visits"] == 2
    theta, theta_0, _ = after_visits(library_run(st0["X"], st0["y"], 100, True), 8, 2)
    assert (st["theta"], st["theta0"]) == (theta, theta_0)
    assert st["status"].startswith("Undone: adding example 9")
    assert page.locator(f"{SEL} .pg-undo").get_attribute("aria-disabled") == "true"
    page.keyboard.press("Control+z")
    assert state(page)["status"] == "Nothing to undo."
    assert page.errors == []


@pytest.mark.parametrize("rel", sorted(PAGES))
def test_the_chart_shows_the_librarys_updates_per_epoch(open_page, rel):
    page = open_page(rel)
    opts = PAGES[rel]
    for k, d in enumerate(datasets_of(page)):
        page.evaluate(f"(k) => {API}.selectDataset(k)", k)
        page.evaluate(f"() => {API}.epoch()")
        rows = state(page)["chart"]["rows"]
        result = library_run(d["X"], d["y"], 100, opts["offset"])
        test = (d["X_test"], d["y_test"]) if "X_test" in d else None
        assert rows == epoch_rows(d["X"], d["y"], result, test)[:1]
        page.evaluate(f"() => {API}.run()")
        st = state(page)
        assert st["chart"]["rows"] == epoch_rows(d["X"], d["y"], result, test)
        assert st["chart"]["partial"] is None
        # the table for screen readers holds the same numbers (written when it is opened)
        page.evaluate(f"() => {{ document.querySelector('{SEL} .ec details').open = true; }}")
        cells = page.evaluate(f"() => [...document.querySelectorAll('{SEL} .ec tbody tr')]"
                              ".map(r => [...r.children].map(c => c.textContent))")
        assert cells == [[str(r[k]) for k in ("epoch", "updates", "mistakes", "test") if k in r]
                         for r in st["chart"]["rows"]]
        bars = page.locator(f"{SEL} .ec rect.ec-bar").count()
        assert bars == len(st["chart"]["rows"])
    assert page.errors == []


@pytest.mark.parametrize("options", [
    {"kind": "separable", "n": 40, "seed": 3, "margin": 0.25, "spread": 0.3, "flip": 0.0,
     "test": 100},
    {"kind": "xor", "n": 37, "seed": 4000000000, "margin": 0.3, "spread": 0.45, "flip": 0.1,
     "test": 25},
])
def test_the_generators_points_are_the_librarys(open_page, base_url, options):
    page = open_page("book/01_algorithm.html")
    key = key_of(page)
    form = page.locator(f"{SEL} details.gf")
    form.locator("summary").click()
    form.locator("select").select_option(options["kind"])
    form.locator("input[type=number]").first.fill(str(options["n"]))
    form.locator("input[type=number]").last.fill(str(options["seed"]))
    form.locator("input[type=number]").nth(1).fill(str(options["test"]))  # held-out points
    for name in ("margin", "spread", "flip"):
        page.evaluate("([sel, name, v]) => { const i = [...document.querySelectorAll(sel)]"
                      ".find(e => e.closest('label').textContent.toLowerCase().includes(name));"
                      "i.value = String(v); i.dispatchEvent(new Event('input')); }",
                      [f"{SEL} details.gf input[type=range]",
                       {"margin": "margin", "spread": "spread", "flip": "flipped"}[name],
                       options[name]])
    form.locator(".gf-generate").click()
    st = state(page)
    ref = pl.make_demo_data(options["kind"], options["n"], options["seed"],
                            margin=options["margin"], spread=options["spread"],
                            flip=options["flip"], n_test=options["test"])
    assert st["X"] == ref.X.tolist() and st["y"] == ref.y.tolist()
    assert st["test"] == {"X": ref.X_test.tolist(), "y": ref.y_test.tolist()}
    assert st["generator"] == options
    assert st["dataset"].startswith("generated:")
    page.evaluate(f"() => {API}.run()")
    assert_same_run(state(page), library_run(ref.X, ref.y, 100, True))
    # the link carries the generator's settings, not the points
    saved = wait_for_url(page, key)
    assert saved["g"] == options and "p" not in saved
    page.reload(wait_until="load")
    page.wait_for_function(LAID_OUT, timeout=LAID_OUT_MS)
    page.wait_for_function(f"() => {API}")
    st = state(page)
    assert st["X"] == ref.X.tolist() and st["converged"] == (options["kind"] == "separable")
    page.locator(f"{SEL} .pg-step").focus()  # the playground's keys work inside it
    page.keyboard.press("Control+z")
    assert "Nothing to undo" in state(page)["status"]  # a reload starts a new undo history
    assert page.errors == []
