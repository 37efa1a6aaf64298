"""Whose game was it, walked through every page as a person sees it (issue 40, point 1).

Anna (registered) plays the first game of a Skat list with Kurt and a bot, then leaves
the table ("Tisch verlassen"): a stand-in plays her seat for games 2 and 3.  While the
table runs, the lobby and the table say "Bot für Anna"; when it is over, her player page
counts one game and marks the two the bot played, the Bestenliste counts one game, the
game page of game 2 says a bot played it for her, its replay names the bot for every move
of her seat, and the analysis names the bot for the card it recommends.  At 390x844 and
1280x800, in German; screenshots into tests/web/output/."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.server.harness import Client, Server, TableSocket, database
from tests.server.proto_helpers import kind, my_turn, uid
from tests.web.browser import DESKTOP, PHONE, run_apart, shot, visitor


async def play_random(ws: TableSocket, rng: random.Random, stop: Callable[[Any], bool],
                      timeout: float = 90.0, *, keen: bool = False) -> None:
    """Random legal actions whenever it is this seat's turn, until a message satisfies
    ``stop`` (``keen``: never passes while there is something else to say, so that each
    game is played, not passed in, bids the least and declares no Null).  A stale action
    (the other person or the stand-in moved first) is refused; the person then acts on
    the newer event."""

    def choose(legal: list[str]) -> str:
        if not keen:
            return rng.choice(legal)
        said = [a for a in legal if a != "pass"] or legal
        bids = [a for a in said if a.isdigit()]
        if bids:  # the lowest bid: never a bid no game can reach
            return min(bids, key=int)
        # no Null declared (a Null over its value is no game the analysis takes)
        return rng.choice([a for a in said if "null" not in a] or said)

    if my_turn(ws.view):
        assert ws.view is not None
        await ws.act(choose(ws.view["legal"]))
    while True:
        msg = await ws.recv(timeout)
        if msg["type"] == "error":
            assert msg["code"] == "server.stale", msg
            continue
        if stop(msg):
            return
        if msg["type"] in ("event", "snapshot") and my_turn(msg.get("view")):
            await ws.act(choose(msg["view"]["legal"]))


@dataclass
class Table:
    server: Server
    anna: str
    kurt: Client
    tid: str
    running: bool = True  # (Kurt holds it at his turn)


def _in_view(page: Page, selector: str) -> None:
    """The element is shown, inside the window's width, with text a person can read."""
    el = page.locator(selector).first
    el.wait_for()
    assert el.is_visible(), selector
    box = el.bounding_box()
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, \
        (selector, box)
    size = page.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)",
                         el.element_handle())
    assert size >= 11, (selector, size)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with database("sqlite", tmp_path_factory.mktemp("whose")) as url:
        server = Server(url, bot_delay=0.0)
        server.start()
        try:
            yield server
        finally:
            server.stop()


@pytest.fixture
def table(server: Server) -> Iterator[Table]:
    """A table of its own for each test: Anna has played game 1 and left, the stand-in
    has played game 2 for her, and Kurt holds the table at his turn in game 3."""
    anna, kurt = Client(server, "de"), Client(server, "de")
    names = uid("Anna"), uid("Kurt")
    anna.register(names[0])
    kurt.register(names[1])
    tid = anna.create(game="skat", preset="lothar", games=3, grace=600,
                      seats=["me", "person", "bot:easy"])["table"]["id"]
    assert kurt.post(f"/api/tables/{tid}/join", {}).status_code == 200

    async def first_game() -> None:
        a, k = await anna.connect(tid), await kurt.connect(tid)
        rng = random.Random(4)
        await asyncio.gather(play_random(a, rng, kind("game_over")),
                             play_random(k, rng, kind("game_over")))
        assert anna.post(f"/api/tables/{tid}/leave").status_code == 200
        # Kurt plays on until the stand-in has played a whole game for Anna, then
        # holds the table at his next turn (present: nobody stands in for him)
        await play_random(k, rng, lambda m: m["type"] == "event"
                          and m["kind"] == "game_over" and m["seq"] > a.seq, keen=True)
        if not my_turn(k.view):
            await k.until(lambda m: m["type"] in ("event", "snapshot")
                          and my_turn(m.get("view")), timeout=30)
        await a.close()
        await k.close()

    run_apart(first_game())
    try:
        yield Table(server, names[0], kurt, tid)
    finally:
        anna.close()
        kurt.close()


