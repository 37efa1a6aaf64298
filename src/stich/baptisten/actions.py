"""Baptistenskat actions: a bid with its stake, a card, and ``play`` in a forehead round.

>>> str(bid_action(2, 5)), str(bid_action(0, None)), str(parse_bid("3/40"))
('bid 2 stake 5', 'bid 0', 'bid 3 stake 40')
>>> parse_bid("bid 2 stake 5") is bid_action(2, 5)
True
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final

from stich.cards import PlainCard
from stich.core import IllegalActionError

__all__ = ["BBid", "FOREHEAD_PLAY", "ForeheadPlay", "bid_action", "parse_bid"]


class BBid:
    """A bid: a number of tricks, and the stake (None under trick scoring)."""

    __slots__ = ("tricks", "stake")

    tricks: int
    stake: int | None

    def __init__(self, tricks: int, stake: int | None) -> None:
        self.tricks = tricks
        self.stake = stake

    def __str__(self) -> str:
        if self.stake is None:
            return f"bid {self.tricks}"
        return f"bid {self.tricks} stake {self.stake}"

    def __repr__(self) -> str:
        return f"BBid({self.tricks}, {self.stake})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, BBid) and other.tricks == self.tricks
                and other.stake == self.stake)

    def __hash__(self) -> int:
        return hash((self.tricks, self.stake))


@cache
def bid_action(tricks: int, stake: int | None) -> BBid:
    """The shared bid object (legal-action lists reuse them)."""
    return BBid(tricks, stake)


class ForeheadPlay:
    """Playing one's only card in a forehead round without having seen it."""

    __slots__ = ()

    def __str__(self) -> str:
        return "play"

    def __repr__(self) -> str:
        return "FOREHEAD_PLAY"


FOREHEAD_PLAY: Final = ForeheadPlay()

BAction = BBid | PlainCard | ForeheadPlay

_BID_RE = re.compile(r"(?:bid\s+)?(\d+)(?:\s*(?:stake|/|:|\s)\s*(\d+))?")


def parse_bid(text: str) -> BBid:
    """``bid 2 stake 5``, ``2/5``, ``2 5``, ``bid 2`` or ``2``."""
    m = _BID_RE.fullmatch(text.strip().lower())
    if not m:
        raise IllegalActionError("baptisten.unreadable_bid", text=text.strip())
    stake = int(m.group(2)) if m.group(2) is not None else None
    return bid_action(int(m.group(1)), stake)
