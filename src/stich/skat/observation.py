"""The Skat observation and action mask as bytes: the hot part of the Skat environment.

:mod:`stich.env.skat` documents the layout (:data:`OBS_LAYOUT`) and turns these bytes into
NumPy arrays, one game at a time or a whole batch in one go.  This module uses the
standard library only and reads nothing but a :class:`~stich.skat.view.SkatView` and the
numbers the environment adds to it (the pending discard, the list so far), so that it can
be compiled with mypyc like the engines (``stich._compiled``); the Python source is the
reference and gives the same bytes.  It lives beside the engine, not in :mod:`stich.env`:
the build compiles it without the ``rl`` extra (NumPy, PettingZoo) at hand, and the
engine never imports the environments.

An observation is two parts: :data:`OBS_SIZE` bytes holding every 0/1 slot (the scalar
slots hold 0), and the :data:`SCALARS` scalar values, to be written into the columns
:data:`SCALAR_COLUMNS`.
"""

from __future__ import annotations

from typing import Final

from stich.cards import CARDS
from stich.skat.actions import Action
from stich.skat.rules import GameType
from stich.skat.view import SkatView

__all__ = [
    "OBS_LAYOUT",
    "OBS_SIZE",
    "SCALAR_COLUMNS",
    "SCALARS",
    "card_bytes",
    "card_set",
    "encode",
    "encode_words",
    "WORDS",
]

_PHASES: Final = ("BIDDING", "SKAT", "DISCARD", "DECLARE", "PLAY", "OVER")
_GAMES: Final = (GameType.SCHELLEN, GameType.HERZ, GameType.GRUEN, GameType.EICHEL,
                 GameType.GRAND, GameType.NULL, GameType.RAMSCH)
_REL: Final = ("me", "left", "right")

CARD_PLANES: Final[tuple[str, ...]] = (
    "hand",  # my cards
    "skat_seen",  # the Skat as picked up (declarer), the whole Skat once over
    "discarded",  # the cards the declarer put away (declarer; everybody once over)
    "ouvert_hand",  # an Ouvert declarer's remaining cards
    "played_by_me", "played_by_left", "played_by_right",  # finished and current tricks
    "trick_me", "trick_left", "trick_right",  # the current trick's cards by who played them
    "pending_discard",  # my first chosen discard card (two-step discard)
)

OBS_LAYOUT: Final[tuple[tuple[str, int], ...]] = (
    *((name, 32) for name in CARD_PLANES),
    ("phase", len(_PHASES)),  # BIDDING, SKAT, DISCARD, DECLARE, PLAY, OVER
    ("my_position", 3),  # Vorhand, Mittelhand, Hinterhand
    ("to_move", 3),  # me, left, right (all 0 when nobody moves)
    ("trick_leader", 3),  # who led the current trick (all 0 without one)
    ("bid", 1),  # the highest value said or held / 264
    ("passed", 3),  # who passed in the auction (me, left, right)
    ("last_bidder", 3),  # who said the highest value
    ("declarer", 4),  # me, left, right, none (before the auction ends, Ramsch, passed)
    ("game", len(_GAMES) + 1),  # schellen, herz, gruen, eichel, grand, null, ramsch, none
    ("contract", 4),  # hand, schneider, schwarz, ouvert announced
    ("points_taken", 3),  # card points of the tricks taken (me, left, right) / 120
    ("tricks_won", 3),  # tricks taken (me, left, right) / 10
    ("game_number", 1),  # games finished in the list / games
    ("list_scores", 3),  # list scores so far (me, left, right) / 120
)
"""Every slot of the observation vector as (name, width), in order."""


def _offsets() -> dict[str, int]:
    out: dict[str, int] = {}
    o = 0
    for name, width in OBS_LAYOUT:
        out[name] = o
        o += width
    return out


_OFF: Final = _offsets()
OBS_SIZE: Final = sum(w for _, w in OBS_LAYOUT)
_PLANES_END: Final = 32 * len(CARD_PLANES)
_TAIL: Final = OBS_SIZE - _PLANES_END

