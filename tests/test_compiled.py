"""The engines' compiled modules (mypyc) and their Python source give the same games.

CI installs the package with a compiler and exports ``STICH_REQUIRE_C=1``: there the
engine modules must really be compiled.  ``STICH_PURE_PYTHON=1`` loads the ``.py``
files instead (the fallback of an install without a compiler); CI runs the engine tests
a second time that way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from stich._compiled import ENGINE_MODULES, engines_compiled, pure_python, source_path

# Plays seeded random games through the public API and prints, per game, the actions
# and the outcome: the same program in a compiled and a pure-Python interpreter.
GAMES = r"""
import json, random, sys
from stich._compiled import ENGINE_MODULES
import importlib
from stich.skat import SkatRules, SkatState
from stich.baptisten import BaptistenRules, BaptistenState
from stich.skat.observation import encode

out = {"files": [importlib.import_module(m).__file__ for m in ENGINE_MODULES], "games": []}
rng = random.Random(11)
for preset in ("lothar", "isko"):
    rules = SkatRules.preset(preset)
    for seed in range(150):
        s = SkatState.new(rules, seed=seed)
        seen = []  # every seat's view and its observation (stich.skat.observation)
        while True:
            for seat in range(3):
                v = s.view(seat)
                obs, scalars = encode(v, -1, seed % 3, 3, (seed, -seed, 7))
                seen.append([repr(v), obs.hex(), scalars])
            if s.is_over:
                break
            s = s.apply(rng.choice(s.legal_actions()))
        o = s.outcome()
        out["games"].append([str(a) for a in s.history] + [repr(o)] + seen)
for rules in (BaptistenRules(players=3, max_cards=5),
              BaptistenRules(players=4, max_cards=10),
              BaptistenRules(players=7, max_cards=6, forehead=True, hook_always=True),
              BaptistenRules(deck="romme-double-joker", players=15, max_cards=4,
                             must_overtrump=True),
              BaptistenRules(players=5, max_cards=8, trick_scoring=True),
              BaptistenRules.preset("ohhell")):
    for seed in range(4):
        s = BaptistenState.new(rules, seed=seed)
        while not s.is_over:
            s = s.apply(rng.choice(s.legal_actions()))
        out["games"].append([str(a) for a in s.history] + [repr(s.outcome())])
json.dump(out, sys.stdout)
"""


def run_games(pure: bool) -> dict[str, list[object]]:
    env = {k: v for k, v in os.environ.items() if k != "STICH_PURE_PYTHON"}
    if pure:
        env["STICH_PURE_PYTHON"] = "1"
    done = subprocess.run([sys.executable, "-c", GAMES], env=env, capture_output=True,
                          text=True, check=True, timeout=600)
    result: dict[str, list[object]] = json.loads(done.stdout)
    return result


def test_engines_are_compiled_when_required() -> None:
    if os.environ.get("STICH_REQUIRE_C") == "1" and not pure_python():
        assert engines_compiled(), "STICH_REQUIRE_C=1 but the engine modules are not compiled"


def test_compiled_and_pure_engines_play_the_same_games() -> None:
    pure = run_games(pure=True)
    default = run_games(pure=False)
    assert all(str(f).endswith(".py") for f in pure["files"]), pure["files"]
    if os.environ.get("STICH_REQUIRE_C") == "1":
        assert not any(str(f).endswith(".py") for f in default["files"]), default["files"]
    assert len(pure["games"]) == 2 * 150 + 6 * 4
    assert default["games"] == pure["games"]


def test_every_engine_module_has_its_source() -> None:
    # the pure-Python fallback needs each listed module's .py beside the compiled one
    repo = Path(__file__).resolve().parents[1]
    for name in ENGINE_MODULES:
        assert (repo / source_path(name)).is_file(), name


def test_every_view_survives_pickling() -> None:
    """The bot workers (separate processes) receive the seat's view pickled
    (``stich.server.workers``): the views of both engines must come back equal, compiled
    or not (the Baptistenskat view, a frozen dataclass, compiled with mypyc did not:
    FrozenInstanceError in every worker)."""
    import pickle
    import random

    from stich.baptisten import BaptistenRules, BaptistenState
    from stich.skat import SkatRules, SkatState

    rng = random.Random(3)
    for make in (lambda seed: SkatState.new(SkatRules.preset("lothar"), seed=seed),
                 lambda seed: BaptistenState.new(BaptistenRules.parse(
                     "baptisten(preset=default,players=4)"), seed=seed)):
        for seed in range(3):
            s: object = make(seed)
            for _ in range(40):
                for seat in range(3):
                    v = s.view(seat)  # type: ignore[attr-defined]
                    assert repr(pickle.loads(pickle.dumps(v))) == repr(v), type(v)
                if s.is_over:  # type: ignore[attr-defined]
                    break
                s = s.apply(rng.choice(s.legal_actions()))  # type: ignore[attr-defined]
