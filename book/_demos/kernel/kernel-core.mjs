// The kernel perceptron of chapter 6, for the browser and for Node.js (ES module; its
// step-by-step bookkeeping is the kit's, stepwiseRun of ../kit/perceptron-core.mjs).
//
// It follows perceptron_lib/variants.py (kernel_perceptron, kernel_decision and the three
// kernels) step for step: alpha = 0 and theta0 = 0; the Gram matrix G[j][i] = K(x_j, x_i)
// is computed once; the examples are visited in order; example i is a mistake when
// y_i * (sum_j alpha_j y_j G[j][i] + theta0) <= 0, and then alpha_i grows by one and, with
// the offset, theta0 by y_i; a run stops after an epoch without an update (converged) or
// after tau epochs.  The kernels are written as the library computes them:
//
//   linear      K(a, b) = a . b
//   polynomial  K(a, b) = (a . b + coef0) ** degree
//   RBF         K(a, b) = exp(-gamma * max(|a|^2 + |b|^2 - 2 a . b, 0))
//
// tests/test_kernel_playground_core.py runs this file under Node.js (through
// tests/js/run_kernel_core.mjs) and checks that it makes the library's updates, in the
// same order, with the same alphas, and that its decision values agree with
// kernel_decision up to rounding.
//
// Labels are -1 and +1.  Every function checks its input and throws an Error whose
// message names the problem.  No function modifies its arguments.

// The input checks (fail, describe, checkNumber, checkX, checkLabels, checkTau) and the
// run's bookkeeping are the kit's, with the same messages.
import { checkHeldOut, checkLabels, checkNumber, checkTau, checkX, describe, fail, stepwiseRun } from "../kit/perceptron-core.mjs";

/** A held-out test set {X, y}, checked (the kit's): d coordinates per point, labels +1 or -1. */
export { checkHeldOut };

export const KERNELS = Object.freeze(["linear", "polynomial", "RBF"]);
export const MIN_DEGREE = 1;
export const MAX_DEGREE = 6;
export const COEF0 = 1; // the chapter's polynomial kernel, (x . x' + 1) ** degree

/**
 * The values of the gamma slider: 10 per decade from 0.01 to 100, each written with three
 * significant digits (0.01, 0.0126, 0.0158, ..., 1, 1.26, ..., 100), so that the number the
 * page shows is the number it computes with and Python reads the same float from it.
 */
export const GAMMAS = Object.freeze(
  Array.from({ length: 41 }, (_, k) => Number((10 ** (k / 10 - 2)).toPrecision(3))),
);

// ---------------------------------------------------------------------------------------
// Kernels

function dot(a, b) {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j] * b[j];
  return s;
}

/**
 * A kernel from its description {kind, degree, coef0, gamma}: kind is "linear",
 * "polynomial" (degree a whole number from 1 to 6, coef0 a number, default 1) or "RBF"
 * (gamma > 0).  Returns a function k(a, b) of two examples, with the description in
 * k.spec and a plain-text formula in k.formula.
 */
export function makeKernel(spec) {
  if (!spec || typeof spec !== "object") fail(`a kernel is described by {kind, degree, gamma}, got ${describe(spec)}`);
  const kind = spec.kind;
  let k;
  let clean;
  if (kind === "linear") {
    clean = { kind };
    k = (a, b) => dot(a, b);
  } else if (kind === "polynomial") {
    const degree = spec.degree ?? 2;
    if (!Number.isInteger(degree) || degree < 1) fail(`degree must be a whole number >= 1, got ${describe(degree)}`);
    const coef0 = checkNumber(spec.coef0 ?? COEF0, "coef0");
    clean = { kind, degree, coef0 };
    // Powers by repeated multiplication: exact on the integers of the XOR corners, and
    // for degree 2 the same s * s numpy computes for ** 2.
    k = (a, b) => {
      const s = dot(a, b) + coef0;
      let p = s;
      for (let m = 1; m < degree; m++) p *= s;
      return p;
    };
  } else if (kind === "RBF" || kind === "rbf") {
    const gamma = checkNumber(spec.gamma ?? 1, "gamma");
    if (!(gamma > 0)) fail(`gamma must be positive, got ${gamma}`);
    clean = { kind: "RBF", gamma };
    k = (a, b) => {
      // |a|^2 + |b|^2 - 2 a.b, in the library's order, never below 0
      const sq = (dot(a, a) + dot(b, b)) - 2 * dot(a, b);
      return Math.exp(-gamma * Math.max(sq, 0));
    };
  } else {
    fail(`kernel must be one of ${KERNELS.join(", ")}, got ${describe(kind)}`);
  }
  k.spec = Object.freeze(clean);
  k.formula = formula(clean);
  return k;
}

