"""The Baptistenskat environment: :class:`BaptistenAdapter` and :func:`baptisten_v0`.

>>> from stich.env.baptisten import baptisten_v0
>>> e = baptisten_v0(players=4)
>>> e.reset(seed=1)
>>> e.agent_selection, int(e.action_space("player_0").n)
('player_3', 311)
>>> e.observation_space("player_0")["observation"].shape
(614,)

**Agents** are the seats ``player_0`` … ``player_{n-1}``; seat order is the table's, and
the first player of round 1 is drawn from the seed by the game's draw (highest card).

**Actions**: one fixed discrete space per rule set; :attr:`BaptistenAdapter.ACTIONS`
lists the engine text of each index, in this order:

- every bid ``bid k stake s`` for k = 0..N (N = ``max_cards``) and every stake the rules
  allow (1..20, and 40 when the rules require 40s), k first; under trick scoring
  (variant 3) ``bid k`` for k = 0..N instead;
- ``play`` (variant 2 only): playing one's only card, unseen, in a forehead round;
- one action per *kind* of card in deck order (``R1`` … ``B20``, ``JK`` last for the
  joker deck).  In a doubled deck both copies of a card are the same action (they are
  the same card in play; the engine plays the copy held) and the observation counts
  copies (0, 1 or 2), so the two copies never look different to an agent.

**Observations**: a float32 vector of :attr:`BaptistenAdapter.obs_size` built from
``state.view(seat)`` only; :attr:`BaptistenAdapter.OBS_LAYOUT` names every slot.  Seats
are relative: slot 0 of a per-seat block is the observer, slot j the j-th seat after it.
K is the number of card kinds (80 Elfer raus, 32 Skat, 52 Rommé, 53 with the joker), P
the players, N ``max_cards``, S the suits (4).  Card slots count copies of a kind.

============== ======= ==============================================================
slot           width   value
============== ======= ==============================================================
``hand``       K       own hand (all 0 in a forehead round: one's own card is unseen)
``seen``       P×K     forehead round: each other seat's card (slot 0, own, stays 0);
                       only with variant 2 (no slot at all without it)
``trump_card`` K       the turned trump card
``trump_suit`` S + 1   trump suit one-hot; the last slot: no trump (the joker turned)
``played``     K       cards played in this round (finished tricks and current trick)
``trick``      P×K     the current trick: the card each seat played to it
``bid``        P       bid ÷ N; −1 not yet bid in this round
``stake``      P       stake ÷ 40; 0 not yet bid or trick scoring
``forced``     P       1 if the seat's 40 of this round was entered by force
``owed``       P       40s still owed counting this round's bids ÷ the 40s required
``tricks_won`` P       tricks won in this round ÷ N
``total``      P       total score ÷ 100 (the scoresheet's running total)
``to_move``    P       one-hot, the seat to move (all 0 when the game is over)
``first``      P       one-hot, the round's first player (bids first, leads first)
``hooked``     N + 1   one-hot, the bid the hook rule refuses the observer now
``round``      1       round number ÷ rounds in the game
``cards``      1       cards dealt this round ÷ N
``phase``      3       one-hot: bidding, play, over
``forehead``   1       1 in a forehead round
============== ======= ==============================================================

**Rewards**: 0 until a round ends; then each seat gets its score of that round as the
engine's scoresheet (``state.sheet[-1].scores``) has it.  So a seat's rewards over a
whole game add up to its final total on the scoresheet (``state.totals``), which the
tests check.  The game is *not* zero-sum: with stakes every player wins or loses their
own stake, under trick scoring every score is ≥ 0.

**Episodes**: ``whole_game=True``: one episode is the whole game (2N − 1 rounds, or one
with ``rounds=single``).  ``whole_game=False``: one episode is one round k of a game:
``reset`` draws the first player by the game's draw and the round (uniformly from the
schedule, or ``round_no`` when given) from the seed; the episode starts at round k's
first bid with a scoresheet of the k − 1 rounds before it, its totals and the 40s still
owed, and ends when round k is scored.  (The first round alone would be a one-card round
every time; this way an agent trains on every round size and on the 40s obligation as it
stands mid-game.)  How the earlier rounds come about is ``earlier_rounds``:

- ``"drawn"`` (default): the episode starts at round k at once.  Each earlier round is
  scored as a table of random players would score it, without dealing its cards: each
  seat's bid and stake uniformly from those the rules allow it then (the hook rule, a
  40 forced as the engine forces it, a 40 as likely as any other stake while one is
  owed), each trick won by a seat drawn uniformly (under random play every seat has the
  same chance of each trick; the cards that decide it are not dealt), scored by the rules
  (the stake won or lost, a 40 paid off; or trick scoring).  Round k itself is dealt as
  in a game (``stich.baptisten.deal.deal_round``) and played by the engine
  (``stich.baptisten.position.round_position``: the engine's state of that round, with
  that sheet, whose game ends with it).  What the seats observe is of the same kind as
  in a whole game: round number, cards, the first player's turn, totals, 40s owed, the
  view's scoresheet rows.
- ``"played"``: the rounds before k are played by the engine with uniformly random legal
  actions (the behaviour before; each reset then costs a random game's first k − 1
  rounds, and episodes ran at about half the steps a second of whole games).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np

from stich.baptisten.actions import FOREHEAD_PLAY, BAction, BBid, bid_action
from stich.baptisten.deal import deal_round, draw_first_player
from stich.baptisten.position import round_position
from stich.baptisten.rules import BaptistenRules
from stich.baptisten.state import BaptistenState, RoundResult
from stich.baptisten.view import BaptistenView
from stich.cards import PLAIN_DECKS, PlainCard
from stich.core import RulesError
from stich.env.base import IllegalAction, StichAEC, parallel
from stich.games import BAPTISTEN

__all__ = ["BaptistenAdapter", "baptisten_v0", "env", "make_rules", "parallel_env"]

EARLIER_ROUNDS = ("drawn", "played")
"""How a one-round episode's earlier rounds come about (see the module's text)."""

F32 = np.dtype[np.float32]
I8 = np.dtype[np.int8]

TOTAL_SCALE = 100.0
"""Totals are divided by this in the observation."""

PHASES = ("BIDDING", "PLAY", "OVER")


def make_rules(rules: BaptistenRules | str | None, players: int | None) -> BaptistenRules:
    """The rule set from a rules object, a rule string or preset name, or None (the
    default rules); ``players`` replaces the rules' number of players when given.

    With the default rules (None) at a table the default N (10) does not fit, N is the
    most cards the deck gives each player (9–11 players with Elfer raus's 80 cards: 8, 8,
    7).  Rules that do not fit the players are refused with the rules that would: the
    same with fewer cards, another deck, or one round (``rounds=single``: 2 players).

    >>> make_rules(None, 9).max_cards, make_rules(None, 11).max_cards
    (8, 7)
    """
    if rules is None:
        base = BaptistenRules()
    elif isinstance(rules, str):
        base = BaptistenRules.parse(rules)
    elif isinstance(rules, BaptistenRules):
        base = rules
    else:
        raise TypeError(f"rules must be BaptistenRules, a rule string or None, not {rules!r}")
    if players is None or players == base.players:
        return base
    try:
        return dataclasses.replace(base, players=players)
    except RulesError as e:
        fits = _fitting(base, players)
        if rules is None and fits and fits[0][0] == {"max_cards": fits[0][1].max_cards}:
            return fits[0][1]  # the default rules with as many cards as the deck gives
        hint = ""
        if fits:
            hint = (f"; rules for {players} players: "
                    + "; ".join(",".join(f"{k}={v}" for k, v in change.items())
                                for change, _ in fits)
                    + f" (e.g. rules='{fits[0][1]}')")
        raise ValueError(f"Baptistenskat with {players} players and the rules {base}: "
                         f"{e}{hint}") from e


def _fitting(base: BaptistenRules, players: int
             ) -> list[tuple[dict[str, object], BaptistenRules]]:
    """The smallest changes of ``base`` that seat ``players``, with the rules each gives:
    fewer cards (the most that fit), each other deck (with the most cards that fit, up to
    ``base``'s N); one round only when none of these does."""
    def most_cards(**change: object) -> tuple[dict[str, object], BaptistenRules] | None:
        try:
            return change, dataclasses.replace(base, players=players, **change)  # type: ignore[arg-type]
        except RulesError:
            pass
        for n in range(base.max_cards - 1, 0, -1):
            try:
                return ({**change, "max_cards": n},
                        dataclasses.replace(base, players=players, max_cards=n,
                                            **change))  # type: ignore[arg-type]
            except RulesError:
                continue
        return None

    out = []
    for change in ({}, *({"deck": d} for d in PLAIN_DECKS if d != base.deck)):
        got = most_cards(**change)
        if got is not None and got[0]:
            out.append(got)
    if not out and base.rounds != "single":
        got = most_cards(rounds="single")
        if got is not None:
            out.append(got)
    return out


class BaptistenAdapter:
    """One Baptistenskat game in numbers, for :class:`~stich.env.base.StichAEC` (see the
    module's text for the action space, observations, rewards and episodes).

    ``rules``: a :class:`BaptistenRules`, a rule string or preset name, or None for the
    default rules; ``players`` (3..deck size ÷ 7; None: the rules' own) replaces the
    rules' number of players (:func:`make_rules`).  ``round_no`` (1-based) fixes the
    round of an episode when ``whole_game`` is False; ``earlier_rounds`` (``drawn`` or
    ``played``) says how the rounds before it come about (the module's text).

    :meth:`global_state` (``state_size`` floats) is every seat's observation in table
    order: all hands are in it (in a forehead round each card in the others' ``seen``
    slots), so it is for a centralized critic, never an agent's observation."""

    game = BAPTISTEN.name

    def __init__(self, rules: BaptistenRules | str | None = None, players: int | None = None,
                 whole_game: bool = True, round_no: int | None = None,
                 earlier_rounds: str = "drawn") -> None:
        self.rules = r = make_rules(rules, players)
        self.whole_game = whole_game
        n_rounds = len(r.schedule())
        if round_no is not None and not 1 <= round_no <= n_rounds:
            raise ValueError(f"round_no must be 1..{n_rounds} for {r}, not {round_no}")
        if earlier_rounds not in EARLIER_ROUNDS:
            raise ValueError(f"earlier_rounds must be one of {EARLIER_ROUNDS}, "
                             f"not {earlier_rounds!r}")
        self.round_no = round_no
        self.earlier_rounds = earlier_rounds
        self.n_agents = n = r.players
        deck = r.card_deck
        self.deck = deck
        big_n = r.max_cards
        self.max_cards = big_n
        self.n_suits = n_suits = len(deck.suit_codes)
        # card kinds: the first copy of each suited card, then one for the joker(s)
        self.n_kinds = k = deck.kinds + (1 if deck.jokers else 0)
        self.kind_of: tuple[int, ...] = tuple(
            deck.kinds if c.is_joker else c.kind for c in deck.cards)
        self._copies: tuple[tuple[PlainCard, ...], ...] = tuple(
            tuple(c for c in deck.cards if self.kind_of[c.index] == i) for i in range(k))

        # --- actions ---
        actions: list[str] = []
        index: dict[Any, int] = {}
        self._bid_of: list[BBid] = []
        if r.trick_scoring:
            stakes: list[int | None] = [None]
        else:
            stakes = [*range(1, 21), *([40] if r.forties_required > 0 else [])]
        self.stakes = tuple(stakes)
        for t in range(big_n + 1):
            for s in stakes:
                b = bid_action(t, s)
                index[b] = len(actions)
                self._bid_of.append(b)
                actions.append(str(b))
        self.n_bids = len(actions)
        self.play_action: int | None = None
        if r.forehead:
            self.play_action = len(actions)
            index[FOREHEAD_PLAY] = len(actions)
            actions.append(str(FOREHEAD_PLAY))
        self.first_card = len(actions)
        for i in range(k):
            actions.append(self._copies[i][0].code)
        for c in deck.cards:
            index[c] = self.first_card + self.kind_of[c.index]
        self.ACTIONS: list[str] = actions
        self._index = index
        self.n_actions = len(actions)

        # --- observations ---
        layout = [
            ("hand", k), *([("seen", n * k)] if r.forehead else []), ("trump_card", k),
            ("trump_suit", n_suits + 1),
            ("played", k), ("trick", n * k), ("bid", n), ("stake", n), ("forced", n),
            ("owed", n), ("tricks_won", n), ("total", n), ("to_move", n), ("first", n),
            ("hooked", big_n + 1), ("round", 1), ("cards", 1), ("phase", len(PHASES)),
            ("forehead", 1),
        ]
        self.OBS_LAYOUT: list[tuple[str, int]] = layout
        self.offset: dict[str, int] = {}
        pos = 0
        for name, width in layout:
            self.offset[name] = pos
            pos += width
        self.obs_size = pos
        self.state_size = n * pos
        self._buf = np.zeros(pos, np.float32)
        # what :meth:`drawn_start` needs of the rules: the suit of each card, the 40s
        # required, and per round its cards, whether the hook applies, whether a 40 may
        # be staked, and the rounds with 3+ cards from it on (a 40 owed for each is forced)
        self._suit_of = tuple(c.suit for c in deck.cards)
        self._forties = r.forties_required
        sched = r.schedule()
        self._round_facts = tuple(
            (c, r.hook_always or c >= 3, c >= 3 and not r.trick_scoring,
             sum(1 for x in sched[j:] if x >= 3)) for j, c in enumerate(sched))
        self._phase_of = {p: i for i, p in enumerate(PHASES)}
        self._n_rounds = n_rounds
        self._owed_scale = 1.0 / max(1, r.forties_required)
        self._mask_cache: dict[int, tuple[tuple[BAction, ...], np.ndarray[Any, I8]]] = {}

        self.state: BaptistenState = BaptistenState.new(r, 0)
        self._end_rounds = 0
        self._views: list[BaptistenView | None] = [None] * n
        self.reset(0)

    # --- the game -------------------------------------------------------------------------

    def reset(self, seed: int) -> None:
        rng = random.Random(seed)
        end = self._n_rounds
        if not self.whole_game and self.earlier_rounds == "drawn":
            # the draw for the first player gives every seat the same chance: drawn so
            first = int(rng.random() * self.n_agents)
            r = self.round_no if self.round_no is not None else int(rng.random() * end) + 1
            self.start(self.drawn_start(r, first, rng), r)
            return
        first, _ = draw_first_player(self.rules, rng)
        state = BaptistenState.new(self.rules, rng=rng, first=first)
        if self.whole_game:
            self.start(state, end)
            return
        # "played": the rounds before r with random legal actions (the same games as before
        # "drawn" became the default)
        r = self.round_no if self.round_no is not None else rng.randrange(end) + 1
        while state.round_no < r:
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
        self.start(state, r)

    def drawn_start(self, r: int, first: int, rng: random.Random) -> BaptistenState:
        """The engine's state at the first bid of round ``r`` (1-based) of a game that
        ``first`` started, the rounds before it scored as random players would score
        them (``earlier_rounds="drawn"``, the module's text), round ``r`` dealt from
        ``rng``; its game ends with round ``r``."""
        rules = self.rules
        n = self.n_agents
        rnd = rng.random
        trick_scoring = rules.trick_scoring
        per_trick, bonus, zero_bonus = (rules.points_per_trick, rules.exact_bonus,
                                        rules.exact_zero_bonus)
        suit_of = self._suit_of
        size = len(suit_of)
        owed = [self._forties] * n
        totals = [0] * n
        rows: list[RoundResult] = []
        order = list(range(n))
        for j in range(r - 1):
            c, hook, forty_ok, left = self._round_facts[j]
            first_j = (first + j) % n
            bids = [0] * n
            stakes: list[int | None] = [None] * n
            forced = [False] * n
            tricks = [0] * n
            scores = [0] * n
            for _ in range(c):  # each trick to a seat drawn uniformly
                tricks[int(rnd() * n)] += 1
            said = 0
            for p in order[first_j:] + order[:first_j]:
                if hook and said <= c and p == (first_j - 1) % n:
                    t = int(rnd() * c)  # the hook: never the bid that makes the sum fit
                    if t >= c - said:
                        t += 1
                else:
                    t = int(rnd() * (c + 1))
                bids[p] = t
                said += t
                got = tricks[p]
                if trick_scoring:
                    score = per_trick * got + (
                        (zero_bonus if t == 0 else bonus) if t == got else 0)
                else:
                    o = owed[p]
                    if forty_ok and o:
                        if o >= left:
                            forced[p] = True
                            stake = 40
                        else:
                            stake = int(rnd() * 21) + 1
                            if stake == 21:
                                stake = 40
                        if stake == 40:
                            owed[p] = o - 1
                    else:
                        stake = int(rnd() * 20) + 1
                    stakes[p] = stake
                    score = stake if t == got else -stake
                scores[p] = score
                totals[p] += score
            rows.append(RoundResult(j + 1, c, first_j, suit_of[int(rnd() * size)],
                                    tuple(bids), tuple(stakes), tuple(forced), tuple(tricks),
                                    tuple(scores), tuple(totals)))
        c = self._round_facts[r - 1][0]
        first_r = (first + r - 1) % n
        deal = deal_round(self.deck, n, c, first_r, rng,
                          c * n >= size and rules.trump_card == "baptisten")
        forehead = rules.forehead and c == 1
        hands = deal.hands
        view = BaptistenView(
            seat=first_r, rules=str(rules), round_no=r, cards=c, first=first_r,
            phase="BIDDING", to_move=first_r, hand=0 if forehead else hands[first_r],
            others=tuple(h if p != first_r else 0 for p, h in enumerate(hands))
            if forehead else (0,) * n,
            trump_card=deal.trump_card, trump=suit_of[deal.trump_card],
            bids=(-1,) * n, stakes=(None,) * n, forced=(False,) * n, hooked=None,
            owed=tuple(owed), trick=(), round_tricks=(), tricks_won=(0,) * n,
            totals=tuple(totals), sheet=tuple(rows), legal_actions=())
        return round_position(view, hands)

    def start(self, state: BaptistenState, end_rounds: int | None = None) -> None:
        """Play on from a given state (of these rules), e.g. one built from given deals;
        the episode ends when the scoresheet has ``end_rounds`` rows (None: the game's
        end, or with ``whole_game`` False the end of the current round)."""
        if state.rules != self.rules:
            raise ValueError(f"the state's rules {state.rules} are not {self.rules}")
        if end_rounds is None:
            end_rounds = len(self.rules.schedule()) if self.whole_game else state.round_no
        self.state = state
        self._end_rounds = end_rounds
        self._views = [None] * self.n_agents

    def to_move(self) -> int | None:
        return None if self.over() else self.state.to_move

    def over(self) -> bool:
        return len(self.state.sheet) >= self._end_rounds

    def view(self, seat: int) -> BaptistenView:
        v = self._views[seat]
        if v is None:
            v = self._views[seat] = self.state.view(seat)
        return v

    def step(self, action: int) -> list[float]:
        state = self.state
        seat = state.to_move
        if self.over() or not self._mask(seat)[action]:
            raise IllegalAction(f"seat {seat} may not play action {action}"
                                f" ({self.action_text(action)})" if 0 <= action < self.n_actions
                                else f"no action {action}")
        rows = len(state.sheet)
        new = state.apply(self.engine_action(action))
        self.state = new
        self._views = [None] * self.n_agents
        if len(new.sheet) > rows:
            return [float(s) for s in new.sheet[-1].scores]
        return [0.0] * self.n_agents

    def engine_action(self, action: int) -> BAction:
        """The engine's action for an index (a card: the copy the player to move holds)."""
        if action < self.n_bids:
            return self._bid_of[action]
        if action == self.play_action:
            return FOREHEAD_PLAY
        copies = self._copies[action - self.first_card]
        hand = self.state.hands[self.state.to_move] if self.state.to_move >= 0 else 0
        for c in copies:
            if hand & c.bit:
                return c
        return copies[0]

    def action_of_view(self, v: BaptistenView, action: int) -> BAction:
        """The engine action of an index for the seat of a view (a card: the copy in
        the view's hand)."""
        if action < self.n_bids:
            return self._bid_of[action]
        if action == self.play_action:
            return FOREHEAD_PLAY
        copies = self._copies[action - self.first_card]
        return next((c for c in copies if v.hand & c.bit), copies[0])

    def play_bot(self, bot: Any, rng: random.Random) -> list[float]:
        """The seat to move plays what a `stich` Baptistenskat bot chooses from its
        view (see :class:`~stich.env.base.Adapter`)."""
        seat = self.to_move()
        if seat is None:
            raise IllegalAction("the game is over")
        return self.step(self.action_index(bot.choose(self.view(seat), rng)))

    def action_index(self, action: BAction) -> int:
        """The index of an engine action (KeyError for one outside these rules)."""
        return self._index[action]

    def action_text(self, action: int) -> str:
        return self.ACTIONS[action]

    # --- masks ----------------------------------------------------------------------------

    def _mask(self, seat: int) -> np.ndarray[Any, I8]:
        """The mask from the view's legal actions (shared: do not change it)."""
        return self.view_mask(self.view(seat))

    def view_mask(self, v: BaptistenView) -> np.ndarray[Any, I8]:
        """The mask of a view's legal actions (shared: do not change it); for a bot that
        is handed views (:class:`stich.env.policy.PolicyBot`)."""
        legal = v.legal_actions
        if not legal:
            return self._no_mask()
        if legal[0].__class__ is BBid:
            # the engine reuses the tuple of bid options (cached), so the mask is too
            hit = self._mask_cache.get(id(legal))
            if hit is not None and hit[0] is legal:
                return hit[1]
        m = np.zeros(self.n_actions, np.int8)
        index = self._index
        for a in legal:
            m[index[a]] = 1
        if legal[0].__class__ is BBid:
            if len(self._mask_cache) > 4096:  # only if the engine stopped reusing them
                self._mask_cache.clear()
            self._mask_cache[id(legal)] = (legal, m)
        return m

    def _no_mask(self) -> np.ndarray[Any, I8]:
        return np.zeros(self.n_actions, np.int8)

    def mask(self, seat: int) -> np.ndarray[Any, I8]:
        return self._mask(seat).copy()

    # --- observations ---------------------------------------------------------------------

    def observe(self, seat: int) -> np.ndarray[Any, F32]:
        return self.encode(self.view(seat))

    def global_state(self) -> np.ndarray[Any, F32]:
        """The whole state (``state_size`` floats): the observations of ``player_0`` …
        ``player_{n-1}`` one after the other; for a centralized critic, never an agent's
        observation (it shows every hand)."""
        return np.concatenate([self.observe(p) for p in range(self.n_agents)])

    def encode(self, v: BaptistenView) -> np.ndarray[Any, F32]:
        """The observation of a view (its seat's): what :meth:`observe` gives, for a bot
        that is handed views."""
        seat = v.seat
        out = self._buf
        out.fill(0.0)
        off = self.offset
        n = self.n_agents
        k = self.n_kinds
        kind_of = self.kind_of
        big_n = self.max_cards

        def cards(start: int, mask: int) -> None:
            while mask:
                low = mask & -mask
                out[start + kind_of[low.bit_length() - 1]] += 1.0
                mask ^= low

        cards(off["hand"], v.hand)
        if self.rules.forehead:
            seen = off["seen"]
            for p, h in enumerate(v.others):
                if h:
                    cards(seen + ((p - seat) % n) * k, h)
        out[off["trump_card"] + kind_of[v.trump_card]] = 1.0
        out[off["trump_suit"] + (v.trump if v.trump >= 0 else self.n_suits)] = 1.0
        played = off["played"]
        for _, trick, _ in v.round_tricks:
            for c in trick:
                out[played + kind_of[c]] += 1.0
        tr = off["trick"]
        for p, c in v.trick:
            out[played + kind_of[c]] += 1.0
            out[tr + ((p - seat) % n) * k + kind_of[c]] = 1.0
        o_bid, o_stake, o_forced = off["bid"], off["stake"], off["forced"]
        o_owed, o_won, o_total = off["owed"], off["tricks_won"], off["total"]
        owed = v.owed_now()
        for p in range(n):
            j = (p - seat) % n
            b = v.bids[p]
            out[o_bid + j] = b / big_n if b >= 0 else -1.0
            s = v.stakes[p]
            if s is not None:
                out[o_stake + j] = s / 40.0
            if v.forced[p]:
                out[o_forced + j] = 1.0
            out[o_owed + j] = owed[p] * self._owed_scale
            out[o_won + j] = v.tricks_won[p] / big_n
            out[o_total + j] = v.totals[p] / TOTAL_SCALE
        if v.phase != "OVER":
            out[off["to_move"] + (v.to_move - seat) % n] = 1.0
            out[off["first"] + (v.first - seat) % n] = 1.0
        if v.hooked is not None:
            out[off["hooked"] + v.hooked] = 1.0
        out[off["round"]] = v.round_no / self._n_rounds
        out[off["cards"]] = v.cards / big_n
        out[off["phase"] + self._phase_of[v.phase]] = 1.0
        if v.cards == 1 and self.rules.forehead and v.phase != "OVER":
            out[off["forehead"]] = 1.0
        return out.copy()

    # --- text -----------------------------------------------------------------------------

    def render(self) -> str:
        s = self.state
        deck = self.deck
        head = (f"round {s.round_no}/{self._n_rounds}, {s.cards} card(s), trump card "
                f"{deck.cards[s.deals[s.round_index].trump_card].code}, {s.phase.name}")
        if not s.is_over:
            head += f", player_{s.to_move} to move"
        seats = []
        for p in range(self.n_agents):
            b = s.bids[p]
            bid = "-" if b < 0 else f"{b}" + ("" if s.stakes[p] is None else f"/{s.stakes[p]}")
            seats.append(f"player_{p}: bid {bid} tricks {s.tricks_won[p]} total {s.totals[p]}")
        lines = [head, *seats]
        if s.trick:
            lines.append("trick: " + " ".join(deck.cards[c].code for c in s.trick))
        return "\n".join(lines)


def baptisten_v0(rules: BaptistenRules | str | None = None, players: int | None = None,
                 whole_game: bool = True, render_mode: str | None = None,
                 on_illegal: str = "terminate", max_cycles: int | None = None,
                 round_no: int | None = None, earlier_rounds: str = "drawn") -> StichAEC:
    """The Baptistenskat PettingZoo AEC environment (see :class:`BaptistenAdapter` and
    :class:`~stich.env.base.StichAEC`).  ``max_cycles`` counts steps of the whole table
    (one agent's action each), as ``StichAEC`` does; ``on_illegal``: ``terminate`` or
    ``raise``."""
    adapter = BaptistenAdapter(rules, players, whole_game, round_no, earlier_rounds)
    return StichAEC(lambda: adapter, "baptisten_v0", render_mode=render_mode,
                    on_illegal=on_illegal, max_cycles=max_cycles)


env = baptisten_v0


def parallel_env(**kwargs: Any) -> Any:
    """The parallel API of :func:`baptisten_v0` (same arguments; see
    :func:`stich.env.base.parallel`)."""
    return parallel(baptisten_v0(**kwargs))
