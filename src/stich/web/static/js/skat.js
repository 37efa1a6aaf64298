// @ts-check
/**
 * Drawing a Skat table from a seat's view.  Positions in the view: 0 Vorhand,
 * 1 Mittelhand, 2 Hinterhand (the dealer at three); `positions[p]` is the table seat.
 * At a table of four the dealer is the seat not in `positions`: he sits the game out.  The hand
 * comes sorted for the game being played.  Legal actions come as texts and are sent back
 * unchanged.
 */
import { _, h, lang } from "./site.js";
import { cardSvg, backSvg, cardLabel } from "./cards.js";
import { flip, snapshotRects } from "./motion.js";
import { giveActions, gives, houseInfo, partnerPos, resultWords, schenkenAnswers, schenkenOffer } from "./skathouse.js";
import { earlyEnd, endLine, endSection, heldAt } from "./skatend.js";

/**
 * @typedef {{act: (t: string) => void, setSelected: (s: string[]) => void, seatName: (s: number) => string,
 *   ask?: (text: string) => void}} Ops
 *   ask: a declaration that is lost for certain is confirmed first (its action text)
 */

const POS = () => [_("Vorhand"), _("Mittelhand"), _("Hinterhand")];
const GAMES = ["schellen", "herz", "gruen", "eichel", "grand", "null"];

/** A game word as players say it (Skat terms stay German). @param {string} w @param {string} style */
export function gameWord(w, style) {
  const french = style !== "german";
  return ({
    schellen: french ? "Karo" : "Schellen", herz: "Herz", gruen: french ? "Pik" : "Grün",
    eichel: french ? "Kreuz" : "Eichel", grand: "Grand", null: "Null", hand: "Hand",
    ouvert: "Ouvert", schneider: "Schneider", schwarz: "Schwarz", spitze: "Spitze", revolution: "Revolution",
  })[w] || w;
}

/** "declare grand hand ouvert" -> "Grand Hand Ouvert". @param {string} text @param {string} style */
export function contractName(text, style) {
  return text.split(" ").filter((w) => w !== "declare").map((w) => gameWord(w, style)).join(" ");
}

/** What a bidding word looks like in a speech bubble. @param {string} w */
export function bidWord(w) {
  return w === "pass" ? "passe" : w === "hold" ? "ja" : w;
}

/**
 * A card as a button (or a plain figure when `onClick` is missing).
 * @param {string} code @param {string} style
 * @param {{onClick?: () => void, legal?: boolean, selected?: boolean, key?: string, small?: boolean, skat?: boolean}} [o]
 *   skat: a card just taken up from the Skat (marked, and said so to screen readers)
 */
export function cardEl(code, style, o = {}) {
  const label = cardLabel(code, { style: /** @type {any} */ (style), lang: lang() }) + (o.skat ? " (" + _("from the Skat") + ")" : "");
  const cls = ["card", o.legal === false ? "illegal" : "", o.selected ? "selected" : "", o.small ? "small" : "", o.skat ? "from-skat" : ""].join(" ");
  if (!o.onClick) {
    const d = h("span", { class: cls, role: "img", "aria-label": label, "data-code": code, "data-flip": o.key });
    d.innerHTML = cardSvg(code, { style: /** @type {any} */ (style), lang: lang() });
    return d;
  }
  const b = h("button", {
    type: "button", class: cls, "aria-label": label + (o.legal === false ? " (" + _("not playable now") + ")" : ""),
    "aria-pressed": o.selected === undefined ? null : String(o.selected),
    "data-code": code, "data-key": o.key || code, "data-flip": o.key, onclick: o.onClick,
  });
  b.innerHTML = cardSvg(code, { style: /** @type {any} */ (style), lang: lang() });
  return b;
}

/** @param {number} n @param {boolean} [small] */
function backs(n, small) {
  const d = h("span", { class: `backs ${small ? "small" : ""}`, "aria-label": n === 1 ? _("1 card") : _("{n} cards", { n }) });
  for (let i = 0; i < n; i++) {
    const b = h("span", { class: "card back", "aria-hidden": "true" });
    b.innerHTML = backSvg();
    d.append(b);
  }
  return d;
}

/**
 * @param {import("./table.js").State} st
 * @param {Ops} ops
 */
