"""Cards, decks and card sets.

Every deck numbers its cards ``0 .. size - 1``; a set of cards is an ``int`` whose bit
``i`` is set when card ``i`` is in the set.  The engines work on these bitmasks in their
hot paths; :class:`Card` objects and their text forms exist at the edges (records, the
command line, error messages).

The Skat deck (32 cards) is laid out so that suit games, Grand and Null need only a few
small tables: card index = ``suit * 8 + rank`` with the ranks in the order
7, 8, 9, Ober, König, 10, Ass, Unter.  In one suit, a higher index is a higher card in
suit games and Grand (the Unter, index 7 in its suit, is trump and handled apart).

>>> c = Card.parse("CJ")
>>> c.german, c.french, str(c)
('Eichel Unter', 'Kreuz Bube', 'CJ')
>>> Card.parse("Herz Ass") is Card.parse("HA") is Card.parse("herz-ass")
True
>>> format_cards(mask_of([Card.parse("D7"), Card.parse("CA")]))
'D7 CA'

The Baptistenskat decks (Elfer raus, Skat 32, Rommé 52, each doubled, and 2 × 52 + a
joker) are :class:`PlainDeck` objects with :class:`PlainCard` cards; the bitmask helpers
are deck-independent (Python ints have no width limit).

>>> d = plain_deck("romme-double-joker")
>>> d.size, d.parse("JK").index, d.format(d.parse_set("HA HA JK"))
(105, 104, 'HA HA JK')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from enum import IntEnum
from typing import Final

from stich import notation
from stich.messages import Cards, StichError

__all__ = [
    "Card",
    "CardError",
    "CARDS",
    "PLAIN_DECKS",
    "PlainCard",
    "PlainDeck",
    "Rank",
    "Suit",
    "bits",
    "card_points",
    "cards_of",
    "format_cards",
    "mask_of",
    "parse_cards",
    "plain_deck",
]


class CardError(StichError):
    """A card, suit, rank, card set or deck that cannot be read (code ``cards.*``)."""


class Suit(IntEnum):
    """The four suits, numbered from the lowest (Schellen) to the highest (Eichel)."""

    SCHELLEN = 0
    HERZ = 1
    GRUEN = 2
    EICHEL = 3

    @property
    def german(self) -> str:
        return _SUIT_GERMAN[self]

    @property
    def french(self) -> str:
        return _SUIT_FRENCH[self]

    @property
    def english(self) -> str:
        return _SUIT_ENGLISH[self]

    @property
    def code(self) -> str:
        """The ISS letter: C (Kreuz/Eichel), S (Pik/Grün), H (Herz), D (Karo/Schellen)."""
        return notation.SUIT_CODES[self]

    @property
    def symbol(self) -> str:
        return notation.SUIT_SYMBOLS[self]

    def name_in(self, style: str) -> str:
        """The suit's name in a naming style: german, french, english, code or symbol."""
        return str(getattr(self, _check_style(style)))

    @classmethod
    def parse(cls, text: str) -> Suit:
        key = _fold(text)
        try:
            return _SUIT_WORDS[key]
        except KeyError:
            raise CardError("cards.unknown_suit", text=text) from None


