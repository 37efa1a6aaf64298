"""One live table of a worker: :class:`TableActor`, the one door that changes it, and
its connections (:class:`Conn`).  The hub (:mod:`stich.server.hub`) loads, leases and
tends the actors; the pure models the actor asks are the table (:mod:`.sitting`), its
timers (:mod:`.clock`), its idle policy (:mod:`.idle`) and its people's presence
(:mod:`.presence`); what is sent is :mod:`.wire`'s.  See :mod:`stich.server.hub` for how
a request goes through :meth:`TableActor.submit`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from stich.core import ArgumentError
from stich.messages import StichError
from stich.server import metrics, snapshot
from stich.server.clock import TurnClock
from stich.server.health import DATABASE, REDIS, Backoff
from stich.server.idle import idle_step
from stich.server.presence import Presence
from stich.server.sitting import Event, Sitting
from stich.server.store.db import NewGame
from stich.server.wire import (
    SPECTATOR,
    event_texts,
    message_text,
    preset_of,
    table_status,
    table_summary,
    view_json,
)

if TYPE_CHECKING:
    from stich.server.hub import Hub

__all__ = ["CATCH_UP_LIMIT", "LEASE_SECONDS", "RECENT", "REDIS_SETTLE", "SNAPSHOT_EVERY", "Conn",
           "TableActor"]

log = logging.getLogger("stich.server")

RECENT = 64  # events kept rendered per table, for reconnects
CATCH_UP_LIMIT = 48  # more missed events than this: a snapshot instead
LEASE_SECONDS = 15.0
SNAPSHOT_EVERY = 256
"""A table's state is written down (:mod:`stich.server.snapshot`) after this many events
since the last time: a load replays at most about this many and :data:`RECENT` more."""
REDIS_SETTLE = 5.0
"""Seconds after Redis came back before the housekeeping round judges presence again:
every worker has written its connections again by then (a Redis restarted without its
data has none; each worker's probe, every second, writes them)."""


@dataclass(eq=False)
class Conn:
    """One WebSocket connection: its receiver (seat or spectator) and its outbox."""

    receiver: int
    lang: str
    user_id: int | None
    outbox: asyncio.Queue[dict[str, Any] | str | None] = field(
        default_factory=lambda: asyncio.Queue(maxsize=2000))
    last_seq: int = 0
    closed: bool = False
    told: int | None = None  # the receiver its last ``welcome`` named
    session: str | None = None  # the hash of the session token it was opened with
    address: str = "?"  # whom the limit of sockets per address counts
    close_code: int = 1000
    name: str | None = None  # the account's name (chat lines are signed with it)
    style: str = "german"  # the card style of the client (``?style=``): card names in texts

    def close(self, code: int = 1000) -> None:
        """Let the connection go (its writer closes the socket with ``code``)."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait(None)

    def send(self, msg: dict[str, Any]) -> None:
        seq = msg.get("seq")
        if msg.get("type") == "event" and isinstance(seq, int):
            self.send_event(seq, message_text(msg))
        else:
            self._put(msg)

    def send_event(self, seq: int, text: str) -> None:
        """An event message, as its JSON text (see :func:`message_text`)."""
        if self.closed:
            return
        if seq <= self.last_seq:
            return  # never the same event twice
        self.last_seq = seq
        self._put(text)

    def _put(self, msg: dict[str, Any] | str) -> None:
        if self.closed:
            return
        try:
            self.outbox.put_nowait(msg)
        except asyncio.QueueFull:  # a client that reads nothing is let go
            self.close(1008)


class TableActor:
    def __init__(self, hub: Hub, table_id: str, sitting: Sitting) -> None:
        self.hub = hub
        self.id = table_id
        self.sitting = sitting
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        # who is at the table (away, back, stand-ins, grace timers)
        self.presence = Presence(self, REDIS_SETTLE)
        # the JSON texts: strings are no work for the garbage collector, dicts of
        # views (64 events x every receiver x every table) were most of its heap
        self.recent: deque[tuple[int, dict[int, str]]] = deque(maxlen=RECENT)
        # the snapshot the sitting's events in memory follow (None: the first event)
        self.base: dict[str, Any] | None = None
        self.owned = not hub.config.multi
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.quiet_since: float | None = time.monotonic()  # nobody at the table since
        self.creator: int | None = None  # the account that created the table
        self.invite: str | None = None  # the table's invite (never sent to a spectator)
        # the turn clock / the wait after a game: what runs now (see :meth:`retime`),
        # and the call that acts when it is up
        self.clock = TurnClock()
        self._clock_handle: asyncio.TimerHandle | None = None

    # --- changing the table --------------------------------------------------------------

    async def submit(self, plan: Callable[[Sitting], list[Event]]) -> list[Event]:
        """Plan, apply, commit, send.  Raises the plan's refusal, or ``server.stale``
        when another worker wrote first."""
        async with self.lock:
            try:
                await self._catch_up_locked()
            except Exception as e:  # the database is away: nothing read, nothing done
                self._trouble("reading the table", e)
                raise ArgumentError("server.not_saved") from None
            events = plan(self.sitting)
            if not events:
                return []
            finished = len(self.sitting.finished)
            rendered = self._apply(events)
            games = self._new_games(finished)
            try:
                ok = await self.hub.store.append(
                    self.id, events, status=table_status(self.sitting),
                    summary=table_summary(self.sitting), games=games)
            except Exception as e:  # not stored (the database failed): not applied either
                self._trouble("saving events", e)
                self._undo(len(events))
                raise ArgumentError("server.not_saved") from None
            if not ok:  # another worker wrote first: its events instead of these
                self._undo(len(events))
                before = self.sitting.seq
                await self._catch_up_locked(force=True)
                if self.sitting.seq == before:
                    # nobody else wrote: a unique key refused the commit for another
                    # reason (a mistake of ours), which a retry would meet again and
                    # again: noted, and refused as not saved, never as stale
                    self._trouble("saving events", RuntimeError(
                        f"a unique key refused events {events[0].seq}..{events[-1].seq} "
                        "though no other writer wrote"))
                    raise ArgumentError("server.not_saved")
                raise ArgumentError("server.stale", current=self.sitting.seq,
                                    seen=events[0].seq - 1)
            self._deliver(rendered)
            self._welcome_again()
            self._keep_snapshot()
        # the timer right behind the events, before anything is awaited: each
        # connection's writer then finds both and sends them in one frame (app._write)
        self.retime()
        for ev in events:
            if ev.kind == "act":
                metrics.ACTIONS.labels(str(ev.data.get("by", "player"))).inc()
        await self.hub.bus.publish(self.id, self.sitting.seq)
        self.wake()
        for ev in events:
            self._on_event(ev)
        if self.sitting.over and not self.conns:
            self.hub.forget(self)
        return events

    def _keep_snapshot(self) -> None:
        """Every :data:`SNAPSHOT_EVERY` events: the table's state written down (and the
        events before it dropped from memory), so that a load replays only what came
        after.  The write does not hold up the table; should it fail, the log is still
        the truth (the next load replays more)."""
        s = self.sitting
        if s.seq - s.base < SNAPSHOT_EVERY:
            return
        keep_from = s.base
        snap = self.base = snapshot.take(s)
        s.forget_events()
        self._spawn(self.hub.save_snapshot(self.id, snap, keep_from))

    def _apply(self, events: list[Event]) -> list[tuple[int, dict[int, str]]]:
        out = []
        for ev in events:
            self.sitting.apply(ev)
            if ev.kind in ("seat", "leave", "quit"):
                self._rebind()
            # every seat a person holds (present or not: a player who comes back asks
            # for the events missed) and the spectators (a watcher likewise): every
            # connection's receiver is one of them; a bot's seat nobody receives
            msgs = event_texts(self.sitting, ev, _people_and_watchers(self.sitting))
            self.recent.append((ev.seq, msgs))
            out.append((ev.seq, msgs))
        return out

    def _rebind(self) -> None:
        """Each connection receives for its user's seat now: a person who stood up
        watches from now on (the seat may go to someone else: they must not see that hand
        nor act for it), a spectator who sat down plays from its seat event on
        (:meth:`_receiver_at`).  A connection whose seat changed gets a new ``welcome``
        after the events (:meth:`_welcome_again`)."""
        for c in self.conns:
            seat = self.seat_of(c.user_id)
            new = SPECTATOR if seat is None else seat
            if new == c.receiver:
                continue
            self._spawn(self.hub.bus.presence(self.id, c.receiver, -1))
            self._spawn(self.hub.bus.presence(self.id, new, +1))
            c.receiver = new

    def _welcome_again(self) -> None:
        """A new ``welcome`` to each connection whose seat changed since its last one."""
        for c in list(self.conns):
            if c.told is not None and c.told != c.receiver and not c.closed:
                c.send(self.hub.welcome(self, c))

    def _undo(self, n: int) -> None:
        """Forget the last ``n`` applied events (their commit failed): the sitting again
        from its snapshot and the events after it (never more than
        :data:`SNAPSHOT_EVERY`: a snapshot is taken only after a commit)."""
        old = self.sitting
        fresh = snapshot.restore(old.settings, self.base) if self.base is not None \
            else Sitting(old.settings)
        for ev in old.events[:-n]:
            fresh.apply(ev)
        self.sitting = fresh
        for _ in range(min(n, len(self.recent))):
            self.recent.pop()
        self._rebind()

    def _receiver_at(self, receiver: int, seq: int) -> int:
        """As whom ``receiver`` gets event ``seq``: a seat's events from before its
        holder sat down as the spectators saw them."""
        if receiver == SPECTATOR or seq >= self.sitting.sat_at.get(receiver, 0):
            return receiver
        return SPECTATOR

    def _deliver(self, rendered: list[tuple[int, dict[int, str]]]) -> None:
        for seq, msgs in rendered:
            for c in list(self.conns):
                text = msgs.get(self._receiver_at(c.receiver, seq))
                if text is not None:
                    c.send_event(seq, text)
                elif seq > c.last_seq:  # not rendered for it (never expected): the state
                    c.send(self.snapshot(c.receiver))
                    c.last_seq = self.sitting.seq

    def _new_games(self, before: int) -> list[NewGame]:
        s = self.sitting
        out = []
        for rec, whose in zip(s.finished[before:], s.finished_seats[before:], strict=True):
            number, lines = s.play.result_lines(rec)
            players = [{"seat": seat, "user_id": info.user if info else None,
                        "name": info.name if info else "", "bot": info.bot if info else None,
                        **lines[seat]}
                       for seat, info in enumerate(s.seats)]
            for p in players:  # whose game it was (docs/server.md)
                p["standin"] = p["seat"] in whose["standin"]
                p["counts"] = p["seat"] not in whose["absent"]
                # at a Skat table of four the dealer who sat the game out (the record
                # names him too); every line has the key: the rows go in one INSERT
                p["sat_out"] = bool(p.get("sat_out", False))
            out.append(NewGame(number=number, game=s.settings.game, rules=s.settings.rules,
                               preset=preset_of(s.settings), record=rec, players=players))
        return out

    async def _catch_up_locked(self, force: bool = False) -> None:
        """Apply (and send) what other workers (or ``stich admin``: ``force``)
        committed."""
        if not self.hub.config.multi and not force:
            return
        events = await self.hub.store.events(self.id, after=self.sitting.seq)
        if events:
            self._deliver(self._apply(events))
            self._welcome_again()
            for ev in events:
                self._on_event(ev)
            self.retime()
            self.wake()

    async def catch_up(self, force: bool = False) -> None:
        async with self.lock:
            await self._catch_up_locked(force)

    # --- connections ---------------------------------------------------------------------

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        for i, info in enumerate(self.sitting.seats):
            if info is not None and info.user == user_id and info.bot is None \
                    and i not in self.sitting.quit:
                return i
        return None

    async def connect(self, conn: Conn, since: int | None) -> None:
        """Welcome the connection, send what it missed (or a snapshot), count it present,
        and bring its seat back from away."""
        # present, and back from away, before the table is shown: what the connection
        # is shown then holds (a "back" after it would move the table on under a person
        # whose turn it shows; a housekeeping round that read presence before cannot
        # mark them away after, see _absent)
        await self.hub.bus.presence(self.id, conn.receiver, +1)
        self.presence.arrivals += 1
        if conn.receiver != SPECTATOR:
            self.presence.cancel(conn.receiver)
            # (several workers: what the others wrote first, the seat's "away" by the
            # lease holder among it, else "back" would look like nothing to do)
            await self.catch_up()
            try:
                await self.presence.mark(conn.receiver, "back", auto=True)
            except Exception as e:  # the database is away: the housekeeping round
                self._trouble("presence", e)  # writes "back" once it is there again
        async with self.lock:
            await self._catch_up_locked()
            self.conns.add(conn)
            metrics.CONNECTIONS.inc()
            self.hub.addresses[conn.address] += 1
            conn.send(self.hub.welcome(self, conn))
            self._send_since(conn, since)
        if self.presence.counts(conn.receiver):
            self.quiet_since = None
        if not self.hub.services.up(DATABASE):
            conn.send(self.hub.service_message())
        try:
            await self.resume_if_watched()
        except Exception as e:
            self._trouble("resuming", e)

    async def resume_if_watched(self) -> None:
        """The site's pause (``idle``) ends once somebody is at the table again."""
        if self.sitting.idle and await self.presence.watched():
            self.quiet_since = None
            await self._retry(lambda s: s.plan_idle(False))

    async def spend(self, seat: int | None) -> float:
        """Count one event that does not change the game against its budget (shared by
        every worker): a seat's presence, pause, resume, ready and end against
        ``seat_events_per_min`` of that seat, a watcher's chat line (``seat`` None)
        against ``watcher_chats_per_min`` of the table.  0 when there was room, else the
        seconds until there would be (and nothing is counted).  A player's chat lines
        count against ``chats_per_20s`` of the account alone, so that neither chat nor
        watchers ever spend what a seat needs to say "ready" or "back"."""
        limiter = self.hub.limiter
        if limiter is None:
            return 0.0
        limits = self.hub.config.limits
        if seat is None:
            key, rule = f"watcher-chat:{self.id}", limits.rule("watcher_chats_per_min", 60.0)
        else:
            key, rule = f"seat-events:{self.id}:{seat}", limits.rule("seat_events_per_min",
                                                                      60.0)
        return 0.0 if rule is None else await limiter.hit(key, rule)

    def _send_since(self, conn: Conn, since: int | None) -> None:
        seq = self.sitting.seq
        if since is not None and since == seq:
            conn.last_seq = seq
            return  # up to date (a number beyond the table's gets a snapshot below)
        missed = self._missed(conn.receiver, since) \
            if since is not None and since < seq and seq - since <= CATCH_UP_LIMIT else None
        if missed is not None:
            for n, text in missed:
                conn.send_event(n, text)
            return
        conn.send(self.snapshot(conn.receiver))
        conn.last_seq = seq

    def _missed(self, receiver: int, since: int) -> list[tuple[int, str]] | None:
        """The events after ``since`` as ``receiver`` gets them, from those kept rendered
        (:attr:`recent`: the last :data:`RECENT`, for every seat a person holds and for
        the spectators, also after a load); an event before the seat's holder sat down
        as the spectators saw it.  None when they are not all kept.  Costs only the
        events it returns: nothing is replayed."""
        if not self.recent or self.recent[0][0] > since + 1:
            return None
        out = []
        for n, msgs in self.recent:
            if n <= since:
                continue
            text = msgs.get(self._receiver_at(receiver, n))
            if text is None:
                return None
            out.append((n, text))
        return out

    def snapshot(self, receiver: int) -> dict[str, Any]:
        s = self.sitting
        return {"type": "snapshot", "seq": s.seq, "table": self.hub.table_info(self, receiver),
                "view": view_json(s, receiver), "list": s.list_json(), "sheet": s.sheet(),
                "chat": s.chat_lines()}

    async def sync(self, conn: Conn, since: int) -> None:
        async with self.lock:
            await self._catch_up_locked()
            conn.last_seq = min(conn.last_seq, since)
            self._send_since(conn, since)

    async def disconnect(self, conn: Conn) -> None:
        if conn in self.conns:
            self.conns.discard(conn)
            metrics.CONNECTIONS.dec()
            self.hub.addresses[conn.address] -= 1
            if self.hub.addresses[conn.address] <= 0:
                del self.hub.addresses[conn.address]
        conn.closed = True
        if self.sitting.over and not self.conns:
            self.hub.forget(self)
        await self.hub.bus.presence(self.id, conn.receiver, -1)
        if conn.receiver == SPECTATOR:
            return
        if conn.receiver not in await self.hub.bus.present(self.id):
            try:
                await self.presence.mark(conn.receiver, "away", auto=True)
            except Exception as e:  # (the housekeeping round writes it later)
                self._trouble("presence", e)

    async def tend(self, updated: datetime | None, now: datetime | None = None) -> None:
        """The round of the lease holder (see the module's text): pause a table nobody
        is at, close one nobody came back to or that never started."""
        s = self.sitting
        if s.over or not self.owned:
            return
        if not self.hub.services.settled(REDIS, REDIS_SETTLE):
            return  # who is connected on the other workers is not known now
        limits = self.hub.config.limits
        if s.started:
            await self.presence.reconcile()
        watched = await self.presence.watched()
        if not self.presence.known():
            return
        if watched:
            self.quiet_since = None
        elif self.quiet_since is None:
            self.quiet_since = time.monotonic()
        quiet = 0.0 if self.quiet_since is None else time.monotonic() - self.quiet_since
        unchanged = ((now or datetime.now(UTC)) - updated).total_seconds() \
            if updated is not None else 0.0
        seats_unchanged = None
        if not watched and not s.started and limits.waiting_expire:
            changed = await self.hub.store.seats_changed(self.id)
            if changed is not None:
                seats_unchanged = ((now or datetime.now(UTC)) - changed).total_seconds()
        step = idle_step(watched=watched, idle=s.idle, started=s.started, paused=s.paused,
                         quiet=quiet, unchanged=unchanged, seats_unchanged=seats_unchanged,
                         idle_pause=limits.idle_pause, idle_close=limits.idle_close,
                         waiting_expire=limits.waiting_expire)
        if step == "wake":
            await self._retry(lambda st: st.plan_idle(False))
        elif step == "expire":
            await self._retry(lambda st: [] if st.over or st.started
                              else st.plan_close("expired"))
        elif step == "pause":
            await self._retry(lambda st: [] if st.over else st.plan_idle(True))
        elif step == "close":
            await self._retry(lambda st: [] if st.over or not st.paused
                              else st.plan_close("abandoned"))

    async def _retry(self, plan: Callable[[Sitting], list[Event]]) -> None:
        """Submit a plan of the site's own (presence, idle, closing); a lost race with
        another worker's commit decides again, a refusal is dropped."""
        for _ in range(5):
            try:
                await self.submit(plan)
                return
            except StichError as e:
                if e.code == "server.not_saved":
                    raise  # (the database is away: the caller tries again later)
                if e.code != "server.stale":
                    return

    # --- driving: bots and timers (the lease holder) -------------------------------------

    def wake(self) -> None:
        self._wake.set()
        if (self._driver is None or self._driver.done()) and self._bot_to_move():
            self._driver = asyncio.create_task(self._drive())

    def _bot_to_move(self) -> bool:
        """Whether a bot (or a stand-in) is to move here now (else no driver is started:
        after every person's action at a table of people alone)."""
        s = self.sitting
        seat = s.to_move_seat()
        return self.owned and seat is not None and not s.paused and not s.between \
            and s.bot_seat(seat) is not None

    def _on_event(self, ev: Event) -> None:
        if self.owned:  # (the lease holder keeps the grace timers)
            self.presence.on_event(ev)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _trouble(self, what: str, e: BaseException) -> str | None:
        """Note a failure (the log: once per kind and table, then counted); the service
        it says is away, if any."""
        services = self.hub.services
        name = services.saw(e)
        if name == DATABASE or name is None:
            metrics.DB_ERRORS.inc()
        services.trouble.note(what, self.id, e, name is not None)
        return name

    def _keep_trying(self, what: str, step: Callable[[], Any]) -> None:
        """Run ``step`` (a coroutine function) until it does not fail: after a failure
        of the database or Redis again after a back-off, at once when the service is
        back; a failure that is no outage (a mistake of ours) is tried a few times."""
        async def run() -> None:
            backoff = Backoff()
            mistakes = 0
            while True:
                try:
                    await step()
                    return
                except Exception as e:
                    if not _not_saved(e) and self._trouble(what, e) is None:
                        mistakes += 1
                        if mistakes > 3:
                            return
                await backoff.sleep(self.hub.recovered)
        self._spawn(run())

    async def _drive(self) -> None:
        """Bot moves while bots are to move; a move that fails (the database or Redis
        away) again after a back-off, at once when the service is back."""
        backoff = Backoff()
        while True:
            self._wake.clear()
            try:
                moved = await self._bot_move()
            except Exception as e:
                if not _not_saved(e):  # (what was not saved was noted already)
                    self._trouble("bot move", e)
                await backoff.sleep(self.hub.recovered)
                continue
            backoff.reset()
            if not moved and not self._wake.is_set():
                return

    async def _bot_move(self) -> bool:
        if not self._bot_to_move():
            return False
        s = self.sitting
        seat = s.to_move_seat()
        assert seat is not None
        level = s.bot_seat(seat)
        assert level is not None
        seq = s.seq
        if self.hub.config.bot_delay > 0:  # people can follow; bots alone are paced too
            await asyncio.sleep(self.hub.config.bot_delay)
        view = s.view(seat)
        by = "bot" if s.seats[seat] is not None and s.seats[seat].bot else "standin"  # type: ignore[union-attr]
        # moves at a table with a person connected here go before those of bots alone
        playing = s.present_people()
        urgent = any(c.receiver in playing for c in self.conns)
        text = await self.hub.workers.bot_action(
            s.settings.game, level, view, s.seed_of(100_000 + seq),
            urgent=urgent)

        def plan(st: Sitting) -> list[Event]:
            if st.seq != seq:
                return []  # the table moved on meanwhile: decide again
            return st.plan_act(seat, text, by=by)

        try:
            await self.submit(plan)
        except StichError as e:
            if e.code != "server.stale":  # (another worker wrote first: decide again)
                raise  # not saved, or refused (a mistake): _drive tries again later
        return True

    # --- the turn clock and the wait after a game ----------------------------------------

    def retime(self) -> None:
        """Start, keep or stop the timer after the table changed (:class:`TurnClock`
        decides), and tell every connection when it starts or stops (``timer``)."""
        s = self.sitting
        want = self.clock.wanted(s, self.hub.config.limits.pause_most)
        if self.clock.goes_on(want):
            self._arm()  # the same timer runs on (a lease taken over arms it here)
            return
        now = time.monotonic()
        self._disarm()
        self.clock.stop(now, s.paused, s.settings.clock)
        if want is not None:
            self.clock.start(want, now)
            self._arm()
        msg = self.timer_message()
        for c in list(self.conns):
            c.send(msg)

    def _disarm(self) -> None:
        if self._clock_handle is not None:
            self._clock_handle.cancel()
            self._clock_handle = None

    def _arm(self) -> None:
        """The lease holder acts when the running timer is up."""
        run = self.clock.running
        if run is None or not self.owned or self._clock_handle is not None:
            return
        key = run.timer.key
        delay = max(0.0, run.deadline - time.monotonic())
        self._clock_handle = asyncio.get_running_loop().call_later(
            delay, lambda: self._keep_trying("clock", lambda: self._time_up(key)))

    def timer_message(self) -> dict[str, Any]:
        """The ``timer`` message of what runs now (``kind`` None: nothing)."""
        return self.clock.message(time.monotonic())

    async def _time_up(self, key: tuple[Any, ...]) -> None:
        """The timer ran out: the table goes on after a game, or the clock acts for the
        seat to move (a bot's move, ``by: clock``; or the seat away with a stand-in)."""
        run = self.clock.running
        if run is None or run.timer.key != key or not self.owned:
            return
        self._clock_handle = None
        s = self.sitting
        timer = run.timer
        if timer.kind == "next":
            await self._retry(lambda st: st.plan_go_on(key[1]))
            return
        if timer.kind == "pause":
            await self._retry(lambda st: st.plan_pause_over(key[1]))
            return
        assert timer.seat is not None
        seat = timer.seat

        def same_turn(st: Sitting) -> bool:
            now = self.clock.running
            return now is not None and now.timer.key == key and st.to_move_seat() == seat

        if s.settings.on_timeout == "away":
            await self._retry(lambda st: st.plan_timeout_away(seat) if same_turn(st) else [])
            return
        text = await self.hub.workers.bot_action(
            s.settings.game, "easy", s.view(seat),
            s.seed_of(200_000 + s.seq), urgent=True)
        try:
            await self.submit(lambda st: st.plan_act(seat, text, by="clock")
                              if same_turn(st) else [])
        except StichError as e:
            if e.code == "server.not_saved":
                raise  # (tried again: _keep_trying)
            if e.code != "server.stale":
                log.warning("table %s: clock move %r refused: %s", self.id, text, e)

    async def close(self, code: int = 1001) -> None:
        if self._clock_handle is not None:
            self._clock_handle.cancel()
        self.presence.cancel_all()
        tasks: list[asyncio.Task[Any]] = [*self._tasks]
        if self._driver is not None:
            tasks.append(self._driver)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for c in list(self.conns):
            c.close(code)  # going away (1001), or read anew (1012)


def _not_saved(e: BaseException) -> bool:
    """A request refused because the database did not answer (noted where it failed)."""
    return isinstance(e, StichError) and e.code == "server.not_saved"


def _people_and_watchers(s: Sitting) -> list[int]:
    """The receivers an event is always rendered for: every seat a person holds, and
    the spectators."""
    return [*(i for i, info in enumerate(s.seats) if info is not None and info.bot is None),
            SPECTATOR]
