"""Bots: they receive views (never the state) and return legal actions.

Skat: :func:`make_bot`; Baptistenskat: :func:`make_baptisten_bot` (same names).

Bots are asked for by level: ``random``, ``easy`` (the rule-based bots; ``heuristic`` is
the older name of the same bot) and ``strong`` (search: :mod:`stich.bots.strong` for
Skat, :mod:`stich.bots.baptisten_strong` for Baptistenskat).  The registries
:data:`BOTS` and :data:`BAPTISTEN_BOTS` map each name to a factory; a new level is one
entry in each.

>>> type(make_bot("easy")) is type(make_bot("heuristic"))
True
>>> make_bot("heuristic").name, make_bot("random").name
('heuristic', 'random')
>>> sorted(BOTS)
['easy', 'heuristic', 'random', 'strong']
"""

from __future__ import annotations

from collections.abc import Callable

from stich.bots.baptisten import (
    BAPTISTEN_BOTS,
    BaptistenBot,
    BaptistenHeuristicBot,
    BaptistenRandomBot,
    make_baptisten_bot,
)
from stich.bots.base import Bot, RandomBot
from stich.bots.heuristic import SkatHeuristicBot
from stich.bots.strong import SkatStrongBot
from stich.core import ArgumentError

__all__ = ["BAPTISTEN_BOTS", "BOTS", "BaptistenBot", "BaptistenHeuristicBot",
           "BaptistenRandomBot", "Bot", "RandomBot", "SkatHeuristicBot", "SkatStrongBot",
           "make_baptisten_bot",
           "make_bot"]

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "easy": SkatHeuristicBot,  # the rule-based bot
    "heuristic": SkatHeuristicBot,  # the older name of ``easy``
    "strong": SkatStrongBot,  # the search bot (0.3 s per decision, 1.5 s at most)
}


def make_bot(name: str) -> Bot:
    """A new bot by name: ``random``, ``easy`` (alias ``heuristic``), ``strong``."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ArgumentError("bots.unknown", name=name, choices=", ".join(sorted(BOTS))) from None
    return factory()