SCALARS: Final = ("bid", "points_taken", "tricks_won", "game_number", "list_scores")
"""The slots that hold numbers rather than 0/1 (their bytes are 0)."""
SCALAR_COLUMNS: Final[tuple[int, ...]] = tuple(
    _OFF[name] + i for name, width in OBS_LAYOUT if name in SCALARS for i in range(width))
"""The observation's columns of the scalar values :func:`encode` returns, in order."""

# tail offsets, relative to the end of the card planes
_PHASE: Final = _OFF["phase"] - _PLANES_END
_POSITION: Final = _OFF["my_position"] - _PLANES_END
_TO_MOVE: Final = _OFF["to_move"] - _PLANES_END
_LEADER: Final = _OFF["trick_leader"] - _PLANES_END
_PASSED: Final = _OFF["passed"] - _PLANES_END
_LAST: Final = _OFF["last_bidder"] - _PLANES_END
_DECLARER: Final = _OFF["declarer"] - _PLANES_END
_GAME: Final = _OFF["game"] - _PLANES_END
_CONTRACT: Final = _OFF["contract"] - _PLANES_END

_PHASE_INDEX: Final[dict[str, int]] = {p: i for i, p in enumerate(_PHASES)}
_GAME_INDEX: Final[dict[GameType, int]] = {g: i for i, g in enumerate(_GAMES)}
_POINTS: Final[tuple[int, ...]] = tuple(c.points for c in CARDS)
_BITS: Final[tuple[bytes, ...]] = tuple(
    bytes((b >> i) & 1 for i in range(8)) for b in range(256))


def card_bytes(cards: int) -> bytes:
    """A set of cards as 32 bytes of 0/1, card index order."""
    t = _BITS
    return t[cards & 255] + t[cards >> 8 & 255] + t[cards >> 16 & 255] + t[cards >> 24 & 255]


def card_set(actions: tuple[Action, ...]) -> int:
    """The cards among ``actions`` (the legal actions of card play), as a set."""
    m = 0
    for a in actions:
        m |= 1 << a.index  # type: ignore[union-attr]
    return m


def encode(v: SkatView, pending: int, played_games: int, games: int,
           list_scores: tuple[int, int, int]) -> tuple[bytes, tuple[float, ...]]:
    """The observation of ``v``: its 0/1 bytes and its scalar values (see the module).

    ``pending`` is the seat's first chosen discard card (-1: none); ``played_games`` and
    ``games`` the games finished and the length of the list; ``list_scores`` the list
    scores by seat of the view (table seats mapped to the view's seats)."""
    me = v.seat
    r1 = (me + 1) % 3
    r2 = (me + 2) % 3
    pts = _POINTS
    taken = [0, 0, 0]
    played = [0, 0, 0]  # by seat: the cards of finished tricks and the current one
    for leader, cards, winner in v.tricks:
        s = leader
        for c in cards:
            taken[winner] += pts[c]
            played[s] |= 1 << c
            s = (s + 1) % 3
    trick = [0, 0, 0]  # by seat: its card in the current trick
    for s, c in v.trick:
        trick[s] = 1 << c
        played[s] |= 1 << c
    pend = 1 << pending if pending >= 0 and v.to_move == me and v.phase == "DISCARD" else 0
    tail = bytearray(_TAIL)
    tail[_PHASE + _PHASE_INDEX[v.phase]] = 1
    tail[_POSITION + me] = 1
    if v.to_move >= 0:
        tail[_TO_MOVE + (v.to_move - me) % 3] = 1
    if v.trick:
        tail[_LEADER + (v.trick[0][0] - me) % 3] = 1
    last = -1
    for s, text in v.bidding:
        if text == "pass":
            tail[_PASSED + (s - me) % 3] = 1
        elif text[0].isdigit():
            last = s
    if last >= 0:
        tail[_LAST + (last - me) % 3] = 1
    tail[_DECLARER + ((v.declarer - me) % 3 if v.declarer >= 0 else 3)] = 1
    game = v.game
    tail[_GAME + (_GAME_INDEX[game] if game is not None else len(_GAMES))] = 1
    con = v.contract
    if con is not None:
        tail[_CONTRACT] = con.hand
        tail[_CONTRACT + 1] = con.schneider
        tail[_CONTRACT + 2] = con.schwarz
        tail[_CONTRACT + 3] = con.ouvert
    obs = b"".join((
        card_bytes(v.hand), card_bytes(v.skat_seen), card_bytes(v.discarded),
        card_bytes(v.ouvert_hand), card_bytes(played[me]), card_bytes(played[r1]),
        card_bytes(played[r2]), card_bytes(trick[me]), card_bytes(trick[r1]),
        card_bytes(trick[r2]), card_bytes(pend), bytes(tail)))
    won = v.tricks_won
    return obs, (
        v.bid / 264.0,
        taken[me] / 120.0, taken[r1] / 120.0, taken[r2] / 120.0,
        won[me] / 10.0, won[r1] / 10.0, won[r2] / 10.0,
        played_games / games,
        list_scores[me] / 120.0, list_scores[r1] / 120.0, list_scores[r2] / 120.0,
    )


