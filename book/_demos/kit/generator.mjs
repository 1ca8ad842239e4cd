// Seeded data for the book's playgrounds: separable with a chosen margin, XOR, flipped
// labels.  The JavaScript twin of perceptron_lib/demos/data.py (make_demo_data), whose
// docstring writes down every step: the same kind, n, seed and options give the same
// float64 points and labels here and in Python (tests/test_demo_data.py runs this file
// under Node.js through tests/js/run_generator.mjs over many seeds and options).
//
// The random numbers are mulberry32 on unsigned 32-bit integers (Math.imul, >>>); after
// them only +, -, *, / and Math.floor, in the order the Python module uses, so that IEEE
// 754 makes both languages round alike.  No Math.sin, Math.log or Math.exp.
//
//   import { generate } from "../kit/generator.mjs";
//   const { X, y, flipped, cleanY, Xtest, ytest } = generate({ kind: "xor", n: 40, seed: 7, spread: 0.3, flip: 0.1, test: 40 });
//
// test: the size of a held-out test set from the same distribution (default 0), drawn
// after the training data, which do not depend on it (make_demo_data's n_test).

export const KINDS = Object.freeze(["separable", "xor"]);
export const MAX_POINTS = 500;
export const MAX_MARGIN = 1;
export const MAX_SPREAD = 1;
export const MAX_FLIP = 0.5;
export const MAX_SEED = 4294967295;
const MAX_TRIES = 100000;
const CORNERS = [[1, 1, 1], [-1, -1, 1], [1, -1, -1], [-1, 1, -1]];

/** mulberry32: a function returning the next float64 in [0, 1) (see perceptron_lib.demos.data). */
export function mulberry32(seed) {
  checkSeed(seed);
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1) >>> 0;
    t = (((t + (Math.imul(t ^ (t >>> 7), t | 61) >>> 0)) >>> 0) ^ t) >>> 0;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return next;
}

function checkSeed(seed) {
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
    throw new Error(`seed must be an integer from 0 to 2**32 - 1, got ${JSON.stringify(seed)}`);
  }
}

function inRange(v, name, hi) {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new Error(`${name} must be a finite number, got ${JSON.stringify(v)}`);
  if (v < 0 || v > hi) throw new Error(`${name} must be between 0 and ${hi}, got ${v}`);
  return v;
}

/** Check generator options; returns them complete (defaults filled in) or throws. */
export function checkOptions({ kind, n, seed, margin = 0.3, spread = 0.3, flip = 0, test = 0 } = {}) {
  if (!KINDS.includes(kind)) throw new Error(`kind must be one of ${KINDS.join(", ")}, got ${JSON.stringify(kind)}`);
  if (!Number.isInteger(n) || n < 2) throw new Error(`n must be an integer, at least 2, got ${JSON.stringify(n)}`);
  if (n > MAX_POINTS) throw new Error(`n must be at most ${MAX_POINTS} (a playground draws every point), got ${n}`);
  if (!Number.isInteger(test) || test < 0 || test > MAX_POINTS) throw new Error(`test must be an integer from 0 to ${MAX_POINTS} (the held-out points), got ${JSON.stringify(test)}`);
  checkSeed(seed);
  return {
    kind, n, seed,
    margin: inRange(margin, "margin", MAX_MARGIN),
    spread: inRange(spread, "spread", MAX_SPREAD),
    flip: inRange(flip, "flip", MAX_FLIP),
    test,
  };
}

const gridPoint = (draw) => (Math.floor(401 * draw()) - 200) / 100;

function line(draw) {
  let a;
  let b;
  let r2;
  for (;;) {
    a = 2 * draw() - 1;
    b = 2 * draw() - 1;
    r2 = a * a + b * b;
    if (r2 >= 0.0625 && r2 <= 1) break;
  }
  const r = Math.sqrt(r2);
  return [a / r, b / r, (2 * draw() - 1) / 2];
}

function separable(n, margin, draw, [a, b, c]) {
  const X = [];
  const y = [];
  for (let k = 0; k < n; k++) {
    const want = k % 2 === 0 ? 1 : -1;
    let found = false;
    let x1;
    let x2;
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      x1 = gridPoint(draw);
      x2 = gridPoint(draw);
      const s = a * x1 + b * x2 + c;
      if (want * s > 0 && want * s >= margin) { found = true; break; }
    }
    if (!found) throw new Error(`no point found at margin ${margin} after ${MAX_TRIES} draws`);
    X.push([x1, x2]);
    y.push(want);
  }
  return [X, y];
}

function xor(n, spread, draw) {
  const X = [];
  const y = [];
  for (let k = 0; k < n; k++) {
    const [cx, cy, label] = CORNERS[k % 4];
    const x1 = Math.floor((cx + (2 * draw() - 1) * spread) * 100 + 0.5) / 100;
    const x2 = Math.floor((cy + (2 * draw() - 1) * spread) * 100 + 0.5) / 100;
    X.push([x1 === 0 ? 0 : x1, x2 === 0 ? 0 : x2]);
    y.push(label);
  }
  return [X, y];
}

/**
 * The data of make_demo_data(kind, n, seed, margin=, spread=, flip=).
 * Returns {X, y, flipped, cleanY}: points (arrays of 2 numbers), labels after the flips,
 * the flipped indices in the order picked, the labels before the flips.
 */
export function generate(options) {
  const { kind, n, seed, margin, spread, flip, test } = checkOptions(options);
  const draw = mulberry32(seed);
  const sep = kind === "separable" ? line(draw) : null;
  const points = (count) => (sep ? separable(count, margin, draw, sep) : xor(count, spread, draw));
  const [X, y] = points(n);
  const cleanY = y.slice();
  const flipped = flipSome(y, flip, draw);
  const [Xtest, ytest] = test ? points(test) : [[], []];
  flipSome(ytest, flip, draw);
  return { X, y, flipped, cleanY, Xtest, ytest };
}

/** Flip floor(flip n + 0.5) of the labels y in place; returns their indices. */
function flipSome(y, flip, draw) {
  const n = y.length;
  const m = Math.floor(flip * n + 0.5);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < m; i++) {
    const j = i + Math.floor(draw() * (n - i));
    [order[i], order[j]] = [order[j], order[i]];
    y[order[i]] = -y[order[i]];
  }
  return order.slice(0, m);
}
