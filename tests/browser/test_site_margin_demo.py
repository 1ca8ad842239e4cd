"""Chapter 7's margin demo in a real browser: mouse, keyboard, room, and the library.

The demo (book/_demos/margin) is served as the book serves it: the extension
``book/_ext/demo_assets.py`` installs the demos' tree with the kit they share, and the
page holds what :class:`perceptron_lib.demos.margin.MarginDemo` writes, with the one-line
mark in the head, the style sheets and the module.  These tests
drive it the way a reader does (the buttons, the menu, the sliders; Tab, arrow keys and
the keys s, e, r, 0, b) and compare every number it shows with ``perceptron_lib`` on the
same data: the margin perceptron's updates (``pl.margin_perceptron``), the deficiencies
and ``D`` (``pl.hinge_deficiency``), Freund and Schapire's bound
(``pl.freund_schapire_bound``) and the margin of the current hypothesis (``pl.margin``).
They also check that nothing below the demo moves when its script runs, that its
arithmetic waits until it comes into view, that it fits the room kept for it at every
width without overflowing sideways, that axe-core finds nothing, at any impact (contrast
included), in the light and the dark theme, and that readers without JavaScript see the
picture.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from harness import (
    BURST_WAIT_MS,
    LAY_OUT_NOW,
    DemoPages,
    assert_demo_speaks,
    demo_violations,
    drag,
    picture_without_javascript,
    serve,
)

import perceptron_lib as pl
from perceptron_lib.demos.margin import MUS, MarginDemo

ROOT = Path(__file__).resolve().parents[2]
SEL = "div.margin-demo"
API = f"document.querySelector('{SEL}').marginDemo"
FILLER = "".join(f"<p>Paragraph {k} of the text around the demo.</p>" for k in range(40))


def chapter_data() -> dict:
    """A noisy data set with the separator that made it, and a separable one with its best."""
    s = pl.make_separable(30, 2, gamma=0.1, R=2.0, theta_0=0.3, seed=1)
    yf = pl.flip_labels(s.y, 0.1, seed=0)
    mm = pl.max_margin(s.X, s.y)
    return {"10% flipped": {"X": s.X, "y": yf, "theta": s.theta, "theta_0": s.theta_0},
            "separable": {"X": s.X, "y": s.y, "theta": mm.theta, "theta_0": mm.theta_0}}


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory):
    """A page as the book writes it, with the demo below a screenful of text."""
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    try:
        import demo_assets
    finally:
        sys.path.remove(str(ROOT / "book" / "_ext"))
    site = tmp_path_factory.mktemp("margin-site")
    demo_assets.install(site / "_static")
    demo = MarginDemo(chapter_data())
    # the theme's dark mode is html[data-theme=dark], set from the reader's setting
    head = ("<script>document.documentElement.dataset.theme = "
            "matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';</script>"
            '<script>if (location.protocol !== "file:") '
            'document.documentElement.classList.add("margin-demo-js");</script>'
            '<link rel="stylesheet" href="_static/demos/kit/kit.css">'
            '<link rel="stylesheet" href="_static/demos/margin/margin-demo.css">'
            '<script type="module" src="_static/demos/margin/margin-demo.mjs"></script>')
    page = ('<!doctype html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<title>The margin demo</title><link rel="icon" href="data:,">'
            f"{head}<style>body {{ max-width: 60rem; margin: 0 auto; padding: 1rem; "
            "font-family: sans-serif; }} html[data-theme=dark] body {{ background: #14181e; "
            "color: #e3e6ea; }}</style></head><body><main><h1>Beyond separability</h1>"
            f'{FILLER}<div class="cell_output">{demo.html}</div><p id="after">After the demo.</p>'
            f"{FILLER}</main></body></html>")
    (site / "index.html").write_text(page, encoding="utf-8")
    with serve(site) as url:
        yield url


@pytest.fixture
def open_page(browser, demo_site):
    pages = DemoPages(browser, API, SEL, f"{API}.snapshot().active")
    yield lambda query="", **kw: pages.open(f"{demo_site}/index.html{query}", **kw)
    pages.close()


def snap(page) -> dict:
    return page.evaluate(f"() => {API}.snapshot()")


def page_datasets(page) -> list[dict]:
    return json.loads(page.locator(SEL).get_attribute("data-datasets"))


def after_steps(X, y, mu, tau, steps):
    """theta, theta_0, updates, mistakes and visits after ``steps`` visits, from the library.

    The run's updates come from ``pl.margin_perceptron(trace=True)``; the visits and the
    mistakes (``y * score <= 0``) are counted along the same order.
    """
    X, y = np.asarray(X, float), np.asarray(y, float)
    n = len(y)
    ref = pl.margin_perceptron(X, y, margin=mu, tau=tau, trace=True)
    steps = min(steps, ref.epochs * n)
    theta, theta_0, updates, mistakes = np.zeros(2), 0.0, 0, 0
    by_visit = {(u.epoch - 1) * n + u.index: u for u in ref.history}
    for v in range(steps):
        i = v % n
        score = theta @ X[i] + theta_0
        mistakes += y[i] * score <= 0
        if v in by_visit:
            u = by_visit[v]
            theta, theta_0, updates = u.theta, u.theta_0, updates + 1
    visits = [steps // n + (1 if i < steps % n else 0) for i in range(n)]
    return theta, theta_0, updates, mistakes, visits, ref


def assert_numbers(st: dict, data: dict, steps: int) -> None:
    """Everything the demo shows, against the library."""
    X, y = np.array(data["X"], float), np.array(data["y"], float)
    u, u_0, g, mu = np.array(data["theta"]), data["theta0"], st["gamma"], st["mu"]
    theta, theta_0, updates, mistakes, visits, _ = after_steps(X, y, mu, 100, steps)
    assert st["theta"] == list(theta) and st["theta0"] == theta_0
    assert (st["updates"], st["mistakes"], st["visits"]) == (updates, mistakes, visits)
    R = pl.radius(pl.add_offset_feature(X))
    assert st["R"] == pytest.approx(R, rel=1e-14)
    D1, d = pl.hinge_deficiency(X, y, u, u_0, g, per_example=True)
    np.testing.assert_allclose(st["deficiencies"], d, rtol=1e-12, atol=1e-14)
    assert st["deficientDrawn"] == int(np.sum(d > 0))
    assert st["D1"] == pytest.approx(D1, rel=1e-12, abs=1e-14)
    Rmu = math.sqrt(R * R + 2 * mu)
    assert st["bound1"] == pytest.approx(pl.freund_schapire_bound(Rmu, g, D1), rel=1e-12)
    rows = np.repeat(np.arange(len(y)), visits)
    Dnow = pl.hinge_deficiency(X[rows], y[rows], u, u_0, g) if len(rows) else 0.0
    assert st["Dnow"] == pytest.approx(Dnow, rel=1e-12, abs=1e-14)
    assert st["boundNow"] == pytest.approx(pl.freund_schapire_bound(Rmu, g, Dnow), rel=1e-12)
    assert st["boundNow"] >= st["updates"] >= st["mistakes"]  # the theorem, on this run
    if np.any(theta):
        assert st["margin"] == pytest.approx(pl.margin(X, y, theta, theta_0), rel=1e-12)
    else:
        assert st["margin"] is None
    test = (data["X_test"], data["y_test"]) if "X_test" in data else None
    assert st["chart"] == chart_after(X, y, mu, 100, steps, test)
    if test is not None:
        Xt, yt = np.asarray(test[0], float), np.asarray(test[1], float)
        wrong = int(np.sum(yt * (Xt @ theta + theta_0) <= 0))
        assert st["test"] == {"size": len(yt), "errors": wrong}


def chart_after(X, y, mu, tau, steps, test: tuple | None = None):
    """The chart's bars and dots: updates per finished pass, training mistakes after it,
    and with a held-out set (X_test, y_test) the test errors after it."""
    n = len(y)
    ref = pl.margin_perceptron(X, y, margin=mu, tau=tau, trace=True)
    steps = min(steps, ref.epochs * n)
    done = ref.epochs if steps == ref.epochs * n else steps // n
    rows, theta, theta_0 = [], np.zeros(2), 0.0
    for t in range(1, done + 1):
        mine = [u for u in ref.history if u.epoch == t]
        if mine:
            theta, theta_0 = mine[-1].theta, mine[-1].theta_0
        rows.append({"epoch": t, "updates": len(mine),
                     "mistakes": int(np.sum(y * (X @ theta + theta_0) <= 0))})
        if test is not None:
            Xt, yt = np.asarray(test[0], float), np.asarray(test[1], float)
            rows[-1]["test"] = int(np.sum(yt * (Xt @ theta + theta_0) <= 0))
    partial = None
    if steps % n and steps < ref.epochs * n:
        partial = {"epoch": done + 1, "updates": sum(
            1 for u in ref.history if u.epoch == done + 1 and u.index < steps % n)}
    out = {"rows": rows, "partial": partial}
    if test is not None:
        out["testSize"] = len(test[1])
    return out


def shown(page, key: str) -> str:
    return page.locator(f"{SEL} .md-row-{key} dd").inner_text()


# ---------------------------------------------------------------------------------------
# When the work starts, and the room on the page


def test_the_arithmetic_waits_until_the_demo_is_in_view(open_page):
    page = open_page(scroll=False)
    top = page.evaluate(f"() => document.querySelector('{SEL}').getBoundingClientRect().top")
    assert top > page.viewport_size["height"] + 200
    st = snap(page)
    assert st["active"] is False and st["updates"] == 0
    assert page.locator(SEL).get_attribute("data-md-active") is None
    assert shown(page, "state") == "ready: \u03b8 = 0, \u03b8\u2080 = 0"
    page.locator(SEL).scroll_into_view_if_needed()
    page.wait_for_function(f"() => {API}.snapshot().active")
    assert page.locator(SEL).get_attribute("data-md-active") == "true"
    assert page.errors == []


HEIGHTS = """() => {
  const r = document.querySelector('div.margin-demo');
  const box = r.getBoundingClientRect();
  return { height: box.height,
           below: document.getElementById('after').getBoundingClientRect().top - box.top,
           marked: document.documentElement.classList.contains('margin-demo-js'),
           fallback: getComputedStyle(r.querySelector('.md-fallback') || r).display,
           ui: Boolean(r.querySelector('.demo-ui')) };
}"""

SHIFTS = """() => new Promise((resolve) => {
  let total = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) total += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
  setTimeout(() => resolve(total), 300);
})"""


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (1280, "dark"), (390, "light"),
                                               (390, "dark"), (700, "light")])
def test_the_page_keeps_the_room_before_the_script_runs(browser, demo_site, width, scheme):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    try:
        page = ctx.new_page()
        held = []
        page.route("**/margin-demo.mjs*", lambda route: held.append(route))
        page.goto(f"{demo_site}/index.html", wait_until="commit")
        page.wait_for_function("""() => document.readyState !== 'loading' &&
            [...document.styleSheets].some(s => s.href && s.href.includes('margin-demo.css'))
            && document.querySelector('div.margin-demo .md-fallback')""")
        if scheme == "dark":
            page.evaluate("() => { document.documentElement.dataset.theme = 'dark'; }")
        assert held, "the module was requested"
        before = page.evaluate(HEIGHTS)
        assert before["marked"] and not before["ui"] and before["fallback"] == "none"
        held[0].continue_()
        page.wait_for_function(f"() => {API}")
        page.locator(SEL).scroll_into_view_if_needed()
        page.wait_for_function(f"() => {API}.snapshot().active")
        after = page.evaluate(HEIGHTS)
        assert after["ui"]
        assert after["height"] == pytest.approx(before["height"], abs=0.5)
        assert after["below"] == pytest.approx(before["below"], abs=0.5)
    finally:
        ctx.close()


def test_no_layout_shift_when_the_page_loads(open_page):
    page = open_page(width=1280, scroll=False)
    assert page.evaluate(SHIFTS) == 0
    page.locator(SEL).scroll_into_view_if_needed()
    page.wait_for_function(f"() => {API}.snapshot().active")
    assert page.evaluate(SHIFTS) == 0


ROOM = """() => {
  const r = document.querySelector('div.margin-demo');
  const frame = r.querySelector('.md-frame');
  const cs = getComputedStyle(frame);
  const ui = r.querySelector('.demo-ui');
  const wide = [...r.querySelectorAll('*')].filter(e => e.scrollWidth > e.clientWidth + 1 &&
    getComputedStyle(e).overflowX === 'visible' && e.clientWidth > 0).map(e => e.className);
  return { reserved: parseFloat(cs.minHeight),
           needed: ui.getBoundingClientRect().height + parseFloat(cs.paddingTop)
                   + parseFloat(cs.paddingBottom),
           frame: frame.getBoundingClientRect().height,
           right: r.getBoundingClientRect().right, inner: document.documentElement.clientWidth,
           page: document.documentElement.scrollWidth, wide };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_at_every_width_the_kept_room_holds_the_demo(open_page, scheme):
    page = open_page(scheme=scheme)
    for width in (320, 360, 390, 430, 480, 600, 640, 700, 720, 768, 900, 1024, 1280, 1600):
        page.set_viewport_size({"width": width, "height": 900})
        for mu in (0.0, 5.0):  # the longest values: with mu, R has a second number
            page.evaluate(f"() => {{ {API}.setState({{mu: {mu}}}); {API}.run(); }}")
            room = page.evaluate(ROOM)
            assert room["needed"] <= room["reserved"] + 0.5, (width, room)
            assert room["frame"] == pytest.approx(room["reserved"], abs=0.5), (width, room)
            assert room["right"] <= room["inner"] + 0.5 and room["wide"] == [], (width, room)
            assert room["page"] <= width, (width, room)
    assert page.errors == []


# ---------------------------------------------------------------------------------------
# The reader's mouse and keyboard, against the library


def test_mouse_steps_epochs_and_runs_as_the_library(open_page):
    page = open_page()
    data = page_datasets(page)[0]
    n = len(data["y"])
    st = snap(page)
    assert st["name"] == "10% flipped" and st["mu"] == 0 and st["gamma"] == data["gamma"]
    assert_numbers(st, data, 0)
    step = page.locator(f"{SEL} button.md-step")
    for visits in range(1, n + 4):
        step.click()
        assert_numbers(snap(page), data, visits)
    page.locator(f"{SEL} button.md-epoch").click()
    assert_numbers(snap(page), data, 2 * n)
    page.locator(f"{SEL} button.md-run").click()
    st = snap(page)
    *_, ref = after_steps(data["X"], data["y"], 0.0, 100, 0)
    assert (st["epochs"], st["converged"], st["updates"]) == (
        ref.epochs, ref.converged, ref.mistakes)
    assert_numbers(st, data, ref.epochs * n)
    # what the reader reads is those numbers
    assert shown(page, "counts") == (
        f"{st['updates']}; {st['mistakes']} mistake{'s' if st['mistakes'] != 1 else ''}")
    assert shown(page, "state") == (f"converged in epoch {ref.epochs}" if ref.converged
                                    else "stopped: 100 epochs")
    assert str(st["updates"]) in st["status"]
    page.locator(f"{SEL} button.md-reset").click()
    assert_numbers(snap(page), data, 0)
    assert page.errors == []


def test_the_menu_and_sliders_by_mouse(open_page):
    page = open_page()
    sets = page_datasets(page)
    page.locator(f"{SEL} select.demo-dataset").select_option(label="separable")
    st = snap(page)
    assert st["name"] == "separable" and st["gamma"] == sets[1]["gamma"]
    assert st["gammaOpt"] == pytest.approx(pl.max_margin(np.array(sets[1]["X"]),
                                                         np.array(sets[1]["y"])).gamma)
    # the mu slider, dragged to its end by the mouse
    slider = page.locator(f"{SEL} input.demo-range").first
    box = slider.bounding_box()
    page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    st = snap(page)
    assert st["mu"] == MUS[-1]
    page.locator(f"{SEL} button.md-run").click()
    st = snap(page)
    *_, ref = after_steps(sets[1]["X"], sets[1]["y"], MUS[-1], 100, 0)
    assert st["converged"] and ref.converged and st["updates"] == ref.mistakes
    assert_numbers(st, sets[1], ref.epochs * len(sets[1]["y"]))
    # on separable data the margin perceptron's margin against gamma_opt
    assert 0 < st["margin"] <= st["gammaOpt"]
    # gamma_opt, with opt as a subscript
    assert shown(page, "margin").endswith(f"\u03b3opt {st['gammaOpt']:.4g}")
    assert page.locator(f"{SEL} .md-row-margin dd sub").inner_text() == "opt"
    # the best gamma: no position of a fine grid gives a smaller bound
    page.locator(f"{SEL} button.md-best").click()
    st = snap(page)
    X, y = np.array(sets[1]["X"]), np.array(sets[1]["y"], float)
    R = st["R"]
    Rmu = math.sqrt(R * R + 2 * st["mu"])
    rows = np.repeat(np.arange(len(y)), st["visits"])
    grid = [pl.freund_schapire_bound(Rmu, g, pl.hinge_deficiency(
        X[rows], y[rows], sets[1]["theta"], sets[1]["theta0"], g))
        for g in np.linspace(R / 1000, R, 1000)]
    assert st["boundNow"] <= min(grid) * (1 + 1e-9)
    assert_numbers(st, sets[1], ref.epochs * len(y))
    assert page.errors == []


def focused(page) -> str:
    return page.evaluate("""() => { const e = document.activeElement;
        return e.getAttribute('aria-label') || (e.labels && e.labels[0] ? e.labels[0].innerText
        : '') || e.innerText || e.tagName; }""")


def test_keyboard_alone_reaches_every_control_and_trains(open_page):
    page = open_page()
    data = page_datasets(page)[0]
    n = len(data["y"])
    page.locator(f"{SEL} select.demo-dataset").focus()
    names = [focused(page)]
    for _ in range(n + 14):
        page.keyboard.press("Tab")
        names.append(focused(page).split("\n")[0])
    # up to 40 points, each point is a Tab stop of its own
    assert names[13:n + 13] == [
        f"Example {i + 1} at ({x[0]:.4g}, {x[1]:.4g}), label {int(y):+d}".replace("-", "\u2212")
        for i, (x, y) in enumerate(zip(data["X"], data["y"], strict=True))]
    assert names[:13] + names[n + 13:] == [
        "Data set", "+1", "Undo", "Redo", "\u03bc", "\u03b3", "Best \u03b3", "Step", "Epoch",
        "Run", "Reset", "Play", "Speed", "The values", "The numbers, and the keys"], names
    # the keys s, e, r, 0 with the focus anywhere in the demo
    page.locator(f"{SEL} button.md-step").focus()
    page.keyboard.press("s")
    assert_numbers(snap(page), data, 1)
    page.keyboard.press("e")
    assert_numbers(snap(page), data, n)
    page.keyboard.press("Enter")  # the focused Step button
    assert_numbers(snap(page), data, n + 1)
    page.keyboard.press("0")
    assert_numbers(snap(page), data, 0)
    # the mu slider by arrow keys: a new threshold starts again from theta = 0
    page.locator(f"{SEL} input.demo-range").first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    st = snap(page)
    assert st["mu"] == MUS[2] and st["updates"] == 0
    assert page.locator(f"{SEL} input.demo-range").first.get_attribute("aria-valuetext") == (
        f"mu {MUS[2]:g}")
    page.keyboard.press("r")
    st = snap(page)
    *_, ref = after_steps(data["X"], data["y"], MUS[2], 100, 0)
    assert_numbers(st, data, ref.epochs * n)
    # the gamma slider by arrow keys: one position is R / 200; the run stays
    page.locator(f"{SEL} input.demo-range").nth(1).focus()
    k = round(st["gamma"] / st["R"] * 200)
    page.keyboard.press("ArrowRight")
    st2 = snap(page)
    assert st2["gamma"] == pytest.approx((k + 1) * st["R"] / 200, rel=1e-15)
    assert st2["updates"] == st["updates"]
    assert_numbers(st2, data, ref.epochs * n)
    assert "d\u1d62 > 0" in st2["status"]
    page.keyboard.press("b")
    st3 = snap(page)
    assert st3["boundNow"] <= st2["boundNow"] and "Best \u03b3" in st3["status"]
    assert page.errors == []


# ---------------------------------------------------------------------------------------
# Editing the points, and Undo


def view_of(X) -> dict:
    """The demo's view of a data set and its grid (margin-demo.mjs viewBox, dom.mjs niceStep)."""
    X = np.asarray(X, float)
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = float(max(hi - lo)) + 1.2
    mid = (lo + hi) / 2
    raw = span / 6
    p = 10 ** math.floor(math.log10(raw))
    step = next(m * p for m in (1, 2, 5, 10) if m * p >= raw)
    return {"x0": mid[0] - span / 2, "x1": mid[0] + span / 2, "y0": mid[1] - span / 2,
            "y1": mid[1] + span / 2, "span": span, "step": step, "snap": step / 10}


def on_grid(v: float, snap_step: float) -> float:
    return round(v / snap_step) * snap_step


def empty_spot(X, view) -> list[float]:
    """A point of the demo's grid far from every point (a click there adds one)."""
    X = np.asarray(X, float)
    s = view["snap"]
    for a in np.arange(on_grid(view["x0"], s) + 5 * s, view["x1"] - 5 * s, s):
        for b in np.arange(on_grid(view["y0"], s) + 5 * s, view["y1"] - 5 * s, s):
            if np.min(np.hypot(X[:, 0] - a, X[:, 1] - b)) > 0.08 * view["span"]:
                return [on_grid(a, s), on_grid(b, s)]
    raise AssertionError("no empty spot")


def edited(data: dict, X, y) -> dict:
    """The data set with the reader's points: the reference separator stays."""
    return {**data, "X": [list(map(float, x)) for x in X], "y": list(y)}


def click_at(page, x: float, y: float, shift: bool = False) -> None:
    cx, cy = page.evaluate(f"([x, y]) => {API}.clientPoint(x, y)", [x, y])
    if shift:
        page.keyboard.down("Shift")
    page.mouse.click(cx, cy)
    if shift:
        page.keyboard.up("Shift")


FOCUS = f"""() => {{
  const a = document.activeElement, root = document.querySelector('{SEL}');
  const pt = a && a.closest ? a.closest('.md-pt') : null;
  return {{ inside: Boolean(a) && root.contains(a) && a !== root, body: a === document.body,
           point: pt ? Number(pt.dataset.i) : null,
           layer: Boolean(a && a.classList && a.classList.contains('md-layer')) }};
}}"""


def focus_of(page) -> dict:
    return page.evaluate(FOCUS)


def lonely(X, view, start: int = 0) -> int:
    """The first point from ``start`` on whose neighbours are all far from it on the plot
    (more than twice a point's target for the pointer), so that a press there is on it."""
    X = np.asarray(X, float)
    for i in range(start, len(X)):
        others = np.delete(X, i, axis=0)
        if np.min(np.hypot(*(others - X[i]).T)) * 358 / view["span"] > 30:
            return i
    raise AssertionError("no point stands apart")


def client(page, x: float, y: float) -> list[float]:
    return page.evaluate(f"([x, y]) => {API}.clientPoint(x, y)", [x, y])


def focus_point(page, i: int) -> None:
    page.locator(f"{SEL} g.md-pt").nth(i).focus()


def test_a_click_adds_a_point_a_press_selects_one_and_the_run_is_the_library(open_page):
    page = open_page()
    data = page_datasets(page)[0]
    view = view_of(data["X"])
    X, y = [list(x) for x in data["X"]], list(data["y"])
    # the label of new points, chosen by a click on its radio button
    page.locator(f"{SEL} .demo-radio-neg").click()
    spot = empty_spot(X, view)
    click_at(page, spot[0] + 0.3 * view["snap"], spot[1] - 0.3 * view["snap"])
    st = snap(page)
    X.append(spot)
    y.append(-1)
    assert st["edited"] and st["y"] == y
    np.testing.assert_allclose(st["X"], X, rtol=0, atol=1e-12)
    assert st["points"][-1] == [pytest.approx(spot[0], abs=1e-12),
                                pytest.approx(spot[1], abs=1e-12), -1]
    assert "Added a point" in st["status"] and st["updates"] == 0
    assert st["selected"] == len(y) - 1 and focus_of(page)["point"] == len(y) - 1
    page.locator(f"{SEL} button.md-epoch").click()
    st = snap(page)
    assert_numbers(st, edited(data, st["X"], st["y"]), len(y))
    # Shift-click: the other label
    spot = empty_spot(X, view)
    click_at(page, *spot, shift=True)
    X.append(spot)
    y.append(1)
    assert snap(page)["y"] == y
    # a click on a point selects it (and removes nothing); Delete removes it
    i = lonely(data["X"], view)
    click_at(page, *data["X"][i])
    st = snap(page)
    assert st["selected"] == i and st["y"] == y and focus_of(page)["point"] == i
    page.keyboard.press("Delete")
    st = snap(page)
    del X[i], y[i]
    assert st["y"] == y and st["X"][i] == data["X"][i + 1] and st["steps"] == 0
    assert "Removed the point" in st["status"] and focus_of(page)["point"] == i
    assert shown(page, "margin").endswith("data edited")
    page.locator(f"{SEL} button.md-epoch").click()
    st = snap(page)
    assert_numbers(st, edited(data, st["X"], st["y"]), len(y))
    # the run had ended: an edit starts it again and takes it to its end at once
    page.locator(f"{SEL} button.md-run").click()
    assert snap(page)["stopped"] or snap(page)["converged"]
    click_at(page, *empty_spot(X, view))
    st = snap(page)
    *_, ref = after_steps(st["X"], st["y"], 0.0, 100, 0)
    assert (st["converged"], st["stopped"]) == (ref.converged, not ref.converged)
    assert st["steps"] == ref.epochs * len(st["y"]) and "goes to its end" in st["status"]
    assert_numbers(st, edited(data, st["X"], st["y"]), ref.epochs * len(st["y"]))
    assert page.errors == []


def test_a_drag_moves_a_point_as_one_edit_and_undo_and_redo_take_it_back_and_again(open_page):
    page = open_page()
    data = page_datasets(page)[0]
    i = lonely(data["X"], view_of(data["X"]))
    page.locator(f"{SEL} button.md-run").click()
    st0 = snap(page)
    page.wait_for_timeout(BURST_WAIT_MS)  # the drag is an entry of its own
    length = page.evaluate("() => history.length")
    target = empty_spot(data["X"], view_of(data["X"]))
    drag(page, client(page, *data["X"][i]), client(page, *target))  # many moves, one edit
    st = snap(page)
    assert st["X"][i] == [pytest.approx(target[0], abs=1e-9), pytest.approx(target[1], abs=1e-9)]
    assert st["X"][:i] + st["X"][i + 1:] == data["X"][:i] + data["X"][i + 1:]
    assert st["y"] == data["y"] and st["undoDepth"] == st0["undoDepth"] + 1
    page.evaluate(f"() => {API}.flushUrl()")
    assert page.evaluate("() => history.length") == length + 1
    assert f"Point {i + 1} moved to" in st["status"] and "goes to its end" in st["status"]
    assert focus_of(page)["point"] == i  # the dragged point has the focus
    # the run had ended: it ran again on the moved point, to its end, as the library's
    *_, ref = after_steps(st["X"], st["y"], 0.0, 100, 0)
    assert_numbers(st, edited(data, st["X"], st["y"]), ref.epochs * len(data["y"]))

    page.keyboard.press("Control+z")
    back = snap(page)
    assert back["X"] == data["X"] and not back["edited"] and back["redoDepth"] == 1
    assert (back["steps"], back["theta"]) == (st0["steps"], st0["theta"])  # the run as it was
    assert back["status"].startswith(f"Undone: moving point {i + 1}.")
    f = focus_of(page)
    assert f["inside"] and not f["body"] and f["point"] == i, f
    page.keyboard.press("Control+Shift+z")
    again = snap(page)
    assert (again["X"], again["steps"], again["theta"]) == (st["X"], st["steps"], st["theta"])
    assert again["status"].startswith(f"Redone: moving point {i + 1}.")
    assert focus_of(page)["point"] == i
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+y")  # Ctrl+Y redoes too
    assert snap(page)["X"] == st["X"]
    assert page.errors == []


def test_tab_reaches_each_point_and_keys_edit_the_focused_one(open_page):
    page = open_page()
    data = page_datasets(page)[0]
    view = view_of(data["X"])
    n = len(data["y"])
    assert n <= 40  # each point is a Tab stop of its own
    page.locator(f"{SEL} .demo-speed").focus()
    for i in range(3):
        page.keyboard.press("Tab")
        assert focus_of(page)["point"] == i
    assert snap(page)["selected"] == 2
    # Delete removes the focused point; the focus goes to the one now in its place
    page.keyboard.press("Delete")
    st = snap(page)
    assert st["X"] == data["X"][:2] + data["X"][3:] and st["y"] == data["y"][:2] + data["y"][3:]
    assert focus_of(page)["point"] == 2 and "Removed the point" in st["status"]
    # Enter flips the label, the arrow keys move the point (Shift: by a grid step)
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+ArrowDown")
    st = snap(page)
    x, y = data["X"][3]
    s = view["snap"]
    assert st["y"][2] == -data["y"][3] and "Point 3 at" in st["status"]
    assert st["X"][2] == [pytest.approx(on_grid(x + s, s), abs=1e-9),
                          pytest.approx(on_grid(y, s) - view["step"], abs=1e-9)]
    assert focus_of(page)["point"] == 2
    # n and Shift+N go along the points; a adds one in the middle, + and - its label first
    page.keyboard.press("n")
    assert focus_of(page)["point"] == 3
    page.keyboard.press("Shift+N")
    page.keyboard.press("Shift+N")
    assert focus_of(page)["point"] == 1
    page.keyboard.press("-")
    assert page.locator(f"{SEL} .demo-radio-neg input").is_checked()
    page.keyboard.press("a")
    st = snap(page)
    mid = [on_grid((view["x0"] + view["x1"]) / 2, s), on_grid((view["y0"] + view["y1"]) / 2, s)]
    assert st["X"][-1] == [pytest.approx(mid[0], abs=1e-9), pytest.approx(mid[1], abs=1e-9)]
    assert st["y"][-1] == -1 and focus_of(page)["point"] == n - 1
    page.keyboard.press("r")
    st = snap(page)
    *_, ref = after_steps(st["X"], st["y"], 0.0, 100, 0)
    assert_numbers(st, edited(data, st["X"], st["y"]), ref.epochs * n)
    # Ctrl+Z takes back one edit at a time (the moves by the arrow keys are one), the
    # focus staying in the demo: on the plot once the point that had it is gone
    undone = []
    for _ in range(4):
        page.keyboard.press("Control+z")
        undone.append(snap(page)["status"])
        f = focus_of(page)
        assert f["inside"] and not f["body"], f
    assert [t.startswith(w) for t, w in zip(undone, (
        "Undone: adding the point", "Undone: moving point 3", "Undone: changing the label of "
        "point 3", "Undone: removing the point"), strict=True)] == [True] * 4, undone
    st = snap(page)
    assert st["X"] == data["X"] and st["y"] == data["y"] and st["points"] is None
    assert st["redoDepth"] == 4 and not st["edited"]
    assert page.errors == []


def test_undo_takes_back_edits_and_changes_in_order(open_page):
    page = open_page()
    data = page_datasets(page)[0]
    undo = page.locator(f"{SEL} button.md-undo")
    assert undo.get_attribute("aria-disabled") == "true"
    undo.focus()
    page.keyboard.press("Enter")
    assert snap(page)["status"] == "Nothing to undo."
    start = snap(page)
    view = view_of(data["X"])
    click_at(page, *empty_spot(data["X"], view))
    one = snap(page)
    page.locator(f"{SEL} input.demo-range").first.focus()
    page.keyboard.press("ArrowRight")
    two = snap(page)
    assert two["mu"] == MUS[1] and two["X"] == one["X"]
    focus_point(page, 0)
    page.keyboard.press("Delete")
    three = snap(page)
    assert len(three["y"]) == len(one["y"]) - 1 and three["undoDepth"] == 3
    assert undo.get_attribute("aria-disabled") == "false"
    redo = page.locator(f"{SEL} button.md-redo")
    assert redo.get_attribute("aria-disabled") == "true"
    same = ("X", "y", "mu", "gamma", "steps", "theta")
    for before in (two, one, start):
        undo.click()
        st = snap(page)
        assert {k: st[k] for k in same} == {k: before[k] for k in same}
    assert undo.get_attribute("aria-disabled") == "true"
    assert_numbers(snap(page), data, 0)
    # Redo puts them back in order; a new edit ends the chain of Redo
    for after in (one, two):
        redo.click()
        st = snap(page)
        assert {k: st[k] for k in same} == {k: after[k] for k in same}
    assert redo.get_attribute("aria-disabled") == "false"
    page.keyboard.press("b")
    assert redo.get_attribute("aria-disabled") == "true"
    redo.focus()
    page.keyboard.press("Enter")
    assert snap(page)["status"] == "Nothing to redo."
    assert page.errors == []


def test_a_link_carries_the_edited_points_and_back_undoes_an_edit(open_page):
    page = open_page()
    data = page_datasets(page)[0]
    view = view_of(data["X"])
    focus_point(page, 5)
    page.keyboard.press("Delete")  # remove one
    page.wait_for_timeout(BURST_WAIT_MS)  # two entries of the history, not one burst
    click_at(page, *empty_spot(data["X"], view))  # add one
    for _ in range(9):
        page.keyboard.press("s")
    page.evaluate(f"() => {API}.flushUrl()")
    seen = snap(page)
    state = page.evaluate(f"() => {API}.urlState()")
    assert state["p"] == [[*x, label] for x, label in zip(seen["X"], seen["y"], strict=True)]
    query = page.evaluate("() => location.search")
    other = open_page(query=query)
    st = snap(other)
    assert st["X"] == seen["X"] and st["y"] == seen["y"] and st["steps"] == 9
    assert st["theta"] == seen["theta"] and st["visits"] == seen["visits"]
    assert_numbers(st, edited(data, st["X"], st["y"]), 9)
    assert "Restored from the link" in st["status"] and "(edited)" in st["status"]
    # Back: the state before the last edit (one point removed, none added)
    page.go_back()
    page.wait_for_function(f"() => {API}.snapshot().y.length === {len(data['y']) - 1}")
    st = snap(page)
    assert st["X"] == data["X"][:5] + data["X"][6:] and st["steps"] == 0
    assert "Back to an earlier state" in st["status"]
    page.go_back()
    page.wait_for_function(f"() => !{API}.snapshot().edited")
    assert snap(page)["X"] == data["X"]
    assert other.errors == [] and page.errors == []


def test_the_demo_does_no_work_before_it_comes_near_the_screen(open_page):
    # a short window: the demo is more than a screen below it
    page = open_page(height=500, scroll=False)
    top = page.evaluate(f"() => document.querySelector('{SEL}').getBoundingClientRect().top")
    assert top > 2 * 500 + 100
    page.wait_for_timeout(1500)  # idle time passes
    idle = page.evaluate(f"""() => {{ const r = document.querySelector('{SEL}');
        return {{ built: r.marginDemo.built(), ui: Boolean(r.querySelector('.demo-ui')),
                  mark: r.dataset.mdBuilt || null,
                  fallback: Boolean(r.querySelector('.md-fallback')) }}; }}""")
    assert idle == {"built": False, "ui": False, "mark": None, "fallback": True}
    # a screen away: built in idle time, the arithmetic still waiting
    page.evaluate(f"""() => window.scrollTo(0, scrollY - 900
        + document.querySelector('{SEL}').getBoundingClientRect().top)""")
    page.wait_for_function(f"() => document.querySelector('{SEL}').dataset.mdBuilt === 'true'")
    assert page.locator(SEL).get_attribute("data-md-active") is None
    page.locator(SEL).scroll_into_view_if_needed()
    page.wait_for_function(f"() => {API}.snapshot().active")
    assert_numbers(snap(page), page_datasets(page)[0], 0)
    assert page.errors == []


# ---------------------------------------------------------------------------------------
# The state in the URL


def test_a_link_reproduces_what_the_reader_saw(open_page):
    page = open_page()
    sets = page_datasets(page)
    page.locator(f"{SEL} select.demo-dataset").select_option(label="separable")
    page.locator(f"{SEL} input.demo-range").first.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.locator(f"{SEL} input.demo-range").nth(1).focus()
    page.keyboard.press("ArrowRight")
    for _ in range(7):
        page.keyboard.press("s")
    page.evaluate(f"() => {API}.flushUrl()")
    seen = snap(page)
    assert (seen["dataset"], seen["mu"], seen["steps"]) == (1, MUS[3], 7)
    query = page.evaluate("() => location.search")
    assert seen["key"] in query and seen["key"].startswith("margin-demo-")
    other = open_page(query=query)
    st = snap(other)
    assert {k: st[k] for k in ("dataset", "mu", "gamma", "steps")} == {
        k: seen[k] for k in ("dataset", "mu", "gamma", "steps")}
    assert st["theta"] == seen["theta"] and st["visits"] == seen["visits"]
    assert_numbers(st, sets[1], 7)
    assert "Restored from the link" in st["status"]
    assert other.errors == [] and page.errors == []


def test_back_returns_to_the_state_before_the_last_change(open_page):
    page = open_page()
    start = snap(page)
    page.locator(f"{SEL} select.demo-dataset").select_option(label="separable")
    page.locator(f"{SEL} button.md-epoch").click()
    page.wait_for_timeout(BURST_WAIT_MS)  # two entries of the history, not one burst
    page.locator(f"{SEL} button.md-best").click()
    best = snap(page)
    page.go_back()
    page.wait_for_function(f"() => {API}.snapshot().gamma !== {best['gamma']}")
    st = snap(page)
    assert st["dataset"] == 1 and st["gamma"] == page_datasets(page)[1]["gamma"]
    assert "Back to an earlier state" in st["status"]
    page.go_back()
    page.wait_for_function(f"() => {API}.snapshot().dataset === 0")
    st = snap(page)
    assert (st["gamma"], st["mu"], st["steps"]) == (start["gamma"], start["mu"], 0)
    assert page.errors == []


@pytest.mark.parametrize("bad", ['{"v":1,"d":7}', '{"v":1,"m":0.4}', '{"v":1,"g":-1}',
                                 '{"v":1,"s":1e9}', '{"v":2}', '{"v":1,"p":[]}',
                                 '{"v":1,"p":[[0,0,2]]}', '{"v":1,"p":[[1e9,0,1]]}',
                                 '{"v":1,"p":[[0,0]]}', '{"v":1,"p":"x"}'])
def test_a_hostile_link_is_ignored_and_said(open_page, bad):
    import base64

    enc = base64.urlsafe_b64encode(bad.encode()).decode().rstrip("=")
    probe = open_page(scroll=False)
    key = snap(probe)["key"]
    page = open_page(query=f"?{key}={enc}")
    st = snap(page)
    assert (st["dataset"], st["mu"], st["steps"]) == (0, 0, 0)
    assert "ignored" in st["status"]
    assert page.errors == []
    page = open_page(query=f"?{key}=%%%not-base64")
    assert snap(page)["steps"] == 0 and page.errors == []


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (1280, "dark"), (390, "light"),
                                               (390, "dark")])
