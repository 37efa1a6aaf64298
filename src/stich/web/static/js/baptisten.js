// @ts-check
/**
 * Drawing a Baptistenskat table (3 to 15 seats) from a seat's view, and the
 * Anschreibezettel beside it.  Seats in the view are table seats.  A bid comes with its
 * stake as one action text (`bid 2 stake 5`): the bid is chosen first, then the stake.
 */
import { _, h } from "./site.js";
import { cardEl, signed, waitingFor } from "./skat.js";
import { flip, snapshotRects } from "./motion.js";
import { hidePanel, panelKey, showPanel } from "./panels.js";

/**
 * @typedef {{act: (t: string) => void, setSelected: (s: string[]) => void,
 *   seatName: (s: number) => string, chooseBid: (b: number|null) => void,
 *   render?: () => void, send?: (m: object) => void}} Ops
 */

/**
 * The round just over, as its `round_over` event told it: the line of the sheet, the
 * last trick `[leader, [cards], winner]` (from the event, or pieced together from the
 * last card played when the server does not send it), when it came, and how long the
 * table waits (`next_after`, seconds; 0: it goes on at once).
 * @typedef {{round: number, row: any, trick: [number, string[], number]|null, at: number,
 *   wait: number, closed: boolean, readySent: boolean, asked?: boolean}} RoundEnd
 */
/** @type {RoundEnd|null} */
let roundEnd = null;
/** the last card played and the view before it (to piece the last trick together) */
/** @type {{before: any, seat: number|null, text: string}|null} */
let lastAct = null;
/** @type {number|undefined} */
let ticker = undefined;
/** the operations of the last drawing (for the sheet's ⤢ beside the table) */
/** @type {Ops|null} */
let lastOps = null;


/** The card style for the plain decks (Rommé, Skat): French, four colours unless chosen. @param {string} style */
function plainStyle(style) { return style === "german" ? "french4" : style; }

/**
 * The final ranking once the table is over, as the server ranks it (the sheet's
 * `ranking`, from the same function as the printed Zettel's "Platz" and the
 * Bestenliste): highest total first, equal totals share a place.  Null before the end.
 * @param {import("./table.js").State} st @param {(seat: number) => string} seatName
 * @returns {HTMLElement|null}
 */
