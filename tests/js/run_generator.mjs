// Run the playgrounds' generator (book/_demos/kit/generator.mjs) on test cases.
//
//     node tests/js/run_generator.mjs CASES.json
//
// CASES.json holds {"streams": [{"seed": 1, "count": 20}], "cases": [{"kind": "xor",
// "n": 40, "seed": 7, "spread": 0.3, "flip": 0.1}], "bad": [{...}]}; the script prints
// {"streams": [[u, ...]], "results": [generate(case)], "errors": [message for each bad
// case]} as JSON on stdout.  tests/test_demo_data.py compares them with
// perceptron_lib.demos.data.

import { readFileSync } from "node:fs";
import { generate, mulberry32 } from "../../book/_demos/kit/generator.mjs";

const path = process.argv[2];
if (!path) {
  process.stderr.write("usage: node tests/js/run_generator.mjs CASES.json\n");
  process.exit(2);
}
const data = JSON.parse(readFileSync(path, "utf8"));
const streams = (data.streams ?? []).map(({ seed, count }) => {
  const draw = mulberry32(seed);
  return Array.from({ length: count }, draw);
});
const results = [];
data.cases.forEach((c, k) => {
  try {
    results.push(generate(c));
  } catch (err) {
    process.stderr.write(`case ${k}: ${err.message}\n`);
    process.exit(1);
  }
});
const errors = (data.bad ?? []).map((c) => {
  try {
    generate(c);
    return null;
  } catch (err) {
    return err.message;
  }
});
process.stdout.write(JSON.stringify({ streams, results, errors }) + "\n");
