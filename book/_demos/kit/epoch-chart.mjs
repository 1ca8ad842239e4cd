// A small chart of a perceptron run, epoch by epoch, for the book's in-page demos.
//
// Bars: the updates made in each epoch.  A line with dots: the training examples the
// hypothesis gets wrong after each epoch (a point on the boundary counts as wrong, as in
// the book).  Where the demo has a held-out test set, a dashed line with squares: the test
// examples the hypothesis gets wrong after each epoch, on the same scale (a count).  The
// epoch in progress, if any, is a pale bar (its updates so far) without a dot.  The chart
// grows as the run goes; it is an SVG of fixed proportions, and its legend holds two lines
// at most (tests/browser/test_site_chart_legend.py), so the demo's stylesheet can keep its
// room before the script runs.
//
// Accessible: the SVG is one image whose name (aria-label) says what it shows, its description the last
// epochs' values, and a table of every value follows it in a <details> element (closed by
// default, for screen readers and for readers who want the numbers).
//
//   import { createEpochChart } from "../kit/epoch-chart.mjs";
//   const chart = createEpochChart(hostElement, { title: "Updates per epoch" });
//   chart.update([{ epoch: 1, updates: 3, mistakes: 2 }, ...], { epoch: 3, updates: 1 });
//   chart.update([{ epoch: 1, updates: 3, mistakes: 2, test: 5 }, ...], null, { testSize: 40 });
//   chart.values();   // what it shows: { rows, partial } (and testSize, with a test set)
//
// The numbers come from the demo's core (perceptron-core.mjs epochTotals, kernel-core.mjs
// kernelEpochTotals), which the tests hold to perceptron_lib.  Colours come from CSS
// custom properties with fallbacks: --ec-fg, --ec-muted, --ec-grid, --ec-bar, --ec-line,
// --ec-test.

const SVGNS = "http://www.w3.org/2000/svg";
const W = 320;
const H = 120;
const PAD = { left: 30, right: 8, top: 8, bottom: 20 };
const STYLE_ID = "epoch-chart-style";
const STYLE = `
.ec { margin: 0; }
.ec-svg { display: block; width: 100%; height: auto; aspect-ratio: ${W} / ${H}; overflow: visible; }
.ec-svg text { font-size: 10px; fill: var(--ec-muted, currentColor); font-family: inherit; }
.ec-grid { stroke: var(--ec-grid, #d0d4da); stroke-width: 1; }
.ec-axis { stroke: var(--ec-muted, currentColor); stroke-width: 1; }
.ec-bar { fill: var(--ec-bar, #0072b2); }
.ec-bar-partial { fill: var(--ec-bar, #0072b2); fill-opacity: 0.35; }
.ec-line { fill: none; stroke: var(--ec-line, #b34a00); stroke-width: 2; }
.ec-dot { fill: var(--ec-line, #b34a00); }
.ec-test { fill: none; stroke: var(--ec-test, #6a3d9a); stroke-width: 2; stroke-dasharray: 5 3; }
.ec-test-dot { fill: var(--ec-test, #6a3d9a); }
.ec-caption { display: flex; flex-wrap: wrap; gap: 0 0.8rem; margin: 0.15rem 0 0; padding: 0; font-size: 0.85em; color: var(--ec-fg, inherit); }
.ec-entry { display: inline-flex; align-items: center; min-width: 0; max-width: 100%; }
.ec-entry[hidden] { display: none; }
.ec-key { flex: 0 0 auto; width: 1.6em; height: 0.9em; margin-right: 0.3em; overflow: visible; }
.ec-k-bar { fill: var(--ec-bar, #0072b2); }
.ec-k-line { fill: none; stroke: var(--ec-line, #b34a00); stroke-width: 2px; vector-effect: non-scaling-stroke; }
.ec-k-dot { fill: var(--ec-line, #b34a00); }
.ec-k-test { fill: none; stroke: var(--ec-test, #6a3d9a); stroke-width: 2px; stroke-dasharray: 5 3; vector-effect: non-scaling-stroke; }
.ec-k-test-dot { fill: var(--ec-test, #6a3d9a); }
.ec-table-wrap summary { cursor: pointer; font-size: 0.85em; }
.ec-table-wrap table { border-collapse: collapse; font-size: 0.85em; margin: 0.25rem 0; }
.ec-table-wrap th, .ec-table-wrap td { padding: 0.1rem 0.5rem; text-align: right; border-bottom: 1px solid var(--ec-grid, #d0d4da); }
.ec-empty { font-size: 0.85em; color: var(--ec-muted, inherit); }
`;

