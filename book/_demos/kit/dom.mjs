// Small helpers that the book's in-page demos share: elements, SVG elements, numbers for
// people, and the steps of a plot's grid (chapters 1, 3, 4 and 6).

const SVGNS = "http://www.w3.org/2000/svg";

/** An HTML element with attributes and, if given, text. */
export function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** An SVG element with attributes. */
export function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/** A number for people: integers as they are, others with 4 significant digits. */
export function num(v, digits = 4) {
  if (v === 0 || Object.is(v, -0)) return "0";
  if (Number.isInteger(v) && Math.abs(v) < 1e9) return String(v);
  return String(Number(v.toPrecision(digits)));
}

/** The text with typographic minus signs, for the page. */
export const show = (s) => s.replace(/-/g, "\u2212");

/**
 * A sentence for the page and for screen readers, with the book's symbols: theta_0 and
 * theta0 as θ₀, theta as θ, tau as τ, and a minus sign (−) before a number where the
 * text has a hyphen (at the start, after a space, "(", ",", "=" or "/").  Hyphens inside
 * words (Shift-click) stay.
 */
export function forPeople(text) {
  return text
    .replace(/\btheta_?0\b/g, "\u03b8\u2080")
    .replace(/\btheta\b/g, "\u03b8")
    .replace(/\b[Tt]au\b/g, "\u03c4")
    .replace(/(^|[\s(,=/])-(?=[\d.])/g, "$1\u2212");
}

/**
 * Text as nodes, with each "_word" after a symbol set as a subscript: "γ_c" is γ with c
 * below, "γ_opt" γ with opt below.
 */
export function subscripted(text) {
  const frag = document.createDocumentFragment();
  const parts = text.split(/_([A-Za-z0-9]+)/);
  parts.forEach((part, k) => {
    if (k % 2 === 0) { if (part) frag.append(part); } else frag.append(el("sub", {}, part));
  });
  return frag;
}

/** The label y as the page writes it. */
export const labelText = (y) => (y > 0 ? "+1" : "\u22121");

/**
 * Every demo's points are Tab stops of their own up to this many; above it the points are
 * one Tab stop, and n / Shift+N go from one to the next (the rest of the page stays near).
 */
export const MAX_TABBABLE_POINTS = 40;

/** A grid step of 1, 2 or 5 times a power of ten, about a sixth of span. */
export function niceStep(span) {
  const raw = span / 6;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/**
 * Call start once, when root comes within margin of the screen (at once where the
 * browser has no IntersectionObserver): the demos start their arithmetic only when a
 * reader can see it.  Returns the observer (null when start ran at once).
 */
export function whenSeen(root, start, margin = "200px 0px") {
  if (typeof IntersectionObserver === "undefined") {
    start();
    return null;
  }
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) {
      observer.disconnect();
      start();
    }
  }, { rootMargin: margin });
  observer.observe(root);
  return observer;
}

/** Run fn once the document is parsed (at once if it is); nothing outside a browser. */
export function onReady(fn) {
  if (typeof document === "undefined") return;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => fn());
  else fn();
}

/**
 * Keep the keyboard in a demo across a redraw that replaces the focused element (Undo,
 * a restored state), in every chapter's demo.  Call it before the redraw; the function it
 * returns, called after, puts the focus back on the point of the same index (an element
 * with data-i) if there still is one, else on `fallback` (the plot), unless the focus is
 * still inside the demo.  Nothing happens when the focus was elsewhere on the page.
 */
export function keepFocus(root, fallback) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return () => {};
  const point = active.closest("[data-i]");
  const index = point ? point.dataset.i : null;
  return () => {
    const now = document.activeElement;
    if (now && now !== document.body && root.contains(now) && now.isConnected) return;
    const again = index === null ? null : root.querySelector(`[data-i="${index}"]`);
    (again || fallback || root).focus({ preventScroll: true });
  };
}
