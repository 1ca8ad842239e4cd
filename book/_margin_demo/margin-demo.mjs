// Chapter 7's margin demo (no framework, no other host).
//
// Every <div class="margin-demo"> on the page becomes one:
//
//   <div class="margin-demo"
//        data-mu="0.0"      (the threshold at the start: one of margin-core.mjs MUS)
//        data-tau="100"     (the most passes a run makes)
//        data-datasets='[{"name": "...", "X": [[..], ..], "y": [..], "theta": [u1, u2],
//                         "theta0": u0, "gamma": 0.1, "gammaOpt": 0.2 or null}]'>
//     <div class="md-frame"><div class="md-fallback">...</div></div>
//   </div>
//
// perceptron_lib.margin_demo.MarginDemo writes that element from the chapter's arrays.
// The demo is built into .md-frame at once (the stylesheet has kept its room); its
// arithmetic starts when it comes near the screen.  All arithmetic is margin-core.mjs's,
// which tests/test_margin_demo_core.py holds to perceptron_lib.  What the reader has
// chosen (data set, mu, gamma, steps taken) is one plain object, read by getState() and
// restored by setState(), and kept in the page's URL under the element's id
// (../_playground/url-state.mjs): a link reproduces it, Back returns to the state before the
// last change of data set, mu or gamma.  The updates of each pass and the training
// mistakes after it grow in a chart (../_playground/epoch-chart.mjs).  Each element gets a
// small API in element.marginDemo (used by the tests).

import { createEpochChart } from "../_playground/epoch-chart.mjs";
import * as urlState from "../_playground/url-state.mjs";
import * as core from "./margin-core.mjs";

const SVGNS = "http://www.w3.org/2000/svg";
const VB = 400; // the drawing's own units (viewBox); the plot area is a square inside
const AREA = { left: 34, top: 8, size: 358 };
const RING_R = 10;

let instances = 0;

// ---------------------------------------------------------------------------------------
// Small functions

function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/** A number for people: integers as they are, others with 4 significant digits. */
export function num(v, digits = 4) {
  if (v === null || v === undefined) return "\u2013";
  if (v === 0 || Object.is(v, -0)) return "0";
  if (Number.isInteger(v) && Math.abs(v) < 1e9) return String(v);
  if (Math.abs(v) >= 1e6) return v.toExponential(2).replace("e+", "e");
  return String(Number(v.toPrecision(digits)));
}
const show = (s) => s.replace(/-/g, "\u2212"); // typographic minus for the page
const labelText = (y) => (y > 0 ? "+1" : "\u22121");
const plural = (k, word) => `${k} ${word}${k === 1 ? "" : "s"}`;

function niceStep(span) {
  const raw = span / 6;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/** The square view around the points, padded (the fallback picture's). */
export function viewBox(X, pad = 0.6) {
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (const [a, b] of X) {
    x0 = Math.min(x0, a); x1 = Math.max(x1, a); y0 = Math.min(y0, b); y1 = Math.max(y1, b);
  }
  const span = Math.max(x1 - x0, y1 - y0) + 2 * pad;
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  return { x0: cx - span / 2, x1: cx + span / 2, y0: cy - span / 2, y1: cy + span / 2, span };
}

/** The part of the polygon where a x + b y + c >= 0 (Sutherland-Hodgman, one edge). */
function clip(poly, a, b, c) {
  const out = [];
  const f = (p) => a * p[0] + b * p[1] + c;
  for (let k = 0; k < poly.length; k++) {
    const p = poly[k];
    const q = poly[(k + 1) % poly.length];
    const fp = f(p);
    const fq = f(q);
    if (fp >= 0) out.push(p);
    if ((fp >= 0) !== (fq >= 0)) {
      const s = fp / (fp - fq);
      out.push([p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1])]);
    }
  }
  return out;
}

function parseDatasets(text) {
  let raw;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`data-datasets is not valid JSON (${err.message})`);
  }
  if (!Array.isArray(raw) || raw.length === 0) throw new Error("data-datasets must be a non-empty JSON array of data sets");
  return raw.map((d, k) => {
    const where = `data set ${k + 1}${d && typeof d.name === "string" ? ` ("${d.name}")` : ""}`;
    try {
      if (!d || typeof d !== "object") throw new Error("must be an object {name, X, y, theta, theta0, gamma}");
      const [X, y] = core.checkData(d.X, d.y);
      if (X[0].length !== 2) throw new Error(`the demo draws 2-D data, but X has ${X[0].length} features`);
      const margins = core.liftedMargins(X, y, d.theta, d.theta0); // checks the separator
      if (d.theta[0] === 0 && d.theta[1] === 0) throw new Error("theta is zero: the reference separator has no line");
      const R = core.liftedRadius(X);
      core.checkGamma(d.gamma);
      if (d.gamma > R) throw new Error(`gamma must be at most R = ${R}, got ${d.gamma}`);
      const gammaOpt = d.gammaOpt === null || d.gammaOpt === undefined ? null : d.gammaOpt;
      if (gammaOpt !== null && !(typeof gammaOpt === "number" && gammaOpt > 0)) throw new Error(`gammaOpt must be a positive number or null, got ${gammaOpt}`);
      return { name: typeof d.name === "string" && d.name ? d.name : `data set ${k + 1}`, X, y,
        theta: [d.theta[0], d.theta[1]], theta0: d.theta0, gamma: d.gamma, gammaOpt, R, margins };
    } catch (err) {
      throw new Error(`${where}: ${err.message}`);
    }
  });
}

