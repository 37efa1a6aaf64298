"""The standings and history pages over HTTP, against a real `stich serve` on SQLite.

One module-wide server plays a Skat list of three games (two registered players and a
guest; the first game everybody passes: a Ramsch under ``lothar``, the second a Null
Hand) and a short Baptistenskat game (two registered players and a bot).  Every page is
then fetched in German and in English, and its figures are compared with what the HTTP
API answers for the same thing.  A browser check (Playwright on Chromium) steps through a
replay and runs the analysis; it takes screenshots into ``tests/web/output/``.
"""

from __future__ import annotations

import asyncio
import random
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest

from stich.present.initials import initials
from stich.record import bock_factor, replay_skat
from stich.skat.analysis import analyze
from stich.web.i18n import catalog
from stich.web.standings import game_title, number, signed, value_breakdown
from tests import services
from tests.server.harness import Client, Server, database
from tests.server.test_history import play, scripted

OUTPUT = Path(__file__).parent / "output"
LANGS = ("de", "en")


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:5]}"


@dataclass
class Site:
    server: Server
    ann: str
    ben: str
    gus: str  # a guest
    skat: str  # the Skat table
    bapt: str  # the Baptistenskat table

    def api(self, path: str) -> Any:
        r = httpx.get(self.server.url + path, timeout=30)
        assert r.status_code == 200, (path, r.text)
        return r.json()

    def page(self, path: str, lang: str, status: int = 200) -> str:
        r = httpx.get(self.server.url + path, headers={"accept-language": lang}, timeout=30)
        assert r.status_code == status, (path, r.status_code, r.text[:300])
        assert r.headers["content-type"].startswith("text/html")
        assert f'<html lang="{lang}">' in r.text
        return r.text


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with database("sqlite", tmp_path_factory.mktemp("web")) as url:
        server = Server(url, bot_delay=0.0)
        server.start()
        ann, ben, gus = Client(server), Client(server), Client(server)
        names = unique("Ann"), unique("Ben"), unique("Gus")
        ann.register(names[0])
        ben.register(names[1])
        gus.guest(names[2])

        async def skat() -> str:
            tid = ann.create(game="skat", preset="lothar", games=3,
                             seats=["me", "person", "person"])["table"]["id"]
            for c in (ben, gus):
                assert c.post(f"/api/tables/{tid}/join", {}).status_code == 200
            sockets = [await c.connect(tid) for c in (ann, ben, gus)]
            await play(sockets, random.Random(7), scripted("null"))
            for ws in sockets:
                await ws.close()
            return str(tid)

        async def bapt() -> str:
            tid = ann.create(game="baptisten", seats=["me", "person", "bot:easy"],
                             max_cards=2)["table"]["id"]
            assert ben.post(f"/api/tables/{tid}/join", {}).status_code == 200
            sockets = [await c.connect(tid) for c in (ann, ben)]
            await play(sockets, random.Random(8))
            for ws in sockets:
                await ws.close()
            return str(tid)

        async def both() -> tuple[str, str]:
            s, b = await asyncio.gather(skat(), bapt())
            return s, b

        skat_id, bapt_id = asyncio.run(asyncio.wait_for(both(), 120))
        try:
            yield Site(server, *names, skat_id, bapt_id)
        finally:
            for c in (ann, ben, gus):
                c.close()
            server.stop()


# --- reading the pages ----------------------------------------------------------------------

class _Texts(HTMLParser):
    """The text nodes and the title/aria-label attributes of a page, without its scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self._skip += 1
        for k, v in attrs:
            if k in ("title", "aria-label") and v:
                self.texts.append(v.strip())

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(" ".join(data.split()))


def texts(html: str) -> list[str]:
    p = _Texts()
    p.feed(html)
    return p.texts


def plain(html: str) -> str:
    """The page's visible text in one line."""
    return " ".join(texts(html))


def rows(html: str, table_id: str | None = None) -> list[list[str]]:
    """The cells' texts of each body row of a table (the first table, or ``table_id``)."""
    if table_id is not None:
        html = html[html.index(f'id="{table_id}"'):]
    body = html[html.index("<tbody>"):html.index("</tbody>")]
    out = []
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", tr, re.S)
        out.append([" ".join(unescape(re.sub(r"<[^>]+>", " ", c)).split()) for c in cells])
    return out


