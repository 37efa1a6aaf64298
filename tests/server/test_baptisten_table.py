"""A whole Baptistenskat game online, with people and bots, over real sockets.

The Anschreibezettel the server serves (``GET /api/tables/{id}/sheet``, and the ``sheet``
of a snapshot) is checked against :func:`stich.baptisten.scoring.scoresheet` of the game's
own record, replayed up to the same action: while the game runs (a round at a time, as
its ``round_over`` event comes) and at the end.  Then the stored game: its record, its
step-by-step replay, the refused analysis, and the Baptistenskat ranking.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from stich.baptisten import BaptistenRules
from stich.baptisten.scoring import ranking, scoresheet
from stich.record import replay_baptisten, verify
from tests.server.harness import Client, Server, TableSocket


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def my_turn(ws: TableSocket) -> bool:
    v = ws.view
    return bool(v and v["legal"] and v["to_move"] == v["seat"])


def acts(ws: TableSocket, upto: int) -> list[str]:
    """The action texts of the events ``ws`` saw, up to event ``upto``."""
    return [m["data"]["text"] for m in ws.messages
            if m["type"] == "event" and m["kind"] == "act" and m["seq"] <= upto]


@dataclass
class Game:
    """A played table: what its first person's connection saw from the start, and the
    sheet served each time the table waited for them after a new round."""

    table: str
    rules: str
    watcher: TableSocket
    others: list[TableSocket]
    sheets: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (seq, sheet)
    final: dict[str, Any] = field(default_factory=dict)
    game_id: int = 0


async def play_table(creator: Client, joiners: list[Client], body: dict[str, Any],
                     seed: int) -> Game:
    """Create a table, sit the people, and play it to its end by random legal moves.
    The creator connects before the start, so they see every event."""
    created = creator.create(game="baptisten", **body)
    tid = created["table"]["id"]
    assert created["table"]["status"] == "waiting"
    first = await creator.connect(tid)
    others = []
    for c in joiners:
        r = c.post(f"/api/tables/{tid}/join", {})
        assert r.status_code == 200, r.text
        others.append(await c.connect(tid))
    game = Game(tid, created["table"]["rules"], first, others)
    rng = random.Random(seed)

    async def person(ws: TableSocket, watch: bool) -> None:
        acted: set[int] = set()
        rounds_seen = 0
        while True:
            msg = await ws.recv(30)
            if msg["type"] == "error":
                assert msg["code"] == "server.stale", msg
                continue
            if msg["type"] == "event" and msg["kind"] == "end":
                return
            if not (msg["type"] in ("event", "snapshot") and my_turn(ws)) \
                    or ws.seq in acted:
                continue
            rounds = sum(1 for m in ws.messages if m.get("kind") == "round_over")
            if watch and rounds > rounds_seen:  # the table waits for us: read the sheet
                rounds_seen = rounds
                sheet = creator.get(f"/api/tables/{tid}/sheet").json()["sheet"]
                game.sheets.append((ws.seq, sheet))
            acted.add(ws.seq)
            assert ws.view is not None
            await ws.act(rng.choice(ws.view["legal"]))

    await asyncio.gather(person(first, True), *(person(ws, False) for ws in others))
    game.final = creator.get(f"/api/tables/{tid}/sheet").json()["sheet"]
    games = creator.get(f"/api/tables/{tid}/games").json()["games"]
    assert len(games) == 1 and games[0]["number"] == 1
    game.game_id = games[0]["id"]
    for ws in (first, *others):
        await ws.close()
    return game


@dataclass
class Played:
    server: Server
    users: dict[str, str]
    clients: dict[str, Client]
    games: dict[str, Game]


@pytest.fixture(scope="module")
def played(server: Server) -> Iterator[Played]:
    """Two tables played once per database kind: four players (two people, two bots)
    with up to three cards; three players (a person, a bot, a guest) with up to two
    cards, forehead cards (variant 2) and trick scoring (variant 3)."""
    ann, ben, gus = Client(server), Client(server), Client(server)
    users = {"ann": unique("Ann"), "ben": unique("Ben"), "gus": unique("Gus")}
    ann.register(users["ann"])
    ben.register(users["ben"])
    gus.guest(users["gus"])

    async def both() -> list[Game]:
        return list(await asyncio.gather(
            play_table(ann, [ben], {"seats": ["me", "bot:easy", "person", "bot:random"],
                                    "max_cards": 3}, 1),
            play_table(ann, [gus], {"seats": ["me", "bot:easy", "person"], "max_cards": 2,
                                    "variants": [2, 3]}, 2)))

    four, three = asyncio.run(asyncio.wait_for(both(), 90))
    try:
        yield Played(server, users, {"ann": ann, "ben": ben, "gus": gus},
                     {"four": four, "three": three})
    finally:
        for c in (ann, ben, gus):
            c.close()


def record_of(c: Client, game_id: int) -> dict[str, Any]:
    r = c.get(f"/api/games/{game_id}")
    assert r.status_code == 200, r.text
    rec: dict[str, Any] = r.json()["record"]
    return rec


def sheet_after(rec: dict[str, Any], n: int) -> dict[str, Any]:
    """The scoresheet of the record's game after its first ``n`` actions."""
    state = replay_baptisten({**rec, "actions": rec["actions"][:n], "result": None},
                             check_result=False)
    return scoresheet(state, rec["players"])


