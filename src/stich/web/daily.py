"""The Tagesskat's page (``/tagesskat``, ``?day=YYYY-MM-DD``): the day's set, the button
that opens one's own table of the day, one's result, the bots' own result on the same
cards, and the day's and the week's leaderboards.  The figures come from the handler of
``GET /api/daily`` (:mod:`stich.server.daily_api`), called in-process."""

from __future__ import annotations

import datetime as dt

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from stich.messages import StichError
from stich.server import daily_api
from stich.server.guard import capitalised
from stich.web.pages import lang_of, render_page
from stich.web.standings import signed

__all__ = ["mount", "router"]

router = APIRouter(include_in_schema=False)


@router.get("/tagesskat", response_class=HTMLResponse)
async def page(request: Request, day: str | None = None) -> Response:
    try:
        got = await daily_api.show(request, day)
    except StichError as e:
        resp = await render_page(request, "notfound.html",
                                 reason=capitalised(e.text(lang_of(request))))
        resp.status_code = 404
        return resp
    when = dt.date.fromisoformat(got["day"])
    return await render_page(request, "daily.html", daily=got, signed=signed,
                             before=(when - dt.timedelta(days=1)).isoformat(),
                             after=None if got["today"]
                             else (when + dt.timedelta(days=1)).isoformat())


def mount(app: FastAPI) -> None:
    app.include_router(router)
