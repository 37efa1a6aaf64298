"""The real ISS records of tests/data/validation/iss, and ISS lines built for the tests:
deals written by hand, the moves played by the rules, the result as the server writes it
(see docs/iss.md for the evidence of each rule)."""

from __future__ import annotations

import random
import re

from stich.skat import SkatRules, SkatState
from stich.skat.iss import read_iss_lines
from tests.validation import validation_dir

ISS_FILE = validation_dir() / "iss" / "jskat-examples.sgf"


def _lines() -> dict[str, str]:
    out = {}
    for _, line in read_iss_lines(ISS_FILE.read_text(encoding="utf-8").splitlines()):
        m = re.search(r"ID\[(\d+)\]", line)
        assert m
        out[m.group(1)] = line
    return out


LINES = _lines()
"""The shipped records by game id."""


def modified(game_id: str, old: str, new: str) -> str:
    """A shipped record with its first ``old`` replaced by ``new`` (which must occur)."""
    line = LINES[game_id]
    assert old in line, (game_id, old)
    return line.replace(old, new, 1)


def iss_line(hands: tuple[str, str, str, str], moves: str, result: str, *,
             place: str = "International Skat Server", game_id: str = "900001") -> str:
    """An ISS record line: the deal (Vorhand, Mittelhand, Hinterhand, Skat as card codes),
    the moves after it, and ``R[...]``."""
    deal = ".".join(c for h in hands for c in h.split())
    return (f"(;GM[Skat]PC[{place}]CO[]SE[1]ID[{game_id}]DT[2024-01-01/00:00:00/UTC]"
            f"P0[a]P1[b]P2[c]R0[]R1[]R2[]MV[w {deal} {moves} ]R[{result}] ;)")


def result(declarer: int, won: bool, value: int, matadors: int, points: int, tricks: int,
           schneider: bool = False, schwarz: bool = False, *, overbid: bool = False,
           timeout: int = -1, resigned: bool = False) -> str:
    """``R[...]`` as the server writes it."""
    return (f"d:{declarer} {'win' if won else 'loss'} v:{value} m:{matadors} "
            f"{'overbid' if overbid else 'bidok'} p:{points} t:{tricks} "
            f"s:{int(schneider)} z:{int(schwarz)} p0:0 p1:0 p2:0 l:-1 to:{timeout} "
            f"r:{int(resigned)}")


def cut(game_id: str, at: str, tail: str, res: str) -> str:
    """A shipped record whose moves stop before ``at`` (which must occur in ``MV``),
    followed by ``tail``, with ``R[res]``."""
    line = LINES[game_id]
    head, rest = line.split("MV[", 1)
    moves, after = rest.split("]", 1)
    assert at in moves, (game_id, at)
    moves = moves[:moves.index(at)] + tail
    after = after[:after.index("R[") + 2] + res + "] ;)"
    return f"{head}MV[{moves.strip()} ]{after}"


def play_random(rules: SkatRules, seed: int) -> SkatState:
    """A whole game of random legal actions (bids kept low most of the time, so that
    games get played)."""
    rng = random.Random(seed)
    s = SkatState.new(rules, rng=rng)
    while not s.is_over:
        acts = list(s.legal_actions())
        if s.phase.name == "BIDDING" and len(acts) > 2 and rng.random() < 0.6:
            acts = [a for a in acts if str(a) in ("pass", "hold", "18", "20", "22", "23")]
        s = s.apply(rng.choice(acts))
    return s
