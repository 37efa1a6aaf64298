"""What a game is worth to the Skat search bot in the auction: its value and its
expected list score at a bid.

A game won with chance ``p`` and worth ``value`` scores ``p·value − (1−p)·2·value`` at a
bid it reaches (a lost game counts double); below the bid it is an overbid, which costs
twice the overbid value whatever its chance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from stich.bots.strong.settings import StrongSettings
from stich.skat.actions import Declare
from stich.skat.rules import NULL_VALUES, GameType, SkatRules
from stich.skat.scoring import matadors, overbid_value

__all__ = ["Result", "announced_value", "cautious_score", "mean_chance", "mean_score",
           "score", "value"]

Result = tuple[float, int, int]
"""A game on one world: the chance it is won (1, 0, or 0.5 when the solver gave up),
its value, its base value (0 for Null)."""


def value(game: GameType, owned: int, *, hand: bool) -> int:
    """The value of ``game`` with the cards ``owned``, without Schneider."""
    return game.base_value * (abs(matadors(owned, game)) + 1 + hand)


def announced_value(a: Declare, owned: int, rules: SkatRules) -> int:
    """What an announced (or open) Hand game is worth beyond the same game unannounced,
    counted as if the unannounced game made no Schneider: one level for announcing
    Schneider, two more for Schwarz, one for open (open counts as Schwarz announced where
    the rules say so)."""
    ann_schwarz = a.schwarz or (a.ouvert and rules.announcements)
    extra = 1 + 2 * ann_schwarz + a.ouvert if (a.schneider or ann_schwarz) else a.ouvert
    return a.game.base_value * (abs(matadors(owned, a.game)) + 1 + a.hand + extra)


def score(p: float, value: int, bid: int, game_base: int, rules: SkatRules) -> float:
    """Expected list score of a game won with chance ``p``, worth ``value``, at ``bid``."""
    if value < bid:
        if game_base == 0:  # Null
            if rules.null_overbid == "refused":
                return -1e6  # cannot be declared
            return -2.0 * min((v for v in NULL_VALUES.values() if v >= bid), default=118)
        return -2.0 * overbid_value(game_base, bid)
    return p * value - (1.0 - p) * 2.0 * value


def mean_score(results: Sequence[Result], bid: int, rules: SkatRules) -> float:
    """Expected list score of a plan at ``bid``."""
    if not results:
        return -math.inf
    total = 0.0
    for p, value, base in results:
        total += score(p, value, bid, base, rules)
    return total / len(results)


def cautious_score(results: Sequence[Result], bid: int, rules: SkatRules,
                   settings: StrongSettings) -> float:
    """:func:`mean_score` less :attr:`~StrongSettings.bid_se` standard errors of the
    mean."""
    mean = mean_score(results, bid, rules)
    n = len(results)
    if settings.bid_se == 0.0 or n < 2:
        return mean
    var = sum((score(p, value, bid, base, rules) - mean) ** 2
              for p, value, base in results) / (n - 1)
    return mean - settings.bid_se * math.sqrt(var / n)


def mean_chance(results: Sequence[Result]) -> float:
    """The mean chance of winning over the worlds of a plan."""
    return sum(p for p, _, _ in results) / len(results) if results else 0.0
