"""Skat actions: small value types whose text form round-trips.

>>> [str(a) for a in (Bid(18), PASS, HOLD, HAND, PICKUP, KONTRA, RE, SCHIEBEN, KLOPFEN)]
['18', 'pass', 'hold', 'hand', 'pickup', 'kontra', 're', 'schieben', 'klopfen']
>>> [str(a) for a in (SCHENKEN, ACCEPT, parse_action("give HA CJ"), parse_action("give"))]
['schenken', 'accept', 'give HA CJ', 'give']
>>> str(parse_action("discard HA CJ"))
'discard HA CJ'
>>> parse_action("declare grand hand ouvert") == Declare(GameType.GRAND, hand=True, ouvert=True)
True
>>> parse_action("SA") is Card.parse("SA")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from stich.cards import Card, CardError, cards_of, parse_cards
from stich.core import IllegalActionError
from stich.messages import GameName, Msg, StichError
from stich.skat.rules import NULL_VALUES, REVOLUTION_VALUE, GameType

__all__ = [
    "ACCEPT",
    "Action",
    "Bid",
    "CLAIM",
    "Declare",
    "GIVEUP",
    "Discard",
    "Give",
    "HAND",
    "GRAND_HAND",
    "HOLD",
    "KLOPFEN",
    "KONTRA",
    "PASS",
    "PICKUP",
    "RE",
    "SCHENKEN",
    "SHORTCUT",
    "SCHIEBEN",
    "Simple",
    "null_name",
    "parse_action",
]


class Simple:
    """An action without parameters: ``pass``, ``hold``, ``hand``, ``pickup``, and under
    house rules ``kontra``, ``re`` and ``schieben``."""

    __slots__ = ("word",)

    def __init__(self, word: str) -> None:
        self.word = word

    def __str__(self) -> str:
        return self.word

    def __repr__(self) -> str:
        return self.word.upper()

    def __reduce__(self) -> str:
        return self.word.upper()


PASS: Final = Simple("pass")
HOLD: Final = Simple("hold")
HAND: Final = Simple("hand")
PICKUP: Final = Simple("pickup")
KONTRA: Final = Simple("kontra")
"""A defender doubles before playing his first card (``kontra_re``)."""
RE: Final = Simple("re")
"""The declarer doubles again, answering a Kontra (``pass`` answers without)."""
SCHIEBEN: Final = Simple("schieben")
"""Schieberamsch: pushing the Skat on unseen, which doubles the Ramsch."""
CLAIM: Final = Simple("claim")
"""The declarer shows his cards and claims the rest: every remaining trick (in Null: no
more trick).  Checked with all cards open; a wrong claim gives the rest to the others."""
GIVEUP: Final = Simple("giveup")
"""Giving up: the declarer gives the defenders the rest; a defender's counts once both
have given up, and the declarer takes the rest."""
KLOPFEN: Final = Simple("klopfen")
"""Ramsch: knocking before one's first card (sure not to lose), which doubles it."""
SCHENKEN: Final = Simple("schenken")
"""A defender offers to give the game away (``schenken``); his partner agrees with the
same word or refuses with ``pass``."""
ACCEPT: Final = Simple("accept")
"""The declarer accepts the defenders' gift (``schenken``); ``pass`` plays on."""
SHORTCUT: Final = Simple("shortcut")
"""Finishing a declared game whose remaining tricks all go to one side whatever anyone
plays (:meth:`stich.skat.state.SkatState.forced_rest`): the rest goes to that side.  A
table that shortcuts applies it for the seat to move; refused when the rest is open."""


