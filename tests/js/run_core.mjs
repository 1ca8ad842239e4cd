// Run the page's perceptron (book/_demos/kit/perceptron-core.mjs) on test cases.
//
//     node tests/js/run_core.mjs CASES.json
//
// CASES.json holds {"cases": [{"X": [[...], ...], "y": [...], "tau": 10, "offset": true}]};
// the script prints {"results": [run(X, y, tau, offset) for each case]} as JSON on
// stdout, each with epochTotals (the chart's numbers after the whole run) and
// epochTotalsPart (after c.visits visits, default 1.5 epochs).  tests/test_playground_core.py
// compares the results with perceptron_lib.
// A bad case stops the script with exit status 1 and the core's message on stderr.

import { readCases, runCases, writeJSON } from "./runner.mjs";
import { createRun, epochTotals, run } from "../../book/_demos/kit/perceptron-core.mjs";

const data = readCases("run_core.mjs");

const results = runCases(data.cases, (c) => {
  const offset = c.offset === undefined ? true : c.offset;
  const out = run(c.X, c.y, c.tau, offset);
  // the chart's numbers after the whole run and after a number of visits
  const whole = createRun(c.X, c.y, c.tau, offset);
  whole.run();
  out.epochTotals = epochTotals(whole);
  const part = createRun(c.X, c.y, c.tau, offset);
  const visits = c.visits ?? Math.floor(1.5 * c.X.length);
  for (let k = 0; k < visits && !part.done; k++) part.step();
  out.epochTotalsPart = { visits, totals: epochTotals(part) };
  return out;
});
writeJSON({ results });
