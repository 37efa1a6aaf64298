"""The table's live parts in a real browser: the connection badge that tells the truth
(offline, an unanswered ping) and a tapped move kept until the connection is back; the
turn clock; "… denkt nach" while a bot has the move; the your-turn notice (title, sound,
notification); the chat; leaving ("Kurz weg", "Tisch verlassen", "Ich bin wieder da");
an invitee who sits down at once; a watcher at a full table offered no seat.

All against the real server: its `timer`, `chat`, `away`/`standin`/`back` and `quit`
(tables with a short clock are made through the HTTP API from the page's own session).
Only the connection tests make trouble on purpose (the browser offline, a socket whose
answers are dropped)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.server.harness import ROOMY, Server
from tests.web.browser import DESKTOP, PHONE, person, shot, state, step
from tests.web.test_skat_table import _of, _wire
from tests.web.test_table import _create, _join

SIZES = (("phone", PHONE), ("desktop", DESKTOP))
NEW_SOCKET_OPEN = """(old) => { const c = window.stichTable.conn;
    return c.ws && c.ws !== window[old] && window.stichTable.state.status === 'open'; }"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Bots that think for a moment (so "… denkt nach" can be seen at all)."""
    tmp = tmp_path_factory.mktemp("live")
    srv = Server(f"sqlite:///{tmp / 'site.db'}", bot_delay=0.6,
                 env={"STICH_LIMITS": f"{ROOMY},pauses_per_game=1"})  # (the site's pause rule)
    srv.start(60)
    try:
        yield srv
    finally:
        srv.stop()


def _my_turn(page: Page, timeout: float = 30000) -> Any:
    page.wait_for_function("() => window.stichTable?.state.view?.legal?.length > 0",
                           timeout=timeout)
    return state(page)


def _in_view(page: Page, selector: str) -> dict[str, float]:
    """The element is inside the window (not scrolled off, not cut) and not tiny."""
    el = page.locator(selector).first
    el.wait_for(state="visible")
    box = el.bounding_box()
    assert box is not None, selector
    vp = page.viewport_size
    assert vp is not None
    assert box["x"] >= -0.5 and box["y"] >= -0.5, (selector, box)
    assert box["x"] + box["width"] <= vp["width"] + 0.5, (selector, box, vp)
    assert box["y"] + box["height"] <= vp["height"] + 0.5, (selector, box, vp)
    return box


def _sent(page: Page) -> list[Any]:
    """What the page sent on its table socket (recorded by ``_record``)."""
    return page.evaluate("() => window.__sent || []")  # type: ignore[no-any-return]


def _record(page: Page) -> None:
    """Record every message the page's connection sends from now on."""
    page.evaluate("""() => {
        window.__sent = [];
        const c = window.stichTable.conn;
        const orig = WebSocket.prototype.send;
        if (!window.__patched) {
            window.__patched = true;
            WebSocket.prototype.send = function (d) {
                try { window.__sent.push(JSON.parse(d)); } catch { window.__sent.push(d); }
                return orig.call(this, d);
            };
        }
        return !!c;
    }""")


def _table(page: Page, base: str, **body: Any) -> str:
    """A table made through the HTTP API with the page's own session (settings the lobby's
    form does not offer: a clock of a few seconds); the page goes there."""
    body = {"game": "skat", "games": 3, "next_after": 0, **body}
    r = page.request.post(f"{base}/api/tables", data=body)
    assert r.ok, r.text()
    d = r.json()
    page.goto(base + d["invite_path"])
    page.wait_for_function("() => window.stichTable?.state.table")
    return str(d["table"]["id"])


def _until_wire(page: Page, cond: Any, timeout: float = 20.0) -> None:
    """Wait (letting the page's events in) until ``cond()`` about what the wire carried."""
    for _ in range(int(timeout * 10)):
        if cond():
            return
        page.wait_for_timeout(100)
    raise AssertionError("not seen on the wire")


def _chat(page: Page, text: str) -> None:
    """Write a line in the chat as a person does (opens the chat if it is closed)."""
    if page.query_selector(".chat-form input") is None:
        page.click(".chat-button")
    page.fill(".chat-form input", text)
    page.click(".chat-form button[type=submit]")


def _chat_texts(page: Page) -> list[str]:
    return [t.inner_text() for t in page.query_selector_all(".chat-line .text")]


def _no_page_errors(*pages: Page) -> None:
    for p in pages:
        assert p.errors == [], p.errors  # type: ignore[attr-defined]


# --- the connection -----------------------------------------------------------------------

