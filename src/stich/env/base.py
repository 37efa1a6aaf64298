"""What the environments of both games share: the :class:`Adapter` a game implements,
the PettingZoo AEC environment over it, and the Gymnasium single-seat wrapper.

An adapter holds one running game (or a whole list of games) of the engine and speaks
in numbers: a fixed discrete action space (``n_actions``), a fixed-size observation
vector built from the seat's ``view`` only (``obs_size``), the mask of legal actions, and
the rewards each step earned.  The engines never import this package.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

__all__ = ["Adapter", "IllegalAction", "StichAEC", "agent_name", "log_illegal", "parallel"]

ILLEGAL = ("raise", "terminate")
"""What an action the mask forbids does: ``terminate`` (the default: PettingZoo's
convention for classic games, and what lets the libraries' checkers, which sample actions
without the mask, run) or ``raise``."""
LOG = logging.getLogger("stich.env")
# the bound of every observation slot in the spaces (the slots are scaled to about -1..1;
# a list score or game total divided by its scale can grow past that in a long game)
OBS_BOUND = 1e6


class IllegalAction(ValueError):
    """An action the mask forbids was sent (``on_illegal="raise"``)."""


def log_illegal(where: str) -> None:
    """Log that an illegal action ended an episode (``on_illegal="terminate"``); the
    environments do so once each: a learner's bug should not pass unseen, yet a checker
    that samples without the mask should not flood the log (``logging``, not
    ``warnings``: a checker run with warnings as errors is not failed by it)."""
    LOG.warning("%s: an action the mask forbids ended the episode (on_illegal="
                "'terminate'; its info says 'illegal'; on_illegal='raise' raises instead); "
                "further ones of this environment are not logged", where)


class Adapter(Protocol):
    """One game of the engine, in numbers (see the module's text).

    ``step`` is called only with a legal action of the seat to move; it returns the
    reward of each seat earned by that step (a game's or a round's score when it ends,
    else zeros).  ``observe`` and ``mask`` use ``view(seat)`` only."""

    game: str  # the game's name (:mod:`stich.games`)
    n_agents: int
    n_actions: int
    obs_size: int
    state_size: int

    def reset(self, seed: int) -> None: ...

    def to_move(self) -> int | None: ...

    def over(self) -> bool: ...

    def view(self, seat: int) -> Any: ...

    def observe(self, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]: ...

    def mask(self, seat: int) -> np.ndarray[Any, np.dtype[np.int8]]: ...

    def step(self, action: int) -> list[float]: ...

    def global_state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The whole state for a centralized critic (``state_size`` floats): every seat's
        observation and the cards no seat sees.  Not an agent's observation."""
        ...

    def action_text(self, action: int) -> str: ...

    def render(self) -> str: ...

    def play_bot(self, bot: Any, rng: random.Random) -> list[float]:
        """The seat to move plays what ``bot`` (a `stich` bot of this game) chooses from
        that seat's view; the rewards as :meth:`step`."""
        ...


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class StichAEC(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment over an :class:`Adapter`.

    Agents are ``player_0`` … ``player_{n-1}`` (table seats).  The observation of an
    agent is ``{"observation": float32 vector, "action_mask": int8 vector}``; ``infos``
    of the agent to move hold ``view``, the engine's view of its seat (structure for the
    agents that want it; ``view.legal_actions`` are the legal actions, ``str()`` of each
    its engine text); after an illegal action under ``on_illegal="terminate"`` the
    offender's infos say ``illegal: True``.

    ``on_illegal``: ``"terminate"`` (default) is PettingZoo's convention for classic
    games: the game ends at once, the agent that sent it gets ``illegal_reward`` and the
    others 0 (logged once per environment, see :func:`log_illegal`); ``"raise"`` raises
    :class:`IllegalAction` naming the legal actions (for finding a learner's bug at the
    step that made it).  ``max_cycles``: the game is truncated after that many steps
    (None: never; a game always ends by itself).

    :meth:`state` is the whole state for a centralized critic (:attr:`state_space`):
    every seat's observation in table order, then the cards no seat sees (Skat: the
    Skat).  It shows every hidden card, so it is never an agent's observation.  A
    parallel API: :func:`parallel`."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, make: Callable[[], Adapter], name: str, *,
                 render_mode: str | None = None, on_illegal: str = "terminate",
                 illegal_reward: float = -1.0, max_cycles: int | None = None) -> None:
        super().__init__()
        if on_illegal not in ILLEGAL:
            raise ValueError(f"on_illegal must be one of {ILLEGAL}, not {on_illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = make()
        self.metadata = {**self.metadata, "name": name}
        self.render_mode = render_mode
        self.on_illegal = on_illegal
        self.illegal_reward = illegal_reward
        self.max_cycles = max_cycles
        self.possible_agents = [agent_name(i) for i in range(self.game.n_agents)]
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (self.game.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.game.n_actions,), np.int8),
        })
        self._act_space = spaces.Discrete(self.game.n_actions)
        self.state_space = spaces.Box(-OBS_BOUND, OBS_BOUND, (self.game.state_size,),
                                      np.float32)
        self._illegal_logged = False
        self._rng = random.Random()
        self._steps = 0
        self.agents: list[str] = []

    # --- spaces -------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The whole state (:attr:`state_space`): every seat's observation in table
        order, then the cards no seat sees; for a centralized critic, not an agent."""
        return self.game.global_state()

    # --- the game -----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng.seed(seed)
        self.game.reset(self._rng.getrandbits(63))
        self._steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.game.to_move()
        if seat is None:  # over: the dead agents are stepped out one by one
            self.agent_selection = self.agents[0] if self.agents else ""
            return
        self.agent_selection = agent_name(seat)
        for a in self.agents:
            self.infos[a] = {}
        self.infos[self.agent_selection] = {"view": self.game.view(seat)}

    def _legal_texts(self, seat: int) -> list[str]:
        mask = self.game.mask(seat)
        return [self.game.action_text(int(i)) for i in np.flatnonzero(mask)]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        return {"observation": self.game.observe(seat), "action_mask": self.game.mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        mask = self.game.mask(seat)
        legal = action is not None and 0 <= int(action) < len(mask) and bool(mask[int(action)])
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if not legal:
            if self.on_illegal == "raise":
                shown = action if action is None else int(action)
                raise IllegalAction(
                    f"{agent} may not play action {shown}"
                    + (f" ({self.game.action_text(int(action))})"
                       if action is not None and 0 <= int(action) < len(mask) else "")
                    + f"; legal now: {', '.join(self._legal_texts(seat))}")
            if not self._illegal_logged:
                self._illegal_logged = True
                log_illegal(self.metadata["name"])
            self.rewards[agent] = self.illegal_reward
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            gained = self.game.step(int(action))  # type: ignore[arg-type]
            for i, r in enumerate(gained):
                self.rewards[agent_name(i)] = float(r)
            if self.game.over():
                self.terminations = dict.fromkeys(self.agents, True)
        self._steps += 1
        if self.max_cycles is not None and self._steps >= self.max_cycles \
                and not all(self.terminations.values()):
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if all(self.terminations.values()) or all(self.truncations.values()):
            self.agent_selection = self.agents[0]
            for a in self.agents:
                self.infos[a] = {"illegal": True} if a == agent and not legal else {}
        else:
            self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.game.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def parallel(aec: StichAEC) -> ParallelEnv:
    """The parallel API over a turn-based environment (PettingZoo's
    ``turn_based_aec_to_parallel``): every live agent is asked for an action at every
    step, only the action of the agent to move is played (the others' masks are all
    zero; ``infos[agent]["active_agent"]`` names the agent to move after a step, and so
    does the ``to_move`` slot of each observation).  PettingZoo's
    ``parallel_api_test`` and ``parallel_seed_test`` pass on it."""
    from pettingzoo.utils.conversions import (  # type: ignore[import-untyped]
        turn_based_aec_to_parallel,
    )

    return turn_based_aec_to_parallel(aec)
