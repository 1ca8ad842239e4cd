"""perceptron_lib.demos.spam: chapter 5's demo element, built from the chapter's classifier."""

import html
import json
import re

import numpy as np
import pytest

import perceptron_lib as pl
from perceptron_lib.demos.spam import (
    SpamDemo,
    SpamModel,
    feature_cells,
    ratio_text,
    score_text,
    spam_demo_html,
)


def chapter():
    ex = pl.spam_messages()
    X2 = pl.spam_feature_matrix(list(ex.messages))[:, :2]
    r2 = pl.perceptron(X2, ex.y, tau=1000)
    return ex, X2, r2


def config_of(element: str) -> dict:
    m = re.match(r'<div class="spam-demo demo-kit" data-config="([^"]*)">', element)
    assert m, element[:200]
    return json.loads(html.unescape(m.group(1)))


def test_the_element_carries_the_classifier_exactly():
    ex, X2, r2 = chapter()
    element = spam_demo_html(r2.theta, r2.theta_0, X2, ex.y, message=ex.test_message,
                             examples={"test": ex.test_message}, xlim=(-0.1, 0.6),
                             ylim=(-0.05, 1.1))
    cfg = config_of(element)
    np.testing.assert_array_equal(cfg["theta"], r2.theta)  # floats survive bit for bit
    assert cfg["theta0"] == r2.theta_0 and cfg["columns"] == [0, 1]
    assert (cfg["xlim"], cfg["ylim"]) == ([-0.1, 0.6], [-0.05, 1.1])
    assert cfg["examples"] == [ex.test_message]
    # the markup is drawn for the initial message: its cells, score and verdict
    x = pl.spam_features(ex.test_message)
    for count, value in feature_cells(pl.count_message(ex.test_message)):
        assert f'<td class="sd-count">{count}</td><td class="sd-value">{value}</td>' in element
    model = SpamModel.make(r2.theta, r2.theta_0)
    assert f"= {score_text(model.score(x))}</p>" in element
    assert "verdict: not spam" in element
    assert element.count('<path class="sd-pos"') == 2 and element.count('<path class="sd-neg"') == 2
    # hidden unless the book's stylesheet shows it; the fallback comes first
    assert '<div class="spam-demo-live" style="display:none">' in element


def test_an_empty_message_and_scaled_features():
    ex, X2, _ = chapter()
    mean, std = X2.mean(axis=0), X2.std(axis=0)
    r = pl.perceptron((X2 - mean) / std, ex.y, tau=100)
    element = spam_demo_html(r.theta, r.theta_0, X2, ex.y, mean=mean, scale=std, message=" \n")
    cfg = config_of(element)
    np.testing.assert_array_equal(cfg["mean"], mean)
    np.testing.assert_array_equal(cfg["scale"], std)
    assert "Type a message to classify it." in element
    assert '<g class="sd-star" transform="translate(58.0 304.0)" hidden="">' in element


def test_the_score_is_the_classifiers_on_standardized_features():
    ex, X2, _ = chapter()
    mean, std = X2.mean(axis=0), X2.std(axis=0)
    r = pl.perceptron((X2 - mean) / std, ex.y, tau=100)
    model = SpamModel.make(r.theta, r.theta_0, mean=mean, scale=std)
    for message in [*ex.messages, ex.test_message, "FREE MONEY!!! 0800"]:
        x = pl.spam_features(message)
        z = (x[:2] - mean) / std
        assert model.score(x) == pytest.approx(float(r.theta @ z + r.theta_0), abs=1e-12)
        assert model.verdict(x) == pl.predict(z[None, :], r.theta, r.theta_0)[0]
        a, c = model.raw_line()  # the same line in the raw features, for the explorer
        assert float(a @ x[:2] + c) == pytest.approx(model.score(x), abs=1e-9)


def test_messages_and_labels_cannot_break_out():
    ex, X2, r2 = chapter()
    evil = '</textarea><script>alert(1)</script>"'
    element = spam_demo_html(r2.theta, r2.theta_0, X2, ex.y, message=evil,
                             examples={'<b>"label"</b>': evil})
    assert "<script>" not in element
    assert config_of(element)["examples"] == [evil]
    assert "&lt;/textarea&gt;&lt;script&gt;" in element


@pytest.mark.parametrize("kwargs,error", [
    ({"columns": (0, 3)}, ValueError), ({"columns": (0, 0)}, ValueError),
    ({"columns": (0,)}, ValueError), ({"scale": [1.0, 0.0]}, ValueError),
    ({"xlim": (1.0, 0.0)}, ValueError), ({"ylim": "wide"}, ValueError),
    ({"message": 5}, TypeError), ({"examples": {"one": 1}}, TypeError),
])
def test_bad_arguments_are_named(kwargs, error):
    ex, X2, r2 = chapter()
    with pytest.raises(error):
        spam_demo_html(r2.theta, r2.theta_0, X2, ex.y, **kwargs)


def test_ratios_round_half_up_exactly():
    assert [ratio_text(1, 16), ratio_text(1, 80), ratio_text(2, 15), ratio_text(0, 1)] == [
        "0.063", "0.013", "0.133", "0.000"]
    assert ratio_text(10, 4, places=0) == "3"
    assert score_text(-0.4281) == "\u22120.428"


def test_in_jupyter_the_demo_is_the_explorer_and_on_the_page_the_element():
    ex, X2, r2 = chapter()
    demo = SpamDemo(r2.theta, r2.theta_0, X2, ex.y, message=ex.test_message)
    bundle = demo._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle  # live in a kernel
    page = bundle["text/html"]
    assert page.startswith('<div class="spam-demo demo-kit"')
    fallback = page.split('<div class="spam-demo-fallback">', 1)[1].split("</figure>")[0]
    assert '<figure class="explorer-static">' in fallback and "data:image/png" in fallback
    assert demo.explorer.verdict == "not spam"
    with pytest.raises(TypeError, match="fallback"):
        SpamDemo(r2.theta, r2.theta_0, X2, ex.y, fallback="")
