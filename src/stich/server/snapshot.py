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

from stich.baptisten import BaptistenState
from stich.server.sitting import CHAT_KEPT, SeatInfo, Sitting, TableSettings, _step, deal_seed
from stich.skat import SkatState
from stich.skat.outcome import SkatOutcome
from stich.skat.rules import GameType
from stich.table import SkatTable, TableGame

__all__ = ["FORMAT", "restore", "take"]

FORMAT = 1
"""The form of a snapshot; a change of :class:`Sitting`'s attributes changes it."""


def take(s: Sitting) -> dict[str, Any]:
    """The sitting as JSON-ready data (its settings excepted: the table row has them)."""
    table = s.skat_table
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
        "positions": list(s.positions),
        "game_acts": list(s.game_acts),
        "games_done": s.games_done,
        "chat": list(s.chat),
        "standin_marks": s.standin_marks,
        "round_marks": s.round_marks,
        "by_acts": s.by_acts,
        "own": sorted(s.own),
        "stood_in": sorted(s.stood_in),
        "round_own": s.round_own,
        "last_trick": None if s.last_trick is None else list(s.last_trick),
        "list": None if table is None else {
            "players": table.players, "first_dealer": table.first_dealer,
            "dealer": table.dealer, "games": [_game(g) for g in table.games]},
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
    p = snap["positions"]
    s.positions = (int(p[0]), int(p[1]), int(p[2]))
    s.games_done = int(snap["games_done"])
    s.chat = deque(snap["chat"], maxlen=CHAT_KEPT)
    s.standin_marks = [list(m) for m in snap["standin_marks"]]
    s.round_marks = [list(m) for m in snap["round_marks"]]
    # (snapshots taken before these were kept: nothing known of who made the moves)
    s.by_acts = {str(k): [int(i) for i in v] for k, v in snap.get("by_acts", {}).items()}
    s.own, s.stood_in = set(snap.get("own", [])), set(snap.get("stood_in", []))
    s.round_own = [list(m) for m in snap.get("round_own", [])]
    lt = snap["last_trick"]
    s.last_trick = None if lt is None else (int(lt[0]), list(lt[1]), int(lt[2]))
    if snap["list"] is not None:
        d = snap["list"]
        table = SkatTable(list(d["players"]), s.skat_rules, first_dealer=d["first_dealer"])
        table.dealer = int(d["dealer"])
        table.games = [_table_game(g) for g in d["games"]]
        s.skat_table = table
    acts = [str(a) for a in snap["game_acts"]]
    if settings.game == "skat" and s.game_number > 0:
        skat = SkatState.new(s.skat_rules, seed=deal_seed(settings.seed, s.game_number))
        for text in acts:
            skat = _step(skat, text)[0]  # type: ignore[assignment]
        s.skat = skat
    elif settings.game == "baptisten" and s.started:
        bap = BaptistenState.new(s.baptisten_rules, seed=deal_seed(settings.seed, 1),
                                 first=s.first)
        for text in acts:
            bap = _step(bap, text)[0]  # type: ignore[assignment]
        s.baptisten = bap
    s.game_acts = acts
    return s


def _game(g: TableGame) -> dict[str, Any]:
    out = g.outcome._asdict()
    out["game"] = None if g.outcome.game is None else g.outcome.game.value
    return {"number": g.number, "dealer": g.dealer, "positions": list(g.positions),
            "kind": g.kind, "declarer": g.declarer, "game": g.game, "value": g.value,
            "won": g.won, "scores": list(g.scores), "totals": list(g.totals),
            "outcome": out}


def _table_game(d: dict[str, Any]) -> TableGame:
    o = dict(d["outcome"])
    o["game"] = None if o["game"] is None else GameType(o["game"])
    for key in ("scores", "points", "tricks"):
        o[key] = tuple(o[key])
    p, sc, t = d["positions"], d["scores"], d["totals"]
    return TableGame(number=d["number"], dealer=d["dealer"], positions=(p[0], p[1], p[2]),
                     kind=d["kind"], declarer=d["declarer"], game=d["game"], value=d["value"],
                     won=d["won"], scores=(sc[0], sc[1], sc[2]), totals=(t[0], t[1], t[2]),
                     outcome=SkatOutcome(**o))
