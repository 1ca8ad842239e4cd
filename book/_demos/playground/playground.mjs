// The perceptron playground of the book's pages (no framework, no other host).
//
// Every <div class="perceptron-playground"> on the page becomes a playground:
//
//   <div class="perceptron-playground"
//        data-datasets='[{"name": "worked example", "X": [[1,3],[2,1],[-1,2]], "y": [1,1,-1]}]'
//        data-tau="100"          (optional, default 100: the most epochs a run makes)
//        data-offset="false"     (optional: PERCEPTRON-THROUGH-ORIGIN, theta_0 stays 0)
//        data-mode="margin"      (optional: every point's margin, the smallest highlighted)
//   ></div>
//
// A data set may also carry "best_gamma": the best margin the mistake bound may use for
// it (computed by perceptron_lib.demos.playground.best_margin).  The playground then shows
// the bound with that margin next to the updates made, until the reader edits the data.
//
// Whatever the div holds (a fallback text, say) is replaced.  All arithmetic is done by
// perceptron-core.mjs, the module tests/test_playground_core.py compares with
// perceptron_lib.  The SVG is built once per data set; a step only moves the boundary,
// the arrow, the ring and the texts, so that it stays fast with hundreds of points.
// Each element gets a small API in element.perceptronPlayground (used by the tests).
//
// The state (data set, the reader's points or the generator's settings, the step
// position, the options) is kept in the page's URL under the element's id
// (url-state.mjs): a link reproduces it, Back returns to the state before the last edit.
// Undo (button, Ctrl/Cmd+Z) takes back the last edit of the data and returns to the step
// position the run had then; Redo (button, Ctrl/Cmd+Shift+Z or Ctrl+Y) puts it back.  Below the plot, the run's updates per epoch (epoch-chart.mjs);
// in "Generate data", seeded data the library's make_demo_data also makes (generator.mjs).
// Play (player.mjs) moves the run on by itself, one update at a time; each update can be
// drawn as the vector y·x added to θ, the old boundary fading out.  The points are edited
// by mouse, touch and keyboard as point-editor.mjs says, the same way as in chapter 6.

import { buttonRow, groupRoot, helpBox, mountEvery, showError, trainingButtons } from "../kit/demo-kit.mjs";
import * as core from "../kit/perceptron-core.mjs";
import { el, forPeople, labelText, MAX_TABBABLE_POINTS, num, show, svg } from "../kit/dom.mjs";
import { clipPolygon, lineInBox, roundTo, viewFor, viewFrom } from "../kit/plot-geometry.mjs";
import { createEpochChart } from "../kit/epoch-chart.mjs";
import * as gen from "../kit/generator.mjs";
import { createGeneratorForm, generatedName } from "../kit/generator-form.mjs";
import * as urlState from "../kit/url-state.mjs";
import { EditHistory, UNDO_HELP, UndoRedo } from "../kit/edit-history.mjs";
import { addPlayer } from "../kit/player.mjs";
import * as points from "../kit/point-editor.mjs";
import { datasetName, datasetWhere, heldOutOf, parseDatasetList } from "../kit/datasets.mjs";
import { nothingToDo } from "../kit/run-status.mjs";
import * as shade from "../kit/score-shade.mjs";
import * as tips from "../kit/point-tip.mjs";
import { nearOffsets, placeLabels } from "../kit/label-place.mjs";

// The drawing's own units (viewBox); the plot area is a square inside it.
const VB = 400;
const AREA = { left: 34, top: 8, size: 358 };
const RING_R = 13;
const MAX_INDEX_LABELS = 40; // numbers x(k) next to the points
const MAX_MARGIN_LABELS = 60; // above this, only the smallest margin is written
const UNDO_DEPTH = 100; // edits that Undo can take back
const MAX_URL_POINTS = 500; // the reader's points a link may carry
const MAX_COORD = 1e6; // |coordinate| a link may carry

const DEFAULT_DATASETS = [
  { name: "worked example (lecture notes)", X: [[1, 3], [2, 1], [-1, 2]], y: [1, 1, -1] },
  {
    name: "eight points (chapter 1)",
    X: [[-1, 2], [-0.5, -1.5], [-0.5, 1.5], [0, -1], [2, 0.5], [-2, 0], [2, 1], [0, 0]],
    y: [1, -1, 1, -1, 1, -1, 1, -1],
  },
  { name: "XOR (no line separates it)", X: [[1, 1], [-1, -1], [1, -1], [-1, 1]], y: [1, 1, -1, -1] },
];
const EMPTY_NAME = "empty: click in the plot to add points";

let instances = 0;

// ---------------------------------------------------------------------------------------
// Small helpers

const vec = (v) => `(${v.map((a) => num(a)).join(", ")})`;

/** Draw an arrow (a line and its head) from A to B, in the drawing's units; none if A = B. */
function arrow(line, head, A, B) {
  const len = Math.hypot(B[0] - A[0], B[1] - A[1]);
  if (len < 1e-9) {
    line.setAttribute("visibility", "hidden");
    head.setAttribute("visibility", "hidden");
    return;
  }
  const ux = (B[0] - A[0]) / len;
  const uy = (B[1] - A[1]) / len;
  const h = Math.min(10, len / 2);
  const bx = B[0] - h * ux;
  const by = B[1] - h * uy;
  line.setAttribute("x1", A[0].toFixed(2)); line.setAttribute("y1", A[1].toFixed(2));
  line.setAttribute("x2", (bx + 1.5 * ux).toFixed(2)); line.setAttribute("y2", (by + 1.5 * uy).toFixed(2));
  head.setAttribute("points", `${B[0].toFixed(2)},${B[1].toFixed(2)} ${(bx - 4.5 * uy).toFixed(2)},${(by + 4.5 * ux).toFixed(2)} ${(bx + 4.5 * uy).toFixed(2)},${(by - 4.5 * ux).toFixed(2)}`);
  line.removeAttribute("visibility");
  head.removeAttribute("visibility");
}

function parseDatasets(text) {
  return parseDatasetList(text, "{name, X, y}", checkDataset);
}

function checkDataset(d, k) {
  const where = datasetWhere(d, k);
  if (!d || typeof d !== "object") throw new Error(`${where} must be an object {name, X, y}`);
  const X = d.X ?? [];
  const y = d.y ?? [];
  try {
    if (!Array.isArray(X) || !Array.isArray(y)) throw new Error("X and y must be arrays");
    if (X.length || y.length) {
      core.createRun(X, y, 1, true); // checks shapes, numbers and labels
      if (X[0].length !== 2) throw new Error(`the playground draws 2-D data, but X has ${X[0].length} features`);
    }
  } catch (err) {
    throw new Error(`${where}: ${err.message}`);
  }
  const test = heldOutOf(d, core.checkHeldOut, 2, where);
  let best = null;
  if (d.best_gamma !== undefined && d.best_gamma !== null) {
    best = Number(d.best_gamma);
    if (!Number.isFinite(best) || best <= 0) throw new Error(`${where}: best_gamma must be a positive number, got ${JSON.stringify(d.best_gamma)}`);
  }
  let opt = null;
  if (d.max_margin !== undefined && d.max_margin !== null) {
    const m = d.max_margin;
    const ok = m && Array.isArray(m.theta) && m.theta.length === 2 && [...m.theta, m.theta0, m.gamma].every((v) => typeof v === "number" && Number.isFinite(v)) &&
      m.gamma > 0 && (m.theta[0] !== 0 || m.theta[1] !== 0);
    if (!ok) throw new Error(`${where}: max_margin must be {theta: [2 numbers, not both 0], theta0, gamma > 0}`);
    opt = { theta: m.theta.slice(), theta0: m.theta0, gamma: m.gamma };
  }
  return {
    name: datasetName(d, k),
    X: X.map((r) => [Number(r[0]), Number(r[1])]),
    y: y.map(Number),
    bestGamma: best,
    opt,
    test,
  };
}

// ---------------------------------------------------------------------------------------
// One playground