function finalRanking(st, seatName) {
  const rk = /** @type {{player: number, total: number, place: number}[]} */ (st.sheet?.ranking || []);
  if (!rk.length) return null;
  const body = h("tbody");
  for (const r of rk) {
    body.append(h("tr", { class: `${r.place === 1 ? "winner" : ""} ${r.player === st.you ? "mine" : ""}` },
      h("td", { class: "num place" }, `${r.place}.`),
      h("th", { scope: "row" }, h("span", { class: "nm" }, seatName(r.player)), r.player === st.you ? h("span", { class: "sr-only" }, " (" + _("you") + ")") : null),
      h("td", { class: "num total" }, String(r.total))));
  }
  return h("section", { class: "final-ranking", "aria-label": _("Final standings") },
    h("h3", {}, _("Final standings")),
    h("table", { class: "data ranking" },
      h("thead", {}, h("tr", {}, h("th", { class: "num", scope: "col" }, _("Place")),
        h("th", { scope: "col" }, _("Player")), h("th", { class: "num", scope: "col" }, _("Total")))), body));
}

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
  lastOps = ops;
  roundPanel(st, ops); // first: whether the round's result is still open decides the middle
  const root = h("div", { class: `bapt phase-${v.phase.toLowerCase()}` });
  const ranked = t.status === "over" ? finalRanking(st, ops.seatName) : null;
  if (ranked) root.append(ranked); // who won, above the seats

  // --- the players --------------------------------------------------------------------
  const played = new Map(v.trick.map((/** @type {[number, string]} */ x) => [x[0], x[1]]));
  const seats = h("ol", { class: `bseats n${n} ${n > 6 ? "many" : ""}`, "aria-label": _("Players") });
  for (let i = 0; i < n; i++) {
    const s = t.seats[i] || {};
    const tile = h("li", { class: `bseat ${v.to_move === i && v.phase !== "OVER" && t.status !== "over" ? "to-move" : ""} ${i === st.you ? "mine" : ""}` });
    const tags = h("div", { class: "tags" });
    if (v.first === i) tags.append(h("span", { class: "tag first", title: _("leads this round") }, _("leads")));
    if (s.kind === "bot") tags.append(h("span", { class: "tag bot" }, _("bot")));
    if (s.standin) tags.append(h("span", { class: "tag away" }, _("bot plays for {name}", { name: s.name })));
    else if (s.away) tags.append(h("span", { class: "tag away" }, _("away")));
    tile.append(h("div", { class: "name" }, ops.seatName(i), i === st.you ? " " : null, i === st.you ? h("span", { class: "tag" }, _("you")) : null), tags);
    const bid = v.bids[i];
    const facts = h("div", { class: "facts" });
    const staked = v.stakes[i] !== null && v.stakes[i] !== undefined;
    facts.append(h("span", { class: "bid", title: _("bid and stake") },
      h("span", { class: "long" }, bid >= 0 ? _("bid {n}", { n: bid }) : h("span", { "aria-label": _("no bid yet"), title: _("no bid yet") }, "–"),
        staked ? " · " + v.stakes[i] + (v.forced[i] ? " (" + _("forced") + ")" : "") : ""),
      // the same, short (many seats on a phone): "2/40!"
      h("span", { class: "short", "aria-hidden": "true" }, bid >= 0 ? String(bid) + (staked ? "/" + v.stakes[i] + (v.forced[i] ? "!" : "") : "") : "–")));
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

  // --- the middle: trump, the trick ---------------------------------------------------
  const mid = h("section", { class: "middle", "aria-label": _("Table") });
  mid.append(h("div", { class: "trump" }, h("span", {}, _("Trump")), cardEl(v.trump_card, style, {})),
    h("div", { class: "game-info" }, v.cards === 1 ? _("Round {n}: 1 card", { n: v.round }) : _("Round {n}: {c} cards", { n: v.round, c: v.cards })));
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
  if (roundEnd && roundEnd.closed) {
    mid.append(h("button", { type: "button", class: "secondary again", onclick: () => {
      if (roundEnd) { roundEnd.closed = false; roundEnd.asked = true; }
      ops.render?.();
    } }, _("Round {n}: the result", { n: roundEnd.round })));
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
  sheetView(st, ops);
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

// --- a round's end -------------------------------------------------------------------------

/**
 * What the table's events mean for a round's end (called by table.js for every event;
 * `before` is the view before the event).  `round_over` opens the round's result: its
 * last trick with who took it, then the round's line of the Anschreibezettel; while the
 * table waits (`table.between`), "Weiter" says `ready`; `next` ends the wait.
 * @param {import("./table.js").State} st @param {import("./net.js").EventMsg} m @param {any} before
 */
export function baptistenEvent(st, m, before) {
  const t = st.table;
  switch (m.kind) {
    case "act":
      lastAct = { before, seat: m.seat, text: String(m.data?.text ?? "") };
      if (t && t.between) t.between = false; // the table went on
      break;
    case "round_over": {
      const row = m.data?.sheet_row;
      if (!row) break;
      const wait = Number(t?.next_after ?? 0);
      if (t) { t.between = wait > 0; t.ready = []; }
      roundEnd = { round: row.round, row, trick: m.data?.trick ?? pieceTrick(row, st), at: Date.now(),
        wait, closed: false, readySent: false };
      break;
    }
    case "ready":
      if (t && m.seat !== null) t.ready = [...(t.ready || []).filter((/** @type {number} */ x) => x !== m.seat), m.seat];
      if (roundEnd && m.seat === st.you) roundEnd.readySent = true;
      break;
    case "next":
      if (t) { t.between = false; t.ready = []; }
      if (roundEnd) roundEnd.closed = true;
      if (panelKey().startsWith("bround:")) hidePanel();
      break;
    default: break;
  }
}

/**
 * The round's last trick from the last card played and the view before it (a server
 * that does not send `trick`): the cards in play order and who gained a trick.
 * @param {any} row @param {import("./table.js").State} st @returns {[number, string[], number]|null}
 */
function pieceTrick(row, st) {
  const b = lastAct?.before;
  if (!b || b.phase !== "PLAY" || b.round !== row.round || lastAct?.seat === null || lastAct?.seat === undefined) return null;
  const plays = /** @type {[number, string][]} */ ([...b.trick, [lastAct.seat, lastAct.text]]);
  const won = row.entries.find((/** @type {any} */ e) => e.tricks > (b.tricks_won[e.player] ?? 0));
  if (!won || plays.length !== st.table.seats.length) return null;
  return [plays[0][0], plays.map((x) => x[1]), won.player];
}

/** Show (or keep) the round's result while it is not closed. @param {import("./table.js").State} st @param {Ops} ops */
function roundPanel(st, ops) {
  const t = st.table;
  if (!roundEnd && t.between && st.sheet?.rounds?.length) {
    // back at a table that waits between rounds (a reload): the line from the sheet
    const row = st.sheet.rounds[st.sheet.rounds.length - 1];
    roundEnd = { round: row.round, row, trick: null, at: Date.now(), wait: Number(t.next_after || 0),
      closed: false, readySent: (t.ready || []).includes(st.you) };
  }
  const re = roundEnd;
  if (!re || re.closed) return;
  const waiting = !!t.between && re.wait > 0 && Date.now() - re.at < (re.wait + 5) * 1000;
  if (!waiting && !re.asked && st.you !== null && st.view.legal.length) {
    // the table went on and it is your move: the controls come first
    re.closed = true;
    if (panelKey().startsWith("bround:")) hidePanel();
    return;
  }
  const ready = /** @type {number[]} */ (t.ready || []);
  if (st.panel === "sheet") st.panel = "";
  const key = `bround:${re.round}:${re.readySent}:${waiting}:${ready.join(",")}:${lastRound(st, re) ? st.sheet.ranking.length : 0}`;
  showPanel(key, _("Round {n} is over", { n: re.round }), () => roundContent(st, ops, re, waiting),
    { kind: "bround", modal: waiting, onClose: () => { re.closed = true; ops.render?.(); } });
  clearInterval(ticker);
  if (waiting) ticker = window.setInterval(() => tick(re), 500);
  tick(re);
}

/** Whether this round ended the table (the sheet has the final ranking and ends with it). @param {import("./table.js").State} st @param {RoundEnd} re */
function lastRound(st, re) {
  const S = st.sheet;
  return !!(S?.ranking?.length && S.rounds?.length && S.rounds[S.rounds.length - 1].round === re.round);
}

/** The countdown under "Weiter". @param {RoundEnd} re */
function tick(re) {
  const el = document.querySelector(".round-countdown");
  if (!el || !panelKey().startsWith("bround:")) { clearInterval(ticker); return; }
  const left = Math.max(0, Math.ceil(re.wait - (Date.now() - re.at) / 1000));
  el.textContent = left > 0 ? _("The next round begins in {n} s.", { n: left }) : _("The next round begins.");
}

/**
 * @param {import("./table.js").State} st @param {Ops} ops @param {RoundEnd} re @param {boolean} waiting
 * @returns {(Node|string|null)[]}
 */
function roundContent(st, ops, re, waiting) {
  const style = plainStyle(st.style);
  const n = st.table.seats.length;
  const out = [];
  // the table's last round: who won the table comes first
  if (lastRound(st, re)) out.push(finalRanking(st, ops.seatName));
  if (re.trick) {
    const [leader, cards, winner] = re.trick;
    out.push(h("p", { class: "taker" }, h("strong", {}, _("{name} takes the trick.", { name: ops.seatName(winner) }))));
    const row = h("div", { class: "round-trick", role: "group", "aria-label": _("Last trick") });
    cards.forEach((c, k) => {
      const seat = (leader + k) % n;
      row.append(h("figure", { class: seat === winner ? "won" : "" },
        /^[A-Z]{1,2}\d*[A-Z]?$|^JK$/.test(c) ? cardEl(c, style, {}) : h("span", { class: "card unknown" }, "?"),
        h("figcaption", {}, ops.seatName(seat), seat === winner ? h("span", { class: "sr-only" }, " " + _("takes the trick")) : null)));
    });
    out.push(row);
  }
  const first = re.row.first ?? 0;
  const stakes = re.row.entries.some((/** @type {any} */ e) => e.stake !== null && e.stake !== undefined);
  const body = h("tbody");
  for (let k = 0; k < n; k++) {
    const p = (first + k) % n;
    const e = re.row.entries.find((/** @type {any} */ x) => x.player === p);
    if (!e) continue;
    const exact = e.bid === e.tricks;
    body.append(h("tr", { class: `${exact ? "hit" : "miss"} ${p === st.you ? "mine" : ""}` },
      h("th", { scope: "row" }, ops.seatName(p)),
      h("td", { class: "num" }, e.stake === null || e.stake === undefined ? String(e.bid) : `${e.bid}/${e.stake}${e.forced ? "!" : ""}`),
      h("td", { class: "num" }, String(e.tricks), h("span", { class: "mark", "aria-label": exact ? _("exact") : _("missed") }, exact ? " ✓" : " ✗")),
      h("td", { class: "num score" }, signed(e.score)), h("td", { class: "num total" }, String(e.total))));
  }
  out.push(h("h3", {}, _("The round on the Anschreibezettel")),
    h("div", { class: "sheet-scroll" }, h("table", { class: "data round-line" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, _("Player")), h("th", { class: "num", scope: "col" }, ...(stakes ? slashWrap(_("Bid/stake")) : [_("Bid (tricks)")])),
        h("th", { class: "num", scope: "col" }, _("Tricks")), h("th", { class: "num", scope: "col" }, _("Score")),
        h("th", { class: "num", scope: "col" }, _("Total")))), body)));
  const foot = h("div", { class: "round-foot" });
  const t = st.table;
  const mine = st.you !== null;
  if (waiting) {
    const ready = /** @type {number[]} */ (t.ready || []);
    const missing = t.seats.map((/** @type {any} */ s, /** @type {number} */ i) => ({ s, i }))
      .filter((/** @type {any} */ x) => x.s.kind === "person" && !x.s.away && !x.s.standin && !x.s.quit
        && !ready.includes(x.i) && !(x.i === st.you && re.readySent))
      .map((/** @type {any} */ x) => ops.seatName(x.i));
    if (mine && !re.readySent) {
      foot.append(h("button", { type: "button", class: "go", "data-ready": "", "data-key": "a:ready", onclick: () => {
        re.readySent = true;
        ops.send?.({ type: "ready" });
        ops.render?.();
      } }, _("Next")));
    } else if (missing.length) {
      foot.append(h("p", { class: "muted" }, _("Waiting for {names}.", { names: missing.join(", ") })));
    }
    foot.append(h("p", { class: "round-countdown muted", "aria-live": "off" }));
  } else {
    foot.append(h("button", { type: "button", class: "go", "data-ready": "", "data-key": "a:ready", onclick: () => {
      re.closed = true;
      hidePanel();
      ops.render?.();
    } }, _("Next")));
  }
  out.push(foot);
  return out;
}

