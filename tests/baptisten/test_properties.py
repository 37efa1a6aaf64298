"""Property tests over random whole games: several decks, 3–6 players, small N, every
combination of the variants 2–5.

Each example deals from a random seed and plays random legal actions to the end; at every
step the cards, the legal actions, random illegal actions and every seat's view are
checked, at the end of each round its sheet row, at the end of the game the 40s."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stich.baptisten import (
    FOREHEAD_PLAY,
    BaptistenRules,
    BaptistenState,
    BBid,
    bid_action,
    ranking,
)
from stich.cards import PlainCard, bits
from stich.core import IllegalActionError

DECKS = ("elferraus", "skat", "romme", "elferraus-double", "skat-double", "romme-double",
         "romme-double-joker")
SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

games = st.tuples(
    st.sampled_from(DECKS),
    st.integers(3, 6),  # players (at most deck size / 7)
    st.integers(3, 5),  # N
    st.sets(st.sampled_from((2, 3, 4, 5))),  # variants
    st.integers(0, 2**32 - 1),  # deal seed
    st.integers(0, 2**32 - 1),  # choice seed
    st.integers(0, 5),  # first seat (modulo players)
)


def make_rules(deck: str, players: int, n: int, variants: set[int]) -> BaptistenRules:
    size = {"skat": 32, "skat-double": 64}.get(deck, 52)
    players = min(players, size // 7)
    return BaptistenRules(deck=deck, players=players, max_cards=n, forehead=2 in variants,
                          trick_scoring=3 in variants, hook_always=4 in variants,
                          must_overtrump=5 in variants)


def _played(state: BaptistenState) -> int:
    m = 0
    for _, cards, _ in state.round_tricks:
        for c in cards:
            m |= 1 << c
    for c in state.trick:
        m |= 1 << c
    return m


def check_cards(state: BaptistenState) -> None:
    """The round's cards are conserved: in the hands or played, each exactly once."""
    deal = state.deals[state.round_index]
    dealt = 0
    for h in deal.hands:
        dealt |= h
    now = _played(state)
    total = now.bit_count()
    for h in state.hands:
        now |= h
        total += h.bit_count()
    assert now == dealt and total == dealt.bit_count() == state.cards * state.players
    done = len(state.round_tricks)
    in_trick = {(state.leader + i) % state.players for i in range(len(state.trick))}
    for seat, h in enumerate(state.hands):
        assert h.bit_count() == state.cards - done - (seat in in_trick)
    if state.cards * state.players < state.deck.size:
        assert not dealt >> deal.trump_card & 1  # the turned card is from the rest


def check_views(state: BaptistenState) -> None:
    """No view shows a card it may not: its own hand, the played cards, and only in a
    forehead round the other hands; in a forehead round never the own card."""
    played = _played(state)
    forehead = state.is_forehead_round
    for seat in range(state.players):
        v = state.view(seat)
        own = state.hands[seat]
        others = 0
        for p, h in enumerate(state.hands):
            if p != seat:
                others |= h
        known = v.known_cards()
        if forehead:
            assert v.hand == 0 and v.others[seat] == 0
            assert all(v.others[p] == state.hands[p] for p in range(state.players)
                       if p != seat)
            assert known & ~(played | others) == 0
            assert known & own == 0
            assert v.trump_card not in bits(own)
        else:
            assert v.hand == own and not any(v.others)
            assert known & ~(played | own) == 0
        if state.to_move != seat:
            assert v.legal_actions == ()
            continue
        if state.phase.name == "PLAY":
            if forehead:
                assert v.legal_actions == (FOREHEAD_PLAY,)
            else:
                assert all(isinstance(a, PlainCard) and a.bit & own for a in v.legal_actions)
                assert v.legal_actions == tuple(state.legal_actions())
        else:
            assert all(isinstance(a, BBid) for a in v.legal_actions)


