"""Whose game was it (docs/server.md): a game a stand-in played for a person counts for
nobody, a game she played (a stand-in helping now and then) counts for her, and every
place that names her says which.  The rule on the table model first, then a real table
over sockets through every API a page draws from."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from stich.baptisten import BaptistenRules
from stich.cli import app
from stich.server.sitting import Event, Sitting, TableSettings
from stich.server.store.db import sync_url
from tests.server.harness import Client, Server
from tests.server.proto_helpers import kind, play_random, uid


def _seated(settings: TableSettings) -> Sitting:
    s = Sitting(settings)
    for seat, spec in enumerate(settings.seats):
        if spec == "person":
            for ev in s.plan_sit(seat, f"P{seat}", 100 + seat):
                s.apply(ev)
    for ev in s.plan_start():
        s.apply(ev)
    return s


def _play(s: Sitting, by: Callable[[Sitting, int], str], rng: random.Random,
          until: Callable[[Sitting], bool],
          log: list[list[tuple[int, str]]] | None = None) -> None:
    """Random legal moves; ``by(s, seat)`` says who makes a person's (player, standin,
    clock); ``log``: per game number, every move's seat and maker."""
    while not until(s):
        if s.between:
            events: list[Event] = s.plan_go_on()
        else:
            seat = s.to_move_seat()
            assert seat is not None and s.state is not None
            who = "bot" if s.settings.seats[seat] != "person" else by(s, seat)
            if log is not None:
                log[s.game_number].append((seat, who))
            events = s.plan_act(seat, str(rng.choice(s.state.legal_actions())), by=who)
        for ev in events:
            s.apply(ev)


SKAT = TableSettings(game="skat", rules="skat(preset=lothar)",
                     seats=("person", "person", "bot:easy"), seed=3, games=4)


def test_a_skat_game_counts_for_a_person_who_made_a_decision_in_it() -> None:
    rng = random.Random(1)
    s = _seated(SKAT)
    moves: dict[int, int] = {}  # seat 0's moves in the running game

    def by(s: Sitting, seat: int) -> str:
        """Seat 1: the clock in game 1, a stand-in in games 2–4.  Seat 0: itself in
        games 1 and 2 (a stand-in now and then in game 2), a stand-in from its first move
        on in game 3 (away for the whole game), the clock once then a stand-in in 4."""
        g = s.game_number
        if seat == 1:
            return "clock" if g == 1 else "standin"
        n = moves[g] = moves.get(g, 0) + 1
        if g == 1:
            return "player"
        if g == 2:
            return "standin" if n % 3 == 0 else "player"
        if g == 3:
            return "standin"
        return "clock" if n == 1 else "standin"

    _play(s, by, rng, lambda s: s.over)
    assert len(s.finished) == 4 and len(s.finished_seats) == 4
    assert [w["standin"] for w in s.finished_seats] == [[], [0, 1], [0, 1], [0, 1]]
    assert [w["absent"] for w in s.finished_seats] == [[], [1], [0, 1], [1]]
    # the records say which of the actions a stand-in or the clock made
    first, second = s.finished[0], s.finished[1]
    assert "standin" not in first and first["clock"]
    seats = second["seats"]  # positions -> table seats
    assert all(isinstance(i, int) for i in second["standin"])
    assert len(second["standin"]) == len(set(second["standin"]))
    assert seats  # (the replay checks who moved: test_the_record_says_who_moved)
    # the list marks every game a bot moved in (the clock included), as before
    assert s.standin_marks == [[1], [0, 1], [0, 1], [0, 1]]


def test_the_record_says_who_moved() -> None:
    """Replayed, every action the record calls a stand-in's was the stand-in's seat."""
    from stich.server.history import replay_steps

    rng = random.Random(5)
    s = _seated(SKAT)
    made: list[list[tuple[int, str]]] = [[] for _ in range(5)]

    _play(s, lambda s, seat: rng.choice(["player", "player", "standin", "clock"]), rng,
          lambda s: s.over, made)
    for number, rec in enumerate(s.finished, start=1):
        steps = replay_steps(rec)[1:]
        assert len(steps) == len(made[number])
        for step, (seat, who) in zip(steps, made[number], strict=True):
            assert rec["seats"][step["actor"]] == seat
            assert step["by"] == (None if who in ("player", "bot") else who)


