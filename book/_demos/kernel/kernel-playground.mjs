// Chapter 6's kernel playground (no framework, no other host).
//
// Every <div class="kernel-playground"> on the page becomes one:
//
//   <div class="kernel-playground"
//        data-datasets='[{"name": "XOR corners", "X": [[1,1],[-1,-1],[1,-1],[-1,1]], "y": [1,1,-1,-1]}]'
//        data-kernel="polynomial"   (linear, polynomial or RBF: the kernel at the start)
//        data-degree="2"            (1 to 6)
//        data-gamma="1.0"           (one of the gamma slider's values, kernel-core.mjs GAMMAS)
//        data-coef0="1.0"           (the constant of the polynomial kernel)
//        data-tau="100">            (the most epochs a run makes)
//     <div class="kp-frame"><div class="kp-fallback">...</div></div>
//   </div>
//
// perceptron_lib.demos.kernel writes that element from the chapter's arrays.  The
// playground is built into .kp-frame at once (the stylesheet has kept its room), and its
// arithmetic (the Gram matrix, the run, the field of f over the plot) starts only when it
// comes near the screen.  All arithmetic is done by kernel-core.mjs, the module
// tests/test_kernel_playground_core.py compares with perceptron_lib.  Each element gets a
// small API in element.kernelPlayground (used by the tests).
//
// The reader edits the data as in chapter 1's playground (point-editor.mjs): a click or a
// tap adds a point with the chosen label (Shift: the other), a point is dragged, or
// reached with Tab and moved by the arrow keys, flipped by Enter or Space, removed by
// Delete.  An edit starts the run again from alpha = 0, and takes it to its end if it had
// ended (as every chapter's demo does); the data set's held-out test points are not the
// reader's to edit and stay as they were, so the test errors keep measuring the same
// thing.  Undo and Redo take edits back and put them back, the keyboard staying in the
// playground.
//
// The state (data set or the generator's settings, the reader's points, kernel, degree,
// gamma, step position) is kept in the page's URL under the element's id (url-state.mjs):
// a link reproduces it, Back returns to the state before the last change.  Below the plot,
// the run's updates per epoch (epoch-chart.mjs); in "Generate data", seeded data
// (generator.mjs) that perceptron_lib.make_demo_data also makes.

import { buttonRow, datasetLine, groupRoot, helpBox, mountEvery, showError, sliderLine, trainingButtons } from "../kit/demo-kit.mjs";
import * as core from "./kernel-core.mjs";
import { el, forPeople, labelText, niceStep, num, show, svg, whenSeen } from "../kit/dom.mjs";
import { createEpochChart } from "../kit/epoch-chart.mjs";
import { createGeneratorForm, generatedName } from "../kit/generator-form.mjs";
import * as gen from "../kit/generator.mjs";
import * as urlState from "../kit/url-state.mjs";
import { EditHistory, UNDO_HELP, UndoRedo } from "../kit/edit-history.mjs";
import { addPlayer } from "../kit/player.mjs";
import { viewFrom } from "../kit/plot-geometry.mjs";
import * as points from "../kit/point-editor.mjs";
import { checkEntry, datasetName, datasetWhere, heldOutOf, parseDatasetList } from "../kit/datasets.mjs";
import { nothingToDo, playedText, plural } from "../kit/run-status.mjs";
import * as shade from "../kit/score-shade.mjs";
import * as tips from "../kit/point-tip.mjs";

// The drawing's own units (viewBox); the plot area is a square inside it.  The field's
// canvas is placed over the same square by the stylesheet (kernel-playground.css).
const VB = 400;
const AREA = { left: 34, top: 8, size: 358 };
const CELLS = 90; // cells per side of the field of f
const SUPPORT_R = 11;
const MAX_LISTED = 200; // examples with alpha > 0 listed in the readout
const KIND_NAME = { linear: "linear", polynomial: "polynomial", RBF: "RBF" };
const MARK_R = 6; // half-width of a point's mark (+ or -)
const MAX_POINTS = gen.MAX_POINTS; // the reader's points the playground (and a link) holds
const MAX_COORD = 1e6; // |coordinate| a link may carry

const HELP = [
  ...points.helpLines(),
  "s Step, e Epoch, r Run, p Play or Pause (one update at a time; any other key or click pauses it), 0 Reset, whenever the focus is in the playground.",
  "Tab reaches every control; arrow keys move the sliders and choose the kernel. Moving the degree slider chooses the polynomial kernel, moving \u03b2 the RBF kernel.",
  "Changing the points, the kernel or the data set starts the run again from \u03b1 = 0, and takes it to its end if it had ended, so that the picture follows what you change.",
  "The held-out test points are not drawn and not yours to edit: they stay as they are, and the test errors are counted on them whatever you change.",
  ...UNDO_HELP,
  "Ringed points are the examples with \u03b1 > 0, the only ones f depends on.",
];

let instances = 0;

// ---------------------------------------------------------------------------------------
// Small functions

const vec = (v) => `(${v.map((a) => num(a, 3)).join(", ")})`;

const SHAPE = "{name, X, y}";

function parseDatasets(text) {
  return parseDatasetList(text, SHAPE, (d, k) => {
    checkEntry(d, k, SHAPE, () => {
      core.createKernelRun(d.X, d.y, { kind: "linear" }, 1); // checks shapes, numbers, labels
      if (d.X[0].length !== 2) throw new Error(`the playground draws 2-D data, but X has ${d.X[0].length} features`);
    });
    const test = heldOutOf(d, core.checkHeldOut, 2, datasetWhere(d, k));
    return { name: datasetName(d, k), X: d.X.map((r) => [r[0], r[1]]), y: d.y.slice(), test };
  });
}

function readOptions(root) {
  const ds = root.dataset;
  const kind = ds.kernel ?? "polynomial";
  if (!core.KERNELS.includes(kind)) throw new Error(`data-kernel must be one of ${core.KERNELS.join(", ")}, got "${kind}"`);
  const degree = Number(ds.degree ?? 2);
  if (!Number.isInteger(degree) || degree < core.MIN_DEGREE || degree > core.MAX_DEGREE) {
    throw new Error(`data-degree must be a whole number from ${core.MIN_DEGREE} to ${core.MAX_DEGREE}, got "${ds.degree}"`);
  }
  const gamma = Number(ds.gamma ?? 1);
  const gammaIndex = core.GAMMAS.indexOf(gamma);
  if (gammaIndex < 0) throw new Error(`data-gamma must be one of the slider's values (0.01 to 100), got "${ds.gamma}"`);
  const coef0 = Number(ds.coef0 ?? core.COEF0);
  if (!Number.isFinite(coef0)) throw new Error(`data-coef0 must be a number, got "${ds.coef0}"`);
  const tau = Number(ds.tau ?? 100);
  if (!Number.isInteger(tau) || tau <= 0) throw new Error(`data-tau must be a positive integer (number of epochs), got "${ds.tau}"`);
  return { spec: { kind, degree, gamma, coef0 }, gammaIndex, tau };
}