export function renderSkat(st, ops) {
  // for a moment after a game its last trick stays on the table (the next game may have
  // been dealt already): the finished game's board is drawn from its last view
  if (st.endStage === "trick" && st.over) st = { ...st, view: st.over.view };
  const v = st.view;
  const t = st.table;
  const style = st.style;
  const me = st.you ?? 0;
  const posOf = (/** @type {number} */ seat) => v.positions.indexOf(seat);
  const myPos = posOf(me);
  const mine = st.you !== null;
  // a table of four: the dealer deals to the other three and sits the game out
  const n = t.seats.length;
  const four = n === 4;
  // Ramsch is this game's (the last game's result says nothing about the next bidding)
  const ramsch = v.contract === null && (v.phase === "PLAY" || (v.phase === "OVER" && v.tricks.length > 0));
  const before = snapshotRects(document.querySelector(".skat"));
  // a game ended early (a claim, giving up, a gift): who said it, every card still held
  const ended = earlyEnd(v);

  const root = h("div", { class: `skat phase-${v.phase.toLowerCase()} ${four ? "four" : ""}` });

  // --- the others ------------------------------------------------------------------
  /** @param {number} seat @param {string} where */
  const player = (seat, where) => {
    const pos = posOf(seat);
    const s = t.seats[seat] || {};
    const out = pos < 0; // the dealer who sits this game out
    const box = h("section", { class: `player ${where} ${out ? "sits-out" : ""} ${!out && v.to_move === pos && v.phase !== "OVER" && t.status !== "over" ? "to-move" : ""} ${ended && !out && ended.by === pos ? "ended-by" : ""}`, "aria-label": ops.seatName(seat) });
    const tags = h("div", { class: "tags" });
    if (out) tags.append(h("span", { class: "tag pos sits-out" }, _("deals, sits out")));
    else tags.append(h("span", { class: "tag pos", title: POS()[pos] }, POS()[pos] + (pos === 2 && !four ? " · " + _("deals") : "")));
    if (v.declarer === pos && v.declarer >= 0) tags.append(h("span", { class: "tag declarer" }, _("declarer")));
    if (s.kind === "bot") tags.append(h("span", { class: "tag" }, _("bot")));
    if (s.standin) tags.append(h("span", { class: "tag away" }, _("bot plays for {name}", { name: s.name })));
    else if (s.away) tags.append(h("span", { class: "tag away" }, _("away")));
    box.append(h("div", { class: "name" }, ops.seatName(seat), seat === st.you ? h("span", { class: "sr-only" }, " (" + _("you") + ")") : null), tags);
    if (out) return box;
    const said = [...v.bidding].reverse().find((/** @type {any} */ b) => b[0] === pos);
    if (said && (v.phase === "BIDDING" || v.phase === "SKAT")) box.append(h("div", { class: "bubble" }, bidWord(said[1])));
    if (where !== "me") {
      // (a Revolution: a defender sees his partner's cards, in a row named for him)
      const partner = pos === partnerPos(v);
      const held = heldAt(v, pos); // the game ended early: the cards he still held, face up
      const open = held ?? (v.declarer === pos && v.ouvert.length ? v.ouvert : v.hands ? v.hands[pos] : partner ? v.partner_hand : null);
      if (partner && !held) box.append(h("div", { class: "partner-label" }, _("Cards of {name}", { name: ops.seatName(seat) })));
      if (held) {
        const row = h("div", { class: "open-hand held-at-end", role: "group", "aria-label": _("Cards {name} still held", { name: ops.seatName(seat) }) });
        for (const c of held) row.append(cardEl(c, style, { small: true }));
        box.append(row);
      } else if (open && open.length) {
        const row = h("div", { class: "open-hand" });
        for (const c of open) row.append(cardEl(c, style, { small: true }));
        box.append(row);
      } else {
        box.append(backs(v.cards_held[pos], true));
      }
    }
    if (v.phase === "PLAY" || v.phase === "OVER") box.append(h("div", { class: "muted tricks" }, (v.tricks_won[pos] === 1 ? _("1 trick") : _("{n} tricks", { n: v.tricks_won[pos] }))));
    return box;
  };
  // the others clockwise from me: left, (at four) across, right
  const left = (me + 1) % n, right = (me + n - 1) % n, across = (me + 2) % n;

  // --- the middle: the Skat, the trick, the game -------------------------------------
  const mid = h("section", { class: "middle", "aria-label": _("Table") });
  const info = h("div", { class: "game-info" });
  if (v.contract) {
    info.append(h("strong", {}, contractName(v.contract, style)), " · ",
      _("{name} plays", { name: ops.seatName(v.positions[v.declarer]) }), " · ", h("span", { class: "bid" }, _("bid up to {n}", { n: v.bid })));
  } else if (v.declarer >= 0 && (v.phase === "SKAT" || v.phase === "DISCARD" || v.phase === "DECLARE")) {
    // between the bidding and the first card: who plays, and what was bid
    info.append(_("{name} plays", { name: ops.seatName(v.positions[v.declarer]) }), " · ", h("span", { class: "bid" }, _("bid up to {n}", { n: v.bid })));
  } else if (ramsch && v.phase !== "OVER") {
    info.append(h("strong", { class: "ramsch" }, "Ramsch"), " · ", _("everyone passed: fewest points wins; a Durchmarsch (all tricks) wins"));
  } else if (v.phase === "BIDDING") {
    info.append(v.bid ? _("Bid so far: {n}", { n: v.bid }) : _("Bidding"));
  }
  // house rules: a Kontra (and Re) and the Schieberamsch pushes are public
  if (v.kontra !== undefined && v.kontra >= 0) {
    info.append(" · ", h("strong", { class: "kontra" }, v.re ? _("Kontra and Re ({name})", { name: ops.seatName(v.positions[v.kontra]) }) : _("Kontra ({name})", { name: ops.seatName(v.positions[v.kontra]) })));
  }
  if (v.pushes) info.append(" · ", h("strong", { class: "pushes" }, _("pushed {n}×: counts ×{f}", { n: v.pushes, f: 2 ** v.pushes })));
  info.append(...houseInfo(v, (p) => nameAt(st, p)));
  mid.append(info);
  const trick = h("div", { class: "trick", "aria-label": _("Current trick") });
  const where = (/** @type {number} */ pos) => { const seat = v.positions[pos]; return seat === me ? "me" : seat === left ? "left" : seat === right ? "right" : "across"; };
  let shown = v.trick;
  let done = "";
  if (ended) {
    // not "Letzter Stich": the game ended by a word; the trick that lay open stays
    mid.append(h("p", { class: "end-line", role: "status" }, endLine(v, (p) => nameAt(st, p))));
    shown = ended.trick;
    done = "final";
  } else if (!shown.length && v.tricks.length && (v.phase === "PLAY" || v.phase === "OVER")) {
    const last = v.tricks[v.tricks.length - 1];
    shown = last[1].map((/** @type {string} */ c, /** @type {number} */ i) => [(last[0] + i) % 3, c]);
    done = v.phase === "OVER" ? "final" : "done";
    if (v.phase === "OVER") mid.append(h("p", { class: "took" }, _("Last trick"), ": ", _("{name} took it.", { name: nameAt(st, last[2]) })));
  }
  if (ended && !shown.length) trick.classList.add("none"); // (no open trick: no room kept)
  for (const [pos, code] of shown) {
    const slot = h("div", { class: `slot ${where(pos)} ${done}` });
    slot.append(cardEl(code, style, { key: code }));
    trick.append(slot);
  }
  if (v.phase === "BIDDING" || (v.phase === "SKAT" && !v.skat.length)) {
    trick.append(h("div", { class: "slot skat" }, backs(2)));
  }
  mid.append(trick);
  if (v.phase === "OVER") mid.append(betweenLine(st, ops));

  // --- me: what I may do, my hand -----------------------------------------------------
  // what I may do and my hand come first in the page (the tab order on one's turn);
  // the grid places them at the bottom
  const meBox = player(me, "me");
  meBox.append(actions(st, ops));
  const hand = h("div", { class: `hand ${ended ? "held-at-end" : ""}`, role: "group", "aria-label": _("Your cards") });
  const handCards = heldAt(v, myPos) ?? ((v.hands && !mine && myPos >= 0 ? v.hands[myPos] : v.hand) || []);
  const legal = new Set(v.legal);
  // on a phone the hand is two rows of whole cards (CSS): the columns, and which row
  const cols = handCards.length <= 6 ? handCards.length : Math.ceil(handCards.length / 2);
  hand.dataset.cols = String(cols);
  // after the pick-up the two cards of the Skat are marked until two are put away
  const fromSkat = new Set(mine && v.phase === "DISCARD" ? v.skat : []);
  const give = mine && v.phase === "PLAY" ? gives(v) : null; // a Revolution's give: select cards
  handCards.forEach((/** @type {string} */ code, /** @type {number} */ i) => {
    const key = code;
    /** @type {HTMLElement} */
    let el;
    if (!mine) el = cardEl(code, style, { key });
    else if (v.phase === "DISCARD" && v.legal.length) {
      const sel = st.selected.includes(code);
      el = cardEl(code, style, { key, selected: sel, skat: fromSkat.has(code), onClick: () => {
        const s = sel ? st.selected.filter((c) => c !== code) : [...st.selected, code].slice(-2);
        ops.setSelected(s);
      } });
    } else if (give) {
      const sel = st.selected.includes(code);
      el = cardEl(code, style, { key, selected: sel, legal: give.cards.has(code), onClick: () => {
        if (!give.cards.has(code)) return;
        const s = sel ? st.selected.filter((c) => c !== code) : [...st.selected, code];
        ops.setSelected(give.n === null ? s : s.slice(-give.n));
      } });
    } else if (v.phase === "PLAY") {
      el = cardEl(code, style, { key, legal: legal.size ? legal.has(code) : undefined, onClick: () => ops.act(code) });
    } else {
      el = cardEl(code, style, { key, skat: fromSkat.has(code) });
    }
    if (i >= cols) el.classList.add("row2");
    hand.append(el);
  });
  root.append(meBox, hand, mid, player(left, "left"), player(right, "right"));
  if (four) root.append(player(across, "across"));
  requestAnimationFrame(() => flip(root, before));
  return root;
}

