// @ts-check
/**
 * Drawing a Baptistenskat table (3 to 15 seats) from a seat's view, and the
 * Anschreibezettel beside it.  Seats in the view are table seats.  A bid comes with its
 * stake as one action text (`bid 2 stake 5`): the bid is chosen first, then the stake.
 */
import { _, h } from "./site.js";
import { cardEl, signed, waitingFor } from "./skat.js";
import { flip, snapshotRects } from "./motion.js";

/**
 * @typedef {{act: (t: string) => void, setSelected: (s: string[]) => void,
 *   seatName: (s: number) => string, chooseBid: (b: number|null) => void}} Ops
 */


/** The card style for the plain decks (Rommé, Skat): French, four colours unless chosen. @param {string} style */
function plainStyle(style) { return style === "german" ? "french4" : style; }

/**
 * @param {import("./table.js").State} st
 * @param {Ops} ops
 */
export function renderBaptisten(st, ops) {
  const v = st.view;
  const t = st.table;
  const style = plainStyle(st.style);
  const n = t.seats.length;
  const before = snapshotRects(document.querySelector(".bapt"));
  const root = h("div", { class: `bapt phase-${v.phase.toLowerCase()}` });

  // --- the players --------------------------------------------------------------------
  const played = new Map(v.trick.map((/** @type {[number, string]} */ x) => [x[0], x[1]]));
  const seats = h("ol", { class: `bseats n${n}`, "aria-label": _("Players") });
  for (let i = 0; i < n; i++) {
    const s = t.seats[i] || {};
    const tile = h("li", { class: `bseat ${v.to_move === i && v.phase !== "OVER" ? "to-move" : ""} ${i === st.you ? "mine" : ""}` });
    const tags = h("div", { class: "tags" });
    if (v.first === i) tags.append(h("span", { class: "tag first", title: _("leads this round") }, _("leads")));
    if (s.kind === "bot") tags.append(h("span", { class: "tag" }, _("bot")));
    if (s.standin) tags.append(h("span", { class: "tag away" }, _("bot plays for {name}", { name: s.name })));
    else if (s.away) tags.append(h("span", { class: "tag away" }, _("away")));
    tile.append(h("div", { class: "name" }, ops.seatName(i), i === st.you ? h("span", { class: "tag" }, _("you")) : null), tags);
    const bid = v.bids[i];
    const facts = h("div", { class: "facts" });
    facts.append(h("span", { class: "bid", title: _("bid and stake") },
      bid >= 0 ? _("bid {n}", { n: bid }) : h("span", { "aria-label": _("no bid yet"), title: _("no bid yet") }, "–"),
      v.stakes[i] !== null && v.stakes[i] !== undefined ? " · " + v.stakes[i] + (v.forced[i] ? " (" + _("forced") + ")" : "") : ""));
    facts.append(h("span", { class: "won" }, (v.tricks_won[i] === 1 ? _("1 trick") : _("{n} tricks", { n: v.tricks_won[i] }))));
    if (v.owed[i]) facts.append(h("span", { class: "owed", title: _("40s still to stake") }, _("40 owed ×{n}", { n: v.owed[i] })));
    facts.append(h("span", { class: "total" }, signed(v.totals[i])));
    tile.append(facts);
    const fore = v.others?.[i] || [];
    if (fore.length) {
      const row = h("div", { class: "forehead", "aria-label": _("on the forehead") });
      for (const c of fore) row.append(cardEl(c, style, { small: true }));
      tile.append(row);
    } else if (v.hands?.[i]?.length && i !== st.you) {
      const row = h("div", { class: "forehead" });
      for (const c of v.hands[i]) row.append(cardEl(c, style, { small: true }));
      tile.append(row);
    }
    const card = played.get(i);
    if (card) tile.append(h("div", { class: "played" }, cardEl(card, style, { key: `p${i}-${card}` })));
    seats.append(tile);
  }
  root.append(seats);
  if (st.result && st.result.entries) root.append(roundBox(st, ops));

  // --- the middle: trump, the trick ---------------------------------------------------
  const mid = h("section", { class: "middle", "aria-label": _("Table") });
  mid.append(h("div", { class: "trump" }, h("span", {}, _("Trump")), cardEl(v.trump_card, style, {})),
    h("div", { class: "game-info" }, _("Round {n}: {c} cards", { n: v.round, c: v.cards })));
  // the rules that change how a trick goes, said where they matter
  const notes = h("ul", { class: "rule-notes" });
  if (/deck=romme-double/.test(v.rules)) notes.append(h("li", {}, _("Double deck: of two equal cards, the one played later wins.")));
  if (/variants=[0-9+]*5/.test(v.rules)) notes.append(h("li", {}, _("Must overtrump: when trump is led, play a higher trump than those played so far, if you can.")));
  if (v.cards === 1 && v.others?.some((/** @type {string[]} */ o) => o.length)) notes.append(h("li", {}, _("Forehead round: you see everybody's card but your own.")));
  if (notes.childElementCount) mid.append(notes);
  if (v.phase === "PLAY" && !v.trick.length && v.round_tricks.length) {
    const last = v.round_tricks[v.round_tricks.length - 1];
    mid.append(h("div", { class: "muted" }, _("{name} took the last trick.", { name: ops.seatName(last[2]) })));
  }
  root.append(mid);

  // --- me --------------------------------------------------------------------------------
  const meBox = h("section", { class: "player me" });
  meBox.append(actions(st, ops));
  root.append(meBox);
  const hand = h("div", { class: "hand", role: "group", "aria-label": _("Your cards") });
  const legal = new Set(v.legal);
  const mine = st.you !== null;
  v.hand.forEach((/** @type {string} */ code, /** @type {number} */ i) => {
    const key = `h${i}-${code}`;
    if (mine && v.phase === "PLAY") hand.append(cardEl(code, style, { key, legal: legal.size ? legal.has(code) : undefined, onClick: () => ops.act(code) }));
    else hand.append(cardEl(code, style, { key }));
  });
  if (mine && legal.has("play")) {
    hand.append(h("button", { type: "button", class: "card back-play", "data-key": "a:play", onclick: () => ops.act("play"), "aria-label": _("Play the card on your forehead") }, _("Play your card")));
  }
  root.append(hand);
  requestAnimationFrame(() => flip(root, before));
  return root;
}

