"""Tables a Baptistenskat game looks up in its hot paths, built once per deck and per
rule set, and the context fixed for one whole game."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from stich.baptisten.deal import Deal
from stich.baptisten.rules import BaptistenRules
from stich.cards import PLAIN_DECKS, PlainCard, PlainDeck

__all__ = ["GameContext", "DeckTables", "deck_tables"]


class DeckTables:
    """Lookup tables of one deck, built once per deck."""

    __slots__ = ("deck", "suit_of", "rank_of", "joker_mask", "at_least", "suit_masks",
                 "byte_cards")

    def __init__(self, deck: PlainDeck) -> None:
        self.deck = deck
        self.suit_of = tuple(c.suit for c in deck.cards)
        self.rank_of = tuple(c.rank for c in deck.cards)
        self.joker_mask = sum(c.bit for c in deck.cards if c.is_joker)
        self.suit_masks = deck.suit_masks
        n_r = len(deck.rank_codes)
        # at_least[suit][rank]: the cards of a suit ranking rank or higher
        self.at_least = tuple(
            tuple(sum(c.bit for c in deck.cards if c.suit == s and c.rank >= r)
                  for r in range(n_r))
            for s in range(len(deck.suit_codes))
        )
        # byte_cards[k][b]: the cards of byte k of a set whose bits there are b
        cards = deck.cards
        self.byte_cards = tuple(
            tuple(tuple(cards[8 * k + i] for i in range(8) if b >> i & 1 and 8 * k + i < deck.size)
                  for b in range(256))
            for k in range((deck.size + 7) // 8)
        )

    def cards_of(self, mask: int) -> tuple[PlainCard, ...]:
        out: tuple[PlainCard, ...] = ()
        tables = self.byte_cards
        k = 0
        while mask:
            b = mask & 255
            if b:
                out += tables[k][b]
            mask >>= 8
            k += 1
        return out


@cache
def deck_tables(name: str) -> DeckTables:
    return DeckTables(PLAIN_DECKS[name])


class _RulesInfo(NamedTuple):
    schedule: tuple[int, ...]
    ge3_left: tuple[int, ...]  # rounds with 3+ cards from this round on
    required: int  # 40s each player must stake


@cache
def _rules_info(rules: BaptistenRules) -> _RulesInfo:
    sched = rules.schedule()
    return _RulesInfo(sched, tuple(sum(1 for k in sched[r:] if k >= 3) for r in range(len(sched))),
                      rules.forties_required)


class GameContext:
    """What is fixed for the whole game."""

    __slots__ = ("rules", "deck", "n", "schedule", "deals", "ge3_left", "suit_of", "rank_of",
                 "joker_mask", "at_least", "suit_masks", "required", "seed", "first", "tables",
                 "hook_always", "trick_scoring", "must_overtrump", "forehead")

    def __init__(self, rules: BaptistenRules, deals: Sequence[Deal], seed: int | None,
                 first: int) -> None:
        self.rules = rules
        self.first = first
        self.deals = tuple(deals)
        self.seed = seed
        self.n = rules.players
        info = _rules_info(rules)
        self.schedule = info.schedule
        self.ge3_left = info.ge3_left
        self.required = info.required
        t = self.tables = deck_tables(rules.deck)
        self.deck = t.deck
        self.suit_of = t.suit_of
        self.rank_of = t.rank_of
        self.joker_mask = t.joker_mask
        self.at_least = t.at_least
        self.suit_masks = t.suit_masks
        self.hook_always = rules.hook_always
        self.trick_scoring = rules.trick_scoring
        self.must_overtrump = rules.must_overtrump
        self.forehead = rules.forehead