def check_actions(state: BaptistenState, rng: random.Random) -> None:
    """Every legal action (a sample of the bids) is accepted, random others refused."""
    legal = list(state.legal_actions())
    assert legal and len(set(legal)) == len(legal)
    rules = state.rules
    k = state.cards
    if state.phase.name == "BIDDING":
        by_tricks: dict[int, list[BBid]] = {}
        for a in legal:
            assert isinstance(a, BBid)
            by_tricks.setdefault(a.tricks, []).append(a)
        for options in by_tricks.values():
            state.apply(rng.choice(options))
        legal_set = set(legal)
        for _ in range(6):
            stake = rng.choice([None, 0, 1, 7, 20, 21, 39, 40, 41])
            b = bid_action(rng.randint(0, k + 2), stake)
            if b in legal_set:
                state.apply(b)
            else:
                try:
                    state.apply(b)
                except IllegalActionError as e:
                    assert str(e)
                else:
                    raise AssertionError(f"{b} accepted, not in the legal actions")
        card = rng.choice(state.deck.cards)
        try:
            state.apply(card)
        except IllegalActionError:
            pass
        else:
            raise AssertionError("a card was accepted while bidding")
        hooked = state.hooked_bid()
        if hooked is not None:
            assert rules.hook_applies(k)
            assert hooked not in by_tricks
        return
    for a in legal:
        state.apply(a)
    kinds = {a.kind for a in legal if isinstance(a, PlainCard)}
    for _ in range(4):
        card = rng.choice(state.deck.cards)
        if card.kind in kinds:
            state.apply(card)  # either copy of a legal card may be named
        else:
            try:
                state.apply(card)
            except IllegalActionError as e:
                assert str(e)
            else:
                raise AssertionError(f"{card} accepted, not in the legal actions")
    try:
        state.apply(bid_action(0, 1))
    except IllegalActionError:
        pass
    else:
        raise AssertionError("a bid was accepted while playing")
    if state.is_forehead_round:
        assert legal == [state.deck.cards[state.hands[state.to_move].bit_length() - 1]]
        assert state.apply(FOREHEAD_PLAY).history[-1] == legal[0]
    else:
        try:
            state.apply(FOREHEAD_PLAY)
        except IllegalActionError:
            pass
        else:
            raise AssertionError("'play' was accepted outside a forehead round")


def check_row(state: BaptistenState, prev_totals: tuple[int, ...]) -> None:
    rules = state.rules
    row = state.sheet[-1]
    k = row.cards
    assert row.cards == rules.schedule()[row.round - 1]
    assert sum(row.tricks) == k  # one trick per card dealt
    assert all(0 <= b <= k for b in row.bids)
    if rules.hook_applies(k):
        assert sum(row.bids) != k  # the hook rule
    for p in range(rules.players):
        stake = row.stakes[p]
        exact = row.bids[p] == row.tricks[p]
        if rules.trick_scoring:
            assert stake is None and not row.forced[p]
            bonus = (rules.exact_zero_bonus if row.bids[p] == 0 else rules.exact_bonus)
            assert row.scores[p] == rules.points_per_trick * row.tricks[p] + bonus * exact
        else:
            assert stake is not None
            assert 1 <= stake <= 20 or (stake == 40 and k >= 3)
            assert not row.forced[p] or stake == 40
            assert row.scores[p] == (stake if exact else -stake)
        assert row.totals[p] == prev_totals[p] + row.scores[p]


def run_game(rules: BaptistenRules, deal_seed: int, choice_seed: int, first: int) -> None:
    rng = random.Random(choice_seed)
    state = BaptistenState.new(rules, seed=deal_seed, first=first)
    start = state
    totals = state.totals
    rows = 0
    while not state.is_over:
        check_cards(state)
        check_views(state)
        check_actions(state, rng)
        state = state.apply(rng.choice(list(state.legal_actions())))
        if len(state.sheet) > rows:
            rows += 1
            check_row(state, totals)
            totals = state.sheet[-1].totals
    assert rows == len(rules.schedule())
    # exactly the required number of 40s per player, all in rounds with 3+ cards
    need = rules.forties_required
    for p in range(rules.players):
        assert sum(1 for row in state.sheet if row.stakes[p] == 40) == need
    assert state.owed == (0,) * rules.players
    assert list(state.outcome().ranking) == ranking(state.totals)
    for seat in range(rules.players):
        v = state.view(seat)
        assert v.hand == 0 and not any(v.others) and v.legal_actions == ()
    # the same seed and actions replay the same game
    replay = start
    for a in state.history:
        replay = replay.apply(a)
    assert replay.sheet == state.sheet


@SETTINGS
@given(games)
def test_random_games(game: tuple[str, int, int, set[int], int, int, int]) -> None:
    deck, players, n, variants, deal_seed, choice_seed, first = game
    rules = make_rules(deck, players, n, variants)
    run_game(rules, deal_seed, choice_seed, first % rules.players)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sets(st.sampled_from((2, 3, 4, 5))), st.integers(0, 2**32 - 1),
       st.integers(0, 2**32 - 1))
def test_random_games_using_the_whole_deck(variants: set[int], deal_seed: int,
                                           choice_seed: int) -> None:
    # Skat deck, 4 players, N = 8: the middle round deals all 32 cards (trump drawn first)
    rules = make_rules("skat", 4, 8, variants)
    assert rules.max_cards * rules.players == 32
    run_game(rules, deal_seed, choice_seed, 0)
