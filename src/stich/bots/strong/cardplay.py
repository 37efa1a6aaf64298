"""The Skat search bot's card play in suit games, Grand and Null.

For each sampled world and each legal card, zero-window questions to the solver after
that card: does the declarer still reach 61 (91 when Schneider was announced; every trick
when Schwarz was), reach 91 (Schneider), stay above 30 (no Schneider against him)?  In
Null: does the declarer still avoid every trick?  Each world counts with its weight by the
auction (:mod:`~stich.bots.strong.weights`); the card with the best weighted mean for the
seat's side is played (ties: the rule-based card).  Schwarz is not aimed at (only the
61/91/30 thresholds are asked).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from stich.bots.play import choose_card
from stich.bots.strong.questions import SolverClock
from stich.bots.strong.sampler import sample_world
from stich.bots.strong.settings import StrongSettings
from stich.bots.strong.weights import world_weigher
from stich.cards import CARDS, Card, card_points
from stich.skat.actions import Action, Declare
from stich.skat.lookup import TABLES
from stich.skat.rules import GameType, SkatRules
from stich.skat.solver import Position, null_won, reaches, takes_all
from stich.skat.view import SkatView

__all__ = ["play"]


def play(view: SkatView, rng: random.Random, clock: SolverClock,
         settings: StrongSettings) -> Action:
    """The card with the best weighted mean utility (:func:`_card_utility`) for the
    seat's side over the sampled worlds; the rule-based card when no world was done."""
    game = view.game
    contract = view.contract
    assert game is not None and contract is not None
    cards = [a for a in view.legal_actions if isinstance(a, Card)]
    me, decl = view.seat, view.declarer
    sign = 1.0 if me == decl else -1.0
    totals = dict.fromkeys((c.index for c in cards), 0.0)
    taken = view.points_taken()[decl]
    trick = tuple(c for _, c in view.trick)
    t = TABLES[game]
    rules = SkatRules.parse(view.rules)
    if contract.ouvert and game is not GameType.NULL and rules.announcements:
        contract = Declare(game, hand=True, schneider=True, schwarz=True, ouvert=True)
    worlds = 0
    weigh = world_weigher(view, rules, settings=settings) if settings.infer else None
    while clock.more(worlds):
        hands, skat = sample_world(view, rng)
        weight = weigh(hands) if weigh is not None else 1.0
        base = taken + card_points(skat)
        values: dict[int, float] = {}
        for c in cards:
            if worlds and clock.out_of_time():
                break
            values[c.index] = _card_utility(game, contract, hands, decl, me, trick,
                                            c.index, base, t.winner, clock)
        if len(values) < len(cards):
            break
        for k, v in values.items():
            totals[k] += weight * v
        worlds += 1
    if worlds == 0:
        return choose_card(view)
    best = max(sign * v for v in totals.values())
    good = [k for k, v in totals.items() if sign * v >= best - 1e-9]
    hint = choose_card(view).index
    return CARDS[hint] if hint in good else CARDS[min(good)]


def _card_utility(game: GameType, contract: Declare, hands: tuple[int, int, int],
                  declarer: int, me: int, trick: tuple[int, ...], card: int, base: int,
                  winner: Callable[[Sequence[int]], int], clock: SolverClock) -> float:
    """The declarer's utility if ``me`` plays ``card`` in this world: 1 for a won game,
    +0.3 for Schneider, −0.3 for being Schneider; Null: 1 if still won."""
    h = list(hands)
    h[me] &= ~(1 << card)
    new_trick = (*trick, card)
    nxt = (me + 1) % 3
    gain = 0
    if len(new_trick) == 3:
        w = (me + 1 + winner(new_trick)) % 3
        if w == declarer:
            if game is GameType.NULL:
                return 0.0
            gain = sum(CARDS[c].points for c in new_trick)
        new_trick = ()
        nxt = w
    hands3 = (h[0], h[1], h[2])
    if not any(hands3):  # the last trick is done
        if game is GameType.NULL:
            return 1.0
        return _threshold_utility(base + gain, contract, lambda t: 1.0 if t <= 0 else 0.0)
    pos = Position(game, hands3, declarer, nxt, new_trick)
    if game is GameType.NULL:
        return clock.ask(lambda n: null_won(pos, nodes=n))
    have = base + gain
    if contract.schwarz:
        return clock.ask(lambda n: takes_all(pos, nodes=n))
    return _threshold_utility(have, contract,
                              lambda t: clock.ask(lambda n: reaches(pos, t, nodes=n)))


def _threshold_utility(have: int, contract: Declare, can: Callable[[int], float]) -> float:
    """The utility from the answers ``can(target)`` (1, 0, or 0.5 when the search gave
    up) to "does the declarer still reach ``target`` more card points"."""
    need = 91 if contract.schneider else 61
    p = can(need - have)
    if p == 1.0:
        return 1.0 + (0.3 * can(91 - have) if need == 61 else 0.0)
    if p == 0.0:
        return -0.3 * (1.0 - can(31 - have))
    return p  # the search gave up: a close position
