"""The pages of the built site a reader reaches from the table of contents.

Shared by the page speed tests (test_page_speed.py) and the Lighthouse benchmark
(bench/bench_lighthouse.py), which both look at every such page.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def toc_pages(site: Path, toc: Path = ROOT / "_toc.yml") -> list[str]:
    """The site's pages of the table of contents, as paths relative to ``site``.

    The ``root`` and every ``file`` of ``_toc.yml`` in order, then ``genindex.html`` and
    ``search.html`` when one of those pages links them (the theme's header and sidebar
    do).

    Raises
    ------
    ValueError
        When ``toc`` names no page.
    FileNotFoundError
        When a page of ``toc`` is not in ``site`` (the site is older than the toc).
    """
    files = re.findall(r"^\s*(?:-\s*)?(?:root|file):\s*(\S+)\s*$", toc.read_text(), re.M)
    if not files:
        raise ValueError(f"no pages found in {toc}")
    pages = []
    for name in files:
        page = f"{name}.html"
        if not (site / page).is_file():
            raise FileNotFoundError(f"{page} (listed in {toc.name}) is not in {site}: "
                                    "build the book first (python3 tasks.py book)")
        pages.append(page)
    linked = "\n".join((site / p).read_text(encoding="utf-8") for p in pages)
    for extra in ("genindex.html", "search.html"):
        if (site / extra).is_file() and re.search(rf'href="(?:\.\./)*{extra}"', linked):
            pages.append(extra)
    return pages
