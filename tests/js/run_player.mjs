// Play the page's perceptron with the demos' player (book/_demos/kit/player.mjs) on a
// clock of our own, and report what each tick showed.
//
//     node tests/js/run_player.mjs CASES.json
//
// CASES.json holds {"cases": [{"X": [[...], ...], "y": [...], "tau": 10, "offset": true,
// "speed": 4, "pauseAfter": 3}]}: Play starts the run from theta = 0 at that speed; when
// pauseAfter is given, Pause after that many ticks, then Play again.  For each case the
// script prints the hypothesis after each tick ({epoch, index, mistake, theta, theta0}),
// the delays the player asked the clock for, why it stopped each time, and whether it
// still plays.  tests/test_demo_player.py compares the ticks with perceptron_lib's trace.

import { readCases, runCases, writeJSON } from "./runner.mjs";
import { createRun } from "../../book/_demos/kit/perceptron-core.mjs";
import { Player } from "../../book/_demos/kit/player.mjs";

const data = readCases("run_player.mjs");

/** A clock that runs only when told: setTimeout records, fire() calls the next. */
function fakeClock() {
  const pending = new Map();
  let id = 0;
  return {
    delays: [],
    setTimeout(fn, ms) { pending.set(++id, fn); this.delays.push(ms); return id; },
    clearTimeout(k) { pending.delete(k); },
    fire() {
      const [k, fn] = pending.entries().next().value ?? [];
      if (k === undefined) return false;
      pending.delete(k);
      fn();
      return true;
    },
    get pending() { return pending.size; },
  };
}

const results = runCases(data.cases, (c) => {
  const run = createRun(c.X, c.y, c.tau, c.offset ?? true);
  const clock = fakeClock();
  const ticks = [];
  const stops = [];
  const player = new Player({
    tick: () => {
      const s = run.toUpdate();
      ticks.push({ epoch: s.epoch, index: s.index, mistake: s.mistake, theta: run.theta.slice(), theta0: run.theta0 });
      return !run.done;
    },
    canPlay: () => !run.done,
    onStop: (why) => stops.push(why),
    speed: c.speed,
    timers: clock,
  });
  player.play();
  let guard = 0;
  while (clock.pending && guard++ < 1e6) {
    if (c.pauseAfter !== undefined && ticks.length === c.pauseAfter && stops.length === 0) {
      player.pause();
      if (clock.pending) throw new Error("a paused player left a tick scheduled");
      player.play();
      continue;
    }
    clock.fire();
  }
  const again = player.play(); // the run is over: Play does nothing
  return { ticks, delays: clock.delays, stops, playing: player.playing, playedAgain: again };
});
writeJSON({ results });
