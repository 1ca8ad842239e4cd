"""The book's page speed extensions, without a build: picture sizes and descriptions.

``book/_ext/image_sizes.py`` reads a picture's size from its first bytes: checked
against Pillow on PNG and GIF files and against matplotlib's own figure size on SVG.
``book/_ext/page_descriptions.py`` reads ``book/descriptions.yml``: every page of the
table of contents has a sentence of its own, and a bad file is refused with a message
that names the problem.  ``book/_ext/page_load.py`` takes the theme's tab-stop pass out
of the theme's own script, or stops the build when it cannot find it.  (Formulas typeset
at build time: tests/test_static_math.py.)
"""

from __future__ import annotations

import base64
import io
import re
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pytest
from PIL import Image

matplotlib.use("Agg")
import matplotlib.pyplot as plt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import image_sizes  # noqa: E402
import page_descriptions  # noqa: E402
import page_load  # noqa: E402
import pydata_sphinx_theme  # noqa: E402
from sphinx.errors import ExtensionError  # noqa: E402


def picture(fmt: str, size: tuple[int, int]) -> bytes:
    buf = io.BytesIO()
    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 255, (size[1], size[0], 3), dtype=np.uint8)
    Image.fromarray(pixels).save(buf, format=fmt)
    return buf.getvalue()


@pytest.mark.parametrize("fmt", ["PNG", "GIF"])
@pytest.mark.parametrize("size", [(1, 1), (630, 373), (3000, 17)])
def test_size_of_png_and_gif_agrees_with_pillow(fmt, size):
    data = picture(fmt, size)
    assert image_sizes.size_of_bytes(data, "." + fmt.lower()) == Image.open(io.BytesIO(data)).size
    uri = f"data:image/{fmt.lower()};base64," + base64.b64encode(data).decode()
    assert image_sizes.data_uri_size(uri) == size


@pytest.mark.parametrize("figsize", [(6.4, 4.8), (3.0, 5.5)])
def test_size_of_svg_is_matplotlibs_figure_size(figsize):
    fig = plt.figure(figsize=figsize)
    fig.add_subplot().plot([0, 1], [1, 0])
    buf = io.BytesIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    # matplotlib writes points (72 per inch); CSS has 96 pixels per inch
    want = (round(figsize[0] * 96), round(figsize[1] * 96))
    assert image_sizes.size_of_bytes(buf.getvalue(), ".svg") == want


def test_unreadable_pictures_have_no_size():
    assert image_sizes.size_of_bytes(b"not a picture at all, not even close", ".png") is None
    assert image_sizes.svg_size("<svg></svg>") is None
    assert image_sizes.svg_size('<svg width="0" height="10"></svg>') is None
    assert image_sizes.data_uri_size("data:image/jpeg;base64,AAAA") is None
    assert image_sizes.data_uri_size("data:image/png;base64,!!!!") is None


def test_add_sizes_writes_width_and_height_once():
    png = picture("PNG", (40, 30))
    files = {"../_images/a.png": png}
    uri = "data:image/png;base64," + base64.b64encode(png).decode()
    body = (f'<p><img alt="A" src="../_images/a.png"></p><img src="{uri}" alt="B"/>'
            '<img src="../_images/missing.png" alt="C">'
            '<img src="../_images/a.png" width="10" alt="D">'
            '<img src="../_images/a.png" style="width: 50%" alt="E">')
    out = image_sizes.add_sizes(body, files.get)
    tags = re.findall(r"<img\b[^>]*>", out)
    assert tags[0] == '<img alt="A" src="../_images/a.png" width="40" height="30">'
    assert tags[1].endswith('alt="B" width="40" height="30"/>')
    assert tags[2:] == re.findall(r"<img\b[^>]*>", body)[2:]  # left as they were
    assert image_sizes.add_sizes(out, files.get) == out


def toc_names() -> list[str]:
    text = (ROOT / "_toc.yml").read_text()
    return re.findall(r"^\s*(?:-\s*)?(?:root|file):\s*(\S+)\s*$", text, re.M)


def test_every_page_of_the_toc_has_a_description_of_its_own():
    found = page_descriptions.load_descriptions()
    names = toc_names()
    assert len(names) >= 8
    assert not set(names) - set(found), "pages of _toc.yml without a description"
    for extra in ("genindex", "search", "book/07_beyond"):
        assert extra in found
    texts = list(found.values())
    assert len(set(texts)) == len(texts), "two pages share a description"
    for name, text in found.items():
        assert page_descriptions.MIN_LENGTH <= len(text) <= page_descriptions.MAX_LENGTH, name
        assert "\n" not in text and "  " not in text


@pytest.mark.parametrize(("content", "problem"), [
    ("- a list\n- not a mapping\n", "must map page names"),
    ("book/intro: ''\n", "'book/intro' has no description"),
    ("book/intro:\n", "'book/intro' has no description"),
    ("book/intro: too short\n", "has 9 characters"),
    (f"book/intro: {'x' * 161}\n", "has 161 characters"),
    ("book/intro: [unclosed\n", "cannot read"),
])
def test_a_bad_descriptions_file_is_refused_with_the_problem(tmp_path, content, problem):
    path = tmp_path / "descriptions.yml"
    path.write_text(content)
    with pytest.raises(ExtensionError, match=re.escape(problem)):
        page_descriptions.load_descriptions(path)


def test_meta_tag_escapes_quotes_and_markup():
    tag = page_descriptions.meta_tag('The "margin" <of> a & b')
    assert tag.strip() == ('<meta name="description" content="The &quot;margin&quot; '
                           '&lt;of&gt; a &amp; b" />')


def test_a_page_without_a_description_stops_the_build():
    from types import SimpleNamespace

    found = page_descriptions.load_descriptions()
    app = SimpleNamespace(builder=SimpleNamespace(page_descriptions=found))
    pages = set(toc_names())
    page_descriptions._check(app, SimpleNamespace(found_docs=pages))  # all described
    with pytest.raises(ExtensionError, match=r"no description .* for book/08_new"):
        page_descriptions._check(app, SimpleNamespace(found_docs=pages | {"book/08_new"}))


THEME_SCRIPT = (Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme"
                / "static" / "scripts" / "pydata-sphinx-theme.js")


def test_the_theme_script_loses_its_tab_stop_pass_and_nothing_else():
    script = THEME_SCRIPT.read_text(encoding="utf-8")
    call = page_load._THEME_CALL.search(script)
    assert call is not None, "the installed theme no longer calls its pass this way"
    out = page_load.without_theme_pass(script)
    assert out.startswith(page_load.MARK)
    out = out.removeprefix(page_load.MARK)
    assert page_load._THEME_CALL.search(out) is None
    assert len(script) - len(out) == len(call[0]) - len("void 0")
    # the pass itself is still defined (the theme may call it elsewhere); only the call
    # at load is gone, and the rest of the script is untouched
    assert out[:call.start()] + call[0] + out[call.start() + len("void 0"):] == script


def test_a_theme_script_without_the_pass_stops_the_build(tmp_path):
    with pytest.raises(ValueError, match="tab-stop pass"):
        page_load.without_theme_pass("(()=>{console.log(1)})();")
    script = THEME_SCRIPT.read_text(encoding="utf-8")
    renamed = script.replace('querySelectorAll(["pre"', 'querySelectorAll(["code"')
    with pytest.raises(ValueError, match="tab-stop pass"):
        page_load.without_theme_pass(renamed)
