"""The database: where it is, its migrations, and every query the server makes.

``--db`` takes ``sqlite:///path`` or ``postgresql://user@host:port/db``; the drivers are
chosen here (aiosqlite / psycopg 3).  SQLite runs in WAL mode with ``synchronous=FULL``:
an acknowledged event is on disk.

Events are committed in groups (:meth:`Store.append`): the appends of all tables that
arrive while a commit is under way, or within :data:`GATHER_SECONDS` of the last one
while appends keep coming, go into the next transaction together, so one fsync serves
many tables; each caller still returns only after its own events are committed.
On SQLite the writes of this process take turns (an asyncio lock) instead of waiting in
SQLite's busy handler, and a writer thread keeps one connection; on PostgreSQL the writer
keeps a connection of its own too, on which a group commit is one statement.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import json
import logging
import re
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import resources
from typing import Any

import orjson
from sqlalchemy import (
    String,
    and_,
    bindparam,
    case,
    cast,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from stich.core import ArgumentError
from stich.games import BAPTISTEN, SKAT
from stich.server.names import GUEST_KEY
from stich.server.sitting import Event
from stich.server.store.models import (
    Analysis,
    DailyEntry,
    DailySet,
    EventRow,
    GamePlayer,
    GameRow,
    KnownLogin,
    RuleSet,
    Session,
    SnapshotRow,
    TableRow,
    TournamentTable,
    User,
)

log = logging.getLogger("stich.server")

__all__ = ["NewGame", "Store", "async_url", "migrate", "now", "random_guest_key", "revisions",
           "sync_url"]

SESSION_DAYS = 30
DEVICE_DAYS = 365  # a browser that logged in to an account is known this long after
ADDRESS_DAYS = 30  # an address that an account logged in from is known this long after
KNOWN_KEPT = 10  # browsers and addresses known per account (each): the newest
INT_MAX = 2**31 - 1  # the largest value of an Integer column (PostgreSQL)

# the session lookup of every request with a cookie, built once (building a statement cost
# more of the server's time than running it: docs/speed.md, "Tournament tables under load")
_SESSION_OF = (select(User, Session.expires_at).join(Session, Session.user_id == User.id)
               .where(Session.token_hash == bindparam("digest")))


def now() -> datetime:
    return datetime.now(UTC)


def _scheme(url: str) -> tuple[str, Any]:
    u = make_url(url)
    return u.get_backend_name(), u


def _with_driver(url: str, sqlite_driver: str) -> str:
    backend, u = _scheme(url)
    drivers = {"postgresql": "postgresql+psycopg", "sqlite": sqlite_driver}
    if backend not in drivers:
        raise ArgumentError("server.bad_db", url=url)
    return str(u.set(drivername=drivers[backend]).render_as_string(hide_password=False))


def sync_url(url: str) -> str:
    """The URL with the synchronous driver (for the migrations).

    >>> sync_url("postgresql://me@db:5432/x"), sync_url("sqlite:///a.db")
    ('postgresql+psycopg://me@db:5432/x', 'sqlite:///a.db')
    """
    return _with_driver(url, "sqlite")


def async_url(url: str) -> str:
    """The URL with the asyncio driver."""
    return _with_driver(url, "sqlite+aiosqlite")


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    # the WAL file is cut back to this size after each checkpoint (else it keeps the
    # size of its largest moment, space a full disk needed: docs/deploy.md)
    cur.execute(f"PRAGMA journal_size_limit={WAL_KEEP}")
    cur.close()


WAL_KEEP = 16 * 1024 * 1024
"""Bytes of SQLite's WAL file kept after a checkpoint (``journal_size_limit``)."""


