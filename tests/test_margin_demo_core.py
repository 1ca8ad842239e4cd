"""Chapter 7's margin perceptron and bound in JavaScript (run under Node.js) are the library's.

The margin demo on the chapter's page runs in the reader's browser, so every number it
shows is computed twice: by ``perceptron_lib`` and by ``book/_demos/margin/margin-core.mjs``.
Both get the same data sets (separable with a known separator, flipped labels, XOR,
integer points with ties) with thresholds ``mu`` from 0 (the plain perceptron) to 2 and
many target margins ``gamma``, and must agree:

- the runs exactly: the same updates in the same order with the same scores, the same
  hypotheses and counts, as ``pl.margin_perceptron`` and as a plain loop written here;
  with ``mu = 0`` also as ``pl.perceptron``;
- the deficiencies, ``D`` (``pl.hinge_deficiency``) and Freund and Schapire's bound
  (``pl.freund_schapire_bound``, with ``R`` or, for ``mu > 0``, ``sqrt(R^2 + 2 mu)``) to
  a few units in the last place (sums and roots are taken in another order), also for the
  sequence visited after any number of steps (an example counted once per visit);
- the best ``gamma`` of the bound: no ``gamma`` of a fine grid gives a smaller bound;
- the positions of the mu slider, which ``perceptron_lib.demos.margin`` checks against.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import perceptron_lib as pl
from perceptron_lib.demos.margin import GAMMA_STEPS, MUS

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")
RTOL = 1e-13


def naive_margin_perceptron(X, y, mu, tau):
    """The margin perceptron with an offset, as the pseudocode reads, on lists."""
    d = len(X[0])
    theta, theta_0 = [0.0] * d, 0.0
    history, per_epoch, visits = [], [], [0] * len(X)
    mistakes, epochs, converged, steps = 0, 0, False, []
    for t in range(1, tau + 1):
        epochs = t
        changed = False
        per_epoch.append(0)
        for i, (x, label) in enumerate(zip(X, y, strict=True)):
            score = 0.0
            for j in range(d):
                score += theta[j] * x[j]
            score += theta_0
            visits[i] += 1
            mistakes += label * score <= 0
            if label * score <= mu:
                theta = [theta[j] + label * x[j] for j in range(d)]
                theta_0 += label
                history.append((t, i, score))
                per_epoch[-1] += 1
                changed = True
            steps.append((list(theta), theta_0, mistakes, list(visits)))
        if not changed:
            converged = True
            break
    return dict(theta=theta, theta_0=theta_0, history=history, per_epoch=per_epoch,
                mistakes=mistakes, epochs=epochs, converged=converged, steps=steps)


def naive_lifted(X, y, u, u_0, gamma):
    """Margins y (u . x + u_0) / ||(u, u_0)|| of the lifted points and d_i."""
    norm = math.sqrt(sum(v * v for v in u) + u_0 * u_0)
    m = [label * (sum(a * b for a, b in zip(u, x, strict=True)) + u_0) / norm
         for x, label in zip(X, y, strict=True)]
    return m, [max(0.0, gamma - v) for v in m]


def datasets():
    out = []
    for k, (g, t0) in enumerate([(0.1, 0.0), (0.05, 0.4), (0.2, -0.3)]):
        s = pl.make_separable(30 + 10 * k, 2, gamma=g, R=1.0 + k, theta_0=t0, seed=k)
        mm = pl.max_margin(s.X, s.y)
        out.append((f"separable {k}, max-margin separator", s.X, s.y, mm.theta, mm.theta_0))
        out.append((f"separable {k}, generating separator", s.X, s.y, s.theta, s.theta_0))
    for k, flip in enumerate((0.05, 0.1, 0.2)):
        s = pl.make_separable(40, 2, gamma=0.1, R=2.0, theta_0=0.2, seed=10 + k)
        yf = pl.flip_labels(s.y, flip, seed=k)
        out.append((f"{int(flip * 100)}% flipped", s.X, yf, s.theta, s.theta_0))
    X, y = pl.make_xor(5, spread=0.2, seed=1)
    out.append(("XOR", X, y, np.array([1.0, 0.0]), 0.0))
    rng = np.random.default_rng(7)
    for k in range(3):
        Xi = rng.integers(-3, 4, size=(12, 2)).astype(float)
        yi = rng.choice([-1.0, 1.0], size=12)
        out.append((f"integer points {k} (ties)", Xi, yi, np.array([1.0, -2.0]), 0.5))
    ex = pl.notes_example()
    out.append(("the notes' example", ex.X, ex.y, np.array([1.0, 1.0]), 0.0))
    return out


def cases():
    out = []
    for name, X, y, u, u_0 in datasets():
        R = float(np.sqrt((X * X).sum(1) + 1).max())
        gammas = [float(g) for g in np.linspace(R / 40, R, 12)]
        n = len(y)
        for mu in (0.0, 0.1, 0.5, 1.0, 5.0):
            out.append(dict(name=f"{name}, mu={mu}", X=X, y=y, u=u, u_0=float(u_0), mu=mu,
                            tau=60, gammas=gammas, stops=[1, n - 1, n, 2 * n + 3, 7 * n + 1]))
    return out


CASES = cases()


@pytest.fixture(scope="module")
def js_output(tmp_path_factory):
    if NODE is None:
        pytest.skip("Node.js not found: install nodejs to compare the page's margin demo")
    payload = {"cases": [{"X": c["X"].tolist(), "y": c["y"].tolist(), "mu": c["mu"],
                          "tau": c["tau"], "theta": c["u"].tolist(), "theta0": c["u_0"],
                          "gammas": c["gammas"], "stops": c["stops"]} for c in CASES]}
    path = tmp_path_factory.mktemp("margin-js") / "cases.json"
    path.write_text(json.dumps(payload))
    proc = subprocess.run([NODE, str(ROOT / "tests" / "js" / "run_margin_core.mjs"), str(path)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def js(js_output):
    return js_output["results"]


def test_the_sliders_are_what_python_reads(js_output):
    assert js_output["mus"] == list(MUS)
    assert js_output["gammaSteps"] == GAMMA_STEPS
    assert MUS[0] == 0 and list(MUS) == sorted(set(MUS))


def test_every_case_is_compared(js):
    assert len(js) == len(CASES) == 14 * 5
    # the cases do what they are meant to: runs that stop by tau and runs that converge,
    # updates that are not mistakes (mu > 0), and deficiencies that are zero and not
    assert any(r["run"]["converged"] for r in js) and not all(r["run"]["converged"] for r in js)
    assert any(r["run"]["updates"] > r["run"]["mistakes"] for r in js)
    assert any(a["D"] == 0 for r in js for a in r["atGamma"])


IDS = [c["name"] for c in CASES]


@pytest.mark.parametrize("k", range(len(CASES)), ids=IDS)
def test_the_run_is_the_librarys(js, k):
    c, got = CASES[k], js[k]["run"]
    X, y, mu, tau = c["X"], c["y"], c["mu"], c["tau"]
    ref = naive_margin_perceptron(X.tolist(), y.tolist(), mu, tau)
    assert [(h["epoch"], h["index"], h["score"]) for h in got["history"]] == ref["history"]
    assert got["theta"] == ref["theta"] and got["theta0"] == ref["theta_0"]
    assert (got["epochs"], got["converged"], got["perEpoch"]) == (
        ref["epochs"], ref["converged"], ref["per_epoch"])
    assert got["mistakes"] == ref["mistakes"]
    assert got["updates"] == len(ref["history"])
    # numpy's dot product may fuse or reorder the two products: the scores agree to the
    # last bits, the updates exactly
    lib = pl.margin_perceptron(X, y, margin=mu, tau=tau, trace=True)
    assert [(h["epoch"], h["index"]) for h in got["history"]] == [
        (u.epoch, u.index) for u in lib.history]
    np.testing.assert_allclose([h["score"] for h in got["history"]],
                               [u.score for u in lib.history], rtol=1e-14, atol=1e-13)
    for h, u in zip(got["history"], lib.history, strict=True):
        assert h["theta"] == u.theta.tolist() and h["theta0"] == u.theta_0
    np.testing.assert_array_equal(got["theta"], lib.theta)
    assert (got["theta0"], got["updates"], got["epochs"], got["converged"]) == (
        lib.theta_0, lib.mistakes, lib.epochs, lib.converged)
    if mu == 0:
        lib = pl.perceptron(X, y, tau=tau, trace=True)
        assert [(h["epoch"], h["index"]) for h in got["history"]] == [
            (u.epoch, u.index) for u in lib.history]
        np.testing.assert_array_equal(got["theta"], lib.theta)
        assert (got["theta0"], got["updates"], got["epochs"], got["converged"]) == (
            lib.theta_0, lib.mistakes, lib.epochs, lib.converged)


@pytest.mark.parametrize("k", range(len(CASES)), ids=IDS)
def test_deficiencies_and_bound_are_the_librarys(js, k):
    c, got = CASES[k], js[k]
    X, y = c["X"], c["y"]
    R = pl.radius(pl.add_offset_feature(X))
    assert got["R"] == pytest.approx(R, rel=RTOL)
    m, _ = naive_lifted(X.tolist(), y.tolist(), c["u"].tolist(), c["u_0"], 1.0)
    np.testing.assert_allclose(got["margins"], m, rtol=RTOL, atol=1e-15)
    Rmu = math.sqrt(R * R + 2 * c["mu"])
    assert got["Rmu"] == pytest.approx(Rmu, rel=RTOL)
    for a in got["atGamma"]:
        g = a["gamma"]
        _, d = naive_lifted(X.tolist(), y.tolist(), c["u"].tolist(), c["u_0"], g)
        D, d_lib = pl.hinge_deficiency(X, y, c["u"], c["u_0"], g, per_example=True)
        np.testing.assert_allclose(a["d"], d, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(a["d"], d_lib, rtol=1e-12, atol=1e-14)
        assert a["D"] == pytest.approx(math.sqrt(sum(v * v for v in d)), rel=1e-12, abs=1e-14)
        assert a["D"] == pytest.approx(D, rel=1e-12, abs=1e-14)
        assert a["bound"] == pytest.approx(pl.freund_schapire_bound(R, g, D), rel=1e-12)
        assert a["boundMu"] == pytest.approx(pl.freund_schapire_bound(Rmu, g, D), rel=1e-12)
        if D == 0:  # separable at gamma: the margin perceptron's own bound
            assert a["boundMu"] == pytest.approx(pl.margin_perceptron_bound(R, g, c["mu"]),
                                                 rel=1e-12)


@pytest.mark.parametrize("k", range(len(CASES)), ids=IDS)
def test_the_state_after_some_steps(js, k):
    c, got = CASES[k], js[k]
    X, y, u, u_0 = c["X"], c["y"], c["u"], c["u_0"]
    ref = naive_margin_perceptron(X.tolist(), y.tolist(), c["mu"], c["tau"])
    R = pl.radius(pl.add_offset_feature(X))
    Rmu = math.sqrt(R * R + 2 * c["mu"])
    g = c["gammas"][0]
    for s in got["stops"]:
        j = min(s["steps"], len(ref["steps"])) - 1
        theta, theta_0, mistakes, visits = ref["steps"][j]
        assert (s["theta"], s["theta0"], s["mistakes"], s["visits"]) == (
            theta, theta_0, mistakes, visits)
        # D of the visited sequence: the rows repeated as often as they were visited
        rows = np.repeat(np.arange(len(y)), visits)
        _, d = naive_lifted(X[rows].tolist(), y[rows].tolist(), u.tolist(), u_0, g)
        D = pl.hinge_deficiency(X[rows], y[rows], u, u_0, g) if len(rows) else 0.0
        assert D == pytest.approx(math.sqrt(sum(v * v for v in d)), rel=1e-12, abs=1e-14)
        assert s["D"] == pytest.approx(D, rel=1e-12, abs=1e-14)
        assert s["bound"] == pytest.approx(pl.freund_schapire_bound(Rmu, g, D), rel=1e-12)
        if all(v == visits[0] for v in visits):  # whole passes: the library's passes=
            D1 = pl.hinge_deficiency(X, y, u, u_0, g)
            assert s["bound"] == pytest.approx(
                pl.freund_schapire_bound(Rmu, g, D1, passes=visits[0]), rel=1e-12)
        if any(theta):
            assert s["margin"] == pytest.approx(pl.margin(X, y, theta, theta_0), rel=1e-12,
                                                abs=1e-14)
        else:
            assert s["margin"] is None
        assert s["chart"] == chart_after(X, y, c["mu"], c["tau"], s["steps"])


def chart_after(X, y, mu, tau, steps):
    """Updates per finished pass and the training mistakes after it, from the library."""
    n = len(y)
    ref = pl.margin_perceptron(X, y, margin=mu, tau=tau, trace=True)
    steps = min(steps, ref.epochs * n)
    done = steps // n if steps < ref.epochs * n else ref.epochs
    rows, theta, theta_0 = [], np.zeros(X.shape[1]), 0.0
    for t in range(1, done + 1):
        mine = [u for u in ref.history if u.epoch == t]
        if mine:
            theta, theta_0 = mine[-1].theta, mine[-1].theta_0
        wrong = int(np.sum(y * (X @ theta + theta_0) <= 0))
        rows.append({"epoch": t, "updates": len(mine), "mistakes": wrong})
    partial = None
    if steps % n and steps < ref.epochs * n:
        t = done + 1
        partial = {"epoch": t, "updates": sum(
            1 for u in ref.history if u.epoch == t and u.index < steps % n)}
    return {"rows": rows, "partial": partial}


def grid_bound(m, R, counts, gammas):
    """The bound at each gamma of a grid, computed naively from the margins m."""
    m = np.asarray(m)[:, None]
    d = np.maximum(0.0, np.asarray(gammas)[None, :] - m)
    D = np.sqrt((np.asarray(counts)[:, None] * d * d).sum(0))
    return ((R + D) / gammas) ** 2


@pytest.mark.parametrize("k", range(len(CASES)), ids=IDS)
def test_no_gamma_beats_the_best_one(js, k):
    c, got = CASES[k], js[k]
    X, y, u, u_0 = c["X"], c["y"], c["u"], c["u_0"]
    R = pl.radius(pl.add_offset_feature(X))
    Rmu = math.sqrt(R * R + 2 * c["mu"])
    gammas = np.linspace(R / 4000, R, 4000)
    stops = [(np.ones(len(y), dtype=int), R, got["best"])] + [
        (np.array(s["visits"]), Rmu, s["best"]) for s in got["stops"]]
    for counts, radius, best in stops:
        assert best is not None and 0 < best["gamma"] <= R * (1 + 1e-15)
        rows = np.repeat(np.arange(len(y)), counts)
        D = pl.hinge_deficiency(X[rows], y[rows], u, u_0, best["gamma"])
        assert best["D"] == pytest.approx(D, rel=1e-12, abs=1e-14)
        assert best["bound"] == pytest.approx(
            pl.freund_schapire_bound(radius, best["gamma"], D), rel=1e-12)
        grid = grid_bound(got["margins"], radius, counts, gammas)
        assert best["bound"] <= grid.min() * (1 + 1e-9)
