"""Plot helpers: shapes tell the classes apart, lines sit where the math says."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

import perceptron_lib as pl
from perceptron_lib import plotting


def _scatter_markers(ax):
    out = {}
    for coll in ax.collections:
        label = coll.get_label()
        if label.startswith("$y="):
            out[label] = coll
    return out


def test_classes_differ_by_marker_shape_and_colour():
    ex = pl.notes_example()
    ax = plotting.new_axes()
    plotting.plot_points(ax, ex.X, ex.y)
    coll = _scatter_markers(ax)
    pos, neg = coll["$y=+1$"], coll["$y=-1$"]
    assert pos.get_paths()[0] != neg.get_paths()[0]
    assert len(pos.get_offsets()) == 2 and len(neg.get_offsets()) == 1
    np.testing.assert_array_equal(neg.get_offsets(), [[-1.0, 2.0]])
    assert tuple(pos.get_facecolor()[0][:3]) != tuple(neg.get_facecolor()[0][:3])
    # the minus marker is flat: no height, only width
    v = neg.get_paths()[0].vertices
    assert np.ptp(v[:, 1]) < 1e-9 and np.ptp(v[:, 0]) > 0.5
    v = pos.get_paths()[0].vertices
    assert np.ptp(v[:, 1]) > 0 and np.ptp(v[:, 0]) > 0


@pytest.mark.parametrize("theta,theta_0", [([1.0, -1.0], 1.0), ([0.0, 2.0], -1.0),
                                           ([3.0, 0.0], 1.5), ([1.0, 2.0], 0.0)])
def test_boundary_points_satisfy_the_equation(theta, theta_0):
    ax = plotting.new_axes()
    plotting.plot_boundary(ax, theta, theta_0)
    (line,) = [ln for ln in ax.get_lines() if ln.get_label() == "boundary"]
    xs, ys = line.get_data()
    np.testing.assert_allclose(theta[0] * np.asarray(xs) + theta[1] * np.asarray(ys) + theta_0,
                               0.0, atol=1e-12)
    # the segment runs from edge to edge of the view box
    for x, y in zip(xs, ys, strict=True):
        assert np.isclose(abs(x), 3.0) or np.isclose(abs(y), 3.0)
    assert np.hypot(np.ptp(xs), np.ptp(ys)) > 4.0
    assert ax.get_xlim() == (-3.0, 3.0)


def test_normal_starts_on_the_boundary_and_points_to_the_positive_side():
    ax = plotting.new_axes()
    plotting.plot_normal(ax, [1.0, -1.0], 1.0)
    (arrow,) = [c for c in ax.get_children() if hasattr(c, "arrow_patch") and c.arrow_patch]
    start = np.array(arrow.xyann)
    end = np.array(arrow.xy)
    assert start @ [1.0, -1.0] + 1.0 == pytest.approx(0.0)
    np.testing.assert_allclose(end - start, [1.0, -1.0])
    assert pl.predict(end[None], [1.0, -1.0], 1.0)[0] == 1


def test_margin_band_lines_are_at_distance_gamma():
    ax = plotting.new_axes()
    theta, theta_0, gamma = np.array([1.0, 2.0]), 0.5, 0.4
    plotting.plot_margin_band(ax, theta, theta_0, gamma)
    dotted = [ln for ln in ax.get_lines() if ln.get_linestyle() == ":"]
    assert len(dotted) == 2
    dists = sorted(float(np.mean(pl.signed_distance(np.column_stack(ln.get_data()), theta,
                                                     theta_0))) for ln in dotted)
    np.testing.assert_allclose(dists, [-gamma, gamma])
    with pytest.raises(ValueError, match="gamma must be positive"):
        plotting.plot_margin_band(ax, theta, theta_0, 0.0)


def test_plot_classifier_draws_everything_with_a_legend():
    ex = pl.notes_example()
    ax = plotting.plot_classifier(ex.X, ex.y, ex.theta, ex.theta_0, gamma=0.5, annotate=True,
                                  highlight=0, title="worked example")
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert {"boundary", "normal $\\theta$", "margin band", "$y=+1$", "$y=-1$",
            "current example"} <= set(labels)
    assert ax.get_title() == "worked example"
    names = [t.get_text() for t in ax.texts if t.get_text()]
    assert names == ["$x^{(1)}$", "$x^{(2)}$", "$x^{(3)}$"]
    # a zero theta (the perceptron's start) draws only the points
    ax2 = plotting.plot_classifier(ex.X, ex.y, [0.0, 0.0])
    assert not [ln for ln in ax2.get_lines() if ln.get_label() == "boundary"]


def test_plot_errors_name_the_problem():
    ax = plotting.new_axes()
    with pytest.raises(ValueError, match="theta must have length 2"):
        plotting.plot_boundary(ax, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="zero vector"):
        plotting.plot_normal(ax, [0.0, 0.0])
    with pytest.raises(ValueError, match="2-D data"):
        plotting.plot_points(ax, np.ones((3, 3)), [1, -1, 1])


def test_line_data_plot():
    ex = pl.offset_example()
    _fig, ax = plt.subplots()
    plotting.plot_line_data(ax, ex.X[:, 0], ex.y, theta=-1.0, theta_0=2.5)
    assert any(ln.get_label() == "threshold $x=2.5$" for ln in ax.get_lines())