def migrate(url: str) -> None:
    """Bring the schema to the newest revision (Alembic).  On PostgreSQL an advisory lock
    keeps several starting processes from migrating at once.  A database already at the
    newest revision is recognised without loading Alembic (most starts)."""
    engine = create_engine(sync_url(url), hide_parameters=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(4715)"))
        head = _head()
        if head is None or _revision(conn) != head:
            _upgrade(conn)
    engine.dispose()


def revisions(url: str) -> tuple[str | None, str | None]:
    """The database's schema revision (None: no stich schema in it) and the newest one
    this stich knows (None when the migration files do not tell one).  Changes nothing;
    a SQLite file that does not exist would be made: look first."""
    engine = create_engine(sync_url(url), hide_parameters=True)
    try:
        with engine.connect() as conn:
            return _revision(conn), _head()
    finally:
        engine.dispose()


def _head() -> str | None:
    """The newest revision, read from the migration files (``revision = "…"``,
    ``down_revision = …``); None when that is not one revision (Alembic decides then)."""
    revisions: set[str] = set()
    replaced: set[str] = set()
    for f in (resources.files("stich.server.store") / "migrations" / "versions").iterdir():
        if not f.name.endswith(".py") or f.name.startswith("__"):
            continue
        src = f.read_text(encoding="utf-8")
        rev = re.search(r"^revision\b[^=]*=\s*[\"']([^\"']+)[\"']", src, re.M)
        down = re.search(r"^down_revision\b[^=]*=(.*)$", src, re.M)
        if rev is None or down is None:
            return None
        revisions.add(rev.group(1))
        replaced.update(re.findall(r"[\"']([^\"']+)[\"']", down.group(1)))
    heads = revisions - replaced
    return heads.pop() if len(heads) == 1 else None


def _revision(conn: Connection) -> str | None:
    """The database's revision (None: not migrated yet)."""
    if not inspect(conn).has_table("alembic_version"):
        return None
    rows = conn.execute(text("SELECT version_num FROM alembic_version")).all()
    return str(rows[0][0]) if len(rows) == 1 else None


def _upgrade(conn: Connection) -> None:
    from alembic import command  # loaded only to migrate (a fifth of the import time)
    from alembic.config import Config

    cfg = Config()
    where = resources.files("stich.server.store") / "migrations"
    cfg.set_main_option("script_location", str(where))
    cfg.attributes["connection"] = conn
    command.upgrade(cfg, "head")


@dataclass(frozen=True)
class NewGame:
    """A finished game to store with the events that finish it."""

    number: int
    game: str
    rules: str
    preset: str
    record: dict[str, Any]
    players: list[dict[str, Any]]  # seat, user_id, name, bot, score, bilanz, declarer, …


@dataclass
class _Append:
    """One waiting :meth:`Store.append`."""

    table_id: str
    events: Sequence[Event]
    status: str
    summary: dict[str, Any]
    games: Sequence[NewGame]
    done: asyncio.Future[bool]


def new_game_key() -> str:
    """A finished game's address: 72 random bits (12 characters, URL-safe)."""
    return secrets.token_urlsafe(9)


def token_hash(token: str) -> str:
    """What the database keeps of a session token: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


GATHER_SECONDS = 0.005
"""The least time between two batches of :meth:`Store.append` while appends keep coming:
a batch taken sooner after the last one waits for the rest of it, and what arrives
meanwhile commits with it.  A commit costs the server about as much however many
appends it holds (on SQLite a quarter of a millisecond in the writer thread, and an
fsync), so fuller batches cut the CPU per action by a tenth or more at 400 actions/s,
for at most 5 ms more before an action's event goes out; an append after a quiet spell
goes at once (docs/speed.md)."""


class Store:
    """Every query of the server, asynchronous."""

    def __init__(self, url: str, *, gather: float = GATHER_SECONDS) -> None:
        self.url = url
        # a failed statement's values (a password's hash, a session) never reach a log
        kwargs: dict[str, Any] = {"hide_parameters": True, "json_serializer": _json_text}
        if make_url(url).get_backend_name() == "postgresql":
            # pre_ping: a pooled connection that broke (the server restarted meanwhile)
            # is replaced before a request uses it, instead of failing that request
            kwargs |= {"pool_size": 10, "max_overflow": 20, "pool_pre_ping": True,
                       "connect_args": {"connect_timeout": 3}}
        self.engine: AsyncEngine = create_async_engine(async_url(url), **kwargs)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.session = async_sessionmaker(self.engine, expire_on_commit=False)
        self._lock = asyncio.Lock() if self.engine.dialect.name == "sqlite" else None
        self._queue: list[_Append] = []
        self._writer: asyncio.Task[None] | None = None
        self.gather = gather
        self._last_write = -gather  # when the last batch was taken (the loop's clock)
        # SQLite: events are written by a plain sqlite3 connection in a thread of its
        # own, a whole transaction per call (aiosqlite would hop threads per statement)
        self._sync: _SyncWriter | None = None
        self._sync_thread: concurrent.futures.ThreadPoolExecutor | None = None
        # PostgreSQL: a batch without finished games is one statement on a connection of
        # the writer's own, kept open (one round trip instead of a pool checkout, BEGIN,
        # an INSERT, an UPDATE per table and COMMIT)
        self._pg: _PgWriter | None = None
        if self.engine.dialect.name == "postgresql":
            self._pg = _PgWriter(self.engine)
        if self._lock is not None:
            sync = create_engine(sync_url(url), hide_parameters=True,
                                 json_serializer=_json_text)
            event.listen(sync, "connect", _sqlite_pragmas)
            self._sync = _SyncWriter(sync)
            self._sync_thread = concurrent.futures.ThreadPoolExecutor(
                1, thread_name_prefix="stich-db")

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[None]:
        """SQLite: one write transaction of this process at a time (the others wait
        here, not in SQLite's busy handler, which sleeps up to 100 ms a try)."""
        if self._lock is None:
            yield
            return
        async with self._lock:
            yield

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    async def ping(self, write: bool = False) -> None:
        """Raise unless the database answers; ``write``: unless it also takes a write
        (SQLite, whose file may be on a full disk: a transaction that writes its
        header, on the writer's own connection)."""
        if write and self._sync is not None and self._sync_thread is not None:
            await asyncio.get_running_loop().run_in_executor(self._sync_thread,
                                                             self._sync.probe)
            return
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    async def checkpoint(self) -> None:
        """SQLite: the WAL written into the database file and cut back (after an
        outage, whose retries may have made it grow); nothing elsewhere."""
        if self._sync is not None and self._sync_thread is not None:
            await asyncio.get_running_loop().run_in_executor(self._sync_thread,
                                                             self._sync.checkpoint)

    async def close(self) -> None:
        if self._pg is not None:
            await self._pg.close()
        await self.engine.dispose()
        if self._sync is not None and self._sync_thread is not None:
            self._sync_thread.submit(self._sync.close).result()
            self._sync_thread.shutdown()

    # --- users and sessions --------------------------------------------------------------

    async def create_user(self, name: str, key: str, look: str,
                          password_hash: str) -> User:
        """A new registered account; ``key`` and ``look``, the name's keys
        (``names.name_key``, ``names.look_key``), are unique (a guest:
        :meth:`create_guest`)."""
        user = User(name=name, name_key=key, look_key=look, password_hash=password_hash,
                    guest=False, created_at=now())
        try:
            async with self._writing(), self.session.begin() as s:
                s.add(user)
        except IntegrityError:
            raise ArgumentError("auth.name_taken", name=name) from None
        return user

    async def user_by_key(self, key: str) -> User | None:
        """The account whose name has this key (``names.name_key``)."""
        if "\x00" in key:  # no key has one, and PostgreSQL text cannot hold it
            return None
        async with self.session() as s:
            return (await s.execute(select(User).where(User.name_key == key))
                    ).scalar_one_or_none()

    async def name_holders(self, key: str, look: str) -> list[User]:
        """Who holds a name with one of these keys (``names.name_key``,
        ``names.look_key``; none, one, or two accounts): registered players, and guests
        with a live session.  A guest found without one lets go of the name on the spot
        (its keys become random ones, as at its last session's end)."""
        if "\x00" in key + look:
            return []
        async with self.session() as s:
            found = list((await s.execute(select(User).where(
                or_(User.name_key == key, User.look_key == look)))).scalars())
        if any(u.guest for u in found):
            async with self._writing(), self.session.begin() as s:
                freed = await _release_names(s, [u.id for u in found if u.guest])
            found = [u for u in found if u.id not in freed]
        return found

    async def user(self, user_id: int) -> User | None:
        async with self.session() as s:
            return await s.get(User, user_id)

    async def users(self, *, guests: bool | None = None, limit: int = 1000) -> list[User]:
        async with self.session() as s:
            q = select(User).order_by(User.id).limit(limit)
            if guests is not None:
                q = q.where(User.guest.is_(guests))
            return list((await s.execute(q)).scalars())

    async def register_guest(self, user_id: int, name: str, key: str, look: str,
                             password_hash: str) -> User:
        """A guest becomes a registered player (under a new name, if given); the games
        played as the guest stay theirs."""
        try:
            async with self._writing(), self.session.begin() as s:
                user = await s.get(User, user_id)
                assert user is not None
                user.name, user.name_key, user.look_key = name, key, look
                user.password_hash, user.guest = password_hash, False
                await s.execute(update(GamePlayer).where(GamePlayer.user_id == user_id)
                                .values(name=name))
        except IntegrityError:
            raise ArgumentError("auth.name_taken", name=name) from None
        return user

    async def set_password(self, user_id: int, password_hash: str) -> None:
        async with self._writing(), self.session.begin() as s:
            await s.execute(update(User).where(User.id == user_id)
                            .values(password_hash=password_hash))

    async def new_session(self, user_id: int) -> str:
        token = secrets.token_urlsafe(32)
        async with self._writing(), self.session.begin() as s:
            s.add(_session_row(token, user_id))
        return token

    async def create_guest(self, name: str, key: str, look: str) -> tuple[User, str]:
        """A new guest account and a session for it, in one transaction (one commit).
        The guest holds its name's keys (``names.name_key``, ``names.look_key``) while
        it has a live session: of several asking for one name at once, the database's
        unique keys let one have it (the others: ``auth.name_taken``).  Returns the
        account and the new session's token."""
        user = User(name=name, name_key=key, look_key=look, password_hash=None, guest=True,
                    created_at=now())
        token = secrets.token_urlsafe(32)
        try:
            async with self._writing(), self.session.begin() as s:
                s.add(user)
                await s.flush()
                s.add(_session_row(token, user.id))
        except IntegrityError:
            raise ArgumentError("auth.name_taken", name=name) from None
        return user, token

    async def session_of(self, token: str) -> tuple[User, str] | None:
        """The user of a session token and the token's hash (None: no such session, or
        it has expired)."""
        digest = token_hash(token)
        # one query (every request with a cookie asks this: two lookups cost twice)
        async with self.session() as s:
            row = (await s.execute(_SESSION_OF, {"digest": digest})).first()
        if row is None or _aware(row[1]) < now():
            return None
        return row[0], digest

    async def live_sessions(self, hashes: Collection[str]) -> set[str]:
        """Which of these sessions (token hashes) still exist and have not expired."""
        if not hashes:
            return set()
        async with self.session() as s:
            q = select(Session.token_hash).where(Session.token_hash.in_(list(hashes)),
                                                 Session.expires_at > now())
            return set((await s.execute(q)).scalars())

    async def session_hashes(self, user_id: int, keep: str | None = None) -> list[str]:
        """The token hashes of a user's sessions (but ``keep``)."""
        async with self.session() as s:
            q = select(Session.token_hash).where(Session.user_id == user_id)
            return [h for h in (await s.execute(q)).scalars() if h != keep]

    async def end_sessions(self, hashes: Collection[str]) -> None:
        """End sessions (by token hash); a guest left without a live session lets go of
        its name (its keys become random ones: anybody may take the name now)."""
        if not hashes:
            return
        async with self._writing(), self.session.begin() as s:
            users = list((await s.execute(select(Session.user_id).where(
                Session.token_hash.in_(list(hashes))))).scalars())
            await s.execute(delete(Session).where(Session.token_hash.in_(list(hashes))))
            await _release_names(s, users)

    # --- where accounts logged in before -------------------------------------------------

    async def known_login(self, key: str, device: str | None, address: str) -> bool:
        """Whether the account of the name key ``key`` logged in before in this browser
        (``device``, its device cookie's hash: within :data:`DEVICE_DAYS`) or from this
        address (a hash of its key: within :data:`ADDRESS_DAYS`).  One query, whether
        the name is anybody's or not."""
        if "\x00" in key:
            return False
        at = now()
        known = and_(KnownLogin.kind == "address", KnownLogin.hash == address,
                     KnownLogin.last_used > at - timedelta(days=ADDRESS_DAYS))
        if device is not None:
            known = or_(known, and_(KnownLogin.kind == "device", KnownLogin.hash == device,
                                    KnownLogin.last_used > at - timedelta(days=DEVICE_DAYS)))
        q = (select(KnownLogin.user_id).join(User, User.id == KnownLogin.user_id)
             .where(User.name_key == key, known).limit(1))
        async with self.session() as s:
            return (await s.execute(q)).first() is not None

    async def knows_device(self, user_id: int, device: str) -> bool:
        """Whether this browser (its device cookie's hash) logged in to the account."""
        async with self.session() as s:
            return await s.get(KnownLogin, (user_id, "device", device)) is not None

    async def remember_login(self, user_id: int, device: str, address: str) -> None:
        """The account logged in in this browser (``device``: its device cookie's hash)
        from this address (a hash of its key); of each, the newest :data:`KNOWN_KEPT`
        are kept."""
        at = now()
        try:
            async with self._writing(), self.session.begin() as s:
                for kind, digest in (("device", device), ("address", address)):
                    row = await s.get(KnownLogin, (user_id, kind, digest))
                    if row is not None:
                        row.last_used = at
                    else:
                        s.add(KnownLogin(user_id=user_id, kind=kind, hash=digest,
                                         created_at=at, last_used=at))
                await s.flush()
                for kind in ("device", "address"):
                    old = list((await s.execute(
                        select(KnownLogin.hash).where(KnownLogin.user_id == user_id,
                                                      KnownLogin.kind == kind)
                        .order_by(KnownLogin.last_used.desc()).offset(KNOWN_KEPT))).scalars())
                    if old:
                        await s.execute(delete(KnownLogin).where(
                            KnownLogin.user_id == user_id, KnownLogin.kind == kind,
                            KnownLogin.hash.in_(old)))
        except IntegrityError:  # the same login at the same moment: it is remembered
            pass

    async def forget_logins(self, user_id: int, keep: Collection[str] = ()) -> None:
        """Forget where the account logged in (a new password: a thief's browser and
        address are strangers again), but the hashes in ``keep``."""
        async with self._writing(), self.session.begin() as s:
            await s.execute(delete(KnownLogin).where(KnownLogin.user_id == user_id,
                                                     KnownLogin.hash.not_in(list(keep))))

    async def seated_users(self) -> set[int]:
        """The accounts that sit at a table that is not over."""
        async with self.session() as s:
            q = select(TableRow.summary).where(TableRow.status != "over")
            out: set[int] = set()
            for summary in (await s.execute(q)).scalars():
                out |= {int(seat["user"]) for seat in summary.get("seats", [])
                        if seat.get("user") is not None}
            return out

    async def delete_user(self, user_id: int, neutral: str) -> None:
        """Delete an account: its sessions go, its finished games stay under the name
        ``neutral`` (the games' players, records and the seat events of its tables).
        Refused while it sits at a table that is not over."""
        if user_id in await self.seated_users():
            raise ArgumentError("auth.still_seated")
        async with self._writing(), self.session.begin() as s:
            await _forget_user(s, [user_id], neutral)

    async def purge(self, guest_days: float) -> tuple[int, int]:
        """Delete expired sessions, and guests older than ``guest_days`` without a
        session who sit at no live table (their games stay, under their name); free the
        names of guests without a live session, and forget logins of long ago.
        Returns (sessions, guests) deleted."""
        seated = await self.seated_users()
        async with self._writing(), self.session.begin() as s:
            gone = await s.execute(delete(Session).where(Session.expires_at < now()))
            holding = select(User.id).where(User.guest.is_(True),
                                            ~User.name_key.startswith(GUEST_KEY))
            await _release_names(s, list((await s.execute(holding)).scalars()))
            await s.execute(delete(KnownLogin).where(or_(
                and_(KnownLogin.kind == "device",
                     KnownLogin.last_used < now() - timedelta(days=DEVICE_DAYS)),
                and_(KnownLogin.kind == "address",
                     KnownLogin.last_used < now() - timedelta(days=ADDRESS_DAYS)))))
            q = (select(User.id).where(User.guest.is_(True),
                                       User.created_at < now() - timedelta(days=guest_days))
                 .where(~select(Session.token_hash).where(Session.user_id == User.id)
                        .exists()))
            guests = [u for u in (await s.execute(q)).scalars() if u not in seated]
            if guests:
                await _forget_user(s, guests, None)
        return int(getattr(gone, "rowcount", 0) or 0), len(guests)

    # --- tables and events ---------------------------------------------------------------

    async def create_table(self, row: TableRow, events: Sequence[Event]) -> None:
        async with self._writing(), self.session.begin() as s:
            s.add(row)
            await s.flush()
            for ev in events:
                s.add(_event_row(row.id, ev))

    async def table(self, table_id: str) -> TableRow | None:
        if "\x00" in table_id:  # no id has one, and PostgreSQL text cannot hold it
            return None
        async with self.session() as s:
            return await s.get(TableRow, table_id)

    async def tables(self, *, public_only: bool, statuses: Sequence[str],
                     limit: int = 200, per_creator: int | None = None) -> list[TableRow]:
        """Tables of these statuses, newest first; with ``per_creator``: tables waiting
        for players first, and at most that many of one creator's account and of one
        creator's address (counted by the database before the limit, so that the
        tables of a few do not push everybody else's out)."""
        async with self.session() as s:
            where = [TableRow.status.in_(statuses)]
            if public_only:
                where.append(TableRow.public.is_(True))
            if per_creator is None:
                q = select(TableRow).where(*where).order_by(TableRow.created_at.desc())
                return list((await s.execute(q.limit(limit))).scalars())
            newest = TableRow.created_at.desc()
            ranked = select(
                TableRow.id,
                func.row_number().over(
                    partition_by=func.coalesce(TableRow.creator_addr, TableRow.id),
                    order_by=newest).label("by_addr"),
                func.row_number().over(
                    partition_by=func.coalesce(cast(TableRow.created_by, String), TableRow.id),
                    order_by=newest).label("by_user"),
            ).where(*where).subquery()
            q = (select(TableRow).join(ranked, ranked.c.id == TableRow.id)
                 .where(ranked.c.by_addr <= per_creator, ranked.c.by_user <= per_creator)
                 .order_by(case((TableRow.status == "waiting", 0), else_=1), newest)
                 .limit(limit))
            return list((await s.execute(q)).scalars())

    async def summaries(self, statuses: Sequence[str], limit: int = 1000
                        ) -> list[tuple[str, dict[str, Any]]]:
        """The id and the summary (seats and names) of every table of these statuses,
        newest first: what ``/api/me/seats`` looks through on every page a person
        loads (the whole rows, with their settings, cost it several times as much)."""
        async with self.session() as s:
            q = select(TableRow.id, TableRow.summary).where(TableRow.status.in_(statuses)) \
                .order_by(TableRow.created_at.desc()).limit(limit)
            return [(str(i), dict(summary or {})) for i, summary in (await s.execute(q)).all()]

    async def live_table_ids(self) -> list[str]:
        async with self.session() as s:
            q = select(TableRow.id).where(TableRow.status != "over")
            return list((await s.execute(q)).scalars())

    async def live_tables(self) -> list[tuple[str, int, str, datetime | None]]:
        """Every table that is not over: id, last event number, status, last change."""
        async with self.session() as s:
            q = select(TableRow.id, TableRow.seq, TableRow.status, TableRow.updated_at) \
                .where(TableRow.status != "over")
            return [(i, n, st, None if at is None else _aware(at))
                    for i, n, st, at in (await s.execute(q)).all()]

    async def open_tables(self, *, created_by: int) -> list[TableRow]:
        """The tables not over that an account created (a tournament's round tables
        not among them: its organiser did not open them for himself)."""
        async with self.session() as s:
            q = select(TableRow).where(TableRow.status != "over",
                                       TableRow.created_by == created_by, _NOT_A_ROUND)
            return list((await s.execute(q.limit(1000))).scalars())

    async def count_open_tables(self, *, created_by: int | None = None,
                                creator_addr: str | None = None) -> int:
        """How many tables not over an account, or an address, created (counted by the
        database: no row is loaded; a tournament's round tables are not counted)."""
        q = select(func.count()).select_from(TableRow).where(TableRow.status != "over",
                                                              _NOT_A_ROUND)
        if created_by is not None:
            q = q.where(TableRow.created_by == created_by)
        if creator_addr is not None:
            q = q.where(TableRow.creator_addr == creator_addr)
        async with self.session() as s:
            return int((await s.execute(q)).scalar_one())

    async def events(self, table_id: str, after: int = 0,
                     limit: int | None = None) -> list[Event]:
        """The table's events after event ``after`` (at most ``limit`` of them)."""
        async with self.session() as s:
            q = (select(EventRow.seq, EventRow.kind, EventRow.seat, EventRow.data)
                 .where(EventRow.table_id == table_id, EventRow.seq > after)
                 .order_by(EventRow.seq))
            if limit is not None:
                q = q.limit(limit)
            return [Event.load(seq, kind, seat, dict(data))
                    for seq, kind, seat, data in (await s.execute(q)).all()]

    async def seats_changed(self, table_id: str) -> datetime | None:
        """When a seat of the table was last taken or given up (None: never)."""
        async with self.session() as s:
            q = select(func.max(EventRow.created_at)).where(
                EventRow.table_id == table_id, EventRow.kind.in_(("seat", "leave")))
            at = (await s.execute(q)).scalar_one_or_none()
        return None if at is None else _aware(at)

    async def snapshot(self, table_id: str, fmt: int,
                       at_most: int | None = None) -> tuple[int, dict[str, Any]] | None:
        """The table's newest snapshot of format ``fmt`` (at event ``at_most`` or
        before, when given): its event number and its data."""
        async with self.session() as s:
            q = select(SnapshotRow.seq, SnapshotRow.data).where(
                SnapshotRow.table_id == table_id, SnapshotRow.format == fmt)
            if at_most is not None:
                q = q.where(SnapshotRow.seq <= at_most)
            row = (await s.execute(q.order_by(SnapshotRow.seq.desc()).limit(1))).first()
        if row is None:
            return None
        return int(row[0]), orjson.loads(row[1])

    async def save_snapshot(self, table_id: str, seq: int, fmt: int, data: str,
                            keep_from: int) -> None:
        """Keep a snapshot of the table at event ``seq`` (written once: another worker's
        of the same event stands), and forget its snapshots before event ``keep_from``."""
        row = {"table_id": table_id, "seq": seq, "format": fmt, "data": data,
               "created_at": now()}
        async with self._writing(), self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                from sqlalchemy.dialects.postgresql import insert as pg_insert

                await conn.execute(pg_insert(SnapshotRow).values(**row).on_conflict_do_nothing())
            else:
                from sqlalchemy.dialects.sqlite import insert as sqlite_insert

                await conn.execute(sqlite_insert(SnapshotRow).values(**row)
                                   .on_conflict_do_nothing())
            await conn.execute(delete(SnapshotRow).where(SnapshotRow.table_id == table_id,
                                                         SnapshotRow.seq < keep_from))

    async def append(self, table_id: str, events: Sequence[Event], *, status: str,
                     summary: dict[str, Any], games: Sequence[NewGame] = ()) -> bool:
        """Commit events (and the games they finish) at once.  False when another writer
        took one of these numbers first: nothing is written then.

        Returns after the commit.  The appends that arrive while a commit is under way
        (or within ``gather`` seconds of the last batch) wait for the next one and share
        it (a group commit: one fsync for many tables)."""
        if not events:
            return True
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue.append(_Append(table_id, events, status, summary, games, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queue())
        return await done

    async def _write_queue(self) -> None:
        loop = asyncio.get_running_loop()
        while self._queue:
            # busy (the last batch was taken less than ``gather`` ago): the appends that
            # come meanwhile join this batch; after a quiet spell a batch goes at once
            wait = self._last_write + self.gather - loop.time()
            if wait > 0:
                try:
                    await asyncio.sleep(wait)
                except BaseException:  # cancelled (the end of the process): so are they
                    for a in self._queue:
                        a.done.cancel()
                    self._queue = []
                    raise
            self._last_write = loop.time()
            batch, self._queue = self._queue, []
            batch.sort(key=lambda a: a.table_id)  # one lock order for every writer
            try:
                results = await self._commit(batch)
            except BaseException as e:
                for a in batch:
                    if not a.done.done():
                        if isinstance(e, Exception):
                            a.done.set_exception(e)
                        else:
                            a.done.cancel()
                if not isinstance(e, Exception):
                    raise
            else:
                for a, ok in zip(batch, results, strict=True):
                    if not a.done.done():
                        a.done.set_result(ok)

    async def _commit(self, batch: list[_Append]) -> list[bool]:
        """One transaction for the batch; when it fails (a lost race, or a deadlock with
        another worker), each append on its own, so only the loser is refused."""
        if len(batch) > 1:
            with contextlib.suppress(DBAPIError, sqlite3.DatabaseError):
                await self._transaction(batch)
                return [True] * len(batch)
        out = []
        for a in batch:
            try:
                await self._transaction([a])
                out.append(True)
            except (IntegrityError, sqlite3.IntegrityError):  # SQLite's own from the hot path
                out.append(False)
        return out

    async def _transaction(self, batch: list[_Append]) -> None:
        async with self._writing():
            if self._sync is not None:  # SQLite: the whole transaction in one thread call
                await asyncio.get_running_loop().run_in_executor(
                    self._sync_thread, self._sync.write, batch)
            elif self._pg is not None and self._pg.takes(batch):
                await self._pg.write(batch)
            else:
                async with self.engine.begin() as conn:
                    await _write_pg(conn, batch)

    async def take_lease(self, table_id: str, owner: str, until: float, now_: float) -> bool:
        """Own a table (drive its bots and timers) until ``until``: granted when free,
        expired, or already ours."""
        async with self._writing(), self.session.begin() as s:
            res = await s.execute(
                update(TableRow).where(TableRow.id == table_id)
                .where((TableRow.lease_owner.is_(None)) | (TableRow.lease_owner == owner)
                       | (TableRow.lease_until < now_))
                .values(lease_owner=owner, lease_until=until))
            return bool(getattr(res, "rowcount", 0))

    async def drop_lease(self, table_id: str, owner: str) -> None:
        async with self._writing(), self.session.begin() as s:
            await s.execute(update(TableRow).where(TableRow.id == table_id,
                                                   TableRow.lease_owner == owner)
                            .values(lease_owner=None, lease_until=None))

    # --- the Tagesskat (stich.server.daily) ---------------------------------------------

    async def daily_set(self, day: str, make: DailySet | None = None) -> DailySet | None:
        """A day's Tagesskat set; ``make``: stored first unless the day has one (two
        workers at once: the first one's stands, both answer with it)."""
        async with self.session() as s:
            found = await s.get(DailySet, day)
        if found is not None or make is None:
            return found
        try:
            async with self._writing(), self.session.begin() as s:
                s.add(make)
        except IntegrityError:  # another worker was quicker: its set stands
            pass
        async with self.session() as s:
            return await s.get(DailySet, day)

    async def daily_reference(self, day: str, reference: dict[str, Any]) -> None:
        """The bots' own result on a day's cards, kept once computed."""
        async with self._writing(), self.session.begin() as s:
            found = await s.get(DailySet, day)
            if found is not None and found.reference is None:
                found.reference = reference

    async def daily_entry(self, day: str, user_id: int) -> DailyEntry | None:
        async with self.session() as s:
            q = select(DailyEntry).where(DailyEntry.day == day, DailyEntry.user_id == user_id)
            return (await s.execute(q)).scalars().first()

    async def create_daily_table(self, entry: DailyEntry, row: TableRow,
                                 events: Sequence[Event]) -> bool:
        """A day's table of an account and its entry, together; False (nothing stored)
        when the account has its table of the day already."""
        try:
            async with self._writing(), self.session.begin() as s:
                s.add(row)
                await s.flush()
                for ev in events:
                    s.add(_event_row(row.id, ev))
                s.add(entry)
        except IntegrityError:
            return False
        return True

    async def daily_entries(self, days: Collection[str]) -> list[DailyEntry]:
        """The entries of these days (oldest first)."""
        if not days:
            return []
        async with self.session() as s:
            q = select(DailyEntry).where(DailyEntry.day.in_(list(days))) \
                .order_by(DailyEntry.id)
            return list((await s.execute(q)).scalars())

    async def games_of_tables(self, table_ids: Collection[str]) -> list[GameRow]:
        """The finished games of these tables, by table and number."""
        if not table_ids:
            return []
        async with self.session() as s:
            q = select(GameRow).where(GameRow.table_id.in_(list(table_ids))) \
                .order_by(GameRow.table_id, GameRow.number)
            return list((await s.execute(q)).scalars())

    # --- named rule sets -------------------------------------------------------------------

    async def rule_sets(self, user_id: int) -> list[RuleSet]:
        """An account's rule sets, by name."""
        async with self.session() as s:
            q = select(RuleSet).where(RuleSet.user_id == user_id) \
                .order_by(RuleSet.name_key, RuleSet.id)
            return list((await s.execute(q)).scalars())

    async def rule_set(self, set_id: int, user_id: int) -> RuleSet | None:
        """One rule set, if it is this account's (another's is as if it did not exist)."""
        if not 0 < set_id <= INT_MAX:
            return None
        async with self.session() as s:
            q = select(RuleSet).where(RuleSet.id == set_id, RuleSet.user_id == user_id)
            return (await s.execute(q)).scalars().first()

    async def save_rule_set(self, user_id: int, name: str, key: str, game: str, rules: str,
                            most: int) -> tuple[RuleSet, bool]:
        """Keep ``rules`` under ``name`` for the account: a set of the same name (its
        ``key``) gets the new rules, else a new one, refused when the account has ``most``
        already (0: no limit).  Returns the set and whether it is new.  The account's row
        is locked meanwhile (PostgreSQL; SQLite writes one at a time anyway), so that two
        saves at once cannot pass the limit together."""
        async with self._writing(), self.session.begin() as s:
            await s.execute(select(User.id).where(User.id == user_id).with_for_update())
            row = (await s.execute(select(RuleSet).where(
                RuleSet.user_id == user_id, RuleSet.name_key == key))).scalars().first()
            if row is not None:
                row.name, row.game, row.rules, row.updated_at = name, game, rules, now()
                return row, False
            if most:
                count = (await s.execute(select(func.count(RuleSet.id))
                                         .where(RuleSet.user_id == user_id))).scalar_one()
                if count >= most:
                    raise ArgumentError("server.rule_sets_full", most=most)
            row = RuleSet(user_id=user_id, name=name, name_key=key, game=game, rules=rules,
                          created_at=now(), updated_at=now())
            s.add(row)
            await s.flush()
            return row, True

    async def change_rule_set(self, set_id: int, user_id: int, name: str | None,
                              key: str | None, rules: str | None) -> RuleSet | None:
        """Rename a rule set or give it other rules (None: unchanged); None when the
        account has no such set.  A name another of its sets has is refused."""
        if not 0 < set_id <= INT_MAX:
            return None
        async with self._writing(), self.session.begin() as s:
            row = (await s.execute(select(RuleSet).where(
                RuleSet.id == set_id, RuleSet.user_id == user_id))).scalars().first()
            if row is None:
                return None
            if key is not None and name is not None and key != row.name_key:
                taken = (await s.execute(select(RuleSet.id).where(
                    RuleSet.user_id == user_id, RuleSet.name_key == key))).first()
                if taken is not None:
                    raise ArgumentError("server.rule_set_name_taken", name=name)
                row.name_key = key
            if name is not None:
                row.name = name
            if rules is not None:
                row.rules = rules
            row.updated_at = now()
            return row

    async def delete_rule_set(self, set_id: int, user_id: int) -> bool:
        """Delete one of the account's rule sets; False when it has no such set."""
        if not 0 < set_id <= INT_MAX:
            return False
        async with self._writing(), self.session.begin() as s:
            gone = await s.execute(delete(RuleSet).where(RuleSet.id == set_id,
                                                         RuleSet.user_id == user_id))
            return bool(getattr(gone, "rowcount", 0))

    # --- games, history, Bestenliste -----------------------------------------------------

    async def game(self, key: str) -> tuple[GameRow, TableRow] | None:
        """A finished game by its key, with its table (whose ``public`` and ``invite``
        say who may see it)."""
        if not key or len(key) > 16 or "\x00" in key:
            return None
        async with self.session() as s:
            row = (await s.execute(select(GameRow, TableRow)
                                   .join(TableRow, TableRow.id == GameRow.table_id)
                                   .where(GameRow.key == key))).first()
            return None if row is None else (row[0], row[1])

    async def game_players(self, game_ids: Sequence[int]) -> list[GamePlayer]:
        if not game_ids:
            return []
        async with self.session() as s:
            q = select(GamePlayer).where(GamePlayer.game_id.in_(game_ids)) \
                .order_by(GamePlayer.game_id, GamePlayer.seat)
            return list((await s.execute(q)).scalars())

    async def registered(self, user_ids: Collection[int]) -> set[int]:
        """Which of these accounts are registered players (not guests)."""
        if not user_ids:
            return set()
        async with self.session() as s:
            q = select(User.id).where(User.id.in_(list(user_ids)), User.guest.is_(False))
            return set((await s.execute(q)).scalars())

    async def table_games(self, table_id: str) -> list[GameRow]:
        async with self.session() as s:
            q = select(GameRow).where(GameRow.table_id == table_id).order_by(GameRow.number)
            return list((await s.execute(q)).scalars())

    async def user_games(self, user_id: int, viewer: int | None, limit: int = 100,
                         offset: int = 0) -> list[tuple[GameRow, GamePlayer]]:
        """A player's games, newest first: those of public tables, and of private
        tables only those the ``viewer`` played in too."""
        async with self.session() as s:
            seen: Any = TableRow.public.is_(True)
            if viewer is not None:  # (never "user_id = NULL": the bots' lines have that)
                mine = select(GamePlayer.game_id).where(GamePlayer.user_id == viewer)
                seen = seen | GameRow.id.in_(mine)
            q = (select(GameRow, GamePlayer).join(GamePlayer, GamePlayer.game_id == GameRow.id)
                 .join(TableRow, TableRow.id == GameRow.table_id)
                 .where(GamePlayer.user_id == user_id)
                 .where(seen)
                 .order_by(GameRow.finished_at.desc(), GameRow.id.desc())
                 .limit(min(limit, INT_MAX)).offset(min(offset, INT_MAX)))
            return [(g, p) for g, p in (await s.execute(q)).all()]

    async def played_at(self, user_id: int, table_id: str) -> bool:
        """Whether the account played a finished game of the table."""
        async with self.session() as s:
            q = (select(GamePlayer.id).join(GameRow, GameRow.id == GamePlayer.game_id)
                 .where(GameRow.table_id == table_id, GamePlayer.user_id == user_id).limit(1))
            return (await s.execute(q)).first() is not None

    async def skat_ranking(self, preset: str, since: datetime | None,
                           rules: str | None = None) -> list[dict[str, Any]]:
        """The Bestenliste: per registered player over their Skat games of a preset, or
        with ``rules`` of exactly that rule string (games under other house rules are never
        mixed in); not those a stand-in played for them (docs/server.md, "Whose game was
        it").  ``games`` counts the games a player played; ``sat_out`` (only when not 0)
        those he dealt at a table of four and sat out, whose Bilanz counts all the same
        (n × own − the sum of all: :func:`stich.skat_list.game_bilanz`)."""
        async with self.session() as s:
            q = (select(User.name, func.sum(GamePlayer.score), func.sum(GamePlayer.bilanz),
                        func.sum(_as_int(GamePlayer.sat_out.is_(False))),
                        func.sum(_as_int(GamePlayer.declarer & GamePlayer.won.is_(True))),
                        func.sum(_as_int(GamePlayer.declarer & GamePlayer.won.is_(False))),
                        func.sum(_as_int(GamePlayer.sat_out.is_(True))))
                 .join(GamePlayer, GamePlayer.user_id == User.id)
                 .join(GameRow, GameRow.id == GamePlayer.game_id)
                 .where(GameRow.game == SKAT.name,
                        GameRow.preset == preset if rules is None else GameRow.rules == rules,
                        User.guest.is_(False), GamePlayer.counts.is_(True))
                 .group_by(User.id, User.name))
            if since is not None:
                q = q.where(GameRow.finished_at >= since)
            rows = (await s.execute(q)).all()
        out = [{"name": n, "punktestand": int(p or 0), "bilanz": int(b or 0),
                "games": int(g or 0), "declarer_won": int(w or 0), "declarer_lost": int(lo or 0)}
               | ({"sat_out": int(sat)} if sat else {})
               for n, p, b, g, w, lo, sat in rows]
        out.sort(key=lambda r: (-r["bilanz"], -r["punktestand"], r["name"].casefold()))
        return out

    async def skat_house_rules(self, since: datetime | None,
                               limit: int = 20) -> list[tuple[str, int]]:
        """The rule strings other than the presets' that Skat games were played under
        (each with its number of games), most games first: the Bestenliste's choices."""
        async with self.session() as s:
            games = func.count(GameRow.id)
            q = (select(GameRow.rules, games)
                 .where(GameRow.game == SKAT.name, GameRow.preset == "custom")
                 .group_by(GameRow.rules).order_by(games.desc(), GameRow.rules).limit(limit))
            if since is not None:
                q = q.where(GameRow.finished_at >= since)
            return [(str(r), int(n)) for r, n in (await s.execute(q)).all()]

    async def baptisten_games(self, since: datetime | None, limit: int = 200,
                              public_only: bool = False
                              ) -> list[tuple[GameRow, list[GamePlayer]]]:
        async with self.session() as s:
            q = select(GameRow).where(GameRow.game == BAPTISTEN.name)
            if public_only:
                q = q.join(TableRow, TableRow.id == GameRow.table_id) \
                    .where(TableRow.public.is_(True))
            if since is not None:
                q = q.where(GameRow.finished_at >= since)
            q = q.order_by(GameRow.finished_at.desc()).limit(limit)
            games = list((await s.execute(q)).scalars())
        players = await self.game_players([g.id for g in games])
        by_game: dict[int, list[GamePlayer]] = {}
        for p in players:
            by_game.setdefault(p.game_id, []).append(p)
        return [(g, by_game.get(g.id, [])) for g in games]

    async def mark_whose(self, table_id: str, number: int, marks: dict[str, list[int]],
                         standin: Collection[int], absent: Collection[int]) -> bool:
        """Whose a stored game was (``stich admin recount``): its record's ``marks``
        (``standin`` / ``clock`` actions) and per seat ``standin`` and ``counts``.
        False when the table has no such game."""
        async with self._writing(), self.engine.begin() as conn:
            found = (await conn.execute(select(GameRow.id, GameRow.record).where(
                GameRow.table_id == table_id, GameRow.number == number))).first()
            if found is None:
                return False
            game_id, record = found
            if any(record.get(k) != v for k, v in marks.items()):
                await conn.execute(update(GameRow).where(GameRow.id == game_id)
                                   .values(record={**record, **marks}))
            players = (await conn.execute(select(GamePlayer.seat)
                                          .where(GamePlayer.game_id == game_id))).scalars()
            for seat in list(players):
                await conn.execute(
                    update(GamePlayer)
                    .where(GamePlayer.game_id == game_id, GamePlayer.seat == seat)
                    .values(standin=seat in standin, counts=seat not in absent))
            return True

    async def analysis(self, game_id: int, lang: str) -> dict[str, Any] | None:
        async with self.session() as s:
            row = await s.get(Analysis, (game_id, lang))
            return None if row is None else dict(row.result)

    async def save_analysis(self, game_id: int, lang: str, result: dict[str, Any]) -> None:
        try:
            async with self._writing(), self.session.begin() as s:
                s.add(Analysis(game_id=game_id, lang=lang, result=result))
        except IntegrityError:  # another worker was quicker: same answer
            pass


def _json_text(value: Any) -> str:
    """The JSON columns' text (every event's data and a table's summary at every action):
    orjson, compact UTF-8; read back as ``json.dumps`` wrote it."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:  # a lone surrogate: ASCII escapes, as json.dumps does
        return json.dumps(value)


class _SyncWriter:
    """SQLite: the writer thread's transactions, on one connection kept open between
    them (a connection taken from the pool and given back for every commit cost about as
    much as the statements: docs/speed.md).  A connection that failed is closed and the
    next transaction opens a new one.  Used by that one thread only."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.conn: Connection | None = None

    def _connection(self) -> Connection:
        if self.conn is None:
            self.conn = self.engine.connect()
        return self.conn

    def _transaction(self, work: Callable[[Connection], None]) -> None:
        conn = self._connection()
        try:
            with conn.begin():
                work(conn)
        except BaseException:
            # rolled back (a lost race: the connection goes on); broken or still in a
            # transaction (the rollback failed too): a new one next time
            if conn.invalidated or conn.closed or conn.in_transaction():
                self.conn = None
                with contextlib.suppress(Exception):
                    conn.close()
            raise

    def write(self, batch: list[_Append]) -> None:
        self._transaction(lambda conn: _write_batch(conn, batch))

    def probe(self) -> None:
        """A write that changes nothing: the header's user version set to itself."""
        def same_version(conn: Connection) -> None:
            raw = conn.exec_driver_sql("PRAGMA user_version").scalar()
            conn.exec_driver_sql(f"PRAGMA user_version={int(raw or 0)}")

        self._transaction(same_version)

    def checkpoint(self) -> None:
        conn = self._connection()
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.commit()

    def close(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.close()
            self.conn = None
        self.engine.dispose()


ROWS_PER_INSERT = 1000  # PostgreSQL: rows of one INSERT (at most 65,535 parameters)


def _insert(conn: Connection, table: Any, rows: list[dict[str, Any]]) -> None:
    """Insert rows.  PostgreSQL: as few multi-row INSERT statements, never psycopg's
    ``executemany``: that runs in pipeline mode, and a statement failing in a pipeline (a
    lost race on the unique (table, seq) key) aborts it, which psycopg logs as "error
    ignored terminating <AsyncPipeline [INERROR]>: pipeline aborted" although the error
    itself is handled here.  SQLite: ``executemany`` (no pipeline; fast)."""
    if not rows:
        return
    if conn.dialect.name != "postgresql":
        conn.execute(insert(table), rows)
        return
    for i in range(0, len(rows), ROWS_PER_INSERT):
        conn.execute(insert(table).values(rows[i:i + ROWS_PER_INSERT]))


_NOT_A_ROUND = ~select(TournamentTable.id).where(
    TournamentTable.table_id == TableRow.id).exists()
"""A table that no tournament's round plays (an organiser's round tables are the
tournament's, not his own: they count for none of his limits of open tables)."""

_SQLITE_EVENTS = (f"INSERT INTO {EventRow.__tablename__} (table_id, seq, kind, seat, data,"
                  " created_at) VALUES (?, ?, ?, ?, ?, ?)")
_SQLITE_TABLE = (f"UPDATE {TableRow.__tablename__} SET seq = ?, status = ?, summary = ?,"
                 " updated_at = ?, creator_addr = CASE WHEN ? = 'over' THEN NULL"
                 " ELSE creator_addr END WHERE id = ?")


_PG_EVENTS = (f"INSERT INTO {EventRow.__tablename__} (table_id, seq, kind, seat, data,"
              " created_at) VALUES ")
_PG_EVENT_ROW = "(%s, %s, %s, %s, %s::json, %s)"
_PG_TABLES = (
    f"UPDATE {TableRow.__tablename__} AS t SET seq = v.seq, status = v.status,"
    " summary = v.summary, updated_at = v.at, creator_addr = CASE WHEN v.status = 'over'"
    " THEN NULL ELSE t.creator_addr END FROM (VALUES ")
_PG_TABLE_ROW = "(%s::text, %s::int, %s::text, %s::json, %s::timestamptz)"
_PG_TABLES_END = ") AS v (id, seq, status, summary, at) WHERE t.id = v.id"


def _pg_events(rows: list[tuple[Any, ...]]) -> tuple[str, list[Any]]:
    """PostgreSQL: one multi-row INSERT of event rows (at most :data:`ROWS_PER_INSERT`)."""
    return (_PG_EVENTS + ", ".join([_PG_EVENT_ROW] * len(rows)),
            [x for row in rows for x in row])


def _pg_batch(batch: list[_Append], at: datetime
              ) -> tuple[list[tuple[Any, ...]], str, list[Any]]:
    """PostgreSQL: a batch's event rows, and the one UPDATE of its tables' rows from a
    list of values with its parameters: one row per table, its last append's (a list
    naming a table twice would update it from either row)."""
    events = [(a.table_id, ev.seq, ev.kind, ev.seat, _json_text(ev.data), at)
              for a in batch for ev in a.events]
    tables = {a.table_id: (a.table_id, a.events[-1].seq, a.status, _json_text(a.summary),
                           at) for a in batch}
    sql = _PG_TABLES + ", ".join([_PG_TABLE_ROW] * len(tables)) + _PG_TABLES_END
    return events, sql, [x for row in tables.values() for x in row]


def _as_sqlalchemy(sql: str, e: Exception) -> DBAPIError:
    """psycopg's error as SQLAlchemy's statement path raises it (a lost race on the
    unique key an ``IntegrityError``)."""
    import psycopg

    if isinstance(e, psycopg.IntegrityError):
        return IntegrityError(sql, None, e)
    return DBAPIError(sql, None, e)


async def _write_pg(conn: AsyncConnection, batch: list[_Append]) -> None:
    """PostgreSQL: a batch's events and the tables' rows by psycopg itself, in the
    transaction of ``conn`` (SQLAlchemy's statement path and its greenlet hops cost more
    than the statements; docs/speed.md): the events in as few multi-row INSERTs as
    :func:`_insert` makes (never ``executemany``: see there), the tables' rows in one
    UPDATE; the rare finished games through SQLAlchemy."""
    import psycopg

    at = now()
    rows, tables_sql, tables_params = _pg_batch(batch, at)
    if any(a.games for a in batch):  # the finished games' lock before any row's
        from stich.server.store.ratings import LOCK  # (stich.server.store.ratings)

        await conn.execute(text(f"SELECT pg_advisory_xact_lock({LOCK})"))
    raw: Any = (await conn.get_raw_connection()).driver_connection
    sql = _PG_EVENTS
    try:
        async with raw.cursor() as cur:
            for i in range(0, len(rows), ROWS_PER_INSERT):
                sql, params = _pg_events(rows[i:i + ROWS_PER_INSERT])
                await cur.execute(sql, params)
            sql = tables_sql
            await cur.execute(sql, tables_params)
    except psycopg.Error as e:
        raise _as_sqlalchemy(sql, e) from e
    if any(a.games for a in batch):
        await conn.run_sync(_write_games, batch, at)


class _PgWriter:
    """PostgreSQL: the writer's own psycopg connection, kept open in autocommit mode, on
    which a batch's events and its tables' rows are one statement (the INSERT in a WITH
    clause, then the UPDATE of :func:`_pg_batch`): a statement on its own is a
    transaction, so the batch is committed whole or not at all, in one round trip.  A
    connection that failed is closed and the next batch opens a new one.  Used by the
    store's one writer task at a time."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.args, self.kwargs = engine.dialect.create_connect_args(engine.url)
        self.conn: Any = None

    @staticmethod
    def takes(batch: list[_Append]) -> bool:
        """A batch for one statement: no finished game (those go through SQLAlchemy,
        in a transaction) and not more events than one INSERT takes."""
        return (not any(a.games for a in batch)
                and sum(len(a.events) for a in batch) <= ROWS_PER_INSERT)

    async def write(self, batch: list[_Append]) -> None:
        import psycopg

        rows, tables_sql, tables_params = _pg_batch(batch, now())
        events_sql, params = _pg_events(rows)
        sql = "WITH e AS (" + events_sql + ") " + tables_sql
        for again in (True, False):
            kept = self.conn is not None and not self.conn.closed
            conn = self.conn
            if conn is None or conn.closed:
                conn = self.conn = await psycopg.AsyncConnection.connect(
                    *self.args, **{"connect_timeout": 3, **self.kwargs}, autocommit=True)
            try:
                await conn.execute(sql, params + tables_params)
                return
            except psycopg.Error as e:
                if conn.closed or conn.broken:
                    self.conn = None
                    with contextlib.suppress(Exception):
                        await conn.close()
                    # the kept connection broke while idle (the server restarted): the
                    # batch once more on a new one (had it been stored after all, the
                    # unique key refuses it: a lost race, the table reads the log)
                    if again and kept and isinstance(e, psycopg.OperationalError):
                        continue
                raise _as_sqlalchemy(sql, e) from e
            except BaseException:  # cancelled while the statement ran: what the
                self.conn = None  # connection is doing is unknown, the next batch opens
                with contextlib.suppress(BaseException):  # a new one
                    await conn.close()
                raise

    async def close(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await self.conn.close()
            self.conn = None


def _sqlite_time(at: datetime) -> str:
    """A time as SQLAlchemy's SQLite ``DateTime`` stores it (and reads it back)."""
    return at.replace(tzinfo=None).isoformat(" ", "microseconds")


def _write_batch(conn: Connection, batch: list[_Append]) -> None:
    """SQLite: the statements of a batch of appends, every event in one ``executemany``,
    the table rows' UPDATE, then the finished games; the events and the tables' rows by
    the sqlite3 connection itself, two fixed statements (SQLAlchemy's statement path cost
    more than SQLite's work, docs/speed.md), in the same transaction."""
    at = now()
    raw: Any = conn.connection.driver_connection
    stamp = _sqlite_time(at)
    raw.executemany(_SQLITE_EVENTS, [
        (a.table_id, ev.seq, ev.kind, ev.seat, _json_text(ev.data), stamp)
        for a in batch for ev in a.events])
    raw.executemany(_SQLITE_TABLE, [
        (a.events[-1].seq, a.status, _json_text(a.summary), stamp, a.status, a.table_id)
        for a in batch])
    _write_games(conn, batch, at)


def _write_games(conn: Connection, batch: list[_Append], at: datetime) -> None:
    """The batch's finished games, their lines, and the ratings they move (in the same
    transaction, after the finished games' lock: :mod:`stich.server.store.ratings`)."""
    from stich.server.store.ratings import lock, rate_stored_game

    if any(a.games for a in batch):
        lock(conn)
    for a in batch:
        for g in a.games:
            game_id = conn.execute(
                insert(GameRow).returning(GameRow.id),
                {"key": new_game_key(), "table_id": a.table_id, "number": g.number,
                 "game": g.game,
                 "rules": g.rules, "preset": g.preset, "record": g.record,
                 "finished_at": at}).scalar_one()
            _insert(conn, GamePlayer, [{"game_id": game_id, **p} for p in g.players])
            try:
                # a savepoint: ratings that cannot be moved (a mistake of ours) never
                # keep a table's game from being stored; the rebuild moves them later
                with conn.begin_nested():
                    rate_stored_game(conn, game_id, g.game, g.rules, g.players, at)
            except Exception:
                log.exception("ratings: game %s of table %s is stored without moving the "
                              "ratings; `stich admin ratings --rebuild` computes them "
                              "again from the stored games", game_id, a.table_id)


async def _forget_user(s: AsyncSession, user_ids: list[int], neutral: str | None) -> None:
    """Delete accounts in the transaction ``s``: their game lines lose the account
    (and, with ``neutral``, the name: in the lines, the records and the seat events of
    their tables), their tables their creator, then the accounts go."""
    ids = set(user_ids)
    lines = list((await s.execute(select(GamePlayer).where(GamePlayer.user_id.in_(ids))
                                  )).scalars())
    if neutral is not None:
        seats: dict[int, list[int]] = {}
        for p in lines:
            seats.setdefault(p.game_id, []).append(p.seat)
        for g in (await s.execute(select(GameRow).where(GameRow.id.in_(list(seats))))
                  ).scalars():
            record = dict(g.record)
            names = list(record.get("players", []))
            order = record.get("seats") or list(range(len(names)))  # Skat: by position
            for seat in seats[g.id]:
                if seat in order and order.index(seat) < len(names):
                    names[order.index(seat)] = neutral
                elif seat not in order and "sat_out" in record:  # the dealer who sat out
                    record["sat_out"] = neutral
            record["players"] = names
            await s.execute(update(GameRow).where(GameRow.id == g.id).values(record=record))
        await s.execute(update(GamePlayer).where(GamePlayer.user_id.in_(ids))
                        .values(name=neutral))
        tables = await _tables_seating(s, ids)  # (their games' tables among them)
        for ev in (await s.execute(select(EventRow).where(EventRow.table_id.in_(tables),
                                                          EventRow.kind == "seat"))).scalars():
            if ev.data.get("user") in ids:
                await s.execute(update(EventRow).where(EventRow.id == ev.id).values(
                    data={**ev.data, "user": None, "name": neutral}))
        for t in (await s.execute(select(TableRow).where(TableRow.id.in_(tables)))).scalars():
            summary = dict(t.summary)
            summary["seats"] = [{**seat, "user": None, "name": neutral}
                                if seat.get("user") in ids else seat
                                for seat in summary.get("seats", [])]
            await s.execute(update(TableRow).where(TableRow.id == t.id).values(summary=summary))
        tables |= await _forget_chat(s, ids, neutral)
        # the snapshots of those tables hold the old names: the log is read again
        await s.execute(delete(SnapshotRow).where(SnapshotRow.table_id.in_(tables)))
    await s.execute(update(GamePlayer).where(GamePlayer.user_id.in_(ids)).values(user_id=None))
    await s.execute(update(TableRow).where(TableRow.created_by.in_(ids)).values(created_by=None))
    await s.execute(delete(Session).where(Session.user_id.in_(ids)))
    await s.execute(delete(KnownLogin).where(KnownLogin.user_id.in_(ids)))
    await s.execute(delete(RuleSet).where(RuleSet.user_id.in_(ids)))
    await s.execute(delete(User).where(User.id.in_(ids)))


async def _forget_chat(s: AsyncSession, ids: set[int], neutral: str) -> set[str]:
    """In the transaction ``s``: the chat lines of these accounts (by the account a line
    keeps, or, for lines written before they kept one, by the account's name) are
    signed ``neutral`` from now on; the tables they were written at."""
    names = set((await s.execute(select(User.name).where(User.id.in_(ids)))).scalars())
    author = EventRow.data["user"].as_integer()
    q = select(EventRow).where(EventRow.kind == "chat", or_(
        author.in_(ids),
        and_(author.is_(None), EventRow.data["name"].as_string().in_(names))))
    tables: set[str] = set()
    for ev in (await s.execute(q)).scalars():
        await s.execute(update(EventRow).where(EventRow.id == ev.id).values(
            data={**ev.data, "user": None, "name": neutral}))
        tables.add(ev.table_id)
    return tables


async def _release_names(s: AsyncSession, user_ids: Collection[int]) -> set[int]:
    """In the transaction ``s``: the guests among these accounts that have no live
    session let go of their names (their keys become random ones, so that anybody may
    take the name); the ids of those that did.  A guest's finished games keep its name."""
    if not user_ids:
        return set()
    live = select(Session.token_hash).where(Session.user_id == User.id,
                                            Session.expires_at > now()).exists()
    q = select(User.id).where(User.id.in_(set(user_ids)), User.guest.is_(True),
                              ~User.name_key.startswith(GUEST_KEY), ~live)
    freed = set((await s.execute(q)).scalars())
    for uid in freed:
        key = random_guest_key()
        # the same condition again: a session made meanwhile keeps the name
        await s.execute(update(User).where(User.id == uid, ~live)
                        .values(name_key=key, look_key=key))
    return freed


def random_guest_key() -> str:
    """The keys of a guest that holds no name (no name's key starts so:
    ``names.check_new_name``)."""
    return f"{GUEST_KEY}{secrets.token_hex(8)}"


async def _tables_seating(s: AsyncSession, ids: set[int]) -> set[str]:
    """The tables (any status) at which one of these accounts sat (from the lobby's
    summary of each table)."""
    out = set()
    for tid, summary in (await s.execute(select(TableRow.id, TableRow.summary))).all():
        if any(seat.get("user") in ids for seat in summary.get("seats", [])):
            out.add(tid)
    return out


def _session_row(token: str, user_id: int) -> Session:
    return Session(token_hash=token_hash(token), user_id=user_id, created_at=now(),
                   expires_at=now() + timedelta(days=SESSION_DAYS))


def _aware(t: datetime) -> datetime:
    """A stored time with its zone (SQLite gives them back without)."""
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def _as_int(expr: Any) -> Any:
    return case((expr, 1), else_=0)


def _event_row(table_id: str, ev: Event) -> EventRow:
    return EventRow(table_id=table_id, seq=ev.seq, kind=ev.kind, seat=ev.seat, data=ev.data,
                    created_at=now())
