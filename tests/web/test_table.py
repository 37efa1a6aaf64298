"""The table in a real browser (Debian's Chromium): whole games played by clicks, Ramsch,
Baptistenskat with its Anschreibezettel, reload and a dropped connection, phone and
desktop sizes, German and English.  Screenshots go to ``tests/web/output/``."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Browser, Page

from stich.record import verify
from stich.web.i18n import catalog
from tests.server.harness import Server
from tests.web.browser import DESKTOP, PHONE, person, shot, state, step, table_id


def _create(page: Page, *, game: str = "skat", seats: list[str] | None = None,
            games: str = "3", players: int = 4, max_cards: str = "", deck: str = "",
            variants: tuple[str, ...] = ()) -> str:
    """Open a table with the lobby's form; returns its id (the page is at the table)."""
    page.goto(page.url.split("/t/")[0].rstrip("/") + "/" if "/t/" in page.url else page.url)
    page.wait_for_selector("#create")
    if game == "baptisten":
        page.select_option("#game", "baptisten")
        page.fill("#players", str(players))
        if max_cards:
            page.fill("input[name=max_cards]", max_cards)
        if deck:
            page.select_option("select[name=deck]", deck)
        for v in variants:
            page.check(f"input[name=variants][value='{v}']")
        scope = ".for-baptisten"
    else:
        page.select_option("select[name=games]", games)
        scope = ".for-skat"
    for i, s in enumerate(seats or []):
        page.select_option(f"{scope} select[name=seat{i}]", s)
    page.click("#create button[type=submit]")
    page.wait_for_function("() => location.pathname.startsWith('/t/') ||"
                           " document.querySelector('#create .error')")
    err = page.query_selector("#create .error")
    assert err is None, err.inner_text()
    page.wait_for_url(re.compile(r".*/t/.*"))
    page.wait_for_selector(".tableview")
    return table_id(page)


def _join(page: Page, url: str) -> None:
    page.goto(url)
    page.click(".join button")
    page.wait_for_function("() => window.stichTable?.state.you != null")


def _play(pages: list[Page], done: Any, *, bid: str = "18", limit: int = 400) -> list[str]:
    moves: list[str] = []
    for _ in range(limit):
        if done():
            return moves
        acted = False
        for p in pages:
            if done():
                return moves
            m = step(p, bid=bid)
            if m:
                moves.append(m)
                acted = True
        if not acted:
            pages[0].wait_for_timeout(60)
    raise AssertionError(f"no end after {len(moves)} moves")


def _show_result(page: Page) -> None:
    """The last game's result in view: as it opened after the game, or (when this page's
    person already tapped "Weiter" while the others played on) through "Ergebnis"."""
    page.wait_for_function("() => window.stichTable.state.endStage === 'result'")
    if not page.is_visible(".layer-result .headline"):
        page.click(".tablebar button:has-text('Ergebnis')")
    page.wait_for_selector(".layer-result .headline")


def _no_page_errors(*pages: Page) -> None:
    for p in pages:
        assert p.errors == [], p.errors  # type: ignore[attr-defined]


def test_three_people_play_a_whole_skat_game_by_clicks(site: Server, browser: Browser) -> None:
    (ca, a), (cb, b), (cc, c) = (person(browser, site.url, n) for n in ("Anna", "Bernd", "Clara"))
    tid = _create(a, seats=["me", "person", "person"], games="3")
    invite = a.url
    _join(b, invite)
    _join(c, invite)
    pages = [a, b, c]
    for p in pages:
        p.wait_for_function("() => window.stichTable?.state.view?.phase")
    shot(a, "skat-bidding-desktop")
    moves = _play(pages, lambda: all(state(p)["result"] for p in pages))
    # bidding, pick-up, pushing two cards, declaring, and all ten tricks, by clicks
    assert moves.count("card") == 30, moves
    for m in ("bid", "pickup", "discard", "declare"):
        assert m in moves, moves
    line = state(a)["result"]
    assert line["kind"] == "game"
    _show_result(a)
    shot(a, "skat-result-desktop")
    a.click(".layer-result button.next")
    # the list on the page is the table's list, and the record replays to it
    a.click(".tablebar button:has-text(\"Liste\")")
    a.wait_for_selector(".skat-list")
    shot(a, "skat-list-desktop")
    lst = a.request.get(f"{site.url}/api/tables/{tid}/list").json()["list"]
    rows = a.query_selector_all(".skat-list tfoot tr")
    punkte = [td.inner_text() for td in rows[0].query_selector_all("td")]
    bilanz = [td.inner_text() for td in rows[1].query_selector_all("td")]
    # (negative numbers with a real minus sign)
    assert punkte == [str(x).replace("-", "−") for x in lst["punktestand"]]
    assert bilanz == [f"+{x}" if x > 0 else str(x).replace("-", "−") for x in lst["bilanz"]]
    assert [int(x.replace("−", "-")) for x in punkte] == line["totals"]
    assert sum(1 for x in lst["bilanz"]) == 3 and lst["games"][0]["scores"] == line["scores"]
    games = a.request.get(f"{site.url}/api/tables/{tid}/games").json()["games"]
    rec = a.request.get(f"{site.url}/api/games/{games[0]['id']}").json()["record"]
    verify(rec)  # raises when the record does not replay to its stored result
    assert rec["result"]["won"] == line["won"] and rec["result"]["value"] == line["value"]
    for p in pages:
        applied = state(p)["applied"]
        numbers = [x for x in applied if isinstance(x, int)]
        assert numbers == sorted(set(numbers)), applied  # nothing twice, in order
    _no_page_errors(*pages)
    for ctx in (ca, cb, cc):
        ctx.close()