/** @param {import("./table.js").State} st @param {Ops} ops */
function actions(st, ops) {
  const v = st.view;
  const box = h("div", { class: "actions", role: "group", "aria-label": _("Your move") });
  const legal = /** @type {string[]} */ (v.legal);
  if (st.you !== null && st.table.seats.length === 4 && !v.positions.includes(st.you) && v.phase !== "OVER") {
    box.append(h("span", { class: "prompt sits-out-note" }, _("You deal and sit this game out.")));
  }
  if (!legal.length) {
    if (v.to_move >= 0) waitingFor(st, box, ops.seatName(v.positions[v.to_move]));
    return box;
  }
  const button = (/** @type {string} */ text, /** @type {string} */ label, /** @type {string} */ cls = "") =>
    h("button", { type: "button", class: cls, "data-key": `a:${text}`, onclick: () => ops.act(text) }, label);
  switch (v.phase) {
    case "BIDDING":
      if (legal.includes("declare grand hand")) {  // a game of a Ramsch round
        box.append(h("span", { class: "prompt" }, _("Ramsch round: play Grand Hand instead, or pass?")));
        box.append(button("declare grand hand", "Grand Hand"));
        box.append(button("pass", _("Pass (Ramsch)"), "secondary"));
        break;
      }
      box.append(h("span", { class: "prompt" }, _("Your bid")));
      for (const a of legal) box.append(button(a, bidWord(a), a === "pass" ? "secondary" : ""));
      break;
    case "SKAT":
      if (legal.includes("schieben")) {
        box.append(h("span", { class: "prompt" }, _("Schieberamsch: take the Skat or push it on? Pushing doubles the game.")));
        box.append(button("pickup", _("Take the Skat")));
        box.append(button("schieben", _("Push it on"), "secondary"));
        break;
      }
      box.append(h("span", { class: "prompt" }, _("You play. Hand or take the Skat?")));
      if (legal.includes("pickup")) box.append(button("pickup", _("Take the Skat")));
      if (legal.includes("hand")) box.append(button("hand", "Hand", "secondary"));
      break;
    case "DISCARD": {
      const sel = [...st.selected].sort();
      const text = legal.find((a) => a.split(" ").slice(1).sort().join(" ") === sel.join(" "));
      box.append(h("span", { class: "prompt" }, v.declarer < 0 ? _("Choose two cards to pass on (no Unter)") : _("Choose two cards to put away")));
      box.append(h("button", { type: "button", disabled: !text, "data-key": "a:discard", onclick: () => text && ops.act(text) }, _("Put away ({n}/2)", { n: sel.length })));
      break;
    }
    case "DECLARE": {
      box.append(h("span", { class: "prompt" }, _("Announce your game")));
      const grid = h("div", { class: "declare" });
      for (const g of GAMES) {
        const mine = legal.filter((a) => a.split(" ")[1] === g);
        if (!mine.length) {
          grid.append(h("button", { type: "button", class: "secondary", disabled: true, title: _("not possible after a bid of {n}", { n: v.bid }) },
            gameWord(g, st.style), h("small", {}, " " + _("not possible after a bid of {n}", { n: v.bid }))));
          continue;
        }
        const group = h("div", { class: "declare-group" });
        mine.sort((a, b) => a.length - b.length);
        mine.forEach((a, i) => group.append(declareButton(st, ops, a, i ? "secondary" : "")));
        grid.append(group);
      }
      box.append(grid);
      break;
    }
    case "PLAY":
      if (legal.includes("re")) {
        box.append(h("span", { class: "prompt your-turn" }, _("Kontra! Answer with Re (doubles again)?")));
        box.append(button("re", "Re"));
        box.append(button("pass", _("No Re"), "secondary"));
        break;
      }
      if (giveActions(st, ops, box, ops.seatName(v.positions[partnerPos(v)] ?? -1))) break;
      if (schenkenAnswers(st, box, button, ops.seatName(v.positions[3 - v.seat - v.declarer]))) break;
      box.append(h("span", { class: "prompt your-turn" }, _("Your turn: play a card")));
      schenkenOffer(st, box, button);
      if (legal.includes("kontra")) box.append(button("kontra", _("Kontra (doubles the game)"), "secondary"));
      if (legal.includes("klopfen")) box.append(button("klopfen", _("Knock (doubles the Ramsch)"), "secondary"));
      if (v.contract) {  // claiming the rest and giving up: offered at one's turn in every declared game
        const ask = (/** @type {string} */ a, /** @type {string} */ label) =>
          h("button", { type: "button", class: "secondary quiet", "data-key": `a:${a}`, onclick: () => (ops.ask ? ops.ask(a) : ops.act(a)) }, label);
        if (v.seat === v.declarer) box.append(ask("claim", _("Claim the rest")), ask("giveup", _("Give up")));
        else if (!(v.gave_up || []).includes(v.seat)) box.append(ask("giveup", _("Give up")));
      }
      break;
    default:
      for (const a of legal) box.append(button(a, a));
  }
  return box;
}

