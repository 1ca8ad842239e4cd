// What a point of a demo's plot is for the current hypothesis, in a tooltip shown while
// the pointer is over the point or the point has the keyboard's focus (chapters 1-4, 6, 7).
//
//   import * as tip from "../kit/point-tip.mjs";
//   const facts = tip.linearFacts(x, y, theta, theta0, mu);  // {score, margin, update}
//   const t = tip.attachPointTip({ stage, layer, count, pointAt, lines });
//   t.refresh();   // after a redraw: the shown point's numbers again
//
// The numbers: the score θ·x + θ₀ (or a kernel's f(x)), the point's signed margin
// y·score/‖θ‖ (the book's geometric margin, chapter 3: ‖θ‖ without θ₀; in feature space
// for a kernel, chapter 6), and whether the algorithm would update on the point if it
// came next: y·score ≤ 0 for the perceptron and the kernel perceptron, y·score ≤ μ for
// chapter 7's margin perceptron.  tests/test_point_tip_core.py holds them to perceptron_lib.
//
// The tooltip (role tooltip) is the focused point's description (aria-describedby), so
// a screen reader says the same numbers; Escape hides it.  The points are the layer's
// elements with data-i (their index); the pointer finds the nearest point within reach.

import { el, forPeople, labelText } from "./dom.mjs";

/**
 * A point's numbers for the linear hypothesis (theta, theta0): its score, its margin
 * (null when theta = 0: no boundary, no margin) and whether an update would happen on
 * it (y * score <= threshold).
 */
export function linearFacts(x, y, theta, theta0 = 0, threshold = 0) {
  let s = 0;
  let nn = 0;
  for (let j = 0; j < theta.length; j++) {
    s += theta[j] * x[j];
    nn += theta[j] * theta[j];
  }
  s += theta0;
  return scoreFacts(s, y, Math.sqrt(nn), threshold);
}

/** A point's numbers from its score and the length of the normal (0: no margin). */
export function scoreFacts(score, y, norm, threshold = 0) {
  return { score, margin: norm > 0 ? (y * score) / norm : null, update: y * score <= threshold };
}

/**
 * The length of w = sum_j coef_j phi(x_j) in a kernel's feature space, from the Gram
 * matrix G: sqrt(coef^T G coef) (0 when it is not positive: w = 0).  For a kernel
 * perceptron's run coef_j = alpha_j y_j.
 */
export function featureNorm(G, coef) {
  let q = 0;
  const n = coef.length;
  for (let i = 0; i < n; i++) {
    if (coef[i] === 0) continue;
    let s = 0;
    for (let j = 0; j < n; j++) if (coef[j] !== 0) s += G[i][j] * coef[j];
    q += coef[i] * s;
  }
  return q > 0 ? Math.sqrt(q) : 0;
}

/**
 * The tooltip's lines for point i with label y and its facts: "Example 3, label −1",
 * "score θ·x + θ₀ = 1.5", "margin y·score/‖θ‖ = −0.67", "update on it: yes (y·score ≤ 0)".
 * Options: fmt (the demo's number format), score (the score's name), norm (‖θ‖ as the
 * demo writes it), threshold (its name and value, "μ = 0.5"; default 0).
 */
export function tipLines(i, y, facts, { fmt = String, score = "score \u03b8\u00b7x + \u03b8\u2080", norm = "\u2016\u03b8\u2016", threshold = "0" } = {}) {
  const f = (v) => forPeople(fmt(v));
  return [
    `Example ${i + 1}, label ${labelText(y)}`,
    `${score} = ${f(facts.score)}`,
    facts.margin === null ? `margin: none (\u03b8 = 0)` : `margin y\u00b7score/${norm} = ${f(facts.margin)}`,
    facts.update ? `update on it: yes (y\u00b7score \u2264 ${threshold})` : `update on it: no (y\u00b7score > ${threshold})`,
  ];
}

let tips = 0;

/**
 * A tooltip over the stage (the positioned box of the demo's plot) for the points of
 * layer (an SVG whose elements with data-i are the points).  count() is the number of
 * points, pointAt(i) where point i is in the layer's own units, lines(i) the tooltip's
 * lines (tipLines), reach the pointer's distance to a point (layer units) that shows it.
 * Returns {element, show(i), hide(), refresh(), shown()}.
 */
export function attachPointTip({ stage, layer, count, pointAt, lines, reach = 14 }) {
  const id = `demo-tip-${++tips}`;
  const element = el("div", { class: "demo-tip", role: "tooltip", id, hidden: "" });
  stage.append(element);
  let current = -1;
  let focused = null; // the point element with the focus (its description is the tip)
  let hovered = -1;

  function place(i) {
    const m = layer.getScreenCTM();
    if (!m) return;
    const [x, y] = pointAt(i);
    const p = new DOMPoint(x, y).matrixTransform(m);
    const box = stage.getBoundingClientRect();
    const px = p.x - box.left;
    const py = p.y - box.top;
    const w = element.offsetWidth;
    const h = element.offsetHeight;
    const gap = 14;
    let left = px + gap;
    if (left + w > box.width) left = px - gap - w;
    left = Math.max(0, Math.min(left, box.width - w));
    let top = py - gap - h;
    if (top < 0) top = py + gap;
    element.style.left = `${left.toFixed(1)}px`;
    element.style.top = `${top.toFixed(1)}px`;
  }

  function show(i) {
    if (!(i >= 0 && i < count())) { hide(); return; }
    current = i;
    element.replaceChildren(...lines(i).map((t) => el("span", { class: "demo-tip-line" }, t)));
    element.hidden = false;
    place(i);
  }

  function hide() {
    current = -1;
    element.hidden = true;
  }

  function nearest(e) {
    const m = layer.getScreenCTM();
    if (!m) return -1;
    const q = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    let best = -1;
    let bestD = reach;
    const n = count();
    for (let i = 0; i < n; i++) {
      const [x, y] = pointAt(i);
      const d = Math.hypot(x - q.x, y - q.y);
      if (d <= bestD) { best = i; bestD = d; }
    }
    return best;
  }

  const fallBack = () => {
    if (focused && focused.isConnected) show(Number(focused.dataset.i));
    else hide();
  };

  layer.addEventListener("pointermove", (e) => {
    if (e.pointerType === "touch") return; // a finger edits; the focused point keeps its tip
    const i = nearest(e);
    if (i === hovered) { if (i >= 0) place(i); return; }
    hovered = i;
    if (i >= 0) show(i); else fallBack();
  });
  layer.addEventListener("pointerleave", () => { hovered = -1; fallBack(); });
  layer.addEventListener("focusin", (e) => {
    const g = e.target.closest?.("[data-i]");
    if (!g || !layer.contains(g)) return;
    if (focused && focused !== g) focused.removeAttribute("aria-describedby");
    focused = g;
    g.setAttribute("aria-describedby", id);
    show(Number(g.dataset.i));
  });
  layer.addEventListener("focusout", (e) => {
    const g = e.target.closest?.("[data-i]");
    if (!g || g !== focused) return;
    g.removeAttribute("aria-describedby");
    focused = null;
    if (hovered >= 0) show(hovered); else hide();
  });
  layer.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && current >= 0) hide();
  });

  return {
    element,
    show,
    hide,
    /** Show the same point's numbers again (after a step or an edit), or hide the tip. */
    refresh() {
      if (current < 0) return;
      if (current >= count()) hide(); else show(current);
    },
    shown: () => current,
  };
}
