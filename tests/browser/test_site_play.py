"""Play, Pause and speed in every demo that runs the perceptron (chapters 1-4, 6, 7).

Play moves the run on by itself, one update at a time (``book/_demos/kit/player.mjs``;
``tests/test_demo_player.py`` holds its ticks to the library under Node).  Here, in a
real browser, for each demo: Play at the fastest speed ends where Run ends, the status
line is not read out at every update while it plays, key p pauses it where it is, another
key or click pauses it too, and a reader who asked for less motion starts at the slowest
speed without the fading.  In chapter 1 an update is drawn as y·x added to θ.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from harness import DemoPages

import perceptron_lib as pl

# page, the demo's element, its API, what of it is true once it has started, its state
DEMOS = {
    "chapter 1": ("book/01_algorithm.html", "div.perceptron-playground", "perceptronPlayground",
                  "state", "state()"),
    "chapter 2": ("book/02_offset.html", "div.offset-demo", "offsetDemo", "state().active",
                  "state()"),
    "chapter 4": ("book/04_convergence.html", "div.perceptron-playground",
                  "perceptronPlayground", "state", "state()"),
    "chapter 6": ("book/06_variants.html", "div.kernel-playground", "kernelPlayground",
                  "state().active", "state()"),
    "chapter 7": ("book/07_beyond.html", "div.margin-demo", "marginDemo", "snapshot().active",
                  "snapshot()"),
}
VOLATILE = {"status", "playing", "update", "timing", "undoDepth"}


def api(demo: str) -> str:
    _, sel, name, _, _ = DEMOS[demo]
    return f"document.querySelector('{sel}').{name}"


@pytest.fixture
def open_demo(browser, base_url):
    opened: list[DemoPages] = []

    def _open(demo: str, **options):
        rel, sel, _, active, _ = DEMOS[demo]
        pages = DemoPages(browser, api(demo), sel, f"{api(demo)}.{active}")
        opened.append(pages)
        return pages.open(f"{base_url}/{rel}", **options)

    yield _open
    for pages in opened:
        pages.close()


def summary(page, demo: str) -> dict:
    st = page.evaluate(f"() => {api(demo)}.{DEMOS[demo][4]}")
    return {k: v for k, v in st.items() if k not in VOLATILE}


def playing(page, demo: str) -> bool:
    if demo == "chapter 7":
        return page.evaluate(f"() => {api(demo)}.playing()")
    return page.evaluate(f"() => {api(demo)}.state().playing")


@pytest.mark.parametrize("demo", DEMOS)
def test_play_at_full_speed_ends_where_run_ends(open_demo, demo):
    page = open_demo(demo)
    sel = DEMOS[demo][1]
    if demo == "chapter 2":
        # its run on x makes thousands of updates before tau stops it: play the last 40 visits
        page.evaluate(f"() => {{ const a = {api(demo)}; a.run();"
                      " a.setState({steps: a.state().steps - 40}); }")
    root = page.locator(sel)
    root.locator(".demo-speed").select_option("16")
    status = root.locator(".demo-status")
    button = root.locator(".demo-play")
    # clicked and read in one script: at 16 updates a second a short run may be over
    # before a second call reaches the page
    during = page.evaluate(f"""() => {{
        const b = document.querySelector('{sel} .demo-play');
        b.click();
        return [b.classList.contains('demo-playing'), b.textContent,
                document.querySelector('{sel} .demo-status').getAttribute('aria-live')];
    }}""")
    assert during[0] and during[1].startswith("Pause") and during[2] == "off", during
    page.wait_for_function(f"() => !document.querySelector('{sel} .demo-play')"
                           ".classList.contains('demo-playing')", timeout=90_000)
    assert not playing(page, demo)
    assert status.get_attribute("aria-live") == "polite"
    assert button.inner_text().startswith("Play")
    played = summary(page, demo)
    page.evaluate(f"() => {{ {api(demo)}.reset(); {api(demo)}.run(); }}")
    assert summary(page, demo) == played
    assert page.errors == []


@pytest.mark.parametrize("demo", ["chapter 1", "chapter 2", "chapter 6", "chapter 7"])
def test_key_p_pauses_where_the_run_is_and_another_key_pauses_too(open_demo, demo):
    page = open_demo(demo)
    sel = DEMOS[demo][1]
    root = page.locator(sel)
    root.locator(".demo-speed").select_option("1")
    root.locator(".demo-play").focus()
    page.keyboard.press("p")
    assert playing(page, demo)
    page.keyboard.press("p")
    assert not playing(page, demo)
    status = root.locator(".demo-status").inner_text()
    assert status.startswith("Paused after 1 update"), status
    before = summary(page, demo)
    page.wait_for_timeout(1500)  # a paused run stays where it is
    assert summary(page, demo) == before
    # Play again, then Step: the step pauses it first, and makes one visit
    page.keyboard.press("p")
    assert playing(page, demo)
    root.locator(".demo-button", has_text="Step").first.click()
    assert not playing(page, demo)
    assert page.errors == []


def test_an_update_is_drawn_as_y_x_added_to_theta(open_demo):
    demo = "chapter 1"
    page = open_demo(demo)
    root = page.locator(DEMOS[demo][1])
    root.locator(".demo-button", has_text="Step").click()  # theta = 0: the first visit updates
    st = page.evaluate(f"() => {api(demo)}.state()")
    u = st["update"]
    assert u is not None and u["theta"] == [0, 0] and u["theta0"] == 0
    i = u["index"]
    assert st["theta"] == [st["y"][i] * a for a in st["X"][i]]
    assert root.locator(".pg-update").get_attribute("visibility") is None
    # the arrow ends at theta (in the drawing's units) and starts at the origin
    ends = page.evaluate(f"""() => {{
        const a = document.querySelector('{DEMOS[demo][1]} .pg-update');
        const api = {api(demo)};
        return [a.x1.baseVal.value, a.y1.baseVal.value];
    }}""")
    origin = page.evaluate(f"() => {api(demo)}.clientPoint(0, 0)")
    box = page.evaluate(f"""() => {{
        const a = document.querySelector('{DEMOS[demo][1]} .pg-update');
        const m = a.getScreenCTM();
        const p = new DOMPoint({ends[0]}, {ends[1]}).matrixTransform(m);
        return [p.x, p.y];
    }}""")
    assert box == pytest.approx(origin, abs=1.0)
    # a visit without an update leaves no update drawn; turning the option off hides it
    page.evaluate(f"() => {api(demo)}.run()")
    assert page.evaluate(f"() => {api(demo)}.state().update") is None
    assert root.locator(".pg-update").get_attribute("visibility") == "hidden"
    page.evaluate(f"() => {api(demo)}.reset()")
    root.locator("label", has_text="show each update").click()
    root.locator(".demo-button", has_text="Step").click()
    assert root.locator(".pg-update").get_attribute("visibility") == "hidden"
    assert page.errors == []


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_less_motion_starts_slow_and_does_not_fade(open_demo, motion):
    demo = "chapter 1"
    page = open_demo(demo, reduced_motion=motion)
    root = page.locator(DEMOS[demo][1])
    assert root.locator(".demo-speed").input_value() == ("1" if motion == "reduce" else "2")
    # the eight points: the second update leaves the first boundary behind
    page.evaluate(f"() => {api(demo)}.selectDataset(1)")
    root.locator(".demo-play").click()
    page.wait_for_function(f"() => document.querySelector('{DEMOS[demo][1]} .pg-ghost')",
                           timeout=20_000)
    root.locator(".demo-play").click()
    ghost = page.evaluate(f"""() => {{
        const g = getComputedStyle(document.querySelector('{DEMOS[demo][1]} .pg-ghost'));
        return [g.animationName, g.opacity];
    }}""")
    if motion == "reduce":
        assert ghost == ["none", "0.45"]
    else:
        assert ghost[0] == "demo-fade"
    assert json.dumps(page.errors) == "[]"


# in each demo that has them: a data set with a held-out test set, and one without
HELD_OUT = {
    "chapter 1": ("40 points, 10% flipped", "eight points"),
    "chapter 6": ("XOR clouds, 10% flipped", "XOR corners"),
    "chapter 7": ("noisy", None),
}


@pytest.mark.parametrize("demo", HELD_OUT)
def test_the_chart_shows_the_test_errors_beside_the_training_mistakes(open_demo, demo):
    page = open_demo(demo)
    sel = DEMOS[demo][1]
    root = page.locator(sel)
    with_test, without = HELD_OUT[demo]
    root.locator("select.demo-dataset").select_option(label=with_test)
    root.locator(".demo-button", has_text="Epoch").first.click()
    root.locator(".demo-button", has_text="Epoch").first.click()
    root.locator(".demo-chart details summary").first.click()  # the table of values
    chart = page.evaluate(f"""() => {{
        const root = document.querySelector('{sel}');
        const chart = root.querySelector('.demo-chart');
        return {{
            key: !chart.querySelector('.ec-test-key').hidden,
            keyText: chart.querySelector('.ec-test-key').textContent,
            points: chart.querySelector('polyline.ec-test').getAttribute('points').trim()
                .split(/\\s+/).length,
            head: [...chart.querySelectorAll('thead th')].map((th) => th.textContent),
            cells: [...chart.querySelectorAll('tbody tr')].map((tr) =>
                [...tr.children].map((td) => td.textContent)),
            readout: root.querySelector('.demo-readout').textContent,
        }};
    }}""")
    assert chart["key"] and "of 100 held out" in chart["keyText"]
    assert chart["points"] == 2
    assert chart["head"][-1] == "test errors after it (of 100)"
    assert [len(row) for row in chart["cells"]][:2] == [4, 4]
    assert "held out" in chart["readout"].replace("held-out", "held out")
    if demo == "chapter 1":
        # the numbers, from the library: the hypothesis after each epoch on the test set
        st = page.evaluate(f"() => {api(demo)}.state()")
        X, y = np.array(st["X"]), np.array(st["y"])
        Xt, yt = np.array(st["test"]["X"]), np.array(st["test"]["y"])
        ref = pl.perceptron(X, y, tau=2, trace=True, method="loop")
        for t, row in enumerate(chart["cells"][:2], start=1):
            last = [u for u in ref.history if u.epoch <= t][-1]
            wrong = int(np.sum(yt * (Xt @ last.theta + last.theta_0) <= 0))
            assert row[3] == str(wrong)
        assert st["testErrors"] == int(np.sum(yt * (Xt @ ref.theta + ref.theta_0) <= 0))
    # a data set without a held-out set has no test line
    if without is not None:
        root.locator("select.demo-dataset").select_option(label=without)
        root.locator(".demo-button", has_text="Epoch").first.click()
        assert page.evaluate(f"() => document.querySelector('{sel} .ec-test-key').hidden")
        assert "held" not in root.locator(".demo-readout").inner_text()
    assert page.errors == []


def test_the_menu_says_when_the_data_are_edited(open_demo):
    demo = "chapter 1"
    page = open_demo(demo)
    root = page.locator(DEMOS[demo][1])
    menu = root.locator("select.demo-dataset")
    empty = "empty: click in the plot to add points"
    menu.select_option(label=empty)
    shown = (f"() => {{ const s = document.querySelector('{DEMOS[demo][1]} select.demo-dataset');"
             " return s.options[s.selectedIndex].textContent; }")
    assert page.evaluate(shown) == empty
    x, y = page.evaluate(f"() => {api(demo)}.clientPoint(0.5, 0.5)")
    page.mouse.click(x, y)
    assert len(page.evaluate(f"() => {api(demo)}.state().X")) == 1
    assert page.evaluate(shown) == "your points"
    page.evaluate(f"() => {api(demo)}.undo()")
    assert page.evaluate(shown) == empty
    menu.select_option(label="eight points")
    x, y = page.evaluate(f"() => {api(demo)}.clientPoint(0.5, 0.5)")
    page.mouse.click(x, y)
    assert page.evaluate(shown) == "eight points (edited)"
    assert page.errors == []


@pytest.mark.parametrize("demo", ["chapter 1", "chapter 2", "chapter 6", "chapter 7"])
def test_in_the_dark_theme_no_light_frame_surrounds_a_demo(open_demo, demo):
    page = open_demo(demo, scheme="dark")
    around = page.evaluate(f"""() => {{
        const root = document.querySelector('{DEMOS[demo][1]}');
        const out = root.parentElement, cs = getComputedStyle(out);
        return [out.className, cs.backgroundColor, cs.paddingLeft,
                getComputedStyle(root).backgroundColor];
    }}""")
    assert "text_html" in around[0]
    assert around[1] == "rgba(0, 0, 0, 0)" and around[2] == "0px", around
    assert around[3] != "rgb(255, 255, 255)"  # the demo's own dark background


SMALLEST_TEXT = """(sel) => {
    const root = document.querySelector(sel);
    let smallest = [Infinity, ''];
    for (const t of root.querySelectorAll('svg text')) {
        if (!t.getClientRects().length || !t.textContent.trim()) continue;
        const px = parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a;
        if (px < smallest[0]) smallest = [px, t.getAttribute('class') || t.textContent];
    }
    return smallest;
}"""


@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize("demo", ["chapter 1", "chapter 2", "chapter 6", "chapter 7"])
def test_on_a_phone_no_label_of_a_plot_is_under_11_px(open_demo, demo, width):
    page = open_demo(demo, width=width)
    page.evaluate(f"() => {api(demo)}.run()")  # the chart's epochs, the boundary's labels
    px, what = page.evaluate(SMALLEST_TEXT, DEMOS[demo][1])
    assert 11 <= px < 100, (what, px)
    assert page.errors == []
