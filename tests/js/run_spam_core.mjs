// Run the page's spam features (book/_demos/spam/spam-core.mjs) on test messages.
//
//     node tests/js/run_spam_core.mjs CASES.json
//
// CASES.json holds {"messages": ["...", ...], "models": [{"columns": [0, 1], "theta": [...],
// "theta0": 0, "mean": [...], "scale": [...]}, ...]}; the script prints, as JSON on
// stdout, {"results": [...]} with for each message either {"error": "..."} or its counts,
// features, tokens and, for each model, the score and verdict.
// tests/test_spam_demo_core.py compares them with perceptron_lib.

import { readCases, writeJSON } from "./runner.mjs";
import { countMessage, featuresOf, score, tokenize, verdict } from "../../book/_demos/spam/spam-core.mjs";

const data = readCases("run_spam_core.mjs", "messages");
const results = data.messages.map((message) => {
  let counts;
  try {
    counts = countMessage(message);
  } catch (err) {
    return { error: err.message, tokens: tokenize(message) };
  }
  const features = featuresOf(counts);
  const scores = (data.models || []).map((m) => score(features, m));
  return { counts, features, tokens: tokenize(message), scores, verdicts: scores.map(verdict) };
});
writeJSON({ results });
