"""The games, each one registered object (:class:`Game`): what the arena, the server,
the records, the environments and the command line ask instead of testing a game's
name.  A new game (or a variant that plays differently, such as Skat at four) is one
new module here and one line in :data:`GAMES`.

>>> [g.title for g in GAMES.values()]
['Skat', 'Baptistenskat']
>>> get("skat").fixed_seats, get("baptisten").one_game_per_table
(3, True)
"""

from __future__ import annotations

from stich.core import ArgumentError
from stich.games.baptisten import BAPTISTEN
from stich.games.base import Game
from stich.games.skat import SKAT

__all__ = ["BAPTISTEN", "GAMES", "SKAT", "Game", "get", "names"]

GAMES: dict[str, Game] = {g.name: g for g in (SKAT, BAPTISTEN)}
"""Every game by its name, in the order pages and help texts list them."""


def get(name: str) -> Game:
    """The game called ``name``; an unknown name is an ArgumentError naming the games.

    >>> get("doppelkopf")
    Traceback (most recent call last):
    ...
    stich.core.ArgumentError: ...
    """
    try:
        return GAMES[name]
    except KeyError:
        raise ArgumentError("games.unknown", name=name, choices=", ".join(GAMES)) from None


def names() -> tuple[str, ...]:
    """The games' names (``skat``, ``baptisten``)."""
    return tuple(GAMES)
