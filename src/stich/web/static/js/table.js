// @ts-check
/**
 * The table page: sitting down, the live connection, and drawing.  One `render()` draws
 * everything from what the server sent: the table (seats, presence), the seat's view
 * (with the legal actions as texts), the Skat list or the Anschreibezettel.  Nothing here
 * knows a rule: a tap sends an action text and the server answers with an event or with
 * the engine's reason, which is shown.
 */
import { _, api, botLevels, h, lang } from "./site.js";
import { TableConnection } from "./net.js";
import { renderSkat, skatListPanel, lastTrickPanel, resultPanel, confirmLoss, bidWord, contractName } from "./skat.js";
import { showPanel, hidePanel, panelKey } from "./panels.js";
import { baptistenEvent, renderBaptisten, sheetPanel } from "./baptisten.js";
import { clockBanner, clockEvent, clockRule, decorate, setTimer } from "./clock.js";
import { turnNotice, notices, soundOn, setSound, notifyOn, notifySupported, setNotify } from "./notify.js";
import { addLine, chatButton, chatOpen, chatRefused, openChat, setLines } from "./chat.js";

const root = /** @type {HTMLElement} */ (document.getElementById("table"));
const tableId = root.dataset.table || "";
const invite = root.dataset.invite || "";
const userId = root.dataset.user ? Number(root.dataset.user) : null;

/**
 * Everything drawn comes from here.
 * @typedef {{
 *   table: any, you: number|null, creator: boolean, view: any, list: any, sheet: any,
 *   result: any, status: string, error: string, notice: string,
 *   selected: string[], panel: ""|"list"|"sheet"|"last"|"menu"|"chat"|"result"|"confirm", bidChoice: number|null,
 *   style: string, seq: number, pending: import("./net.js").Pending|null, kept: string,
 *   over: {view: any, line: any}|null, endStage: ""|"trick"|"result", readySent: boolean,
 *   timer: {kind: string|null, seat: number|null, left: number, total: number, bank: number, at: number}|null,
 *   confirm: string, serviceDown: boolean, notSaved: boolean,
 * }} State
 * over: the last finished Skat game as this page saw it end (its last view: every hand,
 * the Skat, the tricks), kept through the next game; endStage: "trick" while its last
 * trick is shown (~1.5 s), then "result"; readySent: "Weiter" was said for it; timer: the
 * server's last `timer` message, `at` when it came (countdowns run from there); confirm:
 * the declaration waiting for its confirmation (a certain loss); serviceDown: the server's
 * last `service` message said it cannot save now; notSaved: a move of this page was
 * refused for that (`server.not_saved`), until the table moves on after the site is back.
 */
/** @type {State} */
export const state = {
  table: null, you: null, creator: false, view: null, list: null, sheet: null, result: null,
  status: "connecting", error: "", notice: "", selected: [], panel: "", bidChoice: null,
  style: localStorage.getItem("stich.style") || "german", seq: -1, pending: null, kept: "",
  over: null, endStage: "", readySent: false, timer: null, confirm: "",
  serviceDown: false, notSaved: false,
};

/** a refusal of the join after "Sit down as a guest" (shown after the reload) */
state.error = sessionStorage.getItem("stich.joinError") || "";
sessionStorage.removeItem("stich.joinError");

/** How long a finished game's last trick stays on the table before its result (ms). */
const SHOW_LAST_TRICK = 1500;
/** @type {number|undefined} */
let endTimer;

/** @type {TableConnection|null} */
let conn = null;
const inv = invite ? `?invite=${encodeURIComponent(invite)}` : "";

async function refreshTable() {
  try {
    const r = await api(`/api/tables/${encodeURIComponent(tableId)}${inv}`);
    state.table = { ...(state.table || {}), ...r.table, invite: state.table?.invite ?? r.table.invite };
    state.you = r.you;
  } catch (e) {
    state.error = /** @type {Error} */ (e).message;
  }
  render();
}

async function refreshList() {
  if (!state.table) return;
  const which = state.table.game === "skat" ? "list" : "sheet";
  try {
    const r = await api(`/api/tables/${encodeURIComponent(tableId)}/${which}${inv}`);
    if (which === "list") state.list = r.list ?? r; else state.sheet = r.sheet ?? r;
  } catch { /* shown at the next snapshot */ }
  render();
}