/** The reader's points from a link, [[x1, x2, label], ...], checked (the link is anyone's). */
function checkPoints(p) {
  if (!Array.isArray(p) || p.length === 0 || p.length > MAX_POINTS) throw new Error(`its points must be a list of 1 to ${MAX_POINTS}`);
  return p.map((q, i) => {
    if (!Array.isArray(q) || q.length !== 3 || !q.every((v) => typeof v === "number" && Number.isFinite(v))) {
      throw new Error(`point ${i + 1} is not [x1, x2, label] with finite numbers`);
    }
    if (Math.abs(q[0]) > MAX_COORD || Math.abs(q[1]) > MAX_COORD) throw new Error(`point ${i + 1} is too far out`);
    if (q[2] !== 1 && q[2] !== -1) throw new Error(`point ${i + 1} has label ${q[2]}, not +1 or -1`);
    return q;
  });
}

/** The segments of f = 0 between the cell centres (marching squares), as an SVG path. */
function contourPath(f, N, sx, sy, P) {
  const parts = [];
  const at = (q1, q2) => {
    const a = f[q1];
    const b = f[q2];
    const s = a / (a - b); // one of a, b is > 0 and the other <= 0
    return [sx(P[q1][0] + s * (P[q2][0] - P[q1][0])), sy(P[q1][1] + s * (P[q2][1] - P[q1][1]))];
  };
  const seg = (p, q) => parts.push(`M${p[0].toFixed(1)} ${p[1].toFixed(1)}L${q[0].toFixed(1)} ${q[1].toFixed(1)}`);
  for (let r = 0; r + 1 < N; r++) {
    for (let c = 0; c + 1 < N; c++) {
      const tl = r * N + c;
      const tr = tl + 1;
      const bl = tl + N;
      const br = bl + 1;
      const code = (f[tl] > 0 ? 8 : 0) | (f[tr] > 0 ? 4 : 0) | (f[br] > 0 ? 2 : 0) | (f[bl] > 0 ? 1 : 0);
      if (code === 0 || code === 15) continue;
      const top = () => at(tl, tr);
      const right = () => at(tr, br);
      const bottom = () => at(bl, br);
      const left = () => at(tl, bl);
      const centreIn = f[tl] + f[tr] + f[bl] + f[br] > 0;
      switch (code) {
        case 1: case 14: seg(left(), bottom()); break;
        case 2: case 13: seg(bottom(), right()); break;
        case 3: case 12: seg(left(), right()); break;
        case 4: case 11: seg(top(), right()); break;
        case 6: case 9: seg(top(), bottom()); break;
        case 7: case 8: seg(top(), left()); break;
        case 5: // tr and bl inside
          if (centreIn) { seg(top(), left()); seg(bottom(), right()); } else { seg(top(), right()); seg(left(), bottom()); }
          break;
        case 10: // tl and br inside
          if (centreIn) { seg(top(), right()); seg(left(), bottom()); } else { seg(top(), left()); seg(bottom(), right()); }
          break;
        default: break;
      }
    }
  }
  return parts.join("");
}

// ---------------------------------------------------------------------------------------
// One playground

class KernelPlayground {
  constructor(root) {
    this.root = root;
    this.uid = `kp${++instances}`;
    this.key = root.id || this.uid; // the demo's key in the URL
    this.genIndex = -1; // the menu's entry for generated data, once there is one
    this.gen = null; // the generator's options, while the generated data are shown
    this.pendingVisits = 0; // visits to make once the run exists (a restored link)
    this.label = 1; // the label of the points the reader adds
    this.selected = -1; // the selected point
    this.custom = false; // the data were edited since they were loaded or generated
    this.pointEls = [];
    // Undo takes back a change of the data or the kernel: a snapshot is what a link holds,
    // and the point that was selected.
    this.history = new EditHistory({
      key: this.key,
      snapshot: (what) => ({ what, state: this.urlStateObject(), selected: this.selected }),
      stateObject: () => this.urlStateObject(),
    });
    const opts = readOptions(root);
    this.spec = opts.spec;
    this.initial = { ...opts.spec };
    this.gammaIndex = opts.gammaIndex;
    this.tau = opts.tau;
    if (!root.dataset.datasets) throw new Error("data-datasets is missing");
    this.datasets = parseDatasets(root.dataset.datasets);
    this.active = false;
    this.run = null;
    this.field = null;
    this.fieldKey = null;
    this.timing = { gramMs: null, fieldMs: null, actionMs: null };
    this.frame = root.querySelector(":scope > .kp-frame");
    if (!this.frame) {
      this.frame = el("div", { class: "kp-frame" });
      root.append(this.frame);
    }
    this.build();
    this.loadDataset(0, false);
    this.say(`${this.describeData()}. Press Step, Epoch or Run.`);
    this.restoreFromUrl();
    urlState.subscribe(this.key, (got) => this.onHistory(got));
    // Attached only now: the first status line is not announced, and the fallback (the
    // explorer's picture, hidden by the stylesheet where the page is served) goes.
    this.frame.replaceChildren(this.ui);
    root.classList.add("kp-ready");
    this.watchTheme();
    this.startWhenSeen();
  }

