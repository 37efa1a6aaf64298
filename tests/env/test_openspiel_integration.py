"""stich.env.openspiel with OpenSpiel's own machinery: serialization and pickling, the
whole state as ``str``, public observers, the terminal-reward form of Baptistenskat
(OpenSpiel's MCTS), and the sizes docs/env.md gives."""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from stich.cards import format_cards  # noqa: E402
from stich.env import openspiel as osp  # noqa: E402  (after the import check)
from tests.env.test_openspiel import GAMES, HOUSE, REV, SMALL  # noqa: E402

PUBLIC = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                    private_info=pyspiel.PrivateInfoType.NONE)
PUBLIC_RECALL = pyspiel.IIGObservationType(perfect_recall=True, public_info=True,
                                           private_info=pyspiel.PrivateInfoType.NONE)
ONE = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                 private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)
ONE_RECALL = pyspiel.IIGObservationType(perfect_recall=True, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)
TERMINAL = {**SMALL, "rewards": "terminal"}
# the games whose steps are pickled (games, every how many steps): every step, but in
# the default Baptistenskat (4 players, up to 7 cards: some 900 steps, each copy replays
# its history) every 7th and the last
PICKLED = [("python_stich_skat", {}, 3, 1), ("python_stich_skat", {"rules": HOUSE[0]}, 3, 1),
           ("python_stich_skat", {"rules": REV}, 3, 1), ("python_stich_baptisten", SMALL, 3, 1),
           ("python_stich_baptisten", GAMES[3][1], 2, 1), ("python_stich_baptisten", {}, 1, 7),
           ("python_stich_baptisten", TERMINAL, 2, 1)]


def _step(state: Any, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def _assert_same(a: Any, b: Any) -> None:
    """Two states alike in everything OpenSpiel asks of them."""
    n = a.get_game().num_players()
    assert str(a.get_game()) == str(b.get_game())
    assert str(a) == str(b)
    assert a.history() == b.history() == a._c.hist == b._c.hist
    assert a.move_number() == b.move_number()
    assert a.current_player() == b.current_player()
    assert a.returns() == b.returns()
    assert a.rewards() == b.rewards()
    if a.is_chance_node():
        assert a.chance_outcomes() == b.chance_outcomes()
    elif not a.is_terminal():
        assert a.legal_actions() == b.legal_actions()
    for p in range(n):
        assert np.array_equal(a.observation_tensor(p), b.observation_tensor(p))
        assert np.array_equal(a.information_state_tensor(p), b.information_state_tensor(p))
        assert a.observation_string(p) == b.observation_string(p)
        assert a.information_state_string(p) == b.information_state_string(p)


# --- serialization and pickling ---------------------------------------------------------


def test_random_sim_with_serialization_of_the_terminal_form() -> None:
    """(``tests/env/test_openspiel.py`` runs it on the other games.)"""
    game = pyspiel.load_game("python_stich_baptisten", TERMINAL)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "params", "games", "every"), PICKLED)
def test_every_step_pickles(name: str, params: dict[str, Any], games: int,
                            every: int) -> None:
    """At every step of random games the state survives ``pickle`` and OpenSpiel's
    ``serialize_game_and_state`` unchanged, and the game goes on from the copy (the
    copies are what is played on, so a copy that went wrong later would show)."""
    game = pyspiel.load_game(name, params)
    rng = random.Random(name + str(params))
    checked = 0
    for _ in range(games):
        state = game.new_initial_state()
        step = 0
        while True:
            if step % every == 0 or state.is_terminal():
                copy = pickle.loads(pickle.dumps(state))
                _assert_same(state, copy)
                game2, copy2 = pyspiel.deserialize_game_and_state(
                    pyspiel.serialize_game_and_state(game, state))
                assert str(game2) == str(game)
                _assert_same(state, copy2)
                state = copy
                checked += 1
            if state.is_terminal():
                break
            _step(state, rng)
            step += 1
    assert checked > 30 * games


@pytest.mark.parametrize(("name", "params"), [*GAMES, ("python_stich_baptisten", TERMINAL)])
def test_game_pickles_and_its_string_loads(name: str, params: dict[str, Any]) -> None:
    """A game pickles, and its string loads the same game (a rule string ending in ``)``
    would be read as a game parameter by OpenSpiel: the game keeps a blank after it)."""
    game = pyspiel.load_game(name, params)
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game)
    assert str(again) == str(game)
    assert again.get_type().reward_model == game.get_type().reward_model
    loaded = pyspiel.load_game(str(game))
    assert str(loaded) == str(game)
    assert loaded.observation_tensor_size() == game.observation_tensor_size()
    assert loaded.num_distinct_actions() == game.num_distinct_actions()
    assert again.new_initial_state().legal_actions() == game.new_initial_state().legal_actions()


# --- the whole state as str -------------------------------------------------------------


def _worlds(state: Any, rng: random.Random) -> Any:
    """A state of another deal with the same public history: resampled for every
    player in turn (each keeps what one player knows, so all keep the public part)."""
    for p in range(state.get_game().num_players()):
        state = state.resample(p, rng)
    return state


