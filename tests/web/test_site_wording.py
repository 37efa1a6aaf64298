"""The site's words as a person reads them (issue 40, points 9–11), each at 390×844 and
1280×800 against the real server:

- a guest told where to register finds the form there and registers;
- an English page names every card the same English way (a refusal, the cards' labels,
  the result, the lists, the replay) and shows no German word but the Skat terms;
- "Runde 1: 1 Karte"; "Warten auf Anna. Nächstes Spiel in 8 s"; "Kurt Bot" with a space,
  and the site's own bot icon instead of the 🤖 emoji;
- the printed Skat list: "(verloren)" not larger than the game's name, negative numbers
  with a real minus sign, a header with the players and the date instead of the table's
  id (the Anschreibezettel too, whose legend explains its ``*``);
- the "Skat" mark of a card taken up is in view on a phone (not under the second row);
- a closed table says nobody is to move; "Noch keine Nachrichten." goes with the first
  chat line.
"""

from __future__ import annotations

import random
import re
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.server.harness import Client, Server
from tests.server.test_history import play
from tests.web.browser import DESKTOP, PHONE, in_view, person, run_apart, shot, state, step, visitor

SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:4]}"


def size_name(size: dict[str, int]) -> str:
    return "phone" if size is PHONE else "desktop"


def new_table(page: Page, base: str, **body: Any) -> str:
    """A table made through the API by the page's person (``seats`` etc. as the lobby's
    form sends them); the page goes to it."""
    body.setdefault("game", "skat")
    body.setdefault("clock", 0)
    made = page.evaluate("""async (body) => {
        const r = await fetch('/api/tables', {method: 'POST',
          headers: {'content-type': 'application/json'}, body: JSON.stringify(body)});
        return [r.status, await r.json()]; }""", body)
    assert made[0] == 200, made
    tid = str(made[1]["table"]["id"])
    page.goto(f"{base}/t/{tid}")
    return tid


def play_until(page: Page, done: Any, *, bid: str = "pass", limit: int = 800,
               weiter: bool = True) -> None:
    """This page's moves by clicks until ``done()``; bots play the others."""
    for _ in range(limit):
        if done():
            return
        if not step(page, bid=bid, weiter=weiter):
            page.wait_for_timeout(40)
    raise AssertionError("not reached")


def no_errors(*pages: Page) -> None:
    for p in pages:
        assert p.errors == [], p.errors  # type: ignore[attr-defined]


# --- a finished Skat table with a lost game and negative totals --------------------------

@dataclass
class Played:
    server: Server
    skat: str
    players: list[str]
    zettel: str
    zettel_players: list[str]

    @property
    def url(self) -> str:
        return self.server.url


def overbid_then_ramsch(v: dict[str, Any], rng: random.Random) -> str | None:
    """Game 1: the bids go up to 40 (each bids while the next bid is at most 40, and
    holds); the declarer plays Null Hand (35): lost for certain.  Games 2 and 3: all
    pass (a Ramsch at Lothar's table): somebody's total goes below zero.  Then random
    cards."""
    legal = v["legal"]
    if v["number"] > 1:
        return "pass" if "pass" in legal else None
    if v["phase"] == "BIDDING":
        numbers = [str(a) for a in legal if a.isdigit()]
        if numbers and int(numbers[0]) <= 40:
            return numbers[0]
        return "hold" if "hold" in legal else "pass"
    if "hand" in legal:
        return "hand"
    if "declare null hand" in legal:
        return "declare null hand"
    return None


