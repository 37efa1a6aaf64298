"""Finished games: their records, step-by-step replays, Skat analyses, the Bestenliste,
the Baptistenskat ranking and each player's games.

Only finished games are served here, so their records may show every card.  A game is
addressed by its random key (ids that count up would let anyone walk through them).
The games of a private table are served only to its circle (its players and creator,
or with its invite: ``?invite=…``); to anybody else they do not exist.  The Bestenliste
and the rankings count them, but no list links one for somebody outside.

An analysis is started only by ``POST /api/games/{key}/analysis`` (a request with a side
effect is never a GET: an ``<img>`` on a page of the same site would spend the visitor's
quota, and the Origin check guards POSTs only).  It is computed once per game (the same
request twice waits for the one computation), only for an account (a guest is one),
within the limits per account and address, and refused as busy when several already
wait for the analysis process.  ``GET`` of the same path answers the cached analysis, or
``server.no_analysis`` (404): it never starts one and counts against no quota.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request

from stich import games
from stich.cards import plain_deck
from stich.core import ArgumentError
from stich.present.skat_rules import rules_words
from stich.record import replay
from stich.server import metrics
from stich.server.auth import address_of, current_user, enforce, require_user
from stich.server.limits import Limits, RateLimited
from stich.server.lobby import insider, visible_actor
from stich.server.names import check_name
from stich.server.rule_sets import request_lang, skat_rules_json
from stich.server.store.db import Store
from stich.server.store.models import GamePlayer, GameRow, User
from stich.server.wire import baptisten_view_json, skat_view_json
from stich.skat import SkatState

__all__ = ["period_start", "router"]

router = APIRouter(prefix="/api", tags=["history"])

def period_start(period: str, at: datetime | None = None) -> datetime | None:
    """The first moment of a period filter (None: all time).

    >>> period_start("month", datetime(2026, 11, 30, 15, tzinfo=UTC)).isoformat()
    '2026-11-01T00:00:00+00:00'
    """
    at = at or datetime.now(UTC)
    if period == "year":
        return datetime(at.year, 1, 1, tzinfo=UTC)
    if period == "month":
        return datetime(at.year, at.month, 1, tzinfo=UTC)
    if period == "all":
        return None
    raise ArgumentError("server.bad_period", given=period)


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


async def _registered(request: Request, players: list[GamePlayer]) -> set[int]:
    """The accounts among the players that are registered (a guest has an account too)."""
    return await _store(request).registered({p.user_id for p in players
                                             if p.user_id is not None})


def _player_json(p: GamePlayer, registered: set[int]) -> dict[str, Any]:
    """A player's line of a finished game; ``sat_out`` (only when true): the dealer who
    sat the game out at a Skat table of four (his score 0; the record names him too)."""
    return {"seat": p.seat, "name": p.name, "bot": p.bot,
            "registered": p.user_id in registered,
            "score": p.score, "bilanz": p.bilanz, "declarer": p.declarer, "won": p.won,
            "place": p.place, "standin": p.standin, "counts": p.counts} \
        | ({"sat_out": True} if p.sat_out else {})


def _game_json(g: GameRow, players: list[GamePlayer], registered: set[int]) -> dict[str, Any]:
    return {"id": g.key, "table": g.table_id, "number": g.number, "game": g.game,
            "rules": g.rules, "preset": g.preset, "finished_at": g.finished_at.isoformat(),
            "players": [_player_json(p, registered) for p in players]}


async def _game(request: Request, key: str, invite: str | None) -> GameRow:
    """A finished game, if this request may see it (else: no such game)."""
    found = await _store(request).game(key)
    if found is not None:
        g, table = found
        if table.public:
            return g
        user = await current_user(request)
        if insider(table, invite, user) or (
                user is not None and await _store(request).played_at(user.id, table.id)):
            return g
    raise ArgumentError("server.no_such_game", game=key[:20])


@router.get("/games/{key}")
async def game(key: str, request: Request, invite: str | None = None) -> dict[str, Any]:
    """A finished game: who played, the result, and its record (docs/records.md)."""
    g = await _game(request, key, invite)
    players = await _store(request).game_players([g.id])
    return {"game": _game_json(g, players, await _registered(request, players)),
            "record": g.record}


@router.get("/tables/{table_id}/games")
async def table_games(table_id: str, request: Request,
                      invite: str | None = None) -> dict[str, Any]:
    """The finished games of a table (a table one may see), in their order there."""
    actor, _ = await visible_actor(request, table_id, invite, await current_user(request))
    store = _store(request)
    games = await store.table_games(actor.id)
    players = await store.game_players([g.id for g in games])
    by_game: dict[int, list[GamePlayer]] = {}
    for p in players:
        by_game.setdefault(p.game_id, []).append(p)
    registered = await _registered(request, players)
    return {"table": actor.id,
            "games": [_game_json(g, by_game.get(g.id, []), registered) for g in games]}


@router.get("/games/{key}/replay")
async def replay_game(key: str, request: Request, invite: str | None = None) -> dict[str, Any]:
    """The game step by step: after each action every hand, the trick and the tricks."""
    g = await _game(request, key, invite)
    return {"game": g.key, "steps": replay_steps(g.record)}


def replay_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every position of a finished game, with all hands open; each step says who made
    its action (``by``: ``standin`` or ``clock`` when not the player herself)."""
    state: Any = replay({**record, "actions": [], "result": None}, check_result=False)
    deck = None if isinstance(state, SkatState) else plain_deck(state.rules.deck)
    by = {int(i): kind for kind in ("standin", "clock") for i in record.get(kind, [])}
    steps = [_step(state, deck, None, None)]
    for i, text in enumerate(record["actions"]):
        seat = state.to_move
        state = state.apply(state.parse_action(text))
        steps.append(_step(state, deck, seat, text) | {"by": by.get(i)})
    return steps


