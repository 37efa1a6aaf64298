"""Dealing Baptistenskat: each round's cards and trump card, and the draw for the first
player.  Chance is an input to the game: every deal is drawn from the seed when the game
starts (or given, as in a record), so a game replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from stich.baptisten.rules import BaptistenRules
from stich.cards import PlainDeck
from stich.core import ArgumentError
from stich.messages import Seat

__all__ = ["Deal", "check_deals", "deal_round", "draw_deals", "draw_first_player"]


class Deal(NamedTuple):
    """One round's deal: each seat's cards and the card that fixes trump."""

    hands: tuple[int, ...]
    trump_card: int  # card index; its suit is trump (none for the joker)


def deal_round(deck: PlainDeck, players: int, cards: int, first: int, rng: random.Random,
               trump_before: bool) -> Deal:
    """Shuffle and deal ``cards`` to each seat one at a time, starting with ``first``.
    The next card is turned for trump; when the round uses the whole deck
    (``trump_before``), a card is drawn before the deal and shuffled back instead.

    The shuffle draws only as many cards as it deals (a partial Fisher-Yates shuffle,
    each position chosen with ``rng.random()``)."""
    rnd = rng.random
    size = deck.size
    drawn = int(rnd() * size) if trump_before else -1
    order = list(range(size))
    hands = [0] * players
    seat = first
    total = cards * players
    for i in range(total):
        j = i + int(rnd() * (size - i))
        card = order[j]
        order[j] = order[i]
        hands[seat] |= 1 << card
        seat += 1
        if seat == players:
            seat = 0
    if not trump_before:
        drawn = order[total + int(rnd() * (size - total))]
    return Deal(tuple(hands), drawn)


def draw_first_player(rules: BaptistenRules, rng: random.Random
                      ) -> tuple[int, list[list[tuple[int, int]]]]:
    """The draw for the first player: every seat draws a card from the shuffled deck and
    the highest rank starts (the joker above all); seats that tie for highest draw again
    from a fresh deck.  Returns the seat and each draw as (seat, card index) pairs."""
    deck = rules.card_deck
    rank_of = [c.rank for c in deck.cards]
    seats = list(range(rules.players))
    draws: list[list[tuple[int, int]]] = []
    while True:
        cards = rng.sample(range(deck.size), len(seats))
        draw = list(zip(seats, cards, strict=True))
        draws.append(draw)
        top = max(rank_of[c] for c in cards)
        seats = [seat for seat, c in draw if rank_of[c] == top]
        if len(seats) == 1:
            return seats[0], draws


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


def check_deals(rules: BaptistenRules, deals: Sequence[Deal]) -> None:
    """Given deals that fit the rules, or ArgumentError saying which round does not."""
    sched = rules.schedule()
    if len(deals) != len(sched):
        raise ArgumentError("baptisten.deal_count", rounds=len(sched), deals=len(deals))
    deck = rules.card_deck
    n = rules.players
    for r, (deal, k) in enumerate(zip(deals, sched, strict=True)):
        if len(deal.hands) != n:
            raise ArgumentError("baptisten.deal_hands", round=r + 1, players=n,
                                hands=len(deal.hands))
        seen = 0
        for seat, h in enumerate(deal.hands):
            if h.bit_count() != k:
                raise ArgumentError("baptisten.deal_hand_size", round=r + 1,
                                    seat=Seat(seat, n, named=False), n=h.bit_count(), k=k)
            if seen & h or h & ~deck.full_mask:
                raise ArgumentError("baptisten.deal_twice", round=r + 1)
            seen |= h
        if not 0 <= deal.trump_card < deck.size:
            raise ArgumentError("baptisten.trump_not_in_deck", round=r + 1)
        whole = k * n >= deck.size
        if seen >> deal.trump_card & 1 and not (whole and rules.trump_card == "baptisten"):
            raise ArgumentError("baptisten.trump_dealt", round=r + 1)
