"""The lobby: list tables, create one, sit down, fill a seat with a bot, leave, close.

A table is public (listed) or private (reachable only with its invite token).  Seats are
``me`` (the creator sits there), ``person`` (a free seat for a person with the link) or
``bot:<level>``.  The table starts by itself once every seat is taken.

Quotas (:class:`stich.server.limits.Limits`): open tables per account and per address,
tables created per hour; a table of bots alone plays a finite list (never open-ended)
and one account has one such table open at a time.  The creator can always close
their table.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, Request

from stich import games
from stich.bots import known_level
from stich.core import ArgumentError
from stich.games.base import Game, TableOptions
from stich.present.languages import choose_lang
from stich.present.skat_rules import rules_words
from stich.server.auth import address_of, current_user, enforce, require_user
from stich.server.guard import Site
from stich.server.hub import Hub, Loaded, TableActor
from stich.server.limits import Limits
from stich.server.protocol import CreateTableRequest, JoinRequest, SeatBotRequest
from stich.server.sitting import (
    DEALER_SEES,
    DEALER_SEES_DEFAULT,
    Event,
    Sitting,
    TableSettings,
    bots_only,
)
from stich.server.store.db import now
from stich.server.store.models import TableRow, User
from stich.server.wire import SPECTATOR, table_status, table_summary
from stich.skat_list import series_games

__all__ = ["insider", "router", "table_rules", "visible_actor"]

router = APIRouter(prefix="/api", tags=["lobby"])

LOBBY_PER_CREATOR = 3  # tables of one creator the lobby lists at most
SCORINGS = ("list", "seeger")
"""How a Skat table scores its list: the classic list, or the Preisskat list
(Seeger-Fabian, :func:`stich.skat_list.seeger`)."""


_ID_FIRST = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
"""The first character of a table id (the rest is URL-safe base64)."""


def new_table_id() -> str:
    """A random table id of 10 characters, never with a leading '-' (``stich admin close
    ID`` would read such an id as an option)."""
    return secrets.choice(_ID_FIRST) + secrets.token_urlsafe(8)[:9]


def table_rules(body: CreateTableRequest) -> str:
    """The rules of a new table, as text: the game's rules from the request's options
    (:meth:`stich.games.base.Game.table_rules`)."""
    return str(games.get(body.game).table_rules(TableOptions(
        seats=len(body.seats), preset=body.preset, rules=body.rules,
        max_cards=body.max_cards, deck=body.deck, variants=tuple(body.variants))))


def _settings(body: CreateTableRequest, limits: Limits) -> TableSettings:
    if body.seats.count("me") > 1:
        raise ArgumentError("server.me_twice")
    for spec in body.seats:
        if spec in ("me", "person"):
            continue
        if not spec.startswith("bot:") or not known_level(spec[4:], games.get(body.game).bots):
            raise ArgumentError("server.bad_seat_spec", spec=spec)
    if not 5 <= body.grace <= 3600:
        raise ArgumentError("server.grace", grace=body.grace)
    clock = body.clock if body.clock is not None else (30 if body.public else 0)
    bank = body.bank if body.bank is not None else 60
    if not 0 <= body.next_after <= 120:
        raise ArgumentError("server.next_after", given=body.next_after)
    if not 0 <= clock <= 300:
        raise ArgumentError("server.clock", given=clock)
    if not 0 <= bank <= 600:
        raise ArgumentError("server.bank", given=bank)
    if body.on_timeout not in ("bot", "away"):
        raise ArgumentError("server.on_timeout", given=body.on_timeout)
    game = games.get(body.game)
    table_seats = game.table_seats
    if table_seats is not None:  # Skat: three or four (the dealer sits out)
        if len(body.seats) not in table_seats:
            raise ArgumentError("server.skat_seats", given=len(body.seats))
    elif game.fixed_seats is not None and len(body.seats) != game.fixed_seats:
        raise ArgumentError("server.seats_given", game=game.title, need=game.fixed_seats,
                            given=len(body.seats))
    dealer_sees = _dealer_sees(body, game)
    if body.shortcut and body.game != games.SKAT.name:  # (a Skat rule: forced_rest)
        raise ArgumentError("server.shortcut_skat")
    scoring = _scoring(body)
    if game.one_game_per_table:
        n_games = 1
    else:
        # a Preisskat series: a positive multiple of the seats, 36 / 48 by default
        n_games = series_games(scoring, len(body.seats), body.games)
        if n_games % len(body.seats):  # every seat deals as often
            if len(body.seats) == 3:
                raise ArgumentError("server.games_count", games=n_games)
            raise ArgumentError("server.games_count_seats", games=n_games,
                                seats=len(body.seats))
        if bots_only(body.seats) and not 0 < n_games <= limits.bot_table_games:
            raise ArgumentError("server.bot_games", most=limits.bot_table_games)
    rules = table_rules(body)
    seats = tuple("person" if s == "me" else s for s in body.seats)
    return TableSettings(game=body.game, rules=rules, seats=seats,
                         seed=secrets.randbits(63), games=n_games, grace=body.grace,
                         show_hands=body.show_hands, public=body.public,
                         next_after=body.next_after, clock=clock, bank=bank,
                         on_timeout=body.on_timeout, dealer_sees=dealer_sees,
                         shortcut=body.shortcut, scoring=scoring)


def _scoring(body: CreateTableRequest) -> str:
    """How the table's list is scored: ``list`` (the classic list) or ``seeger`` (the
    Preisskat list, Skat only)."""
    if body.scoring not in SCORINGS:
        raise ArgumentError("server.scoring", given=body.scoring[:20])
    if body.scoring != "list" and body.game != games.SKAT.name:
        raise ArgumentError("server.scoring_skat")
    return body.scoring


def _dealer_sees(body: CreateTableRequest, game: Game) -> str:
    """What the dealer who sits out at a Skat table of four sees (``nothing``: what a
    watcher sees; ``all``: every hand); refused for any other table and any other
    word."""
    four = game.fixed_seats is not None and len(body.seats) > game.fixed_seats
    if body.dealer_sees is None:
        return DEALER_SEES_DEFAULT
    if not four:
        raise ArgumentError("server.dealer_sees_four")
    if body.dealer_sees not in DEALER_SEES:
        raise ArgumentError("server.dealer_sees", given=body.dealer_sees[:20])
    return body.dealer_sees


def address_hash(address: str) -> str:
    """How a table keeps its creator's address (until it is over)."""
    return hashlib.sha256(f"stich-creator:{address}".encode()).hexdigest()[:32]