class Rank(IntEnum):
    """The eight ranks in Skat order below the Unter (7 lowest, Ass highest), then Unter."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    OBER = 3
    KOENIG = 4
    ZEHN = 5
    ASS = 6
    UNTER = 7

    @property
    def german(self) -> str:
        return _RANK_GERMAN[self]

    @property
    def french(self) -> str:
        return _RANK_FRENCH[self]

    @property
    def english(self) -> str:
        return _RANK_ENGLISH[self]

    @property
    def code(self) -> str:
        """The ISS letter or digit: 7 8 9 T J Q K A."""
        return _RANK_CODE[self]

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOL[self]

    @property
    def points(self) -> int:
        """Card points (Augen): A 11, 10 10, K 4, O 3, U 2, 9/8/7 0."""
        return _RANK_POINTS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = _fold(text)
        try:
            return _RANK_WORDS[key]
        except KeyError:
            raise CardError("cards.unknown_rank", text=text) from None


# the names and codes: stich.notation (which the messages read too)
_SUIT_GERMAN = notation.SUIT_GERMAN
_SUIT_FRENCH = notation.SUIT_FRENCH
_SUIT_ENGLISH = notation.SUIT_ENGLISH
_RANK_GERMAN = notation.RANK_GERMAN
_RANK_FRENCH = notation.RANK_FRENCH
_RANK_ENGLISH = notation.RANK_ENGLISH
_RANK_CODE = notation.RANK_CODE
_RANK_SYMBOL = notation.RANK_SYMBOL
_RANK_POINTS = (0, 0, 0, 3, 4, 10, 11, 2)
_STYLES = ("german", "french", "english", "code", "symbol")


def _check_style(style: str) -> str:
    if style not in _STYLES:
        raise CardError("cards.unknown_style", style=style, choices=", ".join(_STYLES))
    return style


def _fold(text: str) -> str:
    """Lower-case, strip, and spell umlauts the ASCII way so 'Grün' == 'gruen'."""
    t = text.strip().lower()
    return t.replace("ü", "ue").replace("ö", "oe").replace("ä", "ae")


_SUIT_WORDS: dict[str, Suit] = {}
for _s in Suit:
    for _w in (_SUIT_GERMAN[_s], _SUIT_FRENCH[_s], _SUIT_ENGLISH[_s], _s.code, _s.symbol):
        _SUIT_WORDS[_fold(_w)] = _s
_SUIT_WORDS.update(
    {"e": Suit.EICHEL, "g": Suit.GRUEN, "sch": Suit.SCHELLEN, "club": Suit.EICHEL,
     "spade": Suit.GRUEN, "heart": Suit.HERZ, "diamond": Suit.SCHELLEN}
)

_RANK_WORDS: dict[str, Rank] = {}
for _r in Rank:
    for _w in (_RANK_GERMAN[_r], _RANK_FRENCH[_r], _RANK_ENGLISH[_r], _RANK_CODE[_r],
               _RANK_SYMBOL[_r]):
        _RANK_WORDS[_fold(_w)] = _r
_RANK_WORDS.update(
    {"b": Rank.UNTER, "d": Rank.OBER, "zehn": Rank.ZEHN, "neun": Rank.NINE,
     "acht": Rank.EIGHT, "sieben": Rank.SEVEN, "seven": Rank.SEVEN, "eight": Rank.EIGHT,
     "nine": Rank.NINE, "ten": Rank.ZEHN, "as": Rank.ASS, "koenig": Rank.KOENIG}
)


class Card:
    """One card of the 32-card Skat deck.  There is exactly one object per card.

    ``str(card)`` is the ISS code (``CJ``, ``HT``, ``D7``); :meth:`parse` reads that code
    and the German and French names (``Eichel Unter``, ``Kreuz-Bube``).
    """

    __slots__ = ("suit", "rank", "index", "bit", "points", "_code")

    suit: Suit
    rank: Rank
    index: int
    bit: int
    points: int
    _code: str

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        return CARDS[suit * 8 + rank]

    @classmethod
    def _make(cls, suit: Suit, rank: Rank) -> Card:
        self = object.__new__(cls)
        self.suit = suit
        self.rank = rank
        self.index = suit * 8 + rank
        self.bit = 1 << self.index
        self.points = rank.points
        self._code = suit.code + rank.code
        return self

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (_card_by_index, (self.index,))

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, "_code"):
            raise AttributeError("Card is immutable")
        object.__setattr__(self, name, value)

    @property
    def german(self) -> str:
        return f"{self.suit.german} {self.rank.german}"

    @property
    def french(self) -> str:
        return f"{self.suit.french} {self.rank.french}"

    @property
    def english(self) -> str:
        return f"{self.rank.english} of {self.suit.english}"

    @property
    def code(self) -> str:
        return self._code

    @property
    def symbol(self) -> str:
        return self.suit.symbol + self.rank.symbol

    def name_in(self, style: str) -> str:
        """The card's name in a style: german, french, english, code or symbol."""
        return str(getattr(self, _check_style(style)))

    def __str__(self) -> str:
        return self._code

    def __repr__(self) -> str:
        return f"Card.parse({self._code!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from its ISS code or its German, French or English name."""
        key = _fold(text)
        card = _CARD_WORDS.get(key)
        if card is not None:
            return card
        parts = [p for p in re.split(r"[\s\-_]+", key) if p and p != "of"]
        if len(parts) == 2:
            for a, b in (parts, parts[::-1]):
                if a in _SUIT_WORDS and b in _RANK_WORDS:
                    return CARDS[_SUIT_WORDS[a] * 8 + _RANK_WORDS[b]]
        raise CardError("cards.unknown_card", text=text.strip())

    @classmethod
    def from_index(cls, index: int) -> Card:
        return CARDS[index]


