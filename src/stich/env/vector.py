"""Many games stepped in one call: the batch a learner acts on.

>>> from stich.env.vector import VectorGames
>>> v = VectorGames("baptisten", 8, seed=1, players=3)
>>> obs, masks, seats = v.observe()
>>> obs.shape[0], masks.shape[0], len(seats)
(8, 8, 8)
>>> rewards, ended = v.step(v.random_actions())
>>> rewards.shape, ended.dtype
((8, 3), dtype('bool'))

Each game is an :class:`~stich.env.base.Adapter`; :meth:`VectorGames.observe` writes the
observation and the mask of the seat to move in every game into two preallocated arrays
(one row per game), :meth:`VectorGames.step` applies one action per game (the seat to move
plays it) and starts a game that ended afresh (its rewards are reported first).  The
engines themselves step one game at a time: what is saved here is every allocation and
every Python call of the environment layers around them (PettingZoo's agent iteration,
dicts of observations, infos).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from stich.env.base import Adapter, IllegalAction

__all__ = ["VectorGames", "adapters", "make_adapter"]


def _skat(**kwargs: Any) -> Adapter:
    from stich.env.skat import SkatAdapter

    return SkatAdapter(**kwargs)


def _baptisten(**kwargs: Any) -> Adapter:
    from stich.env.baptisten import BaptistenAdapter

    return BaptistenAdapter(**kwargs)


def adapters() -> dict[str, Callable[..., Adapter]]:
    """The adapter of each game by the game's name (:mod:`stich.games`); the games, and
    each adapter's module, load on first use."""
    from stich.games import BAPTISTEN, SKAT

    return {SKAT.name: _skat, BAPTISTEN.name: _baptisten}


def make_adapter(game: str, **kwargs: Any) -> Adapter:
    """The adapter of ``game`` (``skat`` or ``baptisten``) with its arguments."""
    known = adapters()
    if game not in known:
        raise ValueError(f"game must be {' or '.join(map(repr, known))}, not {game!r}")
    return known[game](**kwargs)


