"""Phones (issue 40, points 2–5): every page fits a 390 × 844 window and a finger, at
390 × 844 and at 1280 × 800.

- a player's page (with games a bot played for her) is no wider than the window, and its
  links are tap targets;
- a Ramsch result and a Baptistenskat round's end show every column inside their panel;
- while declaring a Skat game (after the pick-up, and announcing a Hand game) both rows
  of the hand and every game to announce are in the window without scrolling;
- the lobby shows the open tables before the new table's form, their buttons inside the
  window;
- every page (lobby, a Skat and a Baptistenskat table during play, the Bestenliste, a
  player's page, a finished game and its replay, the printable list and Zettel, the
  account page, the 404 page): nothing wider than the window, and on a phone every
  target a finger uses at least 44 px high.

What counts as a target: every visible ``a[href]``, ``button``, ``input``, ``select``,
``textarea``, ``summary`` and ``[role=button]``; a checkbox or radio button is tapped
through its label, so its label is measured.  Not counted: an element moved off the
screen until it has the focus (the "skip to content" link), and a link inside a sentence
of running text (an inline link in a ``<p>`` with at least three other words: WCAG
2.5.8's inline exception).  On a laptop (1280 × 800) the 44 px hold for buttons, fields
and selects; links there may be text.

All against the real server; the two other people at a Skat table are played from
Python (they always pass, then play a random card).  Screenshots go to
``tests/web/output/``."""

from __future__ import annotations

import asyncio
import random
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.server.harness import Client, Server
from tests.server.test_history import play, wait_over
from tests.web.browser import DESKTOP, PHONE, person, shot, state, step, visitor

SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]
PASSWORD = "geheim123"


def _name(size: dict[str, int]) -> str:
    return "phone" if size is PHONE else "desktop"


def _unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:5]}"


# --- what a person sees, measured ---------------------------------------------------------

# Every target a finger uses (see the module's docstring), what is too low for a finger
# (``links``: links count; else buttons, fields and selects only), what lies outside the
# window sideways, and every box that scrolls sideways (what it hides is cut off).
TARGETS = """(links) => {
  const W = innerWidth;
  const small = [], outside = [], scrolled = [];
  const cls = (e) => typeof e.className === 'string' && e.className.trim()
    ? '.' + e.className.trim().split(/\\s+/).join('.') : '';
  const text = (e) => (e.textContent || e.getAttribute('aria-label') || e.getAttribute('name')
    || '').trim().replace(/\\s+/g, ' ').slice(0, 30);
  const name = (e) => `${e.tagName.toLowerCase()}${cls(e)} "${text(e)}"`;
  const px = (n) => Math.round(n);
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]';
  for (const e of document.querySelectorAll(sel)) {
    const cs = getComputedStyle(e);
    const t = e.matches('input[type=checkbox], input[type=radio]') ? (e.closest('label') || e) : e;
    const r = t.getBoundingClientRect();
    if (!r.width || !r.height || cs.visibility === 'hidden') continue;  // not shown
    if (r.right <= 0 || r.bottom <= 0) continue;  // off the screen until focused
    const p = e.parentElement && e.parentElement.closest('p');
    const rest = p ? p.textContent.replace(e.textContent, ' ').split(/\\s+/)
      .filter((w) => /\\p{L}{2,}/u.test(w)) : [];
    const inline = e.tagName === 'A' && cs.display === 'inline' && rest.length >= 3;
    const counts = links || !e.matches('a:not(.button)');
    const at = `${name(e)} ${px(r.left)}..${px(r.right)} x ${px(r.top)}..${px(r.bottom)}`;
    if (counts && !inline && r.height < 43.5) small.push(at);
    if (r.left < -0.5 || r.right > W + 0.5) outside.push(at);
  }
  for (const e of document.querySelectorAll('main *, .layer *')) {
    const o = getComputedStyle(e).overflowX;
    if ((o === 'auto' || o === 'scroll') && e.clientWidth && e.scrollWidth > e.clientWidth + 1)
      scrolled.push(`${name(e)} ${e.scrollWidth}>${e.clientWidth}`);
  }
  return {small, outside, scrolled, scrollWidth: document.documentElement.scrollWidth, width: W};
}"""

