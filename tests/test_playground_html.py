"""perceptron_lib.demos.playground: the element a page turns into a browser playground."""

import json
from html.parser import HTMLParser

import numpy as np
import pytest

import perceptron_lib as pl
from perceptron_lib.demos.playground import Playground, best_margin, playground_html


class _Divs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.divs: list[dict] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "div":
            self.divs.append(dict(attrs))

    def handle_data(self, data):
        self.text.append(data)


def parse(html: str) -> tuple[dict, str]:
    p = _Divs()
    p.feed(html)
    assert len(p.divs) == 1
    return p.divs[0], "".join(p.text)


def test_the_element_carries_the_data_exactly():
    data = pl.make_separable(25, d=2, gamma=0.1, R=1.5, theta_0=0.3, seed=3)
    notes = pl.notes_example()
    attrs, _ = parse(playground_html({"generated": (data.X, data.y), "notes": (notes.X, notes.y)},
                                     tau=7, mode="margin"))
    assert attrs["class"] == "perceptron-playground demo-kit demo-framed"
    assert (attrs["data-tau"], attrs["data-offset"], attrs["data-mode"]) == ("7", "true", "margin")
    sets = json.loads(attrs["data-datasets"])
    assert [s["name"] for s in sets] == ["generated", "notes"]
    # floats survive the trip bit for bit (JSON writes the shortest exact repr)
    np.testing.assert_array_equal(np.array(sets[0]["X"]), data.X)
    np.testing.assert_array_equal(np.array(sets[0]["y"]), data.y)
    np.testing.assert_array_equal(np.array(sets[1]["X"]), notes.X)
    assert all("best_gamma" not in s for s in sets)


def test_defaults_and_through_origin():
    attrs, text = parse(playground_html({"two": ([[1, 0], [-1, 0]], [1, -1])}, offset=False))
    assert attrs["data-tau"] == "100" and attrs["data-offset"] == "false"
    assert "data-mode" not in attrs
    assert "tasks.py serve" in text  # the fallback says how to see it


def test_names_and_fallback_cannot_break_out_of_the_attribute():
    name = 'a "quoted" name </div><script>alert(1)</script>'
    attrs, _ = parse(playground_html({name: ([[1, 0], [-1, 0]], [1, -1])}))
    assert json.loads(attrs["data-datasets"])[0]["name"] == name


def _best_margin_by_sweep(X, y, offset):
    """Naive reference: the best margin over 200,001 directions (2-D) or a lifted grid."""
    X = np.asarray(X, float)
    if offset:
        X = np.column_stack([X, np.ones(len(X))])
    if X.shape[1] == 2:
        a = np.linspace(0, 2 * np.pi, 200_001)
        U = np.column_stack([np.cos(a), np.sin(a)])
    else:
        a, b = np.meshgrid(np.linspace(0, 2 * np.pi, 1201), np.linspace(-np.pi / 2, np.pi / 2, 601))
        U = np.column_stack([(np.cos(b) * np.cos(a)).ravel(), (np.cos(b) * np.sin(a)).ravel(),
                             np.sin(b).ravel()])
    return float(np.max(np.min((U @ X.T) * y, axis=1)))


@pytest.mark.parametrize("offset", [False, True])
def test_best_margin_matches_a_naive_sweep(offset):
    data = pl.make_separable(30, d=2, gamma=0.2, R=1.0, seed=5)
    got = best_margin(data.X, data.y, offset=offset)
    naive = _best_margin_by_sweep(data.X, data.y, offset)
    assert got >= naive - 1e-9  # the sweep can only miss the optimum
    assert got == pytest.approx(naive, abs=3e-3 if offset else 1e-4)


def test_best_margin_with_an_offset_is_that_of_the_lifted_points():
    # two points on one side of the origin: no line through the origin separates them,
    # one with an offset does, and the theorem then works with (x, 1)
    X, y = [[2.0, 0.0], [1.0, 0.0]], [1, -1]
    with pytest.raises(ValueError, match="separable"):
        best_margin(X, y, offset=False)
    lifted = pl.add_offset_feature(np.array(X))
    assert best_margin(X, y) == pytest.approx(pl.max_margin(lifted, y, offset=False).gamma)
    # the lifted margin is smaller than the best margin with an offset in the plane
    assert best_margin(X, y) < pl.max_margin(X, y).gamma


def test_show_best_margin_adds_it_per_data_set():
    data = pl.make_separable(20, d=2, gamma=0.3, R=1.0, seed=2)
    attrs, _ = parse(playground_html({"d": (data.X, data.y)}, offset=False, show_best_margin=True))
    (d,) = json.loads(attrs["data-datasets"])
    assert d["best_gamma"] == pytest.approx(pl.max_margin(data.X, data.y, offset=False).gamma)
    assert d["best_gamma"] >= data.gamma - 1e-12  # at least the generating separator's


