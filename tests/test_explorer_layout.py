"""The explorers' pictures at their natural size, their controls beside them, and legends
that never cover the data (what a reader sees in JupyterLab)."""

from __future__ import annotations

import base64
import io
import re

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from PIL import Image
from test_widgets import EXPLORERS

from perceptron_lib import widgets as W

# A laptop's window (1366 x 768) leaves about 560 pixels of height to a notebook cell
# under JupyterLab's menus, tabs and toolbar, and about 1,000 of width with the file
# browser open: the picture and a column of controls beside it must fit there.
CELL_HEIGHT, CELL_WIDTH, PANEL_MIN = 560, 1000, 260


def _png_size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


@pytest.mark.parametrize("make", EXPLORERS)
def test_the_picture_is_shown_at_the_size_it_is_drawn(make):
    explorer = make()
    size = _png_size(explorer.png())
    assert size == explorer.pixel_size
    layout = explorer._image.layout
    assert layout.width == f"{size[0]}px"  # never stretched to the cell's width
    assert layout.max_width == "100%" and layout.height == "auto"  # shrinks, keeps shape
    page = explorer.static_html()
    assert f'width="{size[0]}" height="{size[1]}"' in page  # the page reserves its room
    png = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", page).group(1))
    assert _png_size(png) == size


@pytest.mark.parametrize("make", EXPLORERS)
def test_a_whole_explorer_fits_a_laptop_window(make):
    explorer = make()
    width, height = explorer.pixel_size
    assert height <= CELL_HEIGHT, f"{type(explorer).__name__} is {height} px tall"
    ui = explorer.ui
    image, panel = ui.children
    assert image is explorer._image
    assert ui.layout.flex_flow == "row wrap"  # controls beside the picture, below if narrow
    assert panel.layout.min_width == f"{PANEL_MIN}px"
    if width + PANEL_MIN <= CELL_WIDTH:
        return
    # a wide picture puts the controls below it: both must still fit in the height
    assert height + 160 <= CELL_HEIGHT, type(explorer).__name__


def _legends_and_axes(explorer):
    fig = explorer.figure()
    FigureCanvasAgg(fig).draw()
    renderer = fig.canvas.get_renderer()
    return fig, [(ax, ax.get_legend(), renderer) for ax in fig.axes if ax.get_legend()]


@pytest.mark.parametrize("make", EXPLORERS)
def test_legends_stand_outside_the_plotting_area(make):
    fig, pairs = _legends_and_axes(make())
    assert pairs, "an explorer's picture explains its marks"
    box = fig.bbox
    for ax, legend, renderer in pairs:
        leg = legend.get_window_extent(renderer)
        area = ax.get_window_extent(renderer)
        overlap_w = min(leg.x1, area.x1) - max(leg.x0, area.x0)
        overlap_h = min(leg.y1, area.y1) - max(leg.y0, area.y0)
        assert overlap_w <= 0 or overlap_h <= 0, "a legend covers the data"
        # and it is not cut off by the picture's edge
        assert leg.x0 >= box.x0 - 1 and leg.x1 <= box.x1 + 1
        assert leg.y0 >= box.y0 - 1 and leg.y1 <= box.y1 + 1


def test_the_rule_for_legends_can_fail():
    # a legend left inside the axes, as the explorers once drew theirs, is caught
    explorer = W.ConvergenceExplorer(n=20)
    fig, pairs = _legends_and_axes(explorer)
    ax = pairs[0][0]
    ax.legend(["x"], loc="upper left")
    renderer = fig.canvas.get_renderer()
    leg, area = ax.get_legend().get_window_extent(renderer), ax.get_window_extent(renderer)
    assert min(leg.x1, area.x1) > max(leg.x0, area.x0)
    assert min(leg.y1, area.y1) > max(leg.y0, area.y0)


def test_the_kernel_explorers_sliders_have_a_row_each():
    """Side by side in the panel, JupyterLab drew their tracks 17-54 px wide."""
    import ipywidgets as w
    from test_widgets import _kernel_datasets

    from perceptron_lib.widgets._base import SLIDER_WIDTH

    explorer = W.KernelExplorer(_kernel_datasets())
    _, panel = explorer.ui.children
    sliders = [c for c in panel.children if isinstance(c, w.IntSlider | w.FloatLogSlider)]
    assert len(sliders) == 3
    assert not any(isinstance(c, w.HBox) for c in panel.children)
    for slider in sliders:
        assert slider.layout.min_width == SLIDER_WIDTH and slider.layout.width == "100%"
    assert int(SLIDER_WIDTH.removesuffix("px")) >= 150 + 180  # track, label and readout


def test_the_message_box_shows_a_whole_message():
    explorer = W.MessageExplorer([1.0, 1.0], -0.5, "WIN CASH NOW!!! call 0800 123 456")
    assert explorer._text.rows >= 5