class VectorGames:
    """``n`` games of one kind, each restarted when it ends (seeds drawn from ``seed``).

    ``fast``: step the games through their compiled fast path
    (:mod:`stich.env.fast_skat`: Skat without house rules that add actions or slots;
    the same numbers, several times faster): None (default) where there is one, True
    (ValueError where there is none), False never."""

    def __init__(self, game: str, n: int, *, seed: int = 0, fast: bool | None = None,
                 **kwargs: Any) -> None:
        if n < 1:
            raise ValueError(f"n must be at least 1, not {n}")
        self._games = [make_adapter(game, **kwargs) for _ in range(n)]
        first = self._games[0]
        self.n_agents, self.n_actions, self.obs_size = \
            first.n_agents, first.n_actions, first.obs_size
        self._rng = random.Random(seed)
        self._obs = np.zeros((n, self.obs_size), np.float32)
        self._masks = np.zeros((n, self.n_actions), np.int8)
        self._rewards = np.zeros((n, self.n_agents), np.float32)
        self._ended = np.zeros(n, bool)
        self.steps = 0
        # adapters that give their observations as bytes (Skat: ``encoded``,
        # ``mask_bytes``, ``scalar_columns``) are turned into arrays in one go
        self._encoded = hasattr(first, "encoded")
        for g in self._games:
            g.reset(self._rng.getrandbits(63))
        from stich.env.fast_skat import fast_path

        self._fast = fast_path(self._games, self._rng, fast)

    @property
    def games(self) -> list[Adapter]:
        """Each game's adapter (under the fast path brought up to date first; the fast
        path takes the games back from them at its next call)."""
        if self._fast is not None:
            return list(self._fast.adapters())
        return self._games

    @property
    def fast(self) -> bool:
        """Whether the games are stepped through the compiled fast path."""
        return self._fast is not None

    def seats(self) -> list[int]:
        """The seat to move in each game."""
        if self._fast is not None:
            return self._fast.seats()
        out = []
        for g in self.games:
            seat = g.to_move()
            assert seat is not None  # a game that ended was restarted
            out.append(seat)
        return out

    def observe(self) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], list[int]]:
        """Observations and masks of the seat to move in every game, and those seats
        (the arrays are reused by the next call: copy what you keep)."""
        if self._fast is not None:
            return self._obs, self._masks, self._fast.observe(self._obs, self._masks)
        seats = self.seats()
        if self._encoded:
            # Skat: every game's observation and mask as bytes, one array each in one go
            parts = [g.encoded(seat) for g, seat in  # type: ignore[attr-defined]
                     zip(self.games, seats, strict=True)]
            n = len(parts)
            self._obs[:] = np.frombuffer(b"".join([p[0] for p in parts]),
                                         np.uint8).reshape(n, self.obs_size)
            columns = self.games[0].scalar_columns  # type: ignore[attr-defined]
            self._obs[:, columns] = [p[1] for p in parts]
            self._masks[:] = np.frombuffer(
                b"".join([g.mask_bytes(seat) for g, seat in  # type: ignore[attr-defined]
                          zip(self.games, seats, strict=True)]),
                np.int8).reshape(n, self.n_actions)
            return self._obs, self._masks, seats
        for i, (g, seat) in enumerate(zip(self.games, seats, strict=True)):
            self._obs[i] = g.observe(seat)
            self._masks[i] = g.mask(seat)
        return self._obs, self._masks, seats

    def random_actions(self) -> np.ndarray[Any, Any]:
        """A legal action per game, uniformly at random (for benchmarks and tests)."""
        if self._fast is not None:
            return self._fast.random_actions()
        out = np.empty(len(self.games), np.int64)
        for i, g in enumerate(self.games):
            seat = g.to_move()
            assert seat is not None
            legal = np.flatnonzero(g.mask(seat))
            out[i] = legal[self._rng.randrange(len(legal))]
        return out

    def illegal(self, i: int, action: int, cause: BaseException) -> IllegalAction:
        """The error for an action game ``i`` refused: which game of the batch, the
        game's name, the seat to move, the action and the legal ones."""
        g = self.games[i]
        seat = g.to_move()
        name = g.game
        shown = (f"{action} ({g.action_text(action)})" if 0 <= action < g.n_actions
                 else f"{action} (no such action: 0..{g.n_actions - 1})")
        legal = ([g.action_text(int(x)) for x in np.flatnonzero(g.mask(seat))]
                 if seat is not None else [])
        why = "" if isinstance(cause, IllegalAction) else f" ({cause})"  # the engine's
        return IllegalAction(f"game {i} of {len(self.games)} ({name}): player_{seat} may not "
                             f"play action {shown}; legal now: {', '.join(legal)}{why}")

    def step(self, actions: np.ndarray[Any, Any] | list[int]
             ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Apply one action per game (legal ones: an illegal action raises
        :class:`~stich.env.base.IllegalAction` naming the game, by :meth:`illegal`; the
        games before it in the batch have been stepped); the rewards per game and seat,
        and which games ended (those start again at once)."""
        if self._fast is not None:
            self._fast.step(actions, self._rewards, self._ended, self.illegal)
            self.steps += len(self._games)
            return self._rewards, self._ended
        rewards = []
        ended = []
        for i, (g, a) in enumerate(zip(self.games, actions.tolist()
                                       if isinstance(actions, np.ndarray) else actions,
                                       strict=True)):
            try:
                rewards.append(g.step(int(a)))
            except (ValueError, IndexError) as e:  # the adapter's or the engine's refusal
                raise self.illegal(i, int(a), e) from e
            if g.over():
                ended.append(True)
                g.reset(self._rng.getrandbits(63))
            else:
                ended.append(False)
        self._rewards[:] = rewards
        self._ended[:] = ended
        self.steps += len(self.games)
        return self._rewards, self._ended
