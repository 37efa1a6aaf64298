"""Ratings: a skill estimate per player, per game (Skat, Baptistenskat) and per rule
group, with its uncertainty, updated after every finished game (docs/ratings.md).

The method is openskill's Plackett-Luce model (Weng and Lin's Bayesian approximation; the
Baptistenskat ranking used it before): every rated *entity* has a mean ``mu`` and a
standard deviation ``sigma`` of its skill; a game is an ordering of teams, and the update
moves each mean towards what the result says and shrinks each sigma.

- **An entity** is ``user:<id>`` (an account, a guest's too) or ``bot:<level>``
  (``bot:random``, ``bot:easy``, ``bot:strong``): a rating then reads "plays like
  ``strong``".  A seat that a stand-in played for a person all game long is the stand-in's
  (``bot:easy``, the level :meth:`stich.server.sitting.Sitting.bot_seat` gives it): the
  game does not count for her (docs/server.md, "Whose game was it").  A line of a deleted
  account is a newcomer each time, rated nowhere.
- **One update of Skat** is one game: the declarer against the two defenders (two teams,
  the winners first); the declarer's side has a second member, the seat itself
  (:data:`DECLARER`, rated per group like a player), which learns how often the
  declarer's seat wins by itself, so that nobody's rating drifts with his share of
  declarer games.  A Ramsch is every player for himself, ranked by the game's list
  score (the loser last, the others tied; a Durchmarsch's winner first).  A game passed in
  (no Ramsch) changes nothing.  At a table of four the dealer who sat the game out is not
  in it.  The simulation (:mod:`bench.tuning.ratings`) measured this against places per
  series (the three players ranked by their list score after each series): both end
  in the right order after about as many games (the series a little sooner with
  ``strong``, the team update sooner without), the team update with half the
  uncertainty and without needing whole series (docs/ratings.md).
- **One update of Baptistenskat** is one game (a whole table's rounds): every player for
  himself, ranked by the table's places.
- **A rule group** compares only games under the same rules: a preset's name for a game
  whose rules are exactly a preset (``lothar``, ``isko``, ``default``…), the exact rule
  string otherwise (as the Bestenliste ranks "one exact rule set").

The shown figure is the conservative estimate ``mu − 3σ`` (openskill's ``ordinal``): 0 at
the start, it rises as the rating gets surer, and a player is shown above another only
when the evidence says so.

This module is pure: the server stores what it computes (``stich.server.store``), the
simulation and the tests call it directly.

>>> book = Ratings()
>>> changes = book.apply("skat", "skat(preset=lothar)", [
...     Line(seat=0, user_id=1, declarer=True, won=True, score=48),
...     Line(seat=1, bot="easy", score=0), Line(seat=2, bot="easy", score=0)])
>>> [(c.entity, c.group, c.after.mu > c.before.mu) for c in changes]
[('user:1', 'lothar', True), ('role:declarer', 'lothar', True), ('bot:easy', 'lothar', False)]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from stich import games

__all__ = ["BOT_LEVELS", "DECLARER", "MU", "SIGMA", "STANDIN_LEVEL", "Change", "Line", "Rating",
           "Ratings", "bot_entity", "entity_of", "group_of", "rate_teams", "skat_teams",
           "user_entity", "user_of"]

MU = 25.0
"""A new entity's mean (openskill's default)."""
SIGMA = MU / 3
"""A new entity's standard deviation: ``mu − 3σ`` starts at 0."""
DECLARER = "role:declarer"
"""The declarer's seat itself, rated like a player on the declarer's side of every
declarer's game in a group: it learns how much the seat wins by itself (the declarer
picked the game and has the Skat; about three games in four are won), so that a
player's rating does not drift with the share of games he plays as declarer or
defender (without it everybody's mean sinks game by game: docs/ratings.md)."""
STANDIN_LEVEL = "easy"
"""The bot that stands in for an absent person (``Sitting.bot_seat``)."""
BOT_LEVELS = ("random", "easy", "strong")
_OLD_LEVELS = {"heuristic": "easy"}