let charts = 0;

function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function addStyle(doc) {
  if (doc.getElementById(STYLE_ID)) return;
  const s = doc.createElement("style");
  s.id = STYLE_ID;
  s.textContent = STYLE;
  doc.head.append(s);
}

/** A round top for the y axis: 1, 2, 5, 10, 20, 50, ... at least v. */
export function niceMax(v) {
  if (!(v > 0)) return 1;
  let p = 1;
  for (;;) {
    for (const m of [1, 2, 5]) if (m * p >= v) return m * p;
    p *= 10;
  }
}

function checkRows(rows, partial, testSize) {
  if (!Array.isArray(rows)) throw new Error("the epoch chart needs an array of {epoch, updates, mistakes}");
  if (testSize !== null && (!Number.isInteger(testSize) || testSize < 1)) throw new Error(`the test set's size must be a count, at least 1, got ${testSize}`);
  rows.forEach((r, k) => {
    if (!r || r.epoch !== k + 1) throw new Error(`epoch chart row ${k + 1} must be epoch ${k + 1}`);
    for (const f of testSize === null ? ["updates", "mistakes"] : ["updates", "mistakes", "test"]) {
      if (!Number.isInteger(r[f]) || r[f] < 0) throw new Error(`epoch chart row ${k + 1}: ${f} must be a count, got ${r[f]}`);
    }
    if (testSize !== null && r.test > testSize) throw new Error(`epoch chart row ${k + 1}: ${r.test} test errors of ${testSize} examples`);
  });
  if (partial) {
    if (partial.epoch !== rows.length + 1) throw new Error(`the epoch in progress must be epoch ${rows.length + 1}`);
    if (!Number.isInteger(partial.updates) || partial.updates < 0) throw new Error("the epoch in progress needs a count of updates");
  }
}

const plural = (k, word) => `${k} ${word}${k === 1 ? "" : "s"}`;

/**
 * Build a chart into host (its content is replaced).  Options: title (the chart's name,
 * default "Updates per epoch"), describeLast (how many epochs the image's description
 * lists, default 8).  Returns { element, update(rows, partial), values() }.
 */
