"""Claiming the rest and giving up in the browser (issue 42), at 390×844 and 1280×800: at
her turn in card play a person sees "Rest beanspruchen" and "Aufgeben" (the declarer) or
"Aufgeben" (a defender), in view; either asks first and "Zurück" leaves the game as it was;
a confirmed claim ends the game, a defender's giving up is shown and the button goes."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from tests.server.harness import Server
from tests.web.browser import DESKTOP, PHONE, in_view, person, shot, state, step
from tests.web.test_table import _no_page_errors

SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]


def _create(page: Page, base: str) -> None:
    r = page.request.post(base + "/api/tables", data={
        "game": "skat", "games": 3, "seats": ["me", "bot:easy", "bot:easy"],
        "next_after": 0, "clock": 0})
    assert r.ok, r.text()
    page.goto(base + r.json()["invite_path"])
    page.wait_for_function("() => window.stichTable?.state.view?.phase")


def _my_card_turn(page: Page) -> dict[str, object]:
    for _ in range(2000):
        st = state(page)
        v = st["view"] if st else None
        if v and v["phase"] == "PLAY" and v["legal"] and v.get("contract"):
            return st  # type: ignore[no-any-return]
        if v and v["phase"] == "OVER":
            raise AssertionError("the game ended before a card turn of a declared game")
        if not step(page, bid="30"):
            page.wait_for_timeout(40)
    raise AssertionError("no card turn came")


@pytest.mark.parametrize("size", SIZES)
def test_claim_and_give_up_by_clicks(site: Server, browser: Browser,
                                     size: dict[str, int]) -> None:
    name = "phone" if size is PHONE else "desktop"
    seen: set[str] = set()  # both sides: the declarer's claim, a defender's giving up
    for attempt in range(16):
        if len(seen) == 2:
            break
        ctx, page = person(browser, site.url, f"Clara{name[0]}{attempt}", viewport=size)
        try:
            _create(page, site.url)
            try:
                st = _my_card_turn(page)
            except AssertionError:
                continue
            v = st["view"]
            declarer = v["seat"] == v["declarer"]
            if ("declarer" if declarer else "defender") in seen:
                continue
            page.wait_for_selector(".actions [data-key='a:giveup']")
            in_view(page, ".actions [data-key='a:giveup']")
            assert page.locator(".actions [data-key='a:giveup']").inner_text() == "Aufgeben"
            assert (page.locator(".actions [data-key='a:claim']").count() == 1) == declarer
            shot(page, f"claims-{name}")
            page.click(".actions [data-key='a:giveup']")
            page.wait_for_selector("[data-key='confirm:giveup']")
            in_view(page, "[data-key='confirm:giveup']")
            page.get_by_role("button", name="Zurück").click()
            page.wait_for_selector("[data-key='confirm:giveup']", state="detached")
            assert state(page)["view"]["phase"] == "PLAY"  # nothing happened
            if declarer:
                page.click(".actions [data-key='a:claim']")
                page.click("[data-key='confirm:claim']")
                # the game is over and on the list (the next deal may already be running)
                page.wait_for_function(
                    "() => (window.stichTable?.state.list?.games || []).length >= 1")
                first = page.evaluate("() => window.stichTable.state.list.games[0]")
                assert first["kind"] == "game", first
            else:
                page.click(".actions [data-key='a:giveup']")
                page.click("[data-key='confirm:giveup']")
                page.wait_for_function(
                    "(p) => (window.stichTable?.state.view?.gave_up || []).includes(p)",
                    arg=v["seat"])
                page.wait_for_selector(".actions [data-key='a:giveup']", state="detached")
            _no_page_errors(page)
            seen.add("declarer" if declarer else "defender")
        finally:
            ctx.close()
    assert seen == {"declarer", "defender"}, seen
