"""The stored ratings (migration 0008, issue 43) on SQLite and PostgreSQL: the games stored
before the migration are rated by it; every game stored afterwards moves the ratings in
the transaction that stores it; a lost race stores no rating; the rebuild (``stich admin
ratings --rebuild``) gives exactly the ratings and the history the games wrote one by
one, and both equal an independent run of :class:`stich.ratings.Ratings` over the games
in the order they were stored."""

from __future__ import annotations

import asyncio
import random
import uuid
from datetime import UTC, datetime
from importlib import resources
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine

from stich.ratings import DECLARER, Ratings, lines_of
from stich.server.sitting import Event
from stich.server.store.admin import rebuild_ratings
from stich.server.store.db import NewGame, Store, migrate, sync_url
from stich.server.store.ratings import current, rate_stored_game
from tests.server.conftest import DB_KINDS

TS = sa.DateTime(timezone=True)
USERS = sa.table("users", sa.column("id", sa.Integer()), sa.column("name", sa.String()),
                 sa.column("name_key", sa.String()), sa.column("look_key", sa.String()),
                 sa.column("guest", sa.Boolean()), sa.column("created_at", TS))
TABLES = sa.table("tables", sa.column("id", sa.String()), sa.column("game", sa.String()),
                  sa.column("rules", sa.String()), sa.column("settings", sa.JSON()),
                  sa.column("invite", sa.String()), sa.column("public", sa.Boolean()),
                  sa.column("status", sa.String()), sa.column("created_at", TS),
                  sa.column("seq", sa.Integer()), sa.column("summary", sa.JSON()))
GAMES = sa.table("games", sa.column("id", sa.Integer()), sa.column("key", sa.String()),
                 sa.column("table_id", sa.String()), sa.column("number", sa.Integer()),
                 sa.column("game", sa.String()), sa.column("rules", sa.String()),
                 sa.column("preset", sa.String()), sa.column("record", sa.JSON()),
                 sa.column("finished_at", TS))
LINES = sa.table("game_players", sa.column("game_id", sa.Integer()),
                 sa.column("seat", sa.Integer()), sa.column("user_id", sa.Integer()),
                 sa.column("name", sa.String()), sa.column("bot", sa.String()),
                 sa.column("score", sa.Integer()), sa.column("bilanz", sa.Integer()),
                 sa.column("declarer", sa.Boolean()), sa.column("won", sa.Boolean()),
                 sa.column("place", sa.Integer()), sa.column("standin", sa.Boolean()),
                 sa.column("counts", sa.Boolean()), sa.column("sat_out", sa.Boolean()))
SKAT_RULES = ("skat(preset=lothar)", "skat(preset=isko)", "skat(preset=lothar,kontra=true)")
PEOPLE = (1, 2, 3, 4)


