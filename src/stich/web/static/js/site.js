// @ts-check
/** Site-wide helpers: translations for scripts, the API, the log-out button. */

/** @type {Record<string, string>} */
const STRINGS = JSON.parse(document.getElementById("strings")?.textContent || "{}");

/**
 * A text in the page's language; `{name}` placeholders are filled from `args`.
 * @param {string} msgid  the English message id (extracted by Babel)
 * @param {Record<string, string|number>} [args]
 * @returns {string}
 */
export function _(msgid, args) {
  let s = STRINGS[msgid] || msgid;
  if (args) for (const [k, v] of Object.entries(args)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/** @returns {"de"|"en"} */
export function lang() {
  return document.documentElement.lang === "en" ? "en" : "de";
}

/**
 * Call the HTTP API.  Resolves to the JSON answer; a refusal throws an Error whose
 * message is the server's text (in the page's language) and whose `code` is its code.
 * @param {string} path
 * @param {unknown} [body]  sent as JSON with POST when given
 * @returns {Promise<any>}
 */
export async function api(path, body) {
  const sep = path.includes("?") ? "&" : "?";
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  };
  const r = await fetch(`${path}${sep}lang=${lang()}`, { credentials: "same-origin", ...init });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const err = new Error(data?.error?.text || `${r.status}`);
    /** @type {any} */ (err).code = data?.error?.code;
    throw err;
  }
  return data;
}

/**
 * Where to go for an address that came from the URL or from the server (`?next=` after
 * logging in, a new table's `invite_path`, a seat's `path`): its absolute address when
 * it is a path of this site, else the lobby's.  The value is resolved as the browser
 * itself would resolve it (`new URL(given, location.origin)`: tabs and newlines dropped,
 * leading spaces trimmed, `\` read as `/`, the segments `.`, `..`, `%2e` taken out), so
 * `//host`, `/\host`, `/.//host`, `/..//host`, `/%2e//host`, `/./<TAB>/host` and
 * `https:host` all are another site's, and so is a resolved path that starts with `//`
 * or holds an encoded slash or backslash; only a value that starts with `/` counts at
 * all (`javascript:`, `data:` never).  The answer is always absolute
 * (`https://this.site/…`): never a string a browser could read as another host.
 * @param {string|null|undefined} given
 * @returns {string}
 */
export function siteHref(given) {
  const home = new URL("/", location.origin).href;
  if (typeof given !== "string" || !given.startsWith("/")) return home;
  /** @type {URL} */
  let url;
  try { url = new URL(given, location.origin); } catch { return home; }
  if (url.origin !== location.origin || !/^https?:$/.test(url.protocol)) return home;
  if (url.pathname.startsWith("//") || /%2f|%5c/i.test(url.pathname)) return home;
  return url.href;
}

/**
 * An element with attributes and children (text or nodes).
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node|string|null|undefined|false)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "html") el.innerHTML = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/**
 * The site's bot icon (`/static/icons/bot.svg`, class `bot-icon`: as high as the text
 * around it), for every place that marks a bot: never the 🤖 emoji, which is an empty box
 * where a machine has no emoji font.  Put a space (or a word) between it and a name:
 * `h("span", {}, name, " ", botIcon())`.  Screen readers read `label` (default "Bot").
 * @param {string} [label]
 * @returns {HTMLImageElement}
 */
export function botIcon(label) {
  return /** @type {HTMLImageElement} */ (h("img", { class: "bot-icon", src: "/static/icons/bot.svg", alt: label || _("bot"), width: 16, height: 16 }));
}

/**
 * The bot levels the pages offer for a seat of a game's table, strongest first, each with
 * its words: at a free seat of the table (`seat`: "Bot: …") and in the lobby's choice of a
 * new table's seats (`choice`: "bot: …", after "me" and "a person").  A level of one game
 * only (`game`: Skat's learned bot) is offered at that game's tables.  The browser's one
 * list of the levels, a copy of the server's (`stich.bots.levels`):
 * tests/web/test_bot_choices.py keeps the two in step.  A function, so that the words
 * come in the page's language.
 * @param {string} game
 * @returns {{level: string, seat: string, choice: string, game?: string}[]}
 */
export function botLevels(game) {
  return [
    { level: "strong", seat: _("Bot: strong (search)"), choice: _("bot: strong (search)") },
    { level: "easy", seat: _("Bot: rule-based"), choice: _("bot: rule-based") },
    { level: "learned", seat: _("Bot: learned (trained network)"), choice: _("bot: learned (trained network)"), game: "skat" },
    { level: "random", seat: _("Bot: random"), choice: _("bot: random") },
  ].filter((b) => !b.game || b.game === game);
}

document.getElementById("logout")?.addEventListener("click", async () => {
  await api("/api/logout", {}).catch(() => undefined);
  location.href = "/";
});

/**
 * "You still sit at table X": a banner with the way back to each running table where
 * the logged-in person sits (GET /api/me/seats), on every page but that table's own.
 * Filled with text nodes only.
 */
async function seatedBanner() {
  const box = document.getElementById("seated");
  if (!box || !document.querySelector(".top .me")) return;  // nobody logged in
  /** @type {{seats: {id: string, title: string, to_move: boolean, path: string}[]}} */
  let data;
  try {
    data = await api("/api/me/seats");
  } catch {
    return;
  }
  const here = location.pathname;
  const seats = (data.seats || []).filter((s) => here !== s.path);
  box.replaceChildren(...seats.map((s) => h("p", { class: "seated" },
    _("You still sit at the table “{table}”", { table: s.title }),
    s.to_move ? h("b", {}, " · " + _("it is your turn there")) : null, " – ",
    h("a", { href: siteHref(s.path) }, _("go back to the table")))));
  box.hidden = seats.length === 0;
}

seatedBanner();
