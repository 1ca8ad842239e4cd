// Check book/_demos/kit/url-state.mjs under Node.js with a stand-in for the browser's
// window (location, history, popstate).
//
//     node tests/js/run_url_state.mjs
//
// Prints {"checks": N} on success; the first failed check stops the script with exit
// status 1 and the assertion's message on stderr.  tests/test_playground_url_state.py
// runs it.

import assert from "node:assert/strict";

// -- a stand-in window: enough of location, history and events for the module -----------
const handlers = {};
const entries = [{ href: "https://course.example/book/ch1.html?lang=en#the-algorithm", state: null }];
let at = 0;
let pushes = 0;
let replaces = 0;
globalThis.window = {
  get location() {
    const u = new URL(entries[at].href);
    return { href: u.href, search: u.search, hash: u.hash };
  },
  history: {
    get state() { return entries[at].state; },
    pushState(state, _t, href) { entries.splice(at + 1); entries.push({ href: String(href), state }); at += 1; pushes += 1; },
    replaceState(state, _t, href) { entries[at] = { href: String(href), state }; replaces += 1; },
  },
  addEventListener(type, fn) { (handlers[type] ??= []).push(fn); },
};
function back() { at -= 1; for (const fn of handlers.popstate ?? []) fn({}); }
function forward() { at += 1; for (const fn of handlers.popstate ?? []) fn({}); }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const us = await import("../../book/_demos/kit/url-state.mjs");
let checks = 0;
const check = (fn) => { fn(); checks += 1; };

// the encoding round-trips, unicode and numbers exactly
const sample = { v: 1, d: 2, X: [[0.1, -3.25], [1e-7, 12345.678901234567]], y: [1, -1], name: "m\u00e9lange \u2212 \u03b8", on: true };
check(() => assert.deepEqual(us.decodeState(us.encodeState(sample)), sample));
check(() => assert.match(us.encodeState(sample), /^[A-Za-z0-9_-]+$/));

// hostile or broken texts are refused with a reason, never thrown past readState
const bad = [
  ["", /empty/], ["%%%", /base64url/], ["a", /base64url/], [Buffer.from("not json").toString("base64url"), /JSON/],
  [us.encodeState({ a: 1 }).slice(0, -3) + "@@", /base64url/],
  [Buffer.from("[1,2]").toString("base64url"), /not an object/],
  [Buffer.from("null").toString("base64url"), /not an object/],
  [Buffer.from('{"a":{"__proto__":{"x":1}}}').toString("base64url"), /forbidden/],
  [Buffer.from('{"constructor":1}').toString("base64url"), /forbidden/],
  [Buffer.from("\xff\xfe").toString("base64url"), /UTF-8|JSON/],
  [Buffer.from("[".repeat(20) + "]".repeat(20)).toString("base64url"), /not an object/],
  [Buffer.from('{"a":' + "[".repeat(20) + "]".repeat(20) + "}").toString("base64url"), /deeply/],
  ["A".repeat(us.MAX_ENCODED + 1), /too long/],
];
for (const [text, why] of bad) check(() => assert.throws(() => us.decodeState(text), why));
check(() => assert.equal(({}).x, undefined)); // nothing polluted
check(() => assert.throws(() => us.encodeState([1]), /plain object/));
check(() => assert.throws(() => us.readState("1bad"), /key/));
check(() => assert.throws(() => us.pushState("a b", {}), /key/));

// no state yet
check(() => assert.deepEqual(us.readState("pg-a"), { state: null, error: null }));

// a push is a new entry; other parameters and the fragment stay
us.pushState("pg-a", { d: 1 });
check(() => assert.equal(entries.length, 2));
check(() => assert.deepEqual(us.readState("pg-a"), { state: { d: 1 }, error: null }));
check(() => assert.equal(new URL(entries[1].href).searchParams.get("lang"), "en"));
check(() => assert.equal(new URL(entries[1].href).hash, "#the-algorithm"));

// two demos on one page keep separate keys
us.pushState("pg-b", { k: "rbf" });
check(() => assert.deepEqual(us.readState("pg-a").state, { d: 1 }));
check(() => assert.deepEqual(us.readState("pg-b").state, { k: "rbf" }));

// rapid replaces are coalesced into one write, and no entry is added
const before = replaces;
for (let s = 1; s <= 50; s++) us.replaceState("pg-a", { d: 1, s });
check(() => assert.equal(replaces, before)); // not yet written
await sleep(us.REPLACE_DELAY_MS + 60);
check(() => assert.equal(replaces, before + 1));
check(() => assert.deepEqual(us.readState("pg-a").state, { d: 1, s: 50 }));
check(() => assert.equal(entries.length, 3));

// flush writes at once; a push first writes the pending replace into the entry it leaves
us.replaceState("pg-a", { d: 1, s: 60 });
us.pushState("pg-a", { d: 2 });
check(() => assert.deepEqual(new URL(entries[2].href).searchParams.get("pg-a"), us.encodeState({ d: 1, s: 60 })));
check(() => assert.deepEqual(us.readState("pg-a").state, { d: 2 }));

// Back and Forward call the subscribers of every key with what the URL now holds
const seenA = [];
const seenB = [];
const offA = us.subscribe("pg-a", (got) => seenA.push(got));
us.subscribe("pg-b", (got) => seenB.push(got));
back();
check(() => assert.deepEqual(seenA.at(-1), { state: { d: 1, s: 60 }, error: null }));
check(() => assert.equal(seenB.length, 0)); // only pg-a changed
back();
back();
check(() => assert.deepEqual(seenB.at(-1), { state: null, error: null }));
forward();
check(() => assert.deepEqual(seenA.at(-1), { state: { d: 1 }, error: null }));
// a replace pending when Back is pressed is dropped, not written over the entry reached
us.replaceState("pg-a", { d: 99 });
back();
await sleep(us.REPLACE_DELAY_MS + 60);
check(() => assert.equal(us.readState("pg-a").state, null));
offA();
const n = seenA.length;
forward();
check(() => assert.equal(seenA.length, n)); // unsubscribed

// a change of the fragment alone (a section link, then Back) calls no subscriber
const calls = seenB.length;
entries.splice(at + 1);
window.history.pushState(null, "", window.location.href.replace(/#.*$/, "") + "#another-section");
back();
check(() => assert.equal(seenB.length, calls));
forward();
check(() => assert.equal(seenB.length, calls));

// a hostile parameter gives an error for the status line, and no state
entries.splice(at + 1);
window.history.pushState(null, "", "https://course.example/book/ch1.html?pg-a=%7B%22x%22%3A1%7D&pg-b=" + us.encodeState({ k: "poly" }));
const got = us.readState("pg-a");
check(() => assert.equal(got.state, null));
check(() => assert.match(got.error, /ignored: it is not base64url/));
check(() => assert.deepEqual(us.readState("pg-b").state, { k: "poly" }));

// clearState removes the parameter
us.clearState("pg-b", { push: true });
check(() => assert.equal(us.readState("pg-b").state, null));
check(() => assert.equal(new URL(window.location.href).searchParams.has("pg-b"), false));

process.stdout.write(JSON.stringify({ checks, pushes }) + "\n");
