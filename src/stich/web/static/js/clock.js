// @ts-check
/**
 * What the seats say beyond the game: the turn clock of the seat to move (a bar that
 * runs down, from the server's `timer` message), "Kurt denkt nach …" while a bot or a
 * stand-in has the move, and the mark of a seat whose person left the table for good.
 * Beside one's own clock what its time is made of (the move's and the reserve's); a move
 * the clock made for a seat is said at the top for a while ("Zeit abgelaufen: für Anna
 * wurde Herz 7 gespielt."); the rule in words for the menu and the lobby (`clockRule`).
 *
 * The table below redraws after every message; one clock element lives on and is put
 * back on the seat after each redraw (`decorate`), so it never jumps or starts over.
 * The client counts down from the moment the message came (no clocks compared).
 */
import { _, h, lang } from "./site.js";
import { cardLabel } from "./cards.js";

/**
 * @typedef {{kind: "move"|"next"|"pause"|null, seat: number|null, left: number, total: number,
 *   bank: number, at: number}} Timer
 */

/** The timer running now (null: none); `at` is when it came (performance.now()). */
/** @type {Timer|null} */
let timer = null;

/** @param {import("./net.js").TimerMsg|null|undefined} m */
export function setTimer(m) {
  if (!m || !m.kind || typeof m.left !== "number") { timer = null; return null; }
  const left = Math.max(0, m.left);
  timer = { kind: m.kind, seat: m.seat ?? null, left, total: Math.max(left, m.total || left),
    bank: Math.max(0, Math.min(m.bank || 0, left)), at: performance.now() };
  return timer;
}

/** The timer running now, or null. */
export function currentTimer() { return timer; }

/** Milliseconds left on the running timer (0 when none). */
export function msLeft() {
  if (!timer) return 0;
  return Math.max(0, timer.left - (performance.now() - timer.at));
}

const fill = h("span", { class: "clock-fill" });
const bankMark = h("span", { class: "clock-bank" });
const text = h("span", { class: "clock-text" });
/** on one's own clock: what the time is made of ("30 s je Zug + 60 s Reserve"), in words */
const explain = h("span", { class: "clock-explain" });
const clockEl = h("div", { class: "clock", role: "timer", "aria-live": "off" },
  h("span", { class: "clock-bar", "aria-hidden": "true" }, fill, bankMark), text, explain);
/** the table's seconds per move (its `clock` setting), for the words beside the clock */
let perMove = 0;
/** @type {number|undefined} */
let ticking = undefined;
/** @type {number|undefined} */
let pausing = undefined;

