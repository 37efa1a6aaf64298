"""Many Skat games stepped in one call: the compiled inner loop of the environments' fast
path (:mod:`stich.env.fast_skat`).

:class:`SkatBatch` holds one engine state per game and, per call, applies an action to
every game (:meth:`SkatBatch.step`) or writes the observation and the mask of the seat to
move in every game (:meth:`SkatBatch.observe`).  The observation is encoded from that
seat's :class:`~stich.skat.view.SkatView` (:func:`~stich.skat.observation.encode_words`),
the mask from the view's legal actions: nothing here reads a state but to apply actions
and to build views.  Games hold the action space of the presets (no house rule adds an
action or a slot: :mod:`stich.env.fast_skat` refuses the others); the list around the
games (scores, dealers, the next deal) is kept by the caller, which takes over a game
whose next action ends it (:meth:`SkatBatch.step` leaves such a game as it was).

Standard library and engine modules only, so that it is compiled with mypyc like the
engines (``stich._compiled``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from stich.cards import Card
from stich.skat.actions import Action, Discard
from stich.skat.observation import WORDS, encode_words, pick3
from stich.skat.state import SkatState
from stich.skat.view import SkatView, make_view

__all__ = ["MASK_WORDS", "SkatBatch", "discard_steps"]

MASK_WORDS: Final = 6
"""32-bit words of a mask (192 bits: the presets' 165 actions fit)."""

_CACHE_SIZE: Final = 4096



def discard_steps(legal: Sequence[Action], pending: int) -> int:
    """The cards a discard step may choose, as a set: with no card ``pending`` (-1) any
    card of a legal pair, else the other card of every legal pair with it (the
    environments take a discard in two steps, a card each)."""
    cards = 0
    for a in legal:
        c = a.cards  # type: ignore[union-attr]
        if pending < 0:
            cards |= c
        elif c >> pending & 1:
            cards |= c & ~(1 << pending)
    return cards

class SkatBatch:
    """``n`` Skat games' states and the numbers their observations add to the views.

    ``action_obj[i]`` is the engine action of id ``i`` (None for the discard steps),
    ``index`` the id of each engine action, ``discard0`` and ``play0`` the ids of the
    first discard step and of the first card (the presets' space,
    :class:`stich.env.skat_space.SkatSpace`)."""

    def __init__(self, states: list[SkatState], action_obj: tuple[Action | None, ...],
                 index: dict[Action, int], discard0: int, play0: int) -> None:
        n = len(states)
        self.n = n
        self.states = list(states)
        self.pending = [-1] * n  # each game's first discard card chosen (-1: none)
        self.seat_of: list[tuple[int, int, int]] = [(0, 1, 2)] * n  # table seat by position
        self.played = [0] * n  # games of each list finished
        self.games = [1] * n  # games in each list
        self.scores: list[tuple[int, int, int]] = [(0, 0, 0)] * n  # list scores by position
        self.action_obj = tuple(action_obj)
        self.index = dict(index)
        self.discard0 = discard0
        self.play0 = play0
        # the mask of a tuple of legal actions the engine keeps (the auction's, the
        # declarations'), by the tuple's id: the tuple is held, so its id is not reused
        self._masks: dict[int, tuple[tuple[Action, ...], int]] = {}
        self.at = 0  # the game :meth:`step` is at (``n`` once it is done)
        self.ended: list[int] = []  # the games :meth:`step` found ending so far

    def load(self, i: int, state: SkatState, pending: int, seat_of: tuple[int, int, int],
             played: int, games: int, scores: tuple[int, int, int]) -> None:
        """Game ``i`` is now ``state`` (with the pending discard card, -1: none), in a
        list of ``games`` games of which ``played`` are over, with the table seat at each
        position and the list scores by position."""
        self.states[i] = state
        self.pending[i] = pending
        self.seat_of[i] = seat_of
        self.played[i] = played
        self.games[i] = games
        self.scores[i] = scores

    def step(self, actions: list[int]) -> list[int]:
        """Apply ``actions[i]`` to game ``i``, for every game.  Returns the games the
        action would end, left as they were (the caller plays that action itself).  An
        illegal action raises the engine's error: the games before it have moved, ``at``
        is the game that refused and ``ended`` the games before it that the call would
        have returned."""
        ended: list[int] = []
        self.ended = ended
        states = self.states
        pending = self.pending
        objs = self.action_obj
        d0 = self.discard0
        for i in range(self.n):
            self.at = i
            a = actions[i]
            engine: Action | None
            if d0 <= a < d0 + 32:
                first = pending[i]
                if first < 0:
                    pending[i] = a - d0
                    continue
                engine = Discard(1 << first | 1 << (a - d0))
            else:
                engine = objs[a]
                assert engine is not None
            new = states[i].apply(engine)
            if new.is_over:
                ended.append(i)
                continue
            states[i] = new
            pending[i] = -1
        self.at = self.n
        return ended

    def view(self, i: int) -> SkatView:
        """The view of the seat to move in game ``i``."""
        s = self.states[i]
        return make_view(s, s.to_move)

    def observe(self, words: list[int], scalars: list[float], masks: list[int],
                seats: list[int]) -> None:
        """For every game ``i``: the observation of the seat to move into ``words`` (from
        ``WORDS * i``) and ``scalars`` (from ``11 * i``), its mask into ``masks`` (from
        ``MASK_WORDS * i``, bit ``a`` of the words for action ``a``), the seat's table
        seat into ``seats[i]``."""
        for i in range(self.n):
            s = self.states[i]
            p = s.to_move
            v = make_view(s, p)
            encode_words(v, self.pending[i], self.played[i], self.games[i], self.scores[i],
                         words, WORDS * i, scalars, 11 * i)
            m = MASK_WORDS * i
            legal = v.legal_actions
            if v.phase == "PLAY" and legal and isinstance(legal[-1], Card):
                cards = 0
                for c in legal:
                    cards |= c.bit  # type: ignore[union-attr]
                # the cards' ids run from play0 = 133 (word 4, bit 5) to 164 (word 5)
                bits = cards << (self.play0 & 31)
                k = self.play0 >> 5
                for j in range(MASK_WORDS):
                    masks[m + j] = 0
                masks[m + k] = bits & 0xFFFFFFFF
                masks[m + k + 1] = bits >> 32
            else:
                bits = self.mask_bits(i, legal)
                for j in range(MASK_WORDS):
                    masks[m + j] = bits >> (32 * j) & 0xFFFFFFFF
            s0, s1, s2 = self.seat_of[i]
            seats[i] = pick3(p, s0, s1, s2)

    def mask_bits(self, i: int, legal: tuple[Action, ...]) -> int:
        """The mask of game ``i``'s seat to move as one number (bit ``a`` for action
        ``a``), from the view's legal actions: a discard step offers the cards of the
        legal pairs (with a card pending, the other card of each pair with it)."""
        if not legal:
            return 0
        if isinstance(legal[0], Discard):
            return discard_steps(legal, self.pending[i]) << self.discard0
        known = self._masks.get(id(legal))
        if known is not None and known[0] is legal:
            return known[1]
        bits = 0
        index = self.index
        for a in legal:
            bits |= 1 << index[a]
        if len(self._masks) >= _CACHE_SIZE:
            self._masks.clear()
        self._masks[id(legal)] = (legal, bits)
        return bits

    def legal_ids(self, i: int) -> list[int]:
        """The ids game ``i``'s seat to move may choose, ascending (from its view)."""
        v = self.view(i)
        legal = v.legal_actions
        if v.phase == "PLAY" and legal and isinstance(legal[-1], Card):
            return sorted(self.play0 + c.index for c in legal)  # type: ignore[union-attr]
        bits = self.mask_bits(i, legal)
        out: list[int] = []
        a = 0
        while bits:
            if bits & 1:
                out.append(a)
            bits >>= 1
            a += 1
        return out
