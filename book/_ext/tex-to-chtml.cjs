// Typeset the book's formulas once, when the site is built (book/_ext/static_math.py).
//
// Usage: node tex-to-chtml.cjs MATHJAX_DIR < request.json > answer.json
//
// MATHJAX_DIR is the MathJax 3 source tree that the Python package django-static-mathjax
// installs (the npm package mathjax-full, whose compiled modules are in js/).  The request
// is {"fontURL": "...", "pages": [{"name": "...", "math": [[tex, display], ...]}, ...]};
// the answer is {"pages": [{"html": [...], "css": "..."}, ...]}: for each formula its
// CommonHTML markup (with the hidden MathML that screen readers speak), and for each page
// the style sheet its formulas need (only the characters the page uses).
//
// A formula MathJax cannot read (an unknown command, unbalanced braces) stops the build:
// the answer is then {"error": {"page", "tex", "message"}} and the exit status 1.
"use strict";

const fs = require("fs");
const path = require("path");

const root = process.argv[2];
if (!root) {
  process.stderr.write("usage: node tex-to-chtml.cjs MATHJAX_DIR < request.json\n");
  process.exit(2);
}
const load = (name) => require(path.join(root, "js", name));

const { mathjax } = load("mathjax.js");
const { TeX } = load("input/tex.js");
const { CHTML } = load("output/chtml.js");
const { liteAdaptor } = load("adaptors/liteAdaptor.js");
const { RegisterHTMLHandler } = load("handlers/html.js");
const { AssistiveMmlHandler } = load("a11y/assistive-mml.js");

// The TeX packages the book may use: those MathJax's tex-chtml bundle loads at start or on
// first use of one of their commands, less those that only make sense in a live page.
const PACKAGES = {
  base: "base/BaseConfiguration.js",
  ams: "ams/AmsConfiguration.js",
  newcommand: "newcommand/NewcommandConfiguration.js",
  boldsymbol: "boldsymbol/BoldsymbolConfiguration.js",
  braket: "braket/BraketConfiguration.js",
  cancel: "cancel/CancelConfiguration.js",
  cases: "cases/CasesConfiguration.js",
  color: "color/ColorConfiguration.js",
  enclose: "enclose/EncloseConfiguration.js",
  mathtools: "mathtools/MathtoolsConfiguration.js",
  upgreek: "upgreek/UpgreekConfiguration.js",
};
for (const file of Object.values(PACKAGES)) load(path.join("input/tex", file));

const adaptor = liteAdaptor();
AssistiveMmlHandler(RegisterHTMLHandler(adaptor));

// The sizes MathJax would measure in the reader's browser: a 16 px font, a column of
// 45 em, and the scale that gives the formulas' letters the x-height of the text around
// them (MathJax's matchFontHeight): the pages' system fonts have x-heights of 0.50 em
// (Segoe UI) to 0.56 em (DejaVu Sans) against 0.442 em for MathJax's TeX font.
const METRICS = { em: 16, ex: 8, containerWidth: 45 * 16, scale: 1.2 };

function typesetPage(page, fontURL) {
  const InputJax = new TeX({
    packages: Object.keys(PACKAGES),
    formatError(jax, err) {
      throw err;
    },
  });
  const OutputJax = new CHTML({ fontURL, adaptiveCSS: true });
  const doc = mathjax.document("", { InputJax, OutputJax });
  const html = page.math.map(([tex, display], index) => {
    try {
      return adaptor.outerHTML(doc.convert(tex, { display: Boolean(display), ...METRICS }));
    } catch (err) {
      const error = new Error(err && err.message ? err.message : String(err));
      error.page = page.name;
      error.tex = tex;
      error.index = index;
      throw error;
    }
  });
  const css = adaptor.textContent(OutputJax.styleSheet(doc));
  return { html, css };
}

function main() {
  const request = JSON.parse(fs.readFileSync(0, "utf8"));
  try {
    const pages = request.pages.map((page) => typesetPage(page, request.fontURL));
    process.stdout.write(JSON.stringify({ pages }));
  } catch (err) {
    process.stdout.write(JSON.stringify({
      error: { page: err.page || "", tex: err.tex || "", message: err.message },
    }));
    process.exitCode = 1;
  }
}

main();
