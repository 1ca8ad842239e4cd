"""perceptron_lib.demos.margin: the element chapter 7's page turns into the margin demo."""

from __future__ import annotations

import base64
import math
from pathlib import Path

import numpy as np
import pytest
from demo_html import (
    HOSTILE_NAME,
    common_bad_inputs,
    datasets_of,
    divs_of,
    pages_with_demo,
    parse,
)
from demo_html import root_of as _root_of

import perceptron_lib as pl
from perceptron_lib.demos import margin as md
from perceptron_lib.demos.margin import MarginDemo, start_gamma

ROOT = Path(__file__).resolve().parents[1]
FOUR = {"X": [[1.0, 2.0], [2.0, 0.5], [-1.0, -1.0], [-2.0, 0.5]], "y": [1, 1, -1, -1],
        "theta": [1.0, 0.5], "theta_0": 0.0}


def root_of(html: str) -> dict:
    return _root_of(html, "margin-demo")


def test_the_id_keys_the_url_state_and_stays_from_build_to_build():
    a = root_of(MarginDemo(chapter_like()).html)["id"]
    assert a == root_of(MarginDemo(chapter_like()).html)["id"]
    assert a.startswith("margin-demo-") and len(a) == len("margin-demo-") + 8
    assert a != root_of(MarginDemo(chapter_like(), mu=0.5).html)["id"]
    assert root_of(MarginDemo({"a": FOUR}, element_id="ch7-demo").html)["id"] == "ch7-demo"
    with pytest.raises(ValueError, match="element_id"):
        MarginDemo({"a": FOUR}, element_id="7 bad")


def chapter_like() -> dict:
    """A separable set with its max-margin separator and a noisy one with the generating one."""
    s = pl.make_separable(30, 2, gamma=0.1, R=2.0, theta_0=0.3, seed=1)
    mm = pl.max_margin(s.X, s.y)
    yf = pl.flip_labels(s.y, 0.1, seed=0)
    return {"separable": {"X": s.X, "y": s.y, "theta": mm.theta, "theta_0": mm.theta_0},
            "10% flipped": {"X": s.X, "y": yf, "theta": s.theta, "theta_0": s.theta_0}}


def test_the_element_carries_the_chapters_data_exactly():
    data = chapter_like()
    demo = MarginDemo(data, mu=0.5, tau=40)
    attrs = root_of(demo._repr_html_())
    assert (attrs["data-mu"], attrs["data-tau"]) == ("0.5", "40")
    sets = datasets_of(attrs)
    assert [s["name"] for s in sets] == list(data)
    for s, spec in zip(sets, data.values(), strict=True):
        # floats survive the trip bit for bit (JSON writes the shortest exact repr)
        np.testing.assert_array_equal(np.array(s["X"]), spec["X"])
        np.testing.assert_array_equal(np.array(s["y"]), spec["y"])
        np.testing.assert_array_equal(np.array(s["theta"]), spec["theta"])
        assert s["theta0"] == spec["theta_0"]
        assert s["gamma"] == start_gamma(spec["X"], spec["y"], spec["theta"], spec["theta_0"])
    # gamma_opt where the data are separable, and none where they are not
    sep = data["separable"]
    assert sets[0]["gammaOpt"] == pl.max_margin(sep["X"], sep["y"]).gamma
    assert sets[1]["gammaOpt"] is None


def test_the_starting_gamma_is_a_slider_position_below_the_smallest_positive_margin():
    for spec in chapter_like().values():
        X, y, u, u_0 = spec["X"], spec["y"], spec["theta"], spec["theta_0"]
        R = pl.radius(pl.add_offset_feature(X))
        g = start_gamma(X, y, u, u_0)
        k = g / R * md.GAMMA_STEPS
        assert k == pytest.approx(round(k)) and round(k) >= 1
        m = y * (X @ u + u_0) / math.hypot(*u, u_0)
        smallest = m[m > 0].min()
        assert g <= smallest < g + R / md.GAMMA_STEPS
        # below every positive margin only the misclassified points fall short of gamma
        _, d = pl.hinge_deficiency(X, y, u, u_0, g, per_example=True)
        assert np.array_equal(d > 0, m < 0)
    # a separator that misclassifies every point: the first position
    X, y = np.array(FOUR["X"]), np.array(FOUR["y"])
    R = pl.radius(pl.add_offset_feature(X))
    assert start_gamma(X, y, [-1.0, -0.5], 0.0) == R / md.GAMMA_STEPS


def test_a_given_gamma_is_kept():
    attrs = root_of(MarginDemo({"a": {**FOUR, "gamma": 0.25}}).html)
    assert datasets_of(attrs)[0]["gamma"] == 0.25


def test_the_frame_holds_a_picture_for_readers_without_javascript():
    demo = MarginDemo(chapter_like(), mu=0.2)
    html = demo.html
    elements, text = parse(html)
    classes = [a.get("class") for _, a in elements]
    assert classes[:4] == ["margin-demo demo-kit demo-framed", "md-frame",
                           "md-fallback demo-fallback", "explorer-static"]
    (img,) = [a for tag, a in elements if tag == "img"]
    assert img["alt"] == demo.alt_text() and "separable" in img["alt"]
    png = base64.b64decode(img["src"].removeprefix("data:image/png;base64,"))
    assert png.startswith(b"\x89PNG") and png == demo.png()
    # the caption's numbers are the library's
    spec = chapter_like()["separable"]
    X, y = spec["X"], spec["y"]
    R = pl.radius(pl.add_offset_feature(X))
    g = start_gamma(X, y, spec["theta"], spec["theta_0"])
    D = pl.hinge_deficiency(X, y, spec["theta"], spec["theta_0"], g)
    bound = pl.freund_schapire_bound(math.sqrt(R * R + 2 * 0.2), g, D)
    r = pl.margin_perceptron(X, y, margin=0.2, tau=100)
    assert f"= {bound:.3g} updates in one epoch" in text
    assert f"it made {r.mistakes} updates" in text
    assert "tasks.py serve" in text


