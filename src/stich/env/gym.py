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

An action the mask forbids ends the episode with ``illegal_reward`` and ``info["illegal"]``
(``on_illegal="terminate"``, the default: PettingZoo's convention for classic games, and
what Gymnasium's ``check_env`` needs, since it samples actions without the mask; logged
once per environment); ``on_illegal="raise"`` raises
:class:`~stich.env.base.IllegalAction` naming the legal actions instead.

**Seeds.** An episode repeats exactly under the same seed, against every bot level: the
bots draw from the environment's seeded random source, and ``strong`` decides on a fixed
number of sampled worlds with a clock that does not move (``strong_worlds``: Skat 10,
Baptistenskat 48 by default; the clocked bot of the table and the arena, whose decisions
depend on the machine's speed and load, with ``strong_worlds=None``).  Skat's search also
bounds each solver question by a node count derived from the solver's speed setting
for the compiled or the Python solver, so two installs of which one lacks the compiled
solver may differ.

**Registered ids** (on importing this module): ``stich/Skat-v0`` and
``stich/Baptisten-v0``, so ``gymnasium.make("stich/Skat-v0", bots="strong")`` works
after ``import stich.env.gym``, and ``gymnasium.make("stich.env.gym:stich/Skat-v0")``
without it (Gymnasium imports the module named before the colon).
"""

from __future__ import annotations

import random
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from stich.env.base import ILLEGAL, OBS_BOUND, IllegalAction, log_illegal
from stich.env.vector import make_adapter
from stich.games import BAPTISTEN, SKAT

__all__ = ["IDS", "STRONG_WORLDS", "SingleSeat"]

STRONG_WORLDS: dict[str, int] = {SKAT.name: 10, BAPTISTEN.name: 48}
"""Worlds a ``strong`` bot samples per decision by default, by game: about what its
clock gives it at the table (Skat: a bidding decision sees 5–50 worlds in its 0.3 s,
median about 10; Baptistenskat: its bid accuracy is flat from 48 worlds on; docs/bots.md)."""

IDS: dict[str, str] = {"stich/Skat-v0": SKAT.name, "stich/Baptisten-v0": BAPTISTEN.name}
"""The Gymnasium ids registered on import, and the game of each."""


def _still() -> float:
    """A clock that does not move: ``strong`` then stops at its number of worlds."""
    return 0.0


def _bots(game: str, level: str, strong_worlds: int | None) -> Any:
    """A bot of ``level`` (:data:`stich.bots.LEVELS`; the bots load with the first);
    ``strong`` on ``strong_worlds`` worlds a decision and a clock that does not move
    (None: the clocked bot)."""
    from stich.bots import LEVELS
    from stich.games import BAPTISTEN, SKAT, get

    if level not in LEVELS:
        raise ValueError(f"bots must be one of {', '.join(LEVELS)}, not {level!r}")
    if level == "strong" and strong_worlds is not None:
        if game == SKAT.name:
            from stich.bots.strong import SkatStrongBot

            return SkatStrongBot(min_worlds=strong_worlds, max_worlds=strong_worlds,
                                 timer=_still)
        if game == BAPTISTEN.name:
            from stich.bots.baptisten_strong import BaptistenStrongBot

            return BaptistenStrongBot(min_worlds=strong_worlds, max_worlds=strong_worlds,
                                      timer=_still)
    return get(game).make_bot(level)


class SingleSeat(gym.Env[dict[str, Any], np.int64]):
    """``SingleSeat(game, seat=0, bots="easy", **rules)``: ``game`` is ``skat`` (rules:
    ``rules``, ``games``, ``scoring``) or ``baptisten`` (``rules``, ``players``,
    ``whole_game``, ``round_no``, ``earlier_rounds``); ``bots`` one level for every other
    seat, or a list per seat; ``strong_worlds``: worlds per decision of the ``strong``
    bots (default :data:`STRONG_WORLDS` of the game; None: their clock, not
    reproducible); ``on_illegal``: ``terminate`` (default) or ``raise``."""

    # (the text rendering has no frame rate; Gymnasium's checker wants one declared)
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(self, game: str, *, seat: int = 0, bots: str | list[str] = "easy",
                 render_mode: str | None = None, on_illegal: str = "terminate",
                 illegal_reward: float = -1.0,
                 strong_worlds: int | Literal["default"] | None = "default",
                 **rules: Any) -> None:
        if on_illegal not in ILLEGAL:
            raise ValueError(f"on_illegal must be one of {ILLEGAL}, not {on_illegal!r}")
        self.on_illegal, self.illegal_reward = on_illegal, illegal_reward
        self._ended = False
        self._illegal_logged = False
        self.game_name = game
        self.game = make_adapter(game, **rules)
        if not 0 <= seat < self.game.n_agents:
            raise ValueError(f"seat must be 0..{self.game.n_agents - 1}, not {seat}")
        self.seat = seat
        levels = [bots] * self.game.n_agents if isinstance(bots, str) else list(bots)
        if len(levels) != self.game.n_agents:
            raise ValueError(f"bots: one level per seat ({self.game.n_agents}), "
                             f"not {len(levels)}")
        worlds = STRONG_WORLDS.get(game) if strong_worlds == "default" else strong_worlds
        if worlds is not None and (not isinstance(worlds, int) or worlds < 1):
            raise ValueError(f"strong_worlds must be a number of worlds (1 or more) or "
                             f"None, not {strong_worlds!r}")
        self.strong_worlds = worlds
        self.bots = [None if i == seat else _bots(game, lv, worlds)
                     for i, lv in enumerate(levels)]
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
        for bot in self.bots:  # strong keeps its estimates for the arena: not wanted here
            estimates = getattr(bot, "estimates", None)
            if isinstance(estimates, list):
                estimates.clear()
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
                if not self._illegal_logged:
                    self._illegal_logged = True
                    log_illegal(f"SingleSeat({self.game_name!r})")
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


def _register() -> None:
    """Register :data:`IDS` with Gymnasium (once: importing again changes nothing)."""
    for env_id, game in IDS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point="stich.env.gym:SingleSeat",
                         kwargs={"game": game})


_register()
