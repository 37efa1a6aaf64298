"""The Skat search bot's auction: bidding, Hand or pick up, the discard, the declaration.

Each candidate game (the four suit games and Grand, Null and Null Ouvert; Hand versions
when deciding Hand) is scored on sampled worlds by the solver
(:mod:`~stich.bots.strong.questions`) and valued by the cards it will own
(:mod:`~stich.bots.strong.scores`).  Picking up is also scored as the plan :data:`AUTO`:
in each world, the game the rule-based evaluation would declare with that Skat.

Bidding: the bot holds or says a value only while the best plan's expected score at that
value is above what passing is worth (0, or before anybody bid under ``lothar`` a share
of the Ramsch that follows when all pass).  A game whose value is below the bid counts as
an overbid loss, so the bot never holds a value that no game it could declare reaches.
In the auction the discard in each sampled Skat is chosen per game by the heuristic's hand
strength (not by the solver); after picking up, the discard is chosen among the
heuristic's best pairs by the solver on sampled worlds.  To get more worlds into the
budget, the auction asks the solver only about the games the rule-based evaluation rates
best (:attr:`~StrongSettings.plan_top`), the discard asks each pair only about the games it
is a best pair for (:attr:`~StrongSettings.discard_prune`), and a game whose value is below
the bid is never asked about (it is an overbid whatever its chance).  Schneider and
Schwarz announced and open games are only considered for the Hand game the cards suit
best.

Each decision returns None where it has nothing better than the rule-based bot's choice
(no world in time, no candidate); the bot then asks that bot.
"""

from __future__ import annotations

import math
import random
from itertools import combinations

from stich.bots.heuristic import bid_up_to
from stich.bots.skat_eval import (
    PICKUP_BONUS,
    null_badness,
    ramsch_danger,
    strength,
    win_probability,
)
from stich.bots.strong.questions import (
    SolverClock,
    announced_chance,
    ask_null,
    game_result,
    null_chance,
)
from stich.bots.strong.sampler import sample_world
from stich.bots.strong.scores import (
    Result,
    announced_value,
    cautious_score,
    mean_chance,
    mean_score,
    score,
    value,
)
from stich.bots.strong.settings import StrongSettings
from stich.cards import bits, card_points
from stich.skat.actions import HAND, PASS, PICKUP, Action, Declare, Discard
from stich.skat.rules import NULL_VALUES, GameType, SkatRules, bidding_ladder
from stich.skat.view import SkatView

__all__ = ["AUTO", "TRUMP_GAMES", "Plan", "bid", "bid_on", "declare", "discard",
           "discard_for", "hand_or_pickup", "likely_games", "pickup_plans", "top_discards"]

TRUMP_GAMES = (GameType.SCHELLEN, GameType.HERZ, GameType.GRUEN, GameType.EICHEL,
               GameType.GRAND)
Plan = tuple[GameType, bool, bool]
"""A game, Hand, Ouvert."""
AUTO: Plan = (GameType.RAMSCH, False, False)
"""The plan "pick up and declare the game the heuristic chooses for that Skat"."""


def _with(hands: tuple[int, int, int], seat: int, cards: int) -> tuple[int, int, int]:
    h = list(hands)
    h[seat] = cards
    return (h[0], h[1], h[2])


# --- bidding, Hand or pick up -------------------------------------------------------------


def bid(view: SkatView, rng: random.Random, clock: SolverClock,
        settings: StrongSettings) -> tuple[Action, float | None]:
    """The bid (a value, hold or pass) by :func:`bid_on` the plans of sampled worlds."""
    plans = pickup_plans(view, rng, clock, settings, hand_too=True)
    return bid_on(view, plans, settings)


