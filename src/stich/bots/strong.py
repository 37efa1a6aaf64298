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
  ever lands with a seat that showed a void in its group.  The auction is not used.
- **Card play** (suit games, Grand, Null): for each world and each legal card, zero-window
  questions to the solver after that card: does the declarer still reach 61 (91 when
  Schneider was announced; every trick when Schwarz was), reach 91 (Schneider), stay
  above 30 (no Schneider against him)?  In Null: does the declarer still avoid every
  trick?  The card with the best mean over the worlds for the seat's side is played
  (ties: the heuristic bot's card).  Anytime: worlds are sampled until the time budget
  (default 0.3 s) is used and at least ``min_worlds`` are done, never beyond
  ``hard_cap`` (at most 1.5 s).
- **Ramsch**: the solver has no declarer there, so ``strong`` plays Ramsch exactly like
  the heuristic bot (:func:`stich.bots.play.choose_card`).
- **Bidding, Hand or Skat, the discard, the declaration**: each candidate game (the four
  suit games and Grand, Null and Null Ouvert; Hand variants when deciding Hand) is scored
  on sampled worlds by the solver ("declarer reaches 61?", "Null won?") and valued by
  :func:`stich.bots.skat_eval.game_value` over the cards it will own; the expected list
  score at a bid is ``p·value − (1−p)·2·value``, an overbid costs twice the overbid value.
  Bidding: the bot holds/says a value only while the best game's expected score at that
  value is above 0 (passing).  A game whose value is below the bid counts as an overbid
  loss, so the bot never holds a value that no game it could declare reaches.  For the
  bidding and the Hand/Skat choice the discard in each sampled Skat is chosen per game by
  the heuristic's hand strength (not by the solver); after picking up, the discard is
  chosen among the heuristic's best pairs by the solver on sampled worlds.

Known weaknesses (plain determinized sampling):

- *Strategy fusion*: in each world the solver plays as if it knew that world, so a card
  that is right in every world separately (but needs different follow-ups the bot cannot
  tell apart) is overrated; guesses look free.
- *Over-hopeful defence*: the defenders are solved as a team that sees all cards; a
  defender relies on its partner finding the perfect card, and declarers' lines that only
  work against open-handed defenders are undervalued.
- The declarer's Skat estimate ignores the auction, and Schwarz is not aimed at (only the
  61/91/30 thresholds are asked); Schneider/Schwarz are never announced, suit Ouvert never
  declared; the value of passing is taken as 0 (a Ramsch is not estimated).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from itertools import combinations

from stich.bots.heuristic import SkatHeuristicBot, bid_up_to
from stich.bots.play import choose_card
from stich.bots.skat_eval import null_badness, strength
from stich.cards import CARDS, Card, bits, card_points
from stich.core import ArgumentError
from stich.messages import Position as SeatName
from stich.skat.actions import HAND, PICKUP, Action, Declare, Discard
from stich.skat.rules import NULL_VALUES, GameType, SkatRules, bidding_ladder
from stich.skat.scoring import matadors, overbid_value
from stich.skat.solver import Position, null_won, reaches, takes_all
from stich.skat.tables import TABLES
from stich.skat.view import SkatView

__all__ = ["SkatStrongBot", "World", "sample_world"]

_ALL = (1 << 32) - 1
_TRUMP_GAMES = (GameType.SCHELLEN, GameType.HERZ, GameType.GRUEN, GameType.EICHEL,
                GameType.GRAND)
HARD_CAP = 1.5
"""No decision may take longer than this many seconds."""

World = tuple[tuple[int, int, int], int]
"""Three hands (by seat) and the Skat, as card sets."""
_Result = tuple[bool, int, int]
"""A game on one world: won, its value, its base value (0 for Null)."""


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


def sample_world(view: SkatView, rng: random.Random) -> World:
    """One deal of the cards ``view``'s seat cannot see, uniformly among those that agree
    with the view (hand sizes, cards played, known Skat, Ouvert hand, shown voids)."""
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
    fill = _deal(unseen, slots, caps, allowed, rng)
    skat = skat_known if skat_known > 0 else 0
    for slot, cards in zip(slots, fill, strict=True):
        if slot == 3:
            skat = cards
        else:
            hands[slot] = cards
    return (hands[0], hands[1], hands[2]), skat


