"""Serve the perceptron playground from the site itself, on the pages that have one.

The playground (``book/_playground``: ``perceptron-core.mjs``, ``playground.mjs`` and
``playground.css``) runs in the reader's browser with no other host.  This extension
copies its ``*.mjs`` and ``*.css`` files into the build's ``_static/playground`` before
the pages are written, and adds

    <script type="module" src="../_static/playground/playground.mjs"></script>
    <link rel="stylesheet" href="../_static/playground/playground.css" />

to the pages whose body holds an element of class ``perceptron-playground`` (a raw HTML
``<div class="perceptron-playground" data-datasets='...'></div>`` in a Markdown cell or
a notebook's HTML output), and to no other page.
"""

from __future__ import annotations

from page_demo import PageDemo

DEMO = PageDemo(folder="_playground", target="playground", css_class="perceptron-playground",
                script="playground.mjs", style="playground.css")
playground_files = DEMO.files
has_playground = DEMO.on_page
setup = DEMO.setup
