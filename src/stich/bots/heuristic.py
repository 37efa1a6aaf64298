"""A simple rule-based Skat bot: bids by hand strength, discards and declares by expected
score, and plays by the rules of thumb every club player knows.

- Bidding: the highest value of a game it would likely win (:func:`best_bid`), never
  more; Null for hands of low cards.
- Hand or Skat: Hand only when a Hand game is expected to score more than picking up.
- Discarding: tries all 66 pairs and keeps the one with the best expected score (trumps
  stay, short weak suits and blank tens go, points are put away safely; in Null the
  dangerous high cards go).
- Card play (see :mod:`stich.bots.play`): the declarer pulls trumps and cashes aces;
  defenders smear points onto a partner's trick, follow low when losing and take
  tricks when they can; in Null the declarer stays low; in Ramsch everybody avoids points.
- Claiming the rest: the declarer on lead who holds only trumps above every trump still
  out claims it (:func:`sure_of_the_rest`: sure from his own cards), unless only the last
  trick is left (that one is played).  The bot never gives up.

>>> import random
>>> from stich.skat import SkatState
>>> s = SkatState.new(seed=11)
>>> bot, rng = SkatHeuristicBot(), random.Random(1)
>>> while not s.is_over:
...     s = s.apply(bot.choose(s.view(s.to_move), rng))
>>> s.outcome().kind in ("game", "ramsch")
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from stich.bots.doubling import decide, without_kontra
from stich.bots.play import choose_card
from stich.bots.skat_eval import (
    PICKUP_BONUS,
    Candidate,
    best_bid,
    candidates,
    discard_score,
    win_probability,
)
from stich.cards import card_points, cards_of
from stich.core import ArgumentError
from stich.messages import Seat
from stich.skat.actions import (
    CLAIM,
    GRAND_HAND,
    HAND,
    HOLD,
    PASS,
    PICKUP,
    Action,
    Bid,
    Declare,
    Discard,
)
from stich.skat.lookup import TABLES
from stich.skat.rules import GameType, SkatRules
from stich.skat.view import SkatView

__all__ = ["SkatHeuristicBot", "bid_up_to"]


class SkatHeuristicBot:
    """A rule-based bot; deterministic except where ``rng`` breaks ties."""

    name = "heuristic"

    def __init__(self, min_p: float = 0.55) -> None:
        self.min_p = min_p

    def choose(self, view: SkatView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ArgumentError("bots.nothing_to_do", seat=Seat(view.seat), phase=view.phase)
        phase = view.phase
        if phase == "BIDDING" and GRAND_HAND in legal:  # a game of a Ramsch round
            return GRAND_HAND if win_probability(view.hand, GameType.GRAND) >= 0.65 else PASS
        house = decide(view)
        if house is not None:
            return house
        if CLAIM in view.claims and view.hand.bit_count() > 1 and sure_of_the_rest(view):
            return CLAIM  # sure by its own cards (the last trick is simply played)
        view = without_kontra(view)
        if phase == "BIDDING":
            action: Action = self._bid(view)
        elif phase == "SKAT":
            action = self._hand_or_pickup(view)
        elif phase == "DISCARD":
            action = self._discard(view)
        elif phase == "DECLARE":
            action = self._declare(view)
        else:
            action = choose_card(view)
        if action not in legal:  # a safety net: a bot never returns an illegal action
            return rng.choice(legal)
        return action

    # --- auction -------------------------------------------------------------------------

    def _bid(self, view: SkatView) -> Action:
        legal = view.legal_actions
        return bid_up_to(legal, view.bid, best_bid(view.hand, SkatRules.parse(view.rules),
                                                   min_p=self.min_p))

    # --- Skat, discard, declaration ------------------------------------------------------

    def _hand_or_pickup(self, view: SkatView) -> Action:
        hand = view.hand
        with_hand = _best(candidates(hand, hand, hand=True, bid=view.bid))
        pickup = _best(candidates(hand, hand, hand=False, bid=view.bid, bonus=PICKUP_BONUS))
        # The pickup bonus is generous on purpose (for bidding); a sure Hand game that
        # is worth nearly as much is the better choice.
        if with_hand.p >= 0.85 and with_hand.ev >= 0.8 * pickup.ev:
            return HAND
        return PICKUP

    def _discard(self, view: SkatView) -> Action:
        twelve = view.hand
        best: tuple[float, Discard] | None = None
        for a in view.legal_actions:
            if not isinstance(a, Discard):
                continue
            ev, _ = discard_score(twelve & ~a.cards, a.cards, twelve, view.bid)
            # Ties: put the most points away.
            key = ev + card_points(a.cards) * 1e-3
            if best is None or key > best[0]:
                best = (key, a)
        assert best is not None
        return best[1]

    def _declare(self, view: SkatView) -> Action:
        hand = view.hand
        legal = [a for a in view.legal_actions if isinstance(a, Declare)]
        picked = bool(view.skat_seen)
        if picked:
            _, choice = discard_score(hand, view.discarded, hand | view.discarded, view.bid)
        else:
            choice = _best(c for c in candidates(hand, hand, hand=True, bid=view.bid)
                           if c.game is GameType.NULL or not c.ouvert)
        for a in legal:
            if (a.game is choice.game and a.ouvert == choice.ouvert
                    and not a.schneider and not a.schwarz and not a.revolution):
                return a
        plain = [a for a in legal if not (a.schneider or a.schwarz or a.ouvert)]
        return (plain or legal)[0]


def sure_of_the_rest(view: SkatView) -> bool:
    """Whether the declarer to lead holds only trumps, each higher than every trump still
    out: then every trick is his whatever the others hold, and the bot claims the rest
    (:data:`~stich.skat.actions.CLAIM`), a claim that cannot be wrong."""
    game = view.game
    if game is None or game in (GameType.NULL, GameType.RAMSCH) or view.trick:
        return False
    t = TABLES[game]
    hand = view.hand
    if not hand or hand & ~t.trump:
        return False
    out = t.trump & ~hand & ~view.played
    weakest = min(t.strength[c.index] for c in cards_of(hand))
    return all(t.strength[c.index] < weakest for c in cards_of(out))


def bid_up_to(legal: Iterable[Action], bid: int, limit: int) -> Action:
    """The bidding move of a player ready to go up to ``limit`` (0: not at all): hold
    while the value asked is within it, say the next value while it is, else pass."""
    legal = list(legal)
    if HOLD in legal:
        return HOLD if bid <= limit else PASS
    bids = sorted((a for a in legal if isinstance(a, Bid)), key=lambda b: b.value)
    if bids and bids[0].value <= limit:
        return bids[0]
    return PASS


def _best(cands: Iterable[Candidate]) -> Candidate:
    return max(cands, key=lambda c: c.ev)
