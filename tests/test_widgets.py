"""The explorers: their moves match the library, and they never pretend on a static page."""

import base64
import re

import numpy as np
import pytest

import perceptron_lib as pl
from perceptron_lib import widgets as W

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


@pytest.mark.parametrize("offset", [True, False])
@pytest.mark.parametrize("tau", [1, 3, 50])
def test_step_trainer_run_matches_the_library(offset, tau):
    X, y = pl.make_xor(3, seed=1) if tau < 50 else (pl.notes_example().X, pl.notes_example().y)
    trainer = W.StepTrainer(X, y, tau=tau, offset=offset)
    trainer.run()
    fn = pl.perceptron if offset else pl.perceptron_through_origin
    r = fn(X, y, tau=tau)
    np.testing.assert_array_equal(trainer.theta, r.theta)
    assert trainer.theta_0 == r.theta_0
    assert (trainer.mistakes, trainer.converged) == (r.mistakes, r.converged)
    assert min(trainer.t, tau) == r.epochs
    assert trainer.done


def test_step_trainer_follows_the_trace_one_step_at_a_time():
    ex = pl.offset_example()
    X = np.column_stack([ex.X[:, 0], np.zeros(4)])
    trace = pl.perceptron(X, ex.y, trace=True).history
    trainer = W.StepTrainer(X, ex.y, tau=100)
    seen = []
    while not trainer.done:
        before = trainer.mistakes
        trainer.step()
        if trainer.mistakes > before:
            seen.append((trainer.t if trainer.i else trainer.t - 1, trainer.last[0]))
            u = trace[len(seen) - 1]
            np.testing.assert_array_equal(trainer.theta, u.theta)
            assert trainer.theta_0 == u.theta_0
    assert seen == [(u.epoch, u.index) for u in trace]


@pytest.mark.parametrize("offset", [True, False])
@pytest.mark.parametrize("tau", [2, 30])
def test_step_trainer_average_is_the_averaged_perceptron(offset, tau):
    X, y = pl.make_noisy(30, 2, flip=0.1, gamma=0.2, R=2.0, seed=3)
    trainer = W.StepTrainer(X, y, tau=tau, offset=offset, show_average=True)
    assert trainer.average is None
    trainer.step()
    np.testing.assert_array_equal(trainer.average[0], trainer.theta)
    trainer.run()
    r = pl.averaged_perceptron(X, y, tau=tau, offset=offset)
    theta_bar, theta_0_bar = trainer.average
    np.testing.assert_array_equal(theta_bar, r.theta)
    assert theta_0_bar == r.theta_0
    assert trainer.visits == len(y) * r.epochs
    assert "average over" in trainer.status()
    trainer.reset()
    assert trainer.average is None and trainer.visits == 0


def test_step_trainer_draws_the_average_only_when_asked():
    X, y = pl.make_noisy(30, 2, flip=0.1, gamma=0.2, R=2.0, seed=3)
    for show in (False, True):
        trainer = W.StepTrainer(X, y, tau=30, show_average=show)
        trainer.epoch()
        fig = trainer.figure()
        ax = fig.axes[0]
        styles = [line.get_linestyle() for line in ax.get_lines()]
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert ("--" in styles) == show and ("average" in legend) == show
        assert ("average over" in trainer.status()) == show


def test_step_trainer_names_the_points_only_when_there_are_few():
    ex = pl.notes_example()
    few = W.StepTrainer(ex.X, ex.y).figure().axes[0]
    X, y = pl.make_noisy(30, 2, flip=0.1, gamma=0.2, R=2.0, seed=3)
    many = W.StepTrainer(X, y).figure().axes[0]
    assert [t.get_text() for t in few.texts] == [f"$x^{{({k})}}$" for k in range(1, len(ex.y) + 1)]
    assert len(many.texts) == 0


def test_step_trainer_epoch_and_reset():
    ex = pl.notes_example()
    trainer = W.StepTrainer(ex.X, ex.y)
    trainer.epoch()
    assert trainer.t == 2 and trainer.i == 0
    assert trainer.mistakes == pl.perceptron(ex.X, ex.y, tau=1).mistakes
    trainer.reset()
    assert trainer.mistakes == 0 and not np.any(trainer.theta) and trainer.last is None


