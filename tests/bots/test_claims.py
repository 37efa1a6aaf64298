"""The rule-based bot's estimate of a sure rest (``sure_of_the_rest``: it leads and holds
only trumps above every trump still out) is always right: wherever it says so in many
games, the engine's claim, checked with all cards open, holds.  (The bot does not claim
yet.)"""

from __future__ import annotations

import random

from stich.bots import make_bot
from stich.bots.heuristic import sure_of_the_rest
from stich.skat import SkatRules, SkatState
from stich.skat.actions import CLAIM


def test_a_sure_rest_by_the_bots_own_cards_is_a_right_claim() -> None:
    bots = [make_bot("easy") for _ in range(3)]
    rng = random.Random(4)
    sure = 0
    for seed in range(400):
        s = SkatState.new(SkatRules(), seed=seed)
        while not s.is_over:
            view = s.view(s.to_move)
            if CLAIM in view.claims and sure_of_the_rest(view):
                sure += 1
                assert s.apply(CLAIM).end_reason == "claimed", seed
            s = s.apply(bots[s.to_move].choose(view, rng))
    assert sure >= 10
