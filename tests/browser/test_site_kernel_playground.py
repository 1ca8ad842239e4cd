"""Chapter 6's kernel playground in a real browser: mouse, keyboard, room, and the library.

The playground (book/_demos/kernel) is on the variants chapter.  These tests drive
it the way a reader does (clicks on the buttons, the menu and the kernel choices; Tab,
arrow keys and the keys s, e, r, 0) and compare every number it shows with
``perceptron_lib.kernel_perceptron`` on the same data: updates, alphas, theta_0, epochs,
training errors, and the sign of f on the cells of the field.  They also check that the
page keeps the playground's room before its script runs, that its arithmetic waits until
it comes into view, that it passes axe-core in the light and the dark theme, and that
readers without JavaScript see the explorer's picture.
"""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest
from harness import (
    BURST_WAIT_MS,
    LAID_OUT,
    LAID_OUT_MS,
    LAY_OUT_NOW,
    DemoPages,
    assert_demo_speaks,
    demo_violations,
    drag,
    picture_without_javascript,
)

import perceptron_lib as pl

PAGE = "book/06_variants.html"
SEL = "div.kernel-playground"
API = f"document.querySelector('{SEL}').kernelPlayground"
GAMMAS = [float(f"{10 ** (k / 10 - 2):.3g}") for k in range(41)]


# ---------------------------------------------------------------------------------------
# Reading the page, and the library on the same data


@pytest.fixture
def open_page(browser, base_url):
    pages = DemoPages(browser, API, SEL, f"{API}.state().active")
    yield lambda **kw: pages.open(f"{base_url}/{PAGE}", **kw)
    pages.close()


def state(page) -> dict:
    return page.evaluate(f"() => {API}.state()")


def page_datasets(page) -> list[dict]:
    return json.loads(page.locator(SEL).get_attribute("data-datasets"))


def kernel_of(spec: dict):
    if spec["kind"] == "linear":
        return pl.linear_kernel()
    if spec["kind"] == "polynomial":
        return pl.polynomial_kernel(spec["degree"], spec["coef0"])
    return pl.rbf_kernel(spec["gamma"])


def library_run(st: dict):
    """perceptron_lib's run on the playground's current data and kernel, traced."""
    X, y = np.asarray(st["X"], float), np.asarray(st["y"], float)
    return pl.kernel_perceptron(X, y, kernel_of(st["kernel"]), tau=st["tau"], trace=True)


def alpha_after(result, n: int, visits: int) -> tuple[list[float], int]:
    """alpha and the update count of a traced run after ``visits`` visits."""
    alpha = np.zeros(n)
    count = 0
    for u in result.history:
        if (u.epoch - 1) * n + u.index + 1 > visits:
            break
        alpha[u.index] += 1
        count += 1
    return alpha.tolist(), count


def assert_same_run(page, st: dict, result) -> None:
    X, y = np.asarray(st["X"], float), np.asarray(st["y"], float)
    assert st["alpha"] == result.alpha.tolist()
    assert st["theta0"] == result.theta_0
    assert (st["mistakes"], st["epochs"], st["converged"]) == (
        result.mistakes, result.epochs, result.converged)
    errors = int(np.sum(pl.kernel_predict(result, X) != y))
    assert st["trainingErrors"] == errors
    assert st["support"] == int(np.sum(result.alpha > 0))
    # what the reader sees: the readout and the rings
    row = lambda key: page.locator(f"{SEL} .kp-row-{key} dd").inner_text()  # noqa: E731
    assert row("errors").split(";")[0] == f"{errors} of {len(y)}"  # then the held-out ones
    assert row("updates").startswith(f"{result.mistakes} (")
    assert row("support") == f"{st['support']} of {len(y)}, ringed"
    assert page.locator(f"{SEL} circle.kp-support").count() == st["support"]


def assert_field_matches(page, st: dict, result) -> None:
    """The sign of every cell of the field is that of the library's f at its centre."""
    grid = page.evaluate(f"() => {API}.grid()")
    P = np.asarray(grid["centres"])
    assert P.shape == (st["cells"] ** 2, 2)
    f_js = np.asarray(grid["f"])
    f_lib = pl.kernel_decision(result, P)
    K = np.asarray(result.kernel(result.X, P))
    scale = result.alpha @ np.abs(K) + abs(result.theta_0)
    clear = np.abs(f_lib) > 1e-9 * scale  # cells whose sign no rounding can change
    assert np.array_equal(np.sign(f_js[clear]), np.sign(f_lib[clear]))
    assert np.all(f_js[~clear] == 0)  # rounding noise is drawn as f = 0
    assert st["field"] == {"pos": int(np.sum(f_js > 0)), "neg": int(np.sum(f_js < 0)),
                           "zero": int(np.sum(f_js == 0))}


def focused(page) -> str:
    return page.evaluate("""() => { const e = document.activeElement;
        return e.getAttribute('aria-label') || (e.labels && e.labels[0] ? e.labels[0].innerText
        : '') || e.innerText || e.tagName; }""")


# ---------------------------------------------------------------------------------------
# When the work starts, and the room on the page


