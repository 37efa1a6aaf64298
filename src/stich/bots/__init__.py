"""Bots: they receive views (never the state) and return legal actions.

Skat: :func:`make_bot`; Baptistenskat: :func:`make_baptisten_bot` (same names).

Bots are asked for by level (:data:`LEVELS`): ``random``, ``easy`` (the rule-based bots;
``heuristic`` is the older name of the same bot: :data:`OLD_NAMES`) and ``strong``
(search: :mod:`stich.bots.strong` for Skat, :mod:`stich.bots.baptisten_strong` for
Baptistenskat).  The registries :data:`BOTS` and :data:`BAPTISTEN_BOTS` map each name to
a factory; a new level is one entry in :data:`LEVELS` and one in each registry.  A level
only one game has (Skat's ``learned``, a policy trained with PPO, :mod:`stich.bots.learned`:
:data:`SKAT_LEVELS`) is in that game's registry only; :func:`known_level` with a game's
registry checks one.

>>> type(make_bot("easy")) is type(make_bot("heuristic"))
True
>>> make_bot("heuristic").name, make_bot("random").name
('heuristic', 'random')
>>> sorted(BOTS)
['easy', 'heuristic', 'learned', 'random', 'strong']
>>> SKAT_LEVELS
('random', 'learned', 'easy', 'strong')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

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

__all__ = ["BAPTISTEN_BOTS", "BOTS", "LEVELS", "OLD_NAMES", "SKAT_LEVELS", "BaptistenBot",
           "BaptistenHeuristicBot", "BaptistenRandomBot", "Bot", "RandomBot",
           "SkatHeuristicBot", "SkatStrongBot", "bot_level", "known_level",
           "make_baptisten_bot", "make_bot"]

LEVELS: tuple[str, ...] = ("random", "easy", "strong")
"""The bot levels, weakest first: what the site's seats and pages and the environments
offer (:mod:`stich.server`, ``web/static/js/site.js``, :mod:`stich.env.gym`).  Each
game's registry (:data:`BOTS`, :data:`BAPTISTEN_BOTS`) has a bot for each, and for each
older name of :data:`OLD_NAMES`."""

SKAT_LEVELS: tuple[str, ...] = ("random", "learned", "easy", "strong")
"""The levels a Skat table offers, weakest first: :data:`LEVELS` and Skat's own
``learned`` (:mod:`stich.bots.learned`, a policy trained with PPO), which plays better
than ``random`` and not as well as ``easy`` (docs/env.md, "Training a Skat agent").  Each
game says its own (``stich.games``' ``bot_levels``)."""

OLD_NAMES: dict[str, str] = {"heuristic": "easy"}
"""Older names still taken, and the level each is."""


def _learned() -> Bot:
    from stich.bots.learned import skat_bot  # (its network is read on first use)

    return skat_bot()


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "easy": SkatHeuristicBot,  # the rule-based bot
    "heuristic": SkatHeuristicBot,  # the older name of ``easy``
    "strong": SkatStrongBot,  # the search bot (0.3 s per decision, 1.5 s at most)
    "learned": _learned,  # a policy trained with PPO (Skat only)
}


def _registry(registry: Mapping[str, Callable[[], Bot]] | None) -> set[str]:
    return set(BOTS) & set(BAPTISTEN_BOTS) if registry is None else set(registry)


def known_level(name: str, registry: Mapping[str, Callable[[], Bot]] | None = None) -> bool:
    """Whether the bots of both games answer to ``name`` (a level, an older name, or a
    level registered in both registries since: the server's test bot), or with
    ``registry`` (a game's ``bots``) the bots of that game (its own levels too:
    ``learned`` for Skat)."""
    return name in _registry(registry)


def bot_level(name: str, registry: Mapping[str, Callable[[], Bot]] | None = None) -> str:
    """``name``, when it is a :func:`known_level` (of ``registry``); else refused.

    >>> bot_level("easy"), bot_level("learned", BOTS)
    ('easy', 'learned')
    >>> bot_level("hard")
    Traceback (most recent call last):
    ...
    stich.core.ArgumentError: unknown bot 'hard': use one of easy, heuristic, random, strong
    >>> bot_level("learned", BAPTISTEN_BOTS)
    Traceback (most recent call last):
    ...
    stich.core.ArgumentError: unknown bot 'learned': use one of easy, heuristic, random, strong
    """
    if known_level(name, registry):
        return name
    raise ArgumentError("bots.unknown", name=name,
                        choices=", ".join(sorted(_registry(registry))))


def make_bot(name: str) -> Bot:
    """A new bot by name: ``random``, ``easy`` (alias ``heuristic``), ``strong``,
    ``learned``."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ArgumentError("bots.unknown", name=name, choices=", ".join(sorted(BOTS))) from None
    return factory()
