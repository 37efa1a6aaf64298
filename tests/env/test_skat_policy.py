"""Skat policies as bots (issue 44, point 3): the mapping between the engine's actions and
the environment's ids for a view, both ways; the Skat policy bot in the arena and in
`stich play`; the Seeger–Fabian reward a learner uses."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from stich.arena import Match, run_match
from stich.bots import make_bot
from stich.cli import app
from stich.core import ArgumentError
from stich.env.baptisten import BaptistenAdapter
from stich.env.policy import Policy, PolicyBot, load_bot
from stich.env.skat import DISCARD0, SkatAdapter
from stich.record import replay
from stich.skat import SkatState
from stich.skat.actions import Discard, Give
from stich.skat.rules import SkatRules

HOUSE = ("lothar", "isko",
         "skat(preset=lothar,kontra_re=yes,schieberamsch=yes,klopfen=yes,bock=lost_60+value72)",
         "skat(preset=lothar,revolution=yes,schenken=yes,spitze=yes)")


def _walk(a: SkatAdapter, seat: int, ids: tuple[int, ...]) -> object:
    """Follow the steps ``ids`` of one engine action as a bot does, each checked against
    the view's mask; the engine action the last step completes."""
    view = a.view(seat)
    pending, giving = -1, 0
    for k, i in enumerate(ids):
        assert a.view_mask(view, pending, giving)[i], (a.action_text(i), pending, giving)
        got = a.action_of_view(view, i, pending, giving)
        if k < len(ids) - 1:
            assert got is None
            if DISCARD0 <= i < DISCARD0 + 32:
                pending = i - DISCARD0
            else:
                giving |= 1 << (i - a.space.give0)
        else:
            return got
    raise AssertionError("no steps")


@pytest.mark.parametrize("rules", HOUSE)
def test_every_legal_action_maps_to_ids_and_back(rules: str) -> None:
    """Round trip on every legal action of many random positions: action → ids → action,
    and every id the mask offers → its action (or a card step) → the same id."""
    a = SkatAdapter(rules, games=3)
    rng = random.Random(rules)
    multi = 0
    for g in range(25):
        a.reset(g)
        while not a.over():
            seat = a.to_move()
            assert seat is not None
            view = a.view(seat)
            if a.pending < 0 and not a.giving:
                for action in view.legal_actions:
                    ids = a.action_ids(action)
                    multi += len(ids) > 1
                    assert _walk(a, seat, ids) == action
                    if len(ids) == 1:
                        assert a.action_index(action) == ids[0]
                    else:
                        assert isinstance(action, Discard | Give)
                        with pytest.raises(ValueError):
                            a.action_index(action)
                mask = a.view_mask(view)
                assert np.array_equal(mask, a.mask(seat))
                for i in np.flatnonzero(mask):
                    back = a.action_of_view(view, int(i))
                    if back is None:  # the first card of a discard or of a give
                        continue
                    assert back in view.legal_actions
                    assert a.action_ids(back) == (int(i),)
            # the mask and the observation of a view are the environment's own
            assert np.array_equal(a.view_mask(view, a.pending, a.giving), a.mask(seat))
            if a.played == 0:
                assert np.array_equal(a.encode(view, a.pending, a.giving), a.observe(seat))
            a.step(int(rng.choice(np.flatnonzero(a.mask(seat)))))
    assert multi > 0  # discards (and gives) were among them


def _skat_policy(path: Path, rules: str = "lothar", seed: int = 0) -> Path:
    a = SkatAdapter(rules)
    Policy.new(a.obs_size, a.n_actions, hidden=16, seed=seed,
               meta={"game": "skat", "adapter": {"rules": rules, "games": 1}}).save(path)
    return path


@pytest.mark.parametrize("rules", HOUSE)
@pytest.mark.parametrize("greedy", [True, False])
def test_a_skat_policy_bot_plays_legal_actions(tmp_path: Path, rules: str,
                                               greedy: bool) -> None:
    """Handed views only (claims offered too), the bot's choices are legal: discards
    and gives included, chosen card by card."""
    bot = load_bot(str(_skat_policy(tmp_path / "p.npz", rules, seed=4)), greedy=greedy)
    rng = random.Random(2)
    kinds: set[str] = set()
    for seed in range(12):
        state = SkatState.new(SkatRules.parse(rules), seed=seed)
        while not state.is_over:
            v = state.view(state.to_move)
            choice = bot.choose(v, rng)
            assert choice in v.legal_actions
            kinds.add(type(choice).__name__)
            state = state.apply(choice)
    assert "Card" in kinds


