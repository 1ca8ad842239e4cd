"""The book builds from clean with warnings as errors, and its pages keep their promises.

One clean build (Sphinx -W, nitpicky, every notebook executed) serves every test here:
the pages exist, numbers glued into the prose match the library, every image has alt
text, nothing is loaded from another host, and each chapter has what a chapter needs.
"""

import ast
import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from chapter_references import NOTEBOOK_CITATIONS

ROOT = Path(__file__).resolve().parents[1]


def toc_pages() -> list[str]:
    text = (ROOT / "_toc.yml").read_text()
    return re.findall(r"(?:root|file):\s*(\S+)", text)


def chapters() -> list[str]:
    return [p for p in toc_pages() if (ROOT / f"{p}.ipynb").is_file()]


def test_exercise_notebooks_are_offered_and_solutions_are_not(site):
    page = (site / "book" / "exercises.html").read_text()
    for chapter in chapters():
        name = Path(chapter).name
        assert f"{name}.ipynb" in page
        assert f"exercises/{name}.ipynb" in page  # launch links
    downloads = {p.name for p in (site / "_downloads").rglob("*.ipynb")}
    assert {f"{Path(c).name}.ipynb" for c in chapters()} <= downloads
    for path in site.rglob("*"):
        if path.is_file() and path.suffix in (".ipynb", ".html"):
            assert "### BEGIN SOLUTION" not in path.read_text(errors="ignore"), path


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags(path: Path) -> list[tuple[str, dict]]:
    parser = _Tags()
    parser.feed(path.read_text())
    return parser.tags


def glued_values(glue_file: Path) -> dict[str, object]:
    """Text values glued with myst_nb.glue, as the build stored them (NAME.glue.json)."""
    data = json.loads(glue_file.read_text())
    out = {}
    for name, entry in data.items():
        mimes = entry.get("data", {})
        if "text/plain" in mimes and not any(k.startswith("image/") for k in mimes):
            out[name] = ast.literal_eval(mimes["text/plain"])
    return out


def test_every_toc_page_is_built(site):
    pages = toc_pages()
    assert pages and pages[0] == "book/intro"
    for page in pages:
        assert (site / f"{page}.html").is_file(), page
    assert "book/intro.html" in (site / "index.html").read_text()


def test_intro_states_the_conventions(site):
    html = (site / "book" / "intro.html").read_text()
    for phrase in ("Notation and conventions", "Examples are rows", "Labels are",
                   "Mistakes", "Nothing is modified in place"):
        assert phrase in html, phrase
    assert "<table" in html


def test_intro_says_how_to_use_the_demos_as_the_demos_say_it():
    """The introduction states the demos' mouse and keys once; every demo with points
    builds its help from the kit's same lines (book/_demos/kit), which name the same keys."""
    intro = (ROOT / "book" / "intro.md").read_text()
    note = intro[intro.index("## How to use the demos"):intro.index("## Notation")]
    keys = set(re.findall(r"<kbd>([^<]+)</kbd>", note))
    assert {"Shift", "+", "\u2212", "a", "Tab", "n", "N", "Enter", "Space", "Delete",
            "Backspace", "s", "e", "r", "p", "0", "Ctrl", "Z", "Y", "\u2318", "\u21e7",
            "b"} <= keys, keys
    assert "more than 40 points" in note  # dom.mjs MAX_TABBABLE_POINTS
    kit = ROOT / "book" / "_demos" / "kit"
    help_text = ((kit / "point-editor.mjs").read_text() + (kit / "edit-history.mjs").read_text())
    for phrase in ("(Shift-click: the other label)", "+ and \\u2212 choose the label",
                   "a adds a point in the middle", "Drag a point to move it",
                   "arrow keys move it (Shift: by a grid step)", "Enter or Space flips",
                   "Delete or Backspace removes", "n and Shift+N", "Tab stop",
                   "Undo (Ctrl+Z or \\u2318Z)", "Redo (Ctrl+Shift+Z, Ctrl+Y or",
                   "The page's address keeps what you see"):
        assert phrase in help_text, phrase
    for module in ("playground/playground.mjs", "offset/offset-demo.mjs",
                   "kernel/kernel-playground.mjs", "margin/margin-demo.mjs"):
        text = (ROOT / "book" / "_demos" / module).read_text()
        assert "points.helpLines(" in text and "...UNDO_HELP" in text, module
        assert "s Step, e Epoch, r Run, p Play or Pause" in text and "0 Reset" in text, module


