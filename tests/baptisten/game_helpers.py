"""Shared helpers for the Baptistenskat rule tests: explicit deals, scripted rounds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from stich.baptisten import BaptistenRules, BaptistenState, BBid, Deal, RoundResult

DEFAULT = BaptistenRules()


def deals_for(rules: BaptistenRules, rounds: Mapping[int, tuple[Sequence[str], str]],
              seed: int = 0, first: int = 0) -> tuple[Deal, ...]:
    """Every round's deal from a seeded shuffle, except the rounds given (1-based round
    number -> (one hand per seat as card codes, the turned trump card's code))."""
    deck = rules.card_deck
    deals = list(BaptistenState.new(rules, seed=seed, first=first).deals)
    for r, (hands, trump) in rounds.items():
        # a code given twice (in one hand or in two) takes the next copy
        dealt = 0
        masks = []
        for h in hands:
            m = 0
            for word in h.split():
                card = next(c for c in deck.same_kind(deck.parse(word)) if not dealt & c.bit)
                m |= card.bit
                dealt |= card.bit
            masks.append(m)
        kinds = deck.same_kind(deck.parse(trump))
        card = next((c for c in kinds if not dealt & c.bit), kinds[0])
        deals[r - 1] = Deal(tuple(masks), card.index)
    return tuple(deals)


def new_game(rules: BaptistenRules = DEFAULT,
             rounds: Mapping[int, tuple[Sequence[str], str]] | None = None,
             seed: int = 0, first: int = 0) -> BaptistenState:
    return BaptistenState.new(rules, seed=seed, first=first,
                              deals=deals_for(rules, rounds or {}, seed, first))


def act(state: BaptistenState, *texts: str) -> BaptistenState:
    """Apply actions written as text (``bid 2 stake 5``, ``R20``, ``play``)."""
    for text in texts:
        state = state.apply(state.parse_action(text))
    return state


def choose_bid(state: BaptistenState, stake: int | None = 1, tricks: int = 0) -> BBid:
    """The legal bid nearest to ``tricks`` with the wanted stake (the forced 40 when the
    stake is forced; any legal stake when the wanted one is not offered)."""
    options = [a for a in state.legal_actions() if isinstance(a, BBid)]
    good = [b for b in options if b.stake == stake] or options
    return min(good, key=lambda b: (abs(b.tricks - tricks), b.tricks, b.stake or 0))


def play_round(state: BaptistenState, stakes: Mapping[int, int] | None = None,
               tricks: int = 0) -> BaptistenState:
    """Finish the current round: bid (stake per seat, default 1), then play the first
    legal card each time."""
    stakes = stakes or {}
    r = state.round_no
    while not state.is_over and state.round_no == r:
        if state.phase.name == "BIDDING":
            seat = state.to_move
            want = None if state.rules.trick_scoring else stakes.get(seat, 1)
            state = state.apply(choose_bid(state, want, tricks))
        else:
            state = state.apply(state.legal_actions()[0])
    return state


def to_round(state: BaptistenState, r: int) -> BaptistenState:
    """Play rounds (stake 1, first legal card) until round ``r`` starts."""
    while state.round_no < r:
        state = play_round(state)
    return state


def play_out(state: BaptistenState) -> BaptistenState:
    while not state.is_over:
        state = play_round(state)
    return state


def play_cards(state: BaptistenState, *codes: str) -> BaptistenState:
    """Play the cards in order (whoever is to move plays the next one)."""
    return act(state, *codes)


def last_row(state: BaptistenState) -> RoundResult:
    return state.sheet[-1]