const SUPERSCRIPTS = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079";

/** The kernel written out in plain text, as the Jupyter explorer writes it. */
export function formula(spec) {
  if (spec.kind === "linear") return "K(x, x\u2032) = x\u00b7x\u2032";
  if (spec.kind === "polynomial") {
    const sup = String(spec.degree).replace(/\d/g, (c) => SUPERSCRIPTS[Number(c)]);
    return `K(x, x\u2032) = (x\u00b7x\u2032 + ${spec.coef0})${sup}`;
  }
  return `K(x, x\u2032) = exp(\u2212${spec.gamma}\u00b7\u2016x \u2212 x\u2032\u2016\u00b2)`;
}

/** The Gram matrix: G[j][i] = k(X[j], X[i]), rows as Float64Arrays. */
export function gram(X, k) {
  const Xc = checkX(X);
  const n = Xc.length;
  const G = new Array(n);
  for (let j = 0; j < n; j++) {
    const row = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = k(Xc[j], Xc[i]);
      if (!Number.isFinite(v)) fail(`the kernel is ${v} on examples ${j} and ${i}: it must be finite`);
      row[i] = v;
    }
    G[j] = row;
  }
  return G;
}

// ---------------------------------------------------------------------------------------
// A run, one example at a time

/**
 * KERNEL-PERCEPTRON(tau, D_n), step by step.  k is a kernel of makeKernel (or a spec for
 * it); offset = false keeps theta0 at 0.
 *
 * Methods: step() visits the next example and returns {epoch, index, score, mistake}, or
 * null once the run is done; epoch() finishes the current epoch; run() goes on until a
 * clean epoch or tau epochs; reset() starts again from alpha = 0.  Each returns what step()
 * returned last in it (or null).
 *
 * Fields: alpha (a Float64Array of update counts), theta0, mistakes, t (the epoch in
 * progress, or the last one started), epochs (epochs started), next, last, converged,
 * stopped, done, history (every update {epoch, index, score}, score before the update),
 * G (the Gram matrix), kernel.
 */
export function createKernelRun(X, y, k, tau = 100, offset = true) {
  const Xc = checkX(X);
  const yc = checkLabels(y, Xc.length);
  checkTau(tau);
  if (typeof offset !== "boolean") fail(`offset must be true or false, got ${describe(offset)}`);
  const kernel = typeof k === "function" ? k : makeKernel(k);
  const G = gram(Xc, kernel);
  const n = Xc.length;
  // c[j] = alpha_j * y_j, kept next to alpha so that a visit costs n multiply-adds
  const c = new Float64Array(n);
  const state = stepwiseRun(n, tau, {
    clear() {
      this.alpha = new Float64Array(n);
      c.fill(0);
      this.theta0 = 0;
      this.mistakes = 0;
    },
    visit(i) {
      const s = this.score(i);
      const mistake = yc[i] * s <= 0;
      if (mistake) {
        this.history.push({ epoch: this.t, index: i, score: s });
        this.alpha[i] += 1;
        c[i] = this.alpha[i] * yc[i];
        if (offset) this.theta0 += yc[i];
        this.mistakes += 1;
      }
      return { epoch: this.t, index: i, score: s, mistake };
    },
  });
  Object.assign(state, {
    X: Xc,
    y: yc,
    tau,
    offset,
    n,
    G,
    kernel,
    /** f(x_i) of the current hypothesis, as the run computes it. */
    score(i) {
      let s = 0;
      for (let j = 0; j < n; j++) s += c[j] * G[j][i];
      return s + this.theta0;
    },
    /** Labels the current hypothesis gives the training examples (+1 exactly when f > 0). */
    predictions() {
      return Array.from({ length: n }, (_, i) => (this.score(i) > 0 ? 1 : -1));
    },
    /** How many training examples the current hypothesis gets wrong. */
    trainingErrors() {
      let e = 0;
      for (let i = 0; i < n; i++) if ((this.score(i) > 0 ? 1 : -1) !== yc[i]) e += 1;
      return e;
    },
  });
  state.reset();
  return state;
}