def _card_by_index(index: int) -> Card:
    return CARDS[index]


CARDS: Final[tuple[Card, ...]] = tuple(Card._make(s, r) for s in Suit for r in Rank)

_CARD_WORDS: dict[str, Card] = {}
for _c in CARDS:
    _CARD_WORDS[_fold(_c.code)] = _c
    _CARD_WORDS[_fold(_c.symbol)] = _c

_POINTS: Final[tuple[int, ...]] = tuple(c.points for c in CARDS)


# --- card sets as bitmasks ------------------------------------------------------------


def bits(mask: int) -> Iterator[int]:
    """The card indices in a set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[Card | int]) -> int:
    """The set of the given cards (Card objects or indices)."""
    m = 0
    for c in cards:
        m |= 1 << (c if isinstance(c, int) else c.index)
    return m


BYTE_CARDS: Final[tuple[tuple[tuple[Card, ...], ...], ...]] = tuple(
    tuple(tuple(CARDS[8 * k + i] for i in range(8) if b >> i & 1) for b in range(256))
    for k in range(4)
)
"""Four 8-bit lookup tables that turn a 32-bit set into a tuple of Card objects with four
dictionary-free lookups (``BYTE_CARDS[k][b]``: the cards of byte ``k`` whose bits are
``b``); the hot path of ``legal_actions()``."""


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a Skat-deck set as a tuple, in index order."""
    t0, t1, t2, t3 = BYTE_CARDS
    return t0[mask & 255] + t1[mask >> 8 & 255] + t2[mask >> 16 & 255] + t3[mask >> 24 & 255]


def card_points(mask: int) -> int:
    """Card points (Augen) of a Skat-deck set."""
    total = 0
    while mask:
        low = mask & -mask
        total += _POINTS[low.bit_length() - 1]
        mask ^= low
    return total


def format_cards(mask: int, style: str = "code") -> str:
    """A set as space-separated card names, in index order."""
    return " ".join(c.name_in(style) for c in cards_of(mask))


def parse_cards(text: str) -> int:
    """A set from space- or comma-separated ISS codes (``"CJ HA D7"``)."""
    m = 0
    for word in re.split(r"[\s,.]+", text.strip()):
        if word:
            card = Card.parse(word)
            if m & card.bit:
                raise CardError("cards.given_twice", card=Cards(card.bit))
            m |= card.bit
    return m


# --- the Baptistenskat decks -------------------------------------------------------------
#
# A PlainDeck is S suits x R ranks (lowest rank first), in one or two copies, with an
# optional joker.  Card index = copy * S * R + suit * R + rank; the joker comes last.
# Two copies of a card are the same *kind* (index modulo S * R) and have one text form.


class PlainCard:
    """A card of a Baptistenskat deck.  ``suit`` is -1 for the joker."""

    __slots__ = ("suit", "rank", "copy", "index", "bit", "kind", "code", "german", "english")

    suit: int
    rank: int
    copy: int
    index: int
    bit: int
    kind: int
    code: str
    german: str
    english: str

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"<{self.code}#{self.copy}>" if self.copy else f"<{self.code}>"

    @property
    def is_joker(self) -> bool:
        return self.suit < 0

    def name_in(self, style: str) -> str:
        if style == "code":
            return self.code
        return self.english if style == "english" else self.german