/**
 * A game to announce, with its value for this hand when the server tells it
 * (`declare_values`: "Kreuz mit 2: 36"); one that is lost for certain says so and is
 * confirmed first.  Without the values (an older server) it is the plain button.
 * @param {import("./table.js").State} st @param {Ops} ops @param {string} a @param {string} cls
 */
function declareButton(st, ops, a, cls) {
  const info = valueOf(st, a);
  const name = contractName(a, st.style);
  if (!info) return h("button", { type: "button", class: cls, "data-key": `a:${a}`, onclick: () => ops.act(a) }, name);
  const lost = info.loss !== null && info.loss !== undefined;
  // a value that reaches the bid only with Schneider or Schwarz says so on the button
  // itself (a phone has no hover for the title)
  const needs = lost ? "" : info.needs === "schwarz" ? _("only with Schwarz") : info.needs === "schneider" ? _("only with Schneider") : "";
  const said = lost ? _("{game}: lost for certain ({n})", { game: name, n: minus(info.loss) })
    : `${name}: ${info.value}` + (needs ? ` (${needs})` : "");
  return h("button", {
    type: "button", class: `${cls} ${lost ? "certain-loss" : ""} ${needs ? "needs" : ""}`, "data-key": `a:${a}`, title: info.text || null,
    "aria-label": said, onclick: () => (lost && ops.ask ? ops.ask(a) : ops.act(a)),
  }, name, " ", h("span", { class: "value" }, String(info.value)),
  lost ? h("small", { class: "loss" }, _("lost: {n}", { n: minus(info.loss) })) : null,
  needs ? h("small", { class: "needs-line" }, needs) : null);
}

