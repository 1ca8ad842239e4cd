"""Every page of the built site: unique ids, scoped header cells, forms that submit, no
empty heading or header cell.

sphinx-proof and sphinx-exercise repeat ids on every page with two proofs or exercises,
and the tables of pandas and Markdown give their header cells no scope;
``book/_ext/valid_html.py`` repairs both in the written pages.  These tests read every
page of a clean build, and also check that the checks themselves notice each fault on
a page made to have it.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

from valid_html import pages, repair  # noqa: E402

# input types that Enter in the field submits the form from (HTML's implicit submission)
TEXT_FIELDS = {"text", "search", "url", "tel", "email", "password", "date", "month", "week",
               "time", "datetime-local", "number"}
# elements that name something, and so must hold something to read: a heading names its
# section (HTML_CodeSniffer's H42.2), a header cell its row or column (axe-core's
# empty-table-header)
NAMED = {"h1", "h2", "h3", "h4", "h5", "h6", "th"}


class Facts(HTMLParser):
    """The ids, header cells and forms of one page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.headers: list[tuple[str, str | None]] = []  # (text start, scope)
        self.forms: list[dict] = []
        self._form: dict | None = None
        self.header_rows: list[int] = []  # rows in each table's <thead>
        self._thead = False
        # headings and header cells with nothing to read, and the one being read
        self.empty: list[tuple[str, int]] = []  # (tag, line)
        self._named: list[list] = []  # [tag, line, has content] of each open one

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in NAMED:
            self._named.append([tag, self.getpos()[0], False])
        elif tag in ("img", "svg", "math") and self._named:
            self._named[-1][2] = True  # a picture or formula names it (axe and HTMLCS agree)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "th":
            self.headers.append((self.getpos(), a.get("scope")))
        if tag == "thead":
            self._thead = True
            self.header_rows.append(0)
        elif tag == "tr" and self._thead:
            self.header_rows[-1] += 1
        if tag == "form":
            self._form = {"fields": 0, "submit": 0, "line": self.getpos()[0]}
            self.forms.append(self._form)
        elif self._form is not None:
            kind = (a.get("type") or "").lower()
            if tag == "button" and kind in ("", "submit"):
                self._form["submit"] += 1
            elif tag == "input" and kind in ("submit", "image"):
                self._form["submit"] += 1
            elif tag == "input" and (kind or "text") in TEXT_FIELDS:
                self._form["fields"] += 1

    def handle_data(self, data):
        if data.strip() and self._named:
            self._named[-1][2] = True

    def handle_endtag(self, tag):
        if tag in NAMED and self._named and self._named[-1][0] == tag:
            name, line, content = self._named.pop()
            if not content:
                self.empty.append((name, line))
            elif self._named:
                self._named[-1][2] = True
        if tag == "form":
            self._form = None
        if tag == "thead":
            self._thead = False


def facts(html: str) -> Facts:
    f = Facts()
    f.feed(html)
    f.close()
    return f


def repeated_ids(f: Facts) -> list[str]:
    return sorted({i for i in f.ids if f.ids.count(i) > 1})


def unscoped(f: Facts) -> list:
    return [pos for pos, scope in f.headers if scope not in ("col", "row", "colgroup", "rowgroup")]


def unsubmittable(f: Facts) -> list[int]:
    """Forms without a submit button.

    Enter submits a form with exactly one text field even without one, but WCAG 2
    technique H32 (and HTML_CodeSniffer's check of it) asks every form for a button.
    """
    return [form["line"] for form in f.forms if not form["submit"]]


@pytest.fixture(scope="module")
def site_facts(site) -> dict[str, Facts]:
    out = {p.relative_to(site).as_posix(): facts(p.read_text(encoding="utf-8"))
           for p in pages(site)}
    assert len(out) >= 10 and "book/05_spam.html" in out
    return out


def test_no_page_repeats_an_id(site_facts):
    bad = {page: repeated_ids(f) for page, f in site_facts.items() if repeated_ids(f)}
    assert not bad, bad
    # the pages with several proofs and exercises keep their first id and number the rest
    ch4 = site_facts["book/04_convergence.html"].ids
    assert "proof-content" in ch4 and "proof-content-2" in ch4


def test_every_header_cell_has_a_scope(site_facts):
    bad = {page: unscoped(f)[:5] for page, f in site_facts.items() if unscoped(f)}
    assert not bad, bad
    # the pandas tables of chapters 5 and 6 are there, with their header cells
    for chapter in ("05_spam", "06_variants"):
        assert len(site_facts[f"book/{chapter}.html"].headers) > 20, chapter