def test_step_trainer_buttons_drive_it():
    ex = pl.notes_example()
    trainer = W.StepTrainer(ex.X, ex.y)
    trainer.ui  # built, as Jupyter builds it on display
    buttons = {b.description: b for b in trainer._controls[0].children}
    assert set(buttons) == {"Step", "Epoch", "Run", "Reset"}
    before = trainer._image.value
    buttons["Step"].click()
    assert trainer.mistakes == 1 and trainer._image.value != before
    assert "updates</b> 1" in trainer._status.value
    buttons["Run"].click()
    assert trainer.converged
    buttons["Reset"].click()
    assert trainer.mistakes == 0


def test_step_trainer_needs_2d_data():
    with pytest.raises(ValueError, match="2-D data"):
        W.StepTrainer(np.ones((3, 3)), [1, -1, 1])


def test_offset_explorer_counts_errors_and_follows_sliders():
    ex = pl.offset_example()
    e = W.OffsetExplorer(ex.X[:, 0], ex.y)
    assert e.errors == 0
    e.ui
    e._theta.value = 1.0
    assert e.theta == 1.0 and e.theta_0 == 2.5
    assert e.errors == int(np.sum(pl.predict(ex.X, [1.0], 2.5) != ex.y))
    e.set(0.0, 0.0)
    assert e.errors == 4  # every point on the "boundary"
    with pytest.raises(ValueError, match="x must be 1-D"):
        W.OffsetExplorer(ex.X, ex.y)


def test_margin_explorer_reproduces_the_worked_example():
    ex = pl.notes_example()
    m = W.MarginExplorer(ex.X, ex.y, angle=-45.0, shift=1 / np.sqrt(2))
    np.testing.assert_allclose(m.margins, [-np.sqrt(2) / 2, np.sqrt(2), np.sqrt(2)])
    assert m.margin == pytest.approx(-np.sqrt(2) / 2)
    m.ui
    m._angle.value = 135.0
    unit = np.array([-1.0, 1.0]) / np.sqrt(2)
    np.testing.assert_allclose(m.margins, pl.point_margins(ex.X, ex.y, unit, m.shift), atol=1e-12)


def test_convergence_explorer_respects_the_bound():
    c = W.ConvergenceExplorer(n=60, gamma=0.1, R=1.0, seed=3)
    assert c.result.converged
    assert c.result.mistakes <= c.bound
    assert c.bound == pytest.approx(100.0, rel=1e-9)
    c.ui
    c._gamma.value = 0.3
    assert c.data.gamma == pytest.approx(0.3, rel=1e-9)
    assert c.result.mistakes <= c.bound == pytest.approx((1 / 0.3) ** 2, rel=1e-9)
    c.set(R=2.0, gamma=5.0)  # gamma is kept below R
    assert c.data.gamma < c.data.R


def test_message_explorer_verdict():
    ex = pl.spam_messages()
    F = pl.spam_feature_matrix(list(ex.messages))[:, :2]
    r = pl.perceptron(F, ex.y)
    m = W.MessageExplorer(r.theta, r.theta_0, ex.messages[3], X=F, y=ex.y)
    assert m.verdict == "spam"
    assert m.score == pytest.approx(r.theta @ F[3] + r.theta_0)
    m.ui
    m._text.value = ex.messages[0]
    assert m.verdict == "not spam"
    m.set_message("   ")
    assert m.verdict is None and "Type a message" in m.status()
    with pytest.raises(ValueError, match="theta has length 3"):
        W.MessageExplorer([1.0, 2.0, 3.0], 0.0)


def _kernel_datasets():
    corners = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    Xx, yx = pl.make_xor(n_per_quadrant=4, spread=0.3, seed=2)
    return {"corners": (corners, np.array([1, 1, -1, -1])), "clouds": (Xx, yx)}


@pytest.mark.parametrize("kernel,degree,gamma", [("linear", 2, 1.0), ("polynomial", 1, 1.0),
                                                 ("polynomial", 3, 1.0), ("RBF", 2, 0.05),
                                                 ("RBF", 2, 20.0)])
