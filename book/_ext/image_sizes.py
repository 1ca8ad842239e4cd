"""Give every picture of a page its width and height, so that its room is kept.

The figures of the chapters (matplotlib's PNG and SVG files, written by myst-nb) and
the static pictures of the explorers (PNG data URIs, written by ``perceptron_lib``)
come as ``<img>`` without a size: the browser learns a picture's size only when the
file arrives, and the text below it jumps down then (layout shift, which Lighthouse
counts against the page, bench/README.md).  This extension reads each picture's size
from the file itself (PNG and GIF headers, SVG's ``viewBox`` or ``width``/``height``)
and writes ``width`` and ``height`` into the tag; ``image_sizes.css`` keeps pictures
fluid (``max-width: 100%; height: auto``), so the two attributes only fix the ratio
of the room the browser keeps.  A tag that already has a width, or whose file cannot
be read, is left as it is.
"""

from __future__ import annotations

import base64
import binascii
import posixpath
import re
import struct
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from sphinx.application import Sphinx
from static_css import add_style_sheet

CSS = Path(__file__).resolve().parent / "image_sizes.css"

_IMG = re.compile(r"<img\b[^>]*>", re.I | re.S)
_SRC = re.compile(r"""\ssrc\s*=\s*(["'])(.*?)\1""", re.I | re.S)
_HAS_SIZE = re.compile(r"""\swidth\s*=|\sstyle\s*=\s*(["'])[^"']*(?<![-\w])width\s*:""", re.I)
_NUMBER = r"([0-9]*\.?[0-9]+(?:e[-+]?[0-9]+)?)"


def png_size(head: bytes) -> tuple[int, int] | None:
    """The (width, height) in a PNG file's first 24 bytes, or None if not a PNG."""
    if len(head) >= 24 and head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR":
        return struct.unpack(">II", head[16:24])
    return None


def gif_size(head: bytes) -> tuple[int, int] | None:
    """The (width, height) in a GIF file's first 10 bytes, or None if not a GIF."""
    if len(head) >= 10 and head[:6] in (b"GIF87a", b"GIF89a"):
        return struct.unpack("<HH", head[6:10])
    return None


def svg_size(text: str) -> tuple[int, int] | None:
    """The size of an SVG drawing (rounded to whole units), from its root element.

    The ``viewBox`` gives the ratio; ``width``/``height`` in ``pt`` are turned into CSS
    pixels (4/3 each), without units taken as pixels.  None when neither is readable.
    """
    root = re.search(r"<svg\b[^>]*>", text, re.S)
    if root is None:
        return None
    tag = root.group(0)

    def length(name: str) -> float | None:
        m = re.search(rf"""\s{name}\s*=\s*["']\s*{_NUMBER}\s*(px|pt)?\s*["']""", tag)
        if m is None:
            return None
        return float(m.group(1)) * (4 / 3 if m.group(2) == "pt" else 1)

    w, h = length("width"), length("height")
    box = re.search(rf"""viewBox\s*=\s*["']\s*{_NUMBER}[\s,]+{_NUMBER}[\s,]+{_NUMBER}"""
                    rf"""[\s,]+{_NUMBER}\s*["']""", tag)
    if w is None or h is None:
        if box is None:
            return None
        w, h = float(box.group(3)), float(box.group(4))
    if w <= 0 or h <= 0:
        return None
    return round(w), round(h)


def size_of_bytes(data: bytes, suffix: str) -> tuple[int, int] | None:
    """The (width, height) of a picture, from its bytes (PNG, GIF or SVG)."""
    if suffix == ".svg":
        return svg_size(data[:4096].decode("utf-8", errors="replace"))
    return png_size(data[:24]) or gif_size(data[:10])


def data_uri_size(uri: str) -> tuple[int, int] | None:
    """The size of a base64 PNG or GIF data URI, from the first bytes it encodes."""
    m = re.match(r"data:image/(png|gif);base64,([A-Za-z0-9+/]{32})", uri)
    if m is None:
        return None
    try:
        head = base64.b64decode(m.group(2))
    except binascii.Error:
        return None
    return png_size(head) or gif_size(head)


def add_sizes(body: str, read_file) -> str:
    """``body`` with ``width`` and ``height`` added to each ``<img>`` that has none.

    ``read_file(src)`` returns the bytes of the picture a relative ``src`` names, or
    None; data URIs are read from the tag itself.
    """

    def sized(match: re.Match) -> str:
        tag = match.group(0)
        src = _SRC.search(tag)
        if src is None or _HAS_SIZE.search(tag):
            return tag
        uri = src.group(2)
        if uri.startswith("data:"):
            size = data_uri_size(uri)
        else:
            data = read_file(uri)
            suffix = PurePosixPath(uri.split("?")[0]).suffix.lower()
            size = size_of_bytes(data, suffix) if data else None
        if size is None:
            return tag
        end = len(tag) - (2 if tag.endswith("/>") else 1)
        return f'{tag[:end].rstrip()} width="{size[0]}" height="{size[1]}"{tag[end:]}'

    return _IMG.sub(sized, body)


def _page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if "body" not in context:
        return
    # The pictures are copied into _images after the pages are written: find each by
    # the name it will have there.
    by_name = {dest: Path(app.srcdir, src) for src, dest in app.builder.images.items()}
    page_dir = posixpath.dirname(pagename)

    def read_file(uri: str) -> bytes | None:
        if "://" in uri or uri.startswith("/"):
            return None
        target = posixpath.normpath(posixpath.join(page_dir, unquote(uri.split("?")[0])))
        if target.startswith(".."):
            return None
        candidates = [Path(app.outdir, target)]
        if target.startswith("_images/"):
            name = target[len("_images/"):]
            if name in by_name:
                candidates.insert(0, by_name[name])
        for candidate in candidates:
            if candidate.is_file():
                return candidate.read_bytes()[:4096]
        return None

    context["body"] = add_sizes(context["body"], read_file)


def setup(app: Sphinx) -> dict:
    """Connect the extension (the figures of every chapter)."""
    app.connect("html-page-context", _page)
    add_style_sheet(app, CSS)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
