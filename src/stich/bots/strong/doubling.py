"""Kontra and Re of the Skat search bot, from its own search (house rule ``kontra_re``).

Both decisions sample worlds that agree with the seat's view (:mod:`.sampler`); each world
the solver is asked about is drawn from :attr:`~StrongSettings.doubling_candidates`
sampled ones by its weight by the auction (:mod:`.weights`) squared
(:attr:`~StrongSettings.doubling_power`): a uniform world gives the declarer a far
weaker hand than declarers hold (his ten cards' rule-based chance: median 0.01 in
uniform worlds, 0.4 in the games played), and the card play's mild weights do not undo
that in a dozen worlds.  The solver is asked, in each, how the
declared game ends from the position of the moment (the first trick, some cards maybe
already played): the declarer's chance by the card points he reaches against
open-handed defenders (:attr:`~StrongSettings.chance_by_points`, as in the auction), a
Null's by whether it is won open (:attr:`~StrongSettings.null_chance`), an announced or
open Hand game's by the announcement (as :func:`.questions.announced_chance`).  Each world
also gives the game's value with the declarer's cards of that world (his matadors), and
so his expected list score ``S = p·v − (1 − p)·2v`` (an overbid: lost whatever the
chance, :func:`.scores.score`).

Kontra doubles the declarer's score, won or lost; Re doubles it again.  Nothing else on
the list moves, so what the defenders gain by a Kontra is what the declarer loses by
it: ``−S`` (``−3S`` more if he answers Re).  With one value that is a gain when the
declarer's chance is below 2/3; the declarer gains by Re when it is above 2/3.

- **Kontra** (a defender before his first card): when the declarer's expected score over
  the worlds is below zero, its weighted mean chance at most
  :attr:`~StrongSettings.kontra_chance` (0.55), and that mean plus
  :attr:`~StrongSettings.kontra_se` standard errors of it still below the break-even 2/3.
  The margin below 2/3 pays for what the estimate does not see: the chance tables were
  measured on the declarer's own decisions (the games he chose to play, where the
  defenders' sampling errs the other way), the defender says Kontra exactly where his few
  worlds look worst for the declarer (the best of noisy means is too good), and a
  declarer who holds more than the worlds show answers Re, so a wrong Kontra costs four
  times the game's value.  0.55 also makes the Kontras the bot says won by the
  defenders more often than not when the chances are right (the mean chance of the
  games it doubles is below a half).
  Never on a Null: a defender's worlds hold hands that nobody would play Null with (a
  Null hand is rare, and the auction's weights hardly find one), so the solver loses
  nearly every Null in them: against ``easy`` declarers, the Nulls these worlds gave a
  chance of 0.15 to 0.3 were won in 9 of 17 games (80 deals, seed 5000).
- **Re** (the declarer answering a Kontra): when his weighted mean chance over the
  worlds is at least :attr:`~StrongSettings.re_chance` (0.8) and his expected score is
  positive.  The margin above 2/3: the worlds are dealt without regard to the Kontra,
  which says that a defender expects the declarer to lose, so the declarer's worlds hold
  the defenders' cards too weak.

Each returns None when no world was solved in time; the bot then decides by the
rule-based estimate (:mod:`stich.bots.doubling`).  The decisions use the view only.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from stich.bots.strong.questions import SolverClock, null_chance
from stich.bots.strong.sampler import World, sample_world
from stich.bots.strong.scores import announced_value, score, value
from stich.bots.strong.settings import StrongSettings
from stich.bots.strong.weights import world_weigher
from stich.cards import card_points
from stich.skat.actions import Declare
from stich.skat.rules import GameType, SkatRules
from stich.skat.solver import Position, null_won, reaches, takes_all
from stich.skat.view import SkatView

__all__ = ["BREAK_EVEN", "Estimate", "estimate", "kontra", "re"]

BREAK_EVEN = 2.0 / 3.0
"""The declarer's chance at which a doubling changes nothing in expectation: won
``+v``, lost ``−2v``."""


@dataclass(frozen=True)
class Estimate:
    """The declarer's game over the sampled worlds (weighted by the auction): his mean
    chance to win, its standard error, his mean expected list score without Kontra, and
    how many worlds were solved."""

    chance: float
    se: float
    score: float
    worlds: int


def kontra(view: SkatView, rng: random.Random, clock: SolverClock,
           settings: StrongSettings) -> bool | None:
    """Whether the defender of ``view`` says Kontra (None: no world in time)."""
    if view.game is GameType.NULL:
        return False
    e = estimate(view, rng, clock, settings)
    if e is None:
        return None
    return (e.score < 0.0 and e.chance <= settings.kontra_chance
            and e.chance + settings.kontra_se * e.se < BREAK_EVEN)


def re(view: SkatView, rng: random.Random, clock: SolverClock,
       settings: StrongSettings) -> bool | None:
    """Whether the declarer of ``view`` answers a Kontra with Re (None: no world in
    time)."""
    e = estimate(view, rng, clock, settings)
    if e is None:
        return None
    return e.score > 0.0 and e.chance >= settings.re_chance


def estimate(view: SkatView, rng: random.Random, clock: SolverClock,
             settings: StrongSettings) -> Estimate | None:
    """The declarer's game as ``view``'s seat sees it now (:class:`Estimate`), over as
    many sampled worlds as the clock allows; None when none was solved."""
    game, contract = view.game, view.contract
    if game is None or contract is None or game is GameType.RAMSCH or view.declarer < 0:
        return None
    rules = SkatRules.parse(view.rules)
    decl = view.declarer
    trick = tuple(c for _, c in view.trick)
    leader = view.tricks[-1][2] if view.tricks else 0
    to_move = (leader + len(trick)) % 3
    taken = view.points_taken()[decl]
    played = view.played_by()[decl]
    weigh = world_weigher(view, rules, settings=settings)
    chances: list[tuple[float, float]] = []  # (weight, chance)
    total_w = total_score = 0.0
    while clock.more(len(chances)):
        if chances and clock.out_of_time():
            break
        hands, skat = _draw(view, rng, weigh, settings.doubling_candidates,
                            settings.doubling_power)
        weight = 1.0
        pos = Position(game, hands, decl, to_move, trick)
        owned = hands[decl] | played | skat
        p = _chance(clock, contract, pos, taken + card_points(skat), rules, settings)
        if game is GameType.NULL:
            v, base = contract.null_value, 0
        elif contract.schneider or contract.schwarz or contract.ouvert:
            v, base = announced_value(contract, owned, rules), game.base_value
        else:
            v, base = value(game, owned, hand=contract.hand), game.base_value
        chances.append((weight, p))
        total_w += weight
        total_score += weight * score(p, v, view.bid, base, rules)
    if not chances or total_w <= 0.0:
        return None
    mean = sum(w * p for w, p in chances) / total_w
    n = len(chances)
    var = sum(w * (p - mean) ** 2 for w, p in chances) / total_w
    # the standard error of a weighted mean, by the worlds' effective number
    n_eff = total_w ** 2 / sum(w * w for w, _ in chances)
    se = math.sqrt(var / n_eff) if n > 1 else 0.5
    return Estimate(mean, se, total_score / total_w, n)


def _draw(view: SkatView, rng: random.Random, weigh: Callable[[tuple[int, int, int]], float],
          candidates: int, power: float) -> World:
    """One world for the solver: of ``candidates`` sampled worlds, one drawn by its
    weight by the auction (sampling-importance-resampling)."""
    pool = [sample_world(view, rng) for _ in range(max(1, candidates))]
    if len(pool) == 1:
        return pool[0]
    weights = [weigh(hands) ** power for hands, _ in pool]
    if sum(weights) <= 0.0:
        return pool[0]
    return rng.choices(pool, weights)[0]


def _chance(clock: SolverClock, contract: Declare, pos: Position, have: int,
            rules: SkatRules, settings: StrongSettings) -> float:
    """The declarer's chance to win ``contract`` from ``pos`` in one world, holding
    ``have`` card points already (the Skat, tricks taken)."""
    game = contract.game
    if game is GameType.NULL:
        won = clock.ask(lambda n: null_won(pos, nodes=n))
        return null_chance(won, settings, ouvert=contract.ouvert)
    if contract.schwarz or (contract.ouvert and rules.announcements):
        p = clock.ask(lambda n: takes_all(pos, nodes=n))
        return 0.97 if p == 1.0 else 0.05 if p == 0.0 else 0.4
    if contract.schneider:
        p = clock.ask(lambda n: reaches(pos, 91 - have, nodes=n))
        return 0.9 if p == 1.0 else 0.1 if p == 0.0 else 0.45
    gave_up = settings.gave_up_chance
    for i, (points, p_won) in enumerate(settings.chance_by_points):
        target = points - have

        def question(n: int, t: int = target) -> bool:
            return reaches(pos, t, nodes=n)

        p = clock.ask(question)
        if p == 1.0:
            return p_won
        if p == 0.5:
            return gave_up[i] if gave_up else p_won / 2 + 0.25
    return settings.chance_below
