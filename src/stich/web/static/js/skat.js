// @ts-check
/**
 * Drawing a Skat table from a seat's view.  Positions in the view: 0 Vorhand,
 * 1 Mittelhand, 2 Hinterhand (the dealer); `positions[p]` is the table seat.  The hand
 * comes sorted for the game being played.  Legal actions come as texts and are sent back
 * unchanged.
 */
import { _, h, lang } from "./site.js";
import { cardSvg, backSvg, cardLabel } from "./cards.js";
import { flip, snapshotRects } from "./motion.js";

/**
 * @typedef {{act: (t: string) => void, setSelected: (s: string[]) => void, seatName: (s: number) => string}} Ops
 */

const POS = () => [_("Vorhand"), _("Mittelhand"), _("Hinterhand")];
const GAMES = ["schellen", "herz", "gruen", "eichel", "grand", "null"];

/** A game word as players say it (Skat terms stay German). @param {string} w @param {string} style */
export function gameWord(w, style) {
  const french = style !== "german";
  return ({
    schellen: french ? "Karo" : "Schellen", herz: "Herz", gruen: french ? "Pik" : "Grün",
    eichel: french ? "Kreuz" : "Eichel", grand: "Grand", null: "Null", hand: "Hand",
    ouvert: "Ouvert", schneider: "Schneider", schwarz: "Schwarz",
  })[w] || w;
}

/** "declare grand hand ouvert" -> "Grand Hand Ouvert". @param {string} text @param {string} style */
export function contractName(text, style) {
  return text.split(" ").filter((w) => w !== "declare").map((w) => gameWord(w, style)).join(" ");
}

/** What a bidding word looks like in a speech bubble. @param {string} w */
function bidWord(w) {
  return w === "pass" ? "passe" : w === "hold" ? "ja" : w;
}

/**
 * A card as a button (or a plain figure when `onClick` is missing).
 * @param {string} code @param {string} style
 * @param {{onClick?: () => void, legal?: boolean, selected?: boolean, key?: string, small?: boolean}} [o]
 */
