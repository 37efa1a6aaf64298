"""The Baptistenskat bots: only legal actions under every variant, the heuristic bot
clearly beats the random one, bids what it holds, respects the hook rule, places its
40s where it is confident and plays to hit its bid."""

from __future__ import annotations

import dataclasses
import random

import pytest

from stich.baptisten import BaptistenRules, BaptistenState, BaptistenView, BBid
from stich.bots import (
    BAPTISTEN_BOTS,
    BaptistenBot,
    BaptistenHeuristicBot,
    BaptistenRandomBot,
    make_baptisten_bot,
)
from stich.bots import baptisten as baptisten_bots
from stich.bots.baptisten import estimate_tricks, trick_distribution, trick_winner
from stich.cards import plain_deck
from stich.core import ArgumentError

RULES = {
    "default": BaptistenRules(),
    "small": BaptistenRules(players=3, max_cards=5),
    "forehead+overtrump": BaptistenRules(players=4, max_cards=7, forehead=True,
                                         must_overtrump=True),
    "tricks+hook": BaptistenRules(players=5, max_cards=6, trick_scoring=True,
                                  hook_always=True),
    "skat": BaptistenRules(deck="skat", players=3, max_cards=10),
    "romme-double": BaptistenRules(deck="romme-double", players=6, max_cards=8),
    "joker": BaptistenRules(deck="romme-double-joker", players=15, max_cards=3,
                            forehead=True),
    "ohhell": BaptistenRules.preset("ohhell"),
}


def play(bots: list[BaptistenBot], seed: int, rules: BaptistenRules) -> BaptistenState:
    """One whole game; every action is checked against the view's and the state's
    legal actions."""
    state = BaptistenState.new(rules, seed=seed)
    rng = random.Random(seed * 7 + 1)
    while not state.is_over:
        seat = state.to_move
        view = state.view(seat)
        assert isinstance(view, BaptistenView)
        action = bots[seat].choose(view, rng)
        assert action in view.legal_actions, (seed, str(action))
        if isinstance(action, BBid):
            assert action in state.legal_actions()
            assert action.tricks != state.hooked_bid()
        state = state.apply(action)
    return state


# ``strong`` searches for its time budget at every decision: whole games of it are too
# slow here; tests/bots/test_baptisten_strong.py checks it with a fixed number of worlds.
@pytest.mark.parametrize("name", sorted(n for n in BAPTISTEN_BOTS if n != "strong"))
@pytest.mark.parametrize("rules", sorted(RULES))
def test_bots_play_only_legal_actions(rules: str, name: str) -> None:
    r = RULES[rules]
    bot = make_baptisten_bot(name)
    for seed in range(4):
        state = play([bot] * r.players, seed, r)
        assert len(state.sheet) == len(r.schedule())


def test_mixed_tables_play_only_legal_actions() -> None:
    h, rnd = BaptistenHeuristicBot(), BaptistenRandomBot()
    for seed in range(6):
        play([h, rnd, h, rnd] if seed % 2 else [rnd, h, rnd, h], seed, BaptistenRules())


def test_registry() -> None:
    assert isinstance(make_baptisten_bot("random"), BaptistenRandomBot)
    assert isinstance(make_baptisten_bot("heuristic"), BaptistenHeuristicBot)
    assert isinstance(make_baptisten_bot("heuristic"), BaptistenBot)
    with pytest.raises(ArgumentError, match="unknown bot") as e:
        make_baptisten_bot("clever")
    assert e.value.code == "bots.unknown"


def test_deterministic_for_a_seed_whatever_was_played_before() -> None:
    bot = BaptistenHeuristicBot()
    baptisten_bots._LIFTS.clear()  # the fitted lifts are a cache, never a history
    a = play([bot] * 4, 3, BaptistenRules())
    baptisten_bots._LIFTS.clear()
    for seed in (8, 9):
        play([bot] * 4, seed, BaptistenRules())
    b = play([bot] * 4, 3, BaptistenRules())
    assert [str(x) for x in a.history] == [str(x) for x in b.history]