def test_every_table_has_one_header_row(site_facts):
    """A header of several rows needs headers/id links for screen readers (WCAG 2
    technique H43); the book's tables keep to one row, whose cells a scope names."""
    bad = {page: f.header_rows for page, f in site_facts.items()
           if any(k > 1 for k in f.header_rows)}
    assert not bad, bad
    assert len(site_facts["book/05_spam.html"].header_rows) >= 2


def test_every_form_can_be_submitted_from_the_keyboard(site_facts):
    assert sum(len(f.forms) for f in site_facts.values()) >= 10  # the search box of each page
    bad = {page: unsubmittable(f) for page, f in site_facts.items() if unsubmittable(f)}
    assert not bad, bad


REMOTE_CSS = re.compile(r"""url\(\s*['"]?((?:https?:)?//[^'")]+)"""
                        r"""|@import\s+(?:url\()?['"]?((?:https?:)?//[^'")\s;]+)""")


def test_no_heading_or_header_cell_is_empty(site_facts):
    # print-only headings too (sphinx-book-theme's title for print, book/_ext/a11y.py):
    # hidden on screen, but in the page all the same
    bad = {page: f.empty[:5] for page, f in site_facts.items() if f.empty}
    assert not bad, bad


def test_stylesheets_and_modules_load_nothing_from_another_host(site):
    remote = []
    for css in (site / "_static").rglob("*.css"):
        text = css.read_text(encoding="utf-8", errors="replace")
        for m in REMOTE_CSS.finditer(text):
            remote.append(f"{css.relative_to(site)}: {m.group(1) or m.group(2)}")
    for mjs in (site / "_static").rglob("*.mjs"):
        for spec in re.findall(r"""(?:^|\s)(?:import|export)[^"';]*?from\s*["']([^"']+)["']""",
                               mjs.read_text(encoding="utf-8"), re.M):
            if not spec.startswith(("./", "../")):  # relative: the site's own files
                remote.append(f"{mjs.relative_to(site)}: imports {spec}")
    assert not remote, remote
    assert list((site / "_static").rglob("*.mjs"))  # the playground and the spam demo


# ---------------------------------------------------------------------------------------
# The checks notice each fault, and the repair removes it.

BROKEN = """<html><body><main>
<section id="proof-content"><p>a</p></section>
<section id="proof-content"><p id="proof-content-2">b</p></section>
<section id="proof-content"></section>
<table class="dataframe"><thead>
<tr style="text-align: right;"><th></th><th colspan="2" halign="left">ours</th></tr>
<tr><th>message</th><th>x1</th><th>x2</th></tr></thead>
<tbody><tr><th>1</th><td>0/20</td><td>3/20</td></tr></tbody></table>
<form action="search.html"><input type="search" name="q"><input type="text" name="r"></form>
<form action="search.html"><input type="search" name="q"></form>
<form action="search.html"><input type="search" name="q"><button>Search</button></form>
<h1> </h1><h2><span><img src="a.png" alt="a"></span></h2><h3><span> x </span></h3>
<table><thead><tr><th scope="col" class="head"><p></p></th><th scope="col">math</th></tr>
</thead></table>
<script>document.write('<th id="proof-content">');</script>
</main></body></html>"""


def test_the_checks_find_each_fault_and_the_repair_removes_it():
    before = facts(BROKEN)
    assert repeated_ids(before) == ["proof-content"]
    assert len(unscoped(before)) == 6
    assert len(unsubmittable(before)) == 2  # a button is needed even with one field
    assert [tag for tag, _ in before.empty] == ["th", "h1", "th"]
    fixed = repair(BROKEN)
    after = facts(fixed)
    assert repeated_ids(after) == [] and unscoped(after) == []
    # the first keeps its id; the others get numbers that no other element has
    assert after.ids == ["proof-content", "proof-content-3", "proof-content-2",
                         "proof-content-4"]
    assert '<th scope="col" colspan="2" halign="left">ours</th>' in fixed
    assert '<th scope="col">message</th>' in fixed and '<th scope="row">1</th>' in fixed
    assert '<tr style="text-align: right;"><td></td>' in fixed  # an empty corner labels nothing
    assert '<tr><td class="head"><p></p></td>' in fixed  # a Markdown table's too
    assert [tag for tag, _ in after.empty] == ["h1"]  # a heading is the page's to fill
    assert "document.write('<th id=\"proof-content\">')" in fixed  # scripts are left alone
    assert repair(fixed) == fixed
    assert repair("<p>nothing to do</p>") == "<p>nothing to do</p>"
