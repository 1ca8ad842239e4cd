// The state of the book's in-page demos, kept in the page's URL.
//
// A link then reproduces what the reader saw, and the browser's Back button returns to the
// state before the last meaningful change.  Several demos may share a page: each keeps its
// state under its own key (the id of its element) in the URL's query string,
//
//     chapter_1.html?pg-ch1=eyJ2IjoxLCJkIjoyfQ#the-algorithm
//
// one query parameter per demo, whose value is the demo's state object as JSON, UTF-8, in
// base64url (RFC 4648, section 5, no padding).  The query, not the fragment, holds it: the
// fragment belongs to the page's section anchors (the table of contents and every
// cross-reference change it), and a static server ignores the query.  Parameters this
// module does not know are kept as they are.
//
// API (every function takes the demo's key first):
//
//   readState(key)            -> { state, error }: the demo's state object, or state null
//                                 when the URL holds none; error is null, or a sentence for
//                                 the demo's status line when the URL held something that
//                                 could not be read (the demo then ignores it).
//   pushState(key, state)     -> a new history entry (a meaningful change: an edit of the
//                                 data, another data set, another option).
//   replaceState(key, state)  -> the current entry changes (rapid changes: a step, a
//                                 slider being dragged).  Writes are coalesced: the URL is
//                                 written at most every REPLACE_DELAY_MS (browsers limit how
//                                 often a page may call history.replaceState).
//   clearState(key, {push})   -> the demo's parameter removed.
//   flush()                   -> write a pending replaceState now (tests; before unload).
//   subscribe(key, callback)  -> callback({ state, error }) after Back or Forward changed
//                                 the demo's parameter (popstate; not when only the
//                                 fragment or another demo's parameter changed); returns a
//                                 function that unsubscribes.
//   encodeState(state) / decodeState(text): the encoding alone (pure; used by the tests).
//
// What the state object holds is the demo's business, and so is checking it: a URL is input
// from anyone, so a demo must treat every field as untrusted (type, range, length) and fall
// back to its default for anything it cannot use.  This module only guarantees a plain
// JSON object (no array, no null) of at most MAX_ENCODED characters, without the keys
// "__proto__", "constructor" and "prototype" at any depth.

export const MAX_ENCODED = 60000; // characters of one demo's parameter
export const REPLACE_DELAY_MS = 120;
const KEY_RE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const FORBIDDEN = new Set(["__proto__", "constructor", "prototype"]);

function checkKey(key) {
  if (typeof key !== "string" || !KEY_RE.test(key)) {
    throw new Error(`a URL state key must be a letter followed by up to 63 letters, digits, "-" or "_", got ${JSON.stringify(key)}`);
  }
}

// -- the encoding ------------------------------------------------------------------------

