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
from collections.abc import Iterable, Sequence
from enum import IntEnum
from functools import cache
from typing import Any, Final, NamedTuple

from stich.baptisten.actions import (
    FOREHEAD_PLAY,
    BAction,
    BBid,
    ForeheadPlay,
    bid_action,
    parse_bid,
)
from stich.baptisten.deal import Deal, check_deals, draw_deals
from stich.baptisten.lookup import GameContext
from stich.baptisten.rules import BaptistenRules
from stich.cards import PlainCard, PlainDeck
from stich.core import ArgumentError, IllegalActionError, consecutive_runs, unwind
from stich.messages import Cards, Msg, Seat, StichError, SuitName

__all__ = ["BPhase", "BaptistenState", "RoundResult"]


class BPhase(IntEnum):
    BIDDING = 0
    PLAY = 1
    OVER = 2


# Final: compiled (mypyc), these are static values rather than lookups in the module
_BIDDING: Final = BPhase.BIDDING
_PLAY: Final = BPhase.PLAY
_OVER: Final = BPhase.OVER


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


class _Round(NamedTuple):
    """What changes only while bidding: fixed during the play of a round."""

    number: int  # 0-based
    cards: int
    first: int
    trump: int  # suit, -1 for no trump
    bids: tuple[int, ...]  # -1: not yet bid
    stakes: tuple[int | None, ...]
    forced: tuple[bool, ...]


class _Score(NamedTuple):
    """What changes only when a round ends."""

    totals: tuple[int, ...]
    owed: tuple[int, ...]
    sheet: tuple[RoundResult, ...]


