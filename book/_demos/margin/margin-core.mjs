// Chapter 7's margin perceptron and Freund and Schapire's bound, for the browser and for
// Node.js (ES module).  The page's demo (margin-demo.mjs) does all its arithmetic here,
// and tests/test_margin_demo_core.py runs this file under Node.js (through
// tests/js/run_margin_core.mjs) against perceptron_lib.
//
// - createMarginRun / marginRun: the margin perceptron with an offset, like
//   perceptron_lib.margin_perceptron(X, y, margin=mu, tau): start from theta = 0,
//   theta0 = 0, visit the examples in order, update (theta += y x, theta0 += y) when
//   y (theta . x + theta0) <= mu, stop after a pass without an update or after tau
//   passes.  The score is summed left to right and theta0 added last, as the library's
//   loop reads.  mu = 0 is the plain perceptron.
// - The hinge deficiencies of a reference separator (u, u0): the run has an offset, so,
//   as chapter 4 does for the convergence theorem, the points are lifted to (x, 1) and
//   the separator to the unit vector (u, u0) / ||(u, u0)||.  Then
//   d_i = max(0, gamma - y_i (u . x_i + u0) / ||(u, u0)||), D = sqrt(sum_i d_i^2), and
//   R is the radius of the lifted points, max sqrt(||x_i||^2 + 1).
// - Freund and Schapire's bound ((R + D) / gamma)^2 on the mistakes of the perceptron on
//   any sequence of examples, D taken over that sequence (a point visited in t passes
//   counts t times), and the gamma that makes it smallest.
//
// Input checks are perceptron-core.mjs's: every function throws an Error whose message
// names the problem.  No function modifies its arguments.

import { checkHeldOut, createRun, errors, margin as datasetMargin, epochTotals, stepwiseRun } from "../kit/perceptron-core.mjs";

export { checkHeldOut, errors };

/** The positions of the demo's mu slider (perceptron_lib.demos.margin.MUS has the same). */
export const MUS = Object.freeze([0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5]);
/** The gamma slider's positions are k R / GAMMA_STEPS, k = 1 .. GAMMA_STEPS. */
export const GAMMA_STEPS = 200;

function fail(message) {
  throw new Error(message);
}

function checkFinite(v, name) {
  if (typeof v !== "number") fail(`${name} must be a number, got ${v === null ? "null" : typeof v}`);
  if (Number.isNaN(v)) fail(`${name} is NaN`);
  if (!Number.isFinite(v)) fail(`${name} is ${v}; it must be finite`);
  return v;
}

/** mu, the functional margin the run must clear: finite and >= 0. */
export function checkMu(mu) {
  checkFinite(mu, "mu");
  if (mu < 0) fail(`mu must be >= 0 (the functional margin every point must exceed), got ${mu}`);
  return mu;
}

/** gamma, the target margin of the bound: finite and > 0. */
export function checkGamma(gamma) {
  checkFinite(gamma, "gamma");
  if (gamma <= 0) fail(`gamma must be positive (a target margin), got ${gamma}`);
  return gamma;
}

/** Checked copies of X and y (perceptron-core's checks: shape, numbers, labels -1/+1). */
export function checkData(X, y) {
  const r = createRun(X, y, 1, true);
  return [r.X, r.y];
}

function checkSeparator(theta, theta0, d) {
  if (!Array.isArray(theta) && !ArrayBuffer.isView(theta)) fail(`theta must be an array of ${d} numbers`);
  if (theta.length !== d) fail(`theta has length ${theta.length} but the data have ${d} features`);
  const th = Array.from(theta, (v, j) => checkFinite(v, `theta[${j}]`));
  const t0 = checkFinite(theta0, "theta0");
  if (th.every((v) => v === 0) && t0 === 0) fail("the reference separator (theta, theta0) is zero: it has no direction");
  return [th, t0];
}

function dot(theta, x) {
  let s = 0;
  for (let j = 0; j < theta.length; j++) s += theta[j] * x[j];
  return s;
}

// ---------------------------------------------------------------------------------------
// The margin perceptron, one example at a time

/**
 * The margin perceptron with an offset, step by step.
 *
 * Methods: step() visits the next example and returns {epoch, index, score, update,
 * mistake} (update: y score <= mu; mistake: y score <= 0), or null once the run is
 * done; epoch() finishes the pass in progress; run() goes on to the end; reset() starts
 * again from theta = 0.
 *
 * Fields: theta, theta0, updates, mistakes, visits (how often each example has been
 * visited), t (the pass in progress, from 1), epochs (passes started), next, last,
 * converged, stopped, done, history (every update {epoch, index, score, theta, theta0},
 * theta after it), perEpoch (updates in each pass started).
 */