@pytest.mark.parametrize(("name", "size"), SIZES)
def test_offline_says_so_and_the_tapped_move_is_sent_when_back(
        site: Server, browser: Browser, name: str, size: dict[str, int]) -> None:
    ctx, a = person(browser, site.url, f"Net{name}", viewport=size)
    _create(a, seats=["me", "bot:easy", "bot:easy"], games="3")
    st = _my_turn(a)
    assert a.inner_text(".conn") == "verbunden"
    ctx.set_offline(True)
    # the browser says offline: the badge says so at once, and a bar at the top in view
    a.wait_for_function("() => window.stichTable.state.status === 'doubt'", timeout=3000)
    assert "unsicher" in a.inner_text(".conn")
    _in_view(a, ".conn-banner")
    seq = st["seq"]
    legal = st["view"]["legal"]
    move = "hold" if "hold" in legal else legal[0]
    a.click(f"[data-key='a:{move}']")
    a.wait_for_selector(".conn-banner .held")
    assert "gemerkt" in a.inner_text(".conn-banner")
    shot(a, f"live-offline-{name}")
    a.wait_for_timeout(1200)
    assert state(a)["seq"] == seq  # nothing was made: it waits
    # back online: a new socket, the kept move is sent with the number the person saw
    ctx.set_offline(False)
    a.wait_for_function("() => window.stichTable.state.status === 'open'", timeout=15000)
    a.wait_for_function("(s) => window.stichTable.conn.lastOwnAct > s", arg=seq, timeout=10000)
    assert a.query_selector(".conn-banner") is None
    assert a.inner_text(".conn") == "verbunden"
    assert state(a)["table"] and not a.evaluate("() => window.stichTable.state.error")
    _no_page_errors(a)
    ctx.close()


def test_a_silent_socket_is_in_doubt_and_replaced(site: Server, browser: Browser) -> None:
    """A ping without an answer within the time allowed: "unsicher", then a new socket
    (a socket stuck in CLOSING never says it closed, so it is given up, not waited for)."""
    ctx, a = person(browser, site.url, "Silent")
    _create(a, seats=["me", "bot:easy", "bot:easy"], games="3")
    _my_turn(a)
    # shorter times for the test; then the server's answers stop reaching the page
    a.evaluate("""() => {
        const c = window.stichTable.conn;
        c.timing = {ping: 400, answer: 300, giveUp: 1500};
        window.__first = c.ws;
        c.reconnect();
    }""")
    a.wait_for_function(NEW_SOCKET_OPEN, arg="__first", timeout=10000)
    first = a.evaluate("() => { const c = window.stichTable.conn; const ws = c.ws;"
                       " ws.onmessage = () => {}; ws.close = () => {}; window.__old = ws;"
                       " return ws.url; }")
    assert first
    a.wait_for_function("() => window.stichTable.state.status === 'doubt'", timeout=3000)
    assert "unsicher" in a.inner_text(".conn")
    a.wait_for_function(NEW_SOCKET_OPEN, arg="__old", timeout=10000)
    assert a.inner_text(".conn") == "verbunden"
    # a socket that hangs in CLOSING (its close never completes): given up at once
    a.evaluate("""() => { const ws = window.stichTable.conn.ws; window.__closing = ws;
        ws.onclose = null; ws.close = () => {};
        Object.defineProperty(ws, 'readyState', {get: () => WebSocket.CLOSING}); }""")
    a.wait_for_function(NEW_SOCKET_OPEN, arg="__closing", timeout=5000)
    _no_page_errors(a)
    ctx.close()


def test_a_kept_move_the_game_went_past_is_refused_visibly(site: Server, browser: Browser) -> None:
    """Offline, a card is tapped; meanwhile the same person moves on another device.  Back
    online the kept move goes out with the number it saw: the server refuses it, and the
    page says so."""
    ctx, a = person(browser, site.url, "Twice")
    _create(a, seats=["me", "bot:easy", "bot:easy"], games="3")
    st = _my_turn(a)
    other = browser.new_context(storage_state=ctx.storage_state(), viewport=PHONE)  # type: ignore[arg-type]
    b = other.new_page()
    b.goto(a.url)
    _my_turn(b)
    ctx.set_offline(True)
    a.wait_for_function("() => window.stichTable.state.status === 'doubt'", timeout=3000)
    legal = st["view"]["legal"]
    a.evaluate("(t) => window.stichTable.conn.act(t)", legal[-1])
    a.wait_for_selector(".conn-banner .held")
    b.evaluate("(t) => window.stichTable.conn.act(t)", legal[0])
    b.wait_for_function("(s) => window.stichTable.state.seq > s", arg=st["seq"])
    ctx.set_offline(False)
    # said at the top, in view, until the person moves again (the line under the table
    # says it too, until the next move at the table)
    a.wait_for_function("() => window.stichTable.state.kept", timeout=15000)
    said = a.inner_text(".conn-banner")
    assert "ohne Verbindung zählt nicht" in said and "passiert" in said, said
    _in_view(a, ".conn-banner")
    shot(a, "live-kept-refused-desktop")
    assert a.query_selector(".conn-banner .held") is None
    _no_page_errors(a)
    other.close()
    ctx.close()


