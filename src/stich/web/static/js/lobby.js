// @ts-check
/**
 * The lobby: logging in (or playing as a guest), the open tables, and a new table with
 * every option the server offers.  Everything goes through the HTTP API.
 */
import { _, api, botIcon, botLevels, h, siteHref } from "./site.js";
import { clockRule } from "./clock.js";

/**
 * The Skat rules: short names in the list (a phone's select shows one line), what they
 * mean below it.
 * @returns {{el: HTMLElement, sel: HTMLSelectElement}}
 */
function rulesField() {
  const about = { lothar: _("Lothar's table (ISkO with house rules, Ramsch when all pass)"), isko: _("ISkO (official rules)") };
  const note = h("small", { class: "muted rules-note" }, about.lothar);
  const sel = /** @type {HTMLSelectElement} */ (h("select", { name: "preset", "aria-describedby": "rules-note" },
    h("option", { value: "lothar" }, _("Lothar's rules")), h("option", { value: "isko" }, "ISkO")));
  note.id = "rules-note";
  const explain = () => { note.textContent = about[/** @type {"lothar"|"isko"} */ (sel.value)] || ""; };
  sel.addEventListener("change", explain);
  sel.addEventListener("rules:set", explain);
  return { el: h("label", {}, _("Rules"), " ", sel, note), sel };
}

/**
 * The house rules on top of the preset: every rule the server offers (GET /api/rules/skat:
 * its words, choices and a help text each, in the page's language), all off at first.
 * `rules()` is the rule string the form sends (null: the preset alone); the line under
 * them names the rules in the server's words, or says why the engine refuses them.
 * @param {HTMLSelectElement} preset
 */
function houseRules(preset) {
  const words = h("p", { class: "rules-words", id: "rules-words", "aria-live": "polite" });
  const problem = h("div", { id: "rules-problem", "aria-live": "polite" });
  const summary = h("summary", {}, _("House rules"), " ", h("span", { class: "muted", id: "house-count" }, ""));
  const box = h("details", { class: "house-rules", id: "house-rules" }, summary);
  /** @type {{name: string, kind: string, default: string, get: () => string, set: (v: string) => void}[]} */
  const controls = [];
  /** @type {((v: string) => void)|null} */
  let changed = null;

  /** @returns {string|null} */
  const rules = () => {
    const parts = controls.filter((c) => c.get() !== c.default).map((c) => `${c.name}=${c.get() || "no"}`);
    return parts.length ? `skat(preset=${preset.value},${parts.join(",")})` : null;
  };
  let asked = 0;
  const update = async () => {
    const text = rules();
    const on = controls.filter((c) => c.get() !== c.default).length;
    /** @type {HTMLElement} */ (summary.querySelector("#house-count")).textContent = on ? `(${on})` : _("(none)");
    const mine = ++asked;
    if (text === null) {
      words.textContent = _("Rules:") + " " + (preset.value === "isko" ? "ISkO" : _("Lothar's rules"));
      problem.replaceChildren();
      return;
    }
    try {
      const r = await api(`/api/rules/skat/words?rules=${encodeURIComponent(text)}`);
      if (mine !== asked) return;
      words.textContent = _("Rules:") + " " + r.words;
      problem.replaceChildren();
    } catch (x) {
      if (mine !== asked) return;
      words.textContent = "";
      problem.replaceChildren(errorLine(/** @type {Error} */ (x).message));
    }
  };
  preset.addEventListener("change", update);

  api("/api/rules/skat").then((cat) => {
    for (const f of cat.fields) {
      const help = h("small", { class: "muted house-help", id: `help-${f.name}` }, f.help);
      if (f.kind === "yes_no") {
        const box_ = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id: `rule-${f.name}`, "aria-describedby": `help-${f.name}`, checked: f.default === "yes" }));
        box_.addEventListener("change", update);
        controls.push({ name: f.name, kind: f.kind, default: f.default, get: () => (box_.checked ? "yes" : "no"), set: (v) => { box_.checked = v === "yes"; } });
        box.append(h("label", {}, box_, " ", f.label), help);
      } else if (f.kind === "choice") {
        const sel = /** @type {HTMLSelectElement} */ (h("select", { id: `rule-${f.name}`, "aria-describedby": `help-${f.name}` },
          ...f.choices.map((/** @type {any} */ c) => h("option", { value: c.value, selected: c.value === f.default }, c.label))));
        sel.addEventListener("change", update);
        controls.push({ name: f.name, kind: f.kind, default: f.default, get: () => sel.value, set: (v) => { sel.value = v; } });
        box.append(h("label", { for: `rule-${f.name}` }, f.label), sel, help);
      } else if (f.kind === "number") {
        const num = /** @type {HTMLInputElement} */ (h("input", { type: "number", id: `rule-${f.name}`, min: f.min, max: f.max, value: f.default, "aria-describedby": `help-${f.name}` }));
        num.addEventListener("change", update);
        controls.push({ name: f.name, kind: f.kind, default: f.default, get: () => String(Number(num.value) || 0), set: (v) => { num.value = v; } });
        box.append(h("label", { for: `rule-${f.name}` }, f.label), num, help);
      } else if (f.kind === "events") {
        const checks = f.choices.map((/** @type {any} */ c) => {
          const cb = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", value: c.value, id: `rule-${f.name}-${c.value}` }));
          cb.addEventListener("change", update);
          return { cb, label: h("label", { title: c.help }, cb, " ", c.label) };
        });
        controls.push({ name: f.name, kind: f.kind, default: f.default,
          get: () => checks.filter((c) => c.cb.checked).map((c) => c.cb.value).join("+"),
          set: (v) => { const on = v.split("+"); for (const c of checks) c.cb.checked = on.includes(c.cb.value); } });
        box.append(h("fieldset", { class: "bock-events", id: `rule-${f.name}` }, h("legend", {}, f.label), help, ...checks.map((c) => c.label)));
      }
    }
    box.append(words, problem);
    update();
  }).catch((x) => { box.append(errorLine(/** @type {Error} */ (x).message)); });

  return {
    el: box, rules, words,
    /** Show a rule set's values (the server's `fields`, as the rule string writes them). @param {string} base @param {Record<string, string>} fields */
    show(base, fields) {
      preset.value = base;
      preset.dispatchEvent(new Event("rules:set"));
      for (const c of controls) c.set(fields[c.name] ?? c.default);
      if (controls.some((c) => c.get() !== c.default)) /** @type {HTMLDetailsElement} */ (box).open = true;
      update();
    },
  };
}

