"""The turn clock as a pure model (:class:`stich.server.clock.TurnClock`): which timer
a table needs, the banks, a pause holding a turn's time.  No server, no real time: the
times are given."""

from __future__ import annotations

import random

from stich.server.clock import Timer, TurnClock
from stich.server.sitting import Sitting, TableSettings


def _table(clock: int = 30, bank: int = 60, next_after: int = 0) -> Sitting:
    s = Sitting(TableSettings(game="skat", rules="skat(preset=lothar)", games=3,
                              seats=("person", "person", "person"), seed=3, clock=clock,
                              bank=bank, next_after=next_after))
    for seat, name in enumerate(("Anna", "Ben", "Cara")):
        for ev in s.plan_sit(seat, name, seat + 1):
            s.apply(ev)
    return s


def _move(s: Sitting) -> None:
    seat = s.to_move_seat()
    assert seat is not None
    st = s.state
    assert st is not None
    for ev in s.plan_act(seat, str(random.Random(s.seq).choice(st.legal_actions()))):
        s.apply(ev)


def test_a_person_to_move_gets_the_clock_and_her_bank() -> None:
    s = _table()
    c = TurnClock()
    want = c.wanted(s, pause_most=300)
    assert want is not None and want.kind == "move" and want.seat == s.to_move_seat()
    assert (want.secs, want.bank) == (90.0, 60.0)
    assert not c.goes_on(want)
    c.start(want, now=100.0)
    assert c.goes_on(c.wanted(s, 300))  # nothing changed: the same timer runs on
    assert c.message(now=110.0) == {"type": "timer", "kind": "move", "seat": want.seat,
                                    "left": 80_000, "total": 90_000, "bank": 60_000}


def test_time_beyond_the_clock_comes_off_the_bank_until_the_next_game() -> None:
    s = _table()
    c = TurnClock()
    want = c.wanted(s, 300)
    assert want is not None and want.seat is not None
    c.start(want, now=0.0)
    c.stop(now=45.0, paused=False, clock=30)  # 15 s beyond the clock
    assert c.banks == {want.seat: 45.0}
    _move(s)
    again = None
    while again is None or again.seat != want.seat:  # her next turn in the same game
        again = c.wanted(s, 300)
        assert again is not None
        if again.seat != want.seat:
            c.start(again, now=50.0)
            c.stop(now=51.0, paused=False, clock=30)
            _move(s)
    assert again.bank == 45.0 and again.secs == 75.0
    c.start(Timer("move", 0, ("move", 0, (2, 0)), 90.0, 60.0, (2, 0)), now=60.0)
    assert c.banks == {} and c.bank_game == (2, 0)  # a new game: whole banks again


def test_a_pause_holds_the_turn_and_it_goes_on_where_it_stood() -> None:
    s = _table()
    c = TurnClock()
    want = c.wanted(s, 300)
    assert want is not None and want.seat is not None
    c.start(want, now=0.0)
    for ev in s.plan_pause(want.seat, True):
        s.apply(ev)
    pause = c.wanted(s, 300)
    assert pause is not None and pause.kind == "pause" and pause.secs == 300.0
    c.stop(now=20.0, paused=True, clock=30)
    assert c.held == (want.key, 20.0) and c.banks == {}
    c.start(pause, now=20.0)
    c.stop(now=200.0, paused=True, clock=30)  # (a pause's own timer holds nothing)
    for ev in s.plan_pause(want.seat, False):
        s.apply(ev)
    same = c.wanted(s, 300)
    assert same == want
    run = c.start(same, now=200.0)
    assert run.start == 180.0 and run.deadline == 270.0  # 20 s used before the pause


def test_no_timer_without_a_clock_and_the_wait_after_a_game() -> None:
    s = _table(clock=0, next_after=10)
    c = TurnClock()
    assert c.wanted(s, 300) is None and c.goes_on(None)
    while not s.between:
        _move(s)
    want = c.wanted(s, 300)
    assert want is not None and (want.kind, want.seat, want.secs) == ("next", None, 10.0)
    assert c.message(now=0.0)["kind"] is None
