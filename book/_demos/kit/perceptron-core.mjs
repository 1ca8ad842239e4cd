// The perceptron of the course, for the browser and for Node.js (ES module, no dependencies).
//
// It follows perceptron_lib/algorithm.py and perceptron_lib/margin.py exactly: start from
// theta = 0, theta0 = 0; visit the examples in the given order; an example is a mistake
// when y * (theta . x + theta0) <= 0 (a point on the boundary is a mistake for either
// label); a mistake adds y * x to theta and, with the offset, y to theta0; stop after an
// epoch without an update (converged) or after tau epochs.  The score is summed left to
// right, j = 0 .. d-1, and theta0 is added last, as the Python loop reads.
// tests/test_playground_core.py runs this file under Node.js (through
// tests/js/run_core.mjs) and checks that it makes the library's updates, bit for bit.
//
// Labels are -1 and +1.  Every function checks its input and throws an Error whose
// message names the problem.  No function modifies its arguments.

// ---------------------------------------------------------------------------------------
// Input checks

function fail(message) {
  throw new Error(message);
}

function isVectorLike(v) {
  return Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
}

function describe(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return `an array of length ${v.length}`;
  if (typeof v === "string") return `the string ${JSON.stringify(v).slice(0, 40)}`;
  if (typeof v === "number") return String(v);
  return typeof v;
}

function checkNumber(v, name) {
  if (typeof v !== "number") fail(`${name} must be a number, got ${describe(v)}`);
  if (Number.isNaN(v)) fail(`${name} is NaN; remove or impute it first`);
  if (!Number.isFinite(v)) fail(`${name} is ${v}; every value must be finite`);
  return v;
}

function checkVector(v, name, d) {
  if (!isVectorLike(v)) fail(`${name} must be an array of numbers, got ${describe(v)}`);
  if (d !== undefined && v.length !== d) {
    fail(`${name} has length ${v.length} but the data have ${d} features`);
  }
  if (v.length === 0) fail(`${name} is empty: need at least one number`);
  const out = new Array(v.length);
  for (let j = 0; j < v.length; j++) out[j] = checkNumber(v[j], `${name}[${j}]`);
  return out;
}

function checkX(X, name = "X") {
  if (!isVectorLike(X)) {
    fail(`${name} must be an array of examples (one array of numbers per row), got ${describe(X)}`);
  }
  const n = X.length;
  if (n === 0) fail(`${name} has no examples: need at least one row`);
  if (!isVectorLike(X[0])) {
    fail(`${name} must be 2-D with one example per row, but ${name}[0] is ${describe(X[0])}`);
  }
  const d = X[0].length;
  if (d === 0) fail(`${name} has no features: ${name}[0] is empty`);
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const row = X[i];
    if (!isVectorLike(row)) fail(`${name}[${i}] must be an array of numbers, got ${describe(row)}`);
    if (row.length !== d) {
      fail(`${name}[${i}] has ${row.length} features but ${name}[0] has ${d}: every row needs the same length`);
    }
    out[i] = checkVector(row, `${name}[${i}]`);
  }
  return out;
}

function checkLabel(v, name) {
  if (v !== 1 && v !== -1) {
    fail(`${name} must be -1 or +1, got ${typeof v === "number" ? v : describe(v)}; map your classes to -1/+1 first`);
  }
  return v;
}

function checkLabels(y, n) {
  if (!isVectorLike(y)) fail(`y must be an array of labels -1/+1, got ${describe(y)}`);
  if (y.length !== n) {
    fail(`y has ${y.length} label${y.length === 1 ? "" : "s"} but X has ${n} row${n === 1 ? "" : "s"}: need one label per example`);
  }
  const out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = checkLabel(y[i], `y[${i}]`);
  return out;
}

function checkTau(tau) {
  if (typeof tau !== "number" || !Number.isInteger(tau) || tau <= 0) {
    fail(`tau must be a positive integer (number of epochs), got ${typeof tau === "number" ? tau : describe(tau)}`);
  }
  return tau;
}

function checkOffset(offset) {
  if (typeof offset !== "boolean") fail(`offset must be true or false, got ${describe(offset)}`);
  return offset;
}

function checkData(X, y) {
  const Xc = checkX(X);
  return [Xc, checkLabels(y, Xc.length)];
}

// The input checks, shared with chapter 6's kernel core (../kernel/kernel-core.mjs).
export { checkLabels, checkNumber, checkTau, checkX, describe, fail };

function norm(v) {
  let s = 0;
  for (let j = 0; j < v.length; j++) s += v[j] * v[j];
  return Math.sqrt(s);
}

function checkNormal(theta, d) {
  const th = checkVector(theta, "theta", d);
  if (th.every((a) => a === 0)) {
    fail("theta is the zero vector: it defines no boundary, so no distance");
  }
  return th;
}

// ---------------------------------------------------------------------------------------
// The rule

/** theta . x (summed left to right) + theta0. */
export function score(theta, theta0, x) {
  const th = checkVector(theta, "theta");
  const xv = checkVector(x, "x", th.length);
  const t0 = checkNumber(theta0, "theta0");
  return rawScore(th, t0, xv);
}

