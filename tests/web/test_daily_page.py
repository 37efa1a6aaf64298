"""The Tagesskat page as a person uses it (issue 43, point 3), at 390x844 and 1280x800: a
guest opens the page from the site's menu, starts the day's set with the button, plays
its twelve games by clicks, and comes back to their result, their line on the day's and
the week's boards and the bots' own result on the same cards, all in view and readable;
another guest sees how many finished but no result of today before playing it themself,
and cannot open the first one's table."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page

from tests.server.harness import Server
from tests.web.browser import DESKTOP, PHONE, in_view, person, shot, state, step

SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]


def _play_to_the_end(page: Page, name: str, site: Server) -> None:
    end = time.monotonic() + 400
    while time.monotonic() < end:
        st = state(page)
        if st and st["table"] and st["table"]["status"] == "over":
            return
        number = (st["view"] or {}).get("number", 0) if st else 0
        if not step(page, bid="pass" if number % 3 == 0 else "18"):
            page.wait_for_timeout(40)
    shot(page, f"daily-stuck-{name}")
    raise AssertionError(f"the Tagesskat did not end: {state(page)}; the server's log: "
                         f"{site.stderr[-40:]}")


@pytest.mark.parametrize("size", SIZES)
def test_a_guest_plays_the_tagesskat_and_finds_themself_on_the_board(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    name = "TagPhone" if size is PHONE else "TagDesk"
    ctx, page = person(browser, site.url, name, viewport=size)
    try:
        page.click("nav a[href='/tagesskat']")
        page.wait_for_selector("#daily-play")
        assert "Tagesskat" in page.inner_text("h1")
        in_view(page, "#daily-play")
        shot(page, f"daily-before-{name}")
        page.click("#daily-play")
        page.wait_for_url("**/t/**")
        tid = page.url.split("/t/")[1].split("?")[0]
        page.wait_for_function("() => window.stichTable?.state.view")
        _play_to_the_end(page, name, site)
        page.goto(site.url + "/tagesskat")
        you = page.inner_text("#daily-you")
        assert "Dein Ergebnis" in you and "gegen die Bots" in you, you
        in_view(page, "#daily-you")
        assert "Bots" in page.inner_text("#daily-bots")
        row = page.locator("#daily-day tr.me")
        assert row.count() == 1 and name in row.inner_text()
        page.locator("#daily-week tr.me").scroll_into_view_if_needed()
        in_view(page, "#daily-week tr.me")
        shot(page, f"daily-after-{name}")
        assert page.errors == []  # type: ignore[attr-defined]
        # another guest: the board names the first, the first one's table stays closed
        ctx2, other = person(browser, site.url, name + "2", viewport=size)
        try:
            other.goto(site.url + "/tagesskat")
            hidden = other.inner_text("#daily-hidden")  # not before their own set
            assert "selbst gespielt" in hidden and name not in other.inner_text("main")
            other.goto(site.url + f"/t/{tid}")
            other.wait_for_function("() => window.stichTable?.state.status === 'gone'",
                                    timeout=15000)
            assert "gibt es nicht" in other.inner_text("main")
            assert other.evaluate("() => !window.stichTable.state.view")
        finally:
            ctx2.close()
    finally:
        ctx.close()
