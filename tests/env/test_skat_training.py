"""The Skat training example (``examples/train_skat.py``) in a test-sized run: PPO in
NumPy for a few dozen batches against random bots, the Seeger–Fabian reward and the
bidding teacher; its card play as declarer improves in its own games, and its policy
file plays in the arena better than the untrained network does."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from stich.env.policy import Policy, load_bot
from stich.skat import SkatState
from stich.skat.rules import SkatRules

EXAMPLE = Path(__file__).parents[2] / "examples" / "train_skat.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_skat", EXAMPLE)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["train_skat"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_a_short_training_learns_to_win_its_games(tmp_path: Path) -> None:
    train = _example()
    tallies: list[Any] = []
    net = train.train(0, iterations=30, seed=0, on_batch=lambda _it, t: tallies.append(t))
    assert net.meta["iterations"] == 30 and len(tallies) == 30
    assert net.meta["game"] == "skat" and net.meta["adapter"]["scoring"] == "seeger"

    def won(batches: list[Any]) -> float:
        return sum(t.won for t in batches) / sum(t.declared for t in batches)

    first, last = won(tallies[:8]), won(tallies[-8:])
    assert sum(t.declared for t in tallies[-8:]) > 100  # it still declares (teacher or not)
    assert last > first + 0.1, (first, last)  # and wins its games more often
    trained = tmp_path / "trained.npz"
    net.save(trained)
    back = Policy.load(trained)
    obs = np.random.default_rng(1).standard_normal(back.meta["obs_size"]).astype(np.float32)
    mask = np.ones(back.meta["n_actions"], np.int8)
    assert np.allclose(back.probabilities(obs, mask), net.probabilities(obs, mask))
    untrained = tmp_path / "untrained.npz"
    train.train(0, iterations=0, seed=0).save(untrained)
    after = train.evaluate(str(trained), deals=30, seed=7)
    before = train.evaluate(str(untrained), deals=30, seed=7)
    assert after["difference"]["mean"] > before["difference"]["mean"], (before, after)
    assert after["difference"]["low"] > 0, after["difference"]
    # the figures by phase add up
    for f in after["phases"].values():
        assert f["declared"] + f["defended"] + f["not_declared"] == f["games"]


def test_the_trained_bot_plays_whole_games(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    _example().train(0, iterations=1, seed=2).save(path)
    bot = load_bot(str(path))
    rng = random.Random(3)
    for seed in range(5):
        state = SkatState.new(SkatRules.parse("lothar"), seed=seed)
        while not state.is_over:
            v = state.view(state.to_move)
            a = bot.choose(v, rng)
            assert a in v.legal_actions
            state = state.apply(a)
