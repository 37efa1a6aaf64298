"""One table of the site as a pure model: its settings and its numbered events.

A table is a *sitting*: a Skat list of several games, or one whole Baptistenskat game.
Everything that happens at it is an :class:`Event` with a number (``seq``, from 1 on,
without gaps).  The engine state is never stored: it is rebuilt by replaying the events
through the engines (:meth:`Sitting.apply`), which is what a restarted server does.

Nothing here does input or output.  :meth:`Sitting.plan` answers "what events would this
request add?" without changing anything (so a server can first commit them and only
then apply them), or refuses with the engine's :class:`StichError`.

The deals are not in the events: each is derived from the table's secret seed and the
game's number (:func:`table_seed`), so the event log itself holds nothing hidden except
the text of a Skat discard, which the wire form shows only to the declarer.

>>> s = Sitting(TableSettings(game="skat", rules="skat(preset=lothar)", games=3,
...                           seats=("bot:easy", "bot:random", "bot:easy"), seed=7))
>>> for ev in s.plan_start():
...     s.apply(ev)
>>> [e.kind for e in s.events][:5]
['seat', 'seat', 'seat', 'start', 'deal']
>>> s.to_move_seat() in (0, 1, 2)
True
"""

from __future__ import annotations

import hashlib
import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, assert_never

from stich import games
from stich.baptisten import BaptistenRules, BaptistenState
from stich.baptisten.scoring import scoresheet
from stich.bots import bot_level
from stich.core import ArgumentError
from stich.games.baptisten_play import BaptistenPlay
from stich.games.play import TablePlay, step
from stich.games.skat_play import SkatPlay
from stich.server.events import LOOSE_KINDS, Event, EventKind, PresenceKind
from stich.skat import SkatRules, SkatState
from stich.skat.actions import SHORTCUT
from stich.skat_list import SkatList, seeger_json

__all__ = [
    "LOOSE_KINDS",
    "Event",
    "Sitting",
    "DEALER_SEES",
    "DEALER_SEES_DEFAULT",
    "TableSettings",
    "bots_only",
    "table_seed",
    "replay_events",
]

CHAT_KEPT = 50  # chat lines a table keeps in memory for the welcome and the snapshot
PAUSES_PER_GAME = 1
"""Pauses one seat may begin in one game (Skat) or round (Baptistenskat), unless the site
says otherwise (``pauses_per_game`` of :class:`stich.server.limits.Limits`).  A pause
gives nobody time (the turn clock stands still and goes on where it stopped), ends when
any player resumes, or by itself after the site's ``pause_most`` seconds."""

DEALER_SEES = ("nothing", "all")
"""What the dealer who sits out at a Skat table of four may see of the game: ``nothing``
(what a watcher sees: the bidding, the declaration, the tricks, no hand) or ``all``
(every hand, as a watcher at a table that shows every hand: docs/server.md)."""
DEALER_SEES_DEFAULT = "nothing"


def bots_only(seats: Sequence[str]) -> bool:
    """Bots in every seat of a table's settings (nobody sits down there later).

    >>> bots_only(["bot:easy", "bot:random", "bot:easy"]), bots_only(["me", "bot:easy"])
    (True, False)
    """
    return all(str(spec).startswith("bot:") for spec in seats)


