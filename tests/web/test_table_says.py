"""What the table says (issue 40, points 6–8), at 390×844 and 1280×800, against the real
server:

- a Baptistenskat table that is over shows its final ranking (places as the server ranks
  them: equal totals share a place, the same places as the printed Zettel and the
  Bestenliste), in the last round's panel and on the table;
- a move the turn clock made is said at the table, to everybody there, with the card's
  name; the clock's time (the move's and the reserve's together) is explained beside
  one's own clock, in the menu and under the lobby's "Bedenkzeit";
- a declaration worth the bid only with Schneider or Schwarz says so on its button, in
  words a phone shows (not only in a tooltip).

Screenshots go to ``tests/web/output/``."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.server.harness import Server
from tests.web.browser import DESKTOP, PHONE, in_view, person, shot, state, step
from tests.web.test_skat_table import _of, _wire
from tests.web.test_table import _create, _join

SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]

# the German card names of the German-suited Skat cards (the table's default style)
SUIT_DE = {"C": "Eichel", "S": "Grün", "H": "Herz", "D": "Schellen"}
RANK_DE = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "Unter", "Q": "Ober", "K": "König",
           "A": "Daus"}
SKAT_CARD = re.compile(r"^[CSHD][789TJQKA]$")


def _name(size: dict[str, int]) -> str:
    return "phone" if size is PHONE else "desktop"


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return {"x": box["x"], "y": box["y"], "width": box["width"], "height": box["height"]}


def _readable(page: Page, selector: str, least: float = 12.0) -> None:
    """Every element of ``selector``: a font of at least ``least`` px, its text not cut."""
    got = page.evaluate("""(sel) => [...document.querySelectorAll(sel)].map(e => [
        parseFloat(getComputedStyle(e).fontSize), e.scrollWidth - e.clientWidth,
        e.getBoundingClientRect().width, e.textContent])""", selector)
    assert got, selector
    for size, over, width, text in got:
        assert size >= least, (selector, size, text)
        assert over <= 1 and width > 0, (selector, over, width, text)


def _no_page_errors(*pages: Page) -> None:
    for p in pages:
        assert p.errors == [], p.errors  # type: ignore[attr-defined]


def _api(page: Page, path: str) -> Any:
    return page.evaluate("async (p) => (await fetch(p)).json()", path)


# --- 6. the final ranking of a Baptistenskat table ---------------------------------------

def _bapt_table(page: Page, base: str, seats: int) -> str:
    """A Baptistenskat table of one round (N = 1), this person and bots, no clock, that
    goes on at once; the page goes there."""
    body = {"game": "baptisten", "seats": ["me"] + ["bot:random"] * (seats - 1),
            "next_after": 0, "max_cards": 1, "clock": 0}
    r = page.evaluate("async (b) => { const r = await fetch('/api/tables', {method: 'POST',"
                      " headers: {'content-type': 'application/json'}, body: JSON.stringify(b)});"
                      " return [r.status, await r.json()]; }", body)
    assert r[0] == 200, r
    page.goto(base + r[1]["invite_path"])
    page.wait_for_function("() => window.stichTable?.state.view")
    return str(r[1]["table"]["id"])


def _play_to_the_end(page: Page, seconds: float = 90.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if state(page)["table"]["status"] == "over":
            return
        if not step(page, weiter=False):
            page.wait_for_timeout(50)
    raise AssertionError(f"the table did not end: {state(page)['table']}")


def _shown_ranking(page: Page, scope: str) -> list[tuple[str, str, str]]:
    """(place, name, total) of each line of the ranking under ``scope``, as shown."""
    rows = page.evaluate("""(scope) => [...document.querySelectorAll(
        scope + ' .final-ranking tbody tr')].map(tr => [
        tr.querySelector('.place').innerText.trim(), tr.querySelector('th .nm').innerText.trim(),
        tr.querySelector('.total').innerText.trim()])""", scope)
    return [tuple(r) for r in rows]


def _zettel_places(page: Page, base: str, tid: str) -> dict[str, str]:
    """Name -> place ("1.") from the printable Zettel's "Platz" line."""
    page.goto(f"{base}/t/{tid}/zettel")
    names = [n.strip() for n in page.locator(".pg-zettel-table th.pg-name").all_inner_texts()]
    cells = page.locator(".pg-zettel-table tfoot td").all_inner_texts()
    assert len(names) == len(cells) > 0, (names, cells)
    return {n: c.split()[0] for n, c in zip(names, cells, strict=True)}


