// Editing a plot's points with the mouse, a finger or the keyboard, the same way in every
// demo whose reader edits its data (chapters 1, 3 and 4's playground, chapter 2's offset
// demo, chapter 6's kernel playground, chapter 7's margin demo).
//
//   import * as points from "../kit/point-editor.mjs";
//   points.attachPointer(layer, { prefix: "pg", press, drag, dragged, click });
//   points.attachPlotPointer(layer, { prefix, area, view, at, press, move, dragged, add });
//   const act = points.keyOnPoint(event);   // what a key on a focused point asks for
//   points.editByKey(event, i, { view, at, remove, flip, move }); // ... and do it
//   const g = points.pointGroup("pg", i, y); // <g class="demo-pt pg-pt pg-pos" role="button">
//   selected = points.selectPoint(els, "pg", selected, i, focus);
//
// The model: a click or a tap in the plot adds a point (Shift: with the other label); a
// press on a point selects it, and a pointer moved more than DRAG_PX pixels from there
// drags it (all the moves of one drag share a tag: one edit).  On a focused point, Delete
// or Backspace removes it, Enter or Space flips its label, the arrow keys move it (Shift:
// by a grid step).  Up to MAX_TABBABLE_POINTS points, each is a Tab stop of its own, with
// an aria-label that gives its index, coordinates and label; above that the points share
// one Tab stop (the selected point), and n / Shift+N go along them.
//
// The plot is a square area {left, top, size} of an SVG drawing, showing the square view
// {x0, x1, y0, y1, span, snap} of the data (plot-geometry.mjs viewFrom); new and moved
// points land on its grid of step snap, inside it.  A point's element carries the kit's
// classes beside the demo's (demo-pt, demo-hit, demo-sel, demo-mark, demo-selected), which
// kit.css draws the same in every demo; the colours of the marks are the demo's.

import { forPeople, MAX_TABBABLE_POINTS, svg } from "./dom.mjs";
import { roundTo } from "./plot-geometry.mjs";

export { MAX_TABBABLE_POINTS }; // above this many points, they share one Tab stop
/** A pointer that moves less than this (px) from where it was pressed makes a click. */
export const DRAG_PX = 4;

/**
 * What the help of a demo with points says of them, the same in every demo (and on the
 * book's introduction page); where: the picture the points are in ("the plot").
 */
