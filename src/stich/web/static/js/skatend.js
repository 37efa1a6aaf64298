// @ts-check
/**
 * A Skat game that ended early (issue 42): the declarer claimed the rest (rightly or
 * not), gave up, the defenders gave up, a gift (Schenken) was accepted, or the rest was
 * shortened.  Once such a game is over its view has `end`: `reason` (claimed,
 * claim_wrong, gave_up, gift, shortcut), `by` (the position that said it), `rest`
 * (declarer or defenders: who got the rest), `held` (by position, the cards each player
 * still held) and `trick` (the trick that lay open, [position, card]).  The table shows
 * the line saying what happened, the trick that lay open, and every player's remaining
 * cards face up in his place; the result repeats the line and the cards.
 */
import { _, h } from "./site.js";

/**
 * The early end of a finished game's view, else null.
 * @param {any} v
 * @returns {{reason: string, by: number, rest: string, held: string[][], trick: [number, string][]} | null}
 */
export function earlyEnd(v) {
  return v && v.phase === "OVER" && v.end ? v.end : null;
}

/**
 * What happened, in a line: "Helga beansprucht den Rest – zu Recht", "… gibt auf".
 * @param {any} v  the finished game's view (with `end`)
 * @param {(pos: number) => string} nameAt  a position's name
 */
export function endLine(v, nameAt) {
  const e = earlyEnd(v);
  if (!e) return "";
  const name = nameAt(e.by);
  const toDeclarer = e.rest === "declarer";
  const declarer = nameAt(v.declarer);
  switch (e.reason) {
    case "claimed": return _("{name} claims the rest – rightly", { name });
    case "claim_wrong": return toDeclarer
      ? _("{name} claims the rest – wrongly: the rest goes to {declarer}", { name, declarer })
      : _("{name} claims the rest – wrongly: the rest goes to the defenders", { name });
    case "gave_up": return e.by === v.declarer
      ? _("{name} gives up", { name })
      : _("The defenders give up: the rest goes to {declarer}", { declarer });
    case "gift": return _("Gift accepted: {declarer} wins", { declarer });
    case "shortcut": return toDeclarer
      ? _("Shortened: the rest goes to {declarer}", { declarer })
      : _("Shortened: the rest goes to the defenders");
    default: return "";
  }
}

/**
 * The cards a position still held at the early end (null: the game did not end early).
 * @param {any} v @param {number} pos
 * @returns {string[] | null}
 */
export function heldAt(v, pos) {
  const e = earlyEnd(v);
  return e && pos >= 0 ? e.held[pos] || [] : null;
}

/**
 * The result's part for an early end: the line, and each player's remaining cards.
 * @param {any} v  the finished game's view
 * @param {(pos: number) => string} nameAt
 * @param {(code: string) => HTMLElement} card  a small card
 * @returns {HTMLElement | null}
 */
export function endSection(v, nameAt, card) {
  const e = earlyEnd(v);
  if (!e) return null;
  const box = h("div", { class: "deal ended-early", role: "group", "aria-label": _("Cards still held at the end") });
  box.append(h("p", { class: "end-line" }, endLine(v, nameAt)));
  box.append(h("h3", {}, _("Cards still held at the end")));
  e.held.forEach((hand, pos) => {
    const cards = h("div", { class: "deal-cards" });
    for (const c of hand) cards.append(card(c));
    if (!hand.length) cards.append(h("span", { class: "muted" }, _("none")));
    box.append(h("div", { class: "deal-row" }, h("span", { class: "who" }, nameAt(pos)), cards));
  });
  return box;
}