class Playground {
  constructor(root) {
    this.root = root;
    this.uid = `pg${++instances}`;
    this.key = root.id || this.uid; // the demo's key in the URL
    const tauText = root.dataset.tau;
    this.tau = tauText === undefined || tauText === "" ? 100 : Number(tauText);
    if (!Number.isInteger(this.tau) || this.tau <= 0) {
      throw new Error(`data-tau must be a positive integer (number of epochs), got "${tauText}"`);
    }
    const off = (root.dataset.offset ?? "true").toLowerCase();
    if (!["true", "false"].includes(off)) throw new Error(`data-offset must be "true" or "false", got "${root.dataset.offset}"`);
    this.offset = off === "true";
    this.marginMode = (root.dataset.mode ?? "").toLowerCase() === "margin";
    this.datasets = root.dataset.datasets ? parseDatasets(root.dataset.datasets) : DEFAULT_DATASETS.map(checkDataset);
    if (!this.datasets.some((d) => d.X.length === 0)) this.datasets.push({ name: EMPTY_NAME, X: [], y: [] });
    this.label = 1;
    this.selected = -1;
    this.showBand = this.marginMode;
    this.showUpdate = true; // draw an update as theta + y x, the old boundary fading
    this.lastUpdate = null; // {run, visits, theta, theta0, index}: the update just made
    this.history = new EditHistory({
      key: this.key, depth: UNDO_DEPTH,
      snapshot: (what) => this.snapshot(what), stateObject: () => this.urlStateObject(),
    });
    this.gen = null; // the generator's options, while the data are the generated ones
    this.custom = false; // the data were edited since they were loaded or generated
    this.genIndex = -1; // the menu's entry for generated data, once there is one
    this.build();
    this.loadDataset(0, false);
    this.restoreFromUrl();
    this.unsubscribe = urlState.subscribe(this.key, (got) => this.onHistory(got));
    // Attached only now, so that the first status line is not announced on page load.
    this.root.append(this.layoutEl);
  }

  // -- building the interface (once) ----------------------------------------------------
  build() {
    const r = this.root;
    r.textContent = "";
    r.classList.add("pg-ready");
    groupRoot(r, this.offset ? "Perceptron playground" : "Perceptron playground, through the origin");

    // toolbar: data set, label of new points, margin band
    const tools = el("div", { class: "pg-tools" });
    const dsLabel = el("label", { class: "pg-field" });
    dsLabel.append(el("span", {}, "Data set"));
    this.select = el("select", { class: "demo-select demo-dataset" });
    this.datasets.forEach((d, k) => this.select.append(el("option", { value: String(k) }, d.name)));
    dsLabel.append(this.select);
    tools.append(dsLabel);

    const fs = el("fieldset", { class: "demo-labels" });
    fs.append(el("legend", {}, "Label of new points"));
    this.radios = {};
    for (const [value, text] of [[1, "+1"], [-1, "\u22121"]]) {
      const lab = el("label", { class: `demo-radio ${value > 0 ? "demo-radio-pos" : "demo-radio-neg"}` });
      const input = el("input", { type: "radio", name: `${this.uid}-label`, value: String(value) });
      if (value === 1) input.checked = true;
      lab.append(input, el("span", {}, text));
      fs.append(lab);
      this.radios[value] = input;
    }
    tools.append(fs);

    const band = el("label", { class: "pg-check" });
    this.bandBox = el("input", { type: "checkbox" });
    this.bandBox.checked = this.showBand;
    band.append(this.bandBox, el("span", {}, "margin band"));
    tools.append(band);

    const upd = el("label", { class: "pg-check" });
    this.updateBox = el("input", { type: "checkbox" });
    this.updateBox.checked = this.showUpdate;
    upd.append(this.updateBox, el("span", {}, "show each update"));
    tools.append(upd);

    // buttons
    const row = buttonRow("Run the perceptron", "pg", trainingButtons({ step: "consider the next example", reset: "start again from \u03b8 = 0" }), "demo-buttons");
    const buttons = row.element;
    this.buttons = row.buttons;

    // editing: undo and redo the last edit, clear the data
    const edits = el("div", { class: "demo-edits", role: "toolbar", "aria-label": "Edit the data" });
    this.undoRedo = new UndoRedo({
      history: this.history, root: r, prefix: "pg", what: "the last edit of the data",
      fallback: () => this.layer, restore: (snap) => this.restoreSnapshot(snap),
      told: (done, snap) => `${done}: ${snap.what}. ${this.describeData()}; ` +
        (this.visits() ? `the run is back at visit ${this.visits()}, ${this.stateText()}.` : "theta = 0."),
      say: (t) => this.say(t), focused: (i) => this.select_(i, false),
    });
    this.buttons.clear = el("button", { type: "button", class: "demo-button pg-clear", title: "remove every point" }, "Clear");
    edits.append(this.undoRedo.buttons.undo, this.undoRedo.buttons.redo, this.buttons.clear);
    tools.append(edits);

    // the generator: seeded data, the same as perceptron_lib.make_demo_data
    this.genForm = createGeneratorForm({ onGenerate: (o) => this.generate(o), say: (t) => this.say(t) });
    const genBox = this.genForm.element;

    // the plot: a drawing (role img) under a layer with the points (a group of buttons)
    const figure = el("div", { class: "demo-figure" });
    const stage = el("div", { class: "demo-stage" });
    this.plot = svg("svg", { class: "pg-plot", viewBox: `0 0 ${VB} ${VB}`, role: "img", focusable: "false" });
    const clipId = `${this.uid}-clip`;
    const defs = svg("defs");
    const clip = svg("clipPath", { id: clipId });
    clip.append(svg("rect", { x: AREA.left, y: AREA.top, width: AREA.size, height: AREA.size }));
    defs.append(clip);
    this.plot.append(defs);
    this.plot.append(svg("rect", { class: "pg-bg", x: AREA.left, y: AREA.top, width: AREA.size, height: AREA.size }));
    this.gridG = svg("g", { class: "pg-grid", "aria-hidden": "true" });
    this.ticksG = svg("g", { class: "pg-ticks", "aria-hidden": "true" });
    const clipped = svg("g", { "clip-path": `url(#${clipId})` });
    this.shade = shade.linearShade(defs, this.uid); // the plane shaded by the score
    this.bandPoly = svg("polygon", { class: "pg-band" });
    this.bandLines = [svg("line", { class: "pg-band-edge" }), svg("line", { class: "pg-band-edge" })];
    this.boundary = svg("line", { class: "pg-boundary" });
    this.arrowLine = svg("line", { class: "pg-normal" });
    this.arrowHead = svg("polygon", { class: "pg-normal-head" });
    this.marginG = svg("g", { class: "pg-margins" });
    this.minRing = svg("circle", { class: "pg-minring", r: RING_R + 4 });
    // an update: the old boundary (fading), theta before it, and y x from its tip
    this.ghostG = svg("g", { class: "pg-ghosts" });
    this.oldTheta = [svg("line", { class: "pg-theta-old" }), svg("polygon", { class: "pg-theta-old-head" })];
    this.updArrow = [svg("line", { class: "pg-update" }), svg("polygon", { class: "pg-update-head" })];
    this.updLabel = svg("text", { class: "pg-update-label" });
    this.updLabel.textContent = "y·x";
    this.ring = svg("circle", { class: "pg-ring", r: RING_R });
    this.optLine = svg("line", { class: "pg-opt", visibility: "hidden" }); // the separator of gamma_opt
    clipped.append(this.shade.element, this.gridG, this.bandPoly, ...this.bandLines, this.optLine, this.ghostG, this.boundary,
      this.arrowLine, this.arrowHead, ...this.oldTheta, ...this.updArrow, this.updLabel,
      this.minRing, this.ring, this.marginG);
    this.plot.append(clipped, this.ticksG,
      svg("rect", { class: "pg-frame", x: AREA.left, y: AREA.top, width: AREA.size, height: AREA.size }));

    this.layer = svg("svg", {
      class: "pg-points", viewBox: `0 0 ${VB} ${VB}`, role: "group", tabindex: "-1",
      "aria-label": "Data points. Click or tap to add a point, drag one to move it.",
    });
    this.hitArea = svg("rect", { class: "pg-hitarea", x: AREA.left, y: AREA.top, width: AREA.size, height: AREA.size });
    this.pointsG = svg("g");
    this.layer.append(this.hitArea, this.pointsG);
    stage.append(this.plot, this.layer);
    this.tip = tips.attachPointTip({
      stage, layer: this.layer, count: () => this.X.length,
      pointAt: (i) => [this.sx(this.X[i][0]), this.sy(this.X[i][1])], lines: (i) => this.tipLines(i),
    });

    const legend = el("p", { class: "demo-legend", "aria-hidden": "true" });
    legend.innerHTML =
      '<span><span class="demo-key demo-key-pos">+</span> y = +1</span> ' +
      '<span><span class="demo-key demo-key-neg">\u2212</span> y = \u22121</span> ' +
      '<span><span class="demo-key demo-key-line"></span> boundary</span> ' +
      '<span><span class="demo-key pg-key-normal">\u2192</span> direction of \u03b8</span> ' +
      '<span><span class="demo-key demo-key-ring"></span> current example</span> ' +
      '<span><span class="demo-key demo-key-ring-dashed"></span> a mistake: update</span> ' +
      '<span><span class="demo-key pg-key-update">\u2192</span> update y\u00b7x added to \u03b8</span> ' +
      '<span class="pg-key-band-entry"><span class="demo-key demo-key-band"></span> margin band</span>' +
      (this.marginMode
        ? ' <span><span class="demo-key pg-key-minring"></span> smallest margin</span>' +
          ' <span class="pg-key-opt-entry"><span class="demo-key pg-key-opt"></span> separator of \u03b3<sub>opt</sub></span>'
        : "");
    this.scoreKey = shade.scoreLegend(this.offset ? "score \u03b8\u00b7x + \u03b8\u2080" : "score \u03b8\u00b7x");
    legend.prepend(this.scoreKey, " ");
    this.legend = legend;
    this.chartHost = el("div", { class: "demo-chart" });
    this.chart = createEpochChart(this.chartHost, { title: "Updates per epoch, and training mistakes after each epoch" });
    figure.append(stage, legend, this.chartHost);

    // readout and the live status line
    const readout = el("div", { class: "demo-readout" });
    this.status = el("p", { class: "demo-status", "aria-live": "polite", "aria-atomic": "true" });
    const dl = el("dl", { class: "demo-values" });
    this.out = {};
    const rows = [
      ["theta", "\u03b8"],
      ["theta0", "\u03b8\u2080"],
      ["epoch", "epoch"],
      ["updates", "updates"],
      ["example", "example"],
      ["state", "state"],
      ["margin", "margin \u03b3"],
      ["best", "bound, best margin"],
      ["test", "test errors"],
      ["bound", "bound"],
      ["selected", "selected"],
    ];
    this.rows = {};
    for (const [key, text] of rows) {
      const row = el("div", { class: `demo-row pg-row-${key}` });
      const dd = el("dd");
      row.append(el("dt", {}, text), dd);
      dl.append(row);
      this.out[key] = dd;
      this.rows[key] = row;
    }
    readout.append(this.status, dl);

    // Play: the run moves on by itself, one update at a time
    ({ player: this.player, controls: this.playCtl } = addPlayer({
      root: r, toolbar: buttons, status: this.status, prefix: "pg", uid: this.uid, what: "the perceptron",
      tick: () => this.playTick(), canPlay: () => !this.notReady(), onStop: (why) => this.played(why),
    }));
    this.buttons.play = this.playCtl.button;

    const help = helpBox([
      ...points.helpLines(),
      "s Step, e Epoch, r Run, p Play or Pause, 0 Reset, whenever the focus is in the playground. Play makes one update at a time at the chosen speed; any other key or click pauses it.",
      "Changing the data starts the run again from \u03b8 = 0, and takes it to its end if it had ended.",
      ...UNDO_HELP,
    ]);

    const layout = el("div", { class: "pg-layout" });
    tools.classList.add("pg-area-tools");
    genBox.classList.add("pg-area-gen");
    buttons.classList.add("demo-area-buttons");
    figure.classList.add("demo-area-figure");
    readout.classList.add("demo-area-readout");
    help.classList.add("pg-area-help");
    layout.append(tools, buttons, genBox, figure, readout, help);
    this.layoutEl = layout;

    // events
    this.select.addEventListener("change", () => this.chooseDataset(Number(this.select.value)));
    this.buttons.clear.addEventListener("click", () => this.clear());
    for (const input of Object.values(this.radios)) {
      input.addEventListener("change", () => {
        if (input.checked) { this.label = Number(input.value); this.saveUrl("replace"); }
      });
    }
    this.bandBox.addEventListener("change", () => {
      this.showBand = this.bandBox.checked;
      this.render();
      this.saveUrl("push");
    });
    this.updateBox.addEventListener("change", () => {
      this.showUpdate = this.updateBox.checked;
      this.render();
    });
    this.buttons.step.addEventListener("click", () => this.step());
    this.buttons.epoch.addEventListener("click", () => this.epoch());
    this.buttons.run.addEventListener("click", () => this.runAll());
    this.buttons.reset.addEventListener("click", () => this.reset());
    r.addEventListener("keydown", (e) => this.onKey(e));
    points.attachPointer(this.layer, {
      prefix: "pg",
      press: (i) => this.select_(i, true),
      drag: (i, e, tag) => this.dragTo(i, e, tag),
      dragged: (i) => this.say(`Example ${i + 1} moved to ${vec(this.X[i])}; ${this.replayText()}.`),
      click: (e) => this.onClick(e),
    });
    this.layer.addEventListener("focusin", (e) => {
      const g = e.target.closest?.(".pg-pt");
      if (g) this.select_(Number(g.dataset.i), false);
    });
  }

