"""Skat rule sets: the ISkO (``isko``) and Lothar's table (``lothar``, the default).

A rule set is a frozen dataclass.  Its canonical string names the preset and every field
that differs from it, so the same string always means the same game:

>>> str(SkatRules())
'skat(preset=lothar)'
>>> str(SkatRules.preset("isko"))
'skat(preset=isko)'
>>> SkatRules.parse("skat(preset=lothar,all_pass=redeal)").all_pass
'redeal'
>>> bidding_ladder(SkatRules())[:11]
(18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40)
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, fields
from enum import Enum
from functools import cache
from typing import ClassVar, Literal

from stich.cards import Rank, Suit
from stich.core import RulesError, kept_text
from stich.messages import StichError

__all__ = [
    "GameType",
    "NULL_VALUES",
    "REVOLUTION_VALUE",
    "SkatRules",
    "bidding_ladder",
    "max_matadors",
    "null_value",
    "spitze_card",
    "spitze_levels",
]

AllPass = Literal["ramsch", "redeal"]
NullOverbid = Literal["refused", "next_level"]
KontraRe = Literal["no", "yes", "bid18"]
Spitze = Literal["no", "yes", "double"]
RamschSkat = Literal["last_trick", "loser"]
BockOverlap = Literal["queue", "stack"]

BOCK_EVENTS: tuple[str, ...] = (
    "lost_60", "grand_hand", "kontra_won", "kontra_re", "triple", "hundred", "value72",
    "value96",
)
"""The events that can start a Bock round, in XSkat's order (``-bockevents`` bits 1 … 128):
a game lost with 60 points; a won Grand Hand; a Kontra the defenders win; a game with
Kontra and Re; a player's total ending in three equal digits; a player's total a
multiple of 100 (not 0); a game worth 72 or more; a game worth 96 or more (both before
Kontra, Re and Bock double it)."""

_CHOICES: dict[str, tuple[str, ...]] = {
    "all_pass": ("ramsch", "redeal"),
    "null_overbid": ("refused", "next_level"),
    "kontra_re": ("no", "yes", "bid18"),
    "spitze": ("no", "yes", "double"),
    "ramsch_skat": ("last_trick", "loser"),
    "bock_overlap": ("queue", "stack"),
}


@dataclass(frozen=True)
class SkatRules:
    """Every option of a Skat game.  The defaults are Lothar's table.

    - ``bidding_jumps``: a bid may skip ladder values (ISkO); else every bid is exactly the
      next ladder value.
    - ``all_pass``: when nobody bids and Vorhand declines 18: ``ramsch`` or ``redeal``.
    - ``announcements``: Schneider/Schwarz may be announced with Hand; suit and Grand
      Ouvert then imply Schwarz announced (ISkO).
    - ``null_overbid``: a Null declaration worth less than the bid is ``refused`` (ISkO,
      as the ISS does) or lost at once and settled at the ``next_level`` (Lothar).

    House rules (``docs/skat.md`` cites the source of each; both presets leave them off):

    - ``kontra_re``: a defender may say Kontra before playing his first card, doubling the
      score; the declarer may answer Re at once, doubling again (``yes``); ``bid18``: only
      a defender who said or held a value in the auction may say Kontra; ``no``.
    - ``spitze``: the declarer of a suit game or Grand may declare Spitze when he holds the
      lowest trump (the trump Sieben; in Grand the Schellen-Unter, not with all four
      Unter): he wins only if he takes the last trick with it; +1 level (``yes``) or +2
      (``double``).
    - ``jungfrau``: in Ramsch, the loser's loss doubles when another player took no trick.
    - ``durchmarsch``: in Ramsch, a player who takes all ten tricks scores +120 (the seed's
      rule, on in both presets); ``no``: he is simply the loser.
    - ``ramsch_skat``: the Skat's points go to the winner of the ``last_trick`` (the seed)
      or to the ``loser``.
    - ``schieberamsch``: before a Ramsch is played, each player from Vorhand on either picks
      up the Skat and puts two cards back (no Unter), or pushes it on unseen, which doubles
      the score.
    - ``klopfen``: in Ramsch, a player may knock before his first card (not after pushing
      the Skat on unseen); each knock doubles the score.
    - ``bock``: the events (:data:`BOCK_EVENTS`, joined by ``+``) after which the next
      ``bock_games`` games (0: as many as players at the table) count double;
      ``bock_overlap``: a Bock round started during another one is played after it
      (``queue``) or doubles the games they share again (``stack``).  The list applies
      Bock; a single game knows nothing of it.  ``bock_ramsch``: after each Bock round a
      round of compulsory Ramsch (as many games as players), in which each player from
      Vorhand may declare Grand Hand instead (that game does not count to the round).
    - ``revolution``: the declarer may declare a Revolution, a Null Ouvert worth 92 in
      which, once his cards lie open, the two defenders see each other's cards and
      rearrange them between their hands: the first defender after him gives his partner
      any cards, the partner gives back as many (XSkat's ``-revolution``).
    - ``schenken``: in a suit game or Grand declared without announcement, Ouvert or
      Spitze, a defender on move in the first trick may offer to give the game away
      (``schenken``); when his partner agrees, the declarer accepts (won, simply) or plays
      on and must then make the defenders Schneider (scored as Schneider announced); a
      second offer gives him the Schneider, or he plays on for Schwarz (scored as Schwarz
      announced) (XSkat's ``-schenken``).
    """

    bidding_jumps: bool = False
    all_pass: AllPass = "ramsch"
    announcements: bool = False
    null_overbid: NullOverbid = "next_level"
    kontra_re: KontraRe = "no"
    spitze: Spitze = "no"
    jungfrau: bool = False
    durchmarsch: bool = True
    ramsch_skat: RamschSkat = "last_trick"
    schieberamsch: bool = False
    klopfen: bool = False
    bock: str = ""
    bock_games: int = 0
    bock_overlap: BockOverlap = "queue"
    bock_ramsch: bool = False
    revolution: bool = False
    schenken: bool = False
    bid_key: ClassVar[tuple[bool, bool, str, bool]] = (False, False, "no", False)
    """What the bidding ladder depends on (announcements, jumps, Spitze, Revolution), set
    on each rule set: the bids read it on every bid, one attribute instead of four."""

    def __post_init__(self) -> None:
        for key, choices in _CHOICES.items():
            value = getattr(self, key)
            if value not in choices:
                raise RulesError("rules.option_choice", key=key, choices=", ".join(choices),
                                 value=value)
        if self.bock:
            events = self.bock.split("+")
            for event in events:
                if event not in BOCK_EVENTS:
                    raise RulesError("rules.option_choice", key="bock",
                                     choices="+".join(BOCK_EVENTS), value=event)
            ordered = "+".join(e for e in BOCK_EVENTS if e in events)
            object.__setattr__(self, "bock", ordered)
        if self.bock_ramsch and not self.bock:
            raise RulesError("rules.bock_ramsch_needs_bock")
        # what the bidding ladder depends on, read on every bid (one attribute, not three)
        object.__setattr__(self, "bid_key",
                           (self.announcements, self.bidding_jumps, self.spitze,
                            self.revolution))
        if not 0 <= self.bock_games <= 12:
            raise RulesError("rules.option_range", key="bock_games", low=0, high=12,
                             value=self.bock_games)

    @property
    def bock_events(self) -> frozenset[str]:
        """The Bock events in force (empty: no Bock)."""
        return frozenset(self.bock.split("+")) if self.bock else frozenset()

    @property
    def house_rules(self) -> bool:
        """Whether any house rule is on (a rule set the ISS cannot express)."""
        return (self.kontra_re != "no" or self.spitze != "no" or self.jungfrau
                or not self.durchmarsch or self.ramsch_skat != "last_trick"
                or self.schieberamsch or self.klopfen
                or bool(self.bock) or self.bock_ramsch or self.revolution or self.schenken)

    @staticmethod
    def preset(name: str) -> SkatRules:
        """The named preset: ``lothar`` (default) or ``isko``."""
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError("rules.unknown_preset", game="Skat", name=name,
                             choices=", ".join(PRESETS)) from None

    @property
    def preset_name(self) -> str:
        """The preset this rule set is closest to (the fewest differing fields)."""
        return min(PRESETS, key=lambda n: len(_diff(PRESETS[n], self)))

    def __str__(self) -> str:
        """The canonical rule string (kept once made: every view names its rules)."""
        return kept_text(self, self._text)

    def _text(self) -> str:
        base = self.preset_name
        parts = [f"preset={base}"]
        for name, value in _diff(PRESETS[base], self):
            parts.append(f"{name}={_fmt(value)}")
        return f"skat({','.join(parts)})"

    @staticmethod
    def parse(text: str) -> SkatRules:
        """Read a canonical rule string such as ``skat(preset=isko)``; ``lothar`` alone
        and ``isko`` alone are accepted too."""
        t = text.strip()
        if t in PRESETS:
            return PRESETS[t]
        m = re.fullmatch(r"skat\((.*)\)", t)
        if not m:
            raise RulesError("rules.not_a_rule_string", game="Skat", text=text,
                             example="skat(preset=...)")
        items = [p.strip() for p in m.group(1).split(",") if p.strip()]
        values: dict[str, str] = {}
        for item in items:
            key, sep, value = item.partition("=")
            if not sep:
                raise RulesError("rules.option_needs_value", item=item)
            values[key.strip()] = value.strip()
        base = SkatRules.preset(values.pop("preset", "lothar"))
        known = {f.name: f for f in fields(SkatRules)}
        changes: dict[str, object] = {}
        for key, value in values.items():
            if key not in known:
                raise RulesError("rules.unknown_option", game="Skat", key=key)
            if isinstance(getattr(base, key), bool):
                if value not in ("yes", "no", "true", "false"):
                    raise RulesError("rules.option_yes_no", key=key, value=value)
                changes[key] = value in ("yes", "true")
            elif isinstance(getattr(base, key), int):
                if not value.isdigit():
                    raise RulesError("rules.option_number", key=key, value=value)
                changes[key] = int(value)
            elif key == "bock" and value == "no":
                changes[key] = ""
            else:
                changes[key] = value
        return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def _diff(a: SkatRules, b: SkatRules) -> list[tuple[str, object]]:
    return [
        (f.name, getattr(b, f.name))
        for f in fields(SkatRules)
        if getattr(a, f.name) != getattr(b, f.name)
    ]


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value) if value != "" else "no"


PRESETS: dict[str, SkatRules] = {
    "lothar": SkatRules(),
    "isko": SkatRules(
        bidding_jumps=True, all_pass="redeal", announcements=True, null_overbid="refused"
    ),
}


class GameType(Enum):
    """The games a declarer can announce, and Ramsch."""

    SCHELLEN = "schellen"
    HERZ = "herz"
    GRUEN = "gruen"
    EICHEL = "eichel"
    GRAND = "grand"
    NULL = "null"
    RAMSCH = "ramsch"

    @property
    def is_suit(self) -> bool:
        return self in _SUIT_GAMES

    @property
    def trump_suit(self) -> Suit | None:
        return _SUIT_GAMES.get(self)

    @property
    def base_value(self) -> int:
        """Grundwert: Schellen 9, Herz 10, Grün 11, Eichel 12, Grand 24 (Null: 23)."""
        return _BASE[self]

    @staticmethod
    def parse(text: str) -> GameType:
        from stich.cards import _fold

        key = _fold(text)
        if key in _GAME_WORDS:
            return _GAME_WORDS[key]
        raise StichError("skat.unknown_game", text=text)

    def __str__(self) -> str:
        return self.value


_SUIT_GAMES = {
    GameType.SCHELLEN: Suit.SCHELLEN,
    GameType.HERZ: Suit.HERZ,
    GameType.GRUEN: Suit.GRUEN,
    GameType.EICHEL: Suit.EICHEL,
}
_BASE = {
    GameType.SCHELLEN: 9,
    GameType.HERZ: 10,
    GameType.GRUEN: 11,
    GameType.EICHEL: 12,
    GameType.GRAND: 24,
    GameType.NULL: 23,
    GameType.RAMSCH: 0,
}
_GAME_WORDS: dict[str, GameType] = {g.value: g for g in GameType}
for _g, _s in _SUIT_GAMES.items():
    for _w in (_s.german, _s.french, _s.english, _s.code):
        from stich.cards import _fold as _f

        _GAME_WORDS[_f(_w)] = _g


REVOLUTION_VALUE = 92
"""The value of a Revolution (``revolution``), Hand or not (XSkat)."""

NULL_VALUES: dict[tuple[bool, bool], int] = {
    (False, False): 23,
    (True, False): 35,
    (False, True): 46,
    (True, True): 59,
}
"""Null values by (hand, ouvert)."""


def null_value(hand: bool, ouvert: bool) -> int:
    return NULL_VALUES[(hand, ouvert)]


def max_matadors(game: GameType) -> int:
    """Most matadors (mit or ohne) a game can have: 11 in a suit game, 4 in Grand."""
    return 4 if game is GameType.GRAND else 11


@cache
def bidding_ladder(rules: SkatRules) -> tuple[int, ...]:
    """Every value some game can be worth under these rules, ascending.

    Derived by enumerating the multipliers each rule set allows: matadors + 1 for the
    game, + Hand, + Schneider, + Schwarz, + Ouvert, and under announcements the announced
    Schneider and Schwarz.  Null values come from :data:`NULL_VALUES`.
    """
    extras = _max_extra_levels(rules)
    values: set[int] = set(NULL_VALUES.values())
    if rules.revolution:
        values.add(REVOLUTION_VALUE)
    for game in (GameType.SCHELLEN, GameType.HERZ, GameType.GRUEN, GameType.EICHEL,
                 GameType.GRAND):
        for mult in range(2, max_matadors(game) + 1 + extras + 1):
            values.add(game.base_value * mult)
    return tuple(sorted(v for v in values if v >= 18))


def _max_extra_levels(rules: SkatRules) -> int:
    """Levels beyond matadors + game that one game can reach: Hand, Schneider, Schwarz,
    Ouvert, and with announcements Schneider announced and Schwarz announced."""
    return 4 + (2 if rules.announcements else 0) + spitze_levels(rules)


def spitze_levels(rules: SkatRules) -> int:
    """The levels a declared Spitze adds: 1, 2 under ``spitze=double``, 0 without it."""
    return {"no": 0, "yes": 1, "double": 2}[rules.spitze]


def spitze_card(game: GameType) -> int:
    """The card a Spitze is won with: the trump Sieben, in Grand the Schellen-Unter.

    >>> from stich.cards import CARDS
    >>> str(CARDS[spitze_card(GameType.HERZ)]), str(CARDS[spitze_card(GameType.GRAND)])
    ('H7', 'DJ')
    """
    suit = game.trump_suit
    if suit is None:
        return Suit.SCHELLEN * 8 + Rank.UNTER
    return suit * 8 + Rank.SEVEN
