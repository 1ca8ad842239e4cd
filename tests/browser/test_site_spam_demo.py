"""Chapter 5's message demo in a real browser: typing, keys, and the library's numbers.

The demo (book/_demos/spam, written into the page by perceptron_lib.demos.spam) runs in
the reader's browser.  These tests type messages the way a reader does and compare the
counts, features, score, verdict and star it shows with what perceptron_lib computes
for the same text; they also check that the demo carries the chapter's trained
perceptron, starts only when it scrolls into view without moving the page, works from
the keyboard, and passes axe-core's checks in both themes.
"""

from __future__ import annotations

import base64
import json

import pytest
from harness import demo_violations, load, picture_without_javascript

import perceptron_lib as pl
from perceptron_lib.demos.spam import EMPTY_PROMPT, SpamModel, feature_cells, score_text

PAGE = "book/05_spam.html"
SEL = "div.spam-demo"
STATE = f"() => document.querySelector('{SEL}').spamDemo.state()"
MESSAGES = [
    "FREE entry!!! Text WIN to 80086 now",
    "see you at 7, bring the notes",
    "URGENT: your account 4421 is LOCKED. Call 0800 555 0101!",
    "Call me at 5 PM, I have 2 NEW ideas!",
    "ΚΑΛΗΜΕΡΑ κόσμε! Ünïcödé ÉTÉ ٠١٢ ３４ x² ①",
    "WIN 🎉🔥 NOW!!! 👩‍💻 E\u0301TE\u0301 e\u0301",
    "1234567890 a",  # x2 = 10: outside the plot
]


def chapter_model() -> tuple[SpamModel, list, list]:
    """The chapter's two-feature perceptron, recomputed here as chapter 5 computes it."""
    ex = pl.spam_messages()
    X2 = pl.spam_feature_matrix(list(ex.messages))[:, :2]
    r2 = pl.perceptron(X2, ex.y, tau=1000)
    return SpamModel.make(r2.theta, r2.theta_0, (0, 1)), X2.tolist(), ex.y.tolist()


@pytest.fixture
def demo(context, base_url):
    page = context.new_page()
    rec = load(page, f"{base_url}/{PAGE}")
    page.rec = rec
    return page


def start(page) -> None:
    page.locator(SEL).scroll_into_view_if_needed()
    page.wait_for_function(f"() => document.querySelector('{SEL}').dataset.state === 'live'")


def config(page) -> dict:
    return json.loads(page.locator(SEL).get_attribute("data-config"))


def shown(page) -> dict:
    """What the reader sees: the table's cells, the score and verdict lines, the star."""
    return page.evaluate(f"""() => {{
      const root = document.querySelector('{SEL}');
      const rows = [0, 1, 2].map((k) => root.querySelector('tr.sd-row-' + k));
      const star = root.querySelector('.sd-star');
      return {{
        cells: rows.map((r) => [r.querySelector('.sd-count').textContent,
                                r.querySelector('.sd-value').textContent]),
        score: root.querySelector('.sd-score').textContent,
        verdict: root.querySelector('.sd-verdict').textContent,
        star: star.hasAttribute('hidden') ? null : star.getAttribute('transform'),
        outside: star.classList.contains('sd-outside'),
        title: root.querySelector('svg.sd-plane').getAttribute('aria-label'),
      }};
    }}""")


def expected_star(cfg: dict, x: float, y: float) -> tuple[float, float, bool]:
    box, (x0, x1), (y0, y1) = cfg["box"], cfg["xlim"], cfg["ylim"]
    u = box["left"] + (x - x0) / (x1 - x0) * (box["right"] - box["left"])
    v = box["bottom"] - (y - y0) / (y1 - y0) * (box["bottom"] - box["top"])
    u = min(max(u, box["left"] + 6), box["right"] - 6)
    v = min(max(v, box["top"] + 6), box["bottom"] - 6)
    return u, v, not (x0 <= x <= x1 and y0 <= y <= y1)