async def check_quotas(request: Request, user: User, address: str, bot_table: bool) -> None:
    """May this account, from this address, open another table?  Open tables are
    counted in the database (they outlive a restart); creations per hour by the
    limiter."""
    limits: Limits = request.app.state.limits
    store = _hub(request).store
    if limits.account_open_tables:
        mine = await store.count_open_tables(created_by=user.id)
        if mine >= limits.account_open_tables:
            raise ArgumentError("server.open_tables", count=mine,
                                most=limits.account_open_tables)
    if limits.address_open_tables:
        ours = await store.count_open_tables(creator_addr=address_hash(address))
        if ours >= limits.address_open_tables:
            raise ArgumentError("server.open_tables", count=ours,
                                most=limits.address_open_tables)
    if bot_table:
        if limits.bot_open_tables:
            bot_tables = [t for t in await store.open_tables(created_by=user.id)
                          if bots_only(t.settings.get("seats", ()))]
            if len(bot_tables) >= limits.bot_open_tables:
                raise ArgumentError("server.bot_tables", most=limits.bot_open_tables)
        await enforce(request, f"user:{user.id}", "bot_tables_per_hour", 3600)
        await enforce(request, address, "bot_tables_per_hour", 3600)
    await enforce(request, f"user:{user.id}", "account_tables_per_hour", 3600)
    await enforce(request, address, "tables_per_hour", 3600)