@pytest.mark.parametrize("dataset", ["corners", "clouds"])
def test_kernel_explorer_runs_the_library_kernel_perceptron(dataset, kernel, degree, gamma):
    data = _kernel_datasets()
    e = W.KernelExplorer(data, kernel=kernel, degree=degree, gamma=gamma, tau=30)
    e.set(dataset=dataset)
    X, y = data[dataset]
    K = {"linear": pl.linear_kernel(), "polynomial": pl.polynomial_kernel(degree),
         "RBF": pl.rbf_kernel(gamma)}[kernel]
    r = pl.kernel_perceptron(X, y, K, tau=30)
    np.testing.assert_array_equal(e.result.alpha, r.alpha)
    assert (e.result.theta_0, e.result.mistakes, e.result.converged) == (
        r.theta_0, r.mistakes, r.converged)
    assert e.training_errors == int(np.sum(pl.kernel_predict(r, X) != y))
    gx, gy, f = e.grid_scores()
    probe = np.column_stack([gx.ravel()[::997], gy.ravel()[::997]])
    np.testing.assert_allclose(f.ravel()[::997], pl.kernel_decision(r, probe), atol=1e-9 * (
        r.alpha.sum() * np.abs(r.kernel(X, probe)).max() + abs(r.theta_0)))
    if kernel in ("linear", "polynomial") and degree == 1 and dataset == "corners":
        assert not np.any(f) and "f(x) = 0 everywhere" in e._title()  # not rounding noise
    used = int(np.sum(r.alpha > 0))
    assert f"{used} of {len(y)}" in e.status() and f"{used} examples" in e.alt_text()


def test_kernel_explorer_controls_drive_it():
    e = W.KernelExplorer(_kernel_datasets(), kernel="linear")
    e.ui
    assert not e.result.converged and "f(x) = 0 everywhere" in e._title()
    assert "not converged" in e.status() and "training errors</b> 2" in e.status()
    e._kernel.value = "polynomial"
    assert e.kernel == "polynomial" and e.result.converged and e.training_errors == 0
    e._degree.value = 3
    assert e.formula().endswith("(x·x′ + 1)³") and e._title() == e.formula()
    e._data.value = "clouds"
    assert e.dataset == "clouds" and len(e.result.y) == 16
    e._tau.value = 1
    assert e.tau == 1 and e.result.epochs == 1
    e._kernel.value = "RBF"
    e._gamma.value = 10.0
    assert e.gamma == pytest.approx(10.0) and "exp(−10·" in e.formula()
    e.set(kernel="linear", dataset="corners")
    assert (e._kernel.value, e._data.value) == ("linear", "corners")  # code moves controls


@pytest.mark.parametrize("datasets,message", [
    ({}, "non-empty mapping"),
    ({"a": np.zeros((3, 2))}, "must be a pair"),
    ({"a": (np.zeros((2, 3)), [1, -1])}, "has 3 features"),
    ({"a": ([[0.0, 0.0], [1.0, 1.0]], [1, 2])}, "label"),
])
def test_kernel_explorer_names_bad_data(datasets, message):
    with pytest.raises(ValueError, match=message):
        W.KernelExplorer(datasets)


@pytest.mark.parametrize("change,message", [
    ({"kernel": "sigmoid"}, "kernel must be one of"),
    ({"degree": 0}, "degree must be"),
    ({"degree": 2.5}, "degree must be"),
    ({"gamma": 0.0}, "gamma must"),
    ({"gamma": float("nan")}, "gamma"),
    ({"dataset": "moons"}, "unknown data set 'moons'"),
    ({"tau": 0}, "tau"),
])
def test_kernel_explorer_names_bad_choices(change, message):
    e = W.KernelExplorer(_kernel_datasets())
    with pytest.raises(ValueError, match=message):
        e.set(**change)
    assert (e.kernel, e.degree, e.dataset) == ("polynomial", 2, "corners")  # unchanged


def _margin_datasets():
    s = pl.make_separable(30, 2, gamma=0.1, R=2.0, theta_0=0.3, seed=1)
    mm = pl.max_margin(s.X, s.y)
    return {"separable": {"X": s.X, "y": s.y, "theta": mm.theta, "theta_0": mm.theta_0}}


