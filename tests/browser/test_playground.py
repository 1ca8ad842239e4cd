"""The perceptron playground in a real browser: mouse, keyboard, and the library's numbers.

The playground (book/_playground) is on the algorithm, margin and convergence chapters.
These tests drive it the way a reader does (clicks, shift-clicks, drags, keys) and
compare every number it shows with what perceptron_lib computes for the same points.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import perceptron_lib as pl
from perceptron_lib.playground import best_margin

PAGES = {
    "book/01_algorithm.html": {"offset": True, "mode": None},
    "book/03_margin.html": {"offset": True, "mode": "margin"},
    "book/04_convergence.html": {"offset": False, "mode": None},
}
SEL = "div.perceptron-playground"
STATE = f"() => document.querySelector('{SEL}').perceptronPlayground.state()"


@pytest.fixture
def open_page(context, base_url):
    def _open(rel: str):
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{base_url}/{rel}", wait_until="load")
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
    cx, cy = page.evaluate(
        f"([x, y]) => document.querySelector('{SEL}').perceptronPlayground.clientPoint(x, y)",
        [x, y],
    )
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
    page.locator(f"{SEL} select.pg-select").select_option(label=empty)
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
    assert st["mistakes"] == 0 and st["epoch"] == 1
    assert "moved to" in st["status"]
    assert len(st["X"]) == 8  # a drag adds no point


def test_keyboard_alone_runs_edits_and_resets(open_page):
    page = open_page("book/01_algorithm.html")
    # Tab order: data set menu, label radio, margin band, Undo, Clear, then the four buttons
    page.locator(f"{SEL} select.pg-select").focus()
    order = []
    for _ in range(6):
        page.keyboard.press("Tab")
        order.append(page.evaluate("() => document.activeElement.className || "
                                   "document.activeElement.type"))
    assert order[0] == "radio" and order[1] == "checkbox"
    assert "pg-undo" in order[2] and "pg-clear" in order[3]
    assert "pg-step" in order[4] and "pg-epoch" in order[5]

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
        f"Example 9 at ({st['X'][8][0]:g}, {st['X'][8][1]:g}), label -1")
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
    live = page.locator(f"{SEL} .pg-status")
    assert live.get_attribute("aria-live") == "polite"
    keys = page.evaluate(f"() => [...document.querySelectorAll('{SEL} .pg-buttons button')]"
                         ".map(b => b.getAttribute('aria-keyshortcuts'))")
    assert keys == ["s", "e", "r", "0"]
    assert page.locator(f"{SEL} svg.pg-plot").get_attribute("aria-label").startswith("Plot of 8")


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