/** m:ss @param {number} ms */
export function mmss(ms) {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tick() {
  if (!timer || timer.kind !== "move") return;
  const left = msLeft();
  const clockPart = Math.max(0, left - timer.bank);
  const inBank = timer.bank > 0 && clockPart <= 0;
  // CSSOM (allowed by the Content-Security-Policy, unlike a style attribute)
  fill.style.setProperty("--p", String(timer.total ? left / timer.total : 0));
  bankMark.style.setProperty("--p", String(timer.total ? timer.bank / timer.total : 0));
  bankMark.hidden = !timer.bank;
  clockEl.classList.toggle("in-bank", inBank);
  clockEl.classList.toggle("short", left < 5000);
  text.textContent = mmss(left);
  // the time shown is the move's and the reserve's together: said beside it
  const bankS = Math.round(timer.bank / 1000);
  explain.textContent = !bankS ? "" : inBank ? _("reserve")
    : _("{move} s a move + {bank} s reserve", { move: perMove || Math.round((timer.total - timer.bank) / 1000), bank: bankS });
  clockEl.setAttribute("aria-label", inBank
    ? _("{time} left, from the reserve", { time: mmss(left) })
    : _("{time} left", { time: mmss(left) }));
}

/**
 * The element that shows a table seat after a redraw: one's own box (with the actions)
 * for oneself, else the seat's place at the table.
 * @param {HTMLElement} root @param {any} st @param {number} seat
 * @returns {HTMLElement|null}
 */
export function seatElement(root, st, seat) {
  if (seat === st.you) {
    const me = /** @type {HTMLElement|null} */ (root.querySelector(".player.me"));
    if (me) return me;
  }
  if (st.table?.game === "skat") {
    const me = st.you ?? 0;
    const n = st.table.seats.length;
    const where = seat === (me + 1) % n ? "left" : seat === (me + n - 1) % n ? "right" : seat === me ? "me" : "across";
    return root.querySelector(`.skat .player.${where}`);
  }
  return /** @type {HTMLElement|null} */ (root.querySelectorAll(".bseats > li")[seat] || null);
}

/** The table seat to move in the view, or null. @param {any} st */
export function seatToMove(st) {
  const v = st.view;
  if (!v || v.phase === "OVER" || typeof v.to_move !== "number" || v.to_move < 0) return null;
  return st.table?.game === "skat" ? (v.positions?.[v.to_move] ?? null) : v.to_move;
}

/**
 * After a redraw: the clock on the seat it runs for, "… denkt nach" on a bot to move,
 * the mark of a seat whose person left.
 * @param {HTMLElement} root @param {any} st @param {(seat: number) => string} seatName
 */
export function decorate(root, st, seatName) {
  const t = st.table;
  if (!t || !st.view || t.status !== "running") { clockEl.remove(); return; }
  (t.seats || []).forEach((/** @type {any} */ s, /** @type {number} */ i) => {
    if (!s || !s.quit) return;
    const el = seatElement(root, st, i);
    const tags = el?.querySelector(".tags") || el;
    tags?.append(h("span", { class: "tag quit" }, _("left the table")));
  });
  const mover = seatToMove(st);
  if (mover !== null) {
    const s = t.seats?.[mover];
    if (s && (s.kind === "bot" || s.standin || s.quit) && t.paused_by == null && !t.idle) {
      seatElement(root, st, mover)?.append(h("div", { class: "thinking", role: "status" }, s.kind === "bot"
        ? _("{name} is thinking …", { name: seatName(mover) })
        : _("The bot for {name} is thinking …", { name: seatName(mover) })));
    }
  }
  // a player's pause: "goes on by itself in m:ss" in its banner, counted down
  const pauseLeft = /** @type {HTMLElement|null} */ (root.querySelector(".pause-left"));
  if (pauseLeft && timer && timer.kind === "pause") {
    const show = () => {
      pauseLeft.textContent = _("It goes on by itself in {time}.", { time: mmss(msLeft()) });
    };
    show();
    clearInterval(pausing);
    pausing = window.setInterval(() => {
      if (!pauseLeft.isConnected || !timer || timer.kind !== "pause") { clearInterval(pausing); return; }
      show();
    }, 500);
  }
  if (timer && timer.kind === "move" && timer.seat !== null) {
    perMove = Number(t.clock) || 0;
    const el = seatElement(root, st, timer.seat);
    if (el) {
      clockEl.classList.toggle("mine", timer.seat === st.you);
      el.append(clockEl);
      tick();
      if (ticking === undefined) ticking = window.setInterval(tick, 250);
      return;
    }
  }
  clockEl.remove();
  clearInterval(ticking);
  ticking = undefined;
}

// --- the clock's words: what the time is, and what it did ------------------------------

/**
 * The turn clock's rule in words (the table's menu, the lobby's form): seconds per move,
 * a reserve per game (Baptistenskat: per round) for the moves that take longer, both
 * shown together, and what happens when both are used up.
 * @param {{clock: number, bank: number, game: string, on_timeout?: string}} t
 * @returns {string}
 */
export function clockRule(t) {
  if (!t.clock) return "";
  const parts = [t.bank > 0
    ? (t.game === "skat"
      ? _("Thinking time: {move} s for each move, plus a reserve of {bank} s per game for the moves that take longer; the clock shows both together.", { move: t.clock, bank: t.bank })
      : _("Thinking time: {move} s for each move, plus a reserve of {bank} s per round for the moves that take longer; the clock shows both together.", { move: t.clock, bank: t.bank }))
    : _("Thinking time: {move} s for each move.", { move: t.clock })];
  parts.push(t.on_timeout === "away" ? _("When the time is up, a bot plays for the seat until its player is back.")
    : _("When the time is up, a bot makes that move."));
  return parts.join(" ");
}

/** How long a move the clock made is said at the table (ms). */
export const CLOCK_NOTE_MS = 12000;
/** @type {{seat: number|null, text: string, at: number}|null} */
let note = null;
/** @type {number|undefined} */
let noteTimer = undefined;
const CARD = /^([CSHD][2-9TJQKA]|[RYGB]([1-9]|1[0-9]|20)|JK)$/;

/**
 * An event of the table: a move the clock made for a seat (`act` with `by: "clock"`) is
 * said at the table for a while (see {@link clockBanner}); `redraw` once that is over.
 * @param {import("./net.js").EventMsg} m @param {() => void} redraw
 */
export function clockEvent(m, redraw) {
  if (m.kind !== "act" || m.data?.by !== "clock") return;
  note = { seat: m.seat ?? null, text: String(m.data?.text ?? ""), at: Date.now() };
  clearTimeout(noteTimer);
  noteTimer = window.setTimeout(() => { note = null; redraw(); }, CLOCK_NOTE_MS);
}

/**
 * A move the clock made, in words ("Zeit abgelaufen: für Anna wurde Herz 7 gespielt."),
 * shown to everybody at the table for {@link CLOCK_NOTE_MS}; a card by its name in the
 * table's card style, another move as the table shows it.
 * @param {any} st  the table page's state
 * @param {(seat: number) => string} seatName
 * @param {(text: string) => string} moveWords  a move that is not a card, in words
 * @returns {HTMLElement|null}
 */
export function clockBanner(st, seatName, moveWords) {
  if (!note || Date.now() - note.at > CLOCK_NOTE_MS || note.seat === null) return null;
  const you = note.seat === st.you;
  const name = seatName(note.seat);
  let said;
  if (CARD.test(note.text)) {
    // Skat in the chosen style; the plain decks of Baptistenskat French (as they are drawn)
    const style = st.table?.game === "skat" ? st.style : st.style === "german" ? "french4" : st.style;
    const card = cardLabel(note.text, { style, lang: lang() });
    said = you ? _("Time is up: {card} was played for you.", { card })
      : _("Time is up: {card} was played for {name}.", { card, name });
  } else {
    const move = moveWords(note.text);
    said = you ? _("Time is up: a bot made your move ({move}).", { move })
      : _("Time is up: a bot made the move for {name} ({move}).", { move, name });
  }
  return h("div", { class: "banner clock-note", role: "status" }, said);
}