/**
 * A registered player's named rule sets (GET/POST /api/me/rule-sets): pick one to fill
 * the form, save the current choice under a name, delete the one picked.  A guest sees
 * the same controls; saving tells him the server's answer (only registered players).
 * @param {ReturnType<typeof houseRules>} house
 * @param {HTMLSelectElement} preset
 */
function ruleSets(house, preset) {
  const msg = h("div", { class: "rule-set-msg", id: "rule-set-msg", "aria-live": "polite" });
  const pick = /** @type {HTMLSelectElement} */ (h("select", { id: "rule_set" }, h("option", { value: "" }, "—")));
  const name = /** @type {HTMLInputElement} */ (h("input", { id: "rule_set_name", maxlength: 40, placeholder: _("e.g. Skatclub Eiche"), autocomplete: "off" }));
  /** @type {any[]} */
  let sets = [];
  const say = (/** @type {string} */ text, /** @type {boolean} */ bad) => {
    msg.replaceChildren(bad ? errorLine(text) : h("p", { class: "ok", role: "status" }, text));
  };
  const load = async (/** @type {number|null} */ chosen) => {
    try {
      sets = (await api("/api/me/rule-sets")).rule_sets;
    } catch { sets = []; }
    pick.replaceChildren(h("option", { value: "" }, sets.length ? _("— choose —") : _("none saved yet")),
      ...sets.map((s) => h("option", { value: s.id, selected: s.id === chosen, title: s.words }, s.name)));
    del.hidden = !pick.value;
  };
  pick.addEventListener("change", () => {
    const s = sets.find((x) => String(x.id) === pick.value);
    del.hidden = !s;
    if (!s) return;
    house.show(s.base, s.fields);
    name.value = s.name;
    say(_("Rules of “{name}”: {words}", { name: s.name, words: s.words }), false);
  });
  const save = h("button", { type: "button", id: "save_rule_set", class: "secondary", onclick: async () => {
    try {
      const r = await api("/api/me/rule-sets", { name: name.value, rules: house.rules() || `skat(preset=${preset.value})` });
      await load(r.rule_set.id);
      say(r.replaced ? _("“{name}” now has these rules.", { name: r.rule_set.name }) : _("Saved as “{name}”.", { name: r.rule_set.name }), false);
    } catch (x) { say(/** @type {Error} */ (x).message, true); }
  } }, _("Save"));
  const del = h("button", { type: "button", id: "delete_rule_set", class: "secondary", hidden: true, onclick: async () => {
    const s = sets.find((x) => String(x.id) === pick.value);
    if (!s) return;
    try {
      await api("/api/me/rule-sets/delete", { id: s.id });
      await load(null);
      say(_("“{name}” is deleted.", { name: s.name }), false);
    } catch (x) { say(/** @type {Error} */ (x).message, true); }
  } }, _("Delete"));
  load(null);
  return h("fieldset", { class: "rule-sets", id: "rule-sets" }, h("legend", {}, _("Your rule sets")),
    h("div", { class: "row" }, h("label", { for: "rule_set" }, _("Saved rules"), pick), del),
    h("div", { class: "row" }, h("label", { for: "rule_set_name" }, _("Save these rules as"), name), save),
    msg);
}

