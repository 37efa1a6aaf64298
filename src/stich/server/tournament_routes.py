"""Tournaments over HTTP (JSON, under ``/api/tournaments``): create, list the public
ones, show one (standings, rounds, tables; the links to a table for its players and the
organiser), register and withdraw (guests too; a private tournament needs its invite),
and the organiser's actions: start a round, replace a player by a bot, pause, resume,
end.  The model is :mod:`stich.server.tournament`, the database
:mod:`stich.server.tournament_store`; ``docs/tournaments.md`` tells the whole.

Every route bounds its input (pydantic, and the model's limits), counts against the
site's limits (:class:`stich.server.limits.Limits`: ``tournaments_per_hour``,
``account_open_tournaments``, ``tournament_actions_per_min``), and answers a private
tournament to a stranger as if it did not exist.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import secrets
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import BindParameter, bindparam, func, select

from stich import games
from stich.core import ArgumentError
from stich.games.base import TableOptions
from stich.present.languages import choose_lang
from stich.present.skat_rules import rules_words
from stich.server import metrics
from stich.server import tournament_store as ts
from stich.server.auth import address_of, current_user, enforce, require_user
from stich.server.guard import Site
from stich.server.hub import Hub
from stich.server.limits import Limits
from stich.server.lobby import new_table_id, same_invite
from stich.server.store.db import now
from stich.server.store.models import GameRow, TableRow, Tournament, TournamentTable, User
from stich.server.tournament import MAX_PLAYERS, TournamentSettings, check_settings

__all__ = ["router"]

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])

LISTED = 100  # public tournaments the list shows at most
BUSY_TRIES = 4  # a round start that met a registration at the same moment is tried again


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateTournamentRequest(_Strict):
    """A new tournament.  ``preset`` (``isko``, the default, or ``lothar``) or ``rules``
    (a full Skat rules string: a preset with house rules); ``scoring`` ``seeger`` (the
    Preisskat list, default) or ``list``; ``games_three`` / ``games_four`` the games of
    a series at a table of three and of four (multiples of 3 and 4; default 36 and 48);
    ``seating`` how rounds after the first are seated (``results``, default, or
    ``draw``); ``bots``: bots may fill seats; ``clock``: the tables' turn clock;
    ``duplicate``: every table of a round with as many seats plays the same deals."""

    name: str = Field(max_length=200)
    preset: str | None = Field(default=None, max_length=32)
    rules: str | None = Field(default=None, max_length=200)
    scoring: str = Field(default="seeger", max_length=10)
    rounds: int = Field(default=2, ge=-1000, le=1000)
    games_three: int = Field(default=36, ge=-1000, le=1000)
    games_four: int = Field(default=48, ge=-1000, le=1000)
    seating: str = Field(default="results", max_length=10)
    bots: bool = False
    bot_level: str = Field(default="strong", max_length=32)
    public: bool = True
    clock: int = Field(default=30, ge=-1000, le=1000)
    next_after: int = Field(default=10, ge=-1000, le=1000)
    duplicate: bool = False


class InviteRequest(_Strict):
    invite: str | None = Field(default=None, max_length=64)


class ReplaceRequest(_Strict):
    """The player to replace (asked for after the organiser is checked: a stranger's
    request is refused as one, whatever its body)."""

    user: int | None = Field(default=None, ge=0, le=2**31 - 1)


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _lang(request: Request) -> str:
    return choose_lang(request.query_params.get("lang"),
                       accept=request.headers.get("accept-language"))


async def _act(request: Request, user: User) -> None:
    await enforce(request, f"user:{user.id}", "tournament_actions_per_min", 60)


def _visible(state: ts.State, invite: str | None, user: User | None) -> bool:
    """Public, or the request shows the invite, or it is the organiser's or a
    registered player's."""
    row = state.row
    if row.public or (invite is not None and same_invite(invite, row.invite)):
        return True
    return user is not None and (row.organiser == user.id
                                 or any(p.user_id == user.id for p in state.players))