WORDS: Final = 13
"""The 32-bit words of an observation's 0/1 slots in :func:`encode_words`: the eleven card
planes, then the :data:`OBS_SIZE` − 352 = 48 slots after them (low bits first)."""


def encode_words(v: SkatView, pending: int, played_games: int, games: int,
                 list_scores: tuple[int, int, int], words: list[int], w: int,
                 scalars: list[float], o: int) -> None:
    """:func:`encode` again, for a batch: the 0/1 slots as :data:`WORDS` 32-bit words
    (slot ``32 k + i`` is bit ``i`` of ``words[w + k]``: card planes are card sets) and
    the scalar values, written into ``words`` from ``w`` and ``scalars`` from ``o``.  The
    same function of the view and of the numbers the environment adds, written apart
    from :func:`encode` (the fast path's tests compare the two over many positions)."""
    me = v.seat
    r1 = (me + 1) % 3
    r2 = (me + 2) % 3
    p0, p1, p2, t0, t1, t2 = _trick_sums(v.tricks)
    c0 = c1 = c2 = 0  # the current trick's card, by seat
    for s, c in v.trick:
        bit = 1 << c
        if s == 0:
            c0 = bit
            p0 |= bit
        elif s == 1:
            c1 = bit
            p1 |= bit
        else:
            c2 = bit
            p2 |= bit
    # (by seat through pick3, not a tuple's ``[me]``: compiled, that builds the tuple)
    words[w] = v.hand
    words[w + 1] = v.skat_seen
    words[w + 2] = v.discarded
    words[w + 3] = v.ouvert_hand
    words[w + 4] = pick3(me, p0, p1, p2)
    words[w + 5] = pick3(r1, p0, p1, p2)
    words[w + 6] = pick3(r2, p0, p1, p2)
    words[w + 7] = pick3(me, c0, c1, c2)
    words[w + 8] = pick3(r1, c0, c1, c2)
    words[w + 9] = pick3(r2, c0, c1, c2)
    words[w + 10] = (1 << pending if pending >= 0 and v.to_move == me
                     and v.phase == "DISCARD" else 0)
    tail = 1 << (_PHASE + _PHASE_INDEX[v.phase]) | 1 << (_POSITION + me)
    if v.to_move >= 0:
        tail |= 1 << (_TO_MOVE + (v.to_move - me) % 3)
    if v.trick:
        tail |= 1 << (_LEADER + (v.trick[0][0] - me) % 3)
    tail |= _auction_bits(v.bidding, me)
    tail |= 1 << (_DECLARER + ((v.declarer - me) % 3 if v.declarer >= 0 else 3))
    game = v.game  # (by the member's id: an Enum's hash is Python code)
    tail |= 1 << (_GAME + _GAME_SLOT.get(id(game), _NO_GAME))
    con = v.contract
    if con is not None:
        tail |= (con.hand << _CONTRACT | con.schneider << (_CONTRACT + 1)
                 | con.schwarz << (_CONTRACT + 2) | con.ouvert << (_CONTRACT + 3))
    words[w + 11] = tail & 0xFFFFFFFF
    words[w + 12] = tail >> 32
    w0, w1, w2 = v.tricks_won
    l0, l1, l2 = list_scores
    scalars[o] = v.bid / 264.0
    scalars[o + 1] = pick3(me, t0, t1, t2) / 120.0
    scalars[o + 2] = pick3(r1, t0, t1, t2) / 120.0
    scalars[o + 3] = pick3(r2, t0, t1, t2) / 120.0
    scalars[o + 4] = pick3(me, w0, w1, w2) / 10.0
    scalars[o + 5] = pick3(r1, w0, w1, w2) / 10.0
    scalars[o + 6] = pick3(r2, w0, w1, w2) / 10.0
    scalars[o + 7] = played_games / games
    scalars[o + 8] = pick3(me, l0, l1, l2) / 120.0
    scalars[o + 9] = pick3(r1, l0, l1, l2) / 120.0
    scalars[o + 10] = pick3(r2, l0, l1, l2) / 120.0