# --- the turn clock, bots thinking, the your-turn notice ------------------------------------

@pytest.mark.parametrize(("name", "size"), SIZES)
def test_the_turn_clock_runs_on_the_seat_to_move(
        site: Server, browser: Browser, name: str, size: dict[str, int]) -> None:
    """The server's clock (3 s a move and a reserve of 2 s; nobody taps anything): a bar on
    the seat to move that runs down, into the reserve, then the clock moves for the seat;
    on the other person's seat it shows there; a bot to move has none."""
    ctx, a = person(browser, site.url, f"Uhr{name}", viewport=size)
    cb, b = person(browser, site.url, f"Zeit{name}")
    wire = _wire(a)
    _table(a, site.url, seats=["me", "person", "bot:easy"], clock=3, bank=2)
    _join(b, a.url)
    a.wait_for_function("() => window.stichTable?.state.view")
    me, other, bot = state(a)["you"], 1, 2
    assert me == 0 and state(a)["table"]["clock"] == 3
    # one's own turn: the whole time (clock and reserve), on one's own seat, in view
    # (the other person moves meanwhile, as people do, so that it comes soon; on a busy
    # machine waiting for the other's clock to run out took more than a minute once)
    for _ in range(600):
        if a.evaluate("(me) => window.stichTable.state.timer?.seat === me", me):
            break
        if not step(b, bid="pass"):
            a.wait_for_timeout(100)
    else:
        seen = [(m.get("type"), m.get("seat"), m.get("kind"), (m.get("data") or {}).get("by"))
                for m in wire["got"] if isinstance(m, dict)][-30:]
        raise AssertionError(f"never one's own clock; the last messages: {seen}")
    timer = a.evaluate("() => window.stichTable.state.timer")
    assert (timer["kind"], timer["total"], timer["bank"]) == ("move", 5000, 2000), timer
    a.wait_for_selector(".player.me .clock")
    box = _in_view(a, ".player.me .clock")
    assert box["height"] >= 12
    first = a.inner_text(".player.me .clock-text")
    assert re.fullmatch(r"0:0[345]", first), first
    assert "noch" in (a.get_attribute(".clock", "aria-label") or "")
    # it runs down, and a redraw of the table does not start it over
    a.evaluate("() => window.stichTable.state.error = 'x'")
    a.wait_for_timeout(1300)
    later = a.inner_text(".player.me .clock-text")
    assert later < first, (first, later)
    shot(a, f"live-clock-{name}")
    # into the reserve: the bar says so
    a.wait_for_selector(".player.me .clock.in-bank", timeout=4000)
    assert "Reserve" in (a.get_attribute(".clock", "aria-label") or "")
    # the time is up: the clock moves for the seat
    _until_wire(a, lambda: any(m["seat"] == me and (m.get("data") or {}).get("by") == "clock"
                               for m in _of(wire["got"], "event")), timeout=8)
    # on the other person's seat: shown there, in view, not on one's own (this one passes
    # meanwhile, so that the other's turn comes soon)
    for _ in range(100):
        if a.evaluate("(s) => window.stichTable.state.timer?.seat === s", other):
            break
        if not step(a, bid="pass"):
            a.wait_for_timeout(100)
    else:
        raise AssertionError("the other person never had the clock")
    a.wait_for_selector(".player:not(.me) .clock")
    _in_view(a, ".player:not(.me) .clock")
    assert f"Zeit{name}" in a.inner_text(".player:has(.clock)")
    assert a.query_selector(".player.me .clock") is None
    # a bot to move: no timer, no clock (the people pass, so that it comes soon)
    a.evaluate("""(bot) => { window.__botNoClock = false; const look = () => {
        const st = window.stichTable.state, v = st.view;
        if (v && v.to_move >= 0 && v.positions?.[v.to_move] === bot && st.timer === null
            && !document.querySelector('.clock')) window.__botNoClock = true;
        else requestAnimationFrame(look); };
      look(); }""", bot)
    for _ in range(100):
        if a.evaluate("() => window.__botNoClock"):
            break
        if not (step(a, bid="pass") or step(b, bid="pass")):
            a.wait_for_timeout(100)
    else:
        raise AssertionError("no bot had the move without a clock")
    _no_page_errors(a, b)
    cb.close()
    ctx.close()


