"""The table's timers as a pure model: which timer a table needs now, and what a
running one has used.  The table actor (:class:`stich.server.hub.TableActor`) asks it
after every change and only schedules, sends and acts; nothing here does input or
output or reads a clock of its own (the actor passes ``now``).

Three timers, at most one at a time:

- ``pause``: a player's pause ends by itself after the site's ``pause_most`` seconds;
- ``next``: after a game (or round) the table waits ``next_after`` seconds for "ready";
- ``move``: a person to act, when the table has a turn clock: ``clock`` seconds plus
  what is left of the seat's time bank (``bank`` seconds per seat and game).  The time a
  move takes beyond the clock comes off the bank.  A pause gives nobody time: the turn
  goes on after it with the time it had left.

>>> from stich.server.sitting import Sitting, TableSettings
>>> s = Sitting(TableSettings(game="skat", rules="skat(preset=lothar)", games=3,
...                           seats=("person", "bot:easy", "bot:easy"), seed=7, clock=30))
>>> for plan in (lambda: s.plan_sit(0, "Anna", 1), s.plan_start):
...     for ev in plan():
...         s.apply(ev)
>>> clock = TurnClock()
>>> want = clock.wanted(s, pause_most=300)  # Anna's turn: her clock; a bot's: none
>>> want is None or (want.kind, want.secs) == ("move", 30.0)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from stich.server.sitting import Sitting

__all__ = ["Running", "Timer", "TimerKind", "TurnClock"]

TimerKind = Literal["pause", "next", "move"]


@dataclass(frozen=True)
class Timer:
    """A timer the table needs: its ``kind``, the seat it runs for (None: the table),
    the ``key`` that tells one run from another (a timer with the same key goes on),
    its length in seconds, and (``move``) the bank in it and the game it belongs to."""

    kind: TimerKind
    seat: int | None
    key: tuple[Any, ...]
    secs: float
    bank: float = 0.0
    game: tuple[int, int] | None = None  # (game number, round): the bank's game


@dataclass(frozen=True)
class Running:
    """A timer that runs: since ``start``, until ``deadline`` (the actor's clock)."""

    timer: Timer
    start: float
    deadline: float


class TurnClock:
    """A table's timer and the seats' time banks (kept in memory only: a restarted
    server gives every seat its whole bank again)."""

    def __init__(self) -> None:
        self.running: Running | None = None
        # the time bank left per seat in the running game, and that game
        self.banks: dict[int, float] = {}
        self.bank_game: tuple[int, int] = (-1, -1)
        # a move's clock stopped by a pause: its key and the time it had used
        self.held: tuple[tuple[Any, ...], float] | None = None

    def wanted(self, s: Sitting, pause_most: float) -> Timer | None:
        """The timer the table needs now: ``pause`` while a player's pause lasts (it
        ends by itself after ``pause_most``), ``next`` while it waits after a game,
        ``move`` for a person to act when the table has a clock, else None."""
        st = s.settings
        if not s.started or s.over:
            return None
        if s.paused:
            if s.paused_by is None or s.idle or pause_most <= 0:
                return None
            return Timer("pause", s.paused_by, ("pause", s.paused_since), float(pause_most))
        if s.between:
            return Timer("next", None, ("next", s.between_since), float(st.next_after))
        seat = s.to_move_seat()
        if seat is None or st.clock <= 0 or s.bot_seat(seat) is not None:
            return None
        game = (s.game_number, s.baptisten.round_index if s.baptisten is not None else 0)
        bank = self.banks.get(seat, float(st.bank)) if game == self.bank_game \
            else float(st.bank)
        # the turn: the game and its actions so far (a pause, chat or presence between
        # them is the same turn: the clock goes on where it stood)
        turn = (s.game_number, len(s.game_acts))
        return Timer("move", seat, ("move", seat, turn), st.clock + bank, bank, game)

    def goes_on(self, want: Timer | None) -> bool:
        """Whether ``want`` is the timer that runs already (or none runs, none wanted):
        nothing changes then."""
        if want is None:
            return self.running is None
        return self.running is not None and self.running.timer.key == want.key

    def stop(self, now: float, paused: bool, clock: float) -> None:
        """Stop the running timer; a move's time beyond the table's ``clock`` comes off
        the bank.  A move's clock stopped by a pause (``paused``) is held: the same turn
        after the pause goes on with the time it had left."""
        run, self.running = self.running, None
        if run is None:
            return
        t = run.timer
        if t.kind != "move" or t.game != self.bank_game:
            return
        if paused:
            self.held = (t.key, now - run.start)
            return
        over = now - run.start - clock
        if over > 0 and t.seat is not None:
            self.banks[t.seat] = max(0.0, t.bank - over)

    def start(self, want: Timer, now: float) -> Running:
        """Start ``want`` (the timer that ran before is stopped): a move in a new game
        begins with whole banks; a move held by a pause goes on where it stood."""
        start = now
        if want.kind == "move":
            if want.game != self.bank_game:
                assert want.game is not None
                self.banks, self.bank_game = {}, want.game
            held, self.held = self.held, None
            if held is not None and held[0] == want.key:
                start = now - held[1]  # after a pause: where the clock stood
        self.running = Running(want, start, start + want.secs)
        return self.running

    def message(self, now: float) -> dict[str, Any]:
        """The ``timer`` message of what runs now (``kind`` None: nothing)."""
        run = self.running
        if run is None:
            return {"type": "timer", "kind": None, "seat": None, "left": 0, "total": 0,
                    "bank": 0}
        t = run.timer
        left = max(0.0, run.deadline - now)
        return {"type": "timer", "kind": t.kind, "seat": t.seat,
                "left": round(left * 1000), "total": round(t.secs * 1000),
                "bank": round(min(t.bank, left) * 1000)}