@pytest.fixture(scope="module")
def played(site: Server) -> Iterator[Played]:
    people = [Client(site) for _ in range(3)]
    names = [unique("Ann"), unique("Ben"), unique("Gus")]
    people[0].register(names[0])
    for c, n in zip(people[1:], names[1:], strict=True):
        c.guest(n)

    async def skat() -> str:
        tid = people[0].create(game="skat", preset="lothar", games=3,
                               seats=["me", "person", "person"])["table"]["id"]
        for c in people[1:]:
            assert c.post(f"/api/tables/{tid}/join", {}).status_code == 200
        sockets = [await c.connect(tid) for c in people]
        await play(sockets, random.Random(7), overbid_then_ramsch)
        for ws in sockets:
            await ws.close()
        return str(tid)

    tid = run_apart(skat(), 180)
    games = people[0].get(f"/api/tables/{tid}/list").json()["list"]["games"]
    assert games[0]["result"]["game"] == "null" and games[0]["won"] is False, games[0]
    # a Baptistenskat table whose person left at once: bots play every round for her
    host = Client(site)
    host.guest(unique("Hedi"))
    made = host.create(game="baptisten", seats=["me", "bot:random", "bot:random"],
                       max_cards=2)
    zid = str(made["table"]["id"])
    assert host.post(f"/api/tables/{zid}/leave", {}).status_code == 200
    t0 = time.monotonic()
    while host.get(f"/api/tables/{zid}").json()["table"]["status"] != "over":
        assert time.monotonic() - t0 < 120, "the bots did not finish"
        time.sleep(0.2)
    zplayers = [s["name"] for s in host.get(f"/api/tables/{zid}").json()["table"]["seats"]]
    try:
        yield Played(site, tid, names, zid, zplayers)
    finally:
        for c in (*people, host):
            c.close()


# --- point 9: where a guest registers -----------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_a_guest_finds_the_register_form_where_the_words_say(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    name = unique("Gast")
    ctx, page = person(browser, site.url, name, viewport=size)
    try:
        # the guest's own name at the top leads to the account page, which says so …
        page.click("header.top a.me")
        page.wait_for_selector("#account")
        note = page.locator("#account .panel p.muted").first
        assert "Registriere dich hier" in note.inner_text(), note.inner_text()
        # … and shows the form right there, in view once scrolled to, with the name
        form = page.locator("form#register")
        assert form.count() == 1, "no register form where the words point"
        form.scroll_into_view_if_needed()
        in_view(page, "form#register button[type=submit]")
        assert page.input_value("form#register input[name=name]") == name
        shot(page, f"wording-register-{size_name(size)}")
        page.fill("form#register input[name=password]", "geheim123")
        page.click("form#register button[type=submit]")
        # registered: no "Gast" tag, the way to one's games, a password to change
        page.wait_for_selector("form#password")
        assert page.locator("#account h2 .tag").count() == 0
        assert page.locator(f'a[href="/u/{name}"]').count() == 1
        me = page.evaluate("async () => (await fetch('/api/me')).json()")
        assert me["user"]["name"] == name and not me["user"]["guest"], me
        no_errors(page)
    finally:
        ctx.close()


# --- point 10: English pages in English ---------------------------------------------------

# German words that must not be on an English page (the Skat terms stay: Vorhand, Grand,
# Null, Hand, Ramsch, Schneider, Bilanz, the suit names of a game such as "Herz" …)
GERMAN = ("Punktestand", "Spiel", "Spiele", "Karte", "Karten", "Runde", "Warten", "Weiter",
          "nächstes", "Ergebnis", "verloren", "gewonnen", "Stich", "Stiche", "Tisch", "Gast",
          "Liste", "Summe", "Wert", "Geber", "Alleinspieler", "Spieler", "gereizt", "Augen",
          "Zurück", "Schließen", "Punkte", "Nachrichten", "dran", "und", "nicht", "mit",
          "ohne", "Unter", "Ober", "Daus", "Ass", "Bube", "Dame", "König", "Zehn")
GERMAN_RE = re.compile(r"(?<![\w-])(" + "|".join(GERMAN) + r")(?![\w-])")
CARD_EN = re.compile(r"^(seven|eight|nine|ten|jack|queen|king|ace) of "
                     r"(clubs|spades|hearts|diamonds)$")


def german_words(page: Page, selector: str = "body") -> list[str]:
    text = page.inner_text(selector)
    return sorted(set(GERMAN_RE.findall(text)))


def card_labels(page: Page, selector: str) -> list[str]:
    return list(page.evaluate(
        "(sel) => [...document.querySelectorAll(sel)].map(e => (e.getAttribute('aria-label')"
        " || '').replace(/ \\(.*\\)$/, ''))", selector))