  // -- building the interface (once) ----------------------------------------------------
  build() {
    const r = this.root;
    groupRoot(r, "Kernel perceptron playground");
    const id = (s) => `${this.uid}-${s}`;

    // controls: data set, kernel, degree, gamma
    const controls = el("div", { class: "demo-controls demo-controls-rows demo-area-controls" });
    const { line: dsLine, select } = datasetLine(id("data"), this.datasets.map((d) => d.name));
    this.select = select;

    const kernels = el("fieldset", { class: "demo-line kp-kernels" });
    kernels.append(el("legend", { class: "demo-name" }, "Kernel"));
    this.radios = {};
    const choices = el("div", { class: "kp-choices" });
    for (const kind of core.KERNELS) {
      const lab = el("label", { class: "demo-radio" });
      const input = el("input", { type: "radio", name: id("kernel"), value: kind });
      lab.append(input, el("span", {}, KIND_NAME[kind]));
      choices.append(lab);
      this.radios[kind] = input;
    }
    kernels.append(choices);

    const slider = (key, text, min, max) => {
      const { line, input, out } = sliderLine(id(key), text, min, max);
      return [line, input, out];
    };
    let degLine;
    let gamLine;
    [degLine, this.degree, this.degreeOut] = slider("degree", "Degree", core.MIN_DEGREE, core.MAX_DEGREE);
    [gamLine, this.gamma, this.gammaOut] = slider("gamma", "\u03b2 (RBF)", 0, core.GAMMAS.length - 1); // the book's beta, the width of the RBF kernel
    this.degree.setAttribute("aria-describedby", id("formula"));
    this.gamma.setAttribute("aria-describedby", id("formula"));
    controls.append(dsLine, this.buildLabels(id("label")), kernels, degLine, gamLine);
    this.genForm = createGeneratorForm({
      onGenerate: (o) => this.generate(o), say: (t) => this.say(t), points: 60,
    });
    this.genForm.element.classList.add("kp-gen");
    this.genForm.set({ kind: "xor", n: 60, seed: 1, margin: 0.3, spread: 0.5, flip: 0.05 });
    const genRow = el("div", { class: "kp-gen-row" });
    const edits = el("div", { class: "kp-edits" });
    this.undoRedo = new UndoRedo({
      history: this.history, root: r, prefix: "kp", what: "the last change of the data or the kernel",
      fallback: () => this.layer, restore: (snap) => this.putBack(snap),
      told: (done, snap) => `${done}: ${snap.what}. ${this.describeData()}, kernel ${core.formula(this.spec)}` +
        (this.visits() ? `, after ${plural(this.visits(), "visit")}.` : "."),
      say: (t) => this.say(t), focused: (i) => this.select_(i, false),
    });
    edits.append(this.undoRedo.buttons.undo, this.undoRedo.buttons.redo);
    genRow.append(this.genForm.element, edits);
    controls.append(genRow);

    // buttons
    const row = buttonRow("Train the kernel perceptron", "kp", trainingButtons({ step: "visit the next example", reset: "start again from \u03b1 = 0" }), "demo-buttons demo-area-buttons");
    const buttons = row.element;
    this.buttons = row.buttons;

    // the plot: grid lines under the field (a canvas), the rest over it
    const figure = el("div", { class: "demo-figure demo-area-figure" });
    const stage = el("div", { class: "demo-stage" });
    this.back = svg("svg", { class: "kp-back", viewBox: `0 0 ${VB} ${VB}`, "aria-hidden": "true", focusable: "false" });
    this.back.append(svg("rect", { class: "kp-bg", x: AREA.left, y: AREA.top, width: AREA.size, height: AREA.size }));
    this.gridG = svg("g");
    this.back.append(this.gridG);
    this.canvas = el("canvas", { class: "kp-field", width: String(CELLS), height: String(CELLS), "aria-hidden": "true" });
    this.plot = svg("svg", { class: "kp-plot", viewBox: `0 0 ${VB} ${VB}`, role: "img", focusable: "false" });
    const clipId = id("clip");
    const defs = svg("defs");
    const clip = svg("clipPath", { id: clipId });
    clip.append(svg("rect", { x: AREA.left, y: AREA.top, width: AREA.size, height: AREA.size }));
    defs.append(clip);
    const clipped = svg("g", { "clip-path": `url(#${clipId})` });
    this.boundary = svg("path", { class: "kp-boundary", d: "" });
    this.supportG = svg("g");
    this.ring = svg("circle", { class: "kp-ring", r: SUPPORT_R + 4, visibility: "hidden" });
    clipped.append(this.boundary, this.supportG, this.ring);
    this.ticksG = svg("g", { class: "kp-ticks", "aria-hidden": "true" });
    this.plot.append(defs, clipped, this.ticksG,
      svg("rect", { class: "kp-frame-rect", x: AREA.left, y: AREA.top, width: AREA.size, height: AREA.size }));
    // the points, on a layer of their own over the drawing: a group of buttons
    this.layer = svg("svg", {
      class: "kp-points", viewBox: `0 0 ${VB} ${VB}`, role: "group", tabindex: "-1",
      "aria-label": "Data points. Click or tap to add a point, drag one to move it.",
    });
    this.pointsG = svg("g");
    this.layer.append(svg("rect", { class: "kp-hitarea", x: AREA.left, y: AREA.top, width: AREA.size, height: AREA.size }), this.pointsG);
    stage.append(this.back, this.canvas, this.plot, this.layer);
    this.tip = tips.attachPointTip({
      stage, layer: this.layer, count: () => this.X.length,
      pointAt: (i) => [this.sx(this.X[i][0]), this.sy(this.X[i][1])], lines: (i) => this.tipLines(i),
    });
    const legend = el("p", { class: "demo-legend", "aria-hidden": "true" });
    legend.innerHTML =
      '<span><span class="demo-key demo-key-pos">+</span> y = +1</span>' +
      '<span><span class="demo-key demo-key-neg">\u2212</span> y = \u22121</span>' +
      '<span><span class="demo-key demo-key-line"></span> f = 0</span>' +
      '<span><span class="demo-key kp-key-support"></span> \u03b1 &gt; 0</span>' +
      '<span><span class="demo-key demo-key-ring"></span> last visited</span>' +
      '<span><span class="demo-key demo-key-ring-dashed"></span> last visited, updated</span>';
    this.scoreKey = shade.scoreLegend("score f(x)");
    legend.prepend(this.scoreKey);
    this.chartHost = el("div", { class: "demo-chart demo-chart-steady" });
    this.chart = createEpochChart(this.chartHost, { title: "Updates per epoch, and training mistakes after each epoch" });
    figure.append(stage, legend, this.chartHost);

    // the live status line
    this.status = el("p", { class: "demo-status demo-area-status", "aria-live": "polite", "aria-atomic": "true" });
    ({ player: this.player, controls: this.playCtl } = addPlayer({
      root: this.root, toolbar: buttons, status: this.status, prefix: "kp", uid: this.uid, what: "the kernel perceptron",
      tick: () => this.playTick(), canPlay: () => this.begin(), onStop: (why) => this.played(why),
    }));
    this.buttons.play = this.playCtl.button;

    // the readout
    const readout = el("div", { class: "demo-readout demo-area-readout" });
    const dl = el("dl", { class: "demo-values demo-values-wide" });
    this.out = {};
    this.rows = {};
    for (const [key, text] of [
      ["formula", "kernel"],
      ["epoch", "epoch"],
      ["updates", "updates"],
      ["support", "\u03b1 > 0"],
      ["errors", "training errors"],
      ["state", "state"],
    ]) {
      const row = el("div", { class: `demo-row kp-row-${key}` });
      const dd = el("dd");
      row.append(el("dt", {}, text), dd);
      dl.append(row);
      this.out[key] = dd;
      this.rows[key] = row;
    }
    this.out.formula.id = id("formula");

    const more = el("div", { class: "kp-more" });
    const alphas = el("details", { class: "kp-alphas" });
    alphas.append(el("summary", {}, "Examples with \u03b1 > 0"));
    this.alphaBox = el("div");
    alphas.append(this.alphaBox);
    const help = helpBox(HELP, { wrap: true });
    more.append(alphas, help);
    readout.append(dl, more);

    this.ui = el("div", { class: "demo-ui" });
    this.ui.append(controls, buttons, figure, this.status, readout);

    // events
    this.select.addEventListener("change", () => this.chooseDataset(Number(this.select.value)));
    for (const input of Object.values(this.radios)) {
      input.addEventListener("change", () => {
        if (input.checked) this.changeKernel({ kind: input.value }, null);
      });
    }
    // A slider being dragged changes the kernel many times: one edit (one Undo, one history
    // entry replaced as it goes) until the slider is let go ("change").
    this.degree.addEventListener("input", () => this.changeKernel({ kind: "polynomial", degree: Number(this.degree.value) }, `slide${this.slides}`));
    this.gamma.addEventListener("input", () => this.changeKernel({ kind: "RBF", gamma: core.GAMMAS[Number(this.gamma.value)] }, `slide${this.slides}`));
    this.slides = 0;
    for (const s of [this.degree, this.gamma]) s.addEventListener("change", () => { this.slides += 1; });
    for (const input of Object.values(this.labelRadios)) {
      input.addEventListener("change", () => {
        if (input.checked) { this.label = Number(input.value); this.saveUrl("replace"); }
      });
    }
    points.attachPlotPointer(this.layer, {
      prefix: "kp", area: AREA, view: () => this.view, at: (i) => this.X[i],
      press: (i) => this.pressPoint(i),
      move: (i, p, tag) => this.movePoint(i, p, tag),
      dragged: (i) => this.say(`Example ${i + 1} moved to ${vec(this.X[i])}; ${this.editedText()}`),
      add: (p, shift) => this.addPoint(p, shift ? -this.label : this.label),
    });
    this.layer.addEventListener("focusin", (e) => {
      const g = e.target.closest?.(".kp-pt");
      if (g) this.select_(Number(g.dataset.i), false);
    });
    this.buttons.step.addEventListener("click", () => this.step());
    this.buttons.epoch.addEventListener("click", () => this.epoch());
    this.buttons.run.addEventListener("click", () => this.runAll());
    this.buttons.reset.addEventListener("click", () => this.reset());
    r.addEventListener("keydown", (e) => this.onKey(e));
    this.syncControls();
  }