def test_a_bot_to_move_is_shown_thinking(site: Server, browser: Browser) -> None:
    ctx, a = person(browser, site.url, "Denker", viewport=PHONE)
    _create(a, seats=["me", "bot:easy", "bot:easy"], games="3")
    # until a bot has the move (this person may have to bid first)
    for _ in range(10):
        a.wait_for_function("() => document.querySelector('.thinking')"
                            " || window.stichTable?.state.view?.legal?.length", timeout=20000)
        if a.query_selector(".thinking"):
            break
        step(a, bid="pass")
    text = a.inner_text(".thinking")
    assert text.endswith("denkt nach …"), text
    name = text.removesuffix(" denkt nach …")
    st = state(a)
    v = st["view"]
    assert st["table"]["seats"][v["positions"][v["to_move"]]]["name"] == name
    # on one's own turn nobody thinks
    _my_turn(a)
    assert a.query_selector(".thinking") is None
    _no_page_errors(a)
    ctx.close()


def test_your_turn_title_sound_and_notification(site: Server, browser: Browser) -> None:
    ctx, a = person(browser, site.url, "Merker")
    ctx.grant_permissions(["notifications"], origin=site.url)
    _create(a, seats=["me", "bot:easy", "bot:easy"], games="3")
    _my_turn(a)
    a.wait_for_function("() => document.title === '● Du bist dran'")
    notices = a.evaluate("() => window.stichTable.notices")
    assert "title" in notices and "sound" not in notices  # the sound is off by default
    # the switches in the menu (a panel in view): sound on, notifications on
    a.click(".tablebar button[aria-label='Mehr']")
    _in_view(a, ".drawer .switch[for=sound]")
    a.check("#sound")
    a.check("#notify")
    a.wait_for_function("() => localStorage.getItem('stich.notify') === '1'")
    shot(a, "live-menu-desktop")
    a.keyboard.press("Escape")
    a.wait_for_selector(".layer", state="hidden")
    # the tab goes to the background; the next turn: sound and a notification
    a.evaluate("""() => {
        Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
        Object.defineProperty(document, 'visibilityState',
                              {configurable: true, get: () => 'hidden'});
        document.dispatchEvent(new Event('visibilitychange'));
        window.stichTable.notices.length = 0;
    }""")
    # act until the turn passes on (after a pass the others may pass too: Ramsch, and
    # the same person leads; a bid may make them declarer: still their move)
    for _ in range(12):
        st = state(a)
        over = a.evaluate("() => window.stichTable.notices.includes('over')")
        if over or not st["view"]["legal"]:
            break
        a.evaluate("(t) => window.stichTable.conn.act(t)", st["view"]["legal"][-1])
        a.wait_for_function("(s) => window.stichTable.state.seq > s", arg=st["seq"])
    a.wait_for_function("() => window.stichTable.notices.includes('over')", timeout=10000)
    _my_turn(a, timeout=60000)
    a.wait_for_function("() => window.stichTable.notices.includes('notification')")
    # the turn ended (the title came back), then the next one was announced
    assert a.evaluate("() => window.stichTable.notices") == ["over", "title", "sound",
                                                             "notification"]
    assert a.title() == "● Du bist dran"
    _no_page_errors(a)
    ctx.close()


# --- the chat -------------------------------------------------------------------------------

EVIL = '<img src=x onerror="window.__evil=1">gut <b>gespielt</b>'


