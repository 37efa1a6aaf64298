"""What one Baptistenskat seat may know.

Its own hand (in a forehead round instead: every other seat's card, never its own), the
turned trump card, the bids and stakes so far, the 40s each player still owes, the cards
played in this round, and the scoresheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from stich.baptisten.actions import FOREHEAD_PLAY, BAction
from stich.cards import PlainCard, PlainDeck, bits
from stich.core import ArgumentError

if TYPE_CHECKING:
    from stich.baptisten.state import BaptistenState, RoundResult

__all__ = ["BaptistenView", "display_order", "make_view"]


@dataclass(frozen=True)
class BaptistenView:
    seat: int
    rules: str
    round_no: int
    cards: int
    first: int
    phase: str
    to_move: int
    hand: int  # 0 in a forehead round
    others: tuple[int, ...]  # per seat: cards this seat can see in others' hands (forehead)
    trump_card: int
    trump: int
    bids: tuple[int, ...]
    stakes: tuple[int | None, ...]
    forced: tuple[bool, ...]
    hooked: int | None
    owed: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]  # (seat, card index)
    round_tricks: tuple[tuple[int, tuple[int, ...], int], ...]
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]
    sheet: tuple[RoundResult, ...]
    legal_actions: tuple[BAction, ...]

    def __reduce__(self) -> tuple[type[BaptistenView], tuple[object, ...]]:
        """Pickled by its fields (views go to bot worker processes): compiled with mypyc,
        a frozen dataclass cannot be rebuilt attribute by attribute."""
        return (BaptistenView, (
            self.seat, self.rules, self.round_no, self.cards, self.first, self.phase,
            self.to_move, self.hand, self.others, self.trump_card, self.trump, self.bids,
            self.stakes, self.forced, self.hooked, self.owed, self.trick, self.round_tricks,
            self.tricks_won, self.totals, self.sheet, self.legal_actions))

    @property
    def forehead(self) -> bool:
        """Whether the round in play is a forehead round: the seat holds a card it cannot
        see (its ``hand`` is 0 while it still has a card to play; ``others`` shows the
        cards of the seats that have not played theirs yet, and may all be 0)."""
        if self.phase == "OVER" or self.hand:
            return False
        mine = any(s == self.seat for s, _ in self.trick)
        return self.cards - len(self.round_tricks) - mine > 0

    @property
    def played(self) -> int:
        m = 0
        for _, cards, _ in self.round_tricks:
            for c in cards:
                m |= 1 << c
        for _, c in self.trick:
            m |= 1 << c
        return m

    def owed_now(self) -> tuple[int, ...]:
        """Per seat, the 40s still owed counting those staked in this round's bids
        (``owed`` drops only when a round is scored; once the game is over the last
        round is scored already)."""
        if self.phase == "OVER":
            return self.owed
        return tuple(o - (1 if self.bids[p] >= 0 and self.stakes[p] == 40 else 0)
                     for p, o in enumerate(self.owed))

    def known_cards(self) -> int:
        """Cards whose place this view reveals (the trump card's place only when it was
        turned from the rest of the deck, which is public)."""
        m = self.hand | self.played
        for h in self.others:
            m |= h
        return m


def make_view(state: BaptistenState, seat: int) -> BaptistenView:
    n = state.players
    if not 0 <= seat < n:
        raise ArgumentError("game.bad_seat", last=n - 1, given=seat)
    over = state.is_over
    forehead = state.is_forehead_round and not over
    hand = 0 if forehead else state.hands[seat] if not over else 0
    others = tuple(state.hands[p] if forehead and p != seat else 0 for p in range(n))
    legal: tuple[BAction, ...] = ()
    if state.to_move == seat:
        legal = tuple(state.legal_actions())
        if forehead and state.phase.name == "PLAY":
            legal = (FOREHEAD_PLAY,)
    trick = tuple(((state.leader + i) % n, c) for i, c in enumerate(state.trick))
    return BaptistenView(
        seat=seat, rules=str(state.rules), round_no=state.round_no, cards=state.cards,
        first=state.first, phase=state.phase.name, to_move=state.to_move, hand=hand,
        others=others, trump_card=state.deals[state.round_index].trump_card,
        trump=state.trump, bids=state.bids, stakes=state.stakes, forced=state.forced,
        hooked=state.hooked_bid() if state.to_move == seat else None, owed=state.owed,
        trick=trick, round_tricks=tuple(state.round_tricks), tricks_won=state.tricks_won,
        totals=state.totals, sheet=state.sheet, legal_actions=legal,
    )


def display_order(cards: int, deck: PlainDeck, trump: int) -> list[PlainCard]:
    """Cards as a player holds them: the joker first, then trumps, then the other suits
    in deck order; high to low."""
    def key(c: PlainCard) -> tuple[int, int, int]:
        if c.is_joker:
            return (0, 0, 0)
        return (1 if c.suit == trump else 2, c.suit, -c.rank)

    return sorted((deck.cards[i] for i in bits(cards)), key=key)