/**
 * The question before a claim of the rest or giving up: both end the game at once.
 * @param {import("./table.js").State} st @param {Ops} ops @param {string} a  claim or giveup
 * @param {() => void} back
 * @returns {{title: string, nodes: HTMLElement[]}}
 */
function confirmEnd(st, ops, a, back) {
  const declarer = st.view.seat === st.view.declarer;
  const claim = a === "claim";
  const text = claim
    ? _("You show your cards and claim every remaining trick (in Null: no further trick). It is checked with all cards open: if the defenders could still get what you claim they cannot, the rest goes to them.")
    : declarer ? _("The defenders get every remaining trick (in Null you lose).")
      : _("You give up. When both defenders have given up, the declarer gets every remaining trick.");
  return {
    title: claim ? _("Claim the rest?") : _("Give up?"),
    nodes: [
      h("p", {}, text),
      h("div", { class: "row confirm-actions" },
        h("button", { type: "button", class: claim ? "" : "danger", "data-key": `confirm:${a}`, onclick: () => ops.act(a) }, claim ? _("Claim the rest") : _("Give up")),
        h("button", { type: "button", class: "secondary", onclick: back }, _("Back"))),
    ],
  };
}

/**
 * The question before announcing a game that is lost for certain.
 * @param {import("./table.js").State} st @param {Ops} ops @param {string} a  the action text
 * @param {() => void} back
 * @returns {{title: string, nodes: HTMLElement[]}}
 */
export function confirmLoss(st, ops, a, back) {
  if (a === "claim" || a === "giveup") return confirmEnd(st, ops, a, back);
  const info = valueOf(st, a) || {};
  const game = contractName(a, st.style);
  return {
    title: _("Lost for certain"),
    nodes: [
      h("p", {}, _("{game} is lost for certain after a bid of {bid}: {n} on the list.", { game, bid: st.view.bid, n: minus(info.loss) })),
      info.text ? h("p", { class: "muted" }, info.text) : null,
      h("div", { class: "row confirm-actions" },
        h("button", { type: "button", class: "danger", "data-key": `confirm:${a}`, onclick: () => ops.act(a) }, _("Announce it anyway")),
        h("button", { type: "button", class: "secondary", onclick: back }, _("Back"))),
    ].filter((x) => x !== null),
  };
}

/**
 * Under the finished game's last trick while the table waits for the next game: who has
 * not said "Weiter" yet, and when it goes on anyway (a countdown filled in by the page).
 * @param {import("./table.js").State} st @param {Ops} ops
 */
function betweenLine(st, ops) {
  const t = st.table;
  const box = h("p", { class: "between", role: "status" });
  if (!t?.between) return box;
  const ready = new Set(t.ready || []);
  const waiting = t.seats.map((/** @type {any} */ s, /** @type {number} */ i) => [s, i])
    .filter(([s, i]) => s.kind === "person" && !s.away && !s.standin && !s.quit && !ready.has(i))
    .map(([s, i]) => ops.seatName(i));
  // two sentences: "Warten auf Anna. Nächstes Spiel in 8 s"
  if (waiting.length) box.append(_("Waiting for {names}", { names: waiting.join(", ") }) + ".", " ");
  box.append(h("span", { class: "countdown", "data-countdown": "next" }));
  return box;
}

/**
 * The last trick: of this game, or before this game's first trick the previous game's
 * (kept by the page when the next game was dealt).
 * @param {import("./table.js").State} st
 * @returns {{title: string, nodes: HTMLElement[]}}
 */
