"""The demos can be read everywhere: the score's shading and its legend, the points' tooltips,
chapter 3's best separator and its labels kept apart, the chart's legend, the book's symbols.

Every demo that draws a boundary shades the plane by the current score on a diverging
scale (``book/_demos/kit/score-shade.mjs``) and says so in a legend that also shows the
dashed ring; hovering or focusing a point shows its index, label, score, margin and whether
the next update would happen on it (``point-tip.mjs``; ``tests/test_point_tip_core.py``
holds the numbers to the library); the chart of epochs keeps every legend entry whole;
no demo shows a symbol in its raw typed form.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from harness import DemoPages

import perceptron_lib as pl

# chapter: page, the demo's element, its API, what is true once it has started
DEMOS = {
    "1": ("book/01_algorithm.html", "div.perceptron-playground", "perceptronPlayground", "state"),
    "2": ("book/02_offset.html", "div.offset-demo", "offsetDemo", "state().active"),
    "3": ("book/03_margin.html", "div.perceptron-playground", "perceptronPlayground", "state"),
    "4": ("book/04_convergence.html", "div.perceptron-playground", "perceptronPlayground",
          "state"),
    "5": ("book/05_spam.html", "div.spam-demo", "spamDemo", "state"),
    "6": ("book/06_variants.html", "div.kernel-playground", "kernelPlayground",
          "state().active"),
    "7": ("book/07_beyond.html", "div.margin-demo", "marginDemo", "snapshot().active"),
}
BOUNDARY = ["1", "2", "3", "4", "6", "7"]  # the demos that draw a boundary
POINT = {"1": "g.pg-pt", "2": "g.od-pt", "3": "g.pg-pt", "4": "g.pg-pt", "6": "g.kp-pt",
         "7": "g.md-pt"}


def api(ch: str) -> str:
    _, sel, name, _ = DEMOS[ch]
    return f"document.querySelector('{sel}').{name}"


def demo_pages(browser, ch: str) -> DemoPages:
    """The pages of chapter ch's demo; chapter 5's has its API once it is live (in view)."""
    sel, active = DEMOS[ch][1], DEMOS[ch][3]
    if ch != "5":
        return DemoPages(browser, api(ch), sel, f"{api(ch)}.{active}")
    root = f"document.querySelector('{sel}')"
    return DemoPages(browser, root, sel, f"{root}.dataset.state === 'live'")


@pytest.fixture
def open_demo(browser, base_url):
    """open_demo(ch, **options): chapter ch's page, its demo in view and started."""
    opened = {}
    yield lambda ch, **options: opened.setdefault(ch, demo_pages(browser, ch)).open(
        f"{base_url}/{DEMOS[ch][0]}", **options)
    for pages in opened.values():
        pages.close()


def number(text: str) -> float:
    return float(text.replace("\u2212", "-"))


# ---------------------------------------------------------------------------------------
# The score's shading and the legends

OUTSIDE = """([sel, part, box]) => {
  const bad = [];
  for (const holder of document.querySelectorAll(`${sel} ${box}`)) {
    const b = holder.getBoundingClientRect();
    for (const e of holder.querySelectorAll(part)) {
      if (e.closest('[hidden]') || !e.getClientRects().length) continue;
      const r = e.getBoundingClientRect();
      const inside = r.left >= b.left - 0.5 && r.right <= b.right + 0.5 &&
        r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5;
      const whole = e.scrollWidth <= e.clientWidth + 1 || !e.clientWidth;
      if (!inside || !whole) bad.push(e.textContent.trim() || e.className);
    }
  }
  return bad;
}"""