def no_leftover_english(html: str) -> None:
    """A German page shows no message id whose German text differs from it."""
    de = catalog("de")
    english = {str(m.id) for m in de if m.id and m.string and m.string != m.id
               and "{" not in str(m.id)}
    left = sorted(t for t in texts(html) if t in english)
    assert left == [], left


# --- the Bestenliste ------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_bestenliste_shows_the_apis_figures(site: Site, lang: str) -> None:
    html = site.page("/bestenliste", lang)
    api = site.api("/api/bestenliste?preset=lothar&period=all")
    assert {r["name"] for r in api["players"]} == {site.ann, site.ben}  # the guest is not
    table = rows(html, "skat-table")
    assert len(table) == len(api["players"])
    for r, cells in zip(api["players"], table, strict=True):
        assert cells == [f"{r['rank']}.", r["name"], signed(r["bilanz"]),
                         signed(r["punktestand"]), str(r["games"]), str(r["declarer_won"]),
                         str(r["declarer_lost"]),
                         str(api["ratings"][r["name"]]["rating"])]  # issue 43: rated
        assert f'href="/u/{r["name"]}"' in html
    assert site.gus not in plain(html[:html.index('id="baptisten"')])
    text = plain(html)
    if lang == "de":
        assert "Zeitraum" in text and "Regeln" in text and "Gesamt" in text
        assert "Dieses Jahr" in text and "Dieser Monat" in text
        no_leftover_english(html)
    else:
        assert "Period" in text and "Rules" in text and "All time" in text
        assert "This year" in text and "This month" in text
    for word in ("Bestenliste", "Bilanz", "Baptistenskat"):
        assert word in text  # Skat terms stay German
    assert ("Punktestand" if lang == "de" else "Total score") in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_baptistenskat_ranking_is_on_the_same_page(site: Site, lang: str) -> None:
    html = site.page("/bestenliste?period=year", lang)
    api = site.api("/api/baptisten/ranking?period=year")
    assert {r["name"] for r in api["players"]} == {site.ann, site.ben}
    table = rows(html, "baptisten-table")
    for i, (r, cells) in enumerate(zip(api["players"], table, strict=True), start=1):
        assert cells == [f"{i}.", r["name"], str(r["rating"]), str(r["games"]),
                         str(r["wins"]), str(r["average_place"])]
    game = api["games"][0]
    assert f'href="/games/{game["id"]}"' in html
    assert 'aria-current="true">' + ("Dieses Jahr" if lang == "de" else "This year") in html


def test_the_filters_are_links_and_an_empty_preset_says_so(site: Site) -> None:
    html = site.page("/bestenliste?preset=isko&period=month", "en")
    assert site.api("/api/bestenliste?preset=isko&period=month")["players"] == []
    assert "No Skat games of registered players in this period yet." in plain(html)
    assert 'href="?preset=lothar&amp;period=month#skat"' in html
    assert 'href="?preset=isko&amp;period=year"' in html
    # nonsense in the query: the defaults, not an error
    html = site.page("/bestenliste?preset=nonsense&period=decade", "de")
    assert 'aria-current="true">Lothar' in html and 'aria-current="true">Gesamt' in html
    assert site.ann in html


# --- a player's page ------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_a_players_page(site: Site, lang: str) -> None:
    html = site.page(f"/u/{site.ann}", lang)
    api = site.api(f"/api/users/{site.ann}")
    lothar = api["skat"]["lothar"]
    assert api["skat"]["isko"] is None
    table = rows(html)
    assert table[0] == ["Lothar", signed(lothar["bilanz"]), signed(lothar["punktestand"]),
                        str(lothar["games"]), str(lothar["declarer_won"]),
                        str(lothar["declarer_lost"])]
    assert table[1][0] == "ISkO" and table[1][1] == ("noch keine Spiele" if lang == "de"
                                                     else "no games yet")
    assert len(api["games"]) == 4  # three Skat games and the Baptistenskat game
    games = rows(html, "games")
    assert len(games) == 4
    for g, cells in zip(api["games"], games, strict=True):
        assert f'href="/games/{g["id"]}"' in html
        me = next(p for p in g["players"] if p["seat"] == g["you"])
        assert cells[4].startswith(signed(me["score"]))
        assert all(p["name"] in cells[2] for p in g["players"])
    text = plain(html)
    if lang == "de":
        assert "Datum" in text and "Spieler" in text and "Wiederholung" in text
        no_leftover_english(html)
    else:
        assert "Date" in text and "Players" in text and "Replay" in text


