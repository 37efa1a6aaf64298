"""What a game of the arena (:mod:`stich.arena`) is played with and what it gives the
figures, shared by the arena and the games' arena halves (:mod:`stich.games.skat_arena`,
:mod:`stich.games.baptisten_arena`): one table of a match (:class:`ArenaDeal`), each
seat's result (:class:`SeatResult`), the game played (:class:`PlayedGame`), and the
statistics both games' figures use (:func:`interval`, :func:`percentile`,
:func:`bucket_rows`)."""

from __future__ import annotations

import bisect
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "INFERENCE_SAMPLES",
    "Z95",
    "ArenaDeal",
    "Interval",
    "PlayedGame",
    "SeatResult",
    "bucket_rows",
    "interval",
    "percentile",
    "timed",
]

Z95 = 1.96

INFERENCE_SAMPLES = 100
"""Worlds drawn per decision to measure strong's belief (``Match.inference``)."""


class SeatResult:
    """What one seat of one game gives the figures."""

    __slots__ = ("entry", "seat", "score", "declared", "won", "game", "rounds", "exact",
                 "times", "beliefs", "gains", "estimates", "chances")

    def __init__(self, entry: int, seat: int) -> None:
        self.entry = entry
        self.seat = seat
        self.score = 0
        self.declared = False  # Skat: this seat declared the game
        self.won = False  # … and won it
        self.game = ""  # … as this kind of game (:func:`game_kind`)
        self.rounds = 0  # Baptistenskat: rounds played
        self.exact = 0  # … and rounds with tricks == bid
        self.times: list[float] = []  # seconds per decision
        # Skat with Match.inference: (trick, log P uniform, log P weighted) of the true
        # cards at each card-play decision of a `strong` seat (stich.bots.inference)
        self.beliefs: list[tuple[int, float, float]] = []
        # Baptistenskat with Match.inference: (cards in the round, gain in nats of the
        # bid-weighted worlds over the plain sampler) at each card decision of a `strong`
        # seat (stich.bots.baptisten_strong.belief_gain)
        self.gains: list[tuple[int, float]] = []
        # Skat: the declarer bot's own chance estimates of its game, (phase, chance), for
        # bots that keep them (strong's ``estimates``: its last bid and its declaration)
        self.estimates: list[tuple[str, float]] = []
        # Baptistenskat: per round, the bot's chance of its bid being exact and whether it
        # was, for bots that keep them (strong's ``estimates``: one per bid, None when
        # only one bid was allowed)
        self.chances: list[tuple[float, bool]] = []

    def to_tuple(self) -> tuple[int, int, int, bool, bool, int, int]:
        """Everything but the times (which differ from run to run)."""
        return (self.entry, self.seat, self.score, self.declared, self.won, self.rounds,
                self.exact)


@dataclass
class PlayedGame:
    """One game of the match: deal ``deal`` in rotation ``rotation``; ``cards`` names the
    deal's cards (the same for every rotation of a deal); ``seats`` by entry.  (The
    arena's ``Game``.)"""

    deal: int
    rotation: int
    cards: str
    seats: list[SeatResult]


@dataclass
class ArenaDeal:
    """One game of a match as the game's arena half plays it (``Game.arena_play``):
    the rules, the deal's seed, and per seat the bot's name, its result to fill in and
    its random source; ``make`` makes a bot of a name, ``inference`` asks for strong's
    beliefs to be measured, drawing from ``measure``."""

    rules: Any
    seed: int
    names: list[str]
    seats: list[SeatResult]
    rngs: list[random.Random]
    make: Callable[[str], Any]
    inference: bool
    measure: random.Random


def timed(choose: Callable[[Any, random.Random], Any], times: list[float]
          ) -> Callable[[Any, random.Random], Any]:
    """``choose``, each call's seconds appended to ``times``."""
    def run(view: Any, rng: random.Random) -> Any:
        t0 = time.perf_counter()
        action = choose(view, rng)
        times.append(time.perf_counter() - t0)
        return action
    return run


# --- the statistics of the figures ------------------------------------------------------


@dataclass(frozen=True)
class Interval:
    """A mean over ``n`` values with its 95 % confidence interval."""

    mean: float
    low: float
    high: float
    sd: float
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {"mean": round(self.mean, 4), "low": round(self.low, 4),
                "high": round(self.high, 4), "sd": round(self.sd, 4), "n": self.n}


def interval(values: Sequence[float]) -> Interval:
    """``mean ± 1.96 · sd / √n`` (a single value: no spread, the interval is the point).

    >>> i = interval([1.0, 3.0])
    >>> i.mean, round(i.low, 3), round(i.high, 3)
    (2.0, 0.04, 3.96)
    """
    n = len(values)
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, sd, n)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile by the nearest rank (``q`` in 0..1; 0.0 for no values).

    >>> percentile([3.0, 1.0, 2.0], 0.5), percentile(list(range(100)), 0.99)
    (2.0, 98)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def bucket_rows(pairs: Sequence[tuple[float, bool]], bounds: Sequence[float]
                ) -> list[dict[str, Any]]:
    """(chance, hit) pairs by chance bucket (the last bucket includes its upper bound):
    per bucket the count, the mean chance, the hits and the hit rate."""
    cells: list[list[tuple[float, bool]]] = [[] for _ in bounds[:-1]]
    for p, hit in pairs:
        cells[min(bisect.bisect_right(bounds, p), len(cells)) - 1].append((p, hit))
    return [{"low": bounds[i], "high": bounds[i + 1], "games": len(c),
             "mean_chance": round(statistics.fmean(p for p, _ in c), 4),
             "won": sum(w for _, w in c),
             "win_rate": round(sum(w for _, w in c) / len(c), 4)}
            for i, c in enumerate(cells) if c]