@pytest.mark.parametrize(("name", "size"), SIZES)
def test_the_chat_behind_a_button_text_only(
        site: Server, browser: Browser, name: str, size: dict[str, int]) -> None:
    """Two people at a table and a watcher with a name chat through the server: lines as
    text only, the unread count, typing kept while lines come in, the quick phrases, the
    lines again after a reload."""
    ctx, a = person(browser, site.url, f"Plauder{name}", viewport=size)
    cb, b = person(browser, site.url, f"Kurt{name}")
    _table(a, site.url, seats=["me", "person", "bot:easy"], clock=0)
    _join(b, a.url)
    cz, z = person(browser, site.url, f"Zoe{name}")  # a watcher (the table is full)
    z.goto(a.url)
    z.wait_for_function("() => window.stichTable?.state.view")
    assert state(z)["you"] is None
    a.wait_for_function("() => window.stichTable?.state.view")
    _record(a)
    _in_view(a, ".chat-button")
    assert a.inner_text(".chat-button").strip() == "Chat"
    _chat(b, EVIL)
    # one unread line on the button, and the line over the table for a moment: as text
    a.wait_for_selector(".chat-button .unread")
    assert a.inner_text(".chat-button .unread") == "1"
    assert "ungelesen" in (a.get_attribute(".chat-button", "aria-label") or "")
    _in_view(a, ".chat-toast")
    assert a.inner_text(".chat-toast") == f"Kurt{name}: {EVIL}"
    assert a.evaluate("() => document.querySelectorAll('img[src=x], .chat-toast b').length") == 0
    a.click(".chat-button")
    _in_view(a, ".drawer.chat")
    _in_view(a, ".chat-form input")
    assert _chat_texts(a) == [EVIL]
    assert a.evaluate("() => document.querySelectorAll('img[src=x], .chat-line b').length") == 0
    assert a.query_selector(".chat-button .unread") is None
    # typing is not lost when a line comes in (the watcher's) or the table redraws
    a.fill(".chat-form input", "Hallo")
    a.evaluate("() => document.querySelector('.chat-lines').dataset.mark = 'same'")
    _chat(z, "Viel Glück!")
    a.wait_for_function("() => document.querySelectorAll('.chat-line').length === 2")
    assert f"Zoe{name}" in a.locator(".chat-line").nth(1).inner_text()
    assert a.input_value(".chat-form input") == "Hallo"
    assert a.get_attribute(".chat-lines", "data-mark") == "same"
    assert a.query_selector(".chat-button .unread") is None  # read: the chat is open
    shot(a, f"live-chat-{name}")
    a.click(".chat-form button[type=submit]")
    a.click(".chat-quick button:has-text('Gut gespielt')")
    a.wait_for_function("() => window.__sent.filter(m => m.type === 'chat').length === 2")
    chats = [m for m in _sent(a) if m.get("type") == "chat"]
    assert chats == [{"type": "chat", "text": "Hallo"}, {"type": "chat", "text": "Gut gespielt"}]
    assert a.input_value(".chat-form input") == ""
    # the others got them, in order, with the writer's name
    a.wait_for_function("() => document.querySelectorAll('.chat-line').length === 4")
    b.wait_for_function("() => document.querySelectorAll('.chat-line').length === 4")
    assert _chat_texts(b) == [EVIL, "Viel Glück!", "Hallo", "Gut gespielt"]
    assert f"Plauder{name}" in b.locator(".chat-line").nth(2).inner_text()
    # Escape closes it; the lines stay
    a.keyboard.press("Escape")
    a.wait_for_selector(".layer", state="hidden")
    a.click(".chat-button")
    a.wait_for_function("() => document.querySelectorAll('.chat-line').length === 4")
    # after a reload the lines come with the welcome
    b.reload()
    b.wait_for_function("() => window.stichTable?.state.view")
    b.click(".chat-button")
    b.wait_for_function("() => document.querySelectorAll('.chat-line').length === 4")
    assert _chat_texts(b) == [EVIL, "Viel Glück!", "Hallo", "Gut gespielt"]
    assert a.evaluate("() => window.__evil") is None and b.evaluate("() => window.__evil") is None
    _no_page_errors(a, b, z)
    cz.close()
    cb.close()
    ctx.close()


