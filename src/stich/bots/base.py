"""The bot protocol and the random bot.

A bot sees exactly what its seat may know: it receives a :class:`~stich.skat.view.SkatView`
(never the state) and a random source, and returns one of ``view.legal_actions``.

>>> import random
>>> from stich.skat import SkatState
>>> s = SkatState.new(seed=5)
>>> bot = RandomBot()
>>> s.apply(bot.choose(s.view(s.to_move), random.Random(0))).to_move in (0, 2)
True
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from stich.core import ArgumentError
from stich.messages import Seat
from stich.skat.actions import Action
from stich.skat.view import SkatView

__all__ = ["Bot", "RandomBot"]


@runtime_checkable
class Bot(Protocol):
    """Something that chooses an action for the seat a view belongs to."""

    name: str

    def choose(self, view: SkatView, rng: random.Random) -> Action:
        """One of ``view.legal_actions``, or of ``view.claims`` (claiming the rest, giving
        up) where the bot is sure (the view must be the seat to move)."""
        ...


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def choose(self, view: SkatView, rng: random.Random) -> Action:
        if not view.legal_actions:
            raise ArgumentError("bots.nothing_to_do", seat=Seat(view.seat), phase=view.phase)
        return rng.choice(view.legal_actions)