  // -- data ---------------------------------------------------------------------------
  loadDataset(k, announce) {
    const d = this.datasets[k];
    this.datasetIndex = k;
    this.select.value = String(k);
    this.custom = false;
    this.nameMenuEntry();
    this.X = d.X.map((r) => r.slice());
    this.y = d.y.slice();
    this.bestGamma = d.bestGamma ?? null;
    this.opt = d.opt ?? null; // the separator of largest margin, from the library (margin mode)
    this.test = d.test ?? null; // the held-out test set {X, y}, if the data have one
    this.selected = -1;
    this.gen = d.gen ? { ...d.gen } : null;
    this.view = viewFor(this.X);
    this.drawView();
    this.rebuildPoints();
    this.newRun();
    this.render();
    if (announce) this.say(`Data set "${d.name}": ${this.describeData()}. theta = 0.`);
    else this.say(this.X.length ? `${this.describeData()}. Press Step to consider the first example.` : "No points yet: click in the plot to add some.");
  }

  /** Replace the data (API for tests and for pages that build data in code). */
  setData(X, y, name = "custom data") {
    const d = checkDataset({ name, X, y }, this.datasets.length);
    this.edit(null, `the data "${d.name}"`, () => {
      this.datasets.push(d);
      this.select.append(el("option", { value: String(this.datasets.length - 1) }, d.name));
      this.loadDataset(this.datasets.length - 1, false);
    });
  }

  /** The reader picks a data set in the menu. */
  chooseDataset(k) {
    if (!Number.isInteger(k) || k < 0 || k >= this.datasets.length) throw new Error(`no data set ${k}`);
    this.edit(null, `the data set "${this.datasets[k].name}"`, () => this.loadDataset(k, true));
  }

  /** Remove every point (an edit that Undo takes back). */
  clear() {
    const k = this.datasets.findIndex((d) => d.X.length === 0);
    this.edit(null, "clearing the data", () => {
      this.loadDataset(k, false);
      this.say("Cleared: no points. Click in the plot to add some; Undo brings the points back.");
    });
  }

  /** Generate data with the form's options (or the options given: API). */
  generate(options) {
    let o;
    try {
      o = options ? gen.checkOptions(options) : this.genForm.options();
    } catch (err) {
      this.say(`Cannot generate: ${err.message}.`);
      return false;
    }
    this.edit(null, "generating", () => this.applyGenerated(o, true));
    return true;
  }

  /** Put the generated data for options o (already checked) in place. */
  applyGenerated(o, announce) {
    const data = gen.generate(o);
    const name = generatedName(o, data);
    const test = data.Xtest.length ? { X: data.Xtest, y: data.ytest } : null;
    const d = { name, X: data.X, y: data.y, bestGamma: null, opt: null, gen: { ...o }, test };
    if (this.genIndex < 0) {
      this.datasets.push(d);
      this.genIndex = this.datasets.length - 1;
      this.select.append(el("option", { value: String(this.genIndex) }, name));
    } else {
      this.datasets[this.genIndex] = d;
      this.select.options[this.genIndex].textContent = name;
    }
    this.genForm.set(o);
    this.loadDataset(this.genIndex, false);
    if (announce) {
      this.say(`Generated ${this.describeData()}` + (data.flipped.length ? `, ${data.flipped.length} of them with the label flipped` : "") +
        ` (seed ${o.seed}). theta = 0.`);
    }
  }

  // -- edits, undo and the URL ------------------------------------------------------------
  /** Visits made in the current run (its step position). */
  visits() {
    const r = this.run;
    return r && r.last ? (r.t - 1) * r.n + r.next : 0; // r.n: the data the run was made on
  }

  snapshot(what) {
    return {
      what,
      datasetIndex: this.datasetIndex,
      X: this.X.map((p) => p.slice()),
      y: this.y.slice(),
      bestGamma: this.bestGamma,
      opt: this.opt,
      test: this.test,
      gen: this.gen ? { ...this.gen } : null,
      custom: this.custom,
      view: { ...this.view },
      visits: this.visits(),
      selected: this.selected,
    };
  }

