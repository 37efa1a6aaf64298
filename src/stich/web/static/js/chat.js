// @ts-check
/**
 * The table chat: the lines kept with the table (the welcome brings the last ones, then
 * `chat` events), behind a button with the number of unread lines, opened as a panel
 * (js/panels.js); quick phrases; a line from somebody else shows briefly over the table
 * while the chat is closed.  A line is text and only text: it is set with `textContent`
 * (through `h()`), never parsed as HTML.  Anonymous watchers read but do not write.
 */
import { _, h } from "./site.js";
import { hidePanel, panelKey, showPanel } from "./panels.js";

/** @typedef {{seq: number, seat: number|null, name: string, text: string}} Line */

const KEEP = 200;
/** @type {Line[]} */
export const lines = [];
let unread = 0;
/** the element that lists the lines while the panel is open (kept, appended to) */
/** @type {HTMLElement|null} */
let list = null;
/** @type {HTMLElement|null} */
let note = null;
/** @type {HTMLElement|null} */
let toast = null;
/** @type {number|undefined} */
let toastTimer = undefined;
let sentAt = 0;

/** The quick phrases (in the page's language: they are sent as written). */
function phrases() {
  return [_("Well played"), _("Lucky you"), _("One moment, please"), _("Thanks")];
}

/** The number of lines not yet seen. */
export function unreadCount() { return unread; }

/** Whether the chat panel is open. */
export function chatOpen() { return panelKey() === "chat"; }

/** The lines a welcome or snapshot brought (replacing what was there). @param {any} got */
export function setLines(got) {
  if (!Array.isArray(got)) return;
  const seen = new Set(lines.map((l) => l.seq));
  for (const l of got) {
    if (!l || typeof l.text !== "string" || seen.has(l.seq)) continue;
    lines.push({ seq: Number(l.seq), seat: l.seat ?? null, name: String(l.name ?? ""), text: l.text });
  }
  lines.sort((a, b) => a.seq - b.seq);
  lines.splice(0, Math.max(0, lines.length - KEEP));
  if (list) fillList();
}

/**
 * A `chat` event.  Returns true when it is new.
 * @param {import("./net.js").EventMsg} m @param {number|null} you
 */
export function addLine(m, you) {
  const d = m.data || {};
  if (typeof d.text !== "string" || lines.some((l) => l.seq === m.seq)) return false;
  const line = { seq: m.seq, seat: m.seat ?? null, name: String(d.name ?? ""), text: d.text };
  lines.push(line);
  lines.splice(0, Math.max(0, lines.length - KEEP));
  const mine = you !== null && m.seat === you;
  if (chatOpen() && list) {
    list.querySelector(".empty")?.remove(); // "No messages yet." goes with the first line
    list.append(lineEl(line));
    list.lastElementChild?.scrollIntoView({ block: "nearest" });
  } else if (!mine) {
    unread += 1;
    showToast(line);
  }
  return true;
}

/** @param {Line} l */
function lineEl(l) {
  return h("li", { class: "chat-line" }, h("strong", { class: "who" }, l.name || _("watcher")), " ",
    h("span", { class: "text" }, l.text));
}

function fillList() {
  if (!list) return;
  list.replaceChildren(...lines.map(lineEl));
  if (!lines.length) list.append(h("li", { class: "muted empty" }, _("No messages yet.")));
}

/** A line over the table for a few seconds (while the chat is closed). @param {Line} l */
function showToast(l) {
  if (!toast) {
    toast = h("div", { class: "chat-toast", role: "status", "aria-live": "polite" });
    document.body.append(toast);
  }
  toast.replaceChildren(h("strong", {}, l.name || _("watcher")), ": ", l.text);
  toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => { if (toast) toast.hidden = true; }, 6000);
}

/**
 * The chat button for the table's bar.
 * @param {() => void} open
 */
export function chatButton(open) {
  const label = unread ? _("Chat, {n} unread", { n: unread }) : _("Chat");
  return h("button", { type: "button", class: "secondary chat-button", "aria-label": label,
    "aria-pressed": String(chatOpen()), onclick: open },
  _("Chat"), unread ? h("span", { class: "unread", "aria-hidden": "true" }, String(unread)) : null);
}

/**
 * Open the chat panel.
 * @param {{canWrite: boolean, send: (text: string) => boolean, onClose: () => void}} o
 */
export function openChat(o) {
  unread = 0;
  if (toast) toast.hidden = true;
  showPanel("chat", _("Chat"), () => {
    list = h("ol", { class: "chat-lines", "aria-live": "polite" });
    fillList();
    note = h("p", { class: "chat-note", role: "status" });
    if (!o.canWrite) {
      return [list, h("p", { class: "muted" }, h("a", { href: `/login?next=${encodeURIComponent(location.pathname + location.search)}` }, _("Log in to write.")))];
    }
    const input = /** @type {HTMLInputElement} */ (h("input", { name: "text", maxlength: 200, autocomplete: "off",
      "aria-label": _("Your message"), placeholder: _("Your message"), enterkeyhint: "send" }));
    const say = (/** @type {string} */ text) => {
      const t = text.trim();
      if (!t) return;
      if (o.send(t)) { sentAt = Date.now(); input.value = ""; setNote(""); }
      else setNote(_("Not sent: no connection."));
    };
    const form = h("form", { class: "chat-form", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); say(input.value); } },
      input, h("button", { type: "submit" }, _("Send")));
    const quick = h("div", { class: "chat-quick", role: "group", "aria-label": _("Quick phrases") },
      ...phrases().map((p) => h("button", { type: "button", class: "secondary", onclick: () => say(p) }, p)));
    return [list, quick, form, note];
  }, { kind: "chat", onClose: () => { list = null; note = null; o.onClose(); } });
  list?.lastElementChild?.scrollIntoView({ block: "nearest" });
}

/** Close the chat panel (if it is the one shown). */
export function closeChat() { if (chatOpen()) hidePanel(); list = null; note = null; }

/** A word under the chat's form ("not sent", the server's refusal). @param {string} text */
function setNote(text) { if (note) note.textContent = text; }

/**
 * A refusal from the server right after a line was sent is the chat's (too many lines,
 * anonymous): shown in the chat too.  Returns whether it was taken as the chat's.
 * @param {import("./net.js").ErrorMsg} m
 */
export function chatRefused(m) {
  if (!chatOpen() || Date.now() - sentAt > 4000 || !/chat|rate|too_many|pace|slow/.test(m.code || "")) return false;
  setNote(m.text);
  return true;
}