function toBase64url(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new Error("it is not base64url");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

function checkPlain(value, depth) {
  if (depth > 8) throw new Error("it is nested too deeply");
  if (Array.isArray(value)) {
    for (const v of value) checkPlain(v, depth + 1);
  } else if (value !== null && typeof value === "object") {
    for (const k of Object.keys(value)) {
      if (FORBIDDEN.has(k)) throw new Error(`it holds the forbidden key "${k}"`);
      checkPlain(value[k], depth + 1);
    }
  }
}

/** The text that stands for a state object in the URL. */
export function encodeState(state) {
  if (state === null || typeof state !== "object" || Array.isArray(state)) {
    throw new Error("a demo's URL state must be a plain object");
  }
  const text = toBase64url(new TextEncoder().encode(JSON.stringify(state)));
  if (text.length > MAX_ENCODED) throw new Error(`the state is too large for the URL (${text.length} > ${MAX_ENCODED} characters)`);
  return text;
}

/** The state object a URL's text stands for; throws an Error saying why it cannot be read. */
export function decodeState(text) {
  if (typeof text !== "string" || text.length === 0) throw new Error("it is empty");
  if (text.length > MAX_ENCODED) throw new Error(`it is too long (${text.length} characters)`);
  let json;
  try {
    json = new TextDecoder("utf-8", { fatal: true }).decode(fromBase64url(text));
  } catch {
    throw new Error("it is not base64url-encoded UTF-8");
  }
  let value;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error("it is not JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error("it is not an object");
  checkPlain(value, 0);
  return value;
}

// -- the page's URL --------------------------------------------------------------------

const hasWindow = () => typeof window !== "undefined" && window.location && window.history;
const known = new Map(); // key -> the parameter's text as last read or written (null: none)

const paramOf = (key) => new URLSearchParams(window.location.search).get(key);

/** The demo's state in the current URL: { state, error } (see the module's comment). */
export function readState(key) {
  checkKey(key);
  if (!hasWindow()) return { state: null, error: null };
  const text = paramOf(key);
  known.set(key, text);
  if (text === null) return { state: null, error: null };
  try {
    return { state: decodeState(text), error: null };
  } catch (err) {
    return { state: null, error: `The link's saved state for this demo was ignored: ${err.message}.` };
  }
}

let pending = null; // Map key -> encoded text (or null: remove) not yet written
let timer = null;

function urlWith(changes) {
  const url = new URL(window.location.href);
  for (const [key, text] of changes) {
    if (text === null) url.searchParams.delete(key);
    else url.searchParams.set(key, text);
  }
  return url.toString();
}

function write(changes, push) {
  const href = urlWith(changes);
  for (const [key, text] of changes) known.set(key, text);
  if (push) {
    if (href !== window.location.href) window.history.pushState(window.history.state, "", href);
  } else if (href !== window.location.href) {
    window.history.replaceState(window.history.state, "", href);
  }
}

/** Write a pending replaceState now. */
export function flush() {
  if (timer !== null) { clearTimeout(timer); timer = null; }
  if (!pending || !hasWindow()) { pending = null; return; }
  const changes = pending;
  pending = null;
  write(changes, false);
}

function schedule(key, text) {
  if (!pending) pending = new Map();
  pending.set(key, text);
  if (timer === null) timer = setTimeout(flush, REPLACE_DELAY_MS);
}

/** A new history entry with the demo's state (a meaningful change). */
export function pushState(key, state) {
  checkKey(key);
  const text = encodeState(state);
  if (!hasWindow()) return;
  flush(); // the entry being left keeps its last state
  write([[key, text]], true);
}

/** The current history entry takes the demo's state (a rapid change; coalesced). */
export function replaceState(key, state) {
  checkKey(key);
  const text = encodeState(state);
  if (!hasWindow()) return;
  schedule(key, text);
}

/** Remove the demo's parameter (a new entry when push is true). */
export function clearState(key, { push = false } = {}) {
  checkKey(key);
  if (!hasWindow()) return;
  if (push) { flush(); write([[key, null]], true); } else schedule(key, null);
}

const listeners = new Map(); // key -> Set of callbacks
let listening = false;

function onPopState() {
  if (timer !== null) { clearTimeout(timer); timer = null; }
  pending = null; // a write meant for the entry that was left
  for (const [key, callbacks] of listeners) {
    if (known.has(key) && known.get(key) === paramOf(key)) continue; // not this demo's change
    const got = readState(key);
    for (const cb of [...callbacks]) {
      try {
        cb(got);
      } catch (err) {
        console.error(`URL state of "${key}":`, err);
      }
    }
  }
}

/** Call callback({ state, error }) whenever Back or Forward changes the URL. */
export function subscribe(key, callback) {
  checkKey(key);
  if (typeof callback !== "function") throw new Error("subscribe needs a function to call");
  if (!listeners.has(key)) listeners.set(key, new Set());
  listeners.get(key).add(callback);
  if (!listening && hasWindow()) {
    window.addEventListener("popstate", onPopState);
    if (typeof window.addEventListener === "function") window.addEventListener("pagehide", flush);
    listening = true;
  }
  return () => {
    const set = listeners.get(key);
    if (set) { set.delete(callback); if (!set.size) listeners.delete(key); }
  };
}
