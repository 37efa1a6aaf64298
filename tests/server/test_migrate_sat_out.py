"""Migration 0007 (issue 42) on SQLite and PostgreSQL: the games stored before it get
``game_players.sat_out`` from their records.

The games are real: whole Skat tables of four and of three played in process by random
legal actions (:class:`stich.server.sitting.Sitting`), each finished game stored as the
server stores it (its record, and a line per seat from the table's list), at revision
0006.  After the migration exactly the line of the dealer who sat a game out is marked:
found by the record's ``seats``, also when the line's name is no longer the record's
(an account deleted), and by the name ``sat_out`` in a record without ``seats``; no
line of a table of three; a downgrade drops the column and an upgrade fills it again.
"""

from __future__ import annotations

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

from stich.server.sitting import Sitting, TableSettings
from stich.server.store.db import migrate, sync_url
from tests.server.conftest import DB_KINDS

TS = sa.DateTime(timezone=True)
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
                 sa.column("seat", sa.Integer()), sa.column("name", sa.String()),
                 sa.column("bot", sa.String()), sa.column("score", sa.Integer()),
                 sa.column("bilanz", sa.Integer()), sa.column("declarer", sa.Boolean()),
                 sa.column("won", sa.Boolean()), sa.column("place", sa.Integer()),
                 sa.column("standin", sa.Boolean()), sa.column("counts", sa.Boolean()))


def _upgrade(url: str, revision: str, down: bool = False) -> None:
    engine = create_engine(sync_url(url))
    with engine.begin() as conn:
        cfg = Config()
        cfg.set_main_option("script_location",
                            str(resources.files("stich.server.store") / "migrations"))
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, revision)
    engine.dispose()


def played(seats: int, seed: int) -> tuple[Sitting, list[tuple[dict[str, Any],
                                                                list[dict[str, Any]]]]]:
    """A whole Skat table of bots (random legal actions) in process: each finished game's
    record and its lines as the server stores them (the flag ``sat_out`` taken off: the
    schema before 0007 has no such column; it is the answer the migration must find)."""
    rng = random.Random(seed)
    s = Sitting(TableSettings(game="skat", rules="skat(preset=lothar)", games=seats * 2,
                              seats=("bot:random",) * seats, seed=seed))
    for ev in s.plan_start():
        s.apply(ev)
    while not s.over:
        seat = s.to_move_seat()
        assert seat is not None
        for ev in s.plan_act(seat, str(rng.choice(s.view(seat).legal_actions)), by="bot"):
            s.apply(ev)
    names = s.names()
    games = []
    for rec in s.finished:
        _, lines = s.play.result_lines(rec)
        games.append((rec, [{"seat": i, "name": names[i], "bot": "random", **line}
                            for i, line in enumerate(lines)]))
    return s, games


@pytest.mark.parametrize("kind", DB_KINDS)
def test_the_migration_marks_the_dealer_who_sat_out(kind: str, tmp_db: Any) -> None:
    _, four = played(4, 3)
    _, three = played(3, 4)
    at = datetime.now(UTC)
    want: dict[tuple[str, int], set[int]] = {}  # (table, number) -> seats marked
    stored: list[tuple[str, dict[str, Any], list[dict[str, Any]]]] = []
    for number, (rec, lines) in enumerate(four, start=1):
        dealer = next(i for i, line in enumerate(lines) if line.get("sat_out"))
        assert dealer not in rec["seats"] and lines[dealer]["name"] == rec["sat_out"]
        stored.append(("four", rec, lines))
        want["four", number] = {dealer}
        # the same game stored as if an account had been deleted: the dealer's line
        # under the neutral name, the record's seats still say who played
        gone = [dict(line, name="(gelöscht)") if i == dealer else line
                for i, line in enumerate(lines)]
        stored.append(("deleted", rec, gone))
        want["deleted", number] = {dealer}
        # and a record without seats: the name says
        stored.append(("no_seats", {k: v for k, v in rec.items() if k != "seats"}, lines))
        want["no_seats", number] = {dealer}
    for number, (rec, lines) in enumerate(three, start=1):
        assert "sat_out" not in rec and not any("sat_out" in line for line in lines)
        stored.append(("three", rec, lines))
        want["three", number] = set()
    tids = {name: uuid.uuid4().hex[:10] for name in ("four", "deleted", "no_seats", "three")}
    with tmp_db(kind) as url:
        _upgrade(url, "0006")
        engine = create_engine(sync_url(url))
        with engine.begin() as conn:
            conn.execute(sa.insert(TABLES), [
                {"id": tid, "game": "skat", "rules": "skat(preset=lothar)", "settings": {},
                 "invite": "x", "public": True, "status": "over", "created_at": at,
                 "seq": 0, "summary": {}} for tid in tids.values()])
            numbers: dict[str, int] = {}
            for table, rec, lines in stored:
                numbers[table] = numbers.get(table, 0) + 1
                game_id = conn.execute(sa.insert(GAMES).returning(GAMES.c.id), {
                    "key": uuid.uuid4().hex[:12], "table_id": tids[table],
                    "number": numbers[table], "game": "skat", "rules": rec["rules"],
                    "preset": "lothar", "record": rec, "finished_at": at}).scalar_one()
                conn.execute(sa.insert(LINES), [
                    {"game_id": game_id, "standin": False, "counts": True,
                     **{k: v for k, v in line.items() if k != "sat_out"}} for line in lines])
        engine.dispose()

        def marked() -> dict[tuple[str, int], set[int]]:
            table_of = {tid: name for name, tid in tids.items()}
            engine = create_engine(sync_url(url))
            out: dict[tuple[str, int], set[int]] = {}
            with engine.connect() as conn:
                for table_id, number, seat, sat_out in conn.execute(sa.text(
                        "SELECT g.table_id, g.number, p.seat, p.sat_out FROM game_players p"
                        " JOIN games g ON g.id = p.game_id")):
                    got = out.setdefault((table_of[table_id], number), set())
                    if sat_out:
                        got.add(seat)
            engine.dispose()
            return out

        migrate(url)
        assert marked() == want
        assert sum(len(v) for v in want.values()) == 3 * len(four)
        _upgrade(url, "0006", down=True)
        engine = create_engine(sync_url(url))
        cols = {c["name"] for c in sa.inspect(engine).get_columns("game_players")}
        engine.dispose()
        assert "sat_out" not in cols
        migrate(url)
        assert marked() == want
