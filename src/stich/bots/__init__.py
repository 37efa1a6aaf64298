"""Bots: they receive views (never the state) and return legal actions.

Skat: :func:`make_bot`; Baptistenskat: :func:`make_baptisten_bot` (same names).

>>> make_bot("heuristic").name, make_bot("random").name
('heuristic', 'random')
>>> sorted(BOTS)
['heuristic', 'random']
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
           "BaptistenRandomBot", "Bot", "RandomBot", "SkatHeuristicBot", "make_baptisten_bot",
           "make_bot"]

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "heuristic": SkatHeuristicBot,
    "strong": SkatStrongBot,
}


def make_bot(name: str) -> Bot:
    """A new bot by name: ``random`` or ``heuristic``."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ArgumentError("bots.unknown", name=name, choices=", ".join(sorted(BOTS))) from None
    return factory()