function readOptions(root) {
  const ds = root.dataset;
  const mu = Number(ds.mu ?? 0);
  if (!core.MUS.includes(mu)) throw new Error(`data-mu must be one of the slider's values (${core.MUS.join(", ")}), got "${ds.mu}"`);
  const tau = Number(ds.tau ?? 100);
  if (!Number.isInteger(tau) || tau <= 0) throw new Error(`data-tau must be a positive integer (number of passes), got "${ds.tau}"`);
  return { mu, tau };
}

// ---------------------------------------------------------------------------------------
// One demo

class MarginDemo {
  constructor(root) {
    this.root = root;
    this.uid = `md${++instances}`;
    this.key = root.id || this.uid; // the demo's key in the URL
    this.pendingSteps = 0; // steps to make once the demo is in view (a restored link)
    const opts = readOptions(root);
    this.tau = opts.tau;
    if (!root.dataset.datasets) throw new Error("data-datasets is missing");
    this.datasets = parseDatasets(root.dataset.datasets);
    // What the reader has chosen, in one plain object (getState / setState).
    this.initialMu = opts.mu;
    this.choice = { dataset: 0, mu: opts.mu, gamma: this.datasets[0].gamma, steps: 0 };
    this.active = false;
    this.run = null;
    this.frame = root.querySelector(":scope > .md-frame");
    if (!this.frame) {
      this.frame = el("div", { class: "md-frame" });
      root.append(this.frame);
    }
    this.build();
    this.loadDataset(0);
    // Before the demo comes into view no run exists, but theta = 0 is known: the readout
    // says the same as it will once the run exists, so nothing changes size then.
    this.render();
    this.say(`${this.describeData()}. Press Step, Epoch or Run.`);
    this.restoreFromUrl();
    urlState.subscribe(this.key, (got) => this.onHistory(got));
    this.frame.replaceChildren(this.ui);
    root.classList.add("md-ready");
    this.startWhenSeen();
  }

  get data() { return this.datasets[this.choice.dataset]; }

