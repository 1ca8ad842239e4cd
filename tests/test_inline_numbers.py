"""The numbers a chapter's text quotes: one form for the site and for JupyterLab."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from perceptron_lib.inline import glue

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "book" / "_ext"))
from inline_numbers import parse


@pytest.mark.parametrize("text,expected", [
    ("ch3_sd_norm", ("ch3_sd_norm", None)),
    (' f"{ch3_exp_median:.2f}" ', ("ch3_exp_median", ".2f")),
    ("f'{ch5_rate:.1%}'", ("ch5_rate", ".1%")),
    ('f"{ch4_n:,}"', ("ch4_n", ",")),
])
def test_the_two_forms_name_a_glued_value_and_its_format(text, expected):
    assert parse(text) == expected


@pytest.mark.parametrize("text", [
    "ch3_a + 1",            # arithmetic the site could not redo
    'f"{ch3_a:.2f} units"',  # more than one formatted name
    'f"{ch3_a}"',           # no format: write the bare name
    "f'{ch3_a:.2f}\"",      # mismatched quotes
    "np.pi",
    "",
])
def test_anything_else_is_refused_with_the_reason(text):
    with pytest.raises(ValueError, match="glued name"):
        parse(text)


def test_glue_binds_the_name_in_the_kernel_and_stores_it_for_the_site(monkeypatch):
    stored = []
    monkeypatch.setattr("myst_nb.glue", lambda name, value, display=True:
                        stored.append((name, value, display)))

    class Shell:
        def __init__(self):
            self.user_ns = {}

    shell = Shell()
    monkeypatch.setattr("IPython.get_ipython", lambda: shell)
    glue("ch9_x", 0.25)
    assert stored == [("ch9_x", 0.25, False)]
    assert shell.user_ns["ch9_x"] == 0.25


@pytest.mark.parametrize("name", ["9lives", "a-b", "class", ""])
def test_glue_names_must_be_identifiers(name):
    with pytest.raises(ValueError, match="identifier"):
        glue(name, 1)


def test_glue_takes_plain_values_only():
    import numpy as np

    with pytest.raises(TypeError, match=r"float\(x\)"):
        glue("ch9_x", np.float64(0.5))
    with pytest.raises(TypeError, match="ndarray"):
        glue("ch9_x", np.zeros(2))
