"""The database tables (SQLAlchemy 2).  The schema itself is made by the Alembic
migrations in ``migrations/``; these classes must match them (a test compares).

- ``users``: registered players and guests (a guest has no password until it registers).
- ``sessions``: login sessions; the cookie holds a random token, the table its SHA-256.
- ``known_logins``: where an account logged in before (a browser's device cookie, an
  address, each as a hash): the owner gets past a lock that others' wrong passwords put
  on the name.
- ``tables``: a table's settings (with its secret deal seed) and where it stands.
- ``events``: the append-only event log; (table_id, seq) is unique: the lock that lets
  any worker append, and the fence against two writers.
- ``snapshots``: a table's state at an event (:mod:`stich.server.snapshot`), so that a
  table loads from its newest snapshots and the events after them, not its whole log;
  the two newest of each table are kept.
- ``games``: every finished game's record (addressed by a random ``key``: ids that count
  up would let anyone walk through private games); ``game_players`` a line per player for the
  Bestenliste and the history (at a Skat table of four also the dealer who sat out:
  ``sat_out``); ``analyses`` cached analyses of Skat games.
- ``ratings``: the current rating of every rated entity (an account ``user:<id>``, a bot
  ``bot:<level>``) per game and rule group (:mod:`stich.ratings`); ``rating_history``
  its value after each game that moved it (migration 0008, docs/ratings.md).
- ``rule_sets``: the named rule sets a registered player saved ("Skatclub Eiche"): a
  game's rule string under a name, unique per account (by the name's case-folded key).
- ``tournaments``, ``tournament_players``, ``tournament_tables``: a tournament, who
  plays it, and its rounds' tables (ordinary tables; stich.server.tournament_store).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = ["Analysis", "Base", "EventRow", "GamePlayer", "GameRow", "RatingHistory",
           "RatingRow", "RuleSet", "Session", "SnapshotRow", "TableRow", "Tournament",
           "TournamentPlayer", "TournamentTable", "User"]


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON,
                                                     list[Any]: JSON}


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    # the name's keys (stich.server.names: name_key, the case-folded confusables
    # skeleton; look_key, the skeleton case-folded): two names are one when either is.
    # A guest holds its name's keys while it has a live session; then random ones
    # ("guest:…"), and the name is free
    name_key: Mapped[str] = mapped_column(String(100), unique=True)
    look_key: Mapped[str] = mapped_column(String(100))
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (UniqueConstraint("look_key", name="uq_users_look_key"),)


class Session(Base):
    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class KnownLogin(Base):
    __tablename__ = "known_logins"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)  # device | address
    # the device cookie's SHA-256, or a hash of the address's key
    hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TableRow(Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    rules: Mapped[str] = mapped_column(String(200))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    invite: Mapped[str] = mapped_column(String(64))
    public: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(16))  # waiting | running | over
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seq: Mapped[int] = mapped_column(Integer, default=0)  # the last event's number
    summary: Mapped[dict[str, Any]] = mapped_column(JSON)  # seats and names, for the lobby
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    # the creator's address (a hash of its key), for the quota of open tables per address
    creator_addr: Mapped[str | None] = mapped_column(String(64), nullable=True)
    updated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                        nullable=True)  # the last event
    __table_args__ = (Index("ix_tables_status", "status"),
                      Index("ix_tables_created_by", "created_by"))


class EventRow(Base):
    __tablename__ = "events"
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"),
                                    primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_events_table_seq"),
                      # the chat lines (an account's, when it is deleted), few of the log
                      Index("ix_events_chat", "table_id", sqlite_where=text("kind = 'chat'"),
                            postgresql_where=text("kind = 'chat'")))


class SnapshotRow(Base):
    __tablename__ = "snapshots"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # the event it stands at
    format: Mapped[int] = mapped_column(Integer)  # stich.server.snapshot.FORMAT
    data: Mapped[str] = mapped_column(Text)  # JSON
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameRow(Base):
    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)  # never shown
    key: Mapped[str] = mapped_column(String(16), unique=True)  # random: the game's address
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)  # the game's number at its table
    game: Mapped[str] = mapped_column(String(16))
    rules: Mapped[str] = mapped_column(String(200))
    preset: Mapped[str] = mapped_column(String(32))  # lothar | isko | custom | baptisten…
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (UniqueConstraint("table_id", "number", name="uq_games_table_number"),
                      Index("ix_games_finished", "finished_at"))


class GamePlayer(Base):
    __tablename__ = "game_players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)  # table seat
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    score: Mapped[int] = mapped_column(Integer)  # Skat: list score; Baptisten: total
    bilanz: Mapped[int] = mapped_column(Integer)  # Skat: the game's Bilanz; else 0
    declarer: Mapped[bool] = mapped_column(Boolean)
    won: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)  # Baptistenskat
    # a stand-in moved for the seat; the game counts for the person (not when the
    # stand-in played it for her: docs/server.md, "Whose game was it")
    standin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    counts: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # a Skat table of four: the dealer who sat this game out (score 0; his Bilanz counts,
    # the game does not count as one he played; migration 0007)
    sat_out: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    __table_args__ = (Index("ix_game_players_user", "user_id"),)


class Analysis(Base):
    __tablename__ = "analyses"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    lang: Mapped[str] = mapped_column(String(4), primary_key=True)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)


class RuleSet(Base):
    __tablename__ = "rule_sets"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(40))  # as its owner wrote it
    name_key: Mapped[str] = mapped_column(String(160))  # NFKC, case-folded: unique per owner
    game: Mapped[str] = mapped_column(String(16))
    rules: Mapped[str] = mapped_column(String(200))  # the canonical rule string
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (UniqueConstraint("user_id", "name_key", name="uq_rule_sets_user_name"),)


class DailySet(Base):
    """A day's Tagesskat (stich.server.daily): its secret seed (never sent out), rules,
    games and bots, and the bots' own result on its cards once computed (migration 0010)."""

    __tablename__ = "daily_sets"
    day: Mapped[str] = mapped_column(String(10), primary_key=True)  # YYYY-MM-DD (UTC)
    seed: Mapped[int] = mapped_column(BigInteger)
    rules: Mapped[str] = mapped_column(String(200))
    games: Mapped[int] = mapped_column(Integer)
    level: Mapped[str] = mapped_column(String(32))
    reference: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyEntry(Base):
    """An account's table of a day's Tagesskat: one per account and day."""

    __tablename__ = "daily_entries"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    day: Mapped[str] = mapped_column(ForeignKey("daily_sets.day", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (UniqueConstraint("day", "user_id", name="uq_daily_entries_day_user"),
                      Index("ix_daily_entries_table", "table_id"))


class RatingRow(Base):
    """The current rating of an entity per game and rule group (:mod:`stich.ratings`)."""

    __tablename__ = "ratings"
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    # a preset's name, or the exact rule string (stich.ratings.group_of)
    rule_group: Mapped[str] = mapped_column(String(200), primary_key=True)
    entity: Mapped[str] = mapped_column(String(40), primary_key=True)  # user:<id> | bot:<level>
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                                nullable=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)  # the games that moved it
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (Index("ix_ratings_user", "user_id"),)


class RatingHistory(Base):
    """An entity's rating after one game that moved it (and before: ``mu_before``…)."""

    __tablename__ = "rating_history"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(16))
    rule_group: Mapped[str] = mapped_column(String(200))
    entity: Mapped[str] = mapped_column(String(40))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                                nullable=True)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (UniqueConstraint("game_id", "entity", name="uq_rating_history_game"),
                      Index("ix_rating_history_user", "user_id", "game", "rule_group", "id"))