@pytest.mark.parametrize(("played", "max_cards"), [(1, 2), (2, 2), (3, 3), (2, 3), (0, 2)])
def test_a_baptisten_place_counts_for_a_person_who_played_half_the_rounds(
        played: int, max_cards: int) -> None:
    rules = BaptistenRules(players=3, max_cards=max_cards)  # 3 and 5 rounds
    settings = TableSettings(game="baptisten", rules=str(rules),
                             seats=("person", "bot:easy", "bot:easy"), seed=2, games=1)
    s = _seated(settings)
    _play(s, lambda s, seat: "player" if len(s.round_own) < played else "standin",
          random.Random(3), lambda s: s.over)
    n = len(s.round_own)
    assert n == 2 * max_cards - 1
    assert [0 in r for r in s.round_own] == [i < played for i in range(n)]
    whose = s.finished_seats[-1]
    assert whose["standin"] == ([0] if played < n else [])
    assert whose["absent"] == ([0] if 2 * played < n else [])


# --- a real table, over sockets ---------------------------------------------------------------

def _left_after_one_game(clients: Callable[..., Client], run: Callable[..., Any],
                         seed: int) -> tuple[Client, str, str]:
    """Anna (registered) plays game 1 of a list of three with two bots and leaves the
    table; the stand-in plays the rest.  (Anna, her name, the table.)"""
    anna = clients()
    name = uid("Anna")
    anna.register(name)
    tid = anna.create(game="skat", games=3, next_after=0,
                      seats=["me", "bot:easy", "bot:easy"])["table"]["id"]

    async def go() -> None:
        ws = await anna.connect(tid)
        await play_random(ws, random.Random(seed), kind("game_over"))  # game 1: hers
        r = anna.post(f"/api/tables/{tid}/leave")
        assert r.status_code == 200, r.text
        # the lobby: her seat is the stand-in's now
        seats = {t["id"]: t for t in anna.get("/api/tables?status=open").json()["tables"]}
        if tid in seats:  # (still running: the lobby lists it)
            mine = next(x for x in seats[tid]["seats"] if x.get("name") == name)
            assert mine["quit"] is True and mine["standin"] is True
        await ws.until(kind("end"), timeout=90)
        await ws.close()

    run(go())
    return anna, name, tid


def test_a_table_left_early_says_whose_games_they_were(clients: Callable[..., Client],
                                                        server: Server,
                                                        run: Callable[..., Any]) -> None:
    anna, name, tid = _left_after_one_game(clients, run, 7)
    games = anna.get(f"/api/tables/{tid}/games").json()["games"]
    assert [g["number"] for g in games] == [1, 2, 3]
    her = [next(p for p in g["players"] if p["name"] == name) for g in games]
    assert [(p["standin"], p["counts"]) for p in her] == \
        [(False, True), (True, False), (True, False)]
    # the Bestenliste and her page count game 1 only
    best = anna.get("/api/bestenliste?preset=lothar").json()["players"]
    row = next(r for r in best if r["name"] == name)
    assert row["games"] == 1 and row["bilanz"] == her[0]["bilanz"]
    page = anna.get(f"/api/users/{name}").json()
    assert page["skat"]["lothar"]["games"] == 1
    listed = {g["number"]: g for g in page["games"] if g["table"] == tid}
    assert sorted(listed) == [1, 2, 3]  # listed, marked
    assert all(next(p for p in listed[n]["players"] if p["seat"] == listed[n]["you"])
               ["counts"] is (n == 1) for n in listed)
    # the replay: every move of her seat in games 2 and 3 was the stand-in's
    for g, p in zip(games, her, strict=True):
        rec = anna.get(f"/api/games/{g['id']}").json()["record"]
        steps = anna.get(f"/api/games/{g['id']}/replay").json()["steps"][1:]
        hers = [st for st in steps if rec["seats"][st["actor"]] == p["seat"]]
        assert hers
        assert {st["by"] for st in hers} == ({None} if g["number"] == 1 else {"standin"})
    # and the pages say so
    en = {"accept-language": "en"}
    html = anna.get(f"/games/{games[1]['id']}", headers=en).text
    assert "Bot for" in html and "does not count" in html
    html = anna.get(f"/u/{name}", headers=en).text
    assert html.count("does not count") >= 2
    html = anna.get(f"/u/{name}", headers={"accept-language": "de"}).text
    assert html.count("zählt nicht") >= 2


