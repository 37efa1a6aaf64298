"""A sitting at one Skat table: the Skat list, Punktestand, Bilanz, and the leaderboard.

Three players sit at a table for a series of games.  Inside one game the seats are
positions (0 Vorhand, 1 Mittelhand, 2 Hinterhand = the dealer); here the players keep
their index in ``players``.  The dealer moves one seat on after every game, Ramsch games
and redeals (eingepasst) included; Vorhand sits left of the dealer.

A player's Punktestand is the sum of their game scores; the Bilanz is 2 × own Punktestand
minus the other two players' Punktestand ("doppelt dein Punktestand minus die beiden
Gegner"), which sums to zero over the table.

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
    "LeaderboardRow",
    "SkatList",
    "ListGame",
    "bilanz",
    "game_bilanz",
    "game_name",
    "words",
]

Positions = tuple[int, int, int]


def bilanz(totals: Sequence[int]) -> list[int]:
    """Bilanz of three Punktestände: 2 × own − the sum of the other two (sums to zero).

    >>> bilanz([36, 0, -54])
    [126, 18, -144]
    """
    if len(totals) != 3:
        raise ArgumentError("table.bilanz_three", n=len(totals))
    s = sum(totals)
    return [2 * t - (s - t) for t in totals]


def game_bilanz(scores: tuple[int, int, int]) -> tuple[int, int, int]:
    """The Bilanz of one game: per player 2 × own score − the other two players' scores.

    >>> game_bilanz((48, 0, 0))
    (96, -48, -48)
    """
    a, b, c = bilanz(scores)
    return (a, b, c)


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
    },
    "en": {
        "passed": "passed (redeal)", "durchmarsch": "Durchmarsch", "schneider": "Schneider",
        "schwarz": "Schwarz", "announced": "announced", "overbid": "overbid",
        "punktestand": "Score", "bilanz": "Bilanz",
        "wonlost": "won/lost", "leaderboard": "Leaderboard",
        "rank": "Rank", "name": "Name", "games": "Games", "per_game": "Bilanz/game",
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
    """
    w = words(lang)
    if outcome.kind == "passed" or outcome.game is None:
        return w["passed"]
    if outcome.game is GameType.RAMSCH:
        return w["durchmarsch"] if outcome.durchmarsch else "Ramsch"
    if names is None:
        names = (_GAME_NAMES_DE if lang == "de" else _GAME_NAMES_EN).__getitem__
    parts = [names(outcome.game)]
    if outcome.hand:
        parts.append("Hand")
    if outcome.ouvert:
        parts.append("Ouvert")
    if outcome.schwarz_announced and not outcome.ouvert:
        parts.append(f"{w['schwarz']} {w['announced']}")
    elif outcome.schneider_announced and not outcome.ouvert:
        parts.append(f"{w['schneider']} {w['announced']}")
    elif outcome.schwarz:
        parts.append(w["schwarz"])
    elif outcome.schneider:
        parts.append(w["schneider"])
    if outcome.overbid:
        parts.append(f"({w['overbid']})")
    return " ".join(parts)


