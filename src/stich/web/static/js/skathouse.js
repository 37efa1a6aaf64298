// @ts-check
/**
 * The house rules Revolution and Schenken at a Skat table (drawn into skat.js's board).
 *
 * Revolution: from the declaration on a defender's view has `partner_hand`, the other
 * defender's cards (shown in the partner's box, "Karten von Anna"); before the first card
 * the first defender after the declarer selects cards of his hand and gives them ("Geben",
 * none: "Nichts geben"), the partner selects as many and gives them back.  The legal
 * actions say which (`give …` texts); the page only matches the selection to one of them.
 *
 * Schenken: a defender on move in the first trick may offer the game ("Schenken"); his
 * partner agrees ("Schenken") or plays on ("Weiterspielen"), then the declarer accepts
 * ("Annehmen") or plays on ("Weiterspielen").  The view's `gift` (how often the declarer
 * played on) and `gift_pending` (1 the partner answers, 2 the declarer) are public.
 */
import { _, h } from "./site.js";

/**
 * The give texts of the legal actions: the cards one may choose, and how many (null:
 * any number, the first defender; else exactly as many as he gave).
 * @param {any} v
 * @returns {{texts: string[], cards: Set<string>, n: number | null} | null}
 */
export function gives(v) {
  const texts = (v.legal || []).filter((/** @type {string} */ a) => a === "give" || a.startsWith("give "));
  if (!texts.length) return null;
  const cards = new Set(texts.flatMap((/** @type {string} */ a) => a.split(" ").slice(1)));
  const sizes = new Set(texts.map((/** @type {string} */ a) => a.split(" ").length - 1));
  return { texts, cards, n: sizes.size === 1 ? [...sizes][0] : null };
}

/** The legal give text that gives exactly `sel`. @param {string[]} texts @param {string[]} sel */
export function giveText(texts, sel) {
  const want = [...sel].sort().join(" ");
  return texts.find((a) => a.split(" ").slice(1).sort().join(" ") === want) || null;
}

/** The position of my partner in a Revolution, when the view shows his cards, else -1. @param {any} v */
export function partnerPos(v) {
  return v.partner_hand && v.seat !== null && v.declarer >= 0 ? 3 - v.seat - v.declarer : -1;
}

/**
 * The Revolution's give: the prompt and the button under my hand (the cards are
 * selected in the hand).  True when it is my give.
 * @param {import("./table.js").State} st @param {{act: (t: string) => void}} ops
 * @param {HTMLElement} box @param {string} partner  the partner's name
 */
export function giveActions(st, ops, box, partner) {
  const g = gives(st.view);
  if (!g) return false;
  const sel = st.selected.filter((c) => g.cards.has(c));
  const text = giveText(g.texts, sel);
  box.append(h("span", { class: "prompt your-turn" }, g.n === null
    ? _("Revolution: choose cards to give {name} (any number, also none); {name} gives you as many back.", { name: partner })
    : _("Revolution: choose {n} of your cards to give {name} back.", { n: g.n, name: partner })));
  // "Geben (2)"; the partner, who must give as many: "Geben (1/2)"; none: "Nichts geben"
  const label = g.n !== null && g.n > 0 ? _("Give ({n})", { n: `${sel.length}/${g.n}` })
    : sel.length ? _("Give ({n})", { n: sel.length }) : _("Give nothing");
  box.append(h("button", { type: "button", disabled: !text, "data-key": "a:give", onclick: () => text && ops.act(text) }, label));
  return true;
}

/**
 * Schenken's answers: the partner's and the declarer's.  True when it is such an answer.
 * @param {import("./table.js").State} st @param {HTMLElement} box
 * @param {(text: string, label: string, cls?: string) => HTMLElement} button
 * @param {string} offerer  the name of the defender who offered
 */
export function schenkenAnswers(st, box, button, offerer) {
  const v = st.view;
  const legal = /** @type {string[]} */ (v.legal);
  if (legal.includes("accept")) {
    box.append(h("span", { class: "prompt your-turn" }, _("The defenders give you the game (Schenken).")));
    box.append(h("span", { class: "gift-explain" }, v.gift
      ? _("Accept: won with Schneider. Play on: you must make them Schwarz (counts as Schwarz announced).")
      : _("Accept: won simply. Play on: you must make them Schneider (counts as Schneider announced).")));
    box.append(button("accept", _("Accept")));
    box.append(button("pass", _("Play on"), "secondary"));
    return true;
  }
  if (v.gift_pending === 1 && legal.includes("schenken")) {
    box.append(h("span", { class: "prompt your-turn" }, _("{name} wants to give the game away (Schenken). Do you agree?", { name: offerer })));
    box.append(h("span", { class: "gift-explain" }, giftMeaning(v.gift)));
    box.append(button("schenken", _("Schenken")));
    box.append(button("pass", _("Play on"), "secondary"));
    return true;
  }
  return false;
}

/** What a gift means for the score. @param {number} gift  how often the declarer played on */
function giftMeaning(gift) {
  return gift
    ? _("If the declarer accepts, he wins with Schneider; if he plays on, he must make you Schwarz.")
    : _("If the declarer accepts, he wins simply; if he plays on, he must make you Schneider.");
}

/**
 * The offer itself, beside the cards on my turn in the first trick.
 * @param {import("./table.js").State} st @param {HTMLElement} box
 * @param {(text: string, label: string, cls?: string) => HTMLElement} button
 */
export function schenkenOffer(st, box, button) {
  const v = st.view;
  if (!(v.legal || []).includes("schenken")) return;
  const b = button("schenken", _("Schenken"), "secondary");
  b.title = giftMeaning(v.gift || 0);
  box.append(b, h("small", { class: "gift-explain" }, giftMeaning(v.gift || 0)));
}

/**
 * Public words for the game line: a pending offer, the declarer who played on.
 * @param {any} v @param {(pos: number) => string} nameAt
 * @returns {(HTMLElement | string)[]}
 */
export function houseInfo(v, nameAt) {
  const out = [];
  if (v.gift_pending === 1) out.push(" · ", h("strong", { class: "gift" }, _("Schenken offered: {name} answers", { name: nameAt(v.to_move) })));
  else if (v.gift_pending === 2) out.push(" · ", h("strong", { class: "gift" }, _("The defenders give the game away: {name} decides", { name: nameAt(v.declarer) })));
  if (v.gift) out.push(" · ", h("strong", { class: "gift" }, v.gift >= 2 ? _("played on: counts as Schwarz announced") : _("played on: counts as Schneider announced")));
  return out;
}

/**
 * The result's words for these house rules ("Revolution", "geschenkt", "played on").
 * @param {any} r  the outcome
 * @returns {string[]}
 */
export function resultWords(r) {
  const out = [];
  if (r.revolution) out.push(_("Revolution"));
  if (r.gift_accepted) out.push(r.gift ? _("given away (Schenken), with Schneider") : _("given away (Schenken): won simply"));
  else if (r.gift) out.push(r.gift >= 2 ? _("played on after Schenken: Schwarz announced") : _("played on after Schenken: Schneider announced"));
  return out;
}