def test_chat_lines_of_the_welcome_and_a_watcher_without_a_name(
        site: Server, browser: Browser) -> None:
    """A watcher without an account gets the last lines with the welcome, reads, is not
    offered a seat at a running table nor to write, and the server refuses a line from it."""
    ctx, a = person(browser, site.url, "Gastgeber")
    wire = _wire(a)
    _table(a, site.url, seats=["me", "bot:easy", "bot:easy"], clock=0)
    a.wait_for_function("() => window.stichTable?.state.view")
    cz, z = person(browser, site.url, "Zoe")  # a watcher with a name writes too
    z.goto(a.url)
    z.wait_for_function("() => window.stichTable?.state.view")
    _chat(a, "Hallo zusammen")
    a.wait_for_function("() => document.querySelectorAll('.chat-line').length === 1")
    _chat(z, "<i>hi</i>")
    a.wait_for_function("() => document.querySelectorAll('.chat-line').length === 2")
    w = browser.new_context(viewport=PHONE, locale="de-DE")  # type: ignore[arg-type]
    p = w.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    pw = _wire(p)
    p.goto(a.url)
    p.wait_for_function("() => window.stichTable?.state.view")
    assert p.query_selector("input[name=name]") is None  # no "Als Gast hinsetzen" here
    assert "Du schaust zu." in p.inner_text(".watching")
    welcome = _of(pw["got"], "welcome")[-1]
    assert [(c["name"], c["text"]) for c in welcome["chat"]] == \
        [("Gastgeber", "Hallo zusammen"), ("Zoe", "<i>hi</i>")]
    p.click(".chat-button")
    _in_view(p, ".drawer.chat")
    assert _chat_texts(p) == ["Hallo zusammen", "<i>hi</i>"]
    assert p.query_selector(".chat-line i") is None
    assert p.query_selector(".chat-form") is None
    assert "Melde dich an" in p.inner_text(".drawer.chat")
    p.keyboard.press("Escape")
    assert p.query_selector_all(".chat-button .unread") == []
    # written past the page anyway: refused, and nobody gets it
    p.evaluate("() => window.stichTable.conn.send({type: 'chat', text: 'anonym'})")
    _until_wire(p, lambda: any(m.get("code") == "server.chat_anonymous"
                               for m in _of(pw["got"], "error")), timeout=5)
    a.wait_for_timeout(300)
    assert [m["data"]["text"] for m in _of(wire["got"], "event") if m["kind"] == "chat"] == \
        ["Hallo zusammen", "<i>hi</i>"]
    assert errors == []
    w.close()
    cz.close()
    ctx.close()


# --- leaving and coming back ----------------------------------------------------------------

def test_back_soon_sends_away_and_goes_to_the_lobby(site: Server, browser: Browser) -> None:
    """"Kurz weg" says ``away`` and goes to the lobby; the other person sees the seat away;
    coming back takes the seat again, and the mark goes."""
    ctx, a = person(browser, site.url, "Kurzweg", viewport=PHONE)
    cb, b = person(browser, site.url, "Dableiber")
    _table(a, site.url, seats=["me", "person", "bot:easy"], clock=0)
    url = a.url
    _join(b, url)
    frames: list[str] = []
    a.on("websocket", lambda ws: ws.on("framesent", lambda f: frames.append(str(f))))
    a.reload()  # (so the recorder sees the socket from its start)
    a.wait_for_function("() => window.stichTable?.state.view")
    b.wait_for_function("() => window.stichTable?.state.view")
    a.click(".tablebar button[aria-label='Mehr']")
    _in_view(a, ".drawer .away-button")
    _in_view(a, ".drawer .leave-button")
    assert "Kurz weg" in a.inner_text(".drawer .away-button")
    a.click(".drawer .away-button")
    a.wait_for_url(site.url + "/")
    assert any(json.loads(f).get("type") == "away" for f in frames), frames
    b.wait_for_function("() => window.stichTable.state.table.seats[0].away")
    # coming back takes the seat again
    a.goto(url)
    a.wait_for_function("() => window.stichTable?.state.view")
    assert state(a)["you"] == 0
    b.wait_for_function("() => !window.stichTable.state.table.seats[0].away")
    _no_page_errors(a, b)
    cb.close()
    ctx.close()


