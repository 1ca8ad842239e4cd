"""Links between notebooks that work on the site and in JupyterLab.

Two kinds of Markdown link of the chapters need help from the site's build:

- A numbered statement of another chapter, as a link to that chapter's notebook with
  the statement's label as the fragment: ``[Theorem 4.1](04_convergence.ipynb#thm-convergence)``.
  JupyterLab opens the notebook (a ``{prf:ref}`` role there shows the bare label, marked
  "Cross Reference Not Found", since each notebook is read on its own).  MyST reads the
  fragment as a heading of that document and finds none; here a fragment that is no
  heading becomes a reference to the label (``sphinx-proof``'s for a statement, the
  standard one for a figure or a section), which links to it, checks that the label is
  in the linked chapter, and reports a label that does not exist.
- A chapter's exercise notebook, ``[...](../exercises/01_algorithm.ipynb)``: JupyterLab
  opens it; the notebooks of ``exercises/`` are no pages of the site, so on the site the
  link downloads the notebook (as the ``{download}`` role of the exercise page does).
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

logger = logging.getLogger(__name__)


def _myst_doc_links(document: nodes.document):
    for node in list(document.findall(addnodes.pending_xref)):
        if node.get("reftype") == "myst" and node.get("refdomain") == "doc":
            yield node


class NotebookDownloads(SphinxTransform):
    """A link to a notebook that is no page of the site: a download of that notebook."""

    default_priority = 500

    def apply(self, **kwargs) -> None:
        srcdir = Path(self.env.srcdir)
        for node in _myst_doc_links(self.document):
            docname = node["reftarget"]
            if docname in self.env.found_docs:
                continue
            found = [srcdir / (docname + suffix) for suffix in self.config.source_suffix]
            found = [path for path in found if path.is_file()]
            if not found:
                continue  # MyST reports the unknown document
            target = "/" + found[0].relative_to(srcdir).as_posix()
            link = addnodes.download_reference(
                refdomain=None, reftarget=target, refdoc=node.get("refdoc"),
                reftype="myst", refexplicit=True)
            link.source, link.line = node.source, node.line
            inner = nodes.inline("", "", classes=["xref", "download", "myst"])
            for child in node.children:
                inner.extend(child.children if isinstance(child, nodes.inline) else [child])
            link += inner
            node.replace_self(link)


class LabelLinks(SphinxPostTransform):
    """``[text](doc.ipynb#label)``, ``label`` no heading: a reference to ``label``."""

    default_priority = 5  # before MyST's resolver (Sphinx's ReferencesResolver, 10)

    def run(self, **kwargs) -> None:
        proofs = getattr(self.env, "proof_list", {})
        labels = self.env.get_domain("std").labels
        for node in _myst_doc_links(self.document):
            label = node.get("reftargetid")
            if not label:
                continue
            docname = node["reftarget"]
            if label in self.env.metadata.get(docname, {}).get("myst_slugs", {}):
                continue  # a heading: MyST's own resolution
            if label in proofs:
                where, domain = proofs[label]["docname"], "prf"
            elif label in labels:
                where, domain = labels[label][0], "std"
            else:
                where, domain = None, "std"  # the resolver reports it
            if where is not None and where != docname:
                logger.warning(f"the label {label!r} is in {where!r}, not in {docname!r}",
                               location=node, type="ref", subtype="notebook_link")
            node["refdomain"], node["reftype"] = domain, "ref"
            node["reftarget"], node["reftargetid"] = label, None
            node["refexplicit"] = True


def setup(app: Sphinx) -> dict:
    app.add_transform(NotebookDownloads)
    app.add_post_transform(LabelLinks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
