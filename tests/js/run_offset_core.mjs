// Run chapter 2's offset demo arithmetic (book/_demos/offset/offset-core.mjs) on test cases.
//
//     node tests/js/run_offset_core.mjs CASES.json
//
// CASES.json holds {"cases": [{"X": [[...], ...], "y": [...], "c": 1, "tau": 2000,
// "classifiers": [{"theta": [...], "theta0": 2.5}, ...]}]}.  For each case the script
// prints, as JSON on stdout, the data lifted by c, the finished run of
// PERCEPTRON-THROUGH-ORIGIN on the lifted data and on the data as they are (every update),
// the final offset classifier read back from the lifted run, and for each classifier its
// lifted normal, mistakes, margins, radii and bound.  It also prints the c slider's values
// and the theta sliders' steps, and the chart of epochs of both runs (finished, and after
// "midway" visits made in lock-step, as the demo makes them).  With "points" instead of
// "X", a case asks checkPoints for the reader's points of a link (with "d").  tests/test_offset_demo_core.py compares all of it with
// perceptron_lib.  A bad case stops the script with exit status 1 and the message on
// stderr.

import { readCases, runCases, writeJSON } from "./runner.mjs";
import {
  C_VALUES, THETA0_STEPS, THETA_STEPS, chartTotals, checkPoints, finish, lift, liftStats, liftedRun,
  originRun, pointsOf, unlift,
} from "../../book/_demos/offset/offset-core.mjs";

const data = readCases("run_offset_core.mjs");

/** Both runs advanced together, `visits` times (each while it is not done). */
function midway(c) {
  const lifted = liftedRun(c.X, c.y, c.c, c.tau);
  const origin = originRun(c.X, c.y, c.tau);
  for (let k = 0; k < c.midway && !(lifted.done && origin.done); k++) {
    lifted.step();
    origin.step();
  }
  return { visits: c.midway, lifted: chartTotals(lifted), origin: chartTotals(origin) };
}

const results = runCases(data.cases, (c) => {
  if (c.points !== undefined) {
    const got = checkPoints(c.points, c.d);
    return { points: got, back: pointsOf(got.X, got.y) };
  }
  const done = (r) => { r.run(); return chartTotals(r); };
  const lifted = finish(liftedRun(c.X, c.y, c.c, c.tau));
  const origin = finish(originRun(c.X, c.y, c.tau));
  return {
    lifted: lift(c.X, c.c),
    liftedRun: lifted,
    back: unlift(lifted.theta, c.c),
    originRun: origin,
    liftedTotals: done(liftedRun(c.X, c.y, c.c, c.tau)),
    originTotals: done(originRun(c.X, c.y, c.tau)),
    midway: c.midway === undefined ? null : midway(c),
    stats: (c.classifiers ?? []).map((h) => liftStats(c.X, c.y, h.theta, h.theta0, c.c)),
  };
});
writeJSON({ cValues: C_VALUES, thetaSteps: THETA_STEPS, theta0Steps: THETA0_STEPS, results });