  /** Chapter 6: the choice of the label of the points the reader adds, +1 or \u22121. */
  buildLabels(name) {
    const line = el("fieldset", { class: "demo-line kp-labels" });
    line.append(el("legend", { class: "demo-name" }, "New points"));
    const choices = el("div", { class: "kp-choices" });
    this.labelRadios = {};
    for (const [value, text] of [[1, "+1"], [-1, "\u22121"]]) {
      const lab = el("label", { class: `demo-radio ${value > 0 ? "demo-radio-pos" : "demo-radio-neg"}` });
      const input = el("input", { type: "radio", name, value: String(value) });
      input.checked = value === this.label;
      lab.append(input, el("span", {}, text));
      choices.append(lab);
      this.labelRadios[value] = input;
    }
    line.append(choices);
    return line;
  }

  syncControls() {
    const s = this.spec;
    this.radios[s.kind].checked = true;
    this.degree.value = String(s.degree);
    this.degreeOut.textContent = String(s.degree);
    this.degree.setAttribute("aria-valuetext", `degree ${s.degree}${s.kind === "polynomial" ? "" : " (for the polynomial kernel)"}`);
    this.gamma.value = String(core.GAMMAS.indexOf(s.gamma));
    this.gammaOut.textContent = String(s.gamma);
    this.gamma.setAttribute("aria-valuetext", `\u03b2 ${s.gamma}${s.kind === "RBF" ? "" : " (for the RBF kernel)"}`);
  }

  // -- when the arithmetic starts ---------------------------------------------------------
  startWhenSeen() {
    this.observer = whenSeen(this.root, () => this.activate());
  }

  activate() {
    if (this.active) return;
    this.active = true;
    if (this.observer) this.observer.disconnect();
    this.render();
    this.root.dataset.kpActive = "true";
    if (typeof performance !== "undefined" && performance.mark) performance.mark("kernel-playground-active");
  }

  watchTheme() {
    // The field is drawn on a canvas with the theme's colours: draw it again when the
    // reader switches between the light and the dark theme.
    const redraw = () => { if (this.active) this.drawField(); };
    new MutationObserver(redraw).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme", "class"] });
    if (window.matchMedia) window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", redraw);
  }

  // -- data and kernel ----------------------------------------------------------------------
  loadDataset(k, announce) {
    const d = this.datasets[k];
    const wasDone = Boolean(this.run && this.run.done);
    this.datasetIndex = k;
    this.select.value = String(k);
    this.custom = false;
    this.nameMenuEntry();
    this.X = d.X.map((q) => q.slice()); // the reader edits copies
    this.y = d.y.slice();
    this.test = d.test ?? null; // the held-out test set {X, y}, if the data have one
    this.gen = d.gen ? { ...d.gen } : null;
    this.selected = -1;
    this.setView(core.viewBox(this.X));
    this.drawPoints();
    this.restart(wasDone);
    if (announce) this.say(`Data set \u201c${d.name}\u201d: ${this.describeData()}. ${this.restartText(wasDone)}`);
  }

  setKernel(change) {
    const wasDone = Boolean(this.run && this.run.done);
    this.spec = { ...this.spec, ...change };
    this.syncControls();
    this.restart(wasDone);
    const s = this.spec;
    const name = s.kind === "linear" ? "Linear kernel" : s.kind === "polynomial" ? `Polynomial kernel of degree ${s.degree}` : `RBF kernel, \u03b2 = ${s.gamma}`;
    this.say(`${name}. ${this.restartText(wasDone)}`);
  }

  /** A new run for the current data and kernel; to the end at once if the last one ended. */
  restart(runToEnd) {
    this.run = null;
    this.fieldKey = null;
    this.runToEnd = runToEnd;
    if (this.active) {
      const t0 = performance.now();
      this.ensureRun();
      if (runToEnd) this.run.run();
      this.render();
      this.timing.actionMs = performance.now() - t0;
    } else {
      this.renderReadout();
    }
  }

  restartText(ranToEnd) {
    if (!ranToEnd || !this.run) return "\u03b1 = 0 again: Step, Epoch or Run trains it.";
    return this.outcomeText();
  }

  ensureRun() {
    if (this.run) return this.run;
    const t0 = performance.now();
    this.kernel = core.makeKernel(this.spec);
    this.run = core.createKernelRun(this.X, this.y, this.kernel, this.tau, true);
    this.timing.gramMs = performance.now() - t0;
    for (let k = 0; k < this.pendingVisits && !this.run.done; k++) this.run.step();
    this.pendingVisits = 0;
    return this.run;
  }

  /** The square view box {x0, x1, y0, y1, span} with its grid: the field's cells, the lines. */
  setView(box) {
    this.view = viewFrom(box.x0, box.x1, box.y0, box.y1, box.span); // + step, snap
    this.centres = core.cellCentres(this.view, CELLS);
    this.drawView();
  }

  // -- the reader's edits of the data (chapter 6, as chapter 1's playground) ------------------
  /**
   * Edit the data: fn changes them.  One Undo step and one entry of the browser's history
   * (edits with the same tag in a row, a drag or arrow keys, are one); the run starts
   * again from alpha = 0, to its end at once if it had ended, and the menu says the data
   * are edited.
   */
  editData(tag, what, fn) {
    const ended = Boolean(this.active && this.run && this.run.done);
    this.history.edit(tag, what, () => {
      fn();
      this.custom = true;
      this.pendingVisits = 0;
      this.nameMenuEntry();
      this.restart(ended);
    });
    this.renderButtons();
  }

  /** What an edit did to the run, for the status line. */
  editedText() {
    if (this.runToEnd && this.run) return `the run starts again and goes to its end: ${this.outcomeText()}`;
    return "the run starts again from \u03b1 = 0.";
  }