def seated_table(settings: TableSettings, people: Sequence[tuple[int, str, int]], *,
                 created_by: int | None, creator_addr: str | None
                 ) -> tuple[TableRow, list[Event]]:
    """A new table (a new id and invite): ``people`` (seat, name, account) seated, the
    bots in theirs, started once every seat is taken; its row and its first events, to
    be stored together (the lobby, the Tagesskat, a tournament's round)."""
    sitting = Sitting(settings)
    events: list[Event] = []
    for seat, name, user in people:
        for ev in sitting.plan_sit(seat, name, user):
            sitting.apply(ev)
            events.append(ev)
    for ev in sitting.plan_start():
        sitting.apply(ev)
        events.append(ev)
    row = TableRow(id=new_table_id(), game=settings.game, rules=settings.rules,
                   settings=settings.to_dict(), invite=secrets.token_urlsafe(16),
                   public=settings.public, status=table_status(sitting),
                   created_by=created_by, created_at=now(), updated_at=now(),
                   creator_addr=creator_addr, seq=sitting.seq,
                   summary=table_summary(sitting))
    return row, events


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def same_invite(given: str, invite: str) -> bool:
    """Whether a request's invite is the table's (compared in constant time)."""
    return secrets.compare_digest(given.encode(), invite.encode())


def insider(row: TableRow, invite: str | None, user: User | None) -> bool:
    """Whether a request belongs to a table's circle: it shows the invite, or its
    account created the table or has a seat at it (as the lobby's summary says)."""
    if invite is not None and same_invite(invite, row.invite):
        return True
    if user is None:
        return False
    return row.created_by == user.id or any(
        seat.get("user") == user.id for seat in row.summary.get("seats", []))


async def visible_actor(request: Request, table_id: str, invite: str | None,
                        user: User | None) -> tuple[TableActor, bool]:
    """The table, if this request may see it: public, or an insider (the invite, its
    creator, seated).  Returns the actor and whether the request is an insider.  A
    private table is refused as if it did not exist."""
    hub = _hub(request)
    live = hub.actors.get(table_id)
    if live is not None and (
            (invite is not None and live.invite is not None and same_invite(invite, live.invite))
            or (user is not None
                and (live.creator == user.id or live.seat_of(user.id) is not None))):
        # the table is in memory and the request shows its invite, or its account
        # created it or sits at it: an insider (the row would add nothing: tables are
        # never deleted, and their invite and creator never change)
        return live, True
    row = await hub.store.table(table_id) if len(table_id) <= 16 else None
    if row is None:
        raise ArgumentError("server.no_such_table", table=table_id[:40])
    inside = insider(row, invite, user)  # (the row's summary names who sits there)
    if not row.public and not inside:  # decided before the table is loaded
        raise ArgumentError("server.no_such_table", table=table_id[:40])
    actor = await hub.get(table_id, row=row)
    if actor is None:
        raise ArgumentError("server.no_such_table", table=table_id[:40])
    return actor, inside or (user is not None and actor.seat_of(user.id) is not None)


@router.get("/tables")
async def list_tables(request: Request, status: str = "open") -> dict[str, Any]:
    """Public tables: ``status`` = ``open`` (waiting and running), ``waiting``,
    ``running`` or ``over``.  Tables waiting for players come first; at most
    :data:`LOBBY_PER_CREATOR` of one creator's account, and of one creator's address,
    are listed (an address is kept while a table is open)."""
    choices = {"open": ("waiting", "running"), "waiting": ("waiting",),
               "running": ("running",), "over": ("over",)}
    if status not in choices:
        raise ArgumentError("server.bad_status", given=status[:40])
    statuses = choices[status]
    rows = await _hub(request).store.tables(public_only=True, statuses=statuses,
                                            per_creator=LOBBY_PER_CREATOR)
    lang = choose_lang(request.query_params.get("lang"),
                       accept=request.headers.get("accept-language"))
    return {"tables": [_row_json(r, lang) for r in rows]}