def bid_on(view: SkatView, plans: dict[Plan, list[Result]], settings: StrongSettings
           ) -> tuple[Action, float | None]:
    """The bid on ``plans`` (:func:`pickup_plans`): the highest value at which the best
    plan whose mean chance is at least :attr:`~StrongSettings.min_chance` still scores
    more than passing (:func:`cautious_score`); and that plan's mean chance where a
    value is said or held (None when passing)."""
    rules = SkatRules.parse(view.rules)
    ladder = [v for v in bidding_ladder(rules) if v >= max(18, view.bid)]
    floor = _pass_value(view, rules, settings)
    limit = 0
    eligible = [res for res in plans.values() if mean_chance(res) >= settings.min_chance]
    best: list[Result] | None = None
    for v in ladder if eligible else ():
        top = max(eligible, key=lambda res: cautious_score(res, v, rules, settings))
        if cautious_score(top, v, rules, settings) > floor:
            limit = v
            best = top
        else:
            break
    action = bid_up_to(view.legal_actions, view.bid, limit)
    if best is not None and action is not PASS:
        return action, mean_chance(best)
    return action, None


def pickup_plans(view: SkatView, rng: random.Random, clock: SolverClock,
                 settings: StrongSettings, *, hand_too: bool) -> dict[Plan, list[Result]]:
    """Per plan: (chance won, value, base value) on each sampled world.  Plans are a game
    picked up or played Hand, and :data:`AUTO`: pick up and declare the game the
    heuristic chooses for the Skat of that world.  The discard is chosen per game by the
    heuristic's hand strength."""
    s = settings
    me = view.seat
    hand = view.hand
    rules = SkatRules.parse(view.rules)
    plans: dict[Plan, list[Result]] = {}
    worlds = 0
    try_null = null_badness(hand) <= s.null_badness_tried
    optimism = s.optimism + s.auction_optimism
    least = max(18, view.bid)
    pick_games = likely_games(hand, least, rules, s, hand_game=False)
    hand_games = likely_games(hand, least, rules, s, hand_game=True) if hand_too else []
    wanted = len(pick_games) + len(hand_games)
    while clock.more(worlds):
        hands, skat = sample_world(view, rng)
        twelve = hand | skat
        res: dict[Plan, Result] = {}
        # the game the heuristic would declare with this Skat (plan AUTO): cheap
        heur: dict[GameType, tuple[int, int]] = {}
        auto: tuple[float, GameType] | None = None
        for game in TRUMP_GAMES:
            keep, away = discard_for(twelve, game)
            heur[game] = (keep, away)
            p = win_probability(keep, game, bonus=0.06 * card_points(away))
            h_ev = score(p, value(game, twelve, hand=False), view.bid, game.base_value, rules)
            if auto is None or h_ev > auto[0]:
                auto = (h_ev, game)
        assert auto is not None
        asked: dict[GameType, Result] = {}
        for game in (*pick_games, auto[1]):
            if game in asked:
                continue
            if clock.out_of_time():  # between solver calls: a half world is dropped
                break
            keep, away = heur[game]
            asked[game] = game_result(clock, game, _with(hands, me, keep), me,
                                      card_points(away) + optimism,
                                      value(game, twelve, hand=False), least, s)
        for game in pick_games:
            if game in asked:
                res[(game, False, False)] = asked[game]
        for game in hand_games:
            if clock.out_of_time():
                break
            res[(game, True, False)] = game_result(
                clock, game, hands, me, card_points(skat) + optimism,
                value(game, twelve, hand=True), least, s)
        if len(res) < wanted or auto[1] not in asked or clock.out_of_time():
            break
        auto_result = asked[auto[1]]
        auto_ev = auto[0]
        if try_null:
            keep, _ = discard_for(twelve, GameType.NULL)
            won_n = ask_null(clock, _with(hands, me, keep), me)
            res[(GameType.NULL, False, False)] = (null_chance(won_n, s, ouvert=False),
                                                  NULL_VALUES[(False, False)], 0)
            res[(GameType.NULL, False, True)] = (null_chance(won_n, s, ouvert=True),
                                                 NULL_VALUES[(False, True)], 0)
            p = win_probability(keep, GameType.NULL)
            h_ev = score(p, NULL_VALUES[(False, False)], view.bid, 0, rules)
            if h_ev > auto_ev:
                auto_result = res[(GameType.NULL, False, False)]
            if hand_too:
                won_nh = ask_null(clock, hands, me)
                res[(GameType.NULL, True, False)] = (null_chance(won_nh, s, ouvert=False),
                                                     NULL_VALUES[(True, False)], 0)
                res[(GameType.NULL, True, True)] = (null_chance(won_nh, s, ouvert=True),
                                                    NULL_VALUES[(True, True)], 0)
            if clock.out_of_time():
                break
        res[AUTO] = auto_result
        for k, v in res.items():
            plans.setdefault(k, []).append(v)
        worlds += 1
    return plans


