"""The test error on the demos' epoch charts (chapters 1, 6 and 7), held to the library.

The demos of chapters 1, 6 and 7 show, beside the training mistakes after each epoch,
how many examples of a held-out test set from the same distribution the hypothesis gets
wrong.  Their cores (``perceptron-core.mjs``, ``margin-core.mjs``, ``kernel-core.mjs``)
run under Node on data and test sets made by the library's generators; every count must
be the one the library's traced run gives, epoch by epoch, after the whole run and half
way through it.
"""

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import perceptron_lib as pl
from perceptron_lib.demos.data import make_demo_data

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")


def cases() -> list[tuple[str, dict]]:
    noisy = make_demo_data("separable", 40, seed=3, margin=0.1, flip=0.1, n_test=100)
    xor = make_demo_data("xor", 24, seed=5, spread=0.4, flip=0.1, n_test=60)
    sep = pl.make_separable(40, d=2, gamma=0.1, R=1.0, theta_0=0.2, seed=7)
    Xs_t, ys_t = pl.sample_like(sep, 100, seed=70)
    src = pl.make_separable(40, d=2, gamma=0.1, R=1.0, seed=4)
    Xn, yn = pl.make_noisy(40, d=2, flip=0.1, gamma=0.1, R=1.0, seed=4)
    Xn_t, yn_t = pl.sample_like(src, 100, flip=0.1, seed=40)
    Xx, yx = pl.make_xor(n_per_quadrant=10, spread=0.3, seed=0)
    Xx_t, yx_t = pl.make_xor(n_per_quadrant=25, spread=0.3, seed=10)

    def case(core, X, y, Xt, yt, **kw):
        return {"core": core, "X": np.asarray(X).tolist(), "y": np.asarray(y).tolist(),
                "Xt": np.asarray(Xt).tolist(), "yt": np.asarray(yt).tolist(), **kw}

    return [
        ("chapter 1: 40 points, 10% flipped", case("perceptron", noisy.X, noisy.y, noisy.X_test,
                                                  noisy.y_test, tau=100, offset=True)),
        ("generated XOR, through the origin", case("perceptron", xor.X, xor.y, xor.X_test,
                                                   xor.y_test, tau=15, offset=False)),
        ("chapter 7: separable, mu 0", case("margin", sep.X, sep.y, Xs_t, ys_t, mu=0, tau=100)),
        ("chapter 7: noisy, mu 2", case("margin", Xn, yn, Xn_t, yn_t, mu=2, tau=30)),
        ("chapter 6: XOR clouds, degree 2", case("kernel", Xx, yx, Xx_t, yx_t, tau=100,
                                                 kernel={"kind": "polynomial", "degree": 2,
                                                         "coef0": 1})),
        ("chapter 6: flipped XOR, RBF", case("kernel", Xx, pl.flip_labels(yx, 0.1, seed=0), Xx_t,
                                             pl.flip_labels(yx_t, 0.1, seed=11), tau=100,
                                             kernel={"kind": "RBF", "gamma": 10})),
    ]


CASES = cases()