# Each element under ``selector`` whose box is not inside ``within``'s box (sideways), and
# each text in it smaller than 12 px.
INSIDE = """([selector, within]) => {
  const box = document.querySelector(within).getBoundingClientRect();
  const out = [], tiny = [];
  for (const e of document.querySelectorAll(selector)) {
    const r = e.getBoundingClientRect();
    if (!r.width) continue;
    const what = `${e.tagName} "${e.textContent.trim().slice(0, 24)}"`;
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5)
      out.push(`${what} ${r.left}..${r.right} not in ${box.left}..${box.right}`);
    if (e.textContent.trim() && parseFloat(getComputedStyle(e).fontSize) < 12) tiny.push(what);
  }
  return {out, tiny};
}"""

# The boxes of the elements, as [top, bottom, left, right].
BOXES = """(selector) => [...document.querySelectorAll(selector)].map((e) => {
  const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; })"""


def _targets(page: Page, size: dict[str, int], where: str) -> dict[str, Any]:
    """The page as a finger finds it: nothing wider than the window, every target in it
    sideways, and on a phone every target at least 44 px high (on a laptop: buttons,
    fields and selects).  Returns the measurement (its ``scrolled`` boxes for the caller)."""
    got: dict[str, Any] = page.evaluate(TARGETS, size is PHONE)
    assert got["scrollWidth"] <= got["width"], (where, got)
    assert got["outside"] == [], (where, got["outside"])
    assert got["small"] == [], (where, got["small"])
    return got


def _inside_window(page: Page, selector: str) -> list[list[float]]:
    """Every element of ``selector`` inside the window as it is (no scrolling)."""
    vp = page.viewport_size
    assert vp is not None
    boxes: list[list[float]] = page.evaluate(BOXES, selector)
    assert boxes, selector
    for top, bottom, left, right in boxes:
        assert top >= -0.5 and bottom <= vp["height"] + 0.5, (selector, top, bottom, vp)
        assert left >= -0.5 and right <= vp["width"] + 0.5, (selector, left, right, vp)
    return boxes


def _inside_sideways(page: Page, selector: str) -> int:
    """Every element of ``selector`` inside the window's width; returns how many."""
    vp = page.viewport_size
    assert vp is not None
    boxes: list[list[float]] = page.evaluate(BOXES, selector)
    assert boxes, selector
    for _top, _bottom, left, right in boxes:
        assert left >= -0.5 and right <= vp["width"] + 0.5, (selector, left, right, vp)
    return len(boxes)


def _no_page_errors(page: Page) -> None:
    assert page.errors == [], page.errors  # type: ignore[attr-defined]


def _visitor(browser: Browser, base: str, size: dict[str, int],
             login: tuple[str, str] | None = None) -> tuple[BrowserContext, Page]:
    """A browser of its own, logged in as ``login`` (name, password) when given."""
    ctx, page = visitor(browser, viewport=size)
    if login is not None:
        r = ctx.request.post(base + "/api/login", data={"name": login[0], "password": login[1]})
        assert r.ok, r.text()
    return ctx, page


def _new_table(page: Page, body: dict[str, Any]) -> dict[str, Any]:
    """A table made through the HTTP API from the page (its cookies, its origin)."""
    r = page.evaluate("async (b) => { const r = await fetch('/api/tables', {method: 'POST',"
                      " headers: {'content-type': 'application/json'}, body: JSON.stringify(b)});"
                      " return [r.status, await r.json()]; }", body)
    assert r[0] == 200, r
    made: dict[str, Any] = r[1]
    return made


def _open(page: Page, base: str, body: dict[str, Any]) -> str:
    made = _new_table(page, body)
    page.goto(base + made["invite_path"])
    page.wait_for_function("() => window.stichTable?.state.view")
    return str(made["table"]["id"])


class Partners:
    """Two more people at a Skat table, played from Python: they always pass, then play
    a random legal card (so that the page's person declares, or everybody passes)."""

    def __init__(self, server: Server, table: str, names: list[str], seed: int = 1) -> None:
        self.table, self.rng = table, random.Random(seed)
        self.stop = threading.Event()
        self.errors: list[BaseException] = []
        self.clients = [Client(server) for _ in names]
        for c, n in zip(self.clients, names, strict=True):
            c.guest(n)
            r = c.post(f"/api/tables/{table}/join", {})
            assert r.status_code == 200, r.text
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        async def one(c: Client) -> None:
            ws = await c.connect(self.table)
            try:
                while not self.stop.is_set():
                    try:
                        msg = await ws.recv(0.3)
                    except TimeoutError:
                        continue
                    v = ws.view
                    if msg["type"] in ("event", "snapshot") and v and v["legal"] \
                            and v["to_move"] == v["seat"]:
                        legal = v["legal"]
                        await ws.act("pass" if "pass" in legal else self.rng.choice(legal))
            finally:
                await ws.close()

        async def both() -> None:
            await asyncio.gather(*(one(c) for c in self.clients))

        try:
            asyncio.run(both())
        except BaseException as e:  # said by close()
            self.errors.append(e)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(15)
        for c in self.clients:
            c.close()
        assert not self.thread.is_alive()
        assert self.errors == [], self.errors