def test_the_bot_plays_what_the_network_prefers(tmp_path: Path) -> None:
    """Greedy: the id of the bot's action is the legal id of the highest logit."""
    path = _skat_policy(tmp_path / "p.npz", seed=9)
    bot = load_bot(str(path))
    a = SkatAdapter()
    state = SkatState.new(SkatRules(), seed=3)
    v = state.view(state.to_move)
    logits, _, _ = bot.policy.forward(a.encode(v))
    mask = a.view_mask(v)
    best = int(np.argmax(np.where(mask > 0, logits, -np.inf)))
    assert a.action_ids(bot.choose(v, random.Random(0))) == (best,)


def test_policy_files_play_in_the_arena_only_for_their_game(tmp_path: Path) -> None:
    skat = _skat_policy(tmp_path / "skat.npz")
    b = BaptistenAdapter(players=3)
    Policy.new(b.obs_size, b.n_actions, hidden=8,
               meta={"game": "baptisten", "adapter": {"players": 3}}).save(
                   tmp_path / "bap.npz")
    report = run_match(Match("skat", (f"file:{skat}", "random", "random"), deals=4, seed=1))
    assert report["games"] == 12
    assert report["by_name"][f"file:{skat}"]["decisions"] > 0
    with pytest.raises(ArgumentError):
        Match("skat", (f"file:{tmp_path / 'bap.npz'}", "random", "random"), deals=1)
    with pytest.raises(ArgumentError):
        Match("baptisten", (f"file:{skat}", "random", "random"), deals=1)
    # a file whose sizes are not its game's space is refused too
    Policy.new(10, 5, hidden=4, meta={"game": "skat"}).save(tmp_path / "small.npz")
    with pytest.raises(ValueError):
        PolicyBot(Policy.load(tmp_path / "small.npz"))


def test_stich_play_takes_policy_files(tmp_path: Path) -> None:
    """``stich play skat --bot file:…`` (one kind, or one per bot seat) plays the policy;
    a file of another game or an unknown kind is a usage error naming --bot."""
    path = _skat_policy(tmp_path / "p.npz")
    runner = CliRunner()
    for kind in (f"file:{path}", f"file:{path},random,easy"):
        result = runner.invoke(app, ["play", "skat", "--bots", "3", "--bot", kind, "--json",
                                     "--games", "3", "--seed", "5", "--no-save"])
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert len(lines) == 3
        for line in lines:
            replay(json.loads(line))
    for bad in ("file:/no/such.npz", "hard", "random,random"):
        result = runner.invoke(app, ["play", "skat", "--bots", "3", "--bot", bad, "--json",
                                     "--no-save"])
        assert result.exit_code == 2 and "--bot" in result.output, (bad, result.output)


def test_stich_play_baptisten_takes_policy_files(tmp_path: Path) -> None:
    b = BaptistenAdapter(players=3)
    path = tmp_path / "bap.npz"
    Policy.new(b.obs_size, b.n_actions, hidden=8,
               meta={"game": "baptisten", "adapter": {"players": 3}}).save(path)
    result = CliRunner().invoke(app, ["play", "baptisten", "--bots", "3", "--players", "3",
                                      "--bot", f"file:{path}", "--json", "--seed", "2",
                                      "--no-save"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)


def _defence(play: str, scoring: str, games: int = 300) -> list[float]:
    """The rewards of seat 0 in the games another seat declared, when it passes in every
    auction and then defends with the ``play`` bot, against two random bots, over
    ``games`` deals (the same deals for every ``play``)."""
    passer, player, other = make_bot("random"), make_bot(play), make_bot("random")
    a = SkatAdapter("lothar", games=1, scoring=scoring)
    pass_id = a.space.actions.index("pass")
    rng = random.Random(7)
    out = []
    for g in range(games):
        a.reset(g)
        got = 0.0
        while not a.over():
            seat = a.to_move()
            assert seat is not None
            v = a.view(seat)
            if seat == 0 and v.phase == "BIDDING":
                got += a.step(pass_id)[0]
                continue
            bot = (player if v.phase == "PLAY" else passer) if seat == 0 else other
            got += a.play_bot(bot, rng)[0]
        entry = a.table.games[-1]
        if entry.kind == "game":
            assert entry.declarer != 0
            out.append(got)
    return out


def test_the_seeger_reward_pays_for_defence() -> None:
    """The learner's reward (``scoring="seeger"``): under the list score a defender
    earns 0 however it plays (so a learner learns nothing of defence, and to pass
    everything); under Seeger–Fabian (40 for each defender of a lost game) the
    rule-based bot's defence earns clearly more than random defence on the same deals."""
    for play in ("random", "easy"):
        assert set(_defence(play, "list")) == {0.0}
    easy, rand = _defence("easy", "seeger"), _defence("random", "seeger")
    assert set(easy) == set(rand) == {0.0, 40.0}
    assert len(easy) > 150
    assert np.mean(easy) > np.mean(rand) + 3, (np.mean(easy), np.mean(rand))
