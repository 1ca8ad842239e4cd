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
// perceptron_lib.demos.margin.MarginDemo writes that element from the chapter's arrays.
// Nothing of the demo runs while the page loads: it is built into .md-frame in idle time
// once it is within a screen of the viewport (the stylesheet has kept its room), and its
// arithmetic starts when it comes within 200 px.  All arithmetic is margin-core.mjs's,
// which tests/test_margin_demo_core.py holds to perceptron_lib; the numbers of a state are
// computed once (the lifted margins once per data set).
//
// The reader edits the data as in every chapter's demo (../kit/point-editor.mjs): a click
// or a tap adds a point with the label chosen under "New point" (Shift: the other label),
// a point is dragged, or reached with Tab and moved by the arrow keys, flipped by Enter or
// Space, removed by Delete.  Edited data keep the data set's reference separator, view and
// held-out test set; an edit starts the run again from theta = 0, and takes it to its end
// if it had ended.  Undo and Redo (buttons, Ctrl/Cmd+Z and Ctrl/Cmd+Shift+Z;
// ../kit/edit-history.mjs) take back and put back the last edit of the points or change of
// data set, mu or gamma, the keyboard staying in the demo.  What the reader has chosen
// (data set, mu, gamma, steps taken, edited points) is one plain object, read by
// getState() and restored by setState(), and kept in the page's URL under the element's
// id (../kit/url-state.mjs): a link reproduces it, Back returns to the state before the
// last edit.  The updates of each pass and the training mistakes after it grow in a chart
// (../kit/epoch-chart.mjs).  Each element gets a small API in element.marginDemo
// (used by the tests), which builds the demo on first use.

import { buttonRow, datasetLine, groupRoot, helpBox, mountEvery, showError, sliderLine, trainingButtons } from "../kit/demo-kit.mjs";
import { el, forPeople, labelText, niceStep, show, subscripted, svg, whenSeen } from "../kit/dom.mjs";
import * as shade from "../kit/score-shade.mjs";
import * as tips from "../kit/point-tip.mjs";
import { EditHistory, UNDO_HELP, UndoRedo } from "../kit/edit-history.mjs";
import { createEpochChart } from "../kit/epoch-chart.mjs";
import { roundTo } from "../kit/plot-geometry.mjs";
import * as urlState from "../kit/url-state.mjs";
import { addPlayer } from "../kit/player.mjs";
import * as points from "../kit/point-editor.mjs";
import * as core from "./margin-core.mjs";
import { checkEntry, datasetName, heldOutOf, parseDatasetList } from "../kit/datasets.mjs";
import { nothingToDo, playedText, plural } from "../kit/run-status.mjs";

const VB = 400; // the drawing's own units (viewBox); the plot area is a square inside
const AREA = { left: 34, top: 8, size: 358 };
const RING_R = 10;
const MARK_R = 6; // half-width of a point's mark (+ or -)
/** The most points the reader's edited data (and so a link) may hold. */
export const MAX_POINTS = 200;

let instances = 0;

// ---------------------------------------------------------------------------------------
// Small functions

/** A number for people: integers as they are, others with 4 significant digits. */
export function num(v, digits = 4) {
  if (v === null || v === undefined) return "\u2013";
  if (v === 0 || Object.is(v, -0)) return "0";
  if (Number.isInteger(v) && Math.abs(v) < 1e9) return String(v);
  if (Math.abs(v) >= 1e6) return v.toExponential(2).replace("e+", "e");
  return String(Number(v.toPrecision(digits)));
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
  return parseDatasetList(text, "data sets", (d, k) => checkEntry(d, k, "{name, X, y, theta, theta0, gamma}", () => {
    const [X, y] = core.checkData(d.X, d.y);
    if (X[0].length !== 2) throw new Error(`the demo draws 2-D data, but X has ${X[0].length} features`);
    const margins = core.liftedMargins(X, y, d.theta, d.theta0); // checks the separator
    if (d.theta[0] === 0 && d.theta[1] === 0) throw new Error("theta is zero: the reference separator has no line");
    const R = core.liftedRadius(X);
    core.checkGamma(d.gamma);
    if (d.gamma > R) throw new Error(`gamma must be at most R = ${R}, got ${d.gamma}`);
    const gammaOpt = d.gammaOpt === null || d.gammaOpt === undefined ? null : d.gammaOpt;
    if (gammaOpt !== null && !(typeof gammaOpt === "number" && gammaOpt > 0)) throw new Error(`gammaOpt must be a positive number or null, got ${gammaOpt}`);
    const test = heldOutOf(d, core.checkHeldOut, 2);
    return { name: datasetName(d, k), X, y,
      theta: [d.theta[0], d.theta[1]], theta0: d.theta0, gamma: d.gamma, gammaOpt, R, margins, test };
  }));
}

/**
 * The reader's points [[x1, x2, label], ...] checked (from an edit or from a link): at
 * least one and at most MAX_POINTS, finite, inside the view, labels +1 or -1.  Returns
 * them; throws an Error saying what is wrong.
 */
export function checkPoints(points, view) {
  if (!Array.isArray(points) || points.length === 0 || points.length > MAX_POINTS) {
    throw new Error(`its points must be a list of 1 to ${MAX_POINTS} points`);
  }
  const tol = 1e-9 * view.span;
  return points.map((q, i) => {
    if (!Array.isArray(q) || q.length !== 3 || !q.every((v) => typeof v === "number" && Number.isFinite(v))) {
      throw new Error(`point ${i + 1} is not [x1, x2, label] with finite numbers`);
    }
    if (q[2] !== 1 && q[2] !== -1) throw new Error(`point ${i + 1} has label ${q[2]}, not +1 or -1`);
    if (q[0] < view.x0 - tol || q[0] > view.x1 + tol || q[1] < view.y0 - tol || q[1] > view.y1 + tol) {
      throw new Error(`point ${i + 1} lies outside the plot`);
    }
    return [q[0], q[1], q[2]];
  });
}

