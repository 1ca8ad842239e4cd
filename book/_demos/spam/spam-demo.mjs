// Chapter 5's message demo on the book's page (no framework, no other host).
//
// perceptron_lib.demos.spam writes every <div class="spam-demo"> with all of its markup:
// the text box, the table of features, the score and verdict, and the feature plane
// (an SVG with the chapter's training messages and the perceptron's line), drawn for the
// chapter's initial message; data-config holds the classifier (columns, theta, theta0,
// optionally mean and scale), the plane's axes, its plot box and the example messages.
// The markup stays hidden (and the explorer's picture shows) unless <html> carries the
// class "spam-demo-js", which a line in the page's head sets before the body is drawn,
// so that nothing moves when this script starts.
//
// The demo starts when it scrolls into view: from then on every edit of the message
// recomputes the features with spam-core.mjs (held to perceptron_lib.spam by a test),
// and moves the star.  element.spamDemo.state() tells the tests what it shows.
//
// The message is kept in the page's URL (../kit/url-state.mjs, under the key
// "spam-demo", "spam-demo-2", ... in the order of the page's demos, or the element's id),
// so that a link reproduces the verdict the reader saw and Back returns to the message
// before.  A burst of typing is one history entry: its first keystroke adds an entry and
// the following ones replace it, until the reader pauses (PAUSE_MS) or leaves the box;
// a loaded example and clear are an entry each.  A link keeps at most MAX_LINK_CHARS
// characters of the URL for the message: a longer message is cut (at a character, never
// inside one) and the status line under the buttons says so.  A link that cannot be read
// is ignored, and the status line says that too.

import * as urlState from "../kit/url-state.mjs";
import * as core from "./spam-core.mjs";

/** The reader's pause that ends a burst of typing (one history entry), in ms. */
export const PAUSE_MS = 1000;
/** The most characters of the URL a demo's state may take. */
export const MAX_LINK_CHARS = 2000;

const EMPTY_PROMPT = "Type a message to classify it.";
const TITLE_START =
  "The feature plane: the chapter's training messages, numbered, spam as plus and not " +
  "spam as minus signs, and the perceptron's line with the spam side shaded.";
const minus = (s) => s.replace(/-/g, "\u2212");
const fixed3 = (v) => v.toFixed(3);

function place(cfg, x, y) {
  const { box, xlim, ylim } = cfg;
  const inside = xlim[0] <= x && x <= xlim[1] && ylim[0] <= y && y <= ylim[1];
  const pad = 6;
  let u = box.left + ((x - xlim[0]) / (xlim[1] - xlim[0])) * (box.right - box.left);
  let v = box.bottom - ((y - ylim[0]) / (ylim[1] - ylim[0])) * (box.bottom - box.top);
  u = Math.min(Math.max(u, box.left + pad), box.right - pad);
  v = Math.min(Math.max(v, box.top + pad), box.bottom - pad);
  return { u, v, outside: !inside };
}

function planeTitle(cfg, point) {
  if (!point) return `${TITLE_START} No message yet.`;
  const [x, y] = point;
  const inside = cfg.xlim[0] <= x && x <= cfg.xlim[1] && cfg.ylim[0] <= y && y <= cfg.ylim[1];
  const where = inside ? "" : ", outside the plot (shown at its edge)";
  return `${TITLE_START} Your message is the star at (${fixed3(x)}, ${fixed3(y)})${where}.`;
}

/**
 * The state object for a message, cut to fit MAX_LINK_CHARS once encoded: {state, kept,
 * total}, kept and total counted in characters (Unicode code points).
 */
export function linkState(message) {
  const fits = (t) => urlState.encodeState({ v: 1, t }).length <= MAX_LINK_CHARS;
  if (message.length <= MAX_LINK_CHARS / 2 && fits(message)) {
    return { state: { v: 1, t: message }, kept: Array.from(message).length, total: Array.from(message).length };
  }
  // Every character takes at least one byte, and base64 writes 3 bytes in 4 characters:
  // no more than 3/4 MAX_LINK_CHARS characters fit, found among the first code units.
  const most = Math.floor((MAX_LINK_CHARS * 3) / 4);
  const chars = Array.from(message.slice(0, 2 * most));
  const total = Array.from(message).length;
  let lo = 0; // fits
  let hi = Math.min(chars.length, most) + 1; // does not fit (or beyond the message)
  if (hi - 1 === total && fits(message)) return { state: { v: 1, t: message }, kept: total, total };
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits(chars.slice(0, mid).join(""))) lo = mid;
    else hi = mid;
  }
  return { state: { v: 1, t: chars.slice(0, lo).join("") }, kept: lo, total };
}

