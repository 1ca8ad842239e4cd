// Undo, Redo and the page's URL for the edits a reader makes in a demo (chapters 1, 3 and
// 4's playground, chapter 6's kernel playground; any demo whose reader edits data may use
// it).
//
//   import { EditHistory } from "../kit/edit-history.mjs";
//   const history = new EditHistory({
//     key: element.id,                    // the demo's key in the URL (url-state.mjs)
//     snapshot: (what) => ({ what, ... }), // what Undo needs to put the demo back
//     stateObject: () => ({ v: 1, ... }),  // what a link carries
//   });
//   history.edit(tag, "adding example 3", () => { ...change the data... });
//   const snap = history.undo();          // null when there is nothing to undo
//   const again = history.redo();         // the state Undo left (null: none to redo)
//   history.moved();                      // after a step: the URL follows, no new entry
//   history.forget();                     // after Back or Forward
//
// edit() takes a snapshot before the change and adds a history entry to the browser's
// after it.  Edits in a row with the same tag (not null) are one: one snapshot, one entry,
// the URL replaced as they go (a point dragged, a point moved by arrow keys).  A burst of
// edits (each within BURST_MS of the one before) is one entry of the browser's history
// too, so that Back leaves a page after a few presses, however many clicks and slider
// keys came before; Undo still takes the edits back one at a time.  The demo restores a
// snapshot itself, then calls save("push"): an Undo is a new entry, as any edit.
//
// Redo (chapter 6) puts back what the last Undo took: undo() keeps a snapshot of the state
// it leaves (snapshot(what), with the what of the edit taken back), redo() returns it and
// keeps one of the state it leaves for Undo again.  A new edit, Back and Forward end the
// chain of Redo.  A demo without Redo never calls redo(); its snapshots then need no more
// than before, but an object with `what`.

import * as urlState from "./url-state.mjs";

/** Edits closer together than this (ms) share one entry of the browser's history. */
export const BURST_MS = 1000;
const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());

export class EditHistory {
  constructor({ key, snapshot, stateObject, depth = 100 }) {
    this.key = key;
    this.snapshot = snapshot;
    this.stateObject = stateObject;
    this.maxDepth = depth;
    this.stack = []; // snapshots before each edit, the last on top
    this.redoStack = []; // snapshots of the states Undo left, the last on top
    this.tag = null;
    this.lastEdit = -Infinity; // when the last edit was made (performance.now())
  }

  /** How many edits Undo can take back. */
  get depth() {
    return this.stack.length;
  }

  /** How many edits Redo can put back. */
  get redoDepth() {
    return this.redoStack.length;
  }

  /** Change the data: fn does it.  Undo can take it back; the URL gets a new entry. */
  edit(tag, what, fn) {
    const same = tag !== null && tag === this.tag;
    if (!same) {
      this.stack.push(this.snapshot(what));
      if (this.stack.length > this.maxDepth) this.stack.shift();
      this.redoStack = [];
    }
    this.tag = tag;
    const t = now();
    const burst = t - this.lastEdit < BURST_MS;
    this.lastEdit = t;
    fn();
    this.save(same || burst ? "replace" : "push");
  }

  /** The snapshot taken before the last edit (removed from the stack), or null. */
  undo() {
    this.tag = null;
    const snap = this.stack.pop() ?? null;
    if (snap) this.redoStack.push(this.snapshot(snap.what));
    return snap;
  }

  /** The snapshot the last Undo left (removed from the Redo stack), or null. */
  redo() {
    this.tag = null;
    const snap = this.redoStack.pop() ?? null;
    if (snap) this.stack.push(this.snapshot(snap.what));
    return snap;
  }

  /** After a change that is no edit (a step, a run): the URL follows, no new entry. */
  moved() {
    this.tag = null;
    this.save("replace");
  }

  /** After Back or Forward: the browser's history has taken over. */
  forget() {
    this.stack = [];
    this.redoStack = [];
    this.tag = null;
    this.lastEdit = -Infinity;
  }

  /** Write the demo's state to the URL: "push" (a new entry) or "replace". */
  save(mode) {
    try {
      if (mode === "push") urlState.pushState(this.key, this.stateObject());
      else urlState.replaceState(this.key, this.stateObject());
    } catch (err) {
      // a state too large for a link: the demo works on, the address does not follow
      console.warn(`${this.key}: ${err.message}`);
    }
  }
}
