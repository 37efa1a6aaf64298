"""An exact open-hand (double-dummy) solver for Skat card play.

Given a card-play position with every hand known (any number of cards left, mid-trick
too), :func:`solve` returns the card points the declarer takes from the cards still in
play under perfect play by all three; :func:`reaches` answers "can the declarer take at
least ``target`` of them?" with a zero-window search, which is much cheaper;
:func:`takes_all` whether the declarer can take every trick (Schwarz); :func:`null_won`
whether a Null declarer can avoid every trick; :func:`card_values` the value of each
legal card.

The search is alpha-beta over single card plays with a transposition table at trick
starts (keyed by the three hands and the player to lead), fail-soft bounds, move ordering
(the transposition table's best card first, then by strength), cards that are equivalent
in the position searched once (same group, same points, no outside card between them),
and the points still out as a bound.  The exact value comes from a sequence of
zero-window searches (MTD(f)) sharing one table.

Seats are numbered in playing order: seat ``(s + 1) % 3`` plays after seat ``s``.

>>> from stich.cards import parse_cards
>>> from stich.skat.rules import GameType
>>> p = Position(GameType.GRAND, (parse_cards("DK"), parse_cards("CA"), parse_cards("S7")),
...              declarer=0, to_move=0)
>>> solve(p)
15
>>> reaches(p, 16), reaches(p, 15)
(False, True)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from types import ModuleType
from typing import Final

from stich.cards import CARDS, card_points
from stich.core import ArgumentError
from stich.messages import GameName
from stich.skat.lookup import TABLES
from stich.skat.rules import GameType

__all__ = ["HAVE_C", "Position", "SearchLimit", "card_values", "compiled", "null_won", "reaches",
           "solve", "takes_all"]

_POINTS: Final = tuple(c.points for c in CARDS)
_INF: Final = 1000

_c: ModuleType | None
try:
    from stich.skat import _dds as _c  # type: ignore[attr-defined,no-redef]
except ImportError:  # no compiler when the package was installed: pure Python
    _c = None
HAVE_C: Final = _c is not None
"""Whether the compiled core is available (``STICH_PURE_PYTHON=1`` turns it off)."""


def _use_c(engine: str) -> bool:
    if engine not in ("auto", "c", "python"):
        raise ArgumentError("skat.solver.unknown_engine", engine=engine)
    if engine == "c" and _c is None:
        raise RuntimeError("the compiled solver core stich.skat._dds is not built")
    if engine == "auto":
        return _c is not None and os.environ.get("STICH_PURE_PYTHON") != "1"
    return engine == "c"


class SearchLimit(Exception):
    """A search given a node limit (``nodes=``) reached it without an answer."""


def compiled() -> bool:
    """Whether searches use the compiled core now (built, and not turned off)."""
    return _use_c("auto")


def _c_search(pos: Position, mode: int, target: int = 0, nodes: int | None = None) -> int:
    t = TABLES[pos.game]
    assert _c is not None
    value, _nodes = _c.search(t.follow, t.strength, _POINTS, t.trump, *pos.hands,
                              pos.declarer, pos.to_move, pos.trick, mode, target, nodes or 0)
    if value < 0:
        raise SearchLimit(nodes)
    return int(value)


@dataclass(frozen=True)
class Position:
    """A card-play position with all hands open.

    ``hands`` are the three seats' remaining cards (sets), ``trick`` the cards already
    played to the current trick in order, led by ``leader``; ``to_move`` is the seat to
    play next (the leader when ``trick`` is empty).
    """

    game: GameType
    hands: tuple[int, int, int]
    declarer: int
    to_move: int
    trick: tuple[int, ...] = ()

    @property
    def leader(self) -> int:
        return (self.to_move - len(self.trick)) % 3

    @property
    def points_in_play(self) -> int:
        """Card points still to be won: the hands and the open trick."""
        m = self.hands[0] | self.hands[1] | self.hands[2]
        for c in self.trick:
            m |= 1 << c
        return card_points(m)

    def __post_init__(self) -> None:
        sizes = [h.bit_count() for h in self.hands]
        t = len(self.trick)
        if t > 2:
            raise ArgumentError("skat.solver.trick_size", n=t)
        expected = [sizes[(self.to_move + i) % 3] + (1 if i >= 3 - t else 0) for i in range(3)]
        if len(set(expected)) != 1:
            raise ArgumentError("skat.solver.hand_sizes", sizes=", ".join(map(str, sizes)), n=t)
        if self.game is GameType.RAMSCH:
            raise ArgumentError("skat.solver.ramsch")


class _Search:
    """One search over one position's tree, with its transposition table."""

    def __init__(self, pos: Position, limit: int | None = None) -> None:
        t = self.tables = TABLES[pos.game]
        self.limit = limit or 0
        self.follow = t.follow
        self.strength = t.strength
        self.trump = t.trump
        self.hands = list(pos.hands)
        self.declarer = pos.declarer
        self.is_null = pos.game is GameType.NULL
        self.tt: dict[tuple[int, int, int, int], tuple[int, int, int]] = {}
        self.nodes = 0
        self.pos = pos
        # cards ordered by strength within each follow group, for equivalence tests
        self.order = sorted(range(32), key=lambda c: (t.follow[c], t.strength[c]))

    # -- helpers ---------------------------------------------------------------------

    def moves(self, seat: int, trick: list[int]) -> list[int]:
        hand = self.hands[seat]
        if trick:
            f = self.follow[trick[0]] & hand
            if f:
                hand = f
        out = []
        seen = 0
        others = 0
        for s in range(3):
            if s != seat:
                others |= self.hands[s]
        for c in trick:
            others |= 1 << c
        strength = self.strength
        m = hand
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            if seen >> c & 1:
                continue
            seen |= self._equivalents(c, hand, others)
            out.append(c)
        out.sort(key=lambda c: -strength[c])
        return out

    def _equivalents(self, c: int, hand: int, others: int) -> int:
        """Cards of ``hand`` that play exactly like ``c`` here: same group, same points,
        and no card of another seat (or the open trick) ranks between them."""
        group = self.follow[c]
        pts = _POINTS[c]
        st = self.strength
        eq = 1 << c
        members = [x for x in range(32) if group >> x & 1 and (hand | others) >> x & 1]
        members.sort(key=lambda x: st[x])
        i = members.index(c)
        j = i - 1
        while j >= 0 and hand >> members[j] & 1 and _POINTS[members[j]] == pts:
            eq |= 1 << members[j]
            j -= 1
        j = i + 1
        while j < len(members) and hand >> members[j] & 1 and _POINTS[members[j]] == pts:
            eq |= 1 << members[j]
            j += 1
        return eq

    def winner(self, trick: list[int]) -> int:
        return self.tables.winner(trick)

    # -- card points -----------------------------------------------------------------

    def ab(self, seat: int, trick: list[int], alpha: int, beta: int) -> int:
        """Declarer points from the cards in play (fail-soft alpha-beta)."""
        self.nodes += 1
        if self.limit and self.nodes > self.limit:
            raise SearchLimit(self.limit)
        hands = self.hands
        key = None
        if not trick:
            if not (hands[0] | hands[1] | hands[2]):
                return 0
            key = (hands[0], hands[1], hands[2], seat)
            entry = self.tt.get(key)
            if entry is not None:
                lo, hi, _ = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                alpha = max(alpha, lo)
                beta = min(beta, hi)
            rest = card_points(hands[0] | hands[1] | hands[2])
            if rest <= alpha:
                return rest
            if beta <= 0:
                return 0
        maximize = seat == self.declarer
        best = -_INF if maximize else _INF
        best_card = -1
        a0, b0 = alpha, beta
        moves = self.moves(seat, trick)
        if key is not None:
            entry = self.tt.get(key)
            if entry is not None and entry[2] in moves:
                moves.remove(entry[2])
                moves.insert(0, entry[2])
        for c in moves:
            bit = 1 << c
            hands[seat] ^= bit
            trick.append(c)
            if len(trick) == 3:
                w = (seat + 1 + self.winner(trick)) % 3
                pts = _POINTS[trick[0]] + _POINTS[trick[1]] + _POINTS[trick[2]]
                gain = pts if w == self.declarer else 0
                saved = trick[:]
                trick.clear()
                v = gain + self.ab(w, trick, alpha - gain, beta - gain)
                trick.extend(saved)
            else:
                v = self.ab((seat + 1) % 3, trick, alpha, beta)
            trick.pop()
            hands[seat] ^= bit
            if maximize:
                if v > best:
                    best, best_card = v, c
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best, best_card = v, c
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        if key is not None:
            lo, hi = -_INF, _INF
            old = self.tt.get(key)
            if old is not None:
                lo, hi = old[0], old[1]
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.tt[key] = (lo, hi, best_card)
        return best

    # -- trick questions -------------------------------------------------------------

    def tricks(self, seat: int, trick: list[int], want_all: bool) -> bool:
        """``want_all`` False (Null): whether the declarer avoids every remaining trick;
        True (Schwarz): whether the declarer takes every remaining trick."""
        self.nodes += 1
        if self.limit and self.nodes > self.limit:
            raise SearchLimit(self.limit)
        hands = self.hands
        key = None
        if not trick:
            if not (hands[0] | hands[1] | hands[2]):
                return True
            key = (hands[0], hands[1], hands[2], seat)
            entry = self.tt.get(key)
            if entry is not None:
                return bool(entry[0])
        declarer_moves = seat == self.declarer
        result = not declarer_moves
        for c in self.moves(seat, trick):
            bit = 1 << c
            hands[seat] ^= bit
            trick.append(c)
            if len(trick) == 3:
                w = (seat + 1 + self.winner(trick)) % 3
                if (w == self.declarer) != want_all:
                    ok = False
                else:
                    saved = trick[:]
                    trick.clear()
                    ok = self.tricks(w, trick, want_all)
                    trick.extend(saved)
            else:
                ok = self.tricks((seat + 1) % 3, trick, want_all)
            trick.pop()
            hands[seat] ^= bit
            if declarer_moves and ok:
                result = True
                break
            if not declarer_moves and not ok:
                result = False
                break
        if key is not None:
            self.tt[key] = (int(result), int(result), -1)
        return result


