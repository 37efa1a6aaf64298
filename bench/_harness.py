"""What the benchmarks share: timed loops, OpenSpiel's side, alternating rounds; and the
settings of the paired A/B runs of the search bots.

Each engine is a function ``(seconds, rng) -> games played``; :func:`interleave` runs
them in alternating order round after round, so that all of them see the same machine
load, and returns games and seconds per engine.  An A/B run names a *setting* in JSON:
``skat_strong_ab.py`` of the fields of ``strong``'s settings object
(:func:`settings_from`: each setting its own bot, so both play in one process),
``baptisten_strong_ab.py`` of a bot module's constants (:func:`setting`, switched between
two with :func:`apply_setting`).
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

Engine = Callable[[float, random.Random], int]
Settings = TypeVar("Settings")


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


# --- paired A/B runs of a search bot's settings ------------------------------------------


def frozen() -> float:
    """A clock that does not move (with a fixed number of worlds: the same decisions on
    any machine)."""
    return 0.0


def settings_from(text: str, defaults: Settings) -> tuple[Settings, int | None]:
    """A settings object (a frozen dataclass) from JSON: ``defaults`` with the fields
    named there replaced (lists become tuples), and the optional ``"worlds"``; an unknown
    name ends the run with a message."""
    over = {k: _tuples(v) for k, v in json.loads(text).items()}
    worlds = over.pop("worlds", None)
    fields = {f.name for f in dataclasses.fields(defaults)}  # type: ignore[arg-type]
    unknown = sorted(set(over) - fields)
    if unknown:
        raise SystemExit(f"not a setting of {type(defaults).__name__}: {', '.join(unknown)}"
                         f" (the settings: {', '.join(sorted(fields))})")
    return dataclasses.replace(defaults, **over), worlds  # type: ignore[type-var]


def constants(module: ModuleType) -> dict[str, Any]:
    """The public module constants (upper-case names) of a bot module, as they are now."""
    return {k: getattr(module, k) for k in dir(module) if k.isupper() and not k.startswith("_")}


def _tuples(v: Any) -> Any:
    return tuple(_tuples(x) for x in v) if isinstance(v, list) else v


def setting(text: str, module: ModuleType, defaults: dict[str, Any]) -> dict[str, Any]:
    """A setting of ``module``'s constants from JSON (lists become tuples), plus an
    optional ``"worlds"``; an unknown name ends the run with a message."""
    out = {k: _tuples(v) for k, v in json.loads(text).items()}
    unknown = sorted(set(out) - set(defaults) - {"worlds"})
    if unknown:
        raise SystemExit(f"not a constant of {module.__name__}: {', '.join(unknown)}")
    return out


def apply_setting(module: ModuleType, defaults: dict[str, Any], over: dict[str, Any]) -> None:
    """Set ``module``'s constants to ``defaults`` updated by ``over`` (not ``worlds``)."""
    for k, v in {**defaults, **over}.items():
        if k != "worlds":
            setattr(module, k, v)