/** "Ansage/Einsatz" as words that may wrap after the slash (a phone's narrow column). @param {string} text */
function slashWrap(text) {
  return text.split("/").flatMap((w, i) => (i ? ["/", h("wbr"), w] : [w]));
}

// --- the Anschreibezettel ---------------------------------------------------------------------

/** where the sheet was scrolled to, kept across redraws (a table update never moves it) */
const sheetScroll = { left: 0, top: 0, rows: -1 };
/** @type {HTMLElement[]} sheets drawn since the last `keepSheetScroll()` */
let placed = [];

/**
 * Right after a drawing is in the page: the sheet beside the table scrolls back to where
 * it was, before anything is painted (the frame after would show it at the left first).
 */
export function keepSheetScroll() {
  for (const sc of placed) {
    if (!sc.isConnected) continue;
    sc.scrollLeft = sheetScroll.left;
  }
  placed = [];
}

/**
 * The Anschreibezettel as the seed text has it: the names (seat order), the column of
 * first players' initials, per round bid/stake and the running total.  The round
 * columns stay at the left while the players' columns scroll within the sheet; a cue at
 * the edge says that there is more.
 * @param {import("./table.js").State} st @returns {HTMLElement}
 */
function sheetTable(st) {
  const S = st.sheet;
  const names = /** @type {string[]} */ (S.players);
  const head = h("tr", {}, h("th", { class: "num rd", scope: "col", title: _("Round (cards)") }, _("Rd.")),
    h("th", { class: "ini", title: _("leads"), scope: "col" }, h("span", { class: "sr-only" }, _("leads"))),
    ...names.map((nm, i) => h("th", { class: `num pl ${i === st.you ? "mine" : ""}`, scope: "col", title: nm }, nm)));
  const body = h("tbody");
  for (const r of S.rounds) {
    const cells = names.map((_n, i) => {
      const e = r.entries.find((/** @type {any} */ x) => x.player === i);
      if (!e) return h("td", {});
      const bs = e.stake === null || e.stake === undefined ? `${e.bid}` : `${e.bid}/${e.stake}${e.forced ? "!" : ""}`;
      return h("td", { class: `num ${e.score > 0 ? "plus" : "minus"} ${i === st.you ? "mine" : ""} ${e.standin ? "by-standin" : ""}`,
        title: e.standin ? _("A bot played for {name} in this round", { name: names[i] }) : null },
        h("span", { class: "bs" }, bs), e.standin ? h("span", { class: "standin-mark", "aria-label": _("A bot played for {name} in this round", { name: names[i] }) }, "*") : null,
        h("br"), h("span", { class: "tot" }, String(e.total)));
    });
    body.append(h("tr", {}, h("td", { class: "num rd" }, `${r.round}`, h("small", { class: "muted" }, ` (${r.cards})`)),
      h("td", { class: "initial ini", title: names[r.first] }, (names[r.first] || "?").slice(0, 1).toUpperCase()), ...cells));
  }
  return h("table", { class: `data zettel n${names.length}` }, h("thead", {}, head), body);
}