export function cardEl(code, style, o = {}) {
  const label = cardLabel(code, { style: /** @type {any} */ (style), lang: lang() });
  const cls = ["card", o.legal === false ? "illegal" : "", o.selected ? "selected" : "", o.small ? "small" : ""].join(" ");
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
  const d = h("span", { class: `backs ${small ? "small" : ""}`, "aria-label": _("{n} cards", { n }) });
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
  const v = st.view;
  const t = st.table;
  const style = st.style;
  const me = st.you ?? 0;
  const posOf = (/** @type {number} */ seat) => v.positions.indexOf(seat);
  const myPos = posOf(me);
  const mine = st.you !== null;
  const ramsch = v.phase === "PLAY" && v.contract === null || (st.result && st.result.kind === "ramsch");
  const before = snapshotRects(document.querySelector(".skat"));

  const root = h("div", { class: `skat phase-${v.phase.toLowerCase()}` });

  // --- the others ------------------------------------------------------------------
  /** @param {number} seat @param {string} where */
  const player = (seat, where) => {
    const pos = posOf(seat);
    const s = t.seats[seat] || {};
    const box = h("section", { class: `player ${where} ${v.to_move === pos && v.phase !== "OVER" ? "to-move" : ""}`, "aria-label": ops.seatName(seat) });
    const tags = h("div", { class: "tags" });
    tags.append(h("span", { class: "tag pos", title: POS()[pos] }, POS()[pos] + (pos === 2 ? " · " + _("deals") : "")));
    if (v.declarer === pos && v.declarer >= 0) tags.append(h("span", { class: "tag declarer" }, _("declarer")));
    if (s.kind === "bot") tags.append(h("span", { class: "tag" }, _("bot")));
    if (s.standin) tags.append(h("span", { class: "tag away" }, _("bot plays for {name}", { name: s.name })));
    else if (s.away) tags.append(h("span", { class: "tag away" }, _("away")));
    box.append(h("div", { class: "name" }, ops.seatName(seat), seat === st.you ? h("span", { class: "sr-only" }, " (" + _("you") + ")") : null), tags);
    const said = [...v.bidding].reverse().find((/** @type {any} */ b) => b[0] === pos);
    if (said && (v.phase === "BIDDING" || v.phase === "SKAT")) box.append(h("div", { class: "bubble" }, bidWord(said[1])));
    if (where !== "me") {
      const open = v.declarer === pos && v.ouvert.length ? v.ouvert : v.hands ? v.hands[pos] : null;
      if (open && open.length) {
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
  const left = (me + 1) % 3, right = (me + 2) % 3;
  root.append(player(left, "left"), player(right, "right"));
  if (st.result) root.append(resultBox(st, ops));

  // --- the middle: the Skat, the trick, the game -------------------------------------
  const mid = h("section", { class: "middle", "aria-label": _("Table") });
  const info = h("div", { class: "game-info" });
  if (v.contract) {
    info.append(h("strong", {}, contractName(v.contract, style)), " · ",
      _("{name} plays", { name: ops.seatName(v.positions[v.declarer]) }), " · ", _("bid {n}", { n: v.bid }));
  } else if (ramsch && v.phase !== "OVER") {
    info.append(h("strong", { class: "ramsch" }, "Ramsch"), " · ", _("everyone passed: fewest points wins; a Durchmarsch (all tricks) wins"));
  } else if (v.phase === "BIDDING") {
    info.append(v.bid ? _("Bid so far: {n}", { n: v.bid }) : _("Bidding"));
  }
  mid.append(info);
  const trick = h("div", { class: "trick", "aria-label": _("Current trick") });
  const where = (/** @type {number} */ pos) => { const seat = v.positions[pos]; return seat === me ? "me" : seat === left ? "left" : "right"; };
  let shown = v.trick;
  let done = false;
  if (!shown.length && v.tricks.length && (v.phase === "PLAY" || v.phase === "OVER")) {
    const last = v.tricks[v.tricks.length - 1];
    shown = last[1].map((/** @type {string} */ c, /** @type {number} */ i) => [(last[0] + i) % 3, c]);
    done = true;
  }
  for (const [pos, code] of shown) {
    const slot = h("div", { class: `slot ${where(pos)} ${done ? "done" : ""}` });
    slot.append(cardEl(code, style, { key: code }));
    trick.append(slot);
  }
  if (v.phase === "BIDDING" || (v.phase === "SKAT" && !v.skat.length)) {
    trick.append(h("div", { class: "slot skat" }, backs(2)));
  }
  mid.append(trick);
  root.append(mid);

  // --- me: what I may do, my hand -----------------------------------------------------
  const meBox = player(me, "me");
  meBox.append(actions(st, ops));
  root.append(meBox);
  const hand = h("div", { class: "hand", role: "group", "aria-label": _("Your cards") });
  const handCards = v.hands && !mine ? v.hands[myPos] : v.hand;
  const legal = new Set(v.legal);
  handCards.forEach((/** @type {string} */ code) => {
    const key = code;
    if (!mine) { hand.append(cardEl(code, style, { key })); return; }
    if (v.phase === "DISCARD" && v.legal.length) {
      const sel = st.selected.includes(code);
      hand.append(cardEl(code, style, { key, selected: sel, onClick: () => {
        const s = sel ? st.selected.filter((c) => c !== code) : [...st.selected, code].slice(-2);
        ops.setSelected(s);
      } }));
    } else if (v.phase === "PLAY") {
      hand.append(cardEl(code, style, { key, legal: legal.size ? legal.has(code) : undefined, onClick: () => ops.act(code) }));
    } else {
      hand.append(cardEl(code, style, { key }));
    }
  });
  root.append(hand);
  if (st.panel === "last") root.append(lastTrick(st));
  requestAnimationFrame(() => flip(root, before));
  return root;
}

/** @param {import("./table.js").State} st @param {Ops} ops */
function actions(st, ops) {
  const v = st.view;
  const box = h("div", { class: "actions", role: "group", "aria-label": _("Your move") });
  const legal = /** @type {string[]} */ (v.legal);
  if (!legal.length) {
    if (v.to_move >= 0) waitingFor(st, box, ops.seatName(v.positions[v.to_move]));
    return box;
  }
  const button = (/** @type {string} */ text, /** @type {string} */ label, /** @type {string} */ cls = "") =>
    h("button", { type: "button", class: cls, "data-key": `a:${text}`, onclick: () => ops.act(text) }, label);
  switch (v.phase) {
    case "BIDDING":
      box.append(h("span", { class: "prompt" }, _("Your bid")));
      for (const a of legal) box.append(button(a, bidWord(a), a === "pass" ? "secondary" : ""));
      break;
    case "SKAT":
      box.append(h("span", { class: "prompt" }, _("You play. Hand or take the Skat?")));
      if (legal.includes("pickup")) box.append(button("pickup", _("Take the Skat")));
      if (legal.includes("hand")) box.append(button("hand", "Hand", "secondary"));
      break;
    case "DISCARD": {
      const sel = [...st.selected].sort();
      const text = legal.find((a) => a.split(" ").slice(1).sort().join(" ") === sel.join(" "));
      box.append(h("span", { class: "prompt" }, _("Choose two cards to put away")));
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
        mine.forEach((a, i) => group.append(button(a, contractName(a, st.style), i ? "secondary" : "")));
        grid.append(group);
      }
      box.append(grid);
      break;
    }
    case "PLAY":
      box.append(h("span", { class: "prompt your-turn" }, _("Your turn: play a card")));
      break;
    default:
      for (const a of legal) box.append(button(a, a));
  }
  return box;
}

/** @param {import("./table.js").State} st */
function lastTrick(st) {
  const v = st.view;
  const box = h("div", { class: "panel last-trick", role: "dialog", "aria-label": _("Last trick") });
  box.append(h("h2", {}, _("Last trick")));
  const last = v.tricks[v.tricks.length - 1];
  if (!last) { box.append(h("p", { class: "muted" }, _("No trick yet."))); return box; }
  const row = h("div", { class: "row" });
  last[1].forEach((/** @type {string} */ c, /** @type {number} */ i) => {
    const pos = (last[0] + i) % 3;
    row.append(h("figure", {}, cardEl(c, st.style), h("figcaption", {}, nameAt(st, pos))));
  });
  box.append(row, h("p", {}, _("{name} took it.", { name: nameAt(st, last[2]) })));
  return box;
}

/** @param {import("./table.js").State} st @param {number} pos */
function nameAt(st, pos) {
  return st.table.seats[st.view.positions[pos]]?.name || "?";
}

/** The game's result with its breakdown. @param {import("./table.js").State} st @param {Ops} ops */
function resultBox(st, ops) {
  const line = st.result;
  const r = line.result || {};
  // folded to its title while one has a move to make in the next game (a phone has no room)
  const box = h("details", { class: "panel result", "aria-label": _("Result"), open: !st.view.legal.length });
  const close = h("button", { type: "button", class: "secondary close", "aria-label": _("Close"), onclick: () => { st.result = null; box.remove(); } }, "×");
  box.append(close);
  if (line.kind === "ramsch") {
    box.append(h("summary", {}, h("h2", {}, r.durchmarsch ? _("Ramsch: Durchmarsch!") : "Ramsch")));
    const rows = h("tbody");
    line.positions.forEach((/** @type {number} */ seat, /** @type {number} */ pos) => {
      rows.append(h("tr", {}, h("td", {}, ops.seatName(seat)), h("td", { class: "num" }, String(r.points?.[pos] ?? "")), h("td", { class: "num" }, String(r.tricks?.[pos] ?? "")), h("td", { class: "num" }, signed(line.scores[seat]))));
    });
    box.append(h("table", { class: "data" }, h("thead", {}, h("tr", {}, h("th", {}, _("Player")), h("th", { class: "num" }, _("Points")), h("th", { class: "num" }, _("Tricks")), h("th", { class: "num" }, _("Score")))), rows));
  } else if (line.kind === "passed") {
    box.append(h("summary", {}, h("h2", {}, _("Everyone passed: no game."))));
  } else {
    const who = ops.seatName(line.declarer);
    box.append(h("summary", {}, h("h2", { class: line.won ? "won" : "lost" }, line.won ? _("{name} wins {game}", { name: who, game: line.game }) : _("{name} loses {game}", { name: who, game: line.game }))));
    // counted the Skat way: "ohne 2, Spiel 3, Hand 4, Schneider 5 = ×5"
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
    dl.append(h("dt", {}, _("Value")), h("dd", {}, String(line.value)));
    dl.append(h("dt", {}, _("Bid")), h("dd", {}, String(r.bid ?? "")));
    if (r.overbid) dl.append(h("dt", {}, _("Overbid")), h("dd", {}, _("the game was worth less than the bid")));
    if (r.declarer_points !== undefined) dl.append(h("dt", {}, _("Card points")), h("dd", {}, `${r.declarer_points} : ${r.defender_points}`));
    dl.append(h("dt", {}, _("List")), h("dd", {}, line.scores.map((/** @type {number} */ s, /** @type {number} */ i) => `${ops.seatName(i)} ${signed(s)}`).join(" · ")));
    box.append(dl);
  }
  const v = st.view;
  if (v.deal) {
    const d = h("details", {}, h("summary", {}, _("All hands")));
    v.deal.hands.forEach((/** @type {string[]} */ hand, /** @type {number} */ pos) => {
      const row = h("div", { class: "row deal-row" }, h("span", { class: "who" }, nameAt(st, pos)));
      for (const c of hand) row.append(cardEl(c, st.style, { small: true }));
      d.append(row);
    });
    const sk = h("div", { class: "row deal-row" }, h("span", { class: "who" }, "Skat"));
    for (const c of v.deal.skat) sk.append(cardEl(c, st.style, { small: true }));
    d.append(sk);
    box.append(d);
  }
  return box;
}

/** A score with its sign ("+12", "-5", "0"). @param {number} n */
export function signed(n) { return n > 0 ? `+${n}` : String(n); }

/**
 * "… ist dran" while another seat has the move (nothing when the game is over or for a
 * spectator).
 * @param {import("./table.js").State} st @param {HTMLElement} box @param {string} name
 */
export function waitingFor(st, box, name) {
  const v = st.view;
  if (v.phase !== "OVER" && v.to_move >= 0 && st.you !== null) {
    box.append(h("span", { class: "muted" }, _("{name} to move", { name })));
  }
}

/** The Skat list: every game, the running Punktestand, Bilanz. @param {import("./table.js").State} st */
export function skatListPanel(st) {
  const L = st.list;
  const box = h("div", { class: "panel list", role: "dialog", "aria-label": _("List") });
  box.append(h("h2", {}, _("List")));
  if (!L) { box.append(h("p", { class: "muted" }, _("No game yet."))); return box; }
  const names = L.players;
  const head = h("tr", {}, h("th", { class: "num" }, "#"), h("th", {}, _("Game")), h("th", { class: "num" }, _("Value")),
    ...names.map((/** @type {string} */ n) => h("th", { class: "num" }, n)));
  const body = h("tbody");
  for (const g of L.games) {
    body.append(h("tr", {}, h("td", { class: "num" }, String(g.number)),
      h("td", {}, g.declarer !== null && g.declarer !== undefined ? `${names[g.declarer]}: ${g.game}` : g.game),
      h("td", { class: "num" }, g.kind === "game" ? (g.won ? "" : "−") + g.value : String(g.value)),
      ...g.totals.map((/** @type {number} */ tot, /** @type {number} */ i) => h("td", { class: `num ${g.scores[i] ? "changed" : ""}` }, String(tot)))));
  }
  const foot = h("tfoot", {},
    h("tr", {}, h("th", { colspan: 3 }, "Punktestand"), ...L.punktestand.map((/** @type {number} */ p) => h("td", { class: "num" }, String(p)))),
    h("tr", {}, h("th", { colspan: 3 }, "Bilanz"), ...L.bilanz.map((/** @type {number} */ p) => h("td", { class: "num" }, signed(p)))));
  box.append(h("div", { class: "scroll" }, h("table", { class: "data skat-list" }, h("thead", {}, head), body, foot)));
  return box;
}