export function lastTrickPanel(st) {
  let v = st.view;
  let title = _("Last trick");
  if (!v.tricks.length && st.over && st.over.view !== v) {
    v = st.over.view;
    title = _("Last trick of game {n}", { n: v.number });
  }
  const last = v?.tricks[v.tricks.length - 1];
  if (!last) return { title, nodes: [h("p", { class: "muted" }, _("No trick yet."))] };
  const row = h("div", { class: "row trick-row" });
  last[1].forEach((/** @type {string} */ c, /** @type {number} */ i) => {
    const pos = (last[0] + i) % 3;
    row.append(h("figure", {}, cardEl(c, st.style), h("figcaption", {}, nameIn(st, v, pos))));
  });
  return { title, nodes: [row, h("p", {}, _("{name} took it.", { name: nameIn(st, v, last[2]) }))] };
}

/** @param {import("./table.js").State} st @param {number} pos */
function nameAt(st, pos) {
  return nameIn(st, st.view, pos);
}

/** The name at a position of a view. @param {import("./table.js").State} st @param {any} v @param {number} pos */
function nameIn(st, v, pos) {
  return st.table.seats[v.positions[pos]]?.name || "?";
}

/**
 * The result of the last game, as a panel: who won what, the value counted the Skat way,
 * the card points, the list, every hand and the Skat; "Weiter" at the end.
 * @param {import("./table.js").State} st @param {Ops} ops
 * @param {{next: () => void, waiting: boolean}} o  next: "Weiter" (or close); waiting:
 *   the table waits for this person's "Weiter"
 * @returns {{title: string, nodes: HTMLElement[]}}
 */
export function resultPanel(st, ops, o) {
  const line = st.result;
  const r = line.result || {};
  // the finished game's own view (hands, Skat, tricks) when the page saw it end
  const ov = st.over && st.over.line === line ? st.over.view : null;
  const nodes = [];
  let head;
  if (line.kind === "ramsch") {
    head = h("p", { class: "headline" }, r.durchmarsch ? _("Ramsch: Durchmarsch!") : "Ramsch");
  } else if (line.kind === "passed") {
    head = h("p", { class: "headline" }, _("Everyone passed: no game."));
  } else {
    const who = ops.seatName(line.declarer);
    head = h("p", { class: `headline ${line.won ? "won" : "lost"}` },
      line.won ? _("{name} wins {game}", { name: who, game: line.game }) : _("{name} loses {game}", { name: who, game: line.game }));
    const house = resultWords(r); // Revolution, given away (Schenken)
    if (house.length) head.append(h("span", { class: "house-words" }, " · " + house.join(" · ")));
  }
  nodes.push(head);
  if (line.kind === "game") nodes.push(breakdown(line, st.style));
  nodes.push(scoreTable(line, ops));
  const early = ov ? endSection(ov, (p) => nameIn(st, ov, p), (c) => cardEl(c, st.style, { small: true })) : null;
  if (early) nodes.push(early);
  const hands = ov?.deal;
  if (hands) {
    const box = h("div", { class: "deal", role: "group", "aria-label": _("All hands") });
    box.append(h("h3", {}, _("All hands")));
    hands.hands.forEach((/** @type {string[]} */ hand, /** @type {number} */ pos) => {
      const who = h("span", { class: "who" }, nameIn(st, ov, pos));
      if (ov.declarer === pos) who.append(" ", h("span", { class: "tag declarer" }, _("declarer")));
      const row = h("div", { class: "deal-row" }, who);
      const cards = h("div", { class: "deal-cards" });
      for (const c of hand) cards.append(cardEl(c, st.style, { small: true }));
      row.append(cards);
      box.append(row);
    });
    const sk = h("div", { class: "deal-cards" });
    for (const c of hands.skat) sk.append(cardEl(c, st.style, { small: true }));
    box.append(h("div", { class: "deal-row skat-row" }, h("span", { class: "who" }, "Skat"), sk));
    const put = ov.discarded || [];
    if (put.length && put.join(" ") !== hands.skat.join(" ")) {
      const pc = h("div", { class: "deal-cards" });
      for (const c of put) pc.append(cardEl(c, st.style, { small: true }));
      box.append(h("div", { class: "deal-row" }, h("span", { class: "who" }, _("Put away")), pc));
    }
    nodes.push(box);
  }
  const foot = h("div", { class: "result-foot" });
  foot.append(h("button", { type: "button", class: "next", "data-key": "result:next", onclick: o.next },
    o.waiting ? _("Next") : _("Close")));
  foot.append(h("span", { class: "countdown", "data-countdown": "next" }));
  if (!o.waiting && st.table?.between && st.you !== null) foot.append(h("span", { class: "muted" }, _("Waiting for the others …")));
  nodes.push(foot);
  return { title: _("Result of game {n}", { n: line.number }), nodes };
}

/**
 * A game's value counted the Skat way: "mit 2, Spiel 3, Hand 4 = ×4; Grand 24 × 4 = 96".
 * @param {any} line @param {string} style
 */
