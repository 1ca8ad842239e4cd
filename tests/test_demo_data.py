"""The playgrounds' seeded generator: the same data in Python and in the page.

``perceptron_lib.demos.data.make_demo_data`` and ``book/_demos/kit/generator.mjs`` must
give the same float64 points and labels for the same kind, count, seed and options; the
data must be what the documentation promises (the margin asked for, the XOR corners, the
number of flipped labels); bad arguments are refused with a message naming them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import perceptron_lib as pl
from perceptron_lib.demos.data import Mulberry32, make_demo_data

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")


def cases() -> list[dict]:
    out = []
    for seed in [0, 1, 2, 3, 17, 12345, 2**31 - 1, 2**31, 2**32 - 1, *range(100, 160)]:
        for kind in ("separable", "xor"):
            k = seed % 7
            out.append({"kind": kind, "n": [2, 3, 10, 37, 80, 150, 500][k], "seed": seed,
                        "margin": [0.0, 0.05, 0.3, 0.5, 1.0, 0.123, 0.7][k],
                        "spread": [0.0, 0.1, 0.3, 0.55, 1.0, 0.333, 0.9][k],
                        "flip": [0.0, 0.5, 0.1, 0.25, 0.05, 0.333, 0.2][k],
                        # the held-out set: none, one point, as many as n or more
                        "test": [0, 1, 10, 37, 0, 500, 9][(seed + len(kind)) % 7]})
    return out


CASES = cases()
STREAM_SEEDS = [0, 1, 42, 2**32 - 1, 0x6D2B79F5, 2**31]
BAD = [
    ({"kind": "circles", "n": 10, "seed": 1}, "kind"),
    ({"kind": "xor", "n": 1, "seed": 1}, "n must be"),
    ({"kind": "xor", "n": 501, "seed": 1}, "at most 500"),
    ({"kind": "xor", "n": 10.5, "seed": 1}, "n must be an integer"),
    ({"kind": "xor", "n": 10, "seed": -1}, "seed"),
    ({"kind": "xor", "n": 10, "seed": 2**32}, "seed"),
    ({"kind": "xor", "n": 10, "seed": 1.5}, "seed"),
    ({"kind": "separable", "n": 10, "seed": 1, "margin": 1.5}, "margin"),
    ({"kind": "xor", "n": 10, "seed": 1, "spread": -0.1}, "spread"),
    ({"kind": "xor", "n": 10, "seed": 1, "flip": 0.6}, "flip"),
    ({"kind": "xor", "n": 10, "seed": 1, "test": 501}, "test"),
    ({"kind": "xor", "n": 10, "seed": 1, "test": -1}, "test"),
]


@pytest.fixture(scope="module")
def js_output(tmp_path_factory):
    if NODE is None:
        pytest.skip("Node.js not found: install nodejs to compare the page's generator")
    payload = {"streams": [{"seed": s, "count": 50} for s in STREAM_SEEDS],
               "cases": CASES, "bad": [c for c, _ in BAD]}
    path = tmp_path_factory.mktemp("gen-js") / "cases.json"
    path.write_text(json.dumps(payload))
    proc = subprocess.run([NODE, str(ROOT / "tests" / "js" / "run_generator.mjs"), str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def reference_mulberry32(seed: int, count: int) -> list[float]:
    """mulberry32 as usually written (signed 32-bit JavaScript), transcribed literally."""
    def i32(v: int) -> int:
        v &= 0xFFFFFFFF
        return v - (1 << 32) if v >= 1 << 31 else v

    def imul(x: int, y: int) -> int:
        return i32((x & 0xFFFFFFFF) * (y & 0xFFFFFFFF))

    a = i32(seed)
    out = []
    for _ in range(count):
        a = i32(a + 0x6D2B79F5)
        t = imul(a ^ ((a & 0xFFFFFFFF) >> 15), 1 | a)
        t = i32(i32(t + imul(t ^ ((t & 0xFFFFFFFF) >> 7), 61 | t)) ^ t)
        out.append(((t ^ ((t & 0xFFFFFFFF) >> 14)) & 0xFFFFFFFF) / 4294967296)
    return out


def test_the_random_numbers_are_mulberry32_in_both_languages(js_output):
    for seed, got in zip(STREAM_SEEDS, js_output["streams"], strict=True):
        rng = Mulberry32(seed)
        mine = [rng.next_float() for _ in range(50)]
        assert mine == reference_mulberry32(seed, 50)
        assert got == mine
        assert all(0 <= u < 1 for u in mine) and len(set(mine)) == 50


def test_every_case_is_compared(js_output):
    assert len(js_output["results"]) == len(CASES) == 138


@pytest.mark.parametrize("k", range(len(CASES)),
                         ids=[f"{c['kind']}-n{c['n']}-seed{c['seed']}" for c in CASES])
def test_same_points_and_labels_in_python_and_javascript(js_output, k):
    c = CASES[k]
    got = js_output["results"][k]
    ref = make_demo_data(c["kind"], c["n"], c["seed"], margin=c["margin"],
                         spread=c["spread"], flip=c["flip"], n_test=c["test"])
    X = np.array(got["X"], dtype=float)
    assert X.shape == ref.X.shape
    assert X.tobytes() == ref.X.tobytes()  # the same float64 bits
    assert got["y"] == ref.y.tolist()
    assert got["cleanY"] == ref.clean_y.tolist()
    assert got["flipped"] == ref.flipped.tolist()
    X_test = np.array(got["Xtest"], dtype=float).reshape(-1, 2)
    assert X_test.shape == ref.X_test.shape == (c["test"], 2)
    assert X_test.tobytes() == ref.X_test.tobytes()
    assert got["ytest"] == ref.y_test.tolist()


def test_bad_options_are_refused_in_both_languages_naming_the_problem(js_output):
    for (case, words), message in zip(BAD, js_output["errors"], strict=True):
        assert message is not None and words in message, (case, message)
        opts = {"n_test" if k == "test" else k: v for k, v in case.items()
                if k not in ("kind", "n", "seed")}
        with pytest.raises((ValueError, TypeError), match=words.split()[0]):
            make_demo_data(case["kind"], case["n"], case["seed"], **opts)


@pytest.mark.parametrize("margin", [0.0, 0.1, 0.3, 0.6, 1.0])
@pytest.mark.parametrize("seed", [0, 5, 99])
def test_separable_data_have_the_margin_asked_for(margin, seed):
    d = make_demo_data("separable", 60, seed, margin=margin)
    assert set(d.y.tolist()) == {-1.0, 1.0}
    assert d.y.tolist() == [1.0 if k % 2 == 0 else -1.0 for k in range(60)]
    assert np.all(np.abs(d.X) <= 2) and np.all(np.round(d.X * 100) / 100 == d.X)
    assert pl.is_linearly_separable(d.X, d.y)
    best = pl.max_margin(d.X, d.y).gamma
    assert best >= margin - 1e-6
    # the perceptron converges on them, as chapter 4 promises
    assert pl.perceptron(d.X, d.y, tau=10_000).converged


def test_xor_points_stay_near_their_corners():
    spread = 0.4
    d = make_demo_data("xor", 200, 11, spread=spread)
    corners = np.array([[1, 1], [-1, -1], [1, -1], [-1, 1]] * 50, dtype=float)
    assert np.all(np.abs(d.X - corners) <= spread + 0.005 + 1e-12)
    assert d.y.tolist() == [1.0, 1.0, -1.0, -1.0] * 50
    assert np.all(np.sign(corners[:, 0] * corners[:, 1]) == d.y)
    assert not pl.is_linearly_separable(d.X, d.y)
    exact = make_demo_data("xor", 8, 3, spread=0.0)
    assert exact.X.tolist() == [[1, 1], [-1, -1], [1, -1], [-1, 1]] * 2


@pytest.mark.parametrize(("n", "flip", "m"), [(10, 0.0, 0), (10, 0.25, 3), (10, 0.5, 5),
                                              (7, 0.1, 1), (40, 0.05, 2), (3, 0.5, 2)])
def test_flipped_labels_are_exactly_the_ones_reported(n, flip, m):
    d = make_demo_data("separable", n, 4, margin=0.2, flip=flip)
    clean = make_demo_data("separable", n, 4, margin=0.2)
    assert np.array_equal(d.X, clean.X) and np.array_equal(d.clean_y, clean.y)
    assert len(d.flipped) == len(set(d.flipped.tolist())) == m
    changed = np.flatnonzero(d.y != d.clean_y)
    assert sorted(changed.tolist()) == sorted(d.flipped.tolist())


def test_same_seed_same_data_other_seed_other_data():
    a = make_demo_data("xor", 50, 8, spread=0.5, flip=0.2)
    b = make_demo_data("xor", 50, 8, spread=0.5, flip=0.2)
    c = make_demo_data("xor", 50, 9, spread=0.5, flip=0.2)
    assert np.array_equal(a.X, b.X) and np.array_equal(a.y, b.y)
    assert not np.array_equal(a.X, c.X)


def test_numpy_integers_and_floats_are_accepted():
    d = make_demo_data("xor", np.int64(12), np.uint32(3), spread=np.float32(0.25))
    assert d.X.shape == (12, 2)
    with pytest.raises(TypeError, match="seed"):
        make_demo_data("xor", 12, True)
    with pytest.raises(ValueError, match="margin"):
        make_demo_data("separable", 12, 1, margin=float("nan"))


@pytest.mark.parametrize("kind", ["separable", "xor"])
def test_the_held_out_set_comes_from_the_same_distribution_and_leaves_the_data_alone(kind):
    plain = make_demo_data(kind, 40, 11, margin=0.2, spread=0.3, flip=0.1)
    held = make_demo_data(kind, 40, 11, margin=0.2, spread=0.3, flip=0.1, n_test=200)
    assert plain.X.tobytes() == held.X.tobytes() and plain.y.tolist() == held.y.tolist()
    assert plain.X_test.shape == (0, 2) and held.X_test.shape == (200, 2)
    assert int((held.y_test != make_demo_data(kind, 40, 11, margin=0.2, spread=0.3,
                                             n_test=200).y_test).sum()) == 20  # 10% flipped
    clean = make_demo_data(kind, 40, 11, margin=0.2, spread=0.3, n_test=200)
    if kind == "separable":
        # one line separates training and test points alike
        both_X = np.vstack([clean.X, clean.X_test])
        both_y = np.concatenate([clean.y, clean.y_test])
        assert pl.perceptron(both_X, both_y, tau=10_000).converged
    else:
        corners = np.sign(clean.X_test)
        assert (corners[:, 0] * corners[:, 1] == clean.y_test).all()
        assert np.abs(np.abs(clean.X_test) - 1).max() <= 0.3 + 0.005