/** The sheet in a box that scrolls within itself and shows a cue where there is more. @param {import("./table.js").State} st @param {boolean} keep */
function sheetScroller(st, keep) {
  const table = sheetTable(st);
  const sc = h("div", { class: "sheet-scroll", tabindex: "0", role: "region", "aria-label": "Anschreibezettel" }, table);
  const wrap = h("div", { class: "sheet-frame" }, sc,
    h("span", { class: "cue cue-right", "aria-hidden": "true" }, "›"), h("span", { class: "cue cue-left", "aria-hidden": "true" }, "‹"));
  const cue = () => {
    if (!sc.isConnected) return;
    wrap.classList.toggle("more-right", sc.scrollLeft + sc.clientWidth < sc.scrollWidth - 2);
    wrap.classList.toggle("more-left", sc.scrollLeft > 2);
    if (keep) { sheetScroll.left = sc.scrollLeft; sheetScroll.top = sc.scrollTop; }
  };
  sc.addEventListener("scroll", cue, { passive: true });
  if (keep) placed.push(sc);
  requestAnimationFrame(() => {
    if (!sc.isConnected) return; // replaced by a later drawing in the same frame
    const rows = st.sheet.rounds.length;
    if (keep) {
      sc.scrollLeft = sheetScroll.left;
      // a new round: its line comes into view; otherwise the sheet stays where it was
      sc.scrollTop = rows !== sheetScroll.rows ? sc.scrollHeight : sheetScroll.top;
      sheetScroll.rows = rows;
    } else {
      sc.scrollTop = sc.scrollHeight;
    }
    cue();
  });
  return wrap;
}