async def _state(request: Request, tournament_id: str, invite: str | None,
                 user: User | None) -> ts.State:
    """The tournament, brought up to date, if this request may see it; else refused
    as if it did not exist."""
    state = await ts.load(_hub(request).store, tournament_id)
    if state is None or not _visible(state, invite, user):
        raise ArgumentError("tournament.no_such_tournament", tournament=tournament_id[:40])
    return await ts.refresh(_hub(request), state)


async def _organiser(request: Request, tournament_id: str) -> tuple[ts.State, User]:
    user = await require_user(request)
    state = await _state(request, tournament_id, None, user)
    if state.row.organiser != user.id:
        raise ArgumentError("tournament.not_organiser")
    await _act(request, user)
    return state, user


async def _reload(request: Request, tournament_id: str) -> ts.State:
    state = await ts.load(_hub(request).store, tournament_id)
    if state is None:
        raise ArgumentError("tournament.no_such_tournament", tournament=tournament_id[:40])
    return await ts.refresh(_hub(request), state)


@router.post("")
async def create(body: CreateTournamentRequest, request: Request) -> dict[str, Any]:
    """Create a tournament (a registered account organises; guests play)."""
    user = await require_user(request)
    if user.guest:
        raise ArgumentError("auth.registered_only")
    if body.scoring not in ("seeger", "list"):
        raise ArgumentError("tournament.scoring", given=body.scoring[:20])
    if body.seating not in ("results", "draw"):
        raise ArgumentError("tournament.seating", given=body.seating[:20])
    rules = str(games.SKAT.table_rules(TableOptions(
        seats=3, preset=body.preset or (None if body.rules else "isko"), rules=body.rules)))
    settings = check_settings(TournamentSettings(
        rules=rules, name=body.name, scoring=body.scoring,  # type: ignore[arg-type]
        rounds=body.rounds, games_three=body.games_three, games_four=body.games_four,
        bots=body.bots, bot_level=body.bot_level,
        seating=body.seating,  # type: ignore[arg-type]
        public=body.public, seed=secrets.randbits(63), clock=body.clock,
        next_after=body.next_after, duplicate=body.duplicate))
    limits: Limits = request.app.state.limits
    store = _hub(request).store
    if limits.account_open_tournaments:
        async with store.session() as s:
            mine = int((await s.execute(select(func.count()).select_from(Tournament).where(
                Tournament.organiser == user.id, Tournament.status != "over"))).scalar_one())
        if mine >= limits.account_open_tournaments:
            raise ArgumentError("tournament.open_tournaments", count=mine,
                                most=limits.account_open_tournaments)
    await enforce(request, f"user:{user.id}", "tournaments_per_hour", 3600)
    await enforce(request, address_of(request), "tournaments_per_hour", 3600)
    row = Tournament(id=new_table_id(), name=settings.name, organiser=user.id,
                     settings=settings.to_dict(), invite=secrets.token_urlsafe(16),
                     public=settings.public, status="registering", paused=False, round=0,
                     version=0, created_at=now(), updated_at=now())
    async with store._writing(), store.session.begin() as s:
        s.add(row)
    state = await ts.load(store, row.id)
    assert state is not None
    return {"tournament": for_viewer(request, await shown_of(request, state, {}), user)}


@router.get("")
async def list_public(request: Request, status: str = "open") -> dict[str, Any]:
    """Public tournaments: ``status`` ``open`` (not over) or ``over``; newest first, at
    most :data:`LISTED`."""
    if status not in ("open", "over"):
        raise ArgumentError("server.bad_status", given=status[:40])
    over = Tournament.status == "over"
    async with _hub(request).store.session() as s:
        rows = list((await s.execute(
            select(Tournament).where(Tournament.public, over if status == "over" else ~over)
            .order_by(Tournament.created_at.desc()).limit(LISTED))).scalars())
    lang = _lang(request)
    return {"tournaments": [
        {"id": r.id, "name": r.name, "status": r.status, "paused": r.paused,
         "round": r.round, "rounds": r.settings.get("rounds"),
         "scoring": r.settings.get("scoring"),
         "rules_short": rules_words(r.settings["rules"], lang, short=True),
         "created_at": r.created_at.isoformat()} for r in rows]}