def _skat_with_partners(page: Page, site: Server, size: dict[str, int],
                        **kw: Any) -> Partners:
    """A Skat table of the page's person and two Partners; the page at the table."""
    body = {"game": "skat", "preset": "lothar", "games": 3, "next_after": 0, "clock": 0,
            "seats": ["me", "person", "person"], **kw}
    made = _new_table(page, body)
    tid = str(made["table"]["id"])
    suffix = uuid.uuid4().hex[:3]
    partners = Partners(site, tid, [f"Friedrich-Wilhelm{suffix}", f"Marianne-Luise{suffix}"])
    page.goto(site.url + made["invite_path"])
    page.wait_for_function("() => window.stichTable?.state.view?.phase")
    return partners


def _until(page: Page, done: Any, *, bid: str = "18", weiter: bool = True,
           seconds: float = 120.0) -> None:
    """This page's moves by clicks (``step``) until ``done()``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if done():
            return
        if not step(page, bid=bid, weiter=weiter):
            page.wait_for_timeout(40)
    shot(page, "phone-layout-not-reached")
    raise AssertionError(f"not reached: {state(page)['view']}")


# --- a registered player with finished games ----------------------------------------------

@dataclass
class Player:
    name: str
    skat: str  # a Skat list she played (3 games)
    bapt: str  # a Baptistenskat game she played
    left: str  # a Skat list she left at once: a bot played all 3 games for her
    skat_game: str  # a finished Skat game's key
    bapt_game: str  # the Baptistenskat game's key

    @property
    def login(self) -> tuple[str, str]:
        return self.name, PASSWORD


def _off_the_loop(run: Any) -> Any:
    """``run()`` in a thread of its own (Playwright's event loop runs in this one)."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(run()), daemon=True)
    thread.start()
    thread.join(180)
    assert out, "the setup did not finish"
    return out[0]


@pytest.fixture(scope="module")
def player(site: Server) -> Iterator[Player]:
    c = Client(site)
    name = _unique("Annegret-")
    c.register(name, PASSWORD)

    async def games() -> tuple[str, str]:
        skat = c.create(game="skat", preset="lothar", games=3,
                        seats=["me", "bot:random", "bot:random"])["table"]["id"]
        ws = await c.connect(skat)
        await play([ws], random.Random(5))
        await ws.close()
        bapt = c.create(game="baptisten", seats=["me", "bot:easy", "bot:easy"],
                        max_cards=2)["table"]["id"]
        ws = await c.connect(bapt)
        await play([ws], random.Random(6))
        await ws.close()
        return str(skat), str(bapt)

    try:
        skat, bapt = _off_the_loop(lambda: asyncio.run(asyncio.wait_for(games(), 120)))
        left = str(c.create(game="skat", preset="lothar", games=3,
                            seats=["me", "bot:random", "bot:random"])["table"]["id"])
        r = c.post(f"/api/tables/{left}/leave", {})
        assert r.status_code == 200, r.text
        wait_over(c, left, 120)
        skat_game = c.get(f"/api/tables/{skat}/games").json()["games"][-1]["id"]
        bapt_game = c.get(f"/api/tables/{bapt}/games").json()["games"][0]["id"]
        yield Player(name, skat, bapt, left, str(skat_game), str(bapt_game))
    finally:
        c.close()


# --- 2. the player's page -------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_the_players_page_fits_the_window(site: Server, browser: Browser, player: Player,
                                          size: dict[str, int]) -> None:
    """No wider than the window; each game's result, score and replay inside it (and the
    room a "Bot für …" mark takes), each link a tap target on a phone."""
    ctx, page = _visitor(browser, site.url, size, login=player.login)
    try:
        page.goto(f"{site.url}/u/{player.name}")
        rows = page.locator("#games tbody tr")
        assert rows.count() >= 7  # 3 + 3 Skat games, the Baptistenskat game
        width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], width
        for section in ("#skat", "#games"):
            got = page.evaluate(INSIDE, [f"{section} table *", section])
            assert got["out"] == [], (section, got["out"])
            assert got["tiny"] == [], (section, got["tiny"])
        # each game's result, score and replay link in the window, the link a tap target
        results = _inside_sideways(page, "#games tbody td:nth-child(4)")
        scores = _inside_sideways(page, "#games tbody td:nth-child(5)")
        replays = _inside_sideways(page, "#games tbody td:nth-child(6) a")
        assert results == scores == replays == rows.count()
        texts = page.locator("#games tbody td:nth-child(6) a").all_inner_texts()
        assert set(texts) == {"Wiederholung"}, texts
        _targets(page, size, "player")
        shot(page, f"phone-player-page-{_name(size)}")
        _no_page_errors(page)
    finally:
        ctx.close()


