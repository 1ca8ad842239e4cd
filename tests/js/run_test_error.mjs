// The test errors the demos' charts show (chapters 1, 6 and 7): run the page's cores on
// training data with a held-out test set and print, for every finished epoch, the
// updates, the training mistakes and the test errors.
//
//     node tests/js/run_test_error.mjs CASES.json
//
// CASES.json holds {"cases": [{"core": "perceptron" | "margin" | "kernel", "X": [[...]],
// "y": [...], "Xt": [[...]], "yt": [...], "tau": 20, "offset": true, "mu": 0.5,
// "kernel": {"kind": "RBF", "gamma": 1}}]}; each case prints {rows, partial, midway}:
// the chart's rows after the whole run, and after half of the visits.  The kernel's rows
// are read twice on the way, as the page does (its epochs are remembered on the run).
// tests/test_demo_test_error.py compares them with perceptron_lib.

import { readCases, runCases, writeJSON } from "./runner.mjs";
import { createRun, epochTotals } from "../../book/_demos/kit/perceptron-core.mjs";
import { createMarginRun, marginEpochTotals } from "../../book/_demos/margin/margin-core.mjs";
import { createKernelRun, kernelEpochTotals, makeKernel, testErrors } from "../../book/_demos/kernel/kernel-core.mjs";

const data = readCases("run_test_error.mjs");

const results = runCases(data.cases, (c) => {
  const test = { X: c.Xt, y: c.yt };
  const make = () => {
    if (c.core === "perceptron") return [createRun(c.X, c.y, c.tau, c.offset ?? true), (r) => epochTotals(r, test)];
    if (c.core === "margin") return [createMarginRun(c.X, c.y, c.mu, c.tau), (r) => marginEpochTotals(r, test)];
    if (c.core === "kernel") return [createKernelRun(c.X, c.y, makeKernel(c.kernel), c.tau, c.offset ?? true), (r) => kernelEpochTotals(r, test)];
    throw new Error(`unknown core ${c.core}`);
  };
  const [whole, totals] = make();
  whole.run();
  const visits = (whole.t - 1) * c.X.length + whole.next;
  const [half, halfTotals] = make();
  for (let k = 0; k < Math.floor(visits / 2) && !half.done; k++) {
    half.step();
    if (c.core === "kernel" && k === Math.floor(visits / 4)) halfTotals(half); // a read on the way
  }
  const out = { ...totals(whole), midway: { visits: Math.floor(visits / 2), ...halfTotals(half) } };
  if (c.core === "kernel") out.testErrors = testErrors(whole, test);
  return out;
});
writeJSON({ results });
