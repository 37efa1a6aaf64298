"""The hidden cards dealt anew (``stich.worlds``): counted and drawn against brute force.

- the count is the number of deals found by trying every slot for every card;
- both draws give every such deal exactly the same chance: computed exactly by walking
  every path of random numbers (each ``randrange`` value, each order of a shuffle) with
  its probability, on small deals;
- with Python's own random numbers, the deals come out as often as uniform says
  (chi-square, fixed seeds), and no draw ever breaks a void or a capacity, on deals up to
  a whole Skat deck;
- a deal no way fits is refused.
"""

from __future__ import annotations

import collections
import itertools
import math
import random
from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import assume, event, example, given, settings
from hypothesis import strategies as st

from stich.worlds import Deal, NoDeal

Problem = tuple[int, list[int], list[int]]  # cards, caps, allowed
DRAWS: dict[str, Callable[[Deal, random.Random], list[int]]] = {
    "draw": Deal.draw,
    "draw_by_groups": Deal.draw_by_groups,
}


@st.composite
def problems(draw: st.DrawFn, most_cards: int = 6, most_slots: int = 4,
             void: float = 0.3, least_cards: int = 0, least_slots: int = 1,
             fits: bool = False) -> Problem:
    """Cards of a 32-card deck, slots with capacities that add up to them, and per slot
    the cards it may take (each card refused by a slot with chance ``void``: voids
    shown; ``fits``: never by the slot of one deal that fits, so some deal does)."""
    n = draw(st.integers(least_slots, most_slots))
    k = draw(st.integers(least_cards, most_cards))
    cards = draw(st.lists(st.integers(0, 31), unique=True, min_size=k, max_size=k))
    places = draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k))
    caps = [places.count(i) for i in range(n)]
    allowed = []
    for i in range(n):
        luck = draw(st.lists(st.floats(0, 1), min_size=k, max_size=k))
        allowed.append(sum(1 << c for c, x, p in zip(cards, luck, places, strict=True)
                           if x >= void or (fits and p == i)))
    return sum(1 << c for c in cards), caps, allowed


def brute_force(cards: int, caps: list[int], allowed: list[int]) -> set[tuple[int, ...]]:
    """Every deal: each card to each slot that may take it, the capacities met."""
    each = [c for c in range(32) if cards >> c & 1]
    options = [[i for i in range(len(caps)) if allowed[i] >> c & 1] for c in each]
    out = set()
    for places in itertools.product(*options):
        if all(places.count(i) == cap for i, cap in enumerate(caps)):
            hands = [0] * len(caps)
            for c, i in zip(each, places, strict=True):
                hands[i] |= 1 << c
            out.add(tuple(hands))
    return out


def _deal(cards: int, caps: list[int], allowed: list[int]) -> Deal | None:
    try:
        return Deal(cards, caps, allowed)
    except NoDeal:
        return None


@settings(max_examples=300, deadline=None, derandomize=True)
@given(problems(most_cards=7))
def test_the_count_is_the_number_of_deals(problem: Problem) -> None:
    cards, caps, allowed = problem
    deals = brute_force(cards, caps, allowed)
    deal = _deal(cards, caps, allowed)
    placeable = all(any(a >> c & 1 for a in allowed) for c in range(32) if cards >> c & 1)
    assert (deal is not None) == placeable  # refused at once: a card no slot may take
    if deal is not None:
        assert deal.count() == len(deals)
        if not deals:
            for method in DRAWS.values():
                with pytest.raises(NoDeal):
                    method(deal, random.Random(0))


class _Paths:
    """A random source that follows one path of choices: ``randrange(n)`` and ``shuffle``
    (one of the ``len(x)!`` orders) take the path's next value (0 past its end, which
    extends it), and note how many values each choice had."""

    def __init__(self, path: list[int]) -> None:
        self.path = path
        self.branches: list[int] = []

    def _next(self, n: int) -> int:
        i = len(self.branches)
        if i == len(self.path):
            self.path.append(0)
        self.branches.append(n)
        return self.path[i]

    def randrange(self, n: int) -> int:
        return self._next(n)

    def shuffle(self, x: list[int]) -> None:
        k = self._next(math.factorial(len(x)))
        x[:] = next(itertools.islice(itertools.permutations(x), k, None))


def exact_chances(deal: Deal, method: Callable[[Deal, random.Random], list[int]]
                  ) -> dict[tuple[int, ...], Fraction]:
    """The chance of each deal ``method`` draws, summed over every path of choices."""
    out: dict[tuple[int, ...], Fraction] = collections.defaultdict(Fraction)
    todo: list[list[int]] = [[]]
    while todo:
        path = todo.pop()
        start = len(path)
        rng = _Paths(path)
        hands = method(deal, rng)  # type: ignore[arg-type]
        out[tuple(hands)] += Fraction(1, math.prod(rng.branches))
        for i in range(start, len(rng.path)):
            todo.extend(rng.path[:i] + [alt] for alt in range(1, rng.branches[i]))
    return out


@pytest.mark.parametrize("name", sorted(DRAWS))
@settings(max_examples=120, deadline=None, derandomize=True)
@given(problem=problems(most_cards=5, most_slots=3, least_cards=2, least_slots=2, fits=True))
# a void in each; a group over three of four slots before the last group
@example(problem=(0b11111, [2, 2, 1], [0b11111, 0b01111, 0b11011]))
@example(problem=(0b11111, [1, 1, 1, 2], [0b11111, 0b11111, 0b11000, 0b11111]))
def test_every_deal_has_exactly_the_same_chance(name: str, problem: Problem) -> None:
    cards, caps, allowed = problem
    deal = _deal(cards, caps, allowed)
    deals = brute_force(cards, caps, allowed)
    assume(deal is not None and len(deals) >= 2)
    assert deal is not None
    event(f"deals: {min(len(deals), 20) // 5 * 5}+")
    chances = exact_chances(deal, DRAWS[name])
    assert set(chances) == deals  # only deals that fit, and each of them
    assert set(chances.values()) == {Fraction(1, len(deals))}