# --- 3. result tables -------------------------------------------------------------------------

def _columns_inside(page: Page, table: str, panel: str) -> None:
    """Every column of ``table`` inside ``panel``, none cut off, readable; the panel and
    the table's box do not scroll sideways."""
    got = page.evaluate(INSIDE, [f"{table} th, {table} td", panel])
    assert got["out"] == [], got["out"]
    assert got["tiny"] == [], got["tiny"]
    sideways = page.evaluate("""([table, panel]) => [panel, table].map((s) => {
        const e = document.querySelector(s); return [s, e.scrollWidth, e.clientWidth]; })
        .concat([[table + ' parent', document.querySelector(table).parentElement.scrollWidth,
                  document.querySelector(table).parentElement.clientWidth]])""", [table, panel])
    for what, scroll, client in sideways:
        assert scroll <= client + 1, (what, scroll, client)


@pytest.mark.parametrize("size", SIZES)
def test_a_ramsch_result_shows_every_column(site: Server, browser: Browser,
                                            size: dict[str, int]) -> None:
    """Everybody passes: the Ramsch result's table (points, tricks, score, Punktestand)
    with long names, every column inside the panel."""
    ctx, page = person(browser, site.url, _unique("Maximiliane-"), viewport=size)
    partners = _skat_with_partners(page, site, size, next_after=120)
    try:
        _until(page, lambda: page.is_visible(".layer-result .headline"), bid="pass",
               weiter=False)
        assert page.inner_text(".layer-result .headline").startswith("Ramsch")
        heads = page.locator(".layer-result table.scores thead th").all_inner_texts()
        assert len(heads) == 5, heads  # player, points, tricks, score, Punktestand
        _columns_inside(page, ".layer-result table.scores", ".layer-result .drawer")
        _inside_window(page, ".layer-result table.scores th")
        _targets(page, size, "ramsch result")
        shot(page, f"phone-ramsch-result-{_name(size)}")
        _no_page_errors(page)
    finally:
        partners.close()
        ctx.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_baptisten_round_end_shows_every_column(site: Server, browser: Browser,
                                                  size: dict[str, int]) -> None:
    """A round's end at four seats (stakes): its line of the Anschreibezettel, the
    "Summe" column included, inside the panel."""
    ctx, page = person(browser, site.url, _unique("Maximiliane-"), viewport=size)
    try:
        _open(page, site.url, {"game": "baptisten", "next_after": 0, "clock": 0,
                               "seats": ["me", "bot:random", "bot:random", "bot:random"],
                               "max_cards": 2})

        def round2() -> bool:
            v = state(page)["view"]
            return bool(v["round"] >= 2 and v["legal"])

        end = time.monotonic() + 120
        while not round2():
            assert time.monotonic() < end, state(page)["view"]
            if state(page)["view"]["round"] >= 2 or not step(page):
                page.wait_for_timeout(40)
        page.locator(".bapt .again").click()
        page.locator(".layer-bround .round-line").wait_for()
        heads = page.locator(".layer-bround .round-line thead th").all_inner_texts()
        assert heads[-1] == "Summe" and len(heads) == 5, heads
        _columns_inside(page, ".layer-bround .round-line", ".layer-bround .drawer")
        _inside_window(page, ".layer-bround .round-line thead th")
        _targets(page, size, "round end")
        shot(page, f"phone-baptisten-round-end-{_name(size)}")
        _no_page_errors(page)
    finally:
        ctx.close()


