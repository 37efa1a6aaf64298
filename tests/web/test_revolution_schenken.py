"""Revolution and Schenken in the browser (issue 42), at 390×844 and 1280×800.

A person plays by clicks with two other persons, who are clients over the protocol
(``tests/server/harness.py``): one of them bids 18 and plays Hand, the person passes and
defends.

- Revolution: the declarer declares ``null hand ouvert revolution``; the person sees her
  partner's cards in a row named "Karten von …", selects cards of her own hand and gives
  them by "Geben" (the first defender: two cards; the partner: as many as she got), the
  declarer's cards lie open; the row and the button are in view.
- Schenken: the declarer plays a Grand Hand; at her first card the person presses
  "Schenken" (its explanation is on the page), her partner agrees, the declarer accepts;
  the result says "geschenkt".
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.server.harness import Client, Server
from tests.server.proto_helpers import my_turn, uid
from tests.web.browser import DESKTOP, PHONE, in_view, person, shot, state, step
from tests.web.test_table import _no_page_errors

RULES = "skat(preset=lothar,revolution=yes,schenken=yes)"
SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]


def _policy(declare: str, legal: list[str]) -> str:
    """The two clients: bid 18 (a held bid is passed), play Hand, declare ``declare``;
    agree to a Schenken and accept it, never offer one; give two cards, or as many as
    asked; else the first legal action (a card)."""
    for text in (declare, "hand", "accept"):
        if text in legal:
            return text
    if "schenken" in legal and "pass" in legal:  # the partner's answer to an offer
        return "schenken"
    if "hold" in legal or (any(t.isdigit() for t in legal) and "18" not in legal):
        return "pass"
    if "18" in legal:
        return "18"
    gives = [t for t in legal if t.startswith("give")]
    if gives:
        return next((t for t in gives if len(t.split()) == 3), gives[0])
    return next(t for t in legal if t not in ("schenken", "kontra"))


def _table(page: Page, site: Server, declare: str) -> tuple[str, threading.Event, threading.Thread]:
    """The table, the person's page at it, and the two clients playing in a thread."""
    r = page.request.post(site.url + "/api/tables", data={
        "game": "skat", "rules": RULES, "games": 3, "seats": ["me", "person", "person"],
        "next_after": 0, "clock": 0})
    assert r.ok, r.text()
    made = r.json()
    tid = str(made["table"]["id"])
    others = [Client(site) for _ in range(2)]
    for i, c in enumerate(others):
        c.guest(uid(f"Q{i}"))
        j = c.post(f"/api/tables/{tid}/join", {"seat": i + 1, "invite": made["invite"]})
        assert j.status_code == 200, j.text
    stop = threading.Event()

    async def play() -> None:
        socks = [await c.connect(tid, invite=made["invite"]) for c in others]
        while not stop.is_set():
            for ws in socks:
                with contextlib.suppress(TimeoutError):
                    await ws.recv(0.05)
                if my_turn(ws.view) and ws.view is not None and ws.view["phase"] != "OVER":
                    await ws.act(_policy(declare, ws.view["legal"]))
                    await ws.until(lambda m: m["type"] in ("event", "error"), 10)
        for ws in socks:
            await ws.close()

    thread = threading.Thread(target=lambda: asyncio.run(play()), daemon=True)
    thread.start()
    page.goto(site.url + made["invite_path"])
    page.wait_for_function("() => window.stichTable?.state.view?.phase")
    return tid, stop, thread


def _wait_move(page: Page) -> dict[str, Any] | None:
    """The person's view when she has a move in the first game, None once it is over."""
    for _ in range(1500):
        st = state(page)
        v = st["view"] if st else None
        if st and st["result"]:
            return None
        if v and v["legal"] and v["phase"] != "OVER":
            return v  # type: ignore[no-any-return]
        page.wait_for_timeout(40)
    raise AssertionError("no move came")


