"""The Skat search bot's Ramsch.

While one player has taken every trick so far, a Durchmarsch is on and the solver
decides: that player goes for it when the solver says it goes through in enough sampled
worlds (:attr:`~StrongSettings.durchmarsch_try`), and the others keep to the cards that
stop it in the most worlds.  (Ramsch is played like Grand, so the solver's "takes every
trick" on Grand's tables answers the question.)  Otherwise, and among the cards that stop
a Durchmarsch equally well, each legal card is tried in every sampled world and the rest
of the game played out by the rule-based Ramsch play (:func:`ramsch_card`); the card with
the best mean Ramsch score for the seat is played.  Only the Durchmarsch is searched; the
rest is the rule-based play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from stich.bots.clock import WorldClock
from stich.bots.play import choose_card, ramsch_follow
from stich.bots.strong.questions import SolverClock
from stich.bots.strong.sampler import sample_world
from stich.bots.strong.settings import StrongSettings
from stich.cards import CARDS, Card, bits, card_points
from stich.skat.actions import Action
from stich.skat.lookup import TABLES
from stich.skat.rules import GameType
from stich.skat.solver import Position, takes_all
from stich.skat.view import SkatView

__all__ = ["ramsch", "ramsch_card", "ramsch_rollout"]


def ramsch(view: SkatView, rng: random.Random, clock: SolverClock,
           settings: StrongSettings) -> Action:
    """The Ramsch card: by the Durchmarsch questions while one player has taken every
    trick, else (and among the cards that stop it equally well) by the rollouts
    (:func:`_by_rollouts`): few points, and not the most."""
    hint = choose_card(view)
    me = view.seat
    cards = [a.index for a in view.legal_actions if isinstance(a, Card)]
    trick = tuple(c for _, c in view.trick)
    winners = {w for _, _, w in view.tricks} if view.tricks else {me}
    half = WorldClock(clock.budget / 2, clock.hard, clock.min_worlds, clock.max_worlds,
                      clock.timer)
    if len(winners) == 1:
        runner = winners.pop()
        winner = TABLES[GameType.GRAND].winner
        totals = dict.fromkeys(cards, 0.0)
        worlds = 0
        while half.more(worlds):
            hands, _ = sample_world(view, rng)
            values: dict[int, float] = {}
            for c in cards:
                if worlds and clock.out_of_time():
                    break
                values[c] = _runs_through(hands, runner, me, trick, c, winner, clock)
            if len(values) < len(cards):
                break
            for k, v in values.items():
                totals[k] += v
            worlds += 1
        if worlds:
            if me == runner:
                best = max(totals.values())
                if best / worlds >= settings.durchmarsch_try:
                    good = [k for k, v in totals.items() if v >= best - 1e-9]
                    return hint if hint.index in good else CARDS[min(good)]
            else:
                least = min(totals.values())
                cards = [k for k, v in totals.items() if v <= least + 1e-9]
    if len(cards) > 1 and settings.ramsch_rollouts:
        cards = _by_rollouts(view, rng, clock, cards, trick)
    return hint if hint.index in cards else CARDS[min(cards)]


def _by_rollouts(view: SkatView, rng: random.Random, clock: SolverClock,
                 cards: list[int], trick: tuple[int, ...]) -> list[int]:
    """The cards with the best mean Ramsch score over the sampled worlds played out
    (all of ``cards`` when no world was sampled)."""
    me = view.seat
    taken = list(view.points_taken())
    tricks = [0, 0, 0]
    for _, _, w in view.tricks:
        tricks[w] += 1
    leader = view.trick[0][0] if view.trick else view.to_move
    totals = dict.fromkeys(cards, 0.0)
    worlds = 0
    # the rest of the budget (the Durchmarsch question may have used some)
    while clock.more(worlds):
        hands, skat = sample_world(view, rng)
        for c in cards:
            totals[c] += ramsch_rollout(hands, skat, leader, trick, c, me, taken, tricks)
        worlds += 1
        if clock.out_of_time():
            break
    best = max(totals.values())
    return [k for k, v in totals.items() if v >= best - 1e-9]


def _runs_through(hands: tuple[int, int, int], runner: int, me: int, trick: tuple[int, ...],
                  card: int, winner: Callable[[Sequence[int]], int], clock: SolverClock) -> float:
    """Ramsch: the chance (1, 0, or 0.5 when the solver gives up) that ``runner`` still
    takes every trick after ``me`` plays ``card`` in this world."""
    h = list(hands)
    h[me] &= ~(1 << card)
    new_trick = (*trick, card)
    nxt = (me + 1) % 3
    if len(new_trick) == 3:
        w = (me + 1 + winner(new_trick)) % 3
        if w != runner:
            return 0.0
        new_trick = ()
        nxt = w
    hands3 = (h[0], h[1], h[2])
    if not any(hands3):
        return 1.0
    pos = Position(GameType.GRAND, hands3, runner, nxt, new_trick)
    return clock.ask(lambda n: takes_all(pos, nodes=n))


_POINTS = tuple(c.points for c in CARDS)
_RAMSCH = TABLES[GameType.RAMSCH]


def ramsch_card(hand: int, trick: tuple[int, ...]) -> int:
    """The rule-based Ramsch card on the cards alone (no view): lead the lowest card of
    a plain suit worth least; follow as :func:`stich.bots.play.ramsch_follow`."""
    t = _RAMSCH
    if trick:
        led = trick[0]
        best = led
        for x in trick[1:]:
            if t.beats(x, best, led):
                best = x
        return ramsch_follow(t.follow[led] & hand or hand, best, led, last=len(trick) == 2)
    trump, pts, st = t.trump, _POINTS, t.strength
    return min(bits(hand), key=lambda c: (trump >> c & 1, pts[c], st[c]))


def ramsch_rollout(hands: tuple[int, int, int], skat: int, leader: int,
                    trick: tuple[int, ...], card: int, me: int, taken: Sequence[int],
                    tricks: Sequence[int]) -> float:
    """``me``'s Ramsch score after playing ``card`` in this world, every card after it
    played by :func:`ramsch_card`: +120 for a Durchmarsch, minus the points of the
    player with the most (the earlier seat on a tie), else 0."""
    h = list(hands)
    pts = list(taken)
    won = list(tricks)
    winner_of = _RAMSCH.winner
    points = _POINTS
    h[me] &= ~(1 << card)
    cur = [*trick, card]
    turn = (me + 1) % 3
    while True:
        if len(cur) == 3:
            leader = turn = (leader + winner_of(cur)) % 3
            pts[leader] += points[cur[0]] + points[cur[1]] + points[cur[2]]
            won[leader] += 1
            cur = []
            if not h[leader]:
                break
        c = ramsch_card(h[turn], tuple(cur))
        h[turn] &= ~(1 << c)
        cur.append(c)
        turn = (turn + 1) % 3
    pts[leader] += card_points(skat)  # the Skat goes to the last trick's winner
    if won[me] == 10:
        return 120.0
    if max(won) == 10:
        return 0.0
    most = max(pts)
    loser = pts.index(most)
    return -float(most) if loser == me else 0.0