def assert_shows_the_library(page, message: str, model: SpamModel) -> None:
    st = page.evaluate(STATE)
    assert st["message"] == message
    seen = shown(page)
    if not pl.tokenize(message):
        assert st["counts"] is None and st["verdict"] is None
        assert seen["verdict"] == EMPTY_PROMPT and seen["star"] is None
        assert seen["cells"] == [["\u2014", "\u2014"]] * 3
        return
    c = pl.count_message(message)
    x = pl.spam_features(message)
    assert st["counts"] == {"words": c.words, "capsWords": c.caps_words,
                            "otherWords": c.other_words, "digits": c.digits,
                            "numbers": c.numbers, "exclamations": c.exclamations}
    assert st["features"] == x.tolist()
    assert st["score"] == model.score(x)
    assert st["verdict"] == model.verdict(x) == pl.predict(x[None, :2], model.theta,
                                                           model.theta_0)[0]
    assert seen["cells"] == [list(cell) for cell in feature_cells(c)]
    assert seen["score"].endswith(f"= {score_text(model.score(x))}")
    assert seen["verdict"] == ("verdict: spam" if model.verdict(x) > 0 else "verdict: not spam")
    u, v, outside = expected_star(config(page), x[0], x[1])
    assert seen["star"] == f"translate({u:.2f} {v:.2f})"
    assert seen["outside"] == outside
    assert f"({x[0]:.3f}, {x[1]:.3f})" in seen["title"]


def test_the_demo_carries_the_chapters_perceptron_and_plot(demo):
    model, X2, y = chapter_model()
    cfg = config(demo)
    assert cfg["columns"] == [0, 1]
    assert cfg["theta"] == model.theta.tolist() and cfg["theta0"] == model.theta_0
    assert "mean" not in cfg and "scale" not in cfg  # the chapter's r2 is on raw features
    assert (cfg["xlim"], cfg["ylim"]) == ([-0.1, 0.6], [-0.05, 1.1])  # fig-ch5-2d's axes
    ex = pl.spam_messages()
    assert cfg["examples"] == [ex.test_message, *ex.messages]
    # the four training messages are drawn, numbered, with their labels' shapes
    assert demo.locator(f"{SEL} svg .sd-pos").count() == sum(v > 0 for v in y)
    assert demo.locator(f"{SEL} svg .sd-neg").count() == sum(v < 0 for v in y)
    assert demo.locator(f"{SEL} svg .sd-index").all_text_contents() == ["1", "2", "3", "4"]
    # each at its place in the plane: the path of its + or - starts 7 units left of it
    marks = demo.locator(f"{SEL} svg .sd-pos, {SEL} svg .sd-neg")
    for k, (row, label) in enumerate(zip(X2, y, strict=True)):
        mark = marks.nth(k)
        assert mark.get_attribute("class") == ("sd-pos" if label > 0 else "sd-neg")
        u, v = (float(t) for t in mark.get_attribute("d")[1:].split("h")[0].split(","))
        eu, ev, outside = expected_star(cfg, row[0], row[1])
        assert not outside
        assert (u, v) == pytest.approx((eu - 7, ev), abs=0.006)


def test_starts_when_scrolled_into_view_without_moving_anything(demo):
    root = demo.locator(SEL)
    assert root.get_attribute("data-state") == "waiting"
    # before the start the demo's markup already shows, for the chapter's test message
    assert demo.locator(f"{SEL} .spam-demo-fallback").is_hidden()
    assert demo.locator(f"{SEL} .spam-demo-live").is_visible()
    before = demo.evaluate(f"""() => {{
      const r = document.querySelector('{SEL}').getBoundingClientRect();
      const next = document.querySelector('{SEL}').closest('.cell').nextElementSibling;
      return [r.height, r.width, next.getBoundingClientRect().top - r.top];
    }}""")
    text_before = demo.locator(f"{SEL} .spam-demo-live").inner_text()
    demo.evaluate("""() => { window.__shifts = 0; new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts += e.value;
    }).observe({type: 'layout-shift', buffered: false}); }""")
    start(demo)
    demo.wait_for_timeout(300)
    after = demo.evaluate(f"""() => {{
      const r = document.querySelector('{SEL}').getBoundingClientRect();
      const next = document.querySelector('{SEL}').closest('.cell').nextElementSibling;
      return [r.height, r.width, next.getBoundingClientRect().top - r.top];
    }}""")
    assert after == before
    assert demo.locator(f"{SEL} .spam-demo-live").inner_text() == text_before
    assert demo.evaluate("() => window.__shifts") == 0
    assert_shows_the_library(demo, pl.spam_messages().test_message, chapter_model()[0])