def test_the_seven_chapters_are_in_the_book():
    assert [Path(c).name for c in chapters()] == [
        "01_algorithm", "02_offset", "03_margin", "04_convergence", "05_spam",
        "06_variants", "07_beyond"]


@pytest.mark.parametrize("chapter", chapters())
def test_glued_numbers_match_the_library(build, chapter, book_expected):
    glue_file = build / "jupyter_execute" / f"{chapter}.glue.json"
    assert glue_file.is_file(), glue_file
    glued = glued_values(glue_file)
    number = int(Path(chapter).name[:2])
    expected = book_expected(number)
    assert glued, "the chapter glues no number"
    assert set(glued) == set(expected), (
        f"glued only: {sorted(set(glued) - set(expected))}; "
        f"expected only: {sorted(set(expected) - set(glued))}")
    for key, want in expected.items():
        got = glued[key]
        if isinstance(want, float) or isinstance(got, float):
            assert got == pytest.approx(want, rel=1e-9, abs=1e-12), key
        else:
            assert got == want, key


@pytest.mark.parametrize("chapter", chapters())
def test_chapter_has_what_a_chapter_needs(site, chapter):
    html = (site / f"{chapter}.html").read_text()
    assert "Learning goals" in html
    assert re.search(r"<h2>Summary", html) or 'id="summary"' in html
    assert len(re.findall(r'class="[^"]*\bexercise\b', html)) >= 2
    assert len(re.findall(r'class="[^"]*\bsolution\b[^"]*\bdropdown\b', html)) >= 2
    assert 'class="explorer-static"' in html, "no explorer picture"
    assert "jupyter-widgets" not in html and "widget-view+json" not in html
    assert "citation" in html or "bibliography" in html
    assert "Traceback" not in html


def test_proofs_and_algorithms_are_blocks(site):
    ch1 = (site / "book" / "01_algorithm.html").read_text()
    ch4 = (site / "book" / "04_convergence.html").read_text()
    assert 'class="proof algorithm admonition"' in ch1
    for kind in ("proof theorem admonition", "proof lemma admonition", "proof admonition"):
        assert f'class="{kind}"' in ch4, kind


def test_every_image_has_alt_text(site):
    missing = []
    for page in toc_pages():
        for tag, attrs in tags(site / f"{page}.html"):
            if tag == "img" and not (attrs.get("alt") or "").strip():
                missing.append(f"{page}: {attrs.get('src', '')[:60]}")
    assert not missing, missing


def test_pages_load_nothing_from_another_host(site):
    remote = []
    for page in site.rglob("*.html"):
        for tag, attrs in tags(page):
            url = None
            if tag in ("script", "img", "iframe", "source", "audio", "video"):
                url = attrs.get("src")
            elif tag == "link" and attrs.get("rel") in ("stylesheet", "preload", "modulepreload",
                                                         "icon", "shortcut icon"):
                url = attrs.get("href")
            if url and re.match(r"(https?:)?//", url):
                remote.append(f"{page.relative_to(site)}: <{tag}> {url}")
    assert not remote, remote[:20]


