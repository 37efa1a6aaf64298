"""Skat's half of the arena (:mod:`stich.arena`, asked through
:class:`stich.games.skat.SkatGame`): one game per deal and rotation, a fresh
:class:`~stich.skat.SkatState` scored by its outcome (the change of each seat's list
score, as the Skat list of :class:`~stich.skat_list.SkatList` records it); the figures of
the declared games, strong's belief in the true cards by trick, and the calibration of
the chances the declarer gave its game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from stich.core import ArgumentError
from stich.games.played import (
    INFERENCE_SAMPLES,
    ArenaDeal,
    PlayedGame,
    SeatResult,
    bucket_rows,
    timed,
)
from stich.skat import SkatState
from stich.skat.outcome import SkatOutcome

__all__ = ["CHANCE_BUCKETS", "calibration", "check", "figures", "game_kind", "inference",
           "play"]

CHANCE_BUCKETS = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
"""The bounds of the calibration table's chance buckets (the last one includes 1)."""


def check(rules: Any, seats: int) -> None:
    """Skat is played by three bots."""
    if seats != 3:
        raise ArgumentError("arena.skat_three", n=seats)


def game_kind(outcome: SkatOutcome) -> str:
    """The kind of a declared game for the figures: ``suit``, ``grand`` or ``null``, then
    ``ouvert`` and ``hand`` where they apply (``null ouvert hand``)."""
    game = outcome.game
    assert game is not None
    name = "suit" if game.is_suit else game.value
    return name + " ouvert" * outcome.ouvert + " hand" * outcome.hand


def play(deal: ArenaDeal) -> str:
    """One game of ``deal``, its seats' results filled in; the deal's cards as text."""
    by_seat = deal.seats
    skat_bots = [deal.make(name) for name in deal.names]
    chooses = [timed(b.choose, r.times) for b, r in zip(skat_bots, by_seat, strict=True)]
    state = SkatState.new(deal.rules, seed=deal.seed)
    hands, skat = state.deal
    cards = f"{hands[0]:x}/{hands[1]:x}/{hands[2]:x}/{skat:x}"
    while not state.is_over:
        s = state.to_move
        view = state.view(s)
        if (deal.inference and deal.names[s] == "strong"
                and view.phase == "PLAY" and view.declarer >= 0):
            by_seat[s].beliefs.append(_belief(state, view, deal.measure))
        state = state.apply(chooses[s](view, deal.rngs[s]))
    outcome = state.outcome()
    for s, r in enumerate(by_seat):
        r.score = outcome.scores[s]
        if outcome.kind == "game" and outcome.declarer == s:
            r.declared, r.won, r.game = True, outcome.won, game_kind(outcome)
            kept: list[tuple[str, float]] = getattr(skat_bots[s], "estimates", [])
            for phase in ("bid", "declare"):
                last = [p for ph, p in kept if ph == phase]
                if last:
                    r.estimates.append((phase, last[-1]))
    return cards


def _belief(state: SkatState, view: Any, rng: random.Random) -> tuple[int, float, float]:
    """What ``strong``'s world weights believe of the true cards at ``view``."""
    from stich.bots.inference import true_world, world_log_likelihood
    from stich.bots.strong import world_weigher

    b = world_log_likelihood(view, true_world(state, view.seat),
                             world_weigher(view, state.rules), rng, INFERENCE_SAMPLES)
    return (len(view.tricks), b.uniform, b.model)


def figures(seats: Sequence[SeatResult]) -> dict[str, Any]:
    """The declared games of ``seats`` (pooled): how many, how many won, by kind."""
    declared = won = 0
    kinds: dict[str, list[int]] = {}
    for r in seats:
        declared += r.declared
        won += r.won
        if r.declared:
            kinds.setdefault(r.game, [0, 0])
            kinds[r.game][0] += 1
            kinds[r.game][1] += r.won
    n_games = len(seats)
    return dict(declared=declared, declarer_won=won,
                declarer_win_rate=round(won / declared, 4) if declared else None,
                by_game={kind: {"declared": n, "share": round(n / n_games, 4),
                                "won": w, "win_rate": round(w / n, 4)}
                         for kind, (n, w) in sorted(kinds.items(),
                                                    key=lambda kv: -kv[1][0])})


def calibration(games: Sequence[PlayedGame], entries: set[int]) -> dict[str, Any]:
    """The games the entries declared, by the chance their bot gave its game (at its last
    bid and at the declaration) against how often it was won: is the estimate right?"""
    out: dict[str, Any] = {"games": 0}
    for phase in ("bid", "declare"):
        rows = bucket_rows([(p, r.won) for g in games for r in g.seats
                            if r.entry in entries and r.declared
                            for ph, p in r.estimates if ph == phase], CHANCE_BUCKETS)
        out[phase] = rows
        out["games"] = max(out["games"], sum(int(r["games"]) for r in rows))
    return out


def inference(games: Sequence[PlayedGame]) -> dict[str, Any]:
    """Per trick, the log-likelihood ``strong`` gives the true cards, uniform and
    weighted, and the gain (:class:`stich.bots.inference.InferenceLog`)."""
    from stich.bots.inference import Belief, InferenceLog

    log = InferenceLog()
    for g in games:
        for r in g.seats:
            for trick, uniform, model in r.beliefs:
                log.add(trick, Belief(uniform, model))
    rows = log.table()
    return {"bot": "strong", "samples": INFERENCE_SAMPLES, "decisions": log.decisions(),
            "mean_gain": round(log.mean_gain(), 4),
            "by_trick": [{k: round(v, 4) if isinstance(v, float) else v
                          for k, v in r.items()} for r in rows]}
