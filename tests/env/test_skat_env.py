"""The Skat environment (stich.env.skat): PettingZoo's own tests, the action space
against the engine's legal actions, the observation against hidden cards, rewards against
the project's list, illegal actions and seeds."""

from __future__ import annotations

import random
import types
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, max_cycles_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from stich.bots import make_bot
from stich.bots.heuristic import sure_of_the_rest
from stich.env.base import IllegalAction
from stich.env.skat import (
    ACTIONS,
    DISCARD0,
    N_ACTIONS,
    OBS_LAYOUT,
    OBS_SIZE,
    SkatAdapter,
    skat_v0,
)
from stich.skat import SkatRules, SkatState
from stich.skat.actions import CLAIM, Discard, parse_action
from stich.skat.rules import PRESETS

# every preset, and the two other combinations of Ramsch and announcements
RULES = [*PRESETS, "skat(preset=lothar,all_pass=redeal)", "skat(preset=isko,all_pass=ramsch)"]
OFF = {name: sum(w for _, w in OBS_LAYOUT[:i]) for i, (name, _) in enumerate(OBS_LAYOUT)}


PASS = ACTIONS.index("pass")


def random_step(a: SkatAdapter, rng: random.Random, passing: float = 0.0
                ) -> tuple[int, int, list[float]]:
    """A random legal step; ``pass`` with probability ``passing`` where it is legal (so
    that all three pass now and then under bidding jumps too)."""
    seat = a.to_move()
    assert seat is not None
    mask = a.mask(seat)
    if mask[PASS] and rng.random() < passing:
        return seat, PASS, a.step(PASS)
    action = int(rng.choice(np.flatnonzero(mask)))
    return seat, action, a.step(action)


# --- the spaces ----------------------------------------------------------------------------


def test_the_spaces_are_fixed_and_documented() -> None:
    assert len(ACTIONS) == N_ACTIONS == len(set(ACTIONS)) == 165
    assert sum(w for _, w in OBS_LAYOUT) == OBS_SIZE == 400
    a = SkatAdapter()
    for i, text in enumerate(ACTIONS):
        assert a.action_text(i) == text
        if DISCARD0 <= i < DISCARD0 + 32:
            assert text == f"discard {ACTIONS[-32 + i - DISCARD0]}"
        else:  # every other text is the engine's own text of the action it reads as
            assert str(parse_action(text)) == text
    o = a.observe(a.to_move() or 0)
    assert o.dtype == np.float32 and o.shape == (OBS_SIZE,)


@pytest.mark.parametrize("rules", RULES)
def test_every_legal_action_maps_into_the_space_and_the_mask_is_the_legal_set(
        rules: str) -> None:
    a = SkatAdapter(rules, games=4)
    rng = random.Random(rules)
    kinds: set[str] = set()
    steps = 0
    while steps < 6000:
        a.reset(rng.getrandbits(32))
        while not a.over():
            seat = a.to_move()
            assert seat is not None
            legal = a.view(seat).legal_actions
            assert legal == tuple(a.state.legal_actions())  # the seat to move's own view
            expected = np.zeros(N_ACTIONS, dtype=np.int8)
            if isinstance(legal[0], Discard):
                pairs = [d.cards for d in legal if isinstance(d, Discard)]
                assert len(pairs) == len(legal) == 66
                if a.pending < 0:
                    ok = {c for p in pairs for c in range(32) if p >> c & 1}
                else:
                    ok = {c for p in pairs if p >> a.pending & 1 for c in range(32)
                          if (p & ~(1 << a.pending)) >> c & 1}
                    assert a.pending not in ok
                for c in ok:
                    expected[DISCARD0 + c] = 1
                kinds.add("discard")
            else:
                for act in legal:
                    i = ACTIONS.index(str(act))  # the action is in the space …
                    assert parse_action(a.action_text(i)) == act  # … and back
                    expected[i] = 1
                    kinds.add(type(act).__name__ if not str(act).startswith("declare")
                              else " ".join(str(act).split()[:2]))
            assert np.array_equal(a.mask(seat), expected)
            for other in range(3):
                if other != seat:
                    assert not a.mask(other).any()
            random_step(a, rng)
            steps += 1
    assert {"Bid", "Simple", "Card", "discard", "declare grand", "declare null"} <= kinds


