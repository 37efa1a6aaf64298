"""Ratings that cannot be moved never keep a game from being stored (issue 43).

The database refuses every row of the ratings' history (a trigger: as a mistake of ours
in the ratings step would): the table's game is stored all the same, with its lines, the
table goes on to its end, nobody is told "not saved", and the server's log says which
game went unrated and how to rate it (``stich admin ratings --rebuild``).  Once the
trigger is gone, that command rates it.  SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from stich.server.store.db import sync_url
from tests.server.conftest import DB_KINDS
from tests.server.harness import Client, Server, database
from tests.server.proto_helpers import uid
from tests.server.test_history import play

PG_REFUSE = """
CREATE FUNCTION stich_refuse_ratings() RETURNS trigger AS $$
BEGIN RAISE EXCEPTION 'no ratings today'; END $$ LANGUAGE plpgsql;
CREATE TRIGGER stich_refuse_ratings BEFORE INSERT ON rating_history FOR EACH ROW
EXECUTE FUNCTION stich_refuse_ratings();
"""
SQLITE_REFUSE = """
CREATE TRIGGER stich_refuse_ratings BEFORE INSERT ON rating_history
BEGIN SELECT RAISE(ABORT, 'no ratings today'); END;
"""


@contextlib.contextmanager
def refusing_ratings(url: str) -> Iterator[None]:
    """The ratings' history refuses every row while inside."""
    if url.startswith("sqlite"):
        path = url.removeprefix("sqlite:///")
        with contextlib.closing(sqlite3.connect(path)) as conn:
            conn.executescript(SQLITE_REFUSE)
        try:
            yield
        finally:
            with contextlib.closing(sqlite3.connect(path)) as conn:
                conn.executescript("DROP TRIGGER stich_refuse_ratings;")
    else:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(PG_REFUSE)
        try:
            yield
        finally:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("DROP TRIGGER stich_refuse_ratings ON rating_history")
                conn.execute("DROP FUNCTION stich_refuse_ratings()")


def _count(url: str, sql: str, **params: Any) -> int:
    engine = sa.create_engine(sync_url(url))
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text(sql), params).scalar_one())
    finally:
        engine.dispose()


@pytest.mark.parametrize("kind", DB_KINDS)
def test_a_game_is_stored_when_its_ratings_cannot_move(
        kind: str, tmp_path: Path, run: Callable[..., Any]) -> None:
    with database(kind, tmp_path) as url:
        srv = Server(url, bot_delay=0.0)
        srv.start(60)
        try:
            people = [Client(srv) for _ in range(3)]
            for c in people:
                c.register(uid("R"))
            t = people[0].create(game="skat", preset="isko", games=3,
                                 seats=["me", "person", "person"])
            tid = t["table"]["id"]
            for c in people[1:]:
                r = c.post(f"/api/tables/{tid}/join", {"invite": t["invite"]})
                assert r.status_code == 200, r.text

            async def story() -> list[dict[str, Any]]:
                sockets = [await c.connect(tid) for c in people]
                # every game is played by a declarer (a pass-in is dealt again):
                # each one moves the declarer's role at least
                await play(sockets, random.Random(11))
                errors = [m for ws in sockets for m in ws.messages if m["type"] == "error"]
                for ws in sockets:
                    await ws.close()
                return errors

            with refusing_ratings(url):
                errors = run(story())
            assert all(m["code"] == "server.stale" for m in errors), errors
            assert people[0].get(f"/api/tables/{tid}").json()["table"]["status"] == "over"
            games = _count(url, "SELECT count(*) FROM games WHERE table_id = :t", t=tid)
            lines = _count(url, "SELECT count(*) FROM game_players p JOIN games g "
                                "ON g.id = p.game_id WHERE g.table_id = :t", t=tid)
            assert (games, lines) == (3, 9)
            assert _count(url, "SELECT count(*) FROM rating_history") == 0
            assert _count(url, "SELECT count(*) FROM ratings") == 0
            log = "".join(srv.stderr)
            assert log.count("is stored without moving the ratings") == 3, log[-3000:]
            assert "stich admin ratings --rebuild" in log
        finally:
            srv.stop()
        # the command the log names rates them
        from typer.testing import CliRunner

        from stich.cli import app

        out = CliRunner().invoke(app, ["admin", "ratings", "--rebuild", "--db", url,
                                       "--lang", "en"])
        assert out.exit_code == 0, out.output
        assert "ratings rebuilt from 3 games" in out.output
        assert _count(url, "SELECT count(*) FROM rating_history") > 0