@pytest.mark.parametrize("size", SIZES)
def test_a_finished_baptistenskat_table_shows_who_won(site: Server, browser: Browser,
                                                      size: dict[str, int]) -> None:
    """Six players, one round: tables are played until one ends with equal totals (they
    share a place).  The last round's panel opens with the final ranking in view, the
    table keeps it in view once the panel is closed (and after a reload); its places are
    the server's, the Zettel's and the Bestenliste's."""
    name = _name(size)
    ctx, page = person(browser, site.url, f"Endstand{name}", viewport=size)
    try:
        tie = None
        for _ in range(12):  # a tie comes in about every third table
            tid = _bapt_table(page, site.url, 6)
            _play_to_the_end(page)
            sheet = _api(page, f"/api/tables/{tid}/sheet")["sheet"]
            ranking = sheet["ranking"]
            assert [r["total"] for r in ranking] == sorted(
                (r["total"] for r in ranking), reverse=True), ranking
            places = [r["place"] for r in ranking]
            if len(set(places)) < len(places):
                tie = (tid, sheet)
                break
        assert tie is not None, "no table ended with equal totals"
        tid, sheet = tie
        names = sheet["players"]
        want = [(f"{r['place']}.", names[r["player"]], str(r["total"]))
                for r in sheet["ranking"]]
        # the last round's panel: the ranking first, in view, readable
        panel = ".layer-bround"
        page.wait_for_selector(f"{panel} .final-ranking", timeout=10000)
        assert page.inner_text(f"{panel} .final-ranking h3") == "Endstand"
        in_view(page, f"{panel} .final-ranking")
        _readable(page, f"{panel} .final-ranking tbody th, {panel} .final-ranking tbody td",
                  least=14)
        assert _shown_ranking(page, panel) == want
        shown_places = [p for p, _, _ in _shown_ranking(page, panel)]
        assert len(set(shown_places)) < len(shown_places), shown_places  # a shared place
        first = page.evaluate(f"() => document.querySelector('{panel} .final-ranking')"
                              ".getBoundingClientRect().top")
        trick = page.evaluate(f"() => document.querySelector('{panel} .round-trick')"
                              "?.getBoundingClientRect().top ?? 1e9")
        assert first < trick  # who won comes before the round's last trick
        shot(page, f"table-says-ranking-panel-{name}")
        # closed: the table shows it, in view at the top
        page.keyboard.press("Escape")
        page.wait_for_selector(panel, state="hidden")
        page.evaluate("() => window.scrollTo(0, 0)")
        in_view(page, ".bapt > .final-ranking")
        assert _shown_ranking(page, ".bapt") == want
        assert "beendet" in page.inner_text(".banner.over")
        shot(page, f"table-says-ranking-{name}")
        # the places are the ones the site keeps: the Bestenliste's and the Zettel's
        games = _api(page, "/api/baptisten/ranking")["games"]
        game = next(g for g in games if g["table"] == tid)
        kept = {p["name"]: f"{p['place']}." for p in game["players"]}
        shown = {n: p for p, n, _ in want}
        assert shown == kept, (shown, kept)
        assert _zettel_places(page, site.url, tid) == shown
        # after a reload: the same
        page.goto(f"{site.url}/t/{tid}")
        page.wait_for_selector(".bapt > .final-ranking")
        assert _shown_ranking(page, ".bapt") == want
        _no_page_errors(page)
    finally:
        ctx.close()


# --- 7. the turn clock: the move it made, and what its time is ----------------------------

def _clock_table(page: Page, base: str, **body: Any) -> str:
    """A Skat table through the HTTP API (a clock of a few seconds, which the lobby's form
    does not offer); the page goes there."""
    r = page.request.post(f"{base}/api/tables",
                          data={"game": "skat", "games": 3, "next_after": 0, **body})
    assert r.ok, r.text()
    d = r.json()
    page.goto(base + d["invite_path"])
    page.wait_for_function("() => window.stichTable?.state.table")
    return str(d["table"]["id"])


