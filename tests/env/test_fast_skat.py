"""The fast path of VectorGames for Skat (stich.env.fast_skat, stich.skat.batch): the same
observations, masks, seats, rewards and restarts as the adapters' loop over many
positions, the adapters kept up to date, rule sets it cannot play refused, and no leak
of hidden cards."""

from __future__ import annotations

import random

import numpy as np
import pytest

from stich.env.base import IllegalAction
from stich.env.fast_skat import unsupported
from stich.env.skat import ACTIONS, DISCARD0
from stich.env.vector import VectorGames
from stich.skat.rules import PRESETS

# every preset, both ways of all passing, rules that change only the scores, both scorings
CASES = [
    *({"rules": name} for name in PRESETS),
    {"rules": "skat(preset=lothar,all_pass=redeal)", "games": 3},
    {"rules": "skat(preset=isko,all_pass=ramsch)", "games": 2, "scoring": "seeger"},
    {"rules": "skat(preset=lothar,jungfrau=yes,durchmarsch=yes)", "games": 4},
]
PASS_ID = ACTIONS.index("pass")


def _actions(v: VectorGames, masks: np.ndarray, rng: random.Random) -> list[int]:  # type: ignore[type-arg]
    """A random legal action per game from the masks, ``pass`` often where legal (so
    that all three pass now and then, and Ramsch is played)."""
    out = []
    for m in masks:
        if m[PASS_ID] and rng.random() < 0.4:
            out.append(PASS_ID)
        else:
            out.append(int(rng.choice(np.flatnonzero(m))))
    return out


@pytest.mark.parametrize("kwargs", CASES, ids=lambda k: ",".join(map(str, k.values())))
def test_the_fast_path_gives_the_adapters_numbers(kwargs: dict[str, object]) -> None:
    """Both paths from one seed, the same actions: every observation, mask, seat, reward
    and restart is the same (the adapters' rows are encoded apart, by
    ``stich.skat.observation.encode`` from the same views)."""
    slow = VectorGames("skat", 16, seed=11, fast=False, **kwargs)
    fast = VectorGames("skat", 16, seed=11, fast=True, **kwargs)
    assert fast.fast and not slow.fast
    rng = random.Random(str(kwargs))
    phases: set[float] = set()
    ended = 0
    for step in range(500):
        obs, masks, seats = slow.observe()
        fobs, fmasks, fseats = fast.observe()
        assert fseats == seats, step
        assert np.array_equal(fobs, obs), step
        assert np.array_equal(fmasks, masks), step
        phases.update(np.flatnonzero(obs[0, 352:358]).tolist())
        if step % 7 == 0:  # the batch's own random choice draws alike
            actions = slow.random_actions()
            assert np.array_equal(fast.random_actions(), actions)
        else:
            actions = np.array(_actions(slow, masks, rng))
        rewards, done = slow.step(actions)
        frewards, fdone = fast.step(actions)
        assert np.array_equal(frewards, rewards), step
        assert np.array_equal(fdone, done), step
        ended += int(done.sum())
    assert ended > 0 and fast.steps == slow.steps == 500 * 16
    assert len(phases) >= 4  # bidding, Skat, discard, declaring and card play were seen


def test_the_adapters_are_kept_up_to_date_and_taken_back() -> None:
    """``games`` hands out the adapters up to date; what is done to them is where the
    fast path goes on from."""
    v = VectorGames("skat", 5, seed=2)
    assert v.fast
    rng = random.Random(2)
    for step in range(300):
        obs, masks, seats = v.observe()
        for i, (g, seat) in enumerate(zip(v.games, seats, strict=True)):
            assert np.array_equal(obs[i], g.observe(seat)), step
            assert np.array_equal(masks[i], g.mask(seat))
        if step % 3 == 0:  # a game stepped through its adapter
            g = v.games[step % 5]
            seat = g.to_move()
            assert seat is not None
            g.step(int(rng.choice(np.flatnonzero(g.mask(seat)))))
            if g.over():
                g.reset(step)
        obs, masks, seats = v.observe()
        v.step(_actions(v, masks, rng))


def test_rule_sets_without_a_fast_path_are_refused_clearly() -> None:
    house = "skat(preset=lothar,kontra_re=yes)"
    with pytest.raises(ValueError, match="presets' space only: the house rules of"):
        VectorGames("skat", 2, rules=house, fast=True)
    assert not VectorGames("skat", 2, rules=house).fast  # the adapters' loop
    with pytest.raises(ValueError, match="Skat only"):
        VectorGames("baptisten", 2, players=3, fast=True)
    assert not VectorGames("baptisten", 2, players=3).fast
    assert not VectorGames("skat", 2, fast=False).fast
    assert unsupported(VectorGames("skat", 1, fast=False).games) is None