def test_all_pass_becomes_ramsch(site: Server, browser: Browser) -> None:
    (ca, a), (cb, b), (cc, c) = (person(browser, site.url, n) for n in ("Dora", "Emil", "Frida"))
    _create(a, seats=["me", "person", "person"], games="3")
    _join(b, a.url)
    _join(c, a.url)
    pages = [a, b, c]
    for p in pages:
        p.wait_for_function("() => window.stichTable?.state.view?.phase")
    # everybody passes: Ramsch is announced, played to the end, and shown as Ramsch
    _play(pages, lambda: state(a)["view"]["phase"] == "PLAY", bid="pass")
    a.wait_for_selector(".ramsch")
    assert "Ramsch" in a.inner_text(".game-info")
    shot(a, "skat-ramsch-desktop")
    _play(pages, lambda: all(state(p)["result"] for p in pages), bid="pass")
    assert state(a)["result"]["kind"] == "ramsch"
    _show_result(a)
    title = a.inner_text(".result .headline")
    assert title.startswith("Ramsch")
    assert ("Durchmarsch" in title) == bool(state(a)["result"]["result"]["durchmarsch"])
    # the next game's bidding is no Ramsch: the banner is gone
    _play(pages, lambda: state(a)["view"]["number"] == 2
          and state(a)["view"]["phase"] == "BIDDING", bid="pass")  # each says "Weiter"
    if a.is_visible(".layer-result button.next"):
        a.click(".layer-result button.next")
    assert a.query_selector(".game-info .ramsch") is None
    assert "Ramsch" not in a.inner_text(".game-info")
    _no_page_errors(*pages)
    for ctx in (ca, cb, cc):
        ctx.close()


def test_baptistenskat_with_two_bots_to_the_end(site: Server, browser: Browser) -> None:
    """4 players (2 bots), N = 3, variants 2 (forehead rounds) and 5 (must overtrump):
    finished by clicks; the Anschreibezettel on the page is the engine's scoresheet."""
    (ca, a), (cb, b) = (person(browser, site.url, n) for n in ("Gerd", "Hanna"))
    tid = _create(a, game="baptisten", players=4, max_cards="3", variants=("2", "5"),
                  seats=["me", "person", "bot:easy", "bot:random"])
    _join(b, a.url)
    pages = [a, b]
    a.wait_for_function("() => window.stichTable?.state.view")
    seen_forehead = False
    seen_hook = False

    def over() -> bool:
        nonlocal seen_forehead, seen_hook
        for p in pages:
            v = state(p)["view"]
            seen_forehead |= any(o for o in v["others"])
            seen_hook |= v["hooked"] is not None and v["hooked"] >= 0 and bool(v["legal"])
        return state(a)["table"]["status"] == "over"

    moves = _play(pages, over, limit=600)
    assert "bid" in moves and ("card" in moves or "play" in moves)
    assert seen_forehead  # variant 2: a one-card round showed the others' cards
    a.wait_for_selector(".zettel")
    sheet = a.request.get(f"{site.url}/api/tables/{tid}/sheet").json()["sheet"]
    assert sheet["rules"].endswith("variants=2+5)")
    # the page's Anschreibezettel: names in draw order, first players' initials, per
    # round bid/stake and running totals, exactly the engine's sheet
    head = [th.inner_text() for th in a.query_selector_all(".zettel thead th")][2:]
    assert head == sheet["players"]
    body = a.query_selector_all(".zettel tbody tr")
    assert len(body) == len(sheet["rounds"])
    for tr, r in zip(body, sheet["rounds"], strict=True):
        tds = tr.query_selector_all("td")
        assert tds[1].inner_text() == sheet["players"][r["first"]][0].upper()
        for e in r["entries"]:
            cell = tds[2 + e["player"]].inner_text().split("\n")
            assert cell[0] == f"{e['bid']}/{e['stake']}" + ("!" if e["forced"] else "")
            assert cell[-1] == str(e["total"])
    shot(a, "baptisten-over-desktop")
    _no_page_errors(*pages)
    for ctx in (ca, cb):
        ctx.close()


