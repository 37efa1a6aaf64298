"""The list marks the games a bot played for a person (a stand-in, the clock, or after
leaving the table): in the table's "Liste" panel and on the printable list."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.server.harness import Server
from tests.web.browser import DESKTOP, PHONE, person, shot


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_games_played_by_a_bot_for_a_person_are_marked(site: Server, browser: Browser,
                                                       size: str) -> None:
    viewport = PHONE if size == "phone" else DESKTOP
    ctx, page = person(browser, site.url, f"Gehtweg{size}", viewport=viewport)
    try:
        made = page.evaluate("""async () => {
            const r = await fetch('/api/tables', {method: 'POST',
              headers: {'content-type': 'application/json'},
              body: JSON.stringify({game: 'skat', games: 3, next_after: 0, clock: 0,
                                    seats: ['me', 'bot:random', 'bot:random']})});
            return [r.status, await r.json()]; }""")
        assert made[0] == 200, made
        tid = made[1]["table"]["id"]
        page.goto(f"{site.url}/t/{tid}")
        page.wait_for_function("() => window.stichTable?.state.view")
        # leave for good at once: a bot plays the seat for all three games
        left = page.evaluate(
            """async (tid) => (await fetch(`/api/tables/${tid}/leave`, {method: 'POST',
                headers: {'content-type': 'application/json'}, body: '{}'})).status""", tid)
        assert left == 200, left
        page.goto(f"{site.url}/t/{tid}")
        page.wait_for_function("() => window.stichTable?.state.table?.status === 'over'",
                               timeout=60000)
        me = page.evaluate("() => window.stichTable.state.table.seats"
                           ".findIndex(s => s.name && s.name.startsWith('Gehtweg'))")
        assert me >= 0
        page.keyboard.press("Escape")  # the last game's result
        page.click(".tablebar button:has-text('Liste')")
        panel = page.locator(".layer .list")
        panel.wait_for()
        marked = page.evaluate("""(me) => [
            ...document.querySelectorAll('.layer .skat-list tbody tr')].map(
            tr => tr.querySelectorAll('td')[3 + me].classList.contains('by-standin'))""", me)
        assert marked == [True, True, True], marked
        others = page.locator(".layer .skat-list tbody td.by-standin").count()
        assert others == 3  # only that person's column: the bots' own seats are not marked
        legend = page.locator(".layer .standin-legend")
        assert "Bot" in legend.inner_text() and legend.is_visible()
        # every player's column is in the panel without scrolling sideways
        wide = page.evaluate("""() => { const t = document.querySelector('.layer .skat-list');
            const d = document.querySelector('.layer .drawer');
            return t.getBoundingClientRect().right - d.getBoundingClientRect().right; }""")
        assert wide <= 0.5, wide
        shot(page, f"standin-marks-{size}")
        # the printable list too
        page.goto(f"{site.url}/t/{tid}/list")
        assert page.locator("tbody .standin-mark").count() == 3
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        ctx.close()
