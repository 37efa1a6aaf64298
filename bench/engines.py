"""What the speed scripts that race engines share (``bench.speed.skat_playouts``,
``baptisten_playouts``, ``env_steps``): timed loops, OpenSpiel's side, alternating rounds.

Each engine is a function ``(seconds, rng) -> games played``; :func:`interleave` runs
them in alternating order round after round, so that all of them see the same machine
load, and returns games and seconds per engine.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

Engine = Callable[[float, random.Random], int]


def have_openspiel() -> bool:
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        print("open_spiel not installed: measuring stich only (pip install open-spiel)")
        return False
    return True


def openspiel_engine(name: str, params: dict[str, int] | None = None) -> Engine:
    """Random games of an OpenSpiel game from Python: chance nodes sampled from
    ``chance_outcomes()``, player nodes uniform over ``legal_actions()``, then
    ``returns()``."""

    def play(seconds: float, rng: random.Random) -> int:
        import pyspiel

        game = pyspiel.load_game(name, params or {})
        choice = rng.choice
        n = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(20):
                s = game.new_initial_state()
                while not s.is_terminal():
                    if s.is_chance_node():
                        s.apply_action(choice(s.chance_outcomes())[0])
                    else:
                        s.apply_action(choice(s.legal_actions()))
                s.returns()
                n += 1
        return n

    return play


def interleave(engines: list[tuple[str, Engine]], seconds: float, rounds: int,
               rng: random.Random) -> dict[str, tuple[int, float]]:
    """Games and elapsed seconds per engine, over alternating rounds."""
    totals = {name: (0, 0.0) for name, _ in engines}
    for r in range(rounds):
        order = engines if r % 2 == 0 else engines[::-1]
        for name, fn in order:
            t0 = time.perf_counter()
            n = fn(seconds, rng)
            games, el = totals[name]
            totals[name] = (games + n, el + time.perf_counter() - t0)
    return totals


def rate(total: tuple[int, float]) -> float:
    return total[0] / total[1]
