"""Chapter 6's kernel perceptron in JavaScript (run under Node.js) is the library's.

The kernel playground on the chapter's page runs in the reader's browser, so the kernel
perceptron exists twice: ``perceptron_lib.kernel_perceptron`` and
``book/_demos/kernel/kernel-core.mjs``.  Both get the chapter's four data sets with
every kernel the playground's controls can choose (linear, polynomial of degree 1 to 6,
RBF at each of the 41 positions of the gamma slider), and the XOR clouds as a reader may
edit them on the page, and must make the same updates in the same order, end with the
same alphas, offsets and counts, and agree on the decision values on a grid over the
picture.

On exactness.  The updates, the alphas (counts), theta_0 (a sum of labels), the numbers
of epochs and the training errors are compared exactly.  Scores and decision values are
compared exactly on the XOR corners with the linear and polynomial kernels, where every
number is a small integer and no rounding happens.  Elsewhere floating point forces a
tolerance: JavaScript computes exp, and numpy its own vectorised exp, and the two may
differ in the last bit (RBF); numpy's matrix products also go through BLAS, which uses
fused multiply-adds and sums in blocks, and numpy raises to powers 3 to 6 with its own
pow, where the page multiplies left to right.  Each difference is held to a bound on the
rounding error of the sum, ``C * u * (sum_j |alpha_j| M_j + |theta_0|)`` with ``u`` the
unit roundoff and ``M_j`` the size of the kernel term computed on absolute values (for
RBF, times ``1 + gamma`` times the squared sizes that enter the exponent): a difference
beyond it would be a different computation, not rounding.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from kernel_cases import GAMMAS, chapter6_kernel_data, every_kernel, kernel_of

import perceptron_lib as pl
from perceptron_lib.widgets._base import _view_box

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")
U = np.finfo(float).eps / 2  # unit roundoff of float64
GRID = 30  # cells per side of the grid the decision values are compared on
TAU = 100


def cases() -> list[tuple[str, np.ndarray, np.ndarray, dict, int, bool]]:
    out = []
    data = chapter6_kernel_data()
    for name, (X, y) in data.items():
        for spec in every_kernel():
            label = spec["kind"] + "".join(f" {k}={v}" for k, v in spec.items()
                                           if k in ("degree", "gamma"))
            out.append((f"{name}, {label}", X, y, spec, TAU, True))
    # through the origin, as in the chapter's exercise on a very narrow RBF kernel
    Xx, yf = data["XOR clouds, 10% flipped"]
    for g in (1.0, 100.0):
        out.append((f"flipped clouds, RBF gamma={g}, no offset", Xx, yf,
                    {"kind": "RBF", "gamma": g}, TAU, False))
    # the XOR clouds as a reader edits them on the page: a point of the other label in the
    # middle of each cloud (on the playground's 0.1 grid), one point moved, one removed
    Xx, yx = data["XOR clouds"]
    Xe = np.vstack([np.delete(Xx, 5, axis=0), [[1.0, 1.0], [-0.9, -1.0], [1.1, -1.0],
                                               [-1.0, 0.9]]])
    Xe[0] = [0.3, 1.7]
    ye = np.append(np.delete(yx, 5), [-1, -1, 1, 1])
    for spec in ({"kind": "polynomial", "degree": 2, "coef0": 1.0}, {"kind": "RBF", "gamma": 1.0},
                 {"kind": "RBF", "gamma": 10.0}):
        out.append((f"edited XOR clouds, {spec['kind']} {spec.get('degree', spec.get('gamma'))}",
                    Xe, ye, spec, TAU, True))
    X, y = data["disc in a ring"]
    out.append(("disc in a ring, degree 3, tau=2", X, y,
                {"kind": "polynomial", "degree": 3, "coef0": 1.0}, 2, True))
    return out


CASES = cases()


@pytest.fixture(scope="module")
def js_output(tmp_path_factory):
    if NODE is None:
        pytest.skip("Node.js not found: install nodejs to compare the page's kernel perceptron")
    payload = {"cases": [{"X": X.tolist(), "y": y.tolist(), "kernel": spec, "tau": tau,
                          "offset": offset, "grid": GRID}
                         for _, X, y, spec, tau, offset in CASES]}
    path = tmp_path_factory.mktemp("kernel-js") / "cases.json"
    path.write_text(json.dumps(payload))
    proc = subprocess.run([NODE, str(ROOT / "tests" / "js" / "run_kernel_core.mjs"), str(path)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def rounding_bound(X: np.ndarray, P: np.ndarray, alpha: np.ndarray, theta_0: float,
                   spec: dict) -> np.ndarray:
    """How far two correct float64 evaluations of f at the points P may drift apart."""
    n = len(X)
    absdot = np.abs(X) @ np.abs(P).T
    degree = 1
    if spec["kind"] == "linear":
        M = absdot
    elif spec["kind"] == "polynomial":
        degree = spec["degree"]
        M = (absdot + abs(spec["coef0"])) ** degree
    else:
        size = (X * X).sum(1)[:, None] + (P * P).sum(1)[None, :] + 2 * absdot
        M = kernel_of(spec)(X, P) * (1 + spec["gamma"] * size)
    C = 2 * (n + 2 * degree + 8)
    return C * U * (np.abs(alpha) @ M + abs(theta_0)) + 1e-300


def exact_case(name: str, spec: dict) -> bool:
    """Cases in which every number is a small integer: no rounding, equality demanded."""
    return name.startswith("XOR corners") and spec["kind"] != "RBF"


def test_the_gamma_slider_values_are_what_python_reads(js_output):
    assert js_output["gammas"] == GAMMAS
    assert GAMMAS[0] == 0.01 and GAMMAS[20] == 1.0 and GAMMAS[-1] == 100.0
    assert len(set(GAMMAS)) == 41 and GAMMAS == sorted(GAMMAS)


def test_every_case_is_compared(js_output):
    assert len(js_output["results"]) == len(CASES) == 4 * (1 + 6 + 41) + 6


@pytest.mark.parametrize("k", range(len(CASES)), ids=[c[0] for c in CASES])
def test_same_updates_alphas_and_decisions(js_output, k):
    name, X, y, spec, tau, offset = CASES[k]
    got = js_output["results"][k]
    ref = pl.kernel_perceptron(X, y, kernel_of(spec), tau=tau, offset=offset, trace=True)

    # the sequence of updates, then the counts, exactly
    assert [(h["epoch"], h["index"]) for h in got["history"]] == [
        (u.epoch, u.index) for u in ref.history]
    np.testing.assert_array_equal(np.array(got["alpha"]), ref.alpha)
    assert (got["theta0"], got["mistakes"], got["epochs"], got["converged"]) == (
        ref.theta_0, ref.mistakes, ref.epochs, ref.converged)
    errors = int(np.sum(pl.kernel_predict(ref, X) != y))
    assert got["trainingErrors"] == errors

    # the score of every update (before it), and f on the training points and on a grid
    scores = np.array([h["score"] for h in got["history"]])
    ref_scores = np.array([u.score for u in ref.history])
    f_train = pl.kernel_decision(ref, X)
    view = got["view"]
    (x0, x1), (y0, y1) = _view_box(X, pad=0.6)
    assert (view["x0"], view["x1"], view["y0"], view["y1"]) == (x0, x1, y0, y1)
    # the view of edited points: the data set's while it holds them, else the one round them
    assert got["viewKept"] == view and got["viewAround"] == view
    P = np.array(got["grid"])
    assert P.shape == (GRID * GRID, 2)
    h = (x1 - x0) / GRID
    assert P[0] == pytest.approx([x0 + h / 2, y1 - h / 2])
    assert P[-1] == pytest.approx([x1 - h / 2, y0 + h / 2])
    f_grid = pl.kernel_decision(ref, P)
    if exact_case(name, spec):
        np.testing.assert_array_equal(scores, ref_scores)
        np.testing.assert_array_equal(np.array(got["decisionTrain"]), f_train)
    else:
        # the scores of updates: alpha as it was before each update
        alpha = np.zeros(len(y))
        theta_0 = 0.0
        bounds = []
        for u in ref.history:
            bounds.append(rounding_bound(X, X[u.index][None], alpha, theta_0, spec)[0])
            alpha[u.index] += 1
            theta_0 += y[u.index] if offset else 0.0
        assert np.all(np.abs(scores - ref_scores) <= np.array(bounds))
        bound = rounding_bound(X, X, ref.alpha, ref.theta_0, spec)
        assert np.all(np.abs(np.array(got["decisionTrain"]) - f_train) <= bound)
    bound = rounding_bound(X, P, ref.alpha, ref.theta_0, spec)
    diff = np.abs(np.array(got["decision"]) - f_grid)
    assert np.all(diff <= bound), f"largest excess {np.max(diff - bound):.3g}"


def test_the_bound_is_tight_enough_to_catch_a_wrong_kernel(js_output):
    # The tolerance must not hide a real difference: the degree-2 kernel with coef0 = 1
    # against the decision values of coef0 = 1 + 1e-9 already falls outside it.
    k = next(i for i, c in enumerate(CASES) if c[0] == "XOR clouds, polynomial degree=2")
    _, X, y, spec, tau, _ = CASES[k]
    got = js_output["results"][k]
    ref = pl.kernel_perceptron(X, y, pl.polynomial_kernel(2, 1.0 + 1e-9), tau=tau)
    P = np.array(got["grid"])
    diff = np.abs(np.array(got["decision"]) - pl.kernel_decision(ref, P))
    assert np.any(diff > rounding_bound(X, P, ref.alpha, ref.theta_0, spec))


def kernel_epoch_reference(X, y, spec, offset: bool, ref,
                           visits: int) -> tuple[list, list, dict | None]:
    """The chart's numbers from the library's traced run: per finished epoch the updates,
    and the least and most training mistakes after it that rounding allows; the epoch in
    progress after ``visits`` visits."""
    n = len(X)
    last_visit = ref.epochs * n
    visits = min(visits, last_visit)
    finished = ref.epochs if visits == last_visit else visits // n
    alpha, theta_0 = np.zeros(n), 0.0
    updates, bounds = [], []
    for t in range(1, finished + 1):
        ups = [u for u in ref.history if u.epoch == t]
        for u in ups:
            alpha[u.index] += 1
            theta_0 += y[u.index] if offset else 0.0
        f = (alpha * y) @ kernel_of(spec)(X, X) + theta_0
        slack = rounding_bound(X, X, alpha, theta_0, spec)
        updates.append(len(ups))
        bounds.append((int(np.sum(y * f < -slack)), int(np.sum(y * f <= slack))))
    partial = None
    if visits < last_visit and visits % n:
        partial = {"epoch": finished + 1, "updates": sum(
            1 for u in ref.history if u.epoch == finished + 1 and u.index < visits % n)}
    return updates, bounds, partial


@pytest.mark.parametrize("k", range(0, len(CASES), 7), ids=[c[0] for c in CASES[::7]])
def test_epoch_chart_numbers_match_the_library(js_output, k):
    _, X, y, spec, tau, offset = CASES[k]
    ref = pl.kernel_perceptron(X, y, kernel_of(spec), tau=tau, offset=offset, trace=True)
    got = js_output["results"][k]
    for totals, visits in ((got["epochTotals"], ref.epochs * len(X)),
                           (got["epochTotalsMidway"]["totals"], got["epochTotalsMidway"]["steps"])):
        updates, bounds, partial = kernel_epoch_reference(X, y, spec, offset, ref, visits)
        assert [r["epoch"] for r in totals["rows"]] == list(range(1, len(updates) + 1))
        assert [r["updates"] for r in totals["rows"]] == updates
        for r, (lo, hi) in zip(totals["rows"], bounds, strict=True):
            assert lo <= r["mistakes"] <= hi, (r, lo, hi)
        assert totals["partial"] == partial
    # a clean epoch leaves no mistake (y f <= 0 counts, a point on the boundary too)
    last = got["epochTotals"]["rows"][-1]
    if ref.converged:
        assert last["mistakes"] == 0