def _row_json(r: TableRow, lang: str) -> dict[str, Any]:
    """A table of the lobby's list: ``seat_count`` the seats at the table (a Skat table of
    four: the dealer sits each game out, and ``dealer_sees`` says what he sees of it),
    ``free`` those still free; ``shortcut`` (only when true): a game ends as soon as its
    remaining tricks all go to one side."""
    seats = [{k: v for k, v in s.items() if k != "user"} for s in r.summary.get("seats", [])]
    extra: dict[str, Any] = {}
    if r.game == games.SKAT.name:  # the rules in words, and short (a phone's row)
        extra = {"rules_words": rules_words(r.rules, lang),
                 "rules_short": rules_words(r.rules, lang, short=True)}
    settings = TableSettings.from_dict(r.settings)
    if settings.skat_four:
        extra["dealer_sees"] = settings.dealer_sees
    if settings.shortcut:
        extra["shortcut"] = True
    if settings.scoring != "list":
        extra["scoring"] = settings.scoring
    return {"id": r.id, "game": r.game, "rules": r.rules, **extra, "status": r.status,
            "games": r.settings.get("games"), "seats": seats, "seat_count": len(seats),
            "free": sum(1 for s in seats if s["kind"] == "free"),
            "bots": sum(1 for s in seats if s["kind"] == "bot"),
            "games_played": r.summary.get("games_played", 0),
            "idle": bool(r.summary.get("idle")),
            "created_at": r.created_at.isoformat()}


@router.post("/tables")
async def create_table(body: CreateTableRequest, request: Request) -> dict[str, Any]:
    """Create a table; with a ``me`` seat you sit there.  Returns the table and its
    invite link."""
    user = await require_user(request)
    limits: Limits = request.app.state.limits
    settings = _settings(body, limits)
    address = address_of(request)
    await check_quotas(request, user, address, bots_only(body.seats))
    me = [(body.seats.index("me"), user.name, user.id)] if "me" in body.seats else []
    row, events = seated_table(settings, me, created_by=user.id,
                               creator_addr=address_hash(address))
    table_id, invite = row.id, row.invite
    hub = _hub(request)
    await hub.store.create_table(row, events)
    actor = await hub.get(table_id, made=Loaded.new(row, settings, events))
    assert actor is not None
    return {"table": hub.table_info(actor, 0), "invite": invite,
            "invite_path": f"/t/{table_id}?invite={invite}",
            "invite_url": _public(request, f"/t/{table_id}?invite={invite}")}


def _public(request: Request, path: str) -> str:
    """An address of the site as people reach it: the public URL's origin (``--public-url``),
    else the request's own."""
    site: Site = request.app.state.site
    return (site.origin or str(request.base_url).rstrip("/")) + path


@router.get("/tables/{table_id}")
async def get_table(table_id: str, request: Request, invite: str | None = None) -> dict[str, Any]:
    user = await current_user(request)
    actor, insider = await visible_actor(request, table_id, invite, user)
    seat = actor.seat_of(user.id) if user else None
    info = _hub(request).table_info(actor, SPECTATOR if not insider else 0)
    return {"table": info, "you": seat}


@router.post("/tables/{table_id}/join")
async def join(table_id: str, body: JoinRequest, request: Request) -> dict[str, Any]:
    """Sit down at a free seat (the first free one unless ``seat`` is given)."""
    user = await require_user(request)
    actor, _ = await visible_actor(request, table_id, body.invite, user)
    s = actor.sitting
    if s.started:
        raise ArgumentError("server.started")

    def plan(st: Sitting) -> list[Event]:
        # the first free seat as the table is now, under its lock: two who join at once
        # each get a seat of their own (chosen before the lock, both took the same one)
        seat = body.seat
        if seat is None:
            free = st.free_seats()
            if not free:
                raise ArgumentError("server.no_free_seat")
            seat = free[0]
        return st.plan_sit(seat, user.name, user.id)

    seat = (await actor.submit(plan))[0].seat  # the "seat" event
    assert seat is not None
    return {"table": _hub(request).table_info(actor, seat), "you": seat}