/** @param {import("./net.js").EventMsg} m */
function onEvent(m) {
  const before = state.view;
  state.seq = m.seq;
  if (!state.serviceDown) state.notSaved = false; // the site saves again: the table moved on
  if (m.view !== undefined && m.view !== null) state.view = m.view;
  const t = state.table;
  switch (m.kind) {
    case "away": if (t && m.seat !== null) t.seats[m.seat].away = true; break;
    case "back": if (t && m.seat !== null) { t.seats[m.seat].away = false; t.seats[m.seat].standin = false; } break;
    case "standin": if (t && m.seat !== null) t.seats[m.seat].standin = true; break;
    case "quit": if (t && m.seat !== null && t.seats[m.seat]) { t.seats[m.seat].quit = true; t.seats[m.seat].standin = true; } break;
    case "chat": addLine(m, state.you); break;
    case "pause": if (t) { if (m.seat === null) t.idle = true; else t.paused_by = m.seat; } break;
    case "resume": if (t) { if (m.seat === null) t.idle = false; else t.paused_by = null; } break;
    case "seat": case "leave": case "start": case "end": case "ending":
      refreshTable(); break;
    case "deal":
      // the next game: a result that waited for "Weiter" goes; one shown without waiting
      // (the table went on at once) stays until closed; both stay reachable
      state.selected = []; state.confirm = "";
      if (state.panel === "confirm") state.panel = "";
      if (state.panel === "result" && (t?.between || state.readySent)) state.panel = "";
      if (t) { t.games_played = (m.data?.number ?? 1) - 1; t.between = false; t.ready = []; }
      state.readySent = false;
      break;
    case "game_over":
      state.result = m.data?.line ?? null;
      gameOver(m);
      refreshList();
      break;
    case "ready":
      if (t && m.seat !== null) t.ready = [...(t.ready || []).filter((/** @type {number} */ s) => s !== m.seat), m.seat];
      if (m.seat === state.you) state.readySent = true;
      break;
    case "round_over":
      state.result = m.data?.sheet_row ?? null;
      refreshList();
      break;
    case "act":
      state.error = "";
      if (m.seat === state.you) {
        state.selected = [];
        if (state.panel === "confirm") { state.panel = ""; state.confirm = ""; }
        if (t?.game !== "skat") state.result = null; // Baptistenskat: the round's box goes
      }
      state.bidChoice = m.seat === state.you ? null : state.bidChoice;
      break;
    default: break;
  }
  if (state.table?.game === "baptisten") baptistenEvent(state, m, before);
  clockEvent(m, render); // a move the clock made is said at the table for a while
  render();
}

/**
 * A move that is not a card, as the table shows it (the clock's note says it).
 * @param {string} text  the action's text as the event carried it
 */
function moveWords(text) {
  if (state.table?.game === "skat") {
    if (text === "pickup") return _("Take the Skat");
    if (text.startsWith("discard")) return _("two cards put away");
    if (text.startsWith("declare")) return contractName(text, state.style);
    return bidWord(text); // a bid, "ja", "passe"; "hand"
  }
  const m = /^bid (\d+) stake (\d+)$/.exec(text);
  if (m) return _("bid {n}", { n: m[1] }) + " · " + m[2];
  if (text === "play") return _("the card on the forehead");
  return text;
}

/**
 * A Skat game ended: its last trick stays on the table for a moment, then its result
 * opens in view (with "Weiter" while the table waits for it).
 * @param {import("./net.js").EventMsg} m
 */
function gameOver(m) {
  const t = state.table;
  if (!state.result || !m.view) return;
  state.over = { view: m.view, line: state.result };
  state.readySent = false;
  // the table waits for "Weiter" (a server that knows `next_after`); the last game never waits
  if (t) t.between = !!t.next_after && !(t.games && (m.data?.number ?? 0) >= t.games);
  if (t) t.ready = [];
  state.endStage = "trick";
  if (state.panel !== "menu") state.panel = "";
  clearTimeout(endTimer);
  endTimer = window.setTimeout(() => {
    state.endStage = "result";
    if (state.panel !== "menu") state.panel = "result";
    render();
  }, SHOW_LAST_TRICK);
}

/** "Weiter" after a result: the table goes on when everyone said it (or its time is up). */
function sayReady() {
  const t = state.table;
  if (t?.between && state.you !== null && !state.readySent && !(t.ready || []).includes(state.you)) {
    conn?.send({ type: "ready" });
    state.readySent = true;
  }
}

/**
 * A server message that is not an event: the `timer` (a countdown to show).
 * @param {any} m
 */
