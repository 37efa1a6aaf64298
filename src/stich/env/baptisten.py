"""The Baptistenskat environment: :class:`BaptistenAdapter` and :func:`baptisten_v0`.

>>> from stich.env.baptisten import baptisten_v0
>>> e = baptisten_v0(players=4)
>>> e.reset(seed=1)
>>> e.agent_selection, int(e.action_space("player_0").n)
('player_3', 311)
>>> e.observation_space("player_0")["observation"].shape
(934,)

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

**Rewards**: 0 until a round ends; then each seat gets its score of that round as the
engine's scoresheet (``state.sheet[-1].scores``) has it.  So a seat's rewards over a
whole game add up to its final total on the scoresheet (``state.totals``), which the
tests check.  The game is *not* zero-sum: with stakes every player wins or loses their
own stake, under trick scoring every score is ≥ 0.

**Episodes**: ``whole_game=True``: one episode is the whole game (2N − 1 rounds, or one
with ``rounds=single``).  ``whole_game=False``: one episode is one round of a real game:
``reset`` draws the game from the seed, draws the round (uniformly from the schedule, or
``round_no`` when given) and plays the rounds before it with uniformly random legal
actions from the same seed, so the episode starts at that round's first bid with a real
scoresheet, totals and 40s still owed; it ends when that round is scored.  (The first
round alone would be a one-card round every time; this way an agent trains on every
round size and on the 40s obligation as it stands mid-game.)
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np

from stich.baptisten.actions import FOREHEAD_PLAY, BAction, BBid, bid_action
from stich.baptisten.deal import draw_first_player
from stich.baptisten.rules import BaptistenRules
from stich.baptisten.state import BaptistenState
from stich.baptisten.view import BaptistenView
from stich.cards import PLAIN_DECKS, PlainCard
from stich.core import RulesError
from stich.env.base import IllegalAction, StichAEC

__all__ = ["BaptistenAdapter", "baptisten_v0", "env"]

F32 = np.dtype[np.float32]
I8 = np.dtype[np.int8]

TOTAL_SCALE = 100.0
"""Totals are divided by this in the observation."""

PHASES = ("BIDDING", "PLAY", "OVER")


def make_rules(rules: BaptistenRules | str | None, players: int | None) -> BaptistenRules:
    """The rule set from a rules object, a rule string or preset name, or None (the
    default rules); ``players`` replaces the rules' number of players when given."""
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
        fits = [d.name for d in PLAIN_DECKS.values() if d.size // 7 >= players]
        hint = (f"; decks that allow {players} players: {', '.join(fits)} "
                f"(e.g. rules='baptisten(deck={fits[0]})')" if fits and players >= 3 else "")
        raise ValueError(f"Baptistenskat with {players} players and the rules {base}: "
                         f"{e}{hint}") from e


class BaptistenAdapter:
    """One Baptistenskat game in numbers, for :class:`~stich.env.base.StichAEC` (see the
    module's text for the action space, observations, rewards and episodes).

    ``rules``: a :class:`BaptistenRules`, a rule string or preset name, or None for the
    default rules; ``players`` (3..deck size ÷ 7; None: the rules' own) replaces the
    rules' number of players.  ``round_no`` (1-based) fixes the round of an episode when
    ``whole_game`` is False."""

    def __init__(self, rules: BaptistenRules | str | None = None, players: int | None = None,
                 whole_game: bool = True, round_no: int | None = None) -> None:
        self.rules = r = make_rules(rules, players)
        self.whole_game = whole_game
        n_rounds = len(r.schedule())
        if round_no is not None and not 1 <= round_no <= n_rounds:
            raise ValueError(f"round_no must be 1..{n_rounds} for {r}, not {round_no}")
        self.round_no = round_no
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
            ("hand", k), ("seen", n * k), ("trump_card", k), ("trump_suit", n_suits + 1),
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
        self._buf = np.zeros(pos, np.float32)
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
        first, _ = draw_first_player(self.rules, rng)
        state = BaptistenState.new(self.rules, rng=rng, first=first)
        end = len(self.rules.schedule())
        if not self.whole_game:
            r = self.round_no if self.round_no is not None else rng.randrange(end) + 1
            while state.round_no < r:
                legal = state.legal_actions()
                state = state.apply(legal[int(rng.random() * len(legal))])
            end = r
        self.start(state, end)

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

    def action_index(self, action: BAction) -> int:
        """The index of an engine action (KeyError for one outside these rules)."""
        return self._index[action]

    def action_text(self, action: int) -> str:
        return self.ACTIONS[action]

    # --- masks ----------------------------------------------------------------------------

    def _mask(self, seat: int) -> np.ndarray[Any, I8]:
        """The mask from the view's legal actions (shared: do not change it)."""
        legal = self.view(seat).legal_actions
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
            self._mask_cache[id(legal)] = (legal, m)
        return m

    def _no_mask(self) -> np.ndarray[Any, I8]:
        return np.zeros(self.n_actions, np.int8)

    def mask(self, seat: int) -> np.ndarray[Any, I8]:
        return self._mask(seat).copy()

    # --- observations ---------------------------------------------------------------------

    def observe(self, seat: int) -> np.ndarray[Any, F32]:
        v = self.view(seat)
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
                 on_illegal: str = "raise", max_cycles: int | None = None,
                 round_no: int | None = None) -> StichAEC:
    """The Baptistenskat PettingZoo AEC environment (see :class:`BaptistenAdapter` and
    :class:`~stich.env.base.StichAEC`).  ``max_cycles`` counts steps of the whole table
    (one agent's action each), as ``StichAEC`` does."""
    adapter = BaptistenAdapter(rules, players, whole_game, round_no)
    return StichAEC(lambda: adapter, "baptisten_v0", render_mode=render_mode,
                    on_illegal=on_illegal, max_cycles=max_cycles)


env = baptisten_v0
