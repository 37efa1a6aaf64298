"""The Skat table as a person sees it (issue 23): a game's end (its last trick, then the
result in view with every hand and the Skat), panels in view that close with Escape or a
tap outside and survive table updates, the pick-up marks, the bid, no Liste in the
waiting room, tap targets, the tab order; at 390×844 and 1280×800.

All against the real server: the table waits for "Weiter" (``next_after``), the countdown
comes from its ``timer`` message, the declare buttons show its ``declare_values``.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocket

from tests.server.harness import Server
from tests.web.browser import DESKTOP, PHONE, person, shot, state, step
from tests.web.test_table import _create, _join, _no_page_errors

SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]


def _name(size: dict[str, int]) -> str:
    return "phone" if size is PHONE else "desktop"


def _in_view(page: Page, selector: str) -> Any:
    """The element's box, asserted to lie inside the window (nothing cut off)."""
    box = page.locator(selector).first.bounding_box()
    vp = page.viewport_size
    assert box is not None and vp is not None, selector
    assert box["x"] >= -0.5 and box["y"] >= -0.5, (selector, box)
    assert box["x"] + box["width"] <= vp["width"] + 0.5, (selector, box, vp)
    assert box["y"] + box["height"] <= vp["height"] + 0.5, (selector, box, vp)
    return box


def _play_until(page: Page, done: Any, *, bid: str = "18", limit: int = 600,
                weiter: bool = True) -> None:
    """This page's moves by clicks (``step``) until ``done()``; bots play the others.
    ``weiter``: tap "Weiter" under a result on the way (else results stay as they are)."""
    for _ in range(limit):
        if done():
            return
        if not step(page, bid=bid, weiter=weiter):
            page.wait_for_timeout(50)
    raise AssertionError("not reached")


def _a_table_update(page: Page) -> None:
    """A real table update: a chat line through the page's own connection comes back as a
    numbered event, and the page redraws the table."""
    seq = state(page)["seq"]
    page.evaluate("() => window.stichTable.conn.send({type: 'chat', text: 'Moment bitte'})")
    page.wait_for_function("(s) => window.stichTable.state.seq > s", arg=seq)


# the page notes when the finished game's last trick and its result were first shown
_WATCH = """() => {
  window.__end = {trick: null, trickInView: false, result: null};
  const look = () => {
    const slots = document.querySelectorAll('.trick .slot.final .card');
    if (slots.length === 3 && window.__end.trick === null) {
      window.__end.trick = performance.now();
      window.__end.trickInView = [...slots].every(c => { const r = c.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; });
    }
    const res = document.querySelector('.layer-result:not([hidden]) .headline');
    if (res && window.__end.result === null) window.__end.result = performance.now();
    requestAnimationFrame(look);
  };
  look();
}"""


def _outside(page: Page, selector: str) -> tuple[float, float]:
    """A point on the layer outside the panel (a tap there closes it)."""
    box = page.locator(selector).bounding_box()
    assert box is not None
    if box["y"] > 40:
        return (page.viewport_size or DESKTOP)["width"] / 2, box["y"] / 2
    return max(5.0, box["x"] / 2), box["y"] + box["height"] / 2


