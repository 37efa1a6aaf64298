"""Tables of four in the lobby's list, in the browser (issue 42), at 390×844 and
1280×800, in German and in English: a person who opens the lobby sees how many seats
each open table has ("4 Plätze" / "4 seats"; "3 Plätze" at a table of three), at a Skat
table of four whose dealer sees every hand also "Geber sieht alles" / "dealer sees all",
and the free seats as before ("frei" / "free").  The line is shown, inside the window
(the first row on a phone's first screen), not covered, at least 14 px, and dark enough
on its background (4.5:1)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.server.harness import Server
from tests.server.proto_helpers import uid
from tests.web.browser import DESKTOP, PHONE, in_view, person, shot
from tests.web.test_cards import contrast

SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]
WORDS = {"de": {"four_all": "4 Plätze · Geber sieht alles", "four": "4 Plätze",
                "three": "3 Plätze", "free": "frei", "locale": "de-DE"},
         "en": {"four_all": "4 seats · dealer sees all", "four": "4 seats",
                "three": "3 seats", "free": "free", "locale": "en-GB"}}

# the element's size, colours, and whether it is the one at the centre of each of its
# lines (not covered)
_LOOK = """(el) => {
  const cs = getComputedStyle(el);
  let bg = "rgba(0, 0, 0, 0)";
  for (let e = el; e && bg.endsWith(", 0)"); e = e.parentElement)
    bg = getComputedStyle(e).backgroundColor;
  const lines = [...el.getClientRects()];
  const top = lines.length > 0 && lines.every((r) => {
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !!at && el.contains(at);
  });
  return {size: parseFloat(cs.fontSize), color: cs.color, bg, top, lines: lines.length};
}"""


def _hex(rgb: str) -> str:
    """``rgb(93, 102, 95)`` as ``#5d665f``."""
    parts = rgb[rgb.index("(") + 1:rgb.index(")")].split(",")
    return "#" + "".join(f"{int(float(p)):02x}" for p in parts[:3])


def _readable(page: Page, selector: str) -> dict[str, Any]:
    look: dict[str, Any] = page.locator(selector).first.evaluate(_LOOK)
    assert look["size"] >= 14, look
    assert look["top"], look
    assert contrast(_hex(look["color"]), _hex(look["bg"])) >= 4.5, look
    return look


def _create(page: Page, base: str, body: dict[str, Any]) -> str:
    r = page.request.post(base + "/api/tables", data={"next_after": 0, "clock": 0, **body})
    assert r.ok, r.text()
    return str(r.json()["table"]["id"])


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", SIZES)
def test_a_person_sees_the_seats_and_what_the_dealer_sees_in_the_lobby(
        site: Server, browser: Browser, size: dict[str, int], lang: str) -> None:
    words = WORDS[lang]
    tag = f"{'phone' if size is PHONE else 'desktop'}-{lang}"
    # the tables of one person (the lobby lists at most three of one account or address)
    ctx, page = person(browser, site.url, uid("Cora"), viewport=size, locale=words["locale"])
    ctx2, dora = person(browser, site.url, uid("Dora"), viewport=size, locale=words["locale"])
    tables: dict[str, str] = {}
    try:
        tables["three"] = _create(page, site.url, {
            "game": "skat", "games": 3, "seats": ["me", "person", "bot:easy"]})
        tables["four"] = _create(page, site.url, {
            "game": "skat", "games": 4, "seats": ["me", "person", "bot:easy", "bot:easy"]})
        tables["four_all"] = _create(page, site.url, {  # the newest: the first row
            "game": "skat", "games": 4, "dealer_sees": "all",
            "seats": ["me", "person", "person", "bot:easy"]})
        dora.goto(site.url + "/")
        for tid in tables.values():
            dora.wait_for_selector(f"#tables a[href='/t/{tid}']")
        first = dora.locator("#tables tbody tr").first
        assert first.locator(f"a[href='/t/{tables['four_all']}']").count() == 1
        rows = {key: f"#tables tr:has(a[href='/t/{tid}'])" for key, tid in tables.items()}
        for key, row in rows.items():
            assert dora.inner_text(f"{row} .seat-count").strip() == words[key]
            names = dora.inner_text(f"{row} .seat-names")
            assert names.count(words["free"]) == (2 if key == "four_all" else 1), names
            assert (dora.locator(f"{row} .dealer-sees").count() == 1) == (key == "four_all")
        # the table of four: in the first screen as the page opens, and readable
        in_view(dora, f"{rows['four_all']} .seat-count")
        shot(dora, f"lobby-four-{tag}")
        _readable(dora, f"{rows['four_all']} .seat-count")
        _readable(dora, f"{rows['four_all']} .dealer-sees")
        for key in ("four", "three"):  # the others where the page scrolls to them
            dora.locator(f"{rows[key]} .seat-count").scroll_into_view_if_needed()
            in_view(dora, f"{rows[key]} .seat-count")
            _readable(dora, f"{rows[key]} .seat-count")
        errors = dora.errors  # type: ignore[attr-defined]
        assert errors == [], errors
    finally:
        for tid in tables.values():
            page.request.post(f"{site.url}/api/tables/{tid}/close")
        ctx.close()
        ctx2.close()