  // -- building the interface (once) ----------------------------------------------------
  build() {
    const r = this.root;
    r.setAttribute("role", "group");
    r.setAttribute("aria-label", "Margin perceptron and mistake bound demo");
    r.tabIndex = -1;
    const id = (s) => `${this.uid}-${s}`;

    const controls = el("div", { class: "md-controls md-area-controls" });
    const dsLine = el("div", { class: "md-line" });
    dsLine.append(el("label", { class: "md-name", for: id("data") }, "Data set"));
    this.select = el("select", { class: "md-select", id: id("data") });
    this.datasets.forEach((d, k) => this.select.append(el("option", { value: String(k) }, d.name)));
    dsLine.append(this.select);

    const slider = (key, text, min, max, hint) => {
      const line = el("div", { class: "md-line" });
      const input = el("input", { class: "md-range", type: "range", id: id(key), min: String(min), max: String(max), step: "1", "aria-describedby": id(`${key}-hint`) });
      const out = el("output", { class: "md-value", for: id(key), "aria-hidden": "true" });
      line.append(el("label", { class: "md-name md-symbol", for: id(key) }, text), input, out);
      const p = el("p", { class: "md-hint", id: id(`${key}-hint`) }, hint);
      return [line, p, input, out];
    };
    let muLine;
    let muHint;
    let gLine;
    let gHint;
    [muLine, muHint, this.muInput, this.muOut] = slider("mu", "\u03bc", 0, core.MUS.length - 1,
      "update while y(\u03b8\u1d40x + \u03b8\u2080) \u2264 \u03bc; 0 is the perceptron");
    [gLine, gHint, this.gammaInput, this.gammaOut] = slider("gamma", "\u03b3", 1, core.GAMMA_STEPS,
      "target margin of the reference separator (dashed)");
    this.bestButton = el("button", { type: "button", class: "md-button md-best", "aria-keyshortcuts": "b", title: "the \u03b3 with the smallest bound for the examples visited (key b)" }, "Best \u03b3");
    this.bestButton.append(el("kbd", { "aria-hidden": "true" }, "b"));
    gLine.append(this.bestButton);
    controls.append(dsLine, muLine, muHint, gLine, gHint);

    const buttons = el("div", { class: "md-buttons md-area-buttons", role: "toolbar", "aria-label": "Train the margin perceptron" });
    this.buttons = {};
    for (const [name, text, key, tip] of [
      ["step", "Step", "s", "visit the next example (key s)"],
      ["epoch", "Epoch", "e", "finish the current pass (key e)"],
      ["run", "Run", "r", "run until a pass without an update or \u03c4 passes (key r)"],
      ["reset", "Reset", "0", "start again from \u03b8 = 0 (key 0)"],
    ]) {
      const b = el("button", { type: "button", class: `md-button md-${name}`, "aria-keyshortcuts": key, title: tip }, text);
      b.append(el("kbd", { "aria-hidden": "true" }, key));
      buttons.append(b);
      this.buttons[name] = b;
    }

    const figure = el("div", { class: "md-figure md-area-figure" });
    this.plot = svg("svg", { class: "md-plot", viewBox: `0 0 ${VB} ${VB}`, role: "img", focusable: "false" });
    const clipId = id("clip");
    const defs = svg("defs");
    const cp = svg("clipPath", { id: clipId });
    cp.append(svg("rect", { x: AREA.left, y: AREA.top, width: AREA.size, height: AREA.size }));
    defs.append(cp);
    this.gridG = svg("g", { "aria-hidden": "true" });
    const clipped = svg("g", { "clip-path": `url(#${clipId})` });
    this.muBand = svg("path", { class: "md-muband", d: "" });
    this.gammaEdges = svg("path", { class: "md-gammaedge", d: "" });
    this.reference = svg("path", { class: "md-reference", d: "" });
    this.boundary = svg("path", { class: "md-boundary", d: "" });
    this.deficientG = svg("g");
    this.pointsG = svg("g");
    this.ring = svg("circle", { class: "md-ring", r: RING_R + 5, visibility: "hidden" });
    clipped.append(this.muBand, this.gammaEdges, this.reference, this.boundary, this.deficientG, this.pointsG, this.ring);
    this.ticksG = svg("g", { class: "md-ticks", "aria-hidden": "true" });
    this.plot.append(svg("rect", { class: "md-bg", x: AREA.left, y: AREA.top, width: AREA.size, height: AREA.size }),
      defs, this.gridG, clipped, this.ticksG,
      svg("rect", { class: "md-frame-rect", x: AREA.left, y: AREA.top, width: AREA.size, height: AREA.size }));
    const stage = el("div", { class: "md-stage" });
    stage.append(this.plot);
    const legend = el("p", { class: "md-legend", "aria-hidden": "true" });
    legend.innerHTML =
      '<span><span class="md-key md-key-pos">+</span> y = +1</span>' +
      '<span><span class="md-key md-key-neg">\u2212</span> y = \u22121</span>' +
      '<span><span class="md-key md-key-line"></span> \u03b8 (current)</span>' +
      '<span><span class="md-key md-key-band"></span> y\u00b7score \u2264 \u03bc</span>' +
      '<span><span class="md-key md-key-ref"></span> reference u</span>' +
      '<span><span class="md-key md-key-edge"></span> margin \u03b3</span>' +
      '<span><span class="md-key md-key-def"></span> d\u1d62 &gt; 0</span>' +
      '<span><span class="md-key md-key-ring"></span> last visited</span>';
    figure.append(stage, legend);

    this.status = el("p", { class: "md-status md-area-status", "aria-live": "polite", "aria-atomic": "true" });
    this.chartHost = el("div", { class: "md-chart md-area-chart" });
    this.chart = createEpochChart(this.chartHost, { title: "Updates per pass, and training mistakes after each pass" });

    const readout = el("div", { class: "md-readout md-area-readout" });
    const dl = el("dl", { class: "md-values" });
    this.out = {};
    for (const [key, text] of [
      ["pass", "pass"],
      ["counts", "updates"],
      ["hyp", "\u03b8, \u03b8\u2080"],
      ["margin", "margin of \u03b8"],
      ["radius", "R (lifted)"],
      ["deficiency", "D, one pass"],
      ["bound1", "bound, one pass"],
      ["boundNow", "bound so far"],
      ["state", "state"],
    ]) {
      const row = el("div", { class: `md-row md-row-${key}` });
      const dd = el("dd");
      row.append(el("dt", {}, text), dd);
      dl.append(row);
      this.out[key] = dd;
    }
    const help = el("details", { class: "md-help" });
    help.append(el("summary", {}, "The numbers, and the keys"));
    const helpBox = el("div");
    const ul = el("ul");
    for (const t of [
      "s Step, e Epoch, r Run, 0 Reset, b Best \u03b3, whenever the focus is in the demo; Tab reaches every control and arrow keys move the sliders.",
      "The margin perceptron starts from \u03b8 = 0, \u03b8\u2080 = 0 and updates \u03b8 \u2190 \u03b8 + y x, \u03b8\u2080 \u2190 \u03b8\u2080 + y whenever y(\u03b8\u1d40x + \u03b8\u2080) \u2264 \u03bc. A mistake is y(\u03b8\u1d40x + \u03b8\u2080) \u2264 0. A new \u03bc or data set starts again from \u03b8 = 0.",
      "The offset is handled by lifting, as in chapter 4: each point becomes (x, 1), R is the largest norm of the lifted points and the reference separator (u, u\u2080) is scaled to a unit vector of the lifted space. Its margin on point i is m\u1d62 = y\u1d62(u\u1d40x\u1d62 + u\u2080)/\u2016(u, u\u2080)\u2016 and its deficiency d\u1d62 = max(0, \u03b3 \u2212 m\u1d62).",
      "D = \u221a(\u03a3 d\u1d62\u00b2). Freund and Schapire: the perceptron (\u03bc = 0) makes at most ((R + D)/\u03b3)\u00b2 mistakes on any sequence, D taken over that sequence; the examples visited so far count once per visit. For \u03bc > 0 the same argument bounds the updates by ((\u221a(R\u00b2 + 2\u03bc) + D)/\u03b3)\u00b2.",
      "The margin of \u03b8 is its geometric margin min y\u1d62(\u03b8\u1d40x\u1d62 + \u03b8\u2080)/\u2016\u03b8\u2016 (chapter 3), set against \u03b3_opt, the largest margin of any separator, where the data are separable.",
    ]) ul.append(el("li", {}, t));
    helpBox.append(ul);
    help.append(helpBox);
    readout.append(dl, help);

    this.ui = el("div", { class: "md-ui" });
    this.ui.append(controls, buttons, figure, this.status, this.chartHost, readout);

    this.select.addEventListener("change", () => { this.setState({ dataset: Number(this.select.value), steps: 0 }, "dataset"); this.saveUrl("push"); });
    this.muInput.addEventListener("input", () => { this.setState({ mu: core.MUS[Number(this.muInput.value)], steps: 0 }, "mu"); this.saveUrl("push"); });
    // a drag of the gamma slider is one history entry: replace while it moves, push first
    this.gammaInput.addEventListener("input", () => {
      this.setState({ gamma: this.gammaAt(Number(this.gammaInput.value)) }, "gamma");
      this.saveUrl(this.sliding ? "replace" : "push");
      this.sliding = true;
    });
    this.gammaInput.addEventListener("change", () => { this.sliding = false; });
    this.gammaInput.addEventListener("blur", () => { this.sliding = false; });
    this.bestButton.addEventListener("click", () => this.bestGamma());
    this.buttons.step.addEventListener("click", () => this.step());
    this.buttons.epoch.addEventListener("click", () => this.epoch());
    this.buttons.run.addEventListener("click", () => this.runAll());
    this.buttons.reset.addEventListener("click", () => this.reset());
    r.addEventListener("keydown", (e) => this.onKey(e));
  }