@pytest.fixture(scope="module")
def js(tmp_path_factory):
    if NODE is None:
        pytest.skip("Node.js not found: install nodejs to compare the page's test errors")
    path = tmp_path_factory.mktemp("js") / "cases.json"
    path.write_text(json.dumps({"cases": [c for _, c in CASES]}))
    proc = subprocess.run([NODE, str(ROOT / "tests" / "js" / "run_test_error.mjs"), str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["results"]


def library_run(c: dict):
    """The library's traced run, and f(X) of the hypothesis after a list of updates."""
    X, y = np.array(c["X"]), np.array(c["y"])
    if c["core"] == "perceptron":
        fn = pl.perceptron if c["offset"] else pl.perceptron_through_origin
        ref = fn(X, y, tau=c["tau"], trace=True, method="loop")
    elif c["core"] == "margin":
        ref = pl.margin_perceptron(X, y, margin=c["mu"], tau=c["tau"], trace=True)
    else:
        spec = c["kernel"]
        k = (pl.rbf_kernel(spec["gamma"]) if spec["kind"] == "RBF"
             else pl.polynomial_kernel(spec["degree"], spec["coef0"]))
        ref = pl.kernel_perceptron(X, y, k, tau=c["tau"], trace=True)

        def scores(updates, P):
            alpha = np.zeros(len(y))
            for u in updates:
                alpha[u.index] += 1
            theta_0 = float(alpha @ y) if c.get("offset", True) else 0.0
            return (alpha * y) @ k(X, np.asarray(P)) + theta_0  # K(x_j, p) for all j, p
        return ref, scores

    def scores(updates, P):
        if not updates:
            return np.zeros(len(P))
        last = updates[-1]
        return np.array([float(np.dot(last.theta, p)) + last.theta_0 for p in P])
    return ref, scores


def expected_rows(c: dict, visits: int | None = None) -> tuple[list[dict], list[tuple]]:
    """Per finished epoch: updates, training mistakes, test errors (and, for the kernel,
    the counts rounding could give: strictly wrong, and wrong or within 1e-9 of 0)."""
    ref, scores = library_run(c)
    X, y = np.array(c["X"]), np.array(c["y"])
    Xt, yt = np.array(c["Xt"]), np.array(c["yt"])
    n = len(y)
    epochs = ref.epochs if visits is None else visits // n
    rows, bounds = [], []
    for t in range(1, epochs + 1):
        upto = [u for u in ref.history if u.epoch <= t]
        f, ft = scores(upto, X), scores(upto, Xt)
        rows.append({"epoch": t, "updates": sum(1 for u in ref.history if u.epoch == t),
                     "mistakes": int(np.sum(y * f <= 0)), "test": int(np.sum(yt * ft <= 0))})
        bounds.append((int(np.sum(yt * ft < -1e-9)), int(np.sum(yt * ft <= 1e-9))))
    return rows, bounds


@pytest.mark.parametrize("k", range(len(CASES)), ids=[name for name, _ in CASES])
def test_the_test_errors_after_each_epoch_are_the_librarys(js, k):
    c, got = CASES[k][1], js[k]
    rows, bounds = expected_rows(c)
    assert len(got["rows"]) == len(rows) > 0
    assert any(r["test"] > 0 for r in rows)  # the check can see a difference
    for mine, ref, (lo, hi) in zip(got["rows"], rows, bounds, strict=True):
        assert (mine["epoch"], mine["updates"]) == (ref["epoch"], ref["updates"])
        if c["core"] == "kernel":  # kernels in two languages may round apart, near f = 0
            assert lo <= mine["test"] <= hi, (mine, ref)
            assert mine["mistakes"] == pytest.approx(ref["mistakes"], abs=1)
        else:
            assert mine == ref


@pytest.mark.parametrize("k", range(len(CASES)), ids=[name for name, _ in CASES])
def test_half_way_the_chart_has_the_finished_epochs(js, k):
    c, got = CASES[k][1], js[k]
    half = got["midway"]
    rows, bounds = expected_rows(c, half["visits"])
    assert [r["epoch"] for r in half["rows"]] == [r["epoch"] for r in rows]
    for mine, ref, (lo, hi) in zip(half["rows"], rows, bounds, strict=True):
        if c["core"] == "kernel":
            assert lo <= mine["test"] <= hi
        else:
            assert mine == ref


def test_the_kernel_readout_counts_as_the_library_predicts(js):
    for (_, c), got in zip(CASES, js, strict=True):
        if c["core"] != "kernel":
            continue
        ref, _ = library_run(c)
        wrong = int(np.sum(pl.kernel_predict(ref, np.array(c["Xt"])) != np.array(c["yt"])))
        assert got["testErrors"] == wrong