@pytest.mark.parametrize("lang", LANGS)
def test_unknown_players_games_and_tables_get_a_friendly_404(site: Site, lang: str) -> None:
    for path in ("/u/NobodyAtAll", f"/u/{site.gus}", "/games/987654", "/games/abc",
                 "/t/nosuchtable/list", "/t/nosuchtable/zettel"):
        html = site.page(path, lang, status=404)
        text = plain(html)
        assert ("Nicht gefunden" if lang == "de" else "Not found") in text, path
        if lang == "de":
            no_leftover_english(html)
    api = httpx.get(site.server.url + "/api/users/NobodyAtAll?lang=" + lang).json()
    assert api["error"]["text"] in plain(site.page("/u/NobodyAtAll", lang, status=404))


# --- one finished game ----------------------------------------------------------------------

def skat_games(site: Site) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = site.api(f"/api/tables/{site.skat}/games")["games"]
    assert [g["number"] for g in games] == [1, 2, 3]
    return games


@pytest.mark.parametrize("lang", LANGS)
def test_a_skat_games_page(site: Site, lang: str) -> None:
    for g in skat_games(site):
        data = site.api(f"/api/games/{g['id']}")
        result = data["record"]["result"]
        html = site.page(f"/games/{g['id']}", lang)
        text = plain(html)
        title = game_title(result, lang)
        assert f"<h1>{title}</h1>" in html
        assert f'data-game="{g["id"]}"' in html and 'data-kind="skat"' in html
        for p in data["game"]["players"]:
            assert p["name"] in text
        if result["kind"] == "game":
            declarer = data["record"]["players"][result["declarer"]]
            verdict = {("de", True): "{name} hat {game} gewonnen",
                       ("de", False): "{name} hat {game} verloren",
                       ("en", True): "{name} won {game}",
                       ("en", False): "{name} lost {game}"}[lang, result["won"]]
            assert verdict.format(name=declarer, game=title) in text
            assert f"{result['declarer_tricks']} : {result['defender_tricks']}" in text
            assert signed(result["scores"][result["declarer"]]) in text
            breakdown = value_breakdown(result, lang)
            if breakdown:
                assert breakdown in text
            assert 'data-analysable="yes"' in html
        else:
            assert result["kind"] == "ramsch"  # game 1: everybody passed under lothar
            assert "Ramsch" in text or "Durchmarsch" in text
            assert 'data-analysable=""' in html
        assert ("Wiederholung" if lang == "de" else "Replay") in text
        if lang == "de":
            no_leftover_english(html)


@pytest.mark.parametrize("lang", LANGS)
def test_a_baptistenskat_games_page(site: Site, lang: str) -> None:
    game = site.api(f"/api/tables/{site.bapt}/games")["games"][0]
    html = site.page(f"/games/{game['id']}", lang)
    table = rows(html)
    by_place = sorted(game["players"], key=lambda p: p["place"])
    assert [c[0] for c in table] == [f"{p['place']}." for p in by_place]
    assert [c[2] for c in table] == [str(p["score"]) for p in by_place]
    assert all(p["name"] in c[1] for p, c in zip(by_place, table, strict=True))
    assert f'href="/t/{site.bapt}/zettel"' in html
    assert 'data-kind="baptisten"' in html and 'data-analysable=""' in html
    if lang == "de":
        assert "Platz" in plain(html)
        no_leftover_english(html)


