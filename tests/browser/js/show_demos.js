// Brings every demo of the page into view in turn and waits until it has started: the
// demos build their pictures and controls only when a reader comes near them
// (book/_playground/dom.mjs whenSeen), and the accessibility scans must see them built.
// Returns how many demos the page holds and which never started (their class names);
// scrolls back to the top after.
async () => {
  const started = {
    "perceptron-playground": (r) => Boolean(r.perceptronPlayground),
    "offset-demo": (r) => Boolean(r.offsetDemo && r.offsetDemo.state().active),
    "kernel-playground": (r) => Boolean(r.kernelPlayground && r.kernelPlayground.state().active),
    "margin-demo": (r) => Boolean(r.marginDemo && r.marginDemo.built() && r.marginDemo.snapshot().active),
    "spam-demo": (r) => r.dataset.state === "live",
  };
  const kind = (r) => Object.keys(started).find((k) => r.classList.contains(k));
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const waiting = [];
  for (const root of document.querySelectorAll(".demo-kit")) {
    const k = kind(root);
    if (k === undefined) { // a demo this script does not know: say so
      waiting.push(root.className);
      continue;
    }
    root.scrollIntoView({ block: "start" });
    const begin = performance.now();
    let ok = false;
    while (performance.now() - begin < 20000) {
      try { ok = started[k](root); } catch (e) { ok = false; }
      if (ok) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!ok) waiting.push(root.className);
  }
  // the transitions they start (a fade-in) end before the colours are read
  const finite = document.getAnimations().filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime));
  await Promise.race([Promise.all(finite.map((a) => a.finished.catch(() => null))),
                      new Promise((r) => setTimeout(r, 5000))]);
  window.scrollTo(0, 0);
  await frame();
  await frame();
  return { demos: document.querySelectorAll(".demo-kit").length, demosNotStarted: waiting };
}