def test_the_arithmetic_waits_until_the_playground_is_in_view(open_page):
    page = open_page(scroll=False)
    top = page.evaluate(f"() => document.querySelector('{SEL}').getBoundingClientRect().top")
    assert top > page.viewport_size["height"] + 200  # far below the first screen
    st = state(page)
    assert st["active"] is False and st["timing"]["gramMs"] is None and st["field"] is None
    assert page.locator(SEL).get_attribute("data-kp-active") is None
    # the controls are there already, and the readout says what alpha = 0 means
    assert page.locator(f"{SEL} .kp-row-state dd").inner_text() == "ready: \u03b1 = 0"
    page.locator(SEL).scroll_into_view_if_needed()
    page.wait_for_function(f"() => {API}.state().active")
    st = state(page)
    assert st["timing"]["gramMs"] is not None and st["field"]["zero"] == st["cells"] ** 2
    assert page.errors == []


HEIGHTS = """() => {
  const r = document.querySelector('div.kernel-playground');
  const out = r.closest('.cell_output') || r.parentElement;
  let next = out.parentElement;
  while (next && !next.nextElementSibling) next = next.parentElement;
  next = next.nextElementSibling;
  const box = r.getBoundingClientRect();
  return { height: box.height, below: next.getBoundingClientRect().top - box.top,
           marked: document.documentElement.classList.contains('kernel-playground-js'),
           fallback: getComputedStyle(r.querySelector('.kp-fallback') || r).display,
           ui: Boolean(r.querySelector('.demo-ui')) };
}"""


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (1280, "dark"), (390, "light"),
                                               (390, "dark")])
def test_the_page_keeps_the_room_before_the_script_runs(browser, base_url, width, scheme):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    try:
        page = ctx.new_page()
        held = []
        page.route("**/kernel-playground.mjs*", lambda route: held.append(route))
        page.goto(f"{base_url}/{PAGE}", wait_until="commit")
        # parsed, styled, and the module still on its way
        page.wait_for_function("""() => document.readyState !== 'loading' &&
            [...document.styleSheets].some(s => s.href && s.href.includes('kernel-playground.css'))
            && document.querySelector('div.kernel-playground .kp-fallback')""")
        if scheme == "dark":
            page.evaluate("() => { document.documentElement.dataset.theme = 'dark'; }")
        assert held, "the module was requested"
        page.evaluate(LAY_OUT_NOW)  # as after the load (which waits for the module)
        before = page.evaluate(HEIGHTS)
        assert before["marked"] and not before["ui"] and before["fallback"] == "none"
        held[0].continue_()
        page.wait_for_function(f"() => {API}")
        page.locator(SEL).scroll_into_view_if_needed()
        page.wait_for_function(f"() => {API}.state().active")
        after = page.evaluate(HEIGHTS)
        assert after["ui"]
        assert after["height"] == pytest.approx(before["height"], abs=0.5)
        assert after["below"] == pytest.approx(before["below"], abs=0.5)
    finally:
        ctx.close()