function onOther(m) {
  if (m.type !== "timer") return;
  state.timer = m.kind ? { ...m, at: Date.now() } : null;
  if (m.kind === "next" && state.table) state.table.between = true;
  render();
}

/** Seconds left of the `timer` of this kind, or null. @param {string} kind */
export function secondsLeft(kind) {
  const tm = state.timer;
  if (!tm || tm.kind !== kind) return null;
  return Math.max(0, Math.ceil((tm.left - (Date.now() - tm.at)) / 1000));
}

/** Fill in the countdowns on the page (and in the panel). */
function tick() {
  const n = secondsLeft("next");
  document.querySelectorAll("[data-countdown=next]").forEach((el) => {
    el.textContent = n === null ? "" : _("Next game in {n} s", { n });
  });
}
window.setInterval(tick, 250);

function connect() {
  conn = new TableConnection(tableId, { lang: lang(), invite }, {
    onWelcome: (m) => {
      state.table = m.table; state.you = m.you; state.creator = !!m.creator;
      state.serviceDown = false; // (a `service` message follows the welcome while it cannot save)
      setLines(m.chat ?? m.table?.chat);
      if (/** @type {any} */ (m).timer !== undefined) onOther({ ...(/** @type {any} */ (m).timer || { kind: null }), type: "timer" });
      render();
    },
    onSnapshot: (m) => {
      state.seq = m.seq; state.table = m.table; state.view = m.view;
      state.list = m.list; state.sheet = m.sheet;
      if (!state.serviceDown) state.notSaved = false;
      setLines(m.chat ?? m.table?.chat);
      restoreResult();
      render();
    },
    onEvent,
    onMessage: onOther,
    onError: (m) => {
      if (m.code === "server.not_saved") {
        // the site cannot save: said once, by the banner at the top (not again below)
        state.notSaved = true; state.error = ""; state.kept = "";
        render();
        return;
      }
      if (chatRefused(m)) return;
      state.error = !m.pending ? m.text : m.text ? _("Your move from while the connection was away was not made: {reason}", { reason: m.text })
        : _("Your move was not sent: the connection did not come back.");
      // a kept move's refusal is said at the top too, where the person looked for it
      state.kept = m.pending ? state.error : "";
      render();
      if (m.code === "server.stale") conn?.sync();
    },
    onTimer: (m) => { setTimer(m); render(); }, // the clock keeps its own (see clock.js)
    onService: (m) => {
      state.serviceDown = !m.ok;
      if (m.ok) state.notSaved = false;
      render();
    },
    onStatus: (s) => { state.status = s; render(); },
    onPending: (p) => {
      const shown = !!p?.held !== !!state.pending?.held;
      state.pending = p;
      if (shown) render();
    },
  });
  conn.open();
  // for the tests and for the curious: the connection of this page
  /** @type {any} */ (window).stichTable = { state, conn, notices };
}

/**
 * After a reload while the table waits between two Skat games (or after its last game):
 * the finished game is the view, its line the list's last; its result opens again.
 */
function restoreResult() {
  const t = state.table, v = state.view, games = state.list?.games;
  if (!t || t.game !== "skat" || !games?.length) return;
  // the last game's result stays reachable ("Ergebnis") after a reload, from the list
  if (!state.result) state.result = games[games.length - 1];
  if (v?.phase !== "OVER" || state.over) return;
  state.result = games[games.length - 1];
  state.over = { view: v, line: state.result };
  state.readySent = state.you !== null && (t.ready || []).includes(state.you);
  state.endStage = "result";
  if (!state.panel && (t.between || t.status === "over") && !state.readySent) state.panel = "result";
}

/** Send an action text; the answer comes as an event or an error. */
export function act(/** @type {string} */ text) {
  state.error = "";
  state.kept = "";
  conn?.act(text);
}

// --- before playing: a name, a seat ------------------------------------------------------

/** Whether a seat can be taken here now (the table waits and has a free seat). */
function seatFree() {
  const t = state.table;
  return !!t && t.status === "waiting" && t.seats.some((/** @type {any} */ s) => s.kind === "free");
}

