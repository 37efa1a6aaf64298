"""Writing a finished ``isko`` game as one record line of the International Skat Server
(the reader is :mod:`stich.skat.iss`; a written line parses and replays to the same
result)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime

from stich.cards import Card, cards_of
from stich.core import ArgumentError, IllegalActionError
from stich.skat.actions import HAND, HOLD, PASS, PICKUP, Declare, Discard
from stich.skat.iss import ISKO, IssResult, declaration_code, played_result
from stich.skat.state import SkatState

__all__ = ["export_iss", "game_id_of", "numbered_ids"]


def export_iss(
    state: SkatState,
    players: Sequence[str],
    *,
    game_id: str | None = None,
    series: str = "",
    date: str | None = None,
    place: str = "stich",
) -> str:
    """A finished ``isko`` game as one ISS record line (parses and replays to the same
    result).  ``game_id`` defaults to :func:`game_id_of` the game's moves, ``date`` to
    now, as ``YYYY-MM-DD/HH:MM:SS/UTC``."""
    if state.rules != ISKO:
        raise ArgumentError("skat.export.not_isko", rules=str(state.rules))
    if state.end_reason in ("claimed", "claim_wrong", "gave_up"):
        raise ArgumentError("skat.export.ended_early", reason=state.end_reason)
    if not state.is_over:
        raise IllegalActionError("game.not_over")
    if len(players) != 3:
        raise ArgumentError("skat.export.players", n=len(players))
    for p in players:
        if not p or any(ch in p for ch in "[] \t\n"):
            raise ArgumentError("skat.export.player_name", name=p)
    hands, skat = state.deal
    deal = ".".join(str(c) for mask in (*hands, skat) for c in cards_of(mask))
    moves = [f"w {deal}"]
    s = SkatState.new(state.rules, hands=hands, skat=skat)
    discard = ""
    for a in state.history:
        seat = s.to_move
        if a is PICKUP:
            moves.append(f"{seat} s")
            moves.append("w " + ".".join(str(c) for c in cards_of(s.skat)))
        elif a is HOLD:
            moves.append(f"{seat} y")
        elif a is PASS:
            moves.append(f"{seat} p")
        elif a is HAND:
            pass
        elif isinstance(a, Discard):
            discard = "".join("." + str(c) for c in cards_of(a.cards))
        elif isinstance(a, Declare):
            moves.append(f"{seat} {declaration_code(a)}{discard}")
        elif isinstance(a, Card):
            moves.append(f"{seat} {a}")
        else:
            moves.append(f"{seat} {a}")  # a bid: its value
        s = s.apply(a)
    passed = state.end_reason == "passed"
    result = IssResult(passed=True) if passed else played_result(state)
    if date is None:
        date = datetime.now(UTC).strftime("%Y-%m-%d/%H:%M:%S/UTC")
    if game_id is None:
        game_id = game_id_of(" ".join(moves))
    props = (f"GM[Skat]PC[{place}]CO[]SE[{series}]ID[{game_id}]DT[{date}]"
             f"P0[{players[0]}]P1[{players[1]}]P2[{players[2]}]R0[]R1[]R2[]")
    return f"(;{props}MV[{' '.join(moves)} ]R[{result.format()}] ;)"


def game_id_of(moves: str) -> str:
    """A game's own ``ID``, derived from its moves (the deal and every move of ``MV``):
    the same game always gets the same number, two different games practically never
    (48 bits of SHA-256)."""
    return str(int(hashlib.sha256(moves.encode("utf-8")).hexdigest()[:12], 16))


def numbered_ids(first: str, n: int) -> list[str | None]:
    """The ``ID`` of each of ``n`` games exported together: ``None`` (each game's own,
    :func:`game_id_of`) without ``first``; ``first`` for a single game; else counted on
    from ``first``: ``42, 43, 44`` for a number, ``abc-1, abc-2, abc-3`` for other text.

    >>> numbered_ids("42", 3), numbered_ids("abc", 2), numbered_ids("", 2)
    (['42', '43', '44'], ['abc-1', 'abc-2'], [None, None])
    """
    if not first:
        return [None] * n
    if n == 1:
        return [first]
    if first.isdigit():
        return [str(int(first) + k) for k in range(n)]
    return [f"{first}-{k + 1}" for k in range(n)]