const root = /** @type {HTMLElement} */ (document.getElementById("lobby"));
const loggedIn = root.dataset.user === "yes";
/** where to go after logging in: a path of this site (`siteHref`), never another site */
const next = siteHref(new URLSearchParams(location.search).get("next"));

/** the server's defaults of a new table (docs/server.md): seconds per move on a public and
 * on a private table, seconds a result shows before the table goes on, the reserve (`bank`)
 * per game or round (the form does not send it) */
const CLOCK_PUBLIC = 30, CLOCK_PRIVATE = 0, NEXT_AFTER = 10, BANK = 60;

/** @param {string} msg */
function errorLine(msg) { return h("p", { class: "error", role: "alert" }, msg); }

function authBox() {
  const box = h("section", { class: "panel auth grid2" });
  /**
   * @param {string} title @param {string} path @param {boolean} password @param {string} submit @param {string} id
   */
  const form = (title, path, password, submit, id) => {
    const err = h("div", { "aria-live": "polite" });
    const f = h("form", { id, onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      const data = new FormData(/** @type {HTMLFormElement} */ (f));
      const body = /** @type {any} */ ({ name: String(data.get("name") || "").trim() });
      if (password) body.password = String(data.get("password") || "");
      try {
        await api(path, body);
        location.href = next;
      } catch (x) { err.replaceChildren(errorLine(/** @type {Error} */ (x).message)); }
    } },
      h("h2", {}, title),
      h("label", {}, _("Name"), h("br"), h("input", { name: "name", required: true, maxlength: 24, autocomplete: "username" })),
      password ? h("label", {}, _("Password"), h("br"), h("input", { name: "password", type: "password", required: true, autocomplete: path.endsWith("register") ? "new-password" : "current-password" })) : null,
      h("button", { type: "submit" }, submit), err);
    return f;
  };
  box.append(form(_("Log in"), "/api/login", true, _("Log in"), "login"),
    form(_("Register"), "/api/register", true, _("Register"), "register"),
    form(_("Play as a guest"), "/api/guest", false, _("Play as a guest"), "guest"));
  box.append(h("p", { class: "muted" }, _("A guest plays under a name only. To keep the games, register later on your account page (your name at the top).")));
  return box;
}

