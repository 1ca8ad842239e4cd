// Play, Pause and speed for the demos that run the perceptron (chapters 1-4, 6, 7): the
// run moves on by itself, one update at a time, at a speed the reader chooses.
//
//   import { Player, playerControls } from "../kit/player.mjs";
//
// - Player: the clock.  Each tick asks the demo for its next update (the demo visits
//   examples until one changes the hypothesis, or the run ends) and schedules the next
//   tick; Pause, the end of the run, an edit, any other button or key, or the page going
//   out of sight stops it.  While it plays, the demo's status line is not read out at
//   every update (aria-live off); when it stops, the demo says where the run is.
// - playerControls: the Play/Pause button (key p) and the menu of speeds, in the
//   demo's toolbar.
// - prefersReducedMotion: whether the reader asked for less motion.  Then Play starts at
//   the slowest speed and the demos draw no fading (kit.css), each update still shown.

import { el } from "./dom.mjs";

/** The speeds a reader can choose, in updates per second. */
export const SPEEDS = [1, 2, 4, 8, 16];
/** The speed Play starts at, and where the reader asked for less motion. */
export const DEFAULT_SPEED = 2;
export const REDUCED_SPEED = 1;

/** Whether the reader's system asks for less motion (false outside a browser). */
export function prefersReducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Updates per second, as the menu says it. */
export const speedText = (s) => `${s} update${s === 1 ? "" : "s"}/s`;

export class Player {
  /**
   * @param {object} o
   * @param {() => boolean} o.tick makes the next update and draws it; false when the
   *   run cannot go on (it converged, τ epochs are over, there are no data)
   * @param {() => boolean} [o.canPlay] whether there is anything to play now
   * @param {(why: string) => void} [o.onStop] called when playing stops, with why:
   *   "pause" (the reader), "end" (the run is over), "interrupt" (another action)
   * @param {(playing: boolean) => void} [o.onChange] called when playing starts or stops
   * @param {HTMLElement} [o.status] the demo's live status line
   * @param {number} [o.speed] updates per second
   * @param {{setTimeout: Function, clearTimeout: Function}} [o.timers] the clock (tests)
   */
  constructor({ tick, canPlay = () => true, onStop = () => {}, onChange = () => {}, status = null,
    speed = prefersReducedMotion() ? REDUCED_SPEED : DEFAULT_SPEED, timers = globalThis }) {
    if (typeof tick !== "function") throw new Error("a player needs a tick function");
    this.tick = tick;
    this.canPlay = canPlay;
    this.onStop = onStop;
    this.onChange = onChange;
    this.status = status;
    this.timers = timers;
    this.timer = null;
    this.playing = false;
    this.ticks = 0; // updates shown since Play
    this.setSpeed(speed);
  }

  /** Choose the speed (updates per second, one of SPEEDS); it holds from the next tick. */
  setSpeed(s) {
    if (!SPEEDS.includes(s)) throw new Error(`speed must be one of ${SPEEDS.join(", ")} updates a second, got ${s}`);
    this.speed = s;
  }

  /** Start playing: the first update at once, then one every 1/speed seconds. */
  play() {
    if (this.playing) return true;
    if (!this.canPlay()) return false;
    this.playing = true;
    this.ticks = 0;
    if (this.status) this.status.setAttribute("aria-live", "off");
    this.onChange(true);
    this.step();
    return this.playing;
  }

  step() {
    this.timer = null;
    if (!this.playing) return;
    let more;
    try {
      more = this.tick();
    } catch (err) {
      this.stop("end");
      throw err;
    }
    if (!this.playing) return; // the tick stopped it
    this.ticks += 1;
    if (more) this.timer = this.timers.setTimeout(() => this.step(), 1000 / this.speed);
    else this.stop("end");
  }

  /** Stop playing; why is passed to onStop.  Nothing happens when it is not playing. */
  stop(why = "pause") {
    if (!this.playing) return false;
    this.playing = false;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    if (this.status) this.status.setAttribute("aria-live", "polite");
    this.onChange(false);
    this.onStop(why);
    return true;
  }

  pause() {
    return this.stop("pause");
  }

