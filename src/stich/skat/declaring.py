"""What each declaration is worth for the declarer's hand, before it is made.

A Skat player counts a game before announcing it: "Eichel mit 2, Spiel 3: 36".  The
value comes from the settlement (:func:`stich.skat.scoring.settle_game`) with the
matadors of the cards the declarer holds and knows in the Skat; the lowest outcome that
wins is the :class:`Goal` (61 points; Schneider or Schwarz where only they lift the value
to the bid, or where they are announced).  A declaration is *certainly lost* when no
outcome wins: a suit game or Grand overbid even with Schwarz, or, at Lothar's table, a
Null worth less than the bid (settled at once at the next Null level: after a bid of 40,
Null is lost at −92).  The terminal asks before such a declaration; the browser shows
the value on each button (``declare_values`` in the declarer's view).

In a Hand game the Skat is unknown: the matadors may change with it.  The value shown is
the lowest over every Skat the two unseen cards could be with which the game can still
be won (``depends``: another Skat would give more), and a game counts as certainly lost
only when it is lost whatever the Skat holds.  The matadors a player counts are the
hand's own (``own``): the lowest value may be that of a Skat holding an Unter the hand
lacks ("ohne 2" becomes "mit 1"), so a front end says the hand's count and "at least".

>>> g = game_goal(SkatRules(), Declare(GameType.HERZ), bid=18, matadors=1)
>>> g.kind, g.points, g.value
('points', 61, 20)
>>> game_goal(SkatRules(), Declare(GameType.HERZ), bid=30, matadors=1).points  # Schneider
90
>>> game_goal(SkatRules(), Declare(GameType.HERZ), bid=60, matadors=1).kind
'impossible'
>>> game_goal(SkatRules.preset("isko"), Declare(GameType.GRAND, True, True, True, True),
...           bid=18, matadors=1).kind
'all_tricks'
>>> certain_loss(SkatRules(), Declare(GameType.NULL), bid=40, matadors=0)
-92
>>> certain_loss(SkatRules(), Declare(GameType.NULL, ouvert=True), bid=40, matadors=0)
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal

from stich.cards import bits
from stich.skat.actions import Action, Declare
from stich.skat.rules import GameType, SkatRules
from stich.skat.scoring import matadors, settle_game, settle_null_overbid

__all__ = ["DeclareValue", "Goal", "certain_loss", "declare_values", "game_goal"]

GoalKind = Literal["points", "all_tricks", "no_trick", "impossible"]

# (declarer points, declarer tricks, defender tricks) of the lowest outcome at each level
_LEVELS: tuple[tuple[GoalKind, int, int, int], ...] = (
    ("points", 61, 5, 5),
    ("points", 90, 5, 5),
    ("all_tricks", 120, 10, 0),
)


@dataclass(frozen=True)
class Goal:
    """What the declarer needs to win the declared game.

    ``kind``: ``points`` (at least ``points`` in total, the Skat included),
    ``all_tricks`` (Schwarz), ``no_trick`` (Null) or ``impossible`` (overbid whatever
    happens).  ``value`` is the game's value when won at that level (for
    ``impossible``: the value the loss is settled at).
    """

    kind: GoalKind
    points: int
    value: int
    matadors: int

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "points": self.points, "value": self.value,
                "matadors": self.matadors}


def game_goal(rules: SkatRules, contract: Declare, *, bid: int, matadors: int) -> Goal:
    """The lowest outcome with which the declared game is won (see :class:`Goal`)."""
    if contract.game is GameType.NULL:
        value = contract.null_value
        return Goal("no_trick" if value >= bid else "impossible", 0, value, 0)
    lost_value = 0
    for kind, points, dt, ft in _LEVELS:
        s = settle_game(rules, contract, bid=bid, matadors=matadors, declarer_points=points,
                        declarer_tricks=dt, defender_tricks=ft)
        if s.won:
            return Goal(kind, points, s.value, matadors)
        lost_value = lost_value or s.value
    return Goal("impossible", 0, lost_value, matadors)


def certain_loss(rules: SkatRules, contract: Declare, *, bid: int, matadors: int
                 ) -> int | None:
    """The list score of a declaration lost whatever happens (negative), else None."""
    goal = game_goal(rules, contract, bid=bid, matadors=matadors)
    if goal.kind != "impossible":
        return None
    if contract.game is GameType.NULL:
        if rules.null_overbid == "next_level":
            return settle_null_overbid(bid).score
        return None  # refused at the declaration, never played
    return -2 * goal.value


@dataclass(frozen=True)
class DeclareValue:
    """A declaration counted for a hand: its ``goal`` (the lowest outcome that wins, with
    the matadors, the fewest any possible Skat gives), the ``value`` when won so, and
    ``loss``, the list score when it is certainly lost (else None)."""

    contract: Declare
    goal: Goal
    loss: int | None
    own: int = 0  # the matadors of the known cards alone (a Hand game: the hand's)
    depends: bool = False  # a Hand game whose value depends on the unknown Skat

    @property
    def value(self) -> int:
        return self.goal.value

    @property
    def schneider_needed(self) -> bool:
        """Won only with Schneider (90 points) although Schneider is not announced."""
        return self.goal.kind == "points" and self.goal.points > 61 and \
            not self.contract.schneider

    @property
    def schwarz_needed(self) -> bool:
        """Won only by taking every trick although Schwarz is not announced."""
        return self.goal.kind == "all_tricks" and not (self.contract.schwarz
                                                         or self.contract.ouvert)


def declare_values(rules: SkatRules, legal: tuple[Action, ...], *, bid: int, owned: int,
                   unseen: int = 0) -> dict[str, DeclareValue]:
    """Each legal declaration (by its text) counted for the declarer.  ``owned``: the
    declarer's cards known to count for the matadors (the hand, and the Skat once picked
    up); ``unseen``: the cards the Skat of a Hand game may be among (two of them), 0 when
    the Skat is known."""
    skats = [a | b for a, b in combinations([1 << i for i in bits(unseen)], 2)] \
        if unseen else [0]
    out: dict[str, DeclareValue] = {}
    # the goal depends on the Skat only through the matadors: each count once per game
    counts: dict[GameType, list[int]] = {}
    for action in legal:
        if not isinstance(action, Declare):
            continue
        ms = counts.get(action.game)
        if ms is None:
            ms = counts[action.game] = list(dict.fromkeys(  # in the Skats' order: ties
                matadors(owned | skat, action.game) for skat in skats))  # stay as they were
        goals = [game_goal(rules, action, bid=bid, matadors=m) for m in ms]
        sure = [g for g in goals if g.kind != "impossible"]
        if sure:
            goal = min(sure, key=lambda g: (g.value, -abs(g.matadors)))
            loss = None
        else:
            goal = min(goals, key=lambda g: g.value)
            loss = certain_loss(rules, action, bid=bid, matadors=goal.matadors)
        own = matadors(owned, action.game) if action.game is not GameType.NULL else 0
        depends = action.game is not GameType.NULL and len({g.value for g in goals}) > 1
        out[str(action)] = DeclareValue(action, goal, loss, own, depends)
    return out