def _deal(unseen: int, slots: list[int], caps: list[int], allowed: list[int],
          rng: random.Random) -> list[int]:
    """Cards to slots, each slot exactly its capacity and only cards it may take;
    uniform over all such deals (count the completions of each group split)."""
    n = len(slots)
    groups: dict[int, list[int]] = {}
    for c in bits(unseen):
        key = sum(1 << i for i in range(n) if allowed[i] >> c & 1)
        if key == 0:
            raise ArgumentError("bots.inconsistent_view", seat=SeatName(0), phase="PLAY")
        groups.setdefault(key, []).append(c)
    keys = sorted(groups)
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def splits(key: int, size: int, cap: tuple[int, ...]) -> list[tuple[int, ...]]:
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

    def ways(split: tuple[int, ...], size: int) -> int:
        w = math.factorial(size)
        for v in split:
            w //= math.factorial(v)
        return w

    def count(g: int, cap: tuple[int, ...]) -> int:
        if g == len(keys):
            return 1 if not any(cap) else 0
        k = (g, cap)
        if k in memo:
            return memo[k]
        size = len(groups[keys[g]])
        total = 0
        for sp in splits(keys[g], size, cap):
            rest = tuple(c - v for c, v in zip(cap, sp, strict=True))
            total += ways(sp, size) * count(g + 1, rest)
        memo[k] = total
        return total

    cap = tuple(caps)
    if count(0, cap) == 0:
        raise ArgumentError("bots.inconsistent_view", seat=SeatName(0), phase="PLAY")
    out = [0] * n
    for g, key in enumerate(keys):
        cards = groups[key][:]
        size = len(cards)
        options = []
        for sp in splits(key, size, cap):
            rest = tuple(c - v for c, v in zip(cap, sp, strict=True))
            w = ways(sp, size) * count(g + 1, rest)
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


class _Clock:
    def __init__(self, budget: float, hard_cap: float, min_worlds: int,
                 max_worlds: int | None) -> None:
        self.start = time.perf_counter()
        self.budget = budget
        self.hard = hard_cap
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def more(self, done: int) -> bool:
        """Whether to sample another world after ``done`` of them."""
        if self.max_worlds is not None and done >= self.max_worlds:
            return False
        t = self.elapsed()
        per_world = t / done if done else 0.0
        if t + per_world >= self.hard * 0.8:
            return False
        return done < self.min_worlds or t + per_world * 0.5 < self.budget

    def out_of_time(self) -> bool:
        return self.elapsed() >= self.hard * 0.9