@pytest.mark.parametrize("width", [1366, 390])
@pytest.mark.parametrize("ch", ["1", "6", "7"])
def test_every_entry_of_the_chart_legend_is_whole(open_demo, ch, width):
    page = open_demo(ch, width=width, height=800)
    page.evaluate(f"() => {api(ch)}.run()")
    sel = DEMOS[ch][1]
    shown = page.evaluate(f"""() => [...document.querySelectorAll('{sel} .ec-caption .ec-entry')]
        .filter(e => !e.closest('[hidden]')).map(e => e.textContent)""")
    assert len(shown) >= 2, shown
    for box in (".ec-caption", "figure.ec"):
        assert page.evaluate(OUTSIDE, [sel, ".ec-entry", box]) == [], box
    # the dashed line of the test errors has its entry once the data have a test set
    has_test = page.evaluate(
        f"() => !!document.querySelector('{sel} polyline.ec-test').getAttribute('points')")
    if has_test:
        assert any(t.startswith("test errors") for t in shown), shown
    assert page.errors == []


@pytest.mark.parametrize("width", [1366, 390])
@pytest.mark.parametrize("ch", BOUNDARY)
def test_the_plane_is_shaded_by_the_score_with_a_legend(open_demo, ch, width):
    page = open_demo(ch, width=width, height=800)
    page.evaluate(f"() => {api(ch)}.run()")
    sel = DEMOS[ch][1]
    key = page.evaluate(f"""() => {{
      const k = document.querySelector('{sel} .demo-legend .ss-legend');
      return k && {{name: k.querySelector('.ss-name').textContent,
                    lo: k.querySelector('.ss-end-neg').textContent,
                    hi: k.querySelector('.ss-end-pos').textContent,
                    dashed: !!document.querySelector(
                      '{sel} .demo-legend :is(.demo-key-ring-dashed, .od-key-wrong)')}};
    }}""")
    assert key is not None and key["name"].startswith(("score", "sliders"))
    assert key["hi"].startswith("+") and number(key["hi"]) > 0
    assert number(key["lo"]) == -number(key["hi"])  # a symmetric scale
    assert key["dashed"], "the legend shows the dashed ring"
    if ch == "6":
        alpha = page.evaluate(f"""() => {{
          const c = document.querySelector('{sel} canvas.kp-field');
          const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          const a = new Set(); for (let k = 3; k < d.length; k += 4) a.add(d[k]); return a.size;
        }}""")
        assert alpha > 10  # many levels of the scale, not two flat colours
    else:
        assert page.evaluate(f"""() => [...document.querySelectorAll('{sel} rect.ss-shade')]
            .some(r => r.getAttribute('visibility') !== 'hidden')""")
    # every entry of the demo's legend is whole, inside the legend
    assert page.evaluate(OUTSIDE, [sel, ":scope > span", ".demo-legend"]) == []
    assert page.errors == []


# ---------------------------------------------------------------------------------------
# The tooltips

TIP = """(sel) => {
  const t = document.querySelector(`${sel} .demo-tip`);
  const a = document.activeElement;
  return {shown: !t.hidden && t.getClientRects().length > 0, id: t.id, role: t.getAttribute('role'),
          lines: [...t.querySelectorAll('.demo-tip-line')].map(s => s.textContent),
          describedBy: a ? a.getAttribute('aria-describedby') : null};
}"""


def check_lines(lines, i, label, score, margin, update):
    assert lines[0] == f"Example {i + 1}, label {'+1' if label > 0 else chr(0x2212) + '1'}"
    assert not any(re.search(r"(^|[\s(=])-\d", t) for t in lines), lines  # a minus sign
    got = number(lines[1].rsplit("= ", 1)[1])
    assert got == pytest.approx(score, rel=1e-3, abs=1e-9), lines
    if margin is None:
        assert "none" in lines[2]
    else:
        assert number(lines[2].rsplit("= ", 1)[1]) == pytest.approx(margin, rel=1e-3, abs=1e-9)
    assert lines[3].startswith("update on it: yes" if update else "update on it: no")


