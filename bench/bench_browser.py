"""Benchmark mode of the browser tests: how fast the playground and its page respond.

    python3 tasks.py book                      # the site to measure
    python3 tasks.py bench -- --browser

Uses the browser tests' harness (tests/browser/harness.py): the built site served from
127.0.0.1, Debian's Chromium driven by Playwright.  Two measurements, each against a
reference taken in the same run:

1. **One playground step with 500 points.**  The algorithm chapter's playground gets
   500 noisy points (so the run never ends), then 200 steps are timed inside the page:
   the step itself (JavaScript: the perceptron and the SVG updates), the step plus the
   style and layout it forces, and the whole frame (the step is made at the start of an
   animation frame; the time until the next frame starts includes paint).  The
   reference is the same frame with no step.  Goal: the step redraws within one 60 Hz
   frame, 16 ms.
2. **The algorithm page, interactive.**  Fresh browser contexts (empty cache, like a
   first visit) load the chapter from the local server; then, as a reader arriving
   from the introduction, fresh contexts that load the introduction first (the theme's
   files cached) and then the chapter.  A script polls every 10 ms
   from the start; the moment the playground exists and answers a click on Step is
   "interactive".  Also reported: DOMContentLoaded, the load event, and the end of the
   last long task (> 50 ms) in the first 3 s.  The reference is the genindex page (the
   same theme, no chapter).  Goal: interactive within 1 s.
3. **A slider's answer, before and after Run.**  Every slider of the demos of chapters 2,
   6 and 7 is pressed 20 times (one step up or down, as an arrow key does), first with
   the run at its start and then after Run: the time from the slider's input event to
   the end of the style and layout it forces.  The reference is the same slider before
   Run.  Goal: every answer within 100 ms, Run or not.

The results are printed and written to bench/results-browser.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import harness  # noqa: E402

import perceptron_lib as pl  # noqa: E402

SEL = "div.perceptron-playground"

STEP_TIMES = """
async ([n]) => {
  const api = document.querySelector('SEL').perceptronPlayground;
  const root = document.querySelector('SEL');
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const js = [], forced = [], frames = [], idle = [];
  for (let k = 0; k < n; k++) {
    const t0 = performance.now();
    api.step();
    const t1 = performance.now();
    root.getBoundingClientRect(); document.body.offsetHeight;  // style and layout now
    const t2 = performance.now();
    js.push(t1 - t0); forced.push(t2 - t0);
  }
  await frame(); await frame();  // paint what the loop above left, then start
  for (let k = 0; k < n; k++) {
    const start = await frame();
    api.step();
    const next = await frame();
    frames.push(next - start);
  }
  for (let k = 0; k < n; k++) {
    const start = await frame();
    const next = await frame();
    idle.push(next - start);
  }
  return { js, forced, frames, idle, points: api.state().X.length };
}
""".replace("SEL", SEL)

INTERACTIVE_PROBE = """
(() => {
  window.__bench = { longTasks: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
  const poll = () => {
    const root = document.querySelector("SEL");
    if (root && root.perceptronPlayground) {
      const before = root.perceptronPlayground.state().next;
      root.querySelector("button.pg-step").click();
      if (root.perceptronPlayground.state().next !== before) {
        window.__bench.interactive = performance.now();
        return;
      }
    }
    setTimeout(poll, 10);
  };
  setTimeout(poll, 0);
})();
""".replace("SEL", SEL)

PAGE_TIMES = """
async () => {
  while (window.__bench.interactive === undefined) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 3000 - performance.now()));
  const nav = performance.getEntriesByType("navigation")[0];
  const ends = window.__bench.longTasks.filter(([s]) => s < 3000).map(([s, d]) => s + d);
  return {
    interactive: window.__bench.interactive,
    dcl: nav.domContentLoadedEventEnd,
    load: nav.loadEventEnd,
    lastLongTask: ends.length ? Math.max(...ends) : 0,
  };
}
"""

REFERENCE_TIMES = """
async () => {
  await new Promise((r) => setTimeout(r, 1000));
  const nav = performance.getEntriesByType("navigation")[0];
  return { dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd };
}
"""


SLIDER_TIMES = """
async ([sel, index, presses, runFirst]) => {
  const root = document.querySelector(sel);
  const api = root.offsetDemo || root.kernelPlayground || root.marginDemo;
  if (api.activate) api.activate();
  if (runFirst) api.run();
  const shown = [...root.querySelectorAll('input[type=range]')]
    .filter((i) => i.offsetParent && !i.closest('.gf'));  // the demo's own, not the generator's
  const input = shown[index];
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const times = [];
  for (let k = 0; k < presses; k++) {
    const v = Number(input.value);
    const up = k % 2 === 0 ? v < Number(input.max) : v <= Number(input.min);
    input.value = String(up ? v + 1 : v - 1);
    const t0 = performance.now();
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
    root.getBoundingClientRect(); document.body.offsetHeight;  // style and layout now
    times.push(performance.now() - t0);
    await frame();
    await new Promise((r) => setTimeout(r, 30));
  }
  const label = input.labels && input.labels[0] ? input.labels[0].textContent.trim() : input.id;
  return { label, times };
}
"""

COUNT_SLIDERS = """
(sel) => {
  const root = document.querySelector(sel);
  const api = root.offsetDemo || root.kernelPlayground || root.marginDemo;
  if (api.activate) api.activate();  // built and started, as when it comes into view
  return [...root.querySelectorAll('input[type=range]')]
    .filter((i) => i.offsetParent && !i.closest('.gf')).length;
}
"""

SLIDER_PAGES = [
    ("chapter 2", "book/02_offset.html", "div.offset-demo"),
    ("chapter 6", "book/06_variants.html", "div.kernel-playground"),
    ("chapter 7", "book/07_beyond.html", "div.margin-demo"),
]


def slider_benchmark(browser, base: str, presses: int) -> list[dict]:
    out = []
    for chapter, rel, sel in SLIDER_PAGES:
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        harness.goto(page, f"{base}/{rel}")
        page.locator(sel).scroll_into_view_if_needed()
        count = page.evaluate(COUNT_SLIDERS, sel)
        for index in range(count):
            row = {"chapter": chapter}
            for run_first in (False, True):
                page.reload(wait_until="load")
                page.locator(sel).scroll_into_view_if_needed()
                got = page.evaluate(SLIDER_TIMES, [sel, index, presses, run_first])
                row["slider"] = got["label"]
                row["after_run" if run_first else "before_run"] = summary(got["times"])
            out.append(row)
        page.close()
    return out


def summary(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "p95": sorted(values)[int(0.95 * len(values)) - 1],
            "max": max(values), "over17": sum(v > 17 for v in values)}


def step_benchmark(browser, base: str, steps: int) -> dict:
    X, y = pl.make_noisy(500, d=2, flip=0.1, gamma=0.05, R=1.5, seed=0)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    harness.goto(page, f"{base}/book/01_algorithm.html")  # and let the formulas' fonts load
    page.wait_for_function(f"() => document.querySelector('{SEL}').perceptronPlayground")
    page.locator(SEL).scroll_into_view_if_needed()
    page.evaluate(f"([X, y]) => document.querySelector('{SEL}').perceptronPlayground"
                  ".setData(X, y, '500 noisy points')", [X.tolist(), y.tolist()])
    out = page.evaluate(STEP_TIMES, [steps])
    page.close()
    return {"points": out["points"], "steps": steps,
            **{k: summary(out[k]) for k in ("js", "forced", "frames", "idle")}}


def page_benchmark(browser, base: str, loads: int) -> dict:
    chapter, warm, reference = [], [], []
    for _ in range(loads):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        ctx.add_init_script(INTERACTIVE_PROBE)
        page = ctx.new_page()
        page.goto(f"{base}/book/01_algorithm.html", wait_until="commit")
        chapter.append(page.evaluate(PAGE_TIMES))
        ctx.close()
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.goto(f"{base}/book/intro.html", wait_until="load")
        page.wait_for_timeout(300)
        ctx.add_init_script(INTERACTIVE_PROBE)
        page.goto(f"{base}/book/01_algorithm.html", wait_until="commit")
        warm.append(page.evaluate(PAGE_TIMES))
        ctx.close()
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.goto(f"{base}/genindex.html", wait_until="load")
        reference.append(page.evaluate(REFERENCE_TIMES))
        ctx.close()
    keys = ("interactive", "dcl", "load", "lastLongTask")
    return {"loads": loads,
            "chapter": {k: summary([r[k] for r in chapter]) for k in keys},
            "from_intro": {k: summary([r[k] for r in warm]) for k in keys},
            "reference": {k: summary([r[k] for r in reference]) for k in ("dcl", "load")}}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--loads", type=int, default=10)
    ap.add_argument("--presses", type=int, default=20)
    args = ap.parse_args(argv)
    site = ROOT / "_build" / "html"
    if not (site / "book" / "01_algorithm.html").is_file():
        sys.exit("No site yet: run `python3 tasks.py book` first.")
    exe = harness.find_chromium()
    if exe is None:
        sys.exit(f"No Chromium found: {harness.HOW_TO_ENABLE}.")
    with harness.serve(site) as base, harness.chromium(exe) as browser:
        version = browser.version
        steps = step_benchmark(browser, base, args.steps)
        pages = page_benchmark(browser, base, args.loads)
        sliders = slider_benchmark(browser, base, args.presses)
    result = {"machine": f"{platform.processor() or platform.machine()}, "
                         f"Python {platform.python_version()}, Chromium {version}",
              "step": steps, "page": pages, "sliders": sliders}
    (ROOT / "bench" / "results-browser.json").write_text(json.dumps(result, indent=1))

    s = steps
    print(f"Chromium {version}; one playground step with {s['points']} points, "
          f"{s['steps']} steps (ms):")
    print("| what | median | p95 | max |\n|---|---:|---:|---:|")
    for key, what in [("js", "the step (JavaScript)"),
                      ("forced", "the step + style and layout"),
                      ("frames", "a frame with a step (incl. paint)"),
                      ("idle", "reference: a frame with no step")]:
        v = s[key]
        print(f"| {what} | {v['median']:.2f} | {v['p95']:.2f} | {v['max']:.2f} |")
    ratio = s["frames"]["median"] / s["idle"]["median"]
    print(f"frames longer than 17 ms: {s['frames']['over17']} with a step, "
          f"{s['idle']['over17']} without")
    print(f"frame with a step / frame without: {ratio:.2f} (median); budget 16 ms: "
          f"forced p95 / 16 ms = {s['forced']['p95'] / 16:.2f}\n")
    p = pages
    print(f"The algorithm page, {p['loads']} first visits (ms from navigation start):")
    print("| what | median | p95 | max |\n|---|---:|---:|---:|")
    for key, what in [("interactive", "playground answers Step"), ("dcl", "DOMContentLoaded"),
                      ("load", "load event"), ("lastLongTask", "end of the last long task")]:
        v = p["chapter"][key]
        print(f"| {what} | {v['median']:.0f} | {v['p95']:.0f} | {v['max']:.0f} |")
    for key, what in [("interactive", "from the introduction: playground answers Step"),
                      ("dcl", "from the introduction: DOMContentLoaded")]:
        v = p["from_intro"][key]
        print(f"| {what} | {v['median']:.0f} | {v['p95']:.0f} | {v['max']:.0f} |")
    for key, what in [("dcl", "reference (genindex): DOMContentLoaded"),
                      ("load", "reference (genindex): load event")]:
        v = p["reference"][key]
        print(f"| {what} | {v['median']:.0f} | {v['p95']:.0f} | {v['max']:.0f} |")
    print(f"interactive / 1 s budget: {p['chapter']['interactive']['median'] / 1000:.2f} "
          f"(median), {p['chapter']['interactive']['max'] / 1000:.2f} (max); "
          f"interactive / reference load: "
          f"{p['chapter']['interactive']['median'] / p['reference']['load']['median']:.2f}")

    print(f"\nA slider's answer, {args.presses} presses each (ms, input event to layout):")
    print("| demo | slider | before Run: median | max | after Run: median | max |")
    print("|---|---|---:|---:|---:|---:|")
    for r in sliders:
        b, a = r["before_run"], r["after_run"]
        print(f"| {r['chapter']} | {r['slider']} | {b['median']:.1f} | {b['max']:.1f} | "
              f"{a['median']:.1f} | {a['max']:.1f} |")
    worst = max(r["after_run"]["max"] for r in sliders)
    print(f"slowest answer after Run / 100 ms budget: {worst / 100:.2f}")


if __name__ == "__main__":
    main()