def unmarked(sheet: dict[str, Any]) -> dict[str, Any]:
    """The table's sheet as the engine writes it: without the table's stand-in mark of
    each entry, which must be there and false (a person or a bot played every seat
    here, never a stand-in)."""
    rounds = []
    for r in sheet["rounds"]:
        assert all(e["standin"] is False for e in r["entries"]), r
        rounds.append({**r, "entries": [{k: v for k, v in e.items() if k != "standin"}
                                        for e in r["entries"]]})
    return {**sheet, "rounds": rounds}


def same_action(said: str, recorded: str, forehead: bool) -> bool:
    """An announced action is the recorded one; only a forehead card, which its player
    cannot see, is announced as ``play`` and recorded as the card it was."""
    return said == recorded or (forehead and said == "play" and not recorded.startswith("bid"))


def test_the_rules_asked_for(played: Played) -> None:
    four = BaptistenRules.parse(played.games["four"].rules)
    assert (four.players, four.max_cards, four.forehead, four.trick_scoring) == \
        (4, 3, False, False)
    three = BaptistenRules.parse(played.games["three"].rules)
    assert (three.players, three.max_cards, three.forehead, three.trick_scoring) == \
        (3, 2, True, True)


@pytest.mark.parametrize("which", ["four", "three"])
def test_the_sheet_is_the_records_scoresheet_live_and_at_the_end(played: Played,
                                                                 which: str) -> None:
    g = played.games[which]
    c = played.clients["ann"]
    rec = record_of(c, g.game_id)
    verify(rec)
    rules = BaptistenRules.parse(rec["rules"])
    assert rec["rules"] == g.rules

    # every action the table announced is the record's, in order
    said = acts(g.watcher, g.watcher.seq)
    assert len(said) == len(rec["actions"])
    assert all(same_action(a, r, rules.forehead)
               for a, r in zip(said, rec["actions"], strict=True))
    assert ("play" in said) == rules.forehead  # one-card rounds: the card unseen
    state = replay_baptisten(rec)
    names = rec["players"]
    assert unmarked(g.final) == scoresheet(state, names)
    assert g.final["players"] == names and len(names) == rules.players
    assert [r["cards"] for r in g.final["rounds"]] == list(rules.schedule())
    assert g.final["ranking"] == [{"player": p, "total": t, "place": pl}
                                  for p, t, pl in ranking(state.totals)]

    # the rounds as they came: one round_over event per round, with its row of the sheet
    overs = [m for m in g.watcher.messages if m.get("kind") == "round_over"]
    assert [m["data"]["round"] for m in overs] == [r["round"] for r in g.final["rounds"]]
    assert [m["data"]["sheet_row"] for m in overs] == g.final["rounds"]
    for m, row in zip(overs, g.final["rounds"], strict=True):
        assert m["view"]["totals"] == [e["total"] for e in row["entries"]]

    # the sheet read while the game ran: the record's scoresheet up to that moment
    assert g.sheets, "the table never waited for its first person after a round"
    for seq, sheet in g.sheets:
        assert unmarked(sheet) == sheet_after(rec, len(acts(g.watcher, seq)))
        assert sheet["ranking"] == [] and 0 < len(sheet["rounds"]) < len(g.final["rounds"])
    # a snapshot (a person who came in after the start) carries the sheet of its moment
    for ws in g.others:
        snaps = [m for m in ws.messages if m["type"] == "snapshot"]
        assert len(snaps) == 1
        assert unmarked(snaps[0]["sheet"]) == \
            sheet_after(rec, len(acts(g.watcher, snaps[0]["seq"])))
        assert snaps[0]["list"] is None
    assert c.get(f"/api/tables/{g.table}/list").json()["list"] is None