@pytest.mark.parametrize(("name", "size"), SIZES)
def test_i_am_back_and_the_marks_of_away_stand_in_and_quit(
        site: Server, browser: Browser, name: str, size: dict[str, int]) -> None:
    """Marked away while still at the table (``away`` said, as "Kurz weg" does), the
    stand-in after the grace time (5 s) moving for the seat, "Ich bin wieder da" in the
    banner and in the menu; the other person leaves for good: the seat keeps the name,
    marked."""
    ctx, a = person(browser, site.url, f"Wieder{name}", viewport=size)
    cb, b = person(browser, site.url, f"Geher{name}")
    _table(a, site.url, seats=["me", "person", "bot:easy"], clock=0, grace=5)
    _join(b, a.url)
    a.wait_for_function("() => window.stichTable?.state.view")
    me = state(a)["you"]
    for _ in range(100):  # the other person moves until it is this one's turn
        if state(a)["view"]["legal"]:
            break
        if not step(b, bid="pass"):
            a.wait_for_timeout(100)
    _my_turn(a)
    _record(a)
    a.evaluate("() => window.stichTable.conn.send({type: 'away'})")
    a.wait_for_selector(".away-banner")
    assert "als weg markiert" in a.inner_text(".away-banner")
    _in_view(a, ".away-banner .back-button")
    # after the grace time a stand-in plays for the seat (here: the move that waits)
    a.wait_for_function("() => document.querySelector('.away-banner')?.innerText"
                        ".includes('Ein Bot spielt für dich')", timeout=10000)
    a.wait_for_selector(".player.me .thinking", timeout=5000)
    assert a.inner_text(".player.me .thinking") == f"Der Bot für Wieder{name} denkt nach …"
    shot(a, f"live-standin-{name}")
    a.wait_for_function("() => !window.stichTable.state.view.legal.length"
                        " && !document.querySelector('.player.me .thinking')")
    a.click(".away-banner .back-button")
    a.wait_for_function("() => window.__sent.some(m => m.type === 'back')")
    a.wait_for_selector(".away-banner", state="detached")
    assert not state(a)["table"]["seats"][me]["standin"]
    # the menu offers "Ich bin wieder da" instead of "Kurz weg" while away
    a.evaluate("() => window.stichTable.conn.send({type: 'away'})")
    a.wait_for_selector(".away-banner")
    a.click(".tablebar button[aria-label='Mehr']")
    assert a.query_selector(".drawer .away-button") is None
    a.click(".drawer .back-button")
    a.wait_for_function("() => window.__sent.filter(m => m.type === 'back').length === 2")
    a.wait_for_selector(".layer", state="hidden")
    a.wait_for_selector(".away-banner", state="detached")
    # the other person leaves the table for good: the seat keeps the name, marked
    b.click(".tablebar button[aria-label='Mehr']")
    b.once("dialog", lambda d: d.accept())
    b.click(".drawer .leave-button")
    b.wait_for_url(site.url + "/")
    a.wait_for_selector(".player .tag.quit")
    assert a.inner_text(".player .tag.quit") == "hat den Tisch verlassen"
    assert f"Geher{name}" in a.inner_text(".player:has(.tag.quit)")
    assert state(a)["table"]["seats"][1]["quit"]
    _no_page_errors(a, b)
    cb.close()
    ctx.close()


def test_leave_the_table_for_good_asks_first(site: Server, browser: Browser) -> None:
    """The leave request goes out only after the confirmation; then the lobby, and the
    server has a bot play the seat for good: it keeps the name, marked, and the person
    only watches it now."""
    ctx, a = person(browser, site.url, "Verlasser")
    tid = _create(a, seats=["me", "bot:easy", "bot:easy"], games="3")
    url = a.url
    _my_turn(a)
    posts: list[str] = []
    a.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    a.click(".tablebar button[aria-label='Mehr']")
    a.once("dialog", lambda d: d.dismiss())
    a.click(".drawer .leave-button")
    a.wait_for_timeout(300)
    assert not [u for u in posts if "/leave" in u]  # "no": nothing happens
    assert state(a)["you"] == 0 and not state(a)["table"]["seats"][0].get("quit")
    said: list[str] = []
    a.once("dialog", lambda d: (said.append(d.message), d.accept()))
    with a.expect_response(f"**/api/tables/{tid}/leave*") as left:
        a.click(".drawer .leave-button")
    assert left.value.status == 200
    a.wait_for_url(site.url + "/")
    assert "Bot" in said[0] and "zählen" in said[0]
    seats = a.request.get(f"{site.url}/api/me/seats").json()["seats"]
    assert [s for s in seats if s["id"] == tid] == []
    a.goto(url)
    a.wait_for_function("() => window.stichTable?.state.view")
    st = state(a)
    assert st["you"] is None and st["table"]["seats"][0]["quit"], st["table"]["seats"][0]
    assert st["table"]["status"] == "running"
    _no_page_errors(a)
    ctx.close()


# --- sitting down -----------------------------------------------------------------------------

