// Typeset, in the browser's idle time, the formulas the reader has not scrolled to yet.
//
// The pages load MathJax with its "lazy" extension (see _config.yml): at load time only
// the formulas in view are typeset, which keeps a chapter interactive within a second
// instead of busy for most of one.  Until a formula is typeset, though, it has neither
// its rendering nor the hidden MathML that screen readers speak, and find-in-page cannot
// see it.  So once the page is idle this script typesets the rest, a few formulas at a
// time, leaving the main thread free between batches.  Where the lazy extension's
// internals are not what this script expects, it falls back to typesetting everything
// at once (MathJax's own lazyTypesetAll, as before printing).
(() => {
  const BATCH = 25;
  const idle = (fn) => (window.requestIdleCallback ? requestIdleCallback(fn, { timeout: 500 }) : setTimeout(fn, 50));

  function pending() {
    return [...document.querySelectorAll("mjx-lazy[data-mjx-lazy]")].map((e) => e.getAttribute("data-mjx-lazy"));
  }

  async function typesetRest(doc) {
    const all = typeof doc.lazyTypesetAll === "function";
    const batched = doc.lazySet instanceof Set && typeof doc.lazyHandleSet === "function" && doc.lazyList;
    if (!batched) {
      if (all) await doc.lazyTypesetAll();
      return;
    }
    for (;;) {
      const ids = pending().filter((id) => doc.lazyList.get(id)).slice(0, BATCH);
      if (!ids.length) break;
      await new Promise((resolve) => idle(resolve));
      for (const id of ids) doc.lazySet.add(id);
      doc.lazyHandleSet();
      await doc.lazyPromise;
      if (pending().some((id) => ids.includes(id))) {
        // The batch did not take: finish the job the documented way.
        if (all) await doc.lazyTypesetAll();
        break;
      }
    }
    document.documentElement.dataset.mathTypeset = "all";
  }

  function start() {
    const mj = window.MathJax;
    if (!mj || !mj.startup || !mj.startup.promise) return;
    mj.startup.promise
      .then(() => new Promise((resolve) => idle(resolve)))
      .then(() => typesetRest(mj.startup.document))
      .catch((err) => console.warn("background typesetting stopped:", err));
  }

  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
})();