  /** Put a snapshot back: the data, the view, and the run at the same step. */
  restoreSnapshot(snap) {
    if (snap.gen) this.applyGenerated(snap.gen, false); // the menu's entry for generated data
    this.datasetIndex = snap.datasetIndex;
    this.select.value = String(snap.datasetIndex);
    this.X = snap.X.map((p) => p.slice());
    this.y = snap.y.slice();
    this.bestGamma = snap.bestGamma;
    this.opt = snap.opt;
    this.test = snap.test;
    this.gen = snap.gen ? { ...snap.gen } : null;
    this.custom = snap.custom;
    this.nameMenuEntry();
    this.view = { ...snap.view };
    this.selected = -1;
    this.drawView();
    this.rebuildPoints();
    this.newRun();
    this.replay(snap.visits);
    this.render();
    if (snap.selected >= 0 && snap.selected < this.X.length) this.select_(snap.selected, false);
  }

  replay(visits) {
    if (!this.run) return;
    for (let k = 0; k < visits && !this.run.done; k++) this.run.step();
  }

  /**
   * Change the data: fn does it.  Undo can take it back; the URL gets a new history entry.
   * Edits in a row with the same tag (not null) are one: one snapshot, one entry.
   */
  edit(tag, what, fn) {
    this.history.edit(tag, what, fn);
    this.renderButtons();
  }

  /** The state a link carries (see url-state.mjs; checked again when read back). */
  urlStateObject() {
    const st = { v: 1, d: this.datasetIndex === this.genIndex ? 0 : this.datasetIndex };
    if (this.custom) {
      st.p = this.X.map((p, i) => [p[0], p[1], this.y[i]]);
      st.w = [this.view.x0, this.view.x1, this.view.y0, this.view.y1, this.view.span];
    } else if (this.gen) {
      st.g = { ...this.gen };
    }
    const v = this.visits();
    if (v) st.s = v;
    if (this.showBand !== this.marginMode) st.b = this.showBand ? 1 : 0;
    if (this.label !== 1) st.l = -1;
    return st;
  }

  saveUrl(mode) {
    this.history.save(mode);
  }

  /** Check a state read from the URL; returns what to apply, or throws saying what is wrong. */
  checkUrlState(st) {
    if (st.v !== 1) throw new Error(`its version ${JSON.stringify(st.v)} is not 1`);
    const out = { d: 0, points: null, view: null, gen: null, visits: 0, band: this.marginMode, label: 1 };
    if (st.d !== undefined) {
      const usable = this.datasets.filter((_, k) => k !== this.genIndex).length;
      if (!Number.isInteger(st.d) || st.d < 0 || st.d >= usable) throw new Error(`there is no data set ${JSON.stringify(st.d)}`);
      out.d = st.d;
    }
    if (st.p !== undefined) {
      if (!Array.isArray(st.p) || st.p.length > MAX_URL_POINTS) throw new Error(`its points must be a list of at most ${MAX_URL_POINTS}`);
      out.points = st.p.map((q, i) => {
        if (!Array.isArray(q) || q.length !== 3 || !q.every((v) => typeof v === "number" && Number.isFinite(v))) {
          throw new Error(`point ${i + 1} is not [x1, x2, label] with finite numbers`);
        }
        if (Math.abs(q[0]) > MAX_COORD || Math.abs(q[1]) > MAX_COORD) throw new Error(`point ${i + 1} is too far out`);
        if (q[2] !== 1 && q[2] !== -1) throw new Error(`point ${i + 1} has label ${q[2]}, not +1 or -1`);
        return q;
      });
      const w = st.w;
      if (!Array.isArray(w) || w.length !== 5 || !w.every((v) => typeof v === "number" && Number.isFinite(v) && Math.abs(v) <= 10 * MAX_COORD)) {
        throw new Error("its view is not five finite numbers");
      }
      const [x0, x1, y0, y1, span] = w;
      const close = (a, b) => Math.abs(a - b) <= 1e-9 * span;
      if (!(span > 0) || !close(x1 - x0, span) || !close(y1 - y0, span)) throw new Error("its view is not a square");
      out.view = viewFrom(x0, x1, y0, y1, span);
    } else if (st.g !== undefined) {
      if (!st.g || typeof st.g !== "object" || Array.isArray(st.g)) throw new Error("its generator settings are not an object");
      out.gen = gen.checkOptions(st.g);
    }
    if (st.s !== undefined) {
      const n = out.points ? out.points.length : out.gen ? out.gen.n : this.datasets[out.d].X.length;
      if (!Number.isInteger(st.s) || st.s < 0 || st.s > this.tau * n) throw new Error(`its step position ${JSON.stringify(st.s)} is out of range`);
      out.visits = st.s;
    }
    if (st.b !== undefined) {
      if (st.b !== 0 && st.b !== 1) throw new Error("its margin band switch is not 0 or 1");
      out.band = st.b === 1;
    }
    if (st.l !== undefined) {
      if (st.l !== 1 && st.l !== -1) throw new Error("its label of new points is not +1 or -1");
      out.label = st.l;
    }
    return out;
  }

  /** Apply a checked state (from the URL) without writing the URL. */
  applyUrlState(c) {
    if (c.gen) this.applyGenerated(c.gen, false);
    else this.loadDataset(c.d, false);
    if (c.points) {
      this.X = c.points.map((q) => [q[0], q[1]]);
      this.y = c.points.map((q) => q[2]);
      this.custom = true;
      this.nameMenuEntry();
      this.gen = null;
      this.bestGamma = null;
      this.opt = null;
      this.view = c.view;
      this.drawView();
      this.rebuildPoints();
      this.newRun();
    }
    this.showBand = c.band;
    this.bandBox.checked = c.band;
    this.label = c.label;
    this.radios[c.label].checked = true;
    this.replay(c.visits);
    this.render();
  }

  /** Read the page's URL at start. */
  restoreFromUrl() {
    const { state: st, error } = urlState.readState(this.key);
    if (error) { this.say(error); return; }
    if (!st) return;
    try {
      this.applyUrlState(this.checkUrlState(st));
      const v = this.visits();
      this.say(`Restored from the link: ${this.describeData()}` + (v ? `, after ${v} visit${v === 1 ? "" : "s"}; ${this.stateText()}.` : "."));
    } catch (err) {
      this.loadDataset(0, false);
      this.say(`The link's saved state for this demo was ignored: ${err.message}.`);
    }
  }

  /** Back or Forward: show the state of the history entry reached. */
  onHistory({ state: st, error }) {
    this.history.forget();
    if (error || !st) {
      this.loadDataset(0, false);
      this.say(error ?? `Back to the start: ${this.describeData()}.`);
      this.renderButtons();
      return;
    }
    try {
      this.applyUrlState(this.checkUrlState(st));
      this.say(`Back to an earlier state: ${this.describeData()}` + (this.visits() ? `; ${this.stateText()}.` : "."));
    } catch (err) {
      this.loadDataset(0, false);
      this.say(`The saved state for this demo was ignored: ${err.message}.`);
    }
    this.renderButtons();
  }

  describeData() {
    const pos = this.y.filter((v) => v > 0).length;
    const n = this.y.length;
    return `${n} point${n === 1 ? "" : "s"}, ${pos} labelled +1 and ${n - pos} labelled -1`;
  }

  newRun() {
    this.run = this.X.length ? core.createRun(this.X, this.y, this.tau, this.offset) : null;
  }

  /**
   * After an edit of the data the run starts again from theta = 0, and goes to its end at
   * once if it had reached its end (every chapter's demo does so).
   */
  dataChanged() {
    this.bestGamma = null; // it belonged to the data set as loaded
    this.opt = null; // so did the separator of largest margin
    this.custom = true;
    this.nameMenuEntry();
    this.gen = null;
    const ended = Boolean(this.run && this.run.done);
    this.newRun();
    if (this.run && ended) this.run.run();
    this.replayed = ended;
    this.render();
  }

  /** What an edit did to the run, for the status line. */
  replayText() {
    if (this.run && this.replayed) return `the run starts again and goes to its end: ${this.stateText()}`;
    return "the run starts again from theta = 0";
  }

  addPoint(p, label) {
    if (this.X.length >= MAX_URL_POINTS) {
      this.say(`The playground holds at most ${MAX_URL_POINTS} points; remove some first.`);
      return;
    }
    const i = this.X.length;
    this.edit(null, `adding example ${i + 1}`, () => {
      this.X.push(p);
      this.y.push(label);
      if (this.X.length > MAX_TABBABLE_POINTS || this.X.length > MAX_INDEX_LABELS) this.rebuildPoints();
      else this.appendPoint(i);
      this.select_(i, true);
      this.dataChanged();
      this.say(`Added example ${i + 1} at ${vec(p)} with label ${label > 0 ? "+1" : "-1"}; ${this.replayText()}.`);
    });
  }

  removePoint(i) {
    this.edit(null, `removing example ${i + 1}`, () => {
      const p = this.X[i];
      this.X.splice(i, 1);
      this.y.splice(i, 1);
      this.selected = -1;
      this.rebuildPoints();
      this.dataChanged();
      this.say(`Removed example ${i + 1} at ${vec(p)}; ${this.X.length} left; ${this.replayText()}.`);
      if (this.X.length) this.select_(Math.min(i, this.X.length - 1), true);
      else this.root.focus({ preventScroll: true });
    });
  }

