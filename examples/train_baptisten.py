"""Train a small Baptistenskat policy with PPO and action masking, in plain NumPy on the
CPU, against `stich` bots; then measure it in the arena on duplicate deals.

    python examples/train_baptisten.py --minutes 10 --out policy.npz
    stich arena baptisten --bots file:policy.npz,random,random,random --deals 500

One learning seat (it moves around the table from episode to episode) plays against
bots (``--opponents random`` by default); an episode is one round (``whole_game=False``)
and its reward the seat's score of that round.  PPO (Schulman et al., 2017): clipped
surrogate, a value head on the same body, generalised advantage estimation, an entropy
bonus, Adam; the gradient is written out by hand for the two-layer tanh network of
:class:`stich.env.policy.Policy` (masked softmax: illegal actions get no probability and
no gradient), in :mod:`stich.env.ppo` (shared with ``examples/train_skat.py``).  Results
of the full run are in docs/env.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

from stich.env.gym import SingleSeat
from stich.env.policy import Policy
from stich.env.ppo import Adam, Settings, collect, update

ADAPTER = {"players": 4, "whole_game": False}  # the default rules: 4 players


def default_settings() -> Settings:
    """The example's PPO settings (:class:`stich.env.ppo.Settings`: Baptistenskat round
    scores are tens of points)."""
    return Settings(hidden=128, reward_scale=0.02)


def train(seconds: float, *, opponents: str = "random", seed: int = 0,
          settings: Settings | None = None, log: Any = None,
          iterations: int | None = None) -> Policy:
    """Train for ``seconds`` (or exactly ``iterations`` batches: reproducible whatever
    the machine's speed) and return the policy."""
    s = settings or default_settings()
    envs = [SingleSeat("baptisten", seat=i, bots=opponents, **ADAPTER)
            for i in range(ADAPTER["players"])]
    game = envs[0].game
    net = Policy.new(game.obs_size, game.n_actions, s.hidden, seed,
                     meta={"game": "baptisten", "adapter": ADAPTER,
                           "name": f"ppo-{opponents}", "opponents": opponents})
    opt = Adam(net.params, s.lr)
    rng = np.random.default_rng(seed)
    start = time.monotonic()
    it = 0
    while (it < iterations) if iterations is not None else \
            (time.monotonic() - start < seconds):
        batch = collect(net, envs, s.episodes_per_batch, rng,
                        seed * 1_000_003 + it * s.episodes_per_batch, s)
        update(net, opt, batch, s, rng)
        it += 1
        if log is not None:
            log(f"iteration {it}: {time.monotonic() - start:5.0f} s, "
                f"score per round {batch['score']:+.1f}")
    net.meta["iterations"] = it
    net.meta["seconds"] = round(time.monotonic() - start)
    return net


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--opponents", default="random", choices=["random", "easy"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--iterations", type=int, default=None,
                    help="train exactly this many batches instead of --minutes")
    ap.add_argument("--out", default="policy.npz")
    args = ap.parse_args(argv)
    net = train(args.minutes * 60, opponents=args.opponents, seed=args.seed,
                log=lambda line: print(line, file=sys.stderr), iterations=args.iterations)
    net.save(args.out)
    print(f"saved {args.out} after {net.meta['iterations']} iterations")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