function joinForm() {
  const t = state.table;
  if (!t) return null;
  if (userId === null) {
    // a full or running table: watching needs no name, and there is no seat to offer
    if (!seatFree()) {
      return h("p", { class: "muted watching" }, _("You are watching."), " ",
        h("a", { href: `/login?next=${encodeURIComponent(location.pathname + location.search)}` }, _("log in")));
    }
    const form = h("form", { class: "panel join", onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      const name = /** @type {HTMLInputElement} */ (form.querySelector("input")).value.trim();
      try {
        await api("/api/guest", { name });
        // the guest sits down at once: no second "Sit down" to tap
        await api(`/api/tables/${encodeURIComponent(tableId)}/join`, { invite: invite || null })
          .catch((/** @type {Error} */ err) => { sessionStorage.setItem("stich.joinError", err.message); });
        location.reload();
      } catch (err) {
        state.error = /** @type {Error} */ (err).message; render();
      }
    } },
      h("label", {}, _("Your name at this table"), " ",
        h("input", { name: "name", required: true, maxlength: 24, autocomplete: "nickname" })),
      h("button", { type: "submit" }, _("Sit down as a guest")),
      h("p", { class: "muted" }, _("or"), " ", h("a", { href: `/login?next=${encodeURIComponent(location.pathname + location.search)}` }, _("log in"))));
    return form;
  }
  if (state.you === null && seatFree()) {
    return h("div", { class: "panel join" },
      h("button", { onclick: () => join(null) }, _("Sit down")));
  }
  return null;
}

/** @param {number|null} seat */
async function join(seat) {
  try {
    const body = /** @type {any} */ ({ invite: invite || null });
    if (seat !== null) body.seat = seat;
    const r = await api(`/api/tables/${encodeURIComponent(tableId)}/join`, body);
    state.you = r.you;
    state.table = { ...r.table, invite: r.table.invite ?? state.table?.invite };
  } catch (e) { state.error = /** @type {Error} */ (e).message; }
  render();
}

