"""Held-out test sets: drawn from the training data's distribution, checked on the way in.

Chapters 1, 6 and 7 give their demos a held-out test set.  ``sample_like`` draws it from
the distribution that made a :func:`make_separable` data set; the page embedders take it
beside the training data and refuse a bad one with a message that names the data set.
"""

import json
import re

import numpy as np
import pytest

import perceptron_lib as pl
from perceptron_lib.demos.kernel import kernel_playground_html
from perceptron_lib.demos.margin import MarginDemo
from perceptron_lib.demos.playground import playground_html


def datasets_of(html: str) -> list[dict]:
    import html as h
    return json.loads(h.unescape(re.search(r'data-datasets="([^"]*)"', html).group(1)))


@pytest.mark.parametrize("theta_0", [0.0, 0.3])
@pytest.mark.parametrize("d", [1, 2, 5])
def test_sample_like_keeps_the_separator_the_margin_and_the_ball(d, theta_0):
    train = pl.make_separable(30, d=d, gamma=0.15, R=1.5, theta_0=theta_0, seed=d)
    X, y = pl.sample_like(train, 400, seed=9)
    assert X.shape == (400, d) and set(np.unique(y)) == {-1.0, 1.0}
    signed = y * (X @ train.theta + train.theta_0)
    assert signed.min() >= train.gamma - 1e-12
    assert np.linalg.norm(X, axis=1).max() <= train.R * (1 + 1e-12)
    # the same distribution, not the same points; another seed, other points
    assert not np.isin(X, train.X).all()
    assert not np.array_equal(X, pl.sample_like(train, 400, seed=10)[0])
    assert np.array_equal(X, pl.sample_like(train, 400, seed=9)[0])


def test_sample_like_flips_the_fraction_asked_for():
    train = pl.make_separable(30, gamma=0.1, seed=2)
    X, clean = pl.sample_like(train, 200, seed=5)
    X2, noisy = pl.sample_like(train, 200, flip=0.1, seed=5)
    assert np.array_equal(X, X2) and int((clean != noisy).sum()) == 20


def test_sample_like_refuses_what_is_not_a_generated_data_set():
    with pytest.raises(TypeError, match="make_separable"):
        pl.sample_like((np.zeros((2, 2)), np.array([1, -1])), 10)
    with pytest.raises(ValueError, match="n must be at least 1"):
        pl.sample_like(pl.make_separable(10, seed=1), 0)


def test_the_playground_carries_a_test_set_and_names_a_bad_one():
    X, y = [[1, 0], [-1, 0]], [1, -1]
    sets = datasets_of(playground_html({"two": (X, y, [[2, 0], [0, 1]], [1, -1])}))
    assert sets[0]["X_test"] == [[2.0, 0.0], [0.0, 1.0]] and sets[0]["y_test"] == [1, -1]
    with pytest.raises(ValueError, match=r"test set of data set 'two'.*3 columns"):
        playground_html({"two": (X, y, [[2, 0, 1]], [1])})
    with pytest.raises(ValueError, match="test set of data set 'two'"):
        playground_html({"two": (X, y, [[2, 0]], [3])})
    with pytest.raises(TypeError, match=r"\(X, y, X_test, y_test\)"):
        playground_html({"two": (X, y, [[2, 0]])})


def test_the_kernel_playground_takes_test_sets_by_name():
    X, y = [[1, 1], [-1, -1], [1, -1], [-1, 1]], [1, 1, -1, -1]
    html = kernel_playground_html({"XOR": (X, y), "other": (X, y)},
                                  held_out={"XOR": (X, y)})
    sets = datasets_of(html)
    assert "X_test" in sets[0] and "X_test" not in sets[1]
    with pytest.raises(ValueError, match=r"\['nope'\]"):
        kernel_playground_html({"XOR": (X, y)}, held_out={"nope": (X, y)})


def test_the_margin_demo_needs_both_halves_of_a_test_set():
    X, y = np.array([[1.0, 1.0], [-1.0, -1.0]]), np.array([1, -1])
    spec = {"X": X, "y": y, "theta": [1.0, 1.0], "theta_0": 0.0}
    demo = MarginDemo({"a": {**spec, "X_test": X, "y_test": y}})
    assert demo.datasets[0]["y_test"] == [1, -1]
    with pytest.raises(ValueError, match="both X_test and y_test"):
        MarginDemo({"a": {**spec, "X_test": X}})