/** @param {import("./table.js").State} st @param {Ops} ops */
function actions(st, ops) {
  const v = st.view;
  const box = h("div", { class: "actions", role: "group", "aria-label": _("Your move") });
  const legal = /** @type {string[]} */ (v.legal);
  if (!legal.length) {
    if (v.to_move >= 0) waitingFor(st, box, ops.seatName(v.to_move));
    return box;
  }
  if (v.phase === "BIDDING") {
    /** @type {Map<number, number[]>} */
    const byBid = new Map();
    for (const a of legal) {
      const m = /^bid (\d+) stake (\d+)$/.exec(a);
      if (!m) continue;
      const b = Number(m[1]), s = Number(m[2]);
      byBid.set(b, [...(byBid.get(b) || []), s]);
    }
    box.append(h("span", { class: "prompt" }, _("How many tricks will you take?")));
    const bids = h("div", { class: "bids" });
    for (let b = 0; b <= v.cards; b++) {
      if (!byBid.has(b)) {
        const why = v.hooked === b ? _("{n} is forbidden: the bids must not add up to the cards", { n: b }) : _("not allowed");
        bids.append(h("button", { type: "button", class: "secondary hooked", disabled: true, title: why, "aria-label": `${b}: ${why}` }, String(b)));
        continue;
      }
      bids.append(h("button", { type: "button", class: st.bidChoice === b ? "" : "secondary", "aria-pressed": String(st.bidChoice === b), "data-key": `bid:${b}`, onclick: () => ops.chooseBid(b) }, String(b)));
    }
    box.append(bids);
    if (v.hooked !== null && v.hooked !== undefined && v.hooked >= 0) {
      box.append(h("p", { class: "hook" }, _("Hook rule: you may not bid {n}.", { n: v.hooked })));
    }
    const b = st.bidChoice;
    if (b !== null && byBid.has(b)) {
      const stakes = (byBid.get(b) || []).sort((x, y) => x - y);
      box.append(h("span", { class: "prompt" }, stakes.length === 1 && stakes[0] === 40 ? _("This round you stake 40.") : _("Your stake")));
      const row = h("div", { class: "stakes" });
      for (const s of stakes) row.append(h("button", { type: "button", "data-key": `stake:${s}`, onclick: () => ops.act(`bid ${b} stake ${s}`) }, String(s)));
      box.append(row);
    }
    return box;
  }
  if (v.phase === "PLAY") {
    box.append(h("span", { class: "prompt your-turn" }, legal.includes("play") ? _("Your turn: play the card on your forehead") : _("Your turn: play a card")));
    return box;
  }
  for (const a of legal) box.append(h("button", { type: "button", onclick: () => ops.act(a) }, a));
  return box;
}