def _step(state: Any, deck: Any, seat: int | None, text: str | None) -> dict[str, Any]:
    if deck is None:
        return _skat_step(state, seat, text)
    return _baptisten_step(state, deck, seat, text)


def _skat_step(state: SkatState, seat: int | None, text: str | None) -> dict[str, Any]:
    views = [state.view(p) for p in range(3)]
    out = skat_view_json(views[0], public=True)
    out["hands"] = [skat_view_json(v)["hand"] for v in views]
    out.update(actor=seat, action=text)
    return out


def _baptisten_step(state: Any, deck: Any, seat: int | None,
                    text: str | None) -> dict[str, Any]:
    views = [state.view(p) for p in range(state.players)]
    out = baptisten_view_json(views[0], deck, public=True)
    out["hands"] = [[deck.cards[i].code for i in range(deck.size) if state.hands[p] >> i & 1]
                    for p in range(state.players)]
    out.update(actor=seat, action=text)
    return out


ANALYSIS_VERSION = "v3"
"""The key analyses are cached under (the store's ``lang`` column): v2 marks mistakes by
the game's worth (``mistake``, ``cost``); v3 counts Kontra, Re and Bock in every worth
and cost and judges a game ended by a claim on its cards; the analyses cached before it
are not served."""


async def _skat_game(request: Request, key: str, invite: str | None) -> GameRow:
    """A finished game this request may see, which must be a Skat game (the analysis is
    the Skat solver's)."""
    g = await _game(request, key, invite)
    if not games.get(g.game).analysable:
        raise ArgumentError("server.not_skat")
    return g


@router.get("/games/{key}/analysis")
async def analysis(key: str, request: Request, invite: str | None = None) -> dict[str, Any]:
    """The open-card analysis of a finished Skat game, if one was made (``POST`` makes
    it): never starts one, so it needs no account and counts against no quota.  None yet:
    ``server.no_analysis`` (404)."""
    g = await _skat_game(request, key, invite)
    cached = await _store(request).analysis(g.id, ANALYSIS_VERSION)
    if cached is None:
        raise ArgumentError("server.no_analysis")
    return {"game": g.key, "cached": True, "analysis": cached}


@router.post("/games/{key}/analysis")
async def analyse(key: str, request: Request, invite: str | None = None) -> dict[str, Any]:
    """Start (or join) the open-card analysis of a finished Skat game (``stich
    analyze``) and answer it: computed once in the worker pool, then cached.  Starting
    one needs an account and counts against the quotas; a cached one is free."""
    g = await _skat_game(request, key, invite)
    store = _store(request)
    cached = await store.analysis(g.id, ANALYSIS_VERSION)
    if cached is not None:
        return {"game": g.key, "cached": True, "analysis": cached}
    running: dict[int, asyncio.Task[dict[str, Any]]] = request.app.state.analysing
    task = running.get(g.id)
    if task is None:
        user = await require_user(request)
        limits: Limits = request.app.state.limits
        workers = request.app.state.workers
        if limits.analyses_waiting and workers.analyses.waiting >= limits.analyses_waiting:
            raise RateLimited("server.busy", 30)
        await enforce(request, f"user:{user.id}", "account_analyses_per_hour", 3600)
        await enforce(request, address_of(request), "analyses_per_hour", 3600)
        task = running.get(g.id)  # another asker may have started it meanwhile
        if task is None:  # (no await from here until it is registered)
            task = asyncio.ensure_future(_analyse(store, workers, g))
            running[g.id] = task
            task.add_done_callback(lambda _: running.pop(g.id, None))
    result = await asyncio.shield(task)  # one asker leaving does not stop the others'
    return {"game": g.key, "cached": False, "analysis": result}


