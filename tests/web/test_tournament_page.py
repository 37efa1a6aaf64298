"""The tournament page on a phone (issue 43, point 2), at 390x844: a person who is not
logged in opens the private tournament's invite link, logs in as a guest from it, joins,
and once the organiser starts the round goes to their table by the page's button, plays
the series by clicks against two players over the protocol, and comes back to their
place and the next round, all in view; the standings are in German, the organiser's
buttons are not shown to them; the organiser's page has them, in English too."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random

from playwright.sync_api import Browser, Page

from tests.server.harness import Client, Server
from tests.server.proto_helpers import uid
from tests.server.test_history import play
from tests.web.browser import DESKTOP, PHONE, in_view, shot, state, step, visitor


def _play_series(page: Page) -> None:
    """Play the table's series by clicks (the table waits up to 5 s after a game for
    "Weiter": the result layer never hides the next game's buttons)."""
    for _ in range(3000):
        st = state(page)
        if st and st["table"] and st["table"]["status"] == "over":
            return
        if not step(page, bid="pass"):
            page.wait_for_timeout(40)
    raise AssertionError("the series did not end")


def test_a_phone_joins_by_the_link_finds_its_table_and_its_place(
        site: Server, browser: Browser) -> None:
    org = Client(site)
    org.register(uid("Org"))
    r = org.post("/api/tournaments", {"name": "Vereinsabend", "public": False,
                                      "games_three": 3, "games_four": 4, "clock": 0,
                                      "next_after": 5, "rounds": 2})
    assert r.status_code == 200, r.text
    t = r.json()["tournament"]
    others = [Client(site), Client(site)]
    for c in others:
        c.register(uid("P"))
        assert c.post(f"/api/tournaments/{t['id']}/register",
                      {"invite": t["invite"]}).status_code == 200
    ctx, page = visitor(browser, viewport=PHONE)
    try:
        page.goto(site.url + t["invite_path"])
        in_view(page, "#tn-login")
        assert "Vereinsabend" in page.inner_text("h1")
        assert page.query_selector("#tn-organiser") is None
        page.click("#tn-login")
        page.fill("#guest input[name=name]", "Handy")
        page.click("#guest button[type=submit]")
        page.wait_for_selector("#tn-join")
        in_view(page, "#tn-join")
        page.click("#tn-join")
        page.wait_for_selector("#tn-registered")
        assert "angemeldet" in page.inner_text("#tn-registered")
        shot(page, "tournament-joined-phone")
        r = org.post(f"/api/tournaments/{t['id']}/start")
        assert r.status_code == 200, r.text
        page.reload()
        box = in_view(page, "#tn-table")
        assert box["height"] >= 40  # a button a thumb finds
        assert "Zu deinem Tisch" in page.inner_text("#tn-table")
        shot(page, "tournament-your-table-phone")
        link = page.get_attribute("#tn-table", "href")
        assert link and link.startswith("/t/")

        async def protocol() -> None:
            sockets = [await c.connect(link.removeprefix("/t/")) for c in others]
            await play(sockets, random.Random(3))
            for ws in sockets:
                await ws.close()

        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            done = pool.submit(asyncio.run, asyncio.wait_for(protocol(), 240))
            page.click("#tn-table")
            page.wait_for_url("**/t/**")
            page.wait_for_function("() => window.stichTable?.state.view")
            _play_series(page)
            done.result()
        page.goto(site.url + f"/tournaments/{t['id']}")
        place = page.inner_text("#tn-place")
        assert "Dein Platz:" in place and "von 3" in place, place
        in_view(page, "#tn-place")
        assert "Runde 2" in page.inner_text("#tn-next")
        assert page.query_selector("#tn-table") is None  # the round is over
        row = page.locator("#tn-standings tr.me")
        assert row.count() == 1 and "Handy" in row.inner_text()
        row.scroll_into_view_if_needed()
        in_view(page, "#tn-standings tr.me")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width  # nothing wider than the phone
        shot(page, "tournament-place-phone")
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        ctx.close()
    # the organiser's page, in English: the buttons, the link to join, every table's link
    octx, opage = visitor(browser, viewport=DESKTOP, locale="en-GB")
    try:
        opage.context.add_cookies([{"name": k, "value": v, "url": site.url}
                                   for k, v in org.http.cookies.items()])
        opage.goto(site.url + f"/tournaments/{t['id']}?lang=en")
        assert "Start round 2" in opage.inner_text("#tn-start")
        assert opage.input_value("#tn-invite") == site.url + t["invite_path"]
        assert "Standings" in opage.inner_text("#tn-standings h2")
        assert opage.locator(".tn-round-tables a").count() == 1
        shot(opage, "tournament-organiser-desktop")
        opage.click("#tn-start")
        opage.wait_for_selector("#tn-status:has-text('Round 2 is being played')")
        assert opage.errors == []  # type: ignore[attr-defined]
    finally:
        octx.close()
    for c in [org, *others]:
        c.close()
