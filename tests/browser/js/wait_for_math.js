// Resolves when the page's formulas are shown with their fonts: "typeset" or "no math".
async () => {
  // The formulas are typeset when the site is built (book/_ext/static_math.py); the page
  // only loads the fonts their style sheet names.
  await document.fonts.ready;
  return document.querySelector("mjx-container") ? "typeset" : "no math";
}