# --- the Skat list and the Anschreibezettel -------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_printable_skat_list(site: Site, lang: str) -> None:
    sl = site.api(f"/api/tables/{site.skat}/list")["list"]
    html = site.page(f"/t/{site.skat}/list", lang)
    assert 'class="page print-sheet"' in html and 'class="sheet pg-list"' in html
    assert "<h1>" + ("Skatliste" if lang == "de" else "Skat list") + "</h1>" in html
    games = skat_games(site)
    table = rows(html)
    assert len(table) == len(sl["games"]) == 3
    for line, g, cells in zip(sl["games"], games, table, strict=True):
        assert f'href="/games/{g["id"]}"' in html
        assert cells[0] == str(line["number"])
        assert cells[1] == sl["players"][line["dealer"]]
        assert cells[2] == ("—" if line["declarer"] is None else sl["players"][line["declarer"]])
        assert cells[3].startswith(game_title(line["result"], lang))
        assert cells[4] == (number(line["value"]) if line["kind"] != "passed" else "")
        for p in range(3):
            want = number(line["totals"][p])  # "−30": a real minus sign
            if line["scores"][p]:
                want = f"{signed(line['scores'][p])} {want}"
            assert cells[5 + p] == want
    foot = html[html.index("<tfoot>"):html.index("</tfoot>")]
    foot_text = plain(foot)
    for p in range(3):
        assert number(sl["punktestand"][p]) in foot_text
        assert signed(sl["bilanz"][p]) in foot_text
    assert ("Punktestand" if lang == "de" else "Total score") in foot_text
    assert "Bilanz" in foot_text
    if lang == "de":
        no_leftover_english(html)
    # a Baptistenskat table has a Zettel instead
    r = httpx.get(f"{site.server.url}/t/{site.bapt}/list", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/t/{site.bapt}/zettel"


@pytest.mark.parametrize("lang", LANGS)
def test_the_anschreibezettel_as_on_paper(site: Site, lang: str) -> None:
    sheet = site.api(f"/api/tables/{site.bapt}/sheet")["sheet"]
    html = site.page(f"/t/{site.bapt}/zettel", lang)
    assert 'class="page print-sheet"' in html and 'class="sheet pg-zettel"' in html
    assert "<h1>Anschreibezettel</h1>" in html
    names = sheet["players"]
    n = len(names)
    first = sheet["rounds"][0]["first"]
    order = [(first + i) % n for i in range(n)]
    heads = re.findall(r'<th scope="colgroup"[^>]*>(.*?)</th>', html)
    assert heads == [names[p] for p in order]  # from the one who began the game
    short = initials(names)
    table = rows(html)
    assert len(table) == len(sheet["rounds"])
    for r, cells in zip(sheet["rounds"], table, strict=True):
        assert cells[0].endswith(str(r["cards"]))
        assert cells[1] == short[r["first"]]  # the second column: who begins the round
        by_player = {e["player"]: e for e in r["entries"]}
        for k, p in enumerate(order):
            e = by_player[p]
            got = cells[3 + 4 * k: 7 + 4 * k]
            stake = "40!" if e["forced"] else str(e["stake"])
            assert got[0] == str(e["bid"]) and got[1] == stake
            assert got[2].startswith(str(e["tricks"])) and got[3] == str(e["total"])
    foot = plain(html[html.index("<tfoot>"):html.index("</tfoot>")])
    for rk in sheet["ranking"]:
        assert f"{rk['place']}. ({rk['total']})" in foot
    text = plain(html)
    assert ("Ansage" if lang == "de" else "Bid") in text
    assert ("Einsatz" if lang == "de" else "Stake") in text
    if lang == "de":
        no_leftover_english(html)
    r = httpx.get(f"{site.server.url}/t/{site.skat}/zettel", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/t/{site.skat}/list"


def test_the_scripts_and_styles_are_served(site: Site) -> None:
    for path in ("/static/js/cardtext.js", "/static/js/replay.js", "/static/js/standings.js",
                 "/static/css/site.css"):
        r = httpx.get(site.server.url + path)
        assert r.status_code == 200, path
    css = httpx.get(site.server.url + "/static/css/site.css").text
    assert "body.print-sheet main > :not(.sheet)" in css  # printing shows the sheet only


# --- in a browser ---------------------------------------------------------------------------

@pytest.mark.needs("chromium")
def test_the_replay_in_a_browser(site: Site) -> None:
    from playwright import sync_api

    chromium = services.chromium()
    OUTPUT.mkdir(exist_ok=True)
    games = skat_games(site)
    grand = games[1]  # the Null Hand: quick to analyse
    steps = site.api(f"/api/games/{grand['id']}/replay")["steps"]
    record = site.api(f"/api/games/{grand['id']}")["record"]
    worth = signed(analyze(replay_skat(record), bock=bock_factor(record)).start_worth)
    bapt = site.api(f"/api/tables/{site.bapt}/games")["games"][0]
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            for width, height in ((390, 844), (1280, 800)):
                ctx = browser.new_context(viewport={"width": width, "height": height},
                                          locale="de-DE")
                page = ctx.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                page.goto(f"{site.server.url}/games/{grand['id']}")
                page.wait_for_selector(".pg-controls")
                counter = page.locator(".pg-counter")
                assert counter.inner_text() == f"Schritt 0 von {len(steps) - 1}"
                assert page.locator(".pg-hand").count() == 4  # three hands and the Skat
                # the first card played: its step, reached with the arrow key
                first_card = next(i for i, s in enumerate(steps)
                                  if i and steps[i - 1]["phase"] == "PLAY")
                for _ in range(first_card):
                    page.keyboard.press("ArrowRight")
                assert counter.inner_text() == f"Schritt {first_card} von {len(steps) - 1}"
                code = steps[first_card]["action"]
                assert page.locator(f".pg-trick .tcard[data-code='{code}']").count() == 1
                assert page.locator(f".pg-hands .tcard.played[data-code='{code}']").count() == 1
                assert "spielt" in page.locator(".pg-caption").inner_text()
                page.get_by_role("button", name="Weiter").click()
                assert counter.inner_text() == f"Schritt {first_card + 1} von {len(steps) - 1}"
                page.keyboard.press("End")
                assert counter.inner_text() == f"Schritt {len(steps) - 1} von {len(steps) - 1}"
                page.keyboard.press("Home")
                if width == 390:  # not logged in: an analysis needs an account, it says
                    page.get_by_role("button", name="Analyse").click()
                    refusal = page.locator(".pg-analysis .error")
                    refusal.wait_for()
                    assert "melde dich an" in refusal.inner_text()
                    refusal.scroll_into_view_if_needed()
                    assert refusal.is_visible()
                # a player (a guest is one) analyses
                assert ctx.request.post(f"{site.server.url}/api/guest",
                                        data={"name": f"Leser{width}"}).ok
                page.reload()
                page.wait_for_selector(".pg-controls")
                page.get_by_role("button", name="Analyse").click()
                page.wait_for_selector(".pg-analysis h3", timeout=180_000)
                panel = page.locator(".pg-analysis").inner_text()
                assert "Zum Gewinnen nötig" in panel
                # the worth with perfect play, the list score the analysis computes
                assert (f"Wert bei perfektem Spiel ab dem ersten Ausspiel: {worth} in der "
                        "Liste") in panel
                for _ in range(first_card):
                    page.keyboard.press("ArrowRight")
                assert page.locator(".pg-note").inner_text().startswith("Wert nach")
                page.screenshot(path=str(OUTPUT / f"replay-{width}.png"), full_page=True)
                page.goto(f"{site.server.url}/games/{bapt['id']}")
                page.wait_for_selector(".pg-controls")
                page.keyboard.press("ArrowRight")
                assert "Runde 1" in page.locator(".pg-info").inner_text()
                page.screenshot(path=str(OUTPUT / f"baptisten-replay-{width}.png"),
                                full_page=True)
                for name, path in (("bestenliste", "/bestenliste"),
                                   ("player", f"/u/{site.ann}"),
                                   ("list", f"/t/{site.skat}/list"),
                                   ("zettel", f"/t/{site.bapt}/zettel")):
                    page.goto(site.server.url + path)
                    page.screenshot(path=str(OUTPUT / f"{name}-{width}.png"), full_page=True)
                page.emulate_media(media="print")
                page.screenshot(path=str(OUTPUT / f"zettel-print-{width}.png"), full_page=True)
                assert not page.locator("header.top").is_visible()
                assert page.locator("#sheet").is_visible()
                assert errors == [], errors
                ctx.close()
        finally:
            browser.close()


def test_every_text_of_the_scripts_reaches_the_catalogue() -> None:
    """Babel reads `_("…")` in plain code only (not inside `${…}` of a template string):
    every literal text the page scripts translate must be among the extracted ids."""
    from stich.web.i18n import HERE, extract

    ids = {mid for mid, _ in extract()}
    for name in ("replay.js", "cardtext.js"):
        source = (HERE / "static" / "js" / name).read_text()
        used = set(re.findall(r'\b_\("((?:[^"\\]|\\.)*)"', source))
        assert used and used <= ids, (name, sorted(used - ids))