class Tournament(Base):
    """A tournament (stich.server.tournament): its organiser, settings (the draws' seed
    included: never sent out), where it stands, and a version that every change counts
    up, so that two workers changing it at once cannot both win (migration 0009)."""

    __tablename__ = "tournaments"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    organiser: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    invite: Mapped[str] = mapped_column(String(64))
    public: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(16))  # registering | running | between | over
    paused: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    round: Mapped[int] = mapped_column(Integer, default=0)  # rounds started
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (Index("ix_tournaments_status", "status"),
                      Index("ix_tournaments_organiser", "organiser"))


class TournamentPlayer(Base):
    """A player registered for a tournament (accounts and guests): ``status``
    ``registered``, ``withdrawn`` (before the start) or ``replaced`` (by a bot, by the
    organiser); ``number`` the order of registration."""

    __tablename__ = "tournament_players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(16))
    number: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (UniqueConstraint("tournament_id", "user_id",
                                       name="uq_tournament_players_user"),
                      Index("ix_tournament_players_user", "user_id"))


class TournamentTable(Base):
    """A table of a tournament's round: the ordinary table that plays it, and per seat
    the account whose series it is (null: a bot's seat, or a player replaced by a bot);
    ``done`` once its series is over (its list has all its games, or it was closed)."""

    __tablename__ = "tournament_tables"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)  # the table's number in its round, from 1
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seats: Mapped[list[Any]] = mapped_column(JSON)  # per seat an account id or null
    games: Mapped[int] = mapped_column(Integer)  # the series' games
    done: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    __table_args__ = (UniqueConstraint("tournament_id", "round", "number",
                                       name="uq_tournament_tables_number"),
                      Index("ix_tournament_tables_table", "table_id"))
