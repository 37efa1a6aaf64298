"""How the terminal names the parameters of a coded message (:mod:`stich.messages`).

An engine refusal carries cards, suits, games and seats as parameters; the terminal
names them as its screen does: cards in the person's card style with their number in
the hand listing (``3 Herz 7 (H7)``), suits and games by the style, seats by the names
at the table.  The namer is generic: it works for any message code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from stich.messages import PLAIN, Cards, GameName, Seat, SuitName

__all__ = ["TerminalNamer"]


class TerminalNamer:
    """A :class:`stich.messages.Namer` for one table: ``cards`` and ``suit`` name the
    parameters of this table's deck (others fall back to the plain names), ``game`` a
    Skat game type by its value, ``names`` the players by seat."""

    def __init__(self, *, cards: Callable[[int], str], suit: Callable[[int], str],
                 names: Sequence[str], deck: str | None = None,
                 game: Callable[[str], str] | None = None) -> None:
        self._cards = cards
        self._suit = suit
        self._game = game
        self.names = list(names)
        self.deck = deck

    def cards(self, c: Cards, lang: str) -> str:
        if c.deck != self.deck:
            return PLAIN.cards(c, lang)
        return self._cards(c.mask)

    def suit(self, s: SuitName, lang: str) -> str:
        if s.deck != self.deck or s.suit < 0:
            return PLAIN.suit(s, lang)
        return self._suit(s.suit)

    def game(self, g: GameName, lang: str) -> str:
        if self._game is None:
            return PLAIN.game(g, lang)
        return self._game(g.game)

    def seat(self, p: Seat, lang: str) -> str:
        if 0 <= p.seat < len(self.names) and p.players == len(self.names):
            return self.names[p.seat]
        return PLAIN.seat(p, lang)