/** @param {number} seat @param {string} bot */
async function addBot(seat, bot) {
  try {
    const r = await api(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat}/bot${inv}`, { bot });
    state.table = { ...r.table, invite: r.table.invite ?? state.table?.invite };
  } catch (e) { state.error = /** @type {Error} */ (e).message; }
  render();
}

async function leave() {
  try { await api(`/api/tables/${encodeURIComponent(tableId)}/leave`, {}); state.you = null; }
  catch (e) { state.error = /** @type {Error} */ (e).message; }
  refreshTable();
}

function inviteBox() {
  const t = state.table;
  if (!t || !t.invite || state.you === null) return null;
  const link = `${location.origin}/t/${tableId}?invite=${t.invite}`;
  const input = h("input", { value: link, readonly: true, "aria-label": _("Invite link"), class: "invite-link" });
  const copy = h("button", { type: "button", class: "secondary", onclick: async () => {
    try { await navigator.clipboard.writeText(link); copy.textContent = _("Copied"); }
    catch { /** @type {HTMLInputElement} */ (input).select(); }
  } }, _("Copy"));
  return h("div", { class: "invite row" }, h("span", {}, _("Invite link")), input, copy);
}

function waitingRoom() {
  const t = state.table;
  const seats = h("ol", { class: "seats-waiting" });
  t.seats.forEach((/** @type {any} */ s, /** @type {number} */ i) => {
    const li = h("li", {}, s.kind === "free" ? h("span", { class: "muted" }, _("free")) :
      h("span", {}, s.name, s.kind === "bot" ? " " : null, s.kind === "bot" ? h("span", { class: "tag" }, _("bot")) : null));
    if (s.kind === "free" && state.you !== null) {
      const sel = /** @type {HTMLSelectElement} */ (h("select", { "aria-label": _("Bot level") },
        ...botLevels(t.game).map((b) => h("option", { value: b.level, selected: b.level === "easy" }, b.seat))));
      li.append(" ", sel, " ", h("button", { type: "button", class: "secondary", onclick: () => addBot(i, sel.value) }, _("Bot to this seat")));
    }
    if (i === state.you) li.append(" ", h("span", { class: "tag" }, _("you")));
    seats.append(li);
  });
  return h("section", { class: "panel waiting" },
    h("h2", {}, _("Waiting for players")), seats, inviteBox(),
    state.you !== null ? h("button", { type: "button", class: "secondary", onclick: leave }, _("Stand up")) : null);
}

// --- the frame around the game ----------------------------------------------------------

/** @type {Record<string, {words: string, short: string}|null>} the rules in words, by rule string (asked once) */
const ruleWords = {};

/**
 * A Skat table's rules as the header names them: a preset by its name; house rules in
 * the server's words (GET /api/rules/skat/words), long, and short on a phone.
 * @param {any} t the table
 * @returns {HTMLElement}
 */
function rulesTitle(t) {
  // a Preisskat table says so after the rules: "Lothars Regeln · Preisskat (36 Spiele)"
  const scoring = t.scoring === "seeger" ? h("span", { class: "scoring-title" }, " · " + _("Preisskat ({n} games)", { n: t.games })) : null;
  if (t.preset === "isko" || t.preset === "lothar") return h("span", { class: "title" }, "Skat · " + (t.preset === "isko" ? "ISkO" : _("Lothar's rules")), scoring);
  const known = ruleWords[t.rules];
  if (known === undefined) {
    ruleWords[t.rules] = null;  // asked: the header is drawn again with the answer
    api(`/api/rules/skat/words?rules=${encodeURIComponent(t.rules)}`)
      .then((r) => { ruleWords[t.rules] = { words: r.words, short: r.short }; render(); })
      .catch(() => undefined);
  }
  const words = known || { words: _("house rules"), short: _("house rules") };
  return h("span", { class: "title rules-title", title: words.words }, "Skat · ",
    h("span", { class: "rules-long" }, words.words), h("span", { class: "rules-short" }, words.short), scoring);
}

function topBar() {
  const t = state.table;
  const bar = h("div", { class: "tablebar" },
    t.game === "skat" ? rulesTitle(t) : h("span", { class: "title" }, "Baptistenskat"),
    t.game === "skat" && state.view ? h("span", { class: "muted" }, t.games ? _("Game {n} of {m}", { n: state.view.number, m: t.games }) : _("Game {n}", { n: state.view.number })) : null,
    t.game !== "skat" && state.view ? h("span", { class: "muted" }, _("Round {n}", { n: state.view.round })) : null,
    h("span", { class: `conn conn-${state.status}`, title: _("Connection") }, statusText()));
  const tools = h("div", { class: "tools" });
  if (t.game === "skat") {
    // nothing to look back at in the waiting room
    if (t.status !== "waiting" && state.view) {
      if (state.result) tools.append(h("button", { type: "button", class: "secondary", "aria-pressed": String(state.panel === "result"), onclick: () => toggle("result") }, _("Result")));
      tools.append(h("button", { type: "button", class: "secondary", "aria-pressed": String(state.panel === "last"), onclick: () => toggle("last"), accesskey: "l" }, _("Last trick")));
      tools.append(h("button", { type: "button", class: "secondary", "aria-pressed": String(state.panel === "list"), onclick: () => toggle("list") }, _("List")));
    }
  } else {
    tools.append(h("button", { type: "button", class: "secondary only-narrow", "aria-pressed": String(state.panel === "sheet"), onclick: () => toggle("sheet") }, _("Anschreibezettel")));
  }
  tools.append(chatButton(() => toggle("chat")));
  tools.append(h("button", { type: "button", class: "secondary", "aria-pressed": String(state.panel === "menu"), onclick: () => toggle("menu"), "aria-label": _("More") }, "⋯"));
  bar.append(tools);
  return bar;
}

function statusText() {
  return { connecting: _("connecting …"), open: _("connected"), doubt: _("connection in doubt …"), closed: _("connection lost, trying again …"), gone: _("no such table") }[state.status] || state.status;
}

/** While the connection is in doubt or lost, or a tapped move waits for it: said at the top. */
function connBanner() {
  const held = !!state.pending?.held;
  if (state.kept && state.status === "open") return h("div", { class: "conn-banner conn-refused", role: "alert" }, state.kept);
  if (state.status === "open" && !held) return null;
  if (state.status === "connecting" && !held) return null;
  const text = state.status === "gone" ? _("The table is gone.")
    : state.status === "open" ? "" : state.status === "closed" ? _("Connection lost: connecting again …")
      : _("Connection in doubt: checking …");
  return h("div", { class: `conn-banner conn-${state.status}`, role: "status" }, text,
    held ? h("span", { class: "held" }, " ", _("Your move is kept and sent when the connection is back.")) : null);
}

/**
 * While the site cannot save (its database does not answer), or a move was refused for
 * that: said at the top, in view, until it can again (the table goes on by itself).
 * The connection's own banner, when there is one, says more and is shown instead.
 */
function serviceBanner() {
  if (!state.serviceDown && !state.notSaved) return null;
  return h("div", { class: "conn-banner service-banner", role: "status" },
    _("The site is having trouble: your move was not taken. The table goes on by itself once it can save again."));
}

/** @param {State["panel"]} p */
function toggle(p) { state.panel = state.panel === p ? "" : p; render(); }

/** One's own seat, when one sits at a running table and has not left it. */
function ownSeat() {
  const t = state.table;
  const s = state.you !== null && t?.status === "running" ? t.seats[state.you] : null;
  return s && !s.quit ? s : null;
}

/** A switch in the menu (a checkbox with its label, the whole line tappable). */
function toggleLine(/** @type {string} */ id, /** @type {string} */ label, /** @type {boolean} */ on, /** @type {(on: boolean, box: HTMLInputElement) => void} */ change) {
  const box = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id, checked: on }));
  box.addEventListener("change", () => change(box.checked, box));
  return h("label", { class: "switch", for: id }, box, " ", label);
}

/** Sound, notification: the your-turn notice's switches. */
function noticeSwitches() {
  const box = h("div", { class: "switches" });
  box.append(toggleLine("sound", _("A sound when it is your turn"), soundOn(), (on) => setSound(on)));
  if (notifySupported()) {
    const note = h("span", { class: "muted small", role: "status" });
    box.append(toggleLine("notify", _("A notification when it is your turn and this tab is hidden"), notifyOn(), async (on, cb) => {
      const ok = await setNotify(on);
      cb.checked = ok;
      note.textContent = on && !ok ? _("The browser does not allow notifications for this site.") : "";
    }), note);
  }
  return box;
}

/** "Kurz weg": the seat is marked away now; to the lobby (coming back takes the seat again). */
async function stepAway() {
  if (!conn?.send({ type: "away" })) { state.error = _("Not sent: no connection."); render(); return; }
  for (let i = 0; i < 10 && (conn?.ws?.bufferedAmount ?? 0) > 0; i++) await new Promise((r) => setTimeout(r, 50));
  location.href = "/";
}

/** "Tisch verlassen": for good; a bot plays the seat from now on. */
async function leaveForGood() {
  if (!confirm(_("Leave the table for good? A bot plays your seat from now on, and the games still count for you."))) return;
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}/leave`, {});
    location.href = "/";
  } catch (e) { state.error = /** @type {Error} */ (e).message; state.panel = ""; render(); }
}

