"""Migration 0009 (issue 43, tournaments) on SQLite and PostgreSQL: it makes the three
tables of tournaments on a database at 0008 with games stored, which stay as they were;
a tournament's rows refer to a table and an account; a downgrade drops them all and an
upgrade makes them again."""

from __future__ import annotations

from datetime import UTC, datetime
from importlib import resources
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, inspect

from stich.server.store.db import sync_url
from tests.server.conftest import DB_KINDS

NEW = {"tournaments", "tournament_players", "tournament_tables"}


def _to(url: str, revision: str, down: bool = False) -> None:
    engine = create_engine(sync_url(url))
    with engine.begin() as conn:
        cfg = Config()
        cfg.set_main_option("script_location",
                            str(resources.files("stich.server.store") / "migrations"))
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, revision)
    engine.dispose()


def _tables(url: str) -> set[str]:
    engine = create_engine(sync_url(url))
    try:
        with engine.connect() as conn:
            return set(inspect(conn).get_table_names())
    finally:
        engine.dispose()


@pytest.mark.parametrize("kind", DB_KINDS)
def test_0009_up_down_up(kind: str, tmp_db: Any) -> None:
    at = datetime(2026, 12, 7, tzinfo=UTC)
    with tmp_db(kind) as url:
        _to(url, "0008")
        assert not NEW & _tables(url)
        engine = create_engine(sync_url(url))
        with engine.begin() as conn:
            conn.execute(sa.text(
                "INSERT INTO users (id, name, name_key, look_key, guest, created_at) "
                "VALUES (1, 'Anna', 'anna', 'anna', false, :at)"), {"at": at})
            conn.execute(sa.text(
                "INSERT INTO tables (id, game, rules, settings, invite, public, status, "
                "created_at, seq, summary) VALUES ('T1', 'skat', 'skat(preset=isko)', "
                "'{}', 'inv', false, 'over', :at, 0, '{}')"), {"at": at})
        _to(url, "0009")
        assert _tables(url) >= NEW
        with engine.begin() as conn:
            conn.execute(sa.text(
                "INSERT INTO tournaments (id, name, organiser, settings, invite, public, "
                "status, round, version, created_at, updated_at) VALUES ('X1', 'Abend', 1, "
                "'{}', 'inv', true, 'running', 1, 3, :at, :at)"), {"at": at})
            conn.execute(sa.text(
                "INSERT INTO tournament_players (tournament_id, user_id, name, status, "
                "number, created_at) VALUES ('X1', 1, 'Anna', 'registered', 1, :at)"),
                {"at": at})
            conn.execute(sa.text(
                "INSERT INTO tournament_tables (tournament_id, round, number, table_id, "
                "seats, games) VALUES ('X1', 1, 1, 'T1', '[1, null, null]', 36)"))
            with pytest.raises(sa.exc.IntegrityError), conn.begin_nested():
                conn.execute(sa.text(  # one line per account and tournament
                    "INSERT INTO tournament_players (tournament_id, user_id, name, status, "
                    "number, created_at) VALUES ('X1', 1, 'Anna', 'registered', 2, :at)"),
                    {"at": at})
            row = conn.execute(sa.text("SELECT paused, done FROM tournaments, "
                                       "tournament_tables")).one()
            assert (bool(row[0]), bool(row[1])) == (False, False)  # the defaults
        engine.dispose()
        _to(url, "0008", down=True)
        assert not NEW & _tables(url)
        assert "tables" in _tables(url)
        _to(url, "head")
        assert _tables(url) >= NEW
