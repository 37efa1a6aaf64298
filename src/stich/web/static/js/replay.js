// @ts-check
/**
 * A finished game step by step (`GET /api/games/{id}/replay`): first/back/next/last and
 * the arrow keys, the hands before the trick being played (its cards already played
 * struck through), the trick, and per player what the game has given so far.  For Skat
 * the button "Analyse" asks `POST /api/games/{id}/analysis` (it starts the analysis, or
 * answers the one made already; a GET only reads a cached one) and shows on the steps and
 * the cards what it says: the value after every card, the best card, where the game was
 * lost or decided, and the discards that would have won.
 */
import { _, api, h } from "/static/js/site.js";
import { card as cardOf } from "/static/js/cardtext.js";

/** Whether the replay is of a Baptistenskat game (its plain decks are drawn French). */
let plainDeck = false;
/** A card in the person's card style (Skat) or French (Baptistenskat). @param {string} c */
const card = (c) => cardOf(c, { plain: plainDeck });

/**
 * @typedef {{ phase: string, to_move: number, hands: string[][], trick: [number, string][],
 *   actor: number|null, action: string|null, tricks?: [number, string[], number][],
 *   round_tricks?: [number, string[], number][], tricks_won: number[],
 *   points_taken?: number[], declarer?: number, bid?: number, contract?: string|null,
 *   round?: number, cards?: number, trump_card?: string|null, bids?: number[],
 *   stakes?: (number|null)[], forced?: boolean[], totals?: number[],
 *   by?: string|null }} Step
 * @typedef {{ index: number, trick: number, seat: number, declarer: boolean, card: string,
 *   value: number, best_card: string, best_value: number, loss: number, mark: string,
 *   mistake?: boolean, cost?: number, worth?: number }} Move
 * @typedef {{ players: string[], goal: { kind: string, points: number, value: number },
 *   start_value: number, start_winnable: boolean, winning_discards: (string|string[])[]|null,
 *   final_value: number, won: boolean, mistakes: number, lost_at: number|null,
 *   decided_at: number|null, moves: Move[], game: string, skat: string,
 *   start_worth?: number, score?: number|null, end?: string, kontra?: boolean, re?: boolean,
 *   bock?: number, factor?: number, gift?: number }} Analysis
 */

const CARD = /^(?:[CSHD][2-9TJQKA]|[RYGB]\d{1,2}|JK)$/;
const POSITIONS = ["Vorhand", "Mittelhand", "Hinterhand"];

/**
 * A translated sentence whose `{placeholders}` may be nodes (cards).
 * @param {string} text  already translated, with placeholders left in
 * @param {Record<string, string|number|Node>} args
 * @returns {(string|Node)[]}
 */
function fill(text, args) {
  /** @type {(string|Node)[]} */
  const out = [];
  for (const part of text.split(/(\{\w+\})/)) {
    const m = /^\{(\w+)\}$/.exec(part);
    const v = m ? args[m[1]] : undefined;
    if (v === undefined) { if (part) out.push(part); } else out.push(typeof v === "object" ? v : String(v));
  }
  return out;
}

/** A list score with its sign: "+36", "−72", "0". @param {number} n */
function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/** "1 Stich", "2 Stiche". @param {number} n */
function tricks(n) {
  return n === 1 ? _("1 trick") : _("{n} tricks", { n });
}

/** @param {string[]} codes */
function cards(codes) {
  const out = h("span", { class: "cards" });
  for (const c of codes) out.append(card(c), " ");
  return out;
}