/** "Ich bin wieder da". */
function comeBack() {
  if (!conn?.send({ type: "back" })) { state.error = _("Not sent: no connection."); }
  render();
}

/** The banner of a person whose seat is away or played by a stand-in. */
function awayBanner() {
  const s = ownSeat();
  if (!s || !(s.away || s.standin)) return null;
  return h("div", { class: "banner away-banner", role: "status" },
    s.standin ? _("A bot plays for you.") : _("You are marked away."), " ",
    h("button", { type: "button", class: "back-button", onclick: comeBack }, _("I am back")));
}

function menu() {
  const t = state.table;
  const box = h("div", { class: "menu" });
  if (t.game === "skat") {
    const sel = /** @type {HTMLSelectElement} */ (h("select", { id: "style" },
      ...[["german", _("German cards")], ["french4", _("French cards, four colours")], ["french2", _("French cards, two colours")]]
        .map(([v, l]) => h("option", { value: v, selected: state.style === v }, l))));
    sel.addEventListener("change", () => { state.style = sel.value; localStorage.setItem("stich.style", sel.value); render(); });
    box.append(h("label", { for: "style" }, _("Cards")), sel);
  }
  box.append(noticeSwitches());
  // the turn clock in words: per move, the reserve, what happens when both are used up
  const rule = clockRule(t);
  if (rule) box.append(h("p", { class: "small clock-rule" }, rule));
  if (state.you !== null && t.status === "running") {
    if (t.paused_by === null || t.paused_by === undefined) box.append(h("button", { type: "button", class: "secondary", onclick: () => { state.panel = ""; render(); conn?.send({ type: "pause" }); } }, _("Pause")));
    if (t.game === "skat" && !t.games) box.append(h("button", { type: "button", class: "secondary", onclick: () => conn?.send({ type: "end" }) }, _("End the list after this game")));
  }
  const own = ownSeat();
  if (own) {
    const leaving = h("div", { class: "leaving" });
    if (own.away || own.standin) leaving.append(h("button", { type: "button", class: "back-button", onclick: () => { state.panel = ""; comeBack(); } }, _("I am back")));
    else leaving.append(h("button", { type: "button", class: "secondary away-button", onclick: stepAway }, _("Back soon")),
      h("span", { class: "muted small" }, _("Your seat waits; after the grace time a bot plays for you until you are back.")));
    leaving.append(h("button", { type: "button", class: "secondary danger leave-button", onclick: leaveForGood }, _("Leave the table")));
    box.append(leaving);
  }
  box.append(h("p", {}, h("a", { href: t.game === "skat" ? `/t/${tableId}/list${inv}` : `/t/${tableId}/zettel${inv}`, target: "_blank" }, t.game === "skat" ? _("Printable list") : _("Printable Anschreibezettel"))));
  box.append(inviteBox() || "");
  if (state.creator && t.status !== "over") box.append(h("button", { type: "button", class: "secondary danger close-table", onclick: closeTable }, _("Close the table")));
  return box;
}

