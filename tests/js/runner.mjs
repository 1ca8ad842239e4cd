// The JSON plumbing shared by the Node runners of the parity tests (tests/js/run_*.mjs):
// read the cases file named on the command line, run each case, print the results.
//
// A missing argument stops the runner with exit status 2 and a usage line; an unreadable
// file, a file without the expected list, or a case that throws stops it with exit status
// 1 and the message on stderr.

import { readFileSync } from "node:fs";

// Read the JSON file named by the first argument; `key` names the list it must hold.
export function readCases(script, key = "cases") {
  const path = process.argv[2];
  if (!path) {
    process.stderr.write(`usage: node tests/js/${script} CASES.json\n`);
    process.exit(2);
  }
  let data;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    process.stderr.write(`cannot read ${path}: ${err.message}\n`);
    process.exit(1);
  }
  if (!data || !Array.isArray(data[key])) {
    process.stderr.write(`${path} must hold {"${key}": [...]}\n`);
    process.exit(1);
  }
  return data;
}

// Map `fn` over the cases; a case that throws stops the runner naming its index.
export function runCases(cases, fn) {
  return cases.map((c, k) => {
    try {
      return fn(c, k);
    } catch (err) {
      process.stderr.write(`case ${k}: ${err.message}\n`);
      process.exit(1);
    }
  });
}

// Print one JSON object on stdout.
export function writeJSON(value) {
  process.stdout.write(JSON.stringify(value) + "\n");
}
