"""A Skat tournament as a pure model: its settings, who plays, the seat draw of a round,
and the standings; no input or output (the server stores and runs it:
:mod:`stich.server.tournament_store`, :mod:`stich.server.tournament_routes`).

A tournament has an organiser, is public or private (an invite token), names its Skat
rules like a table does, its scoring (``seeger``, the Preisskat list, by default; or
``list``), its rounds and the games of a series at a table of three and of four, and
whether bots may fill seats.  Everybody plays one series per round at a table of three
or four.  ``docs/tournaments.md`` has the decisions and where they come from.

The seat draw puts ``n`` players at tables of three, and of four only where ``n`` does
not divide by three (``n ≡ 1 mod 3``: one table of four, ``n ≡ 2``: two), never a table
of two:

>>> table_sizes(10), table_sizes(11), table_sizes(12)
([4, 3, 3], [4, 4, 3], [3, 3, 3, 3])

Five players have no such split; with bots allowed a bot takes the sixth seat:

>>> table_sizes(5, bots=True)
[3, 3]

The draw is reproducible: the same seed and round give the same tables.

>>> s = TournamentSettings(rules="skat(preset=isko)", seed=7)
>>> p = [Player(str(i), f"P{i}") for i in range(7)]
>>> draw(s, p, 1) == draw(s, p, 1)
True
>>> [len(t) for t in draw(s, p, 1)]
[4, 3]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from stich.bots import known_level
from stich.core import ArgumentError
from stich.skat_list import PREISSKAT_SERIES, SeegerLine

__all__ = [
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "Player",
    "SeriesResult",
    "Standing",
    "TournamentSettings",
    "draw",
    "next_step",
    "check_register",
    "check_settings",
    "check_start_round",
    "check_withdraw",
    "standings",
    "table_sizes",
]

Scoring = Literal["seeger", "list"]
Seating = Literal["draw", "results"]
Status = Literal["registering", "running", "between", "over"]

MAX_PLAYERS = 120
"""Players one tournament takes at most (40 tables)."""
MAX_ROUNDS = 8
"""Rounds (series) one tournament has at most."""
MAX_SERIES = {3: 72, 4: 96}
"""The longest series at a table of three and of four (twice the Preisskat series)."""
NAME_MAX = 60
"""The longest name of a tournament, in characters."""

BOT = None
"""A seat of a drawn table that a bot plays (bots allowed, and the number needs one)."""


@dataclass(frozen=True)
class TournamentSettings:
    """What the organiser decides when creating a tournament.

    ``games_three`` and ``games_four``: the games of one series at a table of three and
    of four, each a multiple of its seats (every seat deals as often); by default the
    Preisskat series, 36 and 48, so that everybody plays 36 games in a round either way
    (at four the dealer sits out a quarter of them).  ``seating``: how rounds after the
    first are seated, ``results`` (the DSkV's custom: by the standings, the leaders
    together) or ``draw`` (a new draw each round).  ``seed``: the draws' seed, stored with
    the tournament so that every draw can be made again.  ``clock`` and ``next_after``:
    the turn clock of its tables and their wait after a game, in seconds (as a table's
    settings say: :class:`stich.server.sitting.TableSettings`).  ``duplicate``: every
    table of a round with as many seats is dealt the same cards (one secret seed per
    round and table size), so a seat's result compares skill, not cards."""

    rules: str
    name: str = ""
    scoring: Scoring = "seeger"
    rounds: int = 2
    games_three: int = PREISSKAT_SERIES[3]
    games_four: int = PREISSKAT_SERIES[4]
    bots: bool = False
    bot_level: str = "strong"
    seating: Seating = "results"
    public: bool = True
    seed: int = 0
    clock: int = 30
    next_after: int = 10
    duplicate: bool = False

    def games(self, seats: int) -> int:
        """The games of a series at a table of ``seats``."""
        return self.games_three if seats == 3 else self.games_four

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules, "name": self.name, "scoring": self.scoring,
                "rounds": self.rounds, "games_three": self.games_three,
                "games_four": self.games_four, "bots": self.bots,
                "bot_level": self.bot_level, "seating": self.seating,
                "public": self.public, "seed": self.seed, "clock": self.clock,
                "next_after": self.next_after, "duplicate": self.duplicate}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TournamentSettings:
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


