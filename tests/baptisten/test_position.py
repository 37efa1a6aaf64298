"""round_position: the round in play rebuilt from a view and the hidden cards."""

from __future__ import annotations

import random

import pytest

from stich.baptisten import BaptistenRules, BaptistenState
from stich.baptisten.position import round_position
from stich.core import ArgumentError

RULES = [
    BaptistenRules(players=4, max_cards=6),
    BaptistenRules(players=5, max_cards=6, must_overtrump=True, trick_scoring=True),
    BaptistenRules(deck="romme-double-joker", players=4, max_cards=8, forehead=True),
    BaptistenRules.preset("ohhell"),
]


def _random_point(rules: BaptistenRules, seed: int) -> BaptistenState:
    """A state some random legal actions into the game (mid-round, any phase)."""
    rng = random.Random(seed)
    s = BaptistenState.new(rules, seed=seed)
    for _ in range(rng.randrange(1, 80)):
        nxt = s.apply(rng.choice(list(s.legal_actions())))
        if nxt.is_over:
            break
        s = nxt
    return s


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_real_hands_continue_exactly_like_the_game(rules: BaptistenRules) -> None:
    for seed in range(25):
        s = _random_point(rules, seed)
        seat = (s.to_move + seed) % s.players
        view = s.view(seat)
        p = round_position(view, s.hands)
        assert p.view(seat) == view
        rng = random.Random(seed)
        r = s.round_index
        while s.round_index == r and not s.is_over:
            action = rng.choice(list(s.legal_actions()))
            assert list(p.legal_actions()) == list(s.legal_actions())
            s, p = s.apply(action), p.apply(action)
        assert p.is_over  # the position's game ends with its round
        assert p.sheet[-1] == s.sheet[r]


def test_assumed_bids_start_the_play() -> None:
    s = BaptistenState.new(BaptistenRules(players=3, max_cards=5), seed=3)
    while s.round_no < 3:  # to round 3 (3 cards), bidding
        s = s.apply(s.legal_actions()[0])
    assert s.first == 2
    s = s.apply(s.legal_actions()[0])  # seat 2 bids first: 0 tricks, stake 1
    view = s.view(s.to_move)
    p = round_position(view, s.hands, bids=(2, 1, 0))
    assert p.phase.name == "PLAY" and p.to_move == 2
    assert p.bids == (2, 1, 0) and p.stakes == (1, 1, 1)
    with pytest.raises(ArgumentError) as e:  # a said bid may not change
        round_position(view, s.hands, bids=(2, 1, 1))
    assert e.value.code == "baptisten.position_mismatch"


def test_hands_that_contradict_the_view_are_refused() -> None:
    s = BaptistenState.new(BaptistenRules(players=4, max_cards=6), seed=5)
    while s.cards < 4:
        s = s.apply(s.legal_actions()[0])
    view = s.view(0)
    other = s.hands[1]
    swapped = (s.hands[0] ^ (s.hands[0] & -s.hands[0]) | (other & -other),
               other ^ (other & -other) | (s.hands[0] & -s.hands[0]), *s.hands[2:])
    bad = [
        swapped,  # the own hand changed
        (s.hands[0], s.hands[1] | 1 << view.trump_card, *s.hands[2:]),  # a card too many
        (s.hands[0], s.hands[1] ^ (other & -other) | 1 << view.trump_card,
         *s.hands[2:]),  # the turned trump card in a hand
        (s.hands[0], s.hands[2], s.hands[2], s.hands[3]),  # a card twice
    ]
    for hands in bad:
        with pytest.raises(ArgumentError) as e:
            round_position(view, hands)
        assert e.value.code == "baptisten.position_mismatch"
