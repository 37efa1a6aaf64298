"""The stored ratings (docs/ratings.md): written with every finished game, in the
transaction that stores the game (so a crash or a retried commit never loses an update or
counts one twice), and rebuilt from the stored games (``stich admin ratings --rebuild``,
migration 0008).  Both go through :meth:`stich.ratings.Ratings.apply`, the games in the
order of their ids, so the rebuild equals what the games wrote one by one.

The order: every transaction that stores a finished game first takes one lock
(:data:`LOCK`: PostgreSQL's advisory lock for the transaction; SQLite writes one
transaction at a time anyway), so that the games' ids count up in the order their
ratings were updated, also with several workers.

Plain SQLAlchemy Core on a synchronous :class:`~sqlalchemy.engine.Connection`: the
server's writer runs it in its transaction (SQLite's thread, PostgreSQL's ``run_sync``),
the migration and the rebuild on their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert, select, text
from sqlalchemy.engine import Connection

from stich import games
from stich.ratings import (
    DECLARER,
    Change,
    Line,
    Rating,
    Ratings,
    entity_of,
    group_of,
    stored,
    user_of,
)
from stich.server.store.models import GamePlayer, GameRow, RatingHistory, RatingRow, User

if TYPE_CHECKING:
    from stich.server.store.db import Store

__all__ = ["CHUNK", "LOCK", "Rebuilt", "bot_ratings", "compute", "current", "group_ratings",
           "lock", "rate_stored_game", "rebuild", "replace", "user_history", "user_ratings"]

LOCK = 4716
"""PostgreSQL's advisory lock of the transactions that store finished games (4715 is the
migrations')."""
CHUNK = 500  # games read at a time by the rebuild


LINE_COLUMNS = (GamePlayer.game_id, GamePlayer.seat, GamePlayer.user_id, GamePlayer.bot,
                GamePlayer.score, GamePlayer.declarer, GamePlayer.won, GamePlayer.place,
                GamePlayer.counts, GamePlayer.sat_out)


