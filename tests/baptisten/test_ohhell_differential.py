"""Differential test: the ``ohhell`` preset against OpenSpiel's ``oh_hell``.

OpenSpiel (PyPI ``open-spiel``, ``import pyspiel``) deals a round from its chance nodes;
the same deal is given to our engine (``BaptistenState.new(..., deals=[...], first=...)``)
and both are played with the same random actions.  At every decision the player to move
and the set of legal actions must agree, and at the end OpenSpiel's ``returns()`` must
equal our totals.  The mapping is in :mod:`tests.baptisten.openspiel_map`.

CI installs ``open-spiel`` (the ``test`` extra), so a missing ``pyspiel`` is a failure,
not a skip.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from stich.baptisten import BaptistenRules, BaptistenState, Deal

from .openspiel_map import BID_BASE, hands_from_text, os_action, read_deal

try:
    import pyspiel  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - CI installs open-spiel
    pyspiel = None

PLAYERS = range(3, 8)
OHHELL = BaptistenRules.preset("ohhell")


def spiel() -> Any:
    """``pyspiel``, or a test failure (not a skip) when it cannot be imported."""
    if pyspiel is None:
        pytest.fail("OpenSpiel is not importable (import pyspiel failed): the oh_hell "
                    "differential test needs it; install it with pip install 'open-spiel>=2.0' "
                    "(it is in the test extra)")
    return pyspiel


def max_tricks(players: int) -> int:
    """The most tricks OpenSpiel deals: one card must be left to turn for trump."""
    return (52 - 1) // players


def play_both(game: Any, players: int, rng: random.Random, fixed: int | None) -> tuple[int, int]:
    """Deal one OpenSpiel round at random, replay it in our engine with the same random
    choices, and compare every decision and the returns.  Returns (tricks, decisions)."""
    os_state = game.new_initial_state()
    chance: list[int] = []
    while os_state.is_chance_node():
        outcomes = [a for a, _ in os_state.chance_outcomes()]
        if not chance:  # the number of tricks: 1 … (52 - 1) // players, or the fixed one
            want = [fixed] if fixed is not None else list(range(1, max_tricks(players) + 1))
            assert outcomes == want
        a = rng.choice(outcomes)
        chance.append(a)
        os_state.apply_action(a)
    shift = rng.randrange(players)
    deal = read_deal(players, chance, shift=shift)
    rules = dataclasses.replace(OHHELL, players=players, max_cards=deal.tricks)
    ours = BaptistenState.new(rules, deals=[Deal(deal.hands, deal.trump_card)],
                              first=deal.first)
    # the deal itself: the trump suit and every hand as OpenSpiel shows them
    assert ours.trump_card.index == deal.trump_card
    shown = hands_from_text(str(os_state))
    assert ours.hands == tuple(shown[deal.player(seat)] for seat in range(players))
    assert ours.first == deal.seat(os_state.current_player())
    decisions = 0
    while not os_state.is_terminal():
        assert not os_state.is_chance_node()
        assert not ours.is_over
        player = os_state.current_player()
        assert ours.to_move == deal.seat(player), (chance, ours.history)
        os_legal = sorted(os_state.legal_actions())
        by_id = {os_action(a): a for a in ours.legal_actions()}
        assert sorted(by_id) == os_legal, (
            f"legal actions differ: ours {sorted(by_id)}, OpenSpiel {os_legal}; "
            f"players {players}, chance {chance}, seat shift {shift}, history {ours.history}"
        )
        a = rng.choice(os_legal)
        if a >= BID_BASE:
            assert ours.phase.name == "BIDDING"
        os_state.apply_action(a)
        ours = ours.apply(by_id[a])
        decisions += 1
    assert ours.is_over
    returns = os_state.returns()
    expected = tuple(int(returns[deal.player(seat)]) for seat in range(players))
    assert all(float(e) == returns[deal.player(s)] for s, e in enumerate(expected))
    assert ours.totals == expected, (
        f"returns differ: ours {ours.totals}, OpenSpiel {expected} (by our seat); "
        f"chance {chance}, shift {shift}, history {ours.history}"
    )
    assert ours.outcome().totals == expected
    return deal.tricks, decisions


@pytest.mark.parametrize("players", PLAYERS)
def test_every_number_of_tricks(players: int) -> None:
    """Every allowed number of tricks for 3–7 players (``num_tricks_fixed``), a few
    random deals and random play each."""
    rng = random.Random(1000 + players)
    for tricks in range(1, max_tricks(players) + 1):
        game = spiel().load_game("oh_hell", {"players": players, "num_tricks_fixed": tricks})
        for _ in range(8):
            k, _decisions = play_both(game, players, rng, tricks)
            assert k == tricks


@pytest.mark.parametrize("players", PLAYERS)
def test_default_game_with_chance_tricks(players: int) -> None:
    """OpenSpiel's default ``oh_hell`` (the number of tricks drawn by chance)."""
    rng = random.Random(2000 + players)
    game = spiel().load_game("oh_hell", {"players": players})
    seen = set()
    for _ in range(60):
        k, _decisions = play_both(game, players, rng, None)
        seen.add(k)
    assert len(seen) > 1


def test_preset_limits_match_openspiel() -> None:
    """Our ``max_cards`` range equals OpenSpiel's number-of-tricks chance outcomes."""
    for players in PLAYERS:
        state = spiel().load_game("oh_hell", {"players": players}).new_initial_state()
        outcomes = [a for a, _ in state.chance_outcomes()]
        top = max(outcomes)
        assert outcomes == list(range(1, top + 1))
        dataclasses.replace(OHHELL, players=players, max_cards=top)
        with pytest.raises(ValueError):
            dataclasses.replace(OHHELL, players=players, max_cards=top + 1)


def test_card_and_bid_ids() -> None:
    """OpenSpiel's card names for its ids equal our card codes under the mapping."""
    from stich.cards import plain_deck

    from .openspiel_map import os_to_romme

    state = spiel().load_game("oh_hell").new_initial_state()
    state.apply_action(1)  # one trick
    state.apply_action(0)  # dealer
    deck = plain_deck("romme")
    for a in range(52):
        assert state.action_to_string(spiel().PlayerId.CHANCE, a) == deck.cards[os_to_romme(a)].code
