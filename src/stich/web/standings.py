"""The standings and history pages: the Bestenliste (with the Baptistenskat ranking), a
player's page, one finished game with its replay, and a table's printable Skat list or
Anschreibezettel.

Every figure comes from the same handler the HTTP API answers with (``stich.server.
history`` and ``stich.server.lobby``), called in-process: a page and ``/api/…`` never
disagree.  Unknown players, games and tables get a 404 page in the visitor's language.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from stich import games
from stich.cards import plain_deck
from stich.games import SKAT
from stich.messages import StichError
from stich.present.initials import initials
from stich.server import auth, history, lobby
from stich.server.guard import capitalised
from stich.skat.outcome import SkatOutcome
from stich.skat.rules import GameType
from stich.skat_list import game_name
from stich.web.pages import lang_of, render_page

__all__ = ["ORDERS", "PERIODS", "PRESETS", "game_title", "mount", "outcome_of", "percent",
           "rating_plot", "router", "value_breakdown"]

router = APIRouter(include_in_schema=False)

PRESETS = ("lothar", "isko")
PERIODS = ("all", "year", "month")
ORDERS = ("bilanz", "rating")  # the Bestenliste's orders (history.ORDERS)
POSITIONS = ("Vorhand", "Mittelhand", "Hinterhand")
USER_GAMES = 50  # games on a player's page at a time


async def _not_found(request: Request, err: StichError | None = None) -> HTMLResponse:
    resp = await render_page(request, "notfound.html",
                             reason=capitalised(err.text(lang_of(request)))
                             if err is not None else None)
    resp.status_code = 404
    return resp


def _missing(err: StichError) -> bool:
    return ".no_such_" in err.code


def when(iso: str, lang: str) -> str:
    """A stored time as the visitor reads it (the server keeps UTC).

    >>> when("2026-11-30T19:31:44.008727", "de"), when("2026-11-30T19:31:44", "en")
    ('30.11.2026 19:31', '2026-11-30 19:31')
    """
    t = datetime.fromisoformat(iso)
    return t.strftime("%d.%m.%Y %H:%M" if lang == "de" else "%Y-%m-%d %H:%M")


def played_on(isos: list[str], lang: str) -> str:
    """The day (or days) a table's games were played, as the visitor writes a date (for a
    sheet's header, instead of the table's id); empty before the first game.

    >>> played_on(["2026-11-30T19:31:44", "2026-11-30T22:01:00"], "de")
    '30.11.2026'
    >>> played_on(["2026-11-30T23:50:00", "2026-12-01T00:20:00"], "en"), played_on([], "de")
    ('2026-11-30 – 2026-12-01', '')
    """
    days = sorted({datetime.fromisoformat(t).date() for t in isos})
    if not days:
        return ""
    form = "%d.%m.%Y" if lang == "de" else "%Y-%m-%d"
    first, last = days[0].strftime(form), days[-1].strftime(form)
    return first if first == last else f"{first} – {last}"


def number(n: int) -> str:
    """A number as the lists print it: a negative one with a real minus sign.

    >>> number(48), number(-120), number(0)
    ('48', '−120', '0')
    """
    return f"−{-n}" if n < 0 else str(n)


def signed(n: int) -> str:
    """``+48``, ``−120`` (a real minus sign), ``0``.

    >>> signed(48), signed(-120), signed(0)
    ('+48', '−120', '0')
    """
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def outcome_of(d: dict[str, Any]) -> SkatOutcome:
    """A Skat result as a record or the Skat list stores it (``SkatOutcome.to_dict``)."""
    scores = (int(d["scores"][0]), int(d["scores"][1]), int(d["scores"][2]))
    kind = str(d["kind"])
    if kind == "game":
        return SkatOutcome(
            kind=kind, scores=scores, declarer=d["declarer"], game=GameType(d["game"]),
            bid=d["bid"], hand=d["hand"], ouvert=d["ouvert"],
            schneider_announced=d["schneider_announced"],
            schwarz_announced=d["schwarz_announced"], matadors=d["matadors"],
            multiplier=d["multiplier"], value=d["value"],
            declarer_points=d["declarer_points"], defender_points=d["defender_points"],
            declarer_tricks=d["declarer_tricks"], defender_tricks=d["defender_tricks"],
            schneider=d["schneider"], schwarz=d["schwarz"], overbid=d["overbid"],
            won=d["won"])
    if kind == "ramsch":
        pts, tricks = d["points"], d["tricks"]
        return SkatOutcome(kind=kind, scores=scores, game=GameType.RAMSCH,
                           points=(pts[0], pts[1], pts[2]),
                           tricks=(tricks[0], tricks[1], tricks[2]),
                           loser=d["loser"], durchmarsch=d["durchmarsch"])
    return SkatOutcome(kind="passed", scores=scores)


def rules_parts(text: str) -> dict[str, Any]:
    """A rule string as the parts a page names in words (never the raw string):
    Skat ``{"game": "skat", "preset", "changed"}``, Baptistenskat ``{"game":
    "baptisten", "deck", "double", "joker", "max_cards", "variants"}``.

    >>> rules_parts("skat(preset=lothar)")
    {'game': 'skat', 'preset': 'lothar', 'changed': False}
    >>> rules_parts("baptisten(deck=romme-double,max_cards=7,variants=2+5)")["variants"]
    ['forehead', 'must_overtrump']
    """
    try:
        return games.get(text.split("(", 1)[0].strip()).rules_parts(text)
    except (ValueError, KeyError):
        return {"game": "other"}


def game_title(result: dict[str, Any] | None, lang: str) -> str:
    """The game's name as the Skat list writes it, in ``lang`` (``Grand Hand``)."""
    if result is None:
        return ""
    return game_name(outcome_of(result), lang)


