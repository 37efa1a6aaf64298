"""The Baptistenskat scoresheet (Anschreibezettel) and the final ranking.

>>> ranking((12, 30, 12, -5))
[(1, 30, 1), (0, 12, 2), (2, 12, 2), (3, -5, 4)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from stich.baptisten.state import RoundResult

if TYPE_CHECKING:
    from stich.baptisten.state import BaptistenState

__all__ = ["BaptistenOutcome", "make_outcome", "ranking", "scoresheet"]


def ranking(totals: Sequence[int]) -> list[tuple[int, int, int]]:
    """(player, total, place) by total, highest first; equal totals share a place."""
    order = sorted(range(len(totals)), key=lambda p: (-totals[p], p))
    out: list[tuple[int, int, int]] = []
    for i, p in enumerate(order):
        place = out[-1][2] if i and totals[p] == out[-1][1] else i + 1
        out.append((p, totals[p], place))
    return out


class BaptistenOutcome(NamedTuple):
    """The end of a game: every round of the sheet, the totals and the ranking."""

    rounds: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    ranking: tuple[tuple[int, int, int], ...]

    @property
    def scores(self) -> tuple[int, ...]:
        return self.totals


def make_outcome(state: BaptistenState) -> BaptistenOutcome:
    return BaptistenOutcome(state.sheet, state.totals, tuple(ranking(state.totals)))


def scoresheet(state: BaptistenState, players: Sequence[str]) -> dict[str, Any]:
    """The scoresheet as JSON-ready data (finished rounds; ranking once the game is over)."""
    deck = state.deck
    rounds = []
    for rr in state.sheet:
        entries = [
            {"player": p, "bid": rr.bids[p], "stake": rr.stakes[p], "forced": rr.forced[p],
             "tricks": rr.tricks[p], "score": rr.scores[p], "total": rr.totals[p]}
            for p in range(len(rr.bids))
        ]
        rounds.append({"round": rr.round, "cards": rr.cards, "first": rr.first,
                       "trump": deck.suit_names[rr.trump] if rr.trump >= 0 else None,
                       "entries": entries})
    sheet: dict[str, Any] = {"rules": str(state.rules), "players": list(players),
                             "rounds": rounds}
    sheet["ranking"] = ([{"player": p, "total": t, "place": pl}
                         for p, t, pl in ranking(state.totals)] if state.is_over else [])
    return sheet