export function helpLines(where = "the plot") {
  return [
    `Click or tap in ${where}: add a point with the chosen label (Shift-click: the other label). + and \u2212 choose the label of new points; a adds a point in the middle.`,
    "Drag a point to move it. Click it, or reach it with Tab, to select it: arrow keys move it (Shift: by a grid step), Enter or Space flips its label, Delete or Backspace removes it.",
    `n and Shift+N go to the next and previous point. Up to ${MAX_TABBABLE_POINTS} points, each is a Tab stop; with more, Tab reaches the selected one.`,
  ];
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

/**
 * The data coordinates of a point of the screen (client pixels) over the plot area of
 * the SVG element svgEl; null outside the area, unless clamp puts it on the area's edge.
 * Not snapped (see snapToView).  Chapters 1, 3, 4 and 6.
 */
export function clientToData(svgEl, area, view, clientX, clientY, clamp = false) {
  const m = svgEl.getScreenCTM();
  if (!m) return null;
  const pt = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
  let u = (pt.x - area.left) / area.size;
  let v = (pt.y - area.top) / area.size;
  if (clamp) {
    u = Math.min(1, Math.max(0, u));
    v = Math.min(1, Math.max(0, v));
  } else if (u < 0 || u > 1 || v < 0 || v > 1) {
    return null;
  }
  return [view.x0 + u * view.span, view.y1 - v * view.span];
}

/** The point p moved onto the view's grid of step view.snap, inside the view. */
export function snapToView(view, p) {
  const s = view.snap;
  const onGrid = (a, lo, hi) => {
    const r = roundTo(Math.min(hi, Math.max(lo, a)), s);
    if (r > hi) return roundTo(r - s, s); // the view's edge is off the grid: the last
    return r < lo ? roundTo(r + s, s) : r; // grid line inside it
  };
  return [onGrid(p[0], view.x0, view.x1), onGrid(p[1], view.y0, view.y1)];
}

/**
 * Listen to the pointer on the layer that holds the points (elements of class
 * `${prefix}-pt` with data-i, their index).  The demo is told:
 *   press(i)           a point is pressed (select it, and focus it);
 *   drag(i, e, tag)    a pressed point is dragged to the pointer event e (tag: the drag's,
 *                      the same for all its moves, so that the demo makes them one edit);
 *   dragged(i)         the drag of point i is over;
 *   click(e)           a click or a tap off the points (e: the pointerup event).
 * Every demo with points.
 */
export function attachPointer(layer, { prefix, press, drag, dragged, click }) {
  let d = null;
  let drags = 0;
  layer.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    const g = e.target.closest(`.${prefix}-pt`);
    if (g) {
      const i = Number(g.dataset.i);
      e.preventDefault();
      press(i);
      d = { id: e.pointerId, index: i, x: e.clientX, y: e.clientY, moved: false, tag: `drag${++drags}` };
      layer.setPointerCapture(e.pointerId);
    } else {
      d = { id: e.pointerId, index: -1, x: e.clientX, y: e.clientY, moved: false };
    }
  });
  layer.addEventListener("pointermove", (e) => {
    if (!d || d.id !== e.pointerId) return;
    if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < DRAG_PX) return;
    d.moved = true;
    if (d.index >= 0) drag(d.index, e, d.tag);
  });
  layer.addEventListener("pointerup", (e) => {
    const was = d;
    d = null;
    if (!was || was.id !== e.pointerId) return;
    if (was.index >= 0) {
      if (layer.hasPointerCapture(e.pointerId)) layer.releasePointerCapture(e.pointerId);
      if (was.moved) dragged(was.index);
      return;
    }
    if (!was.moved) click(e);
  });
  layer.addEventListener("pointercancel", () => { d = null; });
}

/**
 * What a key pressed on a focused point asks for: {remove: true} (Delete, Backspace),
 * {flip: true} (Enter, Space), {move: [dx, dy], grid} (an arrow key; grid: by a grid step,
 * with Shift), or null.  Every demo with points.
 */
export function keyOnPoint(e) {
  const key = e.key;
  if (key === "Delete" || key === "Backspace") return { remove: true };
  if (ARROWS[key]) return { move: ARROWS[key], grid: e.shiftKey };
  if (key === "Enter" || key === " ") return { flip: true };
  return null;
}

/** The middle of the view, on its grid: where the key a adds a point. */
export function centreOf(view) {
  return snapToView(view, [(view.x0 + view.x1) / 2, (view.y0 + view.y1) / 2]);
}

/**
 * attachPointer on a square plot, in data coordinates (clientToData, snapToView).  The
 * demo is told press(i) and dragged(i) as attachPointer says, and
 *   move(i, p, tag)    point i dragged to p, on the view's grid, when p is not where it is;
 *   add(p, shift)      a click or a tap off the points, at p on the grid (shift: with Shift).
 * area is the plot's square in the layer's units, view() the view shown, at(i) where
 * point i is.  Chapters 6 and 7.
 */
export function attachPlotPointer(layer, { prefix, area, view, at, press, move, dragged, add }) {
  const where = (e, clamp) => {
    const p = clientToData(layer, area, view(), e.clientX, e.clientY, clamp);
    return p && snapToView(view(), p);
  };
  attachPointer(layer, {
    prefix, press, dragged,
    drag: (i, e, tag) => {
      const p = where(e, true);
      const old = at(i);
      if (p && (p[0] !== old[0] || p[1] !== old[1])) move(i, p, tag);
    },
    click: (e) => {
      const p = where(e, false);
      if (p) add(p, e.shiftKey);
    },
  });
}