/** @param {any} t */
function tableRow(t) {
  // how many seats ("4 Plätze"; at a Skat table of four, where the dealer sits each game
  // out, "Geber sieht alles" when he sees every hand), then each seat as "Anna",
  // "Kurt <bot icon>", "frei", between commas
  const size = h("span", { class: "seat-count" }, _("{n} seats", { n: t.seat_count ?? t.seats.length }));
  if (t.dealer_sees === "all") size.append(" · ", h("span", { class: "dealer-sees" }, _("dealer sees all")));
  // a table that ends a game once its rest is certain (the table setting "shortcut")
  if (t.shortcut) size.append(" · ", h("span", { class: "shortcut" }, _("finishes early")));
  const seats = h("span", { class: "seat-names" });
  t.seats.forEach((/** @type {any} */ s, /** @type {number} */ i) => {
    if (i) seats.append(", ");
    // a person's seat a stand-in plays (she left for good, or is away): the bot's now
    if (s.kind === "person" && (s.standin || s.quit)) seats.append(h("span", { class: "standin-name" }, _("Bot for {name}", { name: s.name }), " ", botIcon()));
    else seats.append(s.kind === "free" ? _("free") : s.name);
    if (s.kind === "bot") seats.append(" ", botIcon());
  });
  // Skat: the rules in words (the server's; short on a phone) and the games
  const count = t.scoring === "seeger" ? _("Preisskat ({n} games)", { n: t.games })
    : t.games ? _("{n} games", { n: t.games }) : _("open-ended");
  const what = t.game !== "skat" ? "Baptistenskat"
    : t.rules_words ? h("span", { class: "rules-of-table" }, "Skat (", h("span", { class: "rules-long" }, t.rules_words),
      h("span", { class: "rules-short" }, t.rules_short || t.rules_words), ", " + count + ")")
      : "Skat (" + (t.rules.includes("isko") ? "ISkO" : "Lothar") + ", " + count + ")";
  return h("tr", {}, h("td", {}, what), h("td", {}, size, seats),
    h("td", {}, t.status === "waiting" ? _("waiting") : _("playing")),
    h("td", {}, h("a", { class: "button secondary", href: `/t/${t.id}` }, t.status === "waiting" && t.free ? _("Join") : _("Watch"))));
}

/** The open tables: the box at once, its rows when the server answers (on a phone each
 * row is a block of its own, class `pg-stack`: site.css). */
function tablesBox() {
  const box = h("section", { class: "panel", id: "tables" }, h("h2", {}, _("Open tables")));
  api("/api/tables?status=open").then((r) => {
    if (!r.tables.length) box.append(h("p", { class: "muted" }, _("No open tables. Start one!")));
    else box.append(h("div", { class: "scroll" }, h("table", { class: "data open-tables pg-stack" },
      h("thead", {}, h("tr", {}, h("th", {}, _("Game")), h("th", {}, _("Seats")), h("th", {}, _("Status")), h("th", {}, ""))),
      h("tbody", {}, ...r.tables.map(tableRow)))));
  }).catch((x) => { box.append(errorLine(/** @type {Error} */ (x).message)); });
  return box;
}

/** A seat chooser at a table of `game`: me, a person (invite), or a bot of the game's levels.
 * @param {number} i @param {string} value @param {string} game */
function seatSelect(i, value, game) {
  return h("select", { name: `seat${i}`, "aria-label": _("Seat {n}", { n: i + 1 }) },
    ...[["me", _("me")], ["person", _("a person (invite)")], ...botLevels(game).map((b) => ["bot:" + b.level, b.choice])]
      .map(([v, l]) => h("option", { value: v, selected: v === value }, l)));
}

