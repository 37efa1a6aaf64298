"""How much a bot's inference knows: the log-likelihood it gives the true hidden cards.

A search bot samples *worlds* (deals of the cards its seat cannot see that agree with its
view) and may weigh them by how well each explains what the others bid, passed and played
(:func:`stich.bots.strong.weights.world_weight`).  Its belief is then ``P(world) = w(world) /
Σ w`` over the worlds that agree with the view.  The measure of that belief is the
log-probability it gives the world that was really dealt:

- uniform sampling gives every agreeing world ``1 / N``: ``log P = −log N``, where
  :func:`stich.bots.strong.count_worlds` counts ``N`` exactly;
- weighted, ``log P = log w(true) − log Σ w``, where the sum over all agreeing worlds is
  estimated as ``w(true) + (N − 1)·m``, ``m`` the mean weight of the other worlds among
  ``samples`` worlds drawn by :func:`stich.bots.strong.sample_world` (so the estimate is
  never below the true world's own weight: ``log P ≤ 0``, and equal weights give exactly
  ``−log N``).

The *gain* ``log w(true) − log E[w]`` (natural log, per decision) is what the weights add
over uniform sampling: above 0 they put more belief on the truth, below 0 less.  Averaged
by trick over many games it says where the inference helps (``bench/tuning/skat_inference.py``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from stich.bots.strong import World, count_worlds, sample_world
from stich.core import ArgumentError
from stich.skat.state import SkatState
from stich.skat.view import SkatView

__all__ = ["Belief", "InferenceLog", "true_world", "world_log_likelihood"]

Weight = Callable[[tuple[int, int, int]], float]
"""A world's weight, from the hands as they are now (the sampled or true ones)."""


def true_world(state: SkatState, seat: int) -> World:
    """The world that was really dealt, as :func:`sample_world` writes worlds for
    ``seat``'s view of ``state``: the hands as they are now, and the Skat (the cards put
    away after a pick-up; 0 while they are still in the declarer's hand)."""
    skat = 0 if state.phase_name == "DISCARD" else state.skat
    return state.hands, skat


@dataclass(frozen=True)
class Belief:
    """The log-probabilities (natural log) of the true world at one decision."""

    uniform: float  # −log N
    model: float  # log w(true) − log Σ w (estimated)

    @property
    def gain(self) -> float:
        return self.model - self.uniform


def world_log_likelihood(view: SkatView, world: World, weight: Weight,
                         rng: random.Random, samples: int = 200) -> Belief:
    """The belief a sampler weighted by ``weight`` gives ``world`` (the true one) at
    ``view``, against uniform sampling (see the module)."""
    if samples < 1:
        raise ArgumentError("bots.few_samples", given=samples)
    n = count_worlds(view)
    uniform = -math.log(n)
    w_true = weight(world[0])
    if w_true <= 0:
        return Belief(uniform, -math.inf)
    total = 0.0
    others = 0
    for _ in range(samples):
        w = sample_world(view, rng)
        if w != world:
            total += weight(w[0])
            others += 1
    whole = w_true + ((n - 1) * total / others if others else 0.0)
    return Belief(uniform, math.log(w_true) - math.log(whole))


@dataclass
class InferenceLog:
    """Beliefs collected by trick (0..9: the tricks finished before the decision)."""

    by_trick: dict[int, list[Belief]] = field(default_factory=dict)

    def add(self, trick: int, belief: Belief) -> None:
        self.by_trick.setdefault(trick, []).append(belief)

    def merge(self, other: InferenceLog) -> None:
        for t, bs in other.by_trick.items():
            self.by_trick.setdefault(t, []).extend(bs)

    def decisions(self) -> int:
        return sum(len(bs) for bs in self.by_trick.values())

    def mean_gain(self) -> float:
        """The mean gain over every decision (0 without any)."""
        n = self.decisions()
        return sum(b.gain for bs in self.by_trick.values() for b in bs) / n if n else 0.0

    def table(self) -> list[dict[str, float | int]]:
        """Per trick: decisions, mean log-likelihood uniform and weighted, the mean gain
        with its 95 % interval (normal approximation)."""
        rows: list[dict[str, float | int]] = []
        for t in sorted(self.by_trick):
            bs = self.by_trick[t]
            gains = [b.gain for b in bs]
            n = len(gains)
            mean = sum(gains) / n
            sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1)) if n > 1 else 0.0
            half = 1.96 * sd / math.sqrt(n) if n > 1 else 0.0
            rows.append({
                "trick": t, "decisions": n,
                "uniform": sum(b.uniform for b in bs) / n,
                "weighted": sum(b.model for b in bs) / n,
                "gain": mean, "gain_low": mean - half, "gain_high": mean + half,
            })
        return rows
