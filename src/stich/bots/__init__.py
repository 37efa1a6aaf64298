"""Bots: they receive views (never the state) and return legal actions.

Skat: :func:`make_bot`; Baptistenskat: :func:`make_baptisten_bot` (same names).

Bots are asked for by level: ``random``, ``easy`` (the rule-based bots; ``heuristic`` is
the older name of the same bot) and ``strong`` (search: Baptistenskat now,
:mod:`stich.bots.baptisten_strong`; Skat once it is ready).  The registries
:data:`BOTS` and :data:`BAPTISTEN_BOTS` map each name to a factory; a new level is one
entry in each.

>>> type(make_bot("easy")) is type(make_bot("heuristic"))
True
>>> make_bot("heuristic").name, make_bot("random").name
('heuristic', 'random')
>>> sorted(BOTS)
['easy', 'heuristic', 'random']
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
from stich.core import ArgumentError

__all__ = ["BAPTISTEN_BOTS", "BOTS", "BaptistenBot", "BaptistenHeuristicBot",
           "BaptistenRandomBot", "Bot", "RandomBot", "SkatHeuristicBot", "make_baptisten_bot",
           "make_bot"]

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "easy": SkatHeuristicBot,  # the rule-based bot
    "heuristic": SkatHeuristicBot,  # the older name of ``easy``
    # "strong" (stich.bots.strong.SkatStrongBot, issue 10) joins here once it beats
    # ``easy`` clearly and keeps its time budget; see docs/bots.md
}


def make_bot(name: str) -> Bot:
    """A new bot by name: ``random``, ``easy`` (alias ``heuristic``)."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ArgumentError("bots.unknown", name=name, choices=", ".join(sorted(BOTS))) from None
    return factory()