ROOM = """() => {
  const r = document.querySelector('div.kernel-playground');
  const frame = r.querySelector('.kp-frame');
  const cs = getComputedStyle(frame);
  const ui = r.querySelector('.demo-ui');
  const wide = [...r.querySelectorAll('*')].filter(e => e.scrollWidth > e.clientWidth + 1 &&
    getComputedStyle(e).overflowX === 'visible' && e.clientWidth > 0).map(e => e.className);
  return { reserved: parseFloat(cs.minHeight),
           needed: ui.getBoundingClientRect().height + parseFloat(cs.paddingTop)
                   + parseFloat(cs.paddingBottom),
           frame: frame.getBoundingClientRect().height, box: r.getBoundingClientRect().width,
           right: r.getBoundingClientRect().right, inner: document.documentElement.clientWidth,
           wide };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_at_every_width_the_kept_room_holds_the_playground(open_page, scheme):
    page = open_page(scheme=scheme)
    for width in (320, 360, 390, 480, 600, 640, 700, 720, 768, 1024, 1280, 1600):
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate(f"() => {API}.reset()")
        room = page.evaluate(ROOM)
        # the frame is as high as the stylesheet keeps it, so nothing moved when it started
        assert room["needed"] <= room["reserved"] + 0.5, (width, room)
        assert room["frame"] == pytest.approx(room["reserved"], abs=0.5), (width, room)
        assert room["right"] <= room["inner"] + 0.5 and room["wide"] == [], (width, room)


# ---------------------------------------------------------------------------------------
# The reader's mouse and keyboard, against the library


def test_mouse_steps_epochs_and_runs_as_the_library(open_page):
    page = open_page()
    st = state(page)
    assert st["dataset"] == "disc in a ring" and st["kernel"]["kind"] == "polynomial"
    n = len(st["y"])
    result = library_run(st)
    step = page.locator(f"{SEL} button.kp-step")
    for visits in range(1, n + 9):
        step.click()
        st = state(page)
        alpha, count = alpha_after(result, n, visits)
        assert (st["alpha"], st["mistakes"]) == (alpha, count), visits
    assert "example 8" in st["status"].replace("\u2212", "-")
    page.locator(f"{SEL} button.kp-epoch").click()  # the rest of epoch 2
    st = state(page)
    assert (st["alpha"], st["mistakes"]) == alpha_after(result, n, 2 * n)
    page.locator(f"{SEL} button.kp-run").click()
    st = state(page)
    assert_same_run(page, st, result)
    assert_field_matches(page, st, result)
    assert st["converged"] and "Converged" in st["status"]

    # another data set from the menu and the RBF kernel by a click on its name
    page.locator(f"{SEL} select.demo-dataset").select_option(label="XOR clouds, 10% flipped")
    page.locator(f"{SEL} label.demo-radio", has_text="RBF").click()
    st = state(page)
    assert st["dataset"] == "XOR clouds, 10% flipped"
    assert st["kernel"]["kind"] == "RBF" and st["kernel"]["gamma"] == 1.0
    # the last run had finished, so the new one has run to its end at once
    result = library_run(st)
    assert_same_run(page, st, result)
    assert_field_matches(page, st, result)
    page.locator(f"{SEL} button.kp-reset").click()
    st = state(page)
    assert st["mistakes"] == 0 and st["alpha"] == [0.0] * len(st["y"])
    assert page.locator(f"{SEL} circle.kp-support").count() == 0
    assert page.errors == []


def test_keyboard_alone_reaches_every_control_and_trains(open_page):
    page = open_page()
    page.locator(f"{SEL} select.demo-dataset").focus()
    names = [focused(page)]
    for _ in range(17):
        page.keyboard.press("Tab")
        names.append(focused(page))
    assert names[:14] == ["Data set", "+1", "polynomial", "Degree", "\u03b2 (RBF)",
                          "Generate data", "Undo", "Redo", "Step", "Epoch", "Run", "Reset",
                          "Play", "Speed"], names
    # the disc in a ring has 60 points, more than 40: they share one Tab stop
    assert names[14].startswith("Example 1 at (")
    assert names[15] == "The values"  # the chart's table
    assert names[16] == "Examples with \u03b1 > 0" and names[17] == "Mouse and keyboard"

    # the gamma slider: arrow keys move it along the slider's values and choose RBF
    page.locator(f"{SEL} input.demo-range").nth(1).focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    st = state(page)
    assert st["kernel"]["kind"] == "RBF" and st["kernel"]["gamma"] == GAMMAS[23] == 2.0
    assert page.locator(f"{SEL} input.demo-range").nth(1).get_attribute("aria-valuetext") == (
        "\u03b2 2")  # the book's name of the RBF kernel's width
    assert "RBF kernel, \u03b2 = 2" in st["status"]
    result = library_run(st)
    n = len(st["y"])
    page.keyboard.press("s")
    assert state(page)["alpha"] == alpha_after(result, n, 1)[0]
    page.keyboard.press("e")
    assert state(page)["alpha"] == alpha_after(result, n, n)[0]
    page.keyboard.press("r")
    st = state(page)
    assert_same_run(page, st, result)
    # a finished run follows the slider: the next value runs to its end as well
    page.keyboard.press("ArrowLeft")
    st = state(page)
    assert st["kernel"]["gamma"] == GAMMAS[22]
    assert_same_run(page, st, library_run(st))
    page.keyboard.press("0")
    assert state(page)["mistakes"] == 0

    # the kernel choices are a radio group: arrows move between them
    page.locator(f"{SEL} input[type=radio][value=RBF]").focus()
    page.keyboard.press("ArrowLeft")
    st = state(page)
    assert st["kernel"]["kind"] == "polynomial"
    page.keyboard.press("ArrowLeft")
    assert state(page)["kernel"]["kind"] == "linear"
    page.keyboard.press("r")
    st = state(page)
    assert_same_run(page, st, library_run(st))
    assert not st["converged"]  # a disc in a ring: no line separates it
    # the degree slider chooses the polynomial kernel
    page.locator(f"{SEL} input.demo-range").first.focus()
    page.keyboard.press("End")
    st = state(page)
    assert st["kernel"] == {**st["kernel"], "kind": "polynomial", "degree": 6}
    assert page.errors == []


SPECS = [
    {"kind": "linear"},
    {"kind": "polynomial", "degree": 2},
    {"kind": "polynomial", "degree": 5},
    {"kind": "RBF", "gamma": 0.1},
    {"kind": "RBF", "gamma": 1.0},
    {"kind": "RBF", "gamma": 31.6},
]


def test_every_data_set_with_every_kernel_family_runs_as_the_library(open_page):
    page = open_page()
    sets = page_datasets(page)
    assert [d["name"] for d in sets] == ["disc in a ring", "XOR corners", "XOR clouds",
                                         "XOR clouds, 10% flipped"]
    for k, d in enumerate(sets):
        page.evaluate(f"(k) => {API}.selectDataset(k)", k)
        for spec in SPECS:
            page.evaluate(f"(s) => {{ {API}.setKernel(s); {API}.run(); }}", spec)
            st = state(page)
            assert st["X"] == d["X"] and st["y"] == d["y"]
            result = library_run(st)
            assert_same_run(page, st, result)
            assert_field_matches(page, st, result)
    # the XOR corners under the linear kernel: f = 0 everywhere, as the chapter says
    page.evaluate(f"() => {{ {API}.selectDataset(1); {API}.setKernel({{kind: 'linear'}}); "
                  f"{API}.run(); }}")
    st = state(page)
    assert st["field"]["zero"] == st["cells"] ** 2
    assert page.locator(f"{SEL} path.kp-boundary").get_attribute("d") == ""
    assert "f = 0 everywhere" in page.locator(f"{SEL} svg.kp-plot").get_attribute("aria-label")
    assert page.errors == []


def test_the_chapters_numbers_come_out_on_the_page(open_page):
    # The chapter's text quotes the degree-2 run on the disc in a ring; the playground's
    # run on the same data must give the same counts.
    page = open_page()
    page.evaluate(f"() => {API}.run()")
    st = state(page)
    X, y = np.asarray(st["X"]), np.asarray(st["y"])
    ring = pl.kernel_perceptron(X, y, pl.polynomial_kernel(2), tau=100)
    assert (st["mistakes"], st["support"]) == (ring.mistakes, int(np.sum(ring.alpha > 0)))
    text = page.locator("#explore-kernels").inner_text()
    assert f"found after {ring.mistakes} updates on {int(np.sum(ring.alpha > 0))} of the " \
        f"{len(y)} points" in " ".join(text.split())


# ---------------------------------------------------------------------------------------
# Accessibility, the dark theme, and readers without JavaScript


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (1280, "dark"), (390, "dark")])
def test_axe_finds_nothing_in_the_playground(open_page, axe_source, width, scheme):
    page = open_page(width=width, scheme=scheme)
    page.evaluate(f"() => {{ {API}.selectDataset(3); {API}.setKernel({{kind: 'RBF', "
                  f"gamma: 10}}); {API}.epoch(); }}")
    page.locator(f"{SEL} details.kp-alphas summary").click()
    page.locator(f"{SEL} details.demo-help summary").click()
    found = demo_violations(page, SEL, axe_source, scheme)
    assert found == [], found  # at every impact
    assert page.locator(f"{SEL} svg.kp-plot").get_attribute("role") == "img"
    assert_demo_speaks(page, SEL)


def test_the_field_follows_the_theme(open_page):
    page = open_page()
    page.evaluate(f"() => {API}.run()")
    PIXEL = f"""() => {{
      const c = document.querySelector('{SEL} canvas.kp-field');
      const {{centres, f}} = {API}.grid();
      const q = f.indexOf(Math.max(...f)); // the strongest shade of f > 0
      const N = c.width;
      return [...c.getContext('2d').getImageData(q % N, Math.floor(q / N), 1, 1).data];
    }}"""
    light = page.evaluate(PIXEL)
    page.evaluate("() => { document.documentElement.dataset.theme = 'dark'; }")
    page.wait_for_timeout(50)
    dark = page.evaluate(PIXEL)
    assert light[3] > 0 and dark[3] > light[3]  # the dark theme shades more strongly


def test_readers_without_javascript_see_the_explorers_picture(browser, base_url):
    seen = picture_without_javascript(browser, f"{base_url}/{PAGE}",
                                      f"{SEL} .kp-fallback figure.explorer-static img")
    assert seen["count"] == 1 and seen["visible"] and seen["live"] == 0
    assert "Kernel explorer" in seen["alt"]
    assert seen["width"] > 200 and seen["height"] > 200


# ---------------------------------------------------------------------------------------
# The state in the URL, Back, the chart of epochs, the generator


def encode_state(state: dict) -> str:
    """url-state.mjs's encoding: JSON, UTF-8, base64url without padding."""
    raw = json.dumps(state, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def saved_state(page, key: str) -> dict:
    page.wait_for_timeout(300)  # writes after a step are coalesced (url-state.mjs)
    page.wait_for_function("(k) => new URL(location.href).searchParams.has(k)", arg=key)
    text = page.evaluate("(k) => new URL(location.href).searchParams.get(k)", key)
    return json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))


