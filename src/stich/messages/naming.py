"""Cards and suits named in words as people say them, in a table's card style.

The browser table draws Skat cards in one of three styles (``german``: Eichel, Grün,
Herz, Schellen; ``french4``/``french2``: Kreuz, Pik, Herz, Karo); the plain decks of
Baptistenskat are French (Rommé, Skat) or Elfer raus whatever the style.  A refusal
shown at that table names the cards the same way: "Du musst Grün bedienen: du hast
Grün 8, Grün König" rather than card codes.  English pages name German-suited cards by
their German names (the faces say so) and French-suited ones the English way
("8 of Spades").

>>> from stich.cards import parse_cards
>>> n = StyleNamer("german", game="gruen")
>>> n.cards(Cards(parse_cards("ST S8 SK")), "de")
'Grün 10, Grün König, Grün 8'
>>> StyleNamer("french4").cards(Cards(parse_cards("S8 SK")), "de")
'Pik König, Pik 8'
>>> StyleNamer("french2").cards(Cards(parse_cards("S8")), "en")
'8 of Spades'
>>> StyleNamer("german").suit(SuitName(2), "en")
'Grün'
>>> from stich.cards import plain_deck
>>> romme = plain_deck("romme")
>>> StyleNamer("german").cards(Cards(romme.parse_set("CA D2"), "romme"), "de")
'Kreuz Ass, Karo 2'
>>> StyleNamer("german").cards(Cards(romme.parse_set("CA"), "romme"), "en")
'Ace of Clubs'
>>> StyleNamer("german").cards(Cards(plain_deck("elferraus").parse_set("R11"), "elferraus"), "de")
'Rot 11'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stich.messages import PLAIN, Cards, GameName, Position, SuitName

if TYPE_CHECKING:
    from stich.cards import Card

__all__ = ["STYLES", "StyleNamer", "card_style"]

STYLES = ("german", "french4", "french2")
"""The card styles of the browser table (``localStorage["stich.style"]``)."""


def card_style(text: str | None) -> str:
    """A style given by a client, or ``german`` for anything else.

    >>> card_style("french2"), card_style("<b>x</b>"), card_style(None)
    ('french2', 'german', 'german')
    """
    return text if text in STYLES else "german"


class StyleNamer:
    """A :class:`stich.messages.Namer` that names cards and suits in words in a card
    style; ``game``: the Skat game being played (its value, e.g. ``herz``), which orders a
    set of Skat cards as a player holds them (trumps first).  Games and seats as
    :data:`stich.messages.PLAIN`."""

    def __init__(self, style: str = "german", game: str | None = None) -> None:
        self.style = card_style(style)
        self.game_type = game

    def _skat_style(self, lang: str) -> str:
        if self.style == "german":
            return "german"
        return "english" if lang == "en" else "french"

    def cards(self, c: Cards, lang: str) -> str:
        from stich.cards import bits, plain_deck

        if c.deck is None:
            style = self._skat_style(lang)
            return ", ".join(card.name_in(style) for card in self._skat_order(c.mask))
        deck = plain_deck(c.deck)
        names = []
        for i in bits(c.mask):
            card = deck.cards[i]
            if lang == "en" and not card.is_joker and deck.suit_codes[0] == "C":
                names.append(f"{deck.rank_names_en[card.rank]} of {deck.suit_names_en[card.suit]}")
            else:
                names.append(_capital(card.english if lang == "en" else card.german))
        return ", ".join(names)

    def _skat_order(self, mask: int) -> list[Card]:
        from stich.skat.rules import GameType
        from stich.skat.view import display_order

        game = GameType(self.game_type) if self.game_type else None
        return display_order(mask, game)

    def suit(self, s: SuitName, lang: str) -> str:
        from stich.cards import Suit

        if s.deck is None and s.suit >= 0:
            return Suit(s.suit).name_in(self._skat_style(lang))
        return _capital(PLAIN.suit(s, lang))

    def game(self, g: GameName, lang: str) -> str:
        from stich.cards import Suit

        if g.game in ("eichel", "gruen", "herz", "schellen"):
            return Suit[g.game.upper()].name_in(self._skat_style(lang))
        return PLAIN.game(g, lang)

    def position(self, p: Position, lang: str) -> str:
        return PLAIN.position(p, lang)



def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
