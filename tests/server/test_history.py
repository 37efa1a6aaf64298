"""The Skat list, the Bestenliste and the history of finished games, over real sockets.

Every figure the server serves is checked against the same figure recomputed here from
the finished games' records alone (``GET /api/games/{id}``): each record is replayed with
:func:`stich.record.replay` and its outcome fed into a fresh :class:`SkatList`, or summed
per player.  The tables are played once per database kind (the ``played`` fixture): two
tables of bots only (created by a registered player who does not sit there), a person
with two bots, and two tables of three people (two registered, one guest) whose first
game everybody passes (a Ramsch under ``lothar``, a redeal under ``isko``).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import create_engine, update

from stich.cards import parse_cards
from stich.record import bock_factor, replay, replay_skat, skat_record, verify
from stich.server.history import replay_steps
from stich.server.store.db import sync_url
from stich.server.store.models import GameRow
from stich.skat import SkatRules, SkatState
from stich.skat.analysis import AnalysisError, analyze
from stich.skat_list import SkatList, bilanz
from tests.server.harness import Client, Server, TableSocket

Policy = Callable[[dict[str, Any], random.Random], str | None]

CARD_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def points(cards: list[str]) -> int:
    return sum(CARD_POINTS.get(c[1], 0) for c in cards)


async def play(sockets: list[TableSocket], rng: random.Random,
               policy: Policy | None = None) -> None:
    """Every person plays (``policy``'s choice, else a random legal action) until the
    table's ``end`` event.  A stale action (another seat moved first) is refused; the
    person then acts on the newer event."""

    async def one(ws: TableSocket) -> None:
        while True:
            msg = await ws.recv(30)
            if msg["type"] == "error":
                assert msg["code"] == "server.stale", msg
                continue
            if msg["type"] == "event" and msg["kind"] == "end":
                return
            v = ws.view
            if msg["type"] in ("event", "snapshot") and v and v["legal"] \
                    and v["to_move"] == v["seat"]:
                choice = policy(v, rng) if policy else None
                await ws.act(choice or rng.choice(v["legal"]))

    await asyncio.gather(*(one(ws) for ws in sockets))


def scripted(game2: str) -> Policy:
    """Game 1 of the list: everybody passes (a Ramsch under ``lothar``, a redeal under
    ``isko``).  Game 2: Mittelhand says 18, the others pass, and it plays ``game2`` Hand
    (games whose analysis is quick).  Then random play."""

    def policy(v: dict[str, Any], rng: random.Random) -> str | None:
        legal = v["legal"]
        if v["number"] == 1:
            return "pass" if "pass" in legal else None
        if v["number"] == 2:
            if v["phase"] == "BIDDING":
                return "18" if v["bid"] == 0 and "18" in legal else "pass"
            if "hand" in legal:
                return "hand"
            if f"declare {game2} hand" in legal:
                return f"declare {game2} hand"
        return None

    return policy


def wait_over(c: Client, table_id: str, timeout: float = 60.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        info: dict[str, Any] = c.get(f"/api/tables/{table_id}").json()["table"]
        if info["status"] == "over":
            return info
        time.sleep(0.1)
    raise TimeoutError(f"table {table_id} did not finish")


@dataclass
class Played:
    server: Server
    viewer: Client  # a registered player who made the bots' table and watches
    users: dict[str, str]  # role (ann, ben, gus, vic) -> name
    tables: dict[str, str]  # role -> table id
    records: dict[int, dict[str, Any]] = field(default_factory=dict)

    def record(self, game_id: int) -> dict[str, Any]:
        """A finished game's record, as ``GET /api/games/{id}`` serves it (kept)."""
        if game_id not in self.records:
            self.records[game_id] = record_of(self.viewer, game_id)
        return self.records[game_id]


@pytest.fixture(scope="module")
def played(server: Server) -> Iterator[Played]:
    """The tables of this module, played to their end once per database kind."""
    ann, ben, gus, vic = (Client(server) for _ in range(4))
    users = {"ann": unique("Ann"), "ben": unique("Ben"), "gus": unique("Gus"),
             "vic": unique("Vic")}
    ann.register(users["ann"])
    ben.register(users["ben"])
    gus.guest(users["gus"])
    vic.register(users["vic"])
    p = Played(server, vic, users, {})
    p.tables["bots"] = vic.create(game="skat", preset="lothar", games=3,
                                  seats=["bot:strong", "bot:random", "bot:easy"])["table"]["id"]

    async def people_table(key: str, preset: str, game2: str, seed: int) -> None:
        tid = ann.create(game="skat", preset=preset, games=3,
                         seats=["me", "person", "person"])["table"]["id"]
        for c in (ben, gus):
            r = c.post(f"/api/tables/{tid}/join", {})
            assert r.status_code == 200, r.text
        p.tables[key] = tid
        sockets = [await c.connect(tid) for c in (ann, ben, gus)]
        await play(sockets, random.Random(seed), scripted(game2))
        for ws in sockets:
            await ws.close()

    async def mixed() -> None:
        tid = ann.create(game="skat", preset="lothar", games=3,
                         seats=["bot:easy", "me", "bot:random"])["table"]["id"]
        p.tables["mixed"] = tid
        ws = await ann.connect(tid)
        await play([ws], random.Random(3))
        await ws.close()

    async def all_tables() -> None:
        await asyncio.gather(mixed(), people_table("people_lothar", "lothar", "null", 4),
                             people_table("people_isko", "isko", "grand", 5))

    asyncio.run(asyncio.wait_for(all_tables(), 120))
    wait_over(vic, p.tables["bots"], timeout=180)  # the search bot thinks 0.3 s a move
    try:
        yield p
    finally:
        for c in (ann, ben, gus, vic):
            c.close()


def table_games(c: Client, table_id: str) -> list[dict[str, Any]]:
    r = c.get(f"/api/tables/{table_id}/games")
    assert r.status_code == 200, r.text
    games: list[dict[str, Any]] = r.json()["games"]
    return games


def record_of(c: Client, game_id: int) -> dict[str, Any]:
    r = c.get(f"/api/games/{game_id}")
    assert r.status_code == 200, r.text
    rec: dict[str, Any] = r.json()["record"]
    return rec


def recomputed_list(records: list[dict[str, Any]], names: list[str]) -> SkatList:
    """The Skat list rebuilt from the records alone."""
    first = records[0]["seats"][2]  # the dealer of game 1 is its Hinterhand
    table = SkatList(names, SkatRules.parse(records[0]["rules"]), first_dealer=first)
    for rec in records:
        state = replay_skat(rec)
        table.record_game(state.outcome(), tuple(rec["seats"]))  # type: ignore[arg-type]
    return table


# --- the Skat list -------------------------------------------------------------------------

def test_a_table_of_bots_only_needs_no_person(played: Played) -> None:
    c = played.viewer
    r = c.get(f"/api/tables/{played.tables['bots']}").json()
    assert r["you"] is None  # the creator does not sit there
    assert r["table"]["status"] == "over"
    assert [s["kind"] for s in r["table"]["seats"]] == ["bot", "bot", "bot"]
    assert r["table"]["games_played"] == 3
    games = table_games(c, played.tables["bots"])
    assert [g["number"] for g in games] == [1, 2, 3]
    assert all(not p["registered"] and p["bot"] for g in games for p in g["players"])


def test_skat_list_is_the_list_recomputed_from_the_records(played: Played) -> None:
    c = played.viewer
    for key, tid in played.tables.items():
        lst = c.get(f"/api/tables/{tid}/list").json()["list"]
        games = table_games(c, tid)
        assert [g["number"] for g in games] == list(range(1, 4)), key
        records = [played.record(g["id"]) for g in games]
        names = lst["players"]
        assert len(names) == 3 and len(set(names)) == 3
        for g, rec in zip(games, records, strict=True):
            verify(rec)
            assert rec["table_game"] == g["number"]
            assert rec["players"] == [names[s] for s in rec["seats"]]
            assert [p["name"] for p in g["players"]] == names
        expected = recomputed_list(records, names).to_dict()
        expected.update(players=names, games_planned=3)
        for line in expected["games"]:
            line["standin"] = []  # people and bots played every game themselves
        assert lst == json.loads(json.dumps(expected)), key

        # the list's own arithmetic, by hand: the dealer moves on, totals add up,
        # Bilanz is 2 × own − the others and sums to zero
        running = [0, 0, 0]
        first = records[0]["seats"][2]
        for i, (line, rec) in enumerate(zip(lst["games"], records, strict=True)):
            assert line["dealer"] == (first + i) % 3 == rec["seats"][2]
            outcome = replay(rec).outcome()  # type: ignore[union-attr]
            by_seat = [0, 0, 0]
            for pos, seat in enumerate(rec["seats"]):
                by_seat[seat] = outcome.scores[pos]
            assert line["scores"] == by_seat
            running = [a + b for a, b in zip(running, by_seat, strict=True)]
            assert line["totals"] == running
            if outcome.kind == "game":
                assert line["declarer"] == rec["seats"][outcome.declarer]
                assert line["value"] == outcome.value and line["won"] == outcome.won
            else:
                assert line["declarer"] is None and line["won"] is None
        assert lst["punktestand"] == running
        assert lst["bilanz"] == [2 * t - (sum(running) - t) for t in running]
        assert sum(lst["bilanz"]) == 0

    ramsch = c.get(f"/api/tables/{played.tables['people_lothar']}/list").json()["list"]
    assert ramsch["games"][0]["kind"] == "ramsch"
    redeal = c.get(f"/api/tables/{played.tables['people_isko']}/list").json()["list"]
    assert redeal["games"][0]["kind"] == "passed"
    assert redeal["games"][0]["scores"] == [0, 0, 0]
    assert c.get("/api/tables/nosuchtable/games").json()["error"]["code"] \
        == "server.no_such_table"


# --- the Bestenliste -----------------------------------------------------------------------

def expected_rows(played: Played, name: str, when: dict[int, datetime] | None = None,
                  since: datetime | None = None) -> dict[str, dict[str, int]]:
    """A player's Bestenliste rows per preset, summed from their games' records
    (``when``: the finished time of a game moved in the database)."""
    page = played.viewer.get(f"/api/users/{name}", params={"limit": 200}).json()
    rows: dict[str, dict[str, int]] = {}
    for g in page["games"]:
        if g["game"] != "skat":
            continue
        finished = (when or {}).get(g["id"]) or datetime.fromisoformat(g["finished_at"])
        if finished.tzinfo is None:
            finished = finished.replace(tzinfo=UTC)
        if since is not None and finished < since:
            continue
        rec = played.record(g["id"])
        preset = SkatRules.parse(rec["rules"]).preset_name
        outcome = replay(rec).outcome()  # type: ignore[union-attr]
        seats = rec["seats"]
        pos = seats.index(g["you"])
        by_seat = [0, 0, 0]
        for p, seat in enumerate(seats):
            by_seat[seat] = outcome.scores[p]
        row = rows.setdefault(preset, {"name": name, "punktestand": 0, "bilanz": 0,  # type: ignore[dict-item]
                                       "games": 0, "declarer_won": 0, "declarer_lost": 0})
        row["punktestand"] += outcome.scores[pos]
        row["bilanz"] += bilanz(by_seat)[g["you"]]
        row["games"] += 1
        if outcome.kind == "game" and outcome.declarer == pos:
            row["declarer_won" if outcome.won else "declarer_lost"] += 1
    return rows


def served_rows(c: Client, preset: str, period: str) -> dict[str, dict[str, Any]]:
    r = c.get("/api/bestenliste", params={"preset": preset, "period": period})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["preset"] == preset and body["period"] == period
    players = body["players"]
    assert [p["rank"] for p in players] == list(range(1, len(players) + 1))
    assert [p["bilanz"] for p in players] == sorted((p["bilanz"] for p in players),
                                                    reverse=True)
    return {p["name"]: {k: v for k, v in p.items() if k != "rank"} for p in players}


def test_bestenliste_sums_registered_players_per_preset(played: Played) -> None:
    c = played.viewer
    ann, ben, gus = (played.users[k] for k in ("ann", "ben", "gus"))
    lothar = served_rows(c, "lothar", "all")
    isko = served_rows(c, "isko", "all")
    for name in (ann, ben):
        mine = expected_rows(played, name)
        assert set(mine) == {"lothar", "isko"}
        assert lothar[name] == mine["lothar"]
        assert isko[name] == mine["isko"]
        page = c.get(f"/api/users/{name}").json()  # the player's page: the same rows
        assert page["skat"] == {"lothar": lothar[name], "isko": isko[name]}
    # Ann: a person with two bots (3 games) and three people (3 games) under lothar,
    # three people under isko; Ben: three people under each
    assert (lothar[ann]["games"], isko[ann]["games"]) == (6, 3)
    assert (lothar[ben]["games"], isko[ben]["games"]) == (3, 3)

    # the same figures from the tables' lists: Punktestand is the sum of the seat's
    # totals, Bilanz the sum of the tables' Bilanz (it is linear in the games' scores)
    def from_lists(name: str, keys: list[str]) -> tuple[int, int]:
        pts = bil = 0
        for key in keys:
            lst = c.get(f"/api/tables/{played.tables[key]}/list").json()["list"]
            seat = lst["players"].index(name)
            pts += lst["punktestand"][seat]
            bil += lst["bilanz"][seat]
        return pts, bil

    assert from_lists(ann, ["mixed", "people_lothar"]) == \
        (lothar[ann]["punktestand"], lothar[ann]["bilanz"])
    assert from_lists(ben, ["people_isko"]) == (isko[ben]["punktestand"], isko[ben]["bilanz"])

    # registered players only: no guest, no bot
    bots = {p["name"] for key in ("bots", "mixed")
            for g in table_games(c, played.tables[key]) for p in g["players"] if p["bot"]}
    for rows in (lothar, isko):
        assert gus not in rows
        assert not bots & set(rows)
    assert c.get(f"/api/users/{gus}").json()["error"]["code"] == "server.no_such_player"
    first = table_games(c, played.tables["people_lothar"])[0]
    flags = {p["name"]: p["registered"] for p in first["players"]}
    assert flags == {ann: True, ben: True, gus: False}  # a guest has an account, though
    shown = c.get(f"/api/games/{first['id']}").json()["game"]["players"]
    assert {p["name"]: p["registered"] for p in shown} == flags
    assert played.users["vic"] not in lothar  # created tables of bots, played no game

    bad = c.get("/api/bestenliste", params={"preset": "turnier"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "server.bad_preset"
    bad = c.get("/api/bestenliste", params={"period": "week"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "server.bad_period"


def test_bestenliste_period_filter(played: Played) -> None:
    c = played.viewer
    ann, ben = played.users["ann"], played.users["ben"]
    for period in ("year", "month"):  # everything was played just now
        assert served_rows(c, "lothar", period)[ann] == expected_rows(played, ann)["lothar"]

    # move the games of Ann's table with the bots into last year, and the Ramsch of the
    # people's table to the last day of last month (last year too in January)
    now = datetime.now(UTC)
    last_year = datetime(now.year - 1, 6, 15, 12, tzinfo=UTC)
    last_month = datetime(now.year, now.month, 1, 12, tzinfo=UTC) - timedelta(days=1)
    when = {g["id"]: last_year for g in table_games(c, played.tables["mixed"])}
    ramsch = table_games(c, played.tables["people_lothar"])[0]["id"]
    when[ramsch] = last_month
    engine = create_engine(sync_url(played.server.db))
    try:
        with engine.begin() as conn:
            for key, t in when.items():
                conn.execute(update(GameRow).where(GameRow.key == key)
                             .values(finished_at=t))
    finally:
        engine.dispose()

    starts = {"all": None, "year": datetime(now.year, 1, 1, tzinfo=UTC),
              "month": datetime(now.year, now.month, 1, tzinfo=UTC)}
    counts = {}
    for period, since in starts.items():
        rows = served_rows(c, "lothar", period)
        for name in (ann, ben):
            mine = expected_rows(played, name, when, since).get("lothar")
            assert rows.get(name) == mine, (period, name)
        counts[period] = rows[ann]["games"] if ann in rows else 0
    assert counts["all"] == 6  # nothing drops out of all time
    assert counts["month"] == 2  # only the people's last two lothar games
    assert counts["year"] == (3 if now.month > 1 else 2)
    assert served_rows(c, "lothar", "month")[ben]["games"] == 2
    # isko is not touched by any of it
    assert served_rows(c, "isko", "month")[ann] == expected_rows(played, ann)["isko"]


# --- history: records, replays, analyses -------------------------------------------------

def check_skat_steps(steps: list[dict[str, Any]], rec: dict[str, Any]) -> None:
    """The replay: one step per action and the deal; cards leave the hands one by one;
    the last step is the record's result."""
    actions = rec["actions"]
    assert len(steps) == len(actions) + 1
    assert steps[0]["action"] is None and steps[0]["actor"] is None
    assert [sorted(h) for h in steps[0]["hands"]] == \
        [sorted(h.split()) for h in rec["deal"]["hands"]]
    for before, after, text in zip(steps[:-1], steps[1:], actions, strict=True):
        assert after["action"] == text
        seat = after["actor"]
        assert seat == before["to_move"]
        held_before = sum(len(h) for h in before["hands"])
        held_after = sum(len(h) for h in after["hands"])
        if len(text) == 2 and text[0] in "CSHD":  # a card (a bid is a number)
            assert held_after == held_before - 1
            assert text in before["hands"][seat] and text not in after["hands"][seat]
            assert sorted(after["hands"][seat] + [text]) == sorted(before["hands"][seat])
        elif text == "pickup":
            assert held_after == held_before + 2
        elif text.startswith("discard"):
            assert held_after == held_before - 2
        elif text in ("claim", "giveup") and after["phase"] == "OVER":
            # a claim of the rest (a bot's too), or giving up: every card left goes to
            # one side, the hands are empty
            assert held_after == 0 and after["trick"] == []
        else:  # the same cards (declaring sorts them anew: trumps first)
            assert [sorted(h) for h in after["hands"]] == [sorted(h) for h in before["hands"]]
    last, result = steps[-1], rec["result"]
    assert last["phase"] == "OVER"
    assert sum(len(h) for h in last["hands"]) == 30 - sum(last["tricks_won"]) * 3
    # the cards left when a claim (or giving up) ended the game, and who took them
    rest, rest_tricks = [], [0, 0, 0]
    if actions[-1] in ("claim", "giveup"):
        at_end = steps[-2]
        rest = [c for h in at_end["hands"] for c in h] + [c for _, c in at_end["trick"]]
        for _leader, _cards, winner in last["tricks"]:
            rest_tricks[winner] -= 1
        rest_tricks = [won + n for won, n in zip(last["tricks_won"], rest_tricks, strict=True)]
        assert sum(rest_tricks) * 3 == len(rest) and max(rest_tricks) == sum(rest_tricks)
    if result["kind"] == "game":
        d = result["declarer"]
        assert last["declarer"] == d
        assert last["tricks_won"][d] == result["declarer_tricks"]
        assert sum(last["tricks_won"]) - last["tricks_won"][d] == result["defender_tricks"]
        discard = [a for a in actions if a.startswith("discard")]
        skat = discard[0].split()[1:] if discard else rec["deal"]["skat"].split()
        rest_points = points(rest) if rest_tricks[d] else 0
        assert last["points_taken"][d] + points(skat) + rest_points == result["declarer_points"]
    elif result["kind"] == "ramsch":
        assert last["tricks_won"] == result["tricks"]
        with_skat = list(last["points_taken"])
        with_skat[last["tricks"][-1][2]] += points(rec["deal"]["skat"].split())
        assert with_skat == result["points"]
    else:
        assert result == {"kind": "passed", "scores": [0, 0, 0]}
        assert last["tricks"] == [] and actions == ["pass", "pass", "pass"]


def expected_analysis(rec: dict[str, Any]) -> dict[str, Any] | str:
    """The analysis ``stich analyze`` gives (as JSON), or the code of its refusal."""
    try:
        d = analyze(replay_skat(rec), bock=bock_factor(rec)).to_dict()
    except AnalysisError as e:
        return e.code
    out: dict[str, Any] = json.loads(json.dumps(d))
    return out


def test_a_game_ended_by_a_claim_in_a_trick_replays_step_by_step() -> None:
    """The replay of a game a declarer ended by a claim with a trick open (as ``strong``
    does): the check above holds for it, the rest counted for him."""
    hands = [parse_cards("D7 DQ DK DA H8 S9 SQ ST CK CJ"),
             parse_cards("D8 DJ HK HJ S7 SJ C7 C8 C9 CT"),
             parse_cards("D9 DT H7 HQ HT HA S8 SA CQ CA")]
    state = SkatState.new(SkatRules(), hands=hands, skat=parse_cards("H9 SK"))
    for text in ["18", "pass", "pass", "pickup", "discard D8 HK", "declare eichel", "DA",
                 "C7", "D9", "C8", "CQ", "CK", "H8", "H9", "HA", "SA", "ST", "S7", "HT",
                 "DK", "C9", "CT", "CA", "CJ", "D7", "claim"]:
        state = state.apply(state.parse_action(text))
    assert state.end_reason == "claimed" and state.tricks_won[1] == 6
    rec = skat_record(state)
    steps = replay_steps(rec)
    assert steps[-2]["trick"] == [[0, "D7"]] and steps[-2]["hands"][1] == ["SJ", "HJ", "DJ", "SK"]
    check_skat_steps(steps, rec)


def test_every_finished_game_is_a_record_that_replays_step_by_step(played: Played) -> None:
    c = played.viewer
    kinds: dict[str, list[dict[str, Any]]] = {}
    for key, tid in played.tables.items():
        for g in table_games(c, tid):
            body = c.get(f"/api/games/{g['id']}").json()
            rec = body["record"]
            assert body["game"]["id"] == g["id"] and body["game"]["table"] == tid
            assert rec["format"] == "stich-record/1" and rec["game"] == "skat"
            state = verify(rec)
            assert state.is_over
            assert rec["result"] == state.outcome().to_dict()  # type: ignore[union-attr]
            preset = "isko" if key == "people_isko" else "lothar"
            assert rec["rules"] == f"skat(preset={preset})"
            assert body["game"]["preset"] == preset
            steps = c.get(f"/api/games/{g['id']}/replay").json()["steps"]
            check_skat_steps(steps, rec)
            kinds.setdefault(rec["result"]["kind"], []).append(rec | {"id": g["id"]})
    assert set(kinds) >= {"game", "ramsch", "passed"}
    assert len(kinds["passed"]) >= 1 and len(kinds["ramsch"]) >= 1
    missing = c.get("/api/games/999999/replay")
    assert missing.status_code == 404 and missing.json()["error"]["code"] \
        == "server.no_such_game"


def test_analysis_of_skat_games_is_the_engines_and_cached(played: Played) -> None:
    c = played.viewer
    games = {key: [played.record(g["id"]) | {"id": g["id"]}
                   for g in table_games(c, played.tables[key])]
             for key in ("people_lothar", "people_isko")}
    # the scripted games: a Ramsch, a redeal, a Null Hand and a Grand Hand
    ramsch, null = games["people_lothar"][:2]
    passed, grand = games["people_isko"][:2]
    assert ramsch["result"]["kind"] == "ramsch" and passed["result"]["kind"] == "passed"
    for rec, name in ((null, "null"), (grand, "grand")):
        assert rec["result"]["game"] == name and rec["result"]["hand"] is True
        assert rec["result"]["declarer"] == 1  # Mittelhand said 18
    for rec in (null, grand):
        expected = expected_analysis(rec)
        assert isinstance(expected, dict)
        # reading (GET) starts nothing: none made yet
        none = c.get(f"/api/games/{rec['id']}/analysis", params={"lang": "de"})
        assert none.status_code == 404, none.text
        assert none.json()["error"]["code"] == "server.no_analysis"
        assert "noch nicht analysiert" in none.json()["error"]["text"]
        first = c.post(f"/api/games/{rec['id']}/analysis")  # starting one is a POST
        assert first.status_code == 200, first.text
        body = first.json()
        assert body["cached"] is False and body["game"] == rec["id"]
        got = dict(body["analysis"])
        assert got.pop("players") == rec["players"]
        assert got == expected
        for again in (c.get(f"/api/games/{rec['id']}/analysis").json(),  # now it reads it
                      c.post(f"/api/games/{rec['id']}/analysis").json()):
            assert again["cached"] is True and again["analysis"] == body["analysis"]
    for rec, code in ((ramsch, "analysis.ramsch"), (passed, "analysis.all_passed")):
        assert expected_analysis(rec) == code
        for _ in range(2):  # a refusal, every time: never a 500, never cached
            r = c.post(f"/api/games/{rec['id']}/analysis", params={"lang": "de"})
            assert r.status_code == 400, r.text
            assert r.json()["error"]["code"] == code
            assert r.json()["error"]["text"]
            r = c.get(f"/api/games/{rec['id']}/analysis")
            assert r.status_code == 404 and r.json()["error"]["code"] == "server.no_analysis"