def test_the_exact_walk_sees_a_biased_draw() -> None:
    """The walk above can fail: dealing card by card, each to a slot with room (weighted
    by its room) among those that leave the rest placeable, as the OpenSpiel games did,
    is not uniform where a void crowds a slot."""
    allowed = [0b111, 0b011]  # card 2 only in slot 0

    def by_room(deal: Deal, rng: random.Random) -> list[int]:
        caps = list(deal.caps)
        hands = [0, 0]
        for c in range(3):
            rest = sum(1 << x for x in range(c + 1, 3))
            fits = []
            for i in range(2):
                if allowed[i] >> c & 1 and caps[i]:
                    caps[i] -= 1
                    if brute_force(rest, caps, allowed):
                        fits.extend([i] * (caps[i] + 1))
                    caps[i] += 1
            i = fits[rng.randrange(len(fits))]
            caps[i] -= 1
            hands[i] |= 1 << c
        return hands

    deal = Deal(0b111, [2, 1], allowed)
    chances = exact_chances(deal, by_room)
    assert set(chances) == brute_force(0b111, [2, 1], allowed)
    assert sorted(chances.values()) == [Fraction(1, 3), Fraction(2, 3)]
    assert set(exact_chances(deal, Deal.draw).values()) == {Fraction(1, 2)}


def _chi_square_bound(df: int) -> float:
    """The chi-square value exceeded with chance about 1e-6 (Wilson–Hilferty)."""
    z = 4.75
    return float(df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3)


@pytest.mark.parametrize("name", sorted(DRAWS))
@settings(max_examples=25, deadline=None, derandomize=True)
@given(problem=problems(most_cards=7, most_slots=4, least_cards=3, least_slots=2, fits=True),
       seed=st.integers(0, 2**32))
def test_python_random_numbers_deal_uniformly(name: str, problem: Problem, seed: int
                                              ) -> None:
    cards, caps, allowed = problem
    deal = _deal(cards, caps, allowed)
    deals = brute_force(cards, caps, allowed)
    assume(deal is not None and 2 <= len(deals) <= 200)
    assert deal is not None
    event(f"deals: {len(deals) // 20 * 20}+")
    rng = random.Random(seed)
    per = 30
    seen = collections.Counter(tuple(DRAWS[name](deal, rng)) for _ in range(per * len(deals)))
    assert set(seen) <= deals
    chi = sum((seen[d] - per) ** 2 / per for d in deals)
    assert chi < _chi_square_bound(len(deals) - 1), (chi, len(deals))


@pytest.mark.parametrize("name", sorted(DRAWS))
@settings(max_examples=150, deadline=None, derandomize=True)
@given(problem=problems(most_cards=32, most_slots=6, void=0.2, least_cards=4, fits=True),
       seed=st.integers(0, 2**32))
def test_no_draw_breaks_a_void_or_a_capacity(name: str, problem: Problem, seed: int) -> None:
    cards, caps, allowed = problem
    deal = _deal(cards, caps, allowed)
    assert deal is not None and deal.count() > 0
    event(f"deals: 10^{len(str(deal.count())) - 1}")
    hands = DRAWS[name](deal, random.Random(seed))
    assert [h.bit_count() for h in hands] == caps
    assert all(h & ~a == 0 for h, a in zip(hands, allowed, strict=True))
    total = 0
    for h in hands:
        assert total & h == 0
        total |= h
    assert total == cards


def test_a_card_that_needs_a_slot_pushes_the_others_on() -> None:
    """Slot 0 takes cards 1 and 2, slot 1 only card 1: card 2 needs slot 0, so card 1
    goes to slot 1, whatever the random numbers."""
    deal = Deal(0b110, [1, 1], [0b110, 0b010])
    assert deal.count() == 1
    for seed in range(20):
        for method in DRAWS.values():
            assert method(deal, random.Random(seed)) == [0b100, 0b010]
    assert Deal(0b110, [1, 1], [0b110, 0]).count() == 0  # both need slot 0


def test_a_deal_that_cannot_fit_is_refused() -> None:
    with pytest.raises(NoDeal):
        Deal(0b11, [1, 1], [0b01, 0b01])  # card 1 may go nowhere
    with pytest.raises(NoDeal):
        Deal(0b11, [1, 2], [0b11, 0b11])  # three places for two cards
    with pytest.raises(ValueError):
        Deal(0b11, [1, 1], [0b11])  # a slot without its cards


def test_many_hands_under_many_voids_count_quickly() -> None:
    """Fourteen hands of seven and the rest of a deck of four suits of 26 cards, each
    hand void in one suit: counted and drawn (slots alike counted as one)."""
    suits = [sum(1 << (26 * s + r) for r in range(26)) for s in range(4)]
    cards = (1 << 104) - 1
    caps = [7] * 14 + [104 - 98]
    allowed = [cards & ~suits[i % 4] for i in range(14)] + [cards]
    deal = Deal(cards, caps, allowed)
    assert deal.count() > 10**80
    for seed in range(3):
        hands = deal.draw(random.Random(seed))
        assert [h.bit_count() for h in hands] == caps
        assert all(h & ~a == 0 for h, a in zip(hands, allowed, strict=True))