def _whose(c: Client, tid: str, name: str) -> list[tuple[bool, bool, list[int] | None]]:
    games = c.get(f"/api/tables/{tid}/games").json()["games"]
    out = []
    for g in games:
        p = next(p for p in g["players"] if p["name"] == name)
        rec = c.get(f"/api/games/{g['id']}").json()["record"]
        out.append((p["standin"], p["counts"], rec.get("standin")))
    return out


def test_stich_admin_recount_marks_the_games_stored_before(
        clients: Callable[..., Client], server: Server, run: Callable[..., Any]) -> None:
    """Games stored before the rule count for the person; ``stich admin recount`` works
    out from the event log what the server now stores, and running it again changes
    nothing."""
    anna, name, tid = _left_after_one_game(clients, run, 8)
    now = _whose(anna, tid, name)
    assert [w[:2] for w in now] == [(False, True), (True, False), (True, False)]
    assert now[0][2] is None and now[1][2] and now[2][2]
    # as the games were stored before: counted for her, unmarked
    engine = create_engine(sync_url(server.db))
    with engine.begin() as conn:
        ids = [r[0] for r in conn.execute(
            text("SELECT id FROM games WHERE table_id = :t"), {"t": tid})]
        for gid in ids:
            conn.execute(text("UPDATE game_players SET standin = :f, counts = :t "
                              "WHERE game_id = :g"), {"f": False, "t": True, "g": gid})
        if engine.dialect.name == "postgresql":
            conn.execute(text("UPDATE games SET record = (record::jsonb - 'standin')::json "
                              "WHERE table_id = :t"), {"t": tid})
        else:
            conn.execute(text("UPDATE games SET record = json_remove(record, '$.standin') "
                              "WHERE table_id = :t"), {"t": tid})
    engine.dispose()
    assert _whose(anna, tid, name) == [(False, True, None)] * 3
    for _ in range(2):
        out = CliRunner().invoke(app, ["admin", "recount", "--db", server.db, "--lang", "en"])
        assert out.exit_code == 0, out.output
        assert "recounted" in out.output
        assert _whose(anna, tid, name) == now


def test_a_baptisten_place_a_stand_in_played_is_rated_as_a_bots() -> None:
    """The ranking counts a place for the person only when it counts for her; the others
    at that table are still rated against the stand-in."""
    from stich.server.history import rate_players
    from stich.server.store.models import GamePlayer, GameRow

    def game(gid: int, places: list[tuple[int, int, bool]]) -> tuple[GameRow, list[GamePlayer]]:
        return GameRow(id=gid), [GamePlayer(game_id=gid, seat=i, user_id=uid_, name=f"U{uid_}",
                                            bot=None, place=place, counts=counts,
                                            standin=not counts)
                                 for i, (uid_, place, counts) in enumerate(places)]

    # newest first, as the store answers: game 2 (Anna = user 1 gone), then game 1
    games = [game(2, [(1, 1, False), (2, 2, True), (3, 3, True)]),
             game(1, [(1, 3, True), (2, 1, True), (3, 2, True)])]
    rows = {r["name"]: r for r in rate_players(games, {1, 2, 3})}
    assert rows["U1"]["games"] == 1 and rows["U1"]["wins"] == 0
    assert rows["U1"]["average_place"] == 3
    assert rows["U2"]["games"] == 2 and rows["U3"]["games"] == 2
    # counted as hers, the first place of game 2 would have raised her rating
    counted = [game(2, [(1, 1, True), (2, 2, True), (3, 3, True)]), games[1]]
    again = {r["name"]: r for r in rate_players(counted, {1, 2, 3})}
    assert again["U1"]["games"] == 2 and again["U1"]["rating"] > rows["U1"]["rating"]