  /** Move example i to p; moves with the same tag in a row are one edit (a drag). */
  movePoint(i, p, tag = null) {
    this.edit(tag, `moving example ${i + 1}`, () => {
      this.X[i] = p;
      this.placePoint(i);
      this.updatePointLabel(i);
      this.dataChanged();
    });
  }

  flipLabel(i) {
    this.edit(null, `changing the label of example ${i + 1}`, () => this.flipLabel_(i));
  }

  flipLabel_(i) {
    this.y[i] = -this.y[i];
    points.setPointLabel(this.pointEls[i], "pg", this.y[i]);
    this.updatePointLabel(i);
    this.dataChanged();
    this.say(`Example ${i + 1} now has label ${this.y[i] > 0 ? "+1" : "-1"}; ${this.replayText()}.`);
  }

  /** The menu says what is shown: a data set as loaded, or edited ("empty" no more). */
  nameMenuEntry() {
    this.datasets.forEach((d, k) => {
      const edited = this.custom && k === this.datasetIndex;
      const text = !edited ? d.name : d.X.length === 0 ? "your points" : `${d.name} (edited)`;
      if (this.select.options[k] && this.select.options[k].textContent !== text) this.select.options[k].textContent = text;
    });
  }

  // -- coordinates ----------------------------------------------------------------------
  sx(x) { return AREA.left + ((x - this.view.x0) / this.view.span) * AREA.size; }
  sy(y) { return AREA.top + ((this.view.y1 - y) / this.view.span) * AREA.size; }
  /** The data coordinates of the drawing's point (X, Y). */
  toData(X, Y) {
    const v = this.view;
    return [v.x0 + ((X - AREA.left) / AREA.size) * v.span, v.y1 - ((Y - AREA.top) / AREA.size) * v.span];
  }

  /** Data coordinates of a pointer event, or null outside the plot area. */
  eventToData(e, clamp = false) {
    const p = points.clientToData(this.layer, AREA, this.view, e.clientX, e.clientY, clamp);
    return p && this.snap(p);
  }

  snap(p) {
    return points.snapToView(this.view, p);
  }

  // -- drawing: the parts that change with the data set -------------------------------------
  drawView() {
    const v = this.view;
    this.gridG.textContent = "";
    this.ticksG.textContent = "";
    const first = (lo) => Math.ceil(lo / v.step - 1e-9) * v.step;
    for (let x = first(v.x0); x <= v.x1 + 1e-9; x += v.step) {
      const X = this.sx(x);
      const axis = Math.abs(x) < v.step / 1e6;
      this.gridG.append(svg("line", { class: axis ? "pg-axis" : "pg-gridline", x1: X, x2: X, y1: AREA.top, y2: AREA.top + AREA.size }));
      const t = svg("text", { x: X, y: AREA.top + AREA.size + 14, "text-anchor": "middle" });
      t.textContent = show(num(roundTo(x, v.step / 100)));
      this.ticksG.append(t);
    }
    for (let y = first(v.y0); y <= v.y1 + 1e-9; y += v.step) {
      const Y = this.sy(y);
      const axis = Math.abs(y) < v.step / 1e6;
      this.gridG.append(svg("line", { class: axis ? "pg-axis" : "pg-gridline", y1: Y, y2: Y, x1: AREA.left, x2: AREA.left + AREA.size }));
      const t = svg("text", { x: AREA.left - 4, y: Y + 4, "text-anchor": "end" });
      t.textContent = show(num(roundTo(y, v.step / 100)));
      this.ticksG.append(t);
    }
    const xl = svg("text", { x: AREA.left + AREA.size - 2, y: AREA.top + AREA.size - 5, "text-anchor": "end", class: "pg-axislabel" });
    xl.textContent = "x\u2081";
    const yl = svg("text", { x: AREA.left + 5, y: AREA.top + 13, class: "pg-axislabel" });
    yl.textContent = "x\u2082";
    this.ticksG.append(xl, yl);
  }

  rebuildPoints() {
    this.pointsG.textContent = "";
    this.marginG.textContent = "";
    this.pointEls = [];
    this.marginEls = [];
    for (let i = 0; i < this.X.length; i++) this.appendPoint(i);
    this.updateTabStops();
  }

  appendPoint(i) {
    const g = points.pointGroup("pg", i, this.y[i]);
    if (this.X.length <= MAX_INDEX_LABELS) {
      const t = svg("text", { class: "pg-idx", x: 8, y: -8, "aria-hidden": "true" });
      t.textContent = String(i + 1);
      g.append(t);
    }
    this.pointsG.append(g);
    this.pointEls[i] = g;
    if (this.marginMode) {
      const m = svg("text", { class: "pg-mlabel", "text-anchor": "middle" });
      this.marginG.append(m);
      this.marginEls[i] = m;
    }
    this.placePoint(i);
    this.updatePointLabel(i);
    g.tabIndex = this.X.length <= MAX_TABBABLE_POINTS ? 0 : -1;
  }

  placePoint(i) {
    const [a, b] = this.X[i];
    this.pointEls[i].setAttribute("transform", `translate(${this.sx(a).toFixed(2)} ${this.sy(b).toFixed(2)})`);
    if (this.marginMode) {
      this.marginEls[i].setAttribute("x", this.sx(a).toFixed(2));
      this.marginEls[i].setAttribute("y", (this.sy(b) + 22).toFixed(2));
    }
  }

  updatePointLabel(i) {
    this.pointEls[i].setAttribute("aria-label", points.pointName(i, vec(this.X[i]), this.y[i]));
  }

  updateTabStops() {
    if (this.X.length > MAX_TABBABLE_POINTS) points.setTabStops(this.pointEls, this.selected);
  }

  select_(i, focus) {
    if (this.selected >= 0 && this.pointEls[this.selected]) this.pointEls[this.selected].classList.remove("pg-selected");
    this.selected = i;
    if (i >= 0) {
      const g = this.pointEls[i];
      g.classList.add("pg-selected");
      this.updateTabStops();
      if (focus && document.activeElement !== g) g.focus({ preventScroll: true });
    }
    this.renderSelected();
  }

