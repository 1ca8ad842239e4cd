"""Serve chapter 5's message demo from the site itself, on the pages that have one.

The demo (``book/_spam_demo``: ``spam-demo.mjs``, ``spam-core.mjs``,
``char-classes.mjs`` and ``spam-demo.css``) runs in the reader's browser with no other
host.  This extension copies those files into the build's ``_static/spam-demo`` before
the pages are written, and gives every page whose body holds an element of class
``spam-demo`` (written by :mod:`perceptron_lib.demos.spam`) three things in its head:

- a one-line script that marks ``<html>`` with the class ``spam-demo-js`` where the page
  is served (module scripts do not run from pages opened as files), so that the
  stylesheet shows the demo's markup instead of the explorer's picture before the body
  is drawn, and nothing moves when the demo starts;
- the stylesheet;
- the module, which starts each demo when it scrolls into view.
"""

from __future__ import annotations

from page_demo import PageDemo

DEMO = PageDemo(folder="_spam_demo", target="spam-demo", css_class="spam-demo",
                script="spam-demo.mjs", style="spam-demo.css",
                also_needed=frozenset({"spam-core.mjs", "char-classes.mjs"}),
                mark_class="spam-demo-js")
demo_files = DEMO.files
has_demo = DEMO.on_page
setup = DEMO.setup