@dataclass(frozen=True)
class Rating:
    """A skill estimate: the mean and its standard deviation.

    >>> Rating().shown, Rating(30.0, 2.0).shown
    (0.0, 24.0)
    """

    mu: float = MU
    sigma: float = SIGMA

    @property
    def shown(self) -> float:
        """The conservative figure the pages show: ``mu − 3σ``."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Line:
    """A player's line of a finished game, as ``game_players`` keeps it (only what the
    ratings read)."""

    seat: int
    user_id: int | None = None
    bot: str | None = None
    score: int = 0
    declarer: bool = False
    won: bool | None = None
    place: int | None = None
    counts: bool = True
    sat_out: bool = False


@dataclass(frozen=True)
class Change:
    """One entity's rating before and after one game."""

    entity: str
    game: str
    group: str
    before: Rating
    after: Rating


def user_entity(user_id: int) -> str:
    return f"user:{user_id}"


def bot_entity(level: str) -> str:
    """``bot:<level>`` (an older name of a level is the level).

    >>> bot_entity("heuristic"), bot_entity("strong")
    ('bot:easy', 'bot:strong')
    """
    return f"bot:{_OLD_LEVELS.get(level, level)}"


def user_of(entity: str) -> int | None:
    """The account of a ``user:`` entity, else None.

    >>> user_of("user:12"), user_of("bot:easy")
    (12, None)
    """
    kind, _, rest = entity.partition(":")
    return int(rest) if kind == "user" and rest.isdigit() else None


def entity_of(line: Line) -> str | None:
    """Who a line's result is rated for: None for the dealer who sat out; a newcomer
    (``new:<seat>``, never stored) for a deleted account's line.

    >>> entity_of(Line(seat=0, user_id=3)), entity_of(Line(seat=0, user_id=3, counts=False))
    ('user:3', 'bot:easy')
    >>> entity_of(Line(seat=1, bot="strong")), entity_of(Line(seat=2, sat_out=True))
    ('bot:strong', None)
    """
    if line.sat_out:
        return None
    if line.user_id is not None:
        return user_entity(line.user_id) if line.counts else bot_entity(STANDIN_LEVEL)
    if line.bot:
        return bot_entity(line.bot)
    return f"new:{line.seat}"


def stored(entity: str) -> bool:
    """Whether an entity's rating is kept (a deleted account's newcomer is not)."""
    return not entity.startswith("new:")


def group_of(game: str, rules: str) -> str:
    """The rule group of a game: a preset's name when the rules are exactly a preset,
    else the canonical rule string (rules the engine cannot read: the text as given).

    >>> group_of("skat", "skat(preset=lothar)"), group_of("skat", "skat(preset=isko)")
    ('lothar', 'isko')
    >>> group_of("skat", "skat(preset=lothar,kontra=true)")
    'skat(preset=lothar,kontra=true)'
    >>> group_of("baptisten", "baptisten(preset=default)")
    'default'
    """
    if game not in games.names():
        return rules
    return games.get(game).rating_group(rules)


def skat_teams(lines: Sequence[Line]) -> tuple[list[list[Line]], list[int]] | None:
    """A Skat game as teams and their ranks (1 best), or None when it rates nobody (a
    game passed in, a game of fewer than two players).

    >>> d = [Line(0, 1, declarer=True, won=False), Line(1, 2), Line(2, 3)]
    >>> [[x.seat for x in t] for t in skat_teams(d)[0]], skat_teams(d)[1]
    ([[0], [1, 2]], [2, 1])
    >>> r = [Line(0, 1, score=-30), Line(1, 2), Line(2, 3), Line(3, 4, sat_out=True)]
    >>> [[x.seat for x in t] for t in skat_teams(r)[0]], skat_teams(r)[1]
    ([[0], [1], [2]], [2, 1, 1])
    >>> skat_teams([Line(0, 1), Line(1, 2), Line(2, 3)]) is None
    True
    """
    playing = [x for x in lines if not x.sat_out]
    if len(playing) < 2:
        return None
    declarer = next((x for x in playing if x.declarer), None)
    if declarer is not None:
        if declarer.won is None:
            return None
        defenders = [x for x in playing if x is not declarer]
        win, lose = (1, 2) if declarer.won else (2, 1)
        return [[declarer], defenders], [win, lose]
    if all(x.score == 0 for x in playing):  # passed in
        return None
    order = sorted({x.score for x in playing}, reverse=True)
    return [[x] for x in playing], [order.index(x.score) + 1 for x in playing]


