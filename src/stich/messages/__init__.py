"""Messages with a stable code and parameters, in English and German.

Every refusal the engines, the records, the ISS reader and the analysis give is a
:class:`StichError` with a ``code`` (``skat.must_follow``) and parameters.  ``str(e)`` is
the English text, so that logs, tests and library users read plain English; a front end
(the terminal, the server, the browser) shows ``e.text(lang, namer)`` instead, in its
language and with its card names.  The texts live in catalogue modules beside this one
(``stich.messages.skat`` …), one per area, each a plain dict; the codes never change
meaning once published, so clients may key on them.

Parameters are numbers, strings, or one of the small value types below, which a front end
names in its own style: :class:`Cards` (a set of cards of a deck), :class:`SuitName`,
:class:`GameName`, :class:`Seat` (a seat), and :class:`Msg` (a message inside a
message, e.g. the engine's refusal inside "record 3, action 17: …").

>>> from stich.cards import parse_cards
>>> e = StichError("skat.must_follow", seat=Seat(1), what=SuitName(1),
...                cards=Cards(parse_cards("H7 HK")))
>>> str(e)
'Mittelhand must follow Herz: Mittelhand holds H7 HK'
>>> e.text("de")
'Mittelhand muss Herz bedienen: Mittelhand hat H7 HK'
>>> e.text("de", you=1)
'Du musst Herz bedienen: du hast H7 HK'
>>> e.code, e.params["what"]
('skat.must_follow', SuitName(suit=1, deck=None))
>>> render("plural", {"n": 1, "one": "Stich", "many": "Stiche"}, "de")
'1 Stich'

"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from stich.notation import (
    PLAIN_DECK_SPECS,
    SUIT_GERMAN,
    SUIT_KEYS,
    DeckSpec,
    deck_codes,
    format_codes,
    skat_codes,
)

__all__ = [
    "CATALOGUE",
    "Cards",
    "GameName",
    "LANGS",
    "Msg",
    "Namer",
    "PlainNamer",
    "Seat",
    "StichError",
    "SuitName",
    "define",
    "placeholders",
    "render",
]

LANGS = ("de", "en")
"""The languages: every message has a text in each (the front ends' one list of
languages, :mod:`stich.present.languages`)."""

# code -> {"en": template, "de": template, optionally "en_you"/"de_you"}
CATALOGUE: dict[str, dict[str, str]] = {}


def define(entries: Mapping[str, Mapping[str, str]]) -> None:
    """Add a catalogue's entries; every entry has an English and a German text, and a
    code is defined once."""
    for code, texts in entries.items():
        if code in CATALOGUE:
            raise ValueError(f"message code {code!r} defined twice")
        for lang in LANGS:
            if lang not in texts:
                raise ValueError(f"message {code!r} has no {lang} text")
        CATALOGUE[code] = dict(texts)


# --- parameter types ---------------------------------------------------------------------

@dataclass(frozen=True)
class Cards:
    """A set of cards as a bitmask of ``deck`` (``None``: the 32-card Skat deck, else the
    name of a Baptistenskat deck)."""

    mask: int
    deck: str | None = None


@dataclass(frozen=True)
class SuitName:
    """A suit (:class:`stich.cards.Suit` value for Skat, or a deck's suit index)."""

    suit: int
    deck: str | None = None


@dataclass(frozen=True)
class GameName:
    """A Skat game type by its value (``grand``, ``herz``, ``null`` …)."""

    game: str


@dataclass(frozen=True)
class Seat:
    """A seat of a game: ``named`` by its place in a Skat game (Vorhand, Mittelhand,
    Hinterhand; ``players`` = 3), else "seat N" counted from 1 (a Baptistenskat table
    has fixed seats at any number of players, three included: ``named=False``)."""

    seat: int
    players: int = 3
    named: bool = True


@dataclass(frozen=True)
class Msg:
    """A message inside a message, rendered in the same language."""

    code: str
    params: Mapping[str, Any]

    @staticmethod
    def of(e: BaseException) -> Msg:
        """The message of an exception: its code when it has one, else its text as is."""
        if isinstance(e, StichError):
            return Msg(e.code, e.params)
        return Msg("text", {"text": str(e)})


class Namer(Protocol):
    """How a front end names cards, suits, games and seats."""

    def cards(self, c: Cards, lang: str) -> str: ...

    def suit(self, s: SuitName, lang: str) -> str: ...

    def game(self, g: GameName, lang: str) -> str: ...

    def seat(self, p: Seat, lang: str) -> str: ...


_POSITIONS = {"de": ("Vorhand", "Mittelhand", "Hinterhand"),
              "en": ("Vorhand", "Mittelhand", "Hinterhand")}


class PlainNamer:
    """Cards by their codes (``H7 SA``), Skat suits and games by their German names (the
    game's terms, in both languages), Baptistenskat suits in the language, seats as
    Vorhand/Mittelhand/Hinterhand or "seat N".  The names come from
    :mod:`stich.notation`, the data :mod:`stich.cards` builds its decks from (the
    messages sit below the engines and import none of them)."""

    def cards(self, c: Cards, lang: str) -> str:
        if c.deck is None:
            return skat_codes(c.mask)
        return format_codes(_deck_codes(c.deck), c.mask)

    def suit(self, s: SuitName, lang: str) -> str:
        if s.deck is None:
            if not 0 <= s.suit < len(SUIT_GERMAN):
                raise ValueError(f"{s.suit} is not a valid Suit")
            return SUIT_GERMAN[s.suit]
        spec = _deck_spec(s.deck)
        names = spec.suit_names_en if lang == "en" else spec.suit_names
        return names[s.suit] if s.suit >= 0 else "Joker"

    def game(self, g: GameName, lang: str) -> str:
        special = {"grand": "Grand", "null": "Null", "ramsch": "Ramsch"}
        if g.game in special:
            return special[g.game]
        return _SUIT_GAMES[g.game.upper()]

    def seat(self, p: Seat, lang: str) -> str:
        if p.named and p.players == 3 and 0 <= p.seat < 3:
            return _POSITIONS[lang][p.seat]
        return ("Platz {n}" if lang == "de" else "seat {n}").format(n=p.seat + 1)


PLAIN = PlainNamer()


def _deck_spec(name: str) -> DeckSpec:
    try:
        return PLAIN_DECK_SPECS[name]
    except KeyError:
        raise StichError("cards.unknown_deck", name=name,
                         choices=", ".join(PLAIN_DECK_SPECS)) from None


def _deck_codes(name: str) -> tuple[str, ...]:
    _deck_spec(name)
    return deck_codes(name)


_SUIT_GAMES = {key.upper(): name for key, name in zip(SUIT_KEYS, SUIT_GERMAN, strict=True)}


# --- rendering ---------------------------------------------------------------------------

class _Formatter(string.Formatter):
    """``str.format`` with the parameter types named by a :class:`Namer`, nested
    messages rendered, and ``{n:plural:Stich|Stiche}`` choosing a form by the number."""

    def __init__(self, lang: str, namer: Namer, you: int | None) -> None:
        self.lang = lang
        self.namer = namer
        self.you = you

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec.startswith("plural:"):
            one, _, many = format_spec[len("plural:"):].partition("|")
            return one if value == 1 else many
        if isinstance(value, Cards):
            return self.namer.cards(value, self.lang)
        if isinstance(value, SuitName):
            return self.namer.suit(value, self.lang)
        if isinstance(value, GameName):
            return self.namer.game(value, self.lang)
        if isinstance(value, Seat):
            return self.namer.seat(value, self.lang)
        if isinstance(value, Msg):
            return render(value.code, value.params, self.lang, self.namer, you=self.you)
        return super().format_field(value, format_spec)


def render(code: str, params: Mapping[str, Any], lang: str = "en",
           namer: Namer | None = None, *, you: int | None = None) -> str:
    """The text of a message in ``lang``.  ``you``: the seat of the person reading it;
    when the message is about that seat (its ``seat`` parameter) and the catalogue has a
    form addressing the reader (``de_you``), that form is used.  The ``seat`` parameter
    is a :class:`Seat` or a seat number."""
    _load()
    texts = CATALOGUE[code]
    key = lang if lang in texts else "en"
    seat = params.get("seat")
    if isinstance(seat, Seat):
        seat = seat.seat
    if you is not None and seat == you and f"{key}_you" in texts:
        key = f"{key}_you"
    return _Formatter(lang, namer or PLAIN, you).format(texts[key], **params)


def placeholders(template: str) -> set[str]:
    """The parameter names a template uses.

    >>> sorted(placeholders("{n} {n:plural:Stich|Stiche} an {name}"))
    ['n', 'name']
    """
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class StichError(ValueError):
    """A refusal with a stable code and parameters; ``str()`` is the English text."""

    def __init__(self, code: str, /, **params: Any) -> None:
        _load()
        if code not in CATALOGUE:
            raise KeyError(f"unknown message code {code!r}")
        self.code = code
        self.params: dict[str, Any] = params
        super().__init__(render(code, params, "en"))

    def text(self, lang: str = "en", namer: Namer | None = None, *,
             you: int | None = None) -> str:
        """The message in ``lang``, with cards and suits named by ``namer``."""
        return render(self.code, self.params, lang, namer, you=you)

    def __reduce__(self) -> tuple[Any, ...]:  # picklable across process pools
        return (_rebuild, (type(self), self.code, self.params))


def _rebuild(cls: type[StichError], code: str, params: dict[str, Any]) -> StichError:
    return cls(code, **params)


_loaded = False


def _load() -> None:
    """Import the catalogue modules once (they only call :func:`define`)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from stich.messages import (  # noqa: F401
        admin,
        analysis,
        arena,
        baptisten,
        cards,
        general,
        iss,
        records,
        rules,
        server,
        skat,
        tournament,
    )