  addPoint(p, label) {
    if (this.X.length >= MAX_POINTS) {
      this.say(`The playground holds at most ${MAX_POINTS} points; remove some first.`);
      return;
    }
    const i = this.X.length;
    this.editData(null, `adding example ${i + 1}`, () => {
      this.X.push(p);
      this.y.push(label);
      this.drawPoints();
      this.select_(i, true);
    });
    this.say(`Added example ${i + 1} at ${vec(p)} with label ${labelText(label)}; ${this.editedText()}`);
  }

  removePoint(i) {
    if (this.X.length === 1) {
      this.say("The last point stays: the kernel perceptron needs at least one example.");
      return;
    }
    const p = this.X[i];
    this.editData(null, `removing example ${i + 1}`, () => {
      this.X.splice(i, 1);
      this.y.splice(i, 1);
      this.selected = -1;
      this.drawPoints();
      this.select_(Math.min(i, this.X.length - 1), true);
    });
    this.say(`Removed example ${i + 1} at ${vec(p)}; ${plural(this.X.length, "point")} left; ${this.editedText()}`);
  }

  /** Move example i to p; moves with the same tag in a row are one edit (a drag). */
  movePoint(i, p, tag = null) {
    this.editData(tag, `moving example ${i + 1}`, () => {
      this.X[i] = p;
      this.placePoint(i);
      this.updatePointLabel(i);
    });
  }

  flipLabel(i) {
    this.editData(null, `changing the label of example ${i + 1}`, () => {
      this.y[i] = -this.y[i];
      points.setPointLabel(this.pointEls[i], "kp", this.y[i], MARK_R);
      this.updatePointLabel(i);
    });
    this.say(`Example ${i + 1} now has label ${labelText(this.y[i])}; ${this.editedText()}`);
  }

  /** The reader's points (from a link or a snapshot) in place of the data set's. */
  setPoints(pts) {
    this.X = pts.map((q) => [q[0], q[1]]);
    this.y = pts.map((q) => q[2]);
    this.custom = true;
    this.nameMenuEntry();
    this.selected = -1;
    this.setView(core.viewHolding(this.view, this.X));
    this.drawPoints();
  }

  /** The menu says what is shown: a data set as loaded, or as the reader edited it. */
  nameMenuEntry() {
    this.datasets.forEach((d, k) => {
      const text = this.custom && k === this.datasetIndex ? `${d.name} (edited)` : d.name;
      const option = this.select.options[k];
      if (option && option.textContent !== text) option.textContent = text;
    });
  }

  setLabel(v) {
    this.label = v;
    this.labelRadios[v].checked = true;
    this.saveUrl("replace");
    this.say(`New points get label ${labelText(v)}.`);
  }

  // -- the pointer on the points' layer ------------------------------------------------------
  /** A press on a point selects it (and focuses it). */
  pressPoint(i) {
    this.select_(i, true);
    this.say(`Example ${i + 1} at ${vec(this.X[i])}, label ${labelText(this.y[i])}: drag it, or press Delete, Enter or an arrow key.`);
  }

  describeData() {
    const pos = this.y.filter((v) => v > 0).length;
    const n = this.y.length;
    return `${plural(n, "point")}, ${pos} labelled +1 and ${n - pos} labelled \u22121`;
  }

  // -- coordinates ------------------------------------------------------------------------
  sx(x) { return AREA.left + ((x - this.view.x0) / this.view.span) * AREA.size; }
  sy(y) { return AREA.top + ((this.view.y1 - y) / this.view.span) * AREA.size; }

  // -- drawing: what changes with the data set -------------------------------------------
  drawView() {
    const v = this.view;
    const step = niceStep(v.span);
    this.gridG.textContent = "";
    this.ticksG.textContent = "";
    const first = (lo) => Math.ceil(lo / step - 1e-9) * step;
    const label = (t) => show(num(Number((Math.round(t / step) * step).toPrecision(6))));
    for (let x = first(v.x0); x <= v.x1 + 1e-9; x += step) {
      const X = this.sx(x);
      const axis = Math.abs(x) < step / 1e6;
      this.gridG.append(svg("line", { class: axis ? "kp-axis" : "kp-gridline", x1: X, x2: X, y1: AREA.top, y2: AREA.top + AREA.size }));
      const t = svg("text", { x: X, y: AREA.top + AREA.size + 14, "text-anchor": "middle" });
      t.textContent = label(x);
      this.ticksG.append(t);
    }
    for (let y = first(v.y0); y <= v.y1 + 1e-9; y += step) {
      const Y = this.sy(y);
      const axis = Math.abs(y) < step / 1e6;
      this.gridG.append(svg("line", { class: axis ? "kp-axis" : "kp-gridline", y1: Y, y2: Y, x1: AREA.left, x2: AREA.left + AREA.size }));
      const t = svg("text", { x: AREA.left - 4, y: Y + 4, "text-anchor": "end" });
      t.textContent = label(y);
      this.ticksG.append(t);
    }
    const xl = svg("text", { x: AREA.left + AREA.size - 4, y: AREA.top + AREA.size - 6, "text-anchor": "end", class: "kp-axislabel" });
    xl.textContent = "x\u2081";
    const yl = svg("text", { x: AREA.left + 5, y: AREA.top + 14, class: "kp-axislabel" });
    yl.textContent = "x\u2082";
    this.ticksG.append(xl, yl);
  }

  /** The points' elements, drawn anew: each a button with its name and its Tab stop. */
  drawPoints() {
    this.pointsG.textContent = "";
    this.pointEls = this.X.map((_, i) => points.pointGroup("kp", i, this.y[i], MARK_R));
    this.pointsG.append(...this.pointEls);
    for (let i = 0; i < this.X.length; i++) {
      this.placePoint(i);
      this.updatePointLabel(i);
    }
    points.setTabStops(this.pointEls, this.selected);
  }

  placePoint(i) {
    this.pointEls[i].setAttribute("transform", `translate(${this.sx(this.X[i][0]).toFixed(2)} ${this.sy(this.X[i][1]).toFixed(2)})`);
  }

  updatePointLabel(i) {
    this.pointEls[i].setAttribute("aria-label", points.pointName(i, vec(this.X[i]), this.y[i]));
  }

  /** Select point i (-1: none), and focus it if asked; above 40 points it gets the Tab stop. */
  select_(i, focus) {
    this.selected = points.selectPoint(this.pointEls, "kp", this.selected, i, focus);
  }

  // -- drawing: what a step changes ---------------------------------------------------------
  render() {
    if (this.active) {
      this.ensureRun();
      const key = `${this.run.mistakes}`;
      if (this.fieldKey !== key) {
        const t0 = performance.now();
        this.field = core.decision(this.run, this.centres, { zeroNoise: true });
        this.timing.fieldMs = performance.now() - t0;
        this.fieldKey = key;
      }
      this.drawField();
      this.boundary.setAttribute("d", contourPath(this.field, CELLS, (x) => this.sx(x), (y) => this.sy(y), this.centres));
      this.drawSupport();
      this.drawRing();
      const { rows, partial } = core.kernelEpochTotals(this.run, this.test);
      this.chart.update(rows, partial, { testSize: this.test ? this.test.X.length : null });
    } else {
      this.chart.update([]);
    }
    this.renderReadout();
    this.tip.refresh();
  }