def test_axe_finds_nothing_in_the_demo(open_page, axe_source, width, scheme):
    page = open_page(width=width, scheme=scheme)
    page.evaluate(f"() => {{ {API}.setState({{mu: 0.5}}); {API}.epoch(); }}")
    page.locator(f"{SEL} details.demo-help summary").click()
    found = demo_violations(page, SEL, axe_source, scheme)
    assert found == [], found  # at every impact
    assert page.locator(f"{SEL} svg.md-plot").get_attribute("role") == "img"
    assert "circled" in page.locator(f"{SEL} svg.md-plot").get_attribute("aria-label")
    assert_demo_speaks(page, SEL)


def test_readers_without_javascript_see_the_picture(browser, demo_site):
    seen = picture_without_javascript(browser, f"{demo_site}/index.html",
                                      f"{SEL} .md-fallback figure.explorer-static img")
    assert seen["count"] == 1 and seen["visible"] and seen["live"] == 0
    assert "10% flipped" in seen["alt"]
    assert seen["width"] > 200 and seen["height"] > 200


# ---------------------------------------------------------------------------------------
# On the chapter's own page of the built book

CHAPTER = "book/07_beyond.html"


@pytest.fixture
def chapter_page(browser, base_url):
    pages = DemoPages(browser, API, SEL, f"{API}.snapshot().active")
    yield lambda **kw: pages.open(f"{base_url}/{CHAPTER}", **kw)
    pages.close()