@pytest.mark.parametrize("which", ["four", "three"])
def test_the_stored_game_replays_step_by_step(played: Played, which: str) -> None:
    g = played.games[which]
    c = played.clients["ann"]
    rec = record_of(c, g.game_id)
    steps = c.get(f"/api/games/{g.game_id}/replay").json()["steps"]
    actions = rec["actions"]
    assert len(steps) == len(actions) + 1
    assert [sorted(h) for h in steps[0]["hands"]] == \
        [sorted(d.split()) for d in rec["deals"][0]["hands"]]
    cards_played = 0
    for before, after, text in zip(steps[:-1], steps[1:], actions, strict=True):
        seat = after["actor"]
        assert after["action"] == text and seat == before["to_move"]
        if text.startswith("bid"):
            assert after["hands"] == before["hands"]
            continue
        cards_played += 1
        assert text in before["hands"][seat]
        if after["round"] == before["round"] and after["phase"] != "OVER":
            left = list(before["hands"][seat])
            left.remove(text)
            assert after["hands"][seat] == left  # the card leaves the hand
            assert sum(map(len, after["hands"])) == sum(map(len, before["hands"])) - 1
        elif after["phase"] != "OVER":  # the round's last card: the next deal
            deal = rec["deals"][after["round"] - 1]["hands"]
            assert [sorted(h) for h in after["hands"]] == [sorted(d.split()) for d in deal]
    rules = BaptistenRules.parse(rec["rules"])
    assert cards_played == sum(rules.schedule()) * rules.players
    last = steps[-1]
    assert last["phase"] == "OVER"
    result = rec["result"]
    assert last["totals"] == [e["total"] for e in result["rounds"][-1]["entries"]]
    assert sorted(last["totals"], reverse=True) == [r["total"] for r in result["ranking"]]

    refused = c.get(f"/api/games/{g.game_id}/analysis")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "server.not_skat"


def test_the_ranking_lists_finished_games_with_totals_and_places(played: Played) -> None:
    c = played.clients["ann"]
    body = c.get("/api/baptisten/ranking").json()
    listed = {g["id"]: g for g in body["games"]}
    places: dict[str, list[int]] = {}
    for key, g in played.games.items():
        entry = listed[g.game_id]
        assert entry["game"] == "baptisten" and entry["table"] == g.table
        state = replay_baptisten(record_of(c, g.game_id))
        place_of = {p: pl for p, _, pl in ranking(state.totals)}
        assert [p["seat"] for p in entry["players"]] == list(range(state.players))
        assert [p["score"] for p in entry["players"]] == list(state.totals), key
        assert [p["place"] for p in entry["players"]] == \
            [place_of[p] for p in range(state.players)]
        assert [p["name"] for p in entry["players"]] == g.final["players"]
        for p in entry["players"]:
            assert p["registered"] == (p["name"] in (played.users["ann"],
                                                     played.users["ben"]))
            assert (p["bot"] is not None) == (not p["registered"] and
                                              p["name"] != played.users["gus"])
            if p["registered"]:
                places.setdefault(p["name"], []).append(p["place"])
    newest_first = [g["finished_at"] for g in body["games"]]
    assert newest_first == sorted(newest_first, reverse=True)

    rated = {r["name"]: r for r in body["players"]}
    assert played.users["gus"] not in rated  # a guest is not ranked
    for name, got in places.items():
        row = rated[name]
        assert row["games"] == len(got)
        assert row["wins"] == sum(1 for pl in got if pl == 1)
        assert row["average_place"] == round(sum(got) / len(got), 2)
        assert isinstance(row["rating"], float)
    assert rated[played.users["ann"]]["games"] == 2
    assert rated[played.users["ben"]]["games"] == 1
    month = c.get("/api/baptisten/ranking", params={"period": "month"}).json()
    assert {g.game_id for g in played.games.values()} <= {g["id"] for g in month["games"]}
    bad = c.get("/api/baptisten/ranking", params={"period": "ever"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "server.bad_period"


def test_a_table_of_bots_only_plays_a_whole_game(played: Played,
                                                 run: Callable[..., Any]) -> None:
    c = played.clients["ann"]
    t = c.create(game="baptisten", seats=["bot:random", "bot:easy", "bot:strong"],
                 max_cards=2)
    assert t["table"]["status"] == "running"
    tid = t["table"]["id"]

    async def watch() -> list[dict[str, Any]]:
        """A spectator until the end (or a snapshot of the table over)."""
        ws = await c.connect(tid)
        await ws.until(lambda m: m.get("kind") == "end" or
                       (m["type"] == "snapshot" and m["table"]["status"] == "over"), 60)
        await ws.close()
        return ws.messages

    messages = run(watch())
    assert messages[0]["type"] == "welcome" and messages[0]["you"] is None
    games = c.get(f"/api/tables/{tid}/games").json()["games"]
    assert len(games) == 1
    rec = record_of(c, games[0]["id"])
    state = verify(rec)
    assert unmarked(c.get(f"/api/tables/{tid}/sheet").json()["sheet"]) == \
        scoresheet(state, rec["players"])  # type: ignore[arg-type]