@pytest.mark.parametrize("size", SIZES)
def test_a_games_end_shows_the_last_trick_then_the_result_in_view(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    name = _name(size)
    ctx, page = person(browser, site.url, f"Ende{name}", viewport=size)
    _create(page, seats=["me", "bot:easy", "bot:easy"], games="3")
    page.wait_for_function("() => window.stichTable?.state.view")
    page.evaluate(_WATCH)
    _play_until(page, lambda: bool(state(page)["result"]), weiter=False)
    # the last trick first, on the table and in view, for a moment; then the result
    page.wait_for_selector(".layer-result .headline", timeout=5000)
    end = page.evaluate("() => window.__end")
    assert end["trick"] is not None and end["trickInView"], end
    assert end["result"] - end["trick"] >= 1200, end
    line = state(page)["result"]
    over = page.evaluate("() => window.stichTable.state.over.view")
    assert over["phase"] == "OVER"
    # all ten tricks, or a Null lost early (the declarer took a trick), or the rest
    # claimed by a bot declarer (every trick counted, fewer played)
    tricks = over["tricks"]
    null_lost = str(over.get("contract") or "").startswith("declare null") \
        and tricks[-1][2] == over["declarer"]
    claimed = sum(over["tricks_won"]) == 10 and len(tricks) < 10
    assert len(tricks) == 10 or null_lost or claimed, over
    # the result: in view, who won what, the value, every hand and the Skat, "Weiter"
    drawer = ".layer-result .drawer"
    _in_view(page, drawer)
    _in_view(page, ".layer-result .result-foot button.next")
    _in_view(page, ".layer-result .headline")
    text = page.inner_text(drawer)
    assert "Ergebnis von Spiel 1" in text
    assert len(page.query_selector_all(".layer-result table.scores tbody tr")) == 3
    if line["kind"] == "game":
        assert "Wert" in text and str(line["value"]) in text and "Augen" in text
    codes = page.evaluate("() => [...document.querySelectorAll('.layer-result .deal .deal-row')]"
                          ".map(r => [...r.querySelectorAll('.card')].map(c => c.dataset.code))")
    hands, skat = over["deal"]["hands"], over["deal"]["skat"]
    assert codes[:4] == [*hands, skat], codes
    # every card of it readable and inside the window (the panel scrolls within itself)
    # (measured where it rests: the panel's opening motion finished first; half a pixel
    # of rounding allowed, as _in_view does: a card's height is fractional, and scrolled
    # to the panel's lower edge one ended 0.34 px below the window's)
    bad = page.evaluate("""() => { document.getAnimations().forEach(a => a.finish());
      return [...document.querySelectorAll('.layer-result .deal .card')]
      .filter(c => {
        c.scrollIntoView({block: 'nearest'});
        const r = c.getBoundingClientRect();
        return r.width < 30 || r.left < -0.5 || r.right > innerWidth + 0.5
            || r.top < -0.5 || r.bottom > innerHeight + 0.5;
    }).map(c => c.dataset.code); }""")
    assert bad == []
    page.evaluate("() => document.querySelector('.layer-result .drawer').scrollTop = 0")
    shot(page, f"skat-result-{name}")
    # a table update neither folds, rebuilds nor moves it
    page.evaluate("() => { const d = document.querySelector('.layer-result .drawer');"
                  " d.scrollTop = 40; d.dataset.mark = 'kept'; }")
    top = page.evaluate("() => document.querySelector('.layer-result .drawer').scrollTop")
    _a_table_update(page)
    page.wait_for_timeout(300)
    mark = "() => document.querySelector('.layer .drawer')?.dataset.mark"
    assert page.evaluate(mark) == "kept"
    assert page.evaluate("() => document.querySelector('.layer-result .drawer').scrollTop") == top
    # a tap outside closes it
    page.mouse.click(*_outside(page, drawer))
    page.wait_for_selector(".layer-result", state="hidden")
    # during the next game the last game's last trick and result stay reachable
    page.wait_for_function("() => window.stichTable.state.view.number === 2")
    page.click(".tablebar button:has-text('Letzter Stich')")
    page.wait_for_selector(".layer-last .drawer")
    _in_view(page, ".layer-last .drawer")
    assert "Letzter Stich von Spiel 1" in page.inner_text(".layer-last")
    shown = page.evaluate("() => [...document.querySelectorAll('.layer-last .card')]"
                          ".map(c => c.dataset.code)")
    assert shown == over["tricks"][-1][1]
    page.keyboard.press("Escape")
    page.wait_for_selector(".layer-last", state="hidden")
    page.click(".tablebar button:has-text('Ergebnis')")
    page.wait_for_selector(".layer-result .deal")
    _in_view(page, drawer)
    assert len(page.query_selector_all(".layer-result .deal .card")) >= 32
    page.click(".layer-result .drawer-head .close")
    page.wait_for_selector(".layer-result", state="hidden")
    # after a reload the last result is still there (from the list)
    page.reload()
    page.wait_for_function("() => window.stichTable?.state.view")
    page.click(".tablebar button:has-text('Ergebnis')")
    page.wait_for_selector(".layer-result .headline")
    _in_view(page, drawer)
    assert "Ergebnis von Spiel 1" in page.inner_text(drawer)
    _no_page_errors(page)
    ctx.close()


def _small_targets(page: Page) -> Any:
    """Buttons and selects on the table (and in an open panel) under 44 × 44 px."""
    return page.evaluate("""() => [...document.querySelectorAll(
        '.tableview button:not(.card), .tableview select, '
        + '.layer:not([hidden]) button, .layer:not([hidden]) select')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.textContent.trim().slice(0, 20) || e.getAttribute('aria-label'),
                   e.getBoundingClientRect()])
        .filter(([_, r]) => r.width < 44 || r.height < 44)
        .map(([t, r]) => [t, r.width, r.height])""")


def _hand_targets(page: Page) -> Any:
    """The part of each hand card that gets the tap (not covered by another card)."""
    return page.evaluate("""() => {
        document.getAnimations().forEach(a => a.finish());
        const cards = [...document.querySelectorAll('.hand > button.card')];
        return cards.map(c => {
            const r = c.getBoundingClientRect();
            let w = 0, hgt = 0;
            for (let x = r.left + 1; x < r.right; x += 2)
                if (document.elementFromPoint(x, r.top + 8)?.closest('button.card') === c) w += 2;
            for (let y = r.top + 1; y < r.bottom; y += 2)
                if (document.elementFromPoint(r.left + 8, y)?.closest('button.card') === c)
                    hgt += 2;
            return [c.dataset.code, r.width, w, hgt];
        });
    }""")


@pytest.mark.parametrize("size", SIZES)
def test_panels_in_view_waiting_room_tap_targets_and_tab_order(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    name = _name(size)
    ctx, page = person(browser, site.url, f"Panel{name}", viewport=size)
    _create(page, seats=["me", "bot:easy", "person"], games="3")
    page.wait_for_selector(".waiting")
    # the waiting room: nothing to look back at
    tools = page.inner_text(".tablebar .tools")
    assert "Letzter Stich" not in tools and "Liste" not in tools
    assert _small_targets(page) == []
    page.click(".waiting li:nth-child(3) button:has-text('Bot')")
    page.wait_for_function("() => window.stichTable?.state.view?.phase")
    # the list and the menu open in view; Escape and a tap outside close them
    for label, layer, what in (("Liste", ".layer", "list"), ("⋯", ".layer", "menu")):
        page.click(f".tablebar .tools button:has-text('{label}')")
        page.wait_for_selector(f"{layer}:not([hidden]) .drawer")
        _in_view(page, f"{layer} .drawer")
        assert _small_targets(page) == []
        page.evaluate("() => document.querySelector('.layer .drawer').dataset.mark = 'kept'")
        seq = state(page)["seq"]
        # a table update (a chat line) keeps it as it is
        _a_table_update(page)
        page.wait_for_timeout(200)
        mark = "() => document.querySelector('.layer .drawer')?.dataset.mark"
        assert page.evaluate(mark) == "kept", seq
        shot(page, f"skat-panel-{what}-{name}")
        if label == "Liste":
            page.keyboard.press("Escape")
        else:
            page.mouse.click(*_outside(page, ".layer .drawer"))
        page.wait_for_selector(".layer", state="hidden")
    # one's turn (here after a reload, nothing focused yet): the first action has the
    # focus; from the tools one Tab reaches it
    _play_until(page, lambda: bool(state(page)["view"]["legal"])
                and state(page)["view"]["phase"] == "BIDDING", bid="pass")
    page.reload()
    page.wait_for_function("() => document.activeElement?.closest('.actions')")
    assert page.evaluate("() => document.activeElement.dataset.key").startswith("a:")
    page.focus(".tablebar .tools button:last-child")
    page.keyboard.press("Tab")
    assert page.evaluate("() => !!document.activeElement?.closest('.actions, .hand')")
    assert _small_targets(page) == []
    # twelve cards in the hand while putting two away: whole cards, each tappable ≥ 44 px
    _play_until(page, lambda: state(page)["view"]["phase"] == "DISCARD"
                and bool(state(page)["view"]["legal"]), bid="60")
    page.wait_for_selector(".hand > button.card:nth-child(12)")
    targets = _hand_targets(page)
    assert len(targets) == 12
    small = [t for t in targets if t[2] < 44 or t[3] < 44 or t[1] < 44]
    assert small == [], targets
    assert _small_targets(page) == []
    shot(page, f"skat-twelve-{name}")
    _no_page_errors(page)
    ctx.close()


def _wire(page: Page) -> dict[str, list[Any]]:
    """What goes over the page's table sockets from now on, as the wire carries it:
    ``sent`` (the page's messages) and ``got`` (the server's)."""
    wire: dict[str, list[Any]] = {"sent": [], "got": []}

    def keep(into: list[Any], payload: str | bytes) -> None:
        try:
            into.append(json.loads(payload))
        except ValueError:
            into.append(payload)

    def on_socket(ws: WebSocket) -> None:
        if "/ws/tables/" in ws.url:
            ws.on("framesent", lambda f: keep(wire["sent"], f))
            ws.on("framereceived", lambda f: keep(wire["got"], f))

    page.on("websocket", on_socket)
    return wire


def _of(msgs: list[Any], kind: str) -> list[Any]:
    """The messages of a type; a ``timer`` in an event's frame is a timer message."""
    out = []
    for m in msgs:
        if not isinstance(m, dict):
            continue
        if m.get("type") == kind:
            out.append(m)
        elif kind == "timer" and m.get("type") == "event" and m.get("timer"):
            out.append(m["timer"])
    return out


@pytest.mark.parametrize("size", SIZES)
def test_weiter_sends_ready_with_a_countdown(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    """A table made by the lobby's form ("Ergebnis zeigen": 10 s) waits after a game: the
    result counts down from the server's ``timer``, "Weiter" sends ``ready``, and the next
    deal follows at once (the only person at the table said it), long before the time."""
    name = _name(size)
    ctx, page = person(browser, site.url, f"Weiter{name}", viewport=size)
    wire = _wire(page)
    _create(page, seats=["me", "bot:easy", "bot:easy"], games="3")
    page.wait_for_function("() => window.stichTable?.state.view")
    assert state(page)["table"]["next_after"] == 10
    # (passing: a game this person declares might be lost for certain and ask first)
    _play_until(page, lambda: bool(state(page)["result"]), bid="pass", weiter=False)
    page.wait_for_selector(".layer-result .headline")
    # the table waits: the server says so, and runs its timer for the next game
    assert state(page)["table"]["between"] is True
    timers = [m for m in _of(wire["got"], "timer") if m["kind"] == "next"]
    assert timers and timers[-1]["total"] == 10000, timers
    # the result is modal, "Weiter" counts down from the timer message
    assert page.get_attribute(".layer-result .drawer", "aria-modal") == "true"
    button = ".layer-result .result-foot button.next"
    assert page.inner_text(button) == "Weiter"
    page.wait_for_function("() => /Nächstes Spiel in [0-9]+ s/.test("
                           "document.querySelector('.layer-result .countdown').textContent)")
    first = int(re.findall(r"\d+", page.inner_text(".layer-result .countdown"))[0])
    page.wait_for_timeout(1300)
    later = int(re.findall(r"\d+", page.inner_text(".layer-result .countdown"))[0])
    assert 3 < later < first <= 10
    assert "Warten auf" in page.inner_text(".middle .between")  # under the last trick too
    shot(page, f"skat-result-weiter-{name}")
    assert not _of(wire["sent"], "ready")
    assert state(page)["view"]["number"] == 1  # nothing goes on meanwhile
    # "Weiter" has the keyboard: Enter says it
    assert page.evaluate("() => document.activeElement?.matches('.result-foot button.next')")
    t0 = time.monotonic()
    page.keyboard.press("Enter")
    # the server goes on at once: the next deal closes the waiting result
    page.wait_for_function("() => window.stichTable.state.view.number === 2")
    assert time.monotonic() - t0 < later - 2
    assert _of(wire["sent"], "ready") == [{"type": "ready"}]
    kinds = [(m["kind"], m["seat"]) for m in _of(wire["got"], "event")]
    over = [k for k, _ in kinds].index("game_over")
    assert [k for k, _ in kinds[over + 1:over + 3]] == ["ready", "deal"], kinds[over:]
    assert kinds[over + 1][1] == state(page)["you"]
    page.wait_for_selector(".layer-result", state="hidden")
    assert state(page)["table"]["between"] is False
    # it stays reachable
    assert page.query_selector(".tablebar button:has-text('Ergebnis')") is not None
    _no_page_errors(page)
    ctx.close()


@pytest.mark.parametrize("size", SIZES)
def test_pickup_marks_the_bid_and_declare_values_with_a_confirm(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    """Three people at a table of Lothar's rules, by clicks: Mittelhand bids up to 40,
    Vorhand holds it and picks up the Skat.  Its two cards are marked in the hand; the bid
    stays in view; each declare button shows the server's value for this hand; Null,
    lost for certain after a bid of 40, is confirmed first, and then lost at -92."""
    name = _name(size)
    people = [person(browser, site.url, f"Reiz{name}{k}", viewport=size) for k in "ABC"]
    pages = [p for _, p in people]
    _create(pages[0], seats=["me", "person", "person"], games="3")
    for p in pages[1:]:
        _join(p, pages[0].url)
    for p in pages:
        p.wait_for_function("() => window.stichTable?.state.view")

    def at_discard(p: Page) -> bool:
        v = state(p)["view"]
        return bool(v and v["phase"] == "DISCARD" and v["legal"])

    page = None
    for _ in range(300):
        page = next((p for p in pages if at_discard(p)), None)
        if page is not None:
            break
        if not any(step(p, bid="40") for p in pages):
            pages[0].wait_for_timeout(50)
    assert page is not None, "nobody picked up the Skat"
    v = state(page)["view"]
    assert v["bid"] == 40 and v["phase"] == "DISCARD", v
    # the two cards of the Skat are marked in the hand, and said so
    marked = page.evaluate("() => [...document.querySelectorAll('.hand .card.from-skat')]"
                           ".map(c => [c.dataset.code, c.getAttribute('aria-label')])")
    assert sorted(c for c, _ in marked) == sorted(v["skat"]) and len(marked) == 2
    assert all("aus dem Skat" in label for _, label in marked)
    # the bid stays in view while putting away and announcing
    assert "40" in page.inner_text(".game-info .bid")
    assert page.query_selector(".game-info .ramsch") is None
    shot(page, f"skat-pickup-{name}")
    step(page)
    page.wait_for_function("() => window.stichTable.state.view.phase === 'DECLARE'")
    assert page.query_selector(".hand .card.from-skat") is None
    assert "40" in page.inner_text(".game-info .bid")
    # each game with the server's value for this hand; a certain loss says so
    page.wait_for_selector(".declare button .value")
    v = state(page)["view"]
    values = v["declare_values"]
    assert set(values) == {a for a in v["legal"] if a.startswith("declare")}
    shown = 0
    for a, info in values.items():
        button = page.query_selector(f"[data-key='a:{a}']")
        if button is None:
            continue  # (Hand / Ouvert variants the page offers another way)
        shown += 1
        assert button.query_selector(".value").inner_text() == str(info["value"]), (a, info)
        lost = info["loss"] is not None
        assert ("certain-loss" in (button.get_attribute("class") or "")) == lost, (a, info)
        if lost:
            # (a real minus sign, as the list writes it)
            assert f"verloren: −{-info['loss']}" in button.inner_text(), (a, info)
    assert shown >= 5, values
    assert values["declare null"]["loss"] == -92, values["declare null"]
    # nobody else was told the values
    assert all("declare_values" not in state(p)["view"] for p in pages if p is not page)
    target = "[data-key='a:declare null']"
    assert "verloren: −92" in page.inner_text(target)
    _in_view(page, target)
    seq = state(page)["seq"]
    page.click(target)
    page.wait_for_selector(".layer-confirm .drawer")
    _in_view(page, ".layer-confirm .drawer")
    said = page.inner_text(".layer-confirm")
    assert "sicher verloren" in said and "Reizwert von 40" in said and "−92" in said, said
    shot(page, f"skat-confirm-{name}")
    page.click(".layer-confirm button:has-text('Zurück')")
    page.wait_for_selector(".layer-confirm", state="hidden")
    page.wait_for_timeout(300)
    assert state(page)["seq"] == seq and state(page)["view"]["phase"] == "DECLARE"
    page.click(target)
    page.click(".layer-confirm button:has-text('Trotzdem ansagen')")
    # Null worth less than the bid: the game is over at once, at -92 on the list
    page.wait_for_function("() => window.stichTable.state.view.phase === 'OVER'"
                           " && window.stichTable.state.result")
    page.wait_for_selector(".layer-confirm", state="hidden")
    st = state(page)
    assert st["view"]["contract"] == "declare null"
    line = st["result"]
    assert line["won"] is False and line["declarer"] == st["you"], line
    assert line["scores"][st["you"]] == -92, line
    for ctx, p in people:
        _no_page_errors(p)
        ctx.close()