def _hidden(state: Any) -> Any:
    """Where the cards are: every seat's as dealt and held now, the Skat (Skat); the
    round's deal and the cards held now (Baptistenskat: earlier rounds are played out)."""
    c = state._c
    st = c.st
    if isinstance(c, osp._SkatCore):
        return tuple(c.dealt) if st is None else (st.deal, st.hands, st.skat, c.pending)
    if st is None or c.dealing:
        return tuple(c.hands)
    return st.deals[st.round_index], st.hands


@pytest.mark.parametrize(("name", "params"), [GAMES[0], GAMES[2], GAMES[3], GAMES[4],
                                              GAMES[5], GAMES[7]])
def test_str_shows_the_hidden_cards(name: str, params: dict[str, Any]) -> None:
    """``str(state)`` is the whole state: two states with the same public history and
    other cards print differently; the same cards print the same."""
    game = pyspiel.load_game(name, params)
    rng = random.Random(21)
    differ = 0
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal() and rng.random() > 0.03:
            _step(state, rng)
        if state.is_terminal():
            continue
        for _ in range(3):
            other = _worlds(state, rng)
            if _hidden(other) != _hidden(state):
                assert str(other) != str(state)
                differ += 1
            else:
                assert str(other) == str(state)
    assert differ > 20


def test_baptisten_str_names_every_hand() -> None:
    game = pyspiel.load_game("python_stich_baptisten", SMALL)
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        _step(state, rng)
    text = str(state)
    st = state._c.st
    for q in range(3):
        assert f"player_{q} holds {game.deck.format(st.hands[q])}" in text
    assert game.deck.cards[st.deals[0].trump_card].code in text


# --- observers --------------------------------------------------------------------------


def _observe(obs: Any, state: Any, player: int) -> tuple[Any, str]:
    obs.set_from(state, player)
    return obs.tensor.copy(), obs.string_from(state, player)


@pytest.mark.parametrize(("name", "params"), [GAMES[0], GAMES[1], GAMES[2], GAMES[3],
                                              GAMES[4], GAMES[5], GAMES[6], GAMES[7]])
def test_public_observer_has_no_private_cards(name: str, params: dict[str, Any]) -> None:
    """An observer of the public information (``private_info`` NONE) gives the same
    tensor and string in every deal with the same public history (every hidden card
    drawn anew, the player's own ones too); its tensor is the player's observation with
    the private slots at 0; SINGLE_PLAYER is the game's own observation."""
    game = pyspiel.load_game(name, params)
    n = game.num_players()
    public = [make_observation(game, t) for t in (PUBLIC, PUBLIC_RECALL)]
    single = [make_observation(game, t) for t in (ONE, ONE_RECALL)]
    layout = (game.space.obs_layout if name == "python_stich_skat"
              else game.encoder.OBS_LAYOUT)
    private = osp.SKAT_PRIVATE_SLOTS if name == "python_stich_skat" \
        else osp.BAPTISTEN_PRIVATE_SLOTS
    offsets: dict[str, tuple[int, int]] = {}
    pos = 0
    for slot, width in layout:
        offsets[slot] = (pos, pos + width)
        pos += width
    rng = random.Random(name + str(params))
    checked = private_seen = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal() and rng.random() > 0.04:
            _step(state, rng)
        other = _worlds(state, rng)
        for p in range(n):
            own = np.array(state.observation_tensor(p), np.float32)
            for obs in public:
                a, a_text = _observe(obs, state, p)
                b, b_text = _observe(obs, other, p)
                assert np.array_equal(a, b), (p, str(state))
                assert a_text == b_text
                assert not any(f" {slot}:" in a_text for slot in private)
                assert not a_text.startswith(f"p{p} hand ")
                assert " see " not in a_text and " partner " not in a_text
            tensor, _ = _observe(public[0], state, p)
            masked = own.copy()
            for slot in private & set(offsets):
                lo, hi = offsets[slot]
                masked[lo:hi] = 0.0
                assert not tensor[lo:hi].any()
            assert np.array_equal(tensor, masked)
            private_seen += not np.array_equal(tensor, own)
            t, s = _observe(single[0], state, p)
            assert np.array_equal(t, own) and s == state.observation_string(p)
            t, s = _observe(single[1], state, p)
            assert np.array_equal(t, state.information_state_tensor(p))
            assert s == state.information_state_string(p)
            checked += 1
    assert checked > 20 and private_seen > 10