def check_settings(s: TournamentSettings) -> TournamentSettings:
    """The settings if they may make a tournament; else an :class:`ArgumentError` that
    says why (in words: ``stich.messages.tournament``)."""
    if not 0 < len(s.name.strip()) <= NAME_MAX:
        raise ArgumentError("tournament.name", most=NAME_MAX)
    if s.scoring not in ("seeger", "list"):
        raise ArgumentError("tournament.scoring", given=str(s.scoring)[:20])
    if s.seating not in ("draw", "results"):
        raise ArgumentError("tournament.seating", given=str(s.seating)[:20])
    if not 1 <= s.rounds <= MAX_ROUNDS:
        raise ArgumentError("tournament.rounds", given=s.rounds, most=MAX_ROUNDS)
    if not known_level(s.bot_level):
        raise ArgumentError("server.bad_seat_spec", spec=f"bot:{s.bot_level[:20]}")
    if not 0 <= s.clock <= 300:
        raise ArgumentError("server.clock", given=s.clock)
    if not 0 <= s.next_after <= 120:
        raise ArgumentError("server.next_after", given=s.next_after)
    for seats, games in ((3, s.games_three), (4, s.games_four)):
        if games <= 0 or games % seats or games > MAX_SERIES[seats]:
            raise ArgumentError("tournament.series", seats=seats, given=games,
                                most=MAX_SERIES[seats])
    return replace(s, name=s.name.strip())


@dataclass(frozen=True)
class Player:
    """A registered player: ``key`` names him in the tournament (the server uses the
    account's id, guests included), ``name`` as shown.  ``active``: still in the
    tournament (False once withdrawn or replaced by a bot); ``order``: when he
    registered (the draw's starting order)."""

    key: str
    name: str
    active: bool = True
    order: int = 0


@dataclass(frozen=True)
class SeriesResult:
    """One player's finished series: the round, the table's size, and his line of the
    table's Preisskat list (:func:`stich.skat_list.seeger`)."""

    key: str
    round: int
    seats: int
    line: SeegerLine


@dataclass(frozen=True)
class Standing:
    """A player's place: ``place`` from 1 (players equal on every tie-break share it),
    ``score`` the sum over the series played (Seeger-Fabian scores, or the list's
    Punktestand under ``list``), ``points`` the Punktestand summed, ``won``/``lost`` his
    games won and lost as declarer, ``series`` how many series count, ``by_round`` the
    score of each round he finished (round number → score)."""

    key: str
    name: str
    place: int
    score: int
    points: int
    won: int
    lost: int
    series: int
    active: bool
    by_round: dict[int, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "place": self.place,
                "score": self.score, "points": self.points, "won": self.won,
                "lost": self.lost, "series": self.series, "active": self.active,
                "by_round": {str(k): v for k, v in sorted(self.by_round.items())}}


# -- registration ------------------------------------------------------------------------

def check_register(status: Status, players: Sequence[Player], key: str) -> None:
    """May ``key`` register now?  Only before the first round, once, up to
    :data:`MAX_PLAYERS`."""
    if status != "registering":
        raise ArgumentError("tournament.started")
    if any(p.key == key and p.active for p in players):
        raise ArgumentError("tournament.registered")
    if sum(p.active for p in players) >= MAX_PLAYERS:
        raise ArgumentError("tournament.full", most=MAX_PLAYERS)


def check_withdraw(status: Status, players: Sequence[Player], key: str) -> None:
    """May ``key`` withdraw now?  Only before the first round (later the organiser
    replaces a player by a bot)."""
    if status != "registering":
        raise ArgumentError("tournament.started")
    if not any(p.key == key and p.active for p in players):
        raise ArgumentError("tournament.not_registered")


# -- the seat draw -----------------------------------------------------------------------