/** The creator ends the table now (a running game is not counted). */
async function closeTable() {
  if (!confirm(_("Close the table now? A game under way is not counted; finished games stay."))) return;
  try { await api(`/api/tables/${tableId}/close`, {}); state.panel = ""; render(); } catch (e) { state.error = String(/** @type {Error} */ (e).message); render(); }
}

/** Why a table ended before its last game, or null. @param {string|null|undefined} reason */
function endText(reason) {
  return { operator: _("The site's operator closed the table."), closed: _("The player who opened the table closed it."), abandoned: _("Nobody came back to the table, so it was closed."), expired: _("The table never started, so it was closed.") }[reason || ""] || null;
}

function pausedBanner() {
  const t = state.table;
  if (t.paused_by === null || t.paused_by === undefined) return null;
  const who = t.seats[t.paused_by]?.name || "";
  // (the time until it goes on by itself: filled in and counted down by clock.js)
  return h("div", { class: "banner paused", role: "status" }, _("{name} paused the table.", { name: who }), " ",
    h("span", { class: "pause-left" }), " ",
    state.you !== null ? h("button", { type: "button", onclick: () => conn?.send({ type: "resume" }) }, _("Resume")) : null);
}

export function render() {
  const t = state.table;
  const out = h("div", { class: "tableview" });
  if (!t) {
    out.append(h("p", { class: "muted" }, state.error || statusText()));
    root.replaceChildren(out);
    return;
  }
  livePanels(); // first: opening the chat reads its lines (the button then says so)
  out.append(topBar());
  if (t.status === "over") out.append(h("div", { class: "banner over", role: "status" }, endText(t.end_reason) || _("The table is over."), " ", h("a", { href: "/" }, _("Back to the tables"))));
  const paused = pausedBanner();
  if (paused) out.append(paused);
  if (t.idle && t.status === "running") out.append(h("div", { class: "banner paused", role: "status" }, _("Nobody was at the table, so it is paused until a player comes back.")));
  const cb = connBanner() || serviceBanner();
  if (cb) out.append(cb);
  const ab = awayBanner();
  if (ab) out.append(ab);
  const note = clockBanner(state, seatName, moveWords);
  if (note) out.append(note);
  const join = joinForm();
  if (join) out.append(join);
  if (t.status === "waiting" || !state.view) {
    out.append(waitingRoom());
  } else if (t.game === "skat") {
    out.append(renderSkat(state, { act, setSelected, seatName, ask }));
  } else {
    const wrap = h("div", { class: `bapt-wrap ${state.panel === "sheet" ? "sheet-open" : ""}` });
    wrap.append(renderBaptisten(state, { act, setSelected, seatName, chooseBid, render, send: (m) => conn?.send(m) }), sheetPanel(state));
    out.append(wrap);
  }
  const live = h("div", { class: "error-line", role: "alert", "aria-live": "assertive" }, state.error || "");
  out.append(live);
  const focused = document.activeElement?.getAttribute("data-key");
  const inTable = root.contains(document.activeElement);
  root.replaceChildren(out);
  if (focused && inTable) /** @type {HTMLElement|null} */ (root.querySelector(`[data-key="${CSS.escape(focused)}"]`))?.focus();
  syncPanel();
  focusOnTurn(inTable);
  tick();
  decorate(root, state, seatName);
  turnNotice(state);
}

/** The chat opens as a panel (js/panels.js) while `state.panel` says so (the menu: syncPanel). */
function livePanels() {
  if (state.panel === "chat") {
    openChat({ canWrite: userId !== null, send: (text) => !!conn?.chat(text),
      onClose: () => { state.panel = ""; render(); } });
  } else if (chatOpen()) hidePanel();
}

// --- panels: in view, above the table (js/panels.js) --------------------------------------

const OWN_PANELS = ["list:", "last:", "menu:", "result:", "confirm:"];

/**
 * Show the panel `state.panel` asks for (or hide ours).  Its content is built on every
 * render, but the shown panel is replaced only when that content changed (the key is
 * the content), so a table update never folds, rebuilds or scrolls it.
 */
