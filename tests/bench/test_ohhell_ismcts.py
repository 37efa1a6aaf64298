"""``bench.tuning.ohhell_ismcts``: the lockstep bridge between our ``ohhell`` preset and
OpenSpiel's ``oh_hell``, and the fair resampler for IS-MCTS.

- Deals forced into both engines and played in lockstep (random moves, our ``easy`` bot
  and IS-MCTS with either resampler) agree on the player to move, the legal actions at
  every step and the scores at the end; a rule difference is caught.
- The fair resampler keeps the player's information set, never deals a card the player
  has seen to a hidden hand, respects the voids shown, and is uniform over the
  consistent deals (checked against enumeration on a small pool).
- OpenSpiel's shipped resampler keeps the set of cards the opponents hold (the leak the
  benchmark documents) and, with three players, respects shown voids.

CI installs ``open-spiel`` (the ``test`` extra), so a missing ``pyspiel`` is a failure.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from typing import Any

import pytest
from bench.tuning import ohhell_ismcts as bench

from stich.baptisten import BaptistenRules
from stich.bots import make_baptisten_bot

from ..baptisten.openspiel_map import os_action

try:
    import pyspiel  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - CI installs open-spiel
    pyspiel = None

OHHELL = BaptistenRules.preset("ohhell")


def game(tricks: int) -> Any:
    if pyspiel is None:
        pytest.fail("OpenSpiel is not importable (import pyspiel failed); install "
                    "'open-spiel>=2.0' (it is in the test extra)")
    return pyspiel.load_game("oh_hell", {"players": 3, "num_tricks_fixed": tricks})


def rules(tricks: int) -> BaptistenRules:
    return dataclasses.replace(OHHELL, max_cards=tricks)


def random_chooser(rng: random.Random) -> Any:
    return lambda player, os_state, ours: rng.choice(os_state.legal_actions())


@pytest.mark.parametrize("tricks", [1, 2, 7, 17])
def test_lockstep_random_play(tricks: int) -> None:
    """Random play on forced deals: same mover, same legal sets, same scores."""
    rng = random.Random(tricks)
    g = game(tricks)
    for d in range(6):
        deal = bench.make_deal(3, d, tricks)
        final = bench.play_lockstep(g, rules(tricks), deal, random_chooser(rng))
        assert final.is_over
        row = final.sheet[0]
        assert sum(row.tricks) == tricks
        assert final.first == (deal.dealer + 1) % 3
        for p in range(3):
            exact = 10 if row.bids[p] == row.tricks[p] else 0
            assert final.totals[p] == row.tricks[p] + exact


def test_lockstep_catches_a_rule_difference() -> None:
    """Without the hook rule in a one-card round our engine lets the dealer bid what
    OpenSpiel refuses: the bridge must notice."""
    g = game(1)
    deal = bench.make_deal(5, 0, 1)
    no_hook = dataclasses.replace(rules(1), hook_always=False)
    first = lambda player, os_state, ours: min(os_state.legal_actions())  # noqa: E731
    with pytest.raises(AssertionError, match="legal actions differ"):
        bench.play_lockstep(g, no_hook, deal, first)
    final = bench.play_lockstep(g, rules(1), deal, first)  # the preset itself agrees
    assert final.is_over


@pytest.mark.parametrize("resampler", ["shipped", "fair", "shipped-cpp"])
def test_lockstep_with_bots(resampler: str) -> None:
    """Our ``easy`` bot in seat 0 (seeing only its view), IS-MCTS with 8 simulations in
    the others: the game runs to the end and both engines score it alike."""
    tricks = 4
    g = game(tricks)
    ours_bot = make_baptisten_bot("easy")
    rng = random.Random(1)
    mcts = [bench.make_ismcts(g, 8, resampler, seed) for seed in (11, 12, 13)]

    def choose(player: int, os_state: Any, ours: Any) -> int:
        if player == 0:
            return int(os_action(ours_bot.choose(ours.view(0), rng)))
        return int(mcts[player].step(os_state))

    final = bench.play_lockstep(g, rules(tricks), bench.make_deal(2, 0, tricks), choose)
    assert sum(final.sheet[0].tricks) == tricks


def states_with_voids(count: int) -> list[Any]:
    """Mid-round OpenSpiel states (7 tricks, random play) in which somebody other than
    the player to move has shown a void."""
    g = game(7)
    rng = random.Random(99)
    found = []
    for d in itertools.count():
        state = bench.os_state_for(g, bench.make_deal(8, d, 7))
        for _ in range(3 + rng.randrange(6, 19)):
            state.apply_action(rng.choice(state.legal_actions()))
        player = state.current_player()
        info = bench.public_info(state, player)
        if any(info.voids[p] for p in range(3) if p != player):
            found.append(state)
            if len(found) == count:
                return found
    raise AssertionError("unreachable")


def hands_of(state: Any) -> list[set[int]]:
    """Each player's dealt cards, read from the chance actions."""
    hist = state.history()
    k = hist[0]
    hands: list[set[int]] = [set(), set(), set()]
    for i, c in enumerate(hist[2:2 + 3 * k]):
        hands[i % 3].add(c)
    return hands


