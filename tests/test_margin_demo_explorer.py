"""perceptron_lib.widgets.MarginPerceptronExplorer: chapter 7's margin demo in Jupyter."""

from __future__ import annotations

import math

import numpy as np
import pytest

import perceptron_lib as pl
from perceptron_lib.demos.margin import GAMMA_STEPS, MUS, start_gamma
from perceptron_lib.widgets import MarginPerceptronExplorer


def data() -> dict:
    s = pl.make_separable(30, 2, gamma=0.1, R=2.0, theta_0=0.3, seed=1)
    mm = pl.max_margin(s.X, s.y)
    yf = pl.flip_labels(s.y, 0.1, seed=0)
    return {"separable": {"X": s.X, "y": s.y, "theta": mm.theta, "theta_0": mm.theta_0},
            "10% flipped": {"X": s.X, "y": yf, "theta": s.theta, "theta_0": s.theta_0}}


@pytest.mark.parametrize("mu", [0.0, 0.5, 5.0])
@pytest.mark.parametrize("k", [0, 1])
def test_a_run_is_the_librarys(k, mu):
    ex = MarginPerceptronExplorer(data(), mu=mu, tau=30)
    ex.select(k)
    ex.run()
    ref = pl.margin_perceptron(ex.X, ex.y, margin=mu, tau=30)
    np.testing.assert_array_equal(ex.theta, ref.theta)
    assert (ex.theta_0, ex.updates, ex.t, ex.converged) == (
        ref.theta_0, ref.mistakes, ref.epochs, ref.converged)
    assert ex.mistakes <= ex.updates and ex.visits.sum() == ref.epochs * len(ex.y)


def test_step_by_step_the_numbers_are_the_librarys():
    ex = MarginPerceptronExplorer(data(), mu=0.0)
    ex.select(1)
    n = len(ex.y)
    spec = data()["10% flipped"]
    assert ex.gamma == start_gamma(spec["X"], spec["y"], spec["theta"], spec["theta_0"])
    for _ in range(n + 5):
        ex.step()
    v = ex.numbers()
    R = pl.radius(pl.add_offset_feature(ex.X))
    D1 = pl.hinge_deficiency(ex.X, ex.y, ex.u, ex.u_0, ex.gamma)
    rows = np.r_[np.arange(n), np.arange(5)]
    Dnow = pl.hinge_deficiency(ex.X[rows], ex.y[rows], ex.u, ex.u_0, ex.gamma)
    assert (v["D1"], v["Dnow"]) == (D1, Dnow)
    assert v["bound1"] == pl.freund_schapire_bound(R, ex.gamma, D1)
    assert v["boundNow"] == pl.freund_schapire_bound(R, ex.gamma, Dnow) >= ex.mistakes
    assert v["margin"] == pl.margin(ex.X, ex.y, ex.theta, ex.theta_0)
    # mu > 0: the bound on updates uses sqrt(R^2 + 2 mu), and a new mu starts again
    ex.set_mu(1.0)
    assert ex.updates == 0 and ex.numbers()["margin"] is None
    ex.set_gamma(ex.R / 2)
    v = ex.numbers()
    D1 = pl.hinge_deficiency(ex.X, ex.y, ex.u, ex.u_0, ex.R / 2)
    assert v["bound1"] == pl.freund_schapire_bound(math.sqrt(R * R + 2.0), ex.R / 2, D1)


def test_the_controls_drive_it():
    ex = MarginPerceptronExplorer(data())
    ui = ex.ui
    menu, mu, gamma, buttons = ex._controls
    menu.value = 1
    assert ex.k == 1 and ex.sets[1]["name"] == "10% flipped"
    mu.value = MUS[3]
    assert ex.mu == MUS[3]
    buttons.children[1].click()  # Epoch
    assert ex.t == 2 and ex.visits.tolist() == [1] * len(ex.y)
    gamma.value = GAMMA_STEPS
    assert ex.gamma == pytest.approx(ex.R) and ex.updates > 0  # gamma keeps the run
    buttons.children[3].click()  # Reset
    assert ex.updates == 0
    assert "<b>epoch</b> 1" in ex._status.value and ui is ex.ui
    assert ex.png().startswith(b"\x89PNG")
    html = ex.static_html()
    assert 'class="explorer-static"' in html and "Margin perceptron explorer" in html


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        (({},), ValueError, "non-empty mapping"),
        (({"a": {"X": [[1, 2]], "y": [1]}},), ValueError, "lacks theta"),
        ((data(),), None, None),
    ],
)
def test_bad_input_is_named(args, error, match):
    if error is None:
        ex = MarginPerceptronExplorer(*args)
        for bad, call, text in ((0.4, ex.set_mu, "mu must be one of"),
                                (-1.0, ex.set_gamma, "gamma must lie in"),
                                (7, ex.select, "no data set")):
            with pytest.raises(ValueError, match=text):
                call(bad)
        with pytest.raises(ValueError, match="mu must be one of"):
            MarginPerceptronExplorer(data(), mu=0.4)
        with pytest.raises(ValueError, match="tau"):
            MarginPerceptronExplorer(data(), tau=0)
    else:
        with pytest.raises(error, match=match):
            MarginPerceptronExplorer(*args)


def test_the_demo_shows_the_live_explorer_in_jupyter():
    """Chapter 7's cell: the widget view in a kernel, the page's demo on the site."""
    from perceptron_lib.demos.margin import MarginDemo

    page_only = MarginDemo(data())._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" not in page_only
    demo = MarginDemo(data(), mu=0.5, tau=30, explorer=True)
    bundle = demo._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/html"] == demo.html  # what the site keeps
    assert isinstance(demo._explorer, MarginPerceptronExplorer)
    assert (demo._explorer.mu, demo._explorer.tau) == (0.5, 30)


def test_chapter_7_asks_for_the_explorer():
    import nbformat
    from harness_paths import BOOK

    nb = nbformat.read(BOOK / "07_beyond.ipynb", as_version=4)
    cells = [c.source for c in nb.cells if c.cell_type == "code" and "MarginDemo(" in c.source
             and "import" not in c.source]
    assert cells and all("explorer=True" in c for c in cells)