def lock(conn: Connection) -> None:
    """Take the finished games' lock for the rest of the transaction (PostgreSQL)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text(f"SELECT pg_advisory_xact_lock({LOCK})"))


def _insert(conn: Connection, table: Any, rows: list[dict[str, Any]]) -> None:
    """Insert rows: on PostgreSQL as multi-row INSERTs, never psycopg's ``executemany``
    (its pipeline mode stalls inside the server's transaction: as ``db._insert``)."""
    for i in range(0, len(rows), CHUNK):
        part = rows[i:i + CHUNK]
        if conn.dialect.name == "postgresql":
            conn.execute(insert(table).values(part))
        else:
            conn.execute(insert(table), part)


def _line(p: dict[str, Any]) -> Line:
    return Line(seat=int(p["seat"]), user_id=p.get("user_id"), bot=p.get("bot"),
                score=int(p.get("score") or 0), declarer=bool(p.get("declarer")),
                won=p.get("won"), place=p.get("place"), counts=bool(p.get("counts", True)),
                sat_out=bool(p.get("sat_out", False)))


def _history_row(game_id: int, c: Change, at: datetime) -> dict[str, Any]:
    return {"game_id": game_id, "game": c.game, "rule_group": c.group, "entity": c.entity,
            "user_id": user_of(c.entity), "mu_before": c.before.mu,
            "sigma_before": c.before.sigma, "mu": c.after.mu, "sigma": c.after.sigma,
            "at": at}


def rate_stored_game(conn: Connection, game_id: int, game: str, rules: str,
                     players: Sequence[dict[str, Any]], at: datetime) -> list[Change]:
    """Update the ratings by one finished game just stored (``game_id``) in the
    transaction of ``conn``; nothing when the game already has its history (once per
    game)."""
    done = conn.execute(select(RatingHistory.id).where(RatingHistory.game_id == game_id)
                        .limit(1)).first()
    if done is not None:
        return []
    lines = [_line(p) for p in players]
    group = group_of(game, rules)
    entities = sorted({e for x in lines if (e := entity_of(x)) is not None and stored(e)}
                      | ({DECLARER} if games.get(game).rated_by == "declarer" else set()))
    book = Ratings()
    counts: dict[str, int] = {}
    if entities:
        for e, mu, sigma, n in conn.execute(
                select(RatingRow.entity, RatingRow.mu, RatingRow.sigma, RatingRow.games)
                .where(RatingRow.game == game, RatingRow.rule_group == group,
                       RatingRow.entity.in_(entities))):
            book.table[(game, group, e)] = Rating(float(mu), float(sigma))
            counts[e] = int(n)
    changes = book.apply(game, rules, lines, group=group)
    if not changes:
        return []
    _insert(conn, RatingHistory, [_history_row(game_id, c, at) for c in changes])
    known = set(counts)
    for c in changes:
        if c.entity in known:
            conn.execute(RatingRow.__table__.update()  # type: ignore[attr-defined]
                         .where(RatingRow.game == game, RatingRow.rule_group == group,
                                RatingRow.entity == c.entity)
                         .values(mu=c.after.mu, sigma=c.after.sigma,
                                 games=counts[c.entity] + 1, updated_at=at))
        else:
            conn.execute(insert(RatingRow).values(
                game=game, rule_group=group, entity=c.entity, user_id=user_of(c.entity),
                mu=c.after.mu, sigma=c.after.sigma, games=1, updated_at=at))
    return changes


def _games(conn: Connection, after: int = 0
           ) -> Iterable[tuple[Any, list[dict[str, Any]]]]:
    """The stored games after id ``after`` (id, game, rules, finished_at) with their
    lines, by id."""
    cols = (GameRow.id, GameRow.game, GameRow.rules, GameRow.finished_at)
    while True:
        rows = list(conn.execute(select(*cols).where(GameRow.id > after)
                                 .order_by(GameRow.id).limit(CHUNK)))
        if not rows:
            return
        after = rows[-1].id
        lines: dict[int, list[dict[str, Any]]] = {}
        # only these columns (a later migration may add others: 0008 runs before it)
        q = select(*LINE_COLUMNS).where(GamePlayer.game_id.in_([r.id for r in rows])) \
            .order_by(GamePlayer.game_id, GamePlayer.seat)
        for p in conn.execute(q).mappings():
            lines.setdefault(p["game_id"], []).append(dict(p))
        for r in rows:
            yield r, lines.get(r.id, [])


@dataclass
class Rebuilt:
    """The ratings worked out from the stored games up to game id ``last``."""

    book: Ratings = field(default_factory=Ratings)
    counts: dict[tuple[str, str, str], int] = field(default_factory=dict)
    last_at: dict[tuple[str, str, str], datetime] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)
    last: int = 0
    rated: int = 0


def compute(conn: Connection, done: Rebuilt | None = None) -> Rebuilt:
    """Rate the stored games after ``done.last`` (all: ``done`` None) on from ``done``,
    in memory (reads only)."""
    out = done or Rebuilt()
    for g, players in _games(conn, out.last):
        out.last = g.id
        changes = out.book.apply(g.game, g.rules, [_line(p) for p in players])
        out.rated += bool(changes)
        for c in changes:
            key = (c.game, c.group, c.entity)
            out.counts[key] = out.counts.get(key, 0) + 1
            out.last_at[key] = g.finished_at
            out.history.append(_history_row(g.id, c, g.finished_at))
    return out


def replace(conn: Connection, done: Rebuilt) -> tuple[int, int]:
    """In the transaction of ``conn``: the games stored since ``done`` was computed
    rated too (under the finished games' lock, so none comes meanwhile), then the
    stored ratings and their history replaced by it.  Returns (games that moved a
    rating, ratings kept)."""
    lock(conn)
    compute(conn, done)
    conn.execute(delete(RatingHistory))
    conn.execute(delete(RatingRow))
    _insert(conn, RatingHistory, done.history)
    rows = [{"game": game, "rule_group": group, "entity": e, "user_id": user_of(e),
             "mu": r.mu, "sigma": r.sigma, "games": done.counts[(game, group, e)],
             "updated_at": done.last_at[(game, group, e)]}
            for (game, group, e), r in done.book.table.items()]
    _insert(conn, RatingRow, rows)
    return done.rated, len(rows)


