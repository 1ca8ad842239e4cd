// The numbers of the demos' point tooltips and score shading (book/_demos/kit/point-tip.mjs,
// score-shade.mjs) and the places of chapter 3's labels (label-place.mjs), on test cases.
//
//     node tests/js/run_point_tip.mjs CASES.json
//
// CASES.json holds {"linear": [{"X", "y", "theta", "theta0", "threshold"}],
// "kernel": [{"X", "y", "kernel": {"kind", ...}, "tau", "offset", "steps"}],
// "labels": [{"items", "obstacles", "bounds"}]}.  The script prints, as JSON on stdout,
// each linear case's facts per point (score, margin, update) and the cap of the scale;
// each kernel case's run of `steps` visits (alpha, theta0) with every point's facts, as
// chapter 6's playground computes them; each label case's places.
// tests/test_point_tip_core.py compares the numbers with perceptron_lib.

import { readCases, runCases, writeJSON } from "./runner.mjs";
import { featureNorm, linearFacts, scoreFacts } from "../../book/_demos/kit/point-tip.mjs";
import { scoreCap, shadeLevel } from "../../book/_demos/kit/score-shade.mjs";
import { placeLabels, nearOffsets } from "../../book/_demos/kit/label-place.mjs";
import { createKernelRun, makeKernel } from "../../book/_demos/kernel/kernel-core.mjs";

const data = readCases("run_point_tip.mjs", "linear");

const linear = runCases(data.linear, (c) => {
  const facts = c.X.map((x, i) => linearFacts(x, c.y[i], c.theta, c.theta0, c.threshold));
  const cap = scoreCap(facts.map((f) => f.score));
  return { facts, cap, levels: facts.map((f) => shadeLevel(f.score, cap)) };
});

const kernel = runCases(data.kernel ?? [], (c) => {
  const r = createKernelRun(c.X, c.y, makeKernel(c.kernel), c.tau, c.offset);
  for (let k = 0; k < c.steps && !r.done; k++) r.step();
  const coef = Array.from(r.alpha, (a, j) => a * r.y[j]);
  const norm = featureNorm(r.G, coef);
  const facts = c.X.map((_, i) => scoreFacts(r.score(i), c.y[i], norm));
  return { alpha: Array.from(r.alpha), theta0: r.theta0, norm, facts };
});

const labels = runCases(data.labels ?? [], (c) => {
  const items = c.items.map((it) => ({ ...it, offsets: nearOffsets(it.w, it.h, c.r ?? 8) }));
  return placeLabels(items, c.obstacles, c.bounds);
});

writeJSON({ linear, kernel, labels });
