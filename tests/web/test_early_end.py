"""A game ended early, as the person at the table sees it (issue 42), at 390×844 and
1280×800: after her claim of the rest the table says so in a line ("Clara beansprucht
den Rest – zu Recht" / "… zu Unrecht: …"), not "Letzter Stich: …"; the cards every
player still held lie face up in their places (hers in her hand), readable and in view,
while the last trick is on the table and after the result was closed (the table was
closed meanwhile: the finished game stays on it); the result repeats the line and the
cards."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.server.harness import Server
from tests.web.browser import DESKTOP, PHONE, in_view, person, shot, state, step, table_id
from tests.web.test_skat_table import _outside
from tests.web.test_table import _no_page_errors

SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]

_WATCH = """() => {
  window.__early = null;  // the table as drawn while the finished game's last trick shows
  const look = () => {
    const line = document.querySelector('.middle .end-line');
    if (line && window.__early === null && window.stichTable.state.endStage === 'trick') {
      window.__early = {line: line.innerText,
        took: !!document.querySelector('.middle .took'),
        mine: [...document.querySelectorAll('.hand.held-at-end .card')].map(c => c.dataset.code)};
    }
    requestAnimationFrame(look);
  };
  look();
}"""

LINE = re.compile(r"^(\S+) beansprucht den Rest – zu (Recht|Unrecht: der Rest geht an .+)$")


def _declarer_card_turn(page: Page, base: str) -> dict[str, Any] | None:
    """A table with two bots that waits for "Weiter"; this page's view at its first card
    turn as the declarer of a declared game (None: another seat plays)."""
    r = page.request.post(base + "/api/tables", data={
        "game": "skat", "games": 3, "seats": ["me", "bot:easy", "bot:easy"],
        "next_after": 60, "clock": 0})
    assert r.ok, r.text()
    page.goto(base + r.json()["invite_path"])
    page.wait_for_function("() => window.stichTable?.state.view?.phase")
    for _ in range(2000):
        st = state(page)
        v = st["view"] if st else None
        if v and v["phase"] == "PLAY" and v["legal"] and v.get("contract"):
            return v if v["seat"] == v["declarer"] else None  # type: ignore[no-any-return]
        if v and (v["phase"] == "OVER" or (v["phase"] == "PLAY" and v["declarer"] != v["seat"]
                                           and v["declarer"] >= 0)):
            return None
        if not step(page, bid="30"):
            page.wait_for_timeout(40)
    return None


def _readable_in_view(page: Page, selector: str) -> list[str]:
    """The codes of the cards under ``selector``, each asserted shown, wide enough to
    read and inside the window (scrolled to where it is, as a person would)."""
    page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
    codes: list[str] = []
    for i in range(page.locator(selector).count()):
        card = page.locator(selector).nth(i)
        card.scroll_into_view_if_needed()
        box = card.bounding_box()
        vp = page.viewport_size
        assert box is not None and vp is not None
        assert box["width"] >= 24, (selector, box)
        assert box["x"] >= -0.5 and box["x"] + box["width"] <= vp["width"] + 0.5, (selector, box)
        assert box["y"] >= -0.5 and box["y"] + box["height"] <= vp["height"] + 0.5, (selector, box)
        codes.append(str(card.get_attribute("data-code")))
    return codes


@pytest.mark.parametrize("size", SIZES)
def test_a_claim_shows_the_line_and_every_card_still_held(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    name = "phone" if size is PHONE else "desktop"
    for attempt in range(16):
        ctx, page = person(browser, site.url, f"Clara{name[0]}{attempt}", viewport=size)
        try:
            v = _declarer_card_turn(page, site.url)
            if v is None:
                continue
            mine = sorted(v["hand"])
            others = {p: v["cards_held"][p] for p in range(3) if p != v["seat"]}
            page.evaluate(_WATCH)
            page.click(".actions [data-key='a:claim']")
            page.click("[data-key='confirm:claim']")
            # while the last trick shows: the line, not "Letzter Stich", my cards face up
            page.wait_for_function("() => window.__early !== null", timeout=5000)
            early = page.evaluate("() => window.__early")
            assert LINE.match(early["line"]), early
            assert not early["took"] and sorted(early["mine"]) == mine, early
            # the result: the line again and every player's remaining cards
            page.wait_for_selector(".layer-result .ended-early", timeout=5000)
            over = page.evaluate("() => window.stichTable.state.over.view")
            end = over["end"]
            assert end["reason"] in ("claimed", "claim_wrong") and end["by"] == v["seat"]
            text = page.inner_text(".layer-result .ended-early")
            assert early["line"] in text and "Karten, die am Ende noch auf der Hand waren" in text
            rows = page.evaluate(
                "() => [...document.querySelectorAll('.layer-result .ended-early .deal-row')]"
                ".map(r => [...r.querySelectorAll('.card')].map(c => c.dataset.code))")
            assert rows == end["held"]
            shot(page, f"early-end-result-{name}")
            # the table closed meanwhile (else closing the result would say "Weiter" and
            # the next game would come): the finished game's end stays on the table
            r = page.request.post(f"{site.url}/api/tables/{table_id(page)}/close", data={})
            assert r.ok, r.text()
            page.wait_for_function("() => window.stichTable.state.table.status === 'over'")
            page.mouse.click(*_outside(page, ".layer-result .drawer"))
            page.wait_for_selector(".layer-result", state="hidden")
            line = in_view(page, ".middle .end-line")
            assert line["height"] > 10
            assert LINE.match(page.inner_text(".middle .end-line"))
            assert page.locator(".middle .took").count() == 0
            assert sorted(_readable_in_view(page, ".hand.held-at-end .card")) == mine
            assert end["held"][v["seat"]] and sorted(end["held"][v["seat"]]) == mine
            for pos, n in others.items():
                box = ".player.left" if pos == (v["seat"] + 1) % 3 else ".player.right"
                shown = _readable_in_view(page, f"{box} .held-at-end .card")
                assert shown == end["held"][pos] and len(shown) == n, (pos, shown, n)
                assert page.locator(f"{box} .backs .card").count() == 0  # no card backs
            page.evaluate("() => window.scrollTo(0, 0)")
            shot(page, f"early-end-table-{name}")
            _no_page_errors(page)
            return
        finally:
            ctx.close()
    raise AssertionError("never the declarer at a card turn")
