"""A snapshot is what the log says: a sitting restored from a snapshot taken at any event,
with the events after it applied, is the sitting that replaying the whole log gives, in
every attribute (``stich.server.snapshot``).

The tables are played at random with every kind of request a table takes (actions,
chat, pause and resume, the site's idle pause, away, back, stand-ins, leaving for good,
the wait after a game, ending an open-ended list, closing), for both games, both Skat
presets and several Baptistenskat variants.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from stich.baptisten import BaptistenRules
from stich.core import ArgumentError
from stich.server import snapshot
from stich.server.sitting import Event, Sitting, TableSettings, replay_events

# every attribute of a Sitting, and how two sittings are compared on it; a new attribute
# fails test_every_attribute_is_compared until it is written down in the snapshot (and
# here)
_SKAT_SLOTS = ("rules", "phase", "to_move", "hands", "skat", "deal", "_bidding", "trick",
               "leader", "points", "tricks_won", "_tricks", "_hist", "_auction", "_end",
               "_follow")
_BAPTISTEN_SLOTS = ("_round", "_score", "phase", "to_move", "hands", "trick", "leader",
                    "follow_suit", "tricks_won", "_hist", "_round_tricks")


def _skat(st: Any) -> Any:
    if st is None:
        return None
    game = st._game
    fixed = None if game is None else (game.declarer, game.contract, game.game, game.bid,
                                       game.picked_up, game.owned)
    return ([getattr(st, f) for f in _SKAT_SLOTS], fixed, st.outcome() if st.is_over else None)


def _baptisten(st: Any) -> Any:
    if st is None:
        return None
    ctx = st._ctx
    return ([getattr(st, f) for f in _BAPTISTEN_SLOTS], ctx.rules, ctx.deals, ctx.seed,
            ctx.first, st.sheet)


def _table(t: Any) -> Any:
    if t is None:
        return None
    return (t.players, t.rules, t.first_dealer, t.dealer,
            [(g, g.outcome) for g in t.games])


COMPARED: dict[str, Callable[[Any], Any]] = {
    "settings": lambda v: v,
    "base": lambda v: None,  # where the events in memory begin: compared with them below
    "events": lambda v: None,
    "finished": lambda v: None, "finished_seats": lambda v: None,
    "by_acts": lambda v: v, "own": lambda v: v, "stood_in": lambda v: v,
    "round_own": lambda v: v,
    "turn_seq": lambda v: v, "sat_at": lambda v: v, "first": lambda v: v,
    "game_acts": lambda v: v, "games_done": lambda v: v, "seats": lambda v: v,
    "started": lambda v: v, "over": lambda v: v, "paused_by": lambda v: v,
    "idle": lambda v: v, "end_reason": lambda v: v, "paused_since": lambda v: v,
    "pauses": lambda v: v, "ending": lambda v: v,
    "away": lambda v: v, "asked_away": lambda v: v, "standins": lambda v: v,
    "game": lambda v: v.name, "play": lambda v: _play_state(v),
    "game_number": lambda v: v, "between": lambda v: v,
    "between_since": lambda v: v, "ready": lambda v: v, "quit": lambda v: v,
    "chat": list, "helped": lambda v: v, "standin_marks": lambda v: v,
    "round_marks": lambda v: v,
}

# every attribute of the game side of a table (stich.games.play), compared the same way
PLAY_COMPARED: dict[str, Callable[[Any], Any]] = {
    "_rules": lambda v: v,
    "skat": _skat, "skat_list": _table, "positions": lambda v: v,
    "baptisten": _baptisten, "last_trick": lambda v: v,
}


def _play_state(play: Any) -> dict[str, Any]:
    out = {}
    for name, value in vars(play).items():
        assert name in PLAY_COMPARED, f"{type(play).__name__}.{name} is new: write it " \
            "into the snapshot"
        out[name] = PLAY_COMPARED[name](value)
    return out


def _state(s: Sitting) -> dict[str, Any]:
    out = {}
    for name, value in vars(s).items():
        assert name in COMPARED, f"Sitting.{name} is new: write it into the snapshot"
        out[name] = COMPARED[name](value)
    out["seq"] = s.seq
    return out


def _play(settings: TableSettings, rng: random.Random, steps: int) -> list[Event]:
    """A table played at random: every request a table takes, now and then."""
    s = Sitting(settings)
    people = [i for i, spec in enumerate(settings.seats) if spec == "person"]
    for n, seat in enumerate(people):
        for ev in s.plan_sit(seat, f"P{n}", 100 + n):
            s.apply(ev)
    for ev in s.plan_start():
        s.apply(ev)
    for _ in range(steps):
        if s.over:
            break
        roll = rng.random()
        seat = rng.choice(people)
        try:
            if roll < 0.03:
                events = s.plan_chat(rng.choice([seat, None]), "P", f"line {s.seq}")
            elif roll < 0.06:
                events = s.plan_pause(seat, s.paused_by is None)
            elif roll < 0.08:
                events = s.plan_idle(not s.idle)
            elif roll < 0.13:
                events = s.plan_presence(seat, rng.choice(["away", "back", "standin"]),
                                         asked=rng.random() < 0.5)
            elif roll < 0.14:
                events = s.plan_quit(seat)
            elif roll < 0.145:
                events = s.plan_end(seat)
            elif roll < 0.147:
                events = s.plan_close("closed")
            elif s.between:
                events = s.plan_ready(seat) if rng.random() < 0.7 else s.plan_go_on()
            else:
                if s.paused:
                    events = s.plan_pause(s.paused_by, False) if s.paused_by is not None \
                        else s.plan_idle(False)
                else:
                    turn = s.to_move_seat()
                    assert turn is not None and s.state is not None
                    action = rng.choice(s.state.legal_actions())
                    # now and then a stand-in or the clock moves for a person
                    by = "bot" if turn not in people else rng.choice(
                        ["player"] * 6 + ["standin", "clock"])
                    events = s.plan_act(turn, str(action), by=by)
        except ArgumentError:
            continue
        for ev in events:
            s.apply(ev)
    return s.events


def _check(settings: TableSettings, events: list[Event], rng: random.Random,
           points: int = 12) -> None:
    full = replay_events(settings, events)
    cuts = sorted({0, len(events), *(rng.randrange(len(events) + 1) for _ in range(points))})
    for cut in cuts:
        before = replay_events(settings, events[:cut])
        snap = orjson.loads(orjson.dumps(snapshot.take(before)))  # as the database keeps it
        again = snapshot.restore(settings, snap)
        assert again.seq == cut and again.events == []
        assert _state(again) == _state(before) | {"seq": cut}, f"restored at {cut}"
        for ev in events[cut:]:
            again.apply(ev)
        assert _state(again) == _state(full), f"snapshot at {cut}, then the log"
        assert again.events == events[cut:]
        assert again.games_done == full.games_done
        assert again.finished == [r for r in full.finished][len(full.finished) -
                                                            len(again.finished):]
        assert again.finished_seats == full.finished_seats[len(full.finished_seats) -
                                                           len(again.finished_seats):]
        # the sitting taken again from where it stands forgets its events
        again.forget_events()
        assert again.seq == full.seq and again.events == []


SKAT = [("skat(preset=lothar)", 3, 0), ("skat(preset=isko)", 6, 10), ("skat(preset=lothar)", 0, 5),
        ("skat(preset=isko)", 36, 0)]


@pytest.mark.parametrize(("rules", "games", "next_after"), SKAT)
@pytest.mark.parametrize("seed", range(4))
def test_a_skat_table_from_any_snapshot_is_its_log(rules: str, games: int, next_after: int,
                                                   seed: int) -> None:
    rng = random.Random(seed)
    settings = TableSettings(game="skat", rules=rules, seats=("person", "person", "bot:easy"),
                             seed=seed, games=games, next_after=next_after)
    events = _play(settings, rng, 900 if games < 36 else 3000)
    assert any(e.kind == "game_over" for e in events)
    _check(settings, events, rng)


BAPTISTEN = [BaptistenRules(players=3, max_cards=3),
             BaptistenRules(players=4, max_cards=3, forehead=True, trick_scoring=True),
             BaptistenRules(players=5, max_cards=2, hook_always=True, must_overtrump=True,
                            deck="romme-double-joker")]


@pytest.mark.parametrize("rules", BAPTISTEN, ids=str)
@pytest.mark.parametrize("seed", range(3))
def test_a_baptisten_table_from_any_snapshot_is_its_log(rules: BaptistenRules,
                                                        seed: int) -> None:
    rng = random.Random(seed)
    seats = ("person", "person", *("bot:easy",) * (rules.players - 2))
    settings = TableSettings(game="baptisten", rules=str(rules), seats=seats, seed=seed,
                             games=1, next_after=5 * (seed % 2))
    events = _play(settings, rng, 1500)
    assert any(e.kind == "round_over" for e in events)
    _check(settings, events, rng)


def test_every_attribute_is_compared() -> None:
    settings = TableSettings(game="skat", rules="skat(preset=lothar)",
                             seats=("person", "person", "bot:easy"), seed=1, games=3)
    assert set(vars(Sitting(settings))) <= set(COMPARED)
    bap = TableSettings(game="baptisten", rules=str(BAPTISTEN[0]),
                        seats=("person", "person", "bot:easy"), seed=1, games=1)
    assert set(vars(Sitting(bap))) <= set(COMPARED)


def test_a_snapshot_of_another_format_is_not_used() -> None:
    settings = TableSettings(game="skat", rules="skat(preset=lothar)",
                             seats=("bot:easy",) * 3, seed=1, games=3)
    s = Sitting(settings)
    for ev in s.plan_start():
        s.apply(ev)
    snap = snapshot.take(s) | {"format": snapshot.FORMAT + 1}
    with pytest.raises(ValueError, match="format"):
        snapshot.restore(settings, snap)
