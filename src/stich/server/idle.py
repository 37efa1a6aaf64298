"""What happens to a table nobody is at, as a pure decision: the lease holder's round
(:meth:`stich.server.hub.TableActor.tend`) measures, this module decides, the actor
writes the event.

- somebody is back at a table the site paused: it goes on (``wake``);
- a table that never started closes when its seats stayed unchanged for
  ``waiting_expire`` seconds (``expire``; chat and reconnects do not keep it);
- a running table nobody has been at for ``idle_pause`` seconds is paused (``pause``);
- a paused table unchanged for ``idle_close`` seconds is closed (``close``).

A limit of 0 switches its step off.

>>> idle_step(watched=False, idle=False, started=True, paused=False, quiet=700,
...           unchanged=700, seats_unchanged=None, idle_pause=600, idle_close=86400,
...           waiting_expire=3600)
'pause'
"""

from __future__ import annotations

from typing import Literal

__all__ = ["IdleStep", "idle_step"]

IdleStep = Literal["wake", "expire", "pause", "close"]


def idle_step(*, watched: bool, idle: bool, started: bool, paused: bool, quiet: float,
              unchanged: float, seats_unchanged: float | None, idle_pause: float,
              idle_close: float, waiting_expire: float) -> IdleStep | None:
    """The step a table needs now, or None.  ``quiet``: seconds since somebody was last
    at it; ``unchanged``: since its last event; ``seats_unchanged``: since its seats last
    changed (asked only of a table that never started, None when not known)."""
    if watched:
        return "wake" if idle else None
    if not started:
        since = unchanged if seats_unchanged is None else seats_unchanged
        return "expire" if waiting_expire and since >= waiting_expire else None
    if not paused:
        return "pause" if idle_pause and quiet >= idle_pause else None
    return "close" if idle_close and unchanged >= idle_close else None