export function createMarginRun(X, y, mu, tau) {
  const [Xc, yc] = checkData(X, y);
  checkMu(mu);
  if (typeof tau !== "number" || !Number.isInteger(tau) || tau <= 0) fail(`tau must be a positive integer (number of epochs), got ${tau}`);
  const n = Xc.length;
  const d = Xc[0].length;
  const state = stepwiseRun(n, tau, {
    clear() {
      this.theta = new Array(d).fill(0);
      this.theta0 = 0;
      this.updates = 0;
      this.mistakes = 0;
      this.visits = new Array(n).fill(0);
      this.perEpoch = [];
    },
    visit(i) {
      const x = Xc[i];
      const yi = yc[i];
      if (i === 0) this.perEpoch.push(0);
      const s = dot(this.theta, x) + this.theta0;
      const update = yi * s <= mu;
      const mistake = yi * s <= 0;
      this.visits[i] += 1;
      if (mistake) this.mistakes += 1;
      if (update) {
        const nt = new Array(d);
        for (let j = 0; j < d; j++) nt[j] = this.theta[j] + yi * x[j];
        this.theta = nt;
        this.theta0 += yi;
        this.updates += 1;
        this.perEpoch[this.perEpoch.length - 1] += 1;
        this.history.push({ epoch: this.t, index: i, score: s, theta: nt.slice(), theta0: this.theta0 });
      }
      return { epoch: this.t, index: i, score: s, update, mistake };
    },
  });
  Object.assign(state, { X: Xc, y: yc, mu, tau, n, d });
  state.reset();
  return state;
}

/** The whole run, like perceptron_lib.margin_perceptron(X, y, margin=mu, tau, trace=True). */
export function marginRun(X, y, mu, tau) {
  const r = createMarginRun(X, y, mu, tau);
  r.run();
  return {
    theta: r.theta.slice(), theta0: r.theta0, updates: r.updates, mistakes: r.mistakes,
    epochs: r.t, converged: r.converged, history: r.history, perEpoch: r.perEpoch.slice(),
    visits: r.visits.slice(),
  };
}

/**
 * The run's story per pass, for the demo's chart: for every finished pass the updates made
 * in it and the training examples the hypothesis after it gets wrong
 * (y (theta . x + theta0) <= 0), and the pass in progress with its updates so far.  A run of
 * createMarginRun has the fields perceptron-core.mjs's epochTotals reads (its history holds
 * the margin perceptron's updates), so this is that function on it; with a held-out test
 * set {X, y}, each row also counts the test examples the hypothesis gets wrong (test).
 * Returns {rows: [{epoch, updates, mistakes, test?}], partial: {epoch, updates} | null}.
 */
export function marginEpochTotals(r, test = null) {
  return epochTotals(r, test);
}

/** The geometric margin of (theta, theta0) on the data (chapter 3), or null for theta = 0. */
export function hypothesisMargin(X, y, theta, theta0) {
  if (theta.every((v) => v === 0)) return null;
  return datasetMargin(X, y, theta, theta0);
}

// ---------------------------------------------------------------------------------------
// Hinge deficiencies and Freund and Schapire's bound

/** R of the lifted points (x, 1): max over i of sqrt(||x_i||^2 + 1). */
export function liftedRadius(X) {
  const [Xc] = checkData(X, X.map(() => 1));
  let r = 0;
  for (const x of Xc) r = Math.max(r, Math.sqrt(dot(x, x) + 1));
  return r;
}

/** y_i (u . x_i + u0) / ||(u, u0)||: the margins of the lifted points for the unit (u, u0). */
export function liftedMargins(X, y, theta, theta0) {
  const [Xc, yc] = checkData(X, y);
  const [th, t0] = checkSeparator(theta, theta0, Xc[0].length);
  const norm = Math.sqrt(dot(th, th) + t0 * t0);
  return Xc.map((x, i) => (yc[i] * (dot(th, x) + t0)) / norm);
}

/** d_i = max(0, gamma - m_i) for the lifted margins m_i. */
export function deficiencies(X, y, theta, theta0, gamma) {
  checkGamma(gamma);
  return liftedMargins(X, y, theta, theta0).map((m) => Math.max(0, gamma - m));
}

function checkCounts(counts, n) {
  if (counts === undefined || counts === null) return new Array(n).fill(1);
  if (!Array.isArray(counts) || counts.length !== n) fail(`counts must hold one number per example (${n})`);
  return counts.map((c, i) => {
    if (!Number.isInteger(c) || c < 0) fail(`counts[${i}] must be a whole number >= 0, got ${c}`);
    return c;
  });
}

/**
 * D = sqrt(sum_i c_i d_i^2): the total deficiency of the sequence in which example i
 * appears c_i times (c_i = 1 for every i when counts is not given: one pass).
 */
