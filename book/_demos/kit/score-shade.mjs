// The plane shaded by the current hypothesis's score, and the legend of that shading, for
// every demo that draws a boundary (chapters 1-4, 6 and 7).
//
//   import * as shade from "../kit/score-shade.mjs";
//   const cap = shade.scoreCap(scores);                   // max |score| over the data
//   const lin = shade.linearShade(defs, uid);             // a <rect> filled by a gradient
//   clippedGroup.append(lin.element);
//   lin.update((X, Y) => score at the drawing's point (X, Y), cap, {x, y, w, h});
//   const key = shade.scoreLegend("score \u03b8\u00b7x + \u03b8\u2080");  // an HTML <span>
//   key.setCap(cap);
//
// The scale is diverging: the colour of label -1 where the score is -cap or less, the
// colour of label +1 where it is +cap or more, fading to nothing (the demo's background)
// at 0, linearly in between.  The colours are the kit's --demo-score-neg and
// --demo-score-pos, the strongest opacity --demo-score-max (kit.css, light and dark
// theme), so the shading follows the theme without a redraw.  A linear score is shaded by one SVG linear gradient along the
// direction in which the score grows on the screen: no cells, whatever the size of the
// data.  Demos with a score of another shape (chapter 6's kernels) colour their own cells
// with shadeLevel.

import { el, num, show, svg } from "./dom.mjs";

/** The cap of the scale: the largest |score| among scores (0 when there are none). */
export function scoreCap(scores) {
  let cap = 0;
  for (const s of scores) {
    const a = Math.abs(s);
    if (Number.isFinite(a) && a > cap) cap = a;
  }
  return cap;
}

/**
 * Where score s lies on the scale capped at cap: -1 (the colour of label -1, fully) to +1
 * (label +1), 0 at a score of 0; scores beyond the cap are held at the ends.
 */
export function shadeLevel(s, cap) {
  if (!(cap > 0) || !Number.isFinite(s)) return 0;
  return Math.max(-1, Math.min(1, s / cap));
}

/**
 * The affine function score(X, Y) = gx X + gy Y + g0 of the drawing's coordinates, read
 * from three values of scoreAt (exact when the score is affine in the data and the data
 * are drawn by an affine map, as in every demo).
 */
export function affineOnScreen(scoreAt) {
  const g0 = scoreAt(0, 0);
  return { gx: scoreAt(1, 0) - g0, gy: scoreAt(0, 1) - g0, g0 };
}

/**
 * A rectangle filled with the shading of a linear score, under the boundary and the
 * points.  Returns {element, update(scoreAt, cap, box), hide()}; update draws the score
 * whose value at the drawing's point (X, Y) is scoreAt(X, Y), on the scale capped at cap,
 * over box {x, y, w, h} (drawing units).  With cap 0 or a constant score nothing is shaded.
 */
export function linearShade(defs, uid) {
  const id = `${uid}-score-shade`;
  const grad = svg("linearGradient", { id, gradientUnits: "userSpaceOnUse" });
  for (const [offset, cls] of [["0", "ss-stop-neg"], ["0.5", "ss-stop-neg ss-stop-zero"],
    ["0.5", "ss-stop-pos ss-stop-zero"], ["1", "ss-stop-pos"]]) {
    grad.append(svg("stop", { offset, class: cls }));
  }
  defs.append(grad);
  const element = svg("rect", { class: "ss-shade", fill: `url(#${id})`, "aria-hidden": "true", visibility: "hidden" });
  const hide = () => element.setAttribute("visibility", "hidden");
  function update(scoreAt, cap, box) {
    const { gx, gy, g0 } = affineOnScreen(scoreAt);
    const g2 = gx * gx + gy * gy;
    if (!(cap > 0) || !(g2 > 0) || !Number.isFinite(g2)) { hide(); return; }
    // the points of the screen's line through the box's middle, in the direction in which
    // the score grows, where the score is -cap and +cap
    const cx = box.x + box.w / 2;
    const cy = box.y + box.h / 2;
    const sc = gx * cx + gy * cy + g0;
    const at = (target) => {
      const t = (target - sc) / g2;
      return [cx + t * gx, cy + t * gy];
    };
    const [a, b] = [at(-cap), at(cap)];
    const f = (v) => v.toFixed(2);
    grad.setAttribute("x1", f(a[0])); grad.setAttribute("y1", f(a[1]));
    grad.setAttribute("x2", f(b[0])); grad.setAttribute("y2", f(b[1]));
    element.setAttribute("x", f(box.x)); element.setAttribute("y", f(box.y));
    element.setAttribute("width", f(box.w)); element.setAttribute("height", f(box.h));
    element.removeAttribute("visibility");
  }
  return { element, update, hide };
}

/**
 * The legend of the shading: its name (the score's formula), a bar from the colour of
 * label -1 through nothing at 0 to the colour of label +1, and the values at its ends
 * (the cap, with the book's minus sign).  Returns the element (a <span>, for a demo's
 * legend line) with setCap(cap).  The demos' legends are hidden from screen readers (the
 * plot's own name says what is shaded), and so is this one.
 */
export function scoreLegend(name) {
  const element = el("span", { class: "ss-legend" });
  const label = el("span", { class: "ss-name" }, name);
  const lo = el("span", { class: "ss-end ss-end-neg" });
  const zero = el("span", { class: "ss-zero" }, "0");
  const hi = el("span", { class: "ss-end ss-end-pos" });
  const bar = el("span", { class: "ss-bar" });
  const scale = el("span", { class: "ss-scale" });
  scale.append(lo, bar, hi);
  bar.append(zero);
  element.append(label, scale);
  element.setCap = (cap) => {
    const c = num(cap, 2);
    lo.textContent = cap > 0 ? show(`-${c}`) : "\u2212";
    hi.textContent = cap > 0 ? `+${c}` : "+";
    element.classList.toggle("ss-flat", !(cap > 0));
  };
  element.setCap(0);
  return element;
}
