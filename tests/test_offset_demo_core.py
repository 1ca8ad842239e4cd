"""Chapter 2's offset demo in JavaScript (run under Node.js) is the library's arithmetic.

The demo on the chapter's page runs in the reader's browser, so lifting, the two
through-origin runs, margins and radii exist twice: in perceptron_lib and in
``book/_demos/offset/offset-core.mjs`` (on top of ``book/_demos/kit/perceptron-core.mjs``).
Both get the chapter's two data sets at every value of the demo's c slider, generated
data sets (integer and real coordinates, 1 and 2 features, separable labels and random
ones, several c), and several classifiers, and must agree:

- the lifted data equal ``pl.add_offset_feature(X, value=c)``, bit for bit;
- PERCEPTRON-THROUGH-ORIGIN on them makes the same updates (epoch, example, theta after
  it) as ``pl.perceptron_through_origin``, ends with the same theta and counts, and for
  ``c = 1`` and ``c = -1`` makes PERCEPTRON's updates (``pl.perceptron``);
- the run on the data as they are is ``pl.perceptron_through_origin`` on X;
- the chart of epochs of each run (the updates in every epoch, the training mistakes
  after it, the epoch in progress) is the library's traced run counted epoch by epoch,
  finished and midway; the lifted run's mistakes are those of the classifier
  ``(theta, c * theta'_last)`` read back on the data as they are;
- the reader's points read from a link are checked, and every bad one named;
- each classifier's lifted normal is ``(theta, theta_0 / c)`` exactly, its mistakes are
  counted alike, and margin, lifted margin, radius and lifted radius equal
  ``pl.margin`` and ``pl.radius`` up to rounding.

On exactness: theta is a sum of the examples' entries in the order of the updates, which
both sides add alike, so it is compared exactly.  A score is theta . x: numpy may sum it
with another order or a fused multiply-add, so a score is held to a bound on the rounding
error of the sum, ``(d + 2) u sum_j |theta_j x_j|`` with ``u`` the unit roundoff (it
matters where the sum cancels, near a score of 0).  Margins (which also divide by
numpy's norm) and radii are compared with a relative tolerance of 1e-12, far below any
difference a wrong formula makes (a test shows it catching a c off by 1e-9).
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from naive import naive_epoch_chart

import perceptron_lib as pl
from perceptron_lib.demos.offset import C_VALUES, THETA0_STEPS, THETA_STEPS

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")
RTOL = 1e-12
U = np.finfo(float).eps / 2  # unit roundoff of float64
TAU = 2000


def chapter_data() -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, float]]:
    """The chapter's two data sets and their separators, built as its cells build them."""
    ex = pl.offset_example()
    gen = pl.make_separable(100, d=2, gamma=0.1, R=1.0, seed=2)
    X_far = gen.X + 5 * gen.theta
    return {"offset example": (ex.X, ex.y, ex.theta, ex.theta_0),
            "generated data": (X_far, gen.y, gen.theta, gen.theta_0 - 5.0)}


def generated_cases(rng: np.random.Generator, count: int) -> list[tuple]:
    out = []
    for k in range(count):
        n, d = int(rng.integers(3, 16)), int(rng.integers(1, 3))
        if k % 3 == 2:  # real coordinates
            X = rng.normal(0.0, 2.0, size=(n, d)) + rng.normal(0.0, 3.0, size=d)
        else:
            X = rng.integers(-5, 6, size=(n, d)).astype(float)
        if k % 2 == 0:
            y = rng.choice([-1.0, 1.0], size=n)
        else:
            w, b = rng.integers(-3, 4, size=d), float(rng.integers(-3, 4))
            y = np.where(X @ w + b > 0, 1.0, -1.0)
        c = float(rng.choice(C_VALUES))
        out.append((f"generated {k} (n={n}, d={d}, c={c:g})", X, y, c, 50))
    return out


def classifiers(d: int, rng: np.random.Generator) -> list[tuple[np.ndarray, float]]:
    """Classifiers on the sliders' positions, the zero one included."""
    out = [(np.zeros(d), 0.0), (np.zeros(d), 1.5)]
    for _ in range(4):
        theta = rng.integers(THETA_STEPS[0], THETA_STEPS[1] + 1, size=d) / THETA_STEPS[2]
        theta_0 = int(rng.integers(THETA0_STEPS[0], THETA0_STEPS[1] + 1)) / THETA0_STEPS[2]
        out.append((theta, theta_0))
    return out


