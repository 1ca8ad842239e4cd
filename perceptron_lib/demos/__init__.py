"""The book's in-page demos: the element each page's JavaScript turns into a live demo.

Each module writes one demo's ``<div>`` from a chapter's own arrays (its script and
style live in the ``book/_*`` folder named beside it):

- :mod:`.playground` (chapters 1, 3 and 4): the perceptron playground
  (``book/_demos/playground``).
- :mod:`.offset` (chapter 2): the offset demo, data beside their lifted picture
  (``book/_demos/offset``).
- :mod:`.spam` (chapter 5): the message demo, a message's features and the verdict
  (``book/_demos/spam``).
- :mod:`.kernel` (chapter 6): the kernel playground (``book/_demos/kernel``).
- :mod:`.margin` (chapter 7): the margin demo, the margin perceptron and Freund and
  Schapire's bound (``book/_demos/margin``).
- :mod:`.page`: the HTML and the Jupyter display that these demos share.
- :mod:`.data` (chapters 1, 3, 4 and 6): the seeded data the playgrounds generate, the
  same as ``book/_demos/kit/generator.mjs`` makes.

Importing this package loads none of them.
"""
