"""Every rule an exercise states is checked by a case of its task (``assignments.rules``).

For each rule: its words are in the function's section of the exercise notebook, one
case of the task starts with the rule's ``case``, and the known mistake it names (if
any) answers that case wrongly.  The cases added for rules that no other case checked
are shown to catch an answer that breaks only that rule.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from perceptron_lib.grading.assignments import ASSIGNMENTS, Case, Task, find_task
from perceptron_lib.grading.assignments.rules import RULES, Rule

ROOT = Path(__file__).resolve().parents[1]
NAMES = [t.name for tasks in ASSIGNMENTS.values() for t in tasks]
ENTRIES = [(name, rule) for name, rules in RULES.items() for rule in rules]
WITH_MISTAKE = [(name, rule) for name, rule in ENTRIES if rule.mistake is not None]


def _id(entry: tuple[str, Rule]) -> str:
    name, rule = entry
    return f"{name}: {rule.said[:40]} [{rule.mistake}]"


def collapse(text: str) -> str:
    """``text`` with every run of white space as one space."""
    return " ".join(text.split())


def _source(cell: dict) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def _is_heading(cell: dict) -> bool:
    return cell["cell_type"] == "markdown" and _source(cell).lstrip().startswith("## ")


@cache
def section(name: str) -> str:
    """The markdown of the notebook section that asks for ``name``: from the heading
    before the cell that defines it to the next heading, white space collapsed."""
    assignment, _ = find_task(name)
    path = ROOT / "exercises" / f"{assignment}.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    defines = re.compile(rf"^def {name}\(", re.MULTILINE)
    at = next(k for k, c in enumerate(cells)
              if c["cell_type"] == "code" and defines.search(_source(c)))
    start = max(k for k in range(at) if _is_heading(cells[k]))
    end = next((k for k in range(at, len(cells)) if _is_heading(cells[k])), len(cells))
    return " ".join(collapse(_source(c)) for c in cells[start:end]
                    if c["cell_type"] == "markdown")


def cases(task: Task) -> list[Case]:
    """The public cases and those graded without a secret."""
    return [*task.public, *task.grading_cases(None)]


def cases_starting(task: Task, start: str) -> list[Case]:
    return [c for c in cases(task) if c.about.startswith(start)]


def differs(task: Task, case: Case, wrong: Callable) -> bool:
    """Whether ``wrong`` answers ``case`` otherwise than the reference."""
    expected = task.reference(*case.args)
    return task.answer.mismatch(expected, wrong(*case.args)) is not None


# --------------------------------------------------------------------- the inventory
def test_every_graded_function_has_at_least_two_rules():
    assert list(RULES) == NAMES
    for name, rules in RULES.items():
        assert len(rules) >= 2, name
        assert len(set(rules)) == len(rules), f"{name}: a rule listed twice"


@pytest.mark.parametrize("name", NAMES)
def test_the_section_is_the_one_that_asks_for_the_function(name):
    text = section(name)
    assert text.startswith("## ")
    assert f"{name}(" in text


@pytest.mark.parametrize("name,rule", ENTRIES, ids=[_id(e) for e in ENTRIES])
def test_the_rule_is_said_in_the_functions_section(name, rule):
    said = collapse(rule.said)
    assert said == rule.said, "white space the notebook does not have"
    assert 0 < len(said) <= 120
    assert said in section(name)


@pytest.mark.parametrize("name,rule", ENTRIES, ids=[_id(e) for e in ENTRIES])
def test_exactly_one_case_starts_as_the_rule_says(name, rule):
    _, task = find_task(name)
    found = [c.about for c in cases_starting(task, rule.case)]
    assert len(found) == 1, found


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name,rule", WITH_MISTAKE, ids=[_id(e) for e in WITH_MISTAKE])
def test_the_mistake_that_breaks_the_rule_fails_its_case(name, rule):
    _, task = find_task(name)
    [case] = cases_starting(task, rule.case)
    assert differs(task, case, task.mistake(rule.mistake).wrong)


# ------------------------------------------------------- what the added cases catch
def _lift_with_zero_default(X, value=0.0):
    X = np.asarray(X, dtype=float)
    return np.hstack([X, np.full((len(X), 1), float(value))])


def _lemma_from_zero(thetas, theta_star):
    """Alignments and squared norms that take theta^(0) = 0 for granted."""
    _, task = find_task("lemma_quantities")
    alignment, norm_sq = task.reference(thetas, theta_star)
    return np.concatenate([[0.0], alignment[1:]]), np.concatenate([[0.0], norm_sq[1:]])


def _margin_strict_at_zero(X, y, margin, tau):
    """Right for every positive margin; with margin 0 nothing ever updates."""
    _, task = find_task("margin_perceptron")
    if margin == 0:
        X = np.asarray(X, dtype=float)
        return np.zeros(X.shape[1]), 0.0, 0
    return task.reference(X, y, margin, tau)


#: (function, the start of the case added for a rule, an answer that breaks only it)
ADDED = [("add_offset_feature", "value left out", _lift_with_zero_default),
         ("lemma_quantities", "row 0 is not zero", _lemma_from_zero),
         ("margin_perceptron", "margin 0", _margin_strict_at_zero)]


@pytest.mark.parametrize("name,start,wrong", ADDED, ids=[a[0] for a in ADDED])
def test_an_added_case_alone_catches_the_rule_it_was_added_for(name, start, wrong):
    _, task = find_task(name)
    assert any(rule.case == start for rule in RULES[name])
    [added] = cases_starting(task, start)
    assert differs(task, added, wrong)
    others = [c for c in cases(task) if c.about != added.about]
    assert not [c.about for c in others if differs(task, c, wrong)]