#: the words of a value's breakdown per language (the Skat terms stay German), as the
#: table's result says them (``breakdown`` in static/js/skat.js)
BREAKDOWN_WORDS = {
    "de": {"with": "mit", "without": "ohne", "game": "Spiel",
           "schneider_announced": "Schneider angesagt", "schwarz_announced": "Schwarz angesagt"},
    "en": {"with": "with", "without": "without", "game": "game",
           "schneider_announced": "Schneider announced", "schwarz_announced": "Schwarz announced"},
}


def value_breakdown(result: dict[str, Any], lang: str = "de") -> str | None:
    """How a suit game's or Grand's value is counted, the Skat way: ``mit 1, Spiel 2,
    Hand 3, Ouvert 4 × 12 = 48`` (``with 1, game 2, …`` in English).  None for Null,
    Ramsch, passed and overbid games, and whenever the levels do not add up to the
    record's multiplier (then the record's own figures are shown alone).

    >>> herz = {"kind": "game", "game": "herz", "matadors": -2, "hand": True,
    ...     "schneider": True, "schneider_announced": False, "schwarz": False,
    ...     "schwarz_announced": False, "ouvert": False, "overbid": False,
    ...     "multiplier": 5, "value": 50}
    >>> value_breakdown(herz)
    'ohne 2, Spiel 3, Hand 4, Schneider 5 × 10 = 50'
    >>> value_breakdown(herz, "en")
    'without 2, game 3, Hand 4, Schneider 5 × 10 = 50'
    """
    if result.get("kind") != "game" or result.get("overbid"):
        return None
    game = GameType(result["game"])
    if game in (GameType.NULL, GameType.RAMSCH):
        return None
    words = BREAKDOWN_WORDS.get(lang, BREAKDOWN_WORDS["de"])
    m = int(result["matadors"])
    level = abs(m)
    parts = [f"{words['with'] if m > 0 else words['without']} {level}"]
    for word, on in ((words["game"], True), ("Hand", result["hand"]),
                     ("Schneider", result["schneider"]),
                     (words["schneider_announced"], result["schneider_announced"]),
                     ("Schwarz", result["schwarz"]),
                     (words["schwarz_announced"], result["schwarz_announced"]),
                     ("Ouvert", result["ouvert"])):
        if on:
            level += 1
            parts.append(f"{word} {level}")
    if level != result["multiplier"] or level * game.base_value != result["value"]:
        return None
    return f"{', '.join(parts)} × {game.base_value} = {result['value']}"


# --- the Bestenliste ------------------------------------------------------------------------

@router.get("/bestenliste", response_class=HTMLResponse)
async def bestenliste(request: Request, preset: str = "lothar", period: str = "all",
                      rules: str | None = None, order: str = "bilanz") -> Response:
    """The Bestenliste of a preset (or of exactly one rule string with house rules:
    ``rules``) and period, ranked by Bilanz or by rating (``order``), and the
    Baptistenskat ranking.  A visitor with saved rule sets finds them among the
    choices, by name."""
    preset = preset if preset in PRESETS else "lothar"
    period = period if period in PERIODS else "all"
    order = order if order in ORDERS else "bilanz"
    problem = None
    try:
        skat = await history.bestenliste(request, preset=preset, period=period,
                                         rules=rules or None, order=order)
    except StichError as e:  # rules the engine refuses: the preset's list, and why
        problem = capitalised(e.text(lang_of(request)))
        skat = await history.bestenliste(request, preset=preset, period=period,
                                         order=order)
    baptisten = await history.baptisten_ranking(request, period=period)
    user = await auth.current_user(request)
    own = [] if user is None or user.guest else \
        [{"name": r.name, "rules": r.rules}
         for r in await request.app.state.store.rule_sets(user.id)]
    return await render_page(request, "bestenliste.html", preset=skat["preset"],
                             period=period, order=order, orders=ORDERS,
                             presets=PRESETS, periods=PERIODS, skat=skat,
                             baptisten=baptisten, when=when, signed=signed, own_sets=own,
                             problem=problem, rules_query=skat.get("rules"))