@pytest.mark.parametrize(("rules", "margin"), [("default", 100), ("tricks+hook", 50)])
def test_heuristic_beats_random_clearly(rules: str, margin: int) -> None:
    """30 seeded games, the heuristic bot in each seat in turn against random bots: it
    finishes first in most games and far above the random bots' average."""
    r = RULES[rules]
    h, rnd = BaptistenHeuristicBot(), BaptistenRandomBot()
    firsts = 0
    h_total = r_total = 0
    games = 30
    for seed in range(games):
        seat = seed % r.players
        bots: list[BaptistenBot] = [rnd] * r.players
        bots[seat] = h
        state = play(bots, 1000 + seed, r)
        o = state.outcome()
        firsts += any(p == seat and place == 1 for p, _, place in o.ranking)
        h_total += state.totals[seat]
        r_total += sum(state.totals) - state.totals[seat]
    h_mean = h_total / games
    r_mean = r_total / games / (r.players - 1)
    assert firsts >= 0.8 * games, firsts
    assert h_mean > r_mean + margin, (h_mean, r_mean)


def test_heuristic_is_mostly_exact_and_places_its_40s_well() -> None:
    """All-heuristic tables: about half of all bids exact (random bidding is far lower),
    the 40s it chooses itself are exact more often than its average bid, and most 40s
    are chosen, not forced."""
    bot = BaptistenHeuristicBot()
    exact = bids = chosen = chosen_exact = forced = 0
    for seed in range(12):
        state = play([bot] * 4, seed, BaptistenRules())
        for rr in state.sheet:
            for p in range(4):
                bids += 1
                ok = rr.bids[p] == rr.tricks[p]
                exact += ok
                if rr.stakes[p] == 40:
                    if rr.forced[p]:
                        forced += 1
                    else:
                        chosen += 1
                        chosen_exact += ok
    assert exact / bids > 0.5
    assert chosen_exact / chosen > exact / bids
    assert chosen > 2 * forced


# --- rules of thumb ------------------------------------------------------------------------


def bidding_view(rules: BaptistenRules, seed: int, round_no: int) -> BaptistenView:
    """The view of the first bidder of a round (earlier rounds played by the bot)."""
    bot = BaptistenHeuristicBot()
    state = BaptistenState.new(rules, seed=seed)
    rng = random.Random(0)
    while state.round_no < round_no:
        state = state.apply(bot.choose(state.view(state.to_move), rng))
    view = state.view(state.to_move)
    assert isinstance(view, BaptistenView)
    return view


def test_bids_its_sure_tricks_and_stakes_high() -> None:
    rules = BaptistenRules(players=4, max_cards=10)
    view = bidding_view(rules, 2, 4)  # four cards
    deck = plain_deck(rules.deck)
    assert view.trump >= 0
    top = [c for c in reversed(deck.cards) if c.suit == view.trump
           and c.index != view.trump_card][:4]
    strong = dataclasses.replace(view, hand=sum(c.bit for c in top))
    action = BaptistenHeuristicBot().choose(strong, random.Random(0))
    assert isinstance(action, BBid)
    assert action.tricks == 4
    assert action.stake is not None and action.stake >= 20  # 20, or a chosen 40
    low = [c for c in deck.cards if c.suit != view.trump and c.rank <= 1
           and c.index != view.trump_card][:4]
    weak = dataclasses.replace(view, hand=sum(c.bit for c in low))
    action = BaptistenHeuristicBot().choose(weak, random.Random(0))
    assert isinstance(action, BBid) and action.tricks == 0


