"""The table model alone (no server): the wait after a game, ``ready``, ``next``,
``quit``, the chat and the stand-in marks come from the events, so a table replayed from
its log is the same table at every step."""

from __future__ import annotations

from typing import Any

import pytest

from stich.baptisten import BaptistenRules
from stich.core import ArgumentError
from stich.server.sitting import Event, Sitting, TableSettings, replay_events


def _state(s: Sitting) -> tuple[Any, ...]:
    return (s.seq, s.between, s.between_since, sorted(s.ready), sorted(s.quit),
            sorted(s.away), sorted(s.standins), sorted(s.asked_away), list(s.chat),
            s.standin_marks, s.round_marks, s.last_trick, s.over, s.list_json(), s.sheet())


def _table(game: str, next_after: int = 10) -> Sitting:
    rules = "skat(preset=lothar)" if game == "skat" else str(BaptistenRules(players=3))
    st = TableSettings(game=game, rules=rules,  # type: ignore[arg-type]
                       seats=("person", "person", "bot:easy"), seed=11, games=3,
                       next_after=next_after)
    s = Sitting(st)
    for seat, name in ((0, "Anna"), (1, "Ben")):
        for ev in s.plan_sit(seat, name, seat + 1):
            s.apply(ev)
    for ev in s.plan_start():
        s.apply(ev)
    return s


def _play(s: Sitting, events: list[Event]) -> None:
    for ev in events:
        s.apply(ev)
        assert _state(replay_events(s.settings, s.events)) == _state(s), ev


@pytest.mark.parametrize("game", ["skat", "baptisten"])
def test_a_replayed_table_is_the_same_at_every_step(game: str) -> None:
    s = _table(game)
    waits = 0
    _play(s, s.plan_chat(None, "Zuschauer", "viel Glück"))
    while not s.over:
        if s.between:
            waits += 1
            with pytest.raises(ArgumentError) as e:
                s.plan_act(0, "pass")
            assert e.value.code == "server.between"
            if waits == 1:
                _play(s, s.plan_ready(0))
                assert s.between and s.ready == {0}  # Ben is still to say ready
                assert s.plan_ready(0) == []
                _play(s, s.plan_quit(1))  # Ben leaves for good: nobody else to wait for
            elif waits == 2:
                assert s.plan_go_on(s.between_since - 1) == []  # not this wait's timer
                _play(s, s.plan_go_on(s.between_since))  # the time is up
            else:
                _play(s, s.plan_ready(0))  # Anna alone is waited for now
            assert not s.between
            continue
        seat = s.to_move_seat()
        assert seat is not None
        st = s.state
        assert st is not None
        by = "player" if seat == 0 else "standin" if seat in s.quit else "bot"
        _play(s, s.plan_act(seat, str(st.legal_actions()[0]), by=by))
    assert waits >= 2
    assert s.chat[0]["text"] == "viel Glück"
    if game == "skat":
        marks = [g["standin"] for g in s.list_json()["games"]]  # type: ignore[index]
        assert marks[0] == [] and all(m == [1] for m in marks[1:]), marks
    else:
        sheet = s.sheet()
        assert sheet is not None
        ben = [next(e["standin"] for e in r["entries"] if e["player"] == 1)
               for r in sheet["rounds"]]
        assert ben[0] is False and ben[-1] is True


def test_no_wait_without_a_person_present_or_with_next_after_0() -> None:
    for s in (_table("skat", next_after=0), _table("skat")):
        if s.settings.next_after:
            for seat in (0, 1):
                for ev in s.plan_presence(seat, "away"):
                    s.apply(ev)
        while not s.finished:
            seat = s.to_move_seat()
            assert seat is not None and s.state is not None
            for ev in s.plan_act(seat, str(s.state.legal_actions()[0])):
                s.apply(ev)
        assert not s.between and s.events[-1].kind == "deal"
        assert s.events[-2].data.get("wait") is None


def test_a_stored_event_of_an_unknown_kind_or_without_its_keys_is_refused() -> None:
    from stich.server.events import EVENT_KINDS, PAYLOADS, Event

    assert set(PAYLOADS) == EVENT_KINDS  # every kind has its payload
    with pytest.raises(ArgumentError) as e:
        Event.load(1, "teleport", 0, {})
    assert e.value.code == "server.unknown_event"
    with pytest.raises(ArgumentError) as e:
        Event.load(5, "act", 0, {"by": "player"})
    assert e.value.code == "server.bad_event" and "text" in str(e.value)
    assert Event.load(5, "act", 0, {"text": "18"}).data == {"text": "18"}
