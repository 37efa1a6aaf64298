"""The text forms of suits, ranks and decks, as plain data: the one source that both
:mod:`stich.cards` (which builds the decks and reads cards) and :mod:`stich.messages`
(which names the cards, suits and games in a message's parameters by their codes and
German names) read.

It sits below both of them in the layering and imports nothing of ``stich``, so that the
messages name cards without importing the engines' card module, which raises its
refusals as messages.

>>> skat_codes(1 << 7 | 1 << 31)
'DJ CJ'
>>> deck_codes("romme-double-joker")[-1], len(deck_codes("elferraus"))
('JK', 80)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final, NamedTuple

__all__ = [
    "PLAIN_DECK_SPECS",
    "RANK_CODE",
    "RANK_ENGLISH",
    "RANK_FRENCH",
    "RANK_GERMAN",
    "RANK_SYMBOL",
    "SKAT_CODES",
    "SUIT_CODES",
    "SUIT_ENGLISH",
    "SUIT_FRENCH",
    "SUIT_GERMAN",
    "SUIT_KEYS",
    "SUIT_SYMBOLS",
    "DeckSpec",
    "deck_codes",
    "format_codes",
    "skat_codes",
]

# --- the Skat deck: suits from Schellen (0) to Eichel (3), ranks 7 8 9 Ober König 10 Ass
# Unter; card index = suit * 8 + rank

SUIT_KEYS: Final = ("schellen", "herz", "gruen", "eichel")
"""The suits' names in code (``stich.cards.Suit`` members, Skat game values)."""
SUIT_GERMAN: Final = ("Schellen", "Herz", "Grün", "Eichel")
SUIT_FRENCH: Final = ("Karo", "Herz", "Pik", "Kreuz")
SUIT_ENGLISH: Final = ("Diamonds", "Hearts", "Spades", "Clubs")
SUIT_CODES: Final = "DHSC"
"""The ISS letters: C (Kreuz/Eichel), S (Pik/Grün), H (Herz), D (Karo/Schellen)."""
SUIT_SYMBOLS: Final = "♦♥♠♣"
RANK_GERMAN: Final = ("7", "8", "9", "Ober", "König", "10", "Ass", "Unter")
RANK_FRENCH: Final = ("7", "8", "9", "Dame", "König", "10", "Ass", "Bube")
RANK_ENGLISH: Final = ("7", "8", "9", "Queen", "King", "10", "Ace", "Jack")
RANK_CODE: Final = ("7", "8", "9", "Q", "K", "T", "A", "J")
RANK_SYMBOL: Final = ("7", "8", "9", "O", "K", "10", "A", "U")

SKAT_CODES: Final[tuple[str, ...]] = tuple(
    SUIT_CODES[s] + RANK_CODE[r] for s in range(4) for r in range(8))
"""The 32 cards' ISS codes by index."""


def skat_codes(mask: int) -> str:
    """A set of Skat cards as space-separated ISS codes, in index order."""
    return format_codes(SKAT_CODES, mask)


def format_codes(codes: Sequence[str], mask: int) -> str:
    """A set of cards as the space-separated codes (``codes``: by card index) of its
    cards, in index order.

    >>> format_codes(deck_codes("skat-double"), 1 | 1 << 32)
    'C7 C7'
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(codes[low.bit_length() - 1])
        mask ^= low
    return " ".join(out)


# --- the Baptistenskat decks: S suits x R ranks (lowest rank first), in one or two
# copies, with an optional joker; card index = copy * S * R + suit * R + rank, the
# jokers last


class DeckSpec(NamedTuple):
    """What a Baptistenskat deck is made of (the arguments of ``stich.cards.PlainDeck``
    after its name)."""

    suit_names: tuple[str, ...]
    suit_names_en: tuple[str, ...]
    suit_codes: tuple[str, ...]
    rank_codes: tuple[str, ...]
    rank_names: tuple[str, ...]
    rank_names_en: tuple[str, ...]
    copies: int = 1
    jokers: int = 0


_FRENCH_SUITS = ("Kreuz", "Pik", "Herz", "Karo")
_FRENCH_SUITS_EN = ("Clubs", "Spades", "Hearts", "Diamonds")
_FRENCH_CODES = ("C", "S", "H", "D")


def _elferraus(copies: int) -> DeckSpec:
    ranks = tuple(str(n) for n in range(1, 21))
    return DeckSpec(("rot", "gelb", "grün", "blau"), ("red", "yellow", "green", "blue"),
                    ("R", "Y", "G", "B"), ranks, ranks, ranks, copies)


def _skat(copies: int) -> DeckSpec:
    return DeckSpec(_FRENCH_SUITS, _FRENCH_SUITS_EN, _FRENCH_CODES,
                    ("7", "8", "9", "T", "J", "Q", "K", "A"),
                    ("7", "8", "9", "10", "Bube", "Dame", "König", "Ass"),
                    ("7", "8", "9", "10", "Jack", "Queen", "King", "Ace"), copies)


def _romme(copies: int, jokers: int = 0) -> DeckSpec:
    low = tuple(str(n) for n in range(2, 10))
    return DeckSpec(_FRENCH_SUITS, _FRENCH_SUITS_EN, _FRENCH_CODES,
                    (*low, "T", "J", "Q", "K", "A"),
                    (*low, "10", "Bube", "Dame", "König", "Ass"),
                    (*low, "10", "Jack", "Queen", "King", "Ace"), copies, jokers)


PLAIN_DECK_SPECS: Final[dict[str, DeckSpec]] = {
    "elferraus": _elferraus(1), "elferraus-double": _elferraus(2),
    "skat": _skat(1), "skat-double": _skat(2),
    "romme": _romme(1), "romme-double": _romme(2),
    "romme-double-joker": _romme(2, 1),
}
"""The Baptistenskat decks by name (Elfer raus is the default)."""


@cache
def deck_codes(name: str) -> tuple[str, ...]:
    """The codes of a Baptistenskat deck's cards by index (two copies: the same code
    twice; a joker is ``JK``); a ``KeyError`` for a deck that does not exist."""
    spec = PLAIN_DECK_SPECS[name]
    kinds = [s + r for s in spec.suit_codes for r in spec.rank_codes]
    return tuple(kinds * spec.copies + ["JK"] * spec.jokers)

