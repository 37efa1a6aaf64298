"""The bots claim the rest, and never wrongly (issue 42).

``easy`` claims when it leads as declarer and holds only trumps above every trump still
out (``sure_of_the_rest``); ``strong`` claims then too, and when every world that agrees
with its view is one where it takes every remaining trick (in Null: none); neither
claims the last trick alone (it is played).  The engine
checks each claim with all cards open, on the real deal: over 500 games per bot, under
both presets and a set of house rules, every claim a bot makes is right, and the bots do
claim (also where ``strong`` is sure only by listing the worlds).  Neither bot gives up.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from stich.bots import Bot, make_bot
from stich.bots.heuristic import sure_of_the_rest
from stich.bots.strong import SkatStrongBot, all_worlds, count_worlds
from stich.bots.strong.claim import sure_claim
from stich.cards import parse_cards
from stich.skat import SkatRules, SkatState
from stich.skat.actions import CLAIM, GIVEUP
from stich.skat.view import SkatView

RULES = [
    SkatRules.preset("lothar"),
    SkatRules.preset("isko"),
    SkatRules(kontra_re="yes", spitze="yes", jungfrau=True, schieberamsch=True,
              klopfen=True),
]
GAMES = 500


def _frozen() -> float:
    return 0.0


def _games(declarer: Bot, n: int = GAMES) -> Iterator[tuple[SkatState, list[SkatView]]]:
    """``n`` games, the rule sets in turn, the declarer's card play by ``declarer`` (who
    alone may claim) and all else by ``easy`` (``strong``'s auction and defence are the
    slow part and make no claim); each finished game with the views at which the
    declarer claimed."""
    easy = make_bot("easy")
    rng = random.Random(42)
    for seed in range(n):
        s = SkatState.new(RULES[seed % len(RULES)], seed=seed)
        claimed: list[SkatView] = []
        while not s.is_over:
            view = s.view(s.to_move)
            bot = declarer if s.phase_name == "PLAY" and view.seat == view.declarer else easy
            action = bot.choose(view, rng)
            assert action is not GIVEUP, seed
            if action is CLAIM:
                claimed.append(view)
            s = s.apply(action)
        yield s, claimed


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_every_claim_of_a_bot_is_right(level: str) -> None:
    bot: Bot = (SkatStrongBot(min_worlds=1, max_worlds=1, timer=_frozen)
                if level == "strong" else make_bot("easy"))
    ends: Counter[str] = Counter()
    claims = by_worlds = 0
    for state, claimed in _games(bot):
        ends[state.end_reason] += 1
        assert len(claimed) <= 1
        assert all(v.hand.bit_count() > 1 for v in claimed)  # the last trick is played
        if claimed:
            claims += 1
            assert state.end_reason == "claimed", state.history
            view = claimed[0]
            assert view.seat == view.declarer
            by_worlds += not sure_of_the_rest(view)
    assert ends["claim_wrong"] == 0 and ends["gave_up"] == 0
    assert ends["claimed"] == claims
    if level == "easy":
        assert claims >= 20 and by_worlds == 0  # by its own cards only
    else:
        assert claims >= 100 and by_worlds >= 50  # many only by listing every world


def test_the_worlds_listed_are_every_world_of_the_view_once() -> None:
    """``all_worlds`` lists as many worlds as ``count_worlds`` counts, all different, each
    agreeing with the view (its own hand, the hand sizes, the cards played, the voids),
    the real deal among them."""
    easy = make_bot("easy")
    rng = random.Random(3)
    checked = 0
    for seed in range(60):
        s = SkatState.new(SkatRules(), seed=seed)
        while not s.is_over:
            view = s.view(s.to_move)
            n = count_worlds(view) if s.phase_name == "PLAY" and view.game else 10**9
            if n <= 300:
                worlds = list(all_worlds(view))
                assert len(worlds) == n == len(set(worlds))
                voids = view.voids()
                for hands, skat in worlds:
                    assert hands[view.seat] == view.hand
                    assert [h.bit_count() for h in hands] == [x.bit_count() for x in s.hands]
                    assert all(not hands[i] & voids[i] for i in range(3))
                    assert not (hands[0] | hands[1] | hands[2] | skat) & view.played
                assert (s.hands, s.skat) in worlds
                checked += 1
            s = s.apply(easy.choose(view, rng))
    assert checked >= 100


def test_strong_claims_where_every_world_is_his_but_not_where_one_is_not() -> None:
    """An Eichel game after picking up.  With CT and C9 beside three Unter, and CA and CJ
    still out, the declarer may lose a trick (56 worlds, some against him): no claim.
    Four tricks later he holds DJ HJ SJ and SK, no trump is out and SK is the highest
    Pik out; a defender led D7: he is not on lead (so not sure by ``sure_of_the_rest``),
    but every one of the 10 worlds is his, and he claims."""
    hands = [parse_cards("D7 DQ DK DA H8 S9 SQ ST CK CJ"),
             parse_cards("D8 DJ HK HJ S7 SJ C7 C8 C9 CT"),
             parse_cards("D9 DT H7 HQ HT HA S8 SA CQ CA")]
    history = ["18", "pass", "pass", "pickup", "discard D8 HK", "declare eichel",
               "DA", "C7", "D9", "C8", "CQ", "CK", "H8", "H9", "HA", "SA", "ST", "S7",
               "HT", "DK"]
    s = SkatState.new(SkatRules(), hands=hands, skat=parse_cards("H9 SK"))
    for a in history:
        s = s.apply(s.parse_action(a))
    bot = SkatStrongBot(min_worlds=1, max_worlds=1, timer=_frozen)
    view = s.view(1)
    assert CLAIM in view.claims and count_worlds(view) == 56
    assert not sure_claim(view) and bot.choose(view, random.Random(0)) is not CLAIM
    assert s.apply(CLAIM).end_reason == "claim_wrong"  # here the claim would be wrong
    for a in ["C9", "CT", "CA", "CJ", "D7"]:
        s = s.apply(s.parse_action(a))
    view = s.view(1)
    assert view.hand == parse_cards("DJ HJ SJ SK")
    assert not sure_of_the_rest(view) and count_worlds(view) == 10
    assert sure_claim(view) and bot.choose(view, random.Random(0)) is CLAIM
    assert s.apply(CLAIM).end_reason == "claimed"