export function createEpochChart(host, { title = "Updates per epoch", describeLast = 8 } = {}) {
  const doc = host.ownerDocument;
  addStyle(doc);
  const id = `ec${++charts}`;
  const fig = el("figure", { class: "ec" });
  const chartSvg = svg("svg", { class: "ec-svg", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": title, "aria-describedby": `${id}-d` });
  const t = svg("title");
  t.textContent = title;
  const desc = svg("desc", { id: `${id}-d` });
  const gridG = svg("g", { "aria-hidden": "true" });
  const barsG = svg("g", { "aria-hidden": "true" });
  const line = svg("polyline", { class: "ec-line", "aria-hidden": "true" });
  const dotsG = svg("g", { "aria-hidden": "true" });
  const testLine = svg("polyline", { class: "ec-test", "aria-hidden": "true" });
  const testG = svg("g", { "aria-hidden": "true" });
  chartSvg.append(t, desc, gridG, barsG, line, dotsG, testLine, testG);
  const caption = el("figcaption", { class: "ec-caption" });
  // The legend: each entry's key is drawn as the chart draws its mark; the texts are short
  // enough for two lines in the narrowest chart of the book's demos (the table's headings
  // and the image's description say "after each epoch" in full).
  const key = (marks) => `<svg class="ec-key" viewBox="0 0 20 10" aria-hidden="true" focusable="false">${marks}</svg>`;
  caption.innerHTML =
    `<span class="ec-entry">${key('<rect class="ec-k-bar" x="5" y="1" width="10" height="9"/>')}updates per epoch</span>` +
    `<span class="ec-entry">${key('<line class="ec-k-line" x1="1" y1="5" x2="19" y2="5"/><circle class="ec-k-dot" cx="10" cy="5" r="2.6"/>')}training mistakes</span>` +
    `<span class="ec-entry ec-test-key" hidden>${key('<line class="ec-k-test" x1="0" y1="5" x2="20" y2="5"/><rect class="ec-k-test-dot" x="7.5" y="2.5" width="5" height="5"/>')}<span class="ec-test-name">test errors</span></span>`;
  const testKey = caption.querySelector(".ec-test-key");
  const details = el("details", { class: "ec-table-wrap" });
  details.append(el("summary", {}, "The values"));
  const table = el("table");
  table.append(el("caption", {}, title));
  const thead = el("thead");
  const hr = el("tr");
  for (const h of ["epoch", "updates", "training mistakes after it"]) hr.append(el("th", { scope: "col" }, h));
  const testHead = el("th", { scope: "col" });
  thead.append(hr);
  const tbody = el("tbody");
  table.append(thead, tbody);
  details.append(table);
  fig.append(chartSvg, caption, details);
  host.replaceChildren(fig);

  let shown = { rows: [], partial: null };
  let drawn = false;

  /** Show rows (and the epoch in progress); options.testSize: the held-out set's size, if any. */
  function update(rows, partial = null, { testSize = null } = {}) {
    checkRows(rows, partial, testSize);
    const withTest = testSize !== null;
    const same = rows.length === shown.rows.length && (testSize ?? null) === (shown.testSize ?? null) &&
      JSON.stringify(partial) === JSON.stringify(shown.partial) &&
      rows.every((r, k) => { const o = shown.rows[k]; return o.updates === r.updates && o.mistakes === r.mistakes && o.test === r.test; });
    if (same && drawn) return; // nothing to redraw (a demo redraws its chart with everything else)
    drawn = true;
    shown = {
      rows: rows.map((r) => ({ epoch: r.epoch, updates: r.updates, mistakes: r.mistakes, ...(withTest ? { test: r.test } : {}) })),
      partial: partial ? { epoch: partial.epoch, updates: partial.updates } : null,
      ...(withTest ? { testSize } : {}),
    };
    const count = rows.length + (partial ? 1 : 0);
    const top = niceMax(Math.max(1, ...rows.map((r) => Math.max(r.updates, r.mistakes, withTest ? r.test : 0)), partial ? partial.updates : 0));
    const slots = Math.max(count, 10);
    const pw = W - PAD.left - PAD.right;
    const ph = H - PAD.top - PAD.bottom;
    const slot = pw / slots;
    const bw = Math.max(1, slot * 0.7);
    const xAt = (k) => PAD.left + (k + 0.5) * slot; // middle of epoch k + 1
    const yAt = (v) => PAD.top + ph - (v / top) * ph;
    const f = (v) => v.toFixed(2);

    gridG.replaceChildren();
    for (const v of Number.isInteger(top / 2) ? [0, top / 2, top] : [0, top]) {
      gridG.append(svg("line", { class: v === 0 ? "ec-axis" : "ec-grid", x1: PAD.left, x2: W - PAD.right, y1: f(yAt(v)), y2: f(yAt(v)) }));
      const lab = svg("text", { x: PAD.left - 4, y: f(yAt(v) + 3.5), "text-anchor": "end" });
      lab.textContent = String(v);
      gridG.append(lab);
    }
    const every = Math.max(1, niceMax(Math.ceil(slots / 10)));
    for (let k = 0; k < slots; k++) {
      if ((k + 1) % every !== 0 && k !== 0) continue;
      const lab = svg("text", { x: f(xAt(k)), y: H - 6, "text-anchor": "middle" });
      lab.textContent = String(k + 1);
      gridG.append(lab);
    }

    barsG.replaceChildren();
    dotsG.replaceChildren();
    testG.replaceChildren();
    const pts = [];
    const testPts = [];
    const mark = Math.min(3, Math.max(1.5, slot / 4));
    rows.forEach((r, k) => {
      const h = yAt(0) - yAt(r.updates);
      barsG.append(svg("rect", { class: "ec-bar", x: f(xAt(k) - bw / 2), y: f(yAt(r.updates)), width: f(bw), height: f(h) }));
      pts.push(`${f(xAt(k))},${f(yAt(r.mistakes))}`);
      dotsG.append(svg("circle", { class: "ec-dot", cx: f(xAt(k)), cy: f(yAt(r.mistakes)), r: mark }));
      if (withTest) {
        testPts.push(`${f(xAt(k))},${f(yAt(r.test))}`);
        testG.append(svg("rect", { class: "ec-test-dot", x: f(xAt(k) - mark), y: f(yAt(r.test) - mark), width: f(2 * mark), height: f(2 * mark) }));
      }
    });
    testLine.setAttribute("points", testPts.join(" "));
    testKey.hidden = !withTest;
    if (withTest) testKey.querySelector(".ec-test-name").textContent = `test errors (of ${testSize} held out)`;
    if (partial) {
      const k = rows.length;
      barsG.append(svg("rect", { class: "ec-bar-partial", x: f(xAt(k) - bw / 2), y: f(yAt(partial.updates)), width: f(bw), height: f(yAt(0) - yAt(partial.updates)) }));
    }
    line.setAttribute("points", pts.join(" "));

    // the text alternatives
    if (!count) {
      desc.textContent = "No epoch yet.";
    } else {
      const from = Math.max(0, rows.length - describeLast);
      const parts = rows.slice(from).map((r) => `epoch ${r.epoch}: ${plural(r.updates, "update")}, ${plural(r.mistakes, "mistake")} after it` +
        (withTest ? `, ${plural(r.test, "test error")} of ${testSize}` : ""));
      if (partial) parts.push(`epoch ${partial.epoch} in progress: ${plural(partial.updates, "update")} so far`);
      desc.textContent = (from > 0 ? `Last ${rows.length - from} of ${rows.length} epochs. ` : "") + parts.join("; ") + ".";
    }
    if (withTest) {
      testHead.textContent = `test errors after it (of ${testSize})`;
      hr.append(testHead);
    } else testHead.remove();
    if (details.open) fillTable();
    else tableStale = true;
  }

  // The table's rows are written when the table is open (a run of thousands of epochs
  // would otherwise rebuild thousands of rows at every step).
  let tableStale = true;
  function fillTable() {
    tableStale = false;
    const { rows, partial, testSize } = shown;
    const withTest = testSize !== undefined;
    tbody.replaceChildren();
    for (const r of rows) {
      const tr = el("tr");
      tr.append(el("th", { scope: "row" }, String(r.epoch)), el("td", {}, String(r.updates)), el("td", {}, String(r.mistakes)));
      if (withTest) tr.append(el("td", {}, String(r.test)));
      tbody.append(tr);
    }
    if (partial) {
      const tr = el("tr");
      tr.append(el("th", { scope: "row" }, `${partial.epoch} (in progress)`), el("td", {}, String(partial.updates)), el("td", {}, "\u2013"));
      if (withTest) tr.append(el("td", {}, "\u2013"));
      tbody.append(tr);
    }
  }

  details.addEventListener("toggle", () => { if (details.open && tableStale) fillTable(); });
  update([]);
  return { element: fig, update, values: () => JSON.parse(JSON.stringify(shown)) };
}