@pytest.mark.parametrize("size", SIZES)
def test_an_english_refusal_names_the_cards_as_the_cards_say(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    """The server's refusal names the cards the way their labels do ("jack of clubs"),
    not the German way ("Eichel Unter") beside English labels."""
    ctx, page = person(browser, site.url, unique("Eng"), viewport=size, locale="en-US")
    try:
        assert page.evaluate("document.documentElement.lang") == "en"
        new_table(page, site.url, seats=["me", "bot:easy", "bot:easy"], games=3)
        page.wait_for_function("() => window.stichTable?.state.view")

        def choosing_with_an_illegal_card() -> bool:
            v = state(page)["view"]
            return v is not None and v["phase"] == "PLAY" and bool(v["legal"]) \
                and len(v["legal"]) < len(v["hand"])

        play_until(page, choosing_with_an_illegal_card)
        # every card's label is English ("jack of clubs") …
        hand = card_labels(page, ".hand button.card")
        assert hand and all(CARD_EN.match(label) for label in hand), hand
        page.locator(".hand > button.card.illegal").first.click()
        page.wait_for_function("() => window.stichTable?.state.error")
        # … and the refusal names the cards that may be played the same way
        reason = page.inner_text(".error-line")
        in_view(page, ".error-line")
        assert reason.startswith("You must follow "), reason
        named = reason.split(": you hold ", 1)[1].split(", ")
        playable = card_labels(page, ".hand > button.card:not(.illegal)")
        assert sorted(named) == sorted(playable), (reason, playable)
        suit = reason.removeprefix("You must follow ").split(":")[0]
        assert suit == "trump" or all(n.endswith(" of " + suit) for n in named), reason
        assert german_words(page, ".error-line") == [], reason
        shot(page, f"wording-en-refusal-{size_name(size)}")
        no_errors(page)
    finally:
        ctx.close()


@pytest.mark.parametrize("size", SIZES)
def test_english_pages_show_no_german_words(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    """With locale en-US: the lobby, the table, a game's result, the list at the table, the
    printable list and the game's page with its replay: no German word (the Skat terms
    stay), every card labelled in English."""
    ctx, page = person(browser, site.url, unique("Eng"), viewport=size, locale="en-US")
    try:
        assert page.evaluate("document.documentElement.lang") == "en"
        assert german_words(page) == []
        tid = new_table(page, site.url, seats=["me", "bot:easy", "bot:easy"], games=3,
                        next_after=60)
        page.wait_for_function("() => window.stichTable?.state.view")
        assert german_words(page) == [], page.inner_text("body")
        # the game's end: the result, the list
        play_until(page, lambda: bool(state(page)["result"]), weiter=False)
        page.wait_for_selector(".layer-result .headline", timeout=10000)
        assert german_words(page) == [], page.inner_text(".layer-result")
        dealt = card_labels(page, ".layer-result .deal-cards .card")
        assert len(dealt) >= 30 and all(CARD_EN.match(x) for x in dealt), dealt
        shot(page, f"wording-en-result-{size_name(size)}")
        page.keyboard.press("Escape")
        page.click(".tablebar button:has-text('List')")
        page.wait_for_selector(".layer .skat-list")
        assert german_words(page) == [], page.inner_text(".layer .list")
        assert "Total score" in page.inner_text(".layer .skat-list tfoot")
        shot(page, f"wording-en-list-{size_name(size)}")
        # the printable list, the game's page with its replay
        page.goto(f"{site.url}/t/{tid}/list")
        assert german_words(page) == [], page.inner_text("main")
        key = page.evaluate(f"async () => (await (await fetch('/api/tables/{tid}/games'))"
                            ".json()).games[0].id")
        page.goto(f"{site.url}/games/{key}")
        page.wait_for_selector(".pg-hands .tcard")
        assert german_words(page) == [], page.inner_text("main")
        shown = card_labels(page, ".pg-hands .tcard")
        assert len(shown) >= 30 and all(CARD_EN.match(x) for x in shown), shown
        no_errors(page)
    finally:
        ctx.close()


# --- point 11: the small things -----------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_round_one_says_one_card(site: Server, browser: Browser, size: dict[str, int]) -> None:
    for locale, want in (("de-DE", "Runde 1: 1 Karte"), ("en-US", "Round 1: 1 card")):
        ctx, page = person(browser, site.url, unique("Eins"), viewport=size, locale=locale)
        try:
            new_table(page, site.url, game="baptisten", max_cards=3,
                      seats=["me", "bot:easy", "bot:easy"])
            page.wait_for_function("() => window.stichTable?.state.view?.round === 1")
            info = page.locator(".bapt .game-info")
            assert info.inner_text().strip() == want, info.inner_text()
            in_view(page, ".bapt .game-info")
            if locale == "de-DE":
                shot(page, f"wording-round-one-card-{size_name(size)}")
            no_errors(page)
        finally:
            ctx.close()


@pytest.mark.parametrize("size", SIZES)
def test_waiting_and_the_countdown_are_two_sentences(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    me = unique("Anna")
    ctx, page = person(browser, site.url, me, viewport=size)
    try:
        new_table(page, site.url, seats=["me", "bot:easy", "bot:easy"], games=3,
                  next_after=30)
        page.wait_for_function("() => window.stichTable?.state.view")
        play_until(page, lambda: bool(state(page)["result"]), weiter=False)
        page.wait_for_function("() => /[0-9]+ s$/.test(document.querySelector("
                               "'.middle .between')?.textContent || '')", timeout=10000)
        line = page.inner_text(".middle .between").strip()
        assert re.fullmatch(rf"Warten auf {me}\. Nächstes Spiel in \d+ s", line), line
        foot = page.inner_text(".layer-result .result-foot .countdown").strip()
        assert re.fullmatch(r"Nächstes Spiel in \d+ s", foot), foot
        no_errors(page)
    finally:
        ctx.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_bots_name_and_its_mark_stand_apart(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    """In the waiting room "Kurt Bot", never "KurtBot": a space between, and apart on the
    screen too."""
    ctx, page = person(browser, site.url, unique("Warte"), viewport=size)
    try:
        new_table(page, site.url, seats=["me", "person", "bot:easy"], games=3)
        page.wait_for_selector(".seats-waiting .tag")
        row = page.locator(".seats-waiting li").nth(2)
        bot = page.evaluate("() => window.stichTable.state.table.seats[2].name")
        text = row.inner_text()
        assert re.search(rf"\b{bot} Bot\b", text), text
        got = page.evaluate("""() => {
            const li = document.querySelectorAll('.seats-waiting li')[2];
            const tag = li.querySelector('.tag');
            const r = document.createRange();
            r.selectNodeContents(tag.parentElement.firstChild);  // the name's text
            const t = tag.getBoundingClientRect();
            return {gap: t.left - r.getBoundingClientRect().right, left: t.left,
                    right: t.right, top: t.top, bottom: t.bottom}; }""")
        assert got["gap"] >= 3, got
        vp = page.viewport_size
        assert vp is not None
        assert got["left"] >= 0 and got["right"] <= vp["width"], got
        assert got["top"] >= 0 and got["bottom"] <= vp["height"], got
        shot(page, f"wording-waiting-bot-{size_name(size)}")
        no_errors(page)
    finally:
        ctx.close()


@pytest.mark.parametrize("size", SIZES)
def test_bots_are_marked_with_the_sites_icon_not_an_emoji(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    """The open tables in the lobby mark a bot with the site's own SVG (sized to the
    text), never with 🤖, which a machine without an emoji font shows as an empty box."""
    ctx, page = person(browser, site.url, unique("Icon"), viewport=size)
    try:
        tid = new_table(page, site.url, seats=["me", "person", "bot:easy"], games=3)
        page.goto(site.url + "/")
        row = page.locator(f"tr:has(a[href='/t/{tid}'])")
        row.wait_for()
        assert "🤖" not in page.inner_text("body")
        icon = row.locator("img.bot-icon")
        assert icon.count() == 1
        icon.scroll_into_view_if_needed()
        got = page.evaluate("""(tid) => {
            const img = document.querySelector(`tr:has(a[href='/t/${tid}']) img.bot-icon`);
            const r = img.getBoundingClientRect();
            const font = parseFloat(getComputedStyle(img.parentElement).fontSize);
            return {src: img.getAttribute('src'), loaded: img.complete && img.naturalWidth > 0,
                    alt: img.alt, w: r.width, h: r.height, font,
                    before: img.previousSibling?.textContent}; }""", tid)
        assert got["src"].startswith("/static/icons/") and got["src"].endswith(".svg"), got
        assert got["loaded"] and got["alt"] == "Bot", got
        assert 0.9 * got["font"] <= got["h"] <= 1.4 * got["font"], got
        assert got["w"] >= 10, got
        assert got["before"].endswith(" "), got  # "Kurt <icon>", never "Kurt<icon>"
        svg = httpx.get(site.url + got["src"])
        assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg")
        shot(page, f"wording-lobby-bot-icon-{size_name(size)}")
        no_errors(page)
    finally:
        ctx.close()


def list_numbers(page: Page, selector: str) -> list[str]:
    """The figures of the cells under ``selector`` that hold a number with a sign."""
    cells = page.evaluate("(sel) => [...document.querySelectorAll(sel)].map(e => e.innerText)",
                          selector)
    return [m for c in cells for m in re.findall(r"[-−+]?\d+", c)]


def sheet_page(browser: Browser, size: dict[str, int]) -> tuple[Any, Page]:
    """A visitor without an account (a finished public table's sheets are public)."""
    return visitor(browser, viewport=size)


@pytest.mark.parametrize("size", SIZES)
def test_the_list_writes_negative_numbers_with_a_minus_sign(
        played: Played, browser: Browser, size: dict[str, int]) -> None:
    """"−154", never "-154": on the printable list (screen and paper) and in the list at
    the table."""
    ctx, page = sheet_page(browser, size)
    try:
        page.goto(f"{played.url}/t/{played.skat}/list")
        page.wait_for_selector(".pg-sheet-table tbody tr")
        for media in ("screen", "print"):
            page.emulate_media(media=media)
            figures = list_numbers(page, ".pg-sheet-table td")
            assert any(f.startswith("−") for f in figures), figures
            assert not any(f.startswith("-") for f in figures), (media, figures)
        page.emulate_media(media="screen")
        shot(page, f"wording-printed-list-{size_name(size)}")
        page.goto(f"{played.url}/t/{played.skat}")
        page.wait_for_function("() => window.stichTable?.state.list")
        page.keyboard.press("Escape")  # the last game's result
        page.wait_for_selector(".layer-result", state="hidden")
        page.click(".tablebar button:has-text('Liste')")
        page.wait_for_selector(".layer .skat-list")
        figures = list_numbers(page, ".layer .skat-list td")
        assert any(f.startswith("−") for f in figures), figures
        assert not any(f.startswith("-") for f in figures), figures
        assert "Punktestand" in page.inner_text(".layer .skat-list tfoot")
        shot(page, f"wording-list-panel-{size_name(size)}")
        no_errors(page)
    finally:
        ctx.close()


@pytest.mark.parametrize("size", SIZES)
def test_lost_on_the_printed_list_is_not_larger_than_the_game(
        played: Played, browser: Browser, size: dict[str, int]) -> None:
    ctx, page = sheet_page(browser, size)
    try:
        page.goto(f"{played.url}/t/{played.skat}/list")
        page.wait_for_selector(".pg-sheet-table tbody tr")
        for media in ("screen", "print"):
            page.emulate_media(media=media)
            sizes = page.evaluate("""() => [...document.querySelectorAll(
                '.pg-sheet-table tbody td .small')].map(s => [s.textContent,
                parseFloat(getComputedStyle(s).fontSize),
                parseFloat(getComputedStyle(s.parentElement).fontSize)])""")
            assert sizes and all(t == "(verloren)" for t, _, _ in sizes), sizes
            for _t, mark, game in sizes:
                assert mark <= game, (media, sizes)
        no_errors(page)
    finally:
        ctx.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_sheets_headers_name_the_players_and_the_date_not_the_table(
        played: Played, browser: Browser, size: dict[str, int]) -> None:
    """The printable list's and Zettel's header: the game, its players and the date a
    person reads, not the table's id."""
    ctx, page = sheet_page(browser, size)
    try:
        for tid, what, names, game in (
                (played.skat, "list", played.players, "Skat · Lothars Regeln"),
                (played.zettel, "zettel", played.zettel_players, "Baptistenskat · ")):
            page.goto(f"{played.url}/t/{tid}/{what}")
            page.wait_for_selector(".pg-rules")
            for media in ("screen", "print"):
                page.emulate_media(media=media)
                head = page.inner_text(".pg-rules")
                assert tid not in page.inner_text("#sheet"), (what, head)
                assert head.startswith(game), head
                for name in names:
                    assert name in head, (what, head)
                assert re.search(r"\b\d{2}\.\d{2}\.20\d{2}\b", head), (what, head)
            page.emulate_media(media="screen")
            in_view(page, ".pg-rules")
        no_errors(page)
    finally:
        ctx.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_zettel_explains_its_star(
        played: Played, browser: Browser, size: dict[str, int]) -> None:
    ctx, page = sheet_page(browser, size)
    try:
        page.goto(f"{played.url}/t/{played.zettel}/zettel")
        page.wait_for_selector(".pg-zettel-table")
        assert page.locator(".pg-zettel-table .standin-mark").count() >= 1
        for media in ("screen", "print"):
            page.emulate_media(media=media)
            legend = page.locator(".pg-legend", has_text="*")
            assert legend.count() == 1, page.inner_text("#sheet")
            text = legend.inner_text()
            assert text.startswith("* ") and "Bot" in text, text
            assert legend.is_visible()
        page.emulate_media(media="screen")
        page.locator(".pg-legend", has_text="*").scroll_into_view_if_needed()
        in_view(page, ".pg-standin-legend")
        shot(page, f"wording-zettel-legend-{size_name(size)}")
        no_errors(page)
    finally:
        ctx.close()


def join_table(page: Page, base: str, tid: str) -> None:
    page.goto(f"{base}/t/{tid}")
    page.click(".join button")
    page.wait_for_function("() => window.stichTable?.state.you != null")


@pytest.mark.parametrize("size", SIZES)
def test_the_skat_mark_of_a_card_taken_up_is_in_view(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    """Twelve cards after the pick-up (on a phone two rows, the second over the lower part
    of the first): each card from the Skat shows its "Skat" mark where it can be seen."""
    ctx, page = person(browser, site.url, unique("Alli"), viewport=size)
    others = [person(browser, site.url, unique(n)) for n in ("Bea", "Cem")]
    try:
        # a new deal until a card from the Skat lies in the first row (on a phone the
        # second row covers that row's lower part): the case to look at
        for _attempt in range(8):
            take_the_skat(page, [p for _, p in others], site.url)
            marks = skat_marks(page)
            assert len(marks) == 2, marks
            if size is not PHONE or not all(m["row2"] for m in marks):
                break
        else:
            raise AssertionError("the Skat's cards were never in the first row")
        vp = page.viewport_size
        assert vp is not None
        for m in marks:
            assert m["content"] == '"Skat"', m
            assert 0 <= m["y"] <= vp["height"] and 0 <= m["x"] <= vp["width"], m
            assert m["seen"], ("the Skat mark is covered", m, marks)
        shot(page, f"wording-skat-marks-{size_name(size)}")
        no_errors(page, *(p for _, p in others))
    finally:
        for c in (ctx, *(c for c, _ in others)):
            c.close()


def take_the_skat(page: Page, others: list[Page], base: str) -> None:
    """A new table of these three people: the others pass at once, this page's person
    bids, plays and takes the Skat (twelve cards in the hand, two of them marked)."""
    tid = new_table(page, base, seats=["me", "person", "person"], games=3)
    for p in others:
        join_table(p, base, tid)
    page.wait_for_function("() => window.stichTable?.state.view?.phase")
    for _ in range(200):
        v = state(page)["view"]
        if v["phase"] == "DISCARD" and v["legal"]:
            break
        if v["legal"] and v["phase"] == "BIDDING":
            seq = state(page)["seq"]
            page.click(".actions button:not(.secondary)")
            page.wait_for_function("(s) => window.stichTable.state.seq > s", arg=seq)
        elif v["legal"] and v["phase"] == "SKAT":
            page.click("[data-key='a:pickup']")
            page.wait_for_selector(".hand .card.from-skat")
        for p in others:
            step(p, bid="pass")
        page.wait_for_timeout(30)
    else:
        raise AssertionError("never took the Skat")
    assert page.locator(".hand .card").count() == 12
    page.locator(".hand").scroll_into_view_if_needed()
    page.evaluate("() => document.getAnimations().forEach(a => a.finish())")


def skat_marks(page: Page) -> list[dict[str, Any]]:
    """Each card from the Skat: its mark's middle (from the ``::after``'s computed place)
    and whether that point shows the card itself (not a card over it)."""
    return list(page.evaluate("""() => [...document.querySelectorAll('.hand .card.from-skat')]
      .map(c => {
        const r = c.getBoundingClientRect();
        const st = getComputedStyle(c, '::after');
        const h = parseFloat(st.height) || 14;
        const y = r.bottom - parseFloat(st.bottom) - h / 2, x = r.left + r.width / 2;
        const hit = document.elementFromPoint(x, y);
        return {code: c.dataset.code, content: st.content, y, x,
                row2: c.classList.contains('row2'),
                seen: !!hit && hit.closest('.card') === c}; })"""))


@pytest.mark.parametrize("size", SIZES)
def test_a_closed_table_says_nobody_is_to_move(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    ctx, page = person(browser, site.url, unique("Chef"), viewport=size)
    anna = unique("Anna")
    actx, apage = person(browser, site.url, anna)
    try:
        tid = new_table(page, site.url, seats=["me", "person", "bot:easy"], games=3)
        join_table(apage, site.url, tid)
        page.wait_for_function("() => window.stichTable?.state.view?.phase")
        # play on (Anna does not) until it is Anna's turn
        for _ in range(300):
            v = state(page)["view"]
            if v["to_move"] >= 0 and v["positions"][v["to_move"]] == 1:
                break
            if not step(page, bid="pass"):
                page.wait_for_timeout(40)
        else:
            raise AssertionError("never Anna's turn")
        page.wait_for_function("(n) => document.body.innerText.includes(n + ' ist dran')",
                               arg=anna)
        # the creator closes the table from the menu
        page.once("dialog", lambda d: d.accept())
        page.click(".tablebar button[aria-label='Mehr']")
        page.click(".close-table")
        page.wait_for_function("() => window.stichTable.state.table.status === 'over'")
        page.wait_for_selector(".banner.over")
        assert "geschlossen" in page.inner_text(".banner.over")
        in_view(page, ".banner.over")
        text = page.inner_text("body")
        assert "ist dran" not in text and "bist dran" not in text, text
        assert page.locator(".to-move").count() == 0  # no ▶ at anybody's seat either
        shot(page, f"wording-closed-table-{size_name(size)}")
        no_errors(page, apage)
    finally:
        ctx.close()
        actx.close()


@pytest.mark.parametrize("size", SIZES)
def test_no_messages_yet_goes_with_the_first_line(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    ctx, page = person(browser, site.url, unique("Plausch"), viewport=size)
    try:
        new_table(page, site.url, seats=["me", "bot:easy", "bot:easy"], games=3)
        page.wait_for_function("() => window.stichTable?.state.view")
        page.click(".chat-button")
        page.wait_for_selector(".chat-lines")
        assert page.inner_text(".chat-lines").strip() == "Noch keine Nachrichten."
        page.fill(".chat-form input", "Hallo zusammen")
        page.press(".chat-form input", "Enter")
        page.wait_for_selector(".chat-line")
        lines = page.evaluate("() => [...document.querySelectorAll('.chat-lines li')]"
                              ".map(li => li.innerText)")
        assert len(lines) == 1 and "Hallo zusammen" in lines[0], lines
        assert "Noch keine Nachrichten." not in page.inner_text(".drawer.chat")
        in_view(page, ".chat-line")
        shot(page, f"wording-chat-first-line-{size_name(size)}")
        no_errors(page)
    finally:
        ctx.close()
