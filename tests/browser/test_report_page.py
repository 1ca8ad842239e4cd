"""The class report and a feedback page of the grader, in headless Chromium.

A small class (``tests/grading_class.py``: right answers, known mistakes, a blank
notebook, a file that is not a notebook, with a roster and an adjustment) is graded
once; its ``report.html`` and one student's feedback page are then opened from a local
server, at 1280 px in the light theme and at 390 px in the dark one, every disclosure
opened, and checked: no failed request and none to another host, no console error,
every figure named and described, nothing wider than a phone, and no axe-core
violation at all.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from grading_class import make_class, write_roster
from harness import AXE_RUN, OVERFLOW, load, serve

from perceptron_lib.grading.__main__ import main as grade_folder

CLASS = {"right": 2, "strict": 1, "no_offset": 1, "predict_ge": 1, "blank": 1, "not_json": 1}

FIGURES = """
() => [...document.querySelectorAll("svg")].map((s) => ({
  role: s.getAttribute("role"),
  name: (s.getAttribute("aria-label") || "").trim(),
  desc: (s.querySelector("desc") || {}).textContent || "",
  width: s.getBoundingClientRect().width,
}))
"""
OPEN_ALL = "() => document.querySelectorAll('details').forEach((d) => { d.open = true; })"
TABLES = """
() => [...document.querySelectorAll("table")].map((t) => ({
  caption: (t.caption || {}).textContent || "",
  region: (t.closest('[role="region"]') || {}).ariaLabel || "",
  focusable: (t.closest('[role="region"]') || {}).tabIndex === 0,
}))
"""


@pytest.fixture(scope="module")
def gradebook(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("report-page")
    make_class(base / "subs", CLASS)
    write_roster(base / "roster.csv", 7, skip={7}, extra=("99", "Nobody Yet", "no@x.org"))
    (base / "adj.csv").write_text("student,function,points,reason\n"
                                  "1003,update,+0.5,regrade request: case 3\n")
    with contextlib.redirect_stdout(io.StringIO()):
        code = grade_folder([str(base / "subs"), "--out", str(base / "out"), "--workers", "2",
                             "--roster", str(base / "roster.csv"), "--adjustments",
                             str(base / "adj.csv"), "--export", "canvas", "--export", "moodle"])
    assert code == 0
    return base / "out"


@pytest.fixture(scope="module")
def served(gradebook):
    with serve(gradebook) as url:
        yield url


def visit(browser, url: str, axe: str, width: int, scheme: str) -> dict:
    ctx = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme,
                              is_mobile=width < 500, has_touch=width < 500)
    try:
        page = ctx.new_page()
        rec = load(page, url)
        page.evaluate(OPEN_ALL)
        rec["figures"] = page.evaluate(FIGURES)
        rec["tables"] = page.evaluate(TABLES)
        rec["overflow"] = page.evaluate(OVERFLOW)
        rec["title"] = page.title()
        page.add_script_tag(content=axe)
        rec["axe"] = page.evaluate(AXE_RUN)
        page.close()
    finally:
        ctx.close()
    return rec


@pytest.fixture(scope="module")
def pages(browser, served, axe_source) -> dict[tuple[str, str], dict]:
    feedback = "feedback/Student 03_1003.html"  # the strict one, adjusted
    out = {}
    for name, rel in (("report", "report.html"), ("feedback", feedback)):
        for width, scheme in ((1280, "light"), (390, "dark")):
            out[(name, scheme)] = visit(browser, f"{served}/{rel}", axe_source, width, scheme)
    return out


def test_the_pages_load_nothing_from_elsewhere_and_log_no_error(pages, served):
    for key, rec in pages.items():
        assert rec["failed"] == [], key
        assert rec["external"] == [], key
        assert rec["console"] == [], key
    assert served.errors == []  # what the server refused, favicon included
    assert pages[("report", "light")]["title"] == "Class report: 01_algorithm"
    assert pages[("feedback", "light")]["title"] == "Feedback: Student 03 (1003) (01_algorithm)"


def test_every_figure_is_named_and_described(pages):
    figures = pages[("report", "light")]["figures"]
    assert len(figures) == 2
    for f in figures:
        assert f["role"] == "img" and len(f["name"]) > 20 and len(f["desc"]) > 40
        assert f["width"] > 300
    assert pages[("feedback", "light")]["figures"] == []
    for rec in pages.values():
        for t in rec["tables"]:
            assert t["caption"].strip() and t["region"].strip() and t["focusable"], t


def test_nothing_is_wider_than_a_phone(pages):
    for name in ("report", "feedback"):
        o = pages[(name, "dark")]["overflow"]
        assert o["scrollWidth"] <= o["clientWidth"], (name, o["wide"])
        assert o["clientWidth"] <= 390


def test_axe_finds_nothing_in_either_theme(pages):
    for key, rec in pages.items():
        assert rec["axe"] == [], (key, rec["axe"])