def kernel_epoch_rows(st: dict, result) -> list[dict]:
    """The chart's rows from the library: updates per epoch, mistakes (y f <= 0) after."""
    X, y = np.asarray(st["X"], float), np.asarray(st["y"], float)
    K = np.asarray(kernel_of(st["kernel"])(X, X))
    alpha, theta_0, rows = np.zeros(len(y)), 0.0, []
    for t in range(1, result.epochs + 1):
        ups = [u for u in result.history if u.epoch == t]
        for u in ups:
            alpha[u.index] += 1
            theta_0 += y[u.index]
        f = (alpha * y) @ K + theta_0
        rows.append({"epoch": t, "updates": len(ups), "mistakes": int(np.sum(y * f <= 0))})
    return rows


def test_a_link_restores_data_kernel_and_step(open_page, base_url):
    page = open_page()
    key = page.locator(SEL).get_attribute("id")
    assert key.startswith("kernel-playground-")
    link = {"v": 1, "d": 1, "k": "RBF", "deg": 3, "gam": 2.0, "s": 50}
    page.goto(f"{base_url}/{PAGE}?{key}={encode_state(link)}", wait_until="load")
    page.wait_for_function(LAID_OUT, timeout=LAID_OUT_MS)
    page.wait_for_function(f"() => {API}")
    page.locator(SEL).scroll_into_view_if_needed()
    page.wait_for_function(f"() => {API}.state().active")
    st = state(page)
    sets = page_datasets(page)
    assert st["X"] == sets[1]["X"] and st["kernel"]["kind"] == "RBF"
    result = library_run(st)
    made = min(50, result.epochs * len(st["y"]))  # a run that ends sooner stops there
    assert (st["kernel"]["degree"], st["kernel"]["gamma"], st["visits"]) == (3, 2.0, made)
    alpha, count = alpha_after(result, len(st["y"]), 50)
    assert st["alpha"] == alpha and st["mistakes"] == count
    assert page.locator(f"{SEL} input[type=radio][value=RBF]").is_checked()
    assert page.locator(f"{SEL} input.demo-range").nth(1).input_value() == str(GAMMAS.index(2.0))
    assert st["status"].startswith("Restored from the link")
    # a hostile one is ignored, and said
    bad = encode_state({"v": 1, "k": "sigmoid"})
    page.goto(f"{base_url}/{PAGE}?{key}={bad}", wait_until="load")
    page.wait_for_function(LAID_OUT, timeout=LAID_OUT_MS)
    page.wait_for_function(f"() => {API}")
    st = state(page)
    assert "ignored" in st["status"] and st["kernel"]["kind"] == "polynomial"
    assert page.errors == []