class SkatStrongBot:
    """The search bot.  ``budget``: seconds per decision to aim at (anytime sampling);
    ``min_worlds``: worlds sampled at least (time permitting); ``max_worlds``: a fixed
    number of worlds instead of the clock (for reproducible tests); ``hard_cap``: the
    most any decision may take (at most 1.5 s)."""

    name = "strong"

    def __init__(self, budget: float = 0.3, *, min_worlds: int = 4,
                 max_worlds: int | None = None, hard_cap: float = HARD_CAP) -> None:
        if not 0 < budget <= HARD_CAP or not 0 < hard_cap <= HARD_CAP:
            raise ArgumentError("bots.bad_budget", budget=budget, most=HARD_CAP)
        self.budget = budget
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.hard_cap = hard_cap
        self._fallback = SkatHeuristicBot()

    def _clock(self) -> _Clock:
        return _Clock(self.budget, self.hard_cap, self.min_worlds, self.max_worlds)

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
        elif view.game is GameType.RAMSCH or view.game is None:
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
        while clock.more(worlds):
            hands, skat = sample_world(view, rng)
            base = taken + card_points(skat)
            values: dict[int, float] = {}
            for c in cards:
                if worlds and clock.out_of_time():
                    break
                values[c.index] = _card_utility(game, contract, hands, decl, me, trick,
                                                c.index, base, t.winner)
            if len(values) < len(cards):
                break
            for k, v in values.items():
                totals[k] += v
            worlds += 1
        if worlds == 0:
            return choose_card(view)
        best = max(sign * v for v in totals.values())
        good = [k for k, v in totals.items() if sign * v >= best - 1e-9]
        hint = choose_card(view).index
        return CARDS[hint] if hint in good else CARDS[min(good)]

    # --- auction --------------------------------------------------------------------------

    def _bid(self, view: SkatView, rng: random.Random, clock: _Clock) -> Action:
        legal = view.legal_actions
        rules = SkatRules.parse(view.rules)
        plans = self._pickup_plans(view, rng, clock, hand_too=True)
        ladder = [v for v in bidding_ladder(rules) if v >= max(18, view.bid)]
        limit = 0
        for v in ladder if plans else ():
            if max(_mean_score(res, v, rules) for res in plans.values()) > 0:
                limit = v
            else:
                break
        return bid_up_to(legal, view.bid, limit)

    def _pickup_plans(self, view: SkatView, rng: random.Random, clock: _Clock, *,
                      hand_too: bool) -> dict[tuple[GameType, bool, bool],
                                              list[_Result]]:
        """Per plan (game, hand, ouvert): (won, value) on each sampled world, with the
        discard chosen per game by the heuristic's hand strength."""
        me = view.seat
        hand = view.hand
        plans: dict[tuple[GameType, bool, bool], list[_Result]] = {}
        worlds = 0
        while clock.more(worlds):
            hands, skat = sample_world(view, rng)
            twelve = hand | skat
            res: dict[tuple[GameType, bool, bool], _Result] = {}
            late = False
            for game in _TRUMP_GAMES:
                if clock.out_of_time():  # between solver calls: a half world is dropped
                    late = True
                    break
                keep, away = _discard_for(twelve, game)
                h = _with(hands, me, keep)
                won = _reaches(game, h, me, 61 - card_points(away))
                res[(game, False, False)] = (won, _value(game, twelve, hand=False), game.base_value)
                if hand_too:
                    won_h = _reaches(game, hands, me, 61 - card_points(skat))
                    res[(game, True, False)] = (won_h, _value(game, twelve, hand=True),
                                                game.base_value)
            if late or clock.out_of_time():
                break
            keep, _ = _discard_for(twelve, GameType.NULL)
            won_n = null_won(Position(GameType.NULL, _with(hands, me, keep), me, 0))
            res[(GameType.NULL, False, False)] = (won_n, NULL_VALUES[(False, False)], 0)
            res[(GameType.NULL, False, True)] = (won_n, NULL_VALUES[(False, True)], 0)
            if hand_too:
                won_nh = null_won(Position(GameType.NULL, hands, me, 0))
                res[(GameType.NULL, True, False)] = (won_nh, NULL_VALUES[(True, False)], 0)
                res[(GameType.NULL, True, True)] = (won_nh, NULL_VALUES[(True, True)], 0)
            if clock.out_of_time():
                break
            for k, v in res.items():
                plans.setdefault(k, []).append(v)
            worlds += 1
        return plans

    def _hand_or_pickup(self, view: SkatView, rng: random.Random, clock: _Clock) -> Action:
        rules = SkatRules.parse(view.rules)
        plans = self._pickup_plans(view, rng, clock, hand_too=True)
        if not plans:
            return self._fallback.choose(view, rng)
        best_hand = max((_mean_score(r, view.bid, rules) for k, r in plans.items() if k[1]),
                        default=-math.inf)
        best_pick = max((_mean_score(r, view.bid, rules) for k, r in plans.items()
                         if not k[1]), default=-math.inf)
        return HAND if best_hand > best_pick else PICKUP

    # --- discard and declaration ----------------------------------------------------------

    def _discard(self, view: SkatView, rng: random.Random, clock: _Clock) -> Action:
        twelve = view.hand
        rules = SkatRules.parse(view.rules)
        pairs: list[int] = []
        for game in (*_TRUMP_GAMES, GameType.NULL):
            for away in _top_discards(twelve, game, 2):
                if away not in pairs:
                    pairs.append(away)
        legal = {a.cards for a in view.legal_actions if isinstance(a, Discard)}
        pairs = [p for p in pairs if p in legal]
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
                for game in _TRUMP_GAMES:
                    if clock.out_of_time():
                        break
                    won = _reaches(game, h, me, 61 - card_points(away))
                    res[(game, False)] = (won, _value(game, twelve, hand=False),
                                          game.base_value)
                if clock.out_of_time():
                    break
                won_n = null_won(Position(GameType.NULL, h, me, 0))
                res[(GameType.NULL, False)] = (won_n, 23, 0)
                res[(GameType.NULL, True)] = (won_n, 46, 0)
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
        options = [a for a in view.legal_actions if isinstance(a, Declare)
                   and not a.schneider and not a.schwarz
                   and (not a.ouvert or a.game is GameType.NULL)]
        if not options:
            return self._fallback.choose(view, rng)
        results: dict[Declare, list[_Result]] = {a: [] for a in options}
        worlds = 0
        while clock.more(worlds):
            hands, skat = sample_world(view, rng)
            away = view.discarded if picked else skat
            owned = owned_known | skat
            got: dict[Declare, _Result] = {}
            for a in options:
                if clock.out_of_time():
                    break
                if a.game is GameType.NULL:
                    won = null_won(Position(GameType.NULL, hands, me, 0))
                    got[a] = (won, a.null_value, 0)
                else:
                    won = _reaches(a.game, hands, me, 61 - card_points(away))
                    got[a] = (won, _value(a.game, owned, hand=a.hand), a.game.base_value)
            if len(got) < len(options):  # out of time in the middle: the world is dropped
                break
            for a, r in got.items():
                results[a].append(r)
            worlds += 1
            if clock.out_of_time():
                break
        if worlds == 0:
            return self._fallback.choose(view, rng)
        return max(options, key=lambda a: _mean_score(results[a], view.bid, rules))


