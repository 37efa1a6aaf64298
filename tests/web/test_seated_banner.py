"""Every page tells a person who still sits at a running table where it is and leads
back to it ("Du sitzt noch am Tisch … – zurück zum Tisch"); not on that table's own
page, and no more once the person left the table for good."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.server.harness import Server
from tests.web.browser import DESKTOP, PHONE, person

CREATE = """async () => {
  const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify({game: 'skat', games: 3, seats: ['me', 'bot:easy', 'bot:easy'],
                          clock: 0})});
  return (await r.json()).table.id;
}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_banner_leads_back_to_the_table(site: Server, browser: Browser,
                                            viewport: dict[str, int]) -> None:
    ctx, page = person(browser, site.url, f"Bank{viewport['width']}", viewport=viewport)
    try:
        assert page.locator("#seated").is_hidden()  # nowhere seated yet
        tid = page.evaluate(CREATE)
        page.goto(site.url + "/bestenliste")
        banner = page.locator("#seated .seated")
        banner.wait_for(timeout=10000)
        assert "Du sitzt noch am Tisch" in banner.inner_text()
        link = banner.locator("a")
        assert link.inner_text() == "zurück zum Tisch"
        box = link.bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        assert box["height"] >= 44
        link.click()
        page.wait_for_url(f"**/t/{tid}")
        page.wait_for_timeout(500)  # the banner's request has been answered
        assert page.locator("#seated .seated").count() == 0
        page.evaluate(f"() => fetch('/api/tables/{tid}/leave', {{method: 'POST'}})")
        page.goto(site.url + "/")
        page.wait_for_timeout(500)
        assert page.locator("#seated .seated").count() == 0
        assert not [e for e in page.errors if "favicon" not in e]  # type: ignore[attr-defined]
    finally:
        ctx.close()