@pytest.mark.parametrize("size", SIZES)
def test_a_card_the_clock_played_is_said_at_the_table(site: Server, browser: Browser,
                                                      size: dict[str, int]) -> None:
    """Two people and a bot, 3 s a move and 1 s of reserve.  Both bid by clicks; then
    Anna stops playing and the clock plays her cards.  Both pages say so at the top, with
    the card's name (Anna's own page: "für dich"; the other's, in English: "for Anna"),
    in view also when scrolled down to the cards, and still a few seconds later."""
    name = _name(size)
    ca, a = person(browser, site.url, f"Anna{name}", viewport=size)
    cb, b = person(browser, site.url, f"Bert{name}", viewport=size, locale="en-GB")
    try:
        wire = _wire(a)
        _clock_table(a, site.url, seats=["me", "person", "bot:easy"], clock=3, bank=1)
        _join(b, a.url)
        a.wait_for_function("() => window.stichTable?.state.view")
        me = state(a)["you"]

        def clock_cards() -> list[Any]:
            return [m for m in _of(wire["got"], "event") if m["kind"] == "act"
                    and m["seat"] == me and (m.get("data") or {}).get("by") == "clock"
                    and SKAT_CARD.match(str(m["data"].get("text")))]

        # the bidding by clicks (Anna passes, so she never declares), then Anna waits
        end = time.monotonic() + 90
        while not clock_cards():
            assert time.monotonic() < end, "the clock never played a card for Anna"
            v = state(a)["view"]
            acted = bool(step(b, bid="pass"))
            if v and v["phase"] == "BIDDING" and v["legal"]:
                acted = bool(step(a, bid="pass")) or acted
            if not acted:
                a.wait_for_timeout(50)
        card = str(clock_cards()[0]["data"]["text"])
        words = f"{SUIT_DE[card[0]]} {RANK_DE[card[1]]}"
        note = ".banner.clock-note"
        a.wait_for_selector(note)
        assert a.inner_text(note) == f"Zeit abgelaufen: für dich wurde {words} gespielt.", \
            a.inner_text(note)
        b.wait_for_selector(note)
        english = b.evaluate("async (c) => (await import('/static/js/cards.js'))"
                             ".cardLabel(c, {style: 'german', lang: 'en'})", card)
        assert b.inner_text(note) == f"Time is up: {english} was played for Anna{name}.", \
            b.inner_text(note)
        for p in (a, b):
            in_view(p, note)
            _readable(p, note, least=14)
            assert p.get_attribute(note, "role") == "status"
        shot(a, f"table-says-clock-move-{name}")
        # scrolled down to the cards: still in view, at the top
        for p in (a, b):
            p.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
        a.wait_for_timeout(2500)
        for p in (a, b):
            in_view(p, note)
            assert p.locator(note).count() == 1
        shot(b, f"table-says-clock-move-other-{name}")
        _no_page_errors(a, b)
    finally:
        cb.close()
        ca.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_clocks_reserve_is_explained(site: Server, browser: Browser,
                                         size: dict[str, int]) -> None:
    """"Bedenkzeit 30 s" makes the clock show 1:30: the lobby's form says why under the
    choice (in German and English), one's own clock says "30 s je Zug + 60 s Reserve"
    beside it, and the menu (⋯) says the whole rule: all as text a phone shows."""
    name = _name(size)
    ctx, page = person(browser, site.url, f"Reserve{name}", viewport=size)
    try:
        # the lobby's form: under "Bedenkzeit", what it means
        help_ = "#clock-help"
        page.select_option("#clock", "30")
        page.locator(help_).scroll_into_view_if_needed()
        in_view(page, help_)
        _readable(page, help_)
        said = page.inner_text(help_)
        assert "30 s für jeden Zug" in said and "Reserve von 60 s je Spiel" in said, said
        assert "Bot" in said, said
        page.select_option("#game", "baptisten")
        assert "Reserve von 60 s je Runde" in page.inner_text(help_)
        page.select_option("#game", "skat")
        page.select_option("#clock", "0")
        assert page.inner_text(help_) == ""
        page.select_option("#clock", "20")
        assert "20 s für jeden Zug" in page.inner_text(help_)
        assert page.get_attribute("#clock", "aria-describedby") == "clock-help"
        shot(page, f"table-says-clock-help-{name}")
        page.goto(site.url + "/?lang=en")
        page.select_option("#clock", "30")
        said = page.inner_text(help_)
        assert "30 s for each move" in said and "reserve of 60 s per game" in said, said
        page.goto(site.url + "/?lang=de")
        # a table made by the form with "Bedenkzeit 30 s": one's own clock shows 1:30 and
        # says what it is made of
        _create(page, seats=["me", "bot:easy", "bot:easy"], games="3")
        page.wait_for_function("() => window.stichTable?.state.view")
        assert state(page)["table"]["clock"] == 30 and state(page)["table"]["bank"] == 60
        page.wait_for_function("() => window.stichTable.state.timer?.seat"
                               " === window.stichTable.state.you", timeout=30000)
        mine = ".player.me .clock"
        page.wait_for_selector(f"{mine} .clock-explain")
        assert re.fullmatch(r"1:(30|29|28)", page.inner_text(f"{mine} .clock-text")), \
            page.inner_text(f"{mine} .clock-text")
        assert page.inner_text(f"{mine} .clock-explain") == "30 s je Zug + 60 s Reserve"
        page.locator(mine).scroll_into_view_if_needed()
        in_view(page, f"{mine} .clock-explain")
        _readable(page, f"{mine} .clock-explain")
        clock = _box(page, mine)
        explain = _box(page, f"{mine} .clock-explain")
        assert explain["x"] + explain["width"] <= clock["x"] + clock["width"] + 0.5
        shot(page, f"table-says-clock-reserve-{name}")
        # the menu: the rule in a sentence
        page.click(".tablebar button[aria-label='Mehr']")
        rule = ".layer .clock-rule"
        page.wait_for_selector(rule)
        in_view(page, rule)
        _readable(page, rule)
        said = page.inner_text(rule)
        assert "30 s für jeden Zug" in said and "Reserve von 60 s je Spiel" in said, said
        assert "die Uhr zeigt beides zusammen" in said and "Bot" in said, said
        shot(page, f"table-says-clock-menu-{name}")
        _no_page_errors(page)
    finally:
        ctx.close()