def rebuild(conn: Connection) -> tuple[int, int]:
    """Work out every rating again from the stored games, oldest id first, in the
    transaction of ``conn`` (the ratings and their history replaced); returns (games
    that moved a rating, ratings kept).  (``stich admin ratings --rebuild`` computes
    first, reading only, and writes in a short transaction: :func:`compute`,
    :func:`replace`.)"""
    return replace(conn, compute(conn))


def current(conn: Connection) -> dict[tuple[str, str, str], tuple[float, float, int]]:
    """Every stored rating: (game, group, entity) → (mu, sigma, games) (for the tests
    and the operator's comparisons)."""
    q = select(RatingRow.game, RatingRow.rule_group, RatingRow.entity, RatingRow.mu,
               RatingRow.sigma, RatingRow.games)
    return {(g, gr, e): (float(mu), float(s), int(n)) for g, gr, e, mu, s, n in conn.execute(q)}



# --- what the pages read (through the server's Store) --------------------------------------

async def group_ratings(store: Store, game: str, group: str) -> dict[str, dict[str, Any]]:
    """The ratings of a rule group by entity: ``{"user:3": {"mu", "sigma", "games",
    "name"}}`` (registered players' names; guests' and deleted accounts' lines are left
    out), the bots' under ``bot:<level>``."""
    q = (select(RatingRow.entity, RatingRow.mu, RatingRow.sigma, RatingRow.games,
                User.name, User.guest)
         .outerjoin(User, User.id == RatingRow.user_id)
         .where(RatingRow.game == game, RatingRow.rule_group == group))
    async with store.session() as s:
        rows = (await s.execute(q)).all()
    return {e: {"mu": float(mu), "sigma": float(sg), "games": int(n), "name": name}
            for e, mu, sg, n, name, guest in rows
            if e.startswith("bot:") or (name is not None and not guest)}


async def user_ratings(store: Store, user_id: int) -> list[dict[str, Any]]:
    """An account's ratings, one per game and rule group (most games first)."""
    q = (select(RatingRow.game, RatingRow.rule_group, RatingRow.mu, RatingRow.sigma,
                RatingRow.games)
         .where(RatingRow.user_id == user_id)
         .order_by(RatingRow.games.desc(), RatingRow.game, RatingRow.rule_group))
    async with store.session() as s:
        rows = (await s.execute(q)).all()
    return [{"game": g, "group": gr, "mu": float(mu), "sigma": float(sg), "games": int(n)}
            for g, gr, mu, sg, n in rows]


async def user_history(store: Store, user_id: int, game: str, group: str,
                       limit: int = 500) -> list[dict[str, Any]]:
    """An account's rating after each of its last ``limit`` rated games of a group,
    oldest first: ``{"mu", "sigma", "at"}`` (no game's address: a private table's game
    stays private, the figure alone tells nothing of it)."""
    q = (select(RatingHistory.mu, RatingHistory.sigma, RatingHistory.at)
         .where(RatingHistory.user_id == user_id, RatingHistory.game == game,
                RatingHistory.rule_group == group)
         .order_by(RatingHistory.id.desc()).limit(limit))
    async with store.session() as s:
        rows = (await s.execute(q)).all()
    return [{"mu": float(mu), "sigma": float(sg), "at": at.isoformat()}
            for mu, sg, at in reversed(rows)]


async def bot_ratings(store: Store, game: str, group: str) -> dict[str, dict[str, Any]]:
    """The bots' ratings of a group by level (for "plays like ``strong``")."""
    return {e.split(":", 1)[1]: r for e, r in (await group_ratings(store, game, group)).items()
            if e.startswith("bot:")}