# --- 4. declaring -----------------------------------------------------------------------------

def _declaring_in_view(page: Page, cards: int, controls: str) -> None:
    """The whole hand (both rows on a phone) and the controls in the window, the page
    not scrolled."""
    page.evaluate("() => document.getAnimations().forEach((a) => a.finish())")  # cards settled
    assert page.evaluate("() => scrollY") == 0
    assert len(_inside_window(page, ".skat .hand .card")) == cards
    _inside_window(page, controls)
    _inside_window(page, ".tableview .actions .prompt")


@pytest.mark.parametrize("size", SIZES)
def test_declaring_keeps_the_hand_and_the_games_in_the_window(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    """The page's person declares (the others pass): after the pick-up (twelve cards,
    "Drücken"), announcing after it, and announcing a Hand game (every game twice: Hand
    and Ouvert), the hand and every control in the window without scrolling."""
    name = _name(size)
    ctx, page = person(browser, site.url, _unique("Erkunderin-"), viewport=size)
    partners = _skat_with_partners(page, site, size)
    try:
        def mine(phase: str) -> bool:
            v = state(page)["view"]
            return bool(v and v["phase"] == phase and v["legal"])

        _until(page, lambda: mine("DISCARD"))
        _declaring_in_view(page, 12, ".tableview .actions [data-key='a:discard']")
        shot(page, f"phone-declare-pickup-{name}")
        step(page)  # two cards put away
        page.wait_for_selector(".declare button")
        assert mine("DECLARE")
        _declaring_in_view(page, 10, ".declare button")
        assert page.locator(".declare button").count() >= 6
        _targets(page, size, "declare")
        shot(page, f"phone-declare-{name}")
        # the next game: Hand, every game with its Ouvert
        number = state(page)["view"]["number"]
        _until(page, lambda: state(page)["view"]["number"] > number and mine("SKAT"))
        page.click("[data-key='a:hand']")
        page.wait_for_selector(".declare button")
        assert mine("DECLARE")
        assert page.locator(".declare button").count() == 12
        _declaring_in_view(page, 10, ".declare button")
        _targets(page, size, "declare hand")
        shot(page, f"phone-declare-hand-{name}")
        _no_page_errors(page)
    finally:
        partners.close()
        ctx.close()


# --- 5. the lobby, and every page ---------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_shows_the_open_tables_first(site: Server, browser: Browser,
                                               size: dict[str, int]) -> None:
    """The open tables come before the new table's form (in the first screen on a
    phone), their "Mitspielen"/"Zuschauen" buttons in the window, every field a tap
    target."""
    ctx, page = person(browser, site.url, _unique("Lobbyist-"), viewport=size)
    try:
        _new_table(page, {"game": "skat", "games": 3, "seats": ["me", "person", "person"]})
        _new_table(page, {"game": "skat", "games": 36,
                          "seats": ["bot:easy", "bot:random", "bot:easy"]})
        page.goto(site.url + "/")
        page.locator("#lobby table tbody tr").first.wait_for()
        tables = page.locator("#lobby section", has=page.locator("table")).bounding_box()
        form = page.locator("#create").bounding_box()
        assert tables is not None and form is not None
        assert tables["y"] < form["y"], (tables, form)
        first = page.locator("#lobby table tbody tr").first.bounding_box()
        assert first is not None and first["y"] + first["height"] <= size["height"], first
        buttons = page.locator("#lobby table tbody a.button")
        assert set(buttons.all_inner_texts()) >= {"Mitspielen", "Zuschauen"}
        for top, bottom, left, right in page.evaluate(BOXES, "#lobby table tbody a.button"):
            assert left >= 0 and right <= size["width"], (left, right)
            assert bottom - top >= 43.5, (top, bottom)
        fields = page.evaluate(BOXES, "#create select, #create input:not([type=checkbox]),"
                                      " #create button")
        shown = [b - t for t, b, _, _ in fields if b > t]  # (the other game's fields hidden)
        assert len(shown) >= 8 and min(shown) >= 43.5, shown
        got = _targets(page, size, "lobby")
        assert got["scrolled"] == [], got["scrolled"]
        shot(page, f"phone-lobby-{_name(size)}")
        _no_page_errors(page)
    finally:
        ctx.close()


