// Run chapter 2's offset demo arithmetic (book/_offset_demo/offset-core.mjs) on test cases.
//
//     node tests/js/run_offset_core.mjs CASES.json
//
// CASES.json holds {"cases": [{"X": [[...], ...], "y": [...], "c": 1, "tau": 2000,
// "classifiers": [{"theta": [...], "theta0": 2.5}, ...]}]}.  For each case the script
// prints, as JSON on stdout, the data lifted by c, the finished run of
// PERCEPTRON-THROUGH-ORIGIN on the lifted data and on the data as they are (every update),
// the final offset classifier read back from the lifted run, and for each classifier its
// lifted normal, mistakes, margins, radii and bound.  It also prints the c slider's values
// and the theta sliders' steps.  tests/test_offset_demo_core.py compares all of it with
// perceptron_lib.  A bad case stops the script with exit status 1 and the message on
// stderr.

import { readCases, runCases, writeJSON } from "./runner.mjs";
import {
  C_VALUES, THETA0_STEPS, THETA_STEPS, finish, lift, liftStats, liftedRun, originRun, unlift,
} from "../../book/_offset_demo/offset-core.mjs";

const data = readCases("run_offset_core.mjs");

const results = runCases(data.cases, (c) => {
  const lifted = finish(liftedRun(c.X, c.y, c.c, c.tau));
  const origin = finish(originRun(c.X, c.y, c.tau));
  return {
    lifted: lift(c.X, c.c),
    liftedRun: lifted,
    back: unlift(lifted.theta, c.c),
    originRun: origin,
    stats: (c.classifiers ?? []).map((h) => liftStats(c.X, c.y, h.theta, h.theta0, c.c)),
  };
});
writeJSON({ cValues: C_VALUES, thetaSteps: THETA_STEPS, theta0Steps: THETA0_STEPS, results });