def test_typing_messages_shows_the_librarys_features_and_verdict(demo):
    model = chapter_model()[0]
    start(demo)
    box = demo.locator(f"{SEL} textarea")
    box.click()
    demo.keyboard.press("Control+A")
    demo.keyboard.press("Delete")
    assert_shows_the_library(demo, "", model)
    # a reader's keystrokes, one character at a time, checked on the way
    typed = ""
    for word in ["FREE", " entry!!!", " Text", " WIN", " to", " 80086"]:
        demo.keyboard.type(word)
        typed += word
        assert_shows_the_library(demo, typed, model)
    for message in MESSAGES:
        box.fill(message)
        assert_shows_the_library(demo, message, model)
    verdicts = set()
    for message in MESSAGES:
        box.fill(message)
        verdicts.add(demo.evaluate(STATE)["verdict"])
    assert verdicts == {1, -1}  # the messages reach both sides of the line


def test_long_and_white_space_only_messages(demo):
    model = chapter_model()[0]
    start(demo)
    box = demo.locator(f"{SEL} textarea")
    for message in [" \n\t\u3000\xa0", "FREE\x1cMONEY", "\u2028WIN\u2029"]:
        box.fill(message)
        assert_shows_the_library(demo, message, model)
    long = ("WINNER! Call 0907146174 now. " * 4000)[:100_000]
    box.fill(long)
    assert_shows_the_library(demo, long, model)


def test_the_keyboard_reaches_every_control(demo):
    model = chapter_model()[0]
    start(demo)
    ex = pl.spam_messages()
    demo.locator(f"{SEL} textarea").focus()
    order = []
    for _ in range(7):
        demo.keyboard.press("Tab")
        order.append(demo.evaluate("() => document.activeElement.textContent"))
    assert order == ["test message", "message 1", "message 2", "message 3", "message 4", "clear",
                     order[-1]]
    # back to "message 2" and load it with Enter, then message 1 with Space
    for _ in range(4):
        demo.keyboard.press("Shift+Tab")
    assert demo.evaluate("() => document.activeElement.textContent") == "message 2"
    demo.keyboard.press("Enter")
    assert_shows_the_library(demo, ex.messages[1], model)
    assert demo.evaluate(STATE)["verdict"] == 1
    demo.keyboard.press("Shift+Tab")
    demo.keyboard.press("Space")
    assert_shows_the_library(demo, ex.messages[0], model)
    assert demo.evaluate(STATE)["verdict"] == -1
    # clear empties the message and puts the focus back in the text box
    demo.locator(f"{SEL} button.sd-clear").focus()
    demo.keyboard.press("Enter")
    assert demo.evaluate("() => document.activeElement.tagName") == "TEXTAREA"
    assert_shows_the_library(demo, "", model)
    demo.keyboard.type("HELLO WORLD")
    assert_shows_the_library(demo, "HELLO WORLD", model)