function rawScore(theta, theta0, x) {
  let s = 0;
  for (let j = 0; j < theta.length; j++) s += theta[j] * x[j];
  return s + theta0;
}

/**
 * The perceptron rule on one example.  A mistake when y * score <= 0; then the result is
 * theta + y x (a new array) and theta0 + y (theta0 unchanged when offset is false).
 * Returns {theta, theta0, mistake}; theta is always a new array.
 */
export function update(theta, theta0, x, y, offset = true) {
  const th = checkVector(theta, "theta");
  const xv = checkVector(x, "x", th.length);
  const t0 = checkNumber(theta0, "theta0");
  const yv = checkLabel(y, "y");
  checkOffset(offset);
  if (yv * rawScore(th, t0, xv) <= 0) {
    return { theta: th.map((a, j) => a + yv * xv[j]), theta0: offset ? t0 + yv : t0, mistake: true };
  }
  return { theta: th, theta0: t0, mistake: false };
}

// ---------------------------------------------------------------------------------------
// A run, one example at a time

/**
 * PERCEPTRON(tau, D_n) (or PERCEPTRON-THROUGH-ORIGIN with offset = false), step by step.
 *
 * Methods: step() visits the next example and returns {epoch, index, score, mistake}, or
 * null once the run is done; epoch() finishes the current epoch; run() goes on until a
 * clean epoch or tau epochs; reset() starts again from theta = 0.  Each returns what
 * step() returned last in it (or null).
 *
 * Fields: theta, theta0, mistakes, t (the epoch in progress, or the last one started,
 * counted from 1), epochs (epochs started: t, or 0 before the first step), next (index of
 * the next example), last (what the last step returned), converged, stopped (tau epochs
 * over without a clean one), done, history (every update {epoch, index, score, theta,
 * theta0}, theta after the update), and the methods step, epoch, run, toUpdate (to the
 * next update: Play's step) and reset.  The field is called t, like the pseudocode's loop
 * variable and StepTrainer's, because epoch() is the method.
 */
export function createRun(X, y, tau, offset = true) {
  const [Xc, yc] = checkData(X, y);
  checkTau(tau);
  checkOffset(offset);
  const n = Xc.length;
  const d = Xc[0].length;
  const state = stepwiseRun(n, tau, {
    clear() {
      this.theta = new Array(d).fill(0);
      this.theta0 = 0;
      this.mistakes = 0;
    },
    visit(i) {
      const x = Xc[i];
      const yi = yc[i];
      const s = rawScore(this.theta, this.theta0, x);
      const mistake = yi * s <= 0;
      if (mistake) {
        const th = this.theta;
        const nt = new Array(d);
        for (let j = 0; j < d; j++) nt[j] = th[j] + yi * x[j];
        this.theta = nt;
        if (offset) this.theta0 = this.theta0 + yi;
        this.mistakes += 1;
        this.history.push({ epoch: this.t, index: i, score: s, theta: nt.slice(), theta0: this.theta0 });
      }
      return { epoch: this.t, index: i, score: s, mistake };
    },
  });
  Object.assign(state, {
    X: Xc, y: yc, tau, offset, n, d,
    // Play's step (player.mjs): visit examples up to the next update, or to the end of
    // the run; returns the last visit (null when the run was over).
    toUpdate() {
      let out = null;
      while (!this.done) {
        out = this.step();
        if (out.mistake) break;
      }
      return out;
    },
  });
  state.reset();
  return state;
}

/**
 * What every step-by-step run shares (chapters 1 to 4 here, chapter 6's kernel run and
 * chapter 7's margin run): where the run is (t, next, last), how it ends (converged
 * after an epoch without an update, stopped after tau epochs), its history of updates,
 * and the methods step, epoch, run and reset.  The run's own part: own.clear() sets its
 * weights to their start (reset calls it), own.visit(i) visits example i, pushes an
 * update onto this.history if it makes one, and returns what step() returns.  An epoch
 * counts as clean when no visit in it added to the history.  Both are called with the
 * run as this.
 */
export function stepwiseRun(n, tau, own) {
  let start = 0; // the history's length when the epoch in progress began
  return {
    t: 1,
    next: 0,
    last: null,
    converged: false,
    stopped: false,
    history: [],
    get done() {
      return this.converged || this.stopped;
    },
    get epochs() {
      return this.last === null ? 0 : this.t;
    },
    reset() {
      own.clear.call(this);
      this.t = 1;
      this.next = 0;
      this.last = null;
      this.converged = false;
      this.stopped = false;
      this.history = [];
      start = 0;
      return null;
    },
    step() {
      if (this.done) return null;
      const i = this.next;
      const result = own.visit.call(this, i);
      this.last = result;
      this.next = i + 1;
      if (this.next === n) {
        if (this.history.length === start) {
          this.converged = true;
        } else if (this.t === tau) {
          this.stopped = true;
        } else {
          this.t += 1;
          this.next = 0;
          start = this.history.length;
        }
      }
      return result;
    },
    epoch() {
      let out = null;
      const t = this.t;
      while (!this.done && this.t === t) out = this.step();
      return out;
    },
    run() {
      let out = null;
      while (!this.done) out = this.step();
      return out;
    },
  };
}

