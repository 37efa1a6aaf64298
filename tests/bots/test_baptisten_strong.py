"""The Baptistenskat search bot ``strong``: legal actions everywhere, a sampler that keeps
to what the view shows, decisions that depend on the view only, its clock, the hook rule,
and forehead bids from the cards seen."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from stich.baptisten import BaptistenRules, BaptistenState, BaptistenView, BBid
from stich.baptisten.position import round_position
from stich.bots import make_baptisten_bot
from stich.bots.baptisten_strong import (
    DEFAULT_BUDGET,
    HARD_CAP,
    BaptistenStrongBot,
    Knowledge,
    RolloutPolicy,
    belief_gain,
    sample_hands,
    weighted_share,
)
from stich.core import ArgumentError
from tests.baptisten.game_helpers import new_game

RULES = {
    "default": BaptistenRules(players=4, max_cards=6),
    "forehead+overtrump": BaptistenRules(players=4, max_cards=5, forehead=True,
                                         must_overtrump=True),
    "tricks+hook": BaptistenRules(players=5, max_cards=4, trick_scoring=True,
                                  hook_always=True),
    "skat": BaptistenRules(deck="skat", players=3, max_cards=10, rounds="single"),
    "romme-double": BaptistenRules(deck="romme-double", players=6, max_cards=5),
    "joker": BaptistenRules(deck="romme-double-joker", players=15, max_cards=3,
                            forehead=True),
    "joker-overtrump": BaptistenRules(deck="romme-double-joker", players=4, max_cards=6,
                                      must_overtrump=True),
    "ohhell": BaptistenRules.preset("ohhell"),
}


def still() -> Callable[[], float]:
    """A clock that never moves: the bot then plays out exactly ``max_worlds`` worlds."""
    return lambda: 0.0


def fast_bot(worlds: int = 2) -> BaptistenStrongBot:
    return BaptistenStrongBot(max_worlds=worlds, min_worlds=1, timer=still())


def random_point(rules: BaptistenRules, seed: int, steps: int) -> BaptistenState:
    """A state ``steps`` random legal actions into the game (not over)."""
    rng = random.Random(seed)
    s = BaptistenState.new(rules, seed=seed)
    for _ in range(steps):
        nxt = s.apply(rng.choice(list(s.legal_actions())))
        if nxt.is_over:
            break
        s = nxt
    return s


@pytest.mark.parametrize("rules", sorted(RULES))
def test_only_legal_actions(rules: str) -> None:
    r = RULES[rules]
    bot = fast_bot()
    other = make_baptisten_bot("easy")
    for seed in range(3):
        s = BaptistenState.new(r, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            view = s.view(s.to_move)
            action = (bot if (s.to_move + seed) % 2 == 0 else other).choose(view, rng)
            assert action in view.legal_actions
            if isinstance(action, BBid):
                assert action.tricks != s.hooked_bid()
            s = s.apply(action)
        assert len(s.sheet) == len(r.schedule())


def _voids(view: BaptistenView, deck_suit: Callable[[int], int]) -> list[set[int]]:
    """Per seat, the suits it failed to follow (recomputed here from the tricks)."""
    n = len(view.bids)
    out: list[set[int]] = [set() for _ in range(n)]
    tricks = [(leader, cards) for leader, cards, _ in view.round_tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    for leader, cards in tricks:
        led = -1
        for i, c in enumerate(cards):
            if led < 0:
                led = deck_suit(c)
            elif deck_suit(c) != led:
                out[(leader + i) % n].add(led)
    return out


@settings(max_examples=60, deadline=None)
@given(rules=st.sampled_from(sorted(RULES)), seed=st.integers(0, 10_000),
       steps=st.integers(1, 120), world_seed=st.integers(0, 2**32))
# a forehead round after every other seat played its card: the seat still holds one
@example(rules="forehead+overtrump", seed=0, steps=7, world_seed=0)
def test_sampler_keeps_to_the_view(rules: str, seed: int, steps: int, world_seed: int) -> None:
    s = random_point(RULES[rules], seed, steps)
    seat = (seed + steps) % s.players
    view = s.view(seat)
    k = Knowledge(view)
    # the inference is sound: the real hands break none of the constraints
    for p, h in enumerate(s.hands):
        assert not h & k.forbidden[p]
    deck = s.deck
    voids = _voids(view, lambda c: deck.cards[c].suit)
    hands = sample_hands(k, random.Random(world_seed))
    seen = view.played | (0 if view.cards * s.players >= deck.size
                          else 1 << view.trump_card)
    for p, h in enumerate(hands):
        assert h.bit_count() == s.hands[p].bit_count()  # hand sizes
        assert not h & seen  # no card played or turned for trump
        for suit in voids[p]:
            assert not h & deck.suit_masks[suit]  # voids shown
        if p == seat and not s.is_forehead_round:
            assert h == view.hand
        if view.others[p]:
            assert h == view.others[p]  # a card seen on a forehead
        for q in range(p):
            assert not h & hands[q]
    # and the engine accepts the world as a position of this round
    pos = round_position(view, hands)
    assert pos.view(seat) == view


def test_sampler_respects_the_overtrump_inference() -> None:
    """Under must-overtrump, a seat that played a lower trump to a trump lead holds no
    trump at least as high as the best one before it."""
    r = RULES["joker-overtrump"]
    checked = 0
    for seed in range(30):
        s = BaptistenState.new(r, seed=seed)
        rng = random.Random(seed)
        while not s.is_over and checked < 20:
            if s.phase.name == "PLAY":
                view = s.view(s.to_move)
                k = Knowledge(view)
                for p, h in enumerate(s.hands):
                    assert not h & k.forbidden[p]
                if any(k.forbidden[p] & ~_suit_voids(s, k, p) for p in range(s.players)):
                    checked += 1
                    for w in range(5):
                        hands = sample_hands(k, random.Random(w))
                        assert all(not h & k.forbidden[p] for p, h in enumerate(hands))
            s = s.apply(rng.choice(list(s.legal_actions())))
    assert checked > 0


def _suit_voids(s: BaptistenState, k: Knowledge, p: int) -> int:
    """The whole suits among seat ``p``'s forbidden cards."""
    out = 0
    for m in s.deck.suit_masks:
        if k.forbidden[p] & m == m:
            out |= m
    return out


