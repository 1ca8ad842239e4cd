// Keep a chapter's text hidden (its room kept) until MathJax has typeset the formulas
// in view, at most MAX_MS: the formulas' TeX source is wider than the typeset formula,
// and MathJax's fonts arrive after it, so the text would otherwise rewrap and jump
// twice in the first second (layout shift; book/_ext/math_settle.py).
(() => {
  const MAX_MS = 2000;
  const root = document.documentElement;
  root.classList.add("math-settling");
  let shown = false;
  const show = () => {
    if (shown) return;
    shown = true;
    root.classList.remove("math-settling");
    if (performance.mark) performance.mark("math-settled");
  };
  setTimeout(show, MAX_MS);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const settle = async () => {
    // MathJax's script is deferred: wait until it has started.
    while (!(window.MathJax && MathJax.startup && MathJax.startup.promise)) {
      if (document.readyState === "complete" && !window.MathJax) return;
      await sleep(10);
    }
    await MathJax.startup.promise;
    const doc = MathJax.startup.document;
    // The lazy extension typesets the formulas in view from an IntersectionObserver,
    // in the browser's idle time: once the observer has seen them, typeset them now.
    await frame();
    await frame();
    if (doc && doc.lazyIdle && typeof doc.lazyHandleSet === "function") doc.lazyHandleSet();
    while (doc && doc.lazyIdle) await sleep(10);
    if (doc && doc.lazyPromise) await doc.lazyPromise;
    await frame();
    await document.fonts.ready;
  };
  settle().then(show, show);
})();
