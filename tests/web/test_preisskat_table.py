"""Preisskat in the browser (issue 43), at 390×844 and 1280×800: a person picks
"Wertung: Preisskat (Seeger-Fabian)" in the lobby's form (the help text says what it
counts; the series becomes 36 games at three, 48 at four; open-ended is not offered),
opens a short series, and the table's header says "Preisskat (4 Spiele)".  A finished
series of bots shows, in the table's list, the Preisskat rows (games won × 50, games
lost × 50, the others' lost games × 40, Leistung, Platz) with the figures the server
sends, and the ranking by the Preisskat score, in view."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser

from tests.server.harness import Server
from tests.server.proto_helpers import uid
from tests.web.browser import DESKTOP, PHONE, in_view, person, shot

SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]


@pytest.mark.parametrize("size", SIZES)
def test_pick_preisskat_and_see_its_list(site: Server, browser: Browser,
                                         size: dict[str, int]) -> None:
    tag = "phone" if size is PHONE else "desktop"
    ctx, page = person(browser, site.url, uid("Pia"), viewport=size, locale="de-DE")
    made: list[str] = []
    try:
        # a finished series of bots to look at (it plays while the form is filled in)
        r = page.request.post(site.url + "/api/tables", data={
            "game": "skat", "games": 3, "scoring": "seeger", "public": False,
            "next_after": 0, "clock": 0, "seats": ["bot:random", "bot:easy", "bot:random"]})
        assert r.ok, r.text()
        bots = str(r.json()["table"]["id"])
        invite = str(r.json()["invite"])
        made.append(bots)
        # the lobby's form: Wertung
        page.select_option("#scoring", "seeger")
        page.locator("#scoring-help").scroll_into_view_if_needed()
        in_view(page, "#scoring-help")
        help_text = page.inner_text("#scoring-help")
        assert "50" in help_text and "40" in help_text and "36" in help_text, help_text
        assert page.locator("#create select[name=games]").input_value() == "36"
        options = page.locator("#create select[name=games] option").all_inner_texts()
        assert "offen" not in " ".join(options), options
        page.select_option("#skat_players", "4")
        assert page.locator("#create select[name=games]").input_value() == "48"
        assert "30" in page.inner_text("#scoring-help")
        page.locator("#scoring").scroll_into_view_if_needed()
        in_view(page, "#scoring")
        shot(page, f"preisskat-form-{tag}")
        page.select_option("#create select[name=games]", "4")
        page.click("#create button[type=submit]")
        page.wait_for_url("**/t/**")
        mine = page.url.split("/t/")[1].split("?")[0]
        made.append(mine)
        page.wait_for_selector(".scoring-title")
        assert "Preisskat (4 Spiele)" in page.inner_text(".scoring-title")
        # the bots' series, finished: its list with the Preisskat rows
        for _ in range(300):
            t = page.request.get(f"{site.url}/api/tables/{bots}?invite={invite}").json()
            if t["table"]["status"] == "over":
                break
            time.sleep(0.2)
        else:
            raise AssertionError("the bots' series did not end")
        lst = page.request.get(f"{site.url}/api/tables/{bots}/list?invite={invite}").json()
        seeger = lst["list"]["seeger"]
        page.goto(f"{site.url}/t/{bots}?invite={invite}")
        # the last game's result opens by itself on a finished table: Escape closes it
        page.wait_for_selector(".layer-result:not([hidden])")
        page.keyboard.press("Escape")
        page.wait_for_selector(".layer-result", state="hidden")
        page.get_by_role("button", name="Liste", exact=True).click()
        page.wait_for_selector("tr.preisskat.score")
        cells = page.locator("tr.preisskat.score td").all_inner_texts()
        assert [int(c.replace("−", "-")) for c in cells] == [x["score"] for x in seeger["lines"]]
        assert "Gewonnene Spiele × 50" in page.inner_text("tr.preisskat.won th")
        assert "Verlorene Spiele der Gegner × 40" in page.inner_text("tr.preisskat.others th")
        assert page.locator("tr.preisskat.place td").all_inner_texts() \
            == [f"{x['place']}." for x in seeger["lines"]]
        page.locator("tr.preisskat.score th").scroll_into_view_if_needed()
        in_view(page, "tr.preisskat.score th")
        page.locator(".preisskat-ranking h3").scroll_into_view_if_needed()
        in_view(page, ".preisskat-ranking h3")
        assert "Ergebnis der Serie" in page.inner_text(".preisskat-ranking h3")
        first = min(range(3), key=lambda i: seeger["lines"][i]["place"])
        assert page.locator(".preisskat-ranking li strong").first.inner_text() \
            == lst["list"]["players"][first] or seeger["lines"][first]["place"] == 1
        shot(page, f"preisskat-list-{tag}")
        errors = page.errors  # type: ignore[attr-defined]
        assert errors == [], errors
    finally:
        for tid in made:
            page.request.post(f"{site.url}/api/tables/{tid}/close")
        ctx.close()
