// Chapter 2's offset demo (no framework, no other host).
//
// Every <div class="offset-demo"> on the page becomes one:
//
//   <div class="offset-demo"
//        data-datasets='[{"name": "offset example", "X": [[1],[2],[3],[4]], "y": [1,1,-1,-1],
//                         "theta": [-1], "theta0": 2.5}]'
//        data-c="1.0"        (the appended value at the start: one of offset-core.mjs C_VALUES)
//        data-tau="2000">    (the most epochs a run makes)
//     <div class="od-frame"><div class="od-fallback">...</div></div>
//   </div>
//
// perceptron_lib.demos.offset writes that element from the chapter's arrays.  The demo is
// built into .od-frame at once (the stylesheet has kept its room); it draws and runs only
// when it comes near the screen.  All arithmetic is done by offset-core.mjs (on top of the
// course's perceptron core), which tests/test_offset_demo_core.py compares with
// perceptron_lib.
//
// The reader edits the data in the left picture as in every chapter's demo
// (../kit/point-editor.mjs): a click adds a point with the label chosen beside it
// (Shift-click: the other label), a click on a point selects it and a drag moves it; from
// the keyboard, Tab reaches the points, Delete removes, Enter flips, arrow keys move, "a"
// adds one.  Both runs start again on the edited data.  Under the runs, a chart of each run's updates per epoch and training
// mistakes after each epoch grows as the runs go (../kit/epoch-chart.mjs).
//
// The whole state a reader sets is one plain object, {dataset, c, theta, theta0, steps}
// and, once the data are edited, points ([[x1, (x2,) label], ...]):
// element.offsetDemo.getState() returns it and setState(obj) restores it (the runs are
// replayed to the same step).  It is kept in the page's URL under the element's id
// (../kit/url-state.mjs), so that a link reproduces what a reader saw.  Every
// change of the data, the data set, c or the sliders is an edit: Undo (Ctrl/Cmd+Z) takes
// the last one back with the runs at the step they had, Redo (Ctrl/Cmd+Shift+Z) puts it
// back, and Back returns to the state before it (../kit/edit-history.mjs).

import { buttonRow, datasetLine, groupRoot, helpBox, mountEvery, showError, sliderLine, trainingButtons } from "../kit/demo-kit.mjs";
import * as core from "./offset-core.mjs";
import { el, forPeople, niceStep, num as number, show, subscripted, svg, whenSeen } from "../kit/dom.mjs";
import { lineInBox, roundTo } from "../kit/plot-geometry.mjs";
import { createEpochChart } from "../kit/epoch-chart.mjs";
import { EditHistory, UNDO_HELP, UndoRedo } from "../kit/edit-history.mjs";
import * as urlState from "../kit/url-state.mjs";
import { addPlayer } from "../kit/player.mjs";
import * as points from "../kit/point-editor.mjs";
import { checkEntry, datasetName, parseDatasetList } from "../kit/datasets.mjs";
import { playedText, plural } from "../kit/run-status.mjs";
import * as shade from "../kit/score-shade.mjs";
import * as tips from "../kit/point-tip.mjs";

/** How many examples a run has visited: whole epochs, and the next index in this one. */
const visits = (run) => (run.t - 1) * run.n + run.next;

const VW = 400; // the drawings' own units (viewBox)
const VH = 300;
const PAD = 14;
const LISTED = 40; // updates listed per run (the latest)
const AZIMUTH = (-62 * Math.PI) / 180; // the view of the lifted 3-D picture
const ELEVATION = (24 * Math.PI) / 180;

let instances = 0;

const HIT_R = 8; // a point's target for the pointer, in viewBox units
const UNDO_DEPTH = 100;

// ---------------------------------------------------------------------------------------
// Small functions

