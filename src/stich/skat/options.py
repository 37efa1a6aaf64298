"""What a Skat player may do, precomputed: the values to say in the auction, the
discards, the declarations; and the ISkO deal order.  Shared tuples of shared action
objects, so that ``legal_actions()`` builds nothing in the common case."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from stich.cards import cards_of
from stich.core import ArgumentError
from stich.skat.actions import HOLD, PASS, Action, Declare, Discard, bid
from stich.skat.rules import GameType, SkatRules, bidding_ladder

__all__ = ["HOLD_PASS", "VORHANDRECHT", "bid_options", "checked_deal", "deal_order",
           "declaration_options", "discards"]

HOLD_PASS: tuple[Action, ...] = (HOLD, PASS)
VORHANDRECHT: tuple[Action, ...] = (bid(18), PASS)
_BID_OPTIONS: dict[tuple[bool, bool, str, bool], dict[int, tuple[Action, ...]]] = {}


def bid_options(rules: SkatRules) -> dict[int, tuple[Action, ...]]:
    """For each highest value so far, what the bidder may say: the next ladder value
    (or, with jumps, any higher one), and pass."""
    key = rules.bid_key  # what the ladder depends on
    table = _BID_OPTIONS.get(key)
    if table is None:
        ladder = bidding_ladder(rules)
        table = {}
        for current in (0, *ladder):
            higher = [v for v in ladder if v > current]
            if not rules.bidding_jumps:
                higher = higher[:1]
            table[current] = (*(bid(v) for v in higher), PASS)
        _BID_OPTIONS[key] = table
    return table


def deal_order(order: Sequence[int]) -> tuple[int, int, int, int]:
    """Deal a shuffled deck the ISkO way: 3 to each from Vorhand, 2 to the Skat, 4 to
    each, 3 to each.  Returns the three hands and the Skat as sets."""
    o = order
    h0 = 1 << o[0] | 1 << o[1] | 1 << o[2]
    h1 = 1 << o[3] | 1 << o[4] | 1 << o[5]
    h2 = 1 << o[6] | 1 << o[7] | 1 << o[8]
    sk = 1 << o[9] | 1 << o[10]
    h0 |= 1 << o[11] | 1 << o[12] | 1 << o[13] | 1 << o[14]
    h1 |= 1 << o[15] | 1 << o[16] | 1 << o[17] | 1 << o[18]
    h2 |= 1 << o[19] | 1 << o[20] | 1 << o[21] | 1 << o[22]
    h0 |= 1 << o[23] | 1 << o[24] | 1 << o[25]
    h1 |= 1 << o[26] | 1 << o[27] | 1 << o[28]
    h2 |= 1 << o[29] | 1 << o[30] | 1 << o[31]
    return h0, h1, h2, sk


def checked_deal(hands: Sequence[int], skat: int | None) -> tuple[int, int, int, int]:
    """Given hands and Skat as a deal, or ArgumentError saying why they are not one."""
    if skat is None or len(hands) != 3:
        raise ArgumentError("skat.deal_parts")
    h0, h1, h2 = hands
    sizes = [h.bit_count() for h in (h0, h1, h2)]
    if sizes != [10, 10, 10] or skat.bit_count() != 2:
        raise ArgumentError("skat.deal_sizes", sizes=", ".join(map(str, sizes)),
                            skat=skat.bit_count())
    if (h0 | h1 | h2 | skat) != (1 << 32) - 1:
        raise ArgumentError("skat.deal_cards")
    return h0, h1, h2, skat


def discards(hand: int) -> tuple[Discard, ...]:
    """Every pair of cards in the hand, as Discard actions."""
    idx = [c.index for c in cards_of(hand)]
    pairs = _DISCARD_PAIRS
    return tuple([pairs[a][b] for i, a in enumerate(idx) for b in idx[i + 1:]])


_DISCARD_PAIRS: tuple[tuple[Discard, ...], ...] = tuple(
    tuple(Discard(1 << a | 1 << b) if a != b else None for b in range(32))  # type: ignore[misc]
    for a in range(32)
)


@cache
def declaration_options(hand: bool, announce: bool, nulls: tuple[bool, ...]
                         ) -> tuple[Declare, ...]:
    """The games a declarer may announce (``nulls``: which of Null, Null Ouvert are
    allowed at this bid)."""
    out: list[Declare] = []
    for game in (GameType.SCHELLEN, GameType.HERZ, GameType.GRUEN, GameType.EICHEL,
                 GameType.GRAND):
        out.append(Declare(game, hand=hand))
        if hand:
            if announce:
                out.append(Declare(game, True, schneider=True))
                out.append(Declare(game, True, schneider=True, schwarz=True))
                out.append(Declare(game, True, True, True, ouvert=True))
            else:
                out.append(Declare(game, True, ouvert=True))
    for ouvert, allowed in zip((False, True), nulls, strict=True):
        if allowed:
            out.append(Declare(GameType.NULL, hand=hand, ouvert=ouvert))
    return tuple(out)
