"""The training example (``examples/train_baptisten.py``) in a test-sized run: PPO in
NumPy for a few dozen batches, then the policy file plays in the arena as a bot on
duplicate deals, and beats the random bot and the untrained network clearly."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from stich.arena import Match, run_match
from stich.baptisten import BaptistenRules
from stich.baptisten.state import BaptistenState
from stich.core import ArgumentError
from stich.env.policy import Policy, load_bot

EXAMPLE = Path(__file__).parents[2] / "examples" / "train_baptisten.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_baptisten", EXAMPLE)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["train_baptisten"] = mod
    spec.loader.exec_module(mod)
    return mod


def _against(path: Path, other: str, deals: int = 24) -> dict[str, object]:
    match = Match("baptisten", (f"file:{path}", other, other, other), deals=deals, seed=7)
    return run_match(match, jobs=1)


def test_a_short_training_beats_random_and_the_untrained_network(tmp_path: Path) -> None:
    train = _example()
    untrained = tmp_path / "untrained.npz"
    trained = tmp_path / "trained.npz"
    first = train.train(0, iterations=0, seed=0)
    first.save(untrained)
    net = train.train(0, iterations=30, seed=0)
    net.save(trained)
    assert net.meta["iterations"] == 30
    # the file keeps the network: the same probabilities after loading
    back = Policy.load(trained)
    obs = np.random.default_rng(1).standard_normal(back.meta["obs_size"]).astype(np.float32)
    mask = np.ones(back.meta["n_actions"], np.int8)
    assert np.allclose(back.probabilities(obs, mask), net.probabilities(obs, mask))
    after = _against(trained, "random")
    before = _against(untrained, "random")
    diff_after = after["difference"]["mean"]  # type: ignore[index]
    low_after = after["difference"]["low"]  # type: ignore[index]
    assert low_after > 0, after["difference"]  # clearly better than random, same deals
    assert diff_after > before["difference"]["mean"] + 20, (before, after)  # type: ignore[index]


def test_a_policy_file_that_is_not_one_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a policy")
    with pytest.raises(ArgumentError) as e:
        Match("baptisten", (f"file:{bad}", "random", "random"), deals=1)
    assert e.value.code == "arena.entry_point"
    with pytest.raises(ArgumentError):
        Match("baptisten", ("file:/no/such/file.npz", "random", "random"), deals=1)


def test_the_policy_bot_plays_legal_actions_in_a_whole_game(tmp_path: Path) -> None:
    """The bot of a policy file is handed views only, and its choices are legal."""
    path = tmp_path / "p.npz"
    _example().train(0, iterations=0, seed=3).save(path)
    bot = load_bot(str(path))
    rng = random.Random(1)
    state = BaptistenState.new(BaptistenRules(players=4), seed=5)
    while not state.is_over:
        v = state.view(state.to_move)
        a = bot.choose(v, rng)
        assert a in v.legal_actions
        state = state.apply(a)
