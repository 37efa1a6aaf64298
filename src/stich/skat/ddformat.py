"""The line format of solved open-hand positions (``tests/data/validation/skat-dd``).

One position per line: ``hand1,hand2,hand3,skat,leader,game,points``.  Hands and Skat
are 32-bit masks: bits 0..6 Karo 7, 8, 9, Dame, König, 10, Ass; 7..13 the same for Herz,
14..20 Pik, 21..27 Kreuz; bits 28..31 Karo-, Herz-, Pik-, Kreuz-Bube.  ``hand1`` is the
declarer's, ``leader`` (0..2) leads the first trick, ``game`` is 0 Grand, 1 Kreuz,
2 Pik, 3 Herz, 4 Karo, and ``points`` the declarer's card points under perfect play plus
the Skat.

stich extends the format with ``game`` 5, Null (the data has none): ``points`` is then
1 if the declarer can avoid every trick under perfect play and 0 if not; the Skat plays
no part.  ``tests/data/null_positions.txt`` is such a file.

>>> p = parse_line("16,134217728,16384,0,0,0,15")
>>> p.expected, p.position.game.value, p.skat_points
(15, 'grand', 0)
>>> format_line(p.position, p.skat, p.expected)
'16,134217728,16384,0,0,0,15'
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from stich.cards import card_points
from stich.core import RecordError
from stich.messages import Msg, StichError
from stich.skat.rules import GameType
from stich.skat.solver import Position

__all__ = ["DDPosition", "format_line", "from_dd_mask", "parse_line", "read_positions",
           "to_dd_mask"]

_GAMES = (GameType.GRAND, GameType.EICHEL, GameType.GRUEN, GameType.HERZ, GameType.SCHELLEN,
          GameType.NULL)


def from_dd_mask(m: int) -> int:
    """The data's card mask as a stich card set."""
    out = 0
    for suit in range(4):
        for rank in range(7):
            if m >> (suit * 7 + rank) & 1:
                out |= 1 << (suit * 8 + rank)
        if m >> (28 + suit) & 1:
            out |= 1 << (suit * 8 + 7)
    return out


def to_dd_mask(cards: int) -> int:
    out = 0
    for suit in range(4):
        for rank in range(7):
            if cards >> (suit * 8 + rank) & 1:
                out |= 1 << (suit * 7 + rank)
        if cards >> (suit * 8 + 7) & 1:
            out |= 1 << (28 + suit)
    return out


class DDPosition(NamedTuple):
    position: Position
    skat: int
    expected: int
    line_no: int

    @property
    def skat_points(self) -> int:
        return card_points(self.skat)

    @property
    def is_null(self) -> bool:
        """A Null position (game 5): ``expected`` is 1 if the declarer avoids every trick."""
        return self.position.game is GameType.NULL


def parse_line(line: str, line_no: int = 0) -> DDPosition:
    """One line as a position; a :class:`~stich.core.RecordError` (naming ``line_no``)
    if it is not one."""
    parts = line.strip().split(",")
    if len(parts) != 7:
        raise RecordError("skat.dd.fields", line=line_no, n=len(parts))
    try:
        h1, h2, h3, skat, leader, game, points = (int(p) for p in parts)
    except ValueError:
        raise RecordError("skat.dd.numbers", line=line_no) from None
    if not 0 <= leader <= 2 or not 0 <= game <= 5:
        raise RecordError("skat.dd.leader_game", line=line_no)
    masks = (h1, h2, h3, skat)
    if any(not 0 <= m < 1 << 32 for m in masks):
        raise RecordError("skat.dd.mask", line=line_no)
    if h1 & h2 or h1 & h3 or h2 & h3 or (h1 | h2 | h3) & skat:
        raise RecordError("skat.dd.card_twice", line=line_no)
    if game == 5 and points not in (0, 1):
        raise RecordError("skat.dd.null_result", line=line_no)
    hands = (from_dd_mask(h1), from_dd_mask(h2), from_dd_mask(h3))
    try:
        pos = Position(_GAMES[game], hands, declarer=0, to_move=leader)
    except StichError as e:  # hand sizes that do not fit
        raise RecordError("skat.dd.position", line=line_no, reason=Msg.of(e)) from None
    return DDPosition(pos, from_dd_mask(skat), points, line_no)


def format_line(pos: Position, skat: int, points: int) -> str:
    h = [to_dd_mask(x) for x in pos.hands]
    game = _GAMES.index(pos.game)
    return f"{h[0]},{h[1]},{h[2]},{to_dd_mask(skat)},{pos.to_move},{game},{points}"


def read_positions(path: str | Path) -> Iterator[DDPosition]:
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            if line.strip():
                yield parse_line(line, n)
