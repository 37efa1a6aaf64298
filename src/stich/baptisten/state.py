"""The Baptistenskat game state: every round of a whole game, from deal to ranking.

Seat order is fixed; seat 0 is the player who starts the game.  In round r (1-based) the
r-th player in seat order is dealt first, bids first and leads.  A state is immutable;
:meth:`BaptistenState.apply` returns a new one.  All deals are drawn from the seed when
the game starts (chance is an input), so a game replays exactly.

>>> s = BaptistenState.new(BaptistenRules(players=3, max_cards=3), seed=1)
>>> s.round_no, s.cards, s.to_move, len(s.legal_actions())
(1, 1, 0, 40)
>>> s.parse_action("bid 0 stake 5") in s.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import IntEnum
from functools import cache
from typing import Any, NamedTuple

from stich.baptisten.actions import (
    FOREHEAD_PLAY,
    BAction,
    BBid,
    ForeheadPlay,
    bid_action,
    parse_bid,
)
from stich.baptisten.rules import BaptistenRules
from stich.cards import PlainCard, PlainDeck, bits
from stich.core import IllegalActionError

__all__ = ["BPhase", "BaptistenState", "Deal", "RoundResult", "deal_round"]


class BPhase(IntEnum):
    BIDDING = 0
    PLAY = 1
    OVER = 2


_BIDDING, _PLAY, _OVER = tuple(BPhase)


class Deal(NamedTuple):
    """One round's deal: each seat's cards and the card that fixes trump."""

    hands: tuple[int, ...]
    trump_card: int  # card index; its suit is trump (none for the joker)


class RoundResult(NamedTuple):
    """One row block of the scoresheet."""

    round: int
    cards: int
    first: int
    trump: int  # suit, -1 for no trump
    bids: tuple[int, ...]
    stakes: tuple[int | None, ...]
    forced: tuple[bool, ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]


class _Ctx:
    """What is fixed for the whole game."""

    __slots__ = ("rules", "deck", "n", "schedule", "deals", "ge3_left", "suit_of", "rank_of",
                 "kind_of", "joker_mask", "at_least", "required", "seed", "first")

    def __init__(self, rules: BaptistenRules, deals: Sequence[Deal], seed: int | None,
                 first: int) -> None:
        self.rules = rules
        self.first = first
        self.deck = deck = rules.card_deck
        self.n = rules.players
        self.schedule = rules.schedule()
        self.deals = tuple(deals)
        self.seed = seed
        sched = self.schedule
        self.ge3_left = tuple(sum(1 for k in sched[r:] if k >= 3) for r in range(len(sched)))
        self.suit_of = tuple(c.suit for c in deck.cards)
        self.rank_of = tuple(c.rank for c in deck.cards)
        self.kind_of = tuple(c.kind for c in deck.cards)
        self.joker_mask = sum(c.bit for c in deck.cards if c.is_joker)
        # at_least[suit][rank]: the cards of a suit ranking rank or higher
        n_r = len(deck.rank_codes)
        self.at_least = tuple(
            tuple(sum(c.bit for c in deck.cards if c.suit == s and c.rank >= r)
                  for r in range(n_r))
            for s in range(len(deck.suit_codes))
        )
        self.required = rules.forties_required


def deal_round(deck: PlainDeck, players: int, cards: int, first: int, rng: random.Random,
               trump_before: bool) -> Deal:
    """Shuffle and deal ``cards`` to each seat one at a time, starting with ``first``.
    The next card is turned for trump; when the round uses the whole deck
    (``trump_before``), a card is drawn before the deal and shuffled back instead."""
    rnd = rng.random
    drawn = -1
    if trump_before:
        drawn = int(rng.randrange(deck.size))
    order = sorted(range(deck.size), key=lambda _: rnd())
    hands = [0] * players
    for i in range(cards * players):
        hands[(first + i) % players] |= 1 << order[i]
    trump = drawn if trump_before else order[cards * players]
    return Deal(tuple(hands), trump)


def draw_deals(rules: BaptistenRules, rng: random.Random, first: int = 0
               ) -> tuple[Deal, ...]:
    """The deals of every round of a game, in order (``first``: the seat that starts)."""
    deck = rules.card_deck
    out = []
    for r, k in enumerate(rules.schedule()):
        first_r = (first + r) % rules.players
        whole = k * rules.players >= deck.size
        out.append(deal_round(deck, rules.players, k, first_r, rng,
                              whole and rules.trump_card == "baptisten"))
    return tuple(out)


class BaptistenState:
    """A whole game of Baptistenskat in progress (or over).  Build it with :meth:`new`."""

    __slots__ = (
        "_ctx", "round_index", "phase", "to_move", "hands", "bids", "stakes", "forced",
        "trick", "leader", "follow_suit", "tricks_won", "totals", "owed", "sheet", "_hist",
        "_round_tricks",
    )

    _ctx: _Ctx
    round_index: int
    phase: BPhase
    to_move: int
    hands: tuple[int, ...]
    bids: tuple[int, ...]  # -1: not yet bid
    stakes: tuple[int | None, ...]
    forced: tuple[bool, ...]
    trick: tuple[int, ...]
    leader: int
    follow_suit: int  # suit to follow in the current trick, -1 if not fixed yet
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]
    owed: tuple[int, ...]
    sheet: tuple[RoundResult, ...]
    _hist: tuple[Any, ...] | None
    _round_tricks: tuple[Any, ...] | None

    @classmethod
    def new(cls, rules: BaptistenRules | None = None, seed: int | None = None, *,
            rng: random.Random | None = None, deals: Sequence[Deal] | None = None,
            first: int = 0) -> BaptistenState:
        """A new game: every round dealt from a seeded shuffle, or from given deals.
        ``first`` is the seat that starts round 1 (by the draw, or given)."""
        rules = rules if rules is not None else BaptistenRules()
        if not 0 <= first < rules.players:
            raise ValueError(f"first must be a seat 0..{rules.players - 1}")
        if deals is None:
            if rng is None:
                rng = random.Random(seed)
            deals = draw_deals(rules, rng, first)
        else:
            _check_deals(rules, deals)
        ctx = _Ctx(rules, deals, seed, first)
        self = object.__new__(cls)
        self._ctx = ctx
        self.totals = (0,) * ctx.n
        self.owed = (ctx.required,) * ctx.n
        self.sheet = ()
        self._hist = None
        self._start_round(0)
        return self

    def _start_round(self, r: int) -> None:
        ctx = self._ctx
        n = ctx.n
        first = (ctx.first + r) % n
        self.round_index = r
        self.phase = _BIDDING
        self.to_move = first
        self.hands = ctx.deals[r].hands
        self.bids = (-1,) * n
        self.stakes = (None,) * n
        self.forced = (False,) * n
        self.trick = ()
        self.leader = first
        self.follow_suit = -1
        self.tricks_won = (0,) * n
        self._round_tricks = None

    def _fork(self) -> BaptistenState:
        new = object.__new__(BaptistenState)
        new._ctx = self._ctx
        new.round_index = self.round_index
        new.phase = self.phase
        new.to_move = self.to_move
        new.hands = self.hands
        new.bids = self.bids
        new.stakes = self.stakes
        new.forced = self.forced
        new.trick = self.trick
        new.leader = self.leader
        new.follow_suit = self.follow_suit
        new.tricks_won = self.tricks_won
        new.totals = self.totals
        new.owed = self.owed
        new.sheet = self.sheet
        new._hist = self._hist
        new._round_tricks = self._round_tricks
        return new

    # --- facts ---------------------------------------------------------------------------

    @property
    def rules(self) -> BaptistenRules:
        return self._ctx.rules

    @property
    def deck(self) -> PlainDeck:
        return self._ctx.deck

    @property
    def players(self) -> int:
        return self._ctx.n

    @property
    def deals(self) -> tuple[Deal, ...]:
        return self._ctx.deals

    @property
    def seed(self) -> int | None:
        return self._ctx.seed

    @property
    def round_no(self) -> int:
        """The current round, 1-based."""
        return self.round_index + 1

    @property
    def cards(self) -> int:
        """Cards dealt to each player in the current round."""
        return self._ctx.schedule[self.round_index]

    @property
    def first(self) -> int:
        """The seat that bids first and leads in the current round."""
        return (self._ctx.first + self.round_index) % self._ctx.n

    @property
    def trump_card(self) -> PlainCard:
        return self._ctx.deck.cards[self._ctx.deals[self.round_index].trump_card]

    @property
    def trump(self) -> int:
        """The trump suit of the current round, -1 for no trump (the joker was turned)."""
        return self._ctx.suit_of[self._ctx.deals[self.round_index].trump_card]

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def is_forehead_round(self) -> bool:
        return self._ctx.rules.forehead and self.cards == 1

    @property
    def history(self) -> list[BAction]:
        out: list[BAction] = []
        node = self._hist
        while node is not None:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    @property
    def round_tricks(self) -> list[tuple[int, tuple[int, ...], int]]:
        """Completed tricks of the current round: (leader, cards, winner)."""
        out = []
        node = self._round_tricks
        while node is not None:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    def must_stake_40(self, seat: int) -> bool:
        """Whether 40 is entered for ``seat`` by force in the current round."""
        ctx = self._ctx
        if ctx.required == 0 or self.cards < 3:
            return False
        owed = self.owed[seat]
        return owed > 0 and owed >= ctx.ge3_left[self.round_index]

    def hooked_bid(self) -> int | None:
        """The bid refused to the player to move under the hook rule, if any."""
        if self.phase is not _BIDDING:
            return None
        bids = self.bids
        missing = sum(1 for b in bids if b < 0)
        k = self.cards
        if missing != 1 or not self._ctx.rules.hook_applies(k):
            return None
        rest = k - sum(b for b in bids if b >= 0)
        return rest if rest >= 0 else None

    def __repr__(self) -> str:
        return (f"<BaptistenState {self._ctx.rules} round {self.round_no} "
                f"{self.phase.name} to_move={self.to_move}>")

    # --- legal actions -------------------------------------------------------------------

    def legal_actions(self) -> Sequence[BAction]:
        if self.phase is _PLAY:
            cards = self._ctx.deck.cards
            return tuple([cards[i] for i in bits(self.legal_cards())])
        if self.phase is _BIDDING:
            return self._bid_options()
        return ()

    def legal_cards(self) -> int:
        """The cards the player to move may play, as a set."""
        hand = self.hands[self.to_move]
        suit = self.follow_suit
        if not self.trick or suit < 0:
            return hand
        ctx = self._ctx
        masks = ctx.deck.suit_masks
        follow = hand & masks[suit]
        if not follow:
            return hand
        if suit == self.trump and ctx.rules.must_overtrump:
            best = max(ctx.rank_of[c] for c in self.trick if ctx.suit_of[c] == suit)
            higher = follow & ctx.at_least[suit][best]
            if higher:
                follow = higher
        return follow | (hand & ctx.joker_mask)

    def _bid_options(self) -> tuple[BBid, ...]:
        seat = self.to_move
        rules = self._ctx.rules
        if rules.trick_scoring:
            stakes: tuple[int | None, ...] = (None,)
        elif self.must_stake_40(seat):
            stakes = (40,)
        elif self.owed[seat] > 0 and self.cards >= 3:
            stakes = _STAKES_40
        else:
            stakes = _STAKES
        hooked = self.hooked_bid()
        return _bid_options(self.cards, -1 if hooked is None else hooked, stakes)

    # --- applying actions ----------------------------------------------------------------

    def parse_action(self, text: str) -> BAction:
        t = text.strip()
        low = t.lower()
        if not t:
            raise IllegalActionError("empty action")
        if low == "play":
            return FOREHEAD_PLAY
        if low[0].isdigit() or low.startswith("bid"):
            return parse_bid(low)
        try:
            return self._ctx.deck.held(t, self.hands[self.to_move] if self.to_move >= 0 else 0)
        except ValueError as e:
            raise IllegalActionError(str(e)) from None

    def apply_text(self, text: str) -> BaptistenState:
        return self.apply(self.parse_action(text))

    def apply(self, action: BAction) -> BaptistenState:
        if self.phase is _PLAY:
            if action.__class__ is PlainCard:
                return self._play(action)
            if isinstance(action, ForeheadPlay):
                return self._forehead_play()
            raise IllegalActionError(f"it is time to play a card, not {action}")
        if self.phase is _BIDDING:
            if isinstance(action, BBid):
                return self._bid(action)
            raise IllegalActionError(f"it is time to bid (e.g. 'bid 1 stake 5'), not {action}")
        raise IllegalActionError("the game is over")

    def _bid(self, b: BBid) -> BaptistenState:
        reason = self._bid_refusal(b)
        if reason is not None:
            raise IllegalActionError(reason)
        seat = self.to_move
        n = self._ctx.n
        new = self._fork()
        new._hist = (b, self._hist)
        new.bids = _set(self.bids, seat, b.tricks)
        new.stakes = _set(self.stakes, seat, b.stake)
        new.forced = _set(self.forced, seat, self.must_stake_40(seat))
        nxt = (seat + 1) % n
        if nxt == self.first:
            new.phase = _PLAY
            new.to_move = self.first
        else:
            new.to_move = nxt
        return new

    def _bid_refusal(self, b: BBid) -> str | None:
        if b in self._bid_options():
            return None
        k = self.cards
        seat = self.to_move
        if not 0 <= b.tricks <= k:
            return f"a bid is 0..{k} tricks in a round with {k} card{'s' if k > 1 else ''}"
        hooked = self.hooked_bid()
        if b.tricks == hooked:
            allowed = [str(t) for t in range(k + 1) if t != hooked]
            return (f"the bids may not add up to {k}: bid "
                    + _ranges(allowed))
        rules = self._ctx.rules
        if rules.trick_scoring:
            return "no stakes under trick scoring: bid just a number of tricks"
        if b.stake is None:
            return "say your stake too, e.g. 'bid 1 stake 5' (1..20, or 40)"
        if self.must_stake_40(seat):
            left = self._ctx.ge3_left[self.round_index]
            return (f"you still owe {_count(self.owed[seat])} 40s and only "
                    f"{_count(left)} round{'s are' if left > 1 else ' is'} left: your stake is 40")
        if b.stake == 40:
            if k < 3:
                return "no 40 in a round with 1 or 2 cards"
            return "you have staked 40 as often as required"
        return "a stake is 1..20 points, or 40"

    def _forehead_play(self) -> BaptistenState:
        if not self.is_forehead_round:
            raise IllegalActionError("'play' without naming a card is only for forehead rounds")
        hand = self.hands[self.to_move]
        return self._play(self._ctx.deck.cards[hand.bit_length() - 1])

    def _play(self, card: PlainCard) -> BaptistenState:
        seat = self.to_move
        hand = self.hands[seat]
        if not hand & card.bit:
            card = self._other_copy(card, hand)
        legal = self.legal_cards()
        if not legal & card.bit:
            raise IllegalActionError(self._play_refusal(card, legal))
        ctx = self._ctx
        n = ctx.n
        new = self._fork()
        new._hist = (card, self._hist)
        new.hands = _set(self.hands, seat, hand ^ card.bit)
        trick = self.trick + (card.index,)
        if self.follow_suit < 0 and card.suit >= 0:
            new.follow_suit = card.suit
        if len(trick) < n:
            new.trick = trick
            new.to_move = (seat + 1) % n
            return new
        winner = (self.leader + _winner(ctx, trick, self.trump)) % n
        new.trick = ()
        new.follow_suit = -1
        new.tricks_won = _set(self.tricks_won, winner, self.tricks_won[winner] + 1)
        new._round_tricks = ((self.leader, trick, winner), self._round_tricks)
        new.leader = winner
        new.to_move = winner
        if not any(new.hands):
            new._end_round()
        return new

    def _other_copy(self, card: PlainCard, hand: int) -> PlainCard:
        for c in self._ctx.deck.same_kind(card):
            if hand & c.bit:
                return c
        raise IllegalActionError(f"you do not hold {card}")

    def _play_refusal(self, card: PlainCard, legal: int) -> str:
        deck = self._ctx.deck
        suit = self.follow_suit
        names = deck.suit_names
        overtrump = suit == self.trump and self._ctx.rules.must_overtrump
        if overtrump and deck.suit_masks[suit] & card.bit:
            return f"you must overtrump: play a higher {names[suit]} ({deck.format(legal)})"
        held = deck.format(legal & ~self._ctx.joker_mask)
        return f"you must follow {names[suit]}: you hold {held}"

    def _end_round(self) -> None:
        """Score the finished round into the sheet and deal the next (in place on a
        fresh state)."""
        ctx = self._ctx
        rules = ctx.rules
        scores = []
        owed = list(self.owed)
        for p in range(ctx.n):
            bid, got, stake = self.bids[p], self.tricks_won[p], self.stakes[p]
            exact = bid == got
            if rules.trick_scoring:
                bonus = (rules.exact_zero_bonus if bid == 0 else rules.exact_bonus) if exact else 0
                scores.append(rules.points_per_trick * got + bonus)
            else:
                assert stake is not None
                scores.append(stake if exact else -stake)
                if stake == 40:
                    owed[p] -= 1
        totals = tuple(t + s for t, s in zip(self.totals, scores, strict=True))
        self.sheet = self.sheet + (RoundResult(
            self.round_no, self.cards, self.first, self.trump, self.bids, self.stakes,
            self.forced, self.tricks_won, tuple(scores), totals),)
        self.totals = totals
        self.owed = tuple(owed)
        if self.round_index + 1 < len(ctx.schedule):
            self._start_round(self.round_index + 1)
        else:
            self.phase = _OVER
            self.to_move = -1

    # --- outcome and views ---------------------------------------------------------------

    def outcome(self) -> Any:
        """The final scoresheet and ranking (raises before the game is over)."""
        if self.phase is not _OVER:
            raise IllegalActionError("the game is not over yet")
        from stich.baptisten.scoring import make_outcome

        return make_outcome(self)

    def view(self, seat: int) -> Any:
        from stich.baptisten.view import make_view

        return make_view(self, seat)


_STAKES: tuple[int | None, ...] = tuple(range(1, 21))
_STAKES_40: tuple[int | None, ...] = (*range(1, 21), 40)


@cache
def _bid_options(cards: int, hooked: int, stakes: tuple[int | None, ...]) -> tuple[BBid, ...]:
    return tuple(bid_action(t, s) for t in range(cards + 1) if t != hooked for s in stakes)


def _winner(ctx: _Ctx, trick: tuple[int, ...], trump: int) -> int:
    """Position in the trick of the winning card: the joker beats every card, a trump
    beats every other suit, a higher card of the same suit wins, and of two identical
    cards the later one."""
    suit_of = ctx.suit_of
    rank_of = ctx.rank_of
    best = trick[0]
    pos = 0
    for i in range(1, len(trick)):
        c = trick[i]
        bs = suit_of[best]
        if bs < 0:
            break
        cs = suit_of[c]
        if cs < 0 or (cs == bs and rank_of[c] >= rank_of[best]) or (cs == trump != bs):
            best = c
            pos = i
    return pos


def _set(t: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return t[:i] + (value,) + t[i + 1:]


def _count(n: int) -> str:
    return ("no", "one", "two", "three", "four")[n] if n <= 4 else str(n)


def _ranges(values: list[str]) -> str:
    """'0 or 2..5' from ['0', '2', '3', '4', '5']."""
    nums = [int(v) for v in values]
    parts: list[str] = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        parts.append(str(nums[i]) if i == j else f"{nums[i]}..{nums[j]}")
        i = j + 1
    return " or ".join(parts)


def _check_deals(rules: BaptistenRules, deals: Sequence[Deal]) -> None:
    sched = rules.schedule()
    if len(deals) != len(sched):
        raise ValueError(f"{len(sched)} rounds need {len(sched)} deals, not {len(deals)}")
    deck = rules.card_deck
    for r, (deal, k) in enumerate(zip(deals, sched, strict=True)):
        if len(deal.hands) != rules.players:
            raise ValueError(f"round {r + 1}: {rules.players} hands expected")
        seen = 0
        for seat, h in enumerate(deal.hands):
            if h.bit_count() != k:
                raise ValueError(f"round {r + 1}: seat {seat} has {h.bit_count()} cards, not {k}")
            if seen & h or h & ~deck.full_mask:
                raise ValueError(f"round {r + 1}: a card is dealt twice or is not in the deck")
            seen |= h
        if not 0 <= deal.trump_card < deck.size:
            raise ValueError(f"round {r + 1}: the trump card is not in the deck")
        whole = k * rules.players >= deck.size
        if seen >> deal.trump_card & 1 and not (whole and rules.trump_card == "baptisten"):
            raise ValueError(f"round {r + 1}: the turned trump card was dealt to a player")