function breakdown(line, style) {
  const r = line.result || {};
  const parts = [];
  const m = r.matadors;
  if (m !== undefined && r.game !== "null") {
    let n = Math.abs(m);
    parts.push(m > 0 ? _("with {n}", { n }) : _("without {n}", { n }));
    n += 1; parts.push(_("game {n}", { n }));
    /** @type {[boolean, string][]} */
    const steps = [[r.hand, "Hand"], [r.schneider, "Schneider"], [r.schneider_announced, _("Schneider announced")],
      [r.schwarz, "Schwarz"], [r.schwarz_announced, _("Schwarz announced")], [r.ouvert, "Ouvert"]];
    for (const [on, word] of steps) if (on) { n += 1; parts.push(`${word} ${n}`); }
    if (n !== r.multiplier) parts.length = 0; // not as counted here: the value alone
  } else {
    if (r.hand) parts.push("Hand");
    if (r.ouvert) parts.push("Ouvert");
  }
  const dl = h("dl", { class: "breakdown" });
  if (parts.length) dl.append(h("dt", {}, _("Counts")), h("dd", {}, parts.join(", ") + (r.multiplier && r.game !== "null" ? ` = ×${r.multiplier}` : "")));
  let value = String(line.value);
  const base = r.multiplier ? line.value / r.multiplier : 0;
  if (r.game !== "null" && !r.overbid && Number.isInteger(base) && base > 0) {
    value = `${gameWord(r.game, style)} ${base} × ${r.multiplier} = ${line.value}`;
  }
  dl.append(h("dt", {}, _("Value")), h("dd", {}, value));
  dl.append(h("dt", {}, _("Bid")), h("dd", {}, String(r.bid ?? "")));
  if (r.overbid) dl.append(h("dt", {}, _("Overbid")), h("dd", {}, _("the game was worth less than the bid")));
  if (r.declarer_points !== undefined) dl.append(h("dt", {}, _("Card points")), h("dd", {}, `${r.declarer_points} : ${r.defender_points}`));
  return dl;
}

/** Who got what on the list: this game and the running Punktestand. @param {any} line @param {Ops} ops */
function scoreTable(line, ops) {
  const r = line.result || {};
  const ramsch = line.kind === "ramsch";
  const rows = h("tbody");
  const seats = (line.scores || []).length;
  line.scores.forEach((/** @type {number} */ _s, /** @type {number} */ seat) => {
    const pos = (line.positions || []).indexOf(seat);
    const out = seats === 4 && pos < 0; // the dealer who sat the game out
    rows.append(h("tr", { class: line.declarer === seat ? "declarer" : out ? "sat-out" : "" }, h("th", { scope: "row" }, ops.seatName(seat),
      out ? h("small", { class: "muted" }, " (" + _("deals, sits out") + ")") : null),
      ramsch ? h("td", { class: "num" }, String(r.points?.[pos] ?? "")) : null,
      ramsch ? h("td", { class: "num" }, String(r.tricks?.[pos] ?? "")) : null,
      h("td", { class: "num" }, signed(line.scores[seat])),
      h("td", { class: "num" }, line.totals?.[seat] === undefined ? "" : minus(line.totals[seat]))));
  });
  return h("table", { class: "data scores" },
    h("thead", {}, h("tr", {}, h("th", {}, _("Player")), ramsch ? h("th", { class: "num" }, _("Points")) : null,
      ramsch ? h("th", { class: "num" }, _("Tricks")) : null,
      h("th", { class: "num" }, _("Score")), h("th", { class: "num" }, _("Total score")))), rows);
}

/**
 * A declaration's value for this hand (`declare_values`), its text in the page's language
 * and the card style's suit names ("Eichel mit 2: 36" / "Kreuz mit 2: 36").
 * @param {import("./table.js").State} st @param {string} a
 */
function valueOf(st, a) {
  const info = st.view.declare_values?.[a];
  if (!info) return null;
  const key = `${lang()}-${st.style === "german" ? "german" : "french"}`;
  return { ...info, text: info.texts?.[key] || info.text };
}

/** A score with its sign ("+12", "−5" with a real minus sign, "0"). @param {number} n */
export function signed(n) { return n > 0 ? `+${n}` : minus(n); }

/** A number as the lists print it: a negative one with a real minus sign ("−30"). @param {number} n */
export function minus(n) { return n < 0 ? `−${-n}` : String(n); }

/**
 * "… ist dran" while another seat has the move (nothing when the game is over, the table
 * is closed, or for a spectator).
 * @param {import("./table.js").State} st @param {HTMLElement} box @param {string} name
 */
export function waitingFor(st, box, name) {
  const v = st.view;
  if (v.phase !== "OVER" && v.to_move >= 0 && st.you !== null && st.table?.status !== "over") {
    box.append(h("span", { class: "muted" }, _("{name} to move", { name })));
  }
}