def test_a_slider_drag_is_one_history_entry_and_back_undoes_it(open_page):
    page = open_page()
    key = page.locator(SEL).get_attribute("id")
    length = page.evaluate("() => history.length")
    slider = page.locator(f"{SEL} input.demo-range").nth(1)  # gamma
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] * 0.5, y)
    page.mouse.down()
    for k in range(1, 8):  # a drag: many values on the way
        page.mouse.move(box["x"] + box["width"] * (0.5 + k * 0.05), y)
    page.mouse.up()
    st = state(page)
    assert st["kernel"]["kind"] == "RBF" and st["kernel"]["gamma"] > 1.0
    assert saved_state(page, key)["gam"] == st["kernel"]["gamma"]
    assert page.evaluate("() => history.length") == length + 1
    page.locator(f"{SEL} .kp-epoch").click()
    assert saved_state(page, key).get("s") == len(st["y"])
    page.go_back()
    st = state(page)
    assert st["kernel"]["kind"] == "polynomial" and st["mistakes"] == 0
    assert st["status"].startswith("Back to the start")
    assert page.errors == []


def test_the_chart_shows_the_librarys_updates_per_epoch(open_page):
    page = open_page()
    for k in range(len(page_datasets(page))):
        page.evaluate(f"(k) => {API}.selectDataset(k)", k)
        for spec in ({"kind": "polynomial", "degree": 2}, {"kind": "RBF", "gamma": 1.0}):
            page.evaluate(f"(s) => {API}.setKernel(s)", spec)
            page.evaluate(f"() => {API}.reset()")
            page.evaluate(f"() => {API}.run()")
            st = state(page)
            rows = kernel_epoch_rows(st, library_run(st))
            # (the test errors beside them are held to the library under Node)
            got = [{k: v for k, v in r.items() if k != "test"} for r in st["chart"]["rows"]]
            assert [r["updates"] for r in got] == [r["updates"] for r in rows]
            assert got == rows
            assert page.locator(f"{SEL} .ec rect.ec-bar").count() == len(rows)
    assert page.errors == []


def test_the_generators_points_are_the_librarys(open_page):
    page = open_page()
    key = page.locator(SEL).get_attribute("id")
    form = page.locator(f"{SEL} details.gf")
    form.locator("summary").click()
    form.locator("input[type=number]").last.fill("12")  # the seed
    form.locator(".gf-generate").click()
    st = state(page)
    opts = st["generator"]
    assert opts["seed"] == 12 and opts["kind"] == "xor"
    ref = pl.make_demo_data(opts["kind"], opts["n"], opts["seed"], margin=opts["margin"],
                            spread=opts["spread"], flip=opts["flip"])
    assert st["X"] == ref.X.tolist() and st["y"] == ref.y.tolist()
    assert saved_state(page, key)["g"] == opts
    page.wait_for_timeout(BURST_WAIT_MS)  # the next seed: an entry of its own in the history
    form.locator(".gf-reseed").click()
    st = state(page)
    ref = pl.make_demo_data(opts["kind"], opts["n"], 13, margin=opts["margin"],
                            spread=opts["spread"], flip=opts["flip"])
    assert st["generator"]["seed"] == 13 and st["X"] == ref.X.tolist()
    page.locator(f"{SEL} .kp-run").click()
    st = state(page)
    assert_same_run(page, st, library_run(st))
    page.go_back()
    assert state(page)["generator"]["seed"] == 12
    assert page.errors == []