def _start(pos: Position, nodes: int | None = None) -> tuple[_Search, list[int]]:
    return _Search(pos, nodes), list(pos.trick)


def reaches(pos: Position, target: int, engine: str = "auto", *,
            nodes: int | None = None) -> bool:
    """Whether the declarer can take at least ``target`` points of the cards in play.

    ``nodes``: give up after searching that many positions and raise :class:`SearchLimit`
    (for callers on a clock; both engines count nodes alike, though not identically)."""
    if pos.game is GameType.NULL:
        raise ArgumentError("skat.solver.null_points")
    if target <= 0:
        return True
    if _use_c(engine):
        return bool(_c_search(pos, 1, target, nodes))
    s, trick = _start(pos, nodes)
    return s.ab(pos.to_move, trick, target - 1, target) >= target


def solve(pos: Position, engine: str = "auto") -> int:
    """Exact card points the declarer takes from the cards in play (MTD(f)).
    ``engine``: ``auto`` (the compiled core when built), ``c`` or ``python``."""
    if pos.game is GameType.NULL:
        raise ArgumentError("skat.solver.null_points")
    if _use_c(engine):
        return _c_search(pos, 0)
    s, trick = _start(pos)
    lo, hi = 0, pos.points_in_play
    guess = hi // 2
    while lo < hi:
        beta = max(guess, lo + 1)
        v = s.ab(pos.to_move, trick, beta - 1, beta)
        if v < beta:
            hi = v
        else:
            lo = v
        guess = (lo + hi + 1) // 2 if lo < hi else lo
    return lo


