// Scrolls through the whole page one window at a time (so that the demos and the
// formulas further down start, as they do for a reader), back to the top, and returns
// the cumulative layout shift: the largest session window (shifts less than 1 s apart,
// at most 5 s long) of the shifts that followed no input, as Chrome defines CLS.
async ([pauseMs]) => {
  const wait = (ms) => new Promise((r) => setTimeout(r, ms));
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  if (window.__layoutShifts === null) return { supported: false };
  let steps = 0;
  for (let y = 0; y < document.documentElement.scrollHeight && steps < 400; y += window.innerHeight * 0.9) {
    window.scrollTo(0, y);
    steps++;
    await frame();
    await wait(pauseMs);
  }
  window.scrollTo(0, document.documentElement.scrollHeight);
  await wait(4 * pauseMs);
  window.scrollTo(0, 0);
  await frame();
  await wait(pauseMs);
  const shifts = window.__layoutShifts.filter((s) => !s.hadRecentInput);
  let cls = 0, session = 0, first = -Infinity, last = -Infinity, worst = [];
  let current = [];
  for (const s of shifts) {
    if (s.time - last > 1000 || s.time - first > 5000) {
      session = 0; first = s.time; current = [];
    }
    session += s.value; last = s.time; current.push(s);
    if (session > cls) { cls = session; worst = current.slice(); }
  }
  return {
    supported: true,
    steps,
    cls,
    total: shifts.reduce((a, s) => a + s.value, 0),
    worst: worst.sort((a, b) => b.value - a.value).slice(0, 5)
      .map((s) => `${s.value.toFixed(4)} at ${Math.round(s.time)} ms: ${s.sources.join(", ")}`),
  };
}
