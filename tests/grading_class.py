"""A class of submitted notebooks with known mistakes, for the tests of the class report.

:func:`make_class` writes notebooks named as Moodle's flat download names them
(``Student 07_1007_assignsubmission_file_notebook.ipynb``: the student and the
participant id), and returns who was given which answer, so that a test can check
that the report finds each planted mistake in exactly the students who made it.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import nbformat

SOLUTION = '''
import numpy as np

def update(theta, theta_0, x, y):
    theta = np.asarray(theta, dtype=float)
    x = np.asarray(x, dtype=float)
    if y * (theta @ x + theta_0) <= 0:
        return theta + y * x, theta_0 + y, True
    return theta, theta_0, False

def perceptron(X, y, tau):
    X = np.asarray(X, dtype=float)
    theta, theta_0, mistakes = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(tau):
        changed = False
        for i in range(len(y)):
            theta, theta_0, updated = update(theta, theta_0, X[i], y[i])
            mistakes += updated
            changed = changed or updated
        if not changed:
            break
    return theta, theta_0, mistakes

def predict(X, theta, theta_0):
    return np.where(np.asarray(X, dtype=float) @ np.asarray(theta) + theta_0 > 0, 1, -1)
'''

STUB = '''
def update(theta, theta_0, x, y):
    # YOUR CODE HERE
    raise NotImplementedError()

def perceptron(X, y, tau):
    # YOUR CODE HERE
    raise NotImplementedError()

def predict(X, theta, theta_0):
    # YOUR CODE HERE
    raise NotImplementedError()
'''

# Runs 10,000 epochs whatever tau is, as the known mistake does; in plain Python, so
# that each call stays well within the grader's time limit on a busy machine.
IGNORES_TAU = SOLUTION.split("def perceptron")[0] + '''
def perceptron(X, y, tau):
    X = [[float(v) for v in row] for row in X]
    y = [float(v) for v in y]
    theta, theta_0, mistakes = [0.0] * len(X[0]), 0.0, 0
    for _ in range(10_000):
        changed = False
        for x, label in zip(X, y):
            if label * (sum(t * v for t, v in zip(theta, x)) + theta_0) <= 0:
                theta = [t + label * v for t, v in zip(theta, x)]
                theta_0 += label
                mistakes += 1
                changed = True
        if not changed:
            break
    return np.array(theta), theta_0, mistakes

def predict''' + SOLUTION.split("def predict")[1]

#: A kind of submission: the cells (a list of code) or the file's text (a str).
KINDS: dict[str, list[str] | str] = {
    "right": [SOLUTION],
    "strict": [SOLUTION.replace("<= 0", "< 0")],
    "no_offset": [SOLUTION.replace("theta_0 + y, True", "theta_0, True")],
    "flipped": [SOLUTION.replace("theta + y * x, theta_0 + y", "theta - y * x, theta_0 - y")],
    "ignores_tau": [IGNORES_TAU],
    "predict_ge": [SOLUTION.replace("+ theta_0 > 0", "+ theta_0 >= 0")],
    "blank": [STUB],
    "no_predict": [SOLUTION.split("def predict")[0]],
    "not_json": "{ this is not a notebook",
    "not_a_notebook": json.dumps({"hello": "world"}),
    # stopped at the whole notebook's time limit (the tests use --wall-seconds 8)
    "timeout": [SOLUTION, "import time\ntime.sleep(4.5)", "import time\ntime.sleep(4.5)"],
    # kills every process of the run: the grader sees its child end before finishing
    "crash": [SOLUTION, "import os, signal\nos.killpg(0, signal.SIGKILL)"],
}

#: How many students of the class of 60 made each kind of submission.
CLASS_60 = {"right": 30, "strict": 6, "no_offset": 5, "flipped": 4, "ignores_tau": 4,
            "predict_ge": 3, "blank": 3, "no_predict": 1, "not_json": 1,
            "not_a_notebook": 1, "timeout": 1, "crash": 1}

#: The graded functions in which each kind of submission makes a known mistake.
PLANTED = {"strict": ["update"], "no_offset": ["update"],
           "flipped": ["update"], "ignores_tau": ["perceptron"],
           "predict_ge": ["predict"]}


def notebook_text(cells: list[str], assignment: str = "01_algorithm") -> str:
    nb = nbformat.v4.new_notebook()
    nb.metadata["perceptron_course"] = {"assignment": assignment}
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    return nbformat.writes(nb)


def student(k: int) -> tuple[str, str]:
    """The k-th student's name and Moodle participant id."""
    return f"Student {k:02d}", str(1000 + k)


def make_class(folder: Path, counts: dict[str, int] = CLASS_60) -> dict[str, list[str]]:
    """Write the class into ``folder``; returns each kind's students (``Name (id)``)."""
    folder.mkdir(parents=True, exist_ok=True)
    who: dict[str, list[str]] = {}
    k = 0
    for kind, n in counts.items():
        for _ in range(n):
            k += 1
            name, ident = student(k)
            content = KINDS[kind]
            text = content if isinstance(content, str) else notebook_text(content)
            (folder / f"{name}_{ident}_assignsubmission_file_notebook.ipynb").write_text(text)
            who.setdefault(kind, []).append(f"{name} ({ident})")
    return who


def write_roster(path: Path, n: int, skip: set[int] = frozenset(),
                 extra: tuple[str, str, str] | None = None) -> None:
    """A roster of the class (``id,name,email``) without the students ``skip``, and with
    one more row ``extra`` (id, name, email) if given."""
    lines = ["id,name,email"]
    for k in range(1, n + 1):
        if k not in skip:
            name, ident = student(k)
            lines.append(f"{ident},{name},student{k:02d}@example.org")
    if extra:
        lines.append(",".join(extra))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


class _Tables(HTMLParser):
    """Collect every table of a page: caption -> rows of cell texts (header row first)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._caption: list[str] | None = None
        self._rows: list[list[str]] | None = None
        self._cell: list[str] | None = None
        self._name = ""

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self._rows, self._name = [], ""
        elif tag == "caption":
            self._caption = []
        elif tag == "tr" and self._rows is not None:
            self._rows.append([])
        elif tag in ("td", "th") and self._rows is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "caption" and self._caption is not None:
            self._name = " ".join("".join(self._caption).split())
            self._caption = None
        elif tag in ("td", "th") and self._cell is not None and self._rows:
            self._rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "table" and self._rows is not None:
            self.tables[self._name] = self._rows
            self._rows = None

    def handle_data(self, data):
        for part in (self._caption, self._cell):
            if part is not None:
                part.append(data)


def html_tables(page: str) -> dict[str, list[list[str]]]:
    """Every table of an HTML page by its caption: rows of cell texts, the header first."""
    parser = _Tables()
    parser.feed(page)
    return parser.tables
