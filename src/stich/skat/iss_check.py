"""Checking an ISS record: replay it and compare the engine's result with ``R[...]``, or
say why it is not compared (:data:`SKIP_REASONS`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from stich.messages import Msg, Seat, render
from stich.skat.iss_format import IssError, IssRecord, IssResult, parse_iss
from stich.skat.iss_replay import IssReplay, replay_iss

__all__ = ["SKIP_REASONS", "IssCheck", "check_iss", "check_line"]

SKIP_REASONS = ("passed", "left", "timeout", "penalty", "corrupt")
"""Why a record is not compared: everybody passed, a player left, a player ran out of
time where no game can be settled, the server gave penalty points, or the record cannot
be read or replayed."""

_TIMEOUT_CODES = ("iss.timeout_unreadable", "iss.timeout_not_in_play",
                  "iss.timeout_without_move")


@dataclass(frozen=True)
class IssCheck:
    """The verdict on one record: ``agree``, ``disagree`` (``diffs`` lists each field as
    (name, ours, theirs)) or ``skipped`` (``reason`` is one of :data:`SKIP_REASONS`,
    ``note`` says more).  ``unsure`` names the fields not compared for this game."""

    record_id: str
    status: Literal["agree", "disagree", "skipped"]
    reason: str = ""
    note: Msg | None = None
    diffs: tuple[tuple[str, object, object], ...] = ()
    replay: IssReplay | None = field(default=None, compare=False, repr=False)

    @property
    def detail(self) -> str:
        """The note in English."""
        return "" if self.note is None else render(self.note.code, self.note.params)

    @property
    def unsure(self) -> tuple[str, ...]:
        return self.replay.unsure if self.replay is not None else ()


def _move_seat(record: IssRecord, kind: str) -> int:
    """The seat of the first ``LE.n``/``TI.n`` move, else -1."""
    for m in record.moves:
        if m.what.startswith(kind) and m.what[3:] in ("0", "1", "2"):
            return int(m.what[3:])
    return -1


def _skip_reason(record: IssRecord) -> tuple[str, Msg] | None:
    r = record.result
    if r.passed:
        return "passed", Msg("iss.skip.passed", {})
    left = r.left if r.left >= 0 else _move_seat(record, "LE.")
    timeout = r.timeout if r.timeout >= 0 else _move_seat(record, "TI.")
    if r.penalty or any(r.penalty_points):
        if left >= 0:
            why = Msg("iss.skip.seat_left", {"seat": Seat(left)})
        elif timeout >= 0:
            why = Msg("iss.skip.seat_timed_out", {"seat": Seat(timeout)})
        else:
            why = Msg("iss.skip.penalty_points", {})
        points = "/".join(map(str, r.penalty_points))
        return "penalty", Msg("iss.skip.penalty", {"why": why, "points": points})
    if left >= 0:
        hidden = any("??" in m.what for m in record.moves)
        return "left", Msg("iss.skip.left_hidden" if hidden else "iss.skip.left",
                           {"seat": Seat(left)})
    if r.timeout >= 0 and not any(m.what.startswith("TI.") for m in record.moves):
        return "timeout", Msg("iss.timeout_without_move", {"seat": Seat(r.timeout)})
    return None


def check_iss(record: IssRecord) -> IssCheck:
    """Replay a record and compare the engine's result with ``R[...]``."""
    rid = record.describe()
    skip = _skip_reason(record)
    if skip is not None and skip[0] != "passed":
        return IssCheck(rid, "skipped", skip[0], skip[1])
    try:
        rep = replay_iss(record)
    except IssError as e:
        reason = "timeout" if e.root.code in _TIMEOUT_CODES else "corrupt"
        return IssCheck(rid, "skipped", reason, Msg.of(e))
    if skip is not None:  # passed: the engine must see the same auction end
        if rep.ending == "passed":
            return IssCheck(rid, "skipped", skip[0], skip[1], replay=rep)
        return IssCheck(rid, "disagree", diffs=(("passed", False, True),), replay=rep)
    theirs = record.result
    diffs: list[tuple[str, object, object]] = []
    for name in IssResult.COMPARED:
        if name in rep.unsure or not theirs.gives(name):
            continue
        t = getattr(theirs, name)
        o = getattr(rep.result, name)
        if o != t:
            diffs.append((name, o, t))
    if rep.ending == "passed":  # the record claims a game, the engine saw all pass
        diffs.append(("passed", True, False))
    if diffs:
        return IssCheck(rid, "disagree", diffs=tuple(diffs), replay=rep)
    return IssCheck(rid, "agree", replay=rep)


def check_line(line: str, where: str = "") -> IssCheck:
    """Parse and check one line; an unreadable line is ``skipped``/``corrupt``."""
    try:
        record = parse_iss(line)
    except IssError as e:
        m = re.search(r"ID\[([^\]]*)\]", line)
        rid = m.group(1) if m and m.group(1) else (where or "(no id)")
        return IssCheck(rid, "skipped", "corrupt",
                        Msg("iss.skip.unreadable", {"reason": Msg.of(e)}))
    return check_iss(record)