def test_formulas_are_typeset_when_the_site_is_built(site):
    """No page loads MathJax: each formula is MathJax's markup, with its style and fonts."""
    fonts = site / "_static" / "mathjax" / "woff-v2"
    with_math = [p for p in toc_pages() if 'class="math' in (site / f"{p}.html").read_text()]
    assert len(with_math) >= 7
    for page in with_math:
        path = site / f"{page}.html"
        html = path.read_text()
        srcs = [a.get("src", "") for t, a in tags(path) if t == "script"]
        assert not [s for s in srcs if "mathjax" in s.lower()], page
        assert "window.MathJax" not in html, page
        elements = re.findall(r'<(span|div) class="math notranslate nohighlight"[^>]*>(.*?)</\1>',
                              html, re.S)
        assert len(elements) > 10, page
        for _, inner in elements:
            # MathJax's markup with the hidden MathML for screen readers; no TeX left
            assert inner.count("<mjx-container") == 1 and "<mjx-assistive-mml" in inner, inner[:200]
            text = re.sub(r"<[^>]+>", "", re.sub(r'<span class="eqno">.*?</span>', "", inner))
            assert "\\" not in text and not re.search(r"\\[(\[]", text), (page, text[:100])
        style = re.findall(r'<style id="mathjax-chtml">(.*?)</style>', html, re.S)
        assert len(style) == 1, page
        urls = re.findall(r'url\("?([^")]+)"?\)', style[0])
        assert urls, page
        for url in urls:  # every font the style sheet names is in the site
            assert (path.parent / url).resolve().is_file(), (page, url)
        preloads = re.findall(r'<link rel="preload" href="([^"]+)" as="font"', html)
        # the fonts of the first formulas: at least the zero-width and the main font
        names = {Path(u).name for u in preloads}
        assert names >= {"MathJax_Zero.woff", "MathJax_Main-Regular.woff"}, page
        assert all((path.parent / u).resolve().is_file() for u in preloads), page
    assert sorted(f.name for f in fonts.glob("*.woff"))


def test_pages_load_no_thebe_and_no_fontawesome_script(site):
    pages = [p for p in site.rglob("*.html") if "_static" not in p.relative_to(site).parts]
    assert len(pages) >= 10
    for page in pages:
        srcs = [a.get("src", "") for t, a in tags(page) if t == "script"]
        assert not [s for s in srcs if "thebe" in s or "fontawesome.js" in s], page
        assert "THEBE_JS_URL" not in page.read_text(), page


def test_notebooks_offer_download_and_launch(site):
    for chapter in chapters():
        html = (site / f"{chapter}.html").read_text()
        name = Path(chapter).name
        assert f"_sources/{chapter}.ipynb" in html or f"{name}.ipynb" in html
        assert "mybinder.org" in html and "colab.research.google.com" in html


PLAYGROUND_PAGES = {"book/01_algorithm.html", "book/03_margin.html", "book/04_convergence.html"}


def test_the_playground_is_on_the_pages_it_teaches_and_only_there(site):
    found = set()
    for page in site.rglob("*.html"):
        html = page.read_text()
        has_div = 'class="perceptron-playground ' in html
        loads = "_static/demos/playground/playground.mjs" in html
        assert has_div == loads, page
        if has_div:
            found.add(page.relative_to(site).as_posix())
    assert found == PLAYGROUND_PAGES
    assert (site / "_static" / "demos" / "kit" / "perceptron-core.mjs").is_file()
    for page in PLAYGROUND_PAGES:
        html = (site / page).read_text()
        assert 'type="module"' in html
        assert "playground-fallback" in html  # what readers without JavaScript see
    ch3 = (site / "book" / "03_margin.html").read_text()
    ch4 = (site / "book" / "04_convergence.html").read_text()
    assert 'data-mode="margin"' in ch3
    assert 'data-offset="false"' in ch4 and "best_gamma" in ch4


# --- cross-references that read as words --------------------------------------------

# Pages exempt from the check below (none: every page's links read as words).
PAGES_ALLOWED_TITLE_LINKS: set[str] = set()


