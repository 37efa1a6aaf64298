"""Bots: they receive views (never the state) and return legal actions.

Skat: :func:`make_bot`; Baptistenskat: :func:`make_baptisten_bot` (same names).

Bots are asked for by level (:data:`LEVELS`): ``random``, ``easy`` (the rule-based bots;
``heuristic`` is the older name of the same bot: :data:`OLD_NAMES`) and ``strong``
(search: :mod:`stich.bots.strong` for Skat, :mod:`stich.bots.baptisten_strong` for
Baptistenskat).  The registries :data:`BOTS` and :data:`BAPTISTEN_BOTS` map each name to
a factory; a new level is one entry in :data:`LEVELS` and one in each registry.

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

__all__ = ["BAPTISTEN_BOTS", "BOTS", "LEVELS", "OLD_NAMES", "BaptistenBot",
           "BaptistenHeuristicBot", "BaptistenRandomBot", "Bot", "RandomBot",
           "SkatHeuristicBot", "SkatStrongBot", "bot_level", "known_level",
           "make_baptisten_bot", "make_bot"]

LEVELS: tuple[str, ...] = ("random", "easy", "strong")
"""The bot levels, weakest first: what the site's seats and pages and the environments
offer (:mod:`stich.server`, ``web/static/js/site.js``, :mod:`stich.env.gym`).  Each
game's registry (:data:`BOTS`, :data:`BAPTISTEN_BOTS`) has a bot for each, and for each
older name of :data:`OLD_NAMES`."""

OLD_NAMES: dict[str, str] = {"heuristic": "easy"}
"""Older names still taken, and the level each is."""

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "easy": SkatHeuristicBot,  # the rule-based bot
    "heuristic": SkatHeuristicBot,  # the older name of ``easy``
    "strong": SkatStrongBot,  # the search bot (0.3 s per decision, 1.5 s at most)
}


def known_level(name: str) -> bool:
    """Whether the bots of both games answer to ``name``: a level, an older name, or a
    level registered in both registries since (the server's test bot)."""
    return name in BOTS and name in BAPTISTEN_BOTS


def bot_level(name: str) -> str:
    """``name``, when it is a :func:`known_level`; else refused.

    >>> bot_level("easy")
    'easy'
    >>> bot_level("hard")
    Traceback (most recent call last):
    ...
    stich.core.ArgumentError: unknown bot 'hard': use one of easy, heuristic, random, strong
    """
    if known_level(name):
        return name
    raise ArgumentError("bots.unknown", name=name, choices=", ".join(sorted(BOTS)))


def make_bot(name: str) -> Bot:
    """A new bot by name: ``random``, ``easy`` (alias ``heuristic``), ``strong``."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ArgumentError("bots.unknown", name=name, choices=", ".join(sorted(BOTS))) from None
    return factory()