def test_undo_takes_back_the_data_and_the_kernel_with_the_step(open_page):
    page = open_page()
    undo = page.locator(f"{SEL} .kp-undo")
    assert undo.get_attribute("aria-disabled") == "true"
    st0 = state(page)
    page.locator(f"{SEL} .kp-epoch").click()
    page.evaluate(f"() => {API}.generate({{kind: 'xor', n: 24, seed: 9, spread: 0.4}})")
    page.locator(f"{SEL} input[type=radio][value=RBF]").check()
    assert state(page)["undoDepth"] == 2
    undo.click()
    st = state(page)
    assert st["kernel"]["kind"] == "polynomial" and st["generator"]["seed"] == 9
    page.locator(f"{SEL} .kp-step").focus()
    page.keyboard.press("Control+z")
    st = state(page)
    assert st["X"] == st0["X"] and st["generator"] is None
    n = len(st["y"])
    assert st["visits"] == n  # the epoch made before the first change
    assert st["alpha"] == alpha_after(library_run(st), n, n)[0]
    assert st["status"].startswith("Undone: generating")
    assert undo.get_attribute("aria-disabled") == "true"
    assert page.errors == []


# ---------------------------------------------------------------------------------------
# The reader's points: mouse, keyboard, Undo and Redo, the URL, against the library

FOCUS = f"""() => {{
  const a = document.activeElement, root = document.querySelector('{SEL}');
  const pt = a && a.closest ? a.closest('.kp-pt') : null;
  return {{ inside: Boolean(a) && root.contains(a) && a !== root, body: a === document.body,
           point: pt ? Number(pt.dataset.i) : null,
           layer: Boolean(a && a.classList && a.classList.contains('kp-points')),
           label: a && a.getAttribute ? a.getAttribute('aria-label') : null }};
}}"""
MENU = (f"() => {{ const s = document.querySelector('{SEL} select.demo-dataset');"
        " return s.options[s.selectedIndex].textContent; }")


def focus_of(page) -> dict:
    return page.evaluate(FOCUS)


def started(page) -> None:
    """Once the chapter's sections are laid out, bring the playground into view and wait
    until it has started (as DemoPages.open does)."""
    page.wait_for_function(f"() => {API}")
    page.wait_for_function(LAID_OUT, timeout=LAID_OUT_MS)
    page.locator(SEL).scroll_into_view_if_needed()
    page.wait_for_function(f"() => {API}.state().active")


def open_data_set(open_page, name: str, **kw):
    page = open_page(**kw)
    page.locator(f"{SEL} select.demo-dataset").select_option(label=name)
    assert state(page)["dataset"] == name
    return page


def client_point(page, x: float, y: float) -> tuple[float, float]:
    page.locator(f"{SEL} svg.kp-points").scroll_into_view_if_needed()
    cx, cy = page.evaluate(f"([x, y]) => {API}.clientPoint(x, y)", [x, y])
    size = page.viewport_size
    assert 0 <= cx < size["width"] and 0 <= cy < size["height"], (cx, cy, size)
    return cx, cy


def click_at(page, x: float, y: float, shift: bool = False) -> None:
    cx, cy = client_point(page, x, y)
    if shift:
        page.keyboard.down("Shift")
    page.mouse.click(cx, cy)
    if shift:
        page.keyboard.up("Shift")


def free_spot(st: dict, near: tuple[float, float]) -> tuple[float, float]:
    """The spot of the view's grid within 0.4 of ``near`` farthest from every point."""
    X = np.asarray(st["X"], float)
    inv = round(1 / st["view"]["snap"])
    best = None
    for i in range(-4, 5):
        for j in range(-4, 5):
            p = (round(near[0] * inv) + i) / inv, (round(near[1] * inv) + j) / inv
            far = float(np.min(np.hypot(X[:, 0] - p[0], X[:, 1] - p[1])))
            if best is None or far > best[0]:
                best = (far, p)
    assert best[0] > 0.2, best  # clear of the points' targets
    return best[1]


def held_out(page, name: str) -> tuple[np.ndarray, np.ndarray]:
    d = next(d for d in page_datasets(page) if d["name"] == name)
    return np.asarray(d["X_test"], float), np.asarray(d["y_test"], float)


def assert_the_library_on_the_edited_data(page, name: str) -> None:
    """Run to the end: the run, the field, the chart and the held-out test errors are
    the library's on the data as the reader left them (the test set as it was)."""
    page.keyboard.press("r")
    st = state(page)
    result = library_run(st)
    assert_same_run(page, st, result)
    assert_field_matches(page, st, result)
    assert [{k: v for k, v in r.items() if k != "test"}
            for r in st["chart"]["rows"]] == kernel_epoch_rows(st, result)
    Xt, yt = held_out(page, name)
    assert st["testSize"] == len(yt) == 100
    assert st["testErrors"] == int(np.sum(pl.kernel_predict(result, Xt) != yt))
    row = page.locator(f"{SEL} .kp-row-errors dd").inner_text()
    assert row.endswith(f"held out: {st['testErrors']} of 100"), row