@router.post("/tables/{table_id}/seats/{seat}/bot")
async def seat_bot(table_id: str, seat: int, body: SeatBotRequest,
                   request: Request) -> dict[str, Any]:
    """Fill a free seat with a bot (a player of the table, before the start)."""
    user = await require_user(request)
    actor, _ = await visible_actor(request, table_id, None, user)
    if actor.seat_of(user.id) is None:
        raise ArgumentError("server.not_seated")
    if actor.sitting.started:
        raise ArgumentError("server.started")
    await actor.submit(lambda st: st.plan_sit(seat, "", None, bot=body.bot))
    return {"table": _hub(request).table_info(actor, 0)}


@router.post("/tables/{table_id}/leave")
async def leave(table_id: str, request: Request) -> dict[str, Any]:
    """Stand up again (before the start: event ``leave``), or leave a running table for
    good ("Tisch verlassen", event ``quit``: a bot plays the seat from now on)."""
    user = await require_user(request)
    actor, _ = await visible_actor(request, table_id, None, user)
    seat = actor.seat_of(user.id)
    if seat is None:
        raise ArgumentError("server.not_seated")

    def plan(st: Sitting) -> list[Event]:
        info = st.seats[seat]
        if info is None or info.user != user.id or info.bot is not None:
            raise ArgumentError("server.not_seated")  # left (and retaken) meanwhile
        if st.started:
            return st.plan_quit(seat)
        return [Event(st.seq + 1, "leave", seat, {})]

    await actor.submit(plan)
    return {"table": _hub(request).table_info(actor, SPECTATOR)}


@router.post("/tables/{table_id}/close")
async def close(table_id: str, request: Request) -> dict[str, Any]:
    """Close the table now (its creator): a running game is not counted, finished
    games stay in the history."""
    user = await require_user(request)
    hub = _hub(request)
    row = await hub.store.table(table_id) if len(table_id) <= 16 else None
    actor = await hub.get(table_id) if row is not None and row.created_by == user.id \
        else None
    if actor is None:  # not theirs: refused as a stranger is, or as not the creator
        await visible_actor(request, table_id, None, user)
        raise ArgumentError("server.not_creator")
    await actor.submit(lambda st: st.plan_close("closed"))
    return {"table": _hub(request).table_info(actor, SPECTATOR)}


@router.get("/tables/{table_id}/list")
async def skat_list(table_id: str, request: Request, invite: str | None = None) -> dict[str, Any]:
    """The Skat list: per game dealer, declarer, game, value, scores, running totals;
    Punktestand and Bilanz."""
    actor, _ = await visible_actor(request, table_id, invite, await current_user(request))
    return {"list": actor.sitting.list_json()}


@router.get("/tables/{table_id}/sheet")
async def sheet(table_id: str, request: Request, invite: str | None = None) -> dict[str, Any]:
    """The Anschreibezettel of a Baptistenskat table (the engine's scoresheet JSON)."""
    actor, _ = await visible_actor(request, table_id, invite, await current_user(request))
    return {"sheet": actor.sitting.sheet()}


@router.get("/me/seats")
async def my_seats(request: Request) -> dict[str, Any]:
    """The running tables (not over) where the logged-in person sits and has not left
    for good: id, game, title, and whether it is their turn (``to_move``)."""
    user = await require_user(request)
    hub = _hub(request)
    rows = await hub.store.summaries(("running",), limit=1000)
    out = []
    for table_id, summary in rows:
        seat = next((s["seat"] for s in summary.get("seats", [])
                     if s.get("user") == user.id and s.get("kind") == "person"
                     and not s.get("quit")), None)
        if seat is None:
            continue
        actor = await hub.get(table_id)
        if actor is None or actor.sitting.over or actor.seat_of(user.id) != seat:
            continue
        s = actor.sitting
        names = [n for i, n in enumerate(s.names()) if i != seat and n]
        title = s.game.title + \
            (f" ({', '.join(names)})" if names else "")
        out.append({"id": table_id, "game": s.settings.game, "title": title, "seat": seat,
                    "to_move": s.to_move_seat() == seat and not s.between,
                    "path": f"/t/{table_id}"})
    return {"seats": out}
