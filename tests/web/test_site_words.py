"""The site's frame and pages as a person reads them: the web app manifest and its icons,
header tap targets of 44 × 44 px on a phone, the rules dropdown within the screen, a
player page coloured by that player's own result, Skat's bid as "gereizt bis" and
Baptistenskat's as "Ansage", no raw rule string on a game page."""

from __future__ import annotations

import asyncio
import random
import re
import struct
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser

from tests.server.harness import Client, Server, database
from tests.server.test_history import play
from tests.web.browser import DESKTOP, PHONE, person

VIEWPORTS = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:5]}"


@dataclass
class Site:
    server: Server
    ann: str
    skat: str

    @property
    def url(self) -> str:
        return self.server.url


def grand_hand(v: dict[str, Any], rng: random.Random) -> str | None:
    """Games 2 and on: Mittelhand says 18, the others pass, Mittelhand plays Grand Hand
    (a game with a declarer in which the other two are defenders); game 1 all pass."""
    legal = v["legal"]
    if v["number"] == 1:
        return "pass" if "pass" in legal else None
    if v["phase"] == "BIDDING":
        return "18" if v["bid"] == 0 and "18" in legal and v["seat"] == 1 else "pass"
    if "hand" in legal:
        return "hand"
    if "declare grand hand" in legal:
        return "declare grand hand"
    return None


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with database("sqlite", tmp_path_factory.mktemp("words")) as url:
        server = Server(url, bot_delay=0.0)
        server.start()
        people = [Client(server) for _ in range(3)]
        ann = unique("Ann")
        people[0].register(ann)
        people[1].register(unique("Ben"))
        people[2].guest(unique("Gus"))

        async def skat() -> str:
            tid = people[0].create(game="skat", preset="lothar", games=3,
                                   seats=["me", "person", "person"])["table"]["id"]
            for c in people[1:]:
                assert c.post(f"/api/tables/{tid}/join", {}).status_code == 200
            sockets = [await c.connect(tid) for c in people]
            await play(sockets, random.Random(3), grand_hand)
            for ws in sockets:
                await ws.close()
            return str(tid)

        tid = asyncio.run(asyncio.wait_for(skat(), 120))
        try:
            yield Site(server, ann, tid)
        finally:
            for c in people:
                c.close()
            server.stop()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    w, h = struct.unpack(">II", data[16:24])
    return int(w), int(h)


