// Run chapter 6's kernel perceptron of the page (book/_demos/kernel/kernel-core.mjs)
// on test cases.
//
//     node tests/js/run_kernel_core.mjs CASES.json
//
// CASES.json holds {"cases": [{"X": [[...], ...], "y": [...], "kernel": {"kind": "RBF",
// "gamma": 1}, "tau": 100, "offset": true, "grid": 30}]}.  For each case the script runs
// the kernel perceptron to the end and prints, as JSON on stdout, its alphas, theta0,
// counts, every update, the training errors, the view box (and the view of edited points,
// viewHolding), the centres of a grid x grid cells over it and the decision values there.
// It also prints the gamma values of the page's slider.
// tests/test_kernel_playground_core.py compares all of it with perceptron_lib.  A bad
// case stops the script with exit status 1 and the message on stderr.

import { readCases, runCases, writeJSON } from "./runner.mjs";
import { GAMMAS, cellCentres, createKernelRun, decision, kernelEpochTotals, kernelRun, makeKernel, viewBox, viewHolding } from "../../book/_demos/kernel/kernel-core.mjs";

const data = readCases("run_kernel_core.mjs");

// The chart's numbers part-way: one and a half epochs, read twice on the way (the second
// read continues from what the first remembered).
function midway(c) {
  const r = createKernelRun(c.X, c.y, makeKernel(c.kernel), c.tau ?? 100, c.offset ?? true);
  const n = c.X.length;
  let steps = 0;
  for (; steps < n + 1 && !r.done; steps++) r.step();
  kernelEpochTotals(r);
  for (let k = 0; k < Math.floor(n / 2) && !r.done; k++, steps++) r.step();
  return { steps, totals: kernelEpochTotals(r) };
}

const results = runCases(data.cases, (c) => {
  const r = kernelRun(c.X, c.y, c.kernel, c.tau ?? 100, c.offset ?? true);
  const view = viewBox(c.X);
  const grid = cellCentres(view, c.grid ?? 30);
  const f = decision(r.model, grid);
  const fTrain = decision(r.model, r.model.X);
  return {
    alpha: r.alpha,
    theta0: r.theta0,
    mistakes: r.mistakes,
    epochs: r.epochs,
    converged: r.converged,
    history: r.history,
    trainingErrors: r.trainingErrors,
    view,
    // the view of edited points (viewHolding): kept while it holds them, else round them
    viewKept: viewHolding(view, c.X),
    viewAround: viewHolding({ x0: -0.01, x1: 0.01, y0: -0.01, y1: 0.01, span: 0.02 }, c.X),
    grid,
    decision: Array.from(f),
    decisionTrain: Array.from(fTrain),
    epochTotals: kernelEpochTotals(r.model),
    epochTotalsMidway: midway(c),
  };
});
writeJSON({ gammas: GAMMAS, results });
