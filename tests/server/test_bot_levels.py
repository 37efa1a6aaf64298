"""The bot levels a table's seat may ask for, wherever a seat is filled: the lobby's new
table (``bot:<level>``), a bot put on a free seat (the table's ``plan_sit``), the bots of
the settings at the start, and the worker process that plays them; and the test-only
level ``slow``, there only with ``STICH_TEST_SLOW_BOT`` (issue 41: one list of levels,
the test bot outside the pure table model)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from stich.core import ArgumentError
from stich.server.limits import Limits
from stich.server.protocol import CreateTableRequest
from stich.server.sitting import Sitting, TableSettings

ACCEPTED = ("random", "easy", "heuristic", "strong")
REFUSED = ("slow", "hard", "", "Easy", "EASY", " easy", "bot:easy", "py:x:y")
CHOICES = "easy, heuristic, learned, random, strong"  # a Skat table's (learned: Skat only)


def _lobby(spec: str) -> str:
    from stich.server.lobby import _settings

    try:
        _settings(CreateTableRequest(game="skat", games=3, seats=["me", spec, "bot:easy"]),
                  Limits())
    except ArgumentError as e:
        return e.code
    return "ok"


def _waiting() -> Sitting:
    return Sitting(TableSettings(game="skat", rules="skat(preset=lothar)", games=3,
                                 seats=("person", "person", "person"), seed=7))


@pytest.mark.parametrize("level", ACCEPTED)
def test_the_lobby_and_a_free_seat_take_every_level(level: str) -> None:
    assert _lobby(f"bot:{level}") == "ok"
    events = _waiting().plan_sit(1, "", None, bot=level)
    assert [(e.kind, e.seat, e.data["bot"]) for e in events] == [("seat", 1, level)]
    s = Sitting(TableSettings(game="baptisten", rules="baptisten(players=3)", games=1,
                              seats=(f"bot:{level}",) * 3, seed=3))
    assert [e.data["bot"] for e in s.plan_start() if e.kind == "seat"] == [level] * 3


@pytest.mark.parametrize("level", REFUSED)
def test_other_names_are_refused(level: str) -> None:
    assert _lobby(f"bot:{level}") == "server.bad_seat_spec"
    with pytest.raises(ArgumentError) as e:
        _waiting().plan_sit(1, "", None, bot=level)
    assert e.value.code == "bots.unknown"
    assert e.value.params == {"name": level, "choices": CHOICES}
    s = Sitting(TableSettings(game="skat", rules="skat(preset=lothar)", games=3,
                              seats=("bot:easy", f"bot:{level}", "person"), seed=7))
    with pytest.raises(ArgumentError) as e:
        s.plan_start()
    assert e.value.code == "bots.unknown"


@pytest.mark.parametrize("spec", ["robot", "", "bot", "person:easy", "me "])
def test_seat_specs_that_are_no_bot_are_refused(spec: str) -> None:
    assert _lobby(spec) == "server.bad_seat_spec"


def test_the_worker_plays_every_level_with_the_engine_bot_behind_it() -> None:
    from stich.bots import make_baptisten_bot, make_bot
    from stich.server.workers import choose_action

    for game, make in (("skat", make_bot), ("baptisten", make_baptisten_bot)):
        rules = "skat(preset=lothar)" if game == "skat" else "baptisten(players=3)"
        s = Sitting(TableSettings(game=game, rules=rules,  # type: ignore[arg-type]
                                  games=3 if game == "skat" else 1,
                                  seats=("bot:random",) * 3, seed=11))
        for ev in s.plan_start():
            s.apply(ev)
        seat = s.to_move_seat()
        assert seat is not None
        view = s.view(seat)
        import random

        for level in ACCEPTED:
            engine = "heuristic" if level == "easy" else level
            want = str(make(engine).choose(view, random.Random(5)))
            assert choose_action(game, level, view, 5) == want, (game, level)


SLOW_PROBE = """
import json, random, sys, time
import stich.server.app  # what `stich serve` loads
from stich.core import ArgumentError
from stich.server.limits import Limits
from stich.server.lobby import _settings
from stich.server.protocol import CreateTableRequest
from stich.server.sitting import Sitting, TableSettings
from stich.server.workers import choose_action

out = {}
try:
    _settings(CreateTableRequest(game="skat", games=3, seats=["me", "bot:slow", "bot:easy"]),
              Limits())
    out["lobby"] = "ok"
except ArgumentError as e:
    out["lobby"] = e.code
s = Sitting(TableSettings(game="skat", rules="skat(preset=lothar)", games=3,
                          seats=("person", "person", "person"), seed=7))
try:
    out["sit"] = [e.data["bot"] for e in s.plan_sit(0, "", None, bot="slow")]
except ArgumentError as e:
    out["sit"] = e.code
try:
    s.plan_sit(0, "", None, bot="hard")
except ArgumentError as e:
    out["choices"] = e.params["choices"]
for game, rules in (("skat", "skat(preset=lothar)"), ("baptisten", "baptisten(players=3)")):
    t = Sitting(TableSettings(game=game, rules=rules, games=3 if game == "skat" else 1,
                              seats=("bot:random", "bot:slow", "bot:random"), seed=11))
    try:
        for ev in t.plan_start():
            t.apply(ev)
    except ArgumentError as e:
        out[game] = e.code
        continue
    view = t.view(t.to_move_seat())
    t0 = time.monotonic()
    slow = choose_action(game, "slow", view, 5)
    took = time.monotonic() - t0
    out[game] = [slow == choose_action(game, "random", view, 5), took]
print(json.dumps(out))
"""


def _probe(slow: str | None) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "STICH_TEST_SLOW_BOT"}
    if slow is not None:
        env["STICH_TEST_SLOW_BOT"] = slow
    out = subprocess.run([sys.executable, "-c", SLOW_PROBE], capture_output=True,
                         text=True, env=env, check=True, timeout=120)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def test_the_slow_test_bot_is_there_only_with_its_environment_variable() -> None:
    on = _probe("0.3")
    assert on["lobby"] == "ok" and on["sit"] == ["slow"]
    assert on["choices"] == "easy, heuristic, learned, random, slow, strong"
    for game in ("skat", "baptisten"):
        same, took = on[game]
        assert same is True and took >= 0.3, (game, on[game])
    off = _probe(None)
    assert off == {"lobby": "server.bad_seat_spec", "sit": "bots.unknown",
                   "choices": CHOICES, "skat": "bots.unknown",
                   "baptisten": "bots.unknown"}