@pytest.mark.parametrize(
    ("datasets", "options", "error", "match"),
    [
        ({}, {}, ValueError, "non-empty mapping"),
        ([([[1, 0]], [1])], {}, ValueError, "non-empty mapping"),
        ({"": ([[1, 0]], [1])}, {}, ValueError, "non-empty strings"),
        ({"a": [[1, 0]]}, {}, TypeError, "pair"),
        ({"a": ([[1, 0, 2]], [1])}, {}, ValueError, "2 columns"),
        ({"a": ([[1, 0], [0, 1]], [0, 1])}, {}, ValueError, "-1"),
        ({"a": ([[np.nan, 0]], [1])}, {}, ValueError, "NaN|finite"),
        ({"a": ([[1, 0], [0, 1]], [1])}, {}, ValueError, "rows|length|shape"),
        ({"a": ([[1, 0]], [1])}, {"tau": 0}, ValueError, "tau"),
        ({"a": ([[1, 0]], [1])}, {"mode": "margins"}, ValueError, "mode"),
        ({"xor": pl.make_xor(2, seed=0)}, {"show_best_margin": True}, ValueError, "separable"),
    ],
)
def test_bad_input_is_named(datasets, options, error, match):
    with pytest.raises(error, match=match):
        playground_html(datasets, **options)


def test_playground_object_displays_the_element():
    pg = Playground({"two": ([[1, 0], [-1, 0]], [1, -1])}, tau=3)
    assert pg._repr_html_() == playground_html({"two": ([[1, 0], [-1, 0]], [1, -1])}, tau=3)
    assert repr(pg) == "<perceptron playground, 1 data set>"


def test_the_element_id_keys_the_url_state_and_is_stable():
    two = {"two": ([[1, 0], [-1, 0]], [1, -1])}
    a, _ = parse(playground_html(two))
    b, _ = parse(playground_html(two))
    c, _ = parse(playground_html(two, tau=5))
    d, _ = parse(playground_html({"two": ([[1, 0], [-1, 0.5]], [1, -1])}))
    assert a["id"] == b["id"] and a["id"].startswith("playground-") and len(a["id"]) == 19
    assert len({a["id"], c["id"], d["id"]}) == 3
    given, _ = parse(playground_html(two, element_id="pg-ch1"))
    assert given["id"] == "pg-ch1"


@pytest.mark.parametrize("bad", ["", "1abc", "a b", "x" * 65, "a\"><script>", 5])
def test_a_bad_element_id_is_refused(bad):
    with pytest.raises(ValueError, match="element_id"):
        playground_html({"two": ([[1, 0], [-1, 0]], [1, -1])}, element_id=bad)


def test_the_kernel_playground_has_a_stable_id_too():
    from perceptron_lib.demos.kernel import kernel_playground_html

    xor = {"XOR": ([[1, 1], [-1, -1], [1, -1], [-1, 1]], [1, 1, -1, -1])}
    a, _ = parse(kernel_playground_html(xor).split("\n")[0] + "</div>")
    b, _ = parse(kernel_playground_html(xor, degree=3).split("\n")[0] + "</div>")
    assert a["id"].startswith("kernel-playground-") and a["id"] != b["id"]
    with pytest.raises(ValueError, match="element_id"):
        kernel_playground_html(xor, element_id="no spaces")


def test_margin_mode_carries_each_separable_data_sets_best_separator():
    # chapter 3 draws it dashed and writes gamma_opt beside the current margin
    data = pl.make_separable(25, d=2, gamma=0.1, R=1.5, theta_0=0.3, seed=3)
    xor = ([[1, 1], [-1, -1], [1, -1], [-1, 1]], [1, 1, -1, -1])
    attrs, _ = parse(playground_html({"d": (data.X, data.y), "XOR": xor}, mode="margin"))
    d, x = json.loads(attrs["data-datasets"])
    best = pl.max_margin(data.X, data.y)
    assert d["max_margin"]["gamma"] == pytest.approx(best.gamma, rel=1e-12)
    np.testing.assert_allclose(d["max_margin"]["theta"], best.theta, rtol=1e-12)
    assert d["max_margin"]["theta0"] == pytest.approx(best.theta_0, rel=1e-12)
    assert pl.margin(data.X, data.y, d["max_margin"]["theta"],
                     d["max_margin"]["theta0"]) == pytest.approx(best.gamma, rel=1e-9)
    assert "max_margin" not in x  # not separable: nothing to show
    plain, _ = parse(playground_html({"d": (data.X, data.y)}))
    assert "max_margin" not in json.loads(plain["data-datasets"])[0]