  /** The field of f, each cell shaded by its score on the kit's scale (score-shade.mjs). */
  drawField() {
    const ctx = this.canvas.getContext("2d");
    ctx.clearRect(0, 0, CELLS, CELLS);
    const r = this.active ? this.run : null;
    const cap = r ? shade.scoreCap(Array.from({ length: this.X.length }, (_, i) => r.score(i))) : 0;
    this.scoreKey.setCap(cap);
    if (!this.field || !(cap > 0)) return;
    const css = getComputedStyle(this.root);
    const colours = {
      1: css.getPropertyValue("--demo-score-pos").trim() || "#0072b2",
      "-1": css.getPropertyValue("--demo-score-neg").trim() || "#d55e00",
    };
    const most = Number(css.getPropertyValue("--demo-score-max")) || 0.26;
    const f = this.field;
    for (let k = 0; k < f.length; k++) {
      const level = shade.shadeLevel(f[k], cap);
      if (level === 0) continue;
      ctx.fillStyle = colours[level > 0 ? 1 : -1];
      ctx.globalAlpha = Math.abs(level) * most;
      ctx.fillRect(k % CELLS, Math.floor(k / CELLS), 1, 1);
    }
    ctx.globalAlpha = 1;
  }

  /** The tooltip of point i: f there, its margin in feature space, an update or not. */
  tipLines(i) {
    const r = this.active ? this.run : null;
    let facts;
    if (r) {
      const coef = Array.from(r.alpha, (a, j) => a * r.y[j]);
      facts = tips.scoreFacts(r.score(i), this.y[i], tips.featureNorm(r.G, coef));
    } else {
      facts = tips.scoreFacts(0, this.y[i], 0);
    }
    return tips.tipLines(i, this.y[i], facts, { fmt: (v) => num(v, 3), score: "score f(x)", norm: "\u2016\u03b8\u2016" });
  }

  drawSupport() {
    this.supportG.textContent = "";
    const a = this.run.alpha;
    for (let j = 0; j < a.length; j++) {
      if (a[j] > 0) {
        this.supportG.append(svg("circle", { class: "kp-support", r: SUPPORT_R,
          cx: this.sx(this.X[j][0]).toFixed(2), cy: this.sy(this.X[j][1]).toFixed(2) }));
      }
    }
  }

  drawRing() {
    const last = this.run.last;
    if (!last) { this.ring.setAttribute("visibility", "hidden"); return; }
    this.ring.setAttribute("cx", this.sx(this.X[last.index][0]).toFixed(2));
    this.ring.setAttribute("cy", this.sy(this.X[last.index][1]).toFixed(2));
    this.ring.classList.toggle("kp-ring-mistake", last.mistake);
    this.ring.removeAttribute("visibility");
  }

  supportCount() {
    return this.active && this.run ? this.run.alpha.reduce((k, a) => k + (a > 0 ? 1 : 0), 0) : 0;
  }

  renderReadout() {
    // Before the playground has come into view no kernel is computed, but alpha = 0 and
    // f = 0 are known: the readout says the same as it will once the run exists, so
    // that nothing changes size when the arithmetic starts.
    const r = this.active ? this.run : null;
    const o = this.out;
    const n = this.X.length;
    const errors = r ? r.trainingErrors() : this.y.filter((v) => v > 0).length; // f = 0 says -1
    const used = this.supportCount();
    o.formula.textContent = core.formula({ ...this.spec });
    o.epoch.textContent = `${r && r.last ? r.t : 1} of \u03c4 = ${this.tau}`;
    o.updates.textContent = show(`${r ? r.mistakes : 0} (\u03b8\u2080 = ${num(r ? r.theta0 : 0)})`);
    o.support.textContent = `${used} of ${n}, ringed`;
    o.errors.textContent = `${errors} of ${n}`;
    if (this.test) {
      const m = this.test.X.length;
      const k = r ? core.testErrors(r, this.test) : this.test.y.filter((v) => v > 0).length; // f = 0 says -1
      o.errors.textContent += `; held out: ${k} of ${m}`;
    }
    if (r && r.converged) o.state.textContent = `converged in epoch ${r.t}`;
    else if (r && r.stopped) o.state.textContent = `stopped after \u03c4 = ${this.tau} epochs`;
    else if (r && r.last) o.state.textContent = `running; next: x(${r.next + 1})`;
    else o.state.textContent = "ready: \u03b1 = 0";
    this.renderAlphas();
    this.plot.setAttribute("aria-label", this.describePlot(used, errors));
    this.renderButtons();
  }

  renderAlphas() {
    const a = this.active && this.run ? this.run.alpha : [];
    const items = [];
    for (let j = 0; j < a.length && items.length < MAX_LISTED; j++) {
      if (a[j] > 0) items.push(show(`x(${j + 1}) = ${vec(this.X[j])}, y = ${labelText(this.y[j])}: \u03b1 = ${a[j]}`));
    }
    if (!items.length) { this.alphaBox.textContent = "None yet."; return; }
    const ul = el("ul");
    for (const t of items) ul.append(el("li", {}, t));
    this.alphaBox.replaceChildren(ul);
  }

  renderButtons() {
    const done = this.active && this.run && this.run.done;
    for (const k of ["step", "epoch", "run"]) this.buttons[k].setAttribute("aria-disabled", String(Boolean(done)));
    this.buttons.reset.setAttribute("aria-disabled", String(!(this.active && this.run && this.run.last)));
    this.undoRedo.render();
  }

  describePlot(used, errors) {
    let pos = 0;
    let neg = 0;
    for (const v of (this.active && this.field) || []) { if (v > 0) pos++; else if (v < 0) neg++; }
    const parts = [`Plot of ${this.describeData()}`, `kernel ${core.formula(this.spec)}`];
    if (pos === 0 && neg === 0) parts.push("f = 0 everywhere, no boundary");
    else parts.push(`f > 0 on ${Math.round((100 * pos) / this.field.length)}% of the plot (shaded blue, the deeper the larger f), f < 0 elsewhere (orange), the boundary f = 0 drawn`);
    parts.push(`${used} examples with \u03b1 > 0 ringed`, `${errors} training errors`);
    return show(parts.join("; ") + ".");
  }

  say(text) {
    this.status.textContent = forPeople(text);
  }

  // -- the run ------------------------------------------------------------------------------
  outcomeText() {
    const r = this.run;
    const errors = plural(r.trainingErrors(), "training error");
    if (r.converged) return `Converged in epoch ${r.t} after ${plural(r.mistakes, "update")}; \u03b1\u00a0>\u00a00 on ${this.supportCount()}, ${errors}.`;
    if (r.stopped) return `Stopped after \u03c4 = ${this.tau} epochs, none without a mistake: ${plural(r.mistakes, "update")}, ${errors}.`;
    return `${plural(r.mistakes, "update")} so far, ${errors}.`;
  }

