// The "Generate data" form of the book's playgrounds: kind, number of points, margin or
// spread, labels flipped, seed, and the held-out test points (from the same distribution); its data come from generator.mjs (the twin of
// perceptron_lib.make_demo_data).
//
//   import { createGeneratorForm } from "../kit/generator-form.mjs";
//   const form = createGeneratorForm({ onGenerate: (options) => ..., say: (text) => ... });
//   host.append(form.element);     // a closed <details>
//   form.options();                // the form's options, checked (throws on a bad value)
//   form.set(options);             // show these options
//
// Colours come from CSS custom properties with fallbacks: --gf-fg, --gf-bg, --gf-panel,
// --gf-border, --gf-focus.

import * as gen from "./generator.mjs";

const STYLE_ID = "generator-form-style";
const STYLE = `
.gf summary { cursor: pointer; font-weight: 600; min-height: 1.75rem; }
.gf-form { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0.35rem; margin-top: 0.35rem; padding: 0.5rem;
  border: 1px solid var(--gf-border, #c4c9d0); border-radius: 0.35rem; background: var(--gf-panel, transparent); }
.gf-field { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.25fr) 2.6rem; align-items: center; gap: 0.4rem; margin: 0; }
.gf-field > :nth-child(2):last-child { grid-column: 2 / 4; }
.gf-field[hidden] { display: none; }
.gf-field input[type="range"] { width: 100%; margin: 0; accent-color: var(--gf-focus, #0b57d0); }
.gf-input { width: 100%; min-height: 2.25rem; padding: 0.2rem 0.4rem; border: 1px solid var(--gf-border, #c4c9d0);
  border-radius: 0.3rem; background: var(--gf-bg, #fff); color: var(--gf-fg, inherit); font: inherit; }
.gf-value { font-variant-numeric: tabular-nums; text-align: right; }
.gf-buttons { display: flex; gap: 0.3rem; }
.gf-button { flex: 1 1 0; min-height: 2.5rem; padding: 0.3rem; border: 1px solid var(--gf-border, #c4c9d0); border-radius: 0.35rem;
  background: var(--gf-bg, #fff); color: var(--gf-fg, inherit); font: inherit; font-weight: 600; cursor: pointer; }
.gf-button:hover { border-color: var(--gf-fg, currentColor); }
.gf button:focus-visible, .gf input:focus-visible, .gf select:focus-visible, .gf summary:focus-visible {
  outline: 3px solid var(--gf-focus, #0b57d0); outline-offset: 2px; }
@container (max-width: 419.98px) {
  .gf-field { grid-template-columns: minmax(0, 1fr) 3rem; }
  .gf-field > span:first-child, .gf-field > :nth-child(2):last-child { grid-column: 1 / 3; }
}
`;

function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function addStyle(doc) {
  if (doc.getElementById(STYLE_ID)) return;
  const s = doc.createElement("style");
  s.id = STYLE_ID;
  s.textContent = STYLE;
  doc.head.append(s);
}

const short = (v) => String(Number(v.toPrecision(4)));
/** The held-out test points the form asks for at first (0: none). */
export const TEST_POINTS = 100;

/**
 * Build the form.  onGenerate(options) is called with checked options when the reader
 * presses Generate or Next seed; say(text) reports a bad value.  kinds: the kinds offered
 * (default both).  Returns { element, options(), set(options) }.
 */
export function createGeneratorForm({ onGenerate, say, kinds = gen.KINDS, points = 40 }) {
  addStyle(document);
  const box = el("details", { class: "gf" });
  box.append(el("summary", {}, "Generate data"));
  const form = el("div", { class: "gf-form" });
  const input = {
    kind: el("select", { class: "gf-input" }),
    n: el("input", { type: "number", min: 2, max: gen.MAX_POINTS, step: 1, value: points, class: "gf-input" }),
    margin: el("input", { type: "range", min: 0, max: gen.MAX_MARGIN, step: 0.05, value: 0.3 }),
    spread: el("input", { type: "range", min: 0, max: gen.MAX_SPREAD, step: 0.05, value: 0.3 }),
    flip: el("input", { type: "range", min: 0, max: gen.MAX_FLIP, step: 0.05, value: 0 }),
    seed: el("input", { type: "number", min: 0, max: gen.MAX_SEED, step: 1, value: 1, class: "gf-input" }),
    test: el("input", { type: "number", min: 0, max: gen.MAX_POINTS, step: 1, value: TEST_POINTS, class: "gf-input" }),
  };
  const names = { separable: "separable", xor: "XOR" };
  for (const k of kinds) input.kind.append(el("option", { value: k }, names[k]));
  const outputs = {};
  const rows = {};
  const field = (key, text, fmt) => {
    const lab = el("label", { class: "gf-field" });
    lab.append(el("span", {}, text), input[key]);
    if (fmt) {
      const o = el("output", { class: "gf-value", "aria-hidden": "true" });
      outputs[key] = [o, fmt];
      lab.append(o);
    }
    form.append(lab);
    rows[key] = lab;
  };
  field("kind", "Kind");
  field("n", "Points");
  field("test", "Held-out test points");
  field("margin", "Margin at least", short);
  field("spread", "Spread", short);
  field("flip", "Labels flipped", (v) => `${Math.round(v * 100)}%`);
  field("seed", "Seed");
  const buttons = el("div", { class: "gf-buttons" });
  const generate = el("button", { type: "button", class: "gf-button gf-generate" }, "Generate");
  const reseed = el("button", { type: "button", class: "gf-button gf-reseed", title: "the next seed, then generate" }, "Next seed");
  buttons.append(generate, reseed);
  form.append(buttons);
  box.append(form);

  function render() {
    const kind = input.kind.value;
    rows.margin.hidden = kind !== "separable";
    rows.spread.hidden = kind !== "xor";
    for (const [k, [o, fmt]] of Object.entries(outputs)) {
      o.textContent = fmt(Number(input[k].value));
      input[k].setAttribute("aria-valuetext", o.textContent);
    }
  }

  function options() {
    return gen.checkOptions({
      kind: input.kind.value,
      n: Number(input.n.value),
      seed: Number(input.seed.value),
      margin: Number(input.margin.value),
      spread: Number(input.spread.value),
      flip: Number(input.flip.value),
      test: Number(input.test.value),
    });
  }

  function set(o) {
    for (const k of ["kind", "n", "seed", "margin", "spread", "flip", "test"]) input[k].value = String(o[k] ?? 0);
    render();
  }

  function fire() {
    let o;
    try {
      o = options();
    } catch (err) {
      say(`Cannot generate: ${err.message}.`);
      return;
    }
    onGenerate(o);
  }

  for (const k of ["kind", "margin", "spread", "flip"]) input[k].addEventListener("input", render);
  generate.addEventListener("click", fire);
  reseed.addEventListener("click", () => {
    const s = Number(input.seed.value);
    input.seed.value = String(Number.isInteger(s) && s >= 0 && s < gen.MAX_SEED ? s + 1 : 0);
    fire();
  });
  render();
  return { element: box, options, set, buttons: { generate, reseed }, inputs: input };
}

/** A menu name for generated data with options o and the data made. */
export function generatedName(o, data) {
  const what = o.kind === "xor" ? `XOR, spread ${o.spread}` : `separable, margin \u2265 ${o.margin}`;
  return `generated: ${what}${data.flipped.length ? `, ${data.flipped.length} flipped` : ""}, seed ${o.seed}`;
}