def test_public_observer_of_skat_hides_discards_and_own_hand() -> None:
    """Skat's public information state: discards as ``discard ?`` (the declarer's own
    too), a pick-up without the Skat, no hand; the perfect-recall tensor does not count
    the player's discards."""
    game = pyspiel.load_game("python_stich_skat")
    rng = random.Random(9)
    obs = make_observation(game, PUBLIC_RECALL)
    seen = 0
    for _ in range(80):
        state = game.new_initial_state()
        while not state.is_terminal():
            _step(state, rng)
            st = state._c.st
            if st is not None and st.phase.name == "PLAY":
                break
        st = state._c.st
        if st is None or st.declarer < 0 or not st.picked_up:
            continue
        d = st.declarer
        tensor, text = _observe(obs, state, d)
        picked = f"{d}:pickup {format_cards(st.deal[1])}"
        assert picked in state.information_state_string(d) and picked not in text
        assert f"{d}:discard ? {d}:discard ?" in text
        assert not text.startswith(f"p{d} hand")
        base = game.obs_size
        assert not tensor[base + osp.sk.DISCARD0:base + osp.sk.DISCARD0 + 32].any()
        own = np.array(state.information_state_tensor(d), np.float32)
        assert own[base + osp.sk.DISCARD0:base + osp.sk.DISCARD0 + 32].sum() == 2
        seen += 1
    assert seen > 10


@pytest.mark.parametrize("name", ["python_stich_skat", "python_stich_baptisten"])
def test_unsupported_observers_are_refused(name: str) -> None:
    game = pyspiel.load_game(name)
    every = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                       private_info=pyspiel.PrivateInfoType.ALL_PLAYERS)
    with pytest.raises(ValueError, match="ALL_PLAYERS"):
        make_observation(game, every)
    no_public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=False,
        private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)
    with pytest.raises(ValueError, match="public_info=False"):
        make_observation(game, no_public)


# --- Baptistenskat with terminal rewards --------------------------------------------------


def test_terminal_rewards_form() -> None:
    """``rewards=terminal``: RewardModel.TERMINAL, rewards and returns 0 until the end,
    then the totals; the same game as the per-round form, whose rewards (summed where
    OpenSpiel sums them: at decision nodes and the end) come to the same totals."""
    rounds = pyspiel.load_game("python_stich_baptisten", SMALL)
    terminal = pyspiel.load_game("python_stich_baptisten", TERMINAL)
    assert rounds.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    assert terminal.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert str(terminal) == ("python_stich_baptisten(players=3,rewards=terminal,"
                             "rules=baptisten(max_cards=3) )")
    assert terminal.observation_tensor_size() == rounds.observation_tensor_size()
    rng = random.Random(4)
    nonzero = 0
    for _ in range(10):
        a, b = rounds.new_initial_state(), terminal.new_initial_state()
        summed = [0.0] * 3
        while not a.is_terminal():
            if not a.is_chance_node():
                summed = [s + r for s, r in zip(summed, a.rewards(), strict=True)]
                assert b.rewards() == b.returns() == [0.0] * 3
                assert a.legal_actions() == b.legal_actions()
                p = a.current_player()
                assert np.array_equal(a.observation_tensor(p), b.observation_tensor(p))
            nonzero += any(a.rewards())
            action = (rng.choice([o for o, _ in a.chance_outcomes()]) if a.is_chance_node()
                      else rng.choice(a.legal_actions()))
            a.apply_action(action)
            b.apply_action(action)
        assert b.is_terminal()
        summed = [s + r for s, r in zip(summed, a.rewards(), strict=True)]
        assert summed == a.returns() == b.returns() == b.rewards()
        assert b.returns() == [float(t) for t in b._c.st.totals]
    assert nonzero > 10  # the per-round form does reward before the end
    with pytest.raises(ValueError, match="rewards must be"):
        pyspiel.load_game("python_stich_baptisten", {"rewards": "end"})


def test_mcts_plays_the_terminal_reward_form() -> None:
    """OpenSpiel's MCTSBot refuses the per-round form and plays the terminal one."""
    rs = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    with pytest.raises(ValueError, match="terminal rewards"):
        mcts.MCTSBot(pyspiel.load_game("python_stich_baptisten", SMALL), 2.0, 4, evaluator)
    game = pyspiel.load_game("python_stich_baptisten", TERMINAL)
    bot = mcts.MCTSBot(game, 2.0, 6, evaluator, random_state=rs)
    rng = random.Random(5)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _step(state, rng)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 20
    assert state.returns() == [float(t) for t in state._c.st.totals]


# --- the sizes docs/env.md gives --------------------------------------------------------


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def test_docs_give_the_tensor_sizes() -> None:
    """The OpenSpiel paragraph of docs/env.md names the tensor sizes: Skat's (presets)
    and Baptistenskat's at 3 players (default rules); they are the games' sizes."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "env.md").read_text()
    text = " ".join(docs[docs.index("- OpenSpiel (`stich.env.openspiel`)"):].split())
    m = re.search(r"Observation tensors are the PettingZoo observations \(Skat ([\d,]+), "
                  r"or the house rules' size; Baptistenskat ([\d,]+) at 3 players\).*?"
                  r"\(Skat ([\d,]+), Baptistenskat ([\d,]+) at 3 players[;)]", text)
    assert m, "the sizes' sentence of docs/env.md changed: update this test"
    skat = pyspiel.load_game("python_stich_skat")
    bap = pyspiel.load_game("python_stich_baptisten", {"players": 3})
    assert [_number(x) for x in m.groups()] == [
        skat.observation_tensor_size(), bap.observation_tensor_size(),
        skat.information_state_tensor_size(), bap.information_state_tensor_size()]
