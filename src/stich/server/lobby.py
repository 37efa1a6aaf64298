"""The lobby: list tables, create one, sit down, fill a seat with a bot, leave.

A table is public (listed) or private (reachable only with its invite token).  Seats are
``me`` (the creator sits there), ``person`` (a free seat for a person with the link) or
``bot:<level>``.  The table starts by itself once every seat is taken.
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request

from stich.baptisten import BaptistenRules
from stich.cards import plain_deck
from stich.core import ArgumentError, RulesError
from stich.server.auth import current_user, require_user
from stich.server.hub import Hub, TableActor, table_status, table_summary
from stich.server.protocol import CreateTableRequest, JoinRequest, SeatBotRequest
from stich.server.sitting import BOT_LEVELS, Event, Sitting, TableSettings
from stich.server.store.db import now
from stich.server.store.models import TableRow, User
from stich.server.wire import SPECTATOR
from stich.skat import SkatRules

__all__ = ["baptisten_rules", "router", "skat_rules", "visible_actor"]

router = APIRouter(prefix="/api", tags=["lobby"])


def skat_rules(body: CreateTableRequest) -> SkatRules:
    if body.rules:
        return SkatRules.parse(body.rules)
    return SkatRules.preset(body.preset or "lothar")


def baptisten_rules(body: CreateTableRequest) -> BaptistenRules:
    """The rules of a new Baptistenskat table: the seats are the players."""
    players = len(body.seats)
    if body.rules:
        rules = BaptistenRules.parse(body.rules)
        if rules.players != players:
            raise ArgumentError("server.seat_count", seats=players, players=rules.players)
        return rules
    base = BaptistenRules.preset(body.preset) if body.preset else BaptistenRules()
    variants = set(body.variants)
    for v in variants:
        if v not in (1, 2, 3, 4, 5):
            raise ArgumentError("server.bad_variant", given=v)
    if 1 in variants and body.deck and body.deck != "romme-double-joker":
        raise ArgumentError("server.variant_deck", deck=body.deck)
    deck = body.deck or ("romme-double-joker" if 1 in variants else base.deck)
    size = plain_deck(deck).size
    fields: dict[str, Any] = {
        "deck": deck, "players": players,
        "forehead": base.forehead or 2 in variants,
        "trick_scoring": base.trick_scoring or 3 in variants,
        "hook_always": base.hook_always or 4 in variants,
        "must_overtrump": base.must_overtrump or 5 in variants,
        "rounds": base.rounds, "trump_card": base.trump_card,
        "points_per_trick": base.points_per_trick, "exact_bonus": base.exact_bonus,
        "exact_zero_bonus": base.exact_zero_bonus,
    }
    if body.max_cards is not None:
        return BaptistenRules(**fields, max_cards=body.max_cards)
    last: Exception | None = None
    for n in range(min(base.max_cards, max(1, size // players)), 0, -1):
        try:
            return BaptistenRules(**fields, max_cards=n)
        except RulesError as e:
            last = e
    assert last is not None
    raise last


def _settings(body: CreateTableRequest) -> TableSettings:
    for spec in body.seats:
        if spec in ("me", "person"):
            continue
        if not spec.startswith("bot:") or spec[4:] not in BOT_LEVELS:
            raise ArgumentError("server.bad_seat_spec", spec=spec)
    if not 5 <= body.grace <= 3600:
        raise ArgumentError("server.grace", grace=body.grace)
    if body.game == "skat":
        if len(body.seats) != 3:
            raise ArgumentError("server.seats_given", game="Skat", need=3, given=len(body.seats))
        if body.games % 3:
            raise ArgumentError("server.games_count", games=body.games)
        rules = str(skat_rules(body))
        games = body.games
    else:
        rules = str(baptisten_rules(body))
        games = 1
    seats = tuple("person" if s == "me" else s for s in body.seats)
    return TableSettings(game=body.game, rules=rules, seats=seats,
                         seed=secrets.randbits(63), games=games, grace=body.grace,
                         show_hands=body.show_hands, public=body.public)


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def visible_actor(request: Request, table_id: str, invite: str | None,
                        user: User | None) -> tuple[TableActor, bool]:
    """The table, if this request may see it: public, or the invite token, or seated.
    Returns the actor and whether the invite was shown."""
    hub = _hub(request)
    row = await hub.store.table(table_id) if len(table_id) <= 16 else None
    actor = await hub.get(table_id) if row is not None else None
    if row is None or actor is None:
        raise ArgumentError("server.no_such_table", table=table_id[:40])
    hub.invites[table_id] = row.invite
    invited = invite is not None and secrets.compare_digest(invite.encode(),
                                                            row.invite.encode())
    seated = user is not None and actor.seat_of(user.id) is not None
    if not row.public and not invited and not seated:
        raise ArgumentError("server.no_such_table", table=table_id[:40])
    return actor, invited or seated


@router.get("/tables")
async def list_tables(request: Request, status: str = "open") -> dict[str, Any]:
    """Public tables: ``status`` = ``open`` (waiting and running), ``waiting``,
    ``running`` or ``over``."""
    statuses = {"open": ("waiting", "running"), "waiting": ("waiting",),
                "running": ("running",), "over": ("over",)}.get(status, ("waiting", "running"))
    rows = await _hub(request).store.tables(public_only=True, statuses=statuses)
    return {"tables": [_row_json(r) for r in rows]}


def _row_json(r: TableRow) -> dict[str, Any]:
    seats = [{k: v for k, v in s.items() if k != "user"} for s in r.summary.get("seats", [])]
    return {"id": r.id, "game": r.game, "rules": r.rules, "status": r.status,
            "games": r.settings.get("games"), "seats": seats,
            "free": sum(1 for s in seats if s["kind"] == "free"),
            "bots": sum(1 for s in seats if s["kind"] == "bot"),
            "games_played": r.summary.get("games_played", 0),
            "created_at": r.created_at.isoformat()}


@router.post("/tables")
async def create_table(body: CreateTableRequest, request: Request) -> dict[str, Any]:
    """Create a table; with a ``me`` seat you sit there.  Returns the table and its
    invite link."""
    user = await require_user(request)
    settings = _settings(body)
    sitting = Sitting(settings)
    events: list[Event] = []
    if "me" in body.seats:
        events += sitting.plan_sit(body.seats.index("me"), user.name, user.id)
        for ev in events:
            sitting.apply(ev)
    more = sitting.plan_start()
    for ev in more:
        sitting.apply(ev)
    events += more
    table_id = secrets.token_urlsafe(8)[:10]
    invite = secrets.token_urlsafe(16)
    row = TableRow(id=table_id, game=settings.game, rules=settings.rules,
                   settings=settings.to_dict(), invite=invite, public=settings.public,
                   status=table_status(sitting), created_by=user.id, created_at=now(),
                   seq=sitting.seq, summary=table_summary(sitting))
    hub = _hub(request)
    await hub.store.create_table(row, events)
    hub.invites[table_id] = invite
    actor = await hub.get(table_id)
    assert actor is not None
    return {"table": hub.table_info(actor, 0), "invite": invite,
            "invite_path": f"/t/{table_id}?invite={invite}"}


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
    if body.seat is None:
        free = s.free_seats()
        if not free:
            raise ArgumentError("server.no_free_seat")
        seat = free[0]
    else:
        seat = body.seat
    await actor.submit(lambda st: st.plan_sit(seat, user.name, user.id))
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
    """Stand up again (before the start; afterwards a bot plays for an absent player)."""
    user = await require_user(request)
    actor, _ = await visible_actor(request, table_id, None, user)
    seat = actor.seat_of(user.id)
    if seat is None:
        raise ArgumentError("server.not_seated")

    def plan(st: Sitting) -> list[Event]:
        if st.started:
            raise ArgumentError("server.started")
        return [Event(st.seq + 1, "leave", seat, {})]

    await actor.submit(plan)
    return {"table": _hub(request).table_info(actor, SPECTATOR)}


@router.get("/tables/{table_id}/list")
async def skat_list(table_id: str, request: Request, invite: str | None = None) -> dict[str, Any]:
    """The Skat list: per game dealer, declarer, game, value, scores, running totals;
    Punktestand and Bilanz."""
    actor, _ = await visible_actor(request, table_id, invite, await current_user(request))
    return {"list": actor.sitting.skat_list()}


@router.get("/tables/{table_id}/sheet")
async def sheet(table_id: str, request: Request, invite: str | None = None) -> dict[str, Any]:
    """The Anschreibezettel of a Baptistenskat table (the engine's scoresheet JSON)."""
    actor, _ = await visible_actor(request, table_id, invite, await current_user(request))
    return {"sheet": actor.sitting.sheet()}