def test_controls_are_named_and_ids_are_unique(demo):
    start(demo)
    names = demo.evaluate(f"""() => [...document.querySelectorAll(
        '{SEL} textarea, {SEL} button')].map((e) => e.labels && e.labels.length
        ? e.labels[0].textContent : e.textContent)""")
    assert names[0] == "Your message" and all(n.strip() for n in names)
    assert demo.get_by_label("Your message", exact=True).count() == 1
    assert demo.locator(f"{SEL} [role=status]").count() == 1
    assert "training messages" in demo.locator(f"{SEL} svg[role=img]").get_attribute("aria-label")
    ids = demo.evaluate("() => [...document.querySelectorAll('[id]')].map((e) => e.id)")
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    assert not demo.rec["external"] and not demo.rec["failed"] and not demo.rec["console"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 390])
def test_axe_finds_nothing_in_the_demo(browser, base_url, axe_source, scheme, width):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    try:
        page = ctx.new_page()
        load(page, f"{base_url}/{PAGE}")
        assert page.evaluate("() => document.documentElement.dataset.theme") == scheme
        start(page)
        for message in ["", "FREE MONEY!!! call 0800 555 0101", MESSAGES[1]]:
            page.locator(f"{SEL} textarea").fill(message)
            page.evaluate(STATE)
            found = demo_violations(page, SEL, axe_source)
            assert found == [], (message, found)
        wide = page.evaluate(f"""() => document.querySelector('{SEL}').scrollWidth >
                                 document.querySelector('{SEL}').clientWidth""")
        assert not wide
    finally:
        ctx.close()


def test_without_javascript_the_explorers_picture_shows(browser, base_url):
    seen = picture_without_javascript(
        browser, f"{base_url}/{PAGE}", f"{SEL} .spam-demo-fallback figure.explorer-static img",
        live=f"{SEL} .spam-demo-live")
    assert seen["count"] == 1 and seen["visible"] and seen["live"] == 0
    assert "Message explorer" in seen["alt"]
    assert seen["width"] > 200 and seen["height"] > 100


# ---------------------------------------------------------------------------------------
# The message in the page's URL: a link reproduces the verdict, Back returns


KEY = "spam-demo"
MAX_LINK_CHARS = 2000  # spam-demo.mjs: the most characters of the URL for the message
PAUSE_MS = 1000  # spam-demo.mjs: a pause this long ends a burst of typing


def encoded(state: dict) -> str:
    """The text url-state.mjs writes for a state: JSON, UTF-8, base64url without padding."""
    text = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def in_link(page) -> dict | None:
    """The demo's state as the page's URL holds it now (pending writes flushed)."""
    return page.evaluate(f"() => document.querySelector('{SEL}').spamDemo.link()")


def message_of(page) -> str:
    return page.locator(f"{SEL} textarea").input_value()


def status_of(page) -> str:
    return page.locator(f"{SEL} .sd-status").inner_text()


def open_with(context, base_url, query: str):
    page = context.new_page()
    page.rec = load(page, f"{base_url}/{PAGE}{query}")
    return page


def test_a_link_reproduces_the_message_and_its_verdict(demo, context, base_url):
    model = chapter_model()[0]
    start(demo)
    box = demo.locator(f"{SEL} textarea")
    box.fill("")
    box.click()
    message = "URGENT: call 0800 555 0101 NOW!! ΚΑΛΗΜΕΡΑ 🎉"
    demo.keyboard.type(message)
    assert in_link(demo) == {"v": 1, "t": message}
    query = demo.evaluate("() => location.search")
    assert query == f"?{KEY}={encoded({'v': 1, 't': message})}"
    other = open_with(context, base_url, query)
    assert message_of(other) == message  # before the demo starts
    start(other)
    assert_shows_the_library(other, message, model)
    assert status_of(other) == "Restored from the link: the message, and the verdict it gets."
    assert other.rec["console"] == [] and demo.rec["console"] == []


def test_back_returns_to_the_message_before_a_pause_or_a_button(demo):
    model = chapter_model()[0]
    ex = pl.spam_messages()
    start(demo)
    demo.locator(f"{SEL} button.sd-clear").click()  # an entry: the empty message
    demo.keyboard.type("FREE cash")  # one burst: one entry
    demo.wait_for_timeout(PAUSE_MS + 300)
    demo.keyboard.type(" NOW!!!")  # after a pause: a new entry
    demo.locator(f"{SEL} textarea").blur()
    demo.locator(f"{SEL} textarea").focus()
    demo.keyboard.type(" 555")  # after leaving the box: a new entry
    demo.locator(f"{SEL} button.sd-example").nth(2).click()  # an entry
    assert_shows_the_library(demo, ex.messages[1], model)
    for expected in ["FREE cash NOW!!! 555", "FREE cash NOW!!!", "FREE cash", ""]:
        demo.go_back()
        demo.wait_for_function(f"(m) => document.querySelector('{SEL} textarea').value === m",
                               arg=expected)
        assert_shows_the_library(demo, expected, model)
        assert status_of(demo) == "Back to an earlier message."
    demo.go_back()  # the entry before any edit: the chapter's message
    demo.wait_for_function(f"() => document.querySelector('{SEL} textarea').value !== ''")
    assert_shows_the_library(demo, ex.test_message, model)
    assert status_of(demo) == "Back to the chapter's message."
    demo.go_forward()
    demo.wait_for_function(f"() => document.querySelector('{SEL} textarea').value === ''")
    assert_shows_the_library(demo, "", model)
    assert demo.rec["console"] == []


