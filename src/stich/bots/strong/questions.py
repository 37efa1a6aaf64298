"""The solver questions of the Skat search bot, and the clock that limits each.

Every question gets a node limit from the clock (:meth:`SolverClock.nodes`: at most
:attr:`~StrongSettings.question_seconds` of search, never past the decision's cap); one
the solver gives up on answers 0.5.  A game's chance in one world comes from the card
points the declarer reaches against open-handed defenders (:func:`chance`, by
:attr:`~StrongSettings.chance_by_points`), a Null's from whether it is won open
(:func:`null_chance`): the defenders cannot see the cards, so a game the open-hand search
loses by a few points is often won, and these chances were measured on play.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from stich.bots.clock import WorldClock
from stich.bots.strong.scores import Result
from stich.bots.strong.settings import DEFAULT_SETTINGS, StrongSettings
from stich.skat.actions import Declare
from stich.skat.rules import GameType
from stich.skat.solver import Position, SearchLimit, compiled, null_won, reaches, takes_all

__all__ = ["SolverClock", "announced_chance", "ask_null", "chance", "game_result",
           "null_chance"]


class SolverClock(WorldClock):
    """The time of one decision (:class:`~stich.bots.clock.WorldClock`) and how many
    solver nodes the next question may search, so that no question can overrun the cap.
    ``rate``: nodes a second (default: the settings' figure for the solver in use)."""

    def __init__(self, budget: float, hard_cap: float, min_worlds: int,
                 max_worlds: int | None, timer: Callable[[], float] = time.perf_counter,
                 settings: StrongSettings = DEFAULT_SETTINGS, rate: float = 0.0) -> None:
        super().__init__(budget, hard_cap, min_worlds, max_worlds, timer)
        self.question = settings.question_seconds
        self.min_nodes = settings.min_nodes
        self.rate = rate or (settings.nodes_per_second_c if compiled()
                             else settings.nodes_per_second_py)

    def nodes(self) -> int:
        """Solver nodes the next question may use: at most ``question_seconds`` of search,
        and never beyond 90 % of the hard cap (but at least ``min_nodes``)."""
        left = min(self.question, self.hard * 0.9 - self.elapsed())
        return max(self.min_nodes, int(left * self.rate))

    def ask(self, question: Callable[[int], bool]) -> float:
        """1.0 or 0.0 for the solver's yes or no; 0.5 when the search gives up (a close
        position: as good as a coin toss)."""
        try:
            return 1.0 if question(self.nodes()) else 0.0
        except SearchLimit:
            return 0.5


def chance(clock: SolverClock, game: GameType, hands: tuple[int, int, int], declarer: int,
           have: int, settings: StrongSettings) -> float:
    """The declarer's chance to win ``game`` from a full deal, already holding ``have``
    card points (the Skat), from what the open-hand search says: the first threshold of
    :attr:`~StrongSettings.chance_by_points` the declarer reaches against open-handed
    defenders; a threshold the search gave up on counts with
    :attr:`~StrongSettings.gave_up_chance`."""
    pos = Position(game, hands, declarer, 0)
    gave_up = settings.gave_up_chance
    for i, (points, p_won) in enumerate(settings.chance_by_points):
        target = points - have

        def question(n: int, t: int = target) -> bool:
            return reaches(pos, t, nodes=n)

        p = clock.ask(question)
        if p == 1.0:
            return p_won
        if p == 0.5:  # the search gave up: close to this threshold
            return gave_up[i] if gave_up else p_won / 2 + 0.25
    return settings.chance_below


def game_result(clock: SolverClock, game: GameType, hands: tuple[int, int, int],
                declarer: int, have: int, value: int, bid: int,
                settings: StrongSettings) -> Result:
    """A suit game's or Grand's result on one world (:data:`Result`): its chance by
    :func:`chance`, except that a game whose ``value`` is below ``bid`` is not asked
    about — it is an overbid whatever its chance, so 0."""
    won = chance(clock, game, hands, declarer, have, settings) if value >= bid else 0.0
    return (won, value, game.base_value)


def ask_null(clock: SolverClock, hands: tuple[int, int, int], declarer: int) -> float:
    """Whether a Null is won from a full deal against open-handed defenders: 1.0, 0.0,
    or 0.5 when the search gave up."""
    pos = Position(GameType.NULL, hands, declarer, 0)
    return clock.ask(lambda n: null_won(pos, nodes=n))


def null_chance(won: float, settings: StrongSettings, *, ouvert: bool) -> float:
    """A Null's chance in play from the open-hand answer ``won`` (1.0, 0.0 or 0.5):
    :attr:`~StrongSettings.null_chance`, or :attr:`~StrongSettings.null_ouvert_chance`
    for Null Ouvert."""
    lost_p, won_p = settings.null_ouvert_chance if ouvert else settings.null_chance
    return lost_p + won * (won_p - lost_p)


def announced_chance(clock: SolverClock, a: Declare, hands: tuple[int, int, int],
                     declarer: int, have: int) -> float:
    """The chance of a Hand game with Schneider or Schwarz announced, or open, from a
    full deal: every trick (Schwarz; open, where the rules make open games Schwarz
    announced) or 91 points against open-handed defenders.  Open, the defenders see the
    declarer's cards, so the open-hand answer is nearly the truth."""
    pos = Position(a.game, hands, declarer, 0)
    if a.schwarz or a.ouvert:
        p = clock.ask(lambda n: takes_all(pos, nodes=n))
        return 0.97 if p == 1.0 else 0.05 if p == 0.0 else 0.4
    p = clock.ask(lambda n: reaches(pos, 91 - have, nodes=n))
    return 0.9 if p == 1.0 else 0.1 if p == 0.0 else 0.45
