"""The Gymnasium single-seat wrapper and the vector of games (``stich.env.gym``,
``stich.env.vector``): Gymnasium's own environment checker, whole games against each
bot level, the learner's rewards against the game's own scores, seeds, refusals."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from stich.env.base import IllegalAction
from stich.env.gym import SingleSeat
from stich.env.vector import VectorGames


@pytest.mark.parametrize(("game", "kwargs"), [
    ("skat", {"rules": "lothar"}), ("skat", {"rules": "isko", "games": 3}),
    ("baptisten", {"players": 3}), ("baptisten", {"players": 4, "whole_game": False}),
])
def test_gymnasium_check_env(game: str, kwargs: dict[str, object]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings are failures here
        # (the checker samples actions without the mask: an illegal one ends the episode)
        check_env(SingleSeat(game, seat=1, bots="random", on_illegal="terminate", **kwargs),
                  skip_render_check=True)


def _play(env: SingleSeat, seed: int) -> tuple[float, list[int]]:
    rng = random.Random(seed)
    obs, _ = env.reset(seed=seed)
    total, actions, done = 0.0, [], env.game.over()
    while not done:
        a = rng.choice(list(np.flatnonzero(obs["action_mask"])))
        actions.append(int(a))
        obs, r, done, trunc, _ = env.step(a)
        assert not trunc
        total += r
    return total, actions


@pytest.mark.parametrize("level", ["random", "easy"])
def test_a_whole_baptisten_game_against_bots_pays_the_learner_its_total(level: str) -> None:
    env = SingleSeat("baptisten", seat=2, bots=level, players=4)
    total, actions = _play(env, 5)
    state = env.game.state  # type: ignore[attr-defined]
    assert state.is_over and actions
    assert total == state.totals[2]
    assert (total, actions) == _play(env, 5)  # seeded: the same game again


@pytest.mark.parametrize("level", ["random", "easy"])
def test_a_skat_list_against_bots_pays_the_learner_its_list_score(level: str) -> None:
    env = SingleSeat("skat", seat=0, bots=level, games=3)
    total, actions = _play(env, 8)
    assert env.game.over() and actions
    assert total == env.game.scores[0]  # type: ignore[attr-defined]
    assert (total, actions) == _play(env, 8)


def test_the_strong_bot_plays_a_seat_too() -> None:
    env = SingleSeat("baptisten", seat=0, bots=["random", "strong", "random"], players=3,
                     whole_game=False)
    _play(env, 2)
    assert env.game.over()


def test_refusals() -> None:
    env = SingleSeat("baptisten", seat=0, bots="random", players=3, on_illegal="raise")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match="not legal now; legal: bid 0"):
        env.step(illegal)
    with pytest.raises(ValueError, match="bots must be one of random, easy, strong"):
        SingleSeat("skat", bots="clever")
    with pytest.raises(ValueError, match="one level per seat"):
        SingleSeat("skat", bots=["easy"])
    with pytest.raises(ValueError, match=r"seat must be 0\.\.2"):
        SingleSeat("skat", seat=3)
    end = SingleSeat("baptisten", seat=0, bots="random", players=3, on_illegal="terminate")
    obs, _ = end.reset(seed=1)
    _, reward, done, _, info = end.step(illegal)
    assert (reward, done, info["illegal"]) == (-1.0, True, True)
    with pytest.raises(RuntimeError, match="call reset"):
        end.step(int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(ValueError, match="game must be 'skat' or 'baptisten'"):
        SingleSeat("schafkopf")


@pytest.mark.parametrize(("game", "kwargs"), [("skat", {}), ("baptisten", {"players": 5})])
def test_vector_games_step_and_restart(game: str, kwargs: dict[str, object]) -> None:
    v = VectorGames(game, 6, seed=3, **kwargs)
    ended = 0
    totals = np.zeros(v.n_agents)
    for _ in range(400 if game == "skat" else 600):
        obs, masks, seats = v.observe()
        assert obs.shape == (6, v.obs_size) and masks.shape == (6, v.n_actions)
        assert all(masks[i].sum() > 0 for i in range(6))
        for i, g in enumerate(v.games):  # the rows are the seat to move's own
            assert np.array_equal(obs[i], g.observe(seats[i]))
            assert np.array_equal(masks[i], g.mask(seats[i]))
        rewards, done = v.step(v.random_actions())
        totals += rewards.sum(axis=0)
        ended += int(done.sum())
    assert ended > 0 and v.steps > 0
    assert totals.any()