def _swapped(hands: tuple[int, int, int], skat: int, a: int, b: int,
             rng: random.Random) -> tuple[tuple[int, int, int], int]:
    """The deal with one random card of part ``a`` and one of part ``b`` exchanged
    (parts 0-2: the hands by position, 3: the Skat)."""
    parts = [*hands, skat]
    x = rng.choice([c for c in range(32) if parts[a] >> c & 1])
    y = rng.choice([c for c in range(32) if parts[b] >> c & 1])
    parts[a] ^= 1 << x | 1 << y
    parts[b] ^= 1 << x | 1 << y
    return (parts[0], parts[1], parts[2]), parts[3]


@pytest.mark.parametrize("rules", ["lothar", "isko"])
def test_no_leak_of_hidden_cards(rules: str) -> None:
    """Two batches whose deals differ only in cards hidden from one seat per game give
    that seat the same observation and mask whenever it is to move, along the same
    actions, as long as they are legal in both and the cards stay hidden from it."""
    n = 96
    rng = random.Random(rules)
    one = VectorGames("skat", n, seed=4, rules=rules)
    two = VectorGames("skat", n, seed=4, rules=rules)
    assert one.fast and two.fast
    watched = [i % 3 for i in range(n)]  # the table seat each game is compared for
    moved = [0] * n
    for i, (a1, a2) in enumerate(zip(one.games, two.games, strict=True)):
        pos = a1.pos_of[watched[i]]  # type: ignore[attr-defined]
        hands, skat = a1.state.deal  # type: ignore[attr-defined]
        others = [p for p in range(3) if p != pos]
        a, b = (others[0], others[1]) if i % 2 else (rng.choice(others), 3)
        hands2, skat2 = _swapped(hands, skat, a, b, rng)
        moved[i] = hands[a] ^ hands2[a]
        a2.set_deal(hands2, skat2)  # type: ignore[attr-defined]
    live = [True] * n
    compared = 0
    for _ in range(45):
        adapters1, adapters2 = one.games, two.games
        for i in range(n):
            seat = watched[i]
            if live[i] and (adapters1[i].view(seat).known_cards()
                            | adapters2[i].view(seat).known_cards()) & moved[i]:
                live[i] = False
        obs1, masks1, seats1 = one.observe()
        obs2, masks2, seats2 = two.observe()
        obs1, masks1, obs2, masks2 = obs1.copy(), masks1.copy(), obs2.copy(), masks2.copy()
        actions1, actions2 = [], []
        for i in range(n):
            if live[i] and seats1[i] == seats2[i] == watched[i]:
                assert np.array_equal(obs1[i], obs2[i]), i
                assert np.array_equal(masks1[i], masks2[i]), i
                compared += 1
            a = int(rng.choice(np.flatnonzero(masks1[i])))
            if live[i] and (seats1[i] != seats2[i] or not masks2[i][a]):
                live[i] = False
            actions1.append(a)
            actions2.append(a if live[i] else int(rng.choice(np.flatnonzero(masks2[i]))))
        _, done1 = one.step(actions1)
        _, done2 = two.step(actions2)
        for i in np.flatnonzero(done1 | done2):
            live[i] = False
    assert compared > 400


@pytest.mark.parametrize("bad", ["masked", "outside"])
def test_an_illegal_action_is_refused_as_by_the_adapters_loop(bad: str) -> None:
    """The same IllegalAction naming the game, the games before it stepped, and both
    paths go on alike after it."""
    slow = VectorGames("skat", 6, seed=8, fast=False)
    fast = VectorGames("skat", 6, seed=8, fast=True)
    rng = random.Random(bad)
    for step in range(120):
        obs, masks, _ = slow.observe()
        fobs, fmasks, _ = fast.observe()
        assert np.array_equal(obs, fobs) and np.array_equal(masks, fmasks), step
        actions = _actions(slow, masks, rng)
        if step % 40 == 17:
            i = step % 6
            if bad == "outside":
                actions[i] = slow.n_actions
            else:  # an action the mask forbids that is no first discard step
                actions[i] = next(a for a in range(slow.n_actions)
                                  if not masks[i][a] and not DISCARD0 <= a < DISCARD0 + 32)
            with pytest.raises(IllegalAction) as one:
                slow.step(actions)
            with pytest.raises(IllegalAction) as two:
                fast.step(actions)
            assert str(two.value) == str(one.value)
            assert str(one.value).startswith(f"game {i} of 6 (skat)")
            continue
        rewards, done = slow.step(actions)
        frewards, fdone = fast.step(actions)
        assert np.array_equal(rewards, frewards) and np.array_equal(done, fdone), step