EXPLORERS = [
    lambda: W.StepTrainer(pl.notes_example().X, pl.notes_example().y),
    lambda: W.OffsetExplorer(pl.offset_example().X[:, 0], pl.offset_example().y),
    lambda: W.MarginExplorer(pl.notes_example().X, pl.notes_example().y),
    lambda: W.ConvergenceExplorer(n=20),
    lambda: W.MessageExplorer([1.0, 1.0], -0.5, "WIN CASH NOW!!! call 0800 123 456"),
    lambda: W.KernelExplorer(_kernel_datasets()),
    lambda: W.MarginPerceptronExplorer(_margin_datasets()),
]


@pytest.mark.parametrize("make", EXPLORERS)
def test_display_offers_a_live_view_and_an_honest_static_picture(make):
    explorer = make()
    bundle = explorer._repr_mimebundle_()
    assert WIDGET_MIME in bundle
    page = bundle["text/html"]
    alt = re.search(r'alt="([^"]+)"', page).group(1)
    assert len(alt) > 30
    png = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", page).group(1))
    assert png.startswith(b"\x89PNG")
    assert "launch" in page and "download" in page
    assert "<input" not in page and "<button" not in page  # nothing that looks interactive


def test_the_site_drops_the_widget_view():
    from pathlib import Path

    import yaml

    config = yaml.safe_load((Path(__file__).resolve().parents[1] / "_config.yml").read_text())
    overrides = config["sphinx"]["config"]["nb_mime_priority_overrides"]
    assert ["html", WIDGET_MIME, None] in overrides


def _pixels_blitted(explorer):
    import io

    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(explorer.png())).convert("RGB")).astype(int)


def _pixels_full(explorer):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(explorer.figure())
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].astype(int)


MOVES = [
    (lambda: W.StepTrainer(pl.notes_example().X, pl.notes_example().y),
     lambda e: (e.step(), e.step(), e.png(), e.step())),
    (lambda: W.OffsetExplorer(pl.offset_example().X[:, 0], pl.offset_example().y),
     lambda e: (e.set(1.0, -1.5), e.png(), e.set(-1.2, 2.9))),
    (lambda: W.MarginExplorer(pl.notes_example().X, pl.notes_example().y),
     lambda e: (e.set(10, 0.5), e.png(), e.set(-45, 0.3))),
    (lambda: W.ConvergenceExplorer(n=30),
     lambda e: (e.set(gamma=0.3), e.png(), e.set(gamma=0.05, R=2.0, n=80))),
    (lambda: W.MessageExplorer([1.0, 1.0], -0.5, "hello there", X=[[0, 0.2], [0.3, 0.9]],
                               y=[-1, 1]),
     lambda e: (e.set_message("WIN 1000000 NOW"), e.png(), e.set_message("see you at 5"))),
    (lambda: W.KernelExplorer(_kernel_datasets()),
     lambda e: (e.set(kernel="RBF"), e.png(), e.set(dataset="clouds", degree=3),
                e.png(), e.set(kernel="polynomial"))),
]


@pytest.mark.parametrize("make,move", MOVES)
def test_quick_redraws_show_the_same_picture_as_a_full_drawing(make, move):
    # Redraws keep the static part as pixels and draw only what changed; after several
    # changes the picture must still be the one a drawing from scratch gives.
    explorer = make()
    explorer.png()
    move(explorer)
    quick, full = _pixels_blitted(explorer), _pixels_full(explorer)
    assert quick.shape == full.shape
    differ = np.abs(quick - full).max(axis=2) > 60
    assert differ.mean() < 0.005, differ.mean()


def test_redraws_do_not_pile_up_artists():
    ex = pl.notes_example()
    m = W.MarginExplorer(ex.X, ex.y)
    m.png()
    counts = []
    for _ in range(2):
        for angle in range(0, 360, 30):
            m.set(angle, 0.2)
            m.png()
            counts.append(len(m._fig.axes[0].get_children()))
    assert counts[:12] == counts[12:], counts