/**
 * Do what a key pressed on the focused point i of a square plot asks for (keyOnPoint):
 * remove(i), flip(i), or move(i, p, tag) to where an arrow key takes it (a snap step, with
 * Shift a grid step, on the grid of view, inside it; the moves of one point by arrow keys
 * in a row share a tag: one edit).  at(i) is where point i is.  Returns whether the key
 * was one of them (then the page does nothing else with it).  Chapters 1-4, 6 and 7.
 */
export function editByKey(e, i, { view, at, remove, flip, move }) {
  const act = keyOnPoint(e);
  if (!act) return false;
  e.preventDefault();
  if (act.remove) {
    remove(i);
  } else if (act.flip) {
    flip(i);
  } else {
    const s = act.grid ? view.step : view.snap;
    const p = at(i);
    move(i, snapToView(view, [p[0] + act.move[0] * s, p[1] + act.move[1] * s]), `arrow${i}`);
  }
  return true;
}

/** The point n / Shift+N (back) goes to from the selected one (-1: none) of n. */
export function nextPoint(selected, n, back) {
  if (back) return selected < 0 ? n - 1 : (selected - 1 + n) % n;
  return selected < 0 ? 0 : (selected + 1) % n;
}

/** The mark of a point: + for label +1, − for −1, of half-width r (drawing units). */
export function markPath(label, r = 7) {
  return label > 0 ? `M-${r},0H${r}M0,-${r}V${r}` : `M-${r},0H${r}`;
}

/**
 * A point's element: a group of class `${prefix}-pt` and `${prefix}-pos` or `-neg`, a
 * button for assistive technology, holding its target for the pointer (`${prefix}-hit`),
 * the ring drawn when it is selected or focused (`${prefix}-sel`) and its mark.  The demo
 * places it, names it (pointName) and gives it its Tab stop (setTabStops).
 */
export function pointGroup(prefix, i, label, r = 7) {
  const g = svg("g", { class: `demo-pt ${prefix}-pt ${label > 0 ? `${prefix}-pos` : `${prefix}-neg`}`, "data-i": String(i), role: "button" });
  g.append(
    svg("circle", { class: `demo-hit ${prefix}-hit`, r: 13 }),
    svg("circle", { class: `demo-sel ${prefix}-sel`, r: 9.5 }),
    svg("path", { class: `demo-mark ${prefix}-mark`, d: markPath(label, r) }),
  );
  return g;
}

/** Show a point's element with another label (its class and its mark). */
export function setPointLabel(g, prefix, label, r = 7) {
  g.classList.toggle(`${prefix}-pos`, label > 0);
  g.classList.toggle(`${prefix}-neg`, label < 0);
  g.querySelector(`.${prefix}-mark`).setAttribute("d", markPath(label, r));
}

/** A point's name for assistive technology: its index (from 1), coordinates and label. */
export function pointName(i, coords, label) {
  return forPeople(`Example ${i + 1} at ${coords}, label ${label > 0 ? "+1" : "-1"}`);
}

/**
 * Give the points' elements their Tab stops: each its own up to MAX_TABBABLE_POINTS
 * points; above, one for all, on the selected point (or the first).
 */
export function setTabStops(els, selected) {
  const each = els.length <= MAX_TABBABLE_POINTS;
  const anchor = selected >= 0 ? selected : 0;
  els.forEach((g, i) => { g.tabIndex = each || i === anchor ? 0 : -1; });
}

/**
 * Select point i of the points' elements els (-1: none) instead of the point before: its
 * ring (classes demo-selected and `${prefix}-selected`), the Tab stops, and the focus when
 * focus is true.  Returns i.
 */
export function selectPoint(els, prefix, before, i, focus) {
  if (els[before]) els[before].classList.remove("demo-selected", `${prefix}-selected`);
  const g = els[i];
  if (g) {
    g.classList.add("demo-selected", `${prefix}-selected`);
    setTabStops(els, i);
    if (focus && document.activeElement !== g) g.focus({ preventScroll: true });
  }
  return i;
}
