"""A commit that fails (not a lost race: the database refuses) changes nothing: the
table the server shows afterwards is the one in the database, without gaps."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.server.harness import Client, Server, database

pytestmark = pytest.mark.needs("postgresql")

BOOM = """
CREATE FUNCTION stich_boom() RETURNS trigger AS $$
BEGIN RAISE EXCEPTION 'the disk is full'; END $$ LANGUAGE plpgsql;
CREATE TRIGGER stich_boom BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION stich_boom();
"""


def _three_people_at_a_table(srv: Server, prefix: str) -> tuple[list[Client], str]:
    """Three guests seated at a new Skat table of people (started: every seat taken)."""
    people = [Client(srv) for _ in range(3)]
    for i, c in enumerate(people):
        c.guest(f"{prefix}{i}")
    t = people[0].create(game="skat", seats=["me", "person", "person"], grace=3600)
    tid = t["table"]["id"]
    for c in people[1:]:
        assert c.post(f"/api/tables/{tid}/join", {"invite": t["invite"]}).status_code == 200
    return people, tid


def test_a_failed_commit_leaves_the_table_as_stored(tmp_path: Path,
                                                    run: Callable[..., Any]) -> None:
    with database("postgresql", tmp_path) as url:
        srv = Server(url, bot_delay=0.0)
        srv.start()
        try:
            people, tid = _three_people_at_a_table(srv, "P")

            def stored() -> list[int]:
                with psycopg.connect(url) as conn:
                    return [r[0] for r in conn.execute(
                        "SELECT seq FROM events WHERE table_id = %s ORDER BY seq", (tid,))]

            async def story() -> tuple[int, int, list[int]]:
                socks = [await c.connect(tid) for c in people]
                for s in socks:
                    await s.drain()
                mover = next(i for i, s in enumerate(socks)
                             if s.view and s.view["legal"] and s.view["to_move"] == s.view["seat"])
                before = socks[mover].seq
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute(BOOM)
                await socks[mover].act(socks[mover].view["legal"][0])  # type: ignore[index]
                with contextlib.suppress(Exception):  # the server may drop the socket
                    await socks[mover].drain(0.5)
                await asyncio.sleep(0.5)
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute("DROP TRIGGER stich_boom ON events")
                again = await people[mover].connect(tid)
                await again.drain()
                seqs = stored()  # before the sockets close (which adds away events)
                for s in [*socks, again]:
                    with contextlib.suppress(Exception):
                        await s.close()
                return before, again.seq, seqs

            before, shown, seqs = run(story())
            assert seqs == list(range(1, len(seqs) + 1))  # no gap
            assert shown == seqs[-1]  # the server shows what is stored
            assert before <= shown  # (an away/back of the mover may follow, no action)
            with psycopg.connect(url) as conn:
                acts = conn.execute("SELECT count(*) FROM events WHERE table_id = %s "
                                    "AND kind = 'act'", (tid,)).fetchone()
            assert acts == (0,)
            for c in people:
                c.close()
        finally:
            srv.stop()


REFUSE_GAMES = """
CREATE FUNCTION stich_refuse_games() RETURNS trigger AS $$
BEGIN RAISE EXCEPTION 'a key of ours' USING ERRCODE = 'unique_violation'; END $$
LANGUAGE plpgsql;
CREATE TRIGGER stich_refuse_games BEFORE INSERT ON games FOR EACH ROW
EXECUTE FUNCTION stich_refuse_games();
"""


def test_a_key_refused_without_a_race_is_not_saved_not_stale(
        tmp_path: Path, run: Callable[..., Any]) -> None:
    """A unique key that refuses a game's commit while no other writer wrote (a mistake
    of ours, such as a bug in what is stored with a finished game) is said as "not
    saved" and logged, never as "stale" (which a client takes as "another move came
    first" and retries for ever); once the key lets it through, the same move is taken."""
    with database("postgresql", tmp_path) as url:
        srv = Server(url, bot_delay=0.0)
        srv.start()
        try:
            people, tid = _three_people_at_a_table(srv, "K")

            async def story() -> tuple[str, int]:
                socks = [await c.connect(tid) for c in people]
                for s in socks:
                    await s.drain()
                # everybody passes: the table's first game ends (a Ramsch) with the last
                # pass, whose commit stores the game: the key refuses it
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute(REFUSE_GAMES)
                code = ""
                for _ in range(60):
                    mover = next((s for s in socks if s.view and s.view["legal"]
                                  and s.view["to_move"] == s.view["seat"]), None)
                    assert mover is not None and mover.view is not None
                    legal = mover.view["legal"]
                    await mover.act("pass" if "pass" in legal else legal[0])
                    msg = await mover.until(lambda m: m["type"] == "error"
                                            or (m["type"] == "event" and m["kind"] == "act"))
                    if msg["type"] == "error":
                        code = msg["code"]
                        break
                    for s in socks:
                        await s.drain(0.2)
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute("DROP TRIGGER stich_refuse_games ON games")
                await mover.act("pass" if "pass" in legal else legal[0])
                await mover.until(lambda m: m["type"] == "event" and m["kind"] == "game_over")
                for s in socks:
                    with contextlib.suppress(Exception):
                        await s.close()
                with psycopg.connect(url) as conn:
                    row = conn.execute("SELECT count(*) FROM games WHERE table_id = %s",
                                       (tid,)).fetchone()
                return code, int(row[0]) if row else -1

            code, stored_games = run(story())
            assert code == "server.not_saved"
            assert stored_games == 1
            log = "".join(srv.stderr)
            assert "a unique key refused events" in log, log[-2000:]
            for c in people:
                c.close()
        finally:
            srv.stop()