async def _analyse(store: Store, workers: Any, g: GameRow) -> dict[str, Any]:
    result: dict[str, Any] = await workers.analysis(g.record)
    metrics.ANALYSES.inc()
    await store.save_analysis(g.id, ANALYSIS_VERSION, result)
    return result


@router.get("/bestenliste")
async def bestenliste(request: Request, preset: str = "lothar", period: str = "all",
                      rules: str | None = None, order: str = "bilanz") -> dict[str, Any]:
    """Registered players over all their Skat games of a preset (``lothar`` or
    ``isko``), or with ``rules`` of exactly that rule string (house rules: games under
    other house rules are never mixed in): Punktestand, Bilanz, games played, games sat
    out at a table of four (``sat_out``, only when not 0), declarer games won and lost;
    ``period``: ``all``, ``year`` or ``month``.  Ranked by Bilanz, or with ``order=rating``
    by the rating (``ratings``: per listed player's name ``rating`` and ``sigma``, a
    player not rated yet missing: docs/ratings.md); ``bots``: the bots' ratings under the
    same rules.
    ``house_rules``: the other rule strings games were played under, with their words
    and number of games (most first), to choose from."""
    if preset not in ("lothar", "isko", "custom"):
        raise ArgumentError("server.bad_preset", given=preset[:40])
    if order not in ORDERS:
        raise ArgumentError("server.bad_order", given=order[:40])
    since = period_start(period)
    lang = request_lang(request)
    store = _store(request)
    chosen: dict[str, Any] = {}
    if rules is not None:
        if len(rules) > 200:
            raise ArgumentError("server.bad_message", reason="rules: at most 200 characters")
        chosen = skat_rules_json(rules, lang)
        preset = chosen["preset"]
        rows = await store.skat_ranking(preset, since,
                                        rules=chosen["rules"] if preset == "custom" else None)
    elif preset == "custom":
        raise ArgumentError("server.custom_needs_rules")
    else:
        rows = await store.skat_ranking(preset, since)
    ratings = await _with_ratings(store, rows, chosen.get("rules") or f"skat(preset={preset})",
                                  order)
    for i, r in enumerate(rows, start=1):
        r["rank"] = i
    others = [{"rules": text, "games": n, "words": rules_words(text, lang),
               "short": rules_words(text, lang, short=True)}
              for text, n in await store.skat_house_rules(since)]
    out = {"preset": preset, "period": period, "order": order, "players": rows,
           "ratings": ratings, "house_rules": others,
           "bots": await _bot_lines(store, chosen.get("rules") or f"skat(preset={preset})")}
    if chosen:
        out |= {"rules": chosen["rules"], "words": chosen["words"]}
    return out


ORDERS = ("bilanz", "rating")


async def _with_ratings(store: Store, rows: list[dict[str, Any]], rules: str,
                        order: str) -> dict[str, dict[str, float]]:
    """The listed players' ratings in the rules' group by name (``rating`` = mu − 3σ,
    ``sigma``; a player not rated yet is missing; all time, whatever the period:
    docs/ratings.md); the rows put in ``order`` (``rating``: best rating first, the
    unrated last)."""
    from stich.ratings import group_of
    from stich.server.store.ratings import group_ratings

    rated = {r["name"]: r for e, r in
             (await group_ratings(store, games.SKAT.name,
                                  group_of(games.SKAT.name, rules))).items()
             if e.startswith("user:")}
    out = {row["name"]: {"rating": round(r["mu"] - 3 * r["sigma"], 1),
                         "sigma": round(r["sigma"], 2)}
           for row in rows if (r := rated.get(row["name"])) is not None}
    if order == "rating":
        rows.sort(key=lambda row: (row["name"] not in out,
                                   -out.get(row["name"], {"rating": 0.0})["rating"],
                                   row["name"].casefold()))
    return out