def table_sizes(n: int, *, bots: bool = False) -> list[int]:
    """The tables of ``n`` players, fours first: tables of three, and of four only
    where ``n`` does not divide by three.  Refused (in words) for fewer than three, and
    for five unless bots may fill seats (then two tables of three, one seat a bot's).

    >>> [table_sizes(n) for n in (3, 4, 6, 7, 8)]
    [[3], [4], [3, 3], [4, 3], [4, 4]]
    """
    if n < 3:
        raise ArgumentError("tournament.too_few", count=n)
    if n == 5:
        if not bots:
            raise ArgumentError("tournament.five")
        return [3, 3]
    fours = n % 3  # n ≡ 1: one table of four, n ≡ 2: two
    return [4] * fours + [3] * ((n - 4 * fours) // 3)


def _rng(settings: TournamentSettings, round_no: int) -> random.Random:
    """The draw's random numbers for a round (a string seed: the same on every Python
    and every run)."""
    return random.Random(f"stich-tournament:{settings.seed}:{round_no}")


def draw(settings: TournamentSettings, players: Sequence[Player], round_no: int,
         order: Sequence[str] | None = None) -> list[tuple[str | None, ...]]:
    """The tables of round ``round_no`` (from 1): per table its seats in order, each a
    player's key or :data:`BOT`.  Every active player sits exactly once.

    Round 1, and every round under ``seating="draw"``, draws the tables from the seed.
    Later rounds under ``seating="results"`` seat by ``order`` (the standings, best
    first): the first table takes the first players, and so on; the seats at a table
    are drawn.  A bot seat, if any, is the last table's last seat."""
    active = sorted((p for p in players if p.active), key=lambda p: p.order)
    sizes = table_sizes(len(active), bots=settings.bots)
    rng = _rng(settings, round_no)
    keys = [p.key for p in active]
    if round_no > 1 and settings.seating == "results" and order is not None:
        rank = {k: i for i, k in enumerate(order)}
        keys.sort(key=lambda k: rank.get(k, len(rank)))  # (stable: ties by order)
    else:
        rng.shuffle(keys)
    seated: list[str | None] = list(keys) + [BOT] * (sum(sizes) - len(keys))
    tables: list[tuple[str | None, ...]] = []
    at = 0
    for size in sizes:
        people = seated[at:at + size]
        at += size
        humans = [k for k in people if k is not BOT]
        rng.shuffle(humans)
        tables.append(tuple(humans) + (BOT,) * (size - len(humans)))
    return tables


# -- the round's course ------------------------------------------------------------------

def check_start_round(status: Status, paused: bool, rounds_played: int,
                      settings: TournamentSettings, players: Sequence[Player]) -> int:
    """The number of the round the organiser may start now; else a refusal.  A round
    starts when the tournament is registering (round 1) or between rounds, not paused,
    and rounds are left; the draw itself refuses too few players."""
    if status == "over":
        raise ArgumentError("tournament.over")
    if paused:
        raise ArgumentError("tournament.paused")
    if status == "running":
        raise ArgumentError("tournament.round_running")
    if rounds_played >= settings.rounds:
        raise ArgumentError("tournament.no_rounds_left", rounds=settings.rounds)
    table_sizes(sum(p.active for p in players), bots=settings.bots)
    return rounds_played + 1


def next_step(status: Status, tables_done: Sequence[bool], round_no: int,
              settings: TournamentSettings) -> Status:
    """Where the tournament stands once its running round's tables report: still
    ``running`` while a table plays, then ``between`` rounds, or ``over`` after the
    last round."""
    if status != "running" or not all(tables_done):
        return status
    return "over" if round_no >= settings.rounds else "between"


# -- standings ---------------------------------------------------------------------------

def _key(s: Standing) -> tuple[int, int, int]:
    """The order of the standings: the score, then more games won, then fewer games
    lost (``docs/tournaments.md``, "Standings")."""
    return (-s.score, -s.won, s.lost)


def standings(settings: TournamentSettings, players: Sequence[Player],
              results: Iterable[SeriesResult]) -> list[Standing]:
    """The standings from the finished series so far: per player the sum of his series'
    scores, best first; ties broken by more games won, then fewer lost; players equal on
    all three share a place (and are listed by name).  Players without a finished
    series stand with 0.  Under ``scoring="list"`` the score is the Punktestand.

    >>> from stich.skat_list import seeger
    >>> s = TournamentSettings(rules="skat")
    >>> p = [Player("a", "Ann"), Player("b", "Ben"), Player("c", "Cid")]
    >>> lines = seeger([120, -46, 0], [2, 0, 0], [0, 1, 0])
    >>> r = [SeriesResult(k, 1, 3, ln) for k, ln in zip("abc", lines)]
    >>> [(x.place, x.name, x.score) for x in standings(s, p, r)]
    [(1, 'Ann', 260), (2, 'Cid', 40), (3, 'Ben', -96)]
    """
    sums: dict[str, list[int]] = {p.key: [0, 0, 0, 0, 0] for p in players}
    rounds: dict[str, dict[int, int]] = {p.key: {} for p in players}
    for r in results:
        if r.key not in sums:
            continue
        score = r.line.score if settings.scoring == "seeger" else r.line.points
        acc = sums[r.key]
        acc[0] += score
        acc[1] += r.line.points
        acc[2] += r.line.won
        acc[3] += r.line.lost
        acc[4] += 1
        rounds[r.key][r.round] = rounds[r.key].get(r.round, 0) + score
    rows = [Standing(p.key, p.name, 0, score=a[0], points=a[1], won=a[2], lost=a[3],
                     series=a[4], active=p.active, by_round=rounds[p.key])
            for p in players for a in (sums[p.key],)]
    rows.sort(key=lambda s: (_key(s), s.name.casefold(), s.key))
    placed: list[Standing] = []
    for i, row in enumerate(rows):
        same = i > 0 and _key(rows[i - 1]) == _key(row)
        placed.append(replace(row, place=placed[-1].place if same else i + 1))
    return placed


def series_results(round_no: int, keys: Sequence[str | None],
                   lines: Sequence[SeegerLine]) -> list[SeriesResult]:
    """The results of a finished table: its seats' players (``None``: a bot, which
    stands nowhere) and the table's Preisskat lines by seat."""
    if len(keys) != len(lines):
        raise ArgumentError("tournament.bad_table")
    return [SeriesResult(k, round_no, len(keys), ln)
            for k, ln in zip(keys, lines, strict=True) if k is not None]