def test_a_long_message_is_cut_in_the_link_and_the_status_says_so(demo, context, base_url):
    model = chapter_model()[0]
    start(demo)
    assert status_of(demo) == ""
    message = "WIN 🎉 Ünïcödé 0800 555 0101! " * 300
    demo.locator(f"{SEL} textarea").fill(message)
    assert_shows_the_library(demo, message, model)  # the demo uses all of it
    st = in_link(demo)
    chars = list(message)  # code points, as Array.from counts them
    kept = len(st["t"])
    assert st["t"] == "".join(chars[:kept]) and 0 < kept < len(chars)
    # the most that fits: one more character would not
    assert len(encoded(st)) <= MAX_LINK_CHARS
    assert len(encoded({"v": 1, "t": "".join(chars[:kept + 1])})) > MAX_LINK_CHARS
    query = demo.evaluate("() => location.search")
    assert len(query) <= MAX_LINK_CHARS + len(KEY) + 2
    assert status_of(demo) == (f"The link keeps only the first {kept} of the {len(chars)} "
                               "characters (a short address).")
    # the link shows the cut message and its verdict
    other = open_with(context, base_url, query)
    start(other)
    assert_shows_the_library(other, st["t"], model)
    # a short message again: the note goes
    demo.locator(f"{SEL} textarea").fill("hello")
    assert in_link(demo) == {"v": 1, "t": "hello"} and status_of(demo) == ""
    assert demo.rec["console"] == [] and other.rec["console"] == []


@pytest.mark.parametrize("bad", ["%%%not-base64", encoded({"v": 2, "t": "x"}),
                                 encoded({"v": 1, "t": 5}), encoded({"v": 1}),
                                 base64.urlsafe_b64encode(b"[1, 2]").decode(),
                                 base64.urlsafe_b64encode(b"{not json").decode()])
def test_a_malformed_link_never_breaks_the_page(context, base_url, bad):
    model = chapter_model()[0]
    page = open_with(context, base_url, f"?{KEY}={bad}")
    start(page)
    assert_shows_the_library(page, pl.spam_messages().test_message, model)
    assert "ignored" in status_of(page)
    assert page.rec["console"] == []
    page.locator(f"{SEL} textarea").fill("FREE")
    assert_shows_the_library(page, "FREE", model)
    assert in_link(page) == {"v": 1, "t": "FREE"}


def test_the_status_line_has_its_room_before_the_script_runs(browser, base_url):
    ctx = browser.new_context(viewport={"width": 390, "height": 900})
    try:
        page = ctx.new_page()
        held = []
        page.route("**/spam-demo.mjs*", lambda route: held.append(route))
        page.goto(f"{base_url}/{PAGE}", wait_until="commit")
        page.wait_for_function(f"""() => document.readyState !== 'loading' &&
            document.querySelector('{SEL} .sd-top')""")
        page.evaluate("() => document.documentElement.classList.add('spam-demo-js')")
        box = f"() => document.querySelector('{SEL} .sd-top').getBoundingClientRect().height"
        before = page.evaluate(box)
        assert page.locator(f"{SEL} .sd-status").count() == 0
        held[0].continue_()
        page.wait_for_function(f"() => document.querySelector('{SEL} .sd-status')")
        assert page.evaluate(box) == before
        assert page.locator(f"{SEL} .sd-status").get_attribute("aria-live") == "polite"
    finally:
        ctx.close()
