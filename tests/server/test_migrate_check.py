"""The start's migration check: a database at the newest revision is recognised without
loading Alembic; the newest revision read from the migration files is Alembic's head."""

from __future__ import annotations

import subprocess
import sys
from importlib import resources
from pathlib import Path

from alembic.config import Config
from alembic.script import ScriptDirectory

from stich.server.store.db import _head


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
