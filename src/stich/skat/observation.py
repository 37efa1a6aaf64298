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