/** The message a state read from the URL holds; throws saying what is wrong. */
export function messageOf(st) {
  if (st.v !== 1) throw new Error(`its version ${JSON.stringify(st.v)} is not 1`);
  if (typeof st.t !== "string") throw new Error("its message is not text");
  return st.t;
}

function start(root, link) {
  const cfg = JSON.parse(root.dataset.config);
  const model = { columns: cfg.columns, theta: cfg.theta, theta0: cfg.theta0, mean: cfg.mean, scale: cfg.scale };
  const text = root.querySelector("textarea.sd-message");
  const rows = [0, 1, 2].map((k) => root.querySelector(`tr.sd-row-${k}`));
  const scoreLine = root.querySelector(".sd-score");
  const verdictLine = root.querySelector(".sd-verdict");
  const star = root.querySelector(".sd-star");
  const plane = root.querySelector("svg.sd-plane");
  let current = null;
  let pending = 0;

  function compute(message) {
    let counts = null;
    try {
      counts = core.countMessage(message);
    } catch (err) {
      if (!String(err.message).startsWith("message is empty")) throw err;
    }
    if (!counts) return { message, counts: null, features: null, point: null, score: null, verdict: null };
    const features = core.featuresOf(counts);
    const s = core.score(features, model);
    const point = cfg.columns.map((c) => features[c]);
    return { message, counts, features, point, score: s, verdict: core.verdict(s) };
  }

  function show(st) {
    const c = st.counts;
    const cells = c
      ? [
          [`${c.capsWords} / ${Math.max(c.otherWords, 1)}`, core.ratioText(c.capsWords, Math.max(c.otherWords, 1))],
          [`${c.digits} / ${Math.max(c.words, 1)}`, core.ratioText(c.digits, Math.max(c.words, 1))],
          [String(c.exclamations), String(c.exclamations)],
        ]
      : [["\u2014", "\u2014"], ["\u2014", "\u2014"], ["\u2014", "\u2014"]];
    rows.forEach((row, k) => {
      row.querySelector(".sd-count").textContent = cells[k][0];
      row.querySelector(".sd-value").textContent = cells[k][1];
    });
    let verdictText = EMPTY_PROMPT;
    let verdictClass = "sd-none";
    if (c) {
      scoreLine.textContent = `score \u03b8\u1d40x + \u03b8\u2080 = ${minus(fixed3(st.score))}`;
      verdictText = st.verdict > 0 ? "verdict: spam" : "verdict: not spam";
      verdictClass = st.verdict > 0 ? "sd-spam" : "sd-ham";
      const p = place(cfg, st.point[0], st.point[1]);
      star.setAttribute("transform", `translate(${p.u.toFixed(2)} ${p.v.toFixed(2)})`);
      star.classList.toggle("sd-outside", p.outside);
      star.removeAttribute("hidden");
    } else {
      scoreLine.textContent = "score \u2014";
      star.setAttribute("hidden", "");
    }
    // the verdict is a live region: write it only when it changes, so that a screen
    // reader announces a new verdict and not every keystroke
    if (verdictLine.textContent !== verdictText) verdictLine.textContent = verdictText;
    verdictLine.classList.remove("sd-spam", "sd-ham", "sd-none");
    verdictLine.classList.add(verdictClass);
    plane.setAttribute("aria-label", planeTitle(cfg, st.point));
  }

  function update() {
    pending = 0;
    current = compute(text.value);
    show(current);
  }

  function schedule() {
    if (!pending) pending = requestAnimationFrame(update);
  }

  text.addEventListener("input", () => {
    schedule();
    link.typed();
  });
  text.addEventListener("blur", () => link.endBurst());
  for (const button of root.querySelectorAll("button.sd-example")) {
    button.addEventListener("click", () => {
      text.value = cfg.examples[Number(button.dataset.example)];
      update();
      link.save("push");
    });
  }
  root.querySelector("button.sd-clear").addEventListener("click", () => {
    text.value = "";
    update();
    link.save("push");
    text.focus();
  });

  update();
  link.started(update);
  root.dataset.state = "live";
  root.spamDemo = {
    /** What the demo shows now (after any pending edit). */
    state() {
      if (pending) {
        cancelAnimationFrame(pending);
        update();
      }
      return current;
    },
    /** What the page's URL holds for the demo, written now (null: nothing). */
    link() {
      urlState.flush();
      return urlState.readState(link.key).state;
    },
  };
}