/**
 * The Anschreibezettel beside the table (a laptop), with a button that opens it as a
 * view of its own; on a phone it opens from the tools ("Anschreibezettel").
 * @param {import("./table.js").State} st
 */
export function sheetPanel(st) {
  const S = st.sheet;
  const box = h("aside", { class: "panel sheet", "aria-label": "Anschreibezettel" });
  const big = h("button", { type: "button", class: "secondary enlarge", "aria-label": _("The Anschreibezettel as a view of its own"),
    onclick: () => { st.panel = "sheet"; sheetView(st, lastOps); } }, "⤢");
  box.append(h("div", { class: "sheet-head" }, h("h2", {}, "Anschreibezettel"), S && S.players && S.rounds.length ? big : null));
  if (!S || !S.players) { box.append(h("p", { class: "muted" }, _("No round yet."))); return box; }
  box.append(sheetScroller(st, true));
  if (S.ranking && S.rounds.length) {
    box.append(h("p", { class: "muted" }, _("bid/stake above, running total below; ! marks a forced 40")));
  }
  return box;
}

/**
 * The sheet as a view of its own (through panels.js) while `st.panel` is "sheet": on a
 * phone from the tools, on a laptop from the ⤢ beside the sheet.  Rebuilt only when a
 * round was added.
 * @param {import("./table.js").State} st @param {Ops|null} ops
 */
function sheetView(st, ops) {
  const S = st.sheet;
  if (panelKey().startsWith("bround:")) return; // a round's result comes first
  if (st.panel !== "sheet") { if (panelKey().startsWith("sheet:")) hidePanel(); return; }
  const rows = S?.rounds?.length ?? 0;
  showPanel(`sheet:${rows}:${st.you}`, "Anschreibezettel", () => [
    S && S.players ? sheetScroller(st, false) : h("p", { class: "muted" }, _("No round yet.")),
    S && S.players && rows ? h("p", { class: "muted" }, _("bid/stake above, running total below; ! marks a forced 40")) : null,
  ], { kind: "sheet", onClose: () => { st.panel = ""; ops?.render?.(); } });
}