@dataclass(frozen=True)
class ListGame:
    """One line of the Skat list.

    ``dealer`` and ``declarer`` are player indices (``declarer`` is None in Ramsch and
    passed games); ``positions`` the players at (Vorhand, Mittelhand, Hinterhand);
    ``value`` the settled game value (Ramsch: the points paid, 120 for a Durchmarsch;
    passed: 0); ``won`` is None when nobody declared; ``scores`` the change of every
    player's Punktestand and ``totals`` the running Punktestand after this game.
    """

    number: int
    dealer: int
    positions: Positions
    kind: str
    declarer: int | None
    game: str
    value: int
    won: bool | None
    scores: tuple[int, int, int]
    totals: tuple[int, int, int]
    outcome: SkatOutcome = field(compare=False, repr=False)

    def name(self, lang: str = "de") -> str:
        """The game's name in a language (``game`` is the German one)."""
        return game_name(self.outcome, lang)

    def to_dict(self) -> dict[str, Any]:
        return {
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


def _check_positions(positions: Sequence[int]) -> Positions:
    if len(positions) != 3 or sorted(positions) != [0, 1, 2]:
        raise ArgumentError("table.positions", positions=", ".join(map(str, positions)))
    return (positions[0], positions[1], positions[2])


class SkatList:
    """A sitting of three players: the Skat list with running totals.

    ``first_dealer`` is the player index who deals the first game.
    """

    def __init__(
        self,
        players: list[str],
        rules: SkatRules = SkatRules(),  # noqa: B008  (frozen, immutable)
        first_dealer: int = 0,
    ) -> None:
        if len(players) != 3:
            raise ArgumentError("table.three_players", n=len(players))
        if first_dealer not in (0, 1, 2):
            raise ArgumentError("table.first_dealer", given=first_dealer)
        self.players: list[str] = list(players)
        self.rules = rules
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.games: list[ListGame] = []

    def __repr__(self) -> str:
        return f"<SkatList {self.players} games={len(self.games)} dealer={self.dealer}>"

    def positions(self) -> Positions:
        """Player indices at (Vorhand, Mittelhand, Hinterhand) for the next game: the
        dealer is Hinterhand, Vorhand sits on the dealer's left."""
        d = self.dealer
        return ((d + 1) % 3, (d + 2) % 3, d)

    def record_game(self, outcome: SkatOutcome, positions: Positions | None = None) -> ListGame:
        """Add a finished game (Ramsch and passed games too) and move the dealer on.

        ``positions`` are the player indices at (Vorhand, Mittelhand, Hinterhand); by
        default :meth:`positions`.  The game's dealer is Hinterhand; the next dealer is
        the player after them.
        """
        pos = self.positions() if positions is None else _check_positions(positions)
        scores = [0, 0, 0]
        for seat, player in enumerate(pos):
            scores[player] += outcome.scores[seat]
        prev = self.games[-1].totals if self.games else (0, 0, 0)
        totals = (prev[0] + scores[0], prev[1] + scores[1], prev[2] + scores[2])
        if outcome.kind == "game":
            declarer = None if outcome.declarer is None else pos[outcome.declarer]
            value, won = outcome.value, outcome.won
        else:
            declarer, won = None, None
            value = max((abs(s) for s in outcome.scores), default=0)
        entry = ListGame(
            number=len(self.games) + 1,
            dealer=pos[2],
            positions=pos,
            kind=outcome.kind,
            declarer=declarer,
            game=game_name(outcome, "de"),
            value=value,
            won=won,
            scores=(scores[0], scores[1], scores[2]),
            totals=totals,
            outcome=outcome,
        )
        self.games.append(entry)
        self.dealer = (pos[2] + 1) % 3
        return entry

    def punktestand(self) -> list[int]:
        """Each player's sum of game scores."""
        return list(self.games[-1].totals) if self.games else [0, 0, 0]

    def bilanz(self) -> list[int]:
        """Each player's 2 × own Punktestand − the other two players' (sums to zero)."""
        return bilanz(self.punktestand())

    def declarer_stats(self) -> list[DeclarerStats]:
        """Games won and lost as declarer, per player."""
        won, lost = [0, 0, 0], [0, 0, 0]
        for g in self.games:
            if g.declarer is not None:
                if g.won:
                    won[g.declarer] += 1
                else:
                    lost[g.declarer] += 1
        return [DeclarerStats(won[i], lost[i]) for i in range(3)]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: players, rules, the list, and the footer figures."""
        return {
            "players": list(self.players),
            "rules": str(self.rules),
            "first_dealer": self.first_dealer,
            "dealer": self.dealer,
            "games": [g.to_dict() for g in self.games],
            "punktestand": self.punktestand(),
            "bilanz": self.bilanz(),
            "declarer": [{"won": s.won, "lost": s.lost} for s in self.declarer_stats()],
        }


@dataclass
class LeaderboardRow:
    """One player's line of the Bestenliste."""

    name: str
    bilanz: int = 0
    punktestand: int = 0
    games: int = 0
    won: int = 0
    lost: int = 0
    rank: int = 0

    @property
    def bilanz_per_game(self) -> float:
        return self.bilanz / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank, "name": self.name, "bilanz": self.bilanz,
            "punktestand": self.punktestand, "games": self.games, "won": self.won,
            "lost": self.lost, "bilanz_per_game": round(self.bilanz_per_game, 2),
        }


class Leaderboard:
    """The Bestenliste across many tables: per player the sum of the Bilanz of each game
    they played (2 × own score − the other two players' scores), Punktestand, games
    played (Ramsch and passed games included), and games won/lost as declarer.

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
        scores: tuple[int, int, int],
        declarer: int | None = None,
        won: bool | None = None,
    ) -> None:
        """Add one game: the three players' names, their score changes (same order),
        and the declarer's index in ``names`` with whether they won."""
        if len(names) != 3 or len(set(names)) != 3:
            raise ArgumentError("table.game_players", names=", ".join(map(str, names)))
        per_game = game_bilanz(scores)
        for i, name in enumerate(names):
            row = self._row(name)
            row.bilanz += per_game[i]
            row.punktestand += scores[i]
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
        for g in table.games:
            self.add_game(table.players, g.scores, g.declarer, g.won)

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