  gammaAt(k) { return (k * this.data.R) / core.GAMMA_STEPS; }

  syncControls() {
    const c = this.choice;
    this.select.value = String(c.dataset);
    const mi = core.MUS.indexOf(c.mu);
    this.muInput.value = String(mi);
    this.muOut.textContent = num(c.mu);
    this.muInput.setAttribute("aria-valuetext", `mu ${num(c.mu)}${c.mu === 0 ? ", the plain perceptron" : ""}`);
    const k = Math.min(core.GAMMA_STEPS, Math.max(1, Math.round((c.gamma / this.data.R) * core.GAMMA_STEPS)));
    this.gammaInput.value = String(k);
    this.gammaOut.textContent = num(c.gamma, 3);
    this.gammaInput.setAttribute("aria-valuetext", `gamma ${num(c.gamma)}`);
  }

  // -- when the arithmetic starts ---------------------------------------------------------
  startWhenSeen() {
    if (typeof IntersectionObserver === "undefined") {
      this.activate();
      return;
    }
    this.observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) this.activate();
    }, { rootMargin: "200px 0px" });
    this.observer.observe(this.root);
  }

  activate() {
    if (this.active) return;
    this.active = true;
    if (this.observer) this.observer.disconnect();
    if (this.pendingSteps) {
      this.ensureRun();
      while (!this.run.done && this.run.steps < this.pendingSteps) this.stepRun();
      this.choice.steps = this.run.steps;
      this.pendingSteps = 0;
    }
    this.render();
    this.root.dataset.mdActive = "true";
  }

  // -- the state ----------------------------------------------------------------------------
  getState() { return { ...this.choice }; }

  /** Set any of {dataset, mu, gamma, steps}; the run is replayed to `steps` steps. */
  setState(change, why = null) {
    const c = { ...this.choice, ...change };
    if (!Number.isInteger(c.dataset) || c.dataset < 0 || c.dataset >= this.datasets.length) throw new Error(`no data set ${c.dataset}`);
    if (!core.MUS.includes(c.mu)) throw new Error(`mu must be one of ${core.MUS.join(", ")}, got ${c.mu}`);
    if ("dataset" in change && change.dataset !== this.choice.dataset && !("gamma" in change)) c.gamma = this.datasets[c.dataset].gamma;
    core.checkGamma(c.gamma);
    if (c.gamma > this.datasets[c.dataset].R) throw new Error(`gamma must be at most R = ${this.datasets[c.dataset].R}`);
    if (!Number.isInteger(c.steps) || c.steps < 0) throw new Error(`steps must be a whole number >= 0, got ${c.steps}`);
    const newRun = c.dataset !== this.choice.dataset || c.mu !== this.choice.mu || !this.run || c.steps < this.run.steps;
    this.choice = c;
    if (newRun) this.loadDataset(c.dataset);
    if (this.active) {
      this.ensureRun();
      while (!this.run.done && this.run.steps < c.steps) this.stepRun();
      this.choice.steps = this.run.steps;
    } else {
      this.pendingSteps = c.steps;
    }
    this.syncControls();
    this.render();
    if (why === "dataset") this.say(`Data set \u201c${this.data.name}\u201d: ${this.describeData()}. \u03b8 = 0: Step, Epoch or Run trains it.`);
    else if (why === "mu") this.say(`\u03bc = ${num(c.mu)}${c.mu === 0 ? " (the plain perceptron)" : ""}: \u03b8 = 0 again. ${this.boundText()}`);
    else if (why === "gamma") this.say(`\u03b3 = ${num(c.gamma)}: ${this.deficientCount()} of ${this.data.y.length} points have d\u1d62 > 0. ${this.boundText()}`);
    return this.getState();
  }

  loadDataset(k) {
    this.choice.dataset = k;
    this.view = viewBox(this.data.X);
    this.run = null;
    this.drawView();
    this.drawPoints();
    this.syncControls();
  }

  ensureRun() {
    if (!this.run) {
      this.run = core.createMarginRun(this.data.X, this.data.y, this.choice.mu, this.tau);
      this.run.steps = 0;
    }
    return this.run;
  }

  stepRun() {
    const s = this.run.step();
    if (s) this.run.steps += 1;
    return s;
  }

  describeData() {
    const pos = this.data.y.filter((v) => v > 0).length;
    const n = this.data.y.length;
    const sep = this.data.gammaOpt === null ? "not linearly separable" : `separable, \u03b3_opt = ${num(this.data.gammaOpt)}`;
    return `${plural(n, "point")}, ${pos} labelled +1 and ${n - pos} labelled \u22121, ${sep}`;
  }

  // -- numbers --------------------------------------------------------------------------------
  numbers() {
    const d = this.data;
    const g = this.choice.gamma;
    const r = this.active ? this.ensureRun() : null;
    const defs = core.deficiencies(d.X, d.y, d.theta, d.theta0, g);
    const D1 = core.totalDeficiency(defs);
    const visits = r ? r.visits : new Array(d.y.length).fill(0);
    const Dnow = core.totalDeficiency(defs, visits);
    const mu = this.choice.mu;
    const Rmu = core.marginRadius(d.R, mu);
    const theta = r ? r.theta : [0, 0];
    const theta0 = r ? r.theta0 : 0;
    return {
      defs, D1, Dnow, Rmu,
      bound1: core.fsBound(Rmu, g, D1),
      boundNow: core.fsBound(Rmu, g, Dnow),
      updates: r ? r.updates : 0,
      mistakes: r ? r.mistakes : 0,
      theta, theta0,
      margin: core.hypothesisMargin(d.X, d.y, theta, theta0),
      visited: visits.reduce((a, b) => a + b, 0),
    };
  }

  deficientCount() {
    return this.data.margins.filter((m) => m < this.choice.gamma).length;
  }

  boundText() {
    const v = this.numbers();
    const what = this.choice.mu === 0 ? "mistakes" : "updates";
    return `Bound on ${what} for one pass: ${num(v.bound1)}` + (v.visited ? `; for the ${plural(v.visited, "visit")} so far: ${num(v.boundNow)}, against ${v.updates} ${this.choice.mu === 0 ? "mistakes" : "updates"}.` : ".");
  }

  // -- coordinates ------------------------------------------------------------------------
  sx(x) { return AREA.left + ((x - this.view.x0) / this.view.span) * AREA.size; }
  sy(y) { return AREA.top + ((this.view.y1 - y) / this.view.span) * AREA.size; }

  box() {
    const v = this.view;
    return [[v.x0, v.y0], [v.x1, v.y0], [v.x1, v.y1], [v.x0, v.y1]];
  }

  pathOf(poly) {
    if (poly.length < 2) return "";
    return poly.map((p, k) => `${k ? "L" : "M"}${this.sx(p[0]).toFixed(1)} ${this.sy(p[1]).toFixed(1)}`).join("") + (poly.length > 2 ? "Z" : "");
  }

  /** The segment of a x + b y + c = 0 inside the view, as an SVG path ("" if none). */
  linePath(a, b, c) {
    const v = this.view;
    const pts = [];
    if (b !== 0) {
      for (const x of [v.x0, v.x1]) {
        const y = -(a * x + c) / b;
        if (y >= v.y0 && y <= v.y1) pts.push([x, y]);
      }
    }
    if (a !== 0) {
      for (const y of [v.y0, v.y1]) {
        const x = -(b * y + c) / a;
        if (x >= v.x0 && x <= v.x1) pts.push([x, y]);
      }
    }
    if (pts.length < 2) return "";
    // the two points farthest apart (a corner can be found twice)
    let best = [pts[0], pts[1]];
    let far = -1;
    for (const p of pts) for (const q of pts) {
      const dd = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2;
      if (dd > far) { far = dd; best = [p, q]; }
    }
    return this.pathOf(best);
  }

  // -- drawing -------------------------------------------------------------------------------
  drawView() {
    const v = this.view;
    const step = niceStep(v.span);
    this.gridG.textContent = "";
    this.ticksG.textContent = "";
    const first = (lo) => Math.ceil(lo / step - 1e-9) * step;
    const label = (t) => show(num(Number((Math.round(t / step) * step).toPrecision(6))));
    for (let x = first(v.x0); x <= v.x1 + 1e-9; x += step) {
      const X = this.sx(x);
      this.gridG.append(svg("line", { class: Math.abs(x) < step / 1e6 ? "md-axis" : "md-gridline", x1: X, x2: X, y1: AREA.top, y2: AREA.top + AREA.size }));
      const t = svg("text", { x: X, y: AREA.top + AREA.size + 14, "text-anchor": "middle" });
      t.textContent = label(x);
      this.ticksG.append(t);
    }
    for (let y = first(v.y0); y <= v.y1 + 1e-9; y += step) {
      const Y = this.sy(y);
      this.gridG.append(svg("line", { class: Math.abs(y) < step / 1e6 ? "md-axis" : "md-gridline", y1: Y, y2: Y, x1: AREA.left, x2: AREA.left + AREA.size }));
      const t = svg("text", { x: AREA.left - 4, y: Y + 4, "text-anchor": "end" });
      t.textContent = label(y);
      this.ticksG.append(t);
    }
  }

  drawPoints() {
    this.pointsG.textContent = "";
    const { X, y } = this.data;
    for (let i = 0; i < X.length; i++) {
      const g = svg("g", { class: `md-pt ${y[i] > 0 ? "md-pos" : "md-neg"}`,
        transform: `translate(${this.sx(X[i][0]).toFixed(2)} ${this.sy(X[i][1]).toFixed(2)})` });
      g.append(svg("path", { class: "md-mark", d: y[i] > 0 ? "M-6,0H6M0,-6V6" : "M-6,0H6" }));
      this.pointsG.append(g);
    }
  }

  render() {
    const d = this.data;
    const v = this.numbers();
    // the reference separator and the edges of its band: lifted margin = +-gamma
    const [u1, u2] = d.theta;
    const nl = Math.sqrt(u1 * u1 + u2 * u2 + d.theta0 * d.theta0);
    const w = this.choice.gamma * nl;
    this.reference.setAttribute("d", this.linePath(u1, u2, d.theta0));
    this.gammaEdges.setAttribute("d", this.linePath(u1, u2, d.theta0 - w) + this.linePath(u1, u2, d.theta0 + w));
    // the current hypothesis and the band |theta.x + theta0| <= mu where an update happens
    const [t1, t2] = v.theta;
    const mu = this.choice.mu;
    if (t1 === 0 && t2 === 0) {
      this.boundary.setAttribute("d", "");
      // theta = 0: every point has score theta0, so y * score <= mu for all or for one class
      this.muBand.setAttribute("d", Math.abs(v.theta0) <= mu ? this.pathOf(this.box()) : "");
    } else {
      this.boundary.setAttribute("d", this.linePath(t1, t2, v.theta0));
      this.muBand.setAttribute("d", this.pathOf(clip(clip(this.box(), t1, t2, v.theta0 + mu), -t1, -t2, -v.theta0 + mu)));
    }
    // points with d_i > 0
    this.deficientG.textContent = "";
    d.X.forEach((p, i) => {
      if (v.defs[i] > 0) this.deficientG.append(svg("circle", { class: "md-deficient", r: RING_R, cx: this.sx(p[0]).toFixed(2), cy: this.sy(p[1]).toFixed(2) }));
    });
    const last = this.active && this.run ? this.run.last : null;
    if (last) {
      this.ring.setAttribute("cx", this.sx(d.X[last.index][0]).toFixed(2));
      this.ring.setAttribute("cy", this.sy(d.X[last.index][1]).toFixed(2));
      this.ring.classList.toggle("md-ring-update", last.update);
      this.ring.removeAttribute("visibility");
    } else {
      this.ring.setAttribute("visibility", "hidden");
    }
    this.renderReadout(v);
    if (this.active && this.run) {
      const { rows, partial } = core.marginEpochTotals(this.run);
      this.chart.update(rows, partial);
    } else {
      this.chart.update([]);
    }
  }

  renderReadout(v) {
    const d = this.data;
    const r = this.active ? this.run : null;
    const o = this.out;
    const n = d.y.length;
    o.pass.textContent = `${r && r.last ? r.t : 1} of ${this.tau}; ${plural(v.visited, "visit")}`;
    o.counts.textContent = `${v.updates}; ${plural(v.mistakes, "mistake")}`;
    o.hyp.textContent = show(`(${num(v.theta[0], 3)}, ${num(v.theta[1], 3)}), ${num(v.theta0, 3)}`);
    const opt = d.gammaOpt === null ? "not separable" : `\u03b3_opt ${num(d.gammaOpt)}`;
    o.margin.textContent = show(`${num(v.margin)}; ${opt}`);
    o.radius.textContent = this.choice.mu === 0 ? num(d.R) : show(`${num(d.R)}; with \u03bc: ${num(v.Rmu)}`);
    o.deficiency.textContent = `${num(v.D1)}; d\u1d62 > 0: ${this.deficientCount()} of ${n}`;
    o.bound1.textContent = num(v.bound1);
    o.boundNow.textContent = `${num(v.boundNow)} \u2265 ${v.updates} ${this.choice.mu === 0 ? "mistakes" : "updates"}`;
    if (r && r.converged) o.state.textContent = `converged in pass ${r.t}`;
    else if (r && r.stopped) o.state.textContent = `stopped: ${this.tau} passes`;
    else if (r && r.last) o.state.textContent = `running; next: x(${r.next + 1})`;
    else o.state.textContent = "ready: \u03b8 = 0, \u03b8\u2080 = 0";
    this.plot.setAttribute("aria-label", this.describePlot(v));
    const done = Boolean(r && r.done);
    for (const k of ["step", "epoch", "run"]) this.buttons[k].setAttribute("aria-disabled", String(done));
    this.buttons.reset.setAttribute("aria-disabled", String(!(r && r.last)));
  }

  describePlot(v) {
    const parts = [`Plot of ${this.describeData()}`,
      `the reference separator dashed, with dotted lines where its lifted margin is \u03b3 = ${num(this.choice.gamma)}`,
      `${this.deficientCount()} points with d\u1d62 > 0 circled`];
    parts.push(v.margin === null && v.theta[0] === 0 && v.theta[1] === 0 ? "no current boundary yet (\u03b8 = 0)" : `the current boundary solid, shaded where y times the score is at most \u03bc = ${num(this.choice.mu)}`);
    return show(parts.join("; ") + ".");
  }

  say(text) {
    this.status.textContent = show(text);
  }

  // -- the URL ------------------------------------------------------------------------------
  urlStateObject() {
    const c = this.choice;
    return { v: 1, d: c.dataset, m: c.mu, g: c.gamma, s: c.steps };
  }

  saveUrl(mode) {
    try {
      if (mode === "push") urlState.pushState(this.key, this.urlStateObject());
      else urlState.replaceState(this.key, this.urlStateObject());
    } catch (err) {
      console.warn(`margin demo ${this.key}: ${err.message}`);
    }
  }

  /** A state read from the URL, checked field by field; throws saying what is wrong. */
  checkUrlState(st) {
    if (st.v !== 1) throw new Error(`its version ${JSON.stringify(st.v)} is not 1`);
    const out = { dataset: 0, mu: this.initialMu, gamma: null, steps: 0 };
    if (st.d !== undefined) {
      if (!Number.isInteger(st.d) || st.d < 0 || st.d >= this.datasets.length) throw new Error(`there is no data set ${JSON.stringify(st.d)}`);
      out.dataset = st.d;
    }
    const d = this.datasets[out.dataset];
    out.gamma = d.gamma;
    if (st.m !== undefined) {
      if (!core.MUS.includes(st.m)) throw new Error(`its \u03bc ${JSON.stringify(st.m)} is not one of the slider's`);
      out.mu = st.m;
    }
    if (st.g !== undefined) {
      if (typeof st.g !== "number" || !(st.g > 0) || st.g > d.R) throw new Error(`its \u03b3 ${JSON.stringify(st.g)} is not between 0 and R`);
      out.gamma = st.g;
    }
    if (st.s !== undefined) {
      if (!Number.isInteger(st.s) || st.s < 0 || st.s > this.tau * d.y.length) throw new Error(`its step position ${JSON.stringify(st.s)} is out of range`);
      out.steps = st.s;
    }
    return out;
  }

  restoreFromUrl() {
    const { state: st, error } = urlState.readState(this.key);
    if (error) { this.say(error); return; }
    if (!st) return;
    try {
      const c = this.checkUrlState(st);
      this.setState(c);
      this.say(`Restored from the link: \u201c${this.data.name}\u201d, \u03bc = ${num(c.mu)}, \u03b3 = ${num(c.gamma)}` +
        (c.steps ? `, after ${plural(c.steps, "step")}.` : "."));
    } catch (err) {
      this.say(`The link's saved state for this demo was ignored: ${err.message}.`);
    }
  }

  onHistory({ state: st, error }) {
    this.sliding = false;
    let text;
    try {
      const c = this.checkUrlState(st || { v: 1 });
      this.run = null;
      this.setState(c);
      text = st ? "Back to an earlier state" : "Back to the start";
    } catch (err) {
      text = `The saved state for this demo was ignored: ${err.message}`;
    }
    if (error) text = error;
    this.say(`${text}: \u201c${this.data.name}\u201d, \u03bc = ${num(this.choice.mu)}, \u03b3 = ${num(this.choice.gamma)}.`);
  }

  // -- actions ------------------------------------------------------------------------------
  outcomeText() {
    const r = this.run;
    const v = this.numbers();
    const b = `bound so far ${num(v.boundNow)}`;
    if (r.converged) return `Converged in pass ${r.t} after ${plural(r.updates, "update")} (${plural(r.mistakes, "mistake")}); ${b}.`;
    if (r.stopped) return `Stopped after \u03c4 = ${this.tau} passes without a clean one: ${plural(r.updates, "update")}, ${plural(r.mistakes, "mistake")}; ${b}.`;
    return `${plural(r.updates, "update")} and ${plural(r.mistakes, "mistake")} so far; ${b}.`;
  }

  begin() {
    this.activate();
    this.ensureRun();
    if (this.run.done) {
      this.say(`Nothing to do: ${this.run.converged ? "the run has converged" : "\u03c4 passes are over"}. Reset starts again.`);
      return false;
    }
    return true;
  }

  finish(text) {
    this.choice.steps = this.run.steps;
    this.render();
    this.say(text);
    this.saveUrl("replace");
  }

  step() {
    if (!this.begin()) return null;
    const s = this.stepRun();
    const i = s.index;
    const yx = this.data.y[i] * s.score;
    let text = `Pass ${s.epoch}, example ${i + 1} (y = ${labelText(this.data.y[i])}): y\u00b7score = ${num(yx)}, `;
    if (s.mistake) text += "a mistake: update.";
    else if (s.update) text += `correct but not above \u03bc = ${num(this.choice.mu)}: update.`;
    else text += "above \u03bc, no update.";
    if (this.run.done) text += ` ${this.outcomeText()}`;
    this.finish(text);
    return s;
  }

  epoch() {
    if (!this.begin()) return null;
    const t = this.run.t;
    const before = this.run.updates;
    let s = null;
    while (!this.run.done && this.run.t === t) s = this.stepRun();
    this.finish(`Pass ${t}: ${plural(this.run.updates - before, "update")}. ${this.outcomeText()}`);
    return s;
  }

  runAll() {
    if (!this.begin()) return null;
    let s = null;
    while (!this.run.done) s = this.stepRun();
    this.finish(this.outcomeText());
    return s;
  }

  reset() {
    this.activate();
    this.run = null;
    this.ensureRun();
    this.choice.steps = 0;
    this.render();
    this.say("Reset: \u03b8 = 0 and \u03b8\u2080 = 0, pass 1.");
    this.saveUrl("replace");
  }

  bestGamma() {
    this.activate();
    const d = this.data;
    const r = this.ensureRun();
    const counts = r.visits.some((c) => c > 0) ? r.visits : undefined;
    const Rmu = core.marginRadius(d.R, this.choice.mu);
    const best = core.bestGamma(d.margins, Rmu, counts, d.R);
    if (!best) return null;
    this.setState({ gamma: best.gamma });
    this.saveUrl("push");
    const v = this.numbers();
    this.say(`Best \u03b3 for ${counts ? `the ${plural(v.visited, "visit")} so far` : "one pass"}: \u03b3 = ${num(best.gamma)}, bound ${num(counts ? v.boundNow : v.bound1)}.`);
    return best.gamma;
  }

  onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t.tagName === "SELECT" || t.tagName === "TEXTAREA") return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const actions = { s: () => this.step(), e: () => this.epoch(), r: () => this.runAll(), 0: () => this.reset(), b: () => this.bestGamma() };
    if (Object.hasOwn(actions, k)) {
      e.preventDefault();
      actions[k]();
    }
  }

  // -- API for tests ------------------------------------------------------------------------
  snapshot() {
    const v = this.numbers();
    const r = this.active ? this.run : null;
    return {
      ...this.getState(),
      name: this.data.name,
      active: this.active,
      tau: this.tau,
      R: this.data.R,
      updates: v.updates, mistakes: v.mistakes,
      theta: v.theta.slice(), theta0: v.theta0,
      history: r ? r.history.map((h) => ({ epoch: h.epoch, index: h.index, score: h.score })) : [],
      visits: r ? r.visits.slice() : new Array(this.data.y.length).fill(0),
      epochs: r ? r.epochs : 0,
      converged: r ? r.converged : false,
      stopped: r ? r.stopped : false,
      deficiencies: v.defs.slice(),
      D1: v.D1, Dnow: v.Dnow, bound1: v.bound1, boundNow: v.boundNow,
      margin: v.margin, gammaOpt: this.data.gammaOpt,
      deficientDrawn: this.deficientG.childElementCount,
      chart: this.chart.values(),
      key: this.key,
      status: this.status.textContent,
      readout: Object.fromEntries(Object.entries(this.out).map(([k, dd]) => [k, dd.textContent])),
    };
  }
}

