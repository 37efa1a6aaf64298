"""Hidden cards dealt anew: every deal that agrees with what a seat knows, equally likely.

A seat that cannot see some cards knows where they may be: *slots* (the other hands, the
Skat, the rest of the deck), each to be filled with exactly its number of cards, and for
each slot the cards it may take (a hand that showed a void in a suit takes none of it).
:class:`Deal` counts the ways to deal the cards so (:meth:`Deal.count`) and draws one
of them, every way equally likely (:meth:`Deal.draw`).  The search bots of both games
sample their worlds with it (:mod:`stich.bots.strong.sampler`,
:mod:`stich.bots.baptisten_strong`), and so do the OpenSpiel games when they deal the
unseen cards again (:func:`stich.env.openspiel.sample_slots`).

How: the cards are grouped by the slots they may go to, and the deals are counted
exactly (whole numbers): slots that the same groups may fill are alike and are counted as
one, times the ways to share their cards out; each count is remembered, so even fourteen
hands of a double deck under many voids count quickly.  :meth:`Deal.draw` deals the alike
slots as one: the group with the fewest places first, its *split* (how many of its cards
go to each place) drawn with one random number, with a chance proportional to the deals
that split leaves; then the rest the same way, and at the end the cards each place got
are shuffled and shared out among its slots.  :meth:`Deal.draw_by_groups` is the order
the Skat search bot always drew its worlds in (group by group, each group's split over
the single slots), kept so that its worlds stay the same.

>>> deal = Deal(0b1111, caps=[2, 2], allowed=[0b0111, 0b1111])  # card 3 not in slot 0
>>> deal.count()
3
>>> import random
>>> a, b = deal.draw(random.Random(1))
>>> a.bit_count(), b.bit_count(), a & 0b1000, a | b
(2, 2, 0, 15)

Standard library only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from math import comb, factorial

from stich.cards import bits

__all__ = ["Deal", "NoDeal"]


class NoDeal(ValueError):
    """No deal fits: a card no slot may take, or too few places for the cards that some
    slots refuse."""


class Deal:
    """The ways to deal the cards of ``cards`` (a set: bit ``c`` for card ``c``) into
    slots, slot ``i`` taking exactly ``caps[i]`` cards, each of them in ``allowed[i]``.

    Raises :class:`NoDeal` when a card may go to no slot or the capacities do not add up
    to the cards; :meth:`count` is 0 and :meth:`draw` raises when the voids leave no
    way."""

    def __init__(self, cards: int, caps: Sequence[int], allowed: Sequence[int]) -> None:
        if len(caps) != len(allowed):
            raise ValueError("one capacity and one set of allowed cards per slot")
        self.n = len(caps)
        by_slots = {0: cards} if cards else {}  # the slots cards may go to -> those cards
        for i, may in enumerate(allowed):
            split: dict[int, int] = {}
            for key, mask in by_slots.items():
                if mask & may:
                    split[key | 1 << i] = mask & may
                if mask & ~may:
                    split[key] = mask & ~may
            by_slots = split
        if 0 in by_slots:
            raise NoDeal(f"cards {by_slots[0]:#x} may go to no slot")
        groups = {key: list(bits(mask)) for key, mask in by_slots.items()}
        if sum(caps) != cards.bit_count() or min(caps, default=0) < 0:
            raise NoDeal(f"{cards.bit_count()} cards for {sum(caps)} places")
        self.groups = groups
        self.keys = sorted(groups)
        self.caps = tuple(caps)
        self._count: int | None = None

    def count(self) -> int:
        """How many deals fit."""
        if self._count is None:
            self._count = _count(tuple((key, len(self.groups[key])) for key in self.keys),
                                 self.caps)
        return self._count

    def draw(self, rng: random.Random) -> list[int]:
        """One deal (the cards of each slot), every deal that fits equally likely.

        Slots alike are dealt as one, the first group (the fewest slots) split over them
        with one random number as in :meth:`draw_by_groups`, the rest dealt the same way,
        and the cards each such slot got shuffled and shared out among its slots."""
        if self.count() == 0:
            raise NoDeal("no deal fits the slots")
        parts = [(key, self.groups[key][:]) for key in self.keys]
        out = [0] * self.n
        for slot, cards in enumerate(_deal_out(parts, list(self.caps), rng)):
            for c in cards:
                out[slot] |= 1 << c
        return out

    def draw_by_groups(self, rng: random.Random) -> list[int]:
        """One deal, every deal that fits equally likely, drawn group by group (by their
        slots as a number, smallest first): a group's split with one random number, the
        splits in order (the first slot's number of cards slowest) each taking as many
        numbers as the deals it leaves, then the group's cards shuffled and handed out in
        slot order.  The order the Skat search bot's worlds were always drawn in, kept so
        that its worlds stay the same for the same random numbers; slower than
        :meth:`draw` with many slots (each slot's share is counted on its own)."""
        if self.count() == 0:
            raise NoDeal("no deal fits the slots")
        n = self.n
        caps = list(self.caps)
        out = [0] * n
        parts = [(key, len(self.groups[key])) for key in self.keys]
        for g, key in enumerate(self.keys):
            later = tuple(parts[g + 1:])
            cards = self.groups[key][:]
            split = _split(key, len(cards), later, caps, rng)
            rng.shuffle(cards)
            i = 0
            for slot, v in enumerate(split):
                for c in cards[i:i + v]:
                    out[slot] |= 1 << c
                i += v
                caps[slot] -= v
        return out


def _split(key: int, size: int, later: tuple[tuple[int, int], ...], caps: list[int],
           rng: random.Random) -> list[int]:
    """:meth:`Deal.draw_by_groups`: how many of a group's ``size`` cards (allowed in the
    slots of ``key``) go to each slot, with a chance proportional to the deals it leaves
    for the ``later`` groups.

    One random number below the number of deals: the splits in order (the first allowed
    slot's number of cards slowest, from 0 up), each taking as many numbers as its deals.
    The walk finds the split of the number slot by slot: the splits with ``v`` cards in a
    slot take ``comb(left, v)`` times the deals of the rest, each of the rest's deals
    ``comb(left, v)`` numbers in a row."""
    r = rng.randrange(_count(((key, size), *later), tuple(caps)))
    split = [0] * len(caps)
    slots = [i for i in range(len(caps)) if key >> i & 1]
    left = size
    rest = key
    for p, j in enumerate(slots):
        rest &= ~(1 << j)
        v = left
        if p < len(slots) - 1:
            for v in range(min(left, caps[j]) + 1):
                caps[j] -= v
                ways = comb(left, v)
                block = ways * _count(((rest, left - v), *later), tuple(caps))
                caps[j] += v
                if r < block:
                    r //= ways
                    break
                r -= block
        split[j] = v
        caps[j] -= v
        left -= v
    for j in slots:  # the caller takes the cards out of the capacities
        caps[j] += split[j]
    return split


def _deal_out(parts: list[tuple[int, list[int]]], caps: list[int], rng: random.Random
              ) -> list[list[int]]:
    """:meth:`Deal.draw`: the cards of each slot, for ``parts`` (each the slots its cards
    may go to, and the cards) and the slots' capacities.  Slots alike (the same parts may
    fill them) are dealt as one (:func:`_deal_alike`), then each one's cards are
    shuffled and shared out among its slots; so every deal has the chance its count by
    :func:`_count` gives it."""
    out: list[list[int]] = [[] for _ in caps]
    parts = [p for p in parts if p[1]]
    if not parts:
        return out
    alike: dict[int, list[int]] = {}
    for j, cap in enumerate(caps):
        if cap:
            fills = 0
            for i, (key, _) in enumerate(parts):
                if key >> j & 1:
                    fills |= 1 << i
            alike.setdefault(fills, []).append(j)
    order = sorted(alike)
    merged: dict[int, list[int]] = {}
    for i, (_, cards) in enumerate(parts):
        key = 0
        for k, fills in enumerate(order):
            if fills >> i & 1:
                key |= 1 << k
        merged.setdefault(key, []).extend(cards)
    dealt = _deal_alike(sorted(merged.items(), key=lambda p: _branching((p[0], len(p[1])))),
                        [sum(caps[j] for j in alike[f]) for f in order], rng)
    for k, fills in enumerate(order):
        cards, members = dealt[k], alike[fills]
        if len(members) > 1:
            rng.shuffle(cards)
        i = 0
        for j in members:
            out[j] = cards[i:i + caps[j]]
            i += caps[j]
    return out


def _deal_alike(parts: list[tuple[int, list[int]]], caps: list[int], rng: random.Random
                ) -> list[list[int]]:
    """The cards of each slot where no two are alike, as :func:`_count_merged` counts:
    the first part's split with one random number (the splits in its order, each taking
    as many numbers as its deals), its cards shuffled and handed out by the split, the
    rest dealt by :func:`_deal_out`."""
    (key, cards), later = parts[0], parts[1:]
    if not later:  # one slot, all alike
        return [cards]
    sizes = tuple((k, len(c)) for k, c in later)
    r = rng.randrange(_count_merged(((key, len(cards)), *sizes), tuple(caps)))
    slots = [k for k in range(len(caps)) if key >> k & 1]
    rest = list(caps)
    split = [0] * len(caps)

    def find(p: int, left: int, ways: int) -> bool:
        nonlocal r
        j = slots[p]
        if p == len(slots) - 1:
            if left > rest[j]:
                return False
            rest[j] -= left
            w = ways * _count(sizes, tuple(rest))
            if r < w:
                split[j] = left
                return True
            r -= w
            rest[j] += left
            return False
        for v in range(min(left, rest[j]) + 1):
            rest[j] -= v
            if find(p + 1, left - v, ways * comb(left, v)):
                split[j] = v
                return True
            rest[j] += v
        return False

    find(0, len(cards), 1)
    rng.shuffle(cards)
    mine: list[list[int]] = []
    i = 0
    for v in split:
        mine.append(cards[i:i + v])
        i += v
    theirs = _deal_out(list(later), rest, rng)
    return [a + b for a, b in zip(mine, theirs, strict=True)]


def _multinomial(total: int, parts: Sequence[int]) -> int:
    out = factorial(total)
    for v in parts:
        out //= factorial(v)
    return out


def _count(parts: tuple[tuple[int, int], ...], caps: tuple[int, ...]) -> int:
    """The deals of ``parts`` (each the set of slots its cards may go to and how many
    cards) into slots of capacities ``caps``, each slot filled exactly.

    Slots that the same parts may fill are alike: they are counted as one slot of their
    total capacity, times the ways to share those cards out among them."""
    parts = tuple(p for p in parts if p[1])
    if sum(size for _, size in parts) != sum(caps):
        return 0
    if not parts:
        return 1
    alike: dict[int, list[int]] = {}  # which parts may fill a slot -> its capacities
    for j, cap in enumerate(caps):
        if cap:
            fills = 0
            for i, (key, _) in enumerate(parts):
                if key >> j & 1:
                    fills |= 1 << i
            if not fills:
                return 0
            alike.setdefault(fills, []).append(cap)
    ways = 1
    for members in alike.values():
        if len(members) > 1:
            ways *= _multinomial(sum(members), members)
    order = sorted(alike)
    merged: dict[int, int] = {}  # a part's slots among the merged ones -> its cards
    for i, (_, size) in enumerate(parts):
        key = 0
        for k, fills in enumerate(order):
            if fills >> i & 1:
                key |= 1 << k
        if not key:
            return 0
        merged[key] = merged.get(key, 0) + size
    return ways * _count_merged(tuple(sorted(merged.items(), key=_branching)),
                                tuple(sum(alike[f]) for f in order))


def _branching(part: tuple[int, int]) -> tuple[int, int, int]:
    """Parts with the fewest slots first: fewest splits to try."""
    return (part[0].bit_count(), part[0], part[1])


@lru_cache(maxsize=1 << 16)
def _count_merged(parts: tuple[tuple[int, int], ...], caps: tuple[int, ...]) -> int:
    """:func:`_count` where no two slots are alike: the first part dealt every way it
    fits, the rest counted for each."""
    (key, size), later = parts[0], parts[1:]
    if not later:  # it may go everywhere (no slot is without a part): share it out
        return _multinomial(size, caps)
    slots = [k for k in range(len(caps)) if key >> k & 1]
    rest = list(caps)
    total = 0

    def deal(p: int, left: int, ways: int) -> None:
        nonlocal total
        j = slots[p]
        if p == len(slots) - 1:
            if left <= rest[j]:
                rest[j] -= left
                total += ways * _count(later, tuple(rest))
                rest[j] += left
            return
        for v in range(min(left, rest[j]) + 1):
            rest[j] -= v
            deal(p + 1, left - v, ways * comb(left, v))
            rest[j] += v

    deal(0, size, 1)
    return total