/** A number for people (4 significant digits), or "none" for a missing one. */
const num = (v, digits = 4) => (v === null || v === undefined ? "none" : number(v, digits));
const vec = (v) => `(${v.map((a) => num(a)).join(", ")})`;
const pt = (p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`;

const SHAPE = "{name, X, y, theta, theta0}";

function parseDatasets(text) {
  return parseDatasetList(text, SHAPE, (d, k) => checkEntry(d, k, SHAPE, () => {
    core.originRun(d.X, d.y, 1); // checks shapes, numbers, labels
    const dim = d.X[0].length;
    if (dim !== 1 && dim !== 2) throw new Error(`the demo draws 1-D and 2-D data, but X has ${dim} features`);
    if (!Array.isArray(d.theta) || d.theta.length !== dim) throw new Error(`theta must have ${dim} entries`);
    d.theta.forEach((t) => core.sliderPosition(t, core.THETA_STEPS));
    core.sliderPosition(d.theta0, core.THETA0_STEPS);
    return { name: datasetName(d, k), X: d.X.map((r) => r.slice()), y: d.y.slice(), theta: d.theta.slice(), theta0: d.theta0, d: dim };
  }));
}

/** A box [x0, x1] x [y0, y1] drawn at one scale in both directions, centred in the area;
 *  map takes a point to the drawing, unmap back. */
function frame(x0, x1, y0, y1, area) {
  const s = Math.min(area.w / (x1 - x0), area.h / (y1 - y0));
  const ox = area.x + (area.w - s * (x1 - x0)) / 2;
  const oy = area.y + (area.h - s * (y1 - y0)) / 2;
  return { s, x0, x1, y0, y1, map: (a, b) => [ox + s * (a - x0), oy + s * (y1 - b)], unmap: (u, v) => [x0 + (u - ox) / s, y1 - (v - oy) / s] };
}

/** The segment of the line n . p + b = 0 inside the rectangle [x0, x1, y0, y1], or null. */
function clipLine(rect, n, b) {
  const [x0, x1, y0, y1] = rect;
  return lineInBox(n[0], n[1], b, { x0, x1, y0, y1, span: Math.max(x1 - x0, y1 - y0) });
}

// ---------------------------------------------------------------------------------------
// One demo

class OffsetDemo {
  constructor(root) {
    this.root = root;
    this.uid = `od${++instances}`;
    if (!root.dataset.datasets) throw new Error("data-datasets is missing");
    this.datasets = parseDatasets(root.dataset.datasets);
    const c = Number(root.dataset.c ?? 1);
    this.cIndex = core.C_VALUES.indexOf(c);
    if (this.cIndex < 0) throw new Error(`data-c must be one of the slider's values (0.1 to 100), got "${root.dataset.c}"`);
    this.tau = Number(root.dataset.tau ?? 2000);
    if (!Number.isInteger(this.tau) || this.tau <= 0) throw new Error(`data-tau must be a positive integer (number of epochs), got "${root.dataset.tau}"`);
    this.active = false;
    this.runs = null;
    this.steps = 0;
    this.points = null; // the reader's data {X, y}, once edited; else the data set's own
    this.label = 1; // the label of new points
    this.selected = -1; // the point that has the focus's place among the points
    this.layerData = null; // the data the points' layer was built for
    this.slides = 0; // a slider being dragged is one edit until it is let go
    this.frameEl = root.querySelector(":scope > .od-frame");
    if (!this.frameEl) {
      this.frameEl = el("div", { class: "od-frame" });
      root.append(this.frameEl);
    }
    this.key = root.id || this.uid; // the demo's key in the URL
    // Undo takes back an edit; a snapshot is the state a link holds.
    this.edits = new EditHistory({
      key: this.key, depth: UNDO_DEPTH,
      snapshot: (what) => ({ what, state: this.getState() }),
      stateObject: () => this.getState(),
    });
    this.build();
    this.loadDataset(0);
    this.initial = this.getState();
    this.render();
    this.say(`${this.describeData()}. Move the sliders, press Step, Epoch or Run, or click in the left picture to add a point.`);
    this.restoreFromUrl();
    urlState.subscribe(this.key, (got) => this.onHistory(got));
    this.frameEl.replaceChildren(this.ui);
    root.classList.add("od-ready");
    this.startWhenSeen();
  }

  /** The data set shown, with the reader's points if the data were edited. */
  get data() {
    const d = this.datasets[this.datasetIndex];
    return this.points ? { ...d, X: this.points.X, y: this.points.y } : d;
  }

  get c() {
    return core.C_VALUES[this.cIndex];
  }

  // -- building the interface (once) ----------------------------------------------------
  build() {
    const r = this.root;
    groupRoot(r, "Offset demo: lifting by an appended coordinate");
    const id = (s) => `${this.uid}-${s}`;

    const controls = el("div", { class: "demo-controls" });
    const { line: dsLine, select } = datasetLine(id("data"), this.datasets.map((d) => d.name), "demo-line od-line-data");
    this.select = select;
    controls.append(dsLine);

    const slider = (key, text, min, max) => {
      const made = sliderLine(id(key), text, min, max, { lineClass: `demo-line od-line-${key}`, inputClass: `demo-range od-${key}`, html: true });
      controls.append(made.line);
      return made;
    };
    this.cSlider = slider("c", "appended <i>c</i>", 0, core.C_VALUES.length - 1);
    const T = core.THETA_STEPS;
    this.thetaSliders = [
      slider("theta1", "\u03b8<sub>1</sub>", T.min, T.max),
      slider("theta2", "\u03b8<sub>2</sub>", T.min, T.max),
    ];
    this.theta0Slider = slider("theta0", "\u03b8<sub>0</sub>", core.THETA0_STEPS.min, core.THETA0_STEPS.max);

    // the two pictures
    const figures = el("div", { class: "od-figures" });
    const figure = (key, caption) => {
      const f = el("figure", { class: `od-fig od-fig-${key}` });
      const s = svg("svg", { class: "od-plot", viewBox: `0 0 ${VW} ${VH}`, role: "img", focusable: "false",
        "aria-label": key === "orig" ? "The data as they are, drawn when the demo comes into view" : "The lifted data, drawn when the demo comes into view" });
      const cap = el("figcaption", { class: "od-caption" });
      cap.textContent = caption;
      const stage = el("div", { class: "demo-stage" });
      stage.append(s);
      f.append(stage, cap);
      figures.append(f);
      return { svg: s, caption: cap, stage };
    };
    this.figOrig = figure("orig", "");
    this.figLift = figure("lift", "");
    // Over the data as they are, a layer with the points as buttons (the drawing under it
    // is an image): a click adds or removes a point, Tab reaches the points.
    this.layer = svg("svg", { class: "od-layer", viewBox: `0 0 ${VW} ${VH}`, role: "group", tabindex: "-1",
      "aria-label": "The data's points: click to add a point, click a point to select it, drag it to move it",
      "aria-describedby": id("keys") });
    this.layer.append(svg("rect", { class: "od-hitarea", x: 0, y: 0, width: VW, height: VH }));
    this.pointsG = svg("g");
    this.layer.append(this.pointsG);
    this.figOrig.stage.append(this.layer);
    this.tip = tips.attachPointTip({
      stage: this.figOrig.stage, layer: this.layer, count: () => this.data.X.length,
      pointAt: (i) => this.origView().at(this.data.X[i]), lines: (i) => this.tipLines(i),
    });

    // editing: the label of new points, Undo and Redo, the chapter's data again
    const edits = el("div", { class: "demo-edits", role: "toolbar", "aria-label": "Edit the data" });
    const fs = el("div", { class: "od-newlabel", role: "radiogroup", "aria-labelledby": id("newlabel") });
    fs.append(el("span", { class: "od-newlabel-name", id: id("newlabel") }, "New point"));
    this.radios = {};
    for (const [value, text] of [[1, "+1"], [-1, "\u22121"]]) {
      const lab = el("label", { class: `demo-radio ${value > 0 ? "demo-radio-pos" : "demo-radio-neg"}` });
      const input = el("input", { type: "radio", name: id("label"), value: String(value) });
      if (value === 1) input.checked = true;
      lab.append(input, el("span", {}, text));
      fs.append(lab);
      this.radios[value] = input;
    }
    this.undoRedo = new UndoRedo({
      history: this.edits, root: r, prefix: "od-btn", what: "the last edit: a point, the data set, c or a slider",
      fallback: () => this.layer, restore: (snap) => this.setState(snap.state),
      told: (done, snap) => `${done}: ${snap.what}. ${this.where()}, ${plural(this.steps, "step")} into the runs.`,
      say: (t) => this.say(t), focused: (i) => this.selectPoint(i, false),
    });
    const chapters = el("button", { type: "button", class: "demo-button od-btn-data", title: "put back the chapter's points of this data set" }, "Chapter\u2019s data");
    this.editButtons = { ...this.undoRedo.buttons, data: chapters };
    edits.append(fs, this.undoRedo.buttons.undo, this.undoRedo.buttons.redo, chapters);
    const legend = el("p", { class: "demo-legend", "aria-hidden": "true" });
    legend.innerHTML =
      '<span><span class="demo-key demo-key-pos">+</span> y = +1</span>' +
      '<span><span class="demo-key demo-key-neg">\u2212</span> y = \u22121</span>' +
      '<span><span class="demo-key od-key-wrong"></span> misclassified</span>' +
      '<span><span class="demo-key od-key-hand"></span> sliders</span>' +
      '<span><span class="demo-key od-key-lifted"></span> run on (x, c)</span>' +
      '<span><span class="demo-key od-key-origin"></span> run on x</span>';
    this.scoreKey = shade.scoreLegend("sliders\u2019 score \u03b8\u00b7x + \u03b8\u2080");
    legend.prepend(this.scoreKey);

    // the readout of the sliders' classifier
    const dl = el("dl", { class: "demo-values" });
    this.out = {};
    for (const [key, text] of [
      ["hand", "classifier"],
      ["normal", "lifted normal \u03b8\u2032"],
      ["wrong", "misclassified"],
      ["margin", "margin \u03b3 \u2192 \u03b3_c"],
      ["radius", "radius R \u2192 R_c"],
      ["bound", "bound (R_c/\u03b3_c)\u00b2"],
      ["updates", "run on (x, c), to the end"],
    ]) {
      const row = el("div", { class: `demo-row od-row-${key}` });
      const dd = el("dd");
      const dt = el("dt");
      dt.append(subscripted(text)); // gamma_c: the margin of the lifted points
      row.append(dt, dd);
      dl.append(row);
      this.out[key] = dd;
    }

    // buttons
    const row = buttonRow("Run both perceptrons", "od-btn", trainingButtons({ step: "visit the next example in both runs", reset: "start both runs again from zero" }), "demo-buttons");
    const buttons = row.element;
    this.buttons = row.buttons;

    // the two runs, side by side
    const runs = el("div", { class: "od-runs" });
    this.runBoxes = {};
    for (const [key, title] of [
      ["lifted", "Through the origin on (x, c)"],
      ["origin", "On x, through 0: no offset"],
    ]) {
      const box = el("section", { class: `od-run od-run-${key}`, "aria-label": key === "lifted" ? "Run through the origin on the lifted data" : "Run through the origin on the data as they are" });
      const head = el("p", { class: "od-run-title" }, title);
      const st = el("p", { class: "od-run-state" });
      const list = el("ol", { class: "od-updates", tabindex: "0", "aria-label": `Updates of the run ${key === "lifted" ? "on the lifted data" : "on the data as they are"}` });
      box.append(head, st, list);
      runs.append(box);
      this.runBoxes[key] = { state: st, list, head };
    }

    // the chart of epochs of each run, growing as it goes
    const charts = el("div", { class: "od-charts" });
    this.charts = {};
    for (const [key, title, name] of [
      ["lifted", "Run on (x, c): updates per epoch", "The run through the origin on (x, c): updates per epoch, and training mistakes after each epoch"],
      ["origin", "Run on x: updates per epoch", "The run through the origin on x: updates per epoch, and training mistakes after each epoch"],
    ]) {
      const box = el("div", { class: `demo-chart od-chart-${key}` });
      const head = el("p", { class: "od-chart-title", "aria-hidden": "true" }, title);
      const host = el("div");
      box.append(head, host);
      charts.append(box);
      this.charts[key] = createEpochChart(host, { title: name });
    }

    this.status = el("p", { class: "demo-status", "aria-live": "polite", "aria-atomic": "true" });
    ({ player: this.player, controls: this.playCtl } = addPlayer({
      root: this.root, toolbar: buttons, status: this.status, prefix: "od-btn", uid: this.uid, what: "both runs",
      tick: () => this.playTick(), canPlay: () => this.begin(), onStop: (why) => this.played(why),
    }));
    this.buttons.play = this.playCtl.button;

    const help = helpBox([
      ...points.helpLines("the left picture"),
      "s Step, e Epoch, r Run, p Play or Pause, 0 Reset (Play makes one update at a time at the chosen speed; any other key or click pauses it).",
      "Changing the data starts both runs again from \u03b8 = 0, and takes them to their end if they had ended; a new data set, c or slider keeps them at their step.",
      ...UNDO_HELP,
    ], { listId: id("keys") });

    // The two runs, update by update, and their epochs: folded, so that the sliders, the
    // pictures, the buttons and the readout fit on one screen.
    const fold = el("details", { class: "od-fold" });
    fold.append(el("summary", {}, "The two runs, update by update"), runs, charts);

    this.ui = el("div", { class: "demo-ui" });
    this.ui.append(controls, figures, buttons, this.status, edits, legend, dl, fold, help);

    // events: a slider being dragged is one edit (one Undo) until it is let go
    this.select.addEventListener("change", () => {
      const k = Number(this.select.value);
      this.userChange(null, `the data set \u201c${this.datasets[k].name}\u201d`, () => this.loadDataset(k), () => `Data set \u201c${this.data.name}\u201d: ${this.describeData()}.`);
    });
    this.cSlider.input.addEventListener("input", () => this.userChange(`c${this.slides}`, "the change of c", () => { this.cIndex = Number(this.cSlider.input.value); }, () => this.cText()));
    this.thetaSliders.forEach((s, j) => s.input.addEventListener("input", () => this.userChange(`theta${j}-${this.slides}`, "the change of \u03b8", () => {
      this.theta[j] = core.sliderValue(Number(s.input.value), core.THETA_STEPS);
    }, () => this.handText(), false)));
    this.theta0Slider.input.addEventListener("input", () => this.userChange(`theta0-${this.slides}`, "the change of \u03b8\u2080", () => {
      this.theta0 = core.sliderValue(Number(this.theta0Slider.input.value), core.THETA0_STEPS);
    }, () => this.handText(), false));
    for (const s of [this.cSlider, ...this.thetaSliders, this.theta0Slider]) s.input.addEventListener("change", () => { this.slides += 1; });
    for (const input of Object.values(this.radios)) {
      input.addEventListener("change", () => { if (input.checked) this.setLabel(Number(input.value)); });
    }
    this.editButtons.data.addEventListener("click", () => this.chaptersData());
    points.attachPointer(this.layer, {
      prefix: "od",
      press: (i) => this.selectPoint(i, true),
      drag: (i, e, tag) => {
        const p = this.eventPoint(e);
        const old = this.data.X[i];
        if (p && p.some((v, j) => v !== old[j])) this.movePoint(i, p, tag);
      },
      dragged: () => {},
      click: (e) => {
        const p = this.eventPoint(e);
        if (p) this.addPoint(p, e.shiftKey ? -this.label : this.label);
      },
    });
    this.layer.addEventListener("focusin", (e) => {
      const g = e.target.closest?.(".od-pt");
      if (g) this.selectPoint(Number(g.dataset.i), false);
    });
    this.buttons.step.addEventListener("click", () => this.step());
    this.buttons.epoch.addEventListener("click", () => this.epoch());
    this.buttons.run.addEventListener("click", () => this.runAll());
    this.buttons.reset.addEventListener("click", () => this.reset());
    r.addEventListener("keydown", (e) => this.onKey(e));
  }

  syncControls() {
    const d = this.data;
    this.select.value = String(this.datasetIndex);
    const cs = this.cSlider;
    cs.input.value = String(this.cIndex);
    cs.out.textContent = num(this.c);
    cs.input.setAttribute("aria-valuetext", `c = ${num(this.c)}`);
    this.thetaSliders.forEach((s, j) => {
      const on = j < d.d;
      s.line.hidden = !on;
      s.input.disabled = !on;
      const v = on ? this.theta[j] : 0;
      s.input.value = String(core.sliderPosition(v, core.THETA_STEPS));
      s.out.textContent = on ? show(num(v)) : "";
      const name = d.d === 1 ? "theta" : `theta ${j + 1}`;
      s.input.setAttribute("aria-valuetext", on ? show(`${name} = ${num(v)}`) : "not used by 1-D data");
    });
    this.thetaSliders[0].line.querySelector("label").innerHTML = d.d === 1 ? "\u03b8" : "\u03b8<sub>1</sub>";
    const t0 = this.theta0Slider;
    t0.input.value = String(core.sliderPosition(this.theta0, core.THETA0_STEPS));
    t0.out.textContent = show(num(this.theta0));
    t0.input.setAttribute("aria-valuetext", show(`theta 0 = ${num(this.theta0)}`));
  }

  // -- when the work starts -------------------------------------------------------------
  startWhenSeen() {
    this.observer = whenSeen(this.root, () => this.activate());
  }

  activate() {
    if (this.active) return;
    this.active = true;
    if (this.observer) this.observer.disconnect();
    this.replay(this.steps);
    this.render();
    this.root.dataset.odActive = "true";
  }

  // -- state ----------------------------------------------------------------------------
  loadDataset(k) {
    this.datasetIndex = k;
    const d = this.datasets[k];
    this.points = null;
    this.selected = -1;
    this.theta = d.theta.slice();
    this.theta0 = d.theta0;
  }

  getState() {
    const out = { dataset: this.data.name, c: this.c, theta: this.theta.slice(), theta0: this.theta0, steps: this.steps };
    if (this.points) out.points = core.pointsOf(this.points.X, this.points.y);
    return out;
  }

  /** Put a state in place (checked first: nothing changes when it throws); no URL write. */
  setState(obj) {
    if (!obj || typeof obj !== "object") throw new Error("setState needs an object {dataset, c, theta, theta0, steps, points}");
    const k = obj.dataset === undefined ? this.datasetIndex : this.datasets.findIndex((d) => d.name === obj.dataset);
    if (k < 0) throw new Error(`no data set named "${obj.dataset}"; the demo has ${this.datasets.map((d) => `"${d.name}"`).join(", ")}`);
    const ci = obj.c === undefined ? this.cIndex : core.C_VALUES.indexOf(obj.c);
    if (ci < 0) throw new Error(`c must be one of the slider's values (0.1 to 100), got ${String(obj.c)}`);
    const d = this.datasets[k];
    const theta = obj.theta === undefined ? (k === this.datasetIndex ? this.theta : d.theta) : obj.theta;
    if (!Array.isArray(theta) || theta.length !== d.d) throw new Error(`theta must have ${d.d} entries for "${d.name}"`);
    theta.forEach((t) => core.sliderPosition(t, core.THETA_STEPS));
    const theta0 = obj.theta0 === undefined ? (k === this.datasetIndex ? this.theta0 : d.theta0) : obj.theta0;
    core.sliderPosition(theta0, core.THETA0_STEPS);
    const steps = obj.steps === undefined ? 0 : obj.steps;
    if (!Number.isInteger(steps) || steps < 0) throw new Error(`steps must be a whole number >= 0, got ${String(steps)}`);
    let points = null;
    if (obj.points !== undefined) {
      try {
        points = core.checkPoints(obj.points, d.d);
      } catch (err) {
        throw new Error(`the points of "${d.name}": ${err.message}`);
      }
    }
    this.datasetIndex = k;
    this.cIndex = ci;
    this.theta = theta.slice();
    this.theta0 = theta0;
    this.points = points;
    this.selected = -1;
    this.runs = null;
    if (this.active) this.replay(steps);
    else this.steps = steps;
    this.render();
    this.say(`Data set \u201c${this.data.name}\u201d${this.points ? " (edited)" : ""}, c = ${num(this.c)}, ${plural(this.steps, "step")} into the runs. ${this.handText()}`);
    return this.getState();
  }

  /** "data set ..., edited, c = ...": the data and c in words, for the status line. */
  where() {
    return `data set \u201c${this.data.name}\u201d${this.points ? `, edited: ${this.describeData()}` : ""}, c = ${num(this.c)}`;
  }

  // -- the URL ----------------------------------------------------------------------------
  restoreFromUrl() {
    const { state: st, error } = urlState.readState(this.key);
    if (error) { this.say(error); return; }
    if (!st) return;
    try {
      this.setState(st);
      this.say(`Restored from the link: ${this.where()}, ${plural(this.steps, "step")} into the runs.`);
    } catch (err) {
      this.say(`The link's saved state for this demo was ignored: ${err.message}.`);
    }
  }

  onHistory({ state: st, error }) {
    this.edits.forget();
    try {
      this.setState(st || this.initial);
      this.say(error || `${st ? "Back to an earlier state" : "Back to the start"}: ${this.where()}.`);
    } catch (err) {
      this.setState(this.initial);
      this.say(`The saved state for this demo was ignored: ${err.message}.`);
    }
    this.renderButtons();
  }

  /** Write the state to the URL: in place (a step), or a new entry when push is true. */
  saveUrl(push = false) {
    this.edits.save(push ? "push" : "replace");
  }

  /**
   * New runs for the current data and c, advanced by `steps` visits (Infinity: to the end).
   * The run on x does not depend on c: run to its end, it is kept for as long as the data
   * and tau stay, so that moving c after Run recomputes only the lifted run.
   */
  replay(steps) {
    const d = this.data;
    const lifted = core.liftedRun(d.X, d.y, this.c, this.tau);
    if (steps === Infinity) {
      const origin = this.finishedOrigin();
      while (!lifted.done) lifted.step();
      this.runs = { lifted, origin };
      this.steps = Math.max(visits(lifted), visits(origin));
      // as after the last visit of the longer run (the other one was done by then)
      const [vl, vo] = [visits(lifted), visits(origin)];
      this.lastSteps = { lifted: vl >= vo ? lifted.last : null, origin: vo >= vl ? origin.last : null };
      this.full = core.finish(lifted);
      return;
    }
    this.runs = { lifted, origin: core.originRun(d.X, d.y, this.tau) };
    this.steps = 0;
    while (this.steps < steps && this.advance()) { /* one visit each */ }
    this.full = core.finish(core.liftedRun(d.X, d.y, this.c, this.tau));
  }

  /** The run on x, to its end, for the current data and tau (kept between calls). */
  finishedOrigin() {
    const d = this.data;
    const key = `${this.tau}|${JSON.stringify(d.X)}|${d.y.join()}`;
    if (!this.originKept || this.originKept.key !== key) {
      const run = core.originRun(d.X, d.y, this.tau);
      while (!run.done) run.step();
      this.originKept = { key, run };
    }
    return this.originKept.run;
  }

  /** One visit in each run that is not done; false when both are done. */
  advance() {
    const { lifted, origin } = this.runs;
    if (lifted.done && origin.done) return false;
    this.lastSteps = { lifted: lifted.step(), origin: origin.step() };
    this.steps += 1;
    return true;
  }

  get done() {
    return this.runs.lifted.done && this.runs.origin.done;
  }

  /**
   * An edit of the data set, c or a slider (tag: edits with the same tag in a row are one,
   * a slider dragged): the runs start again at the same step (to the end if they had
   * ended); a slider of the classifier leaves them alone (restart false).
   */
  userChange(tag, what, apply, text, restart = true) {
    this.edits.edit(tag, what, () => {
      if (restart) {
        const wasDone = Boolean(this.runs && this.done);
        const steps = this.steps;
        apply();
        if (this.datasetIndex !== undefined) this.syncControls();
        this.runs = null;
        if (this.active) this.replay(wasDone ? Infinity : steps);
      } else {
        apply();
      }
      this.render();
      this.say(text());
    });
    this.renderButtons();
  }

  // -- the reader's points ------------------------------------------------------------------
  /**
   * An edit of the points: fn changes a copy {X, y} of the data (or returns false to
   * refuse, having said why).  Both runs start again from zero, or run to their end if
   * they had ended.
   */
  editPoints(tag, what, fn, text) {
    this.activate();
    const d = this.data;
    const next = { X: d.X.map((r) => r.slice()), y: d.y.slice() };
    if (fn(next) === false) return false;
    this.edits.edit(tag, what, () => {
      const wasDone = Boolean(this.runs && this.done);
      this.points = next;
      this.runs = null;
      this.replay(wasDone ? Infinity : 0);
      this.render();
      this.say(`${text()} ${wasDone ? "Both runs ran again to their end." : "Both runs start again from \u03b8 = 0."}`);
    });
    this.renderButtons();
    return true;
  }

  addPoint(p, label) {
    if (this.data.X.length >= core.MAX_POINTS) {
      this.say(`The demo holds at most ${core.MAX_POINTS} points; remove some first.`);
      return false;
    }
    const i = this.data.X.length;
    const ok = this.editPoints(null, `adding example ${i + 1}`, (D) => { D.X.push(p.slice()); D.y.push(label); },
      () => `Added example ${i + 1} at ${vec(p)} with label ${label > 0 ? "+1" : "-1"}.`);
    if (ok) this.selectPoint(i, this.layer.contains(document.activeElement));
    return ok;
  }

  removePoint(i) {
    if (this.data.X.length <= 1) {
      this.say("The runs need at least one example: this point stays. Add another first.");
      return false;
    }
    const p = this.data.X[i];
    const focus = this.layer.contains(document.activeElement);
    const ok = this.editPoints(null, `removing example ${i + 1}`, (D) => { D.X.splice(i, 1); D.y.splice(i, 1); },
      () => `Removed example ${i + 1} at ${vec(p)}; ${plural(this.data.X.length, "example")} left.`);
    if (ok) {
      this.selected = -1;
      if (focus) this.selectPoint(Math.min(i, this.data.X.length - 1), true);
    }
    return ok;
  }

  flipLabel(i) {
    return this.editPoints(null, `changing the label of example ${i + 1}`, (D) => { D.y[i] = -D.y[i]; },
      () => `Example ${i + 1} now has label ${this.data.y[i] > 0 ? "+1" : "-1"}.`);
  }

  /** Move example i to p; moves with the same tag in a row are one edit (arrow keys). */
  movePoint(i, p, tag) {
    return this.editPoints(tag, `moving example ${i + 1}`, (D) => { D.X[i] = p.slice(); },
      () => `Example ${i + 1} moved to ${vec(p)}.`);
  }

  /** The data set's own points again (an edit Undo takes back). */
  chaptersData() {
    if (!this.points) {
      this.say(`The points are already the chapter's: ${this.describeData()}.`);
      return false;
    }
    this.activate();
    this.edits.edit(null, "the chapter's data", () => {
      const wasDone = Boolean(this.runs && this.done);
      this.points = null;
      this.selected = -1;
      this.runs = null;
      this.replay(wasDone ? Infinity : 0);
      this.render();
      this.say(`The chapter's data again: ${this.describeData()}. ${wasDone ? "Both runs ran again to their end." : "Both runs start again from \u03b8 = 0."}`);
    });
    this.renderButtons();
    return true;
  }

  setLabel(v) {
    this.label = v;
    this.radios[v].checked = true;
    this.say(`New points get label ${v > 0 ? "+1" : "\u22121"}.`);
  }

  /** The picture of the data as they are: its frame, and where a point is drawn. */
  origView() {
    const d = this.data;
    if (d.d === 1) {
      const xs = d.X.map((r) => r[0]);
      const lo = Math.min(0, ...xs);
      const hi = Math.max(0, ...xs);
      const m = 0.12 * (hi - lo || 1);
      const F = frame(lo - m, hi + m, -1, 1, { x: PAD, y: 0, w: VW - 2 * PAD, h: VH });
      const ybase = VH * 0.55;
      return { F, lo, hi, m, ybase, span: hi - lo || 1, at: (x) => [F.map(x[0], 0)[0], ybase], back: (u) => [F.unmap(u, 0)[0]] };
    }
    const b = this.box2();
    const F = frame(b[0], b[1], b[2], b[3], { x: PAD, y: PAD, w: VW - 2 * PAD, h: VH - 2 * PAD });
    return { F, b, span: Math.max(b[1] - b[0], b[3] - b[2]), at: (x) => F.map(x[0], x[1]), back: (u, v) => F.unmap(u, v) };
  }

  /** A point put on the grid of new points (a tenth of the picture's grid step). */
  snap(p, span) {
    const s = niceStep(span) / 10;
    return p.map((v) => roundTo(v, s));
  }

  /** The data point under a pointer event, on the grid of new points (null off the picture). */
  eventPoint(e) {
    const m = this.layer.getScreenCTM();
    if (!m) return null;
    const q = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    const v = this.origView();
    return this.snap(v.back(q.x, q.y), v.span);
  }

  /** Select point i, the one Tab reaches among many (and focus it if focus is true). */
  selectPoint(i, focus) {
    this.selected = i;
    const els = [...this.pointsG.children];
    points.setTabStops(els, i); // a Tab stop each, or one for all
    if (focus && els[i]) els[i].focus({ preventScroll: true });
  }

  /** The points' buttons over the picture, built again when the data change. */
  drawLayer() {
    const d = this.data;
    if (this.layerData === d.X && this.layerY === d.y) return;
    this.layerData = d.X;
    this.layerY = d.y;
    const v = this.origView();
    const focus = this.layer.contains(document.activeElement);
    this.pointsG.replaceChildren();
    d.X.forEach((x, i) => {
      const [u, w] = v.at(x);
      const g = svg("g", { class: "od-pt", "data-i": String(i), role: "button", tabindex: "-1",
        transform: `translate(${u.toFixed(1)} ${w.toFixed(1)})`,
        "aria-label": show(`example ${i + 1} at ${vec(x)}, label ${d.y[i] > 0 ? "+1" : "-1"}`) });
      g.append(svg("circle", { class: "od-hit", r: HIT_R }), svg("circle", { class: "od-focusring", r: HIT_R + 3 }));
      this.pointsG.append(g);
    });
    if (this.selected >= d.X.length) this.selected = d.X.length - 1;
    this.selectPoint(this.selected, focus && this.selected >= 0);
  }

  // -- text ---------------------------------------------------------------------------
  describeData() {
    const d = this.data;
    const pos = d.y.filter((v) => v > 0).length;
    return `${d.X.length} examples in ${d.d === 1 ? "one dimension, lifted to the plane" : "the plane, lifted to space"} (${pos} labelled +1)`;
  }

  stats() {
    const d = this.data;
    return core.liftStats(d.X, d.y, this.theta, this.theta0, this.c);
  }

  handText() {
    const st = this.stats();
    const hand = this.data.d === 1 ? `\u03b8 = ${num(this.theta[0])}, \u03b8\u2080 = ${num(this.theta0)}` : `\u03b8 = ${vec(this.theta)}, \u03b8\u2080 = ${num(this.theta0)}`;
    return `${hand}: ${st.mistakes} of ${this.data.X.length} misclassified, lifted margin ${num(st.liftedMargin)}.`;
  }

  cText() {
    const st = this.stats();
    return `c = ${num(this.c)}: lifted radius ${num(st.liftedRadius)}, lifted margin ${num(st.liftedMargin)}; the run on (x, c) makes ${plural(this.full.mistakes, "update")} to the end.`;
  }

  runText(key) {
    const r = this.runs[key];
    const c = this.c;
    let hyp;
    if (key === "lifted") {
      const b = core.unlift(r.theta, c);
      hyp = `\u03b8\u2032 = ${vec(r.theta)}, so \u03b8 = ${vec(b.theta)}, \u03b8\u2080 = ${num(b.theta0)}`;
    } else {
      hyp = `\u03b8 = ${vec(r.theta)}, \u03b8\u2080 = 0`;
    }
    let where;
    if (r.converged) where = `converged: epoch ${r.t} was clean`;
    else if (r.stopped) where = `stopped after \u03c4 = ${this.tau} epochs, never a clean one`;
    else if (r.last === null) where = "not started";
    else where = `epoch ${r.t}, next example ${r.next + 1}`;
    return `${plural(r.mistakes, "update")}; ${hyp}; ${where}.`;
  }

  say(text) {
    this.status.textContent = forPeople(text);
  }

  // -- drawing --------------------------------------------------------------------------
  render() {
    this.syncControls();
    const st = this.stats();
    const n = this.data.X.length;
    const d = this.data;
    // for c = +-1 the run on (x, c) is PERCEPTRON; otherwise its offset moves by c^2 y
    const c2 = this.c * this.c;
    this.runBoxes.lifted.head.textContent = show(c2 === 1
      ? "On (x, c), through 0: PERCEPTRON itself, as c = 1"
      : `On (x, c), through 0: PERCEPTRON, offset step c\u00b2 = ${num(c2)}`);
    this.out.hand.textContent = show(d.d === 1
      ? `\u03b8 = ${num(this.theta[0])}, \u03b8\u2080 = ${num(this.theta0)}${this.theta[0] !== 0 ? `, threshold x = ${num(-this.theta0 / this.theta[0])}` : ", no threshold"}`
      : `\u03b8 = ${vec(this.theta)}, \u03b8\u2080 = ${num(this.theta0)}`);
    this.out.normal.textContent = show(`(\u03b8, \u03b8\u2080/c) = ${vec(st.normal)}`);
    this.out.wrong.textContent = show(`${st.mistakes} of ${n} (lifted: ${st.liftedMistakes} of ${n})`);
    this.out.margin.textContent = show(`${num(st.margin)} \u2192 ${num(st.liftedMargin)}`);
    this.out.radius.textContent = show(`${num(st.radius)} \u2192 ${num(st.liftedRadius)}`);
    this.out.bound.textContent = show(st.bound === null ? "none: the classifier does not separate the data" : num(st.bound));
    if (this.active) {
      // The runs' texts, lists and charts change only with the runs (the data, c, a step):
      // a slider of the classifier redraws the pictures and the readout alone.
      if (this.drawnRuns !== this.runs || this.drawnSteps !== this.steps) {
        const f = this.full;
        this.out.updates.textContent = show(`${plural(f.mistakes, "update")} in ${plural(f.epochs, "epoch")}${f.converged ? "" : ", not converged"}`);
        for (const key of ["lifted", "origin"]) {
          const box = this.runBoxes[key];
          box.state.textContent = show(this.runText(key));
          this.renderList(key);
          const { rows, partial } = core.chartTotals(this.runs[key]);
          this.charts[key].update(rows, partial);
        }
        this.drawnRuns = this.runs;
        this.drawnSteps = this.steps;
      }
      this.drawOriginal(st);
      this.drawLifted(st);
    } else {
      this.drawnRuns = null;
      this.out.updates.textContent = "computed when the demo is in view";
      for (const key of ["lifted", "origin"]) {
        this.runBoxes[key].state.textContent = "not started";
        this.charts[key].update([]);
      }
    }
    this.drawLayer();
    this.tip.refresh();
    this.renderButtons();
  }

  renderButtons() {
    const done = this.active && this.runs && this.done;
    for (const k of ["step", "epoch", "run"]) this.buttons[k].setAttribute("aria-disabled", String(Boolean(done)));
    this.undoRedo.render();
    this.editButtons.data.setAttribute("aria-disabled", String(!this.points));
  }

  renderList(key) {
    const r = this.runs[key];
    const list = this.runBoxes[key].list;
    const h = r.history;
    const from = Math.max(0, h.length - LISTED);
    const items = [];
    if (from > 0) items.push(el("li", { class: "od-more" }, `${from} earlier update${from === 1 ? "" : "s"}`));
    for (let k = from; k < h.length; k++) {
      const u = h[k];
      let text = `epoch ${u.epoch}, x(${u.index + 1}): \u03b8${key === "lifted" ? "\u2032" : ""} = ${vec(u.theta)}`;
      if (key === "lifted") text += `, \u03b8\u2080 = ${num(core.unlift(u.theta, this.c).theta0)}`;
      const li = el("li", { value: String(k + 1) }, show(`${k + 1}. ${text}`));
      items.push(li);
    }
    if (h.length === 0) items.push(el("li", { class: "od-more" }, "no update yet"));
    list.replaceChildren(...items);
    list.scrollTop = list.scrollHeight;
  }

  /** Marks for the examples: + and \u2212, ringed when misclassified. */
  drawPoints(g, screen, y, wrong, r = 7) {
    y.forEach((label, i) => {
      const [x, yy] = screen[i];
      if (wrong[i]) g.append(svg("circle", { class: "od-wrong", cx: x.toFixed(1), cy: yy.toFixed(1), r: r + 4 }));
      if (label > 0) {
        g.append(svg("circle", { class: "od-pos", cx: x.toFixed(1), cy: yy.toFixed(1), r }));
        g.append(svg("path", { class: "od-glyph", d: `M${(x - r * 0.55).toFixed(1)} ${yy.toFixed(1)}h${(r * 1.1).toFixed(1)}M${x.toFixed(1)} ${(yy - r * 0.55).toFixed(1)}v${(r * 1.1).toFixed(1)}` }));
      } else {
        g.append(svg("rect", { class: "od-neg", x: (x - r).toFixed(1), y: (yy - r).toFixed(1), width: 2 * r, height: 2 * r }));
        g.append(svg("path", { class: "od-glyph", d: `M${(x - r * 0.55).toFixed(1)} ${yy.toFixed(1)}h${(r * 1.1).toFixed(1)}` }));
      }
    });
  }

  wrongOf(theta, theta0) {
    const d = this.data;
    return d.X.map((x, i) => {
      let s = 0;
      for (let j = 0; j < theta.length; j++) s += theta[j] * x[j];
      return d.y[i] * (s + theta0) <= 0;
    });
  }

  /** The three classifiers of the picture: sliders, lifted run (back in x), origin run. */
  classifiers() {
    const lifted = core.unlift(this.runs.lifted.theta, this.c);
    return [
      { cls: "od-hand", theta: this.theta, theta0: this.theta0 },
      { cls: "od-lifted-run", theta: lifted.theta, theta0: lifted.theta0 },
      { cls: "od-origin-run", theta: this.runs.origin.theta, theta0: 0 },
    ];
  }

  drawOriginal(st) {
    const d = this.data;
    const s = this.figOrig.svg;
    s.replaceChildren();
    const xs = d.X.map((r) => r[0]);
    const view = this.origView();
    if (d.d === 1) {
      const { F, lo, hi, m, ybase } = view;
      const [ax0] = F.map(lo - m, 0);
      const [ax1] = F.map(hi + m, 0);
      // the sliders' score along the line, shaded from top to bottom of the picture
      this.shadeScore(s, "orig", (X) => this.theta[0] * F.unmap(X, 0)[0] + this.theta0, { x: ax0, y: PAD, w: ax1 - ax0, h: VH - 2 * PAD });
      s.append(svg("line", { class: "od-axis", x1: ax0, y1: ybase, x2: ax1, y2: ybase }));
      const step = niceStep(hi - lo || 1);
      const ticks = svg("g", { class: "od-ticks" });
      for (let v = Math.ceil((lo - m) / step) * step; v <= hi + m; v += step) {
        const [tx] = F.map(v, 0);
        ticks.append(svg("line", { x1: tx, y1: ybase, x2: tx, y2: ybase + 6 }));
        const t = svg("text", { x: tx, y: ybase + 24, "text-anchor": "middle" });
        t.textContent = show(num(Number(v.toPrecision(6))));
        ticks.append(t);
      }
      s.append(ticks);
      // the threshold of each classifier, and the sliders' positive side shaded
      for (const h of this.classifiers()) {
        if (h.theta[0] === 0) continue;
        const cut = -h.theta0 / h.theta[0];
        const [cx] = F.map(cut, 0);
        if (cut < lo - m || cut > hi + m) continue;
        s.append(svg("line", { class: h.cls, x1: cx, y1: PAD, x2: cx, y2: VH - PAD }));
      }
      const g = svg("g");
      this.drawPoints(g, xs.map((x) => [F.map(x, 0)[0], ybase]), d.y, this.wrongOf(this.theta, this.theta0), 9);
      const [ox] = F.map(0, 0);
      g.append(svg("circle", { class: "od-origin", cx: ox, cy: ybase, r: 3.5 }));
      s.append(g);
    } else {
      const { F, b } = view;
      const [c0, c1] = [F.map(b[0], b[3]), F.map(b[1], b[2])];
      this.shadeScore(s, "orig", (X, Y) => {
        const p = F.unmap(X, Y);
        return this.theta[0] * p[0] + this.theta[1] * p[1] + this.theta0;
      }, { x: c0[0], y: c0[1], w: c1[0] - c0[0], h: c1[1] - c0[1] });
      this.drawAxes2(s, F, b);
      for (const h of this.classifiers()) {
        if (h.theta.every((a) => a === 0)) continue;
        const seg = clipLine(b, h.theta, h.theta0);
        if (!seg) continue;
        const [p, q] = seg.map((v) => F.map(v[0], v[1]));
        s.append(svg("line", { class: h.cls, x1: p[0], y1: p[1], x2: q[0], y2: q[1] }));
      }
      const g = svg("g");
      this.drawPoints(g, d.X.map((x) => F.map(x[0], x[1])), d.y, this.wrongOf(this.theta, this.theta0), 5);
      const [ox, oy] = F.map(0, 0);
      g.append(svg("circle", { class: "od-origin", cx: ox, cy: oy, r: 3.5 }));
      s.append(g);
    }
    s.setAttribute("aria-label", show(`The data as they are: ${this.describeData()}; the sliders' ${d.d === 1 ? "threshold" : "boundary"} misclassifies ${st.mistakes} (ringed); dashed, the run on (x, c) read back with its offset; dotted, the run through the origin.`));
    this.figOrig.caption.textContent = show(d.d === 1 ? "The data on the line" : "The data in the plane");
  }

  /**
   * Shade the picture s (drawn anew) by a score, scoreAt(X, Y) at the drawing's point, on
   * the scale of the sliders' scores of the data (their largest |score|).
   */
  shadeScore(s, key, scoreAt, box) {
    const defs = svg("defs");
    const layer = shade.linearShade(defs, `${this.uid}-${key}`);
    s.prepend(defs, layer.element);
    const cap = this.theta.some((a) => a !== 0) || this.theta0 !== 0
      ? shade.scoreCap(this.data.X.map((x) => this.theta.reduce((acc, t, j) => acc + t * x[j], this.theta0)))
      : 0;
    layer.update(scoreAt, cap, box);
    this.scoreKey.setCap(cap);
  }

  /** The tooltip of point i: the sliders' score there, its margin, an update or not. */
  tipLines(i) {
    const d = this.data;
    const facts = tips.linearFacts(d.X[i], d.y[i], this.theta, this.theta0);
    return tips.tipLines(i, d.y[i], facts, { fmt: (v) => num(v) });
  }

  /** The rectangle of the 2-D data, the origin included, with a margin. */
  box2() {
    const d = this.data;
    const xs = d.X.map((r) => r[0]);
    const ys = d.X.map((r) => r[1]);
    let [x0, x1, y0, y1] = [Math.min(0, ...xs), Math.max(0, ...xs), Math.min(0, ...ys), Math.max(0, ...ys)];
    const m = 0.08 * Math.max(x1 - x0, y1 - y0, 1);
    x0 -= m; x1 += m; y0 -= m; y1 += m;
    return [x0, x1, y0, y1];
  }

  drawAxes2(s, F, b) {
    const g = svg("g", { class: "od-ticks" });
    const [p0, q0] = [F.map(b[0], 0), F.map(b[1], 0)];
    const [p1, q1] = [F.map(0, b[2]), F.map(0, b[3])];
    g.append(svg("line", { class: "od-axis", x1: p0[0], y1: p0[1], x2: q0[0], y2: q0[1] }));
    g.append(svg("line", { class: "od-axis", x1: p1[0], y1: p1[1], x2: q1[0], y2: q1[1] }));
    const [a, c] = [F.map(b[0], b[2]), F.map(b[1], b[3])];
    g.append(svg("rect", { class: "od-box", x: a[0], y: c[1], width: c[0] - a[0], height: a[1] - c[1] }));
    s.append(g);
  }

  drawLifted(st) {
    const d = this.data;
    const c = this.c;
    const s = this.figLift.svg;
    s.replaceChildren();
    const area = { x: PAD, y: PAD, w: VW - 2 * PAD, h: VH - 2 * PAD };
    const hands = this.classifiers();
    const wrong = this.wrongOf(this.theta, this.theta0);
    if (d.d === 1) {
      // the plane of (x, z): the points (x, c) on the line z = c
      const xs = d.X.map((r) => r[0]);
      const lo = Math.min(0, ...xs);
      const hi = Math.max(0, ...xs);
      const z0 = Math.min(0, c);
      const z1 = Math.max(0, c);
      const m = 0.12 * Math.max(hi - lo, z1 - z0, 1);
      const b = [lo - m, hi + m, z0 - m, z1 + m];
      const F = frame(b[0], b[1], b[2], b[3], area);
      const n = st.normal;
      // the lifted score n . (x, z), which is the sliders' score on the line z = c
      const [c0, c1] = [F.map(b[0], b[3]), F.map(b[1], b[2])];
      this.shadeScore(s, "lift", (X, Y) => {
        const p = F.unmap(X, Y);
        return n[0] * p[0] + n[1] * p[1];
      }, { x: c0[0], y: c0[1], w: c1[0] - c0[0], h: c1[1] - c0[1] });
      this.drawAxes2(s, F, b);
      const [l0, l1] = [F.map(b[0], c), F.map(b[1], c)];
      s.append(svg("line", { class: "od-dataline", x1: l0[0], y1: l0[1], x2: l1[0], y2: l1[1] }));
      for (const h of hands) {
        const normal = core.liftedNormal(h.theta, h.theta0, c);
        if (normal.every((a) => a === 0)) continue;
        const seg = clipLine(b, normal, 0);
        if (!seg) continue;
        const [p, q] = seg.map((v) => F.map(v[0], v[1]));
        s.append(svg("line", { class: h.cls, x1: p[0], y1: p[1], x2: q[0], y2: q[1] }));
      }
      const g = svg("g");
      this.drawPoints(g, xs.map((x) => F.map(x, c)), d.y, wrong, 7);
      const [ox, oy] = F.map(0, 0);
      g.append(svg("circle", { class: "od-origin", cx: ox, cy: oy, r: 3.5 }));
      s.append(g);
      s.setAttribute("aria-label", show(`The lifted data: the points (x, ${num(c)}) in the plane, on the dashed line at height c; the sliders' classifier is the line through the origin with normal ${vec(st.normal)}, which misclassifies ${st.liftedMistakes}.`));
      this.figLift.caption.textContent = show(`Lifted: (x, c) with c = ${num(c)}, one scale on both axes`);
    } else {
      this.draw3(s, st, hands, wrong);
    }
  }

  /** 2-D data lifted to space: an orthographic view, one scale on all three axes. */
  draw3(s, st, hands, wrong) {
    const d = this.data;
    const c = this.c;
    const [x0, x1, y0, y1] = this.box2();
    const z0 = Math.min(0, c);
    const z1 = Math.max(0, c);
    const ca = Math.cos(AZIMUTH);
    const sa = Math.sin(AZIMUTH);
    const ce = Math.cos(ELEVATION);
    const se = Math.sin(ELEVATION);
    const proj = (p) => [p[0] * ca - p[1] * sa, (p[0] * sa + p[1] * ca) * se + p[2] * ce];
    const corners = [];
    for (const x of [x0, x1]) for (const y of [y0, y1]) for (const z of [z0, z1]) corners.push([x, y, z]);
    const P = corners.map(proj);
    const us = P.map((p) => p[0]);
    const vs = P.map((p) => p[1]);
    const F = frame(Math.min(...us), Math.max(...us), Math.min(...vs), Math.max(...vs), { x: PAD, y: PAD, w: VW - 2 * PAD, h: VH - 2 * PAD });
    const at = (p) => { const q = proj(p); return F.map(q[0], q[1]); };
    const poly = (pts, cls) => svg("polygon", { class: cls, points: pts.map((p) => pt(at(p))).join(" ") });
    // the floor z = 0 and the data's plane z = c, with the axes through the origin
    s.append(poly([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], "od-floor"));
    const axes = svg("g", { class: "od-ticks" });
    for (const [a, b] of [[[x0, 0, 0], [x1, 0, 0]], [[0, y0, 0], [0, y1, 0]], [[0, 0, z0], [0, 0, z1]]]) {
      const [p, q] = [at(a), at(b)];
      axes.append(svg("line", { class: "od-axis", x1: p[0], y1: p[1], x2: q[0], y2: q[1] }));
    }
    s.append(axes);
    // the sliders' separator through the origin: the plane n . p = 0, cut to the box
    const n = st.normal;
    if (n.some((a) => a !== 0)) {
      const edges = [];
      const idx = (i, j, k) => corners[i * 4 + j * 2 + k];
      for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) edges.push([idx(i, j, 0), idx(i, j, 1)], [idx(i, 0, j), idx(i, 1, j)], [idx(0, i, j), idx(1, i, j)]);
      const f = (p) => n[0] * p[0] + n[1] * p[1] + n[2] * p[2];
      const cut = [];
      for (const [a, b] of edges) {
        const fa = f(a);
        const fb = f(b);
        if ((fa > 0) !== (fb > 0) || fa === 0) {
          const t = fa === fb ? 0 : fa / (fa - fb);
          cut.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2])]);
        }
      }
      if (cut.length >= 3) {
        const scr = cut.map(at);
        const cx = scr.reduce((acc, p) => acc + p[0], 0) / scr.length;
        const cy = scr.reduce((acc, p) => acc + p[1], 0) / scr.length;
        const order = scr.map((p, k) => [Math.atan2(p[1] - cy, p[0] - cx), k]).sort((a, b) => a[0] - b[0]);
        s.append(svg("polygon", { class: "od-plane", points: order.map(([, k]) => pt(scr[k])).join(" ") }));
      }
    }
    s.append(poly([[x0, y0, c], [x1, y0, c], [x1, y1, c], [x0, y1, c]], "od-dataplane"));
    // where each separator meets the data's plane: the classifier back in the plane
    for (const h of hands) {
      if (h.theta.every((a) => a === 0)) continue;
      const seg = clipLine([x0, x1, y0, y1], h.theta, h.theta0);
      if (!seg) continue;
      const [p, q] = seg.map((v) => at([v[0], v[1], c]));
      s.append(svg("line", { class: h.cls, x1: p[0], y1: p[1], x2: q[0], y2: q[1] }));
    }
    const g = svg("g");
    this.drawPoints(g, d.X.map((x) => at([x[0], x[1], c])), d.y, wrong, 4);
    const [ox, oy] = at([0, 0, 0]);
    g.append(svg("circle", { class: "od-origin", cx: ox, cy: oy, r: 3.5 }));
    s.append(g);
    s.setAttribute("aria-label", show(`The lifted data: the points (x1, x2, ${num(c)}) in space, seen from above at an angle, one scale on all three axes, on the outlined plane at height c; the shaded plane through the origin is the sliders' separator with normal ${vec(n)}; it meets the data's plane in the sliders' boundary; it misclassifies ${st.liftedMistakes}.`));
    this.figLift.caption.textContent = show(`Lifted: (x\u2081, x\u2082, c) with c = ${num(c)}, in space`);
  }

  // -- the runs ---------------------------------------------------------------------------
  begin() {
    this.activate();
    if (this.done) {
      this.say("Nothing to do: both runs have ended. Reset starts again.");
      return false;
    }
    return true;
  }

  stepText() {
    const parts = [];
    for (const [key, name] of [["lifted", "on (x, c)"], ["origin", "on x"]]) {
      const s = this.lastSteps[key];
      if (!s) continue;
      parts.push(`run ${name}: epoch ${s.epoch}, example ${s.index + 1}, score ${num(s.score)}, ${s.mistake ? "a mistake, updated" : "no update"}`);
    }
    return parts.join("; ") + ".";
  }

  outcome() {
    const words = (key) => {
      const r = this.runs[key];
      if (r.converged) return `converged after ${plural(r.mistakes, "update")}`;
      if (r.stopped) return `stopped after \u03c4 = ${this.tau} epochs without converging, ${plural(r.mistakes, "update")}`;
      return `${plural(r.mistakes, "update")} so far`;
    };
    return `Run on (x, c): ${words("lifted")}. Run on x: ${words("origin")}.`;
  }

  step() {
    if (!this.begin()) return null;
    this.advance();
    this.render();
    this.say(`${this.stepText()}${this.done ? ` ${this.outcome()}` : ""}`);
    this.edits.moved();
    return this.getState();
  }

  epoch() {
    if (!this.begin()) return null;
    const n = this.data.X.length;
    do this.advance(); while (this.steps % n !== 0 && !this.done);
    this.render();
    this.say(`Epoch ${Math.ceil(this.steps / n)} finished. ${this.outcome()}`);
    this.edits.moved();
    return this.getState();
  }

  runAll() {
    if (!this.begin()) return null;
    while (this.advance()) { /* to the end */ }
    this.render();
    this.say(this.outcome());
    this.edits.moved();
    return this.getState();
  }

  /** Play's tick: visit examples up to the next update of either run (or the end), draw it. */
  playTick() {
    this.activate();
    if (this.done) return false;
    let made = false;
    do {
      this.advance();
      made = Object.values(this.lastSteps).some((s) => s && s.mistake);
    } while (!made && !this.done);
    this.render();
    this.say(`${this.stepText()}${this.done ? ` ${this.outcome()}` : ""}`);
    return !this.done;
  }

  /** Playing stopped: the URL follows the runs, and the status line says where they are. */
  played(why) {
    this.edits.moved();
    const text = playedText(why, this.player.ticks, () => this.outcome());
    if (text !== null) this.say(text);
  }

  reset() {
    this.activate();
    this.replay(0);
    this.render();
    this.say("Reset: both runs start again from \u03b8 = 0.");
    this.edits.moved();
    return this.getState();
  }

  onKey(e) {
    const t = e.target;
    const typing = t.tagName === "SELECT" || t.tagName === "TEXTAREA";
    if (!typing && this.undoRedo.onKey(e)) return;
    if (e.ctrlKey || e.metaKey || e.altKey || typing) return;
    const pt = t.closest ? t.closest(".od-pt") : null;
    if (pt && this.onPointKey(e, Number(pt.dataset.i))) return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const n = this.data.X.length;
    const actions = {
      s: () => this.step(), e: () => this.epoch(), r: () => this.runAll(), 0: () => this.reset(),
      p: () => this.player.toggle(),
      a: () => {
        const v = this.origView();
        const mid = v.back(VW / 2, VH / 2);
        if (this.addPoint(this.snap(mid, v.span), this.label)) this.selectPoint(n, true);
      },
      "+": () => this.setLabel(1),
      "-": () => this.setLabel(-1),
      "\u2212": () => this.setLabel(-1),
      n: () => this.selectPoint(points.nextPoint(this.selected, n, e.shiftKey), true),
    };
    if (Object.hasOwn(actions, k)) {
      e.preventDefault();
      actions[k]();
    }
  }

  /** Keys on a focused point (point-editor.mjs keyOnPoint): true when the key was the point's. */
  onPointKey(e, i) {
    const act = points.keyOnPoint(e);
    const d = this.data;
    if (!act || (act.move && d.d === 1 && !act.move[0])) return false; // on a line: left and right
    e.preventDefault();
    if (act.remove) {
      this.removePoint(i);
    } else if (act.flip) {
      this.flipLabel(i);
    } else {
      const span = this.origView().span;
      const s = act.grid ? niceStep(span) : niceStep(span) / 10;
      this.movePoint(i, this.snap(d.X[i].map((v, j) => v + act.move[j] * s), span), `arrow${i}`);
      this.selectPoint(i, true);
    }
    return true;
  }

  // -- API for tests --------------------------------------------------------------------
  /** Every update of one run ("lifted" or "origin"): {epoch, index, theta after it}. */
  history(key) {
    if (!this.runs || !Object.hasOwn(this.runs, key)) return null;
    return this.runs[key].history.map((h) => ({ epoch: h.epoch, index: h.index, theta: h.theta.slice() }));
  }

  state() {
    const summary = (r) => (r ? {
      theta: r.theta.slice(), mistakes: r.mistakes, epochs: r.epochs, converged: r.converged, stopped: r.stopped,
    } : null);
    const d = this.data;
    return {
      ...this.getState(),
      playing: this.player.playing,
      X: d.X.map((r) => r.slice()),
      y: d.y.slice(),
      tau: this.tau,
      active: this.active,
      stats: this.stats(),
      lifted: this.runs ? summary(this.runs.lifted) : null,
      origin: this.runs ? summary(this.runs.origin) : null,
      full: this.active ? { mistakes: this.full.mistakes, epochs: this.full.epochs, converged: this.full.converged } : null,
      status: this.status.textContent,
      edited: Boolean(this.points),
      label: this.label,
      selected: this.selected,
      undoDepth: this.edits.depth,
      redoDepth: this.edits.redoDepth,
      chart: { lifted: this.charts.lifted.values(), origin: this.charts.origin.values() },
    };
  }
}