def test_the_manifest_is_served_with_its_icons(site: Site) -> None:
    r = httpx.get(site.url + "/manifest.webmanifest")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    m = r.json()
    assert m["short_name"] == "stich" and m["name"] and m["start_url"] == "/"
    assert m["display"] == "standalone" and m["theme_color"] and m["background_color"]
    sizes = {}
    for icon in m["icons"]:
        got = httpx.get(site.url + icon["src"])
        assert got.status_code == 200, icon
        assert got.headers["content-type"].startswith(icon["type"]), icon
        if icon["type"] == "image/png":
            w, h = png_size(got.content)
            assert icon["sizes"] == f"{w}x{h}", (icon, w, h)
            sizes[w] = h
        else:
            assert icon["type"] == "image/svg+xml" and b"<svg" in got.content
    assert sizes == {192: 192, 512: 512}
    page = httpx.get(site.url + "/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_header_tap_targets_and_the_rules_dropdown_fit_a_phone(
        site: Site, browser: Browser, viewport: dict[str, int]) -> None:
    ctx, page = person(browser, site.url, unique("Tap"), viewport=viewport)
    try:
        # the manifest is linked and loads without a console error (CSP)
        assert page.locator('link[rel="manifest"]').count() == 1
        targets = page.locator("header.top a, header.top button, header.top .langs b")
        assert targets.count() >= 5  # brand, Tische, Bestenliste, the name, EN, Abmelden
        for i in range(targets.count()):
            el = targets.nth(i)
            box = el.bounding_box()
            assert box is not None, el.inner_text()
            assert box["width"] >= 44 and box["height"] >= 44, (el.inner_text(), box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 0.5, box
        rules = page.locator('#create select[name="preset"]')
        rules.scroll_into_view_if_needed()
        box = rules.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box
        # and every rule set's name fits inside the box (a select shows one line; what a
        # rule set means is said below it)
        cut = page.evaluate("""() => {
            const s = document.querySelector('#create select[name=preset]');
            const c = document.createElement('canvas').getContext('2d');
            c.font = getComputedStyle(s).font;
            return [...s.options].filter(o => c.measureText(o.text).width + 34 > s.clientWidth)
                .map(o => o.text); }""")
        assert cut == [], cut
        note = page.locator("#rules-note")
        assert "Ramsch" in note.inner_text() and note.is_visible()
        # the guest's own name leads to a page that exists, never to a 404 player page
        name = page.locator("header.top a.me")
        guest = name.inner_text().strip()
        with page.expect_navigation() as nav:
            name.click()
        response = nav.value
        assert response is not None and response.status == 200, page.url
        assert page.locator(f'a[href="/u/{guest}"]').count() == 0
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        ctx.close()


def test_a_defenders_player_page_is_coloured_by_the_defenders_result(site: Site) -> None:
    html = httpx.get(site.url + f"/u/{site.ann}", headers={"accept-language": "en"}).text
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
    checked = 0
    for row in rows:
        m = re.search(r'class="(pg-won|pg-lost)">\s*(\S+) (won|lost) as declarer', row)
        if not m:
            continue
        cls, name, result = m.groups()
        ann_won = (result == "won") == (name == site.ann)
        assert cls == ("pg-won" if ann_won else "pg-lost"), row
        checked += name != site.ann
    assert checked >= 1  # a game in which Ann defended


def test_the_game_page_names_the_rules_and_the_bid_in_words(site: Site) -> None:
    games = httpx.get(site.url + f"/api/tables/{site.skat}/list").json()
    assert games
    player = httpx.get(site.url + f"/u/{site.ann}", headers={"accept-language": "de"}).text
    keys = re.findall(r'href="/games/([^"?]+)"', player)
    assert keys
    for key in keys:
        page = httpx.get(site.url + f"/games/{key}", headers={"accept-language": "de"}).text
        assert "skat(preset=" not in page and "preset=lothar" not in page
        assert "Lothars Regeln" in page
    shown = re.sub(r"<script.*?</script>", "", player, flags=re.S)
    assert "Ansage" not in shown and "skat(preset=" not in shown


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_replay_shows_the_cards_in_the_persons_card_style(
        site: Site, browser: Browser, viewport: dict[str, int]) -> None:
    player = httpx.get(site.url + f"/u/{site.ann}").text
    key = re.findall(r'href="/games/([^"?]+)"', player)[-1]
    ctx = browser.new_context(viewport=viewport, locale="de-DE")  # type: ignore[arg-type]
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        for style, want, never in (("german", r"^(Eichel|Grün|Herz|Schellen) ", "♣♠♦"),
                                   ("french4", r"^(Kreuz|Pik|Herz|Karo) ", "")):
            page.goto(site.url + "/")
            page.evaluate(f"localStorage.setItem('stich.style', '{style}')")
            page.goto(site.url + f"/games/{key}")
            page.wait_for_selector(".pg-hands .tcard")
            cards = page.locator(".pg-hands .tcard")
            assert cards.count() >= 10
            for i in range(min(cards.count(), 12)):
                el = cards.nth(i)
                label = el.get_attribute("aria-label") or ""
                assert re.match(want, label), (style, label)
                text = el.inner_text()
                assert not any(ch in text for ch in never), (style, text)
                box = el.bounding_box()
                assert box is not None and box["x"] >= 0 \
                    and box["x"] + box["width"] <= viewport["width"], box
            if style == "german":
                assert page.locator(".pg-hands .tcard svg.suit").count() >= 10
        assert errors == []
    finally:
        ctx.close()
