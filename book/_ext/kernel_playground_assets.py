"""Serve chapter 6's kernel playground from the site itself, on the pages that have one.

The playground (``book/_kernel_playground``: ``kernel-playground.mjs``,
``kernel-core.mjs`` and ``kernel-playground.css``) runs in the reader's browser with no
other host.  This extension copies those files into the build's
``_static/kernel-playground`` before the pages are written, and gives every page whose
body holds an element of class ``kernel-playground`` (written by
:mod:`perceptron_lib.demos.kernel`), and no other page, three things in its head:

- a one-line script that marks ``<html>`` with the class ``kernel-playground-js`` where
  the page is served (module scripts do not run from pages opened as files), so that the
  stylesheet keeps the playground's room and hides the fallback picture before the body
  is drawn, and nothing below it moves when the playground starts;
- the stylesheet;
- the module, which builds each playground and starts its arithmetic when it comes into
  view.
"""

from __future__ import annotations

from page_demo import PageDemo

DEMO = PageDemo(folder="_kernel_playground", target="kernel-playground",
                css_class="kernel-playground", script="kernel-playground.mjs",
                style="kernel-playground.css", also_needed=frozenset({"kernel-core.mjs"}),
                mark_class="kernel-playground-js")
playground_files = DEMO.files
has_playground = DEMO.on_page
setup = DEMO.setup
