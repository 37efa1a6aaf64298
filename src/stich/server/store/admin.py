"""The queries of ``stich admin``: the operator's lists of tables and accounts, finding an
account by name or id, and closing a table from outside the server.

A table is closed the way the server closes one: its events are replayed into a
:class:`~stich.server.sitting.Sitting`, which plans the ``end`` event, and
:meth:`Store.append` commits it with the table's new status and summary.  The unique
(table, seq) key fences the race with a running server that appends at the same time:
the loser's commit is refused and it tries again from the database.  A running server
picks the event up in its housekeeping round and sends it to the table's sockets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select

from stich.core import ArgumentError
from stich.server.names import name_key
from stich.server.sitting import Sitting, TableSettings, replay_events
from stich.server.store.db import Store, now
from stich.server.store.models import GameRow, Session, TableRow, User
from stich.server.wire import table_status, table_summary

__all__ = ["CLOSE_TRIES", "TableLine", "UserLine", "close_table", "find_users",
           "live_tables_of", "rebuild_ratings", "recount", "table_lines", "user_lines"]

CLOSE_TRIES = 20  # commits lost to a running server before close gives up


@dataclass(frozen=True)
class TableLine:
    """A table for the operator: its row and its creator's name (None: none, or deleted)."""

    row: TableRow
    creator: str | None


@dataclass(frozen=True)
class UserLine:
    """An account for the operator, with its number of sessions that have not expired."""

    user: User
    sessions: int


async def table_lines(store: Store, statuses: Sequence[str] | None,
                      limit: int) -> tuple[list[TableLine], int]:
    """The newest ``limit`` tables (of these statuses; None: all), and how many there
    are in all."""
    async with store.session() as s:
        q = (select(TableRow, User.name).outerjoin(User, User.id == TableRow.created_by)
             .order_by(TableRow.created_at.desc(), TableRow.id).limit(limit))
        n = select(func.count()).select_from(TableRow)
        if statuses is not None:
            q = q.where(TableRow.status.in_(list(statuses)))
            n = n.where(TableRow.status.in_(list(statuses)))
        rows = [TableLine(row, name) for row, name in (await s.execute(q)).all()]
        total = int((await s.execute(n)).scalar_one())
    return rows, total


async def user_lines(store: Store, guests: bool | None,
                     limit: int) -> tuple[list[UserLine], int]:
    """The newest ``limit`` accounts (only guests, only registered players, or all),
    each with its live sessions, and how many there are in all."""
    sessions = (select(func.count()).select_from(Session)
                .where(Session.user_id == User.id, Session.expires_at > now())
                .scalar_subquery())
    async with store.session() as s:
        q = select(User, sessions).order_by(User.id.desc()).limit(limit)
        n = select(func.count()).select_from(User)
        if guests is not None:
            q = q.where(User.guest.is_(guests))
            n = n.where(User.guest.is_(guests))
        rows = [UserLine(u, int(k)) for u, k in (await s.execute(q)).all()]
        total = int((await s.execute(n)).scalar_one())
    return rows, total


async def find_users(store: Store, name_or_id: str) -> list[User]:
    """The accounts ``name_or_id`` names: a number is an account's id (when there is
    one; else it is taken as a name); a name is a registered player's (compared as the
    site compares names: case and look-alike letters do not count), else every guest's
    of that name (a guest holds its name only while it has a live session: older
    guests of the name may be more).  [] when nobody."""
    text = " ".join(name_or_id.split())
    if not text or "\x00" in text:
        return []
    if text.isdigit() and int(text) < 2**31:
        user = await store.user(int(text))
        if user is not None:
            return [user]
    key = name_key(text)
    user = await store.user_by_key(key)
    if user is not None and not user.guest:
        return [user]
    async with store.session() as s:  # compared here: SQLite's lower() knows only ASCII
        q = select(User.id, User.name).where(User.guest.is_(True)).order_by(User.id)
        ids = [i for i, name in (await s.execute(q)).all() if name_key(name) == key]
        if not ids:
            return []
        return list((await s.execute(select(User).where(User.id.in_(ids))
                                     .order_by(User.id))).scalars())


async def live_tables_of(store: Store, user_id: int) -> list[str]:
    """The tables that are not over at which the account sits."""
    async with store.session() as s:
        q = select(TableRow.id, TableRow.summary).where(TableRow.status != "over") \
            .order_by(TableRow.id)
        return [tid for tid, summary in (await s.execute(q)).all()
                if any(seat.get("user") == user_id for seat in summary.get("seats", []))]


async def close_table(store: Store, table_id: str, reason: str) -> Sitting:
    """End a table that is not over with an ``end`` event (``reason``), as the server
    does; returns the table after it.  Refused: no such table, or it is over.  A commit
    lost to a running server that appended first is tried again after reading the
    events it appended (only those: the shorter the time between reading and
    committing, the likelier the next try wins, even at a table of fast bots)."""
    row = await store.table(table_id) if len(table_id) <= 16 else None
    if row is None:
        raise ArgumentError("admin.no_table", table=table_id)
    settings = TableSettings.from_dict(row.settings)
    sitting = replay_events(settings, await store.events(table_id))
    for _ in range(CLOSE_TRIES):
        if sitting.over:
            raise ArgumentError("admin.table_over", table=table_id)
        events = sitting.plan_close(reason)
        for ev in events:
            sitting.apply(ev)
        if await store.append(table_id, events, status=table_status(sitting),
                              summary=table_summary(sitting)):
            return sitting
        sitting = replay_events(settings, sitting.events[:-len(events)])
        for ev in await store.events(table_id, after=sitting.seq):
            sitting.apply(ev)
    raise ArgumentError("admin.close_race", table=table_id, tries=CLOSE_TRIES)


async def recount(store: Store) -> tuple[int, int]:
    """Work out again, from every table's event log, whose each finished game was
    (docs/server.md, "Whose game was it"): the players' ``standin`` and ``counts`` and
    the records' ``standin`` / ``clock`` actions; then the ratings anew.  For the games
    stored before the rule (and idempotent after it).  Returns (games looked at,
    players not counted)."""
    async with store.session() as s:
        tables = list((await s.execute(select(GameRow.table_id).distinct()
                                       .order_by(GameRow.table_id))).scalars())
    games = absent = 0
    for table_id in tables:
        row = await store.table(table_id)
        if row is None:
            continue
        sitting = replay_events(TableSettings.from_dict(row.settings),
                                await store.events(table_id))
        for rec, whose in zip(sitting.finished, sitting.finished_seats, strict=True):
            marks: dict[str, list[int]] = {k: rec[k] for k in ("standin", "clock") if k in rec}
            if await store.mark_whose(table_id, int(rec.get("table_game", 1)), marks,
                                      whose["standin"], whose["absent"]):
                games += 1
                absent += len(whose["absent"])
    await rebuild_ratings(store)  # a game that counts for nobody moves no rating of hers
    return games, absent


async def rebuild_ratings(store: Store) -> tuple[int, int]:
    """Work out every rating again from the stored games (docs/ratings.md): computed
    while reading only, then written in one short transaction that first rates the
    games stored meanwhile (a running server waits for it a moment).  Returns (games
    that moved a rating, ratings kept)."""
    from stich.server.store.ratings import compute, replace

    async with store.engine.connect() as conn:
        done = await conn.run_sync(compute)
    async with store._writing(), store.engine.begin() as conn:
        return await conn.run_sync(replace, done)