# --- a player's page ------------------------------------------------------------------------

@router.get("/u/{name}", response_class=HTMLResponse)
async def player(request: Request, name: str, offset: int = 0) -> Response:
    """A registered player's Skat figures per preset and their games, newest first."""
    offset = max(0, offset)
    try:
        data = await history.player(name, request, limit=USER_GAMES, offset=offset)
    except StichError as e:
        if _missing(e):
            return await _not_found(request, e)
        raise
    return await render_page(request, "player.html", p=data, presets=PRESETS,
                             offset=offset, page_size=USER_GAMES, when=when, signed=signed,
                             plot=rating_plot, percent=percent)


PLOT_W, PLOT_H, PLOT_PAD = 600, 160, 6  # the rating plot's view box (the page scales it)


def rating_plot(history: list[float], bots: dict[str, float]) -> dict[str, Any]:
    """A rating's history as the page draws it (inline SVG, no script): the polyline's
    points in a view box of :data:`PLOT_W` × :data:`PLOT_H`, the figures' range (the
    bots' ratings inside it), and a level line per bot (its ``y``).

    >>> p = rating_plot([0.0, 5.0, 10.0], {"easy": 5.0})
    >>> p["points"], p["low"], p["high"], p["bots"]
    ('6.0,154.0 300.0,80.0 594.0,6.0', 0.0, 10.0, [{'level': 'easy', 'y': 80.0, 'rating': 5.0}])
    >>> rating_plot([3.0], {})["points"]
    '6.0,80.0 594.0,80.0'
    """
    values = history if len(history) > 1 else history * 2
    low, high = min([*values, *bots.values()]), max([*values, *bots.values()])
    span = (high - low) or 1.0
    inner_w, inner_h = PLOT_W - 2 * PLOT_PAD, PLOT_H - 2 * PLOT_PAD

    def y(v: float) -> float:
        if high == low:
            return PLOT_H / 2
        return round(PLOT_PAD + inner_h * (high - v) / span, 1)

    n = len(values) - 1
    points = " ".join(f"{round(PLOT_PAD + inner_w * i / n, 1)},{y(v)}"
                      for i, v in enumerate(values))
    return {"points": points, "low": round(low, 1), "high": round(high, 1),
            "width": PLOT_W, "height": PLOT_H, "games": len(history),
            "bots": [{"level": lv, "y": y(v), "rating": v} for lv, v in bots.items()]}


def percent(share: float | None) -> str:
    """A share as a whole percentage (``–`` for none).

    >>> percent(0.4567), percent(None)
    ('46 %', '–')
    """
    return "–" if share is None else f"{round(share * 100)} %"


# --- one finished game ----------------------------------------------------------------------

@router.get("/games/{key}", response_class=HTMLResponse)
async def game(request: Request, key: str, invite: str | None = None) -> Response:
    """A finished game: who played, the result and its value, and the replay (a
    private table's game only for its circle)."""
    try:
        data = await history.game(key, request, invite)
    except StichError as e:
        if _missing(e):
            return await _not_found(request, e)
        raise
    g, record = data["game"], data["record"]
    lang = lang_of(request)
    ctx: dict[str, Any] = {"g": g, "record": record, "when": when, "signed": signed,
                           "positions": POSITIONS}
    if g["game"] == SKAT.name:
        result = record.get("result") or {"kind": "passed", "scores": [0, 0, 0]}
        seats = record.get("seats") or [0, 1, 2]
        by_seat = {p["seat"]: p for p in g["players"]}
        declared = ""
        if result["kind"] == "game":  # the game as declared (the list adds what happened)
            o = outcome_of(result)
            declared = game_name(SkatOutcome(
                kind="game", scores=o.scores, game=o.game, hand=o.hand, ouvert=o.ouvert,
                schneider_announced=o.schneider_announced,
                schwarz_announced=o.schwarz_announced), lang)
        ctx.update(result=result, title=game_title(result, lang), declared=declared,
                   breakdown=value_breakdown(result, lang),
                   # the players by position (Vorhand, Mittelhand, Hinterhand)
                   people=[by_seat.get(s, {"name": n, "registered": False})
                           for s, n in zip(seats, record["players"], strict=True)],
                   analysable=result["kind"] == "game")
    else:
        ctx.update(title="Baptistenskat", analysable=False,
                   people=sorted(g["players"], key=lambda p: (p["place"] or 99, p["seat"])))
    return await render_page(request, "game.html", rules_parts=rules_parts, **ctx)