def table_seed(seed: int, number: int) -> int:
    """A seed the table derives from its secret ``seed``: of its game ``number`` (0 for
    the draw of seats and dealer; the bots' choices use numbers from 100 000 on).  (The
    arena's deals have their own: :func:`stich.arena.match_deal_seed`.)

    >>> table_seed(7, 1) == table_seed(7, 1) != table_seed(7, 2)
    True
    """
    digest = hashlib.sha256(f"stich:{seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True)
class TableSettings:
    """What a table was created with.  ``seats`` holds per seat ``person`` (an open seat
    for a person), or ``bot:<level>``; ``games``: Skat games in the list (a multiple of
    3, 0 = open-ended; Baptistenskat: 1); ``seed``: the secret the deals come from."""

    game: str  # the game's name (stich.games)
    rules: str
    seats: tuple[str, ...]
    seed: int
    games: int = 36
    grace: float = 60.0
    show_hands: bool = False  # spectators see every hand
    public: bool = True
    next_after: int = 0  # seconds the table waits for "ready" after a game (0: no wait)
    clock: int = 0  # seconds per action of a person (0: no turn clock)
    bank: int = 0  # extra seconds per seat and game once ``clock`` ran out
    on_timeout: str = "bot"  # the clock ran out: "bot" plays that move, or "away"
    # a Skat table of four: what the dealer who sits out sees (DEALER_SEES)
    dealer_sees: str = "nothing"
    # Skat: a game whose remaining tricks all go to one side whatever anyone plays ends
    # there: the table applies ``shortcut`` for the seat to move (:meth:`Sitting.plan_act`)
    shortcut: bool = False
    # Skat: how the list is scored: "list" (the classic list, Punktestand and Bilanz) or
    # "seeger" (the Preisskat list, Seeger-Fabian: stich.skat_list.seeger)
    scoring: str = "list"

    @property
    def skat_four(self) -> bool:
        """A Skat table of four seats (the dealer sits each game out)."""
        fixed = games.get(self.game).fixed_seats
        return fixed is not None and len(self.seats) > fixed

    def to_dict(self) -> dict[str, Any]:
        """The settings as stored (the seed included: never send this to a client)."""
        d = {"game": self.game, "rules": self.rules, "seats": list(self.seats),
             "seed": self.seed, "games": self.games, "grace": self.grace,
             "show_hands": self.show_hands, "public": self.public,
             "next_after": self.next_after, "clock": self.clock, "bank": self.bank,
             "on_timeout": self.on_timeout}
        if self.skat_four:  # (tables of three are stored as they always were)
            d["dealer_sees"] = self.dealer_sees
        if self.shortcut:  # (likewise: stored only when on)
            d["shortcut"] = True
        if self.scoring != "list":  # (likewise: stored only when not the classic list)
            d["scoring"] = self.scoring
        return d

    @staticmethod
    def from_dict(d: dict[str, Any]) -> TableSettings:
        """Stored settings (tables stored before a setting existed get its default)."""
        return TableSettings(game=d["game"], rules=d["rules"], seats=tuple(d["seats"]),
                             seed=int(d["seed"]), games=int(d["games"]),
                             grace=float(d["grace"]), show_hands=bool(d["show_hands"]),
                             public=bool(d["public"]),
                             next_after=int(d.get("next_after", 0)),
                             clock=int(d.get("clock", 0)), bank=int(d.get("bank", 0)),
                             on_timeout=str(d.get("on_timeout", "bot")),
                             dealer_sees=str(d.get("dealer_sees", DEALER_SEES_DEFAULT)),
                             shortcut=bool(d.get("shortcut", False)),
                             scoring=str(d.get("scoring", "list")))


@dataclass
class SeatInfo:
    name: str
    user: int | None = None  # the account (guests have accounts too)
    bot: str | None = None  # a bot's level, for a bot seat


class Sitting:
    """A table's state, rebuilt from its events.  Seats are table seats (0 …); a Skat
    game's positions (Vorhand, Mittelhand, Hinterhand) rotate over them."""

    def __init__(self, settings: TableSettings) -> None:
        self.settings = settings
        # the events after ``base`` (the number of the last event of the snapshot this
        # sitting was restored from or last taken: :mod:`stich.server.snapshot`)
        self.base = 0
        self.events: list[Event] = []
        self.turn_seq = 0  # the last event that changed the game (not in LOOSE_KINDS)
        self.sat_at: dict[int, int] = {}  # seat -> the event its holder sat down with
        self.first = 0  # the seat the draw chose (the start event)
        self.game_acts: list[str] = []  # the running engine game's actions, as texts
        self.games_done = 0  # games finished (Skat), or 1 once Baptistenskat is over
        self.seats: list[SeatInfo | None] = [None] * len(settings.seats)
        self.started = False
        self.over = False
        self.paused_by: int | None = None  # the seat that paused the table
        self.paused_since = 0  # the event that began the running pause
        self.pauses: dict[int, int] = {}  # pauses per seat in the running game or round
        self.idle = False  # paused by the site: nobody at the table for a while
        self.end_reason: str | None = None  # why the table ended before its last game
        self.ending = False  # an open-ended list ends after the running game
        self.away: set[int] = set()
        self.asked_away: set[int] = set()  # away because the person said so
        self.standins: set[int] = set()
        self.game_number = 0
        # records of the games finished since this sitting was built (a restored one has
        # none of those before its snapshot: ``games_done`` counts them all)
        self.finished: list[dict[str, Any]] = []
        self.between = False  # after a game / round: waiting for "ready" (or the timer)
        self.between_since = 0  # the event that began the wait
        self.ready: set[int] = set()  # seats that said "ready" in this wait
        self.quit: set[int] = set()  # persons who left the running table for good
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        self.helped: set[int] = set()  # seats of the running game a stand-in moved for
        self.standin_marks: list[list[int]] = []  # Skat: per finished game those seats
        self.round_marks: list[list[int]] = []  # Baptistenskat: per finished round
        # whose game was it (docs/server.md, "Whose game was it"): the running game's
        # actions a stand-in / the clock made (indices into its actions: its record says
        # so), the seats whose person made a decision herself in the running Skat game or
        # Baptistenskat round, the seats a stand-in moved for in the running game, and
        # per finished Baptistenskat round the seats whose person played in it
        self.by_acts: dict[str, list[int]] = {}
        self.own: set[int] = set()
        self.stood_in: set[int] = set()
        self.round_own: list[list[int]] = []
        # per record in ``finished``: the seats a stand-in moved for, and the seats whose
        # game it was (see :meth:`_whose`)
        self.finished_seats: list[dict[str, list[int]]] = []
        # the game (its registered object) and the game side of the table: the running
        # engine game, the places of the seats in it, the list or sheet
        self.game = games.get(settings.game)
        self.play: TablePlay = self.game.new_play(settings.rules, len(settings.seats))

    # --- reading -------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        """The number of the last event (0 before the first)."""
        return self.base + len(self.events)

    @property
    def n_seats(self) -> int:
        return len(self.seats)

    @property
    def paused(self) -> bool:
        """Paused by a player, or by the site because nobody was there."""
        return self.paused_by is not None or self.idle


    def names(self) -> list[str]:
        return [s.name if s else "" for s in self.seats]

    @property
    def state(self) -> SkatState | BaptistenState | None:
        """The running engine game."""
        st: SkatState | BaptistenState | None = self.play.state
        return st

    # the game side's parts, by game (None at a table of the other game)
    @property
    def skat(self) -> SkatState | None:
        return self.play.skat if isinstance(self.play, SkatPlay) else None

    @property
    def skat_list(self) -> SkatList | None:
        return self.play.skat_list if isinstance(self.play, SkatPlay) else None

    @property
    def positions(self) -> tuple[int, int, int]:
        return self.play.positions if isinstance(self.play, SkatPlay) else (0, 1, 2)

    @property
    def baptisten(self) -> BaptistenState | None:
        return self.play.baptisten if isinstance(self.play, BaptistenPlay) else None

    @property
    def last_trick(self) -> tuple[int, list[int], int] | None:
        """Baptistenskat: the last trick of the last round (leader, cards, winner)."""
        return self.play.last_trick if isinstance(self.play, BaptistenPlay) else None

    @property
    def skat_rules(self) -> SkatRules:
        assert isinstance(self.play, SkatPlay)
        return self.play.rules

    @property
    def baptisten_rules(self) -> BaptistenRules:
        assert isinstance(self.play, BaptistenPlay)
        return self.play.rules

    def position_of(self, seat: int) -> int:
        """The seat's place in the running game (Skat: its position; Baptistenskat: the
        seat itself)."""
        return self.play.position_of(seat)

    def seat_at(self, position: int) -> int:
        return self.play.seat_at(position)

    def to_move_seat(self) -> int | None:
        """The table seat whose turn it is, or None (not started, over)."""
        st = self.state
        if not self.started or self.over or st is None or st.is_over:
            return None
        return self.seat_at(st.to_move)

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]

    def bot_seat(self, seat: int) -> str | None:
        """The bot level that plays ``seat`` now (a bot seat, or a stand-in)."""
        info = self.seats[seat]
        if info is not None and info.bot is not None:
            return info.bot
        if seat in self.standins or seat in self.quit:
            return "easy"
        return None

    def present_people(self) -> list[int]:
        """Seats of persons who are at the table: not a bot, not away, no stand-in, not
        left for good.  Only they are waited for after a game."""
        return [i for i, info in enumerate(self.seats)
                if info is not None and info.bot is None and i not in self.away
                and i not in self.standins and i not in self.quit]

    def waits(self) -> bool:
        """Whether a game's end starts a wait for ``ready`` now."""
        return self.settings.next_after > 0 and bool(self.present_people())

    def sits_out(self, seat: int) -> bool:
        """Whether ``seat`` is the dealer who sits the running Skat game out (a table of
        four)."""
        return self.settings.skat_four and self.state is not None \
            and self.position_of(seat) < 0

    def view(self, seat: int) -> Any:
        """The engine's view of a table seat that plays the running game."""
        st = self.state
        assert st is not None
        return st.view(self.position_of(seat))

    def list_json(self) -> dict[str, Any] | None:
        """The Skat list so far (None for Baptistenskat)."""
        if self.skat_list is None:
            return None
        d = self.skat_list.to_dict()
        d["players"] = self.names()
        d["games_planned"] = self.settings.games
        for g, marks in zip(d["games"], self.standin_marks, strict=False):
            g["standin"] = marks
        if self.settings.scoring == "seeger":  # (only then: other lists stay as they were)
            d["seeger"] = seeger_json(self.skat_list.seeger())
        return d

    def sheet(self) -> dict[str, Any] | None:
        """The Anschreibezettel so far: the engine's scoresheet JSON (None for Skat)."""
        if self.baptisten is None:
            return None
        sheet = scoresheet(self.baptisten, self.names())
        for row, marks in zip(sheet["rounds"], self.round_marks, strict=False):
            for entry in row["entries"]:
                entry["standin"] = entry["player"] in marks
        return sheet

    # --- planning: what a request would add (nothing changes) ----------------------------

    def _next(self, kind: EventKind, seat: int | None = None, **data: Any) -> Event:
        return Event(self.seq + 1, kind, seat, data)

    def plan_sit(self, seat: int, name: str, user: int | None,
                 bot: str | None = None) -> list[Event]:
        if self.over:  # closed or expired before it started
            raise ArgumentError("server.table_over")
        if not 0 <= seat < self.n_seats:
            raise ArgumentError("server.no_such_seat", seat=seat + 1, seats=self.n_seats)
        if self.seats[seat] is not None:
            raise ArgumentError("server.seat_taken", seat=seat + 1)
        if bot is not None:
            bot_level(bot, games.get(self.settings.game).bots)
        if user is not None and any(s and s.user == user for s in self.seats):
            raise ArgumentError("server.already_seated")
        ev = self._next("seat", seat, name=name, user=user, bot=bot)
        return [ev, *self._after([ev])]

    def plan_start(self) -> list[Event]:
        """The bots' seats of the settings, and the start once every seat is taken."""
        events: list[Event] = []
        seq = self.seq
        for i, spec in enumerate(self.settings.seats):
            if spec.startswith("bot:") and self.seats[i] is None:
                level = spec[4:]
                bot_level(level, games.get(self.settings.game).bots)
                seq += 1
                events.append(Event(seq, "seat", i, {"name": "", "user": None, "bot": level}))
        return [*events, *self._after(events)]

    def _after(self, planned: list[Event]) -> list[Event]:
        """The start (and first deal), when ``planned`` fills the last seat."""
        filled = {i for i, s in enumerate(self.seats) if s is not None}
        filled |= {e.seat for e in planned if e.kind == "seat" and e.seat is not None}
        if self.started or len(filled) < self.n_seats:
            return []
        seq = self.seq + len(planned)
        rng = random.Random(table_seed(self.settings.seed, 0))
        first = rng.randrange(self.n_seats)
        out = [Event(seq + 1, "start", None, {"first": first})]
        if self.play.deals_each_game:
            out.append(Event(seq + 2, "deal", None, {"number": 1}))
        return out

    def plan_act(self, seat: int, text: str, by: str = "player") -> list[Event]:
        """The events an action adds: the action, and what follows from it (the table's
        ``shortcut``, a game's end, the next deal, the end of the table).  Refused: not
        started, paused, over, not this seat's turn, not legal (the engine's message), or
        ``shortcut`` (only the table applies it)."""
        if not self.started:
            raise ArgumentError("server.not_started")
        if self.over:
            raise ArgumentError("server.table_over")
        if self.paused:
            raise ArgumentError("server.paused")
        if self.between:
            raise ArgumentError("server.between")
        st = self.state
        assert st is not None
        turn = self.to_move_seat()
        if turn != seat:
            raise ArgumentError("server.not_your_turn")
        if isinstance(st, SkatState) and _says_shortcut(st, text):  # the table's, not hers
            raise ArgumentError("server.shortcut_by_table")
        new, action = self.play.step(text.strip())  # the engine's refusal stands as it is
        ev = self._next("act", seat, text=action, by=by)
        shortcut = self._shortcut(new, ev.seq)
        if shortcut is not None:
            new, cut = shortcut
            return [ev, cut, *self._consequences(new, cut.seq)]
        return [ev, *self._consequences(new, ev.seq)]

    def _shortcut(self, new: SkatState | BaptistenState, seq: int
                  ) -> tuple[SkatState, Event] | None:
        """At a table that shortcuts (``settings.shortcut``): when every remaining trick
        of the Skat game ``new`` goes to one side whatever anyone plays
        (:meth:`SkatState.forced_rest`), the game after ``shortcut`` and its event (number
        ``seq`` + 1), for the seat to move, ``by`` the table.  None otherwise.  The event
        is an action like any other: a replay (a restart, a record) checks it again."""
        if not self.settings.shortcut or not isinstance(new, SkatState) or new.is_over:
            return None
        if new.forced_rest() < 0:  # (-1 too outside a declared game's card play)
            return None
        after, text = step(new, str(SHORTCUT))
        assert isinstance(after, SkatState)
        return after, Event(seq + 1, "act", self.seat_at(new.to_move),
                            {"text": text, "by": "table"})

    def _consequences(self, new: SkatState | BaptistenState, seq: int) -> list[Event]:
        """What follows an action: the end of a game or round (with a wait for "ready",
        or the next deal), the end of the table."""
        play = self.play
        if not play.finished_by(new):
            return []
        last = play.table_ends(new, self.settings.games, self.game_number, self.ending)
        data = play.finish_data(self.game_number)
        if not last and self.waits():
            data["wait"] = True  # the table waits for "ready" (the end never)
        out = [Event(seq + 1, play.finish_kind, None, data)]
        if last:
            out.append(Event(seq + 2, "end", None, {}))
        elif play.deals_each_game and not data.get("wait"):
            out.append(Event(seq + 2, "deal", None, {"number": self.game_number + 1}))
        return out

    def _go_on(self, seq: int) -> Event:
        """The event that ends a wait: the next deal (Skat) or ``next``."""
        if self.play.deals_each_game:
            if self.ending:  # an open-ended list was ended during the wait
                return Event(seq, "end", None, {})
            return Event(seq, "deal", None, {"number": self.game_number + 1})
        return Event(seq, "next", None, {})

    def plan_ready(self, seat: int) -> list[Event]:
        """A person is ready for the next game; the last one of those present ends the
        wait.  Refused when the table is not between games."""
        if self.over or not self.between:
            raise ArgumentError("server.not_between")
        if seat in self.ready:
            return []
        ev = self._next("ready", seat)
        waiting = [i for i in self.present_people() if i not in self.ready and i != seat]
        return [ev] if waiting else [ev, self._go_on(ev.seq + 1)]

    def plan_go_on(self, since: int | None = None) -> list[Event]:
        """End the wait now (its time is up): [] when there is none (or, with ``since``,
        not the wait that began at event ``since``)."""
        if self.over or not self.between or (since is not None and since != self.between_since):
            return []
        return [self._go_on(self.seq + 1)]

    def _after_presence(self, planned: list[Event]) -> list[Event]:
        """After a seat went away or left: the wait ends when nobody present is still
        to say "ready"."""
        gone = {e.seat for e in planned if e.kind in ("away", "standin", "quit")}
        if not gone or self.over or not self.between:
            return planned
        waiting = [i for i in self.present_people() if i not in self.ready and i not in gone]
        if waiting:
            return planned
        return [*planned, self._go_on(planned[-1].seq + 1)]

    def plan_quit(self, seat: int) -> list[Event]:
        """A person leaves the running table for good: a bot plays the seat from now on."""
        info = self.seats[seat]
        if self.over:
            raise ArgumentError("server.table_over")
        if info is None or info.bot is not None or seat in self.quit:
            raise ArgumentError("server.not_seated")
        return self._after_presence([self._next("quit", seat)])

    def plan_chat(self, seat: int | None, name: str, text: str,
                  user: int | None = None) -> list[Event]:
        """A line of the table's chat (checked by the caller: length, characters) by
        the account ``user`` (kept with the line, so that the name goes when the
        account is deleted)."""
        if self.over:
            raise ArgumentError("server.table_over")
        if user is None:
            return [self._next("chat", seat, name=name, text=text)]
        return [self._next("chat", seat, name=name, text=text, user=user)]

    def plan_timeout_away(self, seat: int) -> list[Event]:
        """The turn clock ran out at a table that marks the seat away: away (unless it
        is) and a stand-in at once."""
        info = self.seats[seat]
        if info is None or info.bot is not None or self.over or seat in self.quit \
                or seat in self.standins:
            return []
        out = [] if seat in self.away else [self._next("away", seat)]
        out.append(Event(self.seq + len(out) + 1, "standin", seat, {}))
        return self._after_presence(out)

    def plan_pause(self, seat: int, pause: bool, most: int = PAUSES_PER_GAME) -> list[Event]:
        """A player pauses the table (at most ``most`` times a game or round, 0: as
        often as they like; and only a player who is at the table: not away, not left),
        or resumes it (any player)."""
        if not self.started or self.over:
            raise ArgumentError("server.not_running")
        if pause and self.paused_by is not None:
            raise ArgumentError("server.already_paused")
        if not pause and self.paused_by is None:
            raise ArgumentError("server.not_paused")
        if pause and seat not in self.present_people():
            raise ArgumentError("server.pause_absent")
        if pause and most and self.pauses.get(seat, 0) >= most:
            raise ArgumentError("server.pause_used", most=most)
        return [self._next("pause" if pause else "resume", seat)]

    def plan_pause_over(self, since: int) -> list[Event]:
        """The pause that began with event ``since`` has lasted as long as a pause may:
        the site resumes the table (``resume`` of the pausing seat, ``reason``
        ``timeout``); [] when that pause is over already."""
        if self.over or self.paused_by is None or self.paused_since != since:
            return []
        return [self._next("resume", self.paused_by, reason="timeout")]

    def plan_idle(self, idle: bool) -> list[Event]:
        """The site pauses a running table nobody is at (``idle``), or resumes it when
        somebody is back ([] when nothing changes)."""
        if not self.started or self.over or idle == self.idle:
            return []
        if idle:
            return [self._next("pause", None, reason="idle")]
        return [self._next("resume", None, reason="idle")]

    def plan_close(self, reason: str) -> list[Event]:
        """End the table now (``closed`` by its creator, ``operator`` by the site's
        operator, ``abandoned`` when nobody came back, ``expired`` when it never
        started); a running game is not counted.  Finished games stay."""
        if self.over:
            raise ArgumentError("server.table_over")
        return [self._next("end", None, reason=reason)]

    def plan_presence(self, seat: int, kind: PresenceKind,
                      asked: bool = False) -> list[Event]:
        """``away`` / ``back`` / ``standin`` for a person's seat ([] when nothing changes);
        ``asked``: the person said so (an ``away`` that stands even while connected)."""
        info = self.seats[seat]
        if info is None or info.bot is not None or self.over or seat in self.quit:
            return []
        if kind == "away" and seat in self.away:
            return []
        if kind == "back" and seat not in self.away and seat not in self.standins:
            return []
        if kind == "standin" and (seat in self.standins or seat not in self.away):
            return []
        ev = self._next(kind, seat, asked=True) if asked else self._next(kind, seat)
        return self._after_presence([ev])

    def plan_end(self, seat: int) -> list[Event]:
        """An open-ended Skat list ends after the running game (a player asks)."""
        if self.over:
            raise ArgumentError("server.table_over")
        if not self.play.deals_each_game or self.settings.games != 0 or self.ending:
            raise ArgumentError("server.not_open_ended")
        if not self.started:
            raise ArgumentError("server.not_started")
        return [self._next("ending", seat)]

    # --- applying ------------------------------------------------------------------------

    def apply(self, ev: Event) -> None:
        """Apply the next event (replay or live).  Inconsistent logs are refused."""
        if ev.seq != self.seq + 1:
            raise ArgumentError("server.event_gap", expected=self.seq + 1, given=ev.seq)
        match ev.kind:
            case "seat":
                self._on_seat(ev)
            case "leave":
                self._on_leave(ev)
            case "start":
                self._on_start(ev)
            case "deal":
                self._on_deal(ev)
            case "act":
                self._on_act(ev)
            case "game_over":
                self._on_game_over(ev)
            case "round_over":
                self._on_round_over(ev)
            case "next":
                self._on_next(ev)
            case "ready":
                self._on_ready(ev)
            case "quit":
                self._on_quit(ev)
            case "chat":
                self._on_chat(ev)
            case "end":
                self._on_end(ev)
            case "ending":
                self._on_ending(ev)
            case "pause":
                self._on_pause(ev)
            case "resume":
                self._on_resume(ev)
            case "away":
                self._on_away(ev)
            case "back":
                self._on_back(ev)
            case "standin":
                self._on_standin(ev)
            case _:
                assert_never(ev.kind)
        self.events.append(ev)
        if ev.kind not in LOOSE_KINDS:
            self.turn_seq = ev.seq

    def forget_events(self) -> None:
        """Drop the events in memory: a snapshot of this sitting at its last event has
        been taken (:mod:`stich.server.snapshot`), the next ones follow it."""
        self.base = self.seq
        self.events = []

    def changed_since(self, seen: int) -> bool:
        """Whether an event that changed the game (not in :data:`LOOSE_KINDS`) came
        after event ``seen``: an action sent having seen ``seen`` is stale then."""
        return seen > self.seq or seen < self.turn_seq

    def _on_seat(self, ev: Event) -> None:
        assert ev.seat is not None
        d = ev.data
        bot = d.get("bot")
        name = d.get("name") or ""
        if bot and not name:
            name = self._bot_name(ev.seat)
        self.seats[ev.seat] = SeatInfo(name=name, user=d.get("user"), bot=bot)
        self.sat_at[ev.seat] = ev.seq

    def _bot_name(self, seat: int) -> str:
        pool = ("Kurt", "Helga", "Otto", "Erna", "Paul", "Grete", "Fritz", "Hilde", "Willi",
                "Käthe", "Heinz", "Lotte", "Bruno", "Anni", "Egon")
        taken = {s.name.casefold() for s in self.seats if s is not None}
        free = [n for n in pool if n.casefold() not in taken]
        return free[0] if free else f"Bot {seat + 1}"

    def _on_leave(self, ev: Event) -> None:
        assert ev.seat is not None
        self.seats[ev.seat] = None
        self.sat_at.pop(ev.seat, None)

    def _on_start(self, ev: Event) -> None:
        self.started = True
        first = self.first = int(ev.data["first"])
        self._new_game()
        self.play.start(first, self.names(), self.seed_of)

    def seed_of(self, number: int) -> int:
        """The seed of the table's game ``number`` (0: the draw)."""
        return table_seed(self.settings.seed, number)

    def _end_wait(self) -> None:
        self.between = False
        self.ready = set()

    def _on_deal(self, ev: Event) -> None:
        if not self.play.deals_each_game:
            raise ArgumentError("server.unknown_event", kind=ev.kind)
        self._end_wait()
        self.helped = set()
        self.game_number = int(ev.data["number"])
        self._new_game()
        self.pauses = {}
        self.play.deal(self.game_number, self.seed_of)

    def _on_act(self, ev: Event) -> None:
        st = self.state
        assert st is not None and ev.seat is not None
        if self.to_move_seat() != ev.seat:
            raise ArgumentError("server.not_your_turn")
        new, _ = self.play.step(ev.data["text"])
        by = ev.data.get("by", "player")
        if by in ("standin", "clock"):
            self.helped.add(ev.seat)
            self.by_acts.setdefault(by, []).append(len(self.game_acts))
        if by == "standin":
            self.stood_in.add(ev.seat)
        elif by in ("player", "clock"):  # the clock plays for a person at the table
            self.own.add(ev.seat)
        self.game_acts.append(ev.data["text"])
        self.play.moved(new, ev.seat)

    def _on_game_over(self, ev: Event) -> None:
        self.finished.append(self.play.finish_game(self.names(), self.by_acts))
        self.finished_seats.append(self._whose(sorted(self.own)))
        self.games_done += 1
        self.standin_marks.append(sorted(self.helped))
        self._begin_wait(ev)

    def _new_game(self) -> None:
        self.game_acts = []
        self.by_acts = {}
        self.own = set()
        self.stood_in = set()

    def _whose(self, played: list[int]) -> dict[str, list[int]]:
        """Whose the finished game was, by seat: ``standin`` the seats a stand-in moved
        for, ``absent`` those of them whose person did not play it (``played``: the seats
        whose person did: a decision of her own in the Skat game, in at least half of the
        Baptistenskat rounds).  An absent person's game counts for nobody."""
        return {"standin": sorted(self.stood_in),
                "absent": sorted(self.stood_in - set(played))}

    def _begin_wait(self, ev: Event) -> None:
        if ev.data.get("wait"):
            self.between = True
            self.between_since = ev.seq
            self.ready = set()

    def _on_round_over(self, ev: Event) -> None:
        self.pauses = {}
        self.round_marks.append(sorted(self.helped))
        self.helped = set()
        self.round_own.append(sorted(self.own))
        self.own = set()
        if self.play.game_over():
            self.finished.append(self.play.finish_game(self.names(), self.by_acts))
            rounds = len(self.round_own)
            self.finished_seats.append(self._whose(
                [i for i in range(self.n_seats)
                 if 2 * sum(i in r for r in self.round_own) >= rounds]))
            self.games_done += 1
        self._begin_wait(ev)

    def _on_ready(self, ev: Event) -> None:
        assert ev.seat is not None
        self.ready.add(ev.seat)

    def _on_next(self, ev: Event) -> None:
        self._end_wait()

    def _on_quit(self, ev: Event) -> None:
        assert ev.seat is not None
        self.quit.add(ev.seat)
        self.away.discard(ev.seat)
        self.standins.discard(ev.seat)
        self.asked_away.discard(ev.seat)

    def _on_chat(self, ev: Event) -> None:
        line = {"seq": ev.seq, "seat": ev.seat, "name": ev.data.get("name", ""),
                "text": ev.data.get("text", "")}
        if ev.data.get("user") is not None:
            line["user"] = ev.data["user"]  # (kept on the server: see chat_lines)
        self.chat.append(line)

    def chat_lines(self) -> list[dict[str, Any]]:
        """The last chat lines as clients get them (without the authors' accounts)."""
        return [{k: v for k, v in line.items() if k != "user"} for line in self.chat]

    def _on_end(self, ev: Event) -> None:
        self._end_wait()
        self.over = True
        self.end_reason = ev.data.get("reason")

    def _on_ending(self, ev: Event) -> None:
        self.ending = True

    def _on_pause(self, ev: Event) -> None:
        if ev.seat is None:
            self.idle = True
        else:
            self.paused_by = ev.seat
            self.paused_since = ev.seq
            self.pauses[ev.seat] = self.pauses.get(ev.seat, 0) + 1

    def _on_resume(self, ev: Event) -> None:
        if ev.seat is None:
            self.idle = False
        else:
            self.paused_by = None

    def _on_away(self, ev: Event) -> None:
        assert ev.seat is not None
        self.away.add(ev.seat)
        if ev.data.get("asked"):
            self.asked_away.add(ev.seat)

    def _on_back(self, ev: Event) -> None:
        assert ev.seat is not None
        self.away.discard(ev.seat)
        self.standins.discard(ev.seat)
        self.asked_away.discard(ev.seat)

    def _on_standin(self, ev: Event) -> None:
        assert ev.seat is not None
        self.standins.add(ev.seat)


def _says_shortcut(state: SkatState, text: str) -> bool:
    """Whether ``text`` is the engine's ``shortcut`` (in any of its words)."""
    try:
        return state.parse_action(text.strip()) == SHORTCUT
    except ValueError:
        return False


def replay_events(settings: TableSettings, events: Sequence[Event]) -> Sitting:
    """A table rebuilt from its settings and events."""
    s = Sitting(settings)
    for ev in events:
        s.apply(ev)
    return s