function showError(root, err) {
  root.classList.add("md-failed");
  const p = el("p", { class: "md-error", role: "alert" }, `The margin demo could not start: ${err.message}`);
  const frame = root.querySelector(":scope > .md-frame") || root;
  frame.replaceChildren(p);
  console.error("margin demo:", err);
}

/** Turn one element into a margin demo (once); returns its API object or null. */
export function mount(root) {
  if (root.marginDemo) return root.marginDemo;
  try {
    const md = new MarginDemo(root);
    root.marginDemo = {
      step: () => md.step(),
      epoch: () => md.epoch(),
      run: () => md.runAll(),
      reset: () => md.reset(),
      bestGamma: () => md.bestGamma(),
      activate: () => md.activate(),
      getState: () => md.getState(),
      setState: (change) => md.setState(change),
      snapshot: () => md.snapshot(),
      flushUrl: () => urlState.flush(),
      /** Where the data point (x, y) is on the screen, in client pixels. */
      clientPoint: (x, y) => {
        const q = new DOMPoint(md.sx(x), md.sy(y)).matrixTransform(md.plot.getScreenCTM());
        return [q.x, q.y];
      },
    };
    return root.marginDemo;
  } catch (err) {
    showError(root, err);
    return null;
  }
}

/** Mount every div.margin-demo of the document. */
export function mountAll(doc = document) {
  return [...doc.querySelectorAll("div.margin-demo")].map(mount);
}

if (typeof document !== "undefined") {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => mountAll());
  else mountAll();
}