SEEN_KEPT = 256
"""Tournaments kept as read in this process (the most recently asked): every player
waiting for the next round looks every 10 s, and a tournament of 25 tables has 75 of
them (docs/speed.md, "Tournament tables under load")."""
_SEEN: OrderedDict[tuple[int, str], tuple[tuple[int, int, int], ts.State, dict[str, int]]] \
    = OrderedDict()


# the ids of the tournament's open tables
_OPEN: BindParameter[list[str]] = bindparam("open", expanding=True)
_MARK = select(
    Tournament.version,
    select(func.count()).select_from(GameRow).where(GameRow.table_id.in_(_OPEN))
    .scalar_subquery(),
    select(func.count()).select_from(TableRow)
    .where(TableRow.id.in_(_OPEN), TableRow.status == "over").scalar_subquery(),
).where(Tournament.id == bindparam("tournament"))
"""The query of :func:`_mark`, built once (building it cost more than running it)."""


async def _mark(store: Any, tournament_id: str, open_ids: list[str]
                ) -> tuple[int, int, int] | None:
    """What a tournament as read depends on, in one query: its version (any change by
    any worker counts it up), the games stored at its open tables and how many of those
    are over; None if there is no such tournament."""
    async with store.session() as s:
        got = (await s.execute(_MARK, {"tournament": tournament_id, "open": open_ids})).first()
    return None if got is None else (int(got[0]), int(got[1]), int(got[2]))


async def _seen(request: Request, tournament_id: str
                ) -> tuple[ts.State, dict[str, int]] | None:
    """The tournament as it is now, brought up to date, and the games played at its
    open tables; None if there is no such tournament.  Read again only when its
    :func:`_mark` moved since this process last read it (one query instead of seven)."""
    hub = _hub(request)
    key = (id(hub), tournament_id[:40])
    for _ in range(2):
        hit = _SEEN.get(key)
        if hit is not None:
            kept = hit[1]
            open_ids = [t.table_id for t in kept.tables if not t.done]
            mark = await _mark(hub.store, tournament_id, open_ids)
            if mark == hit[0]:
                _SEEN.move_to_end(key)
                return kept, hit[2]
            if mark is not None and (mark[0], mark[2]) == (hit[0][0], hit[0][2]):
                # only games played at the open tables since (the most frequent change
                # while a round runs): the tournament as read holds unless a series is
                # complete
                played = await ts.games_played(hub.store, open_ids)
                if all(played.get(t.table_id, 0) < t.games
                       for t in kept.tables if not t.done):
                    if sum(played.values()) == mark[1]:
                        _SEEN[key] = (mark, kept, played)
                        _SEEN.move_to_end(key)
                    return kept, played
        # read once for all who ask meanwhile (when a series ends its players open the
        # page at the same moment, and the others' looks find the tournament changed)
        reading = _READING.get(key)
        if reading is not None:
            return await asyncio.shield(reading)
        if _SEEN.get(key) is not hit:
            continue  # read (and kept) while this one asked: look at that
        reading = _READING[key] = asyncio.ensure_future(_read(hub, key, tournament_id))
        # (a failure is raised to everyone waiting; nobody may be left when it comes)
        reading.add_done_callback(lambda f: f.cancelled() or f.exception())
        try:
            return await asyncio.shield(reading)
        finally:
            if _READING.get(key) is reading:
                del _READING[key]
    return await _read(hub, key, tournament_id)  # (changed twice while it asked)


_READING: dict[tuple[int, str], asyncio.Future[tuple[ts.State, dict[str, int]] | None]] = {}
"""The tournaments being read (:func:`_read`), for those who ask meanwhile."""


