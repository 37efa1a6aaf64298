"""The fast path of :class:`~stich.env.vector.VectorGames` for Skat: the batch's inner loop
compiled (:class:`stich.skat.batch.SkatBatch`), the same numbers as the adapters' loop.

Per :meth:`FastSkat.observe` the compiled loop builds the view of the seat to move in
every game and encodes it (:func:`stich.skat.observation.encode_words`: the 0/1 slots as
32-bit words, the scalars apart) and the mask (from the view's legal actions, as bits);
NumPy then unpacks the words of the whole batch into the observation and mask arrays in
one go.  Per :meth:`FastSkat.step` the compiled loop applies every game's action
(the two-step discard as the adapter does); a game whose action ends it is handed to its
:class:`~stich.env.skat.SkatAdapter`, which plays that action, keeps the list (scores,
dealer, Bock, the next deal) and is loaded back.

The adapters stay the games' record: :meth:`FastSkat.adapters` brings them up to date
(``VectorGames.games`` calls it), and the next call of the fast path loads the games back
from them (whatever was done to them meanwhile).  The observations are the view's: the
tests compare every row with the adapters' (:meth:`SkatAdapter.observe`, encoded apart
by :func:`stich.skat.observation.encode`) over many positions, and check that deals
differing only in cards hidden from the seat give it the same rows.

Only rule sets whose space is the presets' (no house rule adds an action or a slot) have
a fast path: :func:`fast_path` says why not for the others.
"""

from __future__ import annotations

import array
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from stich.env.base import Adapter
from stich.env.skat import SkatAdapter
from stich.env.skat_space import DISCARD0, PLAY0
from stich.skat.batch import MASK_WORDS, SkatBatch
from stich.skat.observation import OBS_SIZE, SCALAR_COLUMNS, WORDS

__all__ = ["FastSkat", "fast_path", "unsupported"]


def _u32(words: list[int]) -> np.ndarray[Any, Any]:
    """32-bit words as a little-endian array (through ``array``: faster than NumPy's
    conversion of a list)."""
    if _ARRAY_U32:
        return np.frombuffer(array.array("I", words), np.uint32).astype("<u4", copy=False)
    return np.array(words, "<u4")


_ARRAY_U32 = array.array("I").itemsize == 4


def unsupported(adapters: list[Adapter]) -> str | None:
    """Why these games have no fast path (None: they have one)."""
    first = adapters[0]
    if not isinstance(first, SkatAdapter):
        return f"the fast path plays Skat only, not {type(first).__name__}"
    if first.space.house:
        return (f"the fast path plays the presets' space only: the house rules of "
                f"{first.rules} add actions or observation slots")
    return None


def fast_path(adapters: list[Adapter], rng: random.Random, fast: bool | None
              ) -> FastSkat | None:
    """The fast path of these games, when ``fast`` asks for it (None: where there is
    one; True: else ValueError saying why; False: none)."""
    if fast is False:
        return None
    why = unsupported(adapters)
    if why is not None:
        if fast:
            raise ValueError(why)
        return None
    return FastSkat([a for a in adapters if isinstance(a, SkatAdapter)], rng)