def test_mu_0_speaks_of_the_perceptrons_mistakes():
    spec = chapter_like()["10% flipped"]
    _, text = parse(MarginDemo({"noisy": spec}).html)
    X, y = spec["X"], spec["y"]
    R = pl.radius(pl.add_offset_feature(X))
    g = start_gamma(X, y, spec["theta"], spec["theta_0"])
    D = pl.hinge_deficiency(X, y, spec["theta"], spec["theta_0"], g)
    assert f"((R + D)/\u03b3)\u00b2 = {pl.freund_schapire_bound(R, g, D):.3g} mistakes" in text


def test_names_cannot_break_out_of_the_attribute():
    demo = MarginDemo({HOSTILE_NAME: FOUR})
    assert "<script>" not in demo.html.split("data-datasets=", 1)[1].split(">", 1)[0]
    assert datasets_of(root_of(demo.html))[0]["name"] == HOSTILE_NAME


def test_repr_and_the_inputs_are_not_changed():
    X = np.array(FOUR["X"])
    before = X.copy()
    demo = MarginDemo({"a": {**FOUR, "X": X}, "b": FOUR}, mu=1.0)
    np.testing.assert_array_equal(X, before)
    assert repr(demo) == "<margin demo, 2 data sets, mu = 1>"
    assert demo._repr_html_() == demo.html


@pytest.mark.parametrize(
    ("datasets", "options", "error", "match"),
    [
        *common_bad_inputs(FOUR),
        ([("a", FOUR)], {}, ValueError, "non-empty mapping"),
        ({"a": (FOUR["X"], FOUR["y"])}, {}, TypeError, "mapping with keys"),
        ({"a": {"X": FOUR["X"], "y": FOUR["y"]}}, {}, ValueError, "lacks theta, theta_0"),
        ({"a": {**FOUR, "u": 1}}, {}, ValueError, "unknown keys"),
        ({"a": {**FOUR, "X": [[1, 0, 2]] * 4}}, {}, ValueError, "2 columns"),
        ({"a": {**FOUR, "y": [0, 1, 0, 1]}}, {}, ValueError, "-1"),
        ({"a": {**FOUR, "y": [1, 1]}}, {}, ValueError, "label"),
        ({"a": {**FOUR, "X": [[np.nan, 0]] * 4}}, {}, ValueError, "NaN"),
        ({"a": {**FOUR, "X": np.zeros((0, 2)), "y": []}}, {}, ValueError, "empty|no examples"),
        ({"a": {**FOUR, "theta": [1.0]}}, {}, ValueError, "theta"),
        ({"a": {**FOUR, "theta": [0.0, 0.0]}}, {}, ValueError, "theta is zero"),
        ({"a": {**FOUR, "theta_0": float("inf")}}, {}, ValueError, "theta_0"),
        ({"a": {**FOUR, "gamma": 0.0}}, {}, ValueError, r"gamma must lie in \(0, R\]"),
        ({"a": {**FOUR, "gamma": 100.0}}, {}, ValueError, r"gamma must lie in \(0, R\]"),
        ({"a": FOUR}, {"mu": 0.4}, ValueError, "mu must be one of"),
        ({"a": FOUR}, {"mu": -1.0}, ValueError, "mu must be one of"),
        ({"a": FOUR}, {"mu": "0"}, TypeError, "mu must be a number"),
    ],
)
def test_bad_input_is_named(datasets, options, error, match):
    with pytest.raises(error, match=match) as info:
        MarginDemo(datasets, **options)
    if isinstance(datasets, dict) and datasets and "a" in datasets and not options:
        assert "data set 'a'" in str(info.value)


# ---------------------------------------------------------------------------------------
# The built site

DEMO_PAGE = "book/07_beyond.html"


def demo_divs(html: str) -> list[dict]:
    return divs_of(html, "margin-demo")


def test_the_demo_loads_on_its_page_only(site):
    import re

    assert pages_with_demo(site, "margin-demo", "margin/margin-demo.mjs") == {DEMO_PAGE}
    for name in ("margin-demo.mjs", "margin-core.mjs", "margin-demo.css"):
        assert (site / "_static" / "demos" / "margin" / name).is_file(), name
    html = (site / DEMO_PAGE).read_text()
    head = html[:html.index("<body")]
    assert re.search(r'<script>if \(location\.protocol !== "file:"\) '
                     r'document\.documentElement\.classList\.add\("margin-demo-js"\);'
                     r"</script>", head)
    assert re.search(r'<script type="module" src="[^"]*margin-demo\.mjs', head)
    assert re.search(r'<link rel="stylesheet"[^>]*margin-demo\.css', head)
    # the picture for readers without JavaScript is inside the demo's element
    start = html.index('class="margin-demo ')
    assert html.index('class="explorer-static"', start) < html.index("</figure>", start)
    (attrs,) = demo_divs(html)
    sets = datasets_of(attrs)
    assert len(sets) >= 2 and all(len(s["X"]) == len(s["y"]) for s in sets)
    assert any(s["gammaOpt"] is None for s in sets) and any(s["gammaOpt"] for s in sets)
