"""`stich admin` against a real running `stich serve`, on SQLite and on PostgreSQL.

The data is made the way people make it: accounts, guests and tables through the
server's HTTP API, games played by bots (and by a person over the WebSocket).  The
commands run in this process (Typer's runner) on the server's database while the server
runs; the server does its housekeeping every second here (``STICH_HOUSEKEEPING=1``), so
what `stich admin` changes reaches its players within a second or two.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text, update
from typer.testing import CliRunner, Result
from websockets.exceptions import ConnectionClosed

from stich.cli import app
from stich.server.auth import DELETED_NAME
from stich.server.sitting import Event, TableSettings, replay_events
from stich.server.store import backup
from stich.server.store.admin import close_table
from stich.server.store.db import Store, sync_url
from stich.server.store.models import Session
from stich.server.wire import table_status, table_summary
from tests.server.conftest import DB_KINDS
from tests.server.harness import Client, Server, database
from tests.server.proto_helpers import PlainClient, kind, play_random, uid

runner = CliRunner()

SKAT_BOTS = {"game": "skat", "games": 3, "seats": ["bot:random"] * 3}
# a Baptistenskat game of one round of one card: a person plays it through in moments
SHORT_BAPTISTEN = {"game": "baptisten", "seats": ["me", "bot:random", "bot:random"],
                   "rules": "baptisten(players=3,max_cards=1,rounds=single)"}


class Site:
    """The module's running server, its database, and helpers to use both."""

    def __init__(self, server: Server, url: str, kind: str, tmp: Path) -> None:
        self.server, self.url, self.kind, self.tmp = server, url, kind, tmp
        self.clients: list[Client] = []

    def client(self) -> Client:
        c = PlainClient(self.server)
        self.clients.append(c)
        return c

    def admin(self, *args: str, db: str | None = None, lang: str = "en") -> Result:
        """``stich admin ARGS --db URL --lang LANG`` (the site's database by default)."""
        return runner.invoke(app, ["admin", *args, "--db", db or self.url, "--lang", lang])

    def sql(self, statement: str, url: str | None = None, **params: Any) -> list[Any]:
        """Run SQL on a database of the site's kind (the site's own by default)."""
        engine = create_engine(sync_url(url or self.url))
        try:
            with engine.begin() as conn:
                result = conn.execute(text(statement), params)
                return list(result.all()) if result.returns_rows else []
        finally:
            engine.dispose()


@pytest.fixture(scope="module", params=DB_KINDS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[Site]:
    tmp = tmp_path_factory.mktemp("admin")
    with database(request.param, tmp) as url:
        server = Server(url, bot_delay=0.0, env={"STICH_HOUSEKEEPING": "1"})
        server.start()
        s = Site(server, url, request.param, tmp)
        try:
            yield s
        finally:
            for c in s.clients:
                c.close()
            server.stop()


@contextmanager
def another_database(site: Site) -> Iterator[str]:
    """A fresh database of the site's kind (a SQLite file that does not exist yet)."""
    with database(site.kind, site.tmp) as url:
        yield url


def wait_for(check: Callable[[], Any], timeout: float = 30.0, what: str = "") -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or check}")


def table_of(c: Client, tid: str) -> dict[str, Any]:
    r = c.get(f"/api/tables/{tid}")
    assert r.status_code == 200, r.text
    return dict(r.json()["table"])


def finished(c: Client, tid: str) -> dict[str, Any]:
    """Wait until the table is over; the table."""
    return dict(wait_for(lambda: (t := table_of(c, tid))["status"] == "over" and t,
                         what=f"table {tid} over"))


def listing(result: Result, key: str) -> list[dict[str, Any]]:
    assert result.exit_code == 0, result.output
    return list(json.loads(result.output)[key])


def refused(result: Result, code: int, *words: str) -> str:
    """The command failed with exit ``code`` and an error line holding ``words``."""
    assert result.exit_code == code, (result.exit_code, result.output)
    out = result.output
    assert out.startswith(("error: ", "Fehler: ")), out
    for w in words:
        assert w in out, (w, out)
    return out


# --- lists -----------------------------------------------------------------------------------