class FastSkat:
    """The games of a :class:`~stich.env.vector.VectorGames` of Skat, stepped compiled
    (``rng`` is the batch's: it seeds the next lists as the adapters' loop does)."""

    def __init__(self, adapters: list[SkatAdapter], rng: random.Random) -> None:
        self._adapters = adapters
        self._rng = rng
        n = len(adapters)
        first = adapters[0]
        space = first.space
        self.n_actions = first.n_actions
        self._core = SkatBatch([a.state for a in adapters], space.action_obj,
                               space.index, DISCARD0, PLAY0)
        self._words = [0] * (n * WORDS)
        self._scalars = [0.0] * (n * len(SCALAR_COLUMNS))
        self._masks = [0] * (n * MASK_WORDS)
        self._seats = [0] * n
        self._columns = list(SCALAR_COLUMNS)
        self._ahead = False  # the core has moved since the adapters were brought up to date
        self._handed_out = False  # the adapters were handed out: load the core from them
        for i in range(n):
            self._load(i)

    def _load(self, i: int) -> None:
        a = self._adapters[i]
        at = a.seat_of
        sc = a.scores
        self._core.load(i, a.state, a.pending, (at[0], at[1], at[2]), a.played, a.games,
                        (sc[at[0]], sc[at[1]], sc[at[2]]))

    def adapters(self) -> list[SkatAdapter]:
        """The games' adapters, up to date (the fast path loads the games back from them
        at its next call)."""
        if self._ahead:
            core = self._core
            for i, a in enumerate(self._adapters):
                a.state = core.states[i]
                a.pending = core.pending[i]
                a._changed()
            self._ahead = False
        self._handed_out = True
        return self._adapters

    def _take_back(self) -> None:
        if self._handed_out:
            for i in range(len(self._adapters)):
                self._load(i)
            self._handed_out = False

    def seats(self) -> list[int]:
        """The table seat to move in each game."""
        self._take_back()
        core = self._core
        return [core.seat_of[i][s.to_move] for i, s in enumerate(core.states)]

    def observe(self, obs: np.ndarray[Any, Any], masks: np.ndarray[Any, Any]) -> list[int]:
        """Observation and mask of the seat to move in every game into ``obs`` and
        ``masks`` (one row per game); those seats."""
        self._take_back()
        self._core.observe(self._words, self._scalars, self._masks, self._seats)
        n = obs.shape[0]
        bits = np.unpackbits(_u32(self._words).view(np.uint8),
                             bitorder="little").reshape(n, 32 * WORDS)
        obs[:, :OBS_SIZE] = bits[:, :OBS_SIZE]
        obs[:, self._columns] = np.array(self._scalars, np.float32).reshape(n, -1)
        mbits = np.unpackbits(_u32(self._masks).view(np.uint8),
                              bitorder="little").reshape(n, 32 * MASK_WORDS)
        masks[:] = mbits[:, :self.n_actions]
        return list(self._seats)

    def random_actions(self) -> np.ndarray[Any, Any]:
        """A legal action per game, uniformly at random (the adapters' loop's choice
        for the same ``rng``)."""
        self._take_back()
        out = np.empty(len(self._adapters), np.int64)
        for i in range(len(self._adapters)):
            legal = self._core.legal_ids(i)
            out[i] = legal[self._rng.randrange(len(legal))]
        return out

    def step(self, actions: np.ndarray[Any, Any] | list[int], rewards: np.ndarray[Any, Any],
             ended: np.ndarray[Any, Any],
             illegal: Callable[[int, int, BaseException], Exception]) -> None:
        """Apply one action per game; each game's rewards into ``rewards``, whether its
        list ended (and a new one began) into ``ended``.  An action a game refuses
        raises ``illegal(game, action, the engine's error)``, the games before it
        stepped (as the adapters' loop does)."""
        self._take_back()
        acts = [int(a) for a in (actions.tolist() if isinstance(actions, np.ndarray)
                                 else actions)]
        if len(acts) != len(self._adapters):
            raise ValueError(f"{len(self._adapters)} actions wanted, not {len(acts)}")
        core = self._core
        self._ahead = True
        rewards[:] = 0.0
        ended[:] = False
        try:
            over = core.step(acts)
        except (ValueError, IndexError) as e:  # the engine's refusal, an id out of range
            self._end_games(core.ended, acts, rewards, ended)
            raise illegal(core.at, acts[core.at], e) from e
        self._end_games(over, acts, rewards, ended)

    def _end_games(self, over: list[int], acts: list[int], rewards: np.ndarray[Any, Any],
                   ended: np.ndarray[Any, Any]) -> None:
        core = self._core
        for i in over:  # the action ends game i: its adapter plays it and keeps the list
            a = self._adapters[i]
            a.state = core.states[i]
            a.pending = core.pending[i]
            a._changed()
            rewards[i] = a.step(acts[i])
            if a.over():
                ended[i] = True
                a.reset(self._rng.getrandbits(63))
            self._load(i)