class _RunningTextLinks(HTMLParser):
    """The words of every link inside a <p> or <li> of a page's article."""

    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self._article = 0  # depth of <article class="bd-article"> elements we are in
        self._text_blocks = 0  # open <p> and <li> elements inside the article
        self._link: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "article" and (self._article or "bd-article" in (dict(attrs).get("class") or "")):
            self._article += 1
        elif self._article and tag in ("p", "li"):
            self._text_blocks += 1
        elif self._article and tag == "a" and self._text_blocks:
            self._link = []

    def handle_endtag(self, tag):
        if tag == "article" and self._article:
            self._article -= 1
        elif self._article and tag in ("p", "li") and self._text_blocks:
            self._text_blocks -= 1
        elif tag == "a" and self._link is not None:
            self.links.append(" ".join("".join(self._link).split()))
            self._link = None

    def handle_data(self, data):
        if self._link is not None:
            self._link.append(data)


def title_links_in_running_text(html: str, titles: set[str]) -> list[str]:
    """Links in the article's paragraphs and list items whose words are a page title."""
    parser = _RunningTextLinks()
    parser.feed(html)
    wanted = {t.casefold() for t in titles}
    return [words for words in parser.links if words.casefold() in wanted]


def page_title(html: str) -> str:
    """A page's own title, from <title>: without its number and the book's title."""
    raw = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    own = unescape(raw).split("\u2014")[0].strip()
    return re.sub(r"^\d+(\.\d+)*\.\s+", "", own)


def test_cross_references_read_as_words(site):
    pages = {page: (site / f"{page}.html").read_text() for page in toc_pages()}
    titles = {page_title(html) for html in pages.values()}
    assert {"The algorithm", "The convergence proof", "The Perceptron"} <= titles
    bad = []
    for page, html in pages.items():
        if page in PAGES_ALLOWED_TITLE_LINKS:
            continue
        bad += [f"{page}: a link reads {words!r}"
                for words in title_links_in_running_text(html, titles)]
    assert not bad, bad


def test_the_title_link_check_finds_bare_titles_in_running_text_only():
    page = """<html><head><title>2. The offset &#8212; A book</title></head><body>
    <nav><ul><li><a href="04.html">The convergence proof</a></li></ul></nav>
    <article class="bd-article">
      <h1>The offset</h1>
      <p>the theorem of <a class="reference internal" href="04.html"><span class="doc">The
      convergence proof</span></a> says</p>
      <ul><li>see <a href="03.html">chapter 3</a> and <a href="03.html">the margin</a></li></ul>
      <div><a href="01.html">The algorithm</a></div>
    </article>
    <footer><p class="prev-next-title"><a href="03.html">The margin</a></p></footer>
    </body></html>"""
    assert page_title(page) == "The offset"
    titles = {"The algorithm", "The offset", "The margin", "The convergence proof"}
    assert title_links_in_running_text(page, titles) == ["The convergence proof", "the margin"]


def test_every_bibliography_entry_is_cited():
    bib = (ROOT / "book" / "references.bib").read_text()
    keys = set(re.findall(r"^@\w+\{\s*([^,\s]+)\s*,", bib, re.M))
    assert len(keys) >= 10
    cited: set[str] = set()
    for page in toc_pages():
        source = next(p for p in (ROOT / f"{page}.ipynb", ROOT / f"{page}.md") if p.is_file())
        text = source.read_text()
        for group in re.findall(r"\{cite(?::\w+)?\}`([^`]+)`", text):
            cited.update(key.strip() for key in group.split(","))
        # a chapter's [[Author, year]](#key), a citation on the site (notebook_citations)
        for group in NOTEBOOK_CITATIONS.citation_keys(text):
            cited.update(group)
    assert cited <= keys, f"cited but missing: {sorted(cited - keys)}"
    assert keys <= cited, f"never cited: {sorted(keys - cited)}"
