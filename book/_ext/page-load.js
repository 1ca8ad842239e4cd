// What runs after a chapter has loaded, in idle time, so that the load itself stays short.
//
// 1. Each section below the first screen is laid out in turn (page-load.css lets the
//    browser skip them while the page loads), so that a link to a heading lands on it and
//    the scroll bar is true.  A reader who follows a link before that is done has every
//    section laid out at once, then the page scrolls to the heading.  When every section
//    is laid out, the page's root element gets the attribute data-laid-out.
// 2. Whatever scrolls sideways gets a tab stop, so that a reader without a mouse can
//    scroll it: a code block, a cell's output, a table or a displayed formula wider than
//    the column gets tabindex="0" while its content overflows at the current width.  This
//    replaces the theme's own pass (book/_ext/page_load.py takes it out), which measured
//    every block at load and after every change to the page, one block at a time.
(() => {
  const SCROLLERS = [
    "pre", ".nboutput > .output_area", ".cell_output > .output", ".jp-RenderedHTMLCommon",
    ".pst-scrollable-table-container", "mjx-container",
  ].join(", ");
  const SKIPPED = ".bd-article > section > section:not(.laid-out), .toggle-hidden";
  const ours = new WeakSet(); // blocks given their tab stop here
  const known = new WeakSet(); // blocks measured at least once

  const overflows = (el) =>
    el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
  // Measure every block first, then write: one layout for the whole batch.
  const mark = (blocks) => {
    const wide = blocks.map(overflows);
    blocks.forEach((el, i) => {
      known.add(el);
      if (wide[i] && !el.hasAttribute("tabindex")) {
        el.setAttribute("tabindex", "0");
        ours.add(el);
      } else if (!wide[i] && ours.has(el)) {
        el.removeAttribute("tabindex");
        ours.delete(el);
      }
    });
  };

  // The blocks of a part of the page that is laid out (not waiting, not folded).
  const shown = (root) => [...root.querySelectorAll(SCROLLERS)].filter((el) => !el.closest(SKIPPED));

  const idle = window.requestIdleCallback
    || ((f) => setTimeout(() => f({ timeRemaining: () => 10 }), 30));
  let main = document.body;
  let waiting = []; // sections not yet laid out, in the page's order
  const layOut = (section) => {
    section.classList.add("laid-out");
    mark(shown(section));
  };
  const step = (deadline) => {
    do {
      const section = waiting.shift();
      if (section) layOut(section);
    } while (waiting.length && deadline.timeRemaining() > 12);
    if (waiting.length) idle(step); else done();
  };
  const done = () => document.documentElement.setAttribute("data-laid-out", "");
  const layOutAll = () => {
    const all = waiting;
    waiting = [];
    all.forEach((s) => s.classList.add("laid-out"));
    mark(shown(main));
    done();
  };

  // A link to a heading of this page, followed before every section is laid out.
  const followLink = () => {
    if (!waiting.length || !location.hash) return;
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    layOutAll();
    if (target) target.scrollIntoView();
  };

  const debounced = (f) => {
    let timer = 0;
    return () => { clearTimeout(timer); timer = setTimeout(f, 300); };
  };
  // The script is deferred: the page is parsed.  Links are followed from now on; the
  // sections are laid out once the load is over.
  main = document.getElementById("main-content") || document.body;
  waiting = [...main.querySelectorAll(".bd-article > section > section")];
  window.addEventListener("hashchange", followLink);
  const start = () => {
    mark(shown(main));
    if (waiting.length) idle(step); else done();
    // Outputs drawn later (widgets, demos) and solutions opened are measured as they appear.
    const unmeasured = debounced(() => mark(shown(main).filter((el) => !known.has(el))));
    new MutationObserver(unmeasured).observe(main, { subtree: true, childList: true });
    main.addEventListener("click", unmeasured);
    window.addEventListener("resize", debounced(() => mark(shown(main))));
  };
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start);
})();