@pytest.mark.parametrize("ch", ["1", "2", "4"])
def test_a_focused_point_tells_its_score_margin_and_update(open_demo, ch, axe_source):
    page = open_demo(ch)
    for _ in range(3):
        page.evaluate(f"() => {api(ch)}.step()")
    sel = DEMOS[ch][1]
    page.locator(f"{sel} {POINT[ch]}").nth(1).focus()
    tip = page.evaluate(TIP, sel)
    assert tip["shown"] and tip["role"] == "tooltip" and tip["describedBy"] == tip["id"], tip
    st = page.evaluate(f"() => {api(ch)}.state()")
    X, y = np.array(st["X"], dtype=float), np.array(st["y"], dtype=float)
    theta = np.array(st["theta"], dtype=float)
    theta0 = float(st["theta0"] if "theta0" in st else st.get("theta_0", 0.0))
    score = float(X[1] @ theta + theta0)
    margin = None if not theta.any() else float(pl.point_margins(X, y, theta, theta0)[1])
    check_lines(tip["lines"], 1, y[1], score, margin, y[1] * score <= 0)
    # the same numbers are the focused point's description, and axe finds nothing serious
    page.add_script_tag(content=axe_source)
    found = page.evaluate("""async (sel) => (await axe.run(document.querySelector(sel),
        {resultTypes: ['violations']})).violations.map(v => [v.id, v.impact])""", sel)
    assert not [v for v in found if v[1] in ("serious", "critical")], found
    page.keyboard.press("Escape")
    assert not page.evaluate(TIP, sel)["shown"]
    assert page.errors == []


def test_the_kernel_playground_tells_f_and_the_margin_in_feature_space(open_demo):
    page = open_demo("6")
    page.evaluate(f"() => {api('6')}.run()")
    sel = DEMOS["6"][1]
    page.locator(f"{sel} g.kp-pt").nth(2).focus()
    tip = page.evaluate(TIP, sel)
    assert tip["shown"] and tip["describedBy"] == tip["id"]
    assert tip["lines"][1].startswith("score f(x) = ")
    assert "\u2016\u03b8\u2016" in tip["lines"][2]
    assert page.errors == []


def test_hovering_a_point_of_chapter_7_tells_its_update_against_mu(open_demo):
    page = open_demo("7")
    page.evaluate(f"() => {{ {api('7')}.setState({{mu: 0.5}}); {api('7')}.step(); "
                  f"{api('7')}.step(); }}")
    sel = DEMOS["7"][1]
    box = page.locator(f"{sel} g.md-pt").nth(3).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tip = page.evaluate(TIP, sel)
    assert tip["shown"], tip
    assert tip["lines"][0].startswith("Example 4, label")
    assert "\u03bc = 0.5" in tip["lines"][3], tip["lines"]
    page.mouse.move(2, 2)
    assert not page.evaluate(TIP, sel)["shown"]
    assert page.errors == []


# ---------------------------------------------------------------------------------------
# Chapter 3: the best margin and its separator; the labels kept apart

def test_chapter_3_shows_gamma_opt_and_its_separator_until_the_data_change(open_demo):
    page = open_demo("3")
    sel = DEMOS["3"][1]
    st = page.evaluate(f"() => {api('3')}.state()")
    best = pl.max_margin(np.array(st["X"]), np.array(st["y"]))
    assert st["gammaOpt"] == pytest.approx(best.gamma, rel=1e-9)
    page.evaluate(f"() => {api('3')}.step()")
    opt_line = f"() => document.querySelector('{sel} line.pg-opt').getAttribute('visibility')"
    assert page.evaluate(opt_line) != "hidden"
    note = page.locator(f"{sel} .pg-opt-note")
    assert "\u03b3opt = " in note.text_content().replace("\u2009", "")
    assert note.locator("sub").text_content() == "opt"
    x, y = page.evaluate(f"() => {api('3')}.clientPoint(0.05, 0.05)")
    page.mouse.click(x, y)  # an edit: the library's gamma_opt no longer applies
    assert page.evaluate(f"() => {api('3')}.state().gammaOpt") is None
    assert page.evaluate(opt_line) == "hidden"
    assert "not for edited" in note.text_content()
    page.evaluate(f"() => {api('3')}.undo()")
    assert page.evaluate(f"() => {api('3')}.state().gammaOpt") == pytest.approx(best.gamma)
    assert page.errors == []