# --- 8. a value reached only with Schneider or Schwarz, on the button ----------------------

NEEDS = {"de": {"Schneider": "nur mit Schneider", "Schwarz": "nur mit Schwarz"},
         "en": {"Schneider": "only with Schneider", "Schwarz": "only with Schwarz"}}


def _needs_of(text: str) -> str | None:
    """What the server's words for a value say it needs ("Herz mit 3, Schneider: 50")."""
    m = re.search(r", (Schneider|Schwarz):", text)
    return m.group(1) if m else None


def _check_needs(page: Page, lang: str) -> int:
    """Each declare button whose value needs Schneider or Schwarz says so on a line of its
    own, readable, inside the button and the window; the others do not.  Returns how many
    say it."""
    v = state(page)["view"]
    values = v["declare_values"]
    said = 0
    for a, info in values.items():
        button = f"[data-key='a:{a}']"
        if page.query_selector(button) is None:
            continue  # (Hand / Ouvert variants the page offers another way)
        needs = _needs_of(info["text"]) if info["loss"] is None else None
        assert info.get("needs") == (needs.lower() if needs else None), (a, info)
        line = page.query_selector(f"{button} .needs-line")
        if needs is None:
            assert line is None, (a, info)
            continue
        assert line is not None and line.is_visible(), (a, info, lang)
        assert line.inner_text() == NEEDS[lang][needs], (a, line.inner_text())
        page.locator(button).scroll_into_view_if_needed()
        in_view(page, f"{button} .needs-line")
        _readable(page, f"{button} .needs-line")
        inner, outer = _box(page, f"{button} .needs-line"), _box(page, button)
        assert inner["x"] >= outer["x"] - 0.5 and inner["y"] >= outer["y"] - 0.5
        assert inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
        assert inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5
        assert NEEDS[lang][needs] in (page.get_attribute(button, "aria-label") or "")
        said += 1
    return said


@pytest.mark.parametrize("size", SIZES)
def test_schneider_needed_is_said_on_the_button(site: Server, browser: Browser,
                                                size: dict[str, int]) -> None:
    """Three people bid to 48 by clicks; the declarer picks up and puts two away.  The
    games that reach 48 only with Schneider or Schwarz (as the server counts them:
    "Herz mit 3, Schneider: 50") say "nur mit Schneider" / "nur mit Schwarz" on the
    button; in English "only with Schneider" after switching the page's language."""
    name = _name(size)
    people = [person(browser, site.url, f"Schneider{name}{k}", viewport=size) for k in "ABC"]
    pages = [p for _, p in people]
    try:
        _create(pages[0], seats=["me", "person", "person"], games="3")
        for p in pages[1:]:
            _join(p, pages[0].url)
        for p in pages:
            p.wait_for_function("() => window.stichTable?.state.view")
        said = 0
        for game in (1, 2, 3):  # (a hand with no such game at 48 is rare: the next deal)
            declarer = None
            for _ in range(400):
                declarer = next((p for p in pages if state(p)["view"]["phase"] == "DECLARE"
                                 and state(p)["view"]["legal"]), None)
                if declarer is not None:
                    break
                if not any(step(p, bid="48") for p in pages):
                    pages[0].wait_for_timeout(50)
            assert declarer is not None, f"nobody declared in game {game}"
            declarer.wait_for_selector(".declare button .value")
            v = state(declarer)["view"]
            assert v["bid"] == 48, v["bid"]
            said = _check_needs(declarer, "de")
            if said:
                break
            step(declarer)  # nothing to see in this deal: play it out, the next one
            for _ in range(600):
                if state(pages[0])["view"]["number"] > game:
                    break
                if not any(step(p) for p in pages):
                    pages[0].wait_for_timeout(50)
        assert said and declarer is not None, "no game needed Schneider or Schwarz at 48"
        shot(declarer, f"table-says-schneider-{name}")
        # the same in English
        declarer.click("header a[hreflang=en]")
        declarer.wait_for_function("() => document.documentElement.lang === 'en'"
                                   " && window.stichTable?.state.view?.declare_values")
        declarer.wait_for_selector(".declare button .value")
        assert _check_needs(declarer, "en") == said
        shot(declarer, f"table-says-schneider-en-{name}")
        _no_page_errors(*pages)
    finally:
        for ctx, _ in people:
            ctx.close()