def null_won(pos: Position, engine: str = "auto", *, nodes: int | None = None) -> bool:
    """Whether a Null declarer can avoid every remaining trick (``nodes``: as in
    :func:`reaches`)."""
    if pos.game is not GameType.NULL:
        raise ArgumentError("skat.solver.not_null", game=GameName(pos.game.value))
    if _use_c(engine):
        return bool(_c_search(pos, 2, 0, nodes))
    s, trick = _start(pos, nodes)
    return s.tricks(pos.to_move, trick, want_all=False)


def takes_all(pos: Position, engine: str = "auto", *, nodes: int | None = None) -> bool:
    """Whether the declarer can take every remaining trick (Schwarz), in any game but
    Null.  (Not the same as taking all points: a trick can be worth 0.)  ``nodes``: as in
    :func:`reaches`."""
    if pos.game is GameType.NULL:
        raise ArgumentError("skat.solver.null_tricks")
    if _use_c(engine):
        return bool(_c_search(pos, 3, 0, nodes))
    s, trick = _start(pos, nodes)
    return s.tricks(pos.to_move, trick, want_all=True)


def card_values(pos: Position, engine: str = "auto") -> dict[int, int]:
    """For every legal card of the player to move: the declarer's points from the cards
    in play if that card is played and everybody plays perfectly afterwards (for Null:
    1 if the declarer still avoids every trick, else 0)."""
    s, trick = _start(pos)
    seat = pos.to_move
    hand = pos.hands[seat]
    if trick:
        f = s.follow[trick[0]] & hand
        if f:
            hand = f
    out: dict[int, int] = {}
    m = hand
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        hands = list(pos.hands)
        hands[seat] ^= low
        new_trick = (*pos.trick, c)
        gain = 0
        nxt = (seat + 1) % 3
        if len(new_trick) == 3:
            w = (seat + 1 + TABLES[pos.game].winner(new_trick)) % 3
            if pos.game is GameType.NULL and w == pos.declarer:
                out[c] = 0
                continue
            if w == pos.declarer:
                gain = sum(_POINTS[x] for x in new_trick)
            new_trick = ()
            nxt = w
        child = Position(pos.game, (hands[0], hands[1], hands[2]), pos.declarer, nxt,
                         new_trick)
        if pos.game is GameType.NULL:
            out[c] = int(null_won(child, engine))
        else:
            out[c] = gain + solve(child, engine)
    return out
