"""Cards and suits named in words as people say them, in a table's card style.

The browser table draws Skat cards in one of three styles (``german``: Eichel, Grün,
Herz, Schellen; ``french4``/``french2``: Kreuz, Pik, Herz, Karo); the plain decks of
Baptistenskat are French (Rommé, Skat) or Elfer raus whatever the style.  A refusal
shown at that table names the cards the same way: "Du musst Grün bedienen: du hast
Grün 8, Grün König" rather than card codes.  English pages name every card (and the suit
to follow) in English, in every style, exactly as the card faces' labels do
(``static/js/cards.js``): "jack of clubs", "ten of spades", "red 11" (:func:`english_card`).
The games keep their German names (Skat terms), as the buttons show them.

>>> from stich.cards import parse_cards
>>> n = StyleNamer("german", game="gruen")
>>> n.cards(Cards(parse_cards("ST S8 SK")), "de")
'Grün 10, Grün König, Grün 8'
>>> StyleNamer("french4").cards(Cards(parse_cards("S8 SK")), "de")
'Pik König, Pik 8'
>>> StyleNamer("french2").cards(Cards(parse_cards("S8")), "en")
'eight of spades'
>>> StyleNamer("german").cards(Cards(parse_cards("HJ HT")), "en")
'jack of hearts, ten of hearts'
>>> StyleNamer("german").suit(SuitName(2), "en")
'spades'
>>> from stich.cards import plain_deck
>>> romme = plain_deck("romme")
>>> StyleNamer("german").cards(Cards(romme.parse_set("CA D2"), "romme"), "de")
'Kreuz Ass, Karo 2'
>>> StyleNamer("german").cards(Cards(romme.parse_set("CA"), "romme"), "en")
'ace of clubs'
>>> StyleNamer("german").cards(Cards(plain_deck("elferraus").parse_set("R11"), "elferraus"), "de")
'Rot 11'
"""

from __future__ import annotations

from stich.cards import Card, Suit, bits, plain_deck
from stich.messages import PLAIN, Cards, GameName, Seat, SuitName
from stich.skat.rules import GameType
from stich.skat.view import display_order

__all__ = ["STYLES", "StyleNamer", "card_style", "english_card"]

STYLES = ("german", "french4", "french2")
"""The card styles of the browser table (``localStorage["stich.style"]``)."""

_EN_SUITS = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds",
             "R": "red", "Y": "yellow", "G": "green", "B": "blue"}
_EN_RANKS = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
             "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king",
             "A": "ace"}


def english_card(code: str) -> str:
    """A card's name on the site's English pages, the one its face's label says
    (``cardLabel`` of ``static/js/cards.js``): the same for every card style.

    >>> english_card("CJ"), english_card("ST"), english_card("D2"), english_card("R11")
    ('jack of clubs', 'ten of spades', 'two of diamonds', 'red 11')
    >>> english_card("JK")
    'Joker'
    """
    if code == "JK":
        return "Joker"
    suit, rank = code[0], code[1:]
    if suit in "RYGB":
        return f"{_EN_SUITS[suit]} {rank}"
    return f"{_EN_RANKS[rank]} of {_EN_SUITS[suit]}"


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
        if c.deck is None:
            if lang == "en":
                return ", ".join(english_card(card.code) for card in self._skat_order(c.mask))
            style = self._skat_style(lang)
            return ", ".join(card.name_in(style) for card in self._skat_order(c.mask))
        deck = plain_deck(c.deck)
        names = []
        for i in bits(c.mask):
            card = deck.cards[i]
            names.append(english_card(card.code) if lang == "en" else _capital(card.german))
        return ", ".join(names)

    def _skat_order(self, mask: int) -> list[Card]:
        game = GameType(self.game_type) if self.game_type else None
        return display_order(mask, game)

    def suit(self, s: SuitName, lang: str) -> str:
        if s.deck is None and s.suit >= 0:
            if lang == "en":
                return _EN_SUITS[Suit(s.suit).code]
            return Suit(s.suit).name_in(self._skat_style(lang))
        if lang == "en" and s.deck is not None and s.suit >= 0:
            return _EN_SUITS[plain_deck(s.deck).suit_codes[s.suit]]
        return _capital(PLAIN.suit(s, lang))

    def game(self, g: GameName, lang: str) -> str:
        if g.game in ("eichel", "gruen", "herz", "schellen"):
            return Suit[g.game.upper()].name_in(self._skat_style(lang))
        return PLAIN.game(g, lang)

    def seat(self, p: Seat, lang: str) -> str:
        return PLAIN.seat(p, lang)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