def test_an_invitee_sits_down_as_a_guest_at_once(site: Server, browser: Browser) -> None:
    ctx, a = person(browser, site.url, "Einlader")
    _create(a, seats=["me", "person", "bot:easy"], games="3")
    invite = a.url
    g = browser.new_context(viewport=PHONE, locale="de-DE")  # type: ignore[arg-type]
    b = g.new_page()
    b.goto(invite)
    b.wait_for_selector(".join input[name=name]")
    _in_view(b, ".join button[type=submit]")
    assert "Als Gast hinsetzen" in b.inner_text(".join button[type=submit]")
    b.fill(".join input[name=name]", "Neuling")
    with b.expect_navigation():  # a guest now: the page loads again, seated
        b.click(".join button[type=submit]")
    # seated without a second "Hinsetzen": the table starts (all seats taken)
    b.wait_for_function("() => window.stichTable?.state.you != null", timeout=15000)
    assert b.query_selector(".join") is None
    b.wait_for_function("() => window.stichTable.state.table.status === 'running'")
    a.wait_for_function("() => window.stichTable.state.table.seats.some(s => s.name === 'Neuling')")
    # a watcher without a name at the full, running table: no seat offered
    w = browser.new_context(viewport=PHONE, locale="de-DE")  # type: ignore[arg-type]
    c = w.new_page()
    c.goto(invite)
    c.wait_for_function("() => window.stichTable?.state.view")
    assert c.query_selector(".join") is None
    assert "Als Gast hinsetzen" not in c.inner_text("body")
    assert "Du schaust zu." in c.inner_text(".watching")
    _no_page_errors(a)
    w.close()
    g.close()
    ctx.close()


def test_the_turn_clock_at_baptistenskat(site: Server, browser: Browser) -> None:
    """The server's clock at Baptistenskat (nobody taps): on the tile of the other person
    while it runs for that seat, and one's own clock by one's controls, in view."""
    ctx, a = person(browser, site.url, "Baptist", viewport=PHONE)
    cb, b = person(browser, site.url, "Taeufer")
    _table(a, site.url, game="baptisten", max_cards=3, clock=3, bank=0,
           seats=["me", "bot:random", "bot:random", "person", "bot:random"])
    _join(b, a.url)
    a.wait_for_function("() => window.stichTable?.state.view")
    me, other = state(a)["you"], 3
    a.wait_for_function("(s) => window.stichTable.state.timer?.seat === s", arg=other,
                        timeout=30000)
    a.wait_for_selector(f".bseats > li:nth-child({other + 1}) .clock")
    assert a.inner_text(".clock .clock-text") in ("0:03", "0:02")
    assert "Taeufer" in a.inner_text(f".bseats > li:nth-child({other + 1})")
    a.wait_for_function("(s) => window.stichTable.state.timer?.seat === s", arg=me,
                        timeout=30000)
    a.wait_for_selector(".player.me .clock")
    _in_view(a, ".player.me .clock")
    assert a.query_selector(f".bseats > li:nth-child({other + 1}) .clock") is None
    shot(a, "live-clock-baptisten-phone")
    _no_page_errors(a, b)
    cb.close()
    ctx.close()


# --- pausing ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "size"), SIZES)
def test_a_pause_holds_the_clock_and_says_when_it_goes_on(
        site: Server, browser: Browser, name: str, size: dict[str, int]) -> None:
    """A person pauses at their turn (the table's menu): the banner says who paused and
    when the table goes on by itself, counting down, in view; the clock stands still and
    after "Weiter" goes on with what it had left; a second pause in this game is
    refused in words (issue 38)."""
    ctx, a = person(browser, site.url, f"Pause{name}", viewport=size)
    _table(a, site.url, seats=["me", "bot:easy", "bot:easy"], clock=20, bank=0)
    _my_turn(a, timeout=60000)
    a.wait_for_function("() => window.stichTable.state.timer?.kind === 'move'")
    a.wait_for_timeout(1500)
    a.click(".tablebar button[aria-label='Mehr']")
    a.click(".drawer button:has-text('Pause')")
    a.wait_for_selector(".banner.paused .pause-left")
    _in_view(a, ".banner.paused")
    text = a.inner_text(".banner.paused")
    assert f"Pause{name} hat den Tisch angehalten." in text, text
    first = a.inner_text(".pause-left")
    assert re.fullmatch(r"In [45]:\d\d geht es von selbst weiter\.", first), first
    assert a.query_selector(".player.me .clock") is None  # the clock stands still
    a.wait_for_timeout(2100)
    later = a.inner_text(".pause-left")
    assert later < first, (first, later)  # counted down
    shot(a, f"live-pause-{name}")
    a.click(".banner.paused button")  # "Weiter"
    a.wait_for_selector(".banner.paused", state="detached")
    a.wait_for_function("() => window.stichTable.state.timer?.kind === 'move'")
    timer = a.evaluate("() => window.stichTable.state.timer")
    assert timer["total"] == 20000 and timer["left"] <= 18600, timer  # what it had left
    a.click(".tablebar button[aria-label='Mehr']")
    a.click(".drawer button:has-text('Pause')")
    a.wait_for_function("() => (window.stichTable.state.error || '').includes('einmal pro Spiel')")
    _no_page_errors(a)
    ctx.close()