/** Turn one element into an offset demo (once); returns its API object or null. */
export function mount(root) {
  if (root.offsetDemo) return root.offsetDemo;
  try {
    const od = new OffsetDemo(root);
    root.offsetDemo = {
      getState: () => od.getState(),
      setState: (obj) => { const out = od.setState(obj); od.saveUrl(); return out; },
      /** Write a pending change of the URL now (tests). */
      flushUrl: () => urlState.flush(),
      step: () => od.step(),
      epoch: () => od.epoch(),
      run: () => od.runAll(),
      reset: () => od.reset(),
      play: () => od.player.play(),
      pause: () => od.player.pause(),
      setSpeed: (s) => { od.player.setSpeed(s); od.playCtl.sync(); },
      state: () => od.state(),
      history: (key) => od.history(key),
      activate: () => od.activate(),
      undo: () => od.undoRedo.undo(),
      redo: () => od.undoRedo.redo(),
      addPoint: (p, label) => od.addPoint(p, label),
      removePoint: (i) => od.removePoint(i),
      flipLabel: (i) => od.flipLabel(i),
      chaptersData: () => od.chaptersData(),
      /** Where the data point p is on the screen, in client pixels (left picture). */
      clientPoint: (p) => {
        const [u, v] = od.origView().at(p);
        const q = new DOMPoint(u, v).matrixTransform(od.layer.getScreenCTM());
        return [q.x, q.y];
      },
    };
    return root.offsetDemo;
  } catch (err) {
    showError(root, err, "offset demo", "od");
    return null;
  }
}

/** Mount every div.offset-demo of the document (at once when it is ready). */
export const mountAll = mountEvery("offset-demo", mount);
