"""A tournament evening end to end (issue 43, "Done when"): ten people, two rounds of
short series (3 games at a table of three, 4 at a table of four), tables of 4, 3 and 3.

One person plays on a phone (390x844) by clicks only: she opens the private
tournament's link, plays as a guest, joins, goes to her table from the tournament page,
plays her series, and sees her place and the next round.  The other nine play over the
protocol (random legal moves; they reconnect when the server goes away).  In the middle
of round 2 the server is killed (kill -9) and started again on the same database:

- nothing is lost: every event any protocol player received is in the stored log,
  rendered for that seat exactly as it was sent (``check_received``), the tournament is
  still in round 2 with the same tables, and the phone's table goes on from where it was
  (the page reconnects by itself, her next move is taken);
- the standings at the end equal the ones computed again from the stored game records
  alone (``standings_from_records``: the DSkV's Preisskat rule as written, knowing
  nothing of :mod:`stich.server.tournament`), and the phone shows her place in them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from tests.server.harness import ROOMY, Client, Server
from tests.server.proto_helpers import uid
from tests.server.test_crash import Follower, check_received
from tests.server.test_tournaments import standings_from_records
from tests.web.browser import PHONE, in_view, shot, state, step, visitor

LIMITS = f"{ROOMY},tournaments_per_hour=100,tournament_actions_per_min=1000"
PEOPLE = 10  # the phone and nine over the protocol
ROUND_SECONDS = 300.0


def _ok(r: Any) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return dict(r.json()["tournament"])


def _protocol_round(people: list[Client], links: list[str], seed: int
                    ) -> tuple[concurrent.futures.Future[None], list[Follower]]:
    """The nine play their tables on a thread of their own (the browser holds this one),
    each a :class:`Follower` that plays random legal moves and reconnects with ``since``
    whenever the server went away, until its table's series is over."""
    followers: list[Follower] = []

    async def go() -> None:
        up = asyncio.Event()
        up.set()  # a connection refused while the server is down is simply tried again
        followers.extend(Follower(c, link, up=up, play=True, rng=random.Random(seed * 100 + i))
                         for i, (c, link) in enumerate(zip(people, links, strict=True)))
        await asyncio.wait_for(asyncio.gather(*(f.run(60) for f in followers)),
                               ROUND_SECONDS)

    pool = concurrent.futures.ThreadPoolExecutor(1)
    done = pool.submit(asyncio.run, go())
    pool.shutdown(wait=False)
    return done, followers


def _play_series(page: Page, bid: str, between: Callable[[Any], None] | None = None) -> None:
    """The phone plays her table's series by clicks (bids up to ``bid``, declares the
    first game offered); ``between`` is called with the page's state between her moves."""
    end = time.monotonic() + ROUND_SECONDS
    while time.monotonic() < end:
        st = state(page)
        if st and st["table"] and st["table"]["status"] == "over":
            return
        if between is not None:
            between(st)
        try:
            done = step(page, bid=bid)
        except PlaywrightError:  # the page re-rendered under the click: look again
            done = None
        if not done:
            page.wait_for_timeout(40)
    raise AssertionError("the phone's series did not end")


