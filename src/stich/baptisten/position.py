"""A position of the round in play, built from one seat's view and a guess of the cards it
cannot see: what a search bot plays out in a sampled world.

:func:`round_position` returns an ordinary :class:`~stich.baptisten.state.BaptistenState`
(the engine's own rules: legal cards, must-overtrump, the joker, "of two identical cards
the later one wins", scoring), whose game ends with the current round (the later deals
are unknown).  Bids not yet said may be given, so that a search can play the round out
for bids it imagines; the position then starts the card play.

>>> from stich.baptisten import BaptistenRules, BaptistenState
>>> s = BaptistenState.new(BaptistenRules(players=3, max_cards=3), seed=4)
>>> v = s.view(s.to_move)
>>> p = round_position(v, s.hands)
>>> p.hands == s.hands, p.phase.name, p.to_move == s.to_move
(True, 'BIDDING', True)
>>> p = round_position(v, s.hands, bids=(0, 1, 0), stakes=(5, 5, 5))
>>> p.phase.name, p.bids
('PLAY', (0, 1, 0))
>>> while not p.is_over:
...     p = p.apply(p.legal_actions()[0])
>>> sum(p.sheet[-1].tricks)
1
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from stich.baptisten.deal import Deal
from stich.baptisten.lookup import GameContext
from stich.baptisten.rules import BaptistenRules
from stich.baptisten.state import BaptistenState, BPhase, _Round, _Score
from stich.baptisten.view import BaptistenView
from stich.core import ArgumentError
from stich.messages import Seat

__all__ = ["round_position"]


def round_position(view: BaptistenView, hands: Sequence[int],
                   bids: Sequence[int] | None = None,
                   stakes: Sequence[int | None] | None = None) -> BaptistenState:
    """The current round of ``view`` with ``hands`` (every seat's cards now, the view's
    own included) as a game that ends with this round.

    ``hands`` must agree with the view: the seat's own hand (or, in a forehead round, the
    others' cards it sees), each hand's size, and no card already played, turned for trump
    (when it lies on the rest of the deck) or held twice; otherwise ArgumentError
    ``baptisten.position_mismatch``.  ``bids``/``stakes`` (every seat, only while the view
    is bidding): the bids to assume, the said ones unchanged; the position is then at the
    first lead.  Stakes default to the said ones, else 1 (None under trick scoring)."""
    rules = _rules(view.rules)
    n = rules.players
    r = view.round_no - 1
    if view.phase == "OVER" or len(hands) != n:
        raise ArgumentError("baptisten.position_mismatch", seat=_seat(view))
    _check_hands(view, rules, hands)
    played_by = [0] * n
    for leader, cards, _ in view.round_tricks:
        for i, c in enumerate(cards):
            played_by[(leader + i) % n] |= 1 << c
    for seat, c in view.trick:
        played_by[seat] |= 1 << c
    start = tuple(h | p for h, p in zip(hands, played_by, strict=True))
    ctx = GameContext(rules, (Deal(start, view.trump_card),) * (r + 1), None,
                      (view.first - r) % n)
    ctx.schedule = ctx.schedule[:r + 1]  # the game ends with this round
    st = BaptistenState()
    st._ctx = ctx
    st._score = _Score(view.totals, view.owed, view.sheet)
    st._hist = None
    said_bids, said_stakes, forced = view.bids, view.stakes, view.forced
    phase = BPhase[view.phase]
    to_move = view.to_move
    if bids is not None:
        if phase is not BPhase.BIDDING or len(bids) != n or any(
                b != t for b, t in zip(said_bids, bids, strict=True) if b >= 0) or any(
                not 0 <= t <= view.cards for t in bids):
            raise ArgumentError("baptisten.position_mismatch", seat=_seat(view))
        if stakes is None:
            plain: int | None = None if rules.trick_scoring else 1
            stakes = tuple(s if b >= 0 else plain
                           for b, s in zip(said_bids, said_stakes, strict=True))
        said_bids, said_stakes = tuple(bids), tuple(stakes)
        phase, to_move = BPhase.PLAY, view.first
    st._round = _Round(r, view.cards, view.first, view.trump, tuple(said_bids),
                       tuple(said_stakes), forced)
    st.phase = phase
    st.to_move = to_move
    st.hands = tuple(hands)
    st.trick = tuple(c for _, c in view.trick)
    st.leader = view.trick[0][0] if view.trick else (
        view.round_tricks[-1][2] if view.round_tricks else view.first)
    suit_of = ctx.suit_of
    st.follow_suit = next((suit_of[c] for c in st.trick if suit_of[c] >= 0), -1)
    st.tricks_won = view.tricks_won
    linked: tuple[Any, ...] | None = None
    for t in view.round_tricks:
        linked = (t, linked)
    st._round_tricks = linked
    return st


@lru_cache(maxsize=64)
def _rules(text: str) -> BaptistenRules:
    return BaptistenRules.parse(text)


def _seat(view: BaptistenView) -> Seat:
    return Seat(view.seat, len(view.bids), named=False)


def _check_hands(view: BaptistenView, rules: BaptistenRules, hands: Sequence[int]) -> None:
    n = rules.players
    deck = rules.card_deck
    done = len(view.round_tricks)
    in_trick = {s for s, _ in view.trick}
    seen = view.played
    whole = view.cards * n >= deck.size and rules.trump_card == "baptisten"
    if not whole:
        seen |= 1 << view.trump_card
    forehead = view.forehead
    for p, h in enumerate(hands):
        left = view.cards - done - (1 if p in in_trick else 0)
        if h.bit_count() != left or h & seen or h & ~deck.full_mask:
            raise ArgumentError("baptisten.position_mismatch", seat=_seat(view))
        seen |= h
        if p == view.seat and not forehead and h != view.hand:
            raise ArgumentError("baptisten.position_mismatch", seat=_seat(view))
        if view.others[p] and h != view.others[p]:
            raise ArgumentError("baptisten.position_mismatch", seat=_seat(view))