  begin() {
    this.activate();
    this.ensureRun();
    if (this.run.done) {
      this.say(nothingToDo(this.run));
      return false;
    }
    this.t0 = performance.now();
    return true;
  }

  finish(text) {
    this.render();
    this.say(text);
    this.saveUrl("replace");
    this.timing.actionMs = performance.now() - this.t0;
  }

  step() {
    if (!this.begin()) return null;
    const s = this.run.step();
    const i = s.index;
    let text = `Epoch ${s.epoch}, example ${i + 1} (y = ${labelText(this.y[i])}): f = ${num(s.score)}, `;
    text += s.mistake ? `a mistake: its \u03b1 is now ${this.run.alpha[i]}.` : "correct, no update.";
    if (this.run.done) text += ` ${this.outcomeText()}`;
    this.finish(text);
    return s;
  }

  epoch() {
    if (!this.begin()) return null;
    const t = this.run.t;
    const before = this.run.mistakes;
    const s = this.run.epoch();
    const k = this.run.mistakes - before;
    this.finish(this.run.done ? `Epoch ${t}: ${plural(k, "update")}. ${this.outcomeText()}` : `Epoch ${t} finished: ${plural(k, "update")}; ${this.outcomeText()}`);
    return s;
  }

  runAll() {
    if (!this.begin()) return null;
    const s = this.run.run();
    this.finish(this.outcomeText());
    return s;
  }

  /** Play's tick: visit examples up to the next update (or the end of the run), draw it. */
  playTick() {
    if (!this.run || this.run.done) return false;
    let s;
    do s = this.run.step(); while (s && !s.mistake && !this.run.done);
    this.render();
    let text = s && s.mistake
      ? `Epoch ${s.epoch}, example ${s.index + 1} (y = ${labelText(this.y[s.index])}): a mistake, its \u03b1 is now ${this.run.alpha[s.index]}.`
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
    this.ensureRun();
    this.run.reset();
    this.render();
    this.say("Reset: \u03b1 = 0 and \u03b8\u2080 = 0, epoch 1.");
    this.saveUrl("replace");
  }