def _finish(t: Table) -> None:
    """Kurt plays the list out (the stand-in plays Anna's seat)."""
    if not t.running:
        return

    async def go() -> None:
        k = await t.kurt.connect(t.tid)
        await play_random(k, random.Random(9), kind("end"), keen=True)
        await k.close()

    run_apart(go())
    t.running = False


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_page_says_whose_game_it_was(table: Table, browser: Browser, size: str) -> None:
    t = table
    ctx, page = visitor(browser, viewport=PHONE if size == "phone" else DESKTOP)
    try:
        # the lobby, while the table runs: Anna's seat is the bot's
        page.goto(t.server.url + "/")
        row = page.locator(f"tr:has(a[href='/t/{t.tid}'])")
        row.wait_for()
        assert f"Bot für {t.anna}" in row.inner_text()
        _in_view(page, f"tr:has(a[href='/t/{t.tid}']) .standin-name")
        shot(page, f"whose-lobby-{size}")
        # the table: her seat says a bot plays for her and that she left
        page.goto(f"{t.server.url}/t/{t.tid}")
        page.wait_for_function("() => window.stichTable?.state.view")
        seat = page.locator(f".player:has(.name:text-is('{t.anna}'))")
        seat.wait_for()
        tags = seat.locator(".tags").inner_text()
        assert f"Bot spielt für {t.anna}" in tags and "verlassen" in tags, tags
        _in_view(page, f".player:has(.name:text-is('{t.anna}')) .tag.quit")
        shot(page, f"whose-table-{size}")
        _finish(t)
        games = t.kurt.get(f"/api/tables/{t.tid}/games").json()["games"]
        assert [g["number"] for g in games] == [1, 2, 3]
        # her player page: one game counted, two listed as the bot's
        page.goto(f"{t.server.url}/u/{t.anna}")
        lothar = page.locator("#skat tbody tr").first  # Bilanz, Punktestand, games, …
        assert lothar.locator("td").nth(2).inner_text().strip() == "1"
        marked = page.locator("#games tr.pg-absent")
        assert marked.count() == 2
        assert "zählt nicht" in marked.first.inner_text()
        _in_view(page, "#games tr.pg-absent .standin-tag")
        shot(page, f"whose-player-{size}")
        # the Bestenliste: one game
        page.goto(f"{t.server.url}/bestenliste")
        row = page.locator(f"tr:has(a[href='/u/{t.anna}'])")  # rank, Bilanz, …, games
        assert row.locator("td").nth(3).inner_text().strip() == "1", row.inner_text()
        # game 2's page: the bot played it for her
        page.goto(f"{t.server.url}/games/{games[1]['id']}")
        note = page.locator(".standin-note")
        assert f"Ein Bot hat dieses Spiel für {t.anna} gespielt" in note.inner_text()
        _in_view(page, ".standin-note")
        assert f"Bot für {t.anna}" in page.locator("#result").inner_text()
        # the replay names the bot for each of her seat's moves
        rec = t.kurt.get(f"/api/games/{games[1]['id']}").json()["record"]
        steps = t.kurt.get(f"/api/games/{games[1]['id']}/replay").json()["steps"]
        her = [i for i, s in enumerate(steps) if i and s["actor"] is not None
               and rec["seats"][s["actor"]] == 0]
        assert her and all(steps[i]["by"] == "standin" for i in her)
        page.locator(".pg-controls").wait_for()
        for _ in range(her[0]):
            page.keyboard.press("ArrowRight")
        caption = page.locator(".pg-caption")
        assert caption.inner_text().startswith(f"Bot für {t.anna}"), caption.inner_text()
        _in_view(page, ".pg-caption")
        shot(page, f"whose-replay-{size}")
        # the analysis (an account starts it): the card recommended is the bot's to play
        assert page.evaluate("""async ([name]) => { const r = await fetch('/api/login', {
            method: 'POST', headers: {'content-type': 'application/json'},
            body: JSON.stringify({name, password: 'geheim123'})}); return r.status; }""",
                      [t.kurt.get("/api/me").json()["user"]["name"]]) == 200
        page.reload()
        page.locator(".pg-controls").wait_for()
        assert rec["result"]["kind"] == "game"  # (Kurt never passes: a game is played)
        page.click("button:has-text('Analyse')")
        page.locator(".pg-analysis h3").wait_for(timeout=120000)
        plays = [i for i in her if steps[i - 1]["phase"] == "PLAY"]
        assert plays
        page.keyboard.press("Home")
        for _ in range(plays[0] - 1):
            page.keyboard.press("ArrowRight")
        note = page.locator(".pg-note")
        assert f"Beste Karte für Bot für {t.anna}" in note.inner_text(), note.inner_text()
        _in_view(page, ".pg-note")
        shot(page, f"whose-analysis-{size}")
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        ctx.close()