def hand_or_pickup(view: SkatView, rng: random.Random, clock: SolverClock,
                   settings: StrongSettings) -> Action | None:
    """Hand when the best Hand plan scores more at the bid than the best plan picking
    up."""
    rules = SkatRules.parse(view.rules)
    plans = pickup_plans(view, rng, clock, settings, hand_too=True)
    if not plans:
        return None
    best_hand = max((mean_score(r, view.bid, rules) for k, r in plans.items()
                     if k[1] and k != AUTO), default=-math.inf)
    best_pick = max((mean_score(r, view.bid, rules) for k, r in plans.items()
                     if not k[1]), default=-math.inf)
    return HAND if best_hand > best_pick else PICKUP


def likely_games(hand: int, least: int, rules: SkatRules, settings: StrongSettings, *,
                 hand_game: bool) -> list[GameType]:
    """The suit games and Grand worth asking the solver about in the auction: the
    :attr:`~StrongSettings.plan_top` best by the rule-based expected score at ``least``
    (all five when it is 0), from these ten cards, picking up (with the usual bonus for
    the Skat) or playing Hand."""
    top = settings.plan_top
    if not 0 < top < len(TRUMP_GAMES):
        return list(TRUMP_GAMES)

    def key(game: GameType) -> float:
        p = win_probability(hand, game, bonus=0.0 if hand_game else PICKUP_BONUS)
        return score(p, value(game, hand, hand=hand_game), least, game.base_value, rules)

    return sorted(TRUMP_GAMES, key=key, reverse=True)[:top]


def _pass_value(view: SkatView, rules: SkatRules, settings: StrongSettings) -> float:
    """What passing is expected to score: 0 when somebody else will play; where
    everybody passing means Ramsch and nobody has bid yet, a share of the Ramsch this
    hand would likely lose (its points and jacks)."""
    if rules.all_pass != "ramsch" or view.bid > 0:
        return 0.0
    lose = min(0.9, max(0.05, 0.2 + 0.6 * (ramsch_danger(view.hand) - 0.5)))
    return -settings.ramsch_share * lose * settings.ramsch_loss


# --- the discard and the declaration ------------------------------------------------------


def _discard_key(rest: int, away: int, game: GameType) -> float:
    if game is GameType.NULL:
        return -null_badness(rest)
    return strength(rest, game) + 0.06 * card_points(away)


def top_discards(twelve: int, game: GameType, k: int) -> list[int]:
    """The ``k`` best pairs to put away from ``twelve`` for ``game`` by the heuristic's
    hand strength."""
    scored = []
    for a, b in combinations(bits(twelve), 2):
        away = 1 << a | 1 << b
        scored.append((_discard_key(twelve & ~away, away, game), away))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [away for _, away in scored[:k]]


def discard_for(twelve: int, game: GameType) -> tuple[int, int]:
    """The cards kept and the pair put away for ``game`` by the heuristic."""
    away = top_discards(twelve, game, 1)[0]
    return twelve & ~away, away