  onKey(e) {
    const t = e.target;
    const typing = t.tagName === "SELECT" || t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && t.type === "number");
    if (!typing && this.undoRedo.onKey(e)) return;
    if (e.ctrlKey || e.metaKey || e.altKey || typing) return;
    const pt = t.closest ? t.closest(".kp-pt") : null;
    if (pt && points.editByKey(e, Number(pt.dataset.i), { view: this.view, at: (i) => this.X[i],
      remove: (i) => this.removePoint(i), flip: (i) => this.flipLabel(i), move: (i, p, tag) => this.moveByKey(i, p, tag) })) return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const n = this.X.length;
    const actions = {
      s: () => this.step(),
      e: () => this.epoch(),
      r: () => this.runAll(),
      0: () => this.reset(),
      p: () => this.player.toggle(),
      a: () => this.addPoint(points.centreOf(this.view), this.label),
      "+": () => this.setLabel(1),
      "-": () => this.setLabel(-1),
      "\u2212": () => this.setLabel(-1),
      n: () => this.select_(points.nextPoint(this.selected, n, e.shiftKey), true),
    };
    if (Object.hasOwn(actions, k)) {
      e.preventDefault();
      actions[k]();
    }
  }

  /** Example i moved by an arrow key to p (the moves of one point in a row are one edit). */
  moveByKey(i, p, tag) {
    this.movePoint(i, p, tag);
    this.say(`Example ${i + 1} at ${vec(p)}; ${this.editedText()}`);
  }

  // -- API for tests ------------------------------------------------------------------------
  // -- generated data and the URL ------------------------------------------------------
  /** Generate data (options as generator.mjs checks them); a new history entry. */
  generate(options) {
    let o;
    try {
      o = gen.checkOptions(options ?? this.genForm.options());
    } catch (err) {
      this.say(`Cannot generate: ${err.message}.`);
      return false;
    }
    this.history.edit(null, "generating", () => this.applyGenerated(o, true));
    this.renderButtons();
    return true;
  }

  applyGenerated(o, announce) {
    const data = gen.generate(o);
    const test = data.Xtest.length ? { X: data.Xtest, y: data.ytest } : null;
    const d = { name: generatedName(o, data), X: data.X, y: data.y, gen: { ...o }, test };
    if (this.genIndex < 0) {
      this.datasets.push(d);
      this.genIndex = this.datasets.length - 1;
      this.select.append(el("option", { value: String(this.genIndex) }, d.name));
    } else {
      this.datasets[this.genIndex] = d;
      this.select.options[this.genIndex].textContent = d.name;
    }
    this.genForm.set(o);
    this.loadDataset(this.genIndex, false);
    if (announce) {
      this.say(`Generated ${this.describeData()}${data.flipped.length ? `, ${data.flipped.length} of them with the label flipped` : ""} (seed ${o.seed}). ${this.restartText(this.runToEnd)}`);
    }
  }

  /** The reader picks a data set (an edit: Undo, a history entry). */
  chooseDataset(k) {
    this.history.edit(null, `the data set \u201c${this.datasets[k].name}\u201d`, () => this.loadDataset(k, true));
    this.renderButtons();
  }

  /** The reader changes the kernel; changes with the same tag in a row are one edit. */
  changeKernel(change, tag) {
    this.history.edit(tag, "the kernel's change", () => this.setKernel(change));
    this.renderButtons();
  }

  /** Put back the snapshot that Undo or Redo returned, with the point that was selected. */
  putBack(snap) {
    const c = this.checkUrlState(snap.state);
    c.label = this.label; // the label of new points is a choice, not an edit
    this.applyUrlState(c);
    if (snap.selected >= 0 && snap.selected < this.X.length) this.select_(snap.selected, false);
  }

  /** Visits made in the current run (its step position). */
  visits() {
    const r = this.active ? this.run : null;
    if (!r) return this.pendingVisits;
    return r.last ? (r.t - 1) * this.X.length + r.next : 0;
  }

  urlStateObject() {
    const s = this.spec;
    const st = { v: 1, d: this.gen ? 0 : this.datasetIndex, k: s.kind, deg: s.degree, gam: s.gamma };
    if (this.gen) st.g = { ...this.gen };
    // the reader's points, with the data set (or generator) they came from: its held-out set
    if (this.custom) st.p = this.X.map((q, i) => [q[0], q[1], this.y[i]]);
    const v = this.visits();
    if (v) st.s = v;
    if (this.label !== 1) st.l = -1;
    return st;
  }

  saveUrl(mode) {
    this.history.save(mode);
  }

  /** Check a state read from the URL; returns what to apply, or throws saying what is wrong. */
  checkUrlState(st) {
    if (st.v !== 1) throw new Error(`its version ${JSON.stringify(st.v)} is not 1`);
    const out = { d: 0, gen: null, points: null, spec: { ...this.spec }, visits: 0, label: 1 };
    const usable = this.datasets.filter((_, k) => k !== this.genIndex).length;
    if (st.d !== undefined) {
      if (!Number.isInteger(st.d) || st.d < 0 || st.d >= usable) throw new Error(`there is no data set ${JSON.stringify(st.d)}`);
      out.d = st.d;
    }
    if (st.g !== undefined) {
      if (!st.g || typeof st.g !== "object" || Array.isArray(st.g)) throw new Error("its generator settings are not an object");
      out.gen = gen.checkOptions(st.g);
    }
    if (st.k !== undefined) {
      if (!core.KERNELS.includes(st.k)) throw new Error(`there is no kernel ${JSON.stringify(st.k)}`);
      out.spec.kind = st.k;
    }
    if (st.deg !== undefined) {
      if (!Number.isInteger(st.deg) || st.deg < core.MIN_DEGREE || st.deg > core.MAX_DEGREE) throw new Error(`its degree ${JSON.stringify(st.deg)} is not one of the slider's`);
      out.spec.degree = st.deg;
    }
    if (st.gam !== undefined) {
      if (!core.GAMMAS.includes(st.gam)) throw new Error(`its gamma ${JSON.stringify(st.gam)} is not one of the slider's`);
      out.spec.gamma = st.gam;
    }
    if (st.p !== undefined) out.points = checkPoints(st.p);
    if (st.l !== undefined) {
      if (st.l !== 1 && st.l !== -1) throw new Error("its label of new points is not +1 or -1");
      out.label = st.l;
    }
    if (st.s !== undefined) {
      const n = out.points ? out.points.length : out.gen ? out.gen.n : this.datasets[out.d].X.length;
      if (!Number.isInteger(st.s) || st.s < 0 || st.s > this.tau * n) throw new Error(`its step position ${JSON.stringify(st.s)} is out of range`);
      out.visits = st.s;
    }
    return out;
  }

  /** Apply a checked state without writing the URL; the run catches up when it exists. */
  applyUrlState(c) {
    this.spec = c.spec;
    this.syncControls();
    this.run = null; // no "run to the end": the link says where the run is
    if (c.gen) this.applyGenerated(c.gen, false);
    else this.loadDataset(c.d, false);
    if (c.points) this.setPoints(c.points);
    this.label = c.label;
    this.labelRadios[c.label].checked = true;
    this.run = null;
    this.fieldKey = null;
    this.runToEnd = false;
    this.pendingVisits = c.visits;
    if (this.active) this.render();
    else this.renderReadout();
  }

  restoreFromUrl() {
    const { state: st, error } = urlState.readState(this.key);
    if (error) { this.say(error); return; }
    if (!st) return;
    try {
      const c = this.checkUrlState(st);
      this.applyUrlState(c);
      this.say(`Restored from the link: ${this.describeData()}, kernel ${core.formula(this.spec)}` +
        (c.visits ? `, after ${plural(c.visits, "visit")}.` : "."));
    } catch (err) {
      this.say(`The link's saved state for this demo was ignored: ${err.message}.`);
    }
  }

  onHistory({ state: st, error }) {
    this.history.forget();
    let c = null;
    let text;
    try {
      c = st ? this.checkUrlState(st) : this.checkUrlState({ v: 1, d: 0, k: this.initial.kind, deg: this.initial.degree, gam: this.initial.gamma });
      text = st ? "Back to an earlier state" : "Back to the start";
    } catch (err) {
      text = `The saved state for this demo was ignored: ${err.message}`;
    }
    if (error) text = error;
    if (c) this.undoRedo.keeping(() => this.applyUrlState(c));
    this.renderButtons();
    this.say(`${text}: ${this.describeData()}, kernel ${core.formula(this.spec)}.`);
  }

  state() {
    const r = this.active ? this.run : null;
    const n = this.X.length;
    let field = null;
    if (this.active && this.field) {
      field = { pos: 0, neg: 0, zero: 0 };
      for (const v of this.field) { if (v > 0) field.pos++; else if (v < 0) field.neg++; else field.zero++; }
    }
    return {
      playing: this.player.playing,
      testSize: this.test ? this.test.X.length : null,
      testErrors: this.active && this.run && this.test ? core.testErrors(this.run, this.test) : null,
      dataset: this.datasets[this.datasetIndex].name,
      datasets: this.datasets.map((d) => d.name),
      X: this.X.map((p) => p.slice()),
      y: this.y.slice(),
      kernel: { ...this.spec },
      tau: this.tau,
      active: this.active,
      alpha: r ? Array.from(r.alpha) : new Array(n).fill(0),
      theta0: r ? r.theta0 : 0,
      mistakes: r ? r.mistakes : 0,
      epoch: r ? r.t : 1,
      epochs: r ? r.epochs : 0,
      next: r ? r.next : 0,
      converged: r ? r.converged : false,
      stopped: r ? r.stopped : false,
      done: r ? r.done : false,
      history: r ? r.history.map((h) => ({ ...h })) : [],
      trainingErrors: r ? r.trainingErrors() : null,
      support: this.supportCount(),
      field,
      cells: CELLS,
      view: { ...this.view },
      status: this.status.textContent,
      timing: { ...this.timing },
      key: this.key,
      visits: this.visits(),
      generator: this.gen ? { ...this.gen } : null,
      chart: this.chart.values(),
      undoDepth: this.history.depth,
      redoDepth: this.history.redoDepth,
      custom: this.custom,
      selected: this.selected,
      label: this.label,
    };
  }
}

/** Turn one element into a kernel playground (once); returns its API object or null. */
export function mount(root) {
  if (root.kernelPlayground) return root.kernelPlayground;
  try {
    const kp = new KernelPlayground(root);
    root.kernelPlayground = {
      step: () => kp.step(),
      epoch: () => kp.epoch(),
      run: () => kp.runAll(),
      reset: () => kp.reset(),
      play: () => kp.player.play(),
      pause: () => kp.player.pause(),
      setSpeed: (v) => { kp.player.setSpeed(v); kp.playCtl.sync(); },
      state: () => kp.state(),
      activate: () => kp.activate(),
      selectDataset: (k) => kp.chooseDataset(k),
      undo: () => kp.undoRedo.undo(),
      redo: () => kp.undoRedo.redo(),
      setKernel: (change) => kp.changeKernel(change, null),
      /** Generate data: options {kind, n, seed, margin, spread, flip}, or the form's. */
      generate: (options) => kp.generate(options),
      /** The state object the page's URL carries for this playground. */
      urlState: () => kp.urlStateObject(),
      /** The cell centres of the field and f there (after zeroing rounding noise). */
      grid: () => ({ centres: kp.centres.map((p) => p.slice()), f: kp.field ? Array.from(kp.field) : null }),
      /** Where the data point (x, y) is on the screen, in client pixels. */
      clientPoint: (x, y) => {
        const m = kp.plot.getScreenCTM();
        const q = new DOMPoint(kp.sx(x), kp.sy(y)).matrixTransform(m);
        return [q.x, q.y];
      },
    };
    return root.kernelPlayground;
  } catch (err) {
    showError(root, err, "kernel playground", "kp");
    return null;
  }
}

/** Mount every div.kernel-playground of the document (at once when it is ready). */
export const mountAll = mountEvery("kernel-playground", mount);