def test_inconsistent_knowledge_is_refused() -> None:
    s = random_point(RULES["default"], 3, 30)
    k = Knowledge(s.view(s.to_move))
    for p in range(s.players):
        if k.known[p] is None:
            k.forbidden[p] = s.deck.full_mask  # nobody may hold anything
    if k.rest < k.unseen.bit_count():
        with pytest.raises(ArgumentError) as e:
            sample_hands(k, random.Random(0))
        assert e.value.code == "bots.inconsistent_view"


@pytest.mark.parametrize("rules", ["default", "joker-overtrump", "ohhell", "skat"])
def test_same_view_same_decision(rules: str) -> None:
    """Two states that differ only in cards the seat cannot see: the same action with
    the same seed."""
    r = RULES[rules]
    compared = 0
    for seed in range(12):
        s = random_point(r, seed, 1 + (7 * seed) % 23)
        seat = s.to_move
        view = s.view(seat)
        if len(view.legal_actions) < 2 or (s.is_forehead_round and view.phase == "PLAY"):
            continue
        k = Knowledge(view)
        other = round_position(view, sample_hands(k, random.Random(seed + 99)))
        assert other.hands != s.hands or k.unseen.bit_count() == k.rest
        assert other.view(seat) == view
        a = fast_bot(3).choose(view, random.Random(seed))
        b = fast_bot(3).choose(other.view(seat), random.Random(seed))
        assert a == b
        compared += 1
    assert compared >= 6


