"""The tournaments' pages: ``/tournaments`` (the public ones, and a form to create one)
and ``/tournaments/{id}`` (join by its link, your table and your place, the next round,
the standings, the rounds' tables, the organiser's buttons; printable).  The figures come
from the handlers of ``/api/tournaments`` (:mod:`stich.server.tournament_routes`),
called in-process; ``docs/tournaments.md`` tells the rules."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from functools import cache, partial
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


FRAGMENTS_KEPT = 8192
"""The page's rows and tables kept as made (:func:`_fragment`; a few hundred bytes
each): a tournament of 25 tables at its eighth round shows 75 rows and 200 tables."""
_FRAGMENTS: OrderedDict[tuple[Any, ...], Markup] = OrderedDict()


@cache
def _macros(lang: str) -> Any:
    """``tournament_parts.html``'s macros in ``lang``."""
    return env().get_template("tournament_parts.html").make_module(
        {"_": translations(lang).gettext, "signed": signed})


def _fragment(key: tuple[Any, ...], make: Callable[[], Markup]) -> Markup:
    """The part of the page ``key`` names (its language and everything it shows), made
    by ``make`` unless it was made lately (every viewer's page and every page since
    share it until it changes: a series' end changes a few rows and one table)."""
    got = _FRAGMENTS.get(key)
    if got is not None:
        _FRAGMENTS.move_to_end(key)
        return got
    got = _FRAGMENTS[key] = make()
    while len(_FRAGMENTS) > FRAGMENTS_KEPT:
        _FRAGMENTS.popitem(last=False)
    return got


_ROW = Markup('      <tr{}>\n        <td class="num">{}.</td>\n')
_ROW_END = Markup("      </tr>\n")
_MINE = Markup(' class="pg-who me"')


def _row(lang: str, words: tuple[tuple[str, str], ...], s: dict[str, Any]) -> Markup:
    """A row of the standings: its cells kept as made (:func:`_fragment`), its place
    and mark ("you") put around them."""
    cells = _fragment(("row", lang, words, s["name"], s["active"], s["score"],
                       tuple(s["by_round"].items()), s["won"], s["lost"]),
                      partial(_macros(lang).standing_cells, s, words))
    return _ROW.format(_MINE if s["you"] else Markup(""), s["place"]) + cells + _ROW_END


def _item(lang: str, n: int, x: dict[str, Any]) -> Markup:
    """A table of round ``n`` (kept as made: :func:`_fragment`)."""
    return _fragment(("table", lang, n, x["number"], x["games"], x["games_played"], x["done"],
                      tuple((s["name"], s["bot"], s["you"]) for s in x["seats"]), x["link"]),
                     partial(_macros(lang).table_item, n, x))


def _parts(shown: tournament_routes.Shown, t: dict[str, Any], lang: str) -> dict[str, Any]:
    """The page's long parts for the viewer of ``t`` (its standings' rows, its rounds'
    tables, the players: ``tournament_parts.html``).  What every viewer shares is put
    together once per tournament as read and language (``shown.parts``), each row and
    table of it kept as made (:func:`_fragment`: when a series ends only what changed is
    made again); the viewer's own row is marked, and the viewer's own tables (and every
    table, to the organiser) come with their links."""
    common = shown.parts.get(lang)
    if common is None:
        gettext = translations(lang).gettext
        words = tuple((str(n), gettext("Round {n}").format(n=n))
                      for n in range(1, shown.state.row.round + 1))
        common = shown.parts[lang] = {
            "words": words, "rows": [_row(lang, words, s) for s in shown.standings],
            "players": _fragment(("players", lang, tuple((p["name"], p["status"])
                                                         for p in shown.players)),
                                 partial(_macros(lang).players, shown.players))}
    if "items" not in common:  # (made again when only the games played moved)
        common["items"] = [[_item(lang, n, x) for _, x in tables] for n, tables in shown.rounds]
    rows = [_row(lang, common["words"], s) if s["you"] else row
            for s, row in zip(t["standings"], common["rows"], strict=True)]
    rounds = []
    for r, (n, tables), items in zip(t["rounds_played"], shown.rounds, common["items"],
                                     strict=True):
        # a table of the viewer's (or every table, to the organiser) is a dict of its own
        mine = [_item(lang, n, x) if x is not shared else item
                for x, (_, shared), item in zip(r["tables"], tables, items, strict=True)]
        rounds.append((n, Markup("").join(mine)))
    return {"standings": Markup("").join(rows), "rounds": rounds[::-1],
            "players": common["players"]}


def mount(app: FastAPI) -> None:
    app.include_router(router)