def cases() -> list[tuple[str, np.ndarray, np.ndarray, float, int, list]]:
    rng = np.random.default_rng(2026)
    out = []
    for name, (X, y, theta, theta_0) in chapter_data().items():
        # every c on the small example; every fifth on the generated data (a run
        # through the origin there takes a second in the library's traced loop)
        for c in C_VALUES if X.shape[1] == 1 else C_VALUES[::5]:
            hands = [(np.asarray(theta, float), float(theta_0)), *classifiers(X.shape[1], rng)]
            out.append((f"{name}, c={c:g}", X, y, c, TAU, hands))
        out.append((f"{name}, c=-1", X, y, -1.0, TAU, classifiers(X.shape[1], rng)))
    for name, X, y, c, tau in generated_cases(rng, 60):
        out.append((name, X, y, c, tau, classifiers(X.shape[1], rng)))
    return out


CASES = cases()


@functools.lru_cache(maxsize=8)
def _origin_run(X: bytes, d: int, y: bytes, tau: int):
    return pl.perceptron_through_origin(np.frombuffer(X).reshape(-1, d), np.frombuffer(y),
                                        tau=tau, trace=True)


def origin_run(X: np.ndarray, y: np.ndarray, tau: int):
    """The library's traced run through the origin on X (it does not depend on c: cached)."""
    X, y = np.ascontiguousarray(X, float), np.ascontiguousarray(y, float)
    return _origin_run(X.tobytes(), X.shape[1], y.tobytes(), tau)


@functools.lru_cache(maxsize=8)
def _origin_chart(X: bytes, d: int, y: bytes, tau: int) -> dict:
    X_, y_ = np.frombuffer(X).reshape(-1, d), np.frombuffer(y)
    return naive_epoch_chart(X_, y_, _origin_run(X, d, y, tau))


def origin_chart(X: np.ndarray, y: np.ndarray, tau: int) -> dict:
    """The naive chart of the run through the origin (the same for every c: cached; on the
    generated data it replays 2,000 epochs)."""
    X, y = np.ascontiguousarray(X, float), np.ascontiguousarray(y, float)
    return _origin_chart(X.tobytes(), X.shape[1], y.tobytes(), tau)