/**
 * The whole run, like perceptron_lib.perceptron(X, y, tau, trace=True) (offset = true) or
 * perceptron_through_origin (offset = false).  Returns {theta, theta0, mistakes, epochs,
 * converged, history}; epochs counts the epochs started, the final clean one included.
 */
export function run(X, y, tau, offset = true) {
  const r = createRun(X, y, tau, offset);
  r.run();
  return {
    theta: r.theta.slice(),
    theta0: r.theta0,
    mistakes: r.mistakes,
    epochs: r.t,
    converged: r.converged,
    history: r.history,
  };
}

/**
 * The epochs a run (of createRun) has finished: t once it is done, t - 1 while it runs,
 * 0 before its first step.
 */
export function finishedEpochs(r) {
  if (r.last === null) return 0;
  return r.done ? r.t : r.t - 1;
}

/**
 * A run's story per epoch, for the playgrounds' chart: for every finished epoch, the
 * updates made in it and the training examples the hypothesis after it gets wrong
 * (y * (theta . x + theta0) <= 0, a point on the boundary counted wrong); and the epoch in
 * progress with its updates so far (or null).  r is a run of createRun.  With a held-out
 * test set {X, y} (from the same distribution as the training data), each row also
 * counts the test examples the hypothesis after the epoch gets wrong (test), the same way.
 * Returns {rows: [{epoch, updates, mistakes, test?}], partial: {epoch, updates} | null}.
 */
export function epochTotals(r, test = null) {
  const held = test === null ? null : checkHeldOut(test, r.d);
  const done = finishedEpochs(r);
  const d = r.d;
  let theta = new Array(d).fill(0);
  let theta0 = 0;
  const updates = new Array(done + 1).fill(0);
  const rows = [];
  let h = 0;
  for (let t = 1; t <= done; t++) {
    while (h < r.history.length && r.history[h].epoch === t) {
      theta = r.history[h].theta;
      theta0 = r.history[h].theta0;
      updates[t] += 1;
      h += 1;
    }
    let wrong = 0;
    for (let i = 0; i < r.n; i++) if (r.y[i] * rawScore(theta, theta0, r.X[i]) <= 0) wrong += 1;
    const row = { epoch: t, updates: updates[t], mistakes: wrong };
    if (held) row.test = errors(held.X, held.y, theta, theta0);
    rows.push(row);
  }
  const partial = !r.done && r.last !== null && r.next > 0 ? { epoch: r.t, updates: r.history.length - h } : null;
  return { rows, partial };
}

/**
 * A held-out test set {X, y}, checked: points of dimension d, labels +1 or -1, at least
 * one example (chapter 7's test error).
 */
export function checkHeldOut(test, d) {
  if (!test || typeof test !== "object") fail("the test set must be an object {X, y}");
  const [X, y] = checkData(test.X, test.y);
  if (X[0].length !== d) fail(`the test points have ${X[0].length} coordinates, the training points ${d}`);
  return { X, y };
}

/** The examples of (X, y) that theta, theta0 get wrong: y (theta . x + theta0) <= 0. */
export function errors(X, y, theta, theta0) {
  let wrong = 0;
  for (let i = 0; i < X.length; i++) if (y[i] * rawScore(theta, theta0, X[i]) <= 0) wrong += 1;
  return wrong;
}

// ---------------------------------------------------------------------------------------
// Distances, margins, radius and bound (chapters 3 and 4)

/** (theta . x + theta0) / ||theta|| for every row of X. */
export function signedDistances(X, theta, theta0 = 0) {
  const Xc = checkX(X);
  const th = checkNormal(theta, Xc[0].length);
  const t0 = checkNumber(theta0, "theta0");
  const nrm = norm(th);
  return Xc.map((x) => rawScore(th, t0, x) / nrm);
}

/** y * (theta . x + theta0) / ||theta|| for every labelled point. */
export function pointMargins(X, y, theta, theta0 = 0) {
  const [Xc, yc] = checkData(X, y);
  return signedDistances(Xc, theta, theta0).map((s, i) => yc[i] * s);
}

/** The margin of the data set with respect to (theta, theta0): the smallest point margin. */
export function margin(X, y, theta, theta0 = 0) {
  const m = pointMargins(X, y, theta, theta0);
  let lo = Infinity;
  for (const v of m) if (v < lo) lo = v;
  return lo;
}

/** R = max ||x|| over the rows of X. */
export function radius(X) {
  const Xc = checkX(X);
  let r = 0;
  for (const x of Xc) r = Math.max(r, norm(x));
  return r;
}

/** The convergence theorem's bound (R / gamma)^2; R >= 0, gamma > 0. */
export function mistakeBound(R, gamma) {
  const r = checkNumber(R, "R");
  const g = checkNumber(gamma, "gamma");
  if (r < 0) fail(`R bounds the norms of the examples and cannot be negative, got ${r}`);
  if (g <= 0) {
    fail(`gamma must be positive (a margin of a separator), got ${g}; a non-positive margin means the separator misclassifies a point`);
  }
  return (r / g) ** 2;
}
