"""Baptistenskat bots: a random one and a rule-based one that aims at its bid exactly.

Both receive a :class:`~stich.baptisten.view.BaptistenView` (never the state) and a
random source, and return one of ``view.legal_actions`` — the same ``choose(view, rng)``
protocol as the Skat bots.

The rule-based bot (:class:`BaptistenHeuristicBot`):

- *Estimating tricks*: each card gets a chance to take a trick from the cards still
  unseen (hypergeometric: how likely the other hands hold a card that beats it, and how
  likely they are void in its suit and can trump it).  In rounds with one card the chance
  is exact (forehead round: over every card one may hold, the others' cards being known)
  or sampled.  The chances add up to a distribution of the number of tricks.
- *Bidding*: the legal bid (hook rule) that is most likely exact; under trick scoring the
  one with the best expected bonus.
- *Stakes*: by the chance of being exact (1 when it is a coin toss or worse, 20 when
  confident); the mandatory 40s go into the rounds where it is most confident (a
  threshold that falls as the rounds left run out), and the forced ones are taken.
- *Card play*: wins a trick while it still needs tricks (the cheapest card that surely
  wins, else its best), ducks once it has enough (the highest card that does not win,
  shedding danger), and leads its strongest or weakest card accordingly.

>>> import random
>>> from stich.baptisten import BaptistenRules, BaptistenState
>>> s = BaptistenState.new(BaptistenRules(players=3, max_cards=4), seed=2)
>>> bot, rng = BaptistenHeuristicBot(), random.Random(1)
>>> while not s.is_over:
...     s = s.apply(bot.choose(s.view(s.to_move), rng))
>>> len(s.sheet)
7
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from math import comb
from typing import Protocol, runtime_checkable

from stich.baptisten.actions import FOREHEAD_PLAY, BAction, BBid, ForeheadPlay
from stich.baptisten.rules import BaptistenRules
from stich.baptisten.view import BaptistenView
from stich.cards import PlainCard, PlainDeck, bits
from stich.core import ArgumentError
from stich.messages import Seat

__all__ = [
    "BAPTISTEN_BOTS",
    "BaptistenBot",
    "BaptistenHeuristicBot",
    "BaptistenRandomBot",
    "estimate_tricks",
    "make_baptisten_bot",
    "trick_distribution",
]


@runtime_checkable
class BaptistenBot(Protocol):
    """Something that chooses an action for the Baptistenskat seat a view belongs to."""

    name: str

    def choose(self, view: BaptistenView, rng: random.Random) -> BAction:
        """One of ``view.legal_actions`` (the view must be the seat to move)."""
        ...


class BaptistenRandomBot:
    """Chooses uniformly among the legal actions (bids with every stake, cards)."""

    name = "random"

    def choose(self, view: BaptistenView, rng: random.Random) -> BAction:
        if not view.legal_actions:
            raise _nothing_to_do(view)
        return rng.choice(view.legal_actions)


@lru_cache(maxsize=64)
def _rules(text: str) -> BaptistenRules:
    return BaptistenRules.parse(text)


# --- probabilities -----------------------------------------------------------------------


def p_none(unseen: int, held: int, bad: float) -> float:
    """Chance that ``held`` cards drawn from ``unseen`` contain none of ``bad`` of them."""
    b = round(bad)
    if b <= 0 or held <= 0:
        return 1.0
    if unseen - b < held:
        return 0.0
    return comb(unseen - b, held) / comb(unseen, held)


def p_at_most(unseen: int, held: int, good: int, j: int) -> float:
    """Chance that ``held`` cards from ``unseen`` contain at most ``j`` of ``good``."""
    if held <= 0:
        return 1.0
    total = comb(unseen, held)
    if total == 0:
        return 1.0
    s = 0
    for i in range(0, min(j, good, held) + 1):
        s += comb(good, i) * comb(unseen - good, held - i)
    return s / total


def trick_distribution(chances: Sequence[float]) -> list[float]:
    """The distribution of the number of tricks when each card wins independently.

    >>> [round(p, 2) for p in trick_distribution([0.5, 1.0])]
    [0.0, 0.5, 0.5]
    """
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist


def beats(deck: PlainDeck, card: int, best: int, trump: int) -> bool:
    """Whether ``card`` played later takes the trick from ``best`` (the joker beats all;
    of two identical cards the later one wins)."""
    c, b = deck.cards[card], deck.cards[best]
    if b.suit < 0:
        return False
    if c.suit < 0:
        return True
    if c.suit == b.suit:
        return c.rank >= b.rank
    return c.suit == trump


def trick_winner(deck: PlainDeck, cards: Sequence[int], trump: int) -> int:
    """Seat of the winning card in a trick given in play order."""
    pos = 0
    for i in range(1, len(cards)):
        if beats(deck, cards[i], cards[pos], trump):
            pos = i
    return pos


class _Round:
    """What one seat knows about the round in play."""

    def __init__(self, view: BaptistenView) -> None:
        self.view = view
        self.rules = rules = _rules(view.rules)
        self.deck = deck = rules.card_deck
        self.n = n = rules.players
        self.trump = view.trump
        self.hand = view.hand
        known = view.hand | view.played
        for h in view.others:
            known |= h
        whole = view.cards * n >= deck.size and rules.trump_card == "baptisten"
        if not whole:  # the turned card lies on the rest of the deck
            known |= 1 << view.trump_card
        self.unseen_mask = deck.full_mask & ~known
        self.unseen = self.unseen_mask.bit_count()
        done = len(view.round_tricks)
        in_trick = {s for s, _ in view.trick}
        self.left = [view.cards - done - (1 if p in in_trick else 0) for p in range(n)]
        for p in range(n):  # cards seen in a forehead round are not unseen
            if view.others[p]:
                self.left[p] = 0
        self.voids = self._voids()

    def _voids(self) -> list[set[int]]:
        deck = self.deck
        voids: list[set[int]] = [set() for _ in range(self.n)]
        tricks = [(leader, cards) for leader, cards, _ in self.view.round_tricks]
        if self.view.trick:
            tricks.append((self.view.trick[0][0], tuple(c for _, c in self.view.trick)))
        for leader, cards in tricks:
            suit = -1
            for i, c in enumerate(cards):
                s = deck.cards[c].suit
                if s < 0:
                    continue
                if suit < 0:
                    suit = s
                elif s != suit:
                    voids[(leader + i) % self.n].add(suit)
        return voids

    def count(self, pred: Callable[[PlainCard], bool]) -> int:
        return sum(1 for i in bits(self.unseen_mask) if pred(self.deck.cards[i]))

    def beaters(self, card: PlainCard, led_suit: int) -> tuple[float, int]:
        """Unseen cards that beat ``card`` in a trick led in ``led_suit``: (cards of the
        led suit or the joker that beat it, trumps that beat it only when void)."""
        if card.is_joker:
            return 0.0, 0
        same = 0.0
        trumps = 0
        for i in bits(self.unseen_mask):
            x = self.deck.cards[i]
            if x.is_joker:
                same += 1
            elif x.suit == card.suit:
                if x.rank > card.rank:
                    same += 1
                elif x.rank == card.rank:
                    same += 0.5  # the second copy wins only when played later
            elif x.suit == self.trump and card.suit != self.trump:
                trumps += 1
        if card.suit != led_suit and card.suit != self.trump:
            return float("inf"), 0
        return same, trumps

    def p_beaten(self, card: PlainCard, led_suit: int, seats: Sequence[int],
                 nth: int = 0) -> float:
        """Chance that one of ``seats`` beats ``card`` (``nth``: how many cards of its
        suit this seat plays before it, which makes voids likelier)."""
        if not seats:
            return 0.0
        same, trumps = self.beaters(card, led_suit)
        if same == float("inf"):
            return 1.0
        u = self.unseen
        held = sum(self.left[s] for s in seats)
        p_ok = p_none(u, held, same)
        suit = led_suit if led_suit >= 0 else card.suit
        if trumps and suit != self.trump:
            suit_unseen = self.count(lambda x: x.suit == suit)
            for s in seats:
                h = self.left[s]
                if h <= 0:
                    continue
                void = 1.0 if suit in self.voids[s] else p_at_most(u, h, suit_unseen, nth)
                has_trump = 0.0 if self.trump in self.voids[s] else 1 - p_none(u, h, trumps)
                p_ok *= 1 - void * has_trump
        return 1 - p_ok


def estimate_tricks(view: BaptistenView, rng: random.Random) -> list[float]:
    """A chance per card of taking a trick (for bidding, before any card is played).

    The raw chances of :func:`_raw_chances` are lifted (``1 − (1 − p)^a``) so that an
    average hand expects its fair share, cards ÷ players, of the tricks."""
    r = _Round(view)
    if view.cards == 1:
        return [_one_card_chance(r, view, rng)]
    a = _lift(view)
    return [1 - (1 - p) ** a for p in _raw_chances(r, view)]


_LIFTS: dict[tuple[str, int, int], float] = {}


def _lift(view: BaptistenView) -> float:
    """The exponent that gives random hands of this round size their fair share (the
    same for every game with these rules: computed on a canonical turned card)."""
    key = (view.rules, view.cards, view.trump)
    if key in _LIFTS:
        return _LIFTS[key]
    deck = _rules(view.rules).card_deck
    canon = view.trump_card if view.trump < 0 else next(
        c.index for c in deck.cards if c.suit == view.trump)
    base = dataclasses.replace(view, hand=0, others=(0,) * len(view.others), trick=(),
                               round_tricks=(), trump_card=canon)
    r0 = _Round(base)
    pool = list(bits(r0.unseen_mask))
    rng = random.Random(7)
    samples = []
    for _ in range(24):
        hand = 0
        for i in rng.sample(pool, view.cards):
            hand |= 1 << i
        v = dataclasses.replace(base, hand=hand)
        samples.append(_raw_chances(_Round(v), v))
    target = view.cards / r0.n
    lo, hi = 0.2, 8.0
    for _ in range(30):
        mid = (lo + hi) / 2
        mean = sum(sum(1 - (1 - p) ** mid for p in ps) for ps in samples) / len(samples)
        if mean < target:
            lo = mid
        else:
            hi = mid
    _LIFTS[key] = (lo + hi) / 2
    return _LIFTS[key]


def _raw_chances(r: _Round, view: BaptistenView) -> list[float]:
    deck = r.deck
    others = [s for s in range(r.n) if s != view.seat]
    hand = [deck.cards[i] for i in bits(view.hand)]
    by_suit: dict[int, list[PlainCard]] = {}
    for c in hand:
        by_suit.setdefault(c.suit, []).append(c)
    chances = []
    for suit, cards in by_suit.items():
        cards.sort(key=lambda c: -c.rank)
        for nth, c in enumerate(cards):
            if c.is_joker:
                chances.append(1.0)
                continue
            p = 1 - r.p_beaten(c, c.suit, others, nth)
            if suit != r.trump:
                # Only a card led, or followed to its own suit, can take the trick.
                p *= 0.85 if nth == 0 else 0.7
            chances.append(p)
    # Low trumps take tricks by ruffing when a side suit is short.
    if r.trump >= 0:
        short = sum(1 for s in range(len(deck.suit_codes))
                    if s != r.trump and len(by_suit.get(s, ())) <= view.cards // 6)
        trumps_idx = [i for i, c in enumerate(c for cs in by_suit.values() for c in cs)
                      if c.suit == r.trump]
        for i in trumps_idx[::-1][:short]:
            chances[i] = max(chances[i], 0.45)
    return chances


def _one_card_chance(r: _Round, view: BaptistenView, rng: random.Random) -> float:
    """The chance of taking the only trick: exact in a forehead round, else sampled."""
    n, first, seat = r.n, view.first, view.seat
    order = [(first + i) % n for i in range(n)]
    mine = order.index(seat)
    if view.hand == 0:  # forehead: every other card known, one's own unknown
        known = [(view.others[p].bit_length() - 1) for p in order]
        cands = list(bits(r.unseen_mask))
        if not cands:
            return 0.5
        wins = 0
        for c in cands:
            trick = list(known)
            trick[mine] = c
            wins += trick_winner(r.deck, trick, r.trump) == mine
        return wins / len(cands)
    unseen = list(bits(r.unseen_mask))
    own = view.hand.bit_length() - 1
    samples = 200
    wins = 0
    for _ in range(samples):
        drawn = rng.sample(unseen, n - 1)
        trick = drawn[:mine] + [own] + drawn[mine:]
        wins += trick_winner(r.deck, trick, r.trump) == mine
    return wins / samples


# --- the heuristic bot -------------------------------------------------------------------


class BaptistenHeuristicBot:
    """Bids what it expects to make, stakes by confidence, plays to be exact."""

    name = "heuristic"

    def choose(self, view: BaptistenView, rng: random.Random) -> BAction:
        legal = view.legal_actions
        if not legal:
            raise _nothing_to_do(view)
        action: BAction
        if view.phase == "BIDDING":
            action = self._bid(view, rng)
        elif any(isinstance(a, ForeheadPlay) for a in legal):
            action = FOREHEAD_PLAY
        else:
            action = self._card(view)
        if action not in legal:  # a safety net: never an illegal action
            return rng.choice(legal)
        return action

    # --- bidding -------------------------------------------------------------------------

    def _bid(self, view: BaptistenView, rng: random.Random) -> BAction:
        rules = _rules(view.rules)
        bids = [a for a in view.legal_actions if isinstance(a, BBid)]
        dist = trick_distribution(estimate_tricks(view, rng))
        tricks = sorted({b.tricks for b in bids})
        expected = sum(k * p for k, p in enumerate(dist))

        def worth(t: int) -> tuple[float, float]:
            p = dist[t] if t < len(dist) else 0.0
            if rules.trick_scoring:
                bonus = rules.exact_zero_bonus if t == 0 else rules.exact_bonus
                return (p * bonus, -abs(t - expected))
            return (p, -abs(t - expected))

        best = max(tricks, key=worth)
        p_exact = dist[best] if best < len(dist) else 0.0
        stakes = sorted({b.stake for b in bids if b.tricks == best and b.stake is not None})
        if not stakes:
            return next(b for b in bids if b.tricks == best)
        stake = self._stake(view, stakes, p_exact)
        return next(b for b in bids if b.tricks == best and b.stake == stake)

    @staticmethod
    def _stake(view: BaptistenView, stakes: list[int], p: float) -> int:
        if stakes == [40]:
            return 40
        if 40 in stakes:
            owed = view.owed[view.seat]
            rules = _rules(view.rules)
            sched = rules.schedule()
            left = sum(1 for k in sched[view.round_no - 1:] if k >= 3)
            # Stake 40 when this round is among the most certain ones still to come:
            # the bar falls as the rounds left for the owed 40s run out.
            bar = 0.72 - 0.4 * owed / max(left, 1)
            if p >= bar:
                return 40
        plain = [s for s in stakes if s != 40]
        want = round(1 + 19 * min(1.0, max(0.0, (p - 0.45) / 0.3)))
        return min(plain, key=lambda s: abs(s - want))

    # --- card play -----------------------------------------------------------------------

    def _card(self, view: BaptistenView) -> BAction:
        r = _Round(view)
        deck = r.deck
        legal = [a for a in view.legal_actions if isinstance(a, PlainCard)]
        seat = view.seat
        rules = r.rules
        bid = view.bids[seat]
        need = bid - view.tricks_won[seat]
        left = r.left[seat]
        # Once the bid is lost, only tricks still count (under trick scoring).
        want_win = rules.trick_scoring if need < 0 or need > left else need > 0
        n = r.n
        after = [(seat + i) % n for i in range(1, n - len(view.trick))]
        others = [s for s in range(n) if s != seat]
        sure = [c for c in (deck.cards[i] for i in bits(view.hand))
                if r.p_beaten(c, c.suit, others) < 0.05]
        if want_win and 0 < need < left and len(sure) >= need:
            # The tricks still needed are in hand: lose the other cards first, unless the
            # card to play is a sure winner anyway.
            want_win = all(c in sure for c in legal)
        if not view.trick:
            led = -1
            chance = {c.index: 1 - r.p_beaten(c, c.suit, after) for c in legal}
            if want_win:  # the likeliest winner, the cheapest of equals
                return max(legal, key=lambda c: (round(chance[c.index], 2),
                                                 _cheap(c, r.trump)))
            # the least likely winner, shedding the most dangerous of equals
            return min(legal, key=lambda c: (round(chance[c.index], 2),
                                             _cheap(c, r.trump)))
        cards = [c for _, c in view.trick]
        best = cards[trick_winner(deck, cards, r.trump)]
        led = next((deck.cards[c].suit for c in cards if not deck.cards[c].is_joker), -1)
        winning = [c for c in legal if beats(deck, c.index, best, r.trump)]
        losing = [c for c in legal if c not in winning]
        if want_win:
            if winning:
                risk = {c.index: r.p_beaten(c, led if led >= 0 else c.suit, after)
                        for c in winning}
                safe = [c for c in winning if risk[c.index] < 0.2]
                if safe:
                    return min(safe, key=lambda c: _danger(c, r.trump))
                return min(winning, key=lambda c: (risk[c.index], _danger(c, r.trump)))
            return min(legal, key=lambda c: _danger(c, r.trump))
        if losing:
            return max(losing, key=lambda c: _danger(c, r.trump))
        if not after:  # the trick is ours anyway: shed the most dangerous card
            return max(legal, key=lambda c: _danger(c, r.trump))
        return min(legal, key=lambda c: _danger(c, r.trump))


def _cheap(card: PlainCard, trump: int) -> tuple[int, int]:
    d = _danger(card, trump)
    return (-d[0], -d[1])


def _danger(card: PlainCard, trump: int) -> tuple[int, int]:
    """How likely a card is to take a trick later: the joker, trumps, then rank."""
    if card.is_joker:
        return (2, 0)
    return (1 if card.suit == trump else 0, card.rank)


def _strong() -> BaptistenBot:
    """The search bot (imported when asked for: it builds on this module)."""
    from stich.bots.baptisten_strong import BaptistenStrongBot

    return BaptistenStrongBot()


BAPTISTEN_BOTS: dict[str, Callable[[], BaptistenBot]] = {
    "random": BaptistenRandomBot,
    "easy": BaptistenHeuristicBot,  # the rule-based bot
    "heuristic": BaptistenHeuristicBot,  # the older name of ``easy``
    "strong": _strong,  # the search bot (issue 10): stich.bots.baptisten_strong
}


def make_baptisten_bot(name: str) -> BaptistenBot:
    """A new Baptistenskat bot by name: ``random``, ``easy`` (alias ``heuristic``),
    ``strong`` (the search bot).

    >>> make_baptisten_bot("heuristic").name
    'heuristic'
    """
    try:
        factory = BAPTISTEN_BOTS[name]
    except KeyError:
        raise ArgumentError("bots.unknown", name=name,
                            choices=", ".join(sorted(BAPTISTEN_BOTS))) from None
    return factory()


def _nothing_to_do(view: BaptistenView) -> ArgumentError:
    """The refusal for a bot asked to act for a seat that is not to move."""
    seat = Seat(view.seat, len(view.bids), named=False)
    return ArgumentError("bots.nothing_to_do", seat=seat, phase=view.phase)