class StepTimer:
    """A clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


def _decision_view() -> BaptistenView:
    s = random_point(RULES["default"], 11, 0)
    while s.cards < 5 or s.phase.name != "PLAY" or len(s.legal_actions()) < 2:
        s = s.apply(s.legal_actions()[0])
    return s.view(s.to_move)


def test_budget_sets_the_number_of_worlds() -> None:
    view = _decision_view()
    worlds = []
    for budget in (0.05, 0.2, 0.8):
        timer = StepTimer(0.01)
        bot = BaptistenStrongBot(budget, min_worlds=1, timer=timer)
        bot.choose(view, random.Random(1))
        worlds.append(bot.worlds)
        assert timer.now <= budget + 0.02  # stops once the next world would overrun
    assert worlds[0] >= 1 and worlds[0] < worlds[1] < worlds[2]


def test_hard_cap_beats_min_worlds() -> None:
    view = _decision_view()
    timer = StepTimer(0.5)  # each world seems to take half a second
    bot = BaptistenStrongBot(1.0, min_worlds=10, hard_cap=1.5, timer=timer)
    bot.choose(view, random.Random(1))
    assert bot.worlds == 1
    assert timer.now - timer.step < 1.5  # the first read is the start
    timer = StepTimer(0.001)
    bot = BaptistenStrongBot(0.01, min_worlds=10, timer=timer)
    bot.choose(view, random.Random(1))
    assert bot.worlds == 10  # min_worlds while far from the hard cap


def test_bad_budget_is_refused() -> None:
    for kwargs in ({"budget": 0.0}, {"budget": 2.0}, {"hard_cap": 1.6}):
        with pytest.raises(ArgumentError) as e:
            BaptistenStrongBot(**kwargs)  # type: ignore[arg-type]
        assert e.value.code == "bots.bad_budget"


def test_single_legal_action_is_returned_at_once() -> None:
    s = random_point(RULES["default"], 2, 0)
    while len(s.legal_actions()) != 1:
        s = s.apply(s.legal_actions()[-1])
    timer = StepTimer(1.0)
    bot = BaptistenStrongBot(timer=timer)
    assert bot.choose(s.view(s.to_move), random.Random(0)) == s.legal_actions()[0]
    assert timer.reads == 0 and bot.worlds == 0


@pytest.mark.parametrize("rules", ["default", "tricks+hook", "ohhell"])
def test_last_bidder_respects_the_hook(rules: str) -> None:
    r = RULES[rules]
    checked = 0
    for seed in range(40):
        s = BaptistenState.new(r, seed=seed)
        rng = random.Random(seed)
        while s.phase.name != "BIDDING" or s.hooked_bid() is None:
            s = s.apply(rng.choice(list(s.legal_actions())))
            if s.is_over:
                break
        if s.is_over:
            continue
        hooked = s.hooked_bid()
        action = fast_bot(4).choose(s.view(s.to_move), random.Random(seed))
        assert isinstance(action, BBid) and action.tricks != hooked
        assert action in s.legal_actions()
        checked += 1
        if checked == 8:
            break
    assert checked == 8


def test_hook_takes_the_best_allowed_bid() -> None:
    """With the bid the bot rates best taken away (as the hook rule takes one away), it
    says the best of the others by the same ratings (same seed, same worlds)."""
    checked = 0
    for seed in range(30):
        s = random_point(RULES["default"], seed, 3 * seed)
        view = s.view(s.to_move)
        if view.phase != "BIDDING" or view.cards < 3:
            continue
        bot = fast_bot(4)
        first = bot.choose(view, random.Random(seed))
        assert isinstance(first, BBid)
        ratings = dict(bot.ratings)
        if len(ratings) < 2:
            continue
        legal = tuple(a for a in view.legal_actions
                      if isinstance(a, BBid) and a.tricks != first.tricks)
        hooked = dataclasses.replace(view, legal_actions=legal, hooked=first.tricks)
        second = bot.choose(hooked, random.Random(seed))
        assert isinstance(second, BBid) and second in legal
        assert ratings[second.tricks] == max(v for t, v in ratings.items() if t != first.tricks)
        checked += 1
    assert checked >= 5


def test_forehead_bid_follows_the_cards_seen() -> None:
    """One card on each forehead, the bot bids and leads first: facing the two highest
    trumps it cannot win and bids 0; facing two sevens of side suits every card it may
    carry wins, and it bids 1."""
    r = BaptistenRules(deck="skat", players=3, max_cards=3, forehead=True)
    bot = fast_bot(2)
    for seen, want in ((["CA", "CK"], 0), (["H7", "D7"], 1)):
        game = new_game(r, {1: (["S8", *seen], "C8")})  # clubs are trump
        assert game.to_move == 0 and game.is_forehead_round
        a = bot.choose(game.view(0), random.Random(0))
        assert isinstance(a, BBid) and a.tricks == want


def test_rollout_policy_plays_legal_cards() -> None:
    for name in ("joker-overtrump", "romme-double", "ohhell"):
        r = RULES[name]
        for seed in range(10):
            s = random_point(r, seed, 4)
            while s.phase.name == "BIDDING":
                s = s.apply(s.legal_actions()[0])
            if s.is_forehead_round:
                continue
            policy = RolloutPolicy(s.deck, s.trump, r.trick_scoring)
            r0 = s.round_index
            while not s.is_over and s.round_index == r0:
                card = policy(s)
                assert card in s.legal_actions()
                s = s.apply(card)


def test_sampler_never_fails_where_voids_crowd() -> None:
    """Eight players, random play (many voids), 80 cards all dealt in round 10: every
    view of every position can be sampled."""
    r = BaptistenRules(players=8, max_cards=10, rounds="single")
    for seed in range(12):
        s = BaptistenState.new(r, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            if s.phase.name == "PLAY":
                for seat in range(s.players):
                    k = Knowledge(s.view(seat))
                    hands = sample_hands(k, rng)
                    assert all(not h & k.forbidden[p] for p, h in enumerate(hands))
            s = s.apply(rng.choice(list(s.legal_actions())))


def test_registered_as_strong() -> None:
    bot = make_baptisten_bot("strong")
    assert isinstance(bot, BaptistenStrongBot) and bot.name == "strong"
    assert bot.budget == DEFAULT_BUDGET and bot.hard_cap == HARD_CAP == 1.5


def _gains(games: int, seed: int) -> list[float]:
    """belief_gain at every card decision of a few games of the rule-based bot."""
    from stich.bots.baptisten import BaptistenHeuristicBot

    rules = BaptistenRules(players=4, max_cards=6)
    easy = BaptistenHeuristicBot()
    measure = random.Random(seed)
    gains = []
    for g in range(games):
        state = BaptistenState.new(rules, seed=seed + g, first=g % 4)
        rng = random.Random(g)
        while not state.is_over:
            view = state.view(state.to_move)
            if view.phase == "PLAY" and view.cards >= 3 and not view.forehead:
                gains.append(belief_gain(view, state.hands, measure, samples=40))
            state = state.apply(easy.choose(view, rng))
    return gains


def test_the_bids_said_put_belief_on_the_true_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Weighted by the fit of the bids, the true hands are likelier than under the plain
    sampler (the rule-based bot bids by its cards), and more so with the spread fitted on
    its bids than with the wide one used before."""
    import stich.bots.baptisten_strong as mod

    fitted = _gains(2, 11)
    assert len(fitted) > 50
    assert sum(fitted) / len(fitted) > 0.15
    monkeypatch.setattr(mod, "BID_SIGMA", (0.8, 0.12))
    monkeypatch.setattr(mod, "BID_FLOOR", 0.0)
    wide = _gains(2, 11)
    assert 0 < sum(wide) / len(wide) < sum(fitted) / len(fitted)


def test_weighted_worlds_give_the_bid_its_chance() -> None:
    assert weighted_share(2.0, 2.0, 2.0) == pytest.approx((1 * 2 + 0.5) / 3)
    # one heavy world among light ones: few effective worlds, a chance near 1/2
    assert abs(weighted_share(10.0, 10.3, 100.09) - 0.5) < abs(
        weighted_share(10.0, 10.3, 10.3 ** 2 / 30) - 0.5)
    bot = BaptistenStrongBot(0.01, min_worlds=4, max_worlds=4, timer=lambda: 0.0)
    state = BaptistenState.new(BaptistenRules(players=4, max_cards=6), seed=3, first=0)
    rng = random.Random(1)
    bids = 0
    while not state.is_over and bids < 8:
        view = state.view(state.to_move)
        action = bot.choose(view, rng)
        if view.phase == "BIDDING":
            bids += 1
            assert len(bot.estimates) == bids
            p = bot.estimates[-1]
            assert p is None or 0 < p < 1
        state = state.apply(action)
