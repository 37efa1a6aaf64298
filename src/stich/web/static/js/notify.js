// @ts-check
/**
 * "Du bist dran" gets noticed: the tab's title ("● Du bist dran") while it is one's
 * turn, a short sound (made with WebAudio, no file; off until the person switches it on
 * in the menu), and a notification when the tab is hidden (the Notification API, after
 * the person switched it on and the browser allowed it).  Each turn is announced once.
 * `notices` lists what was done (for the tests and for the curious).
 */
import { _ } from "./site.js";

const SOUND = "stich.sound";
const NOTIFY = "stich.notify";
const baseTitle = document.title;

/** what was announced, in order: "title", "sound", "notification", and "over" when the
 * turn passed (the title is the page's again) */
/** @type {string[]} */
export const notices = [];

/** @type {AudioContext|null} */
let audio = null;
let wasTurn = false;

/** Whether the sound is on (off by default). */
export function soundOn() { return localStorage.getItem(SOUND) === "1"; }

/** Whether notifications are wanted and allowed. */
export function notifyOn() {
  return localStorage.getItem(NOTIFY) === "1" && "Notification" in window && Notification.permission === "granted";
}

/** Whether this browser can show notifications at all. */
export function notifySupported() { return "Notification" in window; }

/** The sound switch (a tap: WebAudio may start now). @param {boolean} on */
export function setSound(on) {
  localStorage.setItem(SOUND, on ? "1" : "0");
  if (on) { beep(); }
}

/**
 * The notification switch: asks the browser for permission when switched on.
 * @param {boolean} on @returns {Promise<boolean>} whether it is on now
 */
export async function setNotify(on) {
  if (!on || !notifySupported()) { localStorage.setItem(NOTIFY, "0"); return false; }
  let perm = Notification.permission;
  if (perm === "default") perm = await Notification.requestPermission();
  localStorage.setItem(NOTIFY, perm === "granted" ? "1" : "0");
  return perm === "granted";
}

/** Two short tones (about a quarter of a second, quiet). */
function beep() {
  try {
    const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    const a = /** @type {AudioContext} */ (audio);
    if (a.state === "suspended") a.resume().catch(() => undefined);
    const t0 = a.currentTime;
    [[660, 0], [880, 0.13]].forEach(([freq, at]) => {
      const osc = a.createOscillator();
      const gain = a.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.18, t0 + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + 0.12);
      osc.connect(gain).connect(a.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + 0.13);
    });
    notices.push("sound");
  } catch { /* no sound here: the title still says it */ }
}

/**
 * After each redraw: when the turn has just become one's own, say so once.
 * @param {any} st  the table page's state
 */
export function turnNotice(st) {
  const turn = st.you !== null && st.table?.status === "running" && !!st.view?.legal?.length;
  if (turn && !wasTurn) {
    document.title = "● " + _("Your turn");
    notices.push("title");
    if (soundOn()) beep();
    if (document.hidden && notifyOn()) {
      try {
        const n = new Notification(_("Your turn"), { body: _("Your move at the table."), tag: "stich-turn" });
        n.onclick = () => { window.focus(); n.close(); };
        notices.push("notification");
      } catch { /* a browser that allows notifications only from a service worker */ }
    }
  } else if (!turn && wasTurn) {
    document.title = baseTitle;
    notices.push("over");
  }
  wasTurn = turn;
}