def test_the_two_step_discard() -> None:
    a = SkatAdapter("lothar")
    rng = random.Random(3)
    for seed in range(200):
        a.reset(seed)
        while a.state.phase.name != "DISCARD" and not a.over():
            seat = a.to_move()
            assert seat is not None
            m = a.mask(seat)
            pick = ACTIONS.index("pickup")
            random_step(a, rng) if not m[pick] else a.step(pick)
        if not a.over():
            break
    d = a.to_move()
    assert d is not None and a.state.phase.name == "DISCARD"
    others = [s for s in range(3) if s != d]
    before = {s: a.observe(s) for s in range(3)}
    hand = a.view(d).hand
    first = min(c for c in range(32) if hand >> c & 1)
    second = max(c for c in range(32) if hand >> c & 1)
    assert a.step(DISCARD0 + first) == [0.0, 0.0, 0.0]
    assert a.to_move() == d and a.state.phase.name == "DISCARD"  # nothing applied yet
    assert not a.mask(d)[DISCARD0 + first]  # the same card twice is masked
    assert a.mask(d)[DISCARD0 + second]
    after = a.observe(d)
    pending = after[OFF["pending_discard"]:OFF["pending_discard"] + 32]
    assert np.flatnonzero(pending).tolist() == [first]
    for s in others:  # the others learn nothing of the pending card
        assert np.array_equal(a.observe(s), before[s])
    a.step(DISCARD0 + second)
    assert a.state.phase.name == "DECLARE"
    assert a.state.skat == (1 << first | 1 << second)
    assert not a.observe(d)[OFF["pending_discard"]:OFF["pending_discard"] + 32].any()


# --- PettingZoo's tests --------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "games", "scoring"),
                         [("lothar", 1, "list"), ("isko", 3, "list"), ("lothar", 2, "seeger")])
def test_pettingzoo_api(rules: str, games: int, scoring: str) -> None:
    api_test(skat_v0(rules, games=games, scoring=scoring), num_cycles=300)


def test_pettingzoo_seed() -> None:
    seed_test(lambda **kw: skat_v0(games=2, **kw), num_cycles=300)
    seed_test(lambda **kw: skat_v0("isko", **kw), num_cycles=300)


def _module(on_illegal: str) -> types.SimpleNamespace:
    """A module namespace as ``max_cycles_test`` wants one (``env`` and ``parallel_env``
    taking ``max_cycles``); the parallel env is PettingZoo's turn-based conversion (its
    ``aec_to_parallel`` needs every agent to act once per cycle, which Skat's turns do not)."""
    def make(max_cycles: int) -> Any:
        return skat_v0(on_illegal=on_illegal, max_cycles=max_cycles)
    return types.SimpleNamespace(
        env=make, parallel_env=lambda max_cycles: turn_based_aec_to_parallel(make(max_cycles)))


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=(
    "max_cycles_test samples unmasked actions: in a turn-based card game nearly all are "
    "illegal, so on_illegal='terminate' ends the game at the first step; and it wants every "
    "agent to act max_cycles times, which turn order does not give.  PettingZoo runs it for "
    "none of its classic (turn-based) games either."))
def test_pettingzoo_max_cycles() -> None:
    max_cycles_test(_module("terminate"))


@pytest.mark.parametrize("max_cycles", [1, 4, 25])
def test_max_cycles_truncates_after_that_many_steps(max_cycles: int) -> None:
    env = skat_v0(games=3, max_cycles=max_cycles)
    env.reset(seed=5)
    rng = random.Random(5)
    steps = 0
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps == max_cycles
    par = turn_based_aec_to_parallel(skat_v0(games=3, max_cycles=max_cycles))
    par.reset(seed=5)
    n = 0
    while par.agents:
        active = par.aec_env.agent_selection
        mask = par.aec_env.observe(active)["action_mask"]
        par.step({ag: int(rng.choice(np.flatnonzero(mask))) for ag in par.agents})
        n += 1
    assert n == max_cycles


# --- hidden cards --------------------------------------------------------------------------


def _swapped(hands: tuple[int, int, int], skat: int, a: int, b: int,
             rng: random.Random) -> tuple[tuple[int, int, int], int]:
    """The deal with one random card of part ``a`` and one of part ``b`` exchanged
    (parts 0-2: the hands by position, 3: the Skat); also the two cards."""
    parts = [*hands, skat]
    x = rng.choice([c for c in range(32) if parts[a] >> c & 1])
    y = rng.choice([c for c in range(32) if parts[b] >> c & 1])
    parts[a] ^= 1 << x | 1 << y
    parts[b] ^= 1 << x | 1 << y
    return (parts[0], parts[1], parts[2]), parts[3]


@pytest.mark.parametrize("rules", ["lothar", "isko"])
def test_no_leak_of_hidden_cards(rules: str) -> None:
    """Two deals that differ only in cards hidden from a seat give that seat the same
    observation and mask at every step of the same actions, as long as the actions are
    legal in both and the cards stay hidden from it."""
    rng = random.Random(rules)
    compared = 0
    for trial in range(120):
        seat = trial % 3
        one, two = SkatAdapter(rules), SkatAdapter(rules)
        one.reset(trial)
        two.reset(trial)
        pos = one.pos_of[seat]
        hands, skat = one.state.deal
        others = [p for p in range(3) if p != pos]
        a, b = (others[0], others[1]) if trial % 2 else (rng.choice(others), 3)
        hands2, skat2 = _swapped(hands, skat, a, b, rng)
        moved = (hands[a] ^ hands2[a]) if a < 3 else 0
        two.set_deal(hands2, skat2)
        while not one.over():
            known = one.view(seat).known_cards() | two.view(seat).known_cards()
            if known & moved or one.state.is_over:
                break
            assert np.array_equal(one.observe(seat), two.observe(seat)), (trial, seat)
            assert np.array_equal(one.mask(seat), two.mask(seat))
            compared += 1
            mover = one.to_move()
            assert mover is not None
            action = int(rng.choice(np.flatnonzero(one.mask(mover))))
            if not two.mask(mover)[action]:
                break
            one.step(action)
            two.step(action)
    assert compared > 1500


