"""The worlds weighed by the auction: how well a sampled world fits what was said.

In the card play each sampled world counts with a weight (:func:`world_weight`): the
declarer's kept ten cards by the rule-based chance of winning the game declared, a player
whose cards would not have bid as high as it did less, and a player who passed at a value
its cards would have bid less too.  The weights only shift the mean over the worlds; every
world stays possible.  ``stich.bots.inference`` measures what they add to the belief.
"""

from __future__ import annotations

from collections.abc import Callable

from stich.bots.skat_eval import best_bid, win_probability
from stich.bots.strong.settings import DEFAULT_SETTINGS, StrongSettings
from stich.skat.rules import SkatRules, bidding_ladder
from stich.skat.view import SkatView

__all__ = ["bid_values", "pass_limits", "world_weigher", "world_weight"]


def bid_values(view: SkatView) -> list[int]:
    """The highest value each seat said or held in the auction (0: none)."""
    out = [0, 0, 0]
    current = 0
    for seat, said in view.bidding:
        if said.isdigit():
            current = int(said)
        elif said != "hold":
            continue
        out[seat] = max(out[seat], current)
    return out


def pass_limits(view: SkatView, rules: SkatRules) -> list[int]:
    """Per seat, the lowest value it refused in the auction (0: it never passed): an
    answerer who passed would not hold the value said, a bidder who passed would not say
    the next value of the ladder."""
    ladder = bidding_ladder(rules)
    out = [0, 0, 0]
    current = 0
    prev = ""
    for seat, said in view.bidding:
        if said.isdigit():
            current = int(said)
        elif said == "pass":
            if prev.isdigit():
                out[seat] = current
            else:
                out[seat] = next((v for v in ladder if v > current), current + 1)
        prev = said
    return out


def world_weight(view: SkatView, hands: tuple[int, int, int], played_by: list[int],
                 said: list[int], rules: SkatRules, refused: list[int] | None = None, *,
                 settings: StrongSettings = DEFAULT_SETTINGS) -> float:
    """How well a sampled world fits the auction: the declarer's ten cards (those it
    kept) are weighed by the rule-based chance of winning the game declared, a player
    whose ten cards would not bid as high as it did counts less
    (:attr:`~StrongSettings.unlikely_bid`), and, given ``refused`` (:func:`pass_limits`),
    so does a player who passed at a value its ten cards would have bid
    (:attr:`~StrongSettings.unlikely_pass`)."""
    game = view.game
    assert game is not None
    w = 1.0
    for s in range(3):
        if s == view.seat or (s == view.declarer and view.ouvert_hand):
            continue
        ten = hands[s] | played_by[s]
        if s == view.declarer:
            w *= max(0.05, win_probability(ten, game))
            continue
        if said[s] or (refused is not None and refused[s]):
            best = best_bid(ten, rules)
            if said[s] and best < said[s]:
                w *= settings.unlikely_bid
            if refused is not None and refused[s] and best >= refused[s]:
                w *= settings.unlikely_pass
    return w


def world_weigher(view: SkatView, rules: SkatRules, *, passes: bool | None = None,
                  settings: StrongSettings = DEFAULT_SETTINGS
                  ) -> Callable[[tuple[int, int, int]], float]:
    """The weight of a world's hands (as they are now) given what ``view`` shows of the
    auction (:func:`world_weight`); ``passes``: weigh the passes too (default
    :attr:`~StrongSettings.infer_passes`)."""
    played_by, said = view.played_by(), bid_values(view)
    refused = pass_limits(view, rules) if (
        settings.infer_passes if passes is None else passes) else None

    def weight(hands: tuple[int, int, int]) -> float:
        return world_weight(view, hands, played_by, said, rules, refused, settings=settings)

    return weight
