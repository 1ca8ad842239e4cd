// Undo, Redo and the page's URL for the edits a reader makes in a demo (chapters 1, 3 and
// 4's playground, chapter 2's offset demo, chapter 6's kernel playground, chapter 7's
// margin demo; any demo whose reader edits data may use it).
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
// Redo puts back what the last Undo took: undo() keeps a snapshot of the state it leaves
// (snapshot(what), with the what of the edit taken back), redo() returns it and keeps one
// of the state it leaves for Undo again.  A new edit, Back and Forward end the chain of
// Redo.
//
// UndoRedo is what a demo's reader sees of it, the same in every demo: the Undo and Redo
// buttons, their keys (Ctrl/Cmd+Z; Ctrl/Cmd+Shift+Z or Ctrl+Y), and the keyboard kept in
// the demo across the redraw (dom.mjs keepFocus).
//
//   this.undoRedo = new UndoRedo({ history, root, prefix: "md", what: "the last edit",
//     fallback: () => this.layer, restore: (snap) => ..., told: (done, snap) => "...",
//     say: (t) => this.say(t), focused: (i) => this.select_(i, false) });
//   line.append(this.undoRedo.buttons.undo, this.undoRedo.buttons.redo);
//   if (!typing && this.undoRedo.onKey(e)) return;   // in the demo's keydown
//   this.undoRedo.render();                            // after an edit: the buttons' state

import { el, keepFocus } from "./dom.mjs";
import * as urlState from "./url-state.mjs";

/** What the help of a demo says of Undo, Redo and the address, the same in every demo. */
export const UNDO_HELP = [
  "Undo (Ctrl+Z or \u2318Z) takes the last change back, with the run where it was; Redo (Ctrl+Shift+Z, Ctrl+Y or \u21e7\u2318Z) puts it back.",
  "The page's address keeps what you see, your points too: copy it to share it; Back returns to the state before your last change.",
];

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

/**
 * "undo" for Ctrl+Z or Cmd+Z, "redo" for Ctrl+Shift+Z, Cmd+Shift+Z or Ctrl+Y (Cmd+Y too),
 * null for any other key.
 */
export function undoRedoKey(e) {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  const k = e.key.toLowerCase();
  if (k === "z") return e.shiftKey ? "redo" : "undo";
  return k === "y" && !e.shiftKey ? "redo" : null;
}

/**
 * A demo's Undo and Redo: the buttons (buttons.undo and buttons.redo, of classes
 * `${prefix}-undo` and `${prefix}-redo`, for the demo to place), what they and their keys
 * do, and the keyboard kept in the demo.  The demo gives:
 *   history   its EditHistory;
 *   root      its element; fallback() the element that takes the focus when the focused
 *             one is gone (the plot);
 *   what      what Undo takes back, for the button's tip ("the last edit of the data");
 *   restore   (snap) => put back the snapshot Undo or Redo returned (no URL write);
 *   told      (done, snap) => the status line after it (done: "Undone" or "Redone");
 *   say       (text) => write the status line;
 *   focused   (i) => point i (an element with data-i) has the focus after it (optional);
 *   changed   () => after Undo or Redo, done or not (the demo's buttons; optional).
 */
export class UndoRedo {
  constructor({ history, root, prefix, what, fallback, restore, told, say, focused = () => {}, changed = () => {} }) {
    Object.assign(this, { history, root, fallback, restore, told, say, focused, changed });
    const button = (name, text, keys, tip) => el("button", { type: "button", class: `demo-button ${prefix}-${name}`,
      "aria-keyshortcuts": keys, title: tip }, text);
    this.buttons = {
      undo: button("undo", "Undo", "Control+Z Meta+Z", `take back ${what} (Ctrl+Z or \u2318Z)`),
      redo: button("redo", "Redo", "Control+Shift+Z Control+Y Meta+Shift+Z",
        "put back what Undo took back (Ctrl+Shift+Z, Ctrl+Y or \u21e7\u2318Z)"),
    };
    this.buttons.undo.addEventListener("click", () => this.undo());
    this.buttons.redo.addEventListener("click", () => this.redo());
  }

  undo() {
    return this.putBack(this.history.undo(), "Undone", "Nothing to undo.");
  }

  redo() {
    return this.putBack(this.history.redo(), "Redone", "Nothing to redo.");
  }

  /** Put back what Undo or Redo returned, the focus kept in the demo; a new history entry. */
  putBack(snap, done, nothing) {
    if (!snap) {
      this.say(nothing);
    } else {
      this.keeping(() => this.restore(snap));
      this.history.save("push");
      this.say(this.told(done, snap));
    }
    this.render();
    this.changed();
    return Boolean(snap);
  }

  /**
   * Run fn, which may draw the demo's points anew (Undo, Redo, Back), and keep the keyboard
   * in the demo: a point that had the focus gives it to the point of the same index if
   * there still is one (the demo is told, focused(i)), else to fallback().
   */
  keeping(fn) {
    const refocus = keepFocus(this.root, this.fallback());
    fn();
    refocus();
    const a = document.activeElement;
    const point = a && this.root.contains(a) ? a.closest("[data-i]") : null;
    if (point) this.focused(Number(point.dataset.i));
  }

  /** In the demo's keydown: Undo or Redo for their keys; whether the key was one of them. */
  onKey(e) {
    const which = undoRedoKey(e);
    if (!which) return false;
    e.preventDefault();
    this[which]();
    return true;
  }

  /** The buttons say whether there is anything to undo or to redo. */
  render() {
    this.buttons.undo.setAttribute("aria-disabled", String(this.history.depth === 0));
    this.buttons.redo.setAttribute("aria-disabled", String(this.history.redoDepth === 0));
  }
}
