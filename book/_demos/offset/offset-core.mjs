// The arithmetic of chapter 2's offset demo (ES module, for the browser and Node.js).
//
// Lifting appends a constant c to every example: x -> (x, c).  A classifier (theta,
// theta0) of the original data is then the separator through the origin
// theta' = (theta, theta0 / c) of the lifted data, with the same scores.  The runs use the
// perceptron of the course (../kit/perceptron-core.mjs): PERCEPTRON-THROUGH-ORIGIN
// on the lifted data (for c = 1 it makes PERCEPTRON's updates, theorem of chapter 2), and
// PERCEPTRON-THROUGH-ORIGIN on the data as they are.  Margins and radii are the
// perceptron core's, on the lifted arrays.
//
// The reader may edit the data (add, remove, move a point, flip its label): checkPoints
// reads the edited points back from a link, and chartTotals gives the chart of epochs of
// either run (updates in each epoch, training mistakes after it).
//
// tests/test_offset_demo_core.py runs this file under Node.js (through
// tests/js/run_offset_core.mjs) and compares every number with perceptron_lib:
// add_offset_feature, perceptron, perceptron_through_origin, margin and radius, and the
// chart's numbers with the library's traced runs.
//
// Every function checks its input and throws an Error whose message names the problem.
// No function modifies its arguments.

import { createRun, epochTotals, margin, radius } from "../kit/perceptron-core.mjs";

/** The most points the reader's data may hold (a link carries them all). */
export const MAX_POINTS = 300;
/** The largest |coordinate| a link may carry. */
export const MAX_COORD = 1e6;

/** The positions of the c slider: ten per decade from 0.1 to 100, three significant
 *  digits (perceptron_lib.demos.offset.C_VALUES holds the same numbers). */
export const C_VALUES = Object.freeze(
  Array.from({ length: 31 }, (_, k) => Number((10 ** ((k - 10) / 10)).toPrecision(3))),
);

/** The steps of the sliders for theta (each entry) and theta0: value = position / per. */
export const THETA_STEPS = Object.freeze({ min: -60, max: 60, per: 20 }); // -3 to 3 by 0.05
export const THETA0_STEPS = Object.freeze({ min: -80, max: 80, per: 10 }); // -8 to 8 by 0.1

function fail(message) {
  throw new Error(message);
}

function checkC(c) {
  if (typeof c !== "number" || Number.isNaN(c)) fail(`c must be a number, got ${String(c)}`);
  if (!Number.isFinite(c)) fail(`c is ${c}; the appended value must be finite`);
  if (c === 0) fail("c must be non-zero: a zero coordinate cannot carry an offset");
  return c;
}

function checkRows(X) {
  if (!Array.isArray(X) || X.length === 0) fail("X must be a non-empty array of examples");
  const d = Array.isArray(X[0]) ? X[0].length : -1;
  X.forEach((row, i) => {
    if (!Array.isArray(row) || row.length !== d || d === 0) {
      fail(`X[${i}] must be an array of ${d > 0 ? d : "one or more"} numbers, like X[0]`);
    }
    row.forEach((v, j) => {
      if (typeof v !== "number" || !Number.isFinite(v)) fail(`X[${i}][${j}] must be a finite number, got ${String(v)}`);
    });
  });
  return d;
}

/** Every example with the constant c appended, as pl.add_offset_feature(X, value=c). */
export function lift(X, c) {
  checkRows(X);
  checkC(c);
  return X.map((row) => [...row, c]);
}

/** The through-origin normal of the lifted data: (theta, theta0 / c). */
export function liftedNormal(theta, theta0, c) {
  checkC(c);
  if (typeof theta0 !== "number" || !Number.isFinite(theta0)) fail(`theta0 must be a finite number, got ${String(theta0)}`);
  return [...theta, theta0 / c];
}

/** Back from a lifted normal: theta (the first d entries) and theta0 = c * the last. */
export function unlift(normal, c) {
  checkC(c);
  return { theta: normal.slice(0, -1), theta0: c * normal[normal.length - 1] };
}

/** The number of examples with y (theta . x + theta0) <= 0 (on the boundary counts). */
export function mistakes(X, y, theta, theta0) {
  checkRows(X);
  let k = 0;
  for (let i = 0; i < X.length; i++) {
    let s = 0;
    for (let j = 0; j < theta.length; j++) s += theta[j] * X[i][j];
    if (y[i] * (s + theta0) <= 0) k += 1;
  }
  return k;
}

/**
 * The hand-set classifier (theta, theta0) of data X, y, and its lifted picture at c.
 * Returns {normal, mistakes, liftedMistakes, margin, liftedMargin, radius, liftedRadius,
 * bound}; a margin is null where theta is zero (no boundary), the bound (R_c / gamma_c)^2
 * null where the lifted margin is not positive.
 */