/** The data set base with the reader's points instead of its own (the reference kept). */
function withPoints(base, points) {
  const X = points.map((q) => [q[0], q[1]]);
  const y = points.map((q) => q[2]);
  return { ...base, X, y, R: core.liftedRadius(X), margins: core.liftedMargins(X, y, base.theta, base.theta0),
    gammaOpt: null, edited: true };
}

function readOptions(root) {
  const ds = root.dataset;
  const mu = Number(ds.mu ?? 0);
  if (!core.MUS.includes(mu)) throw new Error(`data-mu must be one of the slider's values (${core.MUS.join(", ")}), got "${ds.mu}"`);
  const tau = Number(ds.tau ?? 100);
  if (!Number.isInteger(tau) || tau <= 0) throw new Error(`data-tau must be a positive integer (number of epochs), got "${ds.tau}"`);
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
    // Undo takes back an edit of the points or a change of data set, mu or gamma; its
    // snapshot is what a link holds, and the point that was selected.
    this.history = new EditHistory({
      key: this.key,
      snapshot: (what) => ({ what, state: this.urlStateObject(), selected: this.selected }),
      stateObject: () => this.urlStateObject(),
    });
    this.edited = null; // the data set shown with the reader's points, or null
    this.newLabel = 1; // the label of a point added by a click or by the key a
    this.selected = -1; // the selected point
    this.pointEls = [];
    this.gammaDrags = 0; // one drag of the gamma slider is one edit
    const opts = readOptions(root);
    this.tau = opts.tau;
    if (!root.dataset.datasets) throw new Error("data-datasets is missing");
    this.datasets = parseDatasets(root.dataset.datasets);
    // What the reader has chosen, in one plain object (getState / setState).
    this.initialMu = opts.mu;
    this.choice = { dataset: 0, mu: opts.mu, gamma: this.datasets[0].gamma, steps: 0, points: null };
    this.active = false;
    this.run = null;
    this.frame = root.querySelector(":scope > .md-frame");
    if (!this.frame) {
      this.frame = el("div", { class: "md-frame" });
      root.append(this.frame);
    }
    this.build();
    this.undoRedo.render();
    this.loadDataset(0, null);
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

  /** The data shown: the chosen data set, or the reader's edited version of it. */
  get data() { return this.edited ?? this.datasets[this.choice.dataset]; }

  // -- building the interface (once) ----------------------------------------------------
  build() {
    const r = this.root;
    groupRoot(r, "Margin perceptron and mistake bound demo");
    const id = (s) => `${this.uid}-${s}`;

    const controls = el("div", { class: "demo-controls demo-controls-rows demo-area-controls" });
    const { line: dsLine, select } = datasetLine(id("data"), this.datasets.map((d) => d.name));
    this.select = select;

    const slider = (key, text, min, max, hint) => {
      const { line, input, out } = sliderLine(id(key), text, min, max, { nameClass: "demo-name md-symbol", describedBy: id(`${key}-hint`) });
      const p = el("p", { class: "demo-hint", id: id(`${key}-hint`) }, hint);
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
    this.bestButton = el("button", { type: "button", class: "demo-button md-best", "aria-keyshortcuts": "b", title: "the \u03b3 with the smallest bound for the examples visited (key b)" }, "Best \u03b3");
    this.bestButton.append(el("kbd", { "aria-hidden": "true" }, "b"));
    gLine.append(this.bestButton);
    // editing: the label of new points (a radio group) and Undo
    const editLine = el("div", { class: "demo-line demo-edits" });
    const newName = el("span", { class: "demo-name", id: id("newlabel") }, "New");
    newName.append(el("span", { class: "md-wide-only" }, " point"));
    editLine.append(newName);
    const group = el("div", { class: "demo-labels", role: "radiogroup", "aria-labelledby": id("newlabel") });
    this.radios = {};
    for (const [value, text] of [[1, "+1"], [-1, "\u22121"]]) {
      const lab = el("label", { class: `demo-radio ${value > 0 ? "demo-radio-pos" : "demo-radio-neg"}`, title: "the label of the points a click adds (keys + and \u2212)" });
      const input = el("input", { type: "radio", name: id("label"), value: String(value) });
      if (value === 1) input.checked = true;
      lab.append(input, el("span", {}, text));
      group.append(lab);
      this.radios[value] = input;
    }
    this.undoRedo = new UndoRedo({
      history: this.history, root: r, prefix: "md", what: "the last edit of the points, the data set, \u03bc or \u03b3",
      fallback: () => this.layer, restore: (snap) => this.putBack(snap), told: (done, snap) => `${done}: ${snap.what}. ${this.where()}`,
      say: (t) => this.say(t), focused: (i) => this.select_(i, false),
    });
    editLine.append(group, this.undoRedo.buttons.undo, this.undoRedo.buttons.redo);
    controls.append(dsLine, editLine, muLine, muHint, gLine, gHint);

    const row = buttonRow("Train the margin perceptron", "md", trainingButtons({ step: "visit the next example", run: "run until an epoch without an update or \u03c4 epochs", reset: "start again from \u03b8 = 0" }), "demo-buttons demo-area-buttons");
    const buttons = row.element;
    this.buttons = row.buttons;

    const figure = el("div", { class: "demo-figure demo-area-figure" });
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
    this.ring = svg("circle", { class: "md-ring", r: RING_R + 5, visibility: "hidden" });
    this.shade = shade.linearShade(defs, this.uid); // the plane shaded by the score
    clipped.append(this.shade.element, this.muBand, this.gammaEdges, this.reference, this.boundary, this.deficientG, this.ring);
    this.ticksG = svg("g", { class: "md-ticks", "aria-hidden": "true" });
    this.plot.append(svg("rect", { class: "md-bg", x: AREA.left, y: AREA.top, width: AREA.size, height: AREA.size }),
      defs, this.gridG, clipped, this.ticksG,
      svg("rect", { class: "md-frame-rect", x: AREA.left, y: AREA.top, width: AREA.size, height: AREA.size }));
    // the points, on a layer of their own over the drawing: a group of buttons
    this.layer = svg("svg", { class: "md-layer demo-points", viewBox: `0 0 ${VB} ${VB}`, role: "group", tabindex: "-1",
      "aria-label": "Data points. Click or tap to add a point, drag one to move it." });
    this.pointsG = svg("g");
    this.layer.append(svg("rect", { class: "demo-hitarea", x: AREA.left, y: AREA.top, width: AREA.size, height: AREA.size }), this.pointsG);
    const stage = el("div", { class: "demo-stage" });
    stage.append(this.plot, this.layer);
    this.tip = tips.attachPointTip({
      stage, layer: this.layer, count: () => this.data.X.length,
      pointAt: (i) => [this.sx(this.data.X[i][0]), this.sy(this.data.X[i][1])], lines: (i) => this.tipLines(i),
    });
    const legend = el("p", { class: "demo-legend", "aria-hidden": "true" });
    legend.innerHTML =
      '<span><span class="demo-key demo-key-pos">+</span> y = +1</span>' +
      '<span><span class="demo-key demo-key-neg">\u2212</span> y = \u22121</span>' +
      '<span><span class="demo-key demo-key-line"></span> \u03b8 (current)</span>' +
      '<span><span class="demo-key md-key-band"></span> y\u00b7score \u2264 \u03bc</span>' +
      '<span><span class="demo-key md-key-ref"></span> reference u</span>' +
      '<span><span class="demo-key md-key-edge"></span> margin \u03b3</span>' +
      '<span><span class="demo-key md-key-def"></span> d\u1d62 &gt; 0</span>' +
      '<span><span class="demo-key demo-key-ring"></span> last visited</span>' +
      '<span><span class="demo-key demo-key-ring-dashed"></span> last visited, updated</span>';
    this.scoreKey = shade.scoreLegend("score \u03b8\u00b7x + \u03b8\u2080");
    legend.prepend(this.scoreKey);
    figure.append(stage, legend);

    this.status = el("p", { class: "demo-status demo-area-status", "aria-live": "polite", "aria-atomic": "true" });
    ({ player: this.player, controls: this.playCtl } = addPlayer({
      root: this.root, toolbar: buttons, status: this.status, prefix: "md", uid: this.uid, what: "the margin perceptron",
      tick: () => this.playTick(), canPlay: () => this.begin(), onStop: (why) => this.played(why),
    }));
    this.buttons.play = this.playCtl.button;
    this.chartHost = el("div", { class: "demo-chart demo-chart-steady demo-area-chart" });
    this.chart = createEpochChart(this.chartHost, { title: "Updates per epoch, and training mistakes after each epoch" });

    const readout = el("div", { class: "demo-readout demo-area-readout" });
    const dl = el("dl", { class: "demo-values demo-values-wide" });
    this.out = {};
    for (const [key, text] of [
      ["pass", "epoch"],
      ["counts", "updates"],
      ["hyp", "\u03b8, \u03b8\u2080"],
      ["margin", "margin of \u03b8"],
      ["radius", "R (lifted)"],
      ["deficiency", "D, one epoch"],
      ["bound1", "bound, one epoch"],
      ["boundNow", "bound so far"],
      ["state", "state"],
    ]) {
      const row = el("div", { class: `demo-row md-row-${key}` });
      const dd = el("dd");
      row.append(el("dt", {}, text), dd);
      dl.append(row);
      this.out[key] = dd;
    }
    const help = helpBox([
      ...points.helpLines(),
      "s Step, e Epoch, r Run, p Play or Pause (one update at a time; any other key or click pauses it), 0 Reset, b Best \u03b3, whenever the focus is in the demo; Tab reaches every control and arrow keys move the sliders.",
      "Changing the points starts the run again from \u03b8 = 0, and takes it to its end if it had ended. Edited data keep the reference separator, the view, \u03b3 and the held-out test set.",
      ...UNDO_HELP,
      "The margin perceptron starts from \u03b8 = 0, \u03b8\u2080 = 0 and updates \u03b8 \u2190 \u03b8 + y x, \u03b8\u2080 \u2190 \u03b8\u2080 + y whenever y(\u03b8\u1d40x + \u03b8\u2080) \u2264 \u03bc. A mistake is y(\u03b8\u1d40x + \u03b8\u2080) \u2264 0. A new \u03bc or data set starts again from \u03b8 = 0.",
      "The offset is handled by lifting, as in chapter 4: each point becomes (x, 1), R is the largest norm of the lifted points and the reference separator (u, u\u2080) is scaled to a unit vector of the lifted space. Its margin on point i is m\u1d62 = y\u1d62(u\u1d40x\u1d62 + u\u2080)/\u2016(u, u\u2080)\u2016 and its deficiency d\u1d62 = max(0, \u03b3 \u2212 m\u1d62).",
      "D = \u221a(\u03a3 d\u1d62\u00b2). Freund and Schapire: the perceptron (\u03bc = 0) makes at most ((R + D)/\u03b3)\u00b2 mistakes on any sequence, D taken over that sequence; the examples visited so far count once per visit. For \u03bc > 0 the same argument bounds the updates by ((\u221a(R\u00b2 + 2\u03bc) + D)/\u03b3)\u00b2.",
      "The margin of \u03b8 is its geometric margin min y\u1d62(\u03b8\u1d40x\u1d62 + \u03b8\u2080)/\u2016\u03b8\u2016 (chapter 3), set against \u03b3_opt, the largest margin of any separator, where the data are separable.",
    ], {
      summary: "The numbers, and the keys",
      wrap: true,
      item: (t) => {
        const li = el("li");
        li.append(subscripted(t));
        return li;
      },
    });
    readout.append(dl, help);

    this.ui = el("div", { class: "demo-ui" });
    this.ui.append(controls, buttons, figure, this.status, this.chartHost, readout);

    this.select.addEventListener("change", () => {
      const k = Number(this.select.value);
      this.change(null, `the data set \u201c${this.datasets[k].name}\u201d`, { dataset: k, steps: 0, points: null }, "dataset");
    });
    this.muInput.addEventListener("input", () => this.change(null, "the change of \u03bc", { mu: core.MUS[Number(this.muInput.value)], steps: 0 }, "mu"));
    // a drag of the gamma slider is one edit and one history entry: pushed first, replaced
    // while it moves
    this.gammaInput.addEventListener("input", () => this.change(`gamma${this.gammaDrags}`, "the change of \u03b3", { gamma: this.gammaAt(Number(this.gammaInput.value)) }, "gamma"));
    this.gammaInput.addEventListener("change", () => { this.gammaDrags += 1; });
    this.gammaInput.addEventListener("blur", () => { this.gammaDrags += 1; });
    for (const [value, input] of Object.entries(this.radios)) {
      input.addEventListener("change", () => { if (input.checked) this.setLabel(Number(value)); });
    }
    points.attachPlotPointer(this.layer, {
      prefix: "md", area: AREA, view: () => this.view, at: (i) => this.data.X[i],
      press: (i) => this.pressPoint(i),
      move: (i, p, tag) => this.movePoint(i, p, tag),
      dragged: (i) => this.say(`Point ${i + 1} moved to ${this.at(this.data.X[i])}; ${this.editedText()}`),
      add: (p, shift) => this.addPoint(p, shift ? -this.newLabel : this.newLabel),
    });
    this.layer.addEventListener("focusin", (e) => {
      const g = e.target.closest?.(".md-pt");
      if (g) this.select_(Number(g.dataset.i), false);
    });
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
    this.observer = whenSeen(this.root, () => this.activate());
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
  getState() {
    const c = this.choice;
    return { ...c, points: c.points ? c.points.map((q) => q.slice()) : null };
  }

  /**
   * Set any of {dataset, mu, gamma, steps, points}; the run is replayed to `steps` steps.
   * points: null (the data set as the chapter gives it) or the reader's points
   * [[x1, x2, label], ...] in place of the data set's; the reference separator and the
   * view stay the data set's.  A new data set without points given shows its own.
   */
  setState(change, why = null) {
    const c = { ...this.choice, ...change };
    if (!Number.isInteger(c.dataset) || c.dataset < 0 || c.dataset >= this.datasets.length) throw new Error(`no data set ${c.dataset}`);
    if (!core.MUS.includes(c.mu)) throw new Error(`mu must be one of ${core.MUS.join(", ")}, got ${c.mu}`);
    const newSet = c.dataset !== this.choice.dataset;
    if (newSet) this.selected = -1;
    if (newSet && !("points" in change)) c.points = null;
    if (newSet && !("gamma" in change)) c.gamma = this.datasets[c.dataset].gamma;
    const base = this.datasets[c.dataset];
    const newPoints = newSet || c.points !== this.choice.points;
    let edited = newPoints ? null : this.edited;
    if (newPoints && c.points !== null) {
      c.points = checkPoints(c.points, this.viewOf(base));
      edited = withPoints(base, c.points);
    }
    const R = (edited ?? base).R;
    // an edit that shrinks R takes gamma with it; a gamma asked for must fit
    if (newPoints && !("gamma" in change) && c.gamma > R) c.gamma = R;
    core.checkGamma(c.gamma);
    if (c.gamma > R) throw new Error(`gamma must be at most R = ${R}`);
    if (!Number.isInteger(c.steps) || c.steps < 0) throw new Error(`steps must be a whole number >= 0, got ${c.steps}`);
    const newRun = newPoints || c.mu !== this.choice.mu || !this.run || c.steps < this.run.steps;
    this.choice = c;
    if (newRun) this.loadDataset(c.dataset, edited);
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

  /** A change the reader makes (Undo can take it back; the URL gets a history entry). */
  change(tag, what, change, why) {
    this.history.edit(tag, what, () => this.setState(change, why));
    this.undoRedo.render();
  }

  /** The view of a data set: the square around its own points (edits do not move it). */
  viewOf(base) {
    if (!base.view) {
      const v = viewBox(base.X);
      v.step = niceStep(v.span);
      v.snap = v.step / 10; // added and moved points land on a 1/10 grid
      base.view = v;
    }
    return base.view;
  }

  loadDataset(k, edited) {
    this.choice.dataset = k;
    this.edited = edited;
    const view = this.viewOf(this.datasets[k]);
    if (view !== this.view) {
      this.view = view;
      this.drawView();
    }
    this.run = null;
    this.numbersMemo = null;
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
    if (this.data.edited) return `${plural(n, "point")} (edited), ${pos} labelled +1 and ${n - pos} labelled \u22121`;
    const sep = this.data.gammaOpt === null ? "not linearly separable" : `separable, best margin ${num(this.data.gammaOpt)}`;
    return `${plural(n, "point")}, ${pos} labelled +1 and ${n - pos} labelled \u22121, ${sep}`;
  }

  // -- numbers --------------------------------------------------------------------------------
  /** Every number the readout shows, computed once for each state of the demo. */
  numbers() {
    const r = this.active ? this.ensureRun() : null;
    const key = `${this.choice.gamma}|${this.choice.mu}|${r ? r.steps : -1}`;
    if (this.numbersMemo && this.numbersMemo.key === key && this.numbersMemo.data === this.data) return this.numbersMemo.value;
    const value = this.computeNumbers(r);
    this.numbersMemo = { key, data: this.data, value };
    return value;
  }

  computeNumbers(r) {
    const d = this.data;
    const g = this.choice.gamma;
    // d_i = max(0, gamma - m_i), m_i the lifted margins found once per data set
    // (margin-core.mjs deficiencies() does the same from X, y and the separator)
    const defs = d.margins.map((m) => Math.max(0, g - m));
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
    return `Bound on ${what} for one epoch: ${num(v.bound1)}` + (v.visited ? `; for the ${plural(v.visited, "visit")} so far: ${num(v.boundNow)}, against ${v.updates} ${this.choice.mu === 0 ? "mistakes" : "updates"}.` : ".");
  }

  // -- coordinates ------------------------------------------------------------------------
  sx(x) { return AREA.left + ((x - this.view.x0) / this.view.span) * AREA.size; }
  sy(y) { return AREA.top + ((this.view.y1 - y) / this.view.span) * AREA.size; }
  /** The data coordinates of the drawing's point (X, Y). */
  toData(X, Y) {
    const v = this.view;
    return [v.x0 + ((X - AREA.left) / AREA.size) * v.span, v.y1 - ((Y - AREA.top) / AREA.size) * v.span];
  }

  /** The tooltip of point i: its score, margin and whether an update (y score <= mu) is due. */
  tipLines(i) {
    const v = this.numbers();
    const mu = this.choice.mu;
    const facts = tips.linearFacts(this.data.X[i], this.data.y[i], v.theta, v.theta0, mu);
    return tips.tipLines(i, this.data.y[i], facts, { fmt: (x) => num(x), threshold: mu === 0 ? "0" : `\u03bc = ${num(mu)}` });
  }

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
    // the plane shaded by the current score, capped at the data's largest |score|
    const score = (x) => t1 * x[0] + t2 * x[1] + v.theta0;
    const cap = t1 === 0 && t2 === 0 ? 0 : shade.scoreCap(d.X.map(score));
    this.shade.update((X, Y) => score(this.toData(X, Y)), cap, { x: AREA.left, y: AREA.top, w: AREA.size, h: AREA.size });
    this.scoreKey.setCap(cap);
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
    this.tip.refresh();
    if (this.active && this.run) {
      const test = this.data.test ?? null;
      const { rows, partial } = core.marginEpochTotals(this.run, test);
      this.chart.update(rows, partial, { testSize: test ? test.X.length : null });
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
    if (d.test) {
      // the held-out test set: the examples the current hypothesis gets wrong
      const k = core.errors(d.test.X, d.test.y, v.theta, v.theta0);
      o.counts.textContent += `; held out: ${k} of ${d.test.X.length} wrong`;
    }
    o.hyp.textContent = show(`(${num(v.theta[0], 3)}, ${num(v.theta[1], 3)}), ${num(v.theta0, 3)}`);
    const opt = d.edited ? "data edited" : d.gammaOpt === null ? "not separable" : `\u03b3_opt ${num(d.gammaOpt)}`;
    o.margin.replaceChildren(subscripted(show(`${num(v.margin)}; ${opt}`)));
    o.radius.textContent = this.choice.mu === 0 ? num(d.R) : show(`${num(d.R)}; with \u03bc: ${num(v.Rmu)}`);
    o.deficiency.textContent = `${num(v.D1)}; d\u1d62 > 0: ${this.deficientCount()} of ${n}`;
    o.bound1.textContent = num(v.bound1);
    o.boundNow.textContent = `${num(v.boundNow)} \u2265 ${v.updates} ${this.choice.mu === 0 ? "mistakes" : "updates"}`;
    if (r && r.converged) o.state.textContent = `converged in epoch ${r.t}`;
    else if (r && r.stopped) o.state.textContent = `stopped: ${this.tau} epochs`;
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
    parts.push(v.margin === null && v.theta[0] === 0 && v.theta[1] === 0 ? "no current boundary yet (\u03b8 = 0)" : `the current boundary solid, the band where y times the score is at most \u03bc = ${num(this.choice.mu)} shaded, and the plane tinted by the score, blue where it is positive, orange where negative`);
    return show(parts.join("; ") + ".");
  }

  say(text) {
    this.status.textContent = forPeople(text);
  }

  // -- the URL ------------------------------------------------------------------------------
  urlStateObject() {
    const c = this.choice;
    const st = { v: 1, d: c.dataset, m: c.mu, g: c.gamma, s: c.steps };
    if (c.points) st.p = c.points.map((q) => q.slice());
    return st;
  }

  saveUrl(mode) {
    this.history.save(mode);
  }

  /** A state read from the URL, checked field by field; throws saying what is wrong. */
  checkUrlState(st) {
    if (st.v !== 1) throw new Error(`its version ${JSON.stringify(st.v)} is not 1`);
    const out = { dataset: 0, mu: this.initialMu, gamma: null, steps: 0, points: null };
    if (st.d !== undefined) {
      if (!Number.isInteger(st.d) || st.d < 0 || st.d >= this.datasets.length) throw new Error(`there is no data set ${JSON.stringify(st.d)}`);
      out.dataset = st.d;
    }
    const base = this.datasets[out.dataset];
    let R = base.R;
    let n = base.y.length;
    if (st.p !== undefined) {
      out.points = checkPoints(st.p, this.viewOf(base));
      R = core.liftedRadius(out.points.map((q) => [q[0], q[1]]));
      n = out.points.length;
    }
    out.gamma = Math.min(base.gamma, R);
    if (st.m !== undefined) {
      if (!core.MUS.includes(st.m)) throw new Error(`its \u03bc ${JSON.stringify(st.m)} is not one of the slider's`);
      out.mu = st.m;
    }
    if (st.g !== undefined) {
      if (typeof st.g !== "number" || !(st.g > 0) || st.g > R) throw new Error(`its \u03b3 ${JSON.stringify(st.g)} is not between 0 and R`);
      out.gamma = st.g;
    }
    if (st.s !== undefined) {
      if (!Number.isInteger(st.s) || st.s < 0 || st.s > this.tau * n) throw new Error(`its step position ${JSON.stringify(st.s)} is out of range`);
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
      this.say(`Restored from the link: \u201c${this.data.name}\u201d${c.points ? `, ${this.describeData()}` : ""}, \u03bc = ${num(c.mu)}, \u03b3 = ${num(c.gamma)}` +
        (c.steps ? `, after ${plural(c.steps, "step")}.` : "."));
    } catch (err) {
      this.say(`The link's saved state for this demo was ignored: ${err.message}.`);
    }
  }

  onHistory({ state: st, error }) {
    this.history.forget();
    let text;
    try {
      const c = this.checkUrlState(st || { v: 1 });
      this.run = null;
      this.undoRedo.keeping(() => this.setState(c));
      text = st ? "Back to an earlier state" : "Back to the start";
    } catch (err) {
      text = `The saved state for this demo was ignored: ${err.message}`;
    }
    if (error) text = error;
    this.undoRedo.render();
    this.say(`${text}: \u201c${this.data.name}\u201d${this.data.edited ? `, ${this.describeData()}` : ""}, \u03bc = ${num(this.choice.mu)}, \u03b3 = ${num(this.choice.gamma)}.`);
  }

  // -- editing (point-editor.mjs, as in every chapter's demo) ---------------------------------
  /** The points shown, as [x1, x2, label] (a copy). */
  pointsNow() {
    const { X, y } = this.data;
    return X.map((x, i) => [x[0], x[1], y[i]]);
  }

  /** A point's coordinates for people: "(x1, x2)". */
  at(x) {
    return show(`(${num(x[0])}, ${num(x[1])})`);
  }

  /**
   * Show the reader's points pts instead of the data's (an edit: Undo, a history entry;
   * edits with the same tag in a row are one).  The run starts again from theta = 0, and
   * goes to its end at once if it had ended.
   */
  editPoints(tag, what, pts) {
    this.ranToEnd = Boolean(this.active && this.run && this.run.done);
    this.change(tag, what, { points: pts, steps: this.ranToEnd ? this.tau * pts.length : 0 });
  }

  /** What an edit did to the run, for the status line. */
  editedText() {
    if (this.ranToEnd && this.run) return `the run starts again and goes to its end: ${this.outcomeText()}`;
    return `\u03b8 = 0 again. ${this.boundText()}`;
  }

  /** Add a point at p = [x1, x2] (data coordinates) with the label; an edit. */
  addPoint(p, label = this.newLabel) {
    const n = this.data.y.length;
    if (n >= MAX_POINTS) {
      this.say(`The demo holds at most ${MAX_POINTS} points; remove some first.`);
      return false;
    }
    const v = this.view;
    const q = [roundTo(p[0], v.snap), roundTo(p[1], v.snap), label > 0 ? 1 : -1];
    try {
      checkPoints([q], v);
    } catch {
      this.say("A new point must lie inside the plot.");
      return false;
    }
    const focus = this.root.contains(document.activeElement);
    this.editPoints(null, `adding the point ${this.at(q)}`, [...this.pointsNow(), q]);
    this.select_(n, focus);
    this.say(`Added a point at ${this.at(q)} labelled ${labelText(q[2])}: ${this.describeData()}; ${this.editedText()}`);
    return true;
  }

  /** Remove point i (from 0); an edit. */
  removePoint(i) {
    const pts = this.pointsNow();
    if (!Number.isInteger(i) || i < 0 || i >= pts.length) return false;
    if (pts.length === 1) {
      this.say("The last point stays: the margin perceptron needs at least one example.");
      return false;
    }
    if (pts.length - 1 > MAX_POINTS) {
      this.say(`The demo edits data sets of at most ${MAX_POINTS} points.`);
      return false;
    }
    const focus = this.root.contains(document.activeElement);
    const [q] = pts.splice(i, 1);
    this.editPoints(null, `removing the point ${this.at(q)}`, pts);
    this.select_(Math.min(i, pts.length - 1), focus);
    this.say(`Removed the point at ${this.at(q)} labelled ${labelText(q[2])}: ${this.describeData()}; ${this.editedText()}`);
    return true;
  }

  /** Move point i to p; moves with the same tag in a row are one edit (a drag, arrow keys). */
  movePoint(i, p, tag = null) {
    const pts = this.pointsNow();
    pts[i] = [p[0], p[1], pts[i][2]];
    this.editPoints(tag, `moving point ${i + 1}`, pts);
  }

  flipLabel(i) {
    const pts = this.pointsNow();
    pts[i][2] = -pts[i][2];
    this.editPoints(null, `changing the label of point ${i + 1}`, pts);
    this.say(`Point ${i + 1} now has label ${labelText(pts[i][2])}; ${this.editedText()}`);
  }

  /** Put back a snapshot of Undo or Redo, with the point that was selected. */
  putBack(snap) {
    this.selected = -1;
    this.setState(this.checkUrlState(snap.state));
    if (snap.selected >= 0 && snap.selected < this.data.y.length) this.select_(snap.selected, false);
  }

  /** The data set, the reader's points, mu, gamma and the step, for the status line. */
  where() {
    return `${this.describeData()}, \u03bc = ${num(this.choice.mu)}, \u03b3 = ${num(this.choice.gamma)}` +
      (this.choice.steps ? `, after ${plural(this.choice.steps, "step")}.` : ".");
  }

  setLabel(v) {
    this.newLabel = v > 0 ? 1 : -1;
    this.radios[this.newLabel].checked = true;
    this.say(`New points get the label ${labelText(this.newLabel)}.`);
  }

  /** Point i moved by an arrow key to p (the moves of one point in a row are one edit). */
  moveByKey(i, p, tag) {
    this.movePoint(i, p, tag);
    this.say(`Point ${i + 1} at ${this.at(p)}; ${this.editedText()}`);
  }

  /** A press on a point selects it (and focuses it). */
  pressPoint(i) {
    this.select_(i, true);
    this.say(`Point ${i + 1} at ${this.at(this.data.X[i])}, label ${labelText(this.data.y[i])}: drag it, or press Delete, Enter or an arrow key.`);
  }

  /** Select point i (-1: none), and focus it if asked; above 40 points it gets the Tab stop. */
  select_(i, focus) {
    this.selected = points.selectPoint(this.pointEls, "md", this.selected, i, focus);
  }

  /** The points' elements (point-editor.mjs), made anew only when their number changes. */
  drawPoints() {
    const { X, y } = this.data;
    if (this.pointEls.length !== X.length) {
      this.pointEls = X.map((_, i) => points.pointGroup("md", i, y[i], MARK_R));
      this.pointsG.replaceChildren(...this.pointEls);
    }
    if (this.selected >= X.length) this.selected = -1;
    X.forEach((x, i) => {
      const g = this.pointEls[i];
      points.setPointLabel(g, "md", y[i], MARK_R);
      g.setAttribute("transform", `translate(${this.sx(x[0]).toFixed(2)} ${this.sy(x[1]).toFixed(2)})`);
      g.setAttribute("aria-label", points.pointName(i, this.at(x), y[i]));
      g.classList.toggle("demo-selected", i === this.selected);
      g.classList.toggle("md-selected", i === this.selected);
    });
    points.setTabStops(this.pointEls, this.selected);
  }

  // -- actions ------------------------------------------------------------------------------
  outcomeText() {
    const r = this.run;
    const v = this.numbers();
    const b = `bound so far ${num(v.boundNow)}`;
    if (r.converged) return `Converged in epoch ${r.t} after ${plural(r.updates, "update")} (${plural(r.mistakes, "mistake")}); ${b}.`;
    if (r.stopped) return `Stopped after \u03c4 = ${this.tau} epochs without a clean one: ${plural(r.updates, "update")}, ${plural(r.mistakes, "mistake")}; ${b}.`;
    return `${plural(r.updates, "update")} and ${plural(r.mistakes, "mistake")} so far; ${b}.`;
  }

  begin() {
    this.activate();
    this.ensureRun();
    if (this.run.done) {
      this.say(nothingToDo(this.run));
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
    let text = `Epoch ${s.epoch}, example ${i + 1} (y = ${labelText(this.data.y[i])}): y\u00b7score = ${num(yx)}, `;
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
    this.finish(`Epoch ${t}: ${plural(this.run.updates - before, "update")}. ${this.outcomeText()}`);
    return s;
  }

  runAll() {
    if (!this.begin()) return null;
    let s = null;
    while (!this.run.done) s = this.stepRun();
    this.finish(this.outcomeText());
    return s;
  }

  /** Play's tick: visit examples up to the next update (or the end of the run), draw it. */
  playTick() {
    if (!this.run || this.run.done) return false;
    let s;
    do s = this.stepRun(); while (s && !s.update && !this.run.done);
    this.choice.steps = this.run.steps;
    this.render();
    let text = s && s.update
      ? `Epoch ${s.epoch}, example ${s.index + 1}: ${s.mistake ? "a mistake" : `correct but not above \u03bc = ${num(this.choice.mu)}`}, update.`
      : "No update.";
    if (this.run.done) text += ` ${this.outcomeText()}`;
    this.say(text);
    return !this.run.done;
  }

  /** Playing stopped: the URL follows the run, and the status line says where it is. */
  played(why) {
    this.saveUrl("replace");
    const text = playedText(why, this.player.ticks, () => this.outcomeText());
    if (text !== null) this.say(text);
  }

  reset() {
    this.activate();
    this.run = null;
    this.ensureRun();
    this.choice.steps = 0;
    this.render();
    this.say("Reset: \u03b8 = 0 and \u03b8\u2080 = 0, epoch 1.");
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
    this.change(null, "Best \u03b3", { gamma: best.gamma });
    const v = this.numbers();
    this.say(`Best \u03b3 for ${counts ? `the ${plural(v.visited, "visit")} so far` : "one epoch"}: \u03b3 = ${num(best.gamma)}, bound ${num(counts ? v.boundNow : v.bound1)}.`);
    return best.gamma;
  }

  onKey(e) {
    const t = e.target;
    const typing = t.tagName === "SELECT" || t.tagName === "TEXTAREA";
    if (!typing && this.undoRedo.onKey(e)) return;
    if (e.ctrlKey || e.metaKey || e.altKey || typing) return;
    const pt = t.closest ? t.closest(".md-pt") : null;
    if (pt && points.editByKey(e, Number(pt.dataset.i), { view: this.view, at: (i) => this.data.X[i],
      remove: (i) => this.removePoint(i), flip: (i) => this.flipLabel(i), move: (i, p, tag) => this.moveByKey(i, p, tag) })) return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const n = this.data.y.length;
    const actions = { s: () => this.step(), e: () => this.epoch(), r: () => this.runAll(), 0: () => this.reset(), b: () => this.bestGamma(),
      p: () => this.player.toggle(), a: () => this.addPoint(points.centreOf(this.view)),
      n: () => this.select_(points.nextPoint(this.selected, n, e.shiftKey), true),
      "+": () => this.setLabel(1), "-": () => this.setLabel(-1), "\u2212": () => this.setLabel(-1) };
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
      test: this.data.test ? { size: this.data.test.X.length, errors: core.errors(this.data.test.X, this.data.test.y, v.theta, v.theta0) } : null,
      history: r ? r.history.map((h) => ({ epoch: h.epoch, index: h.index, score: h.score })) : [],
      visits: r ? r.visits.slice() : new Array(this.data.y.length).fill(0),
      epochs: r ? r.epochs : 0,
      converged: r ? r.converged : false,
      stopped: r ? r.stopped : false,
      deficiencies: v.defs.slice(),
      D1: v.D1, Dnow: v.Dnow, bound1: v.bound1, boundNow: v.boundNow,
      margin: v.margin, gammaOpt: this.data.gammaOpt,
      deficientDrawn: this.deficientG.childElementCount,
      X: this.data.X.map((x) => x.slice()), y: this.data.y.slice(),
      edited: Boolean(this.data.edited), newLabel: this.newLabel, undoDepth: this.history.depth,
      redoDepth: this.history.redoDepth, selected: this.selected,
      chart: this.chart.values(),
      key: this.key,
      status: this.status.textContent,
      readout: Object.fromEntries(Object.entries(this.out).map(([k, dd]) => [k, dd.textContent])),
    };
  }
}

/**
 * When the demo is built: its markup and its data are made ready in idle time once it is
 * within a screen of the viewport (or at once when a test or the reader needs it), and its
 * arithmetic starts when it comes within 200 px (MarginDemo.startWhenSeen).  Nothing of it
 * runs while the page loads, so a chapter's first paint and input do not wait for it.
 */
const BUILD_MARGIN = "100% 0px";
const IDLE_TIMEOUT_MS = 1000;

function whenIdle(fn) {
  if (typeof requestIdleCallback === "function") requestIdleCallback(fn, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(fn, 1);
}

/**
 * Turn one element into a margin demo (once); returns its API object, which builds the
 * demo on first use if it is not built yet (null where the demo cannot start).
 */
export function mount(root) {
  if (root.marginDemo) return root.marginDemo;
  let md = null;
  let failed = null;
  const build = () => {
    if (md || failed) return md;
    try {
      md = new MarginDemo(root);
      root.dataset.mdBuilt = "true";
    } catch (err) {
      failed = err;
      showError(root, err, "margin demo", "md");
    }
    return md;
  };
  const use = (fn) => (...args) => {
    const demo = build();
    if (!demo) throw new Error(`the margin demo could not start: ${failed.message}`);
    return fn(demo, ...args);
  };
  root.marginDemo = {
    step: use((d) => d.step()),
    epoch: use((d) => d.epoch()),
    run: use((d) => d.runAll()),
    reset: use((d) => d.reset()),
    play: use((d) => d.player.play()),
    pause: use((d) => d.player.pause()),
    setSpeed: use((d, v) => { d.player.setSpeed(v); d.playCtl.sync(); }),
    playing: () => Boolean(md && md.player.playing),
    bestGamma: use((d) => d.bestGamma()),
    activate: use((d) => d.activate()),
    getState: use((d) => d.getState()),
    setState: use((d, change) => d.setState(change)),
    snapshot: use((d) => d.snapshot()),
    undo: use((d) => d.undoRedo.undo()),
    redo: use((d) => d.undoRedo.redo()),
    addPoint: use((d, x, y, label) => d.addPoint([x, y], label)),
    removePoint: use((d, i) => d.removePoint(i)),
    setLabel: use((d, v) => d.setLabel(v)),
    urlState: use((d) => d.urlStateObject()),
    built: () => md !== null,
    flushUrl: () => urlState.flush(),
    /** Where the data point (x, y) is on the screen, in client pixels. */
    clientPoint: use((d, x, y) => {
      const q = new DOMPoint(d.sx(x), d.sy(y)).matrixTransform(d.plot.getScreenCTM());
      return [q.x, q.y];
    }),
  };
  if (typeof IntersectionObserver === "undefined") {
    build();
  } else {
    const near = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      near.disconnect();
      whenIdle(build);
    }, { rootMargin: BUILD_MARGIN });
    near.observe(root);
  }
  return root.marginDemo;
}

/** Mount every div.margin-demo of the document (at once when it is ready). */
export const mountAll = mountEvery("margin-demo", mount);