def _upgrade(url: str, revision: str) -> None:
    engine = create_engine(sync_url(url))
    with engine.begin() as conn:
        cfg = Config()
        cfg.set_main_option("script_location",
                            str(resources.files("stich.server.store") / "migrations"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
    engine.dispose()


def made_up(rng: random.Random) -> tuple[str, str, list[dict[str, Any]]]:
    """A finished game's (game, rules, lines): Skat at three or four seats (a declarer's
    game, a Ramsch, a game passed in), now and then a seat a stand-in played, or a
    Baptistenskat table's places; people and bots of every level."""
    if rng.random() < 0.15:
        n = rng.choice((3, 4))
        who = rng.sample([*PEOPLE, None, None], n)
        places = list(range(1, n + 1))
        rng.shuffle(places)
        return "baptisten", "baptisten(preset=default)", [
            _line(s, who[s], rng) | {"place": places[s]} for s in range(n)]
    n = rng.choice((3, 3, 4))
    who = rng.sample([*PEOPLE, None, None], n)
    lines = [_line(s, who[s], rng) for s in range(n)]
    if n == 4:
        lines[rng.randrange(4)]["sat_out"] = True
    playing = [x for x in lines if not x["sat_out"]]
    kind = rng.random()
    if kind < 0.75:
        d = rng.choice(playing)
        d["declarer"], d["won"] = True, rng.random() < 0.6
        d["score"] = rng.choice((-96, -48, 23, 48, 120)) * (1 if d["won"] else -1)
    elif kind < 0.9:
        rng.choice(playing)["score"] = -rng.choice((10, 30, 61))
    return "skat", rng.choice(SKAT_RULES), lines


def _line(seat: int, user: int | None, rng: random.Random) -> dict[str, Any]:
    counts = user is None or rng.random() > 0.1
    return {"seat": seat, "user_id": user, "name": f"P{user}" if user else "Bot",
            "bot": None if user else rng.choice(("random", "easy", "strong", "heuristic")),
            "score": 0, "bilanz": 0, "declarer": False, "won": None, "place": None,
            "standin": not counts, "counts": counts, "sat_out": False}


def independent(games: list[tuple[str, str, list[dict[str, Any]]]]
                ) -> dict[tuple[str, str, str], tuple[float, float, int]]:
    book, n = Ratings(), {}
    for game, rules, lines in games:
        for c in book.apply(game, rules, lines_of(lines)):
            key = (c.game, c.group, c.entity)
            n[key] = n.get(key, 0) + 1
    return {k: (r.mu, r.sigma, n[k]) for k, r in book.table.items()}


def _history(url: str) -> list[tuple[Any, ...]]:
    engine = create_engine(sync_url(url))
    with engine.connect() as conn:
        rows = [tuple(r) for r in conn.execute(sa.text(
            "SELECT game_id, game, rule_group, entity, user_id, mu_before, sigma_before,"
            " mu, sigma FROM rating_history ORDER BY game_id, entity"))]
    engine.dispose()
    return rows


def _current(url: str) -> dict[tuple[str, str, str], tuple[float, float, int]]:
    engine = create_engine(sync_url(url))
    with engine.connect() as conn:
        out = current(conn)
    engine.dispose()
    return out


@pytest.mark.parametrize("kind", DB_KINDS)
def test_stored_ratings_equal_the_rebuild_and_an_independent_run(kind: str,
                                                                  tmp_db: Any) -> None:
    rng = random.Random(43)
    before = [made_up(rng) for _ in range(40)]
    after = [made_up(rng) for _ in range(40)]
    at = datetime.now(UTC)
    with tmp_db(kind) as url:
        _upgrade(url, "0007")
        engine = create_engine(sync_url(url))
        with engine.begin() as conn:
            conn.execute(sa.insert(USERS), [
                {"id": u, "name": f"P{u}", "name_key": f"p{u}", "look_key": f"p{u}",
                 "guest": u == 4, "created_at": at} for u in PEOPLE])
            conn.execute(sa.insert(TABLES), [
                {"id": t, "game": "skat", "rules": "skat(preset=lothar)", "settings": {},
                 "invite": "x", "public": True, "status": "running", "created_at": at,
                 "seq": 0, "summary": {}} for t in ("old", "new")])
            for number, (game, rules, lines) in enumerate(before, start=1):
                game_id = conn.execute(sa.insert(GAMES).returning(GAMES.c.id), {
                    "key": uuid.uuid4().hex[:12], "table_id": "old", "number": number,
                    "game": game, "rules": rules, "preset": "x", "record": {},
                    "finished_at": at}).scalar_one()
                conn.execute(sa.insert(LINES), [{"game_id": game_id, **x} for x in lines])
        engine.dispose()
        migrate(url)  # 0008 rates the games stored before
        assert _current(url) == independent(before)

        async def store_more() -> tuple[bool, list[Any]]:
            store = Store(url)
            try:
                for number, (game, rules, lines) in enumerate(after, start=1):
                    ok = await store.append(
                        "new", [Event(seq=number, kind="chat", seat=None, data={})],
                        status="running", summary={},
                        games=[NewGame(number=number, game=game, rules=rules, preset="x",
                                       record={}, players=lines)])
                    assert ok
                # a lost race (the number taken): neither the game nor a rating
                lost = await store.append(
                    "new", [Event(seq=1, kind="chat", seat=None, data={})],
                    status="running", summary={},
                    games=[NewGame(number=999, game=after[0][0], rules=after[0][1],
                                   preset="x", record={}, players=after[0][2])])
                # the same game rated again (a retry): nothing moves twice
                async with store.engine.begin() as conn:
                    game_id = (await conn.execute(sa.text(
                        "SELECT max(id) FROM games"))).scalar_one()
                    again = await conn.run_sync(rate_stored_game, game_id, after[-1][0],
                                                after[-1][1], after[-1][2], at)
                return lost, again
            finally:
                await store.close()

        lost, again = asyncio.run(store_more())
        assert lost is False and again == []
        incremental, history = _current(url), _history(url)
        assert incremental == independent(before + after)
        assert any(e == "bot:easy" for _, _, e in incremental)  # the stand-ins' and easy's
        assert not any(e == "bot:heuristic" for _, _, e in incremental)
        assert {g for g, _, _ in incremental} == {"skat", "baptisten"}
        assert {gr for _, gr, _ in incremental} >= {"lothar", "isko", "default",
                                                    "skat(preset=lothar,kontra=true)"}

        async def rebuild() -> tuple[int, int]:
            store = Store(url)
            try:
                return await rebuild_ratings(store)
            finally:
                await store.close()

        games, kept = asyncio.run(rebuild())
        assert kept == len(incremental) and 0 < games <= len(before) + len(after)
        assert _current(url) == incremental
        assert _history(url) == history


@pytest.mark.parametrize("kind", DB_KINDS)
def test_a_deleted_account_takes_its_ratings_along(kind: str, tmp_db: Any) -> None:
    at = datetime.now(UTC)
    lines = [{"seat": 0, "user_id": 1, "name": "A", "bot": None, "score": 48, "bilanz": 0,
              "declarer": True, "won": True, "place": None, "standin": False,
              "counts": True, "sat_out": False},
             *({"seat": s, "user_id": None, "name": "Bot", "bot": "easy", "score": 0,
                "bilanz": 0, "declarer": False, "won": None, "place": None,
                "standin": False, "counts": True, "sat_out": False} for s in (1, 2))]
    with tmp_db(kind) as url:
        migrate(url)
        engine = create_engine(sync_url(url))
        with engine.begin() as conn:
            conn.execute(sa.insert(USERS), [{"id": 1, "name": "A", "name_key": "a",
                                             "look_key": "a", "guest": False,
                                             "created_at": at}])
            conn.execute(sa.insert(TABLES), [{
                "id": "t", "game": "skat", "rules": "skat(preset=lothar)", "settings": {},
                "invite": "x", "public": True, "status": "running", "created_at": at,
                "seq": 0, "summary": {}}])
        engine.dispose()

        async def go() -> None:
            store = Store(url)
            try:
                assert await store.append(
                    "t", [Event(seq=1, kind="chat", seat=None, data={})], status="over",
                    summary={}, games=[NewGame(number=1, game="skat",
                                               rules="skat(preset=lothar)", preset="lothar",
                                               record={}, players=lines)])
                assert ("skat", "lothar", "user:1") in _current(url)
                await store.delete_user(1, "(deleted)")
            finally:
                await store.close()

        asyncio.run(go())
        assert set(_current(url)) == {("skat", "lothar", "bot:easy"),
                                      ("skat", "lothar", DECLARER)}
        assert {row[3] for row in _history(url)} == {"bot:easy", DECLARER}


def test_the_rebuild_command(tmp_db: Any) -> None:
    from typer.testing import CliRunner

    from stich.cli import app

    with tmp_db("sqlite") as url:
        migrate(url)
        out = CliRunner().invoke(app, ["admin", "ratings", "--rebuild", "--db", url,
                                       "--lang", "en"])
        assert out.exit_code == 0, out.output
        assert "ratings rebuilt from 0 games: 0 ratings" in out.output
        out = CliRunner().invoke(app, ["admin", "ratings", "--db", url, "--lang", "de"])
        assert out.exit_code == 2 and "--rebuild" in out.output
