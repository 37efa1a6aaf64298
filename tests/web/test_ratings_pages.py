"""The ratings on the player page and the Bestenliste (issue 43), over HTTP against a real
`stich serve` (the games of :mod:`tests.web.test_standings_pages`: a Skat list of three
games of two registered players and a guest, a Baptistenskat game with a bot).

The stored ratings equal an independent run of :mod:`stich.ratings` over the games the
API lists; the page draws the history the API answers; the statistics agree with the
Bestenliste's row; the Bestenliste shows the rating and orders by it; a guest has no page
and the history says nothing of a game (no address, no time)."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

from stich.ratings import Line, Ratings
from tests.web.test_standings_pages import (
    LANGS,
    Site,
    no_leftover_english,
    plain,
    rows,
    site,
)

__all__ = ["site"]  # the fixture, shared with the standings pages' module


def _lines(g: dict[str, Any], ids: dict[str, int]) -> list[Line]:
    return [Line(seat=p["seat"], user_id=None if p["bot"] else ids.setdefault(p["name"],
                                                                              len(ids) + 1),
                 bot=p["bot"], score=p["score"], declarer=p["declarer"], won=p["won"],
                 place=p["place"], counts=p["counts"], sat_out=p.get("sat_out", False))
            for p in g["players"]]


def independent(site: Site, name: str) -> dict[tuple[str, str], tuple[float, float, int]]:
    """``name``'s ratings worked out from the tables' games as the API lists them."""
    book, ids, n = Ratings(), {}, {}
    for tid in (site.skat, site.bapt):
        games = site.api(f"/api/tables/{tid}/games")["games"]
        for g in sorted(games, key=lambda g: g["number"]):
            for c in book.apply(g["game"], g["rules"], _lines(g, ids)):
                n[c.game, c.group, c.entity] = n.get((c.game, c.group, c.entity), 0) + 1
    me = f"user:{ids[name]}"
    return {(game, group): (r.mu, r.sigma, n[game, group, e])
            for (game, group, e), r in book.table.items() if e == me}


def test_the_stored_ratings_are_those_of_the_games(site: Site) -> None:
    api = site.api(f"/api/users/{site.ann}")
    got = {(r["game"], r["group"]): (r["mu"], r["sigma"], r["games"]) for r in api["ratings"]}
    want = independent(site, site.ann)
    # (the Baptistenskat table's rules are not a preset: the group is its rule string)
    assert set(got) == set(want) == {("skat", "lothar"),
                                     ("baptisten", "baptisten(preset=default,players=3,"
                                                   "max_cards=2)")}
    for key, (mu, sigma, games) in want.items():
        assert got[key][0] == pytest.approx(mu) and got[key][1] == pytest.approx(sigma)
        assert got[key][2] == games
    for r in api["ratings"]:
        assert len(r["history"]) == r["games"]  # a figure per rated game, nothing else
        assert all(isinstance(x, float) for x in r["history"])
        assert r["history"][-1] == pytest.approx(r["mu"] - 3 * r["sigma"], abs=0.01)
        assert r["rating"] == round(r["mu"] - 3 * r["sigma"], 1)
    bapt = next(r for r in api["ratings"] if r["game"] == "baptisten")
    assert set(bapt["bots"]) == {"easy"} and bapt["like"] == "easy"


def test_the_statistics_agree_with_the_games(site: Site) -> None:
    # the table is over a moment after its last game (its end event): then it is a series
    deadline = time.monotonic() + 20
    while True:
        api = site.api(f"/api/users/{site.ann}")
        if api["stats"]["skat"]["series"] or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    st, row = api["stats"]["skat"], api["skat"]["lothar"]
    assert st["games"] == row["games"] == 3
    assert st["declarer_won"] == row["declarer_won"]
    assert st["declarer"] == row["declarer_won"] + row["declarer_lost"]
    games = sorted(site.api(f"/api/tables/{site.skat}/games")["games"],
                   key=lambda g: g["number"])
    # game 1: everybody passed (a Ramsch); game 3 is random play, which passes all round
    # now and then: the records say how many
    kinds = [site.api(f"/api/games/{g['id']}")["record"]["result"]["kind"] for g in games]
    assert kinds[0] == "ramsch" and st["ramsch"] == kinds.count("ramsch")
    mine = [p for g in games for p in g["players"] if p["name"] == site.ann]
    assert st["average_points"] == round(sum(p["score"] for p in mine) / 3, 1)
    # the table played its three games: one series, its Preisskat score
    lines = [[p for p in g["players"]] for g in games]
    seats = sorted(p["seat"] for p in lines[0])
    me = next(p["seat"] for p in lines[0] if p["name"] == site.ann)
    total = {s: sum(p["score"] for g in lines for p in g if p["seat"] == s) for s in seats}
    won = {s: sum(1 for g in lines for p in g if p["seat"] == s and p["declarer"] and p["won"])
           for s in seats}
    lost = {s: sum(1 for g in lines for p in g
                   if p["seat"] == s and p["declarer"] and p["won"] is False) for s in seats}
    others_lost = sum(lost.values()) - lost[me]
    # the DSkV's rule written out: points + 50 × (won − lost) + 40 × the others' lost
    assert st["series"] == 1
    assert st["preisskat_average"] == total[me] + 50 * (won[me] - lost[me]) + 40 * others_lost
    assert api["stats"]["baptisten"]["games"] == 1


@pytest.mark.parametrize("lang", LANGS)
def test_the_player_page_draws_the_rating(site: Site, lang: str) -> None:
    html = site.page(f"/u/{site.ann}", lang)
    api = site.api(f"/api/users/{site.ann}")
    section = html[html.index('id="ratings"'):html.index('id="stats"')]
    plots = re.findall(r'<polyline class="pg-plot-line" points="([^"]+)"', section)
    drawn = [r for r in api["ratings"] if len(r["history"]) > 1]
    assert len(plots) == len(drawn) >= 1
    for points, r in zip(plots, drawn, strict=True):
        assert len(points.split()) == len(r["history"])
    for r in api["ratings"]:
        assert str(r["rating"]) in plain(section)
    stats = plain(html[html.index('id="stats"'):html.index('id="games"')])
    assert str(api["stats"]["skat"]["games"]) in stats
    assert "<script" not in section  # drawn by the server, no script
    text = plain(html)
    if lang == "de":
        assert "Spielstärke" in text and "Statistik" in text and "Als Alleinspieler" in text
        no_leftover_english(html)
    else:
        assert "Rating" in text and "Statistics" in text and "As declarer" in text
    # the page's first table is still the Bestenliste's row per preset
    assert rows(html)[0][0] == "Lothar"


def test_the_bestenliste_shows_and_orders_by_the_rating(site: Site) -> None:
    by_bilanz = site.api("/api/bestenliste?preset=lothar&period=all")
    by_rating = site.api("/api/bestenliste?preset=lothar&period=all&order=rating")
    assert by_bilanz["order"] == "bilanz" and by_rating["order"] == "rating"
    ratings = [by_rating["ratings"][r["name"]]["rating"] for r in by_rating["players"]]
    assert ratings == sorted(ratings, reverse=True)
    assert [r["rank"] for r in by_rating["players"]] == list(range(1, len(ratings) + 1))
    ann = site.api(f"/api/users/{site.ann}")
    lothar = next(r for r in ann["ratings"] if r["group"] == "lothar")
    assert by_bilanz["ratings"][site.ann]["rating"] == lothar["rating"]
    assert set(by_bilanz["ratings"]) == {r["name"] for r in by_bilanz["players"]}
    html = site.page("/bestenliste?order=rating", "en")
    assert 'aria-current="true">Rating' in html
    assert [c[1] for c in rows(html, "skat-table")] == [r["name"] for r in by_rating["players"]]
    assert 'href="?preset=lothar&amp;period=year&amp;order=rating"' in html  # kept
    # nonsense in the page's query: the default; in the API's: refused
    assert 'aria-current="true">Bilanz' in site.page("/bestenliste?order=luck", "de")
    r = httpx.get(site.server.url + "/api/bestenliste?order=luck", timeout=30)
    assert r.status_code == 400 and r.json()["error"]["code"] == "server.bad_order"


def test_a_guest_has_no_rating_page_and_a_stranger_sees_no_game(site: Site) -> None:
    r = httpx.get(site.server.url + f"/api/users/{site.gus}", timeout=30)
    assert r.status_code == 404 and r.json()["error"]["code"] == "server.no_such_player"
    site.page(f"/u/{site.gus}", "en", status=404)
    # a stranger (no account) sees the ratings as everybody does, and no game in them
    api = site.api(f"/api/users/{site.ann}")
    for r in api["ratings"]:
        assert set(r) == {"game", "group", "mu", "sigma", "games", "rating", "like", "words",
                          "history", "bots"}
    # the guest is rated (her opponents' ratings need her) but not listed
    assert site.gus not in {r["name"] for r in
                            site.api("/api/bestenliste?order=rating")["players"]}


@pytest.mark.needs("chromium")
def test_the_rating_plot_in_a_browser(site: Site, browser: Any) -> None:
    """On a phone and a desktop: the plot and the statistics fit the window (nothing
    wider than the page), the plot has its line, no page error; screenshots."""
    from tests.web.browser import DESKTOP, OUT, PHONE, visitor

    OUT.mkdir(exist_ok=True)
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        ctx, page = visitor(browser, viewport=size)
        try:
            page.goto(f"{site.server.url}/u/{site.ann}")
            plot = page.locator("#ratings svg.pg-plot").first
            plot.wait_for(state="visible")
            box = plot.bounding_box()
            assert box is not None and box["width"] > 200 and box["height"] > 40, box
            assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
            line = page.locator("#ratings polyline.pg-plot-line").first.bounding_box()
            assert line is not None and line["width"] > 100, line
            width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
            assert width[0] <= width[1], width
            stats = page.locator("#stats dl").bounding_box()
            assert stats is not None and stats["x"] + stats["width"] <= size["width"]
            assert "Statistik" in page.locator("#stats h2").inner_text()
            page.locator("#ratings").scroll_into_view_if_needed()
            page.screenshot(path=str(OUT / f"ratings-player-{name}.png"), full_page=True)
            page.goto(f"{site.server.url}/bestenliste?order=rating")
            page.locator("#skat-table .pg-rating").first.wait_for(state="visible")
            page.screenshot(path=str(OUT / f"ratings-bestenliste-{name}.png"), full_page=True)
            assert page.errors == []  # type: ignore[attr-defined]
        finally:
            ctx.close()
