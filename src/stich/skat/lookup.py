"""Precomputed per-game tables for card play: trumps, follow-suit groups, card strength.

>>> from stich.cards import parse_cards, Card
>>> t = TABLES[GameType.GRAND]
>>> idx = [Card.parse(c).index for c in ("HA", "H9", "DJ")]
>>> t.winner(tuple(idx))   # the Herz-Ass trick of the rule text: the Schellen-Unter wins
2
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from stich.cards import CARDS, Rank, Suit
from stich.skat.rules import GameType

__all__ = ["GameTables", "TABLES", "JACKS", "SUIT_MASKS"]

JACKS: Final = sum(1 << (s * 8 + Rank.UNTER) for s in Suit)
SUIT_MASKS: Final = tuple(0xFF << (8 * s) for s in Suit)  # all eight cards of a suit
_NULL_ORDER = {Rank.SEVEN: 0, Rank.EIGHT: 1, Rank.NINE: 2, Rank.ZEHN: 3, Rank.UNTER: 4,
               Rank.OBER: 5, Rank.KOENIG: 6, Rank.ASS: 7}


class GameTables:
    """Trump set, follow-suit group of each card, and each card's strength in a game.

    ``follow[i]`` is the set of cards that follow card ``i`` when it is led: all trumps
    for a trump, else the cards of its printed suit that are not trumps.
    ``strength[i]`` orders cards: trumps above every side-suit card.
    """

    __slots__ = ("game", "trump", "follow", "strength")

    def __init__(self, game: GameType) -> None:
        self.game = game
        if game is GameType.NULL:
            trump = 0
        elif game.trump_suit is not None:
            trump = JACKS | SUIT_MASKS[game.trump_suit]
        else:
            trump = JACKS
        self.trump = trump
        follow = []
        strength = []
        for c in CARDS:
            if trump >> c.index & 1:
                follow.append(trump)
                strength.append(100 + c.suit if c.rank is Rank.UNTER else 50 + c.rank)
            else:
                follow.append(SUIT_MASKS[c.suit] & ~trump)
                strength.append(_NULL_ORDER[c.rank] if game is GameType.NULL else int(c.rank))
        self.follow: tuple[int, ...] = tuple(follow)
        self.strength: tuple[int, ...] = tuple(strength)

    def winner(self, cards: Sequence[int]) -> int:
        """Position (0, 1, 2) in the trick of the card that wins it."""
        a, b, c = cards
        ok = self.follow[a] | self.trump
        st = self.strength
        best = st[a]
        pos = 0
        if ok >> b & 1 and st[b] > best:
            best = st[b]
            pos = 1
        if ok >> c & 1 and st[c] > best:
            pos = 2
        return pos

    def beats(self, card: int, other: int, led: int) -> bool:
        """Whether ``card`` beats ``other`` in a trick led with ``led``."""
        ok = self.follow[led] | self.trump
        if not ok >> card & 1:
            return False
        if not ok >> other & 1:
            return True
        return self.strength[card] > self.strength[other]


TABLES: Final[dict[GameType, GameTables]] = {g: GameTables(g) for g in GameType}
