"""Play in the demos (``book/_demos/kit/player.mjs``, run under Node.js): one update a tick.

The demos of chapters 1-4, 6 and 7 have a Play button that moves the run on by itself.
Each tick of the player visits examples up to the next update, so the hypotheses it
shows, one after another, must be the library's updates, in order, and the run must end
where the library's ends; Pause and Play again must neither skip nor repeat an update,
and the speed sets the time between ticks.
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
    ex = pl.notes_example()
    X, y = pl.make_xor(3, spread=0.0, seed=0)
    sep = pl.make_separable(30, 2, gamma=0.1, seed=2)
    Xn, yn = pl.make_noisy(40, 2, seed=1)
    return [
        ("worked example", ex.X, ex.y, 100, True, 2, None),
        ("XOR, tau epochs then stop", X, y, 5, True, 16, None),
        ("separable, paused after 3 updates", sep.X, sep.y, 100, True, 4, 3),
        ("noisy, through the origin, paused after 1", Xn, yn, 6, False, 1, 1),
    ]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    if NODE is None:
        pytest.skip("Node.js not found: install nodejs to run the page's player")
    data = {"cases": [{"X": X.tolist(), "y": y.tolist(), "tau": tau, "offset": off, "speed": speed,
                       **({"pauseAfter": pause} if pause is not None else {})}
                      for _, X, y, tau, off, speed, pause in cases()]}
    path = tmp_path_factory.mktemp("js") / "cases.json"
    path.write_text(json.dumps(data))
    proc = subprocess.run([NODE, str(ROOT / "tests" / "js" / "run_player.mjs"), str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["results"]


@pytest.mark.parametrize("k", range(len(cases())), ids=[c[0] for c in cases()])
def test_each_tick_shows_the_next_update_of_the_library(played, k):
    _, X, y, tau, offset, _, _ = cases()[k]
    fn = pl.perceptron if offset else pl.perceptron_through_origin
    ref = fn(X, y, tau=tau, trace=True, method="loop")
    got = played[k]
    updates = [t for t in got["ticks"] if t["mistake"]]
    assert [(t["epoch"], t["index"]) for t in updates] == [(u.epoch, u.index) for u in ref.history]
    for t, u in zip(updates, ref.history, strict=True):
        np.testing.assert_array_equal(np.array(t["theta"], dtype=float), u.theta)
        assert t["theta0"] == u.theta_0
    # only the last tick may show no update: the visits after the run's last update (a
    # clean epoch that ends a converged run, or the rest of epoch tau)
    assert all(t["mistake"] for t in got["ticks"][:-1])
    last = ref.history[-1]
    ends_on_update = not ref.converged and (last.epoch, last.index) == (ref.epochs, len(y) - 1)
    assert got["ticks"][-1]["mistake"] == ends_on_update
    assert (got["ticks"][-1]["epoch"], got["ticks"][-1]["index"]) == (ref.epochs, len(y) - 1)
    np.testing.assert_array_equal(np.array(got["ticks"][-1]["theta"], dtype=float), ref.theta)


@pytest.mark.parametrize("k", range(len(cases())), ids=[c[0] for c in cases()])
def test_play_stops_at_the_end_and_pause_keeps_its_place(played, k):
    _, _, _, _, _, speed, pause = cases()[k]
    got = played[k]
    assert got["stops"] == (["pause", "end"] if pause is not None else ["end"])
    assert not got["playing"] and not got["playedAgain"]
    # one tick at once on Play, then one every 1/speed seconds until the last
    # (a Pause cancels the tick it had asked for, and Play makes one at once)
    assert got["delays"] == [1000 / speed] * (len(got["ticks"]) - 1)
