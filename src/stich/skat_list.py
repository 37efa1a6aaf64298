"""A sitting at one Skat table: the Skat list, Punktestand, Bilanz, Bock, and the leaderboard.

Three or four players sit at a table for a series of games.  Inside one game the seats
are positions (0 Vorhand, 1 Mittelhand, 2 Hinterhand); here the players keep their index
in ``players``.  Vorhand sits left of the dealer, then Mittelhand, then Hinterhand: at a
table of three the dealer is Hinterhand; at a table of four the dealer deals to the
other three and sits the game out (Hinterhand is the player on the dealer's right).  The
dealer moves one seat on after every game, Ramsch games and redeals (eingepasst)
included.

A player's Punktestand is the sum of their game scores; the Bilanz is the sum of the
player's differences to every other player at the table, n × own Punktestand minus the
sum of all (n = 3 or 4 players).  At a table of three that is 2 × own Punktestand minus
the other two players' ("doppelt dein Punktestand minus die beiden Gegner"); it sums to
zero over the table.

Bock (``SkatRules.bock``): after a game with one of the rule set's events the next Bock
round's games count double on the list (:meth:`SkatList.next_bock`).

>>> from stich.skat import SkatOutcome
>>> t = SkatList(["Ann", "Ben", "Cid"])
>>> t.dealer, t.positions()
(0, (1, 2, 0))
>>> won = SkatOutcome(kind="game", scores=(0, 30, 0), declarer=1, game=GameType.HERZ,
...                   value=30, won=True)
>>> entry = t.record_game(won)   # Mittelhand (position 1) is Cid
>>> entry.declarer, entry.dealer, entry.game
(2, 0, 'Herz')
>>> t.punktestand(), t.bilanz(), t.dealer
([0, 0, 30], [-30, -30, 60], 1)
>>> game_bilanz((0, 0, -54))
(54, 54, -108)

At four, the dealer sits out and scores 0:

>>> four = SkatList(["Ann", "Ben", "Cid", "Dora"])
>>> four.positions(), four.dealer
((1, 2, 3), 0)
>>> entry = four.record_game(won)   # Mittelhand is Cid again
>>> entry.dealer, entry.scores, four.bilanz(), four.positions()
(0, (0, 0, 30, 0), [-30, -30, 90, -30], (2, 3, 0))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from stich.core import ArgumentError
from stich.skat.outcome import SkatOutcome
from stich.skat.rules import GameType, SkatRules

__all__ = [
    "DeclarerStats",
    "Leaderboard",
    "PREISSKAT_SERIES",
    "SEEGER_LOST_OTHERS",
    "SEEGER_WON",
    "SeegerLine",
    "LeaderboardRow",
    "SkatList",
    "ListGame",
    "bilanz",
    "bock_events",
    "bock_mark",
    "game_bilanz",
    "game_name",
    "seeger",
    "seeger_json",
    "seeger_places",
    "series_games",
    "words",
]

Positions = tuple[int, int, int]
TABLE_SIZES = (3, 4)
"""How many players may sit at a Skat table: three, or four with the dealer sitting out."""


def bilanz(totals: Sequence[int]) -> list[int]:
    """Bilanz of the Punktestände of a table of n = 3 or 4 players: per player the sum of
    their differences to every other player, n × own − the sum of all (sums to zero).  At
    three that is 2 × own − the sum of the other two.

    >>> bilanz([36, 0, -54])
    [126, 18, -144]
    >>> bilanz([36, 0, -54, 0])
    [162, 18, -198, 18]
    """
    n = len(totals)
    if n not in TABLE_SIZES:
        raise ArgumentError("table.bilanz_three", n=n)
    s = sum(totals)
    return [n * t - s for t in totals]


def game_bilanz(scores: Sequence[int]) -> tuple[int, ...]:
    """The Bilanz of one game: per player n × own score − the sum of all scores (at three:
    2 × own − the other two players' scores; at four the dealer who sat out scored 0).

    >>> game_bilanz((48, 0, 0))
    (96, -48, -48)
    >>> game_bilanz((48, 0, 0, 0))
    (144, -48, -48, -48)
    """
    return tuple(bilanz(scores))


SEEGER_WON = 50
"""Seeger-Fabian: points a declarer's won game adds (and a lost one takes away) beside
its list score."""
SEEGER_LOST_OTHERS = {3: 40, 4: 30}
"""Seeger-Fabian: points every other player at the table gets for a declarer's lost game,
at a table of three and of four (the dealer who sat the game out included)."""
PREISSKAT_SERIES = {3: 36, 4: 48}
"""The games of a Preisskat series by default, at a table of three and of four."""


class SeegerLine(NamedTuple):
    """One player's line of the Preisskat list (Seeger-Fabian): ``points`` the sum of the
    list scores (the Punktestand), ``won`` and ``lost`` the games won and lost as
    declarer, ``others_lost`` the games the others at the table lost as declarer, and
    ``score`` = points + 50 × (won − lost) + 40 (four: 30) × others_lost."""

    points: int
    won: int
    lost: int
    others_lost: int
    score: int


def seeger(totals: Sequence[int], won: Sequence[int], lost: Sequence[int]) -> list[SeegerLine]:
    """The Preisskat list's lines of a table of three or four players from their
    Punktestand and their games won and lost as declarer (DSkV Skatwettspielordnung;
    ``docs/skat.md``, "Preisskat").  Passed games and Ramsch count no game won or lost:
    a Ramsch's list scores are in the Punktestand as they are.

    >>> [l.score for l in seeger([120, -46, 0], [2, 0, 0], [0, 1, 0])]
    [260, -96, 40]
    >>> [l.score for l in seeger([0, 72, -96, 0], [0, 1, 0, 0], [0, 0, 1, 0])]
    [30, 152, -146, 30]
    """
    n = len(totals)
    if n not in TABLE_SIZES or len(won) != n or len(lost) != n:
        raise ArgumentError("table.bilanz_three", n=n)
    k, all_lost = SEEGER_LOST_OTHERS[n], sum(lost)
    return [SeegerLine(totals[i], won[i], lost[i], all_lost - lost[i],
                       totals[i] + SEEGER_WON * (won[i] - lost[i])
                       + k * (all_lost - lost[i])) for i in range(n)]


def seeger_places(lines: Sequence[SeegerLine]) -> list[int]:
    """Each player's place (1 = first) by the Preisskat list: the higher Leistung
    (``score``) first; at equal Leistung more games won, then fewer games lost
    (Skatwettspielordnung: "bei gleicher Leistung ... dann das Los").  stich draws no
    lot: players still equal share the place (the next place is skipped, 1, 1, 3).

    >>> seeger_places([SeegerLine(0, 1, 0, 0, 50), SeegerLine(0, 1, 1, 0, 50),
    ...                SeegerLine(0, 2, 0, 0, 50), SeegerLine(0, 0, 0, 0, 90)])
    [3, 4, 2, 1]
    >>> seeger_places([SeegerLine(0, 0, 0, 0, 0)] * 3)
    [1, 1, 1]
    """
    keys = [(-line.score, -line.won, line.lost) for line in lines]
    return [1 + sum(1 for other in keys if other < k) for k in keys]


def series_games(scoring: str, seats: int, games: int | None) -> int:
    """The games of a table's series: ``games`` when given, else the default (a
    Preisskat series: 36 at three seats, 48 at four; the classic list: 36).  A Preisskat
    series is a positive multiple of the seats (every player deals as often); the
    classic list may also be open-ended (0).

    >>> series_games("seeger", 4, None), series_games("seeger", 3, 6), series_games("list", 4, None)
    (48, 6, 36)
    >>> series_games("seeger", 4, 0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    stich.core.ArgumentError: a Preisskat series has a positive multiple of 4 games ...
    """
    if scoring != "seeger":
        return 36 if games is None else games
    n = PREISSKAT_SERIES[seats] if games is None else games
    if n <= 0 or n % seats:
        raise ArgumentError("table.preisskat_games", games=n, seats=seats)
    return n


def seeger_json(lines: Sequence[SeegerLine]) -> dict[str, Any]:
    """The Preisskat part of a list's JSON: per player the line (``points`` the
    Punktestand, ``won``, ``lost``, ``others_lost``, ``won_points`` = 50 × won,
    ``lost_points`` = −50 × lost, ``others_points`` = 40 (four: 30) × others_lost,
    ``score`` the Leistung) and ``place``; the rule's figures ``won_each`` and
    ``others_each``."""
    k = SEEGER_LOST_OTHERS[len(lines)]
    places = seeger_places(lines)
    return {"won_each": SEEGER_WON, "others_each": k,
            "lines": [{"points": ln.points, "won": ln.won, "lost": ln.lost,
                       "others_lost": ln.others_lost, "won_points": SEEGER_WON * ln.won,
                       "lost_points": -SEEGER_WON * ln.lost,
                       "others_points": k * ln.others_lost, "score": ln.score,
                       "place": place} for ln, place in zip(lines, places, strict=True)]}


class DeclarerStats(NamedTuple):
    """Games won and lost as declarer."""

    won: int
    lost: int


_GAME_NAMES_DE = {
    GameType.SCHELLEN: "Schellen", GameType.HERZ: "Herz", GameType.GRUEN: "Grün",
    GameType.EICHEL: "Eichel", GameType.GRAND: "Grand", GameType.NULL: "Null",
    GameType.RAMSCH: "Ramsch",
}
_GAME_NAMES_EN = {
    GameType.SCHELLEN: "Diamonds", GameType.HERZ: "Hearts", GameType.GRUEN: "Spades",
    GameType.EICHEL: "Clubs", GameType.GRAND: "Grand", GameType.NULL: "Null",
    GameType.RAMSCH: "Ramsch",
}
_WORDS = {
    "de": {
        "passed": "eingepasst", "durchmarsch": "Durchmarsch", "schneider": "Schneider",
        "schwarz": "Schwarz", "announced": "angesagt", "overbid": "überreizt",
        "punktestand": "Punktestand", "bilanz": "Bilanz",
        "wonlost": "gewonnen/verloren", "leaderboard": "Bestenliste",
        "rank": "Platz", "name": "Name", "games": "Spiele", "per_game": "Bilanz/Spiel",
        "bock": "Bock", "sat_out": "setzt aus", "given": "geschenkt",
    },
    "en": {
        "passed": "passed (redeal)", "durchmarsch": "Durchmarsch", "schneider": "Schneider",
        "schwarz": "Schwarz", "announced": "announced", "overbid": "overbid",
        "punktestand": "Score", "bilanz": "Bilanz",
        "wonlost": "won/lost", "leaderboard": "Leaderboard",
        "rank": "Rank", "name": "Name", "games": "Games", "per_game": "Bilanz/game",
        "bock": "Bock", "sat_out": "sits out", "given": "given",
    },
}


def words(lang: str) -> dict[str, str]:
    """The list's and the Bestenliste's words in ``lang`` (``de`` or ``en``)."""
    try:
        return _WORDS[lang]
    except KeyError:
        raise ArgumentError("table.unknown_lang", lang=lang) from None


def game_name(outcome: SkatOutcome, lang: str = "de",
              names: Callable[[GameType], str] | None = None) -> str:
    """A short name of the game as written on the list: ``Grand Hand``, ``Herz Schneider``,
    ``Null Ouvert``, ``Ramsch``, ``Durchmarsch``, ``eingepasst``.  ``names`` names the
    games as a front end does (its card style), else the language's names.

    >>> o = SkatOutcome(kind="game", scores=(0, 0, 0), game=GameType.GRUEN, hand=True)
    >>> game_name(o), game_name(o, "en"), game_name(o, "en", lambda g: "Pik")
    ('Grün Hand', 'Spades Hand', 'Pik Hand')

    Under house rules: a Revolution, a game given (Schenken) and one played on after the
    gift (its Schneider counts as announced):

    >>> r = SkatOutcome(kind="game", scores=(0, 0, 0), game=GameType.NULL, hand=True,
    ...                 ouvert=True, revolution=True)
    >>> g = SkatOutcome(kind="game", scores=(0, 0, 0), game=GameType.HERZ, gift_accepted=True)
    >>> p = SkatOutcome(kind="game", scores=(0, 0, 0), game=GameType.HERZ, gift=1)
    >>> game_name(r), game_name(g), game_name(p, "en")
    ('Revolution Hand', 'Herz geschenkt', 'Hearts Schneider announced')
    """
    w = words(lang)
    if outcome.kind == "passed" or outcome.game is None:
        return w["passed"]
    if outcome.game is GameType.RAMSCH:
        return w["durchmarsch"] if outcome.durchmarsch else "Ramsch"
    if names is None:
        names = (_GAME_NAMES_DE if lang == "de" else _GAME_NAMES_EN).__getitem__
    parts = ["Revolution" if outcome.revolution else names(outcome.game)]
    if outcome.hand:
        parts.append("Hand")
    if outcome.ouvert and not outcome.revolution:
        parts.append("Ouvert")
    # a game played on after the defenders' gift counts as Schneider (Schwarz) announced
    schwarz_announced = outcome.schwarz_announced or outcome.gift >= 2
    schneider_announced = outcome.schneider_announced or outcome.gift >= 1
    if outcome.gift_accepted:
        parts.append(w["given"])
        if outcome.gift:
            parts.append(w["schneider"])
    elif schwarz_announced and not outcome.ouvert:
        parts.append(f"{w['schwarz']} {w['announced']}")
    elif schneider_announced and not outcome.ouvert:
        parts.append(f"{w['schneider']} {w['announced']}")
    elif outcome.schwarz:
        parts.append(w["schwarz"])
    elif outcome.schneider:
        parts.append(w["schneider"])
    if outcome.overbid:
        parts.append(f"({w['overbid']})")
    return " ".join(parts)


def bock_mark(factor: int, lang: str = "de") -> str:
    """How the list marks a game counted under Bock: ``Bock`` (× 2), ``Bock ×4`` (two
    rounds stacked); nothing for a game without Bock.

    >>> bock_mark(1), bock_mark(2), bock_mark(4)
    ('', 'Bock', 'Bock ×4')
    """
    if factor <= 1:
        return ""
    word = words(lang)["bock"]
    return word if factor == 2 else f"{word} ×{factor}"


def _three_equal_digits(total: int) -> bool:
    """Whether a total ends in three equal digits (111, −222, 1333, 2000)."""
    s = abs(total)
    return s >= 100 and s % 10 == s // 10 % 10 == s // 100 % 10


def bock_events(outcome: SkatOutcome, events: frozenset[str], before: Sequence[int],
                after: Sequence[int]) -> int:
    """How many Bock rounds a game starts: the number of ``events`` (the rule set's
    :attr:`SkatRules.bock_events`) it had, counted as XSkat counts them (``man xskat``,
    ``-bockevents``).  ``before`` and ``after`` are the players' Punktestand before and
    after the game (with the game's list score, Bock included).

    - ``lost_60``: the declarer lost a suit game or Grand with exactly 60 card points;
    - ``grand_hand``: a Grand Hand won;
    - ``kontra_won``: the defenders won a game with Kontra;
    - ``kontra_re``: a game with Kontra and Re (a lost one counts once, not also as
      ``kontra_won``);
    - ``triple`` / ``hundred``: per player whose Punktestand changed in this game, one
      event when it ends in three equal digits (``triple``: 111, −222, 1333) or is a
      multiple of 100 (``hundred``), never 0; a total that is both (1000) counts once;
    - ``value72`` / ``value96``: the game's value (before Kontra, Re and Bock double the
      score) is 72 or more / 96 or more; a game of 96 with both counts once.

    >>> grand = SkatOutcome(kind="game", scores=(0, 0, 96), declarer=2,
    ...                     game=GameType.GRAND, hand=True, value=96, won=True)
    >>> bock_events(grand, frozenset({"grand_hand", "value72", "value96"}),
    ...             (0, 0, 4), (0, 0, 100))
    2
    >>> bock_events(grand, frozenset({"hundred", "triple"}), (0, 0, 4), (0, 0, 100))
    1
    """
    if not events:
        return 0
    n = 0
    game = outcome.kind == "game"
    kontra, re = bool(outcome.kontra), bool(outcome.re)
    if "lost_60" in events and game and not outcome.won and outcome.declarer_points == 60 \
            and outcome.game not in (None, GameType.NULL):
        n += 1
    if "grand_hand" in events and game and outcome.won and outcome.hand \
            and outcome.game is GameType.GRAND:
        n += 1
    counted = False
    if "kontra_won" in events and game and kontra and not outcome.won:
        n += 1
        counted = True
    if "kontra_re" in events and game and re and not counted:
        n += 1
    triple, hundred = "triple" in events, "hundred" in events
    if triple or hundred:
        for old, new in zip(before, after, strict=True):
            if new != old and new != 0 and (
                    (triple and _three_equal_digits(new)) or (hundred and new % 100 == 0)):
                n += 1
    if game and outcome.value >= (72 if "value72" in events else 96) and (
            "value72" in events or "value96" in events):
        n += 1  # one event, whether 72 or 96 or both are on
    return n


@dataclass(frozen=True)
class ListGame:
    """One line of the Skat list.

    ``dealer`` and ``declarer`` are player indices (``declarer`` is None in Ramsch and
    passed games); ``positions`` the players at (Vorhand, Mittelhand, Hinterhand): at a
    table of three the dealer is Hinterhand, at four he sat out (he is not among them);
    ``value`` the settled game value (Ramsch: the points paid, 120 for a Durchmarsch;
    passed: 0); ``won`` is None when nobody declared; ``scores`` the change of every
    player's Punktestand (the dealer who sat out: 0) and ``totals`` the running
    Punktestand after this game; ``bock`` the factor Bock multiplied the game's score by
    (1: no Bock; 2; 4 when two stacked Bock rounds cover it); ``ramsch_round`` whether it
    was a game of a compulsory Ramsch round (``bock_ramsch``).
    """

    number: int
    dealer: int
    positions: Positions
    kind: str
    declarer: int | None
    game: str
    value: int
    won: bool | None
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    outcome: SkatOutcome = field(compare=False, repr=False)
    bock: int = 1
    ramsch_round: bool = False

    def name(self, lang: str = "de") -> str:
        """The game's name in a language (``game`` is the German one)."""
        return game_name(self.outcome, lang)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready line (``bock`` only when Bock doubled the game)."""
        d = {
            "number": self.number,
            "dealer": self.dealer,
            "positions": list(self.positions),
            "kind": self.kind,
            "declarer": self.declarer,
            "game": self.game,
            "value": self.value,
            "won": self.won,
            "scores": list(self.scores),
            "totals": list(self.totals),
            "result": self.outcome.to_dict(),
        }
        if self.bock != 1:
            d["bock"] = self.bock
        if self.ramsch_round:
            d["ramsch_round"] = True
        return d


def _check_positions(positions: Sequence[int], n: int) -> Positions:
    if len(positions) != 3 or len(set(positions)) != 3 \
            or not all(0 <= p < n for p in positions):
        raise ArgumentError("table.positions", positions=", ".join(map(str, positions)))
    return (positions[0], positions[1], positions[2])


class SkatList:
    """A sitting of three or four players: the Skat list with running totals and Bock.

    ``first_dealer`` is the player index who deals the first game.  At four the dealer
    sits out each game (:meth:`positions` are the three who play).

    Bock (``rules.bock``): after a game with events (:func:`bock_events`) as many Bock
    rounds start, each of ``rules.bock_games`` games (0: as many as players at the
    table).  ``bock_overlap=queue``: the rounds are played one after another (only the
    first counts, × 2); ``stack``: every round counts its own next games and a game
    covered by k rounds counts 2^k.  :attr:`bock_rounds` holds the games left of each
    round started and not yet over (in ``queue`` the first one is running).

    Bockramsch (``rules.bock_ramsch``): each Bock round that ends adds a round of
    compulsory Ramsch, as many games as players (:attr:`ramsch_left`); in such a game a
    player may declare Grand Hand instead, which does not count to the round, and the
    same dealer deals again.
    """

    def __init__(
        self,
        players: list[str],
        rules: SkatRules = SkatRules(),  # noqa: B008  (frozen, immutable)
        first_dealer: int = 0,
    ) -> None:
        if len(players) not in TABLE_SIZES:
            raise ArgumentError("table.three_players", n=len(players))
        if not 0 <= first_dealer < len(players):
            raise ArgumentError("table.first_dealer", given=first_dealer)
        self.players: list[str] = list(players)
        self.rules = rules
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.games: list[ListGame] = []
        self.bock_rounds: list[int] = []
        self.ramsch_left = 0

    def __repr__(self) -> str:
        return f"<SkatList {self.players} games={len(self.games)} dealer={self.dealer}>"

    @property
    def size(self) -> int:
        """How many players sit at the table (3 or 4)."""
        return len(self.players)

    def positions(self) -> Positions:
        """Player indices at (Vorhand, Mittelhand, Hinterhand) for the next game: Vorhand
        sits on the dealer's left, then Mittelhand, then Hinterhand; at three the dealer
        is Hinterhand, at four the dealer sits out and Hinterhand is on his right."""
        d, n = self.dealer, len(self.players)
        return ((d + 1) % n, (d + 2) % n, (d + 3) % n)

    def sits_out(self) -> int | None:
        """The player who deals the next game and sits it out (None at a table of three)."""
        return self.dealer if len(self.players) == 4 else None

    @property
    def bock_length(self) -> int:
        """Games in one Bock round: ``rules.bock_games``, or as many as players (0)."""
        return self.rules.bock_games or len(self.players)

    def next_bock(self) -> int:
        """The factor Bock multiplies the next game's list score by (1: no Bock)."""
        if not self.bock_rounds:
            return 1
        if self.rules.bock_overlap == "stack":
            return 1 << len(self.bock_rounds)
        return 2

    def bock_games_left(self) -> int:
        """How many of the next games Bock still doubles (at least once)."""
        if self.rules.bock_overlap == "stack":
            return max(self.bock_rounds, default=0)
        return sum(self.bock_rounds)

    def next_ramsch_round(self) -> bool:
        """Whether the next game is one of a compulsory Ramsch round (``bock_ramsch``)."""
        return self.ramsch_left > 0

    def _advance_bock(self, started: int) -> None:
        """A game was played under the current Bock rounds; ``started`` new ones begin.
        Under ``bock_ramsch`` every round that ends adds a Ramsch round."""
        rounds = self.bock_rounds
        ended = 0
        if rounds:
            if self.rules.bock_overlap == "stack":
                ended = sum(1 for r in rounds if r <= 1)
                rounds = [r - 1 for r in rounds if r > 1]
            else:
                ended = 1 if rounds[0] <= 1 else 0
                rounds = ([rounds[0] - 1] if rounds[0] > 1 else []) + rounds[1:]
        self.bock_rounds = rounds + [self.bock_length] * started
        if self.rules.bock_ramsch:
            self.ramsch_left += ended * len(self.players)

    def _after_game(self, entry: ListGame, before: tuple[int, ...]) -> None:
        """Bock and the Ramsch round after a game of the list (also when restoring)."""
        grand_instead = entry.ramsch_round and entry.kind != "ramsch"
        if entry.ramsch_round and not grand_instead:
            self.ramsch_left -= 1
        if self.rules.bock:
            self._advance_bock(bock_events(entry.outcome, self.rules.bock_events, before,
                                           entry.totals))

    def record_game(self, outcome: SkatOutcome, positions: Positions | None = None,
                    ramsch_round: bool = False) -> ListGame:
        """Add a finished game (Ramsch and passed games too) and move the dealer on.

        ``positions`` are the player indices at (Vorhand, Mittelhand, Hinterhand); by
        default :meth:`positions`.  The game's dealer is Hinterhand at three and the
        player not among them at four; the next dealer is the player after the dealer.
        The list score is the game's score × the Bock factor (:meth:`next_bock`); the
        game's Bock events start new Bock rounds.  ``ramsch_round``: the game was one of
        a compulsory Ramsch round (:meth:`next_ramsch_round`); a Grand Hand declared in
        it leaves the dealer where he is.
        """
        n = len(self.players)
        pos = self.positions() if positions is None else _check_positions(positions, n)
        dealer = pos[2] if n == 3 else next(p for p in range(n) if p not in pos)
        factor = self.next_bock()
        scores = [0] * n
        for seat, player in enumerate(pos):
            scores[player] += outcome.scores[seat] * factor
        prev = self.games[-1].totals if self.games else (0,) * n
        totals = tuple(a + b for a, b in zip(prev, scores, strict=True))
        if outcome.kind == "game":
            declarer = None if outcome.declarer is None else pos[outcome.declarer]
            value, won = outcome.value, outcome.won
        else:
            declarer, won = None, None
            value = max((abs(s) for s in outcome.scores), default=0)
        entry = ListGame(
            number=len(self.games) + 1,
            dealer=dealer,
            positions=pos,
            kind=outcome.kind,
            declarer=declarer,
            game=game_name(outcome, "de"),
            value=value,
            won=won,
            scores=tuple(scores),
            totals=totals,
            outcome=outcome,
            bock=factor,
            ramsch_round=ramsch_round,
        )
        self.games.append(entry)
        grand_instead = ramsch_round and outcome.kind != "ramsch"
        self.dealer = dealer if grand_instead else (dealer + 1) % n
        self._after_game(entry, prev)
        return entry

    def restore(self, games: Sequence[ListGame], dealer: int) -> None:
        """Put back a list written earlier (its games and the next dealer); the Bock
        rounds still to come follow from the games."""
        self.games = []
        self.bock_rounds = []
        self.ramsch_left = 0
        prev: tuple[int, ...] = (0,) * len(self.players)
        for g in games:
            self.games.append(g)
            self._after_game(g, prev)
            prev = g.totals
        self.dealer = dealer

    def punktestand(self) -> list[int]:
        """Each player's sum of game scores."""
        return list(self.games[-1].totals) if self.games else [0] * len(self.players)

    def bilanz(self) -> list[int]:
        """Each player's Bilanz: n × own Punktestand − the sum of all (sums to zero; at
        three 2 × own − the other two players')."""
        return bilanz(self.punktestand())

    def declarer_stats(self) -> list[DeclarerStats]:
        """Games won and lost as declarer, per player."""
        n = len(self.players)
        won, lost = [0] * n, [0] * n
        for g in self.games:
            if g.declarer is not None:
                if g.won:
                    won[g.declarer] += 1
                else:
                    lost[g.declarer] += 1
        return [DeclarerStats(won[i], lost[i]) for i in range(n)]

    def seeger(self) -> list[SeegerLine]:
        """The Preisskat list's line per player (Seeger-Fabian, :func:`seeger`)."""
        stats = self.declarer_stats()
        return seeger(self.punktestand(), [s.won for s in stats], [s.lost for s in stats])

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: players, rules, the list, and the footer figures (with
        Bock in the rules: the rounds to come, ``bock``)."""
        d = {
            "players": list(self.players),
            "rules": str(self.rules),
            "first_dealer": self.first_dealer,
            "dealer": self.dealer,
            "games": [g.to_dict() for g in self.games],
            "punktestand": self.punktestand(),
            "bilanz": self.bilanz(),
            "declarer": [{"won": s.won, "lost": s.lost} for s in self.declarer_stats()],
        }
        if self.rules.bock:
            d["bock"] = {"rounds": list(self.bock_rounds), "next": self.next_bock(),
                         "games_left": self.bock_games_left()}
        if self.rules.bock_ramsch:
            d["ramsch_left"] = self.ramsch_left
        return d


@dataclass
class LeaderboardRow:
    """One player's line of the Bestenliste.  ``games`` counts the games the player
    played, ``sat_out`` the games he dealt at a table of four and sat out; the Bilanz
    per game divides by both (the Bilanz runs over every game at the table)."""

    name: str
    bilanz: int = 0
    punktestand: int = 0
    games: int = 0
    won: int = 0
    lost: int = 0
    rank: int = 0
    sat_out: int = 0

    @property
    def bilanz_per_game(self) -> float:
        at_table = self.games + self.sat_out
        return self.bilanz / at_table if at_table else 0.0

    def to_dict(self) -> dict[str, Any]:
        d = {
            "rank": self.rank, "name": self.name, "bilanz": self.bilanz,
            "punktestand": self.punktestand, "games": self.games, "won": self.won,
            "lost": self.lost, "bilanz_per_game": round(self.bilanz_per_game, 2),
        }
        if self.sat_out:
            d["sat_out"] = self.sat_out
        return d


class Leaderboard:
    """The Bestenliste across many tables: per player the sum of the Bilanz of each game
    at their tables (:func:`game_bilanz`: at three 2 × own score − the other two players'
    scores; at four 4 × own − the sum of all four, the dealer who sat out included),
    Punktestand, games played (Ramsch and passed games included), and games won/lost as
    declarer.

    >>> lb = Leaderboard()
    >>> lb.add_game(["Ann", "Ben", "Cid"], (36, 0, 0), declarer=0, won=True)
    >>> lb.add_game(["Ann", "Dora", "Ben"], (0, -54, 0), declarer=1, won=False)
    >>> [(r.rank, r.name, r.bilanz) for r in lb.ranking()]
    [(1, 'Ann', 126), (2, 'Ben', 18), (3, 'Cid', -36), (4, 'Dora', -108)]
    """

    def __init__(self) -> None:
        self._rows: dict[str, LeaderboardRow] = {}

    def _row(self, name: str) -> LeaderboardRow:
        row = self._rows.get(name)
        if row is None:
            row = self._rows[name] = LeaderboardRow(name)
        return row

    def add_game(
        self,
        names: Sequence[str],
        scores: Sequence[int],
        declarer: int | None = None,
        won: bool | None = None,
        sat_out: int | None = None,
    ) -> None:
        """Add one game: the names of the players at the table (three, or four with
        ``sat_out`` the index of the dealer who sat the game out), their score changes
        (same order), and the declarer's index in ``names`` with whether they won."""
        if len(names) not in TABLE_SIZES or len(set(names)) != len(names) \
                or len(scores) != len(names) or (sat_out is not None and len(names) == 3):
            raise ArgumentError("table.game_players", names=", ".join(map(str, names)))
        per_game = game_bilanz(scores)
        for i, name in enumerate(names):
            row = self._row(name)
            row.bilanz += per_game[i]
            row.punktestand += scores[i]
            if i == sat_out:
                row.sat_out += 1
            else:
                row.games += 1
        if declarer is not None:
            row = self._row(names[declarer])
            if won:
                row.won += 1
            else:
                row.lost += 1

    def add_outcome(self, names: Sequence[str], outcome: SkatOutcome) -> None:
        """Add a game from its outcome; ``names`` by position (Vorhand, Mittelhand,
        Hinterhand)."""
        declarer = outcome.declarer if outcome.kind == "game" else None
        self.add_game(names, outcome.scores, declarer, outcome.won)

    def add_table(self, table: SkatList) -> None:
        """Add every game of a sitting (its players are listed even before a game)."""
        for name in table.players:
            self._row(name)
        four = len(table.players) == 4
        for g in table.games:
            self.add_game(table.players, g.scores, g.declarer, g.won,
                          sat_out=g.dealer if four else None)

    def add_tables(self, tables: Iterable[SkatList]) -> None:
        for t in tables:
            self.add_table(t)

    def ranking(self) -> list[LeaderboardRow]:
        """Rows ranked by Bilanz (ties share a rank; then Punktestand, then name)."""
        rows = sorted(self._rows.values(), key=lambda r: (-r.bilanz, -r.punktestand, r.name))
        for i, row in enumerate(rows):
            row.rank = rows[i - 1].rank if i and rows[i - 1].bilanz == row.bilanz else i + 1
        return rows

    def __getitem__(self, name: str) -> LeaderboardRow:
        return self._rows[name]

    def __len__(self) -> int:
        return len(self._rows)

    def to_dict(self) -> list[dict[str, Any]]:
        return [r.to_dict() for r in self.ranking()]