def test_a_click_adds_a_point_of_the_chosen_label_and_the_run_starts_again(open_page):
    name = "XOR clouds"
    page = open_data_set(open_page, name)
    page.locator(f"{SEL} label.demo-radio", has_text="RBF").click()
    page.locator(f"{SEL} button.kp-epoch").click()
    st0 = state(page)
    assert st0["mistakes"] > 0 and not st0["done"] and not st0["custom"]

    # a -1 point in the middle of the +1 cloud round (1, 1), by a Shift-click
    spot = free_spot(st0, (1.0, 1.0))
    click_at(page, *spot, shift=True)
    st = state(page)
    n = len(st0["X"]) + 1
    assert st["X"] == st0["X"] + [list(spot)] and st["y"] == st0["y"] + [-1]
    assert st["custom"] and page.evaluate(MENU) == f"{name} (edited)"
    # the run starts again from alpha = 0, and so does the picture
    assert (st["mistakes"], st["visits"], st["epoch"]) == (0, 0, 1)
    assert st["alpha"] == [0.0] * n and st["field"]["zero"] == st["cells"] ** 2
    assert page.locator(f"{SEL} circle.kp-support").count() == 0
    assert st["status"].startswith(f"Added example {n} at ")
    assert st["status"].endswith("the run starts again from \u03b1 = 0.")
    assert focus_of(page)["label"] == (
        f"Example {n} at ({spot[0]:g}, {spot[1]:g}), label \u22121").replace("-", "\u2212")
    assert_the_library_on_the_edited_data(page, name)

    # the label chosen for new points: -1; a plain click adds -1, a Shift-click +1.  The
    # run had ended: an edit starts it again and takes it to its end at once.
    page.locator(f"{SEL} .kp-labels label.demo-radio", has_text="\u22121").click()
    st = state(page)
    assert st["label"] == -1 and st["done"]
    a, b = free_spot(st, (-1.0, -1.0)), free_spot(st, (1.0, -1.0))
    click_at(page, *a)
    st = state(page)
    assert st["X"][-1] == list(a) and st["y"][-1] == -1
    assert st["done"] and "goes to its end" in st["status"]
    result = library_run(st)
    assert_same_run(page, st, result)
    assert_field_matches(page, st, result)
    click_at(page, *b, shift=True)
    st = state(page)
    assert st["X"][-2:] == [list(a), list(b)] and st["y"][-2:] == [-1, 1]
    assert st["done"] and st["undoDepth"] >= 3
    assert_the_library_on_the_edited_data(page, name)
    assert page.errors == []


def test_a_drag_moves_a_point_as_one_edit_and_undo_takes_it_back(open_page):
    page = open_data_set(open_page, "XOR corners")
    page.locator(f"{SEL} button.kp-run").click()
    st0 = state(page)
    assert st0["X"][0] == [1, 1] and st0["converged"]
    page.wait_for_timeout(BURST_WAIT_MS)  # the drag is an entry of its own
    length = page.evaluate("() => history.length")
    drag(page, client_point(page, 1, 1), client_point(page, 0.5, 1.5))  # many moves, one edit
    st = state(page)
    assert st["X"][0] == [0.5, 1.5] and st["X"][1:] == st0["X"][1:] and st["y"] == st0["y"]
    assert st["undoDepth"] == st0["undoDepth"] + 1  # one edit, however many moves
    assert st["custom"] and page.evaluate("() => history.length") == length + 1
    assert "moved to (0.5, 1.5); the run starts again and goes to its end" in st["status"]
    assert focus_of(page)["point"] == 0  # the dragged point has the focus
    # the run had ended: it ran again on the moved point, to its end, as the library's
    result = library_run(st)
    assert st["done"] and [(h["epoch"], h["index"]) for h in st["history"]] == [
        (u.epoch, u.index) for u in result.history]
    assert_same_run(page, st, result)
    assert_field_matches(page, st, result)

    page.keyboard.press("Control+z")
    st = state(page)
    assert st["X"] == st0["X"] and not st["custom"] and st["undoDepth"] == st0["undoDepth"]
    assert page.evaluate(MENU) == "XOR corners"
    assert st["visits"] == st0["visits"] and st["alpha"] == st0["alpha"]  # the run as it was
    f = focus_of(page)
    assert f["inside"] and not f["body"] and f["point"] == 0, f
    assert page.errors == []


