"""Helpers of the tests of the demos' elements (chapters 2, 6 and 7).

The offset demo, the kernel playground and the margin demo each write one ``<div>`` whose
``data-datasets`` attribute carries their data as JSON; these helpers read it back, and
list the bad inputs every demo refuses in the same words.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

#: A data set name that would break out of an attribute if it were not escaped.
HOSTILE_NAME = 'a "quoted" name </div><script>alert(1)</script>'


class _Elements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.elements: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def parse(html: str) -> tuple[list[tuple[str, dict]], str]:
    """The start tags (tag, attributes) in order, and all the text."""
    p = _Elements()
    p.feed(html)
    return p.elements, "".join(p.text)


def root_of(html: str, cls: str) -> dict:
    """The attributes of the outer element, checked to be a ``<div>`` of class ``cls``
    standing on the demo kit (its classes ``demo-kit`` and, but for chapter 5's
    demo, ``demo-framed``)."""
    elements, _ = parse(html)
    tag, attrs = elements[0]
    classes = attrs["class"].split()
    assert tag == "div" and classes[0] == cls and "demo-kit" in classes[1:]
    return attrs


def divs_of(html: str, cls: str) -> list[dict]:
    """The attributes of every ``<div>`` of a page with the class ``cls``."""
    elements, _ = parse(html)
    return [a for tag, a in elements if tag == "div" and cls in
            (a.get("class") or "").split()]


def datasets_of(attrs: dict) -> list[dict]:
    """The data sets an element carries in its ``data-datasets`` attribute."""
    return json.loads(attrs["data-datasets"])


def common_bad_inputs(one: Any) -> list[tuple[dict, dict, type, str]]:
    """(datasets, options, error, words) every demo refuses, ``one`` a good data set."""
    return [
        ({}, {}, ValueError, "non-empty mapping"),
        ({"": one}, {}, ValueError, "non-empty strings"),
        ({"a": one}, {"tau": 0}, ValueError, "tau"),
    ]


def pages_with_demo(site, cls: str, script: str) -> set[str]:
    """The built pages holding a ``<div class=cls>``, checked to load the demo's script.

    On every page of ``site`` the element, the script ``_static/demos/{script}`` (e.g.
    ``margin/margin-demo.mjs``) and the mark ``{cls}-js`` come together or not at all.
    """
    found = set()
    for page in site.rglob("*.html"):
        html = page.read_text()
        has_div = bool(divs_of(html, cls))
        loads = f"_static/demos/{script}" in html
        marks = f"{cls}-js" in html
        assert has_div == loads == marks, page
        if has_div:
            found.add(page.relative_to(site).as_posix())
    return found
