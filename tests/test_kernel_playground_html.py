"""perceptron_lib.demos.kernel: the element chapter 6's page turns into a playground."""

from __future__ import annotations

import re

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
from kernel_cases import GAMMAS, chapter6_kernel_data

import perceptron_lib as pl
from perceptron_lib.demos import kernel as kp
from perceptron_lib.demos.kernel import KernelPlayground, kernel_playground_html

XOR = ([[1, 1], [-1, -1], [1, -1], [-1, 1]], [1, 1, -1, -1])


def root_of(html: str) -> dict:
    return _root_of(html, "kernel-playground")


def test_the_element_carries_the_chapters_data_exactly():
    data = chapter6_kernel_data()
    attrs = root_of(kernel_playground_html(data, kernel="RBF", gamma=10.0, tau=50))
    assert (attrs["data-kernel"], attrs["data-degree"], attrs["data-gamma"],
            attrs["data-coef0"], attrs["data-tau"]) == ("RBF", "2", "10.0", "1.0", "50")
    sets = datasets_of(attrs)
    assert [s["name"] for s in sets] == list(data)
    for s, (X, y) in zip(sets, data.values(), strict=True):
        # floats survive the trip bit for bit (JSON writes the shortest exact repr)
        np.testing.assert_array_equal(np.array(s["X"]), X)
        np.testing.assert_array_equal(np.array(s["y"]), y)


def test_the_frame_holds_the_fallback():
    html = kernel_playground_html({"XOR": XOR}, fallback="<p>no script here</p>")
    elements, text = parse(html)
    classes = [a.get("class") for _, a in elements]
    assert classes[:3] == ["kernel-playground demo-kit demo-framed", "kp-frame",
                           "kp-fallback demo-fallback"]
    assert "no script here" in text
    assert "tasks.py serve" in parse(kernel_playground_html({"XOR": XOR}))[1]


def test_the_gamma_values_are_the_sliders():
    assert kp.GAMMAS == tuple(GAMMAS)
    assert kp.COEF0 == 1.0 and kp.KERNELS == ("linear", "polynomial", "RBF")
    # the chapter's polynomial kernel is the library's default one
    A = np.array([[0.3, -1.2], [2.0, 0.5]])
    np.testing.assert_array_equal(pl.polynomial_kernel(3, kp.COEF0)(A, A),
                                  pl.polynomial_kernel(3)(A, A))


def test_names_cannot_break_out_of_the_attribute():
    attrs = root_of(kernel_playground_html({HOSTILE_NAME: XOR}))
    assert datasets_of(attrs)[0]["name"] == HOSTILE_NAME


@pytest.mark.parametrize(
    ("datasets", "options", "error", "match"),
    [
        *common_bad_inputs(XOR),
        ({"a": [[1, 0]]}, {}, TypeError, "pair"),
        ({"a": ([[1, 0, 2]], [1])}, {}, ValueError, "2 columns"),
        ({"a": ([[1, 0], [0, 1]], [0, 1])}, {}, ValueError, "-1"),
        ({"a": ([[np.nan, 0]], [1])}, {}, ValueError, "NaN|finite"),
        ({"a": XOR}, {"kernel": "rbf"}, ValueError, "kernel must be one of"),
        ({"a": XOR}, {"degree": 7}, ValueError, "degree"),
        ({"a": XOR}, {"degree": 2.5}, ValueError, "degree"),
        ({"a": XOR}, {"degree": True}, ValueError, "degree"),
        ({"a": XOR}, {"gamma": 0.3}, ValueError, "nearest is 0.316"),
        ({"a": XOR}, {"gamma": 1000.0}, ValueError, "slider"),
        ({"a": XOR}, {"gamma": "1"}, TypeError, "number"),
    ],
)
def test_bad_input_is_named(datasets, options, error, match):
    with pytest.raises(error, match=match):
        kernel_playground_html(datasets, **options)


def test_from_an_explorer_the_settings_the_picture_and_the_live_view():
    from perceptron_lib.widgets import KernelExplorer

    data = chapter6_kernel_data()
    explorer = KernelExplorer(data, kernel="RBF", gamma=3.16, tau=40)
    play = KernelPlayground.from_explorer(explorer)
    attrs = root_of(play.html)
    assert (attrs["data-kernel"], attrs["data-gamma"], attrs["data-tau"]) == ("RBF", "3.16", "40")
    assert [s["name"] for s in datasets_of(attrs)] == list(data)
    # the fallback is the explorer's picture, with its alt text
    elements, _ = parse(play.html)
    images = [a for tag, a in elements if tag == "img"]
    assert len(images) == 1 and images[0]["src"].startswith("data:image/png;base64,")
    assert images[0]["alt"] == explorer.alt_text()
    assert 'class="explorer-static"' in play.html
    # Jupyter gets the explorer's widget; pages without a kernel get the playground
    bundle = play._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/html"] == play.html == play._repr_html_()
    assert repr(play) == bundle["text/plain"] == "<kernel playground, 4 data sets>"


def test_without_an_explorer_only_html():
    play = KernelPlayground({"XOR": XOR}, degree=3)
    assert set(play._repr_mimebundle_()) == {"text/html", "text/plain"}
    assert play.html == kernel_playground_html({"XOR": XOR}, degree=3)
    assert repr(play) == "<kernel playground, 1 data set>"


# ---------------------------------------------------------------------------------------
# The built site

KERNEL_PAGE = "book/06_variants.html"


def kernel_divs(html: str) -> list[dict]:
    return divs_of(html, "kernel-playground")


def test_the_chapter_page_carries_the_chapters_arrays(site):
    html = (site / KERNEL_PAGE).read_text()
    (attrs,) = kernel_divs(html)
    sets = datasets_of(attrs)
    data = chapter6_kernel_data()
    assert [s["name"] for s in sets] == list(data)
    for s, (X, y) in zip(sets, data.values(), strict=True):
        np.testing.assert_array_equal(np.array(s["X"]), X)
        np.testing.assert_array_equal(np.array(s["y"]), y)
    assert (attrs["data-kernel"], attrs["data-degree"], attrs["data-tau"]) == (
        "polynomial", "2", "100")
    # the explorer's picture is inside the playground's element, as its fallback
    start = html.index('class="kernel-playground ')
    assert html.index('class="explorer-static"', start) < html.index("</figure>", start)
    assert "jupyter-widgets" not in html and "widget-view+json" not in html


def test_the_playground_loads_on_its_page_only(site):
    assert pages_with_demo(site, "kernel-playground",
                           "kernel/kernel-playground.mjs") == {KERNEL_PAGE}
    for name in ("kernel-playground.mjs", "kernel-core.mjs", "kernel-playground.css"):
        assert (site / "_static" / "demos" / "kernel" / name).is_file(), name
    html = (site / KERNEL_PAGE).read_text()
    head = html[:html.index("<body")]
    # the class is set in the head, before the body is drawn, where the page is served
    assert re.search(r'<script>if \(location\.protocol !== "file:"\) '
                     r'document\.documentElement\.classList\.add\("kernel-playground-js"\);'
                     r"</script>", head)
    assert re.search(r'<script type="module" src="[^"]*kernel-playground\.mjs', head)
    assert re.search(r'<link rel="stylesheet"[^>]*kernel-playground\.css', head)
