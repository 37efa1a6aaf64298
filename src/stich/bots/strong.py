"""A Skat search bot (``strong``): sampled worlds solved by the exact solver.

Every decision samples *worlds* — deals of the cards this seat cannot see that agree with
its view — and asks the double-dummy solver (:mod:`stich.skat.solver`) about each.

- **Sampler** (:func:`sample_world`): the unseen cards are dealt to the other two hands
  (and to the Skat where this seat has not seen it), keeping every hand's size, the cards
  played, the Skat when known (the declarer after picking up: the cards put away), an
  Ouvert declarer's open hand, and the voids shown by failing to follow (trump is one
  group: in suit games and Grand the jacks are trumps; :data:`stich.skat.tables.TABLES`
  says which card follows what).  It is exact and rejection-free: the cards are grouped by
  the places they may go, the number of completions of each split is counted, and a split
  is drawn with its exact share, so every consistent world is equally likely and no card
  ever lands with a seat that showed a void in its group.
- **The auction in the card play**: each sampled world is weighed by how well it fits
  what was said (:func:`_world_weight`): the declarer's kept ten cards by the rule-based
  chance of winning the game declared, and a player whose cards would not have bid as
  high as it did counts less.
- **Card play** (suit games, Grand, Null): for each world and each legal card, zero-window
  questions to the solver after that card: does the declarer still reach 61 (91 when
  Schneider was announced; every trick when Schwarz was), reach 91 (Schneider), stay
  above 30 (no Schneider against him)?  In Null: does the declarer still avoid every
  trick?  The card with the best weighted mean over the worlds for the seat's side is
  played (ties: the heuristic bot's card).
- **Time**: anytime — worlds are sampled until the budget (default 0.3 s) is used and at
  least ``min_worlds`` are done, never beyond ``hard_cap`` (at most 1.5 s).  Every solver
  question gets a node limit from the clock (:meth:`_Clock.nodes`: at most
  :data:`QUESTION_SECONDS` of search, never past the cap); a question the solver gives up
  on counts as a coin toss in the card play and with its measured chance in the bidding
  (:data:`GAVE_UP_CHANCE`).  So one hard full-deal question (a Null can take seconds with
  open cards) can no longer hold a decision up.
- **Ramsch**: while one player has taken every trick, the solver decides: that player
  goes for the Durchmarsch when it goes through in most sampled worlds, the others stop
  it.  Otherwise each legal card is tried in every sampled world and the rest of the game
  played out by the rule-based Ramsch play (:func:`_ramsch_card`); the card with the best
  mean Ramsch score for the seat is played (``bench/skat_ramsch.py``: about 11 points a
  Ramsch game better than the rule-based card).
- **Bidding, Hand or Skat, the discard, the declaration**: each candidate game (the four
  suit games and Grand, Null and Null Ouvert; Hand variants when deciding Hand) is scored
  on sampled worlds by the solver and valued by the cards it will own.  A game's chance
  in a world comes from the points the declarer reaches against open-handed defenders
  (:data:`CHANCE_BY_POINTS`, :data:`NULL_CHANCE`): the defenders cannot see the cards,
  so a game the open-hand search loses by a few points is often won, and the chances were
  measured.  The expected list score at a bid is ``p·value − (1−p)·2·value``; an overbid
  costs twice the overbid value.  Picking up is also scored as the plan :data:`AUTO`: in
  each world, the game the rule-based evaluation would declare with that Skat.
  Bidding: the bot holds/says a value only while the best plan's expected score at that
  value is above what passing is worth (0, or before anybody bid under ``lothar`` a share
  of the Ramsch that follows when all pass).  A game whose value is below the bid counts
  as an overbid loss, so the bot never holds a value that no game it could declare
  reaches.  In the auction the discard in each sampled Skat is chosen per game by the
  heuristic's hand strength (not by the solver); after picking up, the discard is chosen
  among the heuristic's best pairs by the solver on sampled worlds.  To get more worlds
  into the budget, the auction asks the solver only about the games the rule-based
  evaluation rates best (:data:`PLAN_TOP`), the discard asks each pair only about the
  games it is a best pair for (:data:`DISCARD_PRUNE`), and a game whose value is below
  the bid is never asked about (it is an overbid whatever its chance).

Known weaknesses (plain determinized sampling):

- *Strategy fusion*: in each world the solver plays as if it knew that world, so a card
  that is right in every world separately (but needs different follow-ups the bot cannot
  tell apart) is overrated; guesses look free.
- *Over-hopeful defence*: the defenders are solved as a team that sees all cards; a
  defender relies on its partner finding the perfect card, and declarers' lines that only
  work against open-handed defenders are undervalued.
- Schwarz is not aimed at in the card play (only the 61/91/30 thresholds are asked) and
  Schneider and Schwarz announcements and open games are only considered for the Hand
  game the cards suit best; in Ramsch only the Durchmarsch is searched, the rest is the
  rule-based play.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from itertools import combinations

from stich.bots.clock import HARD_CAP, WorldClock, check_budget
from stich.bots.heuristic import SkatHeuristicBot, bid_up_to
from stich.bots.play import choose_card, ramsch_follow
from stich.bots.skat_eval import (
    PICKUP_BONUS,
    best_bid,
    null_badness,
    ramsch_danger,
    strength,
    win_probability,
)
from stich.cards import CARDS, Card, bits, card_points
from stich.core import ArgumentError
from stich.messages import Position as SeatName
from stich.skat.actions import HAND, PASS, PICKUP, Action, Declare, Discard
from stich.skat.rules import NULL_VALUES, GameType, SkatRules, bidding_ladder
from stich.skat.scoring import matadors, overbid_value
from stich.skat.solver import Position, SearchLimit, compiled, null_won, reaches, takes_all
from stich.skat.tables import TABLES
from stich.skat.view import SkatView

__all__ = ["HARD_CAP", "SkatStrongBot", "World", "count_worlds", "sample_world",
           "world_weigher"]

_ALL = (1 << 32) - 1
_TRUMP_GAMES = (GameType.SCHELLEN, GameType.HERZ, GameType.GRUEN, GameType.EICHEL,
                GameType.GRAND)
QUESTION_SECONDS = 0.05
"""The most search time one solver question may take; a question the solver cannot
answer within it counts as a coin toss in the card play (a close position) and with
:data:`GAVE_UP_CHANCE` in the bidding."""
MIN_NODES = 500
"""Every question may search this many nodes, however late (well under a millisecond)."""
NODES_PER_SECOND_C = 8_000_000
NODES_PER_SECOND_PY = 100_000
"""About how many positions per second the compiled and the pure-Python solver search
(turns :data:`QUESTION_SECONDS` into a node limit; measured on the 2-core machine)."""
OPTIMISM = 0
"""Card points added to the declarer's open-hand result when estimating a game's chance
(a tuning knob for bench/skat_strong.py; the calibration is in the tables below)."""
CHANCE_BY_POINTS: tuple[tuple[int, float], ...] = ((61, 0.97), (55, 0.85), (49, 0.6))
CHANCE_BELOW = 0.3
"""A suit game's or Grand's chance to be won in play, by the card points the declarer
reaches against open-handed defenders: the defenders cannot see the cards, so a game the
open-hand search loses by a few points is often won.  Measured on 2,000 games of three
``easy`` bots (docs/bots.md): open-hand 50–54 points won 38 %, 55–59 won 56 %, 60–64
won 65 %, 70 and more won about 90 % or more — by ``easy`` as declarer.  The search
plays the declarer's cards much better: in 500 deals against two ``easy``
(``bench/skat_strong.py --deals 500 --seed 2``) it won 243 of 247 games it declared that
reach 61 with open cards, 46 of 60 reaching 53–60 (77 %) and 38 of 57 below (67 %), so
the chances here are higher (first 0.8 / 0.4 / 0.1 below 61; the change won about a
point a game on 80 deals of seed 1, paired: ``bench/skat_strong_ab.py``)."""
GAVE_UP_CHANCE: tuple[float, ...] | None = (0.83, 0.59, 0.43)
"""The chance of a suit game or Grand when the search gives up on the question at the
threshold of :data:`CHANCE_BY_POINTS` with the same index (None: half way between that
threshold's chance and a coin toss, as before).  Measured: in the auctions of 60 deals
of seed 5 (clocked, 0.3 s) about one question in seven gave up; solved again without a
limit, the 1,443 that gave up had the mean chance (by the table above) 0.833 at 61,
0.585 at 55 and 0.427 at 49, where the old rule said 0.735, 0.675 and 0.55.  Paired on
80 deals of seed 1 (``bench/skat_strong_ab.py``): +0.23 (−0.69 … +1.16), games lost
with open cards too 6 → 4."""
MIN_CHANCE = 0.0
"""Bidding: only games whose mean chance over the sampled worlds is at least this are
bid on (0: any game whose expected score pays).  0.75 cut the games lost at the bid
from 6 to 1 on 80 deals of seed 1, but declared 37 games instead of 65 and cost 3.94
list points a game (−6.99 … −0.89): so it stays off."""
NULL_CHANCE = (0.15, 0.97)
"""A Null's chance to be won when the open-hand search says lost / won.  Measured the same
way, ``easy``'s hand-picked Nulls lost with open cards were won 14 times in 33 and all 10
won with open cards were won; but of the 24 Nulls lost with open cards that the search
bot declared with 0.35 here (``bench/skat_strong.py --deals 500 --seed 2``) it won 4, so
the search, which looks at every hand, needs the lower figure."""
NULL_OUVERT_CHANCE = (0.05, 0.97)
"""The same for Null Ouvert: the defenders see the declarer's cards, so a Null lost with
open cards is hardly ever won."""
DURCHMARSCH_TRY = 0.7
"""In Ramsch, a player who has taken every trick so far goes on for the Durchmarsch when
it goes through in at least this share of the sampled worlds."""
RAMSCH_ROLLOUTS = True
"""Ramsch: choose the card by playing the sampled worlds out (off: the rule-based card;
a switch for bench/skat_ramsch.py)."""
UNLIKELY_BID = 0.3
"""The weight of a sampled world in which a player holds cards that would not have bid
as high as it did."""
UNLIKELY_PASS = 0.3
"""The weight of a world where a player who passed holds cards it would have bid on."""
INFER_PASSES = True
"""Weigh the worlds by the passes too (:data:`UNLIKELY_PASS`; a switch for the benches)."""
AUCTION_OPTIMISM = 0
"""Card points added to the open-hand result in the auction only (bidding, Hand or
pick-up), where the Skat is not yet seen (a knob for bench/skat_strong_ab.py)."""
NULL_BADNESS_TRIED = 3.0
"""Null is only asked about for hands at most this bad (:func:`null_badness`)."""
PLAN_TOP = 2
"""In the auction, the solver is asked about the suit games and Grand the rule-based
evaluation rates best for this hand only: this many for picking up and as many for Hand
(0: all five each), plus in each world the game the rule-based evaluation would declare
with that Skat (:data:`AUTO`).  Fewer questions per world, more worlds in the budget,
and fewer noisy plans to take the best of."""
DISCARD_PRUNE = True
"""After picking up, each of the heuristic's best discards (two per game) is asked about
only for the games it is among the best two for (off: every game for every pair, five
times the questions and so far fewer worlds in the budget)."""
BID_SE = 0.0
"""Bidding: a value is said or held only while the best plan's expected score there,
less this many standard errors of its mean over the worlds, is above what passing is
worth (the best of several noisy means is too high by about that much)."""
RAMSCH_LOSS = 50.0
RAMSCH_SHARE = 0.4
"""Passing before anybody bid: the Ramsch that follows when all pass (with this share)
costs about this many points to the loser."""

World = tuple[tuple[int, int, int], int]
"""Three hands (by seat) and the Skat, as card sets."""
_Result = tuple[float, int, int]
"""A game on one world: the chance it is won (1, 0, or 0.5 when the solver gave up),
its value, its base value (0 for Null)."""
_Plan = tuple[GameType, bool, bool]
"""A game, Hand, Ouvert."""
AUTO: _Plan = (GameType.RAMSCH, False, False)
"""The plan "pick up and declare the game the heuristic chooses for that Skat"."""


# --- the sampler ------------------------------------------------------------------------


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
    known = view.hand | view.played | view.skat_seen | view.discarded
    ouvert_seat = view.declarer if view.ouvert_hand and view.declarer != me else -1
    if ouvert_seat >= 0:
        hands[ouvert_seat] = view.ouvert_hand
        known |= view.ouvert_hand
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
        if s in (me, ouvert_seat):
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
    fill = _Completions(unseen, slots, caps, allowed).draw(rng)
    skat = skat_known if skat_known > 0 else 0
    for slot, cards in zip(slots, fill, strict=True):
        if slot == 3:
            skat = cards
        else:
            hands[slot] = cards
    return (hands[0], hands[1], hands[2]), skat


def count_worlds(view: SkatView) -> int:
    """How many worlds agree with ``view`` (each equally likely to :func:`sample_world`)."""
    _, unseen, slots, caps, allowed, _ = _world_slots(view)
    return _Completions(unseen, slots, caps, allowed).total()


class _Completions:
    """The ways to give cards to slots, each slot exactly its capacity and only cards it
    may take: counted (the completions of each group split) and drawn uniformly."""

    def __init__(self, unseen: int, slots: list[int], caps: list[int],
                 allowed: list[int]) -> None:
        self.n = n = len(slots)
        groups: dict[int, list[int]] = {}
        for c in bits(unseen):
            key = sum(1 << i for i in range(n) if allowed[i] >> c & 1)
            if key == 0:
                raise ArgumentError("bots.inconsistent_view", seat=SeatName(0), phase="PLAY")
            groups.setdefault(key, []).append(c)
        self.groups = groups
        self.keys = sorted(groups)
        self.caps = tuple(caps)
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def splits(self, key: int, size: int, cap: tuple[int, ...]) -> list[tuple[int, ...]]:
        n = self.n
        idx = [i for i in range(n) if key >> i & 1]
        out: list[tuple[int, ...]] = []

        def rec(j: int, left: int, acc: list[int]) -> None:
            if j == len(idx) - 1:
                if left <= cap[idx[j]]:
                    full = [0] * n
                    for k, v in zip(idx, [*acc, left], strict=True):
                        full[k] = v
                    out.append(tuple(full))
                return
            for v in range(min(left, cap[idx[j]]) + 1):
                rec(j + 1, left - v, [*acc, v])

        rec(0, size, [])
        return out

    @staticmethod
    def ways(split: tuple[int, ...], size: int) -> int:
        w = math.factorial(size)
        for v in split:
            w //= math.factorial(v)
        return w

    def count(self, g: int, cap: tuple[int, ...]) -> int:
        keys = self.keys
        if g == len(keys):
            return 1 if not any(cap) else 0
        k = (g, cap)
        memo = self.memo
        if k in memo:
            return memo[k]
        size = len(self.groups[keys[g]])
        total = 0
        for sp in self.splits(keys[g], size, cap):
            rest = tuple(c - v for c, v in zip(cap, sp, strict=True))
            total += self.ways(sp, size) * self.count(g + 1, rest)
        memo[k] = total
        return total

    def total(self) -> int:
        return self.count(0, self.caps)

    def draw(self, rng: random.Random) -> list[int]:
        cap = self.caps
        if self.count(0, cap) == 0:
            raise ArgumentError("bots.inconsistent_view", seat=SeatName(0), phase="PLAY")
        out = [0] * self.n
        for g, key in enumerate(self.keys):
            cards = self.groups[key][:]
            size = len(cards)
            options = []
            for sp in self.splits(key, size, cap):
                rest = tuple(c - v for c, v in zip(cap, sp, strict=True))
                w = self.ways(sp, size) * self.count(g + 1, rest)
                if w:
                    options.append((w, sp, rest))
            r = rng.randrange(sum(w for w, _, _ in options))
            pick = options[-1]
            for opt in options:
                if r < opt[0]:
                    pick = opt
                    break
                r -= opt[0]
            _, sp, rest = pick
            rng.shuffle(cards)
            i = 0
            for slot, v in enumerate(sp):
                for c in cards[i:i + v]:
                    out[slot] |= 1 << c
                i += v
            cap = rest
        return out


# --- the bot ----------------------------------------------------------------------------


class _Clock(WorldClock):
    """The time of one decision (:class:`~stich.bots.clock.WorldClock`) and how many
    solver nodes the next question may search, so that no question can overrun the cap."""

    def __init__(self, budget: float, hard_cap: float, min_worlds: int,
                 max_worlds: int | None, timer: Callable[[], float] = time.perf_counter,
                 rate: float = 0.0, question: float = 0.0) -> None:
        super().__init__(budget, hard_cap, min_worlds, max_worlds, timer)
        self.question = question or QUESTION_SECONDS
        self.rate = rate or (NODES_PER_SECOND_C if compiled() else NODES_PER_SECOND_PY)

    def nodes(self) -> int:
        """Solver nodes the next question may use: at most :data:`QUESTION_SECONDS` (or
        the bot's ``question_seconds``) of search, and never beyond 90 % of the hard cap
        (but at least :data:`MIN_NODES`)."""
        left = min(self.question, self.hard * 0.9 - self.elapsed())
        return max(MIN_NODES, int(left * self.rate))

    def ask(self, question: Callable[[int], bool]) -> float:
        """1.0 or 0.0 for the solver's yes or no; 0.5 when the search gives up (a close
        position: as good as a coin toss)."""
        try:
            return 1.0 if question(self.nodes()) else 0.0
        except SearchLimit:
            return 0.5


class SkatStrongBot:
    """The search bot.  ``budget``: seconds per decision to aim at (anytime sampling);
    ``min_worlds``: worlds sampled at least (time permitting); ``max_worlds``: a fixed
    number of worlds instead of the clock (for reproducible tests); ``hard_cap``: the
    most any decision may take (at most 1.5 s); ``timer``: the clock (injectable for
    tests); ``optimism``: card points added to the open-hand result when estimating a
    game's chance (a tuning knob); ``infer``: weigh the sampled worlds in the card play
    by what the auction says (see the module text); ``question_seconds``: the most one
    solver question may search (:data:`QUESTION_SECONDS`)."""

    name = "strong"

    def __init__(self, budget: float = 0.3, *, min_worlds: int = 4,
                 max_worlds: int | None = None, hard_cap: float = HARD_CAP,
                 timer: Callable[[], float] = time.perf_counter,
                 optimism: int = OPTIMISM, infer: bool = True,
                 question_seconds: float = QUESTION_SECONDS) -> None:
        check_budget(budget, hard_cap)
        self.budget = budget
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.hard_cap = hard_cap
        self.timer = timer
        self.optimism = optimism
        self.infer = infer
        self.question_seconds = question_seconds
        self._fallback = SkatHeuristicBot()
        # (phase, chance) of each auction decision that valued a game: "bid" the best
        # plan's mean chance where it held or said a value, "declare" the mean chance of
        # the game declared (the arena's calibration table compares them with the result)
        self.estimates: list[tuple[str, float]] = []

    def _clock(self) -> _Clock:
        return _Clock(self.budget, self.hard_cap, self.min_worlds, self.max_worlds,
                      self.timer, question=self.question_seconds)

    def choose(self, view: SkatView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ArgumentError("bots.nothing_to_do", seat=SeatName(view.seat), phase=view.phase)
        if len(legal) == 1:
            return legal[0]
        clock = self._clock()
        local = random.Random(rng.getrandbits(64))
        phase = view.phase
        if phase == "BIDDING":
            action: Action = self._bid(view, local, clock)
        elif phase == "SKAT":
            action = self._hand_or_pickup(view, local, clock)
        elif phase == "DISCARD":
            action = self._discard(view, local, clock)
        elif phase == "DECLARE":
            action = self._declare(view, local, clock)
        elif view.game is GameType.RAMSCH:
            action = self._ramsch(view, local, clock)
        elif view.game is None:
            action = choose_card(view)
        else:
            action = self._play(view, local, clock)
        if action not in legal:  # a safety net: never an illegal action
            return self._fallback.choose(view, rng)
        return action

    # --- card play ----------------------------------------------------------------------

    def _play(self, view: SkatView, rng: random.Random, clock: _Clock) -> Action:
        game = view.game
        contract = view.contract
        assert game is not None and contract is not None
        cards = [a for a in view.legal_actions if isinstance(a, Card)]
        me, decl = view.seat, view.declarer
        sign = 1.0 if me == decl else -1.0
        totals = dict.fromkeys((c.index for c in cards), 0.0)
        taken = view.points_taken()[decl]
        trick = tuple(c for _, c in view.trick)
        t = TABLES[game]
        rules = SkatRules.parse(view.rules)
        if contract.ouvert and game is not GameType.NULL and rules.announcements:
            contract = Declare(game, hand=True, schneider=True, schwarz=True, ouvert=True)
        worlds = 0
        weigh = world_weigher(view, rules) if self.infer else None
        while clock.more(worlds):
            hands, skat = sample_world(view, rng)
            weight = weigh(hands) if weigh is not None else 1.0
            base = taken + card_points(skat)
            values: dict[int, float] = {}
            for c in cards:
                if worlds and clock.out_of_time():
                    break
                values[c.index] = _card_utility(game, contract, hands, decl, me, trick,
                                                c.index, base, t.winner, clock)
            if len(values) < len(cards):
                break
            for k, v in values.items():
                totals[k] += weight * v
            worlds += 1
        if worlds == 0:
            return choose_card(view)
        best = max(sign * v for v in totals.values())
        good = [k for k, v in totals.items() if sign * v >= best - 1e-9]
        hint = choose_card(view).index
        return CARDS[hint] if hint in good else CARDS[min(good)]

    # --- Ramsch -----------------------------------------------------------------------------

    def _ramsch(self, view: SkatView, rng: random.Random, clock: _Clock) -> Action:
        """While one player has taken every trick so far, a Durchmarsch is on: that
        player tries it when the solver says it goes through in most sampled worlds
        (:data:`DURCHMARSCH_TRY`), and the others keep to the cards that stop it in the
        most worlds.  (Ramsch is played like Grand, so the solver's "takes every trick"
        on Grand's tables answers the question.)  Otherwise, and among the cards that
        stop a Durchmarsch equally well, the card with the best mean Ramsch score for
        this seat when each sampled world is played out by the rule-based Ramsch play
        (:func:`_ramsch_rollout`): few points, and not the most."""
        hint = choose_card(view)
        me = view.seat
        cards = [a.index for a in view.legal_actions if isinstance(a, Card)]
        trick = tuple(c for _, c in view.trick)
        winners = {w for _, _, w in view.tricks} if view.tricks else {me}
        half = WorldClock(clock.budget / 2, clock.hard, clock.min_worlds, clock.max_worlds,
                          clock.timer)
        if len(winners) == 1:
            runner = winners.pop()
            winner = TABLES[GameType.GRAND].winner
            totals = dict.fromkeys(cards, 0.0)
            worlds = 0
            while half.more(worlds):
                hands, _ = sample_world(view, rng)
                values: dict[int, float] = {}
                for c in cards:
                    if worlds and clock.out_of_time():
                        break
                    values[c] = _runs_through(hands, runner, me, trick, c, winner, clock)
                if len(values) < len(cards):
                    break
                for k, v in values.items():
                    totals[k] += v
                worlds += 1
            if worlds:
                if me == runner:
                    best = max(totals.values())
                    if best / worlds >= DURCHMARSCH_TRY:
                        good = [k for k, v in totals.items() if v >= best - 1e-9]
                        return hint if hint.index in good else CARDS[min(good)]
                else:
                    least = min(totals.values())
                    cards = [k for k, v in totals.items() if v <= least + 1e-9]
        if len(cards) > 1 and RAMSCH_ROLLOUTS:
            cards = self._ramsch_by_rollouts(view, rng, clock, cards, trick)
        return hint if hint.index in cards else CARDS[min(cards)]

    def _ramsch_by_rollouts(self, view: SkatView, rng: random.Random, clock: _Clock,
                            cards: list[int], trick: tuple[int, ...]) -> list[int]:
        """The cards with the best mean Ramsch score over the sampled worlds played out
        (all of ``cards`` when no world was sampled)."""
        me = view.seat
        taken = list(view.points_taken())
        tricks = [0, 0, 0]
        for _, _, w in view.tricks:
            tricks[w] += 1
        leader = view.trick[0][0] if view.trick else view.to_move
        totals = dict.fromkeys(cards, 0.0)
        worlds = 0
        # the rest of the budget (the Durchmarsch question may have used some)
        while clock.more(worlds):
            hands, skat = sample_world(view, rng)
            for c in cards:
                totals[c] += _ramsch_rollout(hands, skat, leader, trick, c, me, taken,
                                             tricks)
            worlds += 1
            if clock.out_of_time():
                break
        best = max(totals.values())
        return [k for k, v in totals.items() if v >= best - 1e-9]

    # --- auction --------------------------------------------------------------------------

    def _bid(self, view: SkatView, rng: random.Random, clock: _Clock) -> Action:
        legal = view.legal_actions
        rules = SkatRules.parse(view.rules)
        plans = self._pickup_plans(view, rng, clock, hand_too=True)
        ladder = [v for v in bidding_ladder(rules) if v >= max(18, view.bid)]
        floor = _pass_value(view, rules)
        limit = 0
        eligible = [res for res in plans.values() if _mean_chance(res) >= MIN_CHANCE]
        best: list[_Result] | None = None
        for v in ladder if eligible else ():
            top = max(eligible, key=lambda res: _cautious_score(res, v, rules))
            if _cautious_score(top, v, rules) > floor:
                limit = v
                best = top
            else:
                break
        action = bid_up_to(legal, view.bid, limit)
        if best is not None and action is not PASS:
            self.estimates.append(("bid", _mean_chance(best)))
        return action

    def _pickup_plans(self, view: SkatView, rng: random.Random, clock: _Clock, *,
                      hand_too: bool) -> dict[_Plan, list[_Result]]:
        """Per plan: (chance won, value, base value) on each sampled world.  Plans are a
        game picked up or played Hand, and :data:`AUTO`: pick up and declare the game the
        heuristic chooses for the Skat of that world.  The discard is chosen per game by
        the heuristic's hand strength."""
        me = view.seat
        hand = view.hand
        rules = SkatRules.parse(view.rules)
        plans: dict[_Plan, list[_Result]] = {}
        worlds = 0
        try_null = null_badness(hand) <= NULL_BADNESS_TRIED
        optimism = self.optimism + AUCTION_OPTIMISM
        least = max(18, view.bid)
        pick_games = _likely_games(hand, least, rules, hand_game=False)
        hand_games = _likely_games(hand, least, rules, hand_game=True) if hand_too else []
        wanted = len(pick_games) + len(hand_games)
        while clock.more(worlds):
            hands, skat = sample_world(view, rng)
            twelve = hand | skat
            res: dict[_Plan, _Result] = {}
            # the game the heuristic would declare with this Skat (plan AUTO): cheap
            heur: dict[GameType, tuple[int, int]] = {}
            auto: tuple[float, GameType] | None = None
            for game in _TRUMP_GAMES:
                keep, away = _discard_for(twelve, game)
                heur[game] = (keep, away)
                p = win_probability(keep, game, bonus=0.06 * card_points(away))
                h_ev = _score(p, _value(game, twelve, hand=False), view.bid,
                              game.base_value, rules)
                if auto is None or h_ev > auto[0]:
                    auto = (h_ev, game)
            assert auto is not None
            asked: dict[GameType, _Result] = {}
            for game in (*pick_games, auto[1]):
                if game in asked:
                    continue
                if clock.out_of_time():  # between solver calls: a half world is dropped
                    break
                keep, away = heur[game]
                asked[game] = _game_result(clock, game, _with(hands, me, keep), me,
                                           card_points(away) + optimism,
                                           _value(game, twelve, hand=False), least)
            for game in pick_games:
                if game in asked:
                    res[(game, False, False)] = asked[game]
            for game in hand_games:
                if clock.out_of_time():
                    break
                res[(game, True, False)] = _game_result(
                    clock, game, hands, me, card_points(skat) + optimism,
                    _value(game, twelve, hand=True), least)
            if len(res) < wanted or auto[1] not in asked or clock.out_of_time():
                break
            auto_result = asked[auto[1]]
            auto_ev = auto[0]
            if try_null:
                keep, _ = _discard_for(twelve, GameType.NULL)
                won_n = _ask_null(clock, _with(hands, me, keep), me)
                res[(GameType.NULL, False, False)] = (_null_chance(won_n, ouvert=False),
                                                      NULL_VALUES[(False, False)], 0)
                res[(GameType.NULL, False, True)] = (_null_chance(won_n, ouvert=True),
                                                     NULL_VALUES[(False, True)], 0)
                p = win_probability(keep, GameType.NULL)
                h_ev = _score(p, NULL_VALUES[(False, False)], view.bid, 0, rules)
                if h_ev > auto_ev:
                    auto_result = res[(GameType.NULL, False, False)]
                if hand_too:
                    won_nh = _ask_null(clock, hands, me)
                    res[(GameType.NULL, True, False)] = (_null_chance(won_nh, ouvert=False),
                                                         NULL_VALUES[(True, False)], 0)
                    res[(GameType.NULL, True, True)] = (_null_chance(won_nh, ouvert=True),
                                                        NULL_VALUES[(True, True)], 0)
                if clock.out_of_time():
                    break
            res[AUTO] = auto_result
            for k, v in res.items():
                plans.setdefault(k, []).append(v)
            worlds += 1
        return plans

    def _hand_or_pickup(self, view: SkatView, rng: random.Random, clock: _Clock) -> Action:
        rules = SkatRules.parse(view.rules)
        plans = self._pickup_plans(view, rng, clock, hand_too=True)
        if not plans:
            return self._fallback.choose(view, rng)
        best_hand = max((_mean_score(r, view.bid, rules) for k, r in plans.items()
                         if k[1] and k != AUTO), default=-math.inf)
        best_pick = max((_mean_score(r, view.bid, rules) for k, r in plans.items()
                         if not k[1]), default=-math.inf)
        return HAND if best_hand > best_pick else PICKUP

    # --- discard and declaration ----------------------------------------------------------

    def _discard(self, view: SkatView, rng: random.Random, clock: _Clock) -> Action:
        twelve = view.hand
        rules = SkatRules.parse(view.rules)
        try_null = null_badness(twelve) <= NULL_BADNESS_TRIED + 2
        legal = {a.cards for a in view.legal_actions if isinstance(a, Discard)}
        # the heuristic's best pairs per game; each pair is asked about the games it was
        # chosen for (DISCARD_PRUNE) or about every game
        every = (*_TRUMP_GAMES, GameType.NULL)
        pair_games: dict[int, list[GameType]] = {}
        for game in every:
            for away in _top_discards(twelve, game, 2):
                if away in legal:
                    pair_games.setdefault(away, []).append(game)
        for away, games in pair_games.items():
            pair_games[away] = [g for g in (games if DISCARD_PRUNE else every)
                                if try_null or g is not GameType.NULL]
        pairs = [p for p, games in pair_games.items() if games]
        if not pairs:
            return self._fallback.choose(view, rng)
        scores: dict[int, dict[tuple[GameType, bool], list[_Result]]] = {
            p: {} for p in pairs}
        worlds = 0
        me = view.seat
        while clock.more(worlds):
            hands, _ = sample_world(view, rng)
            world: dict[int, dict[tuple[GameType, bool], _Result]] = {}
            for away in pairs:
                h = _with(hands, me, twelve & ~away)
                res: dict[tuple[GameType, bool], _Result] = {}
                for game in pair_games[away]:
                    if clock.out_of_time():
                        break
                    if game is GameType.NULL:
                        won_n = _ask_null(clock, h, me)
                        for ouvert in (False, True):
                            res[(game, ouvert)] = (_null_chance(won_n, ouvert=ouvert),
                                                   NULL_VALUES[(False, ouvert)], 0)
                        continue
                    res[(game, False)] = _game_result(
                        clock, game, h, me, card_points(away) + self.optimism,
                        _value(game, twelve, hand=False), view.bid)
                if clock.out_of_time():
                    break
                world[away] = res
            if len(world) < len(pairs):  # out of time in the middle: the world is dropped
                break
            for away, res in world.items():
                for k, v in res.items():
                    scores[away].setdefault(k, []).append(v)
            worlds += 1
            if clock.out_of_time():
                break
        if worlds == 0:
            return self._fallback.choose(view, rng)
        best = max(pairs, key=lambda p: max(_mean_score(r, view.bid, rules)
                                            for r in scores[p].values()))
        return Discard(best)

    def _declare(self, view: SkatView, rng: random.Random, clock: _Clock) -> Action:
        rules = SkatRules.parse(view.rules)
        me = view.seat
        owned_known = view.hand | view.discarded
        picked = bool(view.skat_seen)
        declarations = [a for a in view.legal_actions if isinstance(a, Declare)]
        options = [a for a in declarations if not a.schneider and not a.schwarz
                   and (not a.ouvert or a.game is GameType.NULL)]
        if not options:
            return self._fallback.choose(view, rng)
        # Hand games may announce Schneider, Schwarz or play open: asked about for the
        # game the cards suit best only (each is one more question per world)
        trump_games = [a.game for a in options if a.game is not GameType.NULL]
        if trump_games and not picked:
            likely = max(trump_games, key=lambda g: strength(view.hand, g))
            options += [a for a in declarations if a.game is likely
                        and (a.schneider or a.schwarz or a.ouvert)]
        results: dict[Declare, list[_Result]] = {a: [] for a in options}
        worlds = 0
        while clock.more(worlds):
            hands, skat = sample_world(view, rng)
            away = view.discarded if picked else skat
            owned = owned_known | skat
            got: dict[Declare, _Result] = {}
            null_p: float | None = None
            for a in options:
                if clock.out_of_time():
                    break
                if a.game is GameType.NULL:
                    if null_p is None:
                        null_p = _ask_null(clock, hands, me)
                    got[a] = (_null_chance(null_p, ouvert=a.ouvert), a.null_value, 0)
                elif a.schneider or a.schwarz or a.ouvert:
                    got[a] = (_announced_chance(clock, a, hands, me, card_points(away)),
                              _announced_value(a, owned, rules), a.game.base_value)
                else:
                    got[a] = _game_result(clock, a.game, hands, me,
                                          card_points(away) + self.optimism,
                                          _value(a.game, owned, hand=a.hand), view.bid)
            if len(got) < len(options):  # out of time in the middle: the world is dropped
                break
            for a, r in got.items():
                results[a].append(r)
            worlds += 1
            if clock.out_of_time():
                break
        if worlds == 0:
            return self._fallback.choose(view, rng)
        chosen = max(options, key=lambda a: _mean_score(results[a], view.bid, rules))
        self.estimates.append(("declare", _mean_chance(results[chosen])))
        return chosen


def _mean_chance(results: Sequence[_Result]) -> float:
    """The mean chance of winning over the worlds of a plan."""
    return sum(p for p, _, _ in results) / len(results) if results else 0.0


# --- helpers -------------------------------------------------------------------------------


def _announced_chance(clock: _Clock, a: Declare, hands: tuple[int, int, int],
                      declarer: int, have: int) -> float:
    """The chance of a Hand game with Schneider or Schwarz announced, or open, from a
    full deal: every trick (Schwarz; open, where the rules make open games Schwarz
    announced) or 91 points against open-handed defenders.  Open, the defenders see the
    declarer's cards, so the open-hand answer is nearly the truth."""
    pos = Position(a.game, hands, declarer, 0)
    if a.schwarz or a.ouvert:
        p = clock.ask(lambda n: takes_all(pos, nodes=n))
        return 0.97 if p == 1.0 else 0.05 if p == 0.0 else 0.4
    p = clock.ask(lambda n: reaches(pos, 91 - have, nodes=n))
    return 0.9 if p == 1.0 else 0.1 if p == 0.0 else 0.45


def _announced_value(a: Declare, owned: int, rules: SkatRules) -> int:
    """What an announced (or open) Hand game is worth beyond the same game unannounced,
    counted as if the unannounced game made no Schneider: one level for announcing
    Schneider, two more for Schwarz, one for open (open counts as Schwarz announced where
    the rules say so)."""
    ann_schwarz = a.schwarz or (a.ouvert and rules.announcements)
    extra = 1 + 2 * ann_schwarz + a.ouvert if (a.schneider or ann_schwarz) else a.ouvert
    return a.game.base_value * (abs(matadors(owned, a.game)) + 1 + a.hand + extra)


def _bid_values(view: SkatView) -> list[int]:
    """The highest value each seat said or held in the auction (0: none)."""
    out = [0, 0, 0]
    current = 0
    for seat, said in view.bidding:
        if said.isdigit():
            current = int(said)
        elif said != "hold":
            continue
        out[seat] = max(out[seat], current)
    return out


def _pass_limits(view: SkatView, rules: SkatRules) -> list[int]:
    """Per seat, the lowest value it refused in the auction (0: it never passed): an
    answerer who passed would not hold the value said, a bidder who passed would not say
    the next value of the ladder."""
    ladder = bidding_ladder(rules)
    out = [0, 0, 0]
    current = 0
    prev = ""
    for seat, said in view.bidding:
        if said.isdigit():
            current = int(said)
        elif said == "pass":
            if prev.isdigit():
                out[seat] = current
            else:
                out[seat] = next((v for v in ladder if v > current), current + 1)
        prev = said
    return out


def _world_weight(view: SkatView, hands: tuple[int, int, int], played_by: list[int],
                  said: list[int], rules: SkatRules,
                  refused: list[int] | None = None) -> float:
    """How well a sampled world fits the auction: the declarer's ten cards (those it
    kept) are weighed by the rule-based chance of winning the game declared, a player
    whose ten cards would not bid as high as it did counts less
    (:data:`UNLIKELY_BID`), and, given ``refused`` (:func:`_pass_limits`), so does a
    player who passed at a value its ten cards would have bid (:data:`UNLIKELY_PASS`).
    The weights only shift the mean over the worlds; every world stays possible."""
    game = view.game
    assert game is not None
    w = 1.0
    for s in range(3):
        if s == view.seat or (s == view.declarer and view.ouvert_hand):
            continue
        ten = hands[s] | played_by[s]
        if s == view.declarer:
            w *= max(0.05, win_probability(ten, game))
            continue
        if said[s] or (refused is not None and refused[s]):
            best = best_bid(ten, rules)
            if said[s] and best < said[s]:
                w *= UNLIKELY_BID
            if refused is not None and refused[s] and best >= refused[s]:
                w *= UNLIKELY_PASS
    return w


def world_weigher(view: SkatView, rules: SkatRules, *, passes: bool | None = None
                  ) -> Callable[[tuple[int, int, int]], float]:
    """The weight of a world's hands (as they are now) given what ``view`` shows of the
    auction (:func:`_world_weight`); ``passes``: weigh the passes too (default
    :data:`INFER_PASSES`)."""
    played_by, said = view.played_by(), _bid_values(view)
    refused = _pass_limits(view, rules) if (INFER_PASSES if passes is None else passes) \
        else None

    def weight(hands: tuple[int, int, int]) -> float:
        return _world_weight(view, hands, played_by, said, rules, refused)

    return weight


def _with(hands: tuple[int, int, int], seat: int, cards: int) -> tuple[int, int, int]:
    h = list(hands)
    h[seat] = cards
    return (h[0], h[1], h[2])


def _chance(clock: _Clock, game: GameType, hands: tuple[int, int, int], declarer: int,
            have: int) -> float:
    """The declarer's chance to win ``game`` from a full deal, already holding ``have``
    card points (the Skat), from what the open-hand search says: the declarer reaching
    61 or only 53 against open-handed defenders (:data:`CHANCE_BY_POINTS`)."""
    pos = Position(game, hands, declarer, 0)
    for i, (points, chance) in enumerate(CHANCE_BY_POINTS):
        target = points - have

        def question(n: int, t: int = target) -> bool:
            return reaches(pos, t, nodes=n)

        p = clock.ask(question)
        if p == 1.0:
            return chance
        if p == 0.5:  # the search gave up: close to this threshold
            return GAVE_UP_CHANCE[i] if GAVE_UP_CHANCE else chance / 2 + 0.25
    return CHANCE_BELOW


def _game_result(clock: _Clock, game: GameType, hands: tuple[int, int, int],
                 declarer: int, have: int, value: int, bid: int) -> _Result:
    """A suit game's or Grand's result on one world (:data:`_Result`): its chance by
    :func:`_chance`, except that a game whose ``value`` is below ``bid`` is not asked
    about — it is an overbid whatever its chance (:func:`_score`), so 0."""
    won = _chance(clock, game, hands, declarer, have) if value >= bid else 0.0
    return (won, value, game.base_value)


def _ask_null(clock: _Clock, hands: tuple[int, int, int], declarer: int) -> float:
    """Whether a Null is won from a full deal against open-handed defenders: 1.0, 0.0,
    or 0.5 when the search gave up."""
    pos = Position(GameType.NULL, hands, declarer, 0)
    return clock.ask(lambda n: null_won(pos, nodes=n))


def _null_chance(won: float, *, ouvert: bool) -> float:
    """A Null's chance in play from the open-hand answer ``won`` (1.0, 0.0 or 0.5):
    :data:`NULL_CHANCE`, or :data:`NULL_OUVERT_CHANCE` for Null Ouvert."""
    lost_p, won_p = NULL_OUVERT_CHANCE if ouvert else NULL_CHANCE
    return lost_p + won * (won_p - lost_p)


def _value(game: GameType, owned: int, *, hand: bool) -> int:
    return game.base_value * (abs(matadors(owned, game)) + 1 + hand)


def _score(p: float, value: int, bid: int, game_base: int, rules: SkatRules) -> float:
    """Expected list score of a game won with chance ``p``, worth ``value``, at ``bid``."""
    if value < bid:
        if game_base == 0:  # Null
            if rules.null_overbid == "refused":
                return -1e6  # cannot be declared
            return -2.0 * min((v for v in NULL_VALUES.values() if v >= bid), default=118)
        return -2.0 * overbid_value(game_base, bid)
    return p * value - (1.0 - p) * 2.0 * value


def _mean_score(results: Sequence[_Result], bid: int, rules: SkatRules) -> float:
    """Expected list score of a plan at ``bid``."""
    if not results:
        return -math.inf
    total = 0.0
    for p, value, base in results:
        total += _score(p, value, bid, base, rules)
    return total / len(results)


def _cautious_score(results: Sequence[_Result], bid: int, rules: SkatRules) -> float:
    """:func:`_mean_score` less :data:`BID_SE` standard errors of the mean."""
    mean = _mean_score(results, bid, rules)
    n = len(results)
    if BID_SE == 0.0 or n < 2:
        return mean
    var = sum((_score(p, value, bid, base, rules) - mean) ** 2
              for p, value, base in results) / (n - 1)
    return mean - BID_SE * math.sqrt(var / n)


def _likely_games(hand: int, least: int, rules: SkatRules, *,
                  hand_game: bool) -> list[GameType]:
    """The suit games and Grand worth asking the solver about in the auction: the
    :data:`PLAN_TOP` best by the rule-based expected score at ``least`` (all five when
    it is 0), from these ten cards, picking up (with the usual bonus for the Skat) or
    playing Hand."""
    if not 0 < PLAN_TOP < len(_TRUMP_GAMES):
        return list(_TRUMP_GAMES)

    def key(game: GameType) -> float:
        p = win_probability(hand, game, bonus=0.0 if hand_game else PICKUP_BONUS)
        return _score(p, _value(game, hand, hand=hand_game), least, game.base_value, rules)

    return sorted(_TRUMP_GAMES, key=key, reverse=True)[:PLAN_TOP]


def _pass_value(view: SkatView, rules: SkatRules) -> float:
    """What passing is expected to score: 0 when somebody else will play; where
    everybody passing means Ramsch and nobody has bid yet, a share of the Ramsch this
    hand would likely lose (its points and jacks)."""
    if rules.all_pass != "ramsch" or view.bid > 0:
        return 0.0
    lose = min(0.9, max(0.05, 0.2 + 0.6 * (ramsch_danger(view.hand) - 0.5)))
    return -RAMSCH_SHARE * lose * RAMSCH_LOSS


def _discard_key(rest: int, away: int, game: GameType) -> float:
    if game is GameType.NULL:
        return -null_badness(rest)
    return strength(rest, game) + 0.06 * card_points(away)


def _top_discards(twelve: int, game: GameType, k: int) -> list[int]:
    scored = []
    for a, b in combinations(bits(twelve), 2):
        away = 1 << a | 1 << b
        scored.append((_discard_key(twelve & ~away, away, game), away))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [away for _, away in scored[:k]]


def _discard_for(twelve: int, game: GameType) -> tuple[int, int]:
    away = _top_discards(twelve, game, 1)[0]
    return twelve & ~away, away


def _card_utility(game: GameType, contract: Declare, hands: tuple[int, int, int],
                  declarer: int, me: int, trick: tuple[int, ...], card: int, base: int,
                  winner: Callable[[Sequence[int]], int], clock: _Clock) -> float:
    """The declarer's utility if ``me`` plays ``card`` in this world: 1 for a won game,
    +0.3 for Schneider, −0.3 for being Schneider; Null: 1 if still won."""
    h = list(hands)
    h[me] &= ~(1 << card)
    new_trick = (*trick, card)
    nxt = (me + 1) % 3
    gain = 0
    if len(new_trick) == 3:
        w = (me + 1 + winner(new_trick)) % 3
        if w == declarer:
            if game is GameType.NULL:
                return 0.0
            gain = sum(CARDS[c].points for c in new_trick)
        new_trick = ()
        nxt = w
    hands3 = (h[0], h[1], h[2])
    if not any(hands3):  # the last trick is done
        if game is GameType.NULL:
            return 1.0
        return _threshold_utility(base + gain, contract, lambda t: 1.0 if t <= 0 else 0.0)
    pos = Position(game, hands3, declarer, nxt, new_trick)
    if game is GameType.NULL:
        return clock.ask(lambda n: null_won(pos, nodes=n))
    have = base + gain
    if contract.schwarz:
        return clock.ask(lambda n: takes_all(pos, nodes=n))
    return _threshold_utility(have, contract,
                              lambda t: clock.ask(lambda n: reaches(pos, t, nodes=n)))


def _runs_through(hands: tuple[int, int, int], runner: int, me: int, trick: tuple[int, ...],
                  card: int, winner: Callable[[Sequence[int]], int], clock: _Clock) -> float:
    """Ramsch: the chance (1, 0, or 0.5 when the solver gives up) that ``runner`` still
    takes every trick after ``me`` plays ``card`` in this world."""
    h = list(hands)
    h[me] &= ~(1 << card)
    new_trick = (*trick, card)
    nxt = (me + 1) % 3
    if len(new_trick) == 3:
        w = (me + 1 + winner(new_trick)) % 3
        if w != runner:
            return 0.0
        new_trick = ()
        nxt = w
    hands3 = (h[0], h[1], h[2])
    if not any(hands3):
        return 1.0
    pos = Position(GameType.GRAND, hands3, runner, nxt, new_trick)
    return clock.ask(lambda n: takes_all(pos, nodes=n))


_POINTS = tuple(c.points for c in CARDS)
_RAMSCH = TABLES[GameType.RAMSCH]


def _ramsch_card(hand: int, trick: tuple[int, ...]) -> int:
    """The rule-based Ramsch card on the cards alone (no view): lead the lowest card of
    a plain suit worth least; follow as :func:`stich.bots.play.ramsch_follow`."""
    t = _RAMSCH
    if trick:
        led = trick[0]
        best = led
        for x in trick[1:]:
            if t.beats(x, best, led):
                best = x
        return ramsch_follow(t.follow[led] & hand or hand, best, led, last=len(trick) == 2)
    trump, pts, st = t.trump, _POINTS, t.strength
    return min(bits(hand), key=lambda c: (trump >> c & 1, pts[c], st[c]))


def _ramsch_rollout(hands: tuple[int, int, int], skat: int, leader: int,
                    trick: tuple[int, ...], card: int, me: int, taken: Sequence[int],
                    tricks: Sequence[int]) -> float:
    """``me``'s Ramsch score after playing ``card`` in this world, every card after it
    played by :func:`_ramsch_card`: +120 for a Durchmarsch, minus the points of the
    player with the most (the earlier seat on a tie), else 0."""
    h = list(hands)
    pts = list(taken)
    won = list(tricks)
    winner_of = _RAMSCH.winner
    points = _POINTS
    h[me] &= ~(1 << card)
    cur = [*trick, card]
    turn = (me + 1) % 3
    while True:
        if len(cur) == 3:
            leader = turn = (leader + winner_of(cur)) % 3
            pts[leader] += points[cur[0]] + points[cur[1]] + points[cur[2]]
            won[leader] += 1
            cur = []
            if not h[leader]:
                break
        c = _ramsch_card(h[turn], tuple(cur))
        h[turn] &= ~(1 << c)
        cur.append(c)
        turn = (turn + 1) % 3
    pts[leader] += card_points(skat)  # the Skat goes to the last trick's winner
    if won[me] == 10:
        return 120.0
    if max(won) == 10:
        return 0.0
    most = max(pts)
    loser = pts.index(most)
    return -float(most) if loser == me else 0.0


def _threshold_utility(have: int, contract: Declare, can: Callable[[int], float]) -> float:
    need = 91 if contract.schneider else 61
    p = can(need - have)
    if p == 1.0:
        return 1.0 + (0.3 * can(91 - have) if need == 61 else 0.0)
    if p == 0.0:
        return -0.3 * (1.0 - can(31 - have))
    return p  # the search gave up: a close position