def baptisten_teams(lines: Sequence[Line]) -> tuple[list[list[Line]], list[int]] | None:
    """A Baptistenskat table's game: every player for himself, by place."""
    if len(lines) < 2:
        return None
    return [[x] for x in lines], [x.place or len(lines) for x in lines]


def _model() -> object:
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


_MODEL: object | None = None


def rate_teams(teams: Sequence[Sequence[Rating]], ranks: Sequence[int]
               ) -> list[list[Rating]]:
    """openskill's Plackett-Luce update of teams in ``ranks`` (1 best, ties equal).

    >>> [[w], [l1, l2]] = rate_teams([[Rating()], [Rating(), Rating()]], [1, 2])
    >>> w.mu > 25 > l1.mu == l2.mu, w.sigma < SIGMA
    (True, True)
    """
    global _MODEL
    if _MODEL is None:
        _MODEL = _model()
    model: object = _MODEL
    rating = model.rating  # type: ignore[attr-defined]
    new = model.rate([[rating(mu=r.mu, sigma=r.sigma) for r in team]  # type: ignore[attr-defined]
                      for team in teams], ranks=list(ranks))
    return [[Rating(float(r.mu), float(r.sigma)) for r in team] for team in new]


@dataclass
class Ratings:
    """The current ratings of every entity per (game, group), updated game by game: the
    server's stored table, the rebuild and the simulation all go through :meth:`apply`,
    so that they agree.  ``table`` maps (game, group, entity) to a rating."""

    table: dict[tuple[str, str, str], Rating] = field(default_factory=dict)

    def get(self, game: str, group: str, entity: str) -> Rating:
        return self.table.get((game, group, entity), Rating())

    def apply(self, game: str, rules: str, lines: Sequence[Line],
              group: str | None = None) -> list[Change]:
        """Rate one finished game; the changes (one per stored entity, in seat order,
        :data:`DECLARER` after the declarer; an entity twice in one game, say two
        ``easy`` bots, moves by the sum of its seats' moves and keeps the smaller
        sigma)."""
        group = group_of(game, rules) if group is None else group
        by_declarer = games.get(game).rated_by == "declarer"
        split = skat_teams(lines) if by_declarer else baptisten_teams(lines)
        if split is None:
            return []
        teams, ranks = split
        declared = by_declarer and any(x.declarer for x in teams[0])
        return self.apply_teams(game, group, teams, ranks,
                                advantage=DECLARER if declared else None)

    def apply_teams(self, game: str, group: str, teams: Sequence[Sequence[Line]],
                    ranks: Sequence[int], advantage: str | None = None) -> list[Change]:
        """Rate teams of lines in ``ranks``; ``advantage``: an entity that plays on the
        first team besides its players (:data:`DECLARER`)."""
        entities = [[entity_of(x) or "" for x in team] for team in teams]
        if advantage is not None:
            entities[0].append(advantage)
        new = rate_teams([[self.get(game, group, e) for e in team] for team in entities],
                         ranks)
        moved: dict[str, tuple[float, float]] = {}
        for team, rated in zip(entities, new, strict=True):
            for e, r in zip(team, rated, strict=True):
                before = self.get(game, group, e)
                dmu, sig = moved.get(e, (0.0, math.inf))
                moved[e] = (dmu + r.mu - before.mu, min(sig, r.sigma))
        changes = []
        seen: list[str] = [e for team in entities for e in team]
        for e in dict.fromkeys(seen):
            if not stored(e):
                continue
            before = self.get(game, group, e)
            dmu, sig = moved[e]
            after = Rating(before.mu + dmu, sig)
            self.table[(game, group, e)] = after
            changes.append(Change(e, game, group, before, after))
        return changes

    def ranked(self, game: str, group: str) -> list[tuple[str, Rating]]:
        """The entities of a group, best shown figure first."""
        rows = [(e, r) for (g, gr, e), r in self.table.items() if g == game and gr == group]
        return sorted(rows, key=lambda er: (-er[1].shown, er[0]))


def lines_of(rows: Iterable[Mapping[str, object]]) -> list[Line]:
    """:class:`Line` objects from ``game_players``-like dicts (extra keys ignored)."""
    keys = Line.__dataclass_fields__
    return [Line(**{k: v for k, v in row.items() if k in keys}) for row in rows]  # type: ignore[arg-type]
