// What the page tests check, read from the page once its formulas are typeset.
() => {
  const skip = "PRE, CODE, KBD, SCRIPT, STYLE, TEXTAREA, MJX-CONTAINER, .highlight, .playground-fallback";
  const tex = /\\\(|\\\)|\\\[|\\\]|\$\$|\\begin\{|\\end\{|\\(frac|theta|gamma|lVert|rVert|mathbf|mathcal|mathrm|sum|leq?|geq?|cdot|top|text)\b/;
  const raw = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(skip)) continue;
    const m = node.textContent.match(tex);
    if (m) raw.push(node.textContent.trim().slice(0, 80));
  }
  const named = (e) => (e.getAttribute("aria-label") || e.getAttribute("alt") || "").trim();
  return {
    url: location.href,
    title: document.title,
    rawTex: raw,
    mathErrors: document.querySelectorAll("mjx-merror").length,
    // an unknown command is typeset in red as its own name: find it in the hidden MathML
    mathUnknown: [...document.querySelectorAll("mjx-assistive-mml")].map((e) => e.textContent).filter((s) => /\\[A-Za-z]/.test(s)),
    // formulas are typeset when the site is built: no page loads MathJax
    mathjaxLoaded: Boolean(window.MathJax) || [...document.scripts].some((e) => /mathjax/i.test(e.src)),
    // and the fonts their style sheet names all load
    mathFontsFailed: [...document.fonts].filter((f) => /MJX/.test(f.family) && f.status === "error").map((f) => f.family),
    formulas: document.querySelectorAll("mjx-container").length,
    imagesWithoutAlt: [...document.images].filter((i) => !(i.getAttribute("alt") || "").trim()).map((i) => i.src),
    brokenImages: [...document.images].filter((i) => i.complete && i.naturalWidth === 0).map((i) => i.src),
    unnamedGraphics: [...document.querySelectorAll('[role="img"]')].filter((e) => !named(e)).map((e) => e.outerHTML.slice(0, 80)),
    links: [...document.querySelectorAll("a[href]")].map((a) => a.href),
    ids: [...document.querySelectorAll("[id]")].map((e) => e.id).concat([...document.querySelectorAll("a[name]")].map((a) => a.name)),
  };
}
