"""A table that shortcuts (XSkat's ``-shortcut``): once every remaining trick of a Skat
game goes to one side whatever anyone plays, the table applies ``shortcut`` for the seat
to move and the game ends there, the rest to that side.

- In process: a table with ``shortcut`` on applies it at the first position where
  :meth:`SkatState.forced_rest` answers, and only there (every other position of card
  play was still open); the game's score is what playing the rest out in any way gives;
  the act is ``by`` the table and is the seat to move's; the records replay; a sitting
  rebuilt from the stored events (a restart) is the same; a table with it off never
  shortcuts; a player cannot say ``shortcut`` herself, at either table.
- Over the protocol: the setting is refused outside Skat and as anything but a
  boolean; a table of bots with it on plays to its end by shortcuts, its list equals
  the engine's scores over the stored records, and the lobby and the table's info say
  so; the same table with it off shows nothing and never shortcuts; a stranger cannot
  change the setting (joining with it is refused; it stays) nor say ``shortcut``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from stich.record import replay_skat
from stich.server.sitting import Sitting, TableSettings, replay_events
from stich.skat import SkatState
from stich.skat.actions import SHORTCUT
from tests.server.harness import Client
from tests.server.proto_helpers import error_of, my_turn, table, uid

RULES = "skat(preset=lothar)"


def check_shortcuts(record: dict[str, Any], rng: random.Random, *, on: bool) -> bool:
    """Check one finished game's record (replayed, its stored result checked): at a table
    that shortcuts (``on``) ``shortcut`` follows exactly the positions whose rest is
    certain, and ends the game with the score any play of the rest gives (a few random
    playouts); at a table that does not, no ``shortcut`` at all.  Whether it ended so."""
    final = replay_skat(record)
    states = list(final.replay_states())
    actions = record["actions"]
    assert len(states) == len(actions) + 1
    if not on:
        assert "shortcut" not in actions
        return False
    for state, text in zip(states[:-1], actions, strict=True):
        assert (state.forced_rest() >= 0) == (text == "shortcut"), (text, actions)
    if actions[-1] != "shortcut":
        assert final.end_reason != "shortcut"
        return False
    assert final.end_reason == "shortcut" and actions.count("shortcut") == 1
    before = states[-2]
    for _ in range(3):  # the rest played out, any way at all: the same score
        s = before
        while not s.is_over:
            s = s.apply(rng.choice(s.legal_actions()))
        assert s.end_reason != "shortcut"
        assert s.outcome().scores == final.outcome().scores
        assert s.outcome().won == final.outcome().won
    return True


# --- in process -------------------------------------------------------------------------


def _play(on: bool, seed: int, games: int = 12) -> Sitting:
    rng = random.Random(seed)
    s = Sitting(TableSettings(game="skat", rules=RULES, games=games,
                              seats=("bot:random",) * 3, seed=seed, shortcut=on))
    for ev in s.plan_start():
        s.apply(ev)
    while not s.over:
        seat = s.to_move_seat()
        assert seat is not None
        st = s.skat
        assert st is not None
        if st.forced_rest() >= 0 and not on:  # a player may not say it, even here
            _refused(s, seat)
        for ev in s.plan_act(seat, str(rng.choice(s.view(seat).legal_actions)), by="bot"):
            if ev.kind == "act" and ev.data["text"] == "shortcut":
                st = s.skat
                assert st is not None and on
                assert ev.data["by"] == "table" and ev.seat == s.seat_at(st.to_move)
            s.apply(ev)
    return s


def _refused(s: Sitting, seat: int) -> None:
    try:
        s.plan_act(seat, "shortcut")
    except ValueError as e:
        assert getattr(e, "code", "") == "server.shortcut_by_table", e
    else:
        raise AssertionError("a player said shortcut")


def test_a_table_that_shortcuts_ends_games_where_the_rest_is_certain() -> None:
    s = _play(True, 5)
    rng = random.Random(1)
    ended = [check_shortcuts(rec, rng, on=True) for rec in s.finished]
    assert len(ended) == 12 and sum(ended) >= 6, ended
    # the list's scores are the engine's, game by game
    lst = s.skat_list
    assert lst is not None
    for entry, rec in zip(lst.games, s.finished, strict=True):
        scores = replay_skat(rec).outcome().scores
        want = [0, 0, 0]
        for pos, seat in enumerate(rec["seats"]):
            want[seat] = scores[pos] * entry.bock
        assert list(entry.scores) == want
    # a restart: the stored events rebuild the same table
    again = replay_events(s.settings, s.events)
    assert again.finished == s.finished and again.seq == s.seq
    assert TableSettings.from_dict(s.settings.to_dict()).shortcut


def test_a_table_without_it_never_shortcuts_and_nobody_says_it() -> None:
    s = _play(False, 5)
    rng = random.Random(2)
    assert not any(check_shortcuts(rec, rng, on=False) for rec in s.finished)
    assert "shortcut" not in s.settings.to_dict()  # stored as tables always were
    assert not TableSettings.from_dict(s.settings.to_dict()).shortcut


def test_a_player_cannot_say_shortcut_at_a_table_that_shortcuts() -> None:
    s = Sitting(TableSettings(game="skat", rules=RULES, games=3,
                              seats=("bot:random",) * 3, seed=9, shortcut=True))
    for ev in s.plan_start():
        s.apply(ev)
    seat = s.to_move_seat()
    assert seat is not None
    _refused(s, seat)  # (in the bidding: the table's word all the same)
    assert isinstance(s.skat, SkatState) and s.skat.forced_rest() == -1
    assert str(SHORTCUT) == "shortcut"


# --- over the protocol --------------------------------------------------------------------


def _wait_over(c: Client, tid: str, timeout: float = 90.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        info = table(c, tid)
        if info["status"] == "over":
            return info
        time.sleep(0.2)
    raise AssertionError(f"table {tid} did not end")


def _records(c: Client, tid: str) -> list[dict[str, Any]]:
    games = c.get(f"/api/tables/{tid}/games").json()["games"]
    return [c.get(f"/api/games/{g['id']}").json()["record"] for g in games]


def test_the_setting_is_refused_where_it_does_not_belong(
        clients: Callable[..., Client]) -> None:
    c = clients()
    c.guest(uid("S"))
    r = c.post("/api/tables", {"game": "baptisten", "seats": ["me", "bot:easy", "bot:easy"],
                               "shortcut": True})
    assert error_of(r)[:2] == (400, "server.shortcut_skat")
    for bad in ("yes", 1, None):
        r = c.post("/api/tables", {"game": "skat", "seats": ["me", "bot:easy", "bot:easy"],
                                   "shortcut": bad})
        assert r.status_code in (400, 422) and "error" in r.json(), (bad, r.text)


def test_a_bot_table_that_shortcuts_over_the_protocol(
        clients: Callable[..., Client]) -> None:
    c = clients()
    c.guest(uid("S"))
    body = {"game": "skat", "seats": ["bot:random"] * 3, "games": 6, "next_after": 0,
            "clock": 0, "rules": RULES}
    on = c.create(**body, shortcut=True)["table"]
    off = c.create(**body)["table"]
    assert on["shortcut"] is True and "shortcut" not in off
    rng = random.Random(3)
    for made, want in ((on, True), (off, False)):
        info = _wait_over(c, made["id"])
        assert info.get("shortcut", False) is want
        records = _records(c, made["id"])
        assert len(records) == 6
        ended = [check_shortcuts(rec, rng, on=want) for rec in records]
        assert any(ended) if want else not any(ended)
        # the list: the engine's scores of the stored records, seat by seat
        lst = c.get(f"/api/tables/{made['id']}/list").json()["list"]
        for line, rec in zip(lst["games"], records, strict=True):
            scores = replay_skat(rec).outcome().scores
            want_scores = [0, 0, 0]
            for pos, seat in enumerate(rec["seats"]):
                want_scores[seat] = scores[pos] * int(rec.get("bock", 1))
            assert line["scores"] == want_scores
    listed = {t["id"]: t for t in c.get("/api/tables?status=over").json()["tables"]}
    assert listed[on["id"]]["shortcut"] is True and "shortcut" not in listed[off["id"]]


def test_a_stranger_cannot_change_the_setting_nor_say_shortcut(
        clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    owner, stranger, watcher = clients(), clients(), clients()
    owner.guest(uid("O"))
    stranger.guest(uid("X"))
    watcher.guest(uid("W"))
    made = owner.create(game="skat", seats=["me", "person", "bot:easy"], games=3,
                        shortcut=True, next_after=0, clock=0)["table"]
    tid = made["id"]
    r = stranger.post(f"/api/tables/{tid}/join", {"seat": 1, "shortcut": False})
    assert r.status_code in (400, 422) and "error" in r.json(), r.text
    r = stranger.post(f"/api/tables/{tid}/join", {"seat": 1})
    assert r.status_code == 200, r.text
    assert table(watcher, tid)["shortcut"] is True

    async def go() -> list[dict[str, Any]]:
        socks = [await owner.connect(tid), await stranger.connect(tid)]
        seen = await watcher.connect(tid)
        errors: list[dict[str, Any]] = []
        for ws in socks:
            await ws.until(lambda m: m["type"] in ("snapshot", "event"))
        await seen.send({"type": "act", "action": "shortcut", "seq": 0})
        errors.append(await seen.until(lambda m: m["type"] == "error"))
        for _ in range(100):  # a person to move: she says it, and is refused
            for ws in socks:
                await ws.drain(0.1)
            mover = next((ws for ws in socks if my_turn(ws.view)), None)
            if mover is not None:
                await mover.act("shortcut")
                errors.append(await mover.until(lambda m: m["type"] == "error"))
                break
        return errors

    errors = run(go())
    owner.post(f"/api/tables/{tid}/close")
    assert len(errors) == 2, errors
    assert errors[1]["code"] == "server.shortcut_by_table", errors
    assert errors[0]["code"] != "server.shortcut_by_table"  # a watcher has no seat at all
    assert table(watcher, tid)["shortcut"] is True
