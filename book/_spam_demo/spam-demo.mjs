// Chapter 5's message demo on the book's page (no framework, no other host).
//
// perceptron_lib.spam_demo writes every <div class="spam-demo"> with all of its markup:
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

import * as core from "./spam-core.mjs";

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

function start(root) {
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

  text.addEventListener("input", schedule);
  for (const button of root.querySelectorAll("button.sd-example")) {
    button.addEventListener("click", () => {
      text.value = cfg.examples[Number(button.dataset.example)];
      update();
    });
  }
  root.querySelector("button.sd-clear").addEventListener("click", () => {
    text.value = "";
    update();
    text.focus();
  });

  update();
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
  };
}

function init() {
  document.documentElement.classList.add("spam-demo-js");
  const roots = document.querySelectorAll("div.spam-demo");
  for (const root of roots) {
    const live = root.querySelector(".spam-demo-live");
    if (!live || !root.dataset.config) continue;
    live.style.removeProperty("display");
    root.dataset.state = "waiting";
    const go = () => {
      try {
        start(root);
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