class BaptistenState:
    """A whole game of Baptistenskat in progress (or over).  Build it with :meth:`new`."""

    __slots__ = (
        "_ctx", "_round", "_score", "phase", "to_move", "hands", "trick", "leader",
        "follow_suit", "tricks_won", "_hist", "_round_tricks",
    )

    _ctx: GameContext
    _round: _Round
    _score: _Score
    phase: BPhase
    to_move: int
    hands: tuple[int, ...]
    trick: tuple[int, ...]
    leader: int
    follow_suit: int  # suit to follow in the current trick, -1 if not fixed yet
    tricks_won: tuple[int, ...]
    _hist: tuple[Any, ...] | None
    _round_tricks: tuple[Any, ...] | None

    def __init__(self) -> None:
        """An empty state, to be filled in: build a game with :meth:`new`."""

    @classmethod
    def new(cls, rules: BaptistenRules | None = None, seed: int | None = None, *,
            rng: random.Random | None = None, deals: Sequence[Deal] | None = None,
            first: int = 0) -> BaptistenState:
        """A new game: every round dealt from a seeded shuffle, or from given deals.
        ``first`` is the seat that starts round 1 (by the draw, or given)."""
        rules = rules if rules is not None else BaptistenRules()
        if not 0 <= first < rules.players:
            raise ArgumentError("baptisten.bad_first", last=rules.players - 1, given=first)
        if deals is None:
            if rng is None:
                rng = random.Random(seed)
            deals = draw_deals(rules, rng, first)
        else:
            check_deals(rules, deals)
        ctx = GameContext(rules, deals, seed, first)
        self = cls()
        self._ctx = ctx
        self._score = _Score((0,) * ctx.n, (ctx.required,) * ctx.n, ())
        self._hist = None
        self._start_round(0)
        return self

    def _start_round(self, r: int) -> None:
        ctx = self._ctx
        n = ctx.n
        first = (ctx.first + r) % n
        deal = ctx.deals[r]
        self._round = _Round(r, ctx.schedule[r], first, ctx.suit_of[deal.trump_card],
                             (-1,) * n, (None,) * n, (False,) * n)
        self.phase = _BIDDING
        self.to_move = first
        self.hands = deal.hands
        self.trick = ()
        self.leader = first
        self.follow_suit = -1
        self.tricks_won = (0,) * n
        self._round_tricks = None

    def _fork(self) -> BaptistenState:
        new = BaptistenState()
        new._ctx = self._ctx
        new._round = self._round
        new._score = self._score
        new.phase = self.phase
        new.to_move = self.to_move
        new.hands = self.hands
        new.trick = self.trick
        new.leader = self.leader
        new.follow_suit = self.follow_suit
        new.tricks_won = self.tricks_won
        new._hist = self._hist
        new._round_tricks = self._round_tricks
        return new

    def redealt(self, deal: Deal) -> BaptistenState:
        """This state, at the start of a round before anybody has bid, with the round
        dealt ``deal`` instead (checked as :meth:`new` checks deals): for a source that
        deals one round at a time, such as OpenSpiel's chance nodes (``stich.env``).
        The game keeps the deal, so the record and the replay show it."""
        r = self._round
        if self.phase is not _BIDDING or any(b >= 0 for b in r.bids):
            raise ArgumentError("baptisten.redeal_begun", round=r.number + 1)
        ctx = self._ctx
        deals = list(ctx.deals)
        deals[r.number] = deal
        check_deals(ctx.rules, deals)
        new = self._fork()
        new._ctx = GameContext(ctx.rules, deals, ctx.seed, ctx.first)
        new.hands = deal.hands
        new._round = r._replace(trump=new._ctx.suit_of[deal.trump_card])
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
    def first_player(self) -> int:
        """The seat that started round 1."""
        return self._ctx.first

    @property
    def round_index(self) -> int:
        """The current round, 0-based."""
        return self._round.number

    @property
    def round_no(self) -> int:
        """The current round, 1-based."""
        return self._round.number + 1

    @property
    def cards(self) -> int:
        """Cards dealt to each player in the current round."""
        return self._round.cards

    @property
    def first(self) -> int:
        """The seat that bids first and leads in the current round."""
        return self._round.first

    @property
    def trump(self) -> int:
        """The trump suit of the current round, -1 for no trump (the joker was turned)."""
        return self._round.trump

    @property
    def trump_card(self) -> PlainCard:
        return self._ctx.deck.cards[self._ctx.deals[self._round.number].trump_card]

    @property
    def bids(self) -> tuple[int, ...]:
        """Bids of the current round by seat (-1: not yet bid)."""
        return self._round.bids

    @property
    def stakes(self) -> tuple[int | None, ...]:
        return self._round.stakes

    @property
    def forced(self) -> tuple[bool, ...]:
        """Per seat: whether the current round's stake of 40 was entered by force."""
        return self._round.forced

    @property
    def totals(self) -> tuple[int, ...]:
        return self._score.totals

    @property
    def owed(self) -> tuple[int, ...]:
        """Per seat: how many 40s they still have to stake."""
        return self._score.owed

    @property
    def sheet(self) -> tuple[RoundResult, ...]:
        """The scoresheet: one RoundResult per finished round."""
        return self._score.sheet

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def is_forehead_round(self) -> bool:
        return self._ctx.forehead and self._round.cards == 1

    @property
    def history(self) -> list[BAction]:
        return unwind(self._hist)

    @property
    def round_tricks(self) -> list[tuple[int, tuple[int, ...], int]]:
        """Completed tricks of the current round: (leader, cards, winner)."""
        return unwind(self._round_tricks)

    def must_stake_40(self, seat: int) -> bool:
        """Whether 40 is entered for ``seat`` by force in the current round."""
        ctx = self._ctx
        if ctx.required == 0 or self._round.cards < 3:
            return False
        owed = self._score.owed[seat]
        return owed > 0 and owed >= ctx.ge3_left[self._round.number]

    def hooked_bid(self) -> int | None:
        """The bid refused to the player to move under the hook rule, if any."""
        if self.phase is not _BIDDING:
            return None
        rnd = self._round
        bids = rnd.bids
        k = rnd.cards
        if bids.count(-1) != 1 or not (self._ctx.hook_always or k >= 3):
            return None
        rest = k - sum(bids) - 1  # the one -1 is the missing bid
        return rest if rest >= 0 else None

    def __repr__(self) -> str:
        return (f"<BaptistenState {self._ctx.rules} round {self.round_no} "
                f"{self.phase.name} to_move={self.to_move}>")

    # --- legal actions -------------------------------------------------------------------

    def legal_actions(self) -> Sequence[BAction]:
        if self.phase is _PLAY:
            # DeckTables.cards_of, inlined: this is the hottest line of a playout
            hand = self.legal_cards()
            out: tuple[PlainCard, ...] = ()
            tables = self._ctx.tables.byte_cards
            k = 0
            while hand:
                b = hand & 255
                if b:
                    out += tables[k][b]
                hand >>= 8
                k += 1
            return out
        if self.phase is _BIDDING:
            return self._bid_options()
        return ()

    def legal_cards(self) -> int:
        """The cards the player to move may play, as a set."""
        hand = self.hands[self.to_move]
        suit = self.follow_suit
        if suit < 0:
            return hand
        ctx = self._ctx
        follow = hand & ctx.suit_masks[suit]
        if not follow:
            return hand
        if ctx.must_overtrump and suit == self._round.trump:
            suit_of = ctx.suit_of
            best = max(ctx.rank_of[c] for c in self.trick if suit_of[c] == suit)
            higher = follow & ctx.at_least[suit][best]
            if higher:
                follow = higher
        return follow

    def _bid_options(self) -> tuple[BBid, ...]:
        seat = self.to_move
        ctx = self._ctx
        if ctx.trick_scoring:
            stakes: tuple[int | None, ...] = (None,)
        elif self.must_stake_40(seat):
            stakes = (40,)
        elif self._score.owed[seat] > 0 and self._round.cards >= 3:
            stakes = _STAKES_40
        else:
            stakes = _STAKES
        hooked = self.hooked_bid()
        return _bid_options(self._round.cards, -1 if hooked is None else hooked, stakes)

    # --- applying actions ----------------------------------------------------------------

    def parse_action(self, text: str) -> BAction:
        t = text.strip()
        low = t.lower()
        if not t:
            raise IllegalActionError("game.empty_action")
        if low == "play":
            return FOREHEAD_PLAY
        if low[0].isdigit() or low.startswith("bid"):
            return parse_bid(low)
        try:
            return self._ctx.deck.held(t, self.hands[self.to_move] if self.to_move >= 0 else 0)
        except StichError as e:
            raise IllegalActionError("game.unreadable_action", text=t, reason=Msg.of(e)) from None

    def apply_text(self, text: str) -> BaptistenState:
        return self.apply(self.parse_action(text))

    def apply(self, action: BAction) -> BaptistenState:
        if self.phase is _PLAY:
            if action.__class__ is PlainCard:
                return self._play(action)
            if isinstance(action, ForeheadPlay):
                return self._forehead_play()
            raise IllegalActionError("game.play_a_card", action=str(action))
        if self.phase is _BIDDING:
            if isinstance(action, BBid):
                return self._bid(action)
            raise IllegalActionError("baptisten.bid_now", action=str(action))
        raise IllegalActionError("game.over")

    def _bid(self, b: BBid) -> BaptistenState:
        rnd = self._round
        seat = self.to_move
        forced = self.must_stake_40(seat)
        if not self._bid_allowed(b, forced):
            raise self._bid_refusal(b)
        new = self._fork()
        new._hist = (b, self._hist)
        new._round = _Round(
            rnd.number, rnd.cards, rnd.first, rnd.trump, _set(rnd.bids, seat, b.tricks),
            _set(rnd.stakes, seat, b.stake), _set(rnd.forced, seat, forced))
        nxt = seat + 1 if seat + 1 < self._ctx.n else 0
        if nxt == rnd.first:
            new.phase = _PLAY
        new.to_move = nxt
        return new

    def _bid_allowed(self, b: BBid, forced: bool) -> bool:
        t = b.tricks
        if not 0 <= t <= self._round.cards or t == self.hooked_bid():
            return False
        stake = b.stake
        if self._ctx.trick_scoring:
            return stake is None
        if forced:
            return stake == 40
        if stake == 40:
            return self._score.owed[self.to_move] > 0 and self._round.cards >= 3
        return stake is not None and 1 <= stake <= 20

    def _bid_refusal(self, b: BBid) -> IllegalActionError:
        k = self._round.cards
        seat = self.to_move
        who = self._position(seat)
        if not 0 <= b.tricks <= k:
            return IllegalActionError("baptisten.bid_range", k=k)
        hooked = self.hooked_bid()
        if b.tricks == hooked:
            allowed = _ranges(t for t in range(k + 1) if t != hooked)
            return IllegalActionError("baptisten.hooked_bid", seat=who, k=k, bid=hooked,
                                      allowed=allowed)
        if self._ctx.trick_scoring:
            return IllegalActionError("baptisten.no_stakes")
        if b.stake is None:
            return IllegalActionError("baptisten.stake_missing", seat=who)
        if self.must_stake_40(seat):
            left = self._ctx.ge3_left[self._round.number]
            return IllegalActionError("baptisten.forced_40", seat=who, owed=self.owed[seat],
                                      left=left)
        if b.stake == 40:
            if k < 3:
                return IllegalActionError("baptisten.no_40_small")
            return IllegalActionError("baptisten.no_40_left", seat=who)
        return IllegalActionError("baptisten.stake_range")

    def _position(self, seat: int) -> Seat:
        """A seat of this table for a message."""
        return Seat(seat, self._ctx.n, named=False)

    def _forehead_play(self) -> BaptistenState:
        if not self.is_forehead_round:
            raise IllegalActionError("baptisten.forehead_only")
        hand = self.hands[self.to_move]
        return self._play(self._ctx.deck.cards[hand.bit_length() - 1])

    def _play(self, card: PlainCard) -> BaptistenState:
        seat = self.to_move
        hands = self.hands
        hand = hands[seat]
        bit = card.bit
        if not hand & bit:
            card = self._other_copy(card, hand)
            bit = card.bit
        ctx = self._ctx
        follow = self.follow_suit
        if follow >= 0 and card.suit != follow and hand & ctx.suit_masks[follow]:
            raise self._play_refusal(card, self.legal_cards())
        if ctx.must_overtrump and not self.legal_cards() & bit:
            raise self._play_refusal(card, self.legal_cards())
        n = ctx.n
        new = BaptistenState()
        new._ctx = ctx
        new._round = self._round
        new._score = self._score
        new.phase = _PLAY
        new._hist = (card, self._hist)
        new.hands = hands[:seat] + (hand ^ bit,) + hands[seat + 1:]
        trick = self.trick + (card.index,)
        if len(trick) < n:
            new.trick = trick
            new.to_move = seat + 1 if seat + 1 < n else 0
            new.leader = self.leader
            new.follow_suit = card.suit if follow < 0 else follow
            new.tricks_won = self.tricks_won
            new._round_tricks = self._round_tricks
            return new
        leader = self.leader
        winner = (leader + _winner(ctx, trick, self._round.trump)) % n
        new.trick = ()
        new.follow_suit = -1
        tw = self.tricks_won
        new.tricks_won = tw[:winner] + (tw[winner] + 1,) + tw[winner + 1:]
        new._round_tricks = ((leader, trick, winner), self._round_tricks)
        new.leader = winner
        new.to_move = winner
        if not any(new.hands):
            new._end_round()
        return new

    def _other_copy(self, card: PlainCard, hand: int) -> PlainCard:
        for c in self._ctx.deck.same_kind(card):
            if hand & c.bit:
                return c
        raise IllegalActionError("baptisten.not_held", seat=self._position(self.to_move),
                                 cards=Cards(card.bit, self._ctx.deck.name))

    def _play_refusal(self, card: PlainCard, legal: int) -> IllegalActionError:
        deck = self._ctx.deck
        suit = self.follow_suit
        overtrump = suit == self._round.trump and self._ctx.must_overtrump
        who = self._position(self.to_move)
        what = SuitName(suit, deck.name)
        if overtrump and deck.suit_masks[suit] & card.bit:
            return IllegalActionError("baptisten.must_overtrump", seat=who, suit=what,
                                      cards=Cards(legal, deck.name))
        held = legal & ~self._ctx.joker_mask
        return IllegalActionError("baptisten.must_follow", seat=who, suit=what,
                                  cards=Cards(held, deck.name))

    def _end_round(self) -> None:
        """Score the finished round into the sheet and deal the next (in place on a
        fresh state)."""
        ctx = self._ctx
        rules = ctx.rules
        rnd = self._round
        score = self._score
        scores = []
        owed = list(score.owed)
        for p in range(ctx.n):
            bid, got, stake = rnd.bids[p], self.tricks_won[p], rnd.stakes[p]
            exact = bid == got
            if ctx.trick_scoring:
                bonus = (rules.exact_zero_bonus if bid == 0 else rules.exact_bonus) if exact else 0
                scores.append(rules.points_per_trick * got + bonus)
            else:
                assert stake is not None
                scores.append(stake if exact else -stake)
                if stake == 40:
                    owed[p] -= 1
        totals = tuple(t + s for t, s in zip(score.totals, scores, strict=True))
        row = RoundResult(rnd.number + 1, rnd.cards, rnd.first, rnd.trump, rnd.bids, rnd.stakes,
                          rnd.forced, self.tricks_won, tuple(scores), totals)
        self._score = _Score(totals, tuple(owed), (*score.sheet, row))
        if rnd.number + 1 < len(ctx.schedule):
            self._start_round(rnd.number + 1)
        else:
            self.phase = _OVER
            self.to_move = -1

    # --- outcome and views ---------------------------------------------------------------

    def outcome(self) -> Any:
        """The final scoresheet and ranking (raises before the game is over)."""
        if self.phase is not _OVER:
            raise IllegalActionError("game.not_over")
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


def _winner(ctx: GameContext, trick: tuple[int, ...], trump: int) -> int:
    """Seat in the trick of the winning card: the joker beats every card, a trump
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


def _ranges(values: Iterable[int]) -> str:
    """The values as runs, for a message in any language.

    >>> _ranges([0, 2, 3, 4, 5]), _ranges([1, 2])
    ('0, 2–5', '1, 2')
    """
    return ", ".join(str(a) if a == b else f"{a}, {b}" if b == a + 1 else f"{a}–{b}"
                     for a, b in consecutive_runs(values))
