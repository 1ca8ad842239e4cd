"""perceptron_lib.demos.offset: the element chapter 2's page turns into the offset demo."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from demo_html import HOSTILE_NAME, common_bad_inputs, datasets_of, parse
from demo_html import root_of as _root_of

import perceptron_lib as pl
from perceptron_lib.demos import offset as od
from perceptron_lib.demos.offset import OffsetDemo, offset_demo_html
from perceptron_lib.widgets import OffsetExplorer

ROOT = Path(__file__).resolve().parents[1]
LINE = ([[1], [2], [3], [4]], [1, 1, -1, -1], [-1], 2.5)


def root_of(html: str) -> dict:
    return _root_of(html, "offset-demo")


def chapter_data() -> dict:
    """The chapter's two data sets, as its cells build them (the far separator's theta
    rounded to the sliders' steps, as the cell that places the demo does)."""
    ex = pl.offset_example()
    gen = pl.make_separable(100, d=2, gamma=0.1, R=1.0, seed=2)
    X_far = gen.X + 5 * gen.theta
    theta_far = np.round(gen.theta * 20) / 20
    return {"offset example": (ex.X, ex.y, ex.theta, ex.theta_0),
            "generated data": (X_far, gen.y, theta_far, gen.theta_0 - 5.0)}


def test_the_element_carries_the_chapters_data_exactly():
    data = chapter_data()
    attrs = root_of(offset_demo_html(data, c=3.16, tau=500))
    assert (attrs["data-c"], attrs["data-tau"]) == ("3.16", "500")
    sets = datasets_of(attrs)
    assert [s["name"] for s in sets] == list(data)
    for s, (X, y, theta, theta_0) in zip(sets, data.values(), strict=True):
        # floats survive the trip bit for bit (JSON writes the shortest exact repr)
        np.testing.assert_array_equal(np.array(s["X"]), X)
        np.testing.assert_array_equal(np.array(s["y"]), y)
        np.testing.assert_array_equal(np.array(s["theta"]), theta)
        assert s["theta0"] == theta_0


def test_the_rounded_far_separator_still_separates():
    # the chapter starts the sliders at the generated data's separator, rounded to them
    X, y, theta, theta_0 = chapter_data()["generated data"]
    assert pl.margin(X, y, theta, theta_0) > 0


def test_defaults_and_the_frame_holds_the_fallback():
    html = offset_demo_html({"line": LINE}, fallback="<p>no script here</p>")
    attrs = root_of(html)
    assert (attrs["data-c"], attrs["data-tau"]) == ("1.0", "2000")
    elements, text = parse(html)
    assert [a.get("class") for _, a in elements][:3] == [
        "offset-demo demo-kit demo-framed", "od-frame", "od-fallback demo-fallback"]
    assert "no script here" in text
    assert "tasks.py serve" in parse(offset_demo_html({"line": LINE}))[1]


def test_the_slider_values():
    assert od.C_VALUES == tuple(float(f"{10 ** (k / 10):.3g}") for k in range(-10, 21))
    assert od.C_VALUES[10] == 1.0 and od.C_VALUES[0] == 0.1 and od.C_VALUES[-1] == 100.0
    assert od.THETA_STEPS == (-60, 60, 20) and od.THETA0_STEPS == (-80, 80, 10)


@pytest.mark.parametrize(("datasets", "options", "error", "words"), [
    *common_bad_inputs(LINE),
    ({"line": LINE[:2]}, {}, TypeError, "(X, y, theta, theta_0)"),
    ({"line": ([[1, 2, 3]], [1], [1, 1, 1], 0.0)}, {}, ValueError, "1 or 2 columns"),
    ({"line": ([[1], [2]], [1], [1], 0.0)}, {}, ValueError, "1 label"),
    ({"line": ([[1], [2]], [1, 0], [1], 0.0)}, {}, ValueError,
     "labels must be -1 or +1; found 0.0"),
    ({"line": ([[1], [np.nan]], [1, -1], [1], 0.0)}, {}, ValueError, "NaN"),
    ({"line": ([[1], [2]], [1, -1], [1, 2], 0.0)}, {}, ValueError, "theta must have 1 entry"),
    ({"line": ([[1], [2]], [1, -1], [0.33], 0.0)}, {}, ValueError, "nearest is 0.35"),
    ({"line": ([[1], [2]], [1, -1], [4.0], 0.0)}, {}, ValueError, "-3 to 3"),
    ({"line": ([[1], [2]], [1, -1], [1], 9.0)}, {}, ValueError, "theta_0 = 9.0"),
    ({"line": LINE}, {"c": 0.0}, ValueError, "nearest is 0.1"),
    ({"line": LINE}, {"c": 3.0}, ValueError, "nearest is 3.16"),
    ({"line": LINE}, {"c": "1"}, TypeError, "c must be a number"),
])
def test_bad_input_gets_a_clear_error(datasets, options, error, words):
    with pytest.raises(error) as info:
        offset_demo_html(datasets, **options)
    assert words in str(info.value)


def test_names_cannot_break_out_of_the_attribute():
    attrs = root_of(offset_demo_html({HOSTILE_NAME: LINE}))
    assert datasets_of(attrs)[0]["name"] == HOSTILE_NAME


def test_from_explorer_shows_the_explorers_picture_and_its_controls():
    X, y, *_ = chapter_data()["offset example"]
    explorer = OffsetExplorer(X.ravel(), y, theta=-1.0, theta_0=2.5)
    demo = OffsetDemo.from_explorer(explorer, chapter_data())
    html = demo._repr_html_()
    assert html == demo.html and root_of(html)["class"] == "offset-demo demo-kit demo-framed"
    assert 'class="explorer-static"' in html and "needs JavaScript" in html
    bundle = demo._repr_mimebundle_()
    assert bundle["text/html"] == html
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert repr(demo) == "<offset demo, 2 data sets>" == bundle["text/plain"]
    # without an explorer: only the page's HTML
    plain = OffsetDemo({"line": LINE})
    assert set(plain._repr_mimebundle_()) == {"text/html", "text/plain"}
    assert repr(plain) == "<offset demo, 1 data set>"


def test_the_chapter_places_the_demo_from_its_own_arrays():
    # the code cell of chapter 2 that places the demo names the chapter's arrays
    nb = json.loads((ROOT / "book" / "02_offset.ipynb").read_text())
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    placing = [c for c in cells if "OffsetDemo.from_explorer(" in c]
    assert len(placing) == 1
    assert re.search(r'"offset example": \(X, y, theta, theta_0\)', placing[0])
    assert re.search(r'"generated data": \(X_far, y_far, theta_far_slider, theta_0_far\)',
                     placing[0])


def test_the_id_keys_the_state_in_the_url_and_is_the_same_in_every_build():
    data = chapter_data()
    first = root_of(offset_demo_html(data))["id"]
    assert re.fullmatch(r"offset-demo-[0-9a-f]{8}", first)
    assert root_of(offset_demo_html(chapter_data()))["id"] == first
    assert root_of(offset_demo_html(data, c=3.16))["id"] != first  # another demo
    assert root_of(offset_demo_html(data, element_id="ch2-demo"))["id"] == "ch2-demo"
    with pytest.raises(ValueError, match="element_id must be a letter"):
        offset_demo_html(data, element_id="2 words")
