"""Give every page of the site its one-sentence description, for search engines.

The sentences live in one file, ``book/descriptions.yml`` (a page's name, as Sphinx
names it, to its sentence), so that no chapter needs editing to change one.  Each page
listed there gets ``<meta name="description" content="...">`` in its head, which search
engines show under the page's title and Lighthouse's SEO audit asks for.

A page of the table of contents without a sentence, or with an empty one, stops the
build (the sentence is part of the page).  A sentence for a page that the build does
not have (a chapter not yet in ``_toc.yml``) is ignored.  Chapters 1 to 7, the
introduction and the exercise page are described there, and so are the pages Sphinx
writes on its own (search, index).
"""

from __future__ import annotations

from html import escape
from pathlib import Path

import yaml
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

DESCRIPTIONS = Path(__file__).resolve().parent.parent / "descriptions.yml"
MIN_LENGTH, MAX_LENGTH = 50, 160  # what search engines show of a description


def load_descriptions(path: Path = DESCRIPTIONS) -> dict[str, str]:
    """The descriptions of ``path``: page name to one line of text.

    Raises
    ------
    ExtensionError
        When the file is not a mapping of names to non-empty text, or a description is
        shorter than ``MIN_LENGTH`` or longer than ``MAX_LENGTH`` characters.
    """
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise ExtensionError(f"page descriptions: cannot read {path}: {err}") from err
    if not isinstance(data, dict):
        raise ExtensionError(f"page descriptions: {path} must map page names to sentences")
    out = {}
    for name, text in data.items():
        if not isinstance(text, str) or not text.strip():
            raise ExtensionError(f"page descriptions: {path}: {name!r} has no description")
        text = " ".join(text.split())
        if not MIN_LENGTH <= len(text) <= MAX_LENGTH:
            raise ExtensionError(
                f"page descriptions: {path}: the description of {name!r} has {len(text)} "
                f"characters; keep it between {MIN_LENGTH} and {MAX_LENGTH}")
        out[str(name)] = text
    return out


def meta_tag(text: str) -> str:
    """The ``<meta name="description">`` element for ``text``."""
    return f'<meta name="description" content="{escape(text, quote=True)}" />\n'


def _load(app: Sphinx) -> None:
    app.builder.page_descriptions = load_descriptions()


def _check(app: Sphinx, env) -> None:
    # Every document of the build is a page of the table of contents
    # (only_build_toc_files), so each needs a description.
    missing = sorted(set(env.found_docs) - set(app.builder.page_descriptions))
    if missing:
        raise ExtensionError(
            f"page descriptions: no description in {DESCRIPTIONS.name} for "
            f"{', '.join(missing)}: add one sentence for each")


def _add(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    text = app.builder.page_descriptions.get(pagename)
    if text is not None:
        context["metatags"] = context.get("metatags", "") + meta_tag(text)


def setup(app: Sphinx) -> dict:
    """Connect the extension (chapters 1-7, the introduction, the exercises, search)."""
    app.connect("builder-inited", _load)
    app.connect("env-check-consistency", _check)
    app.connect("html-page-context", _add)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