def test_hook_rule_makes_it_choose_the_next_best_bid() -> None:
    """The last bidder whose best bid is refused bids a neighbour of it."""
    rules = BaptistenRules(players=3, max_cards=5)
    bot = BaptistenHeuristicBot()
    seen = 0
    for seed in range(30):
        state = BaptistenState.new(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            view = state.view(state.to_move)
            action = bot.choose(view, rng)
            if view.hooked is not None and isinstance(action, BBid):
                dist = trick_distribution(estimate_tricks(view, random.Random(0)))
                best = max(range(len(dist)), key=lambda t: dist[t])
                if best == view.hooked:
                    seen += 1
                    assert abs(action.tricks - best) == 1
            state = state.apply(action)
    assert seen > 0


def test_forced_40_is_taken() -> None:
    rules = BaptistenRules(players=3, max_cards=4)
    bot = BaptistenHeuristicBot()
    for seed in range(10):
        state = BaptistenState.new(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_move
            action = bot.choose(state.view(seat), rng)
            if state.phase.name == "BIDDING" and state.must_stake_40(seat):
                assert isinstance(action, BBid) and action.stake == 40
            state = state.apply(action)
        assert all(owed == 0 for owed in state.owed)


def test_forehead_chance_is_exact() -> None:
    """In a forehead round the bot knows the others' cards: against the top trump its
    own card cannot win."""
    rules = BaptistenRules(players=3, max_cards=3, forehead=True)
    for seed in range(20):
        state = BaptistenState.new(rules, seed=seed)
        view = state.view(state.to_move)
        assert view.hand == 0
        p = estimate_tricks(view, random.Random(0))[0]
        assert 0.0 <= p <= 1.0
        deck = state.deck
        best_other = max((h.bit_length() - 1 for h in view.others if h),
                         key=lambda c: (deck.cards[c].suit == state.trump, deck.cards[c].rank))
        c = deck.cards[best_other]
        if c.suit == state.trump and c.rank == len(deck.rank_codes) - 1:
            assert p == 0.0


def test_trick_winner_matches_the_rules() -> None:
    d = plain_deck("elferraus")
    trick = [d.parse(x).index for x in ("R5", "R9", "Y1", "R20")]
    assert trick_winner(d, trick, trump=1) == 2  # the yellow trump
    assert trick_winner(d, trick, trump=3) == 3  # no trump played: red 20
    j = plain_deck("romme-double-joker")
    cards = [j.parse("HA").index, j.parse("JK").index, j.cards[j.parse("HA").index + 52].index]
    assert trick_winner(j, cards, trump=0) == 1  # the joker beats all
    assert trick_winner(j, [cards[0], cards[2]], trump=0) == 1  # the later of two twins


def test_plays_to_hit_its_bid() -> None:
    """Once it has its tricks it ducks: bidding 0 it takes no trick it could avoid
    (checked: when it had a card that loses the trick, it played one)."""
    rules = BaptistenRules(players=4, max_cards=8)
    bot = BaptistenHeuristicBot()
    deck = plain_deck(rules.deck)
    checked = 0
    for seed in range(8):
        state = BaptistenState.new(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_move
            view = state.view(seat)
            action = bot.choose(view, rng)
            if (state.phase.name == "PLAY" and state.trick and state.bids[seat] >= 0
                    and state.tricks_won[seat] == state.bids[seat]
                    and not isinstance(action, BBid)):
                cards = list(state.trick)
                best = cards[trick_winner(deck, cards, state.trump)]
                losers = [c for c in view.legal_actions if not isinstance(c, BBid)
                          and trick_winner(deck, [best, c.index], state.trump) == 0]
                if losers:
                    checked += 1
                    assert trick_winner(deck, [best, action.index], state.trump) == 0
            state = state.apply(action)
    assert checked > 50


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_a_bot_asked_for_a_seat_not_to_move_is_refused_by_code(name: str) -> None:
    s = BaptistenState.new(BaptistenRules(players=3, max_cards=3), seed=1)  # seat 0 bids
    with pytest.raises(ArgumentError) as e:
        make_baptisten_bot(name).choose(s.view(1), random.Random(1))
    assert e.value.code == "bots.nothing_to_do"
    assert str(e.value) == "seat 2 has nothing to do (phase BIDDING)"
