"""The numbers the demos' tooltips and shading show are the library's (Node.js).

Hovering or focusing a point of a demo shows its score, its margin and whether the next
update would happen on it (``book/_demos/kit/point-tip.mjs``); the plane is shaded by the
score on a scale capped at the data's largest |score| (``score-shade.mjs``); chapter 3's
labels are placed apart (``label-place.mjs``).  Here the same numbers come from
``perceptron_lib``: ``point_margins`` for the margins of a linear hypothesis, the
kernel perceptron and the Gram matrix for chapter 6's margins in feature space.
"""

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import perceptron_lib as pl

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")
RUNNER = str(ROOT / "tests" / "js" / "run_point_tip.mjs")


def linear_cases():
    rng = np.random.default_rng(11)
    out = []
    for k in range(6):
        X = np.round(rng.normal(0, 2, size=(15, 2)), 1)
        y = rng.choice([-1.0, 1.0], size=15)
        theta = np.round(rng.normal(0, 1.5, size=2), 2)
        theta0 = float(np.round(rng.normal(), 2))
        out.append((X, y, theta, theta0, [0.0, 0.5, 0.0, 1.0, 0.0, 2.0][k]))
    ex = pl.notes_example()
    out.append((ex.X, ex.y, np.array([1.0, -1.0]), 1.0, 0.0))
    out.append((ex.X, ex.y, np.zeros(2), 0.0, 0.0))  # theta = 0: no margin, all updates
    X = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]])
    out.append((X, np.array([1.0, -1.0, 1.0]), np.array([1.0, -1.0]), 0.0, 0.0))  # a tie
    return out


KERNELS = [
    ({"kind": "polynomial", "degree": 2, "coef0": 1}, lambda: pl.polynomial_kernel(2, 1.0), True),
    ({"kind": "RBF", "gamma": 1}, lambda: pl.rbf_kernel(1.0), True),
    ({"kind": "linear"}, pl.linear_kernel, False),
]


def kernel_cases():
    X, y = pl.make_xor(3, spread=0.2, seed=2)
    return [(X, y, spec, make, offset, steps) for spec, make, offset in KERNELS
            for steps in (5, 1000)]


LABELS = [
    {"items": [{"x": 50, "y": 50, "w": 20, "h": 10}] * 3, "obstacles": [], "r": 8,
     "bounds": {"x0": 0, "y0": 0, "x1": 100, "y1": 100}},
    {"items": [{"x": 20, "y": 20, "w": 30, "h": 10}, {"x": 22, "y": 21, "w": 30, "h": 10}],
     "obstacles": [{"x0": 12, "y0": 12, "x1": 28, "y1": 28}], "r": 8,
     "bounds": {"x0": 0, "y0": 0, "x1": 80, "y1": 60}},
    {"items": [{"x": 10, "y": 10, "w": 60, "h": 10}], "obstacles": [], "r": 8,
     "bounds": {"x0": 0, "y0": 0, "x1": 30, "y1": 30}},  # no room: hidden
]


@pytest.fixture(scope="module")
def js(tmp_path_factory):
    if NODE is None:
        pytest.skip("Node.js not found: install nodejs to compare the demos' tooltips")
    data = {
        "linear": [{"X": X.tolist(), "y": y.tolist(), "theta": t.tolist(), "theta0": t0,
                    "threshold": mu} for X, y, t, t0, mu in linear_cases()],
        "kernel": [{"X": X.tolist(), "y": y.tolist(), "kernel": spec, "tau": 100,
                    "offset": offset, "steps": steps}
                   for X, y, spec, _, offset, steps in kernel_cases()],
        "labels": LABELS,
    }
    path = tmp_path_factory.mktemp("js") / "cases.json"
    path.write_text(json.dumps(data))
    proc = subprocess.run([NODE, RUNNER, str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("k", range(len(linear_cases())))
def test_a_points_score_margin_and_update_are_the_librarys(js, k):
    X, y, theta, theta0, mu = linear_cases()[k]
    got = js["linear"][k]
    scores = X @ theta + theta0
    np.testing.assert_allclose([f["score"] for f in got["facts"]], scores, rtol=1e-12, atol=1e-12)
    if theta.any():
        margins = pl.point_margins(X, y, theta, theta0)
        np.testing.assert_allclose([f["margin"] for f in got["facts"]], margins, rtol=1e-12,
                                   atol=1e-12)
        assert min(f["margin"] for f in got["facts"]) == pytest.approx(
            pl.margin(X, y, theta, theta0), abs=1e-12)
    else:
        assert all(f["margin"] is None for f in got["facts"])
    assert [f["update"] for f in got["facts"]] == (y * scores <= mu).tolist()
    # the shading's scale: capped at the largest |score|, -1 to +1 across it
    assert got["cap"] == pytest.approx(np.abs(scores).max(), abs=1e-12)
    if got["cap"] > 0:
        np.testing.assert_allclose(got["levels"], scores / np.abs(scores).max(), atol=1e-12)
    else:
        assert got["levels"] == [0] * len(y)


@pytest.mark.parametrize("k", range(len(kernel_cases())))
def test_the_kernel_margin_in_feature_space_is_the_librarys(js, k):
    X, y, _, make, offset, steps = kernel_cases()[k]
    got = js["kernel"][k]
    # the library's run, stopped after the same visits
    n = len(y)
    full = pl.kernel_perceptron(X, y, make(), tau=max(1, -(-steps // n)), offset=offset,
                                trace=True)
    if steps >= n * full.epochs:
        alpha, theta0 = full.alpha, full.theta_0
    else:  # replay the recorded updates of the first `steps` visits
        alpha, theta0 = np.zeros(n), 0.0
        for u in full.history:
            if (u.epoch - 1) * n + u.index < steps:
                alpha[u.index] += 1
                theta0 += y[u.index] if offset else 0.0
    np.testing.assert_array_equal(got["alpha"], alpha)
    assert got["theta0"] == theta0
    G = pl.gram_matrix(make(), X)
    coef = alpha * y
    scores = G @ coef + theta0
    np.testing.assert_allclose([f["score"] for f in got["facts"]], scores, rtol=1e-9, atol=1e-9)
    norm = np.sqrt(coef @ G @ coef)
    assert got["norm"] == pytest.approx(norm, rel=1e-9)
    margins = [f["margin"] for f in got["facts"]]
    np.testing.assert_allclose(margins, y * scores / norm, rtol=1e-9, atol=1e-9)
    if not offset:  # through the origin the smallest is the library's kernel margin
        assert min(margins) == pytest.approx(pl.kernel_margin(G, y, coef), rel=1e-9)
    assert [f["update"] for f in got["facts"]] == (y * scores <= 0).tolist()


def test_labels_are_placed_apart_or_hidden(js):
    first, second, none = js["labels"]
    assert first[0] == [50, 50 + 8 + 2 + 5]  # below the point first
    assert first[1] == [50, 50 - 8 - 2 - 5]  # then above
    assert first[2] == [50 + 8 + 2 + 10, 50]  # then to the right
    # the second label may not cover the obstacle nor the first label
    assert all(c is not None for c in second), second
    boxes = [[c[0] - 15, c[1] - 5, c[0] + 15, c[1] + 5] for c in second]
    assert not (boxes[0][0] < boxes[1][2] and boxes[1][0] < boxes[0][2]
                and boxes[0][1] < boxes[1][3] and boxes[1][1] < boxes[0][3])
    for b in boxes:
        assert not (b[0] < 28 and 12 < b[2] and b[1] < 28 and 12 < b[3])
    assert none == [None]
