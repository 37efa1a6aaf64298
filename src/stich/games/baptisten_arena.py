"""Baptistenskat's half of the arena (:mod:`stich.arena`, asked through
:class:`stich.games.baptisten.BaptistenGame`): one whole game (every round) per deal and
rotation, each seat scored by its total on the sheet; the figures of the bids (rounds,
exact bids), what the bids said tell ``strong`` of the true cards, and the calibration
of the chances it gave its bids."""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from typing import Any

from stich.baptisten import BaptistenRules, BaptistenState, draw_first_player
from stich.core import ArgumentError
from stich.games.played import (
    INFERENCE_SAMPLES,
    ArenaDeal,
    PlayedGame,
    SeatResult,
    bucket_rows,
    interval,
    timed,
)

__all__ = ["BID_BUCKETS", "calibration", "check", "figures", "inference", "play"]

BID_BUCKETS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
"""Baptistenskat: the bounds of the buckets of the chance of a bid being exact."""


def check(rules: Any, seats: int) -> None:
    """The rules are for as many players as there are bots."""
    assert isinstance(rules, BaptistenRules)
    if rules.players != seats:
        raise ArgumentError("arena.baptisten_players", players=rules.players, n=seats)


def play(deal: ArenaDeal) -> str:
    """One whole game of ``deal``, its seats' results filled in; the deal's cards (the
    first player and every round's deal) as text."""
    rules = deal.rules
    by_seat = deal.seats
    master = random.Random(deal.seed)
    first, _ = draw_first_player(rules, master)
    b_state = BaptistenState.new(rules, seed=master.getrandbits(64), first=first)
    cards = f"{first}:" + ";".join(repr(d) for d in b_state.deals)
    b_bots = [deal.make(name) for name in deal.names]
    b_chooses = [timed(b.choose, r.times) for b, r in zip(b_bots, by_seat, strict=True)]
    from stich.bots.baptisten_strong import belief_gain

    while not b_state.is_over:
        s = b_state.to_move
        view = b_state.view(s)
        if (deal.inference and deal.names[s] == "strong"
                and view.phase == "PLAY" and view.cards >= 2 and not view.forehead):
            by_seat[s].gains.append(
                (view.cards, belief_gain(view, b_state.hands, deal.measure,
                                         INFERENCE_SAMPLES)))
        b_state = b_state.apply(b_chooses[s](view, deal.rngs[s]))
    for s, r in enumerate(by_seat):
        r.score = b_state.totals[s]
        r.rounds = len(b_state.sheet)
        r.exact = sum(1 for row in b_state.sheet if row.bids[s] == row.tricks[s])
        said: list[float | None] = getattr(b_bots[s], "estimates", [])
        if len(said) == len(b_state.sheet):
            r.chances = [(p, row.bids[s] == row.tricks[s])
                         for p, row in zip(said, b_state.sheet, strict=True) if p is not None]
    return cards


def figures(seats: Sequence[SeatResult]) -> dict[str, Any]:
    """The bids of ``seats`` (pooled): rounds played, exact bids, and their share."""
    rounds = sum(r.rounds for r in seats)
    exact = sum(r.exact for r in seats)
    return dict(rounds=rounds, exact=exact,
                bid_accuracy=round(exact / rounds, 4) if rounds else None)


def calibration(games: Sequence[PlayedGame], entries: set[int]) -> dict[str, Any]:
    """The bids of the entries by the chance their bot gave them of being exact, against
    how often they were (``games`` counts rounds here; ``won``: exact)."""
    rows = bucket_rows([c for g in games for r in g.seats if r.entry in entries
                        for c in r.chances], BID_BUCKETS)
    return {"games": sum(int(r["games"]) for r in rows), "bid": rows}


def inference(games: Sequence[PlayedGame]) -> dict[str, Any]:
    """By the cards in the round, the mean gain (nats) that ``strong``'s bid-weighted
    worlds give the true cards over its plain sampler, with 95 % intervals."""
    by_cards: dict[int, list[float]] = {}
    for g in games:
        for r in g.seats:
            for cards, gain in r.gains:
                by_cards.setdefault(cards, []).append(gain)
    every = [x for xs in by_cards.values() for x in xs]
    rows = []
    for cards in sorted(by_cards):
        ci = interval(by_cards[cards])
        rows.append({"cards": cards, "decisions": len(by_cards[cards]),
                     "gain": round(ci.mean, 4), "gain_low": round(ci.low, 4),
                     "gain_high": round(ci.high, 4)})
    return {"bot": "strong", "samples": INFERENCE_SAMPLES, "decisions": len(every),
            "mean_gain": round(statistics.fmean(every), 4) if every else 0.0,
            "by_cards": rows}
