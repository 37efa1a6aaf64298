"""Every message of the protocol as a pydantic model, with its JSON schema.

Over the WebSocket ``/ws/tables/{id}`` a client sends :data:`ClientMessage`\\ s and
receives :data:`ServerMessage`\\ s, one JSON object per frame.  Over HTTP the request and
response bodies are the ``*Request`` / ``*Info`` models (FastAPI publishes them in
``/openapi.json``); ``GET /api/schema`` gives the WebSocket messages' schema.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

__all__ = [
    "Act",
    "Away",
    "Back",
    "Chat",
    "ChatLine",
    "ClientMessage",
    "CreateTableRequest",
    "DeleteAccountRequest",
    "ErrorMessage",
    "EventMessage",
    "GuestRequest",
    "JoinRequest",
    "RuleSetChange",
    "RuleSetDelete",
    "RuleSetRequest",
    "LoginRequest",
    "PasswordRequest",
    "Pause",
    "Ping",
    "Pong",
    "Service",
    "Ready",
    "Resume",
    "SeatBotRequest",
    "ServerMessage",
    "Snapshot",
    "Sync",
    "Timer",
    "Welcome",
    "client_adapter",
    "websocket_schema",
]


GameName = Literal["skat", "baptisten"]
"""The games a table can play: the names of :data:`stich.games.GAMES` (the wire's one
list of them; tests/server/test_protocol_contract.py checks that it is the registry's)."""

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # JSON types: not "3" for 3


# --- client → server --------------------------------------------------------------------

class Act(_Strict):
    """Do something at the table: ``action`` is the engine's action text (``18``,
    ``pass``, ``hand``, ``discard CJ HA``, ``declare grand``, ``SA``, ``bid 2 stake 5``);
    ``seq`` the number of the last event the client saw (a stale number is refused)."""

    type: Literal["act"]
    seq: int = Field(ge=0)
    action: str = Field(min_length=1, max_length=200)


class Pause(_Strict):
    """A player pauses the table (bots and timers stop)."""

    type: Literal["pause"]


class Resume(_Strict):
    """A player resumes a paused table."""

    type: Literal["resume"]


class EndList(_Strict):
    """A player ends an open-ended Skat list after the running game."""

    type: Literal["end"]


class Sync(_Strict):
    """Ask again for what came after event ``since`` (events, or a snapshot)."""

    type: Literal["sync"]
    since: int = Field(ge=0)


class Ping(_Strict):
    type: Literal["ping"]


class Ready(_Strict):
    """"Weiter": a player is ready for the next game (only while the table waits)."""

    type: Literal["ready"]


class Away(_Strict):
    """"Kurz weg": mark your seat away now (a stand-in plays after the grace time)."""

    type: Literal["away"]


class Back(_Strict):
    """"Ich bin wieder da": your seat is no longer away, the stand-in ends."""

    type: Literal["back"]


class Chat(_Strict):
    """A line of the table's chat: 1 to 200 characters after trimming, something to
    read, no control or invisible characters; players and watchers with an account
    (guests too)."""

    type: Literal["chat"]
    text: str = Field(max_length=200)


ClientMessage = Annotated[Act | Pause | Resume | EndList | Sync | Ping | Ready | Away | Back
                          | Chat, Field(discriminator="type")]
client_adapter: TypeAdapter[Act | Pause | Resume | EndList | Sync | Ping | Ready | Away | Back
                            | Chat] = TypeAdapter(ClientMessage)


# --- server → client --------------------------------------------------------------------

class _Sent(BaseModel):
    """A message (or part of one) the server builds from its model: a key the model
    does not declare is refused, never sent (:mod:`stich.server.wire`)."""

    model_config = ConfigDict(extra="forbid")


class SeatInfo(_Sent):
    seat: int
    kind: Literal["free", "person", "bot"]
    name: str | None = None
    bot: str | None = None
    away: bool = False
    standin: bool = False  # a bot plays for the person (away, or left: quit)
    quit: bool = False  # the person left the running table for good: a bot plays
    connected: bool = False


class TableInfo(_Sent):
    """A table as the lobby and its players see it (never its deals)."""

    id: str
    game: GameName
    rules: str
    preset: str
    games: int  # Skat: games in the list (0 = open-ended); Baptistenskat: 1
    games_played: int
    seats: list[SeatInfo]
    status: Literal["waiting", "running", "over"]
    public: bool
    grace: float
    show_hands: bool
    paused_by: int | None = None
    idle: bool = False  # paused by the site: nobody was at the table
    end_reason: str | None = None  # closed, abandoned, expired (ended before its last game)
    seq: int
    invite: str | None = None  # only for those who sit at the table
    next_after: int = 0  # seconds the table waits for "ready" after a game (0: none)
    clock: int = 0  # seconds per action (0: no turn clock)
    bank: int = 0  # extra seconds per seat and game after the clock
    on_timeout: Literal["bot", "away"] = "bot"
    between: bool = False  # a game just ended: the table waits for "ready"
    ready: list[int] = []  # seats that said "ready" in this wait
    # Skat tables of four only: what the dealer who sits out sees ("nothing" or "all")
    dealer_sees: Literal["nothing", "all"] | None = None
    # Skat: a game whose remaining tricks all go to one side whatever anyone plays ends
    # there (the table applies ``shortcut`` for the seat to move); sent only when on
    shortcut: bool = False
    # Skat: "seeger" when the table scores by the Preisskat list (sent only then)
    scoring: Literal["list", "seeger"] = "list"


class ChatLine(_Sent):
    seq: int  # the chat event's number
    seat: int | None  # None: a watcher
    name: str
    text: str  # plain text: never render it as HTML


ChatLines = list[ChatLine]  # (the snapshot has a field named "list")


class Timer(_Sent):
    """A timer started or stopped (``kind`` null: none runs).  ``move``: ``seat`` has
    ``left`` ms to act (its clock and what is left of its bank; ``bank`` ms of those are
    bank); ``next``: the table goes on in ``left`` ms unless everyone said "ready";
    ``pause``: ``seat`` paused the table, which goes on by itself in ``left`` ms (a
    move's clock stands still meanwhile and goes on where it stood).
    Count down from when it arrived."""

    type: Literal["timer"] = "timer"
    kind: Literal["move", "next", "pause"] | None
    seat: int | None = None
    left: int = 0
    total: int = 0
    bank: int = 0


class Welcome(_Sent):
    """The first message on a connection: the table, who you are there, and its event
    number; then the missed events or a snapshot follow."""

    type: Literal["welcome"] = "welcome"
    table: TableInfo
    you: int | None  # your seat, or None when you watch
    creator: bool = False  # you created the table: you can close it
    seq: int
    timer: Timer | None = None  # the timer running now
    chat: list[ChatLine] = []  # the table's last 50 chat lines


class EventMessage(BaseModel):
    """Something happened (``kind``: seat, leave, start, deal, act, game_over,
    round_over, end, ending, pause, resume, away, back, standin, ready, next, quit,
    chat); ``view`` is what you see right after it (None before the start)."""

    type: Literal["event"] = "event"
    seq: int
    kind: str
    seat: int | None
    data: dict[str, Any]
    view: dict[str, Any] | None
    # a timer that started or stopped with this event, in the event's frame (one frame
    # less for every receiver of an action): take it as a ``timer`` message right after
    # the event, also when the event itself is one seen already
    timer: Timer | None = None


class Snapshot(BaseModel):
    """Your view now (instead of many missed events)."""

    type: Literal["snapshot"] = "snapshot"
    seq: int
    table: TableInfo
    view: dict[str, Any] | None
    list: dict[str, Any] | None = None  # the Skat list
    sheet: dict[str, Any] | None = None  # the Anschreibezettel
    chat: ChatLines = []  # the table's last 50 chat lines


class ErrorMessage(BaseModel):
    """A refusal: nothing changed.  ``code`` is stable (see docs/messages.md), ``text``
    in the connection's language; ``seq`` the table's event number now."""

    type: Literal["error"] = "error"
    code: str
    text: str
    seq: int | None = None


class Pong(BaseModel):
    type: Literal["pong"] = "pong"
    seq: int


class Service(BaseModel):
    """Whether the site can save moves now (``ok`` false: its database does not answer;
    a move is refused with ``server.not_saved`` and nothing changes).  Sent when that
    changes, and after the ``welcome`` while it cannot; the table goes on by itself
    once it can again."""

    type: Literal["service"] = "service"
    ok: bool


ServerMessage = Annotated[Welcome | EventMessage | Snapshot | ErrorMessage | Pong | Timer
                          | Service, Field(discriminator="type")]


# --- HTTP bodies ------------------------------------------------------------------------

class LoginRequest(_Strict):
    name: str = Field(max_length=100)
    password: str = Field(max_length=1000)


class GuestRequest(_Strict):
    name: str = Field(max_length=100)


class PasswordRequest(_Strict):
    """A new password; ``old`` confirms it is the account's owner."""

    old: str = Field(max_length=1000)
    new: str = Field(max_length=1000)


class DeleteAccountRequest(_Strict):
    """Delete the account: a registered player confirms with the password."""

    password: str | None = Field(default=None, max_length=1000)


class CreateTableRequest(_Strict):
    """A new table.  ``seats``: per seat ``me`` (you sit there), ``person`` (free for a
    person: share the invite link) or ``bot:random`` / ``bot:easy``.

    Skat: ``preset`` ``lothar`` (default) or ``isko`` (or ``rules``, a full rules
    string); three or four seats (at four the dealer sits each game out, and
    ``dealer_sees`` says what he sees: ``nothing``, the default, or ``all``);
    ``games`` a multiple of the seats (default 36), 0 = open-ended; ``scoring``
    ``list`` or ``seeger`` (the Preisskat list: ``games`` a positive multiple of the
    seats, by default 36 at three seats, 48 at four); ``shortcut`` true:
    a game ends as soon as its remaining tricks all go to one side whatever anyone plays.
    Baptistenskat: the seats are the players (3–15); ``max_cards`` N,
    ``deck``, ``variants`` (numbers 1–5 of the seed text: 2 forehead, 3 trick scoring,
    4 hook always, 5 must overtrump; a double deck is variant 1 via ``deck``), or
    ``rules``."""

    game: GameName = "skat"
    seats: list[str] = Field(default_factory=lambda: ["me", "bot:easy", "bot:easy"],
                             min_length=2, max_length=15)
    preset: str | None = Field(default=None, max_length=32)
    rules: str | None = Field(default=None, max_length=200)
    games: int | None = Field(default=None, ge=0, le=999)  # None: the default series
    max_cards: int | None = Field(default=None, ge=1, le=60)
    deck: str | None = Field(default=None, max_length=40)
    variants: list[int] = Field(default_factory=list, max_length=5)
    public: bool = True
    grace: float = Field(default=60.0)
    show_hands: bool = False
    next_after: int = 10  # seconds to wait for "ready" after a game (0..120)
    clock: int | None = None  # seconds per action, 0 = off (default: public 30, private 0)
    bank: int | None = None  # seconds per seat and game (default: public 60, private 0)
    on_timeout: str = Field(default="bot", max_length=10)  # "bot" or "away"
    # Skat with four seats: what the dealer who sits out sees, "nothing" (default: what a
    # watcher sees) or "all" (every hand); refused at any other table
    dealer_sees: str | None = Field(default=None, max_length=10)
    # Skat: end a game as soon as its remaining tricks all go to one side whatever anyone
    # plays (the table applies ``shortcut``); refused at any other table
    shortcut: bool = False
    # Skat: how the list is scored, "list" (the classic list) or "seeger" (the Preisskat
    # list, Seeger-Fabian: a series of a positive multiple of the seats, by default 36
    # games at three seats and 48 at four); refused at any other table
    scoring: str = Field(default="list", max_length=10)


class RuleSetRequest(_Strict):
    """Keep a Skat rule string under a name (``POST /api/me/rule-sets``): a set of the
    same name gets the new rules."""

    name: str = Field(max_length=200)
    rules: str = Field(max_length=200)


class RuleSetChange(_Strict):
    """Rename one's rule set ``id`` or give it other rules (``POST
    /api/me/rule-sets/change``); a field left out stays."""

    id: int
    name: str | None = Field(default=None, max_length=200)
    rules: str | None = Field(default=None, max_length=200)


class RuleSetDelete(_Strict):
    """Delete one's rule set ``id`` (``POST /api/me/rule-sets/delete``)."""

    id: int


class JoinRequest(_Strict):
    seat: int | None = Field(default=None, ge=0, le=14)
    invite: str | None = Field(default=None, max_length=100)


class SeatBotRequest(_Strict):
    bot: str = Field(default="easy", max_length=32)


def websocket_schema() -> dict[str, Any]:
    """The JSON schema of both directions of the WebSocket protocol."""
    return {
        "client": TypeAdapter(ClientMessage).json_schema(),
        "server": TypeAdapter(ServerMessage).json_schema(),
    }


def write_schema(path: str) -> None:
    """Write the WebSocket schema as JSON (docs/server-protocol.json)."""
    import json
    from pathlib import Path

    Path(path).write_text(json.dumps(websocket_schema(), indent=2, ensure_ascii=False) + "\n",
                          encoding="utf-8")


if __name__ == "__main__":  # python -m stich.server.protocol docs/server-protocol.json
    import sys

    write_schema(sys.argv[1])
