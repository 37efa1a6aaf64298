"""A table's state at one event, as JSON: what a table is loaded from instead of its
whole history.

The event log stays the truth (:mod:`stich.server.sitting`): a snapshot is what
replaying the log up to its event gives, written down so that loading a table costs the
events after it, not its history (a table can hold hundreds of thousands of events).
The engine states are not written down: a game's state is its deal (from the table's
secret seed and the game's number) and its actions so far, replayed through the engine
(a few microseconds each); everything else of a :class:`Sitting` is plain data.

A snapshot names its :data:`FORMAT`; one of another format is not used (the table is
replayed from its log instead).  ``tests/server/test_snapshot.py`` checks that a
snapshot taken anywhere and restored, with the events after it applied, is the sitting
that replaying the log gives, for every attribute (so a new attribute of
:class:`Sitting` fails that test until it is written down here and the format changes).

>>> from stich.server.sitting import TableSettings
>>> s = Sitting(TableSettings(game="skat", rules="skat(preset=lothar)", games=3,
...                           seats=("bot:easy", "bot:random", "bot:easy"), seed=7))
>>> for ev in s.plan_start():
...     s.apply(ev)
>>> snap = take(s)
>>> again = restore(s.settings, snap)
>>> again.seq == s.seq == snap["seq"], again.to_move_seat() == s.to_move_seat()
(True, True)
"""

from __future__ import annotations

from collections import deque
from typing import Any

from stich.server.sitting import CHAT_KEPT, SeatInfo, Sitting, TableSettings

__all__ = ["FORMAT", "restore", "take"]

FORMAT = 1
"""The form of a snapshot; a change of :class:`Sitting`'s attributes changes it."""


def take(s: Sitting) -> dict[str, Any]:
    """The sitting as JSON-ready data (its settings excepted: the table row has them)."""
    parts = s.play.snapshot()
    return {
        "format": FORMAT,
        "seq": s.seq,
        "turn_seq": s.turn_seq,
        "seats": [None if i is None else [i.name, i.user, i.bot] for i in s.seats],
        "sat_at": sorted(s.sat_at.items()),
        "started": s.started,
        "over": s.over,
        "paused_by": s.paused_by,
        "paused_since": s.paused_since,
        "pauses": sorted(s.pauses.items()),
        "idle": s.idle,
        "end_reason": s.end_reason,
        "ending": s.ending,
        "away": sorted(s.away),
        "asked_away": sorted(s.asked_away),
        "standins": sorted(s.standins),
        "quit": sorted(s.quit),
        "ready": sorted(s.ready),
        "helped": sorted(s.helped),
        "between": s.between,
        "between_since": s.between_since,
        "first": s.first,
        "game_number": s.game_number,
        "positions": parts["positions"],
        "game_acts": list(s.game_acts),
        "games_done": s.games_done,
        "chat": list(s.chat),
        "standin_marks": s.standin_marks,
        "round_marks": s.round_marks,
        "by_acts": s.by_acts,
        "own": sorted(s.own),
        "stood_in": sorted(s.stood_in),
        "round_own": s.round_own,
        "last_trick": parts["last_trick"],
        "list": parts["list"],
    }


def restore(settings: TableSettings, snap: dict[str, Any]) -> Sitting:
    """The sitting a snapshot describes (``ValueError`` when it is of another
    format)."""
    if snap.get("format") != FORMAT:
        raise ValueError(f"a snapshot of format {snap.get('format')!r}, not {FORMAT}")
    s = Sitting(settings)
    s.base = int(snap["seq"])
    s.turn_seq = int(snap["turn_seq"])
    s.seats = [None if i is None else SeatInfo(name=i[0], user=i[1], bot=i[2])
               for i in snap["seats"]]
    s.sat_at = {int(k): int(v) for k, v in snap["sat_at"]}
    s.started, s.over, s.ending = bool(snap["started"]), bool(snap["over"]), bool(snap["ending"])
    s.paused_by, s.idle, s.end_reason = snap["paused_by"], bool(snap["idle"]), snap["end_reason"]
    s.paused_since = int(snap["paused_since"])
    s.pauses = {int(k): int(v) for k, v in snap["pauses"]}
    s.away, s.asked_away = set(snap["away"]), set(snap["asked_away"])
    s.standins, s.quit, s.ready = set(snap["standins"]), set(snap["quit"]), set(snap["ready"])
    s.helped = set(snap["helped"])
    s.between, s.between_since = bool(snap["between"]), int(snap["between_since"])
    s.first, s.game_number = int(snap["first"]), int(snap["game_number"])
    s.games_done = int(snap["games_done"])
    s.chat = deque(snap["chat"], maxlen=CHAT_KEPT)
    s.standin_marks = [list(m) for m in snap["standin_marks"]]
    s.round_marks = [list(m) for m in snap["round_marks"]]
    # (snapshots taken before these were kept: nothing known of who made the moves)
    s.by_acts = {str(k): [int(i) for i in v] for k, v in snap.get("by_acts", {}).items()}
    s.own, s.stood_in = set(snap.get("own", [])), set(snap.get("stood_in", []))
    s.round_own = [list(m) for m in snap.get("round_own", [])]
    acts = [str(a) for a in snap["game_acts"]]
    s.play.restore(snap, acts, first=s.first, game_number=s.game_number, started=s.started,
                   seed_of=s.seed_of)
    s.game_acts = acts
    return s