async def _bot_lines(store: Store, rules: str) -> list[dict[str, Any]]:
    """The bots' ratings in the rules' group, weakest level first (the yardstick: "plays
    like ``strong``")."""
    from stich.ratings import group_of
    from stich.server.store.ratings import bot_ratings

    bots = await bot_ratings(store, games.SKAT.name, group_of(games.SKAT.name, rules))
    return [{"level": lv, "rating": round(bots[lv]["mu"] - 3 * bots[lv]["sigma"], 1),
             "sigma": round(bots[lv]["sigma"], 2), "games": bots[lv]["games"]}
            for lv in games.SKAT.bot_levels if lv in bots]


@router.get("/baptisten/ranking")
async def baptisten_ranking(request: Request, period: str = "all") -> dict[str, Any]:
    """Finished Baptistenskat games (newest first, with each player's total and place),
    and per registered player: games, wins, average place and an openskill rating."""
    since = period_start(period)
    games = await _store(request).baptisten_games(since)  # the ratings count every game
    shown = await _store(request).baptisten_games(since, public_only=True)
    registered = await _registered(request, [p for _, ps in games for p in ps])
    return {"period": period, "players": rate_players(games, registered),
            "games": [_game_json(g, ps, registered) for g, ps in shown]}


def rate_players(games: list[tuple[GameRow, list[GamePlayer]]],
                 registered: set[int]) -> list[dict[str, Any]]:
    """Per registered player over finished games (newest first, as listed): games,
    wins, average place, and a rating from the places over these games (the period's),
    as :mod:`stich.ratings` rates Baptistenskat (Plackett-Luce, mu − 3σ)."""
    from stich.ratings import Line, Ratings, user_entity

    book = Ratings()
    stats: dict[int, dict[str, Any]] = {}
    for g, players in reversed(games):
        # a place a stand-in played for a person is the stand-in's (a bot's): it counts
        # for the others' ratings, not for hers (docs/server.md, "Whose game was it")
        for p in players:
            if p.user_id is not None and p.user_id in registered and p.counts:
                st = stats.setdefault(p.user_id, {"name": p.name, "games": 0,
                                                  "wins": 0, "places": 0})
                st["games"] += 1
                st["wins"] += p.place == 1
                st["places"] += p.place or 0
        book.apply(BAPTISTEN_GAME, g.rules or "", [Line(seat=p.seat, user_id=p.user_id, bot=p.bot,
                                          place=p.place, counts=p.counts) for p in players],
                   group="period")
    out = []
    for uid, st in stats.items():
        r = book.table.get((BAPTISTEN_GAME, "period", user_entity(uid)))
        out.append({"name": st["name"], "games": st["games"], "wins": st["wins"],
                    "average_place": round(st["places"] / st["games"], 2),
                    "rating": round(r.shown, 2) if r is not None else None})
    out.sort(key=lambda r: (-(r["rating"] or 0), r["name"].casefold()))
    return out


BAPTISTEN_GAME = games.BAPTISTEN.name


@router.get("/users/{name}")
async def player(name: str, request: Request, limit: int = 50,
                 offset: int = 0) -> dict[str, Any]:
    """A player's page: their Skat figures per preset and their latest games (those of
    private tables only for a viewer who played there too)."""
    store = _store(request)
    try:
        user: User | None = await store.user_by_key(check_name(name)[1])
    except ArgumentError:
        user = None
    if user is None or user.guest:
        raise ArgumentError("server.no_such_player", name=name[:40])
    viewer = await current_user(request)
    limit = max(1, min(limit, 200))
    rows = await store.user_games(user.id, viewer.id if viewer else None, limit=limit,
                                  offset=max(0, offset))
    players = await store.game_players([g.id for g, _ in rows])
    by_game: dict[int, list[GamePlayer]] = {}
    for p in players:
        by_game.setdefault(p.game_id, []).append(p)
    registered = await _registered(request, players)
    skat = {}
    for preset in ("lothar", "isko"):
        ranking = await store.skat_ranking(preset, None)
        skat[preset] = next((r for r in ranking if r["name"] == user.name), None)
    from stich.server.player_stats import player_ratings, player_stats

    return {"name": user.name, "skat": skat,
            # per game and rule group, with its history (docs/ratings.md)
            "ratings": await player_ratings(store, user.id, request_lang(request)),
            "stats": await player_stats(store, user.id),
            "games": [_game_json(g, by_game.get(g.id, []), registered) | {"you": me.seat}
                      for g, me in rows]}