async def _read(hub: Hub, key: tuple[int, str], tournament_id: str
                ) -> tuple[ts.State, dict[str, int]] | None:
    """:func:`_seen`'s reading of a tournament (and keeping it)."""
    metrics.TOURNAMENT_READS.inc()
    state = await ts.load(hub.store, tournament_id)
    if state is None:
        _SEEN.pop(key, None)
        return None
    state, played_now = await ts.refresh_played(hub, state)
    open_ids = [t.table_id for t in state.tables if not t.done]
    # (the games refresh read, if it read them at these tables: the round's open ones)
    looked = {t.table_id for t in state.round_tables(state.row.round) if not t.done}
    played = played_now if played_now is not None and looked == set(open_ids) \
        else await ts.games_played(hub.store, open_ids)
    mark = await _mark(hub.store, tournament_id, open_ids)
    # kept only if nothing moved while it was read (a change between reading the row
    # and its players, under PostgreSQL's read committed, shows in the version)
    if mark is not None and mark[:2] == (state.row.version, sum(played.values())):
        _SEEN[key] = (mark, state, played)
        while len(_SEEN) > SEEN_KEPT:
            _SEEN.popitem(last=False)
    return state, played


@router.get("/{tournament_id}")
async def show(tournament_id: str, request: Request,
               invite: str | None = None) -> dict[str, Any]:
    return await show_to(request, tournament_id, invite, await current_user(request))


async def show_to(request: Request, tournament_id: str, invite: str | None,
                  user: User | None) -> dict[str, Any]:
    """:func:`show` for a user looked up already."""
    return {"tournament": (await shown_to(request, tournament_id, invite, user))[1]}


async def shown_to(request: Request, tournament_id: str, invite: str | None,
                   user: User | None) -> tuple[Shown, dict[str, Any]]:
    """What every viewer of the tournament sees alike, and :func:`show`'s figures for
    ``user`` (looked up already: the tournament's page); refused as if there were no
    such tournament to whom may not see it."""
    seen = await _seen(request, tournament_id)
    if seen is None or not _visible(seen[0], invite, user):
        raise ArgumentError("tournament.no_such_tournament", tournament=tournament_id[:40])
    shown = await shown_of(request, *seen)
    return shown, for_viewer(request, shown, user)


SHOWN_KEPT = 2 * SEEN_KEPT
"""What every viewer of a tournament sees alike, kept per tournament as read and
language (:class:`Shown`)."""


@dataclasses.dataclass(eq=False)
class Shown:
    """What every viewer of a tournament sees alike (:func:`show`'s figures with no
    link and nobody marked as "you"), made once per tournament as read (``state``,
    ``played``: the objects :func:`_seen` keeps while nothing moved) and language, and
    shared by the looks and pages of every viewer.  ``parts``: the page's HTML made of
    it (:mod:`stich.web.tournaments`)."""

    state: ts.State
    played: dict[str, int]
    head: dict[str, Any]  # the tournament's figures up to its players
    players: list[dict[str, Any]]  # "you": False
    standings: list[dict[str, Any]]  # "you": False
    # per round: each table's figures ("link": None, every seat's "you": False)
    rounds: list[tuple[int, list[tuple[TournamentTable, dict[str, Any]]]]]
    places: dict[int, int]  # a player's place in the standings, by account
    parts: dict[str, Any] = dataclasses.field(default_factory=dict)


_SHOWN: OrderedDict[tuple[int, str, str], Shown] = OrderedDict()