def test_tables_and_users_are_listed(site: Site) -> None:
    alice, guest = site.client(), site.client()
    alice_name = uid("Alice")
    alice_id = alice.register(alice_name)["id"]
    guest_id = guest.guest(uid("Gast"))["id"]
    done = alice.create(**SKAT_BOTS)["table"]["id"]
    waiting = alice.create(game="skat", games=3, seats=["me", "person", "bot:random"]
                           )["table"]["id"]
    finished(alice, done)

    tables = {t["id"]: t for t in listing(site.admin("tables", "--json"), "tables")}
    over = tables[done]
    assert over["status"] == "over" and over["game"] == "skat" and over["games_played"] == 3
    assert [s["kind"] for s in over["seats"]] == ["bot"] * 3
    assert {s["bot"] for s in over["seats"]} == {"random"}
    assert over["creator"] == {"id": alice_id, "name": alice_name}
    assert over["created_at"] <= over["updated_at"]
    w = tables[waiting]
    assert w["status"] == "waiting" and w["games_played"] == 0
    assert [(s["kind"], s["name"]) for s in w["seats"][:2]] == [("person", alice_name),
                                                               ("free", None)]
    assert w["seats"][2]["kind"] == "bot"

    ids = {t["id"] for t in listing(site.admin("tables", "--status", "waiting", "--json"),
                                    "tables")}
    assert waiting in ids and done not in ids
    ids = {t["id"] for t in listing(site.admin("tables", "--status", "over", "--json"),
                                    "tables")}
    assert done in ids and waiting not in ids
    ids = {t["id"] for t in listing(site.admin("tables", "--status", "open", "--json"),
                                    "tables")}
    assert waiting in ids and done not in ids
    one = json.loads(site.admin("tables", "--limit", "1", "--json").output)
    assert len(one["tables"]) == 1 and one["total"] >= 2
    assert one["tables"][0]["id"] == waiting  # the newest first

    # Plain text: a heading, a line per table, the count when --limit cut the list.
    out = site.admin("tables").output.splitlines()
    assert out[0].split()[:3] == ["table", "game", "status"]
    line = next(ln for ln in out if ln.startswith(done))
    assert " over " in line and alice_name in line and "(bot random)" in line
    line = next(ln for ln in out if ln.startswith(waiting))
    assert " waiting " in line and "(free)" in line
    out = site.admin("tables", "--limit", "1").output.splitlines()
    assert len(out) == 3 and out[1].startswith(waiting)
    assert out[2].startswith("1 of ") and out[2].endswith("shown (--limit)")
    de = site.admin("tables", "--status", "waiting", lang="de").output
    assert de.split()[:3] == ["Tisch", "Spiel", "Stand"] and " wartet " in de

    users = {u["id"]: u for u in listing(site.admin("users", "--json"), "users")}
    assert users[alice_id]["name"] == alice_name and users[alice_id]["guest"] is False
    assert users[alice_id]["sessions"] == 1 and users[guest_id]["guest"] is True
    guests = {u["id"] for u in listing(site.admin("users", "--guests", "--json"), "users")}
    assert guest_id in guests and alice_id not in guests
    registered = {u["id"] for u in listing(site.admin("users", "--registered", "--json"),
                                           "users")}
    assert alice_id in registered and guest_id not in registered
    out = site.admin("users", "--registered").output
    assert out.split()[:3] == ["id", "name", "kind"]
    assert any(ln.split()[:3] == [str(alice_id), alice_name, "registered"]
               for ln in out.splitlines())

    refused(site.admin("users", "--guests", "--registered"), 2, "exclude each other")
    refused(site.admin("tables", "--status", "finished"), 2, "--status", "'finished'")


# --- backup and restore ------------------------------------------------------------------------


