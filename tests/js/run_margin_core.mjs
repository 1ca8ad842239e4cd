// Run chapter 7's margin perceptron and bound of the page
// (book/_demos/margin/margin-core.mjs) on test cases.
//
//     node tests/js/run_margin_core.mjs CASES.json
//
// CASES.json holds {"cases": [{"X": [[...], ...], "y": [...], "mu": 0.5, "tau": 100,
// "theta": [...], "theta0": 0.5, "gammas": [0.1, ...], "stops": [3, 17]}]}.  For each case
// the script prints, as JSON on stdout: the whole run (updates, mistakes, history, passes,
// visits), the lifted radius and margins of the reference separator, the deficiencies, D
// and the bound at every gamma, the bound's best gamma for one pass, and, after each
// number of steps in "stops", the state of a run stepped that far (theta, theta0,
// mistakes, visits, the total deficiency of the visited sequence at the first gamma and
// its bound with sqrt(R^2 + 2 mu), the margin of the current hypothesis, the best gamma
// up to R, the chart's updates per pass and mistakes after it).  It also prints the positions of the page's mu slider.  tests/test_margin_demo_core.py
// compares all of it with perceptron_lib.  A bad case stops the script with exit status
// 1 and the message on stderr.

import { readCases, runCases, writeJSON } from "./runner.mjs";
import * as m from "../../book/_demos/margin/margin-core.mjs";

const data = readCases("run_margin_core.mjs");

const results = runCases(data.cases, (c) => {
  const run = m.marginRun(c.X, c.y, c.mu, c.tau);
  const R = m.liftedRadius(c.X);
  const Rmu = m.marginRadius(R, c.mu);
  const margins = m.liftedMargins(c.X, c.y, c.theta, c.theta0);
  const atGamma = c.gammas.map((g) => {
    const d = m.deficiencies(c.X, c.y, c.theta, c.theta0, g);
    const D = m.totalDeficiency(d);
    return { gamma: g, d, D, bound: m.fsBound(R, g, D), boundMu: m.fsBound(Rmu, g, D) };
  });
  const stops = (c.stops ?? []).map((s) => {
    const r = m.createMarginRun(c.X, c.y, c.mu, c.tau);
    for (let j = 0; j < s && !r.done; j++) r.step();
    const g = c.gammas[0];
    const D = m.totalDeficiency(m.deficiencies(c.X, c.y, c.theta, c.theta0, g), r.visits);
    return {
      steps: s, theta: r.theta.slice(), theta0: r.theta0, updates: r.updates, mistakes: r.mistakes,
      visits: r.visits.slice(), D, bound: m.fsBound(Rmu, g, D),
      margin: m.hypothesisMargin(c.X, c.y, r.theta, r.theta0),
      best: m.bestGamma(margins, Rmu, r.visits, R),
      chart: m.marginEpochTotals(r),
    };
  });
  return { run, R, Rmu, margins, atGamma, best: m.bestGamma(margins, R), stops };
});
writeJSON({ mus: m.MUS, gammaSteps: m.GAMMA_STEPS, results });