export function totalDeficiency(d, counts) {
  const c = checkCounts(counts, d.length);
  let s = 0;
  for (let i = 0; i < d.length; i++) s += c[i] * d[i] * d[i];
  return Math.sqrt(s);
}

/**
 * The radius that enters the bound of the margin perceptron, sqrt(R^2 + 2 mu): each of
 * its updates raises ||theta||^2 by at most R^2 + 2 mu, so Freund and Schapire's
 * argument bounds its updates by ((sqrt(R^2 + 2 mu) + D) / gamma)^2 (R itself for mu = 0).
 */
export function marginRadius(R, mu) {
  checkFinite(R, "R");
  checkMu(mu);
  if (R < 0) fail(`R cannot be negative, got ${R}`);
  return mu === 0 ? R : Math.sqrt(R * R + 2 * mu);
}

/** Freund and Schapire's bound ((R + D) / gamma)^2; R >= 0, D >= 0, gamma > 0. */
export function fsBound(R, gamma, D) {
  checkFinite(R, "R");
  checkFinite(D, "D");
  checkGamma(gamma);
  if (R < 0) fail(`R bounds the norms of the examples and cannot be negative, got ${R}`);
  if (D < 0) fail(`D is a root of a sum of squares and cannot be negative, got ${D}`);
  return ((R + D) / gamma) ** 2;
}

/**
 * The gamma in (0, gmax] that makes ((R + D(gamma)) / gamma)^2 smallest, D(gamma) the
 * total deficiency of the margins m (example i counted c_i times), and that bound.  No
 * unit separator has a margin above the radius of the points, so gmax (R unless given;
 * the lifted radius for the margin perceptron's sqrt(R^2 + 2 mu)) is the largest target
 * margin the demo offers.
 *
 * Between two consecutive margins the set of examples with d_i > 0 is fixed, and
 * D(gamma)^2 = k gamma^2 - 2 S gamma + Q (k, S, Q the sums of c_i, c_i m_i, c_i m_i^2
 * over that set); there (R + D) / gamma is smallest at an end of the interval or where
 * its derivative vanishes, S gamma - Q = R D, a root of the quadratic
 * (S^2 - R^2 k) gamma^2 - 2 S (Q - R^2) gamma + Q (Q - R^2) = 0.  Every candidate is
 * evaluated with the same deficiency and bound as everywhere else, and the best kept.
 * Returns {gamma, D, bound}, or null when R or gmax is 0.  With every example's margin positive and above the best gamma the
 * answer may be the smallest margin (D = 0 there).
 */
export function bestGamma(margins, R, counts, gmax = R) {
  const c = checkCounts(counts, margins.length);
  checkFinite(R, "R");
  const items = margins.map((m, i) => [checkFinite(m, `margins[${i}]`), c[i]]).filter(([, ci]) => ci > 0);
  const evaluate = (g) => {
    let s = 0;
    for (const [m, ci] of items) if (m < g) s += ci * (g - m) * (g - m);
    const D = Math.sqrt(s);
    return { gamma: g, D, bound: fsBound(R, g, D) };
  };
  checkFinite(gmax, "gmax");
  if (!(R > 0) || !(gmax > 0)) return null;
  const cands = new Set([gmax]);
  const cuts = [...new Set(items.map(([m]) => m).filter((m) => m > 0 && m < gmax))].sort((a, b) => a - b);
  for (const m of cuts) cands.add(m);
  // the intervals (lo, hi] between consecutive positive margins, the last one up to gmax
  const edges = [0, ...cuts, gmax];
  for (let e = 0; e + 1 < edges.length; e++) {
    const lo = edges[e];
    const hi = edges[e + 1];
    let k = 0;
    let S = 0;
    let Q = 0;
    for (const [m, ci] of items) {
      if (m <= lo) {
        k += ci;
        S += ci * m;
        Q += ci * m * m;
      }
    }
    const a = S * S - R * R * k;
    const b = -2 * S * (Q - R * R);
    const cc = Q * (Q - R * R);
    const roots = [];
    if (a === 0) {
      if (b !== 0) roots.push(-cc / b);
    } else {
      const disc = b * b - 4 * a * cc;
      if (disc >= 0) {
        const sq = Math.sqrt(disc);
        roots.push((-b + sq) / (2 * a), (-b - sq) / (2 * a));
      }
    }
    for (const g of roots) if (g > lo && g <= hi && Number.isFinite(g) && S * g - Q >= 0) cands.add(g);
  }
  let best = null;
  for (const g of cands) {
    if (!(g > 0) || !Number.isFinite(g)) continue;
    const v = evaluate(g);
    if (best === null || v.bound < best.bound) best = v;
  }
  return best;
}