# --- helpers -------------------------------------------------------------------------------


def _with(hands: tuple[int, int, int], seat: int, cards: int) -> tuple[int, int, int]:
    h = list(hands)
    h[seat] = cards
    return (h[0], h[1], h[2])


def _reaches(game: GameType, hands: tuple[int, int, int], declarer: int, target: int) -> bool:
    return reaches(Position(game, hands, declarer, 0), target)


def _value(game: GameType, owned: int, *, hand: bool) -> int:
    return game.base_value * (abs(matadors(owned, game)) + 1 + hand)


def _score(won: bool, value: int, bid: int, game_base: int, rules: SkatRules) -> float:
    if value < bid:
        if game_base == 0:  # Null
            if rules.null_overbid == "refused":
                return -1e6  # cannot be declared
            return -2.0 * min((v for v in NULL_VALUES.values() if v >= bid), default=118)
        return -2.0 * overbid_value(game_base, bid)
    return float(value) if won else -2.0 * value


def _mean_score(results: Sequence[_Result], bid: int, rules: SkatRules) -> float:
    """Expected list score of a plan at ``bid``."""
    if not results:
        return -math.inf
    total = 0.0
    for won, value, base in results:
        total += _score(won, value, bid, base, rules)
    return total / len(results)


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
                  winner: Callable[[Sequence[int]], int]) -> float:
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
        return _threshold_utility(base + gain, contract, lambda t: t <= 0)
    pos = Position(game, hands3, declarer, nxt, new_trick)
    if game is GameType.NULL:
        return 1.0 if null_won(pos) else 0.0
    have = base + gain
    if contract.schwarz:
        return 1.0 if takes_all(pos) else 0.0
    return _threshold_utility(have, contract, lambda t: reaches(pos, t))


def _threshold_utility(have: int, contract: Declare, can: Callable[[int], bool]) -> float:
    need = 91 if contract.schneider else 61
    if can(need - have):
        u = 1.0
        if need == 61 and can(91 - have):
            u += 0.3
        return u
    return -0.3 if not can(31 - have) else 0.0