def test_tab_reaches_each_point_and_keys_edit_the_focused_one(open_page):
    page = open_data_set(open_page, "XOR clouds")
    st0 = state(page)
    n = len(st0["X"])
    assert n == 40  # up to 40 points, each is a Tab stop of its own
    page.locator(f"{SEL} .demo-speed").focus()
    for i in range(n):
        page.keyboard.press("Tab")
        f = focus_of(page)
        x = st0["X"][i]
        want = (f"Example {i + 1} at ({float(f'{x[0]:.3g}'):g}, {float(f'{x[1]:.3g}'):g}), "
                f"label {'+1' if st0['y'][i] > 0 else '-1'}")
        assert f["point"] == i and f["label"] == want.replace("-", "\u2212"), (i, f)
    page.keyboard.press("Tab")
    assert focused(page) == "The values"

    # Delete removes the focused point; the focus goes to the one now in its place
    page.keyboard.press("Shift+Tab")
    for _ in range(37):
        page.keyboard.press("Shift+Tab")
    assert focus_of(page)["point"] == 2
    page.keyboard.press("Delete")
    st = state(page)
    assert st["X"] == st0["X"][:2] + st0["X"][3:] and st["y"] == st0["y"][:2] + st0["y"][3:]
    assert st["mistakes"] == 0 and page.evaluate(MENU) == "XOR clouds (edited)"
    assert focus_of(page)["point"] == 2 and "Removed example 3" in st["status"]
    # Enter flips the label, the arrow keys move the point (Shift: by a grid step)
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+ArrowDown")
    st = state(page)
    view = st["view"]
    x, y = st0["X"][3]
    inv = round(1 / view["snap"])
    assert st["y"][2] == -st0["y"][3]
    down = round((round(y * inv) / inv - view["step"]) * inv) / inv
    assert st["X"][2] == [round(x * inv + 1) / inv, down]
    assert focus_of(page)["point"] == 2
    # n and Shift+N go along the points; a adds one in the middle
    page.keyboard.press("n")
    assert focus_of(page)["point"] == 3
    page.keyboard.press("Shift+N")
    page.keyboard.press("Shift+N")
    assert focus_of(page)["point"] == 1
    page.keyboard.press("a")
    st = state(page)
    mid = [round((view["x0"] + view["x1"]) / 2 * inv) / inv,
           round((view["y0"] + view["y1"]) / 2 * inv) / inv]
    assert st["X"][-1] == mid and st["y"][-1] == 1 and focus_of(page)["point"] == n - 1
    assert_the_library_on_the_edited_data(page, "XOR clouds")

    # Ctrl+Z takes back one edit at a time; the focus stays in the playground
    depth = st["undoDepth"]
    page.keyboard.press("Control+z")  # the point added by a: gone, the focus on the plot
    st = state(page)
    assert len(st["X"]) == n - 1 and st["undoDepth"] == depth - 1
    f = focus_of(page)
    assert f["inside"] and not f["body"] and f["layer"], f
    page.keyboard.press("Control+z")  # the moves by the arrow keys (one edit)
    page.keyboard.press("Control+z")  # the flip
    st = state(page)
    assert st["X"][2] == st0["X"][3] and st["y"][2] == st0["y"][3]
    page.keyboard.press("Control+z")  # the deletion
    st = state(page)
    assert st["X"] == st0["X"] and st["y"] == st0["y"] and not st["custom"]
    assert page.evaluate(MENU) == "XOR clouds"
    f = focus_of(page)
    assert f["inside"] and not f["body"], f
    # Redo puts the edits back, with the focus still in the playground
    page.keyboard.press("Control+Shift+z")
    st = state(page)
    assert len(st["X"]) == n - 1 and st["custom"] and st["redoDepth"] == 3
    f = focus_of(page)
    assert f["inside"] and not f["body"], f
    page.locator(f"{SEL} .kp-redo").click()
    assert state(page)["y"][2] == -st0["y"][3]
    assert page.errors == []


def test_the_address_keeps_the_readers_points(open_page, browser, base_url):
    name = "XOR clouds, 10% flipped"
    page = open_data_set(open_page, name)
    key = page.locator(SEL).get_attribute("id")
    page.locator(f"{SEL} label.demo-radio", has_text="RBF").click()
    page.wait_for_timeout(BURST_WAIT_MS)
    length = page.evaluate("() => history.length")
    st = state(page)
    spots = [free_spot(st, (-1.0, 1.0)), free_spot(st, (1.0, -1.0))]
    click_at(page, *spots[0])  # a burst of edits: one entry of the browser's history
    click_at(page, *spots[1], shift=True)
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => history.length") == length + 1
    page.keyboard.press("e")
    st = state(page)
    saved = saved_state(page, key)
    assert saved["p"] == [[*x, y] for x, y in zip(st["X"], st["y"], strict=True)]
    assert (saved["k"], saved["d"], saved["s"]) == ("RBF", 3, len(st["X"]))

    # the address, opened elsewhere, restores the same points, kernel and step
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        other = ctx.new_page()
        other.goto(page.url, wait_until="load")
        started(other)
        got = state(other)
        assert (got["X"], got["y"], got["kernel"]) == (st["X"], st["y"], st["kernel"])
        assert (got["alpha"], got["visits"]) == (st["alpha"], st["visits"])
        assert got["custom"] and got["status"].startswith("Restored from the link")
        assert other.evaluate(MENU) == f"{name} (edited)"
        other.evaluate(f"() => {API}.run()")
        assert_the_library_on_the_edited_data(other, name)
        # a link whose points are not [x1, x2, +1 or -1] is ignored, and said
        bad = encode_state({"v": 1, "d": 3, "p": [[0, 0, 2]]})
        other.goto(f"{base_url}/{PAGE}?{key}={bad}", wait_until="load")
        other.wait_for_function(f"() => {API}")
        got = state(other)
        assert "ignored" in got["status"] and not got["custom"]
    finally:
        ctx.close()

    # Back leaves the burst of edits: the data as they were before it
    page.go_back()
    st = state(page)
    assert not st["custom"] and st["kernel"]["kind"] == "RBF"
    assert st["X"] == page_datasets(page)[3]["X"]
    assert page.errors == []
