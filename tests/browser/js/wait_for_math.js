// Resolves when every formula of the page is typeset: "typeset", "no math" or "timeout".
async () => {
  // MathJax typesets the formulas in view at load time and the others when the page
  // is idle (book/_ext/mathjax-background.js sets data-math-typeset="all" then).
  if (!window.MathJax || !window.MathJax.startup) return "no math";
  const start = performance.now();
  while (document.documentElement.dataset.mathTypeset !== "all") {
    if (performance.now() - start > 30000) return "timeout";
    await new Promise((r) => setTimeout(r, 50));
  }
  return "typeset";
}