  // -- drawing: what a step changes ---------------------------------------------------------
  render() {
    const r = this.run;
    const v = this.view;
    const theta = r ? r.theta : [0, 0];
    const theta0 = r ? r.theta0 : 0;
    const hasLine = theta[0] !== 0 || theta[1] !== 0;
    const rect = [[v.x0, v.y0], [v.x1, v.y0], [v.x1, v.y1], [v.x0, v.y1]];
    const pts = (poly) => poly.map(([a, b]) => `${this.sx(a).toFixed(2)},${this.sy(b).toFixed(2)}`).join(" ");
    const hide = (e) => e.setAttribute("visibility", "hidden");
    const unhide = (e) => e.removeAttribute("visibility");

    let margins = null;
    if (hasLine && this.X.length) margins = core.pointMargins(this.X, this.y, theta, theta0);
    let minI = -1;
    if (margins) minI = margins.reduce((best, m, i) => (m < margins[best] ? i : best), 0);

    // the plane shaded by the score, on a scale capped at the data's largest |score|
    const cap = hasLine ? shade.scoreCap(this.X.map((x) => core.score(theta, theta0, x))) : 0;
    this.shade.update((X, Y) => core.score(theta, theta0, this.toData(X, Y)), cap,
      { x: AREA.left, y: AREA.top, w: AREA.size, h: AREA.size });
    this.scoreKey.setCap(cap);
    if (hasLine) {
      const [a, b] = theta;
      const seg = lineInBox(a, b, theta0, v);
      if (seg) {
        this.boundary.setAttribute("x1", this.sx(seg[0][0])); this.boundary.setAttribute("y1", this.sy(seg[0][1]));
        this.boundary.setAttribute("x2", this.sx(seg[1][0])); this.boundary.setAttribute("y2", this.sy(seg[1][1]));
        unhide(this.boundary);
      } else hide(this.boundary);
      // the normal: from the point of the boundary nearest the middle of the view
      const nn = a * a + b * b;
      const cx = (v.x0 + v.x1) / 2;
      const cy = (v.y0 + v.y1) / 2;
      const off = core.score(theta, theta0, [cx, cy]) / nn;
      const fx = cx - off * a;
      const fy = cy - off * b;
      if (seg && fx >= v.x0 && fx <= v.x1 && fy >= v.y0 && fy <= v.y1) {
        const len = 0.16 * v.span / Math.sqrt(nn);
        const X1 = this.sx(fx); const Y1 = this.sy(fy);
        const X2 = this.sx(fx + a * len); const Y2 = this.sy(fy + b * len);
        const ux = (X2 - X1) / Math.hypot(X2 - X1, Y2 - Y1); const uy = (Y2 - Y1) / Math.hypot(X2 - X1, Y2 - Y1);
        const bx = X2 - 11 * ux; const by = Y2 - 11 * uy;
        this.arrowLine.setAttribute("x1", X1); this.arrowLine.setAttribute("y1", Y1);
        this.arrowLine.setAttribute("x2", bx + 2 * ux); this.arrowLine.setAttribute("y2", by + 2 * uy);
        this.arrowHead.setAttribute("points",
          `${X2.toFixed(2)},${Y2.toFixed(2)} ${(bx - 5 * uy).toFixed(2)},${(by + 5 * ux).toFixed(2)} ${(bx + 5 * uy).toFixed(2)},${(by - 5 * ux).toFixed(2)}`);
        unhide(this.arrowLine); unhide(this.arrowHead);
      } else { hide(this.arrowLine); hide(this.arrowHead); }
    } else {
      for (const e of [this.boundary, this.arrowLine, this.arrowHead]) hide(e);
    }

    // margin band: the strip of half-width gamma around a boundary that separates the data
    const gamma = margins ? margins[minI] : -1;
    if (this.showBand && hasLine && gamma > 0) {
      const [a, b] = theta;
      const w = gamma * Math.sqrt(a * a + b * b);
      let band = clipPolygon(rect, a, b, theta0 + w);
      band = band.length ? clipPolygon(band, -a, -b, -theta0 + w) : band;
      if (band.length >= 3) { this.bandPoly.setAttribute("points", pts(band)); unhide(this.bandPoly); } else hide(this.bandPoly);
      [-w, w].forEach((s, k) => {
        const seg = lineInBox(a, b, theta0 + s, v);
        const line = this.bandLines[k];
        if (seg) {
          line.setAttribute("x1", this.sx(seg[0][0])); line.setAttribute("y1", this.sy(seg[0][1]));
          line.setAttribute("x2", this.sx(seg[1][0])); line.setAttribute("y2", this.sy(seg[1][1]));
          unhide(line);
        } else hide(line);
      });
    } else {
      hide(this.bandPoly); hide(this.bandLines[0]); hide(this.bandLines[1]);
    }

    // margin mode: the separator of largest margin, dashed (the data sets as given only)
    const optSeg = this.marginMode && this.opt ? lineInBox(this.opt.theta[0], this.opt.theta[1], this.opt.theta0, v) : null;
    if (optSeg) {
      this.optLine.setAttribute("x1", this.sx(optSeg[0][0])); this.optLine.setAttribute("y1", this.sy(optSeg[0][1]));
      this.optLine.setAttribute("x2", this.sx(optSeg[1][0])); this.optLine.setAttribute("y2", this.sy(optSeg[1][1]));
      unhide(this.optLine);
    } else hide(this.optLine);
    this.legend.querySelector(".pg-key-band-entry").hidden = !this.showBand;
    const optKey = this.legend.querySelector(".pg-key-opt-entry");
    if (optKey) optKey.hidden = !optSeg;

    this.renderUpdate();

    // the example under consideration
    const cur = this.currentIndex();
    if (cur >= 0) {
      this.ring.setAttribute("cx", this.sx(this.X[cur][0]));
      this.ring.setAttribute("cy", this.sy(this.X[cur][1]));
      this.ring.classList.toggle("pg-ring-mistake", Boolean(r && r.last && r.last.mistake));
      unhide(this.ring);
    } else hide(this.ring);

    // margins of every point (margin mode)
    if (this.marginMode) {
      const few = this.X.length <= MAX_MARGIN_LABELS;
      for (let i = 0; i < this.marginEls.length; i++) {
        const t = this.marginEls[i];
        if (!margins || (!few && i !== minI)) { t.setAttribute("visibility", "hidden"); continue; }
        t.textContent = show(margins[i].toFixed(2));
        t.removeAttribute("visibility");
        t.classList.toggle("pg-mlabel-min", i === minI);
        t.classList.toggle("pg-mlabel-neg", margins[i] <= 0);
      }
      this.placeLabels(minI);
      if (minI >= 0) {
        this.minRing.setAttribute("cx", this.sx(this.X[minI][0]));
        this.minRing.setAttribute("cy", this.sy(this.X[minI][1]));
        unhide(this.minRing);
      } else hide(this.minRing);
    } else {
      hide(this.minRing);
      if (this.X.length <= MAX_INDEX_LABELS) this.placeLabels(-1); // the indices, apart
    }

    this.renderReadout(margins, minI);
    this.renderChart();
    this.tip.refresh();
    this.plot.setAttribute("aria-label", forPeople(this.describePlot(hasLine, cur, margins, minI)));
  }

  /**
   * The margins written next to the points (margin mode) and the points' indices, placed
   * so that none overlaps another or a point (the smallest margin first, then the other
   * margins, then the indices); a label without room is hidden, the tooltip still has it.
   */
  placeLabels(minI) {
    const n = this.X.length;
    const at = (i) => [this.sx(this.X[i][0]), this.sy(this.X[i][1])];
    const labels = [];
    const order = minI >= 0 ? [minI, ...Array.from({ length: n }, (_, i) => i).filter((i) => i !== minI)] : [];
    for (const i of order) {
      const t = this.marginEls[i];
      if (t && t.getAttribute("visibility") !== "hidden" && t.textContent) labels.push({ t, i, inPoint: false });
    }
    for (let i = 0; i < n; i++) {
      const t = this.pointEls[i] && this.pointEls[i].querySelector(".pg-idx");
      if (t) labels.push({ t, i, inPoint: true });
    }
    // read every box first (one layout), then write
    const boxes = labels.map(({ t }) => t.getBBox());
    const ys = labels.map(({ t }) => Number(t.getAttribute("y")) || 0);
    const items = labels.map(({ i, inPoint }, k) => {
      const [x, y] = at(i);
      const w = boxes[k].width + 2;
      const h = boxes[k].height;
      const near = nearOffsets(w, h, inPoint ? 6 : 8);
      // an index goes to a corner first (above right, as in chapter 1), a margin below
      return { x, y, w, h, offsets: inPoint ? [...near.slice(4), ...near.slice(0, 4)] : near };
    });
    const obstacles = [];
    for (let i = 0; i < n; i++) {
      const [x, y] = at(i);
      obstacles.push({ x0: x - 7, y0: y - 7, x1: x + 7, y1: y + 7 }); // a mark, + or \u2212
    }
    const where = placeLabels(items, obstacles, { x0: AREA.left, y0: AREA.top, x1: AREA.left + AREA.size, y1: AREA.top + AREA.size });
    labels.forEach(({ t, i, inPoint }, k) => {
      const c = where[k];
      if (!c) { t.setAttribute("visibility", "hidden"); return; }
      const ascent = ys[k] - boxes[k].y; // from the box's top to the baseline
      const [px, py] = inPoint ? at(i) : [0, 0];
      t.setAttribute("text-anchor", "middle");
      t.setAttribute("x", (c[0] - px).toFixed(2));
      t.setAttribute("y", (c[1] - items[k].h / 2 + ascent - py).toFixed(2));
      t.removeAttribute("visibility");
    });
  }

  /**
   * Margin mode: gamma_opt beside the current margin.  It comes from the library with the
   * data sets as the page gives them; for data the reader edited or generated there is no
   * library to ask in the page, so it is not shown (nor its separator), and the note says
   * why, rather than a value the page's own arithmetic would have to be trusted for.
   */
  optNote() {
    const note = el("span", { class: "pg-note pg-opt-note" });
    if (this.opt) {
      note.append("best possible: \u03b3", el("sub", {}, "opt"), show(` = ${num(this.opt.gamma)} (dashed line, from the library)`));
    } else if (this.custom || this.gen) {
      note.append("\u03b3", el("sub", {}, "opt"), " is given for the data sets as loaded; not for edited or generated data");
    } else {
      note.append("no \u03b3", el("sub", {}, "opt"), ": no separator is given for these data");
    }
    return note;
  }

  /** The tooltip of point i: its score, margin and whether the next update is on it. */
  tipLines(i) {
    const r = this.run;
    const facts = tips.linearFacts(this.X[i], this.y[i], r ? r.theta : [0, 0], r ? r.theta0 : 0);
    return tips.tipLines(i, this.y[i], facts, { fmt: (v) => num(v), score: this.offset ? "score \u03b8\u00b7x + \u03b8\u2080" : "score \u03b8\u00b7x" });
  }

