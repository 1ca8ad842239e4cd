// The spam features of chapter 5 for the browser and for Node.js (ES module, no dependencies).
//
// It follows perceptron_lib/spam.py exactly.  A message is split into tokens at runs of
// white space; a token with a letter is a word, one with digits and no letter a number;
// a word with at least two letters, all upper case, is all-caps; digits are counted in
// the whole message, and "!" (U+0021) is the exclamation mark.  The features are
//
//   x1 = all-caps words / max(other words, 1),  x2 = digits / max(words, 1),  x3 = "!".
//
// White space, letters, upper-case letters and digits are read from char-classes.mjs,
// the page's copy of the library's frozen Unicode 14.0 tables (White_Space, categories
// L, Lu and Nd), never from the browser's own Unicode data, which is of another version.
// Characters are code points, as Python iterates a str.  tests/test_spam_demo_core.py
// runs this file under Node.js (tests/js/run_spam_core.mjs) and checks that it gives the
// library's counts and features, bit for bit.

import { DIGIT, LETTER, UPPER, WHITE_SPACE } from "./char-classes.mjs";

const IS_LETTER = 1;
const IS_UPPER = 2;
const IS_DIGIT = 4;
const IS_SPACE = 8;

function rangeTable(flat) {
  const n = flat.length / 2;
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    starts[k] = flat[2 * k];
    ends[k] = flat[2 * k + 1];
  }
  return { starts, ends };
}

function inTable(table, cp) {
  // the last range starting at or before cp, by bisection
  let lo = 0;
  let hi = table.starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (table.starts[mid] <= cp) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && cp <= table.ends[lo - 1];
}

const LETTERS = rangeTable(LETTER);
const UPPERS = rangeTable(UPPER);
const DIGITS = rangeTable(DIGIT);
const SPACES = new Set(WHITE_SPACE);
const memo = new Map();

/** The classes of one code point, as bits: letter 1, upper-case letter 2, digit 4, space 8. */
export function classOf(cp) {
  let bits = memo.get(cp);
  if (bits === undefined) {
    bits = 0;
    if (SPACES.has(cp)) bits |= IS_SPACE;
    if (inTable(LETTERS, cp)) bits |= IS_LETTER;
    if (inTable(UPPERS, cp)) bits |= IS_UPPER;
    if (inTable(DIGITS, cp)) bits |= IS_DIGIT;
    if (memo.size < 65536) memo.set(cp, bits);
  }
  return bits;
}

export const isLetter = (ch) => (classOf(ch.codePointAt(0)) & IS_LETTER) !== 0;
export const isUpper = (ch) => (classOf(ch.codePointAt(0)) & IS_UPPER) !== 0;
export const isDigit = (ch) => (classOf(ch.codePointAt(0)) & IS_DIGIT) !== 0;
export const isSpace = (ch) => (classOf(ch.codePointAt(0)) & IS_SPACE) !== 0;

function checkMessage(message) {
  if (typeof message !== "string") {
    throw new TypeError(`message must be a string, got ${message === null ? "null" : typeof message}`);
  }
}

/** The tokens of a message: the pieces between runs of white space. */
export function tokenize(message) {
  checkMessage(message);
  const tokens = [];
  let token = "";
  for (const ch of message) {
    if (isSpace(ch)) {
      if (token) tokens.push(token);
      token = "";
    } else {
      token += ch;
    }
  }
  if (token) tokens.push(token);
  return tokens;
}

/**
 * Words, all-caps words, digits, numbers and exclamation marks of a message, as
 * perceptron_lib.count_message counts them.  Throws an Error whose message starts with
 * "message is empty" when the message has no token (nothing but white space).
 */
export function countMessage(message) {
  checkMessage(message);
  let tokens = 0;
  let words = 0;
  let capsWords = 0;
  let digits = 0;
  let numbers = 0;
  let exclamations = 0;
  let inToken = false;
  let letters = 0;
  let upper = 0;
  let tokenDigits = 0;
  const finish = () => {
    tokens += 1;
    if (letters > 0) {
      words += 1;
      if (letters >= 2 && upper === letters) capsWords += 1;
    } else if (tokenDigits > 0) {
      numbers += 1;
    }
    inToken = false;
    letters = upper = tokenDigits = 0;
  };
  for (const ch of message) {
    const cp = ch.codePointAt(0);
    const bits = classOf(cp);
    if (bits & IS_SPACE) {
      if (inToken) finish();
      continue;
    }
    inToken = true;
    if (cp === 0x21) exclamations += 1;
    if (bits & IS_LETTER) {
      letters += 1;
      if (bits & IS_UPPER) upper += 1;
    }
    if (bits & IS_DIGIT) {
      digits += 1;
      tokenDigits += 1;
    }
  }
  if (inToken) finish();
  if (tokens === 0) throw new Error("message is empty: there is nothing to count");
  return { words, capsWords, otherWords: words - capsWords, digits, numbers, exclamations };
}

/** The three features [caps ratio, digits ratio, exclamation marks] of counted message. */
export function featuresOf(counts) {
  return [
    counts.capsWords / Math.max(counts.otherWords, 1),
    counts.digits / Math.max(counts.words, 1),
    counts.exclamations,
  ];
}

/** The three features of a message, as perceptron_lib.spam_features computes them. */
export function spamFeatures(message) {
  return featuresOf(countMessage(message));
}

/**
 * The classifier's score theta . z + theta0 of a feature vector, where z holds the chosen
 * features, each scaled as z_j = (x_j - mean_j) / scale_j when the model has a mean and
 * a scale; summed left to right with theta0 added last (perceptron_lib.demos.spam).
 */
export function score(features, model) {
  const { columns, theta, theta0 } = model;
  let s = 0;
  for (let j = 0; j < columns.length; j++) {
    let z = features[columns[j]];
    if (model.mean) z -= model.mean[j];
    if (model.scale) z /= model.scale[j];
    s += theta[j] * z;
  }
  return s + theta0;
}

/** +1 (spam) when the score is positive, -1 (not spam) otherwise, as perceptron_lib.predict. */
export const verdict = (s) => (s > 0 ? 1 : -1);

/**
 * A ratio num / den (integers, den > 0) rounded to `places` decimals, half up, as text;
 * exact integer arithmetic, so it never depends on how a float prints.
 */
export function ratioText(num, den, places = 3) {
  const unit = 10 ** places;
  const scaled = Math.floor((2 * num * unit + den) / (2 * den));
  const whole = Math.floor(scaled / unit);
  const frac = String(scaled % unit).padStart(places, "0");
  return places > 0 ? `${whole}.${frac}` : String(whole);
}
