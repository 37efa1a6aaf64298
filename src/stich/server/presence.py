"""Who is at a table: the persons' ``away`` / ``back`` / ``standin`` as their
connections (on every worker) say, the grace a person who went away has before a
stand-in plays, and whether anybody is at the table at all (for the idle policy,
:mod:`stich.server.idle`).

One :class:`Presence` per table actor (:class:`stich.server.hub.TableActor`); it
decides from the connections (:meth:`stich.server.bus.Bus.present`) and writes through
the actor (``_retry``: a lost race decides again)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from stich.server.events import Event, PresenceKind
from stich.server.health import REDIS
from stich.server.wire import SPECTATOR

if TYPE_CHECKING:
    from stich.server.hub import TableActor

__all__ = ["Presence"]


class Presence:
    """The presence of a table's persons."""

    def __init__(self, actor: TableActor, settle: float) -> None:
        self.actor = actor
        self.settle = settle  # seconds after Redis came back before presence is known
        # counts the connections this worker opened (see absent): a decision that a
        # person is away, made from presence read before one opened, is dropped
        self.arrivals = 0
        self.timers: dict[int, asyncio.TimerHandle] = {}  # grace timers by seat

    def counts(self, receiver: int) -> bool:
        """Whether a connection of ``receiver`` means somebody is at the table: a person
        playing there (not away, no stand-in, not left), or at a table of bots alone
        anybody watching."""
        if receiver == SPECTATOR:
            return not self.people()
        return receiver in self.actor.sitting.present_people()

    def people(self) -> list[int]:
        """The seats persons sat down in (not bots)."""
        return [i for i, info in enumerate(self.actor.sitting.seats)
                if info is not None and info.bot is None]

    async def watched(self) -> bool:
        """Somebody is at the table, on any worker (see :meth:`counts`): a person who
        is away, has a stand-in or left is not somebody at the table, nor is a watcher
        at a table of people."""
        actor = self.actor
        present = await actor.hub.bus.present(actor.id)
        if self.people():
            return bool(present & set(actor.sitting.present_people()))
        return bool(present)

    def known(self) -> bool:
        """Whether who is connected is known on every worker: not while Redis is away,
        nor in the first seconds after; a presence read that found Redis away answered
        from this worker alone, and says so here."""
        return self.actor.hub.services.settled(REDIS, self.settle)

    async def mark(self, seat: int, kind: PresenceKind, auto: bool = False) -> None:
        """``away`` / ``back`` / ``standin`` for a seat; ``auto``: because a connection
        opened or closed (within the seat's budget: sockets that come and go fast write
        no more than it; the housekeeping round puts the presence right later)."""
        actor = self.actor
        if auto and not actor.sitting.plan_presence(seat, kind):
            return  # nothing would change: nothing to count
        if auto and await actor.spend(seat) > 0:
            return
        await actor._retry(lambda s: s.plan_presence(seat, kind))

    async def reconcile(self) -> None:
        """The persons' presence as the connections say (what a connection that came or
        went beyond its budget did not write)."""
        actor = self.actor
        arrivals = self.arrivals
        present = await actor.hub.bus.present(actor.id)
        if not self.known():
            return
        s = actor.sitting
        for seat in self.people():
            if seat in s.quit:
                continue
            if seat in present and seat in s.away and seat not in s.asked_away:
                await self.mark(seat, "back")
            elif seat not in present and seat not in s.away:
                await self.absent(seat, arrivals)

    async def absent(self, seat: int, arrivals: int) -> None:
        """Mark ``seat`` away, as decided from presence read when this worker had
        opened ``arrivals`` connections: not if one opened since (it may be that seat's,
        already shown the table as present)."""
        await self.actor._retry(lambda st: st.plan_presence(seat, "away")
                                if self.arrivals == arrivals else [])

    def on_event(self, ev: Event) -> None:
        """A person who went away gets the table's grace; one back (or played by a
        stand-in, or gone) none."""
        if ev.kind == "start":  # a person who sat down and never connects is marked
            self.actor.hub._later_presence(self.actor)  # away too, so that a stand-in plays
        elif ev.kind == "away" and ev.seat is not None:
            self.start_grace(ev.seat)
        elif ev.kind in ("back", "standin", "quit") and ev.seat is not None:
            self.cancel(ev.seat)

    def start_grace(self, seat: int) -> None:
        self.cancel(seat)
        actor = self.actor
        loop = asyncio.get_running_loop()
        grace = actor.sitting.settings.grace
        # the coroutine is made when the time is up: a cancelled timer leaves none behind
        self.timers[seat] = loop.call_later(
            grace, lambda: actor._keep_trying("grace timer", lambda: self.grace_over(seat)))

    def cancel(self, seat: int) -> None:
        t = self.timers.pop(seat, None)
        if t is not None:
            t.cancel()

    def cancel_all(self) -> None:
        for t in self.timers.values():
            t.cancel()
        self.timers.clear()

    async def grace_over(self, seat: int) -> None:
        actor = self.actor
        self.timers.pop(seat, None)
        if seat in await actor.hub.bus.present(actor.id) \
                and seat not in actor.sitting.asked_away:
            await self.mark(seat, "back")
            return
        await self.mark(seat, "standin")

    async def check(self) -> None:
        """After a load: seated persons not connected anywhere are away."""
        actor = self.actor
        arrivals = self.arrivals
        present = await actor.hub.bus.present(actor.id)
        if not self.known():
            actor.hub._later_presence(actor)  # (again once it is known)
            return
        s = actor.sitting
        for i, info in enumerate(s.seats):
            if info is None or info.bot is not None or i in present:
                continue
            if i in s.away and i not in s.standins:
                self.start_grace(i)
            else:
                await self.absent(i, arrivals)