def test_reload_and_a_dropped_connection_lose_nothing(site: Server, browser: Browser) -> None:
    ca, a = person(browser, site.url, "Ida")
    _create(a, seats=["me", "bot:easy", "bot:random"], games="3")
    a.wait_for_function("() => window.stichTable?.state.view")
    # play into the card play, until a trick is half done and it is Ida's turn (read from
    # one snapshot: between two reads a bot may finish the trick, and then the page shows
    # the taken trick while the view's trick is empty)
    def half_a_trick_and_my_turn() -> bool:
        v = state(a)["view"]
        return v["phase"] == "PLAY" and bool(v["trick"]) and v["legal"] != []

    _play([a], half_a_trick_and_my_turn)
    before = state(a)["view"]
    a.reload()
    a.wait_for_function("() => window.stichTable?.state.view")
    after = state(a)["view"]
    assert after["hand"] == before["hand"] and after["trick"] == before["trick"]
    assert after["tricks"] == before["tricks"]
    assert len(a.query_selector_all(".hand > .card")) == len(before["hand"])
    assert len(a.query_selector_all(".trick .slot > .card")) == len(before["trick"])
    # the socket dies: the page reconnects with the last number it saw and goes on
    a.evaluate("() => window.stichTable.conn.ws.close()")
    a.wait_for_function("() => window.stichTable?.state.status === 'open'", timeout=15000)
    _play([a], lambda: bool(state(a)["result"]))
    applied = state(a)["applied"]
    numbers = [x for x in applied if isinstance(x, int)]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers))), applied
    assert state(a)["result"]["kind"] in ("game", "ramsch", "passed")
    _no_page_errors(a)
    ca.close()


def test_an_illegal_card_says_why_and_changes_nothing(site: Server, browser: Browser) -> None:
    ctx, a = person(browser, site.url, "Mia")
    _create(a, seats=["me", "bot:easy", "bot:easy"], games="0")

    def choosing_with_an_illegal_card() -> bool:
        v = state(a)["view"]
        return v is not None and v["phase"] == "PLAY" and bool(v["legal"]) \
            and len(v["legal"]) < len(v["hand"])

    _play([a], choosing_with_an_illegal_card, limit=800)
    seq = state(a)["seq"]
    card = a.query_selector(".hand > button.card.illegal")
    assert card is not None and "nicht spielbar" in (card.get_attribute("aria-label") or "")
    card.click()
    a.wait_for_function("() => window.stichTable?.state.error")
    reason = a.inner_text(".error-line")
    assert "bedienen" in reason or "Trumpf" in reason or "muss" in reason, reason
    assert state(a)["seq"] == seq  # nothing happened at the table
    assert card.get_attribute("data-code") in state(a)["view"]["hand"]
    shot(a, "skat-illegal-card-desktop")
    _no_page_errors(a)
    ctx.close()


def _fits(page: Page) -> None:
    """Nothing wider than the window."""
    width = page.evaluate("() => document.documentElement.scrollWidth")
    wide = page.evaluate("() => [...document.querySelectorAll('body *')].filter(e =>"
                         " e.getBoundingClientRect().right > innerWidth + 0.5).slice(0, 5)"
                         ".map(e => e.tagName + '.' + e.className)")
    assert width <= page.viewport_size["width"], (width, wide)  # type: ignore[index]


