"""The Tagesskat: the same deals for everybody on a day, each played against the same bots,
and its leaderboards (a day's and a week's).

A day's set is a seed drawn at random the first time somebody asks for that day (kept in
the database, never sent out), the rules (Lothar's), the number of games (12: every
position four times) and the bots' level (``easy``).  Whoever plays it gets a private
table of their own: their seat and two bots, the day's seed, so every player of the day
is dealt the same cards in the same positions (the deals follow from the table's seed and
the game's number, the first dealer from the seed too: :mod:`stich.server.sitting`).  One
set per account and day.

**The bots' own result** on the same cards: a table of three bots of the day's level,
dealt from the same seed, the first seat played by a bot too (:func:`reference`); like the
arena's duplicate estimator, a player's **difference** is their Preisskat score minus the
bot's in the same seat on the same cards, so it measures the play, not the cards.

The leaderboards rank by the Preisskat score (Seeger-Fabian, :func:`stich.skat_list.seeger`)
with the DSkV's tie-breaks (more games won, then fewer lost), then the difference; a
week's board adds up each player's finished days of that ISO week.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from stich import games
from stich.skat_list import SeegerLine, seeger

__all__ = [
    "DAILY_GAMES",
    "DAILY_LEVEL",
    "DAILY_PRESET",
    "BoardRow",
    "DailyResult",
    "board",
    "day_of",
    "reference",
    "week_days",
]

DAILY_GAMES = 12
"""Games of a Tagesskat: four rounds at a table of three (every position four times)."""
DAILY_LEVEL = "easy"
"""The bots a Tagesskat is played against (and whose own result it is compared with)."""
DAILY_PRESET = "lothar"
"""The rules of a Tagesskat (Lothar's: Ramsch when all pass)."""


def day_of(at: dt.datetime) -> dt.date:
    """The Tagesskat's day of a moment (the day in UTC)."""
    return at.astimezone(dt.UTC).date()


def week_days(day: dt.date) -> list[dt.date]:
    """The days of the ISO week (Monday to Sunday) that ``day`` is in.

    >>> [d.isoformat() for d in week_days(dt.date(2026, 12, 7))][::6]
    ['2026-12-07', '2026-12-13']
    """
    monday = day - dt.timedelta(days=day.weekday())
    return [monday + dt.timedelta(days=i) for i in range(7)]


@dataclass(frozen=True)
class DailyResult:
    """One played set of a day: who played it (``name``; ``user`` the account, ``guest``
    for a guest account), the seat's :class:`SeegerLine` and the bots' line in the same
    seat on the same cards (``bots``)."""

    day: dt.date
    name: str
    user: int | None
    guest: bool
    line: SeegerLine
    bots: SeegerLine

    @property
    def difference(self) -> int:
        """The Preisskat score minus the bots' own on the same cards."""
        return self.line.score - self.bots.score


@dataclass(frozen=True)
class BoardRow:
    """A line of a leaderboard: ``days`` sets played, their ``score`` (Preisskat) and
    ``bots`` (the bots' on the same cards) added up, ``won`` and ``lost`` as declarer."""

    place: int
    name: str
    guest: bool
    days: int
    score: int
    bots: int
    won: int
    lost: int

    @property
    def difference(self) -> int:
        return self.score - self.bots

    def to_dict(self) -> dict[str, Any]:
        return {"place": self.place, "name": self.name, "guest": self.guest,
                "days": self.days, "score": self.score, "bots": self.bots,
                "difference": self.difference, "won": self.won, "lost": self.lost}


def board(results: Iterable[DailyResult]) -> list[BoardRow]:
    """The leaderboard of these results (one day's, or a week's: a player's days added
    up).  Ranked by the Preisskat score, then more games won, then fewer lost (the DSkV's
    tie-breaks), then the difference to the bots; equal in all of these, equal place.

    >>> line = lambda s, w, l: SeegerLine(s, w, l, 0, s)
    >>> day = dt.date(2026, 12, 7)
    >>> rows = board([DailyResult(day, "Ann", 1, False, line(90, 2, 0), line(40, 1, 0)),
    ...               DailyResult(day, "Ben", 2, False, line(90, 3, 1), line(40, 1, 0)),
    ...               DailyResult(day, "Cid", None, True, line(-10, 0, 1), line(40, 1, 0))])
    >>> [(r.place, r.name, r.score, r.difference) for r in rows]
    [(1, 'Ben', 90, 50), (2, 'Ann', 90, 50), (3, 'Cid', -10, -50)]
    """
    by: dict[tuple[int | None, str], list[DailyResult]] = {}
    for r in results:
        by.setdefault((r.user, r.name if r.user is None else ""), []).append(r)
    rows: list[tuple[int, int, int, int, str, bool, int]] = []
    for rs in by.values():
        last = rs[-1]
        rows.append((sum(r.line.score for r in rs), sum(r.line.won for r in rs),
                     sum(r.line.lost for r in rs), sum(r.bots.score for r in rs),
                     last.name, last.guest, len(rs)))

    def key(r: tuple[int, int, int, int, str, bool, int]) -> tuple[int, int, int, int]:
        return (-r[0], -r[1], r[2], -(r[0] - r[3]))

    rows.sort(key=lambda t: (*key(t), t[4].casefold()))
    out: list[BoardRow] = []
    for i, t in enumerate(rows):
        place = out[-1].place if i and key(rows[i - 1]) == key(t) else i + 1
        out.append(BoardRow(place, t[4], t[5], t[6], t[0], t[3], t[1], t[2]))
    return out


def table_line(scores: Sequence[Sequence[int]], declarers: Sequence[int | None],
               won: Sequence[bool | None], seat: int) -> SeegerLine:
    """The Preisskat line of ``seat`` at a table of three from its games: each game's list
    scores by seat, its declarer's seat (None: Ramsch or passed) and whether he won."""
    n = len(scores[0]) if scores else 3
    totals = [sum(s[i] for s in scores) for i in range(n)]
    w = [sum(1 for d, x in zip(declarers, won, strict=True) if d == i and x)
         for i in range(n)]
    lo = [sum(1 for d, x in zip(declarers, won, strict=True) if d == i and x is False)
          for i in range(n)]
    return seeger(totals, w, lo)[seat]


def reference(settings: dict[str, Any]) -> dict[str, Any]:
    """The bots' own result on a day's cards: a table of three bots of the set's level
    with the same seed (``settings``: a Tagesskat table's stored settings), played to its
    end as the server plays a table.  Returns the games' list scores, declarers and wins
    by seat, and the first seat's Preisskat line (runs in a worker process)."""
    from stich.server.sitting import Sitting, TableSettings

    base = TableSettings.from_dict(settings)
    level = next(s[4:] for s in base.seats if s.startswith("bot:"))
    bots = TableSettings(game=base.game, rules=base.rules, seats=(f"bot:{level}",) * 3,
                         seed=base.seed, games=base.games, public=False,
                         scoring=base.scoring)
    s = Sitting(bots)
    for ev in s.plan_start():
        s.apply(ev)
    bot = games.get(base.game).make_bot(level)
    while not s.over:
        seat = s.to_move_seat()
        assert seat is not None, "a table of bots waits for nobody"
        text = str(bot.choose(s.view(seat), random.Random(s.seed_of(100_000 + s.seq))))
        for ev in s.plan_act(seat, text, by="bot"):
            s.apply(ev)
    lst = s.play.skat_list  # type: ignore[attr-defined]
    assert lst is not None
    line = lst.seeger()[0]
    return {"scores": [list(g.scores) for g in lst.games],
            "declarers": [g.declarer for g in lst.games],
            "won": [g.won for g in lst.games],
            "line": list(line)}
