"""The learned Skat bot as a bot level at a table (issue 44): ``bot:learned`` seats a
Skat table from the lobby and from a free seat, the worker process plays it (the policy
read by the standard library: the site's install has no NumPy), and a table with two of
them plays to its end over the websocket; at a Baptistenskat table the level is refused
(it is Skat's only)."""

from __future__ import annotations

import asyncio
import random

import pytest

from stich.core import ArgumentError
from stich.record import replay
from stich.server.limits import Limits
from stich.server.protocol import CreateTableRequest
from stich.server.sitting import Sitting, TableSettings
from tests.server.harness import Client, Server
from tests.server.proto_helpers import uid
from tests.server.test_history import play


def test_the_level_is_skats_only() -> None:
    from stich.server.lobby import _settings

    _settings(CreateTableRequest(game="skat", games=3, seats=["me", "bot:learned",
                                                              "bot:easy"]), Limits())
    with pytest.raises(ArgumentError) as e:
        _settings(CreateTableRequest(game="baptisten", seats=["me", "bot:learned",
                                                              "bot:easy"]), Limits())
    assert e.value.code == "server.bad_seat_spec"
    waiting = Sitting(TableSettings(game="skat", rules="skat(preset=lothar)", games=3,
                                    seats=("person", "person", "person"), seed=7))
    assert [e.data["bot"] for e in waiting.plan_sit(1, "", None, bot="learned")] == ["learned"]
    bapt = Sitting(TableSettings(game="baptisten", rules="baptisten(players=3)", games=1,
                                 seats=("person", "person", "person"), seed=7))
    with pytest.raises(ArgumentError) as e:
        bapt.plan_sit(1, "", None, bot="learned")
    assert e.value.code == "bots.unknown"
    assert "learned" not in e.value.params["choices"]


def test_the_worker_plays_the_learned_bot() -> None:
    from stich.bots.learned import skat_bot
    from stich.server.workers import choose_action

    s = Sitting(TableSettings(game="skat", rules="skat(preset=lothar)", games=3,
                              seats=("bot:learned",) * 3, seed=11))
    for ev in s.plan_start():
        s.apply(ev)
    seat = s.to_move_seat()
    assert seat is not None
    view = s.view(seat)
    want = str(skat_bot().choose(view, random.Random(5)))
    assert choose_action("skat", "learned", view, 5) == want
    assert want in [str(a) for a in view.legal_actions]


def test_a_table_with_learned_bots_plays_to_its_end(server: Server) -> None:
    anna = Client(server)
    anna.register(uid("Anna"))
    try:
        made = anna.create(game="skat", preset="lothar", games=3, public=False,
                           next_after=0, seats=["me", "bot:learned", "bot:learned"])
        tid = made["table"]["id"]

        async def go() -> None:
            ws = await anna.connect(tid)
            await play([ws], random.Random(3))
            await ws.close()

        asyncio.run(asyncio.wait_for(go(), 240))
        games = anna.get(f"/api/tables/{tid}/games").json()["games"]
        assert len(games) == 3
        for g in games:
            record = anna.get(f"/api/games/{g['id']}").json()["record"]
            replay(record)  # a whole, legal game
        info = anna.get(f"/api/tables/{tid}").json()
        bots = [s.get("bot") for s in info["table"]["seats"]]
        assert bots.count("learned") == 2, info["table"]["seats"]
    finally:
        anna.close()
