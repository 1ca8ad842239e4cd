// The demo kit's shared parts in JavaScript (chapters 1-7): what every demo of the book
// builds the same way, written once.
//
//   import { buttonRow, mountEvery, showError } from "../kit/demo-kit.mjs";
//
// - groupRoot, datasetLine, sliderLine: the demo's element as one named group, the line
//   with the menu of data sets, a line with a named slider and its value;
// - trainingButtons: the four training buttons' specs for buttonRow, with the demo's tips;
// - buttonRow: the toolbar of buttons that train (Step, Epoch, Run, Reset), each with
//   its key shown in a <kbd> where there is room (kit.css), its key named for assistive
//   technology (aria-keyshortcuts) and its tip;
// - helpBox: the folded help under a demo, its keys and what an edit does;
// - showError: what a demo shows in its frame when it cannot start;
// - mountEvery: mount every element of a demo's class once the document is ready.
// The style of the parts is the kit's (kit.css, classes demo-*); the demo's own class of
// each button (md-step, kp-run, ...) stays beside the kit's for its own rules and tests.

import { el, onReady } from "./dom.mjs";

/**
 * The folded help of a demo (chapters 1 to 4, 6 and 7): a <details class="demo-help">
 * with the summary and a list of the lines.
 * @param {Array<string>} lines the help, one list item each
 * @param {{summary?: string, listId?: string, wrap?: boolean, item?: function(string): HTMLElement}} options
 *   listId the list's id; wrap puts the list in a <div> (chapters 6 and 7); item makes a
 *   line's list item (chapter 7 writes subscripts)
 * @returns {HTMLDetailsElement}
 */
export function helpBox(lines, { summary = "Mouse and keyboard", listId = null, wrap = false, item = (t) => el("li", {}, t) } = {}) {
  const help = el("details", { class: "demo-help" });
  help.append(el("summary", {}, summary));
  const ul = el("ul", listId === null ? {} : { id: listId });
  for (const t of lines) ul.append(item(t));
  if (wrap) {
    const box = el("div");
    box.append(ul);
    help.append(box);
  } else {
    help.append(ul);
  }
  return help;
}

/**
 * The specs of the four training buttons for buttonRow (chapters 1 to 4, 6 and 7): Step,
 * Epoch, Run and Reset with their keys s, e, r and 0; tips.step and tips.reset say what
 * the demo's Step and Reset do, tips.run (if given) when its Run stops.
 * @param {{step: string, run?: string, reset: string}} tips
 * @returns {Array<[string, string, string, string]>}
 */
export const trainingButtons = (tips) => [
  ["step", "Step", "s", `${tips.step} (key s)`],
  ["epoch", "Epoch", "e", "finish the current epoch (key e)"],
  ["run", "Run", "r", `${tips.run ?? "run until a clean epoch or \u03c4 epochs"} (key r)`],
  ["reset", "Reset", "0", `${tips.reset} (key 0)`],
];

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

/**
 * Make a demo's element one group for assistive technology, named, and focusable by
 * script (so that a demo can take focus back after an edit) but not by Tab.
 * @param {HTMLElement} root the demo's element
 * @param {string} label the demo's name for assistive technology
 */
export function groupRoot(root, label) {
  root.setAttribute("role", "group");
  root.setAttribute("aria-label", label);
  root.tabIndex = -1;
}

/**
 * The line with the menu of data sets.
 * @param {string} selectId the id of the menu (its label points to it)
 * @param {string[]} names the data sets' names, in the menu's order (value k is name k)
 * @param {string} lineClass the line's classes
 * @returns {{line: HTMLElement, select: HTMLSelectElement}}
 */
export function datasetLine(selectId, names, lineClass = "demo-line") {
  const line = el("div", { class: lineClass });
  line.append(el("label", { class: "demo-name", for: selectId }, "Data set"));
  const select = el("select", { class: "demo-select demo-dataset", id: selectId });
  names.forEach((name, k) => select.append(el("option", { value: String(k) }, name)));
  line.append(select);
  return { line, select };
}

/**
 * A line with a named slider of whole steps min..max and the value it stands for.
 * @param {string} inputId the slider's id
 * @param {string} name its name, as text (or, with options.html, as the demo's own markup:
 *   a symbol with a subscript, never anything a reader typed)
 * @param {number} min the first step
 * @param {number} max the last step
 * @param {{lineClass?: string, inputClass?: string, nameClass?: string, describedBy?: string,
 *   html?: boolean}} options the line's, the slider's and the name's classes; the id of
 *   the text that describes it; whether the name is markup
 * @returns {{line: HTMLElement, input: HTMLInputElement, out: HTMLOutputElement}}
 */
export function sliderLine(inputId, name, min, max, options = {}) {
  const { lineClass = "demo-line", inputClass = "demo-range", nameClass = "demo-name", describedBy, html = false } = options;
  const line = el("div", { class: lineClass });
  const input = el("input", { class: inputClass, type: "range", id: inputId, min: String(min), max: String(max), step: "1" });
  if (describedBy) input.setAttribute("aria-describedby", describedBy);
  const out = el("output", { class: "demo-value", for: inputId, "aria-hidden": "true" });
  const label = el("label", { class: nameClass, for: inputId });
  if (html) label.innerHTML = name;
  else label.textContent = name;
  line.append(label, input, out);
  return { line, input, out };
}
