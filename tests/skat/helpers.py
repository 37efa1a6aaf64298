"""Shared helpers for the Skat rule tests: explicit deals, scripted actions, playouts."""

from __future__ import annotations

import random

from stich.cards import Card, card_points, parse_cards
from stich.skat import PASS, SkatRules, SkatState, bidding_ladder

ISKO = SkatRules.preset("isko")
LOTHAR = SkatRules.preset("lothar")
ALL_CARDS = (1 << 32) - 1


def deal(rules: SkatRules, vorhand: str, mittelhand: str, hinterhand: str,
         skat: str) -> SkatState:
    """A new game from three hands and a Skat written as ISS card codes."""
    hands = [parse_cards(vorhand), parse_cards(mittelhand), parse_cards(hinterhand)]
    sk = parse_cards(skat)
    assert hands[0] | hands[1] | hands[2] | sk == ALL_CARDS, "the deal must hold all 32 cards"
    return SkatState.new(rules, hands=hands, skat=sk)


def act(state: SkatState, *texts: str) -> SkatState:
    """Apply actions written as text ("18", "hold", "declare grand hand", ...)."""
    for text in texts:
        state = state.apply(state.parse_action(text))
    return state


def play(state: SkatState, cards: str) -> SkatState:
    """Play the cards in the order given (whoever is to move plays the next card)."""
    for word in cards.split():
        state = state.apply(Card.parse(word))
    return state


def bid_up(state: SkatState, target: int, winner: int = 1) -> SkatState:
    """Run the auction along the ladder up to ``target``; Hinterhand passes.

    Mittelhand says every ladder value up to ``target`` and Vorhand holds each; at the end
    the loser of duel 1 passes, so ``winner`` (0 or 1) is declarer at ``target``.
    """
    for v in bidding_ladder(state.rules):
        if v > target:
            break
        state = act(state, str(v))
        # at the target, Vorhand passes if Mittelhand is to keep the value
        state = act(state, "pass" if v == target and winner == 1 else "hold")
    if winner == 0:
        state = act(state, "pass")  # Mittelhand passes: Vorhand holds the value
    state = act(state, "pass")  # Hinterhand passes
    assert state.declarer == winner and state.bid_value == target
    return state


def play_out(state: SkatState, rng: random.Random | None = None) -> SkatState:
    """Play cards until the game is over: random legal cards, or the first legal card."""
    while not state.is_over:
        legal = state.legal_actions()
        state = state.apply(rng.choice(legal) if rng is not None else legal[0])
    return state


def trick_points(cards: tuple[int, ...]) -> int:
    return card_points(sum(1 << c for c in cards))


__all__ = ["ALL_CARDS", "ISKO", "LOTHAR", "PASS", "act", "bid_up", "deal", "play",
           "play_out", "trick_points"]