  /** Play when paused, pause when playing. */
  toggle() {
    return this.playing ? !this.pause() : this.play();
  }
}

/**
 * The Play/Pause button and the menu of speeds, for a demo's toolbar, tied to a player.
 * @param {Player} player the demo's player
 * @param {string} prefix the demo's class prefix: the button gets `${prefix}-play`
 * @param {string} uid a prefix for the menu's id, unique on the page
 * @param {string} what what Play runs, in the button's tip ("the perceptron")
 * @returns {{element: HTMLElement, button: HTMLButtonElement, speed: HTMLSelectElement, sync: () => void}}
 */
export function playerControls(player, prefix, uid, what = "the run") {
  const element = el("div", { class: "demo-player" });
  const button = el("button", {
    type: "button", class: `demo-button demo-play ${prefix}-play`, "aria-keyshortcuts": "p",
    title: `play ${what} one update at a time, or pause it (key p)`,
  });
  const icon = el("span", { class: "demo-play-icon", "aria-hidden": "true" });
  const text = el("span", { class: "demo-play-text" });
  button.append(icon, text, el("kbd", { "aria-hidden": "true" }, "p"));
  const id = `${uid}-speed`;
  const label = el("label", { class: "demo-name", for: id }, "Speed");
  const speed = el("select", { class: "demo-select demo-speed", id });
  for (const s of SPEEDS) speed.append(el("option", { value: String(s) }, speedText(s)));
  const line = el("span", { class: "demo-speed-line" });
  line.append(label, speed);
  element.append(button, line);
  const sync = () => {
    text.textContent = player.playing ? "Pause" : "Play";
    button.classList.toggle("demo-playing", player.playing);
    speed.value = String(player.speed);
  };
  button.addEventListener("click", () => player.toggle());
  speed.addEventListener("change", () => player.setSpeed(Number(speed.value)));
  sync();
  return { element, button, speed, sync };
}

/**
 * Pause the player when the reader does anything else in the demo: a click or a key
 * outside the player's own controls (Tab, Shift and the like excepted, and the demo's
 * Play key, which it handles), or the page going out of sight.
 * @param {HTMLElement} root the demo's element
 * @param {Player} player its player
 * @param {HTMLElement} controls the player's controls (playerControls().element)
 */
export function pauseOnOtherInput(root, player, controls) {
  const quiet = new Set(["Tab", "Shift", "Control", "Alt", "Meta", "CapsLock", "p", "P"]);
  const outside = (e) => !controls.contains(e.target);
  root.addEventListener("pointerdown", (e) => { if (outside(e)) player.stop("interrupt"); }, true);
  root.addEventListener("keydown", (e) => {
    if (outside(e) && !(quiet.has(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey)) player.stop("interrupt");
  }, true);
  root.addEventListener("change", (e) => { if (outside(e)) player.stop("interrupt"); }, true);
  if (typeof document !== "undefined") {
    document.addEventListener("visibilitychange", () => { if (document.hidden) player.stop("pause"); });
  }
}

/**
 * Give a demo its player: the clock, its controls at the end of the demo's training
 * toolbar, and a pause when the reader does anything else.
 * @param {object} o
 * @param {HTMLElement} o.root the demo's element
 * @param {HTMLElement} o.toolbar the toolbar of training buttons (buttonRow().element)
 * @param {HTMLElement} o.status the demo's live status line
 * @param {string} o.prefix the demo's class prefix
 * @param {string} o.uid a prefix for ids, unique on the page
 * @param {string} o.what what Play runs, for the button's tip
 * @param {() => boolean} o.tick the next update (see Player)
 * @param {() => boolean} o.canPlay whether there is anything to play
 * @param {(why: string) => void} o.onStop what the demo says when playing stops
 * @returns {{player: Player, controls: ReturnType<typeof playerControls>}}
 */
export function addPlayer({ root, toolbar, status, prefix, uid, what, tick, canPlay, onStop }) {
  let controls = null;
  const player = new Player({ tick, canPlay, onStop, status, onChange: () => controls && controls.sync() });
  controls = playerControls(player, prefix, uid, what);
  toolbar.append(controls.element);
  pauseOnOtherInput(root, player, controls.element);
  return { player, controls };
}