  /** Draw the update just made (if any, and if asked): theta before it, y x, the old boundary. */
  renderUpdate() {
    const u = this.lastUpdate;
    const r = this.run;
    const show_ = Boolean(this.showUpdate && u && r && u.run === r && u.visits === this.visits());
    const parts = [...this.oldTheta, ...this.updArrow, this.updLabel];
    if (!show_) {
      for (const e of parts) e.setAttribute("visibility", "hidden");
      this.ghostG.textContent = "";
      return;
    }
    const O = [this.sx(0), this.sy(0)];
    const A = [this.sx(u.theta[0]), this.sy(u.theta[1])];
    const B = [this.sx(r.theta[0]), this.sy(r.theta[1])];
    const hadTheta = u.theta[0] !== 0 || u.theta[1] !== 0;
    if (hadTheta) arrow(...this.oldTheta, O, A);
    else for (const e of this.oldTheta) e.setAttribute("visibility", "hidden");
    arrow(...this.updArrow, A, B);
    if (Math.hypot(B[0] - A[0], B[1] - A[1]) >= 1e-9) { // x = 0 moves theta_0 only
      this.updLabel.setAttribute("x", ((A[0] + B[0]) / 2 + 6).toFixed(2));
      this.updLabel.setAttribute("y", ((A[1] + B[1]) / 2 - 6).toFixed(2));
      this.updLabel.removeAttribute("visibility");
    } else this.updLabel.setAttribute("visibility", "hidden");
    // the boundary before the update, drawn anew so that its fading starts again
    this.ghostG.textContent = "";
    const seg = hadTheta ? lineInBox(u.theta[0], u.theta[1], u.theta0, this.view) : null;
    if (seg) {
      this.ghostG.append(svg("line", {
        class: "pg-ghost demo-fade",
        x1: this.sx(seg[0][0]), y1: this.sy(seg[0][1]), x2: this.sx(seg[1][0]), y2: this.sy(seg[1][1]),
      }));
    }
  }

  currentIndex() {
    const r = this.run;
    if (!r) return -1;
    if (r.last) return r.last.index;
    return r.next < this.X.length ? r.next : -1;
  }

  renderReadout(margins, minI) {
    const r = this.run;
    const o = this.out;
    const theta = r ? r.theta : [0, 0];
    o.theta.textContent = show(vec(theta));
    o.theta0.textContent = show(num(r ? r.theta0 : 0)) + (this.offset ? "" : " (through the origin)");
    o.epoch.textContent = r ? `${r.last ? r.t : 1} of \u03c4 = ${this.tau}` : "\u2013";
    o.updates.textContent = r ? String(r.mistakes) : "0";
    if (!r) {
      o.example.textContent = "no points yet";
      o.state.textContent = "add points to start";
    } else {
      if (r.last) {
        const i = r.last.index;
        o.example.textContent = show(`x(${i + 1}) = ${vec(this.X[i])}, y = ${labelText(this.y[i])}: score ${num(r.last.score)}, `) +
          (r.last.mistake ? "mistake, update" : "correct, no update");
      } else {
        o.example.textContent = show(`next: x(${r.next + 1}) = ${vec(this.X[r.next])}, y = ${labelText(this.y[r.next])}`);
      }
      if (r.converged) o.state.textContent = `converged: epoch ${r.t} made no mistake`;
      else if (r.stopped) o.state.textContent = `stopped after \u03c4 = ${this.tau} epochs, each with a mistake`;
      else o.state.textContent = r.last ? `running; next example x(${r.next + 1})` : "ready: \u03b8 = 0, every point is on the (missing) boundary";
    }
    // the margin and the bound, once a clean pass has happened
    const done = r && r.converged && margins;
    this.rows.margin.hidden = !(done || (this.marginMode && r));
    this.rows.bound.hidden = !done;
    if (margins) {
      const g = margins[minI];
      o.margin.textContent = show(`${num(g)}, at x(${minI + 1})`) + (done ? " (data set, learned separator)" : " (data set, current \u03b8)");
    }
    if (this.marginMode && r && !margins) o.margin.textContent = "none yet: \u03b8 = 0";
    if (this.marginMode && r) o.margin.append(this.optNote());
    this.rows.best.hidden = !(r && this.bestGamma);
    if (r && this.bestGamma) {
      const lifted = this.offset ? this.X.map(([a, b]) => [a, b, 1]) : this.X;
      const R = core.radius(lifted);
      const sub = this.offset ? "\u2081" : "";
      o.best.textContent = show(`(R${sub}/\u03b3*)\u00b2 = ${num(core.mistakeBound(R, this.bestGamma))}; updates so far: ${r.mistakes}`);
      o.best.append(el("span", { class: "pg-note" }, show(
        `R${sub} = ${num(R)}, best margin \u03b3* = ${num(this.bestGamma)}` +
        (this.offset ? " of the points lifted to (x, 1)" : "") + ", from the library; editing the data removes it")));
    }
    if (done) {
      const g = margins[minI];
      if (g > 0) {
        const made = `; updates made: ${r.mistakes}`;
        let text;
        let note;
        if (this.offset) {
          // Chapter 4: with an offset the theorem applies to the data lifted to (x, 1) and
          // the separator (theta, theta_0), whose margin there is smaller.  (R / gamma)^2
          // with the plain R and gamma is no bound for PERCEPTRON with an offset.
          const Xl = this.X.map(([a, b]) => [a, b, 1]);
          const R1 = core.radius(Xl);
          const g1 = core.margin(Xl, this.y, [...r.theta, r.theta0], 0);
          text = `bound with this separator's margin: (R\u2081/\u03b3\u2081)\u00b2 = ${num(core.mistakeBound(R1, g1))}${made}`;
          note = `with the offset, the theorem applies to the points lifted to (x, 1): ` +
            `R\u2081 = ${num(R1)}, \u03b3\u2081 = ${num(g1)} (chapter 4)`;
        } else {
          const R = core.radius(this.X);
          text = `bound with this separator's margin: (R/\u03b3)\u00b2 = ${num(core.mistakeBound(R, g))}${made}`;
          note = `R = max \u2016x\u2016 = ${num(R)}`;
        }
        o.bound.textContent = show(text);
        o.bound.append(el("span", { class: "pg-note" }, show(note)));
      } else {
        o.bound.textContent = "none: a point lies on the boundary";
      }
    }
    // the held-out test set: how many of its examples the current hypothesis gets wrong
    this.rows.test.hidden = !(r && this.test);
    if (r && this.test) {
      const m = this.test.X.length;
      const k = core.errors(this.test.X, this.test.y, r.theta, r.theta0);
      o.test.textContent = `${k} of ${m} held-out examples (${num(100 * k / m, 3)}%), training: ` +
        `${core.errors(this.X, this.y, r.theta, r.theta0)} of ${this.X.length}`;
    }
    this.renderSelected();
    this.renderButtons();
  }

  renderSelected() {
    const i = this.selected;
    this.rows.selected.hidden = i < 0;
    if (i >= 0) {
      this.out.selected.textContent = show(`x(${i + 1}) = ${vec(this.X[i])}, y = ${labelText(this.y[i])}`) + " \u2013 Delete removes it";
    }
  }

  renderButtons() {
    const done = !this.run || this.run.done;
    for (const k of ["step", "epoch", "run"]) this.buttons[k].setAttribute("aria-disabled", String(done));
    this.buttons.reset.setAttribute("aria-disabled", String(!this.run || (!this.run.last)));
    this.undoRedo.render();
    this.buttons.clear.setAttribute("aria-disabled", String(this.X.length === 0));
  }

  renderChart() {
    if (!this.run) { this.chart.update([]); return; }
    const { rows, partial } = core.epochTotals(this.run, this.test);
    this.chart.update(rows, partial, { testSize: this.test ? this.test.X.length : null });
  }

  describePlot(hasLine, cur, margins, minI) {
    const r = this.run;
    const parts = [`Plot of ${this.describeData()}`];
    if (hasLine) parts.push(`boundary of theta = ${vec(r.theta)}, theta_0 = ${num(r.theta0)}, the plane shaded by the score, blue where it is positive, orange where negative`);
    else parts.push("no boundary yet, theta = 0");
    if (cur >= 0) parts.push(`example ${cur + 1} ringed`);
    if (this.marginMode && margins) parts.push(`smallest margin ${num(margins[minI])} at example ${minI + 1}`);
    if (this.marginMode && this.opt) parts.push(`dashed, the separator of largest margin, \u03b3 opt = ${num(this.opt.gamma)}`);
    return parts.join("; ") + ".";
  }

  say(text) {
    this.status.textContent = forPeople(text);
  }

  // -- the run ----------------------------------------------------------------------------
  stateText() {
    const r = this.run;
    return `theta = ${vec(r.theta)}, theta_0 = ${num(r.theta0)}`;
  }

  endText() {
    const r = this.run;
    if (r.converged) return ` Epoch ${r.t} made no mistake: converged after ${r.mistakes} update${r.mistakes === 1 ? "" : "s"}.`;
    if (r.stopped) return ` Tau = ${this.tau} epochs done, each with a mistake: stopped.`;
    return "";
  }

