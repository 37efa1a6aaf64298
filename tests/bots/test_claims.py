"""The rule-based bot claims the rest from its own cards, and the engine checks its claims
like anybody's: over many games every claim it makes is right."""

from __future__ import annotations

import random

from stich.bots import make_bot
from stich.skat import SkatRules, SkatState
from stich.skat.actions import CLAIM


def test_easy_claims_only_what_it_is_sure_of() -> None:
    bots = [make_bot("easy") for _ in range(3)]
    rng = random.Random(4)
    claimed = 0
    for seed in range(400):
        s = SkatState.new(SkatRules(), seed=seed)
        while not s.is_over:
            action = bots[s.to_move].choose(s.view(s.to_move), rng)
            claimed += action is CLAIM
            s = s.apply(action)
        assert s.end_reason != "claim_wrong"
    assert claimed >= 10  # it does claim
