"""Fixtures of the server tests: a real `stich serve` on SQLite and on PostgreSQL.

PostgreSQL comes from ``tests/services.py`` (the one at ``$STICH_TEST_PG`` or a
throwaway one); without one the PostgreSQL cases are skipped (they fail under
``STICH_TEST_REQUIRE_ALL=1``) and the SQLite ones still run.  Each module gets its own
server per database kind, on a fresh database.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.server.harness import Client, Server, database

DB_KINDS = (pytest.param("sqlite", id="sqlite"),
            pytest.param("postgresql", id="postgresql", marks=pytest.mark.needs("postgresql")))


@pytest.fixture(scope="module", params=DB_KINDS)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Server]:
    """A running server on a fresh database of each kind (module-wide)."""
    tmp = tmp_path_factory.mktemp("srv")
    with database(request.param, tmp) as url:
        srv = Server(url, bot_delay=0.0)
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()


@pytest.fixture
def clients(server: Server) -> Iterator[Callable[..., Client]]:
    """Make clients (people with their own cookies) of the module's server."""
    made: list[Client] = []

    def make(lang: str = "en") -> Client:
        c = Client(server, lang)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


@pytest.fixture
def run() -> Callable[..., object]:
    """Run a coroutine to its end (the tests are plain functions)."""
    def go(coro: object, timeout: float = 120.0) -> object:
        return asyncio.run(asyncio.wait_for(coro, timeout))  # type: ignore[arg-type]
    return go


@pytest.fixture
def tmp_db(tmp_path: Path) -> Callable[[str], object]:
    """A context manager for a fresh database of a kind."""
    return lambda kind: database(kind, tmp_path)