def test_fair_resampler_respects_what_the_player_saw() -> None:
    rng = random.Random(4)
    for state in states_with_voids(6):
        player = state.current_player()
        info = bench.public_info(state, player)
        real = hands_of(state)
        seen = set(info.own) | {info.trump_card}
        for cards in info.played:
            seen.update(cards)
        key = state.information_state_string(player)
        moved_out = 0
        for _ in range(40):
            sample = bench.fair_resample(state, player, rng)
            assert sample.information_state_string(player) == key
            assert sample.history()[2 + 21] == info.trump_card
            hands = hands_of(sample)
            assert hands[player] == real[player]
            for p in range(3):
                if p == player:
                    continue
                hidden = hands[p] - set(info.played[p])
                assert set(info.played[p]) <= hands[p]
                assert not hidden & seen, "a seen card dealt to a hidden hand"
                assert all(c % 4 not in info.voids[p] for c in hidden), "void ignored"
                moved_out += len(hidden - real[p])
            # the sample is a legal continuation: same legal actions for the player
            assert sorted(sample.legal_actions()) == sorted(state.legal_actions())
        assert moved_out > 0  # the hidden cards really are redrawn


def test_shipped_resampler_keeps_the_opponents_cards() -> None:
    """What the benchmark says of OpenSpiel's resampler (``open-spiel`` 2.0.x): every
    sample gives the opponents together exactly the cards they really hold, so the
    cards out of play are known to the searcher.  Shown voids are respected with three
    players (OpenSpiel 2.0 first gives every card of a suit one opponent is void in to
    the other one); older releases ignored them."""
    rng = random.Random(5)
    moved = 0
    for state in states_with_voids(6):
        player = state.current_player()
        info = bench.public_info(state, player)
        real = hands_of(state)
        union = set().union(*(real[p] for p in range(3) if p != player))
        for _ in range(40):
            sample = bench.shipped_resample(state, player, rng)
            assert sample.information_state_string(player) == \
                state.information_state_string(player)
            hands = hands_of(sample)
            assert set().union(*(hands[p] for p in range(3) if p != player)) == union
            for p in range(3):
                if p != player:
                    hidden = hands[p] - set(info.played[p])
                    assert all(c % 4 not in info.voids[p] for c in hidden)
                    moved += len(hidden - real[p])
    assert moved > 0


def test_sample_hidden_is_uniform_over_consistent_deals() -> None:
    """On a small pool, every consistent way to fill the hands comes up equally often."""
    pool = [[0, 4, 8], [1, 5], [2], [3, 7]]  # by suit
    needs = [2, 2]
    voids = [frozenset({0}), frozenset({3})]
    cards = sorted(c for suit in pool for c in suit)
    consistent = set()
    for a in itertools.combinations(cards, 2):
        for b in itertools.combinations([c for c in cards if c not in a], 2):
            if all(c % 4 != 0 for c in a) and all(c % 4 != 3 for c in b):
                consistent.add((a, b))
    rng = random.Random(6)
    n = 12000
    seen: Counter[tuple[tuple[int, ...], tuple[int, ...]]] = Counter()
    for _ in range(n):
        a, b = bench.sample_hidden(pool, needs, voids, rng)
        seen[(tuple(sorted(a)), tuple(sorted(b)))] += 1
    assert set(seen) == consistent
    expected = n / len(consistent)
    sd = (expected * (1 - 1 / len(consistent))) ** 0.5
    assert all(abs(k - expected) < 5 * sd for k in seen.values()), (seen, expected)


def test_sample_hidden_refuses_impossible_information() -> None:
    with pytest.raises(ValueError):
        bench.sample_hidden([[0, 4], [1], [], []], [2, 2], [frozenset(), frozenset({0})],
                            random.Random(0))
