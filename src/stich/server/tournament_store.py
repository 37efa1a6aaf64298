"""A tournament in the database: read it, change it, start a round's tables, see its
tables finish, and its standings from the stored games (the decisions are
:mod:`stich.server.tournament`'s; the routes are :mod:`stich.server.tournament_routes`).

Everything about a tournament lives in its rows, never only in memory: any worker can
answer for it, and a restart loses nothing.  Every change counts the tournament's
``version`` up in the transaction that makes it, on the condition that it is still the
version read (:func:`bump`): of two workers changing a tournament at once, one wins and
the other is refused (``tournament.busy``), never both.

A round's tables are ordinary tables (:mod:`stich.server.lobby`), created with every
drawn player already seated and bots in the bots' seats, so they start at once; play,
reconnects, stand-ins, the turn clock and a kill -9 are the tables' business.  A table
is done when its list has all its games (counted in the stored games), or when it is
over (closed) before that; the round is over when all its tables are done.  That is
looked at whenever the tournament is read (:func:`refresh`): no timer, nothing to lose.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, case, func, select, update
from sqlalchemy.exc import IntegrityError

from stich import games
from stich.core import ArgumentError
from stich.server.hub import Hub, Loaded
from stich.server.lobby import seated_table
from stich.server.sitting import Event, Sitting, TableSettings
from stich.server.store.db import Store, now
from stich.server.store.models import (
    EventRow,
    GamePlayer,
    GameRow,
    TableRow,
    Tournament,
    TournamentPlayer,
    TournamentTable,
    User,
)
from stich.server.tournament import (
    BOT,
    MAX_PLAYERS,
    Player,
    SeriesResult,
    Standing,
    Status,
    TournamentSettings,
    check_register,
    check_start_round,
    check_withdraw,
    draw,
    next_step,
    series_results,
    standings,
)
from stich.skat_list import seeger

__all__ = ["State", "bump", "load", "refresh", "register", "standings_of", "start_round",
           "withdraw"]


@dataclass
class State:
    """A tournament as read: its row, players (by registration) and tables (by round
    and number)."""

    row: Tournament
    players: list[TournamentPlayer]
    tables: list[TournamentTable]
    organiser_name: str = ""  # the organiser's account's name ("" once it is deleted)

    @property
    def settings(self) -> TournamentSettings:
        return TournamentSettings.from_dict(self.row.settings)

    @property
    def status(self) -> Status:
        st: Status = self.row.status  # type: ignore[assignment]
        return st

    def model_players(self) -> list[Player]:
        return [Player(str(p.user_id), p.name, active=p.status == "registered",
                       order=p.number) for p in self.players]

    def round_tables(self, round_no: int) -> list[TournamentTable]:
        return [t for t in self.tables if t.round == round_no]


async def load(store: Store, tournament_id: str) -> State | None:
    if len(tournament_id) > 16:
        return None
    async with store.session() as s:
        row = await s.get(Tournament, tournament_id)
        if row is None:
            return None
        players = list((await s.execute(
            select(TournamentPlayer).where(TournamentPlayer.tournament_id == tournament_id)
            .order_by(TournamentPlayer.number))).scalars())
        tables = list((await s.execute(
            select(TournamentTable).where(TournamentTable.tournament_id == tournament_id)
            .order_by(TournamentTable.round, TournamentTable.number))).scalars())
        organiser = None if row.organiser is None else (await s.execute(
            select(User.name).where(User.id == row.organiser))).scalar_one_or_none()
    return State(row, players, tables, organiser or "")


async def bump(s: Any, row: Tournament, at: datetime | None = None, **values: Any) -> None:
    """Count the tournament's version up (with ``values``; ``updated_at`` ``at``, by
    default now) in the transaction ``s``, if it is still the version read; else refused
    (another change came first)."""
    done = await s.execute(
        update(Tournament).where(and_(Tournament.id == row.id,
                                      Tournament.version == row.version))
        .values(version=row.version + 1, updated_at=at or now(), **values))
    if done.rowcount != 1:
        raise ArgumentError("tournament.busy")


async def _bump_registering(s: Any, row: Tournament) -> None:
    """Count the version up while the tournament is still registering, whatever the
    version: registrations do not conflict with each other (the row's lock puts them in
    a line), but each one makes a round start that read the players before it fail
    (:func:`bump`), so that no registered player is left out of the draw."""
    done = await s.execute(
        update(Tournament).where(and_(Tournament.id == row.id,
                                      Tournament.status == "registering"))
        .values(version=Tournament.version + 1, updated_at=now()))
    if done.rowcount != 1:
        raise ArgumentError("tournament.started")


async def register(store: Store, state: State, user: User) -> None:
    """Register ``user`` (again, after withdrawing)."""
    check_register(state.status, state.model_players(), str(user.id))
    try:
        async with store._writing(), store.session.begin() as s:
            await _bump_registering(s, state.row)
            mine = TournamentPlayer.tournament_id == state.row.id
            number = int((await s.execute(select(func.coalesce(
                func.max(TournamentPlayer.number), 0)).where(mine))).scalar_one()) + 1
            count = int((await s.execute(select(func.count()).where(
                mine, TournamentPlayer.status == "registered"))).scalar_one())
            if count >= MAX_PLAYERS:
                raise ArgumentError("tournament.full", most=MAX_PLAYERS)
            changed: Any = await s.execute(
                update(TournamentPlayer).where(and_(mine, TournamentPlayer.user_id == user.id,
                                                    TournamentPlayer.status != "registered"))
                .values(status="registered", number=number, name=user.name))
            if changed.rowcount == 0:
                s.add(TournamentPlayer(tournament_id=state.row.id, user_id=user.id,
                                       name=user.name, status="registered", number=number,
                                       created_at=now()))
                await s.flush()
    except IntegrityError:  # registered at the same moment (another tab): once
        raise ArgumentError("tournament.registered") from None


async def withdraw(store: Store, state: State, user: User) -> None:
    check_withdraw(state.status, state.model_players(), str(user.id))
    async with store._writing(), store.session.begin() as s:
        await _bump_registering(s, state.row)
        await s.execute(update(TournamentPlayer).where(and_(
            TournamentPlayer.tournament_id == state.row.id,
            TournamentPlayer.user_id == user.id)).values(status="withdrawn"))


def _table(settings: TournamentSettings, seats: Sequence[str | None],
           names: dict[str, str], organiser: int | None, seed: int
           ) -> tuple[TableRow, TableSettings, list[Event]]:
    """A round's table as the lobby makes one: the drawn players seated, the bots in
    theirs, started (every seat is taken); its deals from the secret ``seed``."""
    specs = tuple("person" if k is not BOT else f"bot:{settings.bot_level}" for k in seats)
    ts = TableSettings(game=games.SKAT.name, rules=settings.rules, seats=specs,
                       seed=seed, games=settings.games(len(seats)),
                       public=False, next_after=settings.next_after, clock=settings.clock,
                       bank=60 if settings.clock else 0, on_timeout="bot",
                       scoring=settings.scoring)
    people = [(seat, names[key], int(key)) for seat, key in enumerate(seats) if key is not BOT]
    row, events = seated_table(ts, people, created_by=organiser, creator_addr=None)
    return row, ts, events


async def start_round(hub: Hub, state: State) -> int:
    """Draw the next round and create its tables (all in one transaction with the
    tournament's change); the tables' actors start here.  Returns the round's number."""
    settings, players = state.settings, state.model_players()
    round_no = check_start_round(state.status, state.row.paused, state.row.round,
                                 settings, players)
    order = None
    if round_no > 1:
        order = [s.key for s in standings(settings, players,
                                          await results_of(hub.store, state))]
    drawn = draw(settings, players, round_no, order)
    names = {p.key: p.name for p in players}
    # duplicate rounds: one secret seed per table size (the same deals, and the same first
    # dealer, at every table of that size); else one of its own per table
    shared = {3: secrets.randbits(63), 4: secrets.randbits(63)}
    made = [_table(settings, seats, names, state.row.organiser,
                   shared[len(seats)] if settings.duplicate else secrets.randbits(63))
            for seats in drawn]
    async with hub.store._writing(), hub.store.session.begin() as s:
        await bump(s, state.row, status="running", round=round_no)
        for number, ((row, _, events), seats) in enumerate(zip(made, drawn, strict=True),
                                                           start=1):
            s.add(row)
            await s.flush()
            for ev in events:
                s.add(EventRow(table_id=row.id, seq=ev.seq, kind=ev.kind, seat=ev.seat,
                               data=ev.data, created_at=now()))
            s.add(TournamentTable(tournament_id=state.row.id, round=round_no,
                                  number=number, table_id=row.id,
                                  seats=[None if k is BOT else int(k) for k in seats],
                                  games=int(row.settings["games"]), done=False))
    for row, ts, events in made:
        await hub.get(row.id, made=Loaded.new(row, ts, events))
    return round_no


async def games_played(store: Store, table_ids: Sequence[str]) -> dict[str, int]:
    if not table_ids:
        return {}
    async with store.session() as s:
        rows = await s.execute(select(GameRow.table_id, func.count())
                               .where(GameRow.table_id.in_(list(table_ids)))
                               .group_by(GameRow.table_id))
        return {str(t): int(n) for t, n in rows}


async def refresh(hub: Hub, state: State) -> State:
    """Mark the running round's tables that finished their series (or were closed) as
    done, and move the tournament on once all are; returns the state as it is now."""
    return (await refresh_played(hub, state))[0]


async def refresh_played(hub: Hub, state: State) -> tuple[State, dict[str, int] | None]:
    """:func:`refresh`, and the games played at the tables left open as it read them
    (None if it read none: the round is not running).  ``state`` as freshly read: after
    its own change it is brought up to date in place, not read again (the change was
    made on the condition that nothing had changed since it was read, :func:`bump`)."""
    if state.status != "running":
        return state, None
    open_tables = [t for t in state.round_tables(state.row.round) if not t.done]
    if not open_tables:
        return state, {}
    played = await games_played(hub.store, [t.table_id for t in open_tables])
    async with hub.store.session() as s:
        over = set((await s.execute(select(TableRow.id).where(and_(
            TableRow.id.in_([t.table_id for t in open_tables]),
            TableRow.status == "over")))).scalars())
    finished = [t for t in open_tables
                if played.get(t.table_id, 0) >= t.games or t.table_id in over]
    if not finished:
        return state, played
    done = {t.id for t in finished}
    status = next_step(state.status, [t.done or t.id in done
                                      for t in state.round_tables(state.row.round)],
                       state.row.round, state.settings)
    at = now()
    try:
        async with hub.store._writing(), hub.store.session.begin() as s:
            await bump(s, state.row, at, status=status)
            await s.execute(update(TournamentTable).where(TournamentTable.id.in_(done))
                            .values(done=True))
    except ArgumentError:  # another worker moved it on first: read what it wrote
        return await load(hub.store, state.row.id) or state, None
    row = state.row
    row.version, row.updated_at, row.status = row.version + 1, at, status
    for t in finished:
        t.done = True
    closed = {t.table_id for t in finished}
    return state, {k: n for k, n in played.items() if k not in closed}


async def table_lines(store: Store, table_ids: Sequence[str]
                      ) -> dict[str, dict[int, tuple[int, int, int]]]:
    """Per table and seat: the list points, games won and lost as declarer, summed over
    the table's stored games."""
    if not table_ids:
        return {}
    won = case((and_(GamePlayer.declarer, GamePlayer.won.is_(True)), 1), else_=0)
    lost = case((and_(GamePlayer.declarer, GamePlayer.won.is_(False)), 1), else_=0)
    q = (select(GameRow.table_id, GamePlayer.seat, func.sum(GamePlayer.score),
                func.sum(won), func.sum(lost))
         .join(GamePlayer, GamePlayer.game_id == GameRow.id)
         .where(GameRow.table_id.in_(list(table_ids)))
         .group_by(GameRow.table_id, GamePlayer.seat))
    out: dict[str, dict[int, tuple[int, int, int]]] = {}
    async with store.session() as s:
        for table_id, seat, points, w, lo in await s.execute(q):
            out.setdefault(str(table_id), {})[int(seat)] = (int(points or 0), int(w or 0),
                                                            int(lo or 0))
    return out


_DONE_LINES: OrderedDict[tuple[str, str], dict[int, tuple[int, int, int]]] = OrderedDict()
DONE_LINES_KEPT = 4096
"""The lines of tables done (:func:`table_lines`), kept by database and table: nothing
is played at a table once it is done (its series complete, or the table closed), so
when a series ends only that table's lines are read."""


async def done_lines(store: Store, table_ids: Sequence[str]
                     ) -> dict[str, dict[int, tuple[int, int, int]]]:
    """:func:`table_lines` of tables done, read only for those not kept."""
    out = {t: got for t in table_ids if (got := _DONE_LINES.get((store.url, t))) is not None}
    missing = [t for t in table_ids if t not in out]
    if missing:
        read = await table_lines(store, missing)
        for t in missing:
            out[t] = _DONE_LINES[(store.url, t)] = read.get(t, {})
        while len(_DONE_LINES) > DONE_LINES_KEPT:
            _DONE_LINES.popitem(last=False)
    return out


async def results_of(store: Store, state: State) -> list[SeriesResult]:
    """The finished series (the tables marked done) as the model's results."""
    done = [t for t in state.tables if t.done]
    lines = await done_lines(store, [t.table_id for t in done])
    out: list[SeriesResult] = []
    for t in done:
        per_seat = lines.get(t.table_id, {})
        n = len(t.seats)
        got = [per_seat.get(seat, (0, 0, 0)) for seat in range(n)]
        table = seeger([g[0] for g in got], [g[1] for g in got], [g[2] for g in got])
        out += series_results(t.round, [None if k is None else str(k) for k in t.seats],
                              table)
    return out


_STANDINGS: OrderedDict[tuple[Any, ...], list[Standing]] = OrderedDict()
STANDINGS_KEPT = 256
"""Standings computed lately, by what they depend on (a process's own, the most recent
kept): a tournament's page and its API are asked every few seconds by every player
waiting for the next round, and the standings only change when a table is done or a
player's name or status changes (docs/speed.md, "Tournament tables under load")."""


async def standings_of(store: Store, state: State) -> list[Standing]:
    """The standings: the finished series summed (:func:`results_of`), ranked by the
    model.  Kept by the tournament's version, its players and its tables done: none of
    the series summed changes once its table is done."""
    key = (store.url, state.row.id, state.row.version,
           tuple((p.user_id, p.name, p.status, p.number) for p in state.players),
           tuple(t.id for t in state.tables if t.done))
    got = _STANDINGS.get(key)
    if got is not None:
        _STANDINGS.move_to_end(key)
        return got
    got = standings(state.settings, state.model_players(), await results_of(store, state))
    _STANDINGS[key] = got
    while len(_STANDINGS) > STANDINGS_KEPT:
        _STANDINGS.popitem(last=False)
    return got


async def replace(hub: Hub, state: State, user_id: int) -> None:
    """The organiser replaces a player by a bot: the player is out of the tournament
    (not drawn again); at a table of the running round a bot plays his seat from now on
    and that seat's series counts for nobody (``docs/tournaments.md``)."""
    player = next((p for p in state.players
                   if p.user_id == user_id and p.status == "registered"), None)
    if player is None or state.status == "over":
        raise ArgumentError("tournament.not_playing")
    at = next(((t, t.seats.index(user_id)) for t in state.round_tables(state.row.round)
               if not t.done and user_id in t.seats), None)
    async with hub.store._writing(), hub.store.session.begin() as s:
        await bump(s, state.row)
        await s.execute(update(TournamentPlayer).where(TournamentPlayer.id == player.id)
                        .values(status="replaced"))
        if at is not None:
            seats = list(at[0].seats)
            seats[at[1]] = None
            await s.execute(update(TournamentTable).where(TournamentTable.id == at[0].id)
                            .values(seats=seats))
    if at is None:
        return
    actor = await hub.get(at[0].table_id)
    if actor is None:
        return

    def plan(st: Sitting) -> list[Event]:
        info = st.seats[at[1]]
        if st.over or info is None or info.user != user_id or info.bot is not None \
                or at[1] in st.quit:
            return []  # left already, or the table is over
        return st.plan_quit(at[1])

    await actor.submit(plan)


async def set_paused(store: Store, state: State, paused: bool) -> None:
    if state.status == "over":
        raise ArgumentError("tournament.over")
    if state.row.paused == paused:
        if paused:
            raise ArgumentError("tournament.paused")
        raise ArgumentError("tournament.not_paused")
    async with store._writing(), store.session.begin() as s:
        await bump(s, state.row, paused=paused)


async def end(hub: Hub, state: State) -> None:
    """The organiser ends the tournament: the running round's tables still playing are
    closed (a game under way is not counted, as when a table's creator closes it) and
    count with the games they finished."""
    if state.status == "over":
        raise ArgumentError("tournament.over")
    still = [t for t in state.round_tables(state.row.round) if not t.done]
    async with hub.store._writing(), hub.store.session.begin() as s:
        await bump(s, state.row, status="over", paused=False)
        if still:
            await s.execute(update(TournamentTable)
                            .where(TournamentTable.id.in_([t.id for t in still]))
                            .values(done=True))
    for t in still:
        actor = await hub.get(t.table_id)
        if actor is not None and not actor.sitting.over:
            await actor.submit(lambda st: [] if st.over else st.plan_close("closed"))
