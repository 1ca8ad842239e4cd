// What runs after a chapter has loaded, in idle time, so that the load itself stays short.
//
// 1. The blocks of each section below the first screen are laid out in turn, a few at a
//    time (page-load.css lets the browser skip them while the page loads; a block is a
//    section's child, or a subsection's, so that no step lays out a whole long section
//    at once), so that a link to a heading lands on it and the scroll bar is true.  A
//    section gets the class laid-out once all its blocks are.  A reader who follows a link before that is done has every
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
  const SECTIONS = ".bd-article > section > section";
  const BIG = 300; // elements: a block larger than this is laid out in parts
  const STEP_MS = 12;
  const IDLE_MS = 250;
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

  const pending = new Set(); // the blocks not laid out yet
  const waits = (el) => {
    for (let a = el.parentElement; a; a = a.parentElement) if (pending.has(a)) return true;
    return false;
  };
  // The blocks of a part of the page that is laid out (not waiting, not folded).
  const shown = (root) => [...(root.matches(SCROLLERS) ? [root] : []),
    ...root.querySelectorAll(SCROLLERS)].filter((el) => !el.closest(".toggle-hidden") && !waits(el));

  const idle = window.requestIdleCallback
    ? (f) => window.requestIdleCallback(f, { timeout: IDLE_MS })
    : (f) => setTimeout(f, 30);
  let main = document.body;
  let waiting = []; // [block, its section] not yet laid out, in the page's order
  const left = new Map(); // section -> how many of its blocks wait
  const blocksOf = (section) =>
    [...section.children].flatMap((c) => (c.tagName === "SECTION" ? [...c.children] : [c]));
  // A large block (a long proof, an exercise with its solution) is laid out in parts: its
  // own box first, with its children skipped (class pl-wait), then each child in turn.
  const SPLIT = new Set(["DIV", "SECTION", "UL", "OL"]);
  const big = (block) => SPLIT.has(block.tagName) && block.children.length > 1
    && block.getElementsByTagName("*").length > BIG;
  // A section already laid out (a link was followed) has its blocks drawn: splitting one
  // then would fold its parts back to their placeholder height and move the page.
  const layOut = ([block, section]) => {
    if (big(block) && !section.classList.contains("laid-out")) {
      const parts = [...block.children];
      for (const part of parts) {
        part.classList.add("pl-wait");
        pending.add(part);
      }
      waiting.unshift(...parts.map((part) => [part, section]));
      left.set(section, left.get(section) + parts.length);
    }
    block.classList.add("laid-out");
    pending.delete(block);
    mark(shown(block));
    left.set(section, left.get(section) - 1);
    if (left.get(section) === 0) section.classList.add("laid-out");
  };
  // A few blocks per idle period, for at most STEP_MS: no task of the load grows long.  A
  // busy page (formulas being typeset, a demo playing) still gets a step every IDLE_MS.
  const step = () => {
    const start = performance.now();
    do {
      const next = waiting.shift();
      if (next) layOut(next);
    } while (waiting.length && performance.now() - start < STEP_MS);
    if (waiting.length) idle(step); else done();
  };
  const done = () => document.documentElement.setAttribute("data-laid-out", "");
  const layOutAll = () => {
    waiting = [];
    pending.clear();
    for (const section of left.keys()) section.classList.add("laid-out");
    for (const part of main.querySelectorAll(".pl-wait:not(.laid-out)")) part.classList.add("laid-out");
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
  for (const section of main.querySelectorAll(SECTIONS)) {
    const blocks = blocksOf(section);
    left.set(section, blocks.length);
    for (const block of blocks) {
      pending.add(block);
      waiting.push([block, section]);
    }
    if (!blocks.length) section.classList.add("laid-out");
  }
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