def backup_games(site: Site, file: Path) -> dict[str, Any]:
    """What a backup holds: games per table key, and whether every table's events, row and
    games agree (the events and the games they finish are committed together)."""
    if site.kind == "sqlite":
        con = sqlite3.connect(file)
        try:
            rows = con.execute("SELECT t.id, t.seq, (SELECT max(seq) FROM events e WHERE "
                               "e.table_id = t.id), (SELECT count(*) FROM events e WHERE "
                               "e.table_id = t.id AND e.kind = 'game_over'), (SELECT "
                               "count(*) FROM games g WHERE g.table_id = t.id) FROM tables t"
                               ).fetchall()
            keys = [k for (k,) in con.execute("SELECT key FROM games")]
        finally:
            con.close()
        return {"tables": rows, "keys": keys}
    raise AssertionError("PostgreSQL backups are read by restoring them")


def consistent(rows: list[Any]) -> bool:
    return all(seq == last and over == games for _, seq, last, over, games in rows)


def table_rows(site: Site, url: str) -> list[Any]:
    return site.sql("SELECT t.id, t.seq, (SELECT max(seq) FROM events e WHERE "
                    "e.table_id = t.id), (SELECT count(*) FROM events e WHERE "
                    "e.table_id = t.id AND e.kind = 'game_over'), (SELECT count(*) FROM "
                    "games g WHERE g.table_id = t.id) FROM tables t", url)


def test_backup_while_games_are_played_then_restore_for_a_new_server(site: Site) -> None:
    c = site.client()
    c.register(uid("Dana"))
    busy = [c.create(game="skat", games=9, seats=["bot:random"] * 3)["table"]["id"]
            for _ in range(2)]
    # games are being played: wait for a few to finish, then back up while they go on
    wait_for(lambda: all(table_of(c, t)["games_played"] >= 2 for t in busy),
             what="two games at each busy table")
    before = {g["id"]: g for t in busy
              for g in c.get(f"/api/tables/{t}/games").json()["games"]}
    file = site.tmp / f"backup-{uid()}.{'db' if site.kind == 'sqlite' else 'dump'}"
    result = site.admin("backup", str(file))
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"backup written to {file} (")
    after = {t: table_of(c, t)["games_played"] for t in busy}
    assert any(table_of(c, t)["status"] == "running" for t in busy)  # still playing
    if site.kind == "sqlite":
        assert file.read_bytes()[:16] == backup.SQLITE_MAGIC
        held = backup_games(site, file)
        assert set(before) <= set(held["keys"])
        assert consistent(held["tables"]), held["tables"]
        assert not Path(f"{file}-wal").exists()  # one file
    else:
        assert file.read_bytes()[:5] == backup.PG_MAGIC

    # Restore into another database that already holds other data; a new server serves it.
    with another_database(site) as url:
        other = Server(url, bot_delay=0.0)
        other.start()
        stranger = uid("Fremd")
        PlainClient(other).register(stranger)
        other.stop()
        refused(site.admin("restore", str(file), db=url), 2, "--yes", "stop the server")
        result = site.admin("restore", str(file), "--yes", db=url)
        assert result.exit_code == 0, result.output
        assert "Restart stich serve now" in result.output
        rows = table_rows(site, url)
        assert consistent(rows), rows
        restored = {r[0]: r for r in rows}
        assert all(restored[t][4] >= 2 for t in busy)
        assert all(restored[t][4] <= after[t] for t in busy)  # what the backup held
        names = {u["name"] for u in listing(site.admin("users", "--json", db=url), "users")}
        assert stranger not in names  # the data was replaced
        new = Server(url, bot_delay=0.0)
        new.start()
        try:
            reader = PlainClient(new)
            for key, game in before.items():
                r = reader.get(f"/api/games/{key}")
                assert r.status_code == 200, r.text
                assert r.json()["game"] == game
            r = reader.post("/api/login", {"name": stranger, "password": "geheim123"})
            assert r.status_code == 401
            reader.close()
        finally:
            new.stop()
    for t in busy:  # the games went on meanwhile: the backup held those before it
        assert finished(c, t)["games_played"] == 9