def seating(tables: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """A round's tables as their links and who sits where."""
    return [(x["link"], [s["name"] for s in x["seats"]]) for x in tables]


def _real_errors(page: Page) -> list[str]:
    """The page's errors, without the browser's own lines about a socket or a request
    refused while the server was down (the page handles those: it reconnects)."""
    quiet = ("WebSocket connection", "ERR_CONNECTION_REFUSED", "Failed to load resource")
    return [e for e in page.errors if not any(q in e for q in quiet)]  # type: ignore[attr-defined]


def test_ten_people_two_rounds_a_phone_and_a_kill(browser: Browser, tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'evening.db'}", bot_delay=0.0,
                    env={"STICH_LIMITS": LIMITS})
    server.start(60)
    org = Client(server)
    org.register(uid("Org"))
    t = _ok(org.post("/api/tournaments", {
        "name": "Preisskat im Vereinsheim", "public": False, "games_three": 3,
        "games_four": 4, "rounds": 2, "clock": 0, "next_after": 5}))
    tid, invite = t["id"], t["invite"]
    nine = [Client(server) for _ in range(PEOPLE - 1)]
    for i, c in enumerate(nine):
        if i % 3 == 0:
            c.guest(uid("Gast"))
        else:
            c.register(uid("Spieler"))
        _ok(c.post(f"/api/tournaments/{tid}/register", {"invite": invite}))
    ctx, page = visitor(browser, viewport=PHONE)
    try:
        # -- the phone joins by the link, as a guest ----------------------------------------
        page.goto(server.url + t["invite_path"])
        page.click("#tn-login")
        page.fill("#guest input[name=name]", "Handy")
        page.click("#guest button[type=submit]")
        page.wait_for_selector("#tn-join")
        page.click("#tn-join")
        page.wait_for_selector("#tn-registered")
        assert len(_ok(org.get(f"/api/tournaments/{tid}"))["players"]) == PEOPLE

        def round_start(number: int) -> list[dict[str, Any]]:
            """The organiser starts the round; the phone reloads and goes to her table
            by the page's button; the nine find theirs and start playing."""
            if number > 1:
                page.evaluate("() => { window.stayed = true; }")
            t = _ok(org.post(f"/api/tournaments/{tid}/start"))
            assert (t["status"], t["round"]) == ("running", number)
            tables = t["rounds_played"][number - 1]["tables"]
            assert sorted(len(x["seats"]) for x in tables) == [3, 3, 4]
            if number == 1:
                page.goto(server.url + f"/tournaments/{tid}")
            else:  # the page left open between the rounds shows the next one by itself,
                # in place (it does not load again): her table's number and company
                page.wait_for_selector("#tn-table", timeout=25_000)
                assert page.evaluate("() => window.stayed") is True
                mine = next(x for x in tables
                            if x["link"] == page.get_attribute("#tn-table", "href"))
                line = page.inner_text("#tn-new-table")
                assert line.startswith(f"Runde {number}: Tisch {mine['number']}, mit "), line
                assert all(s["name"] in line for s in mine["seats"] if s["name"] != "Handy")
                assert page.inner_text("#tn-status") == f"Runde {number} läuft"
                assert page.inner_text("#tn-round") == f"Runde {number} von 2"
                assert page.query_selector("#tn-next") is None
                in_view(page, "#tn-new-table")
                shot(page, f"tournament-evening-round-{number}-shown-phone")
            in_view(page, "#tn-table")
            link = page.get_attribute("#tn-table", "href")
            assert link and link.startswith("/t/")
            links = [_ok(c.get(f"/api/tournaments/{tid}"))["you"]["table"] for c in nine]
            every = [link, *links]
            assert sorted(every.count(x["link"]) for x in tables) == [3, 3, 4]
            page.click("#tn-table")
            page.wait_for_url("**/t/**")
            page.wait_for_function("() => window.stichTable?.state.view")
            rounds.append(_protocol_round(nine, [x.removeprefix("/t/") for x in links],
                                          number))
            return tables

        rounds: list[tuple[concurrent.futures.Future[None], list[Follower]]] = []

        # -- round 1 --------------------------------------------------------------------------
        round_start(1)
        _play_series(page, bid="pass")
        rounds[0][0].result(ROUND_SECONDS)
        page.goto(server.url + f"/tournaments/{tid}")
        assert f"von {PEOPLE}" in page.inner_text("#tn-place")
        in_view(page, "#tn-place")
        assert "Runde 2" in page.inner_text("#tn-next")
        shot(page, "tournament-evening-after-round-1-phone")
        t = _ok(org.get(f"/api/tournaments/{tid}"))
        assert (t["status"], t["round"]) == ("between", 1)
        # the games of each table of round 1, as the page writes them
        for x in t["rounds_played"][0]["tables"]:
            assert page.inner_text(f"[data-played='1-{x['number']}']") == str(x["games"])

        # -- round 2, with a kill -9 in its middle --------------------------------------------
        tables2 = round_start(2)
        killed: dict[str, Any] = {}

        def kill_in_the_middle(st: Any) -> None:
            """Once the phone has played three cards of a game: kill -9, start again."""
            v = st and st["view"]
            if killed or not v or v["phase"] != "PLAY" or len(v["hand"]) > 7:
                return
            killed["phone_seq"] = st["seq"]
            server.kill()
            killed["restart_s"] = server.start(60)
            # the page finds the server again by itself
            page.wait_for_function("() => window.stichTable.conn.status === 'open'",
                                   timeout=30_000)
            after = state(page)
            assert after["seq"] >= killed["phone_seq"], (after["seq"], killed)
            t = _ok(org.get(f"/api/tournaments/{tid}"))
            assert (t["status"], t["round"]) == ("running", 2)
            assert seating(t["rounds_played"][1]["tables"]) == seating(tables2)
            killed["played"] = {x["link"]: x["games_played"]
                                for x in t["rounds_played"][1]["tables"]}

        _play_series(page, bid="18", between=kill_in_the_middle)
        assert killed, "the phone's series ended before its second game"
        rounds[1][0].result(ROUND_SECONDS)
        # the kill came in the middle of the phone's series
        phone_table = "/t/" + page.url.split("/t/")[1].split("?")[0]
        seats = next(len(x["seats"]) for x in tables2 if x["link"] == phone_table)
        assert killed["played"][phone_table] < (3 if seats == 3 else 4), killed
        # every protocol player whose table was not over came back after the kill, and
        # none saw a gap or disorder
        series = {x["link"]: 3 if len(x["seats"]) == 3 else 4 for x in tables2}
        cut = [f for f in rounds[1][1]
               if killed["played"]["/t/" + f.table_id] < series["/t/" + f.table_id]]
        assert all(f.connections >= 2 for f in cut), [f.connections for f in cut]
        followers = rounds[0][1] + rounds[1][1]
        assert [p for f in followers for p in f.problems] == []

        # -- nothing lost, the standings as the records give them -----------------------------
        checked = 0
        for f in followers:
            n, problems = check_received(server.db, f.table_id,
                                         [(f.receiver, m) for m in f.events])
            assert problems == [], problems[:5]
            checked += n
        assert checked > 500, checked
        print(f"\nevening: {checked} events checked, restart {killed['restart_s']:.1f} s, "
              f"games played at the kill {sorted(killed['played'].values())}, "
              f"{len(cut)} of 9 protocol players cut off")
        t = _ok(org.get(f"/api/tournaments/{tid}"))
        assert t["status"] == "over", t["status"]
        expected, order = standings_from_records(server.db, t)
        assert [(s["place"], s["score"], s["won"], s["lost"]) for s in t["standings"]] \
            == expected
        assert [s["id"] for s in t["standings"]] == order
        assert all(s["series"] == 2 for s in t["standings"])

        # -- the phone: her place at the end ------------------------------------------------
        page.goto(server.url + f"/tournaments/{tid}")
        mine = next(s for s in t["standings"] if s["name"] == "Handy")
        place = page.inner_text("#tn-place")
        assert f"{mine['place']} von {PEOPLE}" in place, (place, mine)
        in_view(page, "#tn-place")
        assert page.query_selector("#tn-table") is None
        row = page.locator("#tn-standings tr.me")
        assert row.count() == 1 and "Handy" in row.inner_text()
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        shot(page, "tournament-evening-over-phone")
        assert _real_errors(page) == []
    finally:
        ctx.close()
        for c in [org, *nine]:
            c.close()
        server.stop()