def _inside(page: Page) -> None:
    """Nothing wider than the window; every card of the hand can be tapped."""
    # the hand as the person sees it (on a loaded machine the page may still be drawing
    # the view it was just sent)
    page.wait_for_function("() => document.querySelectorAll('.hand > button.card').length > 0",
                           timeout=15000)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    wide = page.evaluate("() => [...document.querySelectorAll('body *')].filter(e =>"
                         " e.getBoundingClientRect().right > innerWidth + 0.5).slice(0, 5)"
                         ".map(e => e.tagName + '.' + e.className)")
    assert width <= page.viewport_size["width"], (width, wide)  # type: ignore[index]
    # in one step of the page (bots keep moving): each card inside the window, and the
    # visible left part of it gets the tap
    bad = page.evaluate("""() => {
        document.getAnimations().forEach(a => a.finish());
        const out = [];
        const cards = [...document.querySelectorAll('.hand > button.card')];
        for (const c of cards) {
            c.scrollIntoView({block: 'center', inline: 'nearest'});
            const r = c.getBoundingClientRect();
            if (r.left < 0 || r.right > innerWidth + 0.5) out.push(['outside', c.dataset.code]);
            const hit = document.elementFromPoint(r.left + 6, r.top + r.height / 2);
            if (!hit || hit.closest('button.card') !== c) out.push(['hidden', c.dataset.code]);
        }
        return [cards.length, out];
    }""")
    assert bad[0] > 0 and bad[1] == [], bad


def test_phone_and_desktop_sizes(site: Server, browser: Browser) -> None:
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        ctx, page = person(browser, site.url, f"Jo{name}", viewport=size)
        shot(page, f"lobby-{name}")
        _fits(page)
        page.select_option("#game", "baptisten")
        page.fill("#players", "15")
        _fits(page)
        _create(page, seats=["me", "bot:easy", "bot:easy"], games="3")
        page.wait_for_function("() => window.stichTable?.state.view")
        # the widest moment: twelve cards in the hand while putting two away
        _play([page], lambda p=page: state(p)["view"]["phase"] in ("DISCARD", "PLAY")
              and bool(state(p)["view"]["legal"]))
        shot(page, f"skat-{name}")
        _inside(page)
        ctx.close()
        ctx, page = person(browser, site.url, f"Ka{name}", viewport=size)
        _create(page, game="baptisten", players=15, max_cards="5", deck="romme-double-joker",
                seats=["me"] + ["bot:random"] * 14)
        page.wait_for_function("() => window.stichTable?.state.view")
        _play([page], lambda p=page: state(p)["view"]["phase"] == "PLAY"
              and bool(state(p)["view"]["legal"]) and state(p)["view"]["cards"] >= 3,
              limit=300)
        shot(page, f"baptisten15-{name}")
        _inside(page)
        _no_page_errors(page)
        ctx.close()


def _english_leftovers(text: str) -> list[str]:
    """Message ids (English) that show on a German page although German differs."""
    out = []
    for m in catalog("de"):
        mid = str(m.id)
        if not m.id or not m.string or m.string == mid or "{" in mid or len(mid) < 8:
            continue
        if mid in text:
            out.append(mid)
    return out


def test_german_and_english_pages(site: Server, browser: Browser) -> None:
    ctx, page = person(browser, site.url, "Lena")
    page.wait_for_selector("h2:has-text('Offene Tische')")  # the list comes after the form
    text = page.inner_text("body")
    assert "Neuer Tisch" in text and "Offene Tische" in text
    assert _english_leftovers(text) == []
    _create(page, seats=["me", "bot:easy", "bot:easy"], games="3")
    page.wait_for_function("() => window.stichTable?.state.view")
    assert _english_leftovers(page.inner_text("body")) == []
    assert "Dein Gebot" in page.inner_text("body") or "ist dran" in page.inner_text("body")
    # English on request, and it stays
    page.goto(page.url + "&lang=en")
    page.wait_for_function("() => window.stichTable?.state.view")
    en = page.inner_text("body")
    assert "Last trick" in en and "Letzter Stich" not in en
    page.goto(site.url + "/")
    page.wait_for_selector("h2:has-text('Open tables')")
    assert "Open tables" in page.inner_text("body")
    # switching the language keeps the page's other parameters
    page.goto(site.url + "/bestenliste?preset=isko&period=year&lang=en")
    page.click(".langs a[hreflang=de]")
    page.wait_for_url(re.compile(r".*lang=de.*"))
    assert "preset=isko" in page.url and "period=year" in page.url
    assert "Bestenliste" in page.inner_text("h1")
    assert json.loads(page.inner_text("#strings"))  # the scripts' texts came along
    _no_page_errors(page)
    ctx.close()