def test_backup_refuses_to_overwrite_without_force(site: Site) -> None:
    file = site.tmp / f"kept-{uid()}.bak"
    file.write_text("keep me\n")
    refused(site.admin("backup", str(file)), 1, str(file), "--force")
    assert file.read_text() == "keep me\n"
    de = site.admin("backup", str(file), lang="de").output
    assert de.startswith("Fehler: ") and "gibt es schon" in de
    result = site.admin("backup", str(file), "--force")
    assert result.exit_code == 0, result.output
    magic = backup.SQLITE_MAGIC if site.kind == "sqlite" else backup.PG_MAGIC
    assert file.read_bytes().startswith(magic)
    assert not list(site.tmp.glob(".kept-*"))  # no temporary file left behind
    refused(site.admin("backup", str(site.tmp / "no-such-folder" / "x.bak")), 1,
            "no-such-folder")
    if site.kind == "sqlite":
        db = site.url.removeprefix("sqlite:///")
        refused(site.admin("backup", db, "--force"), 1, "is the database itself")


def test_restore_refusals(site: Site) -> None:
    missing = site.tmp / "missing.bak"
    refused(site.admin("restore", str(missing), "--yes"), 1, f"there is no file {missing}")
    junk = site.tmp / "junk.bak"
    junk.write_text("not a backup\n")
    what = "not a SQLite database" if site.kind == "sqlite" else "no archive of pg_dump"
    refused(site.admin("restore", str(junk), "--yes"), 1, what)
    if site.kind == "sqlite":  # a SQLite file that is not stich's
        other = site.tmp / "other.db"
        sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
        refused(site.admin("restore", str(other), "--yes"), 1, "no stich database")


