"""The learned Skat bot (:mod:`stich.bots.learned`): the shipped policy, read and played
by the standard library alone, chooses what the NumPy policy bot chooses; it plays whole
games at any rule set, and without NumPy."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from stich.bots.learned import POLICY, LearnedSkatBot, load_npz, skat_bot
from stich.skat import SkatState
from stich.skat.rules import SkatRules

np = pytest.importorskip("numpy")

HOUSE = ("skat(preset=lothar,kontra_re=yes,schieberamsch=yes,klopfen=yes)",
         "skat(preset=lothar,revolution=yes,schenken=yes,spitze=yes)", "isko")


def _random_policy(path: Path, seed: int) -> Path:
    from stich.env.policy import Policy
    from stich.env.skat import SkatAdapter

    a = SkatAdapter("lothar")
    net = Policy.new(a.obs_size, a.n_actions, hidden=24, seed=seed,
                     meta={"game": "skat", "adapter": {"rules": "lothar", "games": 1},
                           "actions": list(a.space.actions)})
    net.params["wp"] *= 100  # a new network's logits are tiny: no near-ties
    net.save(path)
    return path


def _positions(rules: SkatRules, games: int, seed: int) -> list[tuple[SkatState, int]]:
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = SkatState.new(rules, seed=seed * 1000 + g)
        while not state.is_over:
            out.append((state, state.to_move))
            state = state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_it_chooses_what_the_numpy_policy_bot_chooses(tmp_path: Path, seed: int) -> None:
    from stich.env.policy import Policy, PolicyBot

    path = _random_policy(tmp_path / "p.npz", seed)
    plain = LearnedSkatBot(path)
    numpy_bot = PolicyBot(Policy.load(path))
    rng = random.Random(0)
    phases: set[str] = set()
    for state, seat in _positions(SkatRules.parse("lothar"), 20, seed):
        view = state.view(seat)
        assert plain.choose(view, rng) == numpy_bot.choose(view, rng), view.phase
        phases.add(view.phase)
    assert {"BIDDING", "DISCARD", "DECLARE", "PLAY"} <= phases


def test_the_file_reads_as_numpy_reads_it(tmp_path: Path) -> None:
    from stich.env.policy import Policy

    path = _random_policy(tmp_path / "p.npz", 3)
    params, meta, shapes = load_npz(path)
    ref = Policy.load(path)
    assert meta == ref.meta
    for k, v in ref.params.items():
        assert shapes[k] == v.shape
        assert np.array_equal(np.array(params[k], np.float32), v.ravel())


def test_files_of_another_kind_are_refused(tmp_path: Path) -> None:
    from stich.env.policy import Policy

    Policy.new(4, 3, hidden=2, meta={"game": "baptisten"}).save(tmp_path / "b.npz")
    with pytest.raises(ValueError, match="baptisten"):
        LearnedSkatBot(tmp_path / "b.npz")
    Policy.new(4, 3, hidden=2, meta={"game": "skat"}).save(tmp_path / "s.npz")
    with pytest.raises(ValueError, match="actions"):
        LearnedSkatBot(tmp_path / "s.npz")
    (tmp_path / "x.npz").write_bytes(b"no zip")
    with pytest.raises(Exception):  # noqa: B017 (zipfile's own error)
        LearnedSkatBot(tmp_path / "x.npz")


def test_the_shipped_policy_is_the_trained_one() -> None:
    bot = skat_bot()
    assert bot is skat_bot()  # one network, shared
    assert bot.meta["game"] == "skat" and bot.meta["iterations"] > 100
    from importlib import resources

    size = resources.files("stich.bots").joinpath(POLICY).read_bytes()
    assert len(size) < 400_000  # package data kept small


@pytest.mark.parametrize("rules", ("lothar", *HOUSE))
def test_the_shipped_bot_plays_whole_games(rules: str) -> None:
    """Legal actions at every rule set (what its space lacks goes to the rule-based bot)."""
    bot = skat_bot()
    rng = random.Random(4)
    for seed in range(6):
        state = SkatState.new(SkatRules.parse(rules), seed=seed)
        while not state.is_over:
            view = state.view(state.to_move)
            a = bot.choose(view, rng)
            assert a in view.legal_actions
            state = state.apply(a)


def test_it_plays_without_numpy() -> None:
    """The site's install has no NumPy: the bot reads and plays its file all the same."""
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import random\n"
        "from stich.bots.learned import skat_bot\n"
        "from stich.skat import SkatState\n"
        "bot = skat_bot()\n"
        "s = SkatState.new(bot.rules, seed=5)\n"
        "while not s.is_over:\n"
        "    s = s.apply(bot.choose(s.view(s.to_move), random.Random(1)))\n"
        "assert 'numpy' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
        "print('ok', s.outcome().scores)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok")
