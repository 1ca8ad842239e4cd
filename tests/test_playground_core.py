"""The page's perceptron (JavaScript, run under Node.js) makes the library's updates.

The playground on the site runs in the reader's browser, so the algorithm exists twice:
here in Python and in ``book/_demos/kit/perceptron-core.mjs``.  Both get the same data
sets (ties, non-separable data, through the origin or not) and must make the same
updates, in the same order, with the same hypotheses.
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


def cases():
    out = []
    ex = pl.notes_example()
    out.append(("worked example", ex.X, ex.y, 100, True))
    off = pl.offset_example()
    out.append(("offset example", off.X, off.y, 100, True))
    out.append(("offset example through the origin", off.X, off.y, 20, False))
    out.append(("lifted offset example", pl.add_offset_feature(off.X), off.y, 100, False))
    X, y = pl.make_xor(3, spread=0.0, seed=0)
    out.append(("XOR, with ties", X, y, 7, True))
    rng = np.random.default_rng(5)
    for k in range(6):
        Xi = rng.integers(-3, 4, size=(12, 2)).astype(float)
        yi = rng.choice([-1.0, 1.0], size=12)
        out.append((f"integer data {k} (ties)", Xi, yi, 15, bool(k % 2)))
    sep = pl.make_separable(40, 2, gamma=0.05, seed=3)
    out.append(("separable, small margin", sep.X, sep.y, 200, True))
    Xn, yn = pl.make_noisy(60, 2, seed=4)
    out.append(("10% flipped labels", Xn, yn, 10, True))
    return out


@pytest.fixture(scope="module")
def js_results(tmp_path_factory):
    if NODE is None:
        pytest.skip("Node.js not found: install nodejs to compare the page's perceptron")
    data = {"cases": [{"X": X.tolist(), "y": y.tolist(), "tau": tau, "offset": offset}
                      for _, X, y, tau, offset in cases()]}
    path = tmp_path_factory.mktemp("js") / "cases.json"
    path.write_text(json.dumps(data))
    proc = subprocess.run([NODE, str(ROOT / "tests" / "js" / "run_core.mjs"), str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["results"]


@pytest.mark.parametrize("k", range(len(cases())), ids=[c[0] for c in cases()])
def test_same_updates_in_python_and_javascript(js_results, k):
    _, X, y, tau, offset = cases()[k]
    fn = pl.perceptron if offset else pl.perceptron_through_origin
    ref = fn(X, y, tau=tau, trace=True, method="loop")
    got = js_results[k]
    assert [(h["epoch"], h["index"]) for h in got["history"]] == [
        (u.epoch, u.index) for u in ref.history]
    for h, u in zip(got["history"], ref.history, strict=True):
        np.testing.assert_array_equal(np.array(h["theta"], dtype=float), u.theta)
        assert h["theta0"] == u.theta_0
        assert h["score"] == pytest.approx(u.score, rel=1e-12, abs=1e-12)
    np.testing.assert_array_equal(np.array(got["theta"], dtype=float), ref.theta)
    assert (got["theta0"], got["mistakes"], got["epochs"], got["converged"]) == (
        ref.theta_0, ref.mistakes, ref.epochs, ref.converged)


def epoch_totals_reference(X, y, result, visits: int | None = None) -> dict:
    """The chart's numbers, from the library's traced run, written plainly.

    For every finished epoch: the updates in it and the training examples that the
    hypothesis after it gets wrong (y * score <= 0); and the epoch in progress after
    ``visits`` visits, if any.
    """
    n = len(X)
    total_visits = (result.epochs - 1) * n + n if result.history or result.epochs else 0
    if visits is None or visits >= total_visits:
        visits = total_visits
        finished = result.epochs
    else:
        finished = visits // n
    theta, theta_0 = np.zeros(X.shape[1]), 0.0
    rows = []
    for t in range(1, finished + 1):
        ups = [u for u in result.history if u.epoch == t]
        if ups:
            theta, theta_0 = ups[-1].theta, ups[-1].theta_0
        wrong = sum(1 for i in range(n) if y[i] * (float(np.dot(theta, X[i])) + theta_0) <= 0)
        rows.append({"epoch": t, "updates": len(ups), "mistakes": wrong})
    partial = None
    if visits < total_visits and visits % n:
        t = finished + 1
        partial = {"epoch": t, "updates": sum(
            1 for u in result.history if u.epoch == t and u.index < visits % n)}
    return {"rows": rows, "partial": partial}


@pytest.mark.parametrize("k", range(len(cases())), ids=[c[0] for c in cases()])
def test_epoch_chart_numbers_match_the_library(js_results, k):
    _, X, y, tau, offset = cases()[k]
    fn = pl.perceptron if offset else pl.perceptron_through_origin
    ref = fn(X, y, tau=tau, trace=True, method="loop")
    got = js_results[k]
    assert got["epochTotals"] == epoch_totals_reference(X, y, ref)
    assert [r["updates"] for r in got["epochTotals"]["rows"]] == [
        sum(1 for u in ref.history if u.epoch == t) for t in range(1, ref.epochs + 1)]
    part = got["epochTotalsPart"]
    assert part["totals"] == epoch_totals_reference(X, y, ref, part["visits"])