# --- illegal actions -----------------------------------------------------------------------


def test_an_illegal_action_raises_naming_the_legal_ones() -> None:
    env = skat_v0(on_illegal="raise")
    env.reset(seed=1)
    agent = env.agent_selection
    hold = ACTIONS.index("hold")
    expected = rf"^{agent} may not play action {hold} \(hold\); legal now: 18, pass$"
    with pytest.raises(IllegalAction, match=expected):
        env.step(hold)
    with pytest.raises(IllegalAction, match=f"may not play action {N_ACTIONS};"):
        env.step(N_ACTIONS)  # outside the space
    assert env.agent_selection == agent  # nothing happened
    env.step(ACTIONS.index("18"))


def test_on_illegal_terminate_ends_the_game_with_the_penalty() -> None:
    env = skat_v0(on_illegal="terminate", games=3)
    env.reset(seed=1)
    agent = env.agent_selection
    env.step(ACTIONS.index("CJ"))
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1.0
    assert all(r == 0.0 for a, r in env.rewards.items() if a != agent)
    assert env.infos[agent] == {"illegal": True}
    assert all(i == {} for a, i in env.infos.items() if a != agent)


# --- rewards -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_rewards_are_the_list_scores_of_the_project(rules: str) -> None:
    rng = random.Random(rules)
    kinds: set[str] = set()
    for scoring in ("list", "seeger"):
        a = SkatAdapter(rules, games=5, scoring=scoring)
        for _ in range(40):
            a.reset(rng.getrandbits(32))
            first = a.table.first_dealer
            total = [0.0, 0.0, 0.0]
            k = 0
            while not a.over():
                # the project's rotation: game k is dealt by (first + k) % 3
                assert a.seat_of == tuple((first + k + 1 + p) % 3 for p in range(3))
                before: SkatState = a.state
                seat_of = a.seat_of
                _seat, action, rewards = random_step(a, rng, passing=0.6)
                total = [t + r for t, r in zip(total, rewards, strict=True)]
                if DISCARD0 <= action < DISCARD0 + 32:
                    continue
                after = before.apply(parse_action(ACTIONS[action]))
                if not after.is_over:
                    assert rewards == [0.0, 0.0, 0.0]
                    continue
                k += 1
                o = after.outcome()
                kinds.add(o.kind)
                expected = [0.0, 0.0, 0.0]
                for p in range(3):
                    expected[seat_of[p]] = o.scores[p]
                if scoring == "seeger" and o.kind == "game":
                    assert o.declarer is not None
                    d = seat_of[o.declarer]
                    for s in range(3):
                        expected[s] += (50 if o.won else -50) if s == d else (0 if o.won else 40)
                assert rewards == expected, (o, rewards, expected)
            assert k == 5
            assert total == a.scores
            if scoring == "list":
                assert [float(x) for x in a.table.punktestand()] == total
    redeal = SkatRules.parse(rules).all_pass == "redeal"
    assert kinds == {"game", "passed" if redeal else "ramsch"}


# --- seeds and text ------------------------------------------------------------------------


def test_seeded_resets_are_reproducible() -> None:
    def run(seed: int) -> list[Any]:
        env = skat_v0(games=2)
        env.reset(seed=seed)
        rng = random.Random(0)
        out: list[Any] = []
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            out.append((agent, obs["observation"].tobytes(), reward))
            if term or trunc:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return out

    assert run(7) == run(7)
    assert run(7) != run(8)
    a, b = SkatAdapter(), SkatAdapter()
    a.reset(11)
    b.reset(11)
    assert a.state.deal == b.state.deal and a.seat_of == b.seat_of


def test_render() -> None:
    env = skat_v0(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str)
    assert "Vorhand" in text and "player_0" in text and "BIDDING" in text



def test_a_bot_the_env_drives_plays_out_the_rest_it_could_claim() -> None:
    """The action space has no claim: the env hides the claims from a bot it drives
    (``claims=()``), so ``easy``, which claims a sure rest at a table, plays it out here
    (a claim would have no action index).  The games hold such rests."""
    a = SkatAdapter("lothar", games=60)
    bot, rng = make_bot("easy"), random.Random(5)
    sure = 0
    while not a.over():
        view = a.state.view(a.state.to_move)  # the seat's own view, claims offered
        sure += CLAIM in view.claims and view.hand.bit_count() > 1 and sure_of_the_rest(view)
        a.play_bot(bot, rng)
    assert sure >= 1
