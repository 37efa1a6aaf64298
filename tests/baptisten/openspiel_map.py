"""Mapping between OpenSpiel's ``oh_hell`` and the ``ohhell`` Baptistenskat preset.

Found by experiment with ``open-spiel`` 2.0 (``pyspiel.load_game("oh_hell")``):

- Chance nodes, in order: the number of tricks (uniform over 1 … (52 - 1) // players;
  with ``num_tricks_fixed`` = k a node with the single outcome k), the dealer (uniform
  over 0 … players - 1), then the dealt cards one at a time, the i-th dealt card
  (0-based) going to player ``i % players`` whatever the dealer, then the turned trump
  card (the next card of the deck; one card is always left over).
- Card action ids: ``rank * 4 + suit`` with ranks 2 … A = 0 … 12 and suits
  C, D, S, H = 0 … 3.  Our ``romme`` index is ``suit * 13 + rank`` with suits
  C, S, H, D = 0 … 3.  Bids are actions ``52 + tricks``.
- The player after the dealer bids first and leads the first trick; the dealer bids last
  and is refused the bid that makes the bids add up to the number of tricks.
- ``returns()``: 1 point per trick taken plus 10 for an exact bid (also for 0).

Seats: player ``p`` of OpenSpiel sits at our seat ``(p - shift) % players`` for any
``shift`` (0 keeps the numbering); our ``first`` is the seat of the player after the
dealer.  This module does not import ``pyspiel``; it works on the action ids.

>>> os_to_romme(0), os_to_romme(1), os_to_romme(51)  # C2, D2, HA
(0, 39, 38)
>>> all(romme_to_os(os_to_romme(a)) == a for a in range(52))
True
"""

from __future__ import annotations

from collections.abc import Sequence

from stich.baptisten import BBid
from stich.cards import PlainCard

__all__ = [
    "BID_BASE", "OsDeal", "hands_from_text", "os_action", "os_to_romme", "read_deal",
    "romme_to_os",
]

BID_BASE = 52
"""OpenSpiel's bid actions are ``BID_BASE + tricks``."""

# OpenSpiel suit order C, D, S, H -> romme suit order C, S, H, D
_OS_SUIT_TO_ROMME = (0, 3, 1, 2)
_ROMME_SUIT_TO_OS = (0, 2, 3, 1)


def os_to_romme(card: int) -> int:
    """Our ``romme`` card index for an OpenSpiel card action id (0 … 51)."""
    rank, suit = divmod(card, 4)
    return _OS_SUIT_TO_ROMME[suit] * 13 + rank


def romme_to_os(index: int) -> int:
    """OpenSpiel's card action id for our ``romme`` card index (0 … 51)."""
    suit, rank = divmod(index, 13)
    return rank * 4 + _ROMME_SUIT_TO_OS[suit]


def os_action(action: object) -> int:
    """OpenSpiel's action id for one of our actions: a bid without stake or a card."""
    if isinstance(action, PlainCard):
        return romme_to_os(action.index)
    if isinstance(action, BBid) and action.stake is None:
        return BID_BASE + action.tricks
    raise ValueError(f"no OpenSpiel oh_hell action for {action!r}")


class OsDeal:
    """One OpenSpiel round read from its chance actions, in our terms."""

    __slots__ = ("players", "tricks", "dealer", "hands", "trump_card", "shift")

    def __init__(self, players: int, tricks: int, dealer: int, hands: tuple[int, ...],
                 trump_card: int, shift: int) -> None:
        self.players = players
        self.tricks = tricks
        self.dealer = dealer
        self.hands = hands  # by our seat, as romme card sets
        self.trump_card = trump_card  # romme index
        self.shift = shift

    def seat(self, player: int) -> int:
        """Our seat of OpenSpiel player ``player``."""
        return (player - self.shift) % self.players

    def player(self, seat: int) -> int:
        """OpenSpiel player at our seat ``seat``."""
        return (seat + self.shift) % self.players

    @property
    def first(self) -> int:
        """Our seat that bids first and leads: the player after the dealer."""
        return self.seat((self.dealer + 1) % self.players)


def read_deal(players: int, chance: Sequence[int], shift: int = 0) -> OsDeal:
    """The deal from OpenSpiel's chance actions in order: the number of tricks k, the
    dealer, the ``k * players`` dealt cards and the trump card."""
    it = iter(chance)
    k = next(it)
    dealer = next(it)
    hands = [0] * players
    for i in range(k * players):
        seat = (i % players - shift) % players
        hands[seat] |= 1 << os_to_romme(next(it))
    trump = os_to_romme(next(it))
    rest = list(it)
    if rest:
        raise ValueError(f"unexpected chance actions after the trump card: {rest}")
    return OsDeal(players, k, dealer, tuple(hands), trump, shift)


_RANKS = "23456789TJQKA"
_SUITS = "CSHD"  # romme order


def hands_from_text(text: str) -> tuple[int, ...]:
    """The hands by OpenSpiel player from ``str(state)`` (``Player: p`` then one line per
    suit such as ``    C: KQJ8``), as romme card sets: an independent check of
    :func:`read_deal`.

    >>> hands_from_text("Player: 0\\n    C: A2\\n    D: \\nPlayer: 1\\n    H: T\\n")
    (4097, 17179869184)
    """
    hands: list[int] = []
    for line in text.splitlines():
        word = line.strip()
        if word.startswith("Player:"):
            hands.append(0)
        elif hands and len(word) >= 2 and word[0] in _SUITS and word[1] == ":":
            suit = _SUITS.index(word[0])
            for ch in word[2:].strip():
                hands[-1] |= 1 << (suit * 13 + _RANKS.index(ch))
        elif word.startswith("Trump:"):
            break
    return tuple(hands)
