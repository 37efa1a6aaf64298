"""A Baptistenskat search bot (``strong``): determinized rollouts over sampled worlds.

Every decision samples *worlds* — places for the cards this seat cannot see that agree
with its view — builds the round in each with the engine
(:func:`stich.baptisten.position.round_position`) and plays it out to the end with a fast
rule-based policy for every seat (:class:`RolloutPolicy`).

- **Sampler** (:func:`sample_hands`): the unseen cards go to the other hands and to the
  rest of the deck, keeping each hand's size, the cards played, the cards seen on
  foreheads, the turned trump card (on the rest of the deck), the voids shown by not
  following suit (the joker played to a fixed suit shows a void too) and, under
  must-overtrump, the higher trumps a seat showed it lacks; every such world is equally
  likely (:class:`stich.worlds.Deal`, exact, as the Skat search bot's).  The bids said
  tell where the high cards are: every world counts with a weight, per seat that has bid
  a floor plus a Gaussian of its bid around the trick estimate of its hand
  (:func:`hand_estimate`; :data:`BID_SIGMA`, fitted on the rule-based bot's bids, and
  :data:`BID_FLOOR`); :func:`belief_gain` measures what that knows.
- **Bid**: in each world the bids not yet said are guessed from the hand estimate, and the
  round is played out once per candidate bid (the bids near the estimate that the hook
  rule allows: the legal actions exclude the hooked bid) with the bot's own seat aiming at
  that bid; the bid most often hit is said (under trick scoring: the best expected score).
- **Stake**: by the expected points ``s · (2p − 1)``, ``p`` the weighted share of worlds
  in which the bid was hit: the highest plain stake above :data:`STAKE_EVEN` (where the
  bot's bids were exact half the time), the lowest below; a mandatory 40 when this round
  is among the surest still to come: ``p`` above a bar that falls as the rounds with 3+
  cards run out (:func:`forty_bar`).
- **Forehead rounds** (one card, seen on the others' foreheads): every card the bot may
  carry is tried against the cards it sees (exact, no sampling); each is weighted by how
  well the bids already said fit it — the others saw the bot's card, and their bids are
  compared with what the rule-based bot would have said in their place.
- **Card play**: each legal card is played in every world and the round played out; the
  card with the best mean round score for the bot is played (minus a tenth of the others'
  mean score: spoiling costs nothing when it ties).  All cards share the same worlds.
- **Time**: anytime (:mod:`stich.bots.clock`, shared with the Skat search bot).  Worlds
  are sampled until ``budget`` seconds are used (default
  :data:`DEFAULT_BUDGET` for a card, ``bid_factor`` times that for a bid) and at least
  ``min_worlds`` are done, never beyond ``hard_cap`` (at most :data:`HARD_CAP`).  A single
  legal action is returned at once.  ``timer`` may be injected (tests), ``max_worlds``
  fixes the number of worlds.

Known weaknesses: the rollout policy is crude (it wins with its highest card while it
needs tricks, ducks with its highest loser once it has enough) and models every player
the same way; each world is played as if its cards were known (strategy fusion); the bid
weighting uses a rough per-card estimate.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Sequence
from functools import lru_cache

from stich.baptisten.actions import BAction, BBid
from stich.baptisten.lookup import deck_tables
from stich.baptisten.position import round_position
from stich.baptisten.rules import BaptistenRules
from stich.baptisten.state import BaptistenState, BPhase
from stich.baptisten.view import BaptistenView
from stich.bots.baptisten import BaptistenHeuristicBot, beats, trick_winner
from stich.bots.clock import HARD_CAP, WorldClock, check_budget
from stich.cards import PlainCard, PlainDeck, bits
from stich.core import ArgumentError
from stich.messages import Seat
from stich.worlds import Deal, NoDeal

__all__ = ["BaptistenStrongBot", "DEFAULT_BUDGET", "HARD_CAP", "Knowledge", "RolloutPolicy",
           "belief_gain", "forty_bar", "hand_estimate", "sample_hands", "weighted_share"]

DEFAULT_BUDGET = 0.05
"""Seconds per card decision by default (a bid gets ``bid_factor`` times as much): with
0.02 s the bot hit 62.7 % of its bids at 4 players (N = 10), with 0.05 s more (docs/bots.md)."""
_CANDIDATE_WORLDS = 3  # WEIGHTED_WORLDS off: worlds drawn to keep one by the bids' fit
WEIGHTED_WORLDS = True
"""Every sampled world counts with the fit of the said bids as its weight (importance
sampling); off: one of three sampled worlds is kept by that fit (the bot until 2026-12)."""
BID_SIGMA = (0.3, 0.07)
"""The spread of a said bid around the bidder's hand estimate, ``a + b · cards``: fitted
on the rule-based bot's bids (4 players, N = 10: sd 0.31 with 2 cards … 0.97 with 10;
``bench/tuning/baptisten_bid_model.py``). Until 2026-12 it was (0.8, 0.12), twice as wide."""
STAKE_EVEN: float | None = 0.42
"""A plain stake by the expected points ``s · (2p − 1)`` (exact: +s, else −s): the highest
when the bot's chance of being exact is above this (the chance at which its bids were
exact half the time: at 48 worlds a decision, bids it gave 0.36 were exact 47 % of the
time, 0.45 52 %), the lowest below.  None: the ramp used until 2026-12, 1 at ``p`` ≤
0.45 rising to 20 at ``p`` ≥ 0.6."""
BID_FLOOR = 0.05
"""The least weight one seat's bid gives a world: a player who bids unlike the model
makes worlds unlikely, never impossible."""
_SPOIL = 0.1


@lru_cache(maxsize=64)
def _rules(text: str) -> BaptistenRules:
    return BaptistenRules.parse(text)


# --- what the view tells ----------------------------------------------------------------


class Knowledge:
    """What one seat knows about the places of the cards in the round in play.

    ``sizes``: cards each seat holds now; ``known``: per seat the hand when the view
    shows it (own hand, or a card seen on a forehead), else None; ``unseen``: the cards
    whose place is unknown; ``forbidden``: per seat the cards it cannot hold (shown voids
    and, under must-overtrump, trumps higher than one it played under); ``rest``: how
    many unseen cards lie on the rest of the deck; ``played_by``: per seat the cards it
    played this round; ``deal``: the ways to deal the unseen cards, once
    :func:`sample_hands` has been asked."""

    def __init__(self, view: BaptistenView) -> None:
        self.view = view
        self.rules = rules = _rules(view.rules)
        self.deck = deck = rules.card_deck
        self.n = n = rules.players
        self.trump = view.trump
        done = len(view.round_tricks)
        in_trick = {s for s, _ in view.trick}
        self.sizes = [view.cards - done - (1 if p in in_trick else 0) for p in range(n)]
        self.played_by = [0] * n
        forehead = view.forehead
        self.known: list[int | None] = [None] * n
        if not forehead:
            self.known[view.seat] = view.hand
        for p, h in enumerate(view.others):
            if h:
                self.known[p] = h
        known = view.known_cards()
        whole = view.cards * n >= deck.size and rules.trump_card == "baptisten"
        if not whole:  # the turned card lies on the rest of the deck
            known |= 1 << view.trump_card
        self.unseen = deck.full_mask & ~known
        self.forbidden = [0] * n
        self.deal: Deal | None = None  # the deals of the unseen cards (sample_hands)
        self._read_tricks()
        hidden = sum(self.sizes[p] for p in range(n) if self.known[p] is None)
        self.rest = self.unseen.bit_count() - hidden
        if self.rest < 0:
            raise _inconsistent(view)

    def _read_tricks(self) -> None:
        view, n = self.view, self.n
        t = deck_tables(self.rules.deck)
        suit_of, rank_of = t.suit_of, t.rank_of
        tricks = [(leader, cards) for leader, cards, _ in view.round_tricks]
        if view.trick:
            tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
        overtrump = self.rules.must_overtrump
        for leader, cards in tricks:
            led = -1
            for i, c in enumerate(cards):
                p = (leader + i) % n
                self.played_by[p] |= 1 << c
                s = suit_of[c]
                if led < 0:
                    led = s
                    continue
                if s != led:
                    self.forbidden[p] |= t.suit_masks[led]
                elif overtrump and led == self.trump:
                    best = max(rank_of[x] for x in cards[:i] if suit_of[x] == led)
                    if rank_of[c] < best:
                        self.forbidden[p] |= t.at_least[led][best]


def _inconsistent(view: BaptistenView) -> ArgumentError:
    return ArgumentError("bots.inconsistent_view",
                         seat=Seat(view.seat, len(view.bids), named=False), phase=view.phase)


def sample_hands(k: Knowledge, rng: random.Random) -> list[int]:
    """Every seat's hand now in one world that agrees with ``k`` (hands the view shows
    are kept; nobody gets a card it showed it cannot hold), every such world equally
    likely (:class:`stich.worlds.Deal`)."""
    slots = [p for p in range(k.n) if k.known[p] is None]
    if k.deal is None:  # the same for every world of this view
        caps = [k.sizes[p] for p in slots]
        allowed = [k.unseen & ~k.forbidden[p] for p in slots]
        if k.rest:
            caps.append(k.rest)
            allowed.append(k.unseen)
        try:
            k.deal = Deal(k.unseen, caps, allowed)
        except NoDeal:
            raise _inconsistent(k.view) from None
    try:
        out = k.deal.draw(rng)
    except NoDeal:
        raise _inconsistent(k.view) from None
    hands = [h if h is not None else 0 for h in k.known]
    for j, p in enumerate(slots):
        if p >= 0:
            hands[p] = out[j]
    return hands


# --- a rough trick estimate per card (for the bids of the others) ------------------------


@lru_cache(maxsize=256)
def _card_values(deck_name: str, trump: int, players: int) -> tuple[float, ...]:
    """Per card: a rough expected share of a trick, scaled so that an average hand
    expects its fair share (cards ÷ players)."""
    t = deck_tables(deck_name)
    deck = t.deck
    raw = []
    for c in range(deck.size):
        if t.suit_of[c] < 0:
            raw.append(1.0)
            continue
        stays = sum(1 for x in range(deck.size) if x != c and not beats(deck, x, c, trump))
        raw.append((stays / (deck.size - 1)) ** (players - 1))
    mean = sum(raw) / len(raw)
    scale = (1 / players) / mean if mean > 0 else 1.0
    return tuple(min(1.0, v * scale) for v in raw)


def hand_estimate(deck: PlainDeck, trump: int, players: int, hand: int) -> float:
    """A rough number of tricks ``hand`` takes (the sum of its cards' values).

    >>> from stich.cards import plain_deck
    >>> d = plain_deck("skat")
    >>> top = sum(c.bit for c in d.cards if c.suit == 0)
    >>> hand_estimate(d, 0, 4, top) > hand_estimate(d, 0, 4, top ^ (top & -top) << 1) > 0
    True
    """
    values = _card_values(deck.name, trump, players)
    return sum(values[c] for c in bits(hand))


def _bid_fit(k: Knowledge, hands: Sequence[int]) -> float:
    """How well the said bids of the others fit a world: per seat ``BID_FLOOR`` plus a
    Gaussian of the bid around the hand's trick estimate (:data:`BID_SIGMA`)."""
    view = k.view
    a, b = BID_SIGMA
    sigma = a + b * view.cards
    w = 1.0
    for p, bid in enumerate(view.bids):
        if bid < 0 or p == view.seat:
            continue
        est = hand_estimate(k.deck, k.trump, k.n, hands[p] | k.played_by[p])
        w *= BID_FLOOR + math.exp(-(bid - est) ** 2 / (2 * sigma * sigma))
    return w


def _world(k: Knowledge, rng: random.Random) -> tuple[list[int], float]:
    """A sampled world and its weight by the fit of the said bids (:data:`WEIGHTED_WORLDS`;
    off: one of a few sampled worlds kept by that fit, weight 1)."""
    if not any(b >= 0 for p, b in enumerate(k.view.bids) if p != k.view.seat):
        return sample_hands(k, rng), 1.0
    if WEIGHTED_WORLDS:
        hands = sample_hands(k, rng)
        return hands, _bid_fit(k, hands)
    pool = [sample_hands(k, rng) for _ in range(_CANDIDATE_WORLDS)]
    weights = [_bid_fit(k, h) for h in pool]
    if sum(weights) <= 0:
        return pool[0], 1.0
    return rng.choices(pool, weights)[0], 1.0


def belief_gain(view: BaptistenView, hands: Sequence[int], rng: random.Random,
                samples: int = 100) -> float:
    """What the fit of the said bids knows about the true cards: ``log w(true) − log E[w]``
    (natural log), ``hands`` the true hands now and ``E[w]`` the mean weight of
    ``samples`` sampled worlds.  Above 0 the weighted worlds put more belief on the truth
    than the plain sampler, below 0 less (as for Skat: :mod:`stich.bots.inference`)."""
    if samples < 1:
        raise ArgumentError("bots.few_samples", given=samples)
    k = Knowledge(view)
    w_true = _bid_fit(k, hands)
    if w_true <= 0:
        return -math.inf
    mean = sum(_bid_fit(k, sample_hands(k, rng)) for _ in range(samples)) / samples
    return math.log(w_true) - math.log(mean)


def weighted_share(hits: float, weight: float, squares: float) -> float:
    """The chance of a hit from weighted worlds (``hits``: the weight of the worlds hit,
    ``weight`` and ``squares``: the sum of the weights and of their squares), shrunk
    towards 1/2 by one world of the effective sample size ``weight² / squares``.

    >>> weighted_share(3.0, 4.0, 4.0), weighted_share(0.0, 0.0, 0.0)
    (0.7, 0.5)
    """
    if weight <= 0:
        return 0.5
    ess = weight * weight / squares
    return (hits / weight * ess + 0.5) / (ess + 1)


# --- the rollout policy -----------------------------------------------------------------


class RolloutPolicy:
    """The fast rule-based play of every seat in a rollout, on the engine state: while a
    seat needs tricks it leads its strongest card and wins a trick with its highest card
    of the led suit (the lowest winner when it plays last or must trump); once it has
    enough it leads its weakest card and plays its highest card that does not win."""

    def __init__(self, deck: PlainDeck, trump: int, trick_scoring: bool) -> None:
        t = deck_tables(deck.name)
        self.deck = deck
        self.cards = deck.cards
        self.trump = trump
        self.trick_scoring = trick_scoring
        self.suit_of = t.suit_of
        self.strength = tuple(
            10_000 if t.suit_of[c] < 0 else (1000 if t.suit_of[c] == trump else 0)
            + t.rank_of[c] for c in range(deck.size))

    def __call__(self, st: BaptistenState) -> PlainCard:
        legal = st.legal_cards()
        cards = self.cards
        if not legal & (legal - 1):
            return cards[legal.bit_length() - 1]
        seat = st.to_move
        need = st.bids[seat] - st.tricks_won[seat]
        left = st.hands[seat].bit_count()
        want = need > 0 if 0 <= need <= left else self.trick_scoring
        idx = list(bits(legal))
        key = self.strength.__getitem__
        trick = st.trick
        if not trick:
            return cards[max(idx, key=key) if want else min(idx, key=key)]
        deck, trump = self.deck, self.trump
        best = trick[trick_winner(deck, trick, trump)]
        win = [c for c in idx if beats(deck, c, best, trump)]
        last = len(trick) == st.players - 1
        if want:
            if not win:
                return cards[min(idx, key=key)]
            if last:
                return cards[min(win, key=key)]
            led = [c for c in win if self.suit_of[c] == st.follow_suit]
            return cards[max(led, key=key) if led else min(win, key=key)]
        lose = [c for c in idx if c not in win]
        if lose:
            return cards[max(lose, key=key)]
        return cards[max(idx, key=key) if last else min(idx, key=key)]


def _play_out(st: BaptistenState, policy: RolloutPolicy) -> BaptistenState:
    """The round played to its end (the position's game ends with it)."""
    play = BPhase.PLAY
    while st.phase is play:
        st = st.apply(policy(st))
    return st


# --- stakes -----------------------------------------------------------------------------


def forty_bar(owed: int, left: int) -> float:
    """The chance of being exact above which a mandatory 40 is staked now, with ``owed``
    40s still to stake and ``left`` rounds with 3+ cards to come (this one included).

    >>> forty_bar(3, 15) > forty_bar(3, 5) > forty_bar(1, 1)
    True
    """
    return 0.85 - 0.35 * min(1.0, owed / max(left, 1))


def _stake(view: BaptistenView, stakes: Sequence[int], p: float) -> int:
    if list(stakes) == [40]:
        return 40
    if 40 in stakes:
        sched = _rules(view.rules).schedule()
        left = sum(1 for c in sched[view.round_no - 1:] if c >= 3)
        if p >= forty_bar(view.owed[view.seat], left):
            return 40
    plain = [s for s in stakes if s != 40]
    if STAKE_EVEN is not None:  # the expected points s · (2p − 1), p calibrated
        return max(plain) if p > STAKE_EVEN else min(plain)
    want = round(1 + 19 * min(1.0, max(0.0, (p - 0.45) / 0.15)))
    return min(plain, key=lambda s: abs(s - want))


# --- the bot ----------------------------------------------------------------------------


class BaptistenStrongBot:
    """The search bot.  ``budget``: seconds per card decision (anytime); ``bid_factor``:
    a bid gets that many budgets; ``min_worlds``: worlds played out at least (time
    permitting); ``max_worlds``: a fixed number of worlds instead of the budget (for
    reproducible tests; :class:`~stich.bots.clock.WorldClock`); ``hard_cap``: the most
    any decision may take (at most 1.5 s); ``timer``: the clock
    (``time.perf_counter``)."""

    name = "strong"

    def __init__(self, budget: float = DEFAULT_BUDGET, *, bid_factor: float = 4.0,
                 min_worlds: int = 2, max_worlds: int | None = None,
                 hard_cap: float = HARD_CAP,
                 timer: Callable[[], float] = time.perf_counter) -> None:
        check_budget(budget, hard_cap)
        if bid_factor <= 0:
            raise ArgumentError("bots.bad_budget", budget=budget, most=HARD_CAP)
        self.budget = budget
        self.bid_factor = bid_factor
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.hard_cap = hard_cap
        self.timer = timer
        self.worlds = 0  # worlds played out for the last decision
        self.ratings: dict[int, float] = {}  # the last bid: its rating of each bid tried
        # per bid said (one a round, in order): the chance it gave that bid of being
        # exact (None: the only bid allowed), for the arena's calibration table
        self.estimates: list[float | None] = []
        self._easy = BaptistenHeuristicBot()

    def _clock(self, factor: float = 1.0) -> WorldClock:
        return WorldClock(min(self.budget * factor, self.hard_cap), self.hard_cap,
                      self.min_worlds, self.max_worlds, self.timer)

    def choose(self, view: BaptistenView, rng: random.Random) -> BAction:
        legal = view.legal_actions
        if not legal:
            raise ArgumentError("bots.nothing_to_do",
                                seat=Seat(view.seat, len(view.bids), named=False),
                                phase=view.phase)
        self.worlds = 0
        if len(legal) == 1:
            if view.phase == "BIDDING":
                self.estimates.append(None)
            return legal[0]
        local = random.Random(rng.getrandbits(64))
        action: BAction
        if view.phase == "BIDDING":
            clock = self._clock(self.bid_factor)
            if view.forehead:
                action = self._forehead_bid(view, local, clock)
            else:
                action = self._bid(view, local, clock)
        else:
            action = self._play(view, local, self._clock())
        if action not in legal:  # a safety net: never an illegal action
            return self._easy.choose(view, rng)
        return action

    # --- bidding -------------------------------------------------------------------------

    def _bid(self, view: BaptistenView, rng: random.Random, clock: WorldClock) -> BAction:
        k = Knowledge(view)
        rules = k.rules
        bids = [a for a in view.legal_actions if isinstance(a, BBid)]
        allowed = sorted({b.tricks for b in bids})
        est = hand_estimate(k.deck, k.trump, k.n, view.hand)
        near = [t for t in allowed if abs(t - est) <= 2.5]
        if not near:
            near = sorted(allowed, key=lambda t: abs(t - est))[:2]
        policy = RolloutPolicy(k.deck, k.trump, rules.trick_scoring)
        me = view.seat
        hits = dict.fromkeys(near, 0.0)
        score = dict.fromkeys(near, 0.0)
        done = 0
        weight = squares = 0.0
        while clock.more(done):
            hands, w = _world(k, rng)
            guess = [b if b >= 0 else min(view.cards, round(hand_estimate(
                k.deck, k.trump, k.n, hands[p]))) for p, b in enumerate(view.bids)]
            for t in near:
                guess[me] = t
                end = _play_out(round_position(view, hands, guess), policy)
                row = end.sheet[-1]
                if row.tricks[me] == t:
                    hits[t] += w
                if rules.trick_scoring:
                    score[t] += w * row.scores[me]
            done += 1
            weight += w
            squares += w * w
        self.worlds = done

        def worth(t: int) -> tuple[float, float]:
            value = score[t] if rules.trick_scoring else hits[t]
            return (value, -abs(t - est))

        self.ratings = {t: worth(t)[0] / weight if weight > 0 else 0.0 for t in near}
        best = max(near, key=worth)
        p = weighted_share(hits[best], weight, squares)
        self.estimates.append(p)
        stakes = sorted({b.stake for b in bids if b.tricks == best and b.stake is not None})
        if not stakes:
            return next(b for b in bids if b.tricks == best)
        stake = _stake(view, stakes, p)
        return next(b for b in bids if b.tricks == best and b.stake == stake)

    def _forehead_bid(self, view: BaptistenView, rng: random.Random,
                      clock: WorldClock) -> BAction:
        """One card on one's own forehead: try every card one may carry against the cards
        seen, weighted by how the bids said fit it."""
        k = Knowledge(view)
        rules = k.rules
        me, n, first = view.seat, k.n, view.first
        order = [(first + i) % n for i in range(n)]
        cands = list(bits(k.unseen))
        rng.shuffle(cands)
        said = order[:order.index(me)]
        seen = [view.others[p].bit_length() - 1 for p in order]
        mine = order.index(me)

        def wins_with(c: int) -> bool:
            trick = seen[:mine] + [c] + seen[mine + 1:]
            return trick_winner(k.deck, trick, k.trump) == mine

        won = {c: wins_with(c) for c in cands}
        p_plain = sum(won.values()) / len(cands) if cands else 0.5
        # weight the cards by the bids said, as long as the clock allows (a random
        # subset of the cards), shrunk towards the plain chance when few were weighted
        wins = total = 0.0
        done = 0
        for c in cands if said else ():
            if done and not clock.more(done):
                break
            w = 1.0
            for q in said:
                w *= 1.0 if self._easy_bid(view, q, c) == view.bids[q] else 0.15
            wins += w * won[c]
            total += w
            done += 1
        self.worlds = done
        p_win = (wins + 2 * p_plain) / (total + 2)
        bids = [a for a in view.legal_actions if isinstance(a, BBid)]

        def worth(t: int) -> float:
            p_exact = p_win if t == 1 else 1 - p_win
            if rules.trick_scoring:
                bonus = rules.exact_zero_bonus if t == 0 else rules.exact_bonus
                return rules.points_per_trick * p_win + bonus * p_exact
            return p_exact

        best = max(sorted({b.tricks for b in bids}), key=worth)
        p = p_win if best == 1 else 1 - p_win
        self.estimates.append(p)
        stakes = sorted({b.stake for b in bids if b.tricks == best and b.stake is not None})
        if not stakes:
            return next(b for b in bids if b.tricks == best)
        stake = _stake(view, stakes, p)
        return next(b for b in bids if b.tricks == best and b.stake == stake)

    def _easy_bid(self, view: BaptistenView, q: int, mine: int) -> int:
        """The bid the rule-based bot would have said in seat ``q`` if this seat carries
        card ``mine`` (seat ``q`` saw it; the bids before ``q`` as they were)."""
        n = len(view.bids)
        order = [(view.first + i) % n for i in range(n)]
        before = set(order[:order.index(q)])
        bids = tuple(b if p in before else -1 for p, b in enumerate(view.bids))
        stakes = tuple(s if p in before else None for p, s in enumerate(view.stakes))
        others = tuple(0 if p == q else (1 << mine if p == view.seat else view.others[p])
                       for p in range(n))
        rules = _rules(view.rules)
        plain: tuple[int | None, ...] = (None,) if rules.trick_scoring else tuple(range(1, 21))
        legal = tuple(BBid(t, s) for t in (0, 1) for s in plain)
        v = dataclasses.replace(view, seat=q, to_move=q, others=others, bids=bids,
                                stakes=stakes, hooked=None, legal_actions=legal)
        action = self._easy.choose(v, random.Random(0))
        return action.tricks if isinstance(action, BBid) else -1

    # --- card play -----------------------------------------------------------------------

    def _play(self, view: BaptistenView, rng: random.Random, clock: WorldClock) -> BAction:
        k = Knowledge(view)
        cards = [a for a in view.legal_actions if isinstance(a, PlainCard)]
        policy = RolloutPolicy(k.deck, k.trump, k.rules.trick_scoring)
        me, n = view.seat, k.n
        total = dict.fromkeys(cards, 0.0)
        done = 0
        while clock.more(done):
            hands, w = _world(k, rng)
            pos = round_position(view, hands)
            for c in cards:
                row = _play_out(pos.apply(c), policy).sheet[-1]
                others = (sum(row.scores) - row.scores[me]) / (n - 1)
                total[c] += w * (row.scores[me] - _SPOIL * others)
            done += 1
        self.worlds = done
        # ties: the rule-based bot's card first
        prefer = self._easy.choose(view, rng)
        return max(cards, key=lambda c: (total[c], c == prefer))
