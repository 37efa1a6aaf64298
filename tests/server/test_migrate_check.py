"""The start's migration check: a database at the newest revision is recognised without
loading Alembic; the newest revision read from the migration files is Alembic's head.
The models are the schema the migrations make, and migration 0003 gives every name its
keys."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine

from stich.server.names import look_key, name_key
from stich.server.store.db import _head, migrate, sync_url
from stich.server.store.models import Base
from tests.server.conftest import DB_KINDS

TS = sa.DateTime(timezone=True)


def test_the_head_read_from_the_files_is_alembics() -> None:
    cfg = Config()
    cfg.set_main_option("script_location",
                        str(resources.files("stich.server.store") / "migrations"))
    assert [_head()] == ScriptDirectory.from_config(cfg).get_heads()


def migrate_in_a_new_process(url: str) -> tuple[bool, list[str]]:
    """Migrate; whether Alembic was loaded, and the tables there are afterwards."""
    code = ("import sys, sqlalchemy as sa\n"
            "from stich.server.store.db import migrate, sync_url\n"
            f"migrate({url!r})\n"
            "print('alembic' in sys.modules)\n"
            f"print(' '.join(sorted(sa.inspect(sa.create_engine(sync_url({url!r})))"
            ".get_table_names())))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    return out[0] == "True", out[1].split()


def test_an_up_to_date_database_is_not_migrated_again(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    loaded, tables = migrate_in_a_new_process(url)
    assert loaded and "events" in tables and "alembic_version" in tables
    loaded, tables_again = migrate_in_a_new_process(url)
    assert not loaded and tables_again == tables


@pytest.mark.parametrize("kind", DB_KINDS)
def test_the_models_are_the_schema_the_migrations_make(kind: str, tmp_db: Any) -> None:
    """``store/models.py`` and the migrations describe one schema (Alembic's comparison
    finds no difference, types included)."""
    with tmp_db(kind) as url:
        migrate(url)
        engine = create_engine(sync_url(url))
        try:
            with engine.connect() as conn:
                context = MigrationContext.configure(conn, opts={"compare_type": True})
                differences = compare_metadata(context, Base.metadata)
        finally:
            engine.dispose()
    assert differences == []


def _at_revision(url: str, revision: str) -> None:
    engine = create_engine(sync_url(url))
    with engine.begin() as conn:
        cfg = Config()
        cfg.set_main_option("script_location",
                            str(resources.files("stich.server.store") / "migrations"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
    engine.dispose()


@pytest.mark.parametrize("kind", DB_KINDS)
def test_the_accounts_migration_gives_every_name_its_keys(kind: str, tmp_db: Any) -> None:
    """Migration 0003 (issue 38) computes registered players' keys anew (a key now
    another's gets the account's id appended); guests made before hold no name (their
    random keys stay, a live session or not)."""
    users = sa.table("users", sa.column("id", sa.Integer()), sa.column("name", sa.String()),
                     sa.column("name_key", sa.String()), sa.column("password_hash", sa.String()),
                     sa.column("guest", sa.Boolean()), sa.column("created_at", TS))
    sessions = sa.table("sessions", sa.column("token_hash", sa.String()),
                        sa.column("user_id", sa.Integer()), sa.column("created_at", TS),
                        sa.column("expires_at", TS))
    at = datetime.now(UTC)
    people = [(1, "Karl", False), (2, "\u041aarl", False),  # a Cyrillic К: the look of Karl
              (3, "Gustav", True), (4, "KARL", True), (5, "Dora", True), (6, "Emil", True)]
    with tmp_db(kind) as url:
        _at_revision(url, "0002")
        engine = create_engine(sync_url(url))
        with engine.begin() as conn:
            conn.execute(sa.insert(users), [
                {"id": uid, "name": name, "guest": guest, "created_at": at,
                 "password_hash": None if guest else "x",
                 "name_key": f"guest:{uid}" if guest else name_key(name)}
                for uid, name, guest in people])
            conn.execute(sa.insert(sessions), [
                {"token_hash": f"t{uid}", "user_id": uid, "created_at": at,
                 "expires_at": at + timedelta(days=days)}
                for uid, days in ((3, 1), (4, 1), (5, -1))])  # Dora's has expired
        engine.dispose()
        migrate(url)
        engine = create_engine(sync_url(url))
        with engine.connect() as conn:
            keys = {uid: (key, look) for uid, key, look in conn.execute(
                sa.text("SELECT id, name_key, look_key FROM users"))}
            known = conn.execute(sa.text("SELECT COUNT(*) FROM known_logins")).scalar()
        engine.dispose()
    assert keys[1] == (name_key("Karl"), look_key("Karl"))
    assert keys[2] == (name_key("\u041aarl"), f"{look_key('Karl')}#2")
    for guest in (3, 4, 5, 6):  # a live session, Karl's name, one that expired, none
        assert keys[guest] == (f"guest:{guest}", f"guest:{guest}")
    assert known == 0