BOXES = """(sel) => {
  const root = document.querySelector(sel);
  const shown = (t) => t.getAttribute('visibility') !== 'hidden' && t.textContent.trim() &&
    t.getClientRects().length;
  const labels = [...root.querySelectorAll('text.pg-mlabel, text.pg-idx')].filter(shown)
    .map(t => { const r = t.getBoundingClientRect();
                return [t.textContent, r.left, r.top, r.right, r.bottom]; });
  const marks = [...root.querySelectorAll('.pg-mark')]
    .map(m => { const r = m.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; });
  const all = root.querySelectorAll('text.pg-mlabel, text.pg-idx').length;
  return {labels, marks, all};
}"""


def meet(p, q, tol=0.5) -> bool:
    """Whether the boxes [left, top, right, bottom] p and q overlap (more than tol px)."""
    return p[0] < q[2] - tol and q[0] < p[2] - tol and p[1] < q[3] - tol and q[1] < p[3] - tol


@pytest.mark.parametrize("width", [1366, 390])
def test_chapter_3_labels_do_not_overlap_on_dense_data(open_demo, width):
    page = open_demo("3", width=width, height=800)
    rng = np.random.default_rng(7)
    X = np.round(rng.normal(0, 0.6, size=(36, 2)), 1)
    y = np.where(X[:, 0] + 0.3 * X[:, 1] > 0, 1, -1)
    page.evaluate(f"([X, y]) => {{ {api('3')}.setData(X, y, 'dense'); "
                  f"for (let k = 0; k < 50; k++) {api('3')}.step(); }}", [X.tolist(), y.tolist()])
    got = page.evaluate(BOXES, DEMOS["3"][1])
    labels = got["labels"]
    assert len(labels) >= 20, len(labels)  # most labels find a place
    for a in range(len(labels)):
        for b in range(a + 1, len(labels)):
            assert not meet(labels[a][1:], labels[b][1:]), (labels[a], labels[b])
        for m in got["marks"]:
            assert not meet(labels[a][1:], m), (labels[a], m)
    assert page.errors == []


# ---------------------------------------------------------------------------------------
# The book's symbols, in what every demo shows and says

RAW = [
    (re.compile(r"\u03b3_c|R_c|\u03b3_opt|gamma_opt|theta_0|theta0"), "a typed subscript"),
    (re.compile(r"\btheta\b"), "theta for \u03b8"),
    (re.compile(r"(^|[\s(=,:/])-1\b"), "an ASCII minus one"),
    (re.compile(r"\bgamma\b", re.I), "gamma for \u03b3"),
    (re.compile(r"\bpass(es)?\b", re.I), "pass for epoch"),
]

TEXTS = """(sel) => {
  const root = document.querySelector(sel);
  const out = [root.innerText || root.textContent];
  for (const e of [root, ...root.querySelectorAll('[aria-label], [alt], [title]')]) {
    for (const a of ['aria-label', 'alt', 'title']) {
      if (e.getAttribute(a)) out.push(e.getAttribute(a));
    }
  }
  for (const d of root.querySelectorAll('desc, title, option, .demo-sr-only')) {
    out.push(d.textContent);
  }
  return out;
}"""


def raw_forms(texts: list[str]) -> list[tuple[str, str]]:
    return [(why, t[max(0, m.start() - 30):m.end() + 30]) for t in texts for rx, why in RAW
            for m in rx.finditer(t)]


