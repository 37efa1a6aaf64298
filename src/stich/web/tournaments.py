"""The tournaments' pages: ``/tournaments`` (the public ones, and a form to create one)
and ``/tournaments/{id}`` (join by its link, your table and your place, the next round,
the standings, the rounds' tables, the organiser's buttons; printable).  The figures come
from the handlers of ``/api/tournaments`` (:mod:`stich.server.tournament_routes`),
called in-process; ``docs/tournaments.md`` tells the rules."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from stich.messages import StichError
from stich.server import tournament_routes
from stich.server.auth import current_user
from stich.server.guard import capitalised
from stich.web.pages import lang_of, render_page
from stich.web.standings import signed

__all__ = ["mount", "router"]

router = APIRouter(include_in_schema=False)


@router.get("/tournaments", response_class=HTMLResponse)
async def listing(request: Request) -> Response:
    got = await tournament_routes.list_public(request, "open")
    over = await tournament_routes.list_public(request, "over")
    return await render_page(request, "tournaments.html", open=got["tournaments"],
                             over=over["tournaments"][:20])


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
async def page(request: Request, tournament_id: str, invite: str | None = None) -> Response:
    user = await current_user(request)
    try:
        got = await tournament_routes.show_to(request, tournament_id,
                                              invite[:64] if invite else None, user)
    except StichError as e:
        resp = await render_page(request, "notfound.html",
                                 reason=capitalised(e.text(lang_of(request))))
        resp.status_code = 404
        return resp
    return await render_page(request, "tournament.html", t=got["tournament"], signed=signed,
                             invite=invite[:64] if invite else None, seen_user=(user,))


def mount(app: FastAPI) -> None:
    app.include_router(router)