function createBox() {
  const err = h("div", { "aria-live": "polite" });
  const f = /** @type {HTMLFormElement} */ (h("form", { class: "panel create", id: "create" }));
  const game = /** @type {HTMLSelectElement} */ (h("select", { name: "game", id: "game" },
    h("option", { value: "skat" }, "Skat"), h("option", { value: "baptisten" }, "Baptistenskat")));
  // three at the table, or four: then the dealer sits each game out, and the table says
  // what he sees of it (nothing, as the default, or every hand)
  const skatPlayers = /** @type {HTMLSelectElement} */ (h("select", { name: "skat_players", id: "skat_players" },
    h("option", { value: 3 }, "3"), h("option", { value: 4 }, _("4 (the dealer sits out)"))));
  const skatGames = /** @type {HTMLSelectElement} */ (h("select", { name: "games" }));
  const fourth = seatSelect(3, "bot:easy", "skat");
  const dealerSees = /** @type {HTMLSelectElement} */ (h("select", { name: "dealer_sees", id: "dealer_sees" },
    h("option", { value: "nothing" }, _("nothing (like a spectator)")), h("option", { value: "all" }, _("every hand"))));
  const dealerSeesLabel = h("label", { for: "dealer_sees" }, _("The dealer who sits out sees"));
  // how the list is scored: the classic list, or the Preisskat list (Seeger-Fabian: a
  // series of a multiple of the seats, 36 games at three and 48 at four by default)
  const scoring = /** @type {HTMLSelectElement} */ (h("select", { name: "scoring", id: "scoring", "aria-describedby": "scoring-help" },
    h("option", { value: "list" }, _("Skat list")), h("option", { value: "seeger" }, _("Preisskat (Seeger-Fabian)"))));
  const scoringHelp = h("p", { class: "muted small scoring-help", id: "scoring-help" });
  let preisskatDefault = true;  // the series' length follows the seats until chosen
  skatGames.addEventListener("change", () => { preisskatDefault = false; });
  const fitSkat = (/** @type {boolean} */ scoringChanged = false) => {
    const n = Number(skatPlayers.value);
    const seeger = scoring.value === "seeger";
    const old = Number(skatGames.value || 36);
    const counts = n === 4 ? [4, 8, 12, 16, 24, 32, 48] : [3, 6, 9, 12, 18, 24, 36, 48];
    const pick = seeger && (scoringChanged || preisskatDefault || !counts.includes(old)) ? (n === 4 ? 48 : 36)
      : counts.includes(old) ? old : n === 4 ? 32 : 36;
    skatGames.replaceChildren(...counts.map((c) => h("option", { value: c, selected: c === pick }, String(c))),
      // an open-ended list has no series' result: not for Preisskat
      ...(seeger ? [] : [h("option", { value: 0, selected: old === 0 }, _("open-ended"))]));
    scoringHelp.textContent = seeger
      ? _("Preisskat, as clubs and tournaments score (DSkV): your list points, plus 50 for every game you win as declarer, minus 50 for every game you lose, and {k} for every game another player at the table loses. A series of {n} games by default.", { k: n === 4 ? 30 : 40, n: n === 4 ? 48 : 36 })
      : _("The classic list: your points and the Bilanz against the others.");
    fourth.hidden = n !== 4;
    dealerSees.hidden = dealerSeesLabel.hidden = n !== 4;
  };
  skatPlayers.addEventListener("change", () => fitSkat());
  scoring.addEventListener("change", () => fitSkat(true));
  fitSkat();
  const rulesPick = rulesField();
  const house = houseRules(rulesPick.sel);
  const skat = h("fieldset", { class: "for-skat" }, h("legend", {}, "Skat"),
    rulesPick.el, house.el, ruleSets(house, rulesPick.sel),
    h("label", { for: "skat_players" }, _("Players at the table")), skatPlayers,
    h("label", { for: "scoring" }, _("Scoring")), scoring, scoringHelp,
    h("label", {}, _("Games"), " ", skatGames),
    h("p", { class: "muted" }, _("The seats, in playing order:")),
    h("div", { class: "row seats3" }, seatSelect(0, "me", "skat"), seatSelect(1, "bot:easy", "skat"), seatSelect(2, "bot:easy", "skat"), fourth),
    dealerSeesLabel, dealerSees,
    // the table ends a game once its remaining tricks all go to one side (XSkat's -shortcut)
    h("label", {}, h("input", { type: "checkbox", name: "shortcut", id: "shortcut", "aria-describedby": "shortcut-help" }),
      " ", _("Finish early when the rest is certain")),
    h("p", { class: "muted small", id: "shortcut-help" },
      _("When every remaining trick goes to one side whatever anyone plays, the game ends at once and the rest counts for that side.")));
  const count = /** @type {HTMLInputElement} */ (h("input", { type: "number", name: "players", min: 3, max: 15, value: 4, id: "players" }));
  const bseats = h("div", { class: "row bseats-choose" });
  const drawSeats = () => {
    const n = players();
    const old = [...bseats.querySelectorAll("select")].map((s) => /** @type {HTMLSelectElement} */ (s).value);
    bseats.replaceChildren(...Array.from({ length: n }, (_x, i) => seatSelect(i, old[i] || (i === 0 ? "me" : "bot:easy"), "baptisten")));
  };
  const players = () => Math.max(3, Math.min(15, Number(count.value) || 4));
  // the decks with their cards and the players they take (cards ÷ 7, the seed text's rule)
  const decks = /** @type {[string, string, number][]} */ ([
    ["", _("as the rules say (Elfer raus)"), 80], ["elferraus", _("Elfer raus (80 cards)"), 80],
    ["romme", _("Rommé (52 cards)"), 52], ["romme-double-joker", _("double Rommé with joker (105 cards)"), 105],
    ["skat", _("Skat (32 cards)"), 32]]);
  const most = (/** @type {number} */ cards) => Math.min(15, Math.floor(cards / 7));
  const deck = /** @type {HTMLSelectElement} */ (h("select", { name: "deck", id: "deck" },
    ...decks.map(([v, l, c]) => h("option", { value: v, "data-cards": c }, l + " · " + _("up to {n} players", { n: most(c) })))));
  const maxCards = /** @type {HTMLInputElement} */ (h("input", { type: "number", name: "max_cards", id: "max_cards", min: 1, max: 60 }));
  const deckNote = h("p", { class: "muted deck-note", "aria-live": "polite" });
  /** Only the decks that take this many players; a deck that does not is replaced by one that does. */
  const fitDeck = (/** @type {boolean} */ byCount) => {
    const n = players();
    for (const o of /** @type {HTMLOptionElement[]} */ ([...deck.options])) o.disabled = most(Number(o.dataset.cards)) < n;
    const chosen = /** @type {HTMLOptionElement} */ (deck.selectedOptions[0]);
    if (chosen.disabled) {
      const fits = /** @type {HTMLOptionElement[]} */ ([...deck.options]).filter((o) => !o.disabled)
        .sort((a, b) => (a.value === "" ? -1 : b.value === "" ? 1 : Number(a.dataset.cards) - Number(b.dataset.cards)));
      if (fits.length) deck.value = fits[0].value;
    }
    const cards = Number(/** @type {HTMLOptionElement} */ (deck.selectedOptions[0]).dataset.cards);
    maxCards.max = String(Math.max(1, Math.floor(cards / n)));
    maxCards.placeholder = _("up to {n}", { n: maxCards.max });
    deckNote.textContent = chosen.disabled && byCount
      ? _("{n} players need more cards: the deck is now {deck}.", { n, deck: (decks.find((d) => d[0] === (deck.value || "elferraus")) || decks[0])[1] })
      : "";
  };
  count.addEventListener("input", () => { drawSeats(); fitDeck(true); });
  deck.addEventListener("change", () => fitDeck(false));
  drawSeats();
  fitDeck(false);
  const bapt = h("fieldset", { class: "for-baptisten", hidden: true }, h("legend", {}, "Baptistenskat"),
    h("label", {}, _("Players (3–15)"), " ", count),
    h("label", { for: "deck" }, _("Deck")), deck, deckNote,
    h("label", {}, _("Most cards in a round (N; empty: as many as the deck allows)"), " ", maxCards),
    h("fieldset", {}, h("legend", {}, _("Variants")),
      ...[[2, _("2: forehead rounds (one card: you see everybody's but your own)")],
        [3, _("3: trick scoring")], [4, _("4: the hook rule in every round")], [5, _("5: must overtrump")]]
        .map(([v, l]) => h("label", {}, h("input", { type: "checkbox", name: "variants", value: v }), " ", l))),
    h("p", { class: "muted" }, _("Variant 1 is the double deck: choose it above.")),
    h("p", { class: "muted" }, _("The seats, in playing order:")),
    bseats);
  game.addEventListener("change", () => {
    skat.hidden = game.value !== "skat";
    bapt.hidden = game.value === "skat";
  });
  const pub = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", name: "public", checked: true }));
  // thinking time per move: on for public tables, off for friends (until the person chooses)
  const clock = /** @type {HTMLSelectElement} */ (h("select", { name: "clock", id: "clock", "aria-describedby": "clock-help" },
    ...[[0, _("off")], [20, _("{n} s", { n: 20 })], [30, _("{n} s", { n: 30 })], [60, _("{n} s", { n: 60 })]]
      .map(([v, l]) => h("option", { value: v, selected: v === CLOCK_PUBLIC }, l))));
  let clockChosen = false;
  clock.addEventListener("change", () => { clockChosen = true; });
  pub.addEventListener("change", () => { if (!clockChosen) clock.value = String(pub.checked ? CLOCK_PUBLIC : CLOCK_PRIVATE); });
  // what the thinking time means (a move's time plus a reserve), in words under it
  const clockHelp = h("p", { class: "muted small clock-help", id: "clock-help" });
  const explainClock = () => { clockHelp.textContent = clockRule({ clock: Number(clock.value), bank: BANK, game: game.value }); };
  for (const el of [clock, pub, game]) el.addEventListener("change", explainClock);
  explainClock();
  const nextAfter = /** @type {HTMLSelectElement} */ (h("select", { name: "next_after", id: "next_after" },
    ...[[5, _("{n} s", { n: 5 })], [10, _("{n} s", { n: 10 })], [20, _("{n} s", { n: 20 })], [120, _("until everybody goes on (at most 2 min)")]]
      .map(([v, l]) => h("option", { value: v, selected: v === NEXT_AFTER }, l))));
  const more = h("fieldset", {}, h("legend", {}, _("Table")),
    h("label", {}, pub, " ", _("public (listed in the lobby; otherwise only by the invite link)")),
    h("label", {}, h("input", { type: "checkbox", name: "show_hands" }), " ", _("spectators see every hand")),
    h("label", { for: "clock" }, _("Thinking time per move")), clock, clockHelp,
    h("label", { for: "next_after" }, _("Show the result")), nextAfter,
    h("label", {}, _("Grace time before a bot stands in (seconds)"), " ", h("input", { type: "number", name: "grace", min: 5, max: 3600, value: 60 })));
  f.append(h("h2", {}, _("New table")), h("label", { for: "game" }, _("Game")), game, skat, bapt, more,
    h("button", { type: "submit" }, _("Open the table")), err);
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    const d = new FormData(f);
    const isSkat = d.get("game") === "skat";
    /** @type {any} */
    const body = { game: d.get("game"), public: d.get("public") === "on", show_hands: d.get("show_hands") === "on",
      grace: Number(d.get("grace") || 60) };
    // the thinking time and how long a result shows: sent when they differ from what the
    // server does unasked (a server without them keeps working for the defaults)
    const clockS = Number(d.get("clock")), nextS = Number(d.get("next_after"));
    if (clockS !== (body.public ? CLOCK_PUBLIC : CLOCK_PRIVATE)) body.clock = clockS;
    if (nextS !== NEXT_AFTER) body.next_after = nextS;
    const scope = isSkat ? skat : bapt;
    body.seats = [...scope.querySelectorAll("select[name^=seat]")].filter((s) => !s.hidden)
      .map((s) => /** @type {HTMLSelectElement} */ (s).value);
    if (isSkat) {
      // the preset alone, or the rule string with the house rules (the server checks it)
      const rules = house.rules();
      if (rules) body.rules = rules;
      else body.preset = d.get("preset");
      body.games = Number(d.get("games"));
      if (body.seats.length === 4) body.dealer_sees = d.get("dealer_sees");
      if (d.get("shortcut") === "on") body.shortcut = true;
      if (d.get("scoring") === "seeger") body.scoring = "seeger";
    }
    else {
      if (d.get("max_cards")) body.max_cards = Number(d.get("max_cards"));
      if (d.get("deck")) body.deck = d.get("deck");
      body.variants = d.getAll("variants").map(Number);
      if (body.deck === "romme-double-joker") body.variants.push(1);
    }
    try {
      const r = await api("/api/tables", body);
      location.href = siteHref(r.invite_path);
    } catch (x) { err.replaceChildren(errorLine(/** @type {Error} */ (x).message)); }
  });
  return f;
}

function main() {
  if (!loggedIn || location.pathname === "/login") {
    root.append(authBox());
    if (location.pathname !== "/login") root.append(tablesBox());
  } else {
    // the open tables first: on a phone the new table's form is long
    root.append(tablesBox(), createBox());
  }
}

main();