def test_on_the_chapter_page_the_demo_runs_as_the_library(chapter_page):
    page = chapter_page()
    sets = page_datasets(page)
    for k, data in enumerate(sets):
        page.locator(f"{SEL} select.demo-dataset").select_option(index=k)
        page.locator(f"{SEL} button.md-step").click()
        assert_numbers(snap(page), data, 1)
        page.locator(f"{SEL} button.md-run").click()
        st = snap(page)
        *_, ref = after_steps(data["X"], data["y"], st["mu"], 100, 0)
        assert (st["updates"], st["converged"], st["epochs"]) == (
            ref.mistakes, ref.converged, ref.epochs)
        assert_numbers(st, data, ref.epochs * len(data["y"]))
    assert page.errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_the_chapter_page_the_room_holds_the_demo(chapter_page, axe_source, scheme):
    page = chapter_page(scheme=scheme)
    for width in (320, 390, 600, 768, 1024, 1280, 1600):
        page.set_viewport_size({"width": width, "height": 900})
        for mu in (0.0, 5.0):
            page.evaluate(f"() => {{ {API}.setState({{mu: {mu}}}); {API}.run(); }}")
            room = page.evaluate(ROOM)
            assert room["needed"] <= room["reserved"] + 0.5, (width, room)
            assert room["frame"] == pytest.approx(room["reserved"], abs=0.5), (width, room)
            assert room["right"] <= room["inner"] + 0.5 and room["wide"] == [], (width, room)
    page.set_viewport_size({"width": 1280, "height": 900})
    found = demo_violations(page, SEL, axe_source, scheme)
    assert found == [], found  # at every impact
    assert page.errors == []