/**
 * f(p) = sum_j alpha_j y_j K(x_j, p) + theta0 at every point p of P (an array of points),
 * for a model {X, y, alpha, theta0, kernel}: a run of createKernelRun, or a plain object.
 * Examples with alpha_j = 0 are skipped (their terms are zero).  With zeroNoise, scores
 * within rounding of zero (|f| <= 1e-9 (sum_j alpha_j |K(x_j, p)| + |theta0|)) are
 * returned as 0, as the Jupyter explorer draws them, so that rounding noise draws no
 * boundary.  Returns a Float64Array.
 */
export function decision(model, P, { zeroNoise = false } = {}) {
  const { X, y, alpha, theta0, kernel } = model;
  const used = [];
  for (let j = 0; j < X.length; j++) if (alpha[j] !== 0) used.push(j);
  const m = P.length;
  const out = new Float64Array(m);
  for (let q = 0; q < m; q++) {
    const p = P[q];
    let s = 0;
    let size = 0;
    for (const j of used) {
      const v = kernel(X[j], p);
      s += alpha[j] * y[j] * v;
      size += alpha[j] * Math.abs(v);
    }
    s += theta0;
    out[q] = zeroNoise && Math.abs(s) <= 1e-9 * (size + Math.abs(theta0)) ? 0 : s;
  }
  return out;
}

/**
 * A kernel run's story per epoch, for the playground's chart (like epochTotals of
 * ../kit/perceptron-core.mjs): for every finished epoch, the updates made in it and
 * the training examples the hypothesis after it gets wrong (y f(x_i) <= 0, f summed as
 * the run sums it); and the epoch in progress with its updates so far (or null).  r is a
 * run of createKernelRun.  Finished epochs are remembered on the run, so that a step costs
 * no more than the epochs it finishes.  With a held-out test set {X, y} (the same one on
 * every call for a run), each row also counts the test examples the hypothesis after the
 * epoch gets wrong (test): f(x) = sum_j alpha_j y_j K(x_j, x) + theta0, summed over j in
 * order, y f(x) <= 0 wrong.
 * Returns {rows: [{epoch, updates, mistakes, test?}], partial: {epoch, updates} | null}.
 */
const epochMemo = new WeakMap(); // run -> the finished epochs' rows, and the sums so far


/** Test errors from Gt[i][j] = K(x_j, test_i), c[j] = alpha_j y_j and theta0. */
function heldOutErrors(Gt, y, c, theta0) {
  let wrong = 0;
  for (let i = 0; i < Gt.length; i++) {
    let s = 0;
    const row = Gt[i];
    for (let j = 0; j < row.length; j++) s += c[j] * row[j];
    if (y[i] * (s + theta0) <= 0) wrong += 1;
  }
  return wrong;
}

/**
 * The examples of a held-out set {X, y} that a kernel run's current hypothesis
 * classifies wrongly, as trainingErrors counts them: the prediction is +1 where f > 0 and
 * -1 elsewhere (the library's predict), f summed over j in order.
 */
export function testErrors(r, test) {
  const held = checkHeldOut(test, r.X[0].length);
  let wrong = 0;
  held.X.forEach((x, i) => {
    let s = 0;
    for (let j = 0; j < r.n; j++) s += r.alpha[j] * r.y[j] * r.kernel(r.X[j], x);
    if ((s + r.theta0 > 0 ? 1 : -1) !== held.y[i]) wrong += 1;
  });
  return wrong;
}