async def shown_of(request: Request, state: ts.State, played: dict[str, int]) -> Shown:
    """The :class:`Shown` of a tournament as read (made, or kept from an earlier look
    at the same objects)."""
    lang = _lang(request)
    key = (id(_hub(request)), state.row.id, lang)
    hit = _SHOWN.get(key)
    if hit is not None and hit.state is state:
        _SHOWN.move_to_end(key)
        if hit.played is played:
            return hit
        # only the games played at the open tables moved: the rest (and the page's parts
        # made of it, but the tables) holds
        shown = dataclasses.replace(hit, played=played, rounds=_rounds(state, played),
                                    parts={k: {x: y for x, y in v.items() if x != "items"}
                                           for k, v in hit.parts.items()})
        _SHOWN[key] = shown
        return shown
    row, settings = state.row, state.settings
    table = await ts.standings_of(_hub(request).store, state)
    rounds = _rounds(state, played)
    shown = Shown(
        state=state, played=played,
        head={"id": row.id, "name": row.name, "status": row.status, "paused": row.paused,
              "round": row.round, "rounds": settings.rounds, "scoring": settings.scoring,
              "rules": settings.rules, "rules_words": rules_words(settings.rules, lang),
              "games_three": settings.games_three, "games_four": settings.games_four,
              "bots": settings.bots, "seating": settings.seating, "public": row.public,
              "duplicate": settings.duplicate,
              "clock": settings.clock, "most_players": MAX_PLAYERS,
              "organiser": state.organiser_name},
        players=[{"name": p.name, "status": p.status, "id": p.user_id, "you": False}
                 for p in state.players],
        standings=[{k: v for k, v in st.to_dict().items() if k != "key"}
                   | {"id": int(st.key), "you": False} for st in table],
        rounds=rounds, places={int(st.key): st.place for st in table})
    _SHOWN[key] = shown
    while len(_SHOWN) > SHOWN_KEPT:
        _SHOWN.popitem(last=False)
    return shown


def _rounds(state: ts.State, played: dict[str, int]
            ) -> list[tuple[int, list[tuple[TournamentTable, dict[str, Any]]]]]:
    """Per round its tables' figures as everybody sees them (:class:`Shown`)."""
    names = {p.user_id: p.name for p in state.players}
    return [(n, [(t, {
        "number": t.number, "games": t.games, "done": t.done,
        "games_played": t.games if t.done and t.table_id not in played
        else played.get(t.table_id, 0),
        "seats": [{"name": names.get(k, "") if k is not None else None,
                   "bot": k is None, "you": False} for k in t.seats],
        "link": None}) for t in state.round_tables(n)])
        for n in range(1, state.row.round + 1)]


def _marked(rows: list[dict[str, Any]], who: int | None) -> list[dict[str, Any]]:
    """``rows`` (each with "id" and "you": False) with ``who``'s marked as "you"."""
    if who is None:
        return rows
    return [r | {"you": True} if r["id"] == who else r for r in rows]


def for_viewer(request: Request, shown: Shown, user: User | None) -> dict[str, Any]:
    """The tournament as ``user`` may see it (:func:`show`), made of what every viewer
    sees alike: the invite only to the organiser, a table's link only to its players and
    the organiser."""
    row = shown.state.row
    uid = None if user is None else user.id
    organiser = uid is not None and row.organiser == uid
    me = None if uid is None else next((p for p in shown.state.players if p.user_id == uid),
                                       None)
    rounds: list[dict[str, Any]] = []
    your_table = None
    for n, tables in shown.rounds:
        out_tables = []
        for t, x in tables:
            seated = uid is not None and uid in t.seats
            if seated or organiser:
                x = x | {"link": f"/t/{t.table_id}"}
                if seated:
                    x["seats"] = [s | {"you": True} if k == uid else s
                                  for k, s in zip(t.seats, x["seats"], strict=True)]
                    if not t.done and n == row.round:
                        your_table = x["link"]
            out_tables.append(x)
        rounds.append({"round": n, "tables": out_tables})
    rounds_left = row.round < shown.head["rounds"]
    out: dict[str, Any] = shown.head | {
        "players": _marked(shown.players, uid),
        "standings": _marked(shown.standings, uid),  # (only players have a row)
        "rounds_played": rounds,
        "you": {"organiser": organiser,
                "registered": me is not None and me.status == "registered",
                "status": None if me is None else me.status,
                "place": None if me is None else shown.places.get(me.user_id),
                "table": your_table,
                "next_round": row.round + 1 if row.status in ("registering", "between")
                and rounds_left else None},
    }
    out["watch"] = watch_of(out)
    if organiser:
        out["invite"] = row.invite
        out["invite_path"] = f"/tournaments/{row.id}?invite={row.invite}"
        site: Site = request.app.state.site
        out["invite_url"] = (site.origin or str(request.base_url).rstrip("/")) \
            + out["invite_path"]
    return out


