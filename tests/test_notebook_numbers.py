"""Every number a chapter's text quotes is computed before the text quotes it.

A reader who runs a chapter cell by cell in JupyterLab (Shift+Enter) sees each
``{eval}`` of a Markdown cell evaluated when that cell is reached, by the
``jupyterlab-myst`` extension: a number computed only by a later code cell would show as
a ``NameError`` there.  ``notebook_numbers.run_in_order`` runs a chapter that way.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_numbers import run_in_order

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "book").glob("0[0-9]_*.ipynb"))


@pytest.mark.slow
@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_quoted_number_is_computed_before_its_text(chapter):
    shown = run_in_order(chapter)
    assert shown, f"{chapter.name} quotes no number"
    errors = [f"cell {s.cell}: {s.expression}: {s.error}" for s in shown if s.error]
    assert errors == [], "\n".join(errors)
    assert all(s.text for s in shown)


def test_a_number_quoted_too_early_is_caught(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("The answer is {eval}`ch0_answer`."),
        nbformat.v4.new_code_cell("ch0_answer = 42"),
        nbformat.v4.new_markdown_cell(
            "Now it is {eval}`ch0_answer`, or {eval}`f\"{ch0_answer:.1f}\"`."),
    ])
    path = tmp_path / "early.ipynb"
    nbformat.write(nb, path)
    shown = run_in_order(path)
    assert [(s.cell, s.text) for s in shown] == [(0, None), (2, "42"), (2, "42.0")]
    assert shown[0].error.startswith("NameError")