/** The round just finished. @param {import("./table.js").State} st @param {Ops} ops */
function roundBox(st, ops) {
  const row = st.result;
  const box = h("details", { class: "panel result", "aria-label": _("Result"), open: !st.view.legal.length });
  box.append(h("button", { type: "button", class: "secondary close", "aria-label": _("Close"), onclick: () => { st.result = null; box.remove(); } }, "×"));
  box.append(h("summary", {}, h("h2", {}, _("Round {n} is over", { n: row.round }))));
  const body = h("tbody");
  for (const e of row.entries) {
    body.append(h("tr", { class: e.bid === e.tricks ? "hit" : "miss" }, h("td", {}, ops.seatName(e.player)),
      h("td", { class: "num" }, `${e.bid} / ${e.tricks}`), h("td", { class: "num" }, signed(e.score)), h("td", { class: "num" }, String(e.total))));
  }
  box.append(h("table", { class: "data" }, h("thead", {}, h("tr", {}, h("th", {}, _("Player")), h("th", { class: "num" }, _("bid / tricks")), h("th", { class: "num" }, _("Score")), h("th", { class: "num" }, _("Total")))), body));
  return box;
}

/**
 * The Anschreibezettel as the seed text has it: the names in draw order, the column of
 * first players' initials, per round bid and stake, the result and the running totals.
 * @param {import("./table.js").State} st
 */
export function sheetPanel(st) {
  const S = st.sheet;
  const box = h("aside", { class: "panel sheet", "aria-label": "Anschreibezettel" });
  box.append(h("h2", {}, "Anschreibezettel"));
  if (!S || !S.players) { box.append(h("p", { class: "muted" }, _("No round yet."))); return box; }
  const names = /** @type {string[]} */ (S.players);
  const head = h("tr", {}, h("th", { class: "num" }, _("Rd.")), h("th", { title: _("leads") }, ""),
    ...names.map((nm) => h("th", { class: "num", scope: "col" }, nm)));
  const body = h("tbody");
  for (const r of S.rounds) {
    const cells = names.map((_n, i) => {
      const e = r.entries.find((/** @type {any} */ x) => x.player === i);
      if (!e) return h("td", {});
      return h("td", { class: `num ${e.score > 0 ? "plus" : "minus"}` },
        h("span", { class: "bs" }, `${e.bid}/${e.stake}${e.forced ? "!" : ""}`), h("br"),
        h("span", { class: "tot" }, String(e.total)));
    });
    body.append(h("tr", {}, h("td", { class: "num" }, `${r.round}`, h("small", { class: "muted" }, ` (${r.cards})`)),
      h("td", { class: "initial", title: names[r.first] }, (names[r.first] || "?").slice(0, 1).toUpperCase()), ...cells));
  }
  box.append(h("div", { class: "scroll" }, h("table", { class: "data zettel" }, h("thead", {}, head), body)));
  if (S.ranking && S.rounds.length) {
    box.append(h("p", { class: "muted" }, _("bid/stake above, running total below; ! marks a forced 40")));
  }
  return box;
}
