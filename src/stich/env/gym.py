"""A Gymnasium environment for one learning seat; `stich` bots play the others.

>>> from stich.env.gym import SingleSeat
>>> env = SingleSeat("baptisten", seat=0, bots="random", players=3)
>>> obs, info = env.reset(seed=1)
>>> sorted(obs), bool(obs["action_mask"].sum() > 0)
(['action_mask', 'observation'], True)

The learner acts whenever it is its turn; between its actions the bots play theirs
(``random``, ``easy`` or ``strong``: the same bots as everywhere in `stich`, given the
seat's view only).  The reward of a step is what the learner's seat earned meanwhile
(its list points when a Skat game ends, its score when a Baptistenskat round ends).
An action the mask forbids raises :class:`~stich.env.base.IllegalAction`; with
``on_illegal="terminate"`` it ends the episode with ``illegal_reward`` instead
(PettingZoo's convention; Gymnasium's ``check_env`` samples actions without the mask).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from stich.env.base import ILLEGAL, OBS_BOUND, IllegalAction
from stich.env.vector import make_adapter

__all__ = ["SingleSeat"]


def _bots(game: str, level: str) -> Any:
    """A bot of ``level`` (:data:`stich.bots.LEVELS`; the bots load with the first)."""
    from stich.bots import LEVELS
    from stich.games import get

    if level not in LEVELS:
        raise ValueError(f"bots must be one of {', '.join(LEVELS)}, not {level!r}")
    return get(game).make_bot(level)


class SingleSeat(gym.Env[dict[str, Any], np.int64]):
    """``SingleSeat(game, seat=0, bots="easy", **rules)``: ``game`` is ``skat`` (rules:
    ``rules``, ``games``, ``scoring``) or ``baptisten`` (``rules``, ``players``,
    ``whole_game``); ``bots`` one level for every other seat, or a list per seat."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(self, game: str, *, seat: int = 0, bots: str | list[str] = "easy",
                 render_mode: str | None = None, on_illegal: str = "raise",
                 illegal_reward: float = -1.0, **rules: Any) -> None:
        if on_illegal not in ILLEGAL:
            raise ValueError(f"on_illegal must be one of {ILLEGAL}, not {on_illegal!r}")
        self.on_illegal, self.illegal_reward = on_illegal, illegal_reward
        self._ended = False
        self.game_name = game
        self.game = make_adapter(game, **rules)
        if not 0 <= seat < self.game.n_agents:
            raise ValueError(f"seat must be 0..{self.game.n_agents - 1}, not {seat}")
        self.seat = seat
        levels = [bots] * self.game.n_agents if isinstance(bots, str) else list(bots)
        if len(levels) != self.game.n_agents:
            raise ValueError(f"bots: one level per seat ({self.game.n_agents}), "
                             f"not {len(levels)}")
        self.bots = [None if i == seat else _bots(game, lv) for i, lv in enumerate(levels)]
        self.render_mode = render_mode
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (self.game.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.game.n_actions,), np.int8),
        })
        self.action_space = spaces.Discrete(self.game.n_actions)
        self._rng = random.Random()

    def _obs(self) -> dict[str, Any]:
        return {"observation": self.game.observe(self.seat),
                "action_mask": self.game.mask(self.seat)}

    def _info(self) -> dict[str, Any]:
        seat = self.game.to_move()
        return {"view": self.game.view(self.seat), "to_move": seat}

    def _others(self) -> float:
        """Let the bots play until it is the learner's turn or the game is over; the
        learner's reward meanwhile."""
        got = 0.0
        while not self.game.over():
            seat = self.game.to_move()
            if seat is None or seat == self.seat:
                break
            got += self.game.play_bot(self.bots[seat], self._rng)[self.seat]
        return got

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng.seed(seed)
        self.game.reset(self._rng.getrandbits(63))
        self._ended = False
        self._others()  # (a reward before the learner's first move cannot happen)
        return self._obs(), self._info()

    def step(self, action: np.int64 | int
             ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self.game.over() or self._ended:
            raise RuntimeError("the game is over: call reset()")
        mask = self.game.mask(self.seat)
        a = int(action)
        if not (0 <= a < len(mask) and mask[a]):
            if self.on_illegal == "terminate":  # PettingZoo's convention for classic games
                self._ended = True
                return self._obs(), self.illegal_reward, True, False, \
                    {**self._info(), "illegal": True}
            legal = ", ".join(self.game.action_text(int(i)) for i in np.flatnonzero(mask))
            raise IllegalAction(f"action {a} is not legal now; legal: {legal}")
        reward = self.game.step(a)[self.seat]
        reward += self._others()
        return self._obs(), float(reward), self.game.over(), False, self._info()

    def render(self) -> str | None:
        return self.game.render() if self.render_mode == "ansi" else None
