// The sentences of a demo's status line that say where a run is (chapters 1 to 4, 6 and
// 7): a count with its noun, a run with nothing left to do, and Play's stop.

/** "1 update", "3 updates": a count with its noun, plural unless it is one. */
export const plural = (k, word) => `${k} ${word}${k === 1 ? "" : "s"}`;

/**
 * What a step, epoch or run button says when the run r has ended; tau is how the epoch
 * limit is written ("τ", or chapter 1's "tau").
 */
export const nothingToDo = (r, tau = "\u03c4") => `Nothing to do: ${r.converged ? "the run has converged" : `${tau} epochs are over`}. Reset starts again.`;

/**
 * Play's stop said (player.mjs's onStop): at the end of the run the outcome alone, after a
 * pause the updates Play made (ticks) and then the outcome; null for any other stop.
 * outcome() writes the demo's outcome sentence (asked only when it is said).
 */
export function playedText(why, ticks, outcome) {
  if (why === "end") return outcome();
  if (why === "pause") return `Paused after ${plural(ticks, "update")}. ${outcome()}`;
  return null;
}