CHAPTER_HEIGHTS = """() => {
  const r = document.querySelector('div.margin-demo');
  const out = r.closest('.cell_output') || r.parentElement;
  let next = out.parentElement;
  while (next && !next.nextElementSibling) next = next.parentElement;
  next = next.nextElementSibling;
  const box = r.getBoundingClientRect();
  return { height: box.height, below: next.getBoundingClientRect().top - box.top,
           marked: document.documentElement.classList.contains('margin-demo-js'),
           fallback: getComputedStyle(r.querySelector('.md-fallback') || r).display,
           ui: Boolean(r.querySelector('.demo-ui')) };
}"""


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (390, "dark")])
def test_on_the_chapter_page_nothing_moves_when_the_script_runs(browser, base_url, width,
                                                                 scheme):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    try:
        page = ctx.new_page()
        held = []
        page.route("**/margin-demo.mjs*", lambda route: held.append(route))
        page.goto(f"{base_url}/{CHAPTER}", wait_until="commit")
        page.wait_for_function("""() => document.readyState !== 'loading' &&
            [...document.styleSheets].some(s => s.href && s.href.includes('margin-demo.css'))
            && document.querySelector('div.margin-demo .md-fallback')""")
        if scheme == "dark":  # the theme's own switch (its dark outputs are padded)
            page.evaluate("() => { document.documentElement.dataset.theme = 'dark'; }")
        assert held, "the module was requested"
        page.evaluate(LAY_OUT_NOW)  # as after the load (which waits for the module)
        before = page.evaluate(CHAPTER_HEIGHTS)
        assert before["marked"] and not before["ui"] and before["fallback"] == "none"
        held[0].continue_()
        page.wait_for_function(f"() => {API}")
        page.locator(SEL).scroll_into_view_if_needed()
        page.wait_for_function(f"() => {API}.snapshot().active")
        after = page.evaluate(CHAPTER_HEIGHTS)
        assert after["ui"]
        assert after["height"] == pytest.approx(before["height"], abs=0.5)
        assert after["below"] == pytest.approx(before["below"], abs=0.5)
    finally:
        ctx.close()


def test_a_burst_of_edits_is_one_entry_of_the_history(open_page):
    page = open_page()
    start = snap(page)
    length = page.evaluate("() => history.length")
    # five steps of the mu slider and another data set, as fast as a reader's keys (in
    # one script, so that a busy machine cannot space them out)
    page.evaluate(f"""() => {{
        const root = document.querySelector('{SEL}');
        const mu = root.querySelector('input.demo-range');
        for (let k = 0; k < 5; k++) {{
            mu.value = String(Number(mu.value) + 1);
            mu.dispatchEvent(new Event('input', {{ bubbles: true }}));
            mu.dispatchEvent(new Event('change', {{ bubbles: true }}));
        }}
        const menu = root.querySelector('select.demo-dataset');
        menu.value = '1';
        menu.dispatchEvent(new Event('change', {{ bubbles: true }}));
    }}""")
    st = snap(page)
    assert st["mu"] != start["mu"] and st["dataset"] == 1
    page.evaluate(f"() => {API}.flushUrl()")
    assert page.evaluate("() => history.length") == length + 1
    page.go_back()  # one Back leaves the burst
    page.wait_for_function(f"() => {API}.snapshot().dataset === 0")
    assert snap(page)["mu"] == start["mu"]
    assert page.errors == []
