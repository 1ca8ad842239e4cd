"""The core path and the deeper track: one mark under each section's heading.

Every section of a chapter (each ``##`` heading) starts with a paragraph that names its
track, written in the notebook as plain Markdown so that JupyterLab shows the same mark:

    ## Ties on the boundary

    **Deeper track** · why the convention matters only for exact ties

``**Core path**`` marks what a one-week unit reads; ``**Deeper track**`` what a longer
unit or a second reading adds (the instructors' page, ``book/instructors.md``, has the
reading plans).  On the site this extension turns the mark into a badge (class
``track-mark``) and gives the section the class ``track-core`` or ``track-deeper``, so
that a reader sees the track of each section and ``tests/test_core_path.py`` can count
the words of the core path in the built pages.  A chapter's section without a mark (the
References excepted) is a build warning, and the build runs with warnings as errors.
"""

from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from static_css import add_style_sheet

CSS = Path(__file__).resolve().parent / "tracks.css"
LOG = logging.getLogger(__name__)

#: The mark's words and the class each one gives its section.
TRACKS = {"Core path": "track-core", "Deeper track": "track-deeper"}
#: Pages whose sections must carry a mark: the chapters.
CHAPTER = re.compile(r"(^|/)0\d_[a-z_]+$")
#: Sections that are back matter rather than reading.
UNMARKED = {"References"}


def track_of(section: nodes.section) -> tuple[str, nodes.paragraph] | None:
    """The class of a section's mark and the paragraph holding it, or None."""
    body = [child for child in section.children if not isinstance(child, nodes.title)]
    skip = (nodes.target, nodes.comment, nodes.system_message)
    first = next((c for c in body if not isinstance(c, skip)), None)
    if not isinstance(first, nodes.paragraph):
        return None
    lead = next((c for c in first.children if c.astext().strip()), None)
    if isinstance(lead, nodes.strong) and lead.astext() in TRACKS:
        return TRACKS[lead.astext()], first
    return None


class MarkTracks(SphinxTransform):
    """Give each marked section of a chapter its track's class and its mark a badge."""

    default_priority = 500

    def apply(self, **kwargs) -> None:
        doc = self.env.docname
        tops = [s for s in self.document.findall(nodes.section)
                if isinstance(s.parent, nodes.document)]
        for top in tops:
            for section in (c for c in top.children if isinstance(c, nodes.section)):
                found = track_of(section)
                title = section.next_node(nodes.title).astext() if section.children else ""
                if found is None:
                    if CHAPTER.search(doc) and title not in UNMARKED:
                        LOG.warning("section %r has no track mark (**Core path** or "
                                    "**Deeper track** under its heading)", title,
                                    location=section)
                    continue
                cls, paragraph = found
                section["classes"].append(cls)
                paragraph["classes"].extend(["track-mark", f"{cls}-mark"])


def setup(app: Sphinx) -> dict:
    app.add_transform(MarkTracks)
    add_style_sheet(app, CSS)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