@dataclass(frozen=True, slots=True)
class Bid:
    """Saying a value in the auction (``18``); Vorhand's ``18`` after two passes too."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


@cache
def bid(value: int) -> Bid:
    """The shared Bid object for a value (saves allocations in the hot path)."""
    return Bid(value)


@dataclass(frozen=True, slots=True)
class Discard:
    """Putting two cards into the Skat (drücken) after picking it up."""

    cards: int  # bitmask of exactly two cards

    def __post_init__(self) -> None:
        if self.cards.bit_count() != 2:
            raise CardError("skat.discard_size", n=self.cards.bit_count())

    def __str__(self) -> str:
        return "discard " + " ".join(str(c) for c in cards_of(self.cards))


@dataclass(frozen=True, slots=True)
class Declare:
    """Announcing the game: ``declare eichel``, ``declare grand hand ouvert``,
    ``declare herz hand schneider schwarz``, ``declare null ouvert``."""

    game: GameType
    hand: bool = False
    schneider: bool = False
    schwarz: bool = False
    ouvert: bool = False
    spitze: bool = False  # house rule: the last trick with the lowest trump
    revolution: bool = False  # house rule: a Null Ouvert the defenders rearrange

    def __str__(self) -> str:
        words = ["declare", self.game.value]
        for flag in ("hand", "schneider", "schwarz", "ouvert", "spitze", "revolution"):
            if getattr(self, flag):
                words.append(flag)
        return " ".join(words)

    @property
    def null_value(self) -> int:
        """The fixed value of a Null declaration (a Revolution's: 92)."""
        if self.revolution:
            return REVOLUTION_VALUE
        return NULL_VALUES[(self.hand, self.ouvert)]


@dataclass(frozen=True, slots=True)
class Give:
    """Revolution: a defender gives his partner cards (``give HA CJ``; ``give`` alone
    gives none); the partner then gives back as many."""

    cards: int  # bitmask, any number of cards

    def __str__(self) -> str:
        return " ".join(["give"] + [str(c) for c in cards_of(self.cards)])


Action = Card | Bid | Simple | Discard | Declare | Give

GRAND_HAND: Final = Declare(GameType.GRAND, hand=True)
"""The game a player may declare instead of a compulsory Ramsch (``bock_ramsch``)."""


_NULL_NAMES = {(False, False): "skat.null", (True, False): "skat.null_hand",
               (False, True): "skat.null_ouvert", (True, True): "skat.null_ouvert_hand"}


def null_name(d: Declare) -> Msg:
    """The name of a Null declaration as a message: Null, Null Hand, Null Ouvert, Null
    Ouvert Hand (the game named by the front end).

    >>> from stich.messages import render
    >>> render("text", {"text": null_name(Declare(GameType.NULL, hand=True, ouvert=True))})
    'Null Ouvert Hand'
    """
    return Msg(_NULL_NAMES[(d.hand, d.ouvert)], {"game": GameName("null")})

_SIMPLE_WORDS = {
    "pass": PASS, "passe": PASS, "p": PASS,
    "hold": HOLD, "ja": HOLD, "y": HOLD, "yes": HOLD, "hold.": HOLD,
    "hand": HAND,
    "pickup": PICKUP, "pick": PICKUP, "skat": PICKUP, "s": PICKUP, "aufnehmen": PICKUP,
    "kontra": KONTRA, "contra": KONTRA, "double": KONTRA,
    "re": RE, "rekontra": RE, "redouble": RE,
    "schieben": SCHIEBEN, "push": SCHIEBEN,
    "klopfen": KLOPFEN, "knock": KLOPFEN,
    "claim": CLAIM, "rest": CLAIM, "beanspruchen": CLAIM,
    "giveup": GIVEUP, "aufgeben": GIVEUP, "resign": GIVEUP, "give up": GIVEUP,
    "schenken": SCHENKEN, "gift": SCHENKEN,
    "accept": ACCEPT, "annehmen": ACCEPT,
    "shortcut": SHORTCUT, "abkürzen": SHORTCUT, "abkuerzen": SHORTCUT,
}


def parse_action(text: str) -> Action:
    """Read any Skat action from its text form.  Raises IllegalActionError when the text
    is not an action at all (whether it is legal is the state's question)."""
    t = text.strip()
    low = t.lower()
    if not t:
        raise IllegalActionError("game.empty_action")
    if low in _SIMPLE_WORDS:
        return _SIMPLE_WORDS[low]
    if t.isdigit():
        return bid(int(t))
    words = low.split()
    try:
        if words[0] in ("discard", "druecken", "drücken"):
            return Discard(parse_cards(" ".join(words[1:])))
        if words[0] in ("give", "geben"):
            return Give(parse_cards(" ".join(words[1:])) if words[1:] else 0)
        if words[0] in ("declare", "spiel", "play"):
            return _parse_declare(words[1:])
        return Card.parse(t)
    except StichError as e:
        raise IllegalActionError("game.unreadable_action", text=t, reason=Msg.of(e)) from None


def _parse_declare(words: list[str]) -> Declare:
    if not words:
        raise StichError("skat.declare_which_game")
    game = GameType.parse(words[0])
    if game is GameType.RAMSCH:
        raise StichError("skat.ramsch_not_declared")
    flags = {"hand": False, "schneider": False, "schwarz": False, "ouvert": False,
             "spitze": False, "revolution": False}
    for w in words[1:]:
        w = {"offen": "ouvert", "open": "ouvert"}.get(w, w)
        if w not in flags:
            raise StichError("skat.declare_unknown_word", word=w)
        flags[w] = True
    return Declare(game, **flags)
