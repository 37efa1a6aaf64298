"""The tournaments' pages: ``/tournaments`` (the public ones, and a form to create one)
and ``/tournaments/{id}`` (join by its link, your table and your place, the next round,
the standings, the rounds' tables, the organiser's buttons; printable).  The figures come
from the handlers of ``/api/tournaments`` (:mod:`stich.server.tournament_routes`),
called in-process; ``docs/tournaments.md`` tells the rules."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup

from stich.messages import StichError
from stich.server import tournament_routes
from stich.server.auth import current_user
from stich.server.guard import capitalised
from stich.web.i18n import translations
from stich.web.pages import env, lang_of, render_page
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
        shown, t = await tournament_routes.shown_to(request, tournament_id,
                                                    invite[:64] if invite else None, user)
    except StichError as e:
        resp = await render_page(request, "notfound.html",
                                 reason=capitalised(e.text(lang_of(request))))
        resp.status_code = 404
        return resp
    return await render_page(request, "tournament.html", t=t, signed=signed,
                             parts=_parts(shown, t, lang_of(request)),
                             invite=invite[:64] if invite else None, seen_user=(user,))


def _parts(shown: tournament_routes.Shown, t: dict[str, Any], lang: str) -> dict[str, Any]:
    """The page's long parts for the viewer of ``t`` (its standings' rows, its rounds'
    tables, the players), made of those every viewer shares (made once per tournament
    as read and language: ``tournament_parts.html``), with the viewer's own row and
    tables (marked as theirs, with their links) made again."""
    common = shown.parts.get(lang)
    if common is None:
        gettext = translations(lang).gettext
        macros: Any = env().get_template("tournament_parts.html").make_module(
            {"_": gettext, "signed": signed})
        words = [(str(n), gettext("Round {n}").format(n=n))
                 for n in range(1, shown.state.row.round + 1)]
        common = shown.parts[lang] = {
            "macros": macros, "words": words,
            "rows": [macros.standing_row(s, words) for s in shown.standings],
            "players": macros.players(shown.players)}
    macros = common["macros"]
    if "items" not in common:  # (made again when only the games played moved)
        common["items"] = [[macros.table_item(n, x) for _, x in tables]
                           for n, tables in shown.rounds]
    rows = [macros.standing_row(s, common["words"]) if s["you"] else row
            for s, row in zip(t["standings"], common["rows"], strict=True)]
    rounds = []
    for r, (n, tables), items in zip(t["rounds_played"], shown.rounds, common["items"],
                                     strict=True):
        # a table of the viewer's (or every table, to the organiser) is a dict of its own
        mine = [macros.table_item(n, x) if x is not shared else item
                for x, (_, shared), item in zip(r["tables"], tables, items, strict=True)]
        rounds.append((n, Markup("").join(mine)))
    return {"standings": Markup("").join(rows), "rounds": rounds[::-1],
            "players": common["players"]}


def mount(app: FastAPI) -> None:
    app.include_router(router)