# --- a table's list and Anschreibezettel ----------------------------------------------------

def _table_path(table_id: str, what: str, invite: str | None) -> str:
    return f"/t/{table_id}/{what}" + (f"?invite={invite}" if invite else "")


@router.get("/t/{table_id}/list", response_class=HTMLResponse)
async def skat_list(request: Request, table_id: str, invite: str | None = None) -> Response:
    """The printable Skat list of a table (a Baptistenskat table: its Zettel)."""
    try:
        data = (await lobby.skat_list(table_id, request, invite))["list"]
        games = (await history.table_games(table_id, request, invite))["games"]
    except StichError as e:
        if _missing(e):
            return await _not_found(request, e)
        raise
    if data is None:
        return RedirectResponse(_table_path(table_id, "zettel", invite), status_code=303)
    lang = lang_of(request)
    ids = {gm["number"]: gm["id"] for gm in games}
    rows = [{**line, "title": game_title(line["result"], lang), "id": ids.get(line["number"])}
            for line in data["games"]]  # the games' addresses carry the invite (templates)
    return await render_page(request, "skat_list.html", table_id=table_id, sl=data,
                             rows=rows, invite=invite, signed=signed, number=number,
                             played=played_on([gm["finished_at"] for gm in games], lang))


@router.get("/t/{table_id}/zettel", response_class=HTMLResponse)
async def zettel(request: Request, table_id: str, invite: str | None = None) -> Response:
    """The printable Anschreibezettel of a Baptistenskat table (a Skat table: its list).

    As on paper: the names in the order of the draw (beginning with the player who
    begins the game), then per round the round's cards, the initials of the player who
    begins it, the trump, and per player bid, stake, tricks and running total."""
    try:
        data = (await lobby.sheet(table_id, request, invite))["sheet"]
        games = (await history.table_games(table_id, request, invite))["games"]
    except StichError as e:
        if _missing(e):
            return await _not_found(request, e)
        raise
    if data is None:
        return RedirectResponse(_table_path(table_id, "list", invite), status_code=303)
    from stich.baptisten import BaptistenRules

    rules = BaptistenRules.parse(data["rules"])
    deck = plain_deck(rules.deck)
    lang = lang_of(request)

    def trump(suit: str | None) -> str:
        """The trump suit in the visitor's language (the sheet names it in German)."""
        if suit is None:
            return "–"
        if lang == "en" and suit in deck.suit_names:
            return deck.suit_names_en[deck.suit_names.index(suit)]
        return suit

    names: list[str] = data["players"]
    n = len(names)
    start = data["rounds"][0]["first"] if data["rounds"] else 0
    order = [(start + i) % n for i in range(n)]  # the draw: who begins the game first
    short = initials(names)
    rounds = []
    for r in data["rounds"]:
        by_player = {e["player"]: e for e in r["entries"]}
        rounds.append({**r, "initials": short[r["first"]],
                       "cells": [by_player.get(p) for p in order]})
    blocks = zettel_blocks(len(order), stakes=not rules.trick_scoring)
    return await render_page(request, "zettel.html", table_id=table_id, sheet=data,
                             order=order, names=names, rounds=rounds,
                             blocks=[(b[0], b[-1] + 1) for b in blocks if b], rules=rules,
                             deck_cards=deck.size,
                             stakes=not rules.trick_scoring, trump=trump, invite=invite,
                             game_id=games[0]["id"] if games else None, signed=signed,
                             played=played_on([gm["finished_at"] for gm in games], lang))


#: players whose columns fit an A4 page printed landscape beside the round columns, with
#: and without the stake column (9 pt figures, the names wrapped; see zettel.html)
ZETTEL_PER_PAGE = {True: 7, False: 9}


def zettel_blocks(n: int, *, stakes: bool = True) -> list[list[int]]:
    """The players (positions in the order of the draw) in blocks that fit a printed
    page, as even as can be, as the terminal splits its sheet at 80 columns
    (:func:`stich.cli.baptisten_render.sheet_blocks`): each block is a table of its own
    that repeats the round columns, and each prints on a page of its own.

    >>> zettel_blocks(6), zettel_blocks(15)
    ([[0, 1, 2, 3, 4, 5]], [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14]])
    """
    fit = ZETTEL_PER_PAGE[stakes]
    count = -(-n // fit)
    per = -(-n // count) if n else 1
    return [list(range(i, min(i + per, n))) for i in range(0, n, per)] or [[]]


def mount(app: FastAPI) -> None:
    """The standings and history pages on the server's app."""
    app.include_router(router)