function syncPanel() {
  const t = state.table;
  /** @type {{title: string, nodes: (HTMLElement|null)[], kind?: string, modal?: boolean, onClose?: () => void}|null} */
  let p = null;
  const skat = t?.game === "skat" && state.view && t.status !== "waiting";
  if (state.panel === "menu" && t) p = { title: _("More"), nodes: [menu()] };
  else if (state.panel === "list" && skat) p = { title: _("List"), nodes: [skatListPanel(state)] };
  else if (state.panel === "last" && skat) p = { ...lastTrickPanel(state), kind: "last" };
  else if (state.panel === "result" && skat && state.result) {
    const waiting = !!t.between && state.you !== null && !state.readySent;
    const next = () => { sayReady(); state.panel = ""; render(); };
    p = { ...resultPanel(state, { act, setSelected, seatName }, { next, waiting }), kind: "result", modal: waiting, onClose: () => sayReady() };
  } else if (state.panel === "confirm" && skat && state.confirm) {
    const back = () => { state.panel = ""; state.confirm = ""; render(); };
    p = { ...confirmLoss(state, { act, setSelected, seatName }, state.confirm, back), kind: "confirm", modal: true, onClose: () => { state.confirm = ""; } };
  }
  if (!p) {
    if (OWN_PANELS.some((k) => panelKey().startsWith(k))) hidePanel();
    return;
  }
  const nodes = /** @type {HTMLElement[]} */ (p.nodes.filter((n) => n));
  const key = `${state.panel}:` + nodes.map((n) => n.outerHTML).join("");
  const close = p.onClose;
  const opened = !panelKey().startsWith(`${state.panel}:`);
  const box = showPanel(key, p.title, () => nodes, {
    kind: p.kind, modal: p.modal,
    onClose: () => { close?.(); state.panel = ""; render(); },
  });
  // a panel just opened takes the keyboard: "Weiter" in a result, "Back" in a question,
  // else its × (Tab goes on inside it; Escape closes it)
  if (opened) {
    const first = [".result-foot .next", ".confirm-actions .secondary", ".drawer-head .close"]
      .map((q) => /** @type {HTMLElement|null} */ (box.querySelector(q))).find((e) => e);
    first?.focus({ preventScroll: true });
  }
}

/** A declaration lost for certain: asked first. @param {string} text */
function ask(text) { state.confirm = text; state.panel = "confirm"; render(); }

let turnKey = "";
/**
 * When one's turn begins (or its phase changes: pick-up, discard, announce), the first
 * thing to do gets the focus, so the keyboard starts there: unless the person is
 * elsewhere (typing, a panel open); then it waits until the panel closes.
 * @param {boolean} inTable  the focus was in the table before this render
 */
function focusOnTurn(inTable) {
  const v = state.view;
  const key = v && v.legal?.length && state.endStage !== "trick" ? `${v.phase}` : "";
  if (!key) { turnKey = ""; return; }
  if (key === turnKey || panelKey()) return;
  turnKey = key;
  const here = document.activeElement;
  if (here && here !== document.body && !inTable) return;
  const first = /** @type {HTMLElement|null} */ (root.querySelector(".actions button:not([disabled]), .hand button.card:not(.illegal)"));
  first?.focus({ preventScroll: true });
}

/** @param {string[]} sel */
function setSelected(sel) { state.selected = sel; render(); }
/** @param {number|null} b */
function chooseBid(b) { state.bidChoice = b; render(); }

/** The name at a table seat. @param {number} seat */
export function seatName(seat) {
  const s = state.table?.seats?.[seat];
  if (!s) return "?";
  return s.name || (s.kind === "free" ? _("free") : "?");
}

// number keys play cards as in the terminal: 1–9, 0 for the tenth, then the keys after
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.ctrlKey || e.metaKey || e.altKey) return;
  if (panelKey()) return; // a panel is open over the table: its keys are its own
  const keys = "1234567890qwertyuiop";
  const i = keys.indexOf(e.key.toLowerCase());
  if (i < 0) {
    if (e.key === "Escape" && state.panel && !panelKey()) { state.panel = ""; render(); }
    return;
  }
  const cards = /** @type {NodeListOf<HTMLButtonElement>} */ (root.querySelectorAll(".hand .card"));
  const c = cards[i];
  if (c) { c.focus(); c.click(); e.preventDefault(); }
});

refreshTable().then(connect);
