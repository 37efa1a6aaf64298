"""Which bots sit at a terminal table (``stich play … --bot``): a level, a trained policy's
file, or one of these per bot seat.

``--bot KIND`` gives every bot seat the same kind; ``--bot KIND,KIND`` one kind per bot
seat in seat order.  A kind is a level (``random``, ``easy``, ``strong``; the older
``heuristic``), ``file:policy.npz`` (a policy trained with ``examples/train_skat.py`` or
``examples/train_baptisten.py``; needs the ``rl`` extra) or ``py:package.module:factory``,
as in the arena (:mod:`stich.arena`).

>>> bot_kinds("easy", "skat", 2)
['easy', 'easy']
>>> bot_kinds("random,strong", "skat", 2)
['random', 'strong']
"""

from __future__ import annotations

from typing import Any

import typer

from stich.core import StichError

__all__ = ["bot_kinds", "make_bots"]


def bot_kinds(text: str, game: str, n: int) -> list[str]:
    """The kind of each of ``n`` bot seats from ``--bot``; a usage error (naming
    ``--bot``) for an unknown level, a file that is no policy of ``game``, or a list of
    the wrong length."""
    from stich.arena import ENTRY_POINT, POLICY_FILE, entry_point_bot, policy_file_bot
    from stich.games import get

    kinds = [k.strip() for k in text.split(",")]
    if len(kinds) == 1:
        kinds *= n
    if len(kinds) != n:
        raise typer.BadParameter(f"one kind for every bot or one per bot seat ({n}), "
                                 f"not {len(kinds)}", param_hint="--bot")
    known = get(game).bots
    for kind in dict.fromkeys(kinds):
        try:
            if kind.startswith(POLICY_FILE):
                policy_file_bot(kind, game)
            elif kind.startswith(ENTRY_POINT):
                entry_point_bot(kind)
            elif kind not in known:
                raise typer.BadParameter(
                    f"use {' or '.join(sorted(known))}, file:POLICY.npz or "
                    "py:module:factory", param_hint="--bot")
        except StichError as e:
            raise typer.BadParameter(str(e), param_hint="--bot") from None
    return kinds


def make_bots(kinds: list[str], game: str) -> list[Any]:
    """A new bot of each kind (checked by :func:`bot_kinds`)."""
    from stich.arena import ENTRY_POINT, POLICY_FILE, entry_point_bot, policy_file_bot
    from stich.games import get

    out: list[Any] = []
    for kind in kinds:
        if kind.startswith(POLICY_FILE):
            out.append(policy_file_bot(kind, game))
        elif kind.startswith(ENTRY_POINT):
            out.append(entry_point_bot(kind))
        else:
            out.append(get(game).make_bot(kind))
    return out
