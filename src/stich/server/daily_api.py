"""The Tagesskat over HTTP (:mod:`stich.server.daily` has what it is):

- ``GET /api/daily`` (``?day=YYYY-MM-DD``, today by default; no day to come): the day's
  set (games, rules in words, the bots' level), the caller's own table of the day, the
  day's and the week's leaderboards, and the bots' own result on the day's cards.  Today's
  results (the day's board, the bots' result, today's part of the week's board) only
  to whoever finished today's set: they say something of today's cards; before that,
  only how many finished it;
- ``POST /api/daily/play``: the caller's table of today (made the first time; the same
  one after that: one set per account and day).

The day's seed never leaves the server; the tables are private (only their player and
whoever has the invite see them, as every private table: their games' pages too), so a
player cannot look at another's cards of the day.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from fastapi import APIRouter, Request

from stich import games
from stich.core import ArgumentError
from stich.present.skat_rules import rules_words
from stich.server import daily
from stich.server.auth import address_of, current_user, require_user
from stich.server.hub import Hub, Loaded
from stich.server.lobby import address_hash, check_quotas, seated_table
from stich.server.rule_sets import request_lang
from stich.server.sitting import TableSettings
from stich.server.store.db import Store, now
from stich.server.store.models import DailyEntry, DailySet, GameRow
from stich.skat_list import SeegerLine

__all__ = ["router"]

router = APIRouter(prefix="/api/daily", tags=["daily"])

BOARD_ROWS = 100
"""Lines of a leaderboard sent (the caller's own line comes too when it is further down)."""
NEXT_AFTER = 30
"""Seconds a day's table shows a game's result before the next deal, unless the player
taps "Weiter" first (the bots do not bid on while the player reads)."""
REFERENCE_SECONDS = 120.0
"""How long the bots' own result of a day may take (a worker process plays it)."""


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _day(text: str | None) -> dt.date:
    """The day asked for (today by default); refused: not a date, or a day to come."""
    today = daily.day_of(now())
    if text is None:
        return today
    try:
        day = dt.date.fromisoformat(text[:10]) if len(text) == 10 else None
    except ValueError:
        day = None
    if day is None or day > today:
        raise ArgumentError("server.daily_day", given=text[:20])
    return day


def settings_of(ds: DailySet) -> TableSettings:
    """The table of a day's set: the player in the first seat, two bots, the day's seed,
    Preisskat scoring, private, no turn clock; after each game it waits for the player's
    "Weiter" (at most :data:`NEXT_AFTER` seconds)."""
    bot = f"bot:{ds.level}"
    return TableSettings(game=games.SKAT.name, rules=ds.rules, seats=("person", bot, bot),
                         seed=ds.seed, games=ds.games, public=False, clock=0, bank=0,
                         next_after=NEXT_AFTER, scoring="seeger")


async def _set(store: Store, day: dt.date, make: bool) -> DailySet | None:
    """The day's set (``make``: drawn now if the day has none yet)."""
    key = day.isoformat()
    fresh = None
    if make:
        rules = str(games.SKAT.parse_rules(daily.DAILY_PRESET))
        fresh = DailySet(day=key, seed=secrets.randbits(63), rules=rules,
                         games=daily.DAILY_GAMES, level=daily.DAILY_LEVEL, reference=None,
                         created_at=now())
    return await store.daily_set(key, fresh)


async def _reference(request: Request, ds: DailySet) -> dict[str, Any]:
    """The bots' own result on the day's cards (played once, in a worker process)."""
    if ds.reference is not None:
        return ds.reference
    hub = _hub(request)
    ref: dict[str, Any] = await hub.workers.analyses.run(
        REFERENCE_SECONDS, daily.reference, settings_of(ds).to_dict())
    await hub.store.daily_reference(ds.day, ref)
    ds.reference = ref
    return ref


async def _results(store: Store, sets: dict[str, DailySet],
                   bots: dict[str, SeegerLine]) -> list[daily.DailyResult]:
    """The finished sets of these days: each entry whose table has all its games."""
    entries = await store.daily_entries(list(sets))
    by_table = {e.table_id: e for e in entries}
    rows = await store.games_of_tables(list(by_table))
    played: dict[str, list[GameRow]] = {}
    for g in rows:
        played.setdefault(g.table_id, []).append(g)
    finished = {t: gs for t, gs in played.items() if len(gs) == sets[by_table[t].day].games}
    players = await store.game_players([g.id for gs in finished.values() for g in gs])
    lines: dict[int, dict[int, Any]] = {}
    for p in players:
        lines.setdefault(p.game_id, {})[p.seat] = p
    users = {e.user_id for e in entries if e.table_id in finished}
    registered = await store.registered(users)
    out = []
    for table_id, gs in finished.items():
        e = by_table[table_id]
        scores, declarers, won = [], [], []
        name = ""
        for g in gs:
            seats = lines.get(g.id, {})
            scores.append([seats[i].score if i in seats else 0 for i in range(3)])
            decl = next((i for i, p in seats.items() if p.declarer), None)
            declarers.append(decl)
            won.append(None if decl is None else seats[decl].won)
            if 0 in seats:
                name = seats[0].name
        line = daily.table_line(scores, declarers, won, 0)
        out.append(daily.DailyResult(dt.date.fromisoformat(e.day), name, e.user_id,
                                     e.user_id not in registered, line, bots[e.day]))
    return out


def _board_json(rows: list[daily.BoardRow], name: str | None) -> list[dict[str, Any]]:
    shown = rows[:BOARD_ROWS]
    if name is not None:
        shown += [r for r in rows[BOARD_ROWS:] if r.name == name]
    return [r.to_dict() for r in shown]


def _line_json(line: SeegerLine) -> dict[str, int]:
    return {"score": line.score, "points": line.points, "won": line.won, "lost": line.lost,
            "others_lost": line.others_lost}


@router.get("")
async def show(request: Request, day: str | None = None) -> dict[str, Any]:
    """A day's Tagesskat: the set, your table, the day's and the week's leaderboards."""
    when = _day(day)
    store = _hub(request).store
    user = await current_user(request)
    today = when == daily.day_of(now())
    ds = await _set(store, when, make=today)
    lang = request_lang(request)
    out: dict[str, Any] = {"day": when.isoformat(), "today": today,
                           "week": [d.isoformat() for d in daily.week_days(when)]}
    if ds is None:  # a day gone by that nobody played
        return {**out, "set": None, "you": None, "board": [], "week_board": [],
                "bots": None, "revealed": True, "finished": 0}
    sets = {ds.day: ds}
    for d in daily.week_days(when):
        if d != when and d <= daily.day_of(now()):
            other = await _set(store, d, make=False)
            if other is not None:
                sets[other.day] = other
    bots: dict[str, SeegerLine] = {}
    for key, s in sets.items():
        if key == ds.day or await store.daily_entries([key]):
            bots[key] = SeegerLine(*(await _reference(request, s))["line"])
    results = await _results(store, {k: sets[k] for k in bots}, bots)
    you = None
    if user is not None:
        entry = await store.daily_entry(ds.day, user.id)
        if entry is not None:
            mine = next((r for r in results if r.user == user.id and r.day == when), None)
            you = {"table": entry.table_id, "finished": mine is not None,
                   "line": None if mine is None else _line_json(mine.line),
                   "difference": None if mine is None else mine.difference}
    name = user.name if user is not None else None
    # today's results say something of today's cards (the bots made +500 on them: good
    # cards in the first seat): only to whoever finished today's set
    reveal = not today or (you is not None and you["finished"])
    days = [r for r in results if r.day == when]
    shown = results if reveal else [r for r in results if r.day != when]
    return {**out,
            "set": {"games": ds.games, "level": ds.level, "rules": ds.rules,
                    "rules_words": rules_words(ds.rules, lang)},
            "you": you,
            "revealed": reveal,
            "finished": len(days),
            "bots": _line_json(bots[ds.day]) if reveal and ds.day in bots else None,
            "board": _board_json(daily.board(days), name) if reveal else [],
            "week_board": _board_json(daily.board(shown), name)}


@router.post("/play")
async def play(request: Request) -> dict[str, Any]:
    """Your table of today's Tagesskat (made the first time you ask)."""
    user = await require_user(request)
    hub = _hub(request)
    store = hub.store
    ds = await _set(store, daily.day_of(now()), make=True)
    assert ds is not None
    entry = await store.daily_entry(ds.day, user.id)
    if entry is None:
        address = address_of(request)
        await check_quotas(request, user, address, bot_table=False)
        settings = settings_of(ds)
        row, events = seated_table(settings, [(0, user.name, user.id)],
                                   created_by=user.id, creator_addr=address_hash(address))
        table_id = row.id
        entry = DailyEntry(day=ds.day, user_id=user.id, table_id=table_id, created_at=now())
        if await store.create_daily_table(entry, row, events):
            await hub.get(table_id, made=Loaded.new(row, settings, events))
        else:  # the same account at the same moment (another tab): its table stands
            entry = await store.daily_entry(ds.day, user.id)
            assert entry is not None
    return {"day": ds.day, "table": entry.table_id, "path": f"/t/{entry.table_id}"}
