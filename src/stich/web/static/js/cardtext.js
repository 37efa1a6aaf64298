// @ts-check
/**
 * Cards as text: the one place that turns a card code into what the pages show, so that
 * it can later be swapped for SVG faces.  French suits (Skat, Rommé) as ♣♠♥♦ with the
 * rank (German letters B D K A on German pages), Elfer raus as the coloured number, the
 * joker as 🃏.  Spans written by the server (`<span class="tcard" data-code="CJ">CJ</span>`)
 * are filled in when this module loads.
 */
import { _, lang } from "/static/js/site.js";
import { cardLabel, suitSymbol } from "/static/js/cards.js";

/** German index letters of the German-suited cards. @type {Record<string, string>} */
const INDEX_GERMAN = { T: "10", J: "U", Q: "O", K: "K", A: "A" };

/**
 * The card style the person chose at the table (`localStorage["stich.style"]`): Skat
 * cards in the replay look as they do at the table.
 * @returns {"german"|"french4"|"french2"}
 */
export function cardStyle() {
  let s = null;
  try { s = localStorage.getItem("stich.style"); } catch { s = null; }
  return s === "french4" || s === "french2" ? s : "german";
}

/** @type {Record<string, [string, string]>} */
const FRENCH = { C: ["♣", "clubs"], S: ["♠", "spades"], H: ["♥", "hearts"], D: ["♦", "diamonds"] };
/** @type {Record<string, string>} */
const COLOURS = { R: "red", Y: "yellow", G: "green", B: "blue" };

/**
 * A card as a styled span: `<span class="tcard" data-code="CJ" title="Kreuz Bube">♣B</span>`.
 * Skat cards (`plain` false) follow the person's card style ({@link cardStyle}): German
 * suits as the table draws them (Eichel, Grün, Herz, Schellen with U O K A), or French
 * in four or two colours; the plain decks of Baptistenskat (`plain` true) are French.
 * @param {string} code  the engine's card code (`CJ`, `HT`, `R17`, `JK`)
 * @param {{plain?: boolean}} [opts]
 * @returns {HTMLSpanElement}
 */
export function card(code, opts) {
  const el = document.createElement("span");
  el.className = "tcard";
  el.dataset.code = code;
  const de = lang() === "de";
  const suit = code[0], rank = code.slice(1);
  const style = cardStyle();
  const skatCard = FRENCH[suit] && /^[789TJQKA]$/.test(rank);
  if (skatCard && !(opts && opts.plain)) {
    const st = style;
    const label = cardLabel(code, { style: st, lang: de ? "de" : "en" });
    const r = st === "german" ? INDEX_GERMAN[rank] || rank
      : rank === "T" ? "10" : de ? ({ J: "B", Q: "D", K: "K", A: "A" })[rank] || rank : rank;
    el.innerHTML = suitSymbol(suit, st);
    el.append(r);
    el.classList.add(`suit-${FRENCH[suit][1]}`, `style-${st}`);
    el.title = label;
    el.setAttribute("aria-label", label);
    return el;
  }
  let text = code, label = code;
  if (code === "JK") {
    text = "🃏"; label = _("Joker"); el.classList.add("joker");
  } else if (FRENCH[suit] && rank.length === 1) {
    const r = rank === "T" ? "10"
      : de ? ({ J: "B", Q: "D", K: "K", A: "A" })[rank] || rank : rank;
    const names = { J: _("Jack"), Q: _("Queen"), K: _("King"), A: _("Ace") };
    text = FRENCH[suit][0] + r;
    const suits = { C: _("clubs"), S: _("spades"), H: _("hearts"), D: _("diamonds") };
    // in English the name the table's card faces say ("jack of clubs"), as the server does
    label = de ? _("{rank} of {suit}", { rank: /** @type {any} */ (names)[rank] || r, suit: suits[suit] })
      : cardLabel(code, { style: "french4", lang: "en" });
    el.classList.add(`suit-${FRENCH[suit][1]}`);
  } else if (COLOURS[suit]) {
    text = rank;
    const colours = { R: _("red"), Y: _("yellow"), G: _("green"), B: _("blue") };
    label = _("{colour} {number}", { colour: colours[suit], number: rank });
    el.classList.add(`colour-${COLOURS[suit]}`);
  }
  el.textContent = text;
  el.title = label;
  el.setAttribute("aria-label", label);
  return el;
}

/**
 * Replace the server's card spans under `root` by {@link card}'s.
 * @param {ParentNode} [root]
 */
export function upgradeCards(root = document) {
  for (const el of root.querySelectorAll("span.tcard[data-code]:not([title])")) {
    const c = card(/** @type {HTMLElement} */ (el).dataset.code || "");
    c.classList.add(...Array.from(el.classList));
    el.replaceWith(c);
  }
}

upgradeCards();