/**
 * The demo's message in the page's URL: read at once (the text box shows a link's message
 * before the demo starts), written as the reader edits, and followed on Back and Forward.
 */
function linkFor(root, key, text, status) {
  const initial = text.value; // the chapter's message: where Back to no state returns
  let burst = null; // the timer of a burst of typing, or null between bursts
  let refresh = null; // the demo's update, once it has started
  const say = (words) => { if (status.textContent !== words) status.textContent = words; };

  const link = {
    key,
    /** Write the message to the URL: "push" (a new entry) or "replace". */
    save(mode) {
      if (mode === "push") link.endBurst();
      const { state, kept, total } = linkState(text.value);
      try {
        if (mode === "push") urlState.pushState(key, state);
        else urlState.replaceState(key, state);
      } catch (err) {
        say(`The address could not keep the message: ${err.message}.`);
        return;
      }
      say(kept < total ? `The link keeps only the first ${kept} of the ${total} characters (a short address).` : "");
    },
    /** A keystroke: the first of a burst adds a history entry, the next ones replace it. */
    typed() {
      const first = burst === null;
      if (!first) clearTimeout(burst);
      burst = setTimeout(link.endBurst, PAUSE_MS);
      if (first) {
        const { state } = linkState(text.value);
        try {
          urlState.pushState(key, state);
        } catch {
          // too large cannot happen (cut to fit); a page without history keeps working
        }
      }
      link.save("replace");
    },
    endBurst() {
      if (burst !== null) clearTimeout(burst);
      burst = null;
    },
    started(update) {
      refresh = update;
    },
  };

  const { state: st, error } = urlState.readState(key);
  if (error) {
    say(error);
  } else if (st) {
    try {
      text.value = messageOf(st);
      say("Restored from the link: the message, and the verdict it gets.");
    } catch (err) {
      say(`The link's saved state for this demo was ignored: ${err.message}.`);
    }
  }
  urlState.subscribe(key, ({ state, error: bad }) => {
    link.endBurst();
    let words = "Back to an earlier message.";
    let message = initial;
    if (bad) words = bad;
    else if (state) {
      try {
        message = messageOf(state);
      } catch (err) {
        words = `The saved state for this demo was ignored: ${err.message}.`;
      }
    } else {
      words = "Back to the chapter's message.";
    }
    text.value = message;
    if (refresh) refresh();
    say(words);
  });
  return link;
}

/** The status line under the example buttons (its room is kept by the stylesheet). */
function statusLine(root) {
  let status = root.querySelector(".sd-status");
  if (!status) {
    status = document.createElement("p");
    status.className = "sd-status";
    status.setAttribute("aria-live", "polite");
    const top = root.querySelector(".sd-top");
    (top || root).append(status);
  }
  return status;
}

function init() {
  document.documentElement.classList.add("spam-demo-js");
  const roots = document.querySelectorAll("div.spam-demo");
  let k = 0;
  for (const root of roots) {
    const live = root.querySelector(".spam-demo-live");
    if (!live || !root.dataset.config) continue;
    live.style.removeProperty("display");
    root.dataset.state = "waiting";
    k += 1;
    const key = root.id || (k === 1 ? "spam-demo" : `spam-demo-${k}`);
    const text = root.querySelector("textarea.sd-message");
    const link = linkFor(root, key, text, statusLine(root));
    const go = () => {
      try {
        start(root, link);
      } catch (err) {
        root.dataset.state = "failed";
        throw err;
      }
    };
    if (!("IntersectionObserver" in window)) {
      go();
      continue;
    }
    const seen = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          seen.disconnect();
          go();
        }
      },
      { rootMargin: "200px 0px" },
    );
    seen.observe(root);
  }
}

init();