/** The Skat list: every game, the running Punktestand, Bilanz. @param {import("./table.js").State} st */
export function skatListPanel(st) {
  const L = st.list;
  const box = h("div", { class: "list" });
  if (!L) { box.append(h("p", { class: "muted" }, _("No game yet."))); return box; }
  const names = L.players;
  const head = h("tr", {}, h("th", { class: "num" }, "#"), h("th", {}, _("Game")), h("th", { class: "num" }, _("Value")),
    ...names.map((/** @type {string} */ n) => h("th", { class: "num", title: n }, h("span", { class: "nm" }, n))));
  const body = h("tbody");
  for (const g of L.games) {
    body.append(h("tr", {}, h("td", { class: "num" }, String(g.number)),
      h("td", {}, g.declarer !== null && g.declarer !== undefined ? `${names[g.declarer]}: ${g.game}` : g.game),
      h("td", { class: "num" }, g.kind === "game" ? (g.won ? "" : "−") + g.value : minus(g.value)),
      ...g.totals.map((/** @type {number} */ tot, /** @type {number} */ i) => {
        // a game a bot played (in part) for this player is marked, with the reason in words
        const bot = (g.standin || []).includes(i);
        // at a table of four: the dealer who sat this game out
        const out = names.length === 4 && !(g.positions || []).includes(i);
        return h("td", { class: `num ${g.scores[i] ? "changed" : ""} ${bot ? "by-standin" : ""} ${out ? "sat-out" : ""}`, title: bot ? _("A bot played for {name} in this game", { name: names[i] }) : out ? _("{name} dealt and sat out", { name: names[i] }) : null },
          minus(tot), bot ? h("span", { class: "standin-mark", "aria-label": _("A bot played for {name} in this game", { name: names[i] }) }, " *") : null,
          out ? h("span", { class: "satout-mark", "aria-label": _("{name} dealt and sat out", { name: names[i] }) }, " ○") : null);
      })));
  }
  const foot = h("tfoot", {},
    h("tr", {}, h("th", { colspan: 3 }, _("Total score")), ...L.punktestand.map((/** @type {number} */ p) => h("td", { class: "num" }, minus(p)))),
    h("tr", {}, h("th", { colspan: 3 }, "Bilanz"), ...L.bilanz.map((/** @type {number} */ p) => h("td", { class: "num" }, signed(p)))));
  if (L.seeger) preisskatFoot(L, foot);
  box.append(h("div", { class: "scroll" }, h("table", { class: "data skat-list" }, h("thead", {}, head), body, foot)));
  if (L.seeger) box.append(preisskatRanking(L));
  if (names.length === 4 && L.games.length) {
    box.append(h("p", { class: "muted small satout-legend" }, _("○ the dealer, who sat this game out")));
  }
  if (L.games.some((/** @type {any} */ g) => (g.standin || []).length)) {
    box.append(h("p", { class: "muted small standin-legend" }, _("* a bot played (in part) for this player in this game: a stand-in while away, the turn clock, or after leaving the table")));
  }
  return box;
}

/**
 * The Preisskat list's foot (Seeger-Fabian): per player games won × 50, games lost × 50,
 * the others' lost games × 40 (four: 30), the Leistung and the place.
 * @param {any} L the list (with its ``seeger`` part) @param {HTMLElement} foot
 */
function preisskatFoot(L, foot) {
  const S = L.seeger;
  const row = (/** @type {string} */ label, /** @type {string} */ cls, /** @type {(l: any) => string} */ cell) =>
    h("tr", { class: `preisskat ${cls}` }, h("th", { colspan: 3 }, label), ...S.lines.map((/** @type {any} */ l) => h("td", { class: "num" }, cell(l))));
  foot.append(
    row(_("Games won × {k}", { k: S.won_each }), "won", (l) => `${l.won} → ${signed(l.won_points)}`),
    row(_("Games lost × {k}", { k: S.won_each }), "lost", (l) => `${l.lost} → ${minus(l.lost_points)}`),
    row(_("Others' lost games × {k}", { k: S.others_each }), "others", (l) => `${l.others_lost} → ${signed(l.others_points)}`),
    row(_("Preisskat score"), "score", (l) => minus(l.score)),
    row(_("Place"), "place", (l) => `${l.place}.`));
}

/**
 * The series' ranking by the Preisskat score: at equal score more games won first, then
 * fewer lost; players still equal share the place.  While the series runs: "so far".
 * @param {any} L
 */
function preisskatRanking(L) {
  const S = L.seeger, names = L.players;
  const order = S.lines.map((/** @type {any} */ l, /** @type {number} */ i) => ({ ...l, name: names[i], seat: i }))
    .sort((/** @type {any} */ a, /** @type {any} */ b) => a.place - b.place || a.seat - b.seat);
  const done = L.games_planned && L.games.length >= L.games_planned;
  return h("section", { class: "preisskat-ranking" },
    h("h3", {}, done ? _("Preisskat: the series' result") : _("Preisskat: the ranking so far ({n} of {m} games)", { n: L.games.length, m: L.games_planned })),
    h("ol", { class: "ranking" }, ...order.map((/** @type {any} */ l) => h("li", { value: l.place },
      h("strong", {}, l.name), " ", minus(l.score), " ",
      h("span", { class: "muted small" }, _("({won} won, {lost} lost)", { won: l.won, lost: l.lost }))))),
    h("p", { class: "muted small" }, _("Equal scores: more games won first, then fewer games lost; still equal: the same place.")));
}