@pytest.mark.parametrize("ch", list(DEMOS))
def test_no_demo_shows_a_raw_symbol(open_demo, ch):
    page = open_demo(ch)
    sel = DEMOS[ch][1]
    texts = page.evaluate(TEXTS, sel)
    if ch != "5":
        page.evaluate(f"() => {api(ch)}.step()")
        texts += page.evaluate(TEXTS, sel)
        page.evaluate(f"() => {api(ch)}.run()")
        texts += page.evaluate(TEXTS, sel)
        box = page.locator(f"{sel} {POINT[ch]}").first.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        texts += page.evaluate(TEXTS, sel)
    hits = raw_forms(texts)
    assert not hits, "\n".join(map(repr, sorted(set(hits))))
    assert page.errors == []


@pytest.mark.parametrize("ch", list(DEMOS))
def test_no_fallback_picture_shows_a_raw_symbol(browser, base_url, ch):
    ctx = browser.new_context(java_script_enabled=False)
    try:
        page = ctx.new_page()
        page.goto(f"{base_url}/{DEMOS[ch][0]}", wait_until="load")
        texts = page.evaluate(TEXTS, DEMOS[ch][1])
        assert any(t.strip() for t in texts), "the fallback is there"
        hits = raw_forms(texts)
        assert not hits, "\n".join(map(repr, sorted(set(hits))))
    finally:
        ctx.close()


# ---------------------------------------------------------------------------------------
# A phone and the dark theme, for the demos test_site_play.py leaves out (chapters 3, 4, 5)

SMALLEST_TEXT = """(sel) => {
    let smallest = [Infinity, ''];
    for (const t of document.querySelector(sel).querySelectorAll('svg text')) {
        if (!t.getClientRects().length || !t.textContent.trim()) continue;
        if (t.getAttribute('visibility') === 'hidden' || t.closest('[visibility=hidden]')) continue;
        const px = parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a;
        if (px < smallest[0]) smallest = [px, t.getAttribute('class') || t.textContent];
    }
    return smallest;
}"""

CLIPPED_STATUS = """(sel) => [...document.querySelectorAll(`${sel} .demo-status`)]
  .filter(s => s.scrollHeight > s.clientHeight + 1 || s.scrollWidth > s.clientWidth + 1 ||
               getComputedStyle(s).textOverflow === 'ellipsis')
  .map(s => s.textContent)"""


@pytest.mark.parametrize("ch", ["3", "4"])
def test_on_a_phone_chapters_3_and_4_write_no_label_under_11_px(open_demo, ch):
    page = open_demo(ch, width=390, height=844)
    page.evaluate(f"() => {{ {api(ch)}.step(); {api(ch)}.step(); }}")
    px, what = page.evaluate(SMALLEST_TEXT, DEMOS[ch][1])
    assert 11 <= px < 100, (what, px)
    page.evaluate(f"() => {api(ch)}.run()")
    px, what = page.evaluate(SMALLEST_TEXT, DEMOS[ch][1])
    assert 11 <= px < 100, (what, px)
    assert page.errors == []


@pytest.mark.parametrize("ch", list(DEMOS))
def test_on_a_phone_the_status_line_grows_with_its_sentence(open_demo, ch):
    page = open_demo(ch, width=390, height=844)
    if ch != "5":
        page.evaluate(f"() => {{ {api(ch)}.step(); {api(ch)}.run(); }}")
    assert page.evaluate(CLIPPED_STATUS, DEMOS[ch][1]) == []
    assert page.errors == []


@pytest.mark.parametrize("ch", ["3", "4", "5"])
def test_in_the_dark_theme_no_light_frame_surrounds_the_demo(open_demo, ch):
    page = open_demo(ch, scheme="dark")
    around = page.evaluate(f"""() => {{
        const root = document.querySelector('{DEMOS[ch][1]}');
        const out = root.closest('.output') || root.parentElement, cs = getComputedStyle(out);
        return [cs.backgroundColor, cs.paddingLeft, getComputedStyle(root).backgroundColor];
    }}""")
    assert around[0] == "rgba(0, 0, 0, 0)" and around[1] == "0px", around
    assert around[2] != "rgb(255, 255, 255)", around