export function kernelEpochTotals(r, test = null) {
  const done = r.last === null ? 0 : r.done ? r.t : r.t - 1;
  const n = r.n;
  let memo = epochMemo.get(r);
  if (!memo || memo.history !== r.history || memo.test !== test) {
    memo = { history: r.history, test, rows: [], h: 0, c: new Float64Array(n), alpha: new Float64Array(n), theta0: 0, Gt: null };
    if (test !== null) {
      const held = checkHeldOut(test, r.X[0].length);
      memo.held = held;
      memo.Gt = held.X.map((x) => r.X.map((xj) => r.kernel(xj, x))); // Gt[i][j] = K(x_j, test_i)
    }
    epochMemo.set(r, memo);
  }
  const { c, alpha } = memo;
  for (let t = memo.rows.length + 1; t <= done; t++) {
    let k = 0;
    while (memo.h < r.history.length && r.history[memo.h].epoch === t) {
      const i = r.history[memo.h].index;
      alpha[i] += 1;
      c[i] = alpha[i] * r.y[i];
      if (r.offset) memo.theta0 += r.y[i];
      memo.h += 1;
      k += 1;
    }
    let wrong = 0;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += c[j] * r.G[j][i];
      if (r.y[i] * (s + memo.theta0) <= 0) wrong += 1;
    }
    const row = { epoch: t, updates: k, mistakes: wrong };
    if (memo.Gt) row.test = heldOutErrors(memo.Gt, memo.held.y, c, memo.theta0);
    memo.rows.push(row);
  }
  const rows = memo.rows.slice(0, done).map((x) => ({ ...x }));
  let inProgress = 0;
  for (const u of r.history) if (u.epoch === r.t) inProgress += 1;
  const partial = !r.done && r.last !== null && r.next > 0 ? { epoch: r.t, updates: inProgress } : null;
  return { rows, partial };
}

/** The whole run, like kernel_perceptron(X, y, kernel, tau, offset=..., trace=True). */
export function kernelRun(X, y, spec, tau = 100, offset = true) {
  const r = createKernelRun(X, y, makeKernel(spec), tau, offset);
  r.run();
  return {
    alpha: Array.from(r.alpha),
    theta0: r.theta0,
    mistakes: r.mistakes,
    epochs: r.t,
    converged: r.converged,
    history: r.history,
    trainingErrors: r.trainingErrors(),
    model: r,
  };
}

// ---------------------------------------------------------------------------------------
// The picture's frame

/**
 * The square around the points that the Jupyter explorer draws: the bounding box grown by
 * pad on every side, then widened to a square about its middle.
 */
export function viewBox(X, pad = 0.6) {
  const Xc = checkX(X);
  let lo = [Infinity, Infinity];
  let hi = [-Infinity, -Infinity];
  for (const [a, b] of Xc) {
    lo = [Math.min(lo[0], a), Math.min(lo[1], b)];
    hi = [Math.max(hi[0], a), Math.max(hi[1], b)];
  }
  lo = [lo[0] - pad, lo[1] - pad];
  hi = [hi[0] + pad, hi[1] + pad];
  const span = Math.max(hi[0] - lo[0], hi[1] - lo[1]);
  const mid = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2];
  return { x0: mid[0] - span / 2, x1: mid[0] + span / 2, y0: mid[1] - span / 2, y1: mid[1] + span / 2, span };
}

/**
 * The view in which the reader's points of X are edited (chapter 6): the view of the data
 * set they were edited from, which every point moved or added by the reader stays in, or,
 * for points that lie outside it (a link written by hand), the view around them.
 */
export function viewHolding(view, X) {
  const Xc = checkX(X);
  const inside = ([a, b]) => a >= view.x0 && a <= view.x1 && b >= view.y0 && b <= view.y1;
  return Xc.every(inside) ? { ...view } : viewBox(Xc);
}

/**
 * The centres of an N x N grid of cells covering the view, row by row from the top
 * (largest x2) down, each row from left to right: point q = r * N + c.
 */
export function cellCentres(view, N) {
  if (!Number.isInteger(N) || N < 2) fail(`the grid needs a whole number of cells >= 2 per side, got ${describe(N)}`);
  const h = view.span / N;
  const P = new Array(N * N);
  for (let r = 0; r < N; r++) {
    const yv = view.y1 - (r + 0.5) * h;
    for (let col = 0; col < N; col++) P[r * N + col] = [view.x0 + (col + 0.5) * h, yv];
  }
  return P;
}