def discard(view: SkatView, rng: random.Random, clock: SolverClock,
            settings: StrongSettings) -> Action | None:
    """The pair to put away: of the heuristic's best pairs per game, the one whose best
    game scores most at the bid on sampled worlds."""
    s = settings
    twelve = view.hand
    rules = SkatRules.parse(view.rules)
    try_null = null_badness(twelve) <= s.null_badness_tried + 2
    legal = {a.cards for a in view.legal_actions if isinstance(a, Discard)}
    # the heuristic's best pairs per game; each pair is asked about the games it was
    # chosen for (discard_prune) or about every game
    every = (*TRUMP_GAMES, GameType.NULL)
    pair_games: dict[int, list[GameType]] = {}
    for game in every:
        for away in top_discards(twelve, game, 2):
            if away in legal:
                pair_games.setdefault(away, []).append(game)
    for away, games in pair_games.items():
        pair_games[away] = [g for g in (games if s.discard_prune else every)
                            if try_null or g is not GameType.NULL]
    pairs = [p for p, games in pair_games.items() if games]
    if not pairs:
        return None
    scores: dict[int, dict[tuple[GameType, bool], list[Result]]] = {p: {} for p in pairs}
    worlds = 0
    me = view.seat
    while clock.more(worlds):
        hands, _ = sample_world(view, rng)
        world: dict[int, dict[tuple[GameType, bool], Result]] = {}
        for away in pairs:
            h = _with(hands, me, twelve & ~away)
            res: dict[tuple[GameType, bool], Result] = {}
            for game in pair_games[away]:
                if clock.out_of_time():
                    break
                if game is GameType.NULL:
                    won_n = ask_null(clock, h, me)
                    for ouvert in (False, True):
                        res[(game, ouvert)] = (null_chance(won_n, s, ouvert=ouvert),
                                               NULL_VALUES[(False, ouvert)], 0)
                    continue
                res[(game, False)] = game_result(
                    clock, game, h, me, card_points(away) + s.optimism,
                    value(game, twelve, hand=False), view.bid, s)
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
        return None
    best = max(pairs, key=lambda p: max(mean_score(r, view.bid, rules)
                                        for r in scores[p].values()))
    return Discard(best)


def declare(view: SkatView, rng: random.Random, clock: SolverClock,
            settings: StrongSettings) -> tuple[Declare, float] | None:
    """The game to declare, the one that scores most at the bid on sampled worlds, and
    its mean chance; Hand games may also announce Schneider, Schwarz or play open, for
    the game the cards suit best."""
    rules = SkatRules.parse(view.rules)
    me = view.seat
    owned_known = view.hand | view.discarded
    picked = bool(view.skat_seen)
    declarations = [a for a in view.legal_actions if isinstance(a, Declare)]
    # (a Revolution is not asked about: the defenders' exchange is not in the worlds)
    options = [a for a in declarations if not a.schneider and not a.schwarz
               and not a.revolution and (not a.ouvert or a.game is GameType.NULL)]
    if not options:
        return None
    # Hand games may announce Schneider, Schwarz or play open: asked about for the
    # game the cards suit best only (each is one more question per world)
    trump_games = [a.game for a in options if a.game is not GameType.NULL]
    if trump_games and not picked:
        likely = max(trump_games, key=lambda g: strength(view.hand, g))
        options += [a for a in declarations if a.game is likely
                    and (a.schneider or a.schwarz or a.ouvert)]
    results: dict[Declare, list[Result]] = {a: [] for a in options}
    worlds = 0
    while clock.more(worlds):
        hands, skat = sample_world(view, rng)
        away = view.discarded if picked else skat
        owned = owned_known | skat
        got: dict[Declare, Result] = {}
        null_p: float | None = None
        for a in options:
            if clock.out_of_time():
                break
            if a.game is GameType.NULL:
                if null_p is None:
                    null_p = ask_null(clock, hands, me)
                got[a] = (null_chance(null_p, settings, ouvert=a.ouvert), a.null_value, 0)
            elif a.schneider or a.schwarz or a.ouvert:
                got[a] = (announced_chance(clock, a, hands, me, card_points(away)),
                          announced_value(a, owned, rules), a.game.base_value)
            else:
                got[a] = game_result(clock, a.game, hands, me,
                                     card_points(away) + settings.optimism,
                                     value(a.game, owned, hand=a.hand), view.bid, settings)
        if len(got) < len(options):  # out of time in the middle: the world is dropped
            break
        for a, r in got.items():
            results[a].append(r)
        worlds += 1
        if clock.out_of_time():
            break
    if worlds == 0:
        return None
    chosen = max(options, key=lambda a: mean_score(results[a], view.bid, rules))
    return chosen, mean_chance(results[chosen])