def test_a_backup_without_pg_dump(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """No program on PATH: PostgreSQL's backup is refused clearly (it needs pg_dump),
    SQLite's is made all the same (the standard library's backup API)."""
    empty = site.tmp / "empty-bin"
    empty.mkdir(exist_ok=True)
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setattr(backup, "PG_BIN_DIRS", str(empty / "*" / "bin"))
    file = site.tmp / "never.dump"
    if site.kind == "postgresql":
        refused(site.admin("backup", str(file)), 1, "pg_dump was found neither on PATH",
                "postgresql-client")
        assert not file.exists()
    else:
        result = site.admin("backup", str(file))
        assert result.exit_code == 0, result.output
        assert file.stat().st_size > 0
        file.unlink()


# --- closing tables ------------------------------------------------------------------------------


def test_close_a_running_table_tells_its_players(site: Site) -> None:
    bob = site.client()
    bob.register(uid("Bob"))
    tid = bob.create(game="skat", games=3, seats=["me", "bot:random", "bot:random"]
                     )["table"]["id"]

    async def go() -> tuple[dict[str, Any] | None, float, Result]:
        ws = await bob.connect(tid)
        try:
            await ws.until(lambda m: m["type"] in ("snapshot", "event"))
            result = await asyncio.to_thread(site.admin, "close", tid)
            if result.exit_code != 0:
                return None, 0.0, result
            t0 = time.monotonic()
            end = await ws.until(kind("end"), timeout=15)
            return end, time.monotonic() - t0, result
        finally:
            await ws.close()

    end, took, result = asyncio.run(go())
    assert result.exit_code == 0 and end is not None, (result.output, result.exception)
    assert result.output.startswith(f"table {tid} closed (event ")
    assert end["data"]["reason"] == "operator"
    assert took < 5, took  # within the housekeeping round (1 s here) after the command
    t = table_of(bob, tid)
    assert t["status"] == "over" and t["end_reason"] == "operator"
    assert t["seq"] == end["seq"]
    refused(site.admin("close", tid), 1, f"table {tid} is over already")
    refused(site.admin("close", "nosuchtable"), 1, "there is no table nosuchtable")
    de = site.admin("close", "nosuchtable", lang="de").output
    assert de == "Fehler: Einen Tisch nosuchtable gibt es nicht\n"
    refused(site.admin("close", tid, "--reason", "bored"), 2, "--reason", "'bored'")


def test_close_a_waiting_table_as_expired(site: Site) -> None:
    c = site.client()
    c.register(uid("Emil"))
    tid = c.create(game="skat", games=3, seats=["me", "person", "bot:random"])["table"]["id"]
    result = site.admin("close", tid, "--reason", "expired")
    assert result.exit_code == 0, result.output
    t = wait_for(lambda: (t := table_of(c, tid))["status"] == "over" and t,
                 what="the server sees the end")
    assert t["end_reason"] == "expired"
    open_ids = {t["id"] for t in listing(site.admin("tables", "--status", "open", "--json"),
                                         "tables")}
    assert tid not in open_ids


def test_close_wins_a_race_with_another_writer(site: Site) -> None:
    """The server appends at the moment `close` commits: the unique (table, seq) key
    refuses `close`'s commit, and it tries again after the server's events."""
    c = site.client()
    c.register(uid("Fritz"))
    tid = c.create(game="skat", games=3, seats=["me", "person", "bot:random"])["table"]["id"]

    class Racing(Store):
        """A store whose first append is overtaken by another writer's (a person sits
        down in the free seat, which starts the table), committed the server's way."""

        raced = 0

        async def append(self, table_id: str, events: Sequence[Event], **kw: Any) -> bool:
            if not self.raced:
                self.raced += 1
                row = await self.table(table_id)
                assert row is not None
                s = replay_events(TableSettings.from_dict(row.settings),
                                  await self.events(table_id))
                theirs = s.plan_sit(1, "Zweiter", None)
                for ev in theirs:
                    s.apply(ev)
                assert await super().append(table_id, theirs, status=table_status(s),
                                            summary=table_summary(s))
            return await super().append(table_id, events, **kw)

    async def go() -> tuple[Any, list[str]]:
        store = Racing(site.url)
        try:
            sitting = await close_table(store, tid, "closed")
            return sitting, [e.kind for e in await store.events(tid)]
        finally:
            await store.close()

    sitting, kinds = asyncio.run(go())
    assert sitting.over and sitting.end_reason == "closed"
    assert kinds[-4:] == ["seat", "start", "deal", "end"]  # after the other writer's
    t = wait_for(lambda: (t := table_of(c, tid))["status"] == "over" and t,
                 what="the server sees the end")
    assert t["end_reason"] == "closed" and [s["name"] for s in t["seats"]][1] == "Zweiter"


# --- removing accounts -------------------------------------------------------------------------


def test_remove_user(site: Site) -> None:
    carol = site.client()
    name = uid("Carol")
    carol_id = carol.register(name)["id"]
    tid = carol.create(**SHORT_BAPTISTEN)["table"]["id"]
    # seated at a table that is not over: refused, saying where
    refused(site.admin("remove-user", name, "--yes"), 1, f"{name} sits at a table", tid)

    async def play_and_watch() -> tuple[Any, float]:
        ws = await carol.connect(tid)
        try:
            await play_random(ws, random.Random(1), kind("end"), timeout=30)
            # still connected to her (finished) table: removing her closes the socket
            again = await carol.connect(tid)
            await again.until(lambda m: m["type"] in ("snapshot", "event", "welcome"))
            result = await asyncio.to_thread(site.admin, "remove-user", name)
            assert result.exit_code == 2, result.output
            assert "--yes" in result.output and DELETED_NAME in result.output
            await again.drain(0.3)
            assert again.ws.close_code is None  # nothing happened without --yes
            t0 = time.monotonic()
            result = await asyncio.to_thread(site.admin, "remove-user", name.upper(),
                                             "--yes")
            assert result.exit_code == 0, result.output
            assert result.output.startswith(f"account {name} (id {carol_id}) deleted, ")
            with contextlib.suppress(ConnectionClosed, TimeoutError):  # closed by the server
                await again.until(lambda m: False, timeout=10)
            return again.ws.close_code, time.monotonic() - t0
        finally:
            await ws.close()

    code, took = asyncio.run(play_and_watch())
    assert code == 4401 and took < 5, (code, took)
    assert carol.get("/api/me").json() == {"user": None}
    games = carol.get(f"/api/tables/{tid}/games").json()["games"]
    assert len(games) == 1
    game = carol.get(f"/api/games/{games[0]['id']}").json()
    assert game["game"]["players"][0]["name"] == DELETED_NAME
    assert name not in json.dumps(game)
    assert carol.post("/api/login", {"name": name, "password": "geheim123"}).status_code \
        == 401
    ids = {u["id"] for u in listing(site.admin("users", "--json"), "users")}
    assert carol_id not in ids
    refused(site.admin("remove-user", name, "--yes"), 1, f"there is no account {name}")
    refused(site.admin("remove-user", str(carol_id), "--yes"), 1, "there is no account")


def test_remove_a_guest_by_id_when_several_share_the_name(site: Site) -> None:
    """A guest holds its name only while it has a live session: after the first one
    logged out (its account stays until the purge), a second guest took the name."""
    name = uid("Gast")
    first, second = site.client(), site.client()
    a = first.guest(name)["id"]
    assert first.post("/api/logout").status_code == 200
    b = second.guest(name)["id"]
    refused(site.admin("remove-user", name, "--yes"), 1, f"2 guests are called {name}",
            f"{a}, {b}")
    result = site.admin("remove-user", str(b), "--yes")
    assert result.exit_code == 0, result.output
    assert "1 session ended" in result.output
    assert second.get("/api/me").json() == {"user": None}
    result = site.admin("remove-user", name, lang="de")
    assert result.exit_code == 2
    assert f"Das löscht das Konto {name} (Nummer {a}, Gast)" in result.output
    result = site.admin("remove-user", str(a), "--yes")  # (no guest left for the purge)
    assert result.exit_code == 0 and "0 sessions ended" in result.output, result.output


# --- purge ----------------------------------------------------------------------------------------


def test_purge_deletes_expired_sessions_and_old_guests(site: Site) -> None:
    old, young = site.client(), site.client()
    old_id = old.guest(uid("Alt"))["id"]
    young_id = young.guest(uid("Jung"))["id"]
    assert old.get("/api/me").json()["user"]["id"] == old_id
    # a month later for the first guest: its session expired
    engine = create_engine(sync_url(site.url))
    with engine.begin() as conn:
        conn.execute(update(Session).where(Session.user_id == old_id)
                     .values(expires_at=datetime(2000, 1, 1, tzinfo=UTC)))
    engine.dispose()
    result = site.admin("purge", "--guest-days", "0")
    assert result.exit_code == 0, result.output
    assert result.output == ("deleted: 1 expired session, 1 guest older than 0 days "
                             "without a session\n")
    ids = {u["id"] for u in listing(site.admin("users", "--guests", "--json"), "users")}
    assert old_id not in ids and young_id in ids
    assert old.get("/api/me").json() == {"user": None}
    assert young.get("/api/me").json()["user"]["id"] == young_id
    result = site.admin("purge", lang="de")
    assert result.output == ("Gelöscht: 0 abgelaufene Sitzungen, 0 Gäste älter als 30 Tage "
                             "ohne Sitzung\n")


# --- the database -------------------------------------------------------------------------------


def test_bad_databases(site: Site, data_dir: Path) -> None:
    refused(site.admin("tables", db="mysql://me@host/db"), 2, "sqlite:///FILE or postgresql")
    refused(site.admin("users", db="sqlite://"), 2, "sqlite:///FILE")
    missing = site.tmp / "nothing-here.db"
    refused(site.admin("tables", db=f"sqlite:///{missing}"), 1,
            f"there is no database {missing}")
    assert not missing.exists()  # not made by asking
    result = runner.invoke(app, ["admin", "purge", "--lang", "en"])  # the default database
    refused(result, 1, f"there is no database {data_dir / 'stich.db'}")
    refused(site.admin("users", db="postgresql://postgres@127.0.0.1:1/test"), 1,
            "the database cannot be opened")
    with another_database(site) as url:
        if site.kind == "sqlite":
            Path(url.removeprefix("sqlite:///")).write_bytes(b"")
        refused(site.admin("tables", db=url), 1, "holds no stich database")
    refused(site.admin("backup", str(site.tmp / "x.bak"), db="postgresql://u@127.0.0.1:1/x"),
            1, "cannot be opened")
    assert httpx.get(site.server.url + "/api/health").status_code == 200


def test_table_ids_never_look_like_an_option() -> None:
    from stich.server.lobby import new_table_id

    ids = [new_table_id() for _ in range(5000)]
    assert all(len(i) == 10 and not i.startswith("-") for i in ids)
    assert len(set(ids)) == len(ids)
