"""Environment steps per second: `stich.env` against OpenSpiel's ``skat`` and
``oh_hell`` stepped through their Python API, side by side in one run.

One *step* is what a learner's loop does per decision: read the observation of the
player to move and its legal actions, choose one (uniformly at random here), apply it.

- ``stich skat`` / ``stich baptisten``: :class:`stich.env.vector.VectorGames` with
  ``--batch`` games (Lothar's Skat; Baptistenskat's ``ohhell`` preset, 3 players, as
  close to OpenSpiel's ``oh_hell`` as the rules go): :meth:`observe` (observations and
  masks of every game into one array), a random legal action per game from the masks,
  :meth:`step` (finished games start again).  Skat goes through the compiled fast path
  (:mod:`stich.env.fast_skat`); ``stich skat loop`` is the same with ``fast=False`` (the
  adapters' loop), measured beside it.
- ``openspiel skat`` / ``openspiel oh_hell``: ``pyspiel.load_game(name)`` with its
  defaults, per decision ``observation_tensor(player)`` and ``legal_actions()``, then
  ``apply_action``; chance nodes (the deal) are sampled from ``chance_outcomes()`` and
  not counted as steps.

The engines run in alternating order round after round (:mod:`bench.engines`), so all
see the same machine load; the ratios are what to compare between machines.

The targets printed are issue 44's: 1.5 × OpenSpiel, and for Skat with a batch of 256 or
more 5 ×.

Run: ``python -m bench.speed.env_steps [--seconds 2] [--rounds 5] [--batch 32]``
"""

from __future__ import annotations

import argparse
import os
import random
import time

from bench.engines import Engine, have_openspiel, interleave, rate


def stich_engine(game: str, batch: int, fast: bool | None = None, **kwargs: object) -> Engine:
    def run(seconds: float, rng: random.Random) -> int:
        import numpy as np

        from stich.env.vector import VectorGames

        v = VectorGames(game, batch, seed=rng.getrandbits(32), fast=fast, **kwargs)
        gen = np.random.default_rng(rng.getrandbits(32))
        steps = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(10):
                _, masks, _ = v.observe()
                # a random legal action per game, from the masks, in one go
                scores = gen.random(masks.shape) * masks
                v.step(scores.argmax(axis=1))
                steps += batch
        return steps

    return run


def observer_of(game: object) -> object:
    """The observation OpenSpiel's game gives a learner: its observation tensor, else
    its information-state tensor, else its observation string (``skat`` declares a
    tensor but its shape is unimplemented; ``oh_hell`` has the information state)."""
    probe = game.new_initial_state()  # type: ignore[attr-defined]
    while probe.is_chance_node():
        probe.apply_action(probe.chance_outcomes()[0][0])
    for method in ("observation_tensor", "information_state_tensor", "observation_string"):
        try:
            getattr(probe, method)(probe.current_player())
        except Exception:  # pyspiel.SpielError: not implemented for this game
            continue
        return lambda s, p, m=method: getattr(s, m)(p)
    raise RuntimeError("no observation of any kind")


def openspiel_engine(name: str) -> Engine:
    def run(seconds: float, rng: random.Random) -> int:
        import pyspiel  # type: ignore[import-not-found]

        game = pyspiel.load_game(name)
        observe = observer_of(game)
        choice = rng.choice
        steps = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(5):
                s = game.new_initial_state()
                while not s.is_terminal():
                    if s.is_chance_node():
                        s.apply_action(choice(s.chance_outcomes())[0])
                        continue
                    observe(s, s.current_player())
                    s.apply_action(choice(s.legal_actions()))
                    steps += 1
        return steps

    return run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="per engine and round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--batch", type=int, default=32, help="games per VectorGames")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    skat_target = 5.0 if args.batch >= 256 else 1.5
    pairs = [("skat", stich_engine("skat", args.batch, rules="lothar"),
              openspiel_engine("skat"), skat_target),
             ("skat loop / skat",
              stich_engine("skat", args.batch, fast=False, rules="lothar"), None, None),
             ("baptisten / oh_hell",
              stich_engine("baptisten", args.batch, rules="ohhell", players=3),
              openspiel_engine("oh_hell"), 1.5)]
    engines: list[tuple[str, Engine]] = []
    openspiel = have_openspiel()
    for label, ours, theirs, _ in pairs:
        engines.append((f"stich {label.split(' / ')[0]}", ours))
        if openspiel and theirs is not None:
            engines.append((f"openspiel {label.split(' / ')[-1]}", theirs))
    load_before = os.getloadavg()[0]
    totals = interleave(engines, args.seconds, args.rounds, random.Random(args.seed))
    load_after = os.getloadavg()[0]
    print(f"load average before {load_before:.2f}, after {load_after:.2f}; "
          f"{args.rounds} rounds of {args.seconds:g} s per engine, batch {args.batch}")
    for name, _ in engines:
        print(f"{name:22s} {rate(totals[name]):10,.0f} steps/s")
    if openspiel:
        for label, _, _, target in pairs:
            ours_name = f"stich {label.split(' / ')[0]}"
            theirs_name = f"openspiel {label.split(' / ')[-1]}"
            ratio = rate(totals[ours_name]) / rate(totals[theirs_name])
            print(f"ratio {ours_name} / {theirs_name}: {ratio:.2f}"
                  + (f" (target ≥ {target:g})" if target is not None else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