class Replay {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.id = root.dataset.game || "";
    this.kind = root.dataset.kind || "skat";
    plainDeck = this.kind !== "skat";
    const invite = new URLSearchParams(location.search).get("invite");
    /** the invite of a private table's game, passed on to the API */
    this.invite = invite ? `?invite=${encodeURIComponent(invite)}` : "";
    /** @type {string[]} */
    this.names = JSON.parse(root.dataset.names || "[]");
    this.skat = (root.dataset.skat || "").split(" ").filter(Boolean);
    this.declared = root.dataset.declared || "";
    /** @type {Step[]} */
    this.steps = [];
    this.i = 0;
    /** @type {Analysis|null} */
    this.analysis = null;
    /** @type {number[]} the card (0 = the first card played) each step plays, or -1 */
    this.cardAt = [];
    /** @type {number[]} the cards played up to each step */
    this.played = [];
    /** @type {number[]} the step that plays each card */
    this.stepOf = [];
    /** @type {Set<number>} the players a stand-in played the whole game for */
    this.absent = new Set();
  }

  async start() {
    const status = h("p", { class: "muted" }, _("Loading the replay…"));
    this.root.append(status);
    try {
      const data = await api(`/api/games/${this.id}/replay${this.invite}`);
      this.steps = data.steps;
    } catch (e) {
      status.textContent = String(/** @type {Error} */ (e).message);
      status.className = "error";
      return;
    }
    status.remove();
    /** @type {Map<number, Set<string>>} */
    const by = new Map();
    for (const s of this.steps.slice(1)) {
      if (s.actor === null) continue;
      if (!by.has(s.actor)) by.set(s.actor, new Set());
      by.get(s.actor)?.add(s.by === "standin" ? "standin" : "own");
    }
    for (const [p, kinds] of by) if (!kinds.has("own")) this.absent.add(p);
    let n = 0;
    this.steps.forEach((s, i) => {
      const isCard = i > 0 && this.steps[i - 1].phase === "PLAY" && CARD.test(s.action || "");
      this.cardAt.push(isCard ? n : -1);
      if (isCard) { this.stepOf.push(i); n += 1; }
      this.played.push(n);
    });
    this.build();
    this.go(0);
  }

  build() {
    const btn = (/** @type {string} */ label, /** @type {string} */ sym, /** @type {() => void} */ f) =>
      h("button", { type: "button", class: "secondary", "aria-label": label, title: label, onclick: f }, sym);
    this.counter = h("span", { class: "pg-counter", "aria-live": "polite" });
    this.slider = /** @type {HTMLInputElement} */ (h("input", {
      type: "range", min: 0, max: this.steps.length - 1, value: 0, "aria-label": _("Step"),
      oninput: () => this.go(Number(this.slider?.value)),
    }));
    this.controls = h("div", { class: "pg-controls" },
      btn(_("First"), "«", () => this.go(0)),
      btn(_("Back"), "‹", () => this.go(this.i - 1)),
      this.counter,
      btn(_("Next"), "›", () => this.go(this.i + 1)),
      btn(_("Last"), "»", () => this.go(this.steps.length - 1)));
    this.caption = h("p", { class: "pg-caption" });
    this.info = h("p", { class: "pg-info muted" });
    this.trick = h("div", { class: "pg-trick", "aria-label": _("Trick") });
    this.hands = h("div", { class: "pg-hands" });
    this.note = h("div", { class: "pg-note" });
    this.root.append(this.controls, this.slider, this.caption, this.info, this.trick,
      this.hands, this.note);
    if (this.root.dataset.analysable) {
      this.abutton = /** @type {HTMLButtonElement} */ (h("button", { type: "button", onclick: () => this.analyse() }, _("Analyse")));
      this.apanel = h("div", { class: "pg-analysis", "aria-live": "polite" });
      this.root.append(h("div", { class: "row pg-analyse-row" }, this.abutton,
        h("span", { class: "muted small" }, _("open-card analysis of the card play"))), this.apanel);
    }
    this.root.append(h("p", { class: "muted small" }, _("Keys: ← → one step, Home / End the first and the last.")));
    document.addEventListener("keydown", (ev) => {
      const t = /** @type {HTMLElement} */ (ev.target);
      if (ev.altKey || ev.ctrlKey || ev.metaKey || ["INPUT", "SELECT", "TEXTAREA"].includes(t.tagName)) return;
      const to = { ArrowLeft: this.i - 1, ArrowRight: this.i + 1, Home: 0, End: this.steps.length - 1 }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      this.go(to);
    });
  }

  /** @param {number} i */
  go(i) {
    this.i = Math.max(0, Math.min(this.steps.length - 1, i));
    if (this.slider) this.slider.value = String(this.i);
    this.render();
  }

  /** @param {number} p */
  name(p) {
    const name = this.names[p] ?? `#${p + 1}`;
    return this.absent.has(p) ? _("Bot for {name}", { name }) : name;
  }

  /**
   * Who made step i's action: the player, the bot standing in for them (away or gone),
   * or the turn clock for them (docs/server.md, "Whose game was it").
   * @param {number} i
   */
  mover(i) {
    const s = this.steps[i];
    if (!s || s.actor === null) return "";
    const name = this.names[s.actor] ?? `#${s.actor + 1}`;
    if (s.by === "standin") return _("Bot for {name}", { name });
    if (s.by === "clock") return _("{name} (turn clock)", { name });
    return name;
  }

  /**
   * The trick to show at step i: the open one, or the one this step completed.
   * @param {number} i
   * @returns {{ cards: [number, string][], winner: number|null, complete: boolean }}
   */
  shownTrick(i) {
    const s = this.steps[i];
    if (s.trick.length) return { cards: s.trick, winner: null, complete: false };
    if (this.cardAt[i] < 0 || s.actor === null || !s.action) return { cards: [], winner: null, complete: false };
    const cards = /** @type {[number, string][]} */ ([...this.steps[i - 1].trick, [s.actor, s.action]]);
    const done = s.tricks || s.round_tricks || [];
    const last = done[done.length - 1];
    const same = last && last[1].join() === cards.map((c) => c[1]).join();
    return { cards, winner: same ? last[2] : null, complete: true };
  }

  /** @param {Step} s @param {number} i */
  describe(s, i) {
    const who = this.mover(i);
    const a = s.action || "";
    if (!a) return [_("The cards are dealt.")];
    if (CARD.test(a)) return fill(_("{name} plays {card}"), { name: who, card: card(a) });
    let m;
    if ((m = /^bid (\d+) stake (\d+)$/.exec(a))) return fill(_("{name} bids {n}, stake {stake}"), { name: who, n: m[1], stake: m[2] });
    if ((m = /^bid (\d+)$/.exec(a)) || (m = /^(\d+)$/.exec(a))) return fill(_("{name} bids {n}"), { name: who, n: m[1] });
    // house rules: Schenken (the offer, the partner's and the declarer's answers), a
    // Revolution's give (the replay shows every hand: its cards too)
    const prev = i > 0 ? this.steps[i - 1].action : "";
    if (a === "schenken") return fill(prev === "schenken" ? _("{name} agrees to give the game away") : _("{name} offers to give the game away (Schenken)"), { name: who });
    if (a === "accept") return fill(_("{name} accepts the gift: the game is won"), { name: who });
    if (a === "pass" && prev === "schenken") return fill(_("{name} plays on"), { name: who });
    if (a === "give") return fill(_("{name} gives the partner no card"), { name: who });
    if ((m = /^give (.+)$/.exec(a))) return fill(_("{name} gives the partner {cards}"), { name: who, cards: cards(m[1].split(" ")) });
    if (a === "pass") return fill(_("{name} passes"), { name: who });
    if (a === "hold") return fill(_("{name} holds"), { name: who });
    if (a === "hand") return fill(_("{name} plays Hand"), { name: who });
    if (a === "pickup") return fill(_("{name} picks up the Skat"), { name: who });
    if ((m = /^discard (.+)$/.exec(a))) return fill(_("{name} discards {cards}"), { name: who, cards: cards(m[1].split(" ")) });
    if (a.startsWith("declare ")) return fill(_("{name} declares {game}"), { name: who, game: this.declared || a.slice(8) });
    return [`${who}: ${a}`];
  }

  render() {
    const s = this.steps[this.i];
    const last = this.steps.length - 1;
    if (!this.counter || !this.caption || !this.info || !this.trick || !this.hands || !this.note || !this.controls) return;
    this.counter.textContent = _("Step {i} of {n}", { i: this.i, n: last });
    const buttons = this.controls.querySelectorAll("button");
    buttons[0].disabled = buttons[1].disabled = this.i === 0;
    buttons[2].disabled = buttons[3].disabled = this.i === last;
    this.caption.replaceChildren(...this.describe(s, this.i));
    // the game so far
    if (this.kind === "skat") {
      const bits = [];
      if (s.bid) bits.push(_("bid up to {n}", { n: s.bid })); // Skat: "gereizt bis 23", never "Ansage"
      if (s.contract && this.declared) bits.push(this.declared);
      if (s.phase === "OVER") bits.push(_("game over"));
      this.info.textContent = bits.join(" · ");
    } else {
      this.info.replaceChildren(...fill(_("Round {r}, cards: {c}, trump {card}"), {
        r: s.round ?? "", c: s.cards ?? "", card: s.trump_card ? card(s.trump_card) : "–",
      }));
    }
    // the trick
    const t = this.shownTrick(this.i);
    this.trick.replaceChildren();
    if (t.cards.length) {
      this.trick.append(h("span", { class: "muted" }, t.complete ? _("Trick:") : _("Trick so far:")));
      t.cards.forEach(([p, c], j) => {
        this.trick.append(h("span", { class: `pg-play${t.winner === p ? " pg-winner" : ""}` },
          card(c), h("small", {}, this.mover(this.i - t.cards.length + 1 + j))));
      });
      if (t.winner !== null) this.trick.append(h("span", { class: "pg-taker" }, _("{name} takes it", { name: this.name(t.winner) })));
    }
    // the hands before the trick; its cards struck through
    const before = this.steps[Math.max(0, this.i - t.cards.length)];
    const inTrick = new Set(t.cards.map((c) => c[1]));
    const next = this.analysis && s.phase === "PLAY" ? this.analysis.moves[this.played[this.i]] : undefined;
    this.hands.replaceChildren();
    before.hands.forEach((hand, p) => {
      const row = h("div", { class: `pg-hand${s.to_move === p && s.phase !== "OVER" ? " pg-tomove" : ""}` });
      const label = h("div", { class: "pg-who-hand" }, h("b", {}, this.name(p)));
      if (this.kind === "skat") {
        label.append(" ", h("span", { class: "muted small" }, POSITIONS[p] || ""));
        if (s.declarer === p) label.append(" ", h("span", { class: "tag" }, _("declarer")));
        const pts = s.points_taken?.[p] ?? 0;
        label.append(h("span", { class: "muted small pg-stat" }, tricks(s.tricks_won[p]) + ", " + _("{pts} card points", { pts })));
      } else {
        const bid = s.bids?.[p] ?? -1;
        const stake = s.stakes?.[p];
        label.append(h("span", { class: "muted small pg-stat" },
          bid >= 0 ? _("bid {n}", { n: bid }) + (stake !== null && stake !== undefined ? ", " + _("stake {n}", { n: stake }) : "") + " · " : "",
          tricks(s.tricks_won[p]) + " · " + _("total {total}", { total: s.totals?.[p] ?? 0 })));
      }
      const cs = h("span", { class: "cards" });
      for (const c of hand) {
        const el = card(c);
        if (inTrick.has(c)) el.classList.add("played");
        if (next && next.seat === p && next.best_card === c) { el.classList.add("best"); el.title += " · " + _("best card"); }
        cs.append(el, " ");
      }
      if (!hand.length) cs.append(h("span", { class: "muted" }, "—"));
      row.append(label, cs);
      this.hands.append(row);
    });
    if (this.kind === "skat" && this.skat.length) {
      const pushed = this.steps.slice(0, this.i + 1).map((x) => /^discard (.+)$/.exec(x.action || "")).filter(Boolean).pop();
      this.hands.append(h("div", { class: "pg-hand pg-skat" },
        h("div", { class: "pg-who-hand" }, h("b", {}, pushed ? _("Pushed") : "Skat")),
        cards(pushed ? pushed[1].split(" ") : this.skat)));
    }
    this.renderNote(next);
  }

  /** @param {Move|undefined} next  the analysis of the card about to be played */
  renderNote(next) {
    if (!this.note) return;
    this.note.replaceChildren();
    const a = this.analysis;
    if (!a) return;
    const k = this.cardAt[this.i];
    const m = k >= 0 ? a.moves[k] : undefined;
    if (m) {
      const line = h("p", { class: `pg-judged${m.mistake ? " pg-mistake" : ""}` },
        ...fill(_("Value after {card}: {value}"), { card: card(m.card), value: m.value }));
      if (m.loss > 0) line.append(" · ", ...fill(_("best was {card} ({value}), −{loss}"), { card: card(m.best_card), value: m.best_value, loss: m.loss }));
      if (m.mistake) line.append(" · ", h("b", {}, _("mistake: −{cost} on the list", { cost: m.cost ?? 0 })));
      if (m.mark === "lost_here") line.append(" · ", h("b", {}, _("lost from here")));
      if (m.mark === "won_here") line.append(" · ", h("b", {}, _("won from here")));
      this.note.append(line);
    }
    if (next) {
      this.note.append(h("p", { class: "muted" }, ...fill(_("Best card for {name}: {card} (value {value})"), {
        name: this.mover(this.stepOf[this.played[this.i]]) || this.name(next.seat), card: card(next.best_card), value: next.best_value,
      })));
    }
  }

  async analyse() {
    if (!this.abutton || !this.apanel) return;
    this.abutton.disabled = true;
    this.apanel.replaceChildren(h("p", { class: "muted" }, _("Analysing with open cards… this can take a minute.")));
    try {
      // a POST: starting an analysis spends the person's quota (never a GET's doing)
      const data = await api(`/api/games/${this.id}/analysis${this.invite}`, {});
      this.analysis = data.analysis;
    } catch (e) {
      this.apanel.replaceChildren(h("p", { class: "error" }, String(/** @type {Error} */ (e).message)));
      this.abutton.disabled = false;
      return;
    }
    this.abutton.parentElement?.remove();
    this.showAnalysis();
    this.render();
  }

  showAnalysis() {
    const a = this.analysis;
    if (!a || !this.apanel) return;
    const p = this.apanel;
    p.replaceChildren(h("h3", {}, _("Analysis with open cards")));
    const g = a.goal;
    const need = g.kind === "points" ? _("{points} card points (game value {value})", { points: g.points, value: g.value })
      : g.kind === "all_tricks" ? _("every trick (game value {value})", { value: g.value })
      : g.kind === "no_trick" ? _("no trick (game value {value})", { value: g.value })
      : _("impossible: the game is lost however it is played");
    p.append(h("p", {}, _("Needed to win:") + " " + need));
    const verdict = a.start_winnable ? _("won") : _("lost");
    p.append(h("p", {}, a.game === "null"
      ? (a.start_winnable ? _("From the first lead: won with open cards") : _("From the first lead: lost with open cards"))
      : _("From the first lead: {value} card points with open cards → {verdict}", {
        value: a.start_value, verdict })));
    if (a.start_worth !== undefined) p.append(h("p", {}, _("Worth with perfect play from the first lead: {worth} on the list", { worth: signed(a.start_worth) })));
    if ((a.factor ?? 1) > 1) {
      const said = [a.kontra ? "Kontra" : "", a.re ? "Re" : "", (a.bock ?? 1) > 1 ? (a.bock === 2 ? "Bock" : `Bock ×${a.bock}`) : ""].filter(Boolean);
      p.append(h("p", {}, _("{what}: the list counts the game ×{factor}", { what: said.join(" · "), factor: a.factor ?? 1 })));
    }
    if (a.gift === 1) p.append(h("p", {}, _("Schenken played on: the game counts as with Schneider announced")));
    if (a.gift === 2) p.append(h("p", {}, _("Schenken played on twice: the game counts as with Schwarz announced")));
    /** @type {Record<string, string>} */
    const ends = { claimed: _("the rest claimed"), claim_wrong: _("the rest claimed wrongly"), gave_up: _("given up"),
      gift: _("the gift accepted"), shortcut: _("the rest was decided") };
    const ended = ends[a.end ?? ""];
    if (ended) p.append(h("p", { class: "muted" }, _("The cards played are judged: the game ended before the last trick ({how}).", { how: ended })));
    if (a.winning_discards) {
      const row = h("p", {}, a.winning_discards.length
        ? _("Discards that would have won ({n} of 66):", { n: a.winning_discards.length })
        : _("No discard would have won."));
      for (const d of a.winning_discards.slice(0, 12)) row.append(" ", cards(Array.isArray(d) ? d : d.split(" ")));
      if (a.winning_discards.length > 12) row.append(" …");
      p.append(row);
    }
    /** @param {number|null} at @param {string} text */
    const turn = (at, text) => {
      if (at === null || !a.moves[at]) return;
      const m = a.moves[at];
      p.append(h("p", { class: "pg-turn" }, h("b", {}, text), " ",
        ...fill(_("trick {t}, {name} with {card}"), { t: m.trick, name: this.mover(this.stepOf[at]), card: card(m.card) }), " ",
        h("button", { type: "button", class: "link", onclick: () => this.go(this.stepOf[at]) }, _("show"))));
    };
    turn(a.lost_at, _("Lost from here:"));
    turn(a.decided_at, _("Won from here:"));
    // a mistake changed what the game is worth (won/lost, Schneider, Schwarz, the list
    // points); card points given away alone are shown on the card, not counted here
    const mistakes = a.moves.filter((m) => m.mistake);
    p.append(h("p", {}, _("Mistakes: {n}", { n: mistakes.length })));
    if (mistakes.length) {
      const list = h("ol", { class: "pg-mistakes" });
      for (const m of mistakes) {
        list.append(h("li", {}, h("button", { type: "button", class: "link", onclick: () => this.go(this.stepOf[m.index]) },
          ...fill(_("trick {t}, {name}: {card} instead of {best}, −{cost} on the list ({loss} card points)"), {
            t: m.trick, name: this.mover(this.stepOf[m.index]), card: card(m.card), best: card(m.best_card), cost: m.cost ?? 0, loss: m.loss,
          }))));
      }
      p.append(list);
    }
  }
}

const root = document.getElementById("replay");
if (root) new Replay(root).start();