def run_node(payload: dict, tmp_path: Path) -> subprocess.CompletedProcess:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(payload))
    return subprocess.run([NODE, str(ROOT / "tests" / "js" / "run_offset_core.mjs"), str(path)],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def js_output(tmp_path_factory):
    if NODE is None:
        pytest.skip("Node.js not found: install nodejs to compare the page's offset demo")
    payload = {"cases": [
        {"X": X.tolist(), "y": y.tolist(), "c": c, "tau": tau, "midway": midway_visits(k),
         "classifiers": [{"theta": t.tolist(), "theta0": t0} for t, t0 in hands]}
        for k, (_, X, y, c, tau, hands) in enumerate(CASES)]}
    proc = run_node(payload, tmp_path_factory.mktemp("offset-js"))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def midway_visits(k: int) -> int:
    """Where the midway chart of case k is taken: inside an epoch and at its end, in turn."""
    n = len(CASES[k][1])
    return (k % 5 + 1) * n + (k % 2) * (k % n)


def score_bound(X: np.ndarray, history) -> np.ndarray:
    """How far two correct float64 sums theta . x may drift apart, for each update's score.

    Near a score of 0 the sum cancels, and the rounding error is relative to
    sum_j |theta_j x_j|, not to the score: (d + 2) u times that bounds it.
    """
    d = X.shape[1]
    theta = np.zeros(d)
    out = []
    for u in history:
        out.append((d + 2) * U * float(np.abs(theta) @ np.abs(X[u.index])))
        theta = u.theta
    return np.array(out) + 1e-300


def assert_same_trace(got: dict, ref, X: np.ndarray) -> None:
    assert [(h["epoch"], h["index"]) for h in got["history"]] == [
        (u.epoch, u.index) for u in ref.history]
    for h, u in zip(got["history"], ref.history, strict=True):
        np.testing.assert_array_equal(np.array(h["theta"]), u.theta)
    diff = np.abs(np.array([h["score"] for h in got["history"]])
                  - np.array([u.score for u in ref.history]))
    assert np.all(diff <= score_bound(X, ref.history))
    np.testing.assert_array_equal(np.array(got["theta"]), ref.theta)
    assert (got["mistakes"], got["epochs"], got["converged"]) == (
        ref.mistakes, ref.epochs, ref.converged)


def test_the_sliders_are_what_python_writes(js_output):
    assert tuple(js_output["cValues"]) == C_VALUES
    assert C_VALUES[0] == 0.1 and C_VALUES[10] == 1.0 and C_VALUES[-1] == 100.0
    assert len(set(C_VALUES)) == 31 and list(C_VALUES) == sorted(C_VALUES)
    steps = js_output["thetaSteps"], js_output["theta0Steps"]
    assert [(s["min"], s["max"], s["per"]) for s in steps] == [THETA_STEPS, THETA0_STEPS]


def test_every_case_is_compared(js_output):
    assert len(js_output["results"]) == len(CASES) == (31 + 1) + (7 + 1) + 60
    # the cases hold both outcomes: runs that converge and runs that cannot
    origin = [r["originRun"]["converged"] for r in js_output["results"]]
    lifted = [r["liftedRun"]["converged"] for r in js_output["results"]]
    assert any(origin) and not all(origin) and any(lifted) and not all(lifted)


@pytest.mark.parametrize("k", range(len(CASES)), ids=[c[0] for c in CASES])
def test_same_lifting_runs_and_numbers(js_output, k):
    _, X, y, c, tau, hands = CASES[k]
    got = js_output["results"][k]
    X_c = pl.add_offset_feature(X, value=c)
    np.testing.assert_array_equal(np.array(got["lifted"]), X_c)

    ref = pl.perceptron_through_origin(X_c, y, tau=tau, trace=True)
    assert_same_trace(got["liftedRun"], ref, X_c)
    np.testing.assert_array_equal(np.array(got["back"]["theta"]), ref.theta[:-1])
    assert got["back"]["theta0"] == c * ref.theta[-1]
    if abs(c) == 1.0:  # the theorem of chapter 2: PERCEPTRON's own updates
        full = pl.perceptron(X, y, tau=tau, trace=True)
        assert [(h["epoch"], h["index"]) for h in got["liftedRun"]["history"]] == [
            (u.epoch, u.index) for u in full.history]
        np.testing.assert_array_equal(np.array(got["back"]["theta"]), full.theta)
        assert got["back"]["theta0"] == full.theta_0
        assert got["liftedRun"]["mistakes"] == full.mistakes

    assert_same_trace(got["originRun"], origin_run(X, y, tau), X)

    assert len(got["stats"]) == len(hands)
    for s, (theta, theta_0) in zip(got["stats"], hands, strict=True):
        normal = np.append(theta, theta_0 / c)
        np.testing.assert_array_equal(np.array(s["normal"]), normal)
        assert s["mistakes"] == int(np.sum(y * (X @ theta + theta_0) <= 0))
        assert s["liftedMistakes"] == int(np.sum(y * (X_c @ normal) <= 0))
        assert s["radius"] == pytest.approx(pl.radius(X), rel=RTOL)
        assert s["liftedRadius"] == pytest.approx(pl.radius(X_c), rel=RTOL)
        if np.any(theta):
            assert s["margin"] == pytest.approx(pl.margin(X, y, theta, theta_0), rel=RTOL)
        else:
            assert s["margin"] is None
        if np.any(normal):
            gamma_c = pl.margin(X_c, y, normal)
            assert s["liftedMargin"] == pytest.approx(gamma_c, rel=RTOL, abs=1e-15)
            if gamma_c > 0:
                bound = pl.mistake_bound(pl.radius(X_c), gamma_c)
                assert s["bound"] == pytest.approx(bound, rel=1e-10)
            else:
                assert s["bound"] is None
        else:
            assert s["liftedMargin"] is None and s["bound"] is None


@pytest.mark.parametrize("k", range(len(CASES)), ids=[c[0] for c in CASES])
def test_the_chart_of_epochs_is_the_librarys_run(js_output, k):
    _, X, y, c, tau, _ = CASES[k]
    got = js_output["results"][k]
    lifted = pl.perceptron_through_origin(pl.add_offset_feature(X, value=c), y, tau=tau,
                                          trace=True)
    origin = origin_run(X, y, tau)
    assert got["liftedTotals"] == naive_epoch_chart(X, y, lifted, c=c)
    assert got["originTotals"] == origin_chart(X, y, tau)
    # plainly: one row per epoch, the updates adding up to the run's
    rows = got["liftedTotals"]["rows"]
    assert len(rows) == lifted.epochs and sum(r["updates"] for r in rows) == lifted.mistakes
    assert (rows[-1]["mistakes"] == 0) == lifted.converged
    mid = got["midway"]
    assert mid["visits"] == midway_visits(k)
    assert mid["lifted"] == naive_epoch_chart(X, y, lifted, mid["visits"], c=c)
    assert mid["origin"] == naive_epoch_chart(X, y, origin, mid["visits"])
    if abs(c) == 1.0:  # PERCEPTRON's own epochs (chapter 2's theorem)
        full = pl.perceptron(X, y, tau=tau, trace=True)
        assert [r["updates"] for r in rows] == [
            sum(1 for u in full.history if u.epoch == t) for t in range(1, full.epochs + 1)]


def test_the_chart_reference_can_fail(js_output):
    # the reference tells an epoch's mistakes apart from the run's: one wrong row is seen
    k = next(i for i, c in enumerate(CASES) if c[0] == "offset example, c=1")
    got = js_output["results"][k]["originTotals"]
    assert any(r["mistakes"] for r in got["rows"])
    bad = {**got, "rows": [{**r, "mistakes": r["mistakes"] + 1} for r in got["rows"]]}
    X, y = CASES[k][1], CASES[k][2]
    assert bad != naive_epoch_chart(X, y, origin_run(X, y, TAU))


def test_the_readers_points_from_a_link(tmp_path):
    if NODE is None:
        pytest.skip("Node.js not found")
    good = [[1.5, -2.0, 1], [0, 3, -1], [-0.0, 1e6, 1]]
    proc = run_node({"cases": [{"points": good, "d": 2}, {"points": [[2, -1]], "d": 1}]},
                    tmp_path)
    assert proc.returncode == 0, proc.stderr
    two, one = json.loads(proc.stdout)["results"]
    assert two["points"] == {"X": [[1.5, -2.0], [0, 3], [0, 1e6]], "y": [1, -1, 1]}
    assert two["back"] == [[1.5, -2.0, 1], [0, 3, -1], [0, 1e6, 1]]
    assert one["points"] == {"X": [[2]], "y": [-1]}
    for case, words in [
        ({"points": [], "d": 2}, "non-empty list"),
        ({"points": {"a": 1}, "d": 2}, "non-empty list"),
        ({"points": [[1, 2, 1]] * 301, "d": 2}, "at most 300 points"),
        ({"points": [[1, 2, 1], [1, 1]], "d": 2}, "point 2 is not [x1, x2, label]"),
        ({"points": [[1, 2]], "d": 2}, "point 1 is not [x1, x2, label]"),
        ({"points": [[1, 2, 1]], "d": 1}, "point 1 is not [x, label]"),
        ({"points": [[1, "2", 1]], "d": 2}, "not a finite number"),
        ({"points": [[1, 2e6, 1]], "d": 2}, "too far out"),
        ({"points": [[1, 2, 0]], "d": 2}, "has label 0, not +1 or -1"),
        ({"points": [[1, 1]], "d": 3}, "dimension must be 1 or 2"),
    ]:
        proc = run_node({"cases": [case]}, tmp_path)
        assert proc.returncode == 1 and words in proc.stderr, (case, proc.stderr)


def test_the_chapters_numbers_on_the_offset_example(js_output):
    # the facts the chapter states: no run through the origin converges on 1, 2, 3, 4,
    # and the run on the lifted data does for every c of the slider
    for k, (name, *_rest) in enumerate(CASES):
        if name.startswith("offset example"):
            got = js_output["results"][k]
            assert got["originRun"]["converged"] is False
            assert got["liftedRun"]["converged"] is True, name


def test_the_tolerance_catches_a_c_off_by_a_billionth(js_output):
    k = next(i for i, c in enumerate(CASES) if c[0] == "generated data, c=3.16")
    _, X, y, c, _, hands = CASES[k]
    theta, theta_0 = hands[0]
    got = js_output["results"][k]["stats"][0]["liftedMargin"]
    c_off = c * (1 + 1e-9)
    wrong = pl.margin(pl.add_offset_feature(X, value=c_off), y, np.append(theta, theta_0 / c_off))
    assert got != pytest.approx(wrong, rel=RTOL)


def test_bad_input_stops_the_script_with_a_message(tmp_path):
    if NODE is None:
        pytest.skip("Node.js not found")
    for case, words in [
        ({"X": [[1.0], [2.0]], "y": [1, -1], "c": 0, "tau": 5}, "c must be non-zero"),
        ({"X": [[1.0], [2.0, 3.0]], "y": [1, -1], "c": 1, "tau": 5}, "X[1]"),
        ({"X": [[1.0], [2.0]], "y": [1, 2], "c": 1, "tau": 5}, "y[1] must be -1 or +1"),
        ({"X": [[1.0], [2.0]], "y": [1, -1], "c": 1, "tau": 0}, "tau must be a positive"),
    ]:
        proc = run_node({"cases": [case]}, tmp_path)
        assert proc.returncode == 1 and words in proc.stderr, (case, proc.stderr)