class PlainDeck:
    """A deck for Baptistenskat: Elfer raus, Skat 32, Rommé 52, doubled, with a joker."""

    __slots__ = ("name", "suit_names", "suit_codes", "rank_codes", "copies", "jokers",
                 "cards", "size", "kinds", "suit_masks", "full_mask", "_words",
                 "suit_names_en", "rank_names", "rank_names_en")

    def __init__(self, name: str, suit_names: Sequence[str], suit_names_en: Sequence[str],
                 suit_codes: Sequence[str], rank_codes: Sequence[str],
                 rank_names: Sequence[str], rank_names_en: Sequence[str],
                 copies: int = 1, jokers: int = 0) -> None:
        self.name = name
        self.suit_names = tuple(suit_names)
        self.suit_names_en = tuple(suit_names_en)
        self.suit_codes = tuple(suit_codes)
        self.rank_codes = tuple(rank_codes)
        self.rank_names = tuple(rank_names)
        self.rank_names_en = tuple(rank_names_en)
        self.copies = copies
        self.jokers = jokers
        n_s, n_r = len(suit_codes), len(rank_codes)
        self.kinds = n_s * n_r
        cards: list[PlainCard] = []
        for copy in range(copies):
            for s in range(n_s):
                for r in range(n_r):
                    cards.append(self._card(s, r, copy))
        for j in range(jokers):
            cards.append(self._card(-1, n_r, j))
        self.cards: tuple[PlainCard, ...] = tuple(cards)
        self.size = len(cards)
        self.full_mask = (1 << self.size) - 1
        self.suit_masks: tuple[int, ...] = tuple(
            sum(c.bit for c in cards if c.suit == s) for s in range(n_s)
        )
        self._words: dict[str, PlainCard] = {}
        for c in reversed(cards):  # the first copy wins
            for w in (c.code, c.german, c.english):
                self._words[_fold(w).replace(" ", "")] = c

    def _card(self, suit: int, rank: int, copy: int) -> PlainCard:
        c = object.__new__(PlainCard)
        c.suit = suit
        c.rank = rank
        c.copy = copy
        if suit < 0:
            c.index = self.copies * len(self.suit_codes) * len(self.rank_codes) + copy
            c.kind = -1 - copy
            c.code, c.german, c.english = "JK", "Joker", "Joker"
        else:
            c.kind = suit * len(self.rank_codes) + rank
            c.index = copy * len(self.suit_codes) * len(self.rank_codes) + c.kind
            c.code = self.suit_codes[suit] + self.rank_codes[rank]
            c.german = f"{self.suit_names[suit]} {self.rank_names[rank]}"
            c.english = f"{self.suit_names_en[suit]} {self.rank_names_en[rank]}"
        c.bit = 1 << c.index
        return c

    def __repr__(self) -> str:
        return f"PlainDeck({self.name!r}, {self.size} cards)"

    def parse(self, text: str) -> PlainCard:
        """A card by code (``R20``, ``HA``, ``JK``) or name (``rot 20``, ``Herz Ass``);
        for a doubled deck this is the first copy."""
        card = self._words.get(_fold(text).replace(" ", "").replace("-", ""))
        if card is None:
            raise CardError("cards.unknown_deck_card", text=text.strip(), deck=self.name,
                            examples=Cards(self.cards[0].bit | self.cards[-1].bit, self.name))
        return card

    def held(self, text: str, hand: int) -> PlainCard:
        """The card of that kind in the hand (either copy), for playing it."""
        card = self.parse(text)
        for c in self.cards[card.index::self.kinds] if not card.is_joker else (card,):
            if hand & c.bit:
                return c
        return card

    def format(self, mask: int) -> str:
        """A set as card codes in index order (two copies appear twice)."""
        return " ".join(self.cards[i].code for i in bits(mask))

    def parse_set(self, text: str) -> int:
        """A set from codes; a code given twice takes the second copy."""
        m = 0
        for word in re.split(r"[\s,]+", text.strip()):
            if not word:
                continue
            card = self.parse(word)
            for c in self.same_kind(card):
                if not m & c.bit:
                    m |= c.bit
                    break
            else:
                raise CardError("cards.too_many_copies", card=Cards(card.bit, self.name),
                                copies=self.copies)
        return m

    def same_kind(self, card: PlainCard) -> tuple[PlainCard, ...]:
        if card.is_joker:
            return tuple(c for c in self.cards if c.is_joker)
        return self.cards[card.kind::self.kinds][: self.copies]


PLAIN_DECKS: Final[dict[str, PlainDeck]] = {
    name: PlainDeck(name, *spec) for name, spec in notation.PLAIN_DECK_SPECS.items()
}
"""The Baptistenskat decks by name (Elfer raus is the default)."""


def plain_deck(name: str) -> PlainDeck:
    try:
        return PLAIN_DECKS[name]
    except KeyError:
        raise CardError("cards.unknown_deck", name=name,
                        choices=", ".join(PLAIN_DECKS)) from None