def _play_to_my_card(page: Page) -> None:
    """Until it is this page's card to play (Skat or Baptistenskat, bots at the table)."""
    def my_card() -> bool:
        v = state(page)["view"]
        return bool(v and v["phase"] == "PLAY" and v["legal"]
                    and any(not a.startswith(("bid", "stake")) for a in v["legal"]))

    _until(page, my_card)


@pytest.mark.parametrize("size", SIZES)
def test_every_page_fits_the_window_and_a_finger(site: Server, browser: Browser,
                                                 player: Player, size: dict[str, int]) -> None:
    """Each page of the site, as the registered player sees it: nothing wider than the
    window, every target inside it sideways, no box that scrolls sideways (but the
    Zettel's, which says so with its cue), and on a phone every target 44 px high."""
    name = _name(size)
    ctx, page = _visitor(browser, site.url, size, login=player.login)
    try:
        def check(where: str, scrolls: bool = False) -> None:
            page.wait_for_load_state("load")
            got = _targets(page, size, where)
            if not scrolls:
                assert got["scrolled"] == [], (where, got["scrolled"])
            shot(page, f"phone-{where}-{name}")

        page.goto(site.url + "/")
        _new_table(page, {"game": "skat", "games": 3, "seats": ["me", "person", "person"]})
        page.goto(site.url + "/")
        page.locator("#lobby table tbody tr").first.wait_for()
        check("lobby")
        for where, path in (("bestenliste", "/bestenliste"), ("player", f"/u/{player.name}"),
                            ("list", f"/t/{player.skat}/list"), ("account", "/account")):
            page.goto(site.url + path)
            check(where)
        # the list's figures at its foot stand under the players' names
        page.goto(f"{site.url}/t/{player.skat}/list")
        heads = page.evaluate(BOXES, ".pg-sheet-table thead th.pg-player")
        assert len(heads) == 3
        for row in range(1, 4):
            foot = page.evaluate(BOXES, f".pg-sheet-table tfoot tr:nth-child({row}) td")
            assert [(round(f[2]), round(f[3])) for f in foot] == [
                (round(h[2]), round(h[3])) for h in heads], (row, foot, heads)
        for where, key in (("skat-game", player.skat_game), ("baptisten-game", player.bapt_game)):
            page.goto(f"{site.url}/games/{key}")
            page.wait_for_selector(".pg-controls")
            for _ in range(3):
                page.keyboard.press("ArrowRight")  # the replay, some steps on
            assert "Schritt 3" in page.inner_text(".pg-counter")
            check(where)
        before = len(page.errors)  # type: ignore[attr-defined]
        r = page.goto(f"{site.url}/u/{_unique('Niemand')}")
        assert r is not None and r.status == 404
        check("notfound")
        # the browser says the page itself came with 404, and nothing else
        said = page.errors[before:]  # type: ignore[attr-defined]
        assert all("status of 404" in e for e in said), said
        del page.errors[before:]  # type: ignore[attr-defined]
        # the Zettel: wider than a phone, it scrolls within its box and says so
        page.goto(f"{site.url}/t/{player.bapt}/zettel")
        check("zettel", scrolls=True)
        box = page.locator(".sheet .scroll").first
        wide = page.evaluate("(e) => e.scrollWidth > e.clientWidth + 1", box.element_handle())
        right, left = page.locator(".scroll-cue .cue-right").first, page.locator(
            ".scroll-cue .cue-left").first
        if size is PHONE:
            assert wide
            assert right.is_visible() and not left.is_visible()
            _inside_window(page, ".scroll-cue .cue-right")
            page.evaluate("(e) => { e.scrollLeft = e.scrollWidth; }", box.element_handle())
            page.wait_for_function("() => !document.querySelector('.scroll-cue')"
                                   ".classList.contains('more-right')")
            assert left.is_visible() and not right.is_visible()
            shot(page, f"phone-zettel-scrolled-{name}")
        else:
            assert not wide and not right.is_visible() and not left.is_visible()
        # at the table (last: the pages before show no "you still sit at …" line)
        _open(page, site.url, {"game": "skat", "games": 3, "next_after": 0, "clock": 0,
                               "seats": ["me", "bot:random", "bot:random"]})
        _play_to_my_card(page)
        check("skat-table")
        _open(page, site.url, {"game": "baptisten", "next_after": 0, "clock": 0,
                               "seats": ["me", "bot:random", "bot:random", "bot:random"],
                               "max_cards": 3})
        _play_to_my_card(page)
        check("baptisten-table")
        _no_page_errors(page)
    finally:
        ctx.close()
