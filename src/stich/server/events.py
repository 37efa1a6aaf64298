"""The events of a table: a closed set of kinds, each with the payload it carries.

Everything that happens at a table is an :class:`Event` with a number (``seq``).  Its
``kind`` is one of :data:`EventKind`; its ``data`` is the kind's payload (the typed
dictionaries below say which keys each kind has; stored logs are JSON, so the payload
stays a plain dictionary).  :meth:`Event.load` reads a stored event and refuses a kind
this code does not know (``server.unknown_event``) or a payload without its keys
(``server.bad_event``); the table model (:meth:`stich.server.sitting.Sitting.apply`)
dispatches on the kind with a ``match`` the type checker checks for completeness.

>>> Event.load(3, "act", 0, {"text": "18", "by": "player"}).kind
'act'
>>> Event.load(3, "teleport", 0, {})
Traceback (most recent call last):
...
stich.core.ArgumentError: ...
"""

# (no ``from __future__ import annotations``: the payloads' NotRequired keys are read at
# run time, from evaluated annotations)
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypedDict, get_args

from stich.core import ArgumentError

__all__ = ["EVENT_KINDS", "LOOSE_KINDS", "PAYLOADS", "Event", "EventKind", "PresenceKind"]

EventKind = Literal["seat", "leave", "start", "deal", "act", "game_over", "round_over",
                    "next", "ready", "quit", "chat", "end", "ending", "pause", "resume",
                    "away", "back", "standin"]
EVENT_KINDS: frozenset[str] = frozenset(get_args(EventKind))

PresenceKind = Literal["away", "back", "standin"]
"""The kinds that say whether a person is at the table."""

LOOSE_KINDS = frozenset({"chat", "ready", "away", "back", "standin"})
"""Events that do not change the game: an action sent before them is not stale."""


class SeatData(TypedDict):
    """``seat``: a person (``user``, ``name``) or a bot (``bot``: its level) sits down."""

    name: NotRequired[str]
    user: NotRequired[int | None]
    bot: NotRequired[str | None]


class StartData(TypedDict):
    """``start``: every seat is taken; ``first`` is the seat the draw chose."""

    first: int


class DealData(TypedDict):
    """``deal``: Skat game ``number`` of the list is dealt."""

    number: int


class ActData(TypedDict):
    """``act``: the seat's action as text; ``by`` who made it (``player``, ``bot``,
    ``standin``, ``clock``; events stored before it existed have none)."""

    text: str
    by: NotRequired[str]


class GameOverData(TypedDict):
    """``game_over``: Skat game ``number`` ended; ``wait``: the table waits for
    ``ready``."""

    number: NotRequired[int]
    wait: NotRequired[bool]


class RoundOverData(TypedDict):
    """``round_over``: Baptistenskat round ``round`` ended; ``wait`` as above."""

    round: NotRequired[int]
    wait: NotRequired[bool]


class ChatData(TypedDict):
    """``chat``: a line of the chat by ``name`` (its account, ``user``, stays on the
    server)."""

    name: NotRequired[str]
    text: NotRequired[str]
    user: NotRequired[int | None]


class EndData(TypedDict):
    """``end``: the table is over; ``reason`` when it ended before its last game
    (``closed``, ``abandoned``, ``expired``)."""

    reason: NotRequired[str]


class PauseData(TypedDict):
    """``pause`` / ``resume``: by a seat, or (no seat) by the site: ``reason``
    ``idle``."""

    reason: NotRequired[str]


class AwayData(TypedDict):
    """``away``: the seat's person is not at the table; ``asked``: she said so."""

    asked: NotRequired[bool]


class NoData(TypedDict):
    """A kind that carries nothing but its seat (``leave``, ``ready``, ``next``,
    ``quit``, ``ending``, ``back``, ``standin``)."""


PAYLOADS: dict[EventKind, type[Any]] = {
    "seat": SeatData, "leave": NoData, "start": StartData, "deal": DealData,
    "act": ActData, "game_over": GameOverData, "round_over": RoundOverData,
    "next": NoData, "ready": NoData, "quit": NoData, "chat": ChatData, "end": EndData,
    "ending": NoData, "pause": PauseData, "resume": PauseData, "away": AwayData,
    "back": NoData, "standin": NoData,
}
"""The payload of each kind."""

_REQUIRED: dict[str, frozenset[str]] = {
    k: frozenset(t.__required_keys__) for k, t in PAYLOADS.items()}


@dataclass(frozen=True)
class Event:
    """One numbered thing that happened at a table: its ``kind``, the seat it concerns
    (None: the table), and the kind's payload (:data:`PAYLOADS`)."""

    seq: int
    kind: EventKind
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def load(seq: int, kind: str, seat: int | None, data: dict[str, Any]) -> "Event":
        """An event as stored: an unknown kind, or a payload without the keys its kind
        needs, is refused."""
        if kind not in EVENT_KINDS:
            raise ArgumentError("server.unknown_event", kind=kind[:40])
        missing = _REQUIRED[kind] - data.keys()
        if missing:
            raise ArgumentError("server.bad_event", seq=seq, kind=kind,
                                keys=", ".join(sorted(missing)))
        return Event(seq, kind, seat, data)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "seat": self.seat, "data": self.data}
