"""How a Skat game ended early: who claimed the rest, gave up or accepted a gift, and the
cards each player still held then (issue 42).

A game over is public as a whole (every view holds the deal), but the engine's final
state has empty hands: the rest was counted to one side at once.  The front ends want to
show the cards that were still in play, so this module replays the game (its deal and
its actions, the Skat pick-up, the put-away cards and a Revolution's exchange included)
to the state right before the ending action.  It answers only for a game that is over:
before the end nothing here may be shown to anybody.

>>> from stich.skat import SkatRules, SkatState
>>> s = SkatState.new(SkatRules.preset("isko"), seed=1)
>>> early_end(s) is None  # not over
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from stich.cards import Card

if TYPE_CHECKING:
    from stich.skat.state import SkatState

__all__ = ["EARLY_ENDS", "EarlyEnd", "early_end"]

EARLY_ENDS = frozenset({"claimed", "claim_wrong", "gave_up", "gift", "shortcut"})
"""The end reasons (``SkatState.end_reason``) of a game that ended before its last trick
by what a player said: a claim of the rest (right or wrong), giving up, the declarer
accepting the defenders' gift (Schenken), a shortcut (the rest provably to one side)."""


@dataclass(frozen=True, slots=True)
class EarlyEnd:
    """A game that ended early: its ``reason`` (one of :data:`EARLY_ENDS`), the position
    that said the ending word (``by``), the cards each position still held then
    (``held``, by position: 0 Vorhand … 2 Hinterhand), the cards of the trick that lay
    open then (``trick``: (position, card index) in play order; a card that ended the game
    is in it), the ``declarer`` and whether the rest went to him (``rest_to_declarer``;
    in Null that means he lost; a gift counts as his)."""

    reason: str
    by: int
    held: tuple[int, int, int]
    trick: tuple[tuple[int, int], ...]
    declarer: int
    rest_to_declarer: bool


def early_end(state: SkatState) -> EarlyEnd | None:
    """The early end of a finished game, else None (not over, or played to the end)."""
    reason = state.end_reason
    if not state.is_over or reason not in EARLY_ENDS:
        return None
    before: SkatState | None = None
    last: SkatState | None = None
    for s in state.replay_states():
        before, last = last, s
    if before is None:
        return None
    hands = list(before.hands)
    trick = [((before.leader + i) % 3, c) for i, c in enumerate(before.trick)]
    final = state.history[-1]
    if isinstance(final, Card):  # a card that ended the game lay in the trick
        hands[before.to_move] &= ~(1 << final.index)
        trick.append((before.to_move, final.index))
    d = state.declarer
    taken_in_tricks = sum(1 for _, _, winner in state.tricks if winner == d)
    # (a gift is scored as won without counting the rest to anybody)
    to_declarer = reason == "gift" or (d >= 0 and state.tricks_won[d] > taken_in_tricks)
    return EarlyEnd(reason=reason, by=before.to_move, held=(hands[0], hands[1], hands[2]),
                    trick=tuple(trick), declarer=d, rest_to_declarer=to_declarer)
