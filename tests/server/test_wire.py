"""The messages the hub sends (:func:`stich.server.wire.event_texts`: the public part of
the view built once per event, each seat's own part put over it) are exactly the
messages built for each receiver alone from its whole engine view (``own_message``), over
whole tables of both games, with and without every hand shown to spectators."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from stich.cards import plain_deck
from stich.server.sitting import Event, Sitting, TableSettings
from stich.server.wire import (
    SPECTATOR,
    _all_hands,
    baptisten_view_json,
    event_texts,
    public_event_data,
    skat_view_json,
)
from stich.skat.view import SkatView


def own_message(s: Sitting, ev: Event, r: int) -> dict[str, Any]:
    """The message built for receiver ``r`` alone, the whole view from its own engine
    view (the rendering before the public part was shared): the oracle."""
    view: dict[str, Any] | None = None
    if s.state is not None:
        if r == SPECTATOR and s.settings.show_hands:
            view = _all_hands(s)
        else:
            v = s.view(0 if r == SPECTATOR else r)
            if isinstance(v, SkatView):
                view = skat_view_json(v, public=r == SPECTATOR)
                view["positions"] = list(s.positions)
                view["number"] = s.game_number
            else:
                view = baptisten_view_json(v, plain_deck(s.baptisten_rules.deck),
                                           public=r == SPECTATOR)
            if s.over or s.between:
                view["legal"] = []
    return {"type": "event", "seq": ev.seq, "kind": ev.kind, "seat": ev.seat,
            "data": public_event_data(s, ev, r), "view": view}

TABLES = [
    TableSettings(game="skat", rules="skat(preset=lothar)", games=6,
                  seats=("bot:random",) * 3, seed=4),
    TableSettings(game="skat", rules="skat(preset=isko)", games=6, seats=("bot:random",) * 3,
                  seed=9, show_hands=True),
    TableSettings(game="baptisten", rules="baptisten(preset=default,players=4,max_cards=4,"
                  "variants=2+3)", seats=("bot:random",) * 4, seed=3),
    TableSettings(game="baptisten", rules="baptisten(preset=default,deck=romme-double-joker,"
                  "players=5,max_cards=3,variants=2+4+5)", seats=("bot:random",) * 5, seed=8,
                  show_hands=True),
]


@pytest.mark.parametrize("settings", TABLES)
def test_shared_rendering_is_each_receivers_own(settings: TableSettings) -> None:
    rng = random.Random(1)
    s = Sitting(settings)
    receivers = [*range(len(settings.seats)), SPECTATOR]
    compared = declaring = 0

    def apply(events: list[Event]) -> None:
        nonlocal compared, declaring
        for ev in events:
            s.apply(ev)
            texts = event_texts(s, ev, receivers)
            assert sorted(texts) == sorted(receivers)
            for r in receivers:
                got = json.loads(texts[r])
                assert got == json.loads(json.dumps(own_message(s, ev, r))), (ev, r)
                compared += 1
                declaring += "declare_values" in (got["view"] or {})

    apply(s.plan_start())
    while not s.over:
        seat = s.to_move_seat()
        assert seat is not None
        apply(s.plan_act(seat, str(rng.choice(s.view(seat).legal_actions)), by="bot"))
    assert compared > 300
    if settings.game == "skat":
        assert declaring > 0  # the declarer's own values were compared too


def test_only_the_receivers_asked_for_are_rendered() -> None:
    s = Sitting(TABLES[0])
    events = s.plan_start()
    for ev in events:
        s.apply(ev)
    texts = event_texts(s, events[-1], [1])
    assert list(texts) == [1]
    got = json.loads(texts[1])
    assert got == json.loads(json.dumps(own_message(s, events[-1], 1)))
    assert len(got["view"]["hand"]) == 10


def test_a_lone_surrogate_still_gives_valid_json() -> None:
    # the protocol refuses such strings at the door; should one get through, the
    # message is still valid JSON (escaped) instead of an error in the hot path
    from stich.server.store.db import _json_text
    from stich.server.wire import message_text

    for encode in (message_text, _json_text):
        text = encode({"text": "Gr\u00fcn \ud800", 3: [1, 2.5, None]})
        assert json.loads(text) == {"text": "Gr\u00fcn \ud800", "3": [1, 2.5, None]}
    assert message_text({"a": "Gr\u00fcn"}) == '{"a":"Gr\u00fcn"}'


def test_a_lone_surrogate_in_an_events_data_still_gives_each_receiver_its_message() -> None:
    # the seats' views are put together from encoded parts; the fallback for data that
    # orjson refuses builds them whole again
    s = Sitting(TABLES[2])
    for ev in s.plan_start():
        s.apply(ev)
    ev = Event(seq=s.seq, kind="chat", seat=None, data={"name": "A", "text": "Gr\u00fcn \ud800"})
    texts = event_texts(s, ev, [0, 1, SPECTATOR])
    for r, text in texts.items():
        assert json.loads(text) == json.loads(json.dumps(own_message(s, ev, r))), r


def test_a_timer_goes_into_an_events_text_only() -> None:
    from stich.server.wire import message_text, with_timer

    s = Sitting(TABLES[0])
    events = s.plan_start()
    for ev in events:
        s.apply(ev)
    text = event_texts(s, events[-1], [1])[1]
    timer = {"type": "timer", "kind": "move", "seat": 2, "left": 900, "total": 1000,
             "bank": 0}
    both = with_timer(text, timer)
    assert both is not None
    assert json.loads(both) == {**json.loads(text), "timer": timer}
    assert with_timer(text, {"type": "pong", "seq": 3}) is None
    assert with_timer(message_text({"type": "snapshot", "seq": 1}), timer) is None
    # the fallback encoding of an event (a lone surrogate) is such a text too
    odd = message_text({"type": "event", "seq": 1, "text": "\ud800"})
    assert json.loads(with_timer(odd, timer) or "")["timer"] == timer
