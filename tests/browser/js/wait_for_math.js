// Resolves when the page's formulas are shown with their fonts and, on a page that lays
// out its sections in idle time (book/_ext/page-load.js), when every section is laid out
// and has its tab stops: "typeset" or "no math".
async () => {
  // The formulas are typeset when the site is built (book/_ext/static_math.py); the page
  // only loads the fonts their style sheet names.
  await document.fonts.ready;
  if ([...document.scripts].some((s) => /page-load\.js/.test(s.src))) {
    const start = performance.now();
    while (!document.documentElement.hasAttribute("data-laid-out")) {
      if (performance.now() - start > 20000) throw new Error("the page's sections were never all laid out");
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return document.querySelector("mjx-container") ? "typeset" : "no math";
}