  notReady() {
    if (!this.run) { this.say("No points yet: click in the plot to add some."); return true; }
    if (this.run.done) { this.say(nothingToDo(this.run, "tau")); return true; }
    return false;
  }

  /** After a step, an epoch, a run or a reset: the URL follows (no new history entry). */
  ran() {
    this.history.moved();
  }

  /** One visit of the run, remembering the update it makes (for renderUpdate). */
  visit() {
    const r = this.run;
    const before = { run: r, theta: r.theta.slice(), theta0: r.theta0, mistakes: r.mistakes };
    const s = r.step();
    this.lastUpdate = r.mistakes > before.mistakes ? { ...before, visits: this.visits(), index: s.index } : null;
    return s;
  }

  step() {
    if (this.notReady()) return null;
    const s = this.visit();
    this.render();
    this.ran();
    this.say(`Example ${s.index + 1}: ${s.mistake ? "mistake, update" : "correct, no update"}; ${this.stateText()}.${this.endText()}`);
    return s;
  }

  epoch() {
    if (this.notReady()) return null;
    const t = this.run.t;
    const before = this.run.mistakes;
    const s = this.run.epoch();
    this.render();
    this.ran();
    const k = this.run.mistakes - before;
    this.say(`Epoch ${t} finished: ${k} update${k === 1 ? "" : "s"}; ${this.stateText()}.${this.endText()}`);
    return s;
  }

  runAll() {
    if (this.notReady()) return null;
    const s = this.run.run();
    this.render();
    this.ran();
    this.say(`${this.endText().trim()} ${this.stateText()}.`);
    return s;
  }

  /** Play's tick: visit examples up to the next update (or the end of the run), draw it. */
  playTick() {
    const r = this.run;
    if (!r || r.done) return false;
    const start = this.visits();
    const before = { run: r, theta: r.theta.slice(), theta0: r.theta0, mistakes: r.mistakes };
    const s = r.toUpdate();
    this.lastUpdate = s.mistake ? { ...before, visits: this.visits(), index: s.index } : null;
    this.render();
    const passed = this.visits() - start - 1;
    const skipped = passed > 0 ? ` (${passed} correct before it)` : "";
    this.say(this.lastUpdate
      ? `Update at example ${s.index + 1}${skipped}: ${this.stateText()}.${this.endText()}`
      : `No update in the last ${this.visits() - start} visit${this.visits() - start === 1 ? "" : "s"}.${this.endText()}`);
    return !r.done;
  }

  /** Playing stopped: the URL follows the run, and the status line says where it is. */
  played(why) {
    this.ran();
    if (!this.run) return;
    const r = this.run;
    if (why === "end") this.say(`${this.endText().trim()} ${this.stateText()}.`);
    else if (why === "pause") this.say(`Paused after ${this.player.ticks} update${this.player.ticks === 1 ? "" : "s"}: epoch ${r.t}, ${this.stateText()}.`);
  }

  reset() {
    if (!this.run) { this.say("No points yet: click in the plot to add some."); return; }
    this.run.reset();
    this.render();
    this.ran();
    this.say("Reset: theta = 0, theta_0 = 0, epoch 1.");
  }

  // -- input ------------------------------------------------------------------------------
  /** A point dragged to the pointer event e: moved there (snapped, kept in the view). */
  dragTo(i, e, tag) {
    const p = this.eventToData(e, true);
    if (!p) return;
    const old = this.X[i];
    if (p[0] !== old[0] || p[1] !== old[1]) this.movePoint(i, p, tag);
  }

  /** A click or tap off the points: a point there, with the chosen label (Shift: the other). */
  onClick(e) {
    const p = this.eventToData(e);
    if (!p) return;
    this.addPoint(p, e.shiftKey ? -this.label : this.label);
  }

  setLabel(v) {
    this.label = v;
    this.radios[v].checked = true;
    this.saveUrl("replace");
    this.say(`New points get label ${v > 0 ? "+1" : "-1"}.`);
  }

  onKey(e) {
    const t = e.target;
    const typing = t.tagName === "SELECT" || t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && !["radio", "checkbox", "range"].includes(t.type));
    if (!typing && this.undoRedo.onKey(e)) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (t.type === "range") return;
    if (t.tagName === "SELECT" || (t.tagName === "INPUT" && !["radio", "checkbox"].includes(t.type)) || t.tagName === "TEXTAREA") return;
    const pt = t.closest ? t.closest(".pg-pt") : null;
    if (pt && points.editByKey(e, Number(pt.dataset.i), { view: this.view, at: (i) => this.X[i],
      remove: (i) => this.removePoint(i), flip: (i) => this.flipLabel(i), move: (i, p, tag) => {
        this.movePoint(i, p, tag);
        this.say(`Example ${i + 1} at ${vec(p)}.`);
      } })) return;
    const key = e.key;
    const k = key.length === 1 ? key.toLowerCase() : key;
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
      n: () => {
        if (n) this.select_(points.nextPoint(this.selected, n, e.shiftKey), true);
      },
    };
    if (Object.hasOwn(actions, k)) {
      e.preventDefault();
      actions[k]();
    }
  }

  // -- API for tests and for pages that drive the playground ------------------------------
  state() {
    const r = this.run;
    return {
      X: this.X.map((p) => p.slice()),
      y: this.y.slice(),
      theta: r ? r.theta.slice() : [0, 0],
      theta0: r ? r.theta0 : 0,
      mistakes: r ? r.mistakes : 0,
      epoch: r ? r.t : 1,
      epochs: r ? r.epochs : 0,
      next: r ? r.next : 0,
      converged: r ? r.converged : false,
      done: r ? r.done : false,
      selected: this.selected,
      label: this.label,
      dataset: this.datasets[this.datasetIndex].name,
      view: { x0: this.view.x0, x1: this.view.x1, y0: this.view.y0, y1: this.view.y1 },
      bestGamma: this.bestGamma,
      gammaOpt: this.opt ? this.opt.gamma : null,
      datasets: this.datasets.map((d) => d.name),
      status: this.status.textContent,
      key: this.key,
      visits: this.visits(),
      custom: this.custom,
      generator: this.gen ? { ...this.gen } : null,
      showBand: this.showBand,
      undoDepth: this.history.depth,
      redoDepth: this.history.redoDepth,
      chart: this.chart.values(),
      playing: this.player.playing,
      speed: this.player.speed,
      test: this.test ? { X: this.test.X.map((p) => p.slice()), y: this.test.y.slice() } : null,
      testErrors: r && this.test ? core.errors(this.test.X, this.test.y, r.theta, r.theta0) : null,
      update: this.lastUpdate && this.lastUpdate.run === r && this.lastUpdate.visits === this.visits()
        ? { theta: this.lastUpdate.theta.slice(), theta0: this.lastUpdate.theta0, index: this.lastUpdate.index }
        : null,
    };
  }
}

/** Turn one element into a playground (once); returns its API object or null. */
export function mount(root) {
  if (root.perceptronPlayground) return root.perceptronPlayground;
  try {
    const pg = new Playground(root);
    root.perceptronPlayground = {
      step: () => pg.step(),
      epoch: () => pg.epoch(),
      run: () => pg.runAll(),
      reset: () => pg.reset(),
      play: () => pg.player.play(),
      pause: () => pg.player.pause(),
      /** Play's speed, in updates a second (one of player.mjs's SPEEDS). */
      setSpeed: (s) => { pg.player.setSpeed(s); pg.playCtl.sync(); },
      state: () => pg.state(),
      setData: (X, y, name) => pg.setData(X, y, name),
      selectDataset: (k) => pg.chooseDataset(k),
      undo: () => pg.undoRedo.undo(),
      redo: () => pg.undoRedo.redo(),
      clear: () => pg.clear(),
      /** Generate data: options {kind, n, seed, margin, spread, flip}, or the form's. */
      generate: (options) => pg.generate(options),
      /** The state object the page's URL carries for this playground. */
      urlState: () => pg.urlStateObject(),
      render: () => pg.render(),
      /** Where the data point (x, y) is on the screen, in client pixels. */
      clientPoint: (x, y) => {
        const m = pg.layer.getScreenCTM();
        const q = new DOMPoint(pg.sx(x), pg.sy(y)).matrixTransform(m);
        return [q.x, q.y];
      },
    };
    return root.perceptronPlayground;
  } catch (err) {
    showError(root, err, "perceptron playground", "pg");
    return null;
  }
}

/** Mount every div.perceptron-playground of the document (at once when it is ready). */
export const mountAll = mountEvery("perceptron-playground", (root) => {
  const api = mount(root);
  if (typeof performance !== "undefined" && performance.mark) performance.mark("perceptron-playground-ready");
  return api;
});
