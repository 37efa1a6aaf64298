"""The worlds of the Skat search bot: deals of the cards a seat cannot see that agree
with its view.

:func:`sample_world` deals the unseen cards to the other two hands (and to the Skat where
this seat has not seen it), keeping every hand's size, the cards played, the Skat when
known (the declarer after picking up: the cards put away), an Ouvert declarer's open hand,
and the voids shown by failing to follow (trump is one group: in suit games and Grand the
jacks are trumps; :data:`stich.skat.lookup.TABLES` says which card follows what).  The
deal is :class:`stich.worlds.Deal`'s, exact and rejection-free: every consistent world is
equally likely and no card ever lands with a seat that showed a void in its group.
:func:`count_worlds` counts them, and :func:`all_worlds` lists every one of them (for a
question that must hold whatever the hidden cards are: a claim of the rest).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from itertools import combinations

from stich.core import ArgumentError
from stich.messages import Seat as SeatName
from stich.skat.view import SkatView
from stich.worlds import Deal, NoDeal

__all__ = ["World", "all_worlds", "count_worlds", "sample_world"]

_ALL = (1 << 32) - 1

World = tuple[tuple[int, int, int], int]
"""Three hands (by seat) and the Skat, as card sets."""


def _hand_sizes(view: SkatView) -> list[int]:
    done = len(view.tricks)
    in_trick = {s for s, _ in view.trick}
    if view.phase == "PLAY":
        return [10 - done - (1 if s in in_trick else 0) for s in range(3)]
    sizes = [10, 10, 10]
    if view.phase == "DISCARD" and view.declarer >= 0:
        sizes[view.declarer] = 12  # the Skat picked up, two cards still to put away
    sizes[view.seat] = view.hand.bit_count()
    return sizes


def _world_slots(view: SkatView) -> tuple[list[int], int, list[int], list[int], list[int],
                                           int]:
    """Where the cards ``view``'s seat cannot see may go: the known hands (0 where
    unknown), the unseen cards, the open slots (seats, or 3 for the Skat), their sizes,
    the cards each may take, and the Skat when known (-1: unknown)."""
    me = view.seat
    sizes = _hand_sizes(view)
    hands = [0, 0, 0]
    hands[me] = view.hand
    schieberamsch = view.declarer < 0 and bool(view.skat_seen)
    if schieberamsch:  # the Skat seen and put back moved on: only the own cards are sure
        view = dataclasses.replace(view, skat_seen=0, discarded=0)
    known = view.hand | view.played | view.skat_seen | view.discarded
    ouvert_seat = view.declarer if view.ouvert_hand and view.declarer != me else -1
    if ouvert_seat >= 0:
        hands[ouvert_seat] = view.ouvert_hand
        known |= view.ouvert_hand
    # a Revolution: a defender sees his partner's cards too
    partner = 3 - me - view.declarer if view.partner_hand and view.declarer >= 0 else -1
    if partner >= 0:
        hands[partner] = view.partner_hand
        known |= view.partner_hand
    unseen = _ALL & ~known
    # Where is the Skat known?  Declarer after picking up: the cards put away (or, while
    # discarding, it is in the hand).
    skat_known = -1
    if view.discarded:
        skat_known = view.discarded
    elif view.phase == "DISCARD":
        skat_known = 0  # in the declarer's hand; the Skat is empty until the discard
    voids = view.voids()
    slots: list[int] = []  # seats (0..2) or 3 for the Skat
    caps: list[int] = []
    allowed: list[int] = []  # per slot: the cards it may take
    for s in range(3):
        if s in (me, ouvert_seat, partner):
            continue
        slots.append(s)
        caps.append(sizes[s])
        allowed.append(unseen & ~voids[s])
    if skat_known < 0:
        slots.append(3)
        caps.append(2)
        allowed.append(unseen)
    if sum(caps) != unseen.bit_count():
        raise ArgumentError("bots.inconsistent_view", seat=SeatName(me), phase=view.phase)
    return hands, unseen, slots, caps, allowed, skat_known


def sample_world(view: SkatView, rng: random.Random) -> World:
    """One deal of the cards ``view``'s seat cannot see, uniformly among those that agree
    with the view (hand sizes, cards played, known Skat, Ouvert hand, shown voids)."""
    hands, unseen, slots, caps, allowed, skat_known = _world_slots(view)
    try:
        fill = _deal(unseen, caps, allowed).draw_by_groups(rng)
    except NoDeal:
        raise _inconsistent() from None
    return _placed(hands, skat_known, slots, fill)


def _placed(hands: list[int], skat_known: int, slots: list[int], fills: list[int]) -> World:
    """The world with each open slot's cards in place (a seat's hand, or 3: the Skat)."""
    world = list(hands)
    skat = skat_known if skat_known > 0 else 0
    for slot, cards in zip(slots, fills, strict=True):
        if slot == 3:
            skat = cards
        else:
            world[slot] = cards
    return (world[0], world[1], world[2]), skat


def count_worlds(view: SkatView) -> int:
    """How many worlds agree with ``view`` (each equally likely to :func:`sample_world`)."""
    _, unseen, _slots, caps, allowed, _ = _world_slots(view)
    return _deal(unseen, caps, allowed).count()


def all_worlds(view: SkatView) -> Iterator[World]:
    """Every world that agrees with ``view``, each once, in a fixed order (as many as
    :func:`count_worlds` says): for a question that must hold in all of them, so that it
    holds in the real deal too.  Meant for the end of a game, where they are few."""
    hands, unseen, slots, caps, allowed, skat_known = _world_slots(view)
    last = len(slots) - 1  # never -1: some hand or the Skat is always unseen

    def fill(i: int, left: int) -> Iterator[list[int]]:
        if i == last:  # the last slot takes the rest (its size), if it may
            if not left & ~allowed[i]:
                yield [left]
            return
        pool = [c for c in range(32) if (left & allowed[i]) >> c & 1]
        for chosen in combinations(pool, caps[i]):
            cards = sum(1 << c for c in chosen)
            for rest in fill(i + 1, left & ~cards):
                yield [cards, *rest]

    for fills in fill(0, unseen):
        yield _placed(hands, skat_known, slots, fills)


def _deal(unseen: int, caps: list[int], allowed: list[int]) -> Deal:
    """The deals of the unseen cards into the open slots; a card no slot may take is
    refused."""
    try:
        return Deal(unseen, caps, allowed)
    except NoDeal:
        raise _inconsistent() from None


def _inconsistent() -> ArgumentError:
    return ArgumentError("bots.inconsistent_view", seat=SeatName(0), phase="PLAY")
