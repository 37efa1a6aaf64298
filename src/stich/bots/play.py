"""Card play of the heuristic bot: rules of thumb over what the view shows.

Everything here reads a :class:`~stich.skat.view.SkatView`: the own hand, the cards
played, the voids shown by failing to follow, an Ouvert declarer's cards.  A card is
*safe* ("boss") when no seat still to play in the trick can hold a card that beats it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from stich.cards import CARDS, Card, bits
from stich.skat.lookup import TABLES, GameTables
from stich.skat.rules import GameType
from stich.skat.view import SkatView

__all__ = ["choose_card", "ramsch_follow"]

_ALL = (1 << 32) - 1


class _Table:
    """The facts of the trick in play, as one seat sees them."""

    def __init__(self, view: SkatView) -> None:
        game = view.game
        assert game is not None
        self.view = view
        self.game = game
        self.t: GameTables = TABLES[game]
        self.me = view.seat
        self.declarer = view.declarer
        self.legal = 0
        for a in view.legal_actions:
            if isinstance(a, Card):
                self.legal |= a.bit
        self.hand = view.hand
        known = view.hand | view.played | view.discarded
        self.ouvert = view.ouvert_hand if view.declarer != view.seat else 0
        self.unseen = _ALL & ~known & ~self.ouvert
        self.voids = view.voids()
        self.trick = view.trick
        self.led = view.trick[0][1] if view.trick else -1
        # The seats still to play after me in this trick.
        self.after = [(self.me + i) % 3 for i in range(1, 3 - len(view.trick))]

    # --- what others may hold ------------------------------------------------------------

    def possible(self, seat: int) -> int:
        if seat == self.declarer and self.ouvert:
            return self.ouvert
        return self.unseen & ~self.voids[seat]

    def threatened(self, card: int, after: Iterable[int] | None = None) -> bool:
        """Whether a seat still to play could beat ``card`` (led with ``card`` if the
        trick is empty)."""
        t = self.t
        led = self.led if self.led >= 0 else card
        group = t.follow[led]
        for seat in self.after if after is None else after:
            poss = self.possible(seat)
            cands = poss & group if poss & group else poss & t.trump
            for x in bits(cands):
                if t.beats(x, card, led):
                    return True
        return False

    def best(self) -> tuple[int, int]:
        """(seat, card) currently winning the trick, or (-1, -1)."""
        if not self.trick:
            return (-1, -1)
        seat, card = self.trick[0]
        led = card
        for s, c in self.trick[1:]:
            if self.t.beats(c, card, led):
                seat, card = s, c
        return seat, card

    def best_card(self) -> int:
        return self.best()[1]

    def winners(self) -> int:
        """My legal cards that beat the trick so far."""
        seat, card = self.best()
        if seat < 0:
            return self.legal
        m = 0
        for c in bits(self.legal):
            if self.t.beats(c, card, self.led):
                m |= 1 << c
        return m

    def is_trump(self, c: int) -> bool:
        return bool(self.t.trump >> c & 1)

    def cheap(self, c: int) -> float:
        """How little it costs to give this card away (lower: cheaper)."""
        return CARDS[c].points + (5 if self.is_trump(c) else 0) + self.t.strength[c] / 200


def _pick(mask: int, key: Callable[[int], float | tuple[float, ...]], *,
          highest: bool = False) -> int:
    cards = list(bits(mask))
    return max(cards, key=key) if highest else min(cards, key=key)


def choose_card(view: SkatView) -> Card:
    """The card the heuristic bot plays in this view (always a legal one)."""
    tb = _Table(view)
    if tb.game is GameType.NULL:
        idx = _null_declarer(tb) if tb.me == tb.declarer else _null_defender(tb)
    elif tb.game is GameType.RAMSCH:
        idx = _ramsch(tb)
    elif tb.me == tb.declarer:
        idx = _declarer_lead(tb) if not tb.trick else _declarer_follow(tb)
    else:
        idx = _defender_lead(tb) if not tb.trick else _defender_follow(tb)
    if not tb.legal >> idx & 1:
        idx = _pick(tb.legal, tb.cheap)
    return CARDS[idx]


# --- suit games and Grand: the declarer ----------------------------------------------------


def _declarer_lead(tb: _Table) -> int:
    t = tb.t
    opps = [s for s in range(3) if s != tb.me]
    opp_trumps = (tb.possible(opps[0]) | tb.possible(opps[1])) & t.trump
    mine = tb.legal & t.trump
    side = tb.legal & ~t.trump
    boss_side = [c for c in bits(side) if not tb.threatened(c)]
    if mine and opp_trumps:
        top = _pick(mine, lambda c: t.strength[c], highest=True)
        if not tb.threatened(top):
            return top
        if mine.bit_count() * 2 > opp_trumps.bit_count():
            # Pull trumps with a small one; keep the jacks for later.
            return _pick(mine, lambda c: (bool(_JACKS >> c & 1), CARDS[c].points,
                                          t.strength[c]))
    if boss_side:
        return max(boss_side, key=lambda c: (CARDS[c].points, t.strength[c]))
    if mine:
        return _pick(mine, lambda c: t.strength[c], highest=not opp_trumps)
    # A low card from the longest side suit.
    return _pick(side, lambda c: (CARDS[c].points, -(tb.hand & t.follow[c]).bit_count()))


def _declarer_follow(tb: _Table) -> int:
    t = tb.t
    win = tb.winners()
    if win:
        if not tb.after:
            return _pick(win, lambda c: (tb.is_trump(c), t.strength[c]))
        safe = [c for c in bits(win) if not tb.threatened(c)]
        if safe:
            return min(safe, key=lambda c: (tb.is_trump(c), t.strength[c]))
    return _pick(tb.legal, tb.cheap)


# --- suit games and Grand: the defenders ---------------------------------------------------


def _defender_lead(tb: _Table) -> int:
    t = tb.t
    decl = tb.declarer
    partner = 3 - decl - tb.me
    side = tb.legal & ~t.trump
    decl_void = tb.voids[decl]
    boss = [c for c in bits(side) if not tb.threatened(c) and not decl_void >> c & 1]
    if boss:
        return max(boss, key=lambda c: (CARDS[c].points, t.strength[c]))
    # A suit the partner can trump and the declarer must follow.
    if tb.possible(partner) & t.trump:
        ruff = side & tb.voids[partner] & ~decl_void
        if ruff:
            return _pick(ruff, tb.cheap)
    if side:
        def lead_key(c: int) -> tuple[float, ...]:
            suit = t.follow[c]
            mine = tb.hand & suit
            ace = CARDS[c].suit * 8 + 6
            guarded_ten = (mine >> (CARDS[c].suit * 8 + 5) & 1) and not mine >> ace & 1
            return (float(bool(guarded_ten)), CARDS[c].points, mine.bit_count())
        return _pick(side, lead_key)
    return _pick(tb.legal, tb.cheap)


def _defender_follow(tb: _Table) -> int:
    t = tb.t
    decl = tb.declarer
    partner = 3 - decl - tb.me
    seat, _ = tb.best()
    win = tb.winners()
    if seat == partner:
        decl_to_play = decl in tb.after
        if not decl_to_play or not tb.threatened(tb.best_card(), [decl]):
            # Schmieren: the partner has the trick, give it points (never a jack).
            jacks_free = tb.legal & ~_JACKS or tb.legal
            return _pick(jacks_free, lambda c: (CARDS[c].points, -t.strength[c]), highest=True)
        return _pick(tb.legal, tb.cheap)
    # The declarer holds the trick.
    if win:
        if decl in tb.after:
            safe = [c for c in bits(win) if not tb.threatened(c, [decl])]
            if safe:
                return min(safe, key=lambda c: (tb.is_trump(c), -CARDS[c].points,
                                                t.strength[c]))
            return _pick(tb.legal, tb.cheap)
        side_win = win & ~t.trump
        if side_win:
            return _pick(side_win, lambda c: (CARDS[c].points, -t.strength[c]), highest=True)
        return _pick(win, lambda c: t.strength[c])
    return _pick(tb.legal, tb.cheap)


_JACKS = sum(1 << (s * 8 + 7) for s in range(4))


# --- Null ----------------------------------------------------------------------------------


def _null_declarer(tb: _Table) -> int:
    st = tb.t.strength
    if not tb.trick:
        return _pick(tb.legal, lambda c: (st[c], -(tb.unseen & tb.t.follow[c]).bit_count()))
    best = tb.best_card()
    group = tb.t.follow[tb.led]
    if tb.legal & group:
        under = [c for c in bits(tb.legal) if st[c] < st[best]]
        if under:
            return max(under, key=lambda c: st[c])
        return _pick(tb.legal, lambda c: st[c])
    return _pick(tb.legal, lambda c: st[c], highest=True)


def _null_defender(tb: _Table) -> int:
    st = tb.t.strength
    decl = tb.declarer
    if not tb.trick:
        dposs = tb.possible(decl)

        def lead_key(c: int) -> tuple[float, ...]:
            theirs = dposs & tb.t.follow[c]
            if not theirs:
                return (2.0, st[c])
            forced = all(st[x] > st[c] for x in bits(theirs))
            return (0.0 if forced and tb.ouvert else 1.0, st[c])
        return _pick(tb.legal, lead_key)
    seat, best = tb.best()
    following = bool(tb.legal & tb.t.follow[tb.led])
    if decl in tb.after or seat != decl:
        if seat != decl and decl not in tb.after:
            return _pick(tb.legal, lambda c: st[c], highest=True)  # declarer escaped
        return _pick(tb.legal, lambda c: st[c], highest=not following)
    # The declarer has played and holds the trick: stay under it.
    if following:
        under = [c for c in bits(tb.legal) if st[c] < st[best]]
        if under:
            return max(under, key=lambda c: st[c])
        return _pick(tb.legal, lambda c: st[c])
    return _pick(tb.legal, lambda c: st[c], highest=True)


# --- Ramsch --------------------------------------------------------------------------------


def _ramsch(tb: _Table) -> int:
    t = tb.t
    st = t.strength
    if not tb.trick:
        return _pick(tb.legal, lambda c: (tb.is_trump(c), CARDS[c].points, st[c],
                                          -(tb.unseen & t.follow[c]).bit_count()))
    return ramsch_follow(tb.legal, tb.best_card(), tb.led, last=not tb.after)


_RAMSCH = TABLES[GameType.RAMSCH]


def ramsch_follow(legal: int, best: int, led: int, *, last: bool) -> int:
    """The rule-based Ramsch card in a trick already led with ``led`` and won so far by
    ``best``: the card worth most that loses the trick; if every legal card wins, the
    one worth least (the strongest of those when ``last`` to play, else the weakest).
    Also the rollout policy of the search bot (:mod:`stich.bots.strong`)."""
    t = _RAMSCH
    st = t.strength
    lose = 0
    for c in bits(legal):
        if not t.beats(c, best, led):
            lose |= 1 << c
    if lose:
        return _pick(lose, lambda c: (CARDS[c].points, st[c]), highest=True)
    if last:
        return _pick(legal, lambda c: (CARDS[c].points, -st[c]))
    return _pick(legal, lambda c: (CARDS[c].points, st[c]))
