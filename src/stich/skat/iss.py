"""Game records of the International Skat Server (ISS): read, replay, check and write.

One ISS record is one line::

    (;GM[Skat]PC[...]SE[series]ID[game]DT[date]P0[..]P1[..]P2[..]MV[moves]R[result] ;)

:func:`parse_iss` reads a line into an :class:`IssRecord` (:mod:`stich.skat.iss_format`);
:func:`replay_iss` turns its moves into engine actions and plays them under
``SkatRules.preset("isko")`` (the ISS plays the ISkO), ending the game where the server
ends it (:mod:`stich.skat.iss_replay`); :func:`check_iss` compares the engine's result
with the record's ``R[...]`` (:mod:`stich.skat.iss_check`);
:func:`stich.skat.iss_write.export_iss` writes a finished ``isko`` game as such a line.
``docs/iss.md`` describes the format as we read it.

>>> line = ("(;GM[Skat]PC[International Skat Server]CO[]SE[1]ID[7]DT[]P0[a]P1[b]P2[c]"
...         "MV[w " + ".".join(["CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9", "C8",
...         "SA", "ST", "SK", "SQ", "S9", "S8", "S7", "HA", "HT", "HK",
...         "HQ", "H9", "H8", "H7", "DA", "DT", "DK", "DQ", "D9", "D8", "C7", "D7"])
...         + " 1 p 2 p 0 p ]R[passed] ;)")
>>> rec = parse_iss(line)
>>> rec.game_id, rec.players, rec.result.passed
('7', ('a', 'b', 'c'), True)
>>> check_iss(rec).status, check_iss(rec).reason
('skipped', 'passed')
>>> parse_iss("table .3 xskat end " + line).game_id
'7'
"""

from __future__ import annotations

from stich.skat.iss_check import SKIP_REASONS, IssCheck, check_iss, check_line
from stich.skat.iss_format import (
    IssError,
    IssLines,
    IssMove,
    IssRecord,
    IssResult,
    parse_iss,
    read_iss_lines,
    record_text,
    scan_iss_lines,
)
from stich.skat.iss_replay import (
    ISKO,
    IssReplay,
    ServerRules,
    declaration_code,
    early_settlement,
    played_result,
    replay_iss,
    server_rules,
)

__all__ = [
    "ISKO",
    "IssCheck",
    "IssError",
    "IssLines",
    "IssMove",
    "IssRecord",
    "IssReplay",
    "IssResult",
    "SKIP_REASONS",
    "ServerRules",
    "check_iss",
    "check_line",
    "declaration_code",
    "early_settlement",
    "parse_iss",
    "played_result",
    "read_iss_lines",
    "record_text",
    "replay_iss",
    "scan_iss_lines",
    "server_rules",
]
