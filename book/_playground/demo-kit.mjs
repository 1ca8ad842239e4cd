// The demo kit's shared parts in JavaScript (chapters 1-7): what every demo of the book
// builds the same way, written once.
//
//   import { buttonRow, mountEvery, showError } from "./demo-kit.mjs";
//
// - buttonRow: the toolbar of buttons that train (Step, Epoch, Run, Reset), each with
//   its key shown in a <kbd> where there is room (kit.css), its key named for assistive
//   technology (aria-keyshortcuts) and its tip;
// - showError: what a demo shows in its frame when it cannot start;
// - mountEvery: mount every element of a demo's class once the document is ready.
// The style of the parts is the kit's (kit.css, classes demo-*); the demo's own class of
// each button (md-step, kp-run, ...) stays beside the kit's for its own rules and tests.

import { el, onReady } from "./dom.mjs";

/**
 * The toolbar of training buttons.
 * @param {string} label what the toolbar does, for assistive technology
 * @param {string} prefix the demo's class prefix ("md"): each button gets `${prefix}-${name}`
 * @param {Array<[string, string, string, string]>} specs [name, text, key, tip] per button
 * @param {string} className the toolbar's classes (its place in the demo's grid, if any)
 * @returns {{element: HTMLElement, buttons: Object<string, HTMLButtonElement>}}
 */
export function buttonRow(label, prefix, specs, className = "demo-buttons demo-area-buttons") {
  const element = el("div", { class: className, role: "toolbar", "aria-label": label });
  const buttons = {};
  for (const [name, text, key, tip] of specs) {
    const b = el("button", { type: "button", class: `demo-button ${prefix}-${name}`, "aria-keyshortcuts": key, title: tip }, text);
    b.append(el("kbd", { "aria-hidden": "true" }, key));
    element.append(b);
    buttons[name] = b;
  }
  return { element, buttons };
}

/**
 * Show in a demo's frame (or its root) why it could not start, and say it on the console.
 * @param {HTMLElement} root the demo's element
 * @param {Error} err what went wrong
 * @param {string} name the demo's name in a sentence ("margin demo")
 * @param {string} prefix the demo's class prefix: the root gets `${prefix}-failed`, and
 *   the message replaces the content of its `${prefix}-frame` child, or of the root
 */
export function showError(root, err, name, prefix) {
  root.classList.add(`${prefix}-failed`);
  const p = el("p", { class: "demo-error", role: "alert" }, `The ${name} could not start: ${err.message}`);
  const frame = root.querySelector(`:scope > .${prefix}-frame`) || root;
  frame.replaceChildren(p);
  console.error(`${name}:`, err);
}

/**
 * Once the document is ready, mount every `div.${className}` of it.
 * @param {string} className the class of the demo's elements
 * @param {(root: HTMLElement) => any} mount turns one element into a demo, returns its API
 * @returns {(doc?: Document) => any[]} mountAll, which mounts them (again) on demand
 */
export function mountEvery(className, mount) {
  const mountAll = (doc = document) => [...doc.querySelectorAll(`div.${className}`)].map(mount);
  onReady(() => mountAll());
  return mountAll;
}