export function liftStats(X, y, theta, theta0, c) {
  const Xl = lift(X, c);
  const normal = liftedNormal(theta, theta0, c);
  const zero = theta.every((a) => a === 0);
  const gamma = zero ? null : margin(X, y, theta, theta0);
  const gammaC = normal.every((a) => a === 0) ? null : margin(Xl, y, normal, 0);
  const R = radius(X);
  const Rc = radius(Xl);
  return {
    normal,
    mistakes: mistakes(X, y, theta, theta0),
    liftedMistakes: mistakes(Xl, y, normal, 0),
    margin: gamma,
    liftedMargin: gammaC,
    radius: R,
    liftedRadius: Rc,
    bound: gammaC !== null && gammaC > 0 ? (Rc / gammaC) ** 2 : null,
  };
}

/** PERCEPTRON-THROUGH-ORIGIN on the data lifted by c, step by step (perceptron-core's run). */
export function liftedRun(X, y, c, tau) {
  return createRun(lift(X, c), y, tau, false);
}

/** PERCEPTRON-THROUGH-ORIGIN on the data as they are. */
export function originRun(X, y, tau) {
  return createRun(X, y, tau, false);
}

/** A finished run as plain numbers: {theta, mistakes, epochs, converged, history}. */
export function finish(run) {
  run.run();
  return {
    theta: run.theta.slice(),
    mistakes: run.mistakes,
    epochs: run.epochs,
    converged: run.converged,
    history: run.history.map((h) => ({ epoch: h.epoch, index: h.index, score: h.score, theta: h.theta.slice() })),
  };
}

/** The value of a slider position (theta or theta0), as Python's position / per. */
export function sliderValue(position, steps) {
  if (!Number.isInteger(position) || position < steps.min || position > steps.max) {
    fail(`slider position must be a whole number from ${steps.min} to ${steps.max}, got ${String(position)}`);
  }
  return position / steps.per;
}

/** The slider position of a value, or an error when the value is not on the slider. */
export function sliderPosition(value, steps) {
  const k = Math.round(value * steps.per);
  if (k < steps.min || k > steps.max || k / steps.per !== value) {
    fail(`${value} is not a position of the slider (${steps.min / steps.per} to ${steps.max / steps.per} in steps of ${1 / steps.per})`);
  }
  return k;
}

/**
 * The chart of epochs of a run (liftedRun or originRun, at any step): for every finished
 * epoch the updates made in it and the examples the hypothesis after it gets wrong
 * (y * score <= 0; on the lifted data, the same as (theta, theta0) read back by unlift on
 * the data as they are), and the epoch in progress with its updates so far, or null.
 * Returns {rows: [{epoch, updates, mistakes}], partial: {epoch, updates} | null}.
 */
export function chartTotals(run) {
  if (!run || !Array.isArray(run.history) || typeof run.step !== "function") fail("chartTotals needs a run of liftedRun or originRun");
  return epochTotals(run);
}

/**
 * The reader's points as a link carries them, [[x1, (x2,) label], ...], checked and split:
 * {X, y}.  d is the data's dimension (1 or 2).  Throws an Error naming the first problem
 * (not a list, too many points, a row of the wrong length, a coordinate not finite or too
 * far out, a label other than +1 and -1).
 */
export function checkPoints(points, d) {
  if (d !== 1 && d !== 2) fail(`the data's dimension must be 1 or 2, got ${String(d)}`);
  if (!Array.isArray(points) || points.length === 0) fail("the points must be a non-empty list");
  if (points.length > MAX_POINTS) fail(`at most ${MAX_POINTS} points, got ${points.length}`);
  const X = [];
  const y = [];
  points.forEach((q, i) => {
    const shape = d === 1 ? "[x, label]" : "[x1, x2, label]";
    if (!Array.isArray(q) || q.length !== d + 1) fail(`point ${i + 1} is not ${shape}`);
    for (let j = 0; j < d; j++) {
      const v = q[j];
      if (typeof v !== "number" || !Number.isFinite(v)) fail(`point ${i + 1} has a coordinate that is not a finite number`);
      if (Math.abs(v) > MAX_COORD) fail(`point ${i + 1} is too far out (|coordinate| > ${MAX_COORD})`);
    }
    if (q[d] !== 1 && q[d] !== -1) fail(`point ${i + 1} has label ${JSON.stringify(q[d])}, not +1 or -1`);
    X.push(q.slice(0, d).map((v) => (v === 0 ? 0 : v)));
    y.push(q[d]);
  });
  return { X, y };
}

/** The points X, y as a link carries them: [[x1, (x2,) label], ...]. */
export function pointsOf(X, y) {
  checkRows(X);
  if (!Array.isArray(y) || y.length !== X.length) fail(`y must have ${X.length} labels, one per example`);
  return X.map((row, i) => [...row, y[i]]);
}