def watch_of(t: dict[str, Any]) -> list[str]:
    """What the tournament's page compares to know whether to load again
    (``tournament.js``; the page carries its own, so it need not look at once): first a
    round started or ended, the tournament paused or went on, the viewer's table or
    status changed (at once); then the players, the viewer's place or a table done (at
    most every 30 s)."""
    you = t["you"]
    return [json.dumps([t["status"], t["round"], t["paused"], you["table"], you["status"]]),
            json.dumps([len(t["players"]), you["place"],
                        [[x["done"] for x in r["tables"]] for r in t["rounds_played"]]])]


@router.post("/{tournament_id}/register")
async def register(tournament_id: str, body: InviteRequest,
                   request: Request) -> dict[str, Any]:
    """Register for the tournament (guests too); a private one needs its invite."""
    user = await require_user(request)
    await _act(request, user)
    state = await _state(request, tournament_id, body.invite, user)
    await ts.register(_hub(request).store, state, user)
    return await show(tournament_id, request, body.invite)


@router.post("/{tournament_id}/withdraw")
async def withdraw(tournament_id: str, request: Request) -> dict[str, Any]:
    """Withdraw before the first round."""
    user = await require_user(request)
    await _act(request, user)
    state = await _state(request, tournament_id, None, user)
    await ts.withdraw(_hub(request).store, state, user)
    return await show(tournament_id, request)



@router.post("/{tournament_id}/start")
async def start(tournament_id: str, request: Request) -> dict[str, Any]:
    """The organiser starts the next round: the seat draw, and its tables."""
    state, _ = await _organiser(request, tournament_id)
    for attempt in range(BUSY_TRIES):  # a registration came in meanwhile: draw again
        try:
            await ts.start_round(_hub(request), state)
            break
        except ArgumentError as e:
            if e.code != "tournament.busy" or attempt == BUSY_TRIES - 1:
                raise
        state = await _reload(request, tournament_id)
    return await show(tournament_id, request)


@router.post("/{tournament_id}/replace")
async def replace(tournament_id: str, body: ReplaceRequest,
                  request: Request) -> dict[str, Any]:
    """The organiser replaces a player (a no-show) by a bot."""
    state, _ = await _organiser(request, tournament_id)
    if body.user is None:
        raise ArgumentError("server.bad_message", reason="user: missing")
    await ts.replace(_hub(request), state, body.user)
    return await show(tournament_id, request)


@router.post("/{tournament_id}/pause")
async def pause(tournament_id: str, request: Request) -> dict[str, Any]:
    """The organiser pauses: no round starts until resumed."""
    state, _ = await _organiser(request, tournament_id)
    await ts.set_paused(_hub(request).store, state, True)
    return await show(tournament_id, request)


@router.post("/{tournament_id}/resume")
async def resume(tournament_id: str, request: Request) -> dict[str, Any]:
    state, _ = await _organiser(request, tournament_id)
    await ts.set_paused(_hub(request).store, state, False)
    return await show(tournament_id, request)


@router.post("/{tournament_id}/end")
async def end(tournament_id: str, request: Request) -> dict[str, Any]:
    """The organiser ends the tournament (the standings are final)."""
    state, _ = await _organiser(request, tournament_id)
    await ts.end(_hub(request), state)
    return await show(tournament_id, request)
