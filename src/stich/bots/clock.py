"""The clock of the search bots: anytime sampling within a budget, never past a hard cap.

A decision samples worlds while :meth:`WorldClock.more` says so: at least ``min_worlds``
(time permitting), then while the next world is expected to end within the budget (so
a decision ends a little before its budget: the median of a clocked match stays below
it), and never when it would pass 0.8 × the hard cap.  ``max_worlds`` replaces the budget by a
fixed number of worlds (only the hard cap still stops it): with a timer that does not
move, decisions are then the same on any machine, which the tests use.

A clock that moves 0.1 s each time it is read, a budget of 0.5 s: three worlds (the
fourth would end at about 0.53 s).

>>> ticks = iter(range(100))
>>> clock = WorldClock(0.5, 1.5, 1, None, timer=lambda: next(ticks) * 0.1)
>>> [clock.more(done) for done in range(6)]
[True, True, True, False, False, False]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from stich.core import ArgumentError

__all__ = ["HARD_CAP", "MOST_WORLDS", "WorldClock", "check_budget"]

HARD_CAP: Final = 1.5
"""No decision of a search bot may take longer than this many seconds."""
MOST_WORLDS: Final = 2000
"""A bound on the worlds of one decision, for a timer that does not move."""


def check_budget(budget: float, hard_cap: float) -> None:
    """Refuse a budget or hard cap that is not above 0 and at most :data:`HARD_CAP`."""
    if not 0 < budget <= HARD_CAP or not 0 < hard_cap <= HARD_CAP:
        raise ArgumentError("bots.bad_budget", budget=budget, most=HARD_CAP)


class WorldClock:
    """The time of one decision (``timer``: injectable, ``time.perf_counter`` by
    default)."""

    def __init__(self, budget: float, hard_cap: float, min_worlds: int,
                 max_worlds: int | None,
                 timer: Callable[[], float] = time.perf_counter) -> None:
        self.timer = timer
        self.start = timer()
        self.budget = budget
        self.hard = hard_cap
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds

    def elapsed(self) -> float:
        return self.timer() - self.start

    def more(self, done: int) -> bool:
        """Whether to sample another world after ``done`` of them."""
        if done >= (MOST_WORLDS if self.max_worlds is None else self.max_worlds):
            return False
        if self.max_worlds is not None:
            return not self.out_of_time()
        t = self.elapsed()
        per_world = t / done if done else 0.0
        if t + per_world >= self.hard * 0.8:
            return done == 0
        return done < self.min_worlds or t + per_world <= self.budget

    def out_of_time(self) -> bool:
        """Past 90 % of the hard cap: stop between two pieces of work."""
        return self.elapsed() >= self.hard * 0.9