def _acted(page: Page, seq: int) -> None:
    page.wait_for_function("(seq) => window.stichTable?.state.seq > seq", arg=seq,
                           timeout=10000)


@pytest.mark.parametrize("size", SIZES)
def test_a_revolution_by_clicks(site: Server, browser: Browser, size: dict[str, int]) -> None:
    name = "phone" if size is PHONE else "desktop"
    ctx, page = person(browser, site.url, f"Rita{name[0]}", viewport=size)
    _, stop, thread = _table(page, site, "declare null hand ouvert revolution")
    try:
        gave = False
        while (v := _wait_move(page)) is not None:
            seq = state(page)["seq"]
            if v["phase"] == "BIDDING":
                page.click(".actions button.secondary")  # passe
            elif any(a.startswith("give") for a in v["legal"]):
                # the partner's cards in a row of their own, named for him
                label = page.locator(".partner-label")
                assert label.inner_text().startswith("Karten von ")
                partner_box = page.locator(".player:has(.partner-label) .open-hand .card")
                assert sorted(partner_box.evaluate_all("els => els.map(e => e.dataset.code)")) \
                    == sorted(v["partner_hand"])
                sizes = {len(a.split()) - 1 for a in v["legal"]}
                n = 2 if len(sizes) > 1 else min(sizes)
                button = page.locator("[data-key='a:give']")
                assert button.inner_text() in ("Nichts geben", f"Geben (0/{n})")
                # the first defender may give nothing; his partner must give as many
                assert button.is_disabled() == (len(sizes) == 1 and n > 0)
                for el in page.locator(".hand button.card:not(.illegal)").all()[:n]:
                    el.click()
                in_view(page, "[data-key='a:give']")
                in_view(page, ".partner-label")
                assert page.locator("[data-key='a:give']").inner_text() \
                    in (f"Geben ({n})", f"Geben ({n}/{n})")
                shot(page, f"revolution-give-{name}")
                page.click("[data-key='a:give']")
                gave = True
            else:
                assert page.locator(".partner-label").count() == 1  # still shown in card play
                step(page)
                continue
            _acted(page, seq)
        assert gave
        st = state(page)
        assert "revolution" in str(st["result"]["result"])
        page.wait_for_selector(".layer-result:not([hidden]) .house-words")
        assert "Revolution" in page.locator(".layer-result .house-words").inner_text()
        shot(page, f"revolution-result-{name}")
        _no_page_errors(page)
    finally:
        stop.set()
        thread.join(10)
        ctx.close()


@pytest.mark.parametrize("size", SIZES)
def test_schenken_offered_by_clicks_and_accepted(site: Server, browser: Browser,
                                                 size: dict[str, int]) -> None:
    name = "phone" if size is PHONE else "desktop"
    ctx, page = person(browser, site.url, f"Sina{name[0]}", viewport=size)
    _, stop, thread = _table(page, site, "declare grand hand")
    try:
        offered = False
        while (v := _wait_move(page)) is not None:
            seq = state(page)["seq"]
            if v["phase"] == "BIDDING":
                page.click(".actions button.secondary")
            elif "schenken" in v["legal"]:
                sel = ".actions [data-key='a:schenken']"
                in_view(page, sel)
                assert page.locator(sel).inner_text() == "Schenken"
                explain = page.locator(".actions .gift-explain").inner_text()
                assert "einfach" in explain and "Schneider" in explain
                shot(page, f"schenken-offer-{name}")
                page.click(sel)
                offered = True
            else:
                step(page)
                continue
            _acted(page, seq)
        assert offered
        st = state(page)
        result = st["result"]["result"]
        assert result.get("gift_accepted") is True and result["won"] is True
        page.wait_for_selector(".layer-result:not([hidden]) .house-words")
        assert "geschenkt" in page.locator(".layer-result .house-words").inner_text()
        in_view(page, ".layer-result .house-words")
        shot(page, f"schenken-result-{name}")
        _no_page_errors(page)
    finally:
        stop.set()
        thread.join(10)
        ctx.close()
