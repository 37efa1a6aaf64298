"""The HTML pages.  Each page is a Jinja2 template rendered in the visitor's language;
the data comes from the same queries as the HTTP API, the live table from the WebSocket.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from stich import __version__
from stich.present.languages import LANGS, choose_lang
from stich.present.skat_rules import rules_words
from stich.server import auth
from stich.server.store.models import User
from stich.web.i18n import HERE, js_strings, translations

__all__ = ["LANG_COOKIE", "env", "lang_of", "mount", "render_page", "router", "trouble_page"]

LANG_COOKIE = "stich_lang"
router = APIRouter(include_in_schema=False)


@cache
def env() -> Environment:
    """The pages' templates (made once; a template is read once per process, not
    looked at on disk again for every page)."""
    env = Environment(loader=FileSystemLoader(HERE / "templates"),
                      autoescape=select_autoescape(["html"]), trim_blocks=True,
                      lstrip_blocks=True, extensions=["jinja2.ext.do"], auto_reload=False)
    return env


@cache
def _strings_json(lang: str) -> Markup:
    """The scripts' texts in ``lang`` as the JSON every page carries (made once: it was
    a tenth of a tournament page's server time, made anew for every page)."""
    return Markup(json.dumps(js_strings(lang), ensure_ascii=False).replace("</", "<\\/"))


def lang_of(request: Request) -> str:
    return choose_lang(request.query_params.get("lang"), request.cookies.get(LANG_COOKIE),
                       request.headers.get("accept-language"))


async def render_page(request: Request, template: str, *, anonymous: bool = False,
                      seen_user: tuple[User | None] | None = None,
                      **context: Any) -> HTMLResponse:
    """``template`` in the visitor's language, with the logged-in user (or None;
    ``anonymous``: not looked up, as when the database does not answer; ``seen_user``:
    the user the page's handler looked up already, in a tuple)."""
    lang = lang_of(request)
    tr = translations(lang)
    if seen_user is not None:
        user = seen_user[0]
    else:
        user = None if anonymous else await auth.current_user(request)
    ctx: dict[str, Any] = {
        "_": tr.gettext, "lang": lang, "langs": LANGS, "version": __version__,
        "user": None if user is None else auth.user_json(user),
        "path": request.url.path,
        "lang_url": lambda code: _with_lang(request, code),
        "rules_words": rules_words,  # a Skat rule string in words (long, or short=True)
        "js_strings": _strings_json(lang),
        **context,
    }
    html = env().get_template(template).render(ctx)
    resp = HTMLResponse(html)
    q = request.query_params.get("lang")
    if q in LANGS:  # a choice made on the page stays
        resp.set_cookie(LANG_COOKIE, q, max_age=365 * 86400, samesite="lax")
    return resp


async def trouble_page(request: Request) -> HTMLResponse:
    """A page asked for while the database does not answer: 503, a page saying so and a
    button to try again (nothing of it needs the database)."""
    resp = await render_page(request, "trouble.html", anonymous=True)
    resp.status_code = 503
    resp.headers["retry-after"] = "5"
    return resp


def _with_lang(request: Request, code: str) -> str:
    """This page's address in another language (the other query parameters kept)."""
    query = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"]
    return request.url.path + "?" + urlencode([*query, ("lang", code)])


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> Response:
    return await render_page(request, "lobby.html")


@router.get("/login", response_class=HTMLResponse)
async def login(request: Request) -> Response:
    return await render_page(request, "lobby.html", login=True)


@router.get("/account", response_class=HTMLResponse)
async def account(request: Request) -> Response:
    """One's account: a new password, log out everywhere, delete the account."""
    return await render_page(request, "account.html")


@router.get("/t/{table_id}", response_class=HTMLResponse)
async def table(request: Request, table_id: str) -> Response:
    return await render_page(request, "table.html", table_id=table_id,
                             invite=request.query_params.get("invite"))


MANIFEST = {
    "name": "stich: Skat und Baptistenskat",
    "short_name": "stich",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "theme_color": "#1d5e3a",
    "background_color": "#1d5e3a",
    "icons": [
        {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {"src": "/static/favicon.svg", "sizes": "any", "type": "image/svg+xml"},
    ],
}
"""The web app manifest: "Add to home screen" gives a full-screen app named stich (no
service worker: nothing of a game is cached)."""


@router.get("/manifest.webmanifest")
async def manifest() -> Response:
    return Response(json.dumps(MANIFEST, ensure_ascii=False),
                    media_type="application/manifest+json")


def mount(app: FastAPI) -> None:
    """The pages and ``/static`` on the server's app."""
    app.include_router(router)
    from stich.web import (  # they render with this module's render_page
        daily,
        standings,
        tournaments,
    )
    standings.mount(app)
    daily.mount(app)
    tournaments.mount(app)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