def pick3(k: int, a: int, b: int, c: int) -> int:
    """``(a, b, c)[k]`` (compiled, without building the tuple)."""
    if k == 0:
        return a
    if k == 1:
        return b
    return c


# What :func:`encode_words` derives from a view's tricks and auction, kept by the tuple it
# came from (held, so that its id is not reused; :func:`stich.skat.view.make_view` gives
# the views of a game the same tuples until they change).
_SUMS: dict[int, tuple[object, tuple[int, int, int, int, int, int]]] = {}
_AUCTIONS: dict[int, tuple[object, tuple[int, int, int]]] = {}
_CACHE_SIZE: Final = 4096
_GAME_SLOT: Final[dict[int, int]] = {id(g): i for i, g in enumerate(_GAMES)}
_NO_GAME: Final = 7  # the slot of no game yet
assert len(_GAMES) == _NO_GAME


def _trick_sums(tricks: tuple[tuple[int, tuple[int, ...], int], ...]
                ) -> tuple[int, int, int, int, int, int]:
    """The cards each seat played in ``tricks`` and the card points each took."""
    known = _SUMS.get(id(tricks))
    if known is not None and known[0] is tricks:
        return known[1]
    pts = _POINTS
    t0 = t1 = t2 = 0
    p0 = p1 = p2 = 0
    for leader, cards, winner in tricks:
        got = pts[cards[0]] + pts[cards[1]] + pts[cards[2]]
        if winner == 0:
            t0 += got
        elif winner == 1:
            t1 += got
        else:
            t2 += got
        for k in range(3):
            s = (leader + k) % 3
            bit = 1 << cards[k]
            if s == 0:
                p0 |= bit
            elif s == 1:
                p1 |= bit
            else:
                p2 |= bit
    if len(_SUMS) >= _CACHE_SIZE:
        _SUMS.clear()
    sums = (p0, p1, p2, t0, t1, t2)
    _SUMS[id(tricks)] = (tricks, sums)
    return sums


def _auction_bits(bidding: tuple[tuple[int, str], ...], me: int) -> int:
    """The tail bits of the auction seen from ``me``: who passed, who said the highest
    value."""
    known = _AUCTIONS.get(id(bidding))
    if known is None or known[0] is not bidding:
        by_seat = [0, 0, 0]
        for viewer in range(3):
            bits = 0
            last = -1
            for s, text in bidding:
                if text == "pass":
                    bits |= 1 << (_PASSED + (s - viewer) % 3)
                elif text[0].isdigit():
                    last = s
            if last >= 0:
                bits |= 1 << (_LAST + (last - viewer) % 3)
            by_seat[viewer] = bits
        if len(_AUCTIONS) >= _CACHE_SIZE:
            _AUCTIONS.clear()
        known = (bidding, (by_seat[0], by_seat[1], by_seat[2]))
        _AUCTIONS[id(bidding)] = known
    b0, b1, b2 = known[1]
    return pick3(me, b0, b1, b2)
