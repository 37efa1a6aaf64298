"""``strong`` under the house rule Kontra and Re (:mod:`stich.bots.strong.doubling`).

Its Kontra and Re come from worlds sampled from its view: two deals that differ only in
cards the deciding seat cannot see give the same view, the same estimate and the same
decision (the decision is given a view, never the state).  Without a world in time it
decides by the rule-based estimate; it never says Kontra on a Null.  And under Kontra
rules (also ``bid18``, with Schieberamsch and Jungfrau) it plays whole games to the end,
every action legal, the outcome scored with the doublings said.
"""

from __future__ import annotations

import random

import pytest

from stich.bots import SkatHeuristicBot
from stich.bots.doubling import kontra_wanted, re_wanted
from stich.bots.strong import SkatStrongBot, StrongSettings, doubling
from stich.bots.strong.questions import SolverClock
from stich.cards import bits
from stich.skat import SkatRules, SkatState
from stich.skat.actions import KONTRA, PASS, RE, Action, Discard
from stich.skat.rules import GameType
from stich.skat.view import SkatView

KONTRA_RULES = SkatRules.parse("skat(preset=lothar,kontra_re=yes)")
HOUSE = SkatRules.parse("skat(preset=lothar,kontra_re=yes,schieberamsch=yes,jungfrau=yes)")
BID18 = SkatRules.parse("skat(preset=isko,kontra_re=bid18)")
WORLDS = 3


def _frozen() -> float:
    return 0.0


def _strong(worlds: int = WORLDS, settings: StrongSettings | None = None) -> SkatStrongBot:
    return SkatStrongBot(min_worlds=worlds, max_worlds=worlds, timer=_frozen,
                         settings=settings or StrongSettings(), question_seconds=0.01)


class AlwaysKontra:
    """The rule-based bot, but Kontra whenever it may: brings the declarer to Re."""

    name = "always-kontra"

    def __init__(self) -> None:
        self.easy = SkatHeuristicBot()

    def choose(self, view: SkatView, rng: random.Random) -> Action:
        if KONTRA in view.legal_actions:
            return KONTRA
        return self.easy.choose(view, rng)


def _to_kontra(rules: SkatRules, seed: int) -> tuple[SkatState, list[Action]] | None:
    """The rule-based bots play deal ``seed`` to Vorhand's Kontra moment in a suit game
    or Grand that Vorhand does not play (no card played yet); the state and the actions
    up to it.  None when the deal has none."""
    state = SkatState.new(rules, seed=seed)
    easy = SkatHeuristicBot()
    rng = random.Random(seed)
    history: list[Action] = []
    while not state.is_over:
        view = state.view(state.to_move)
        if KONTRA in view.legal_actions:
            if (state.to_move == 0 and view.game not in (GameType.NULL, None)
                    and not view.ouvert_hand):
                return state, history
            return None
        action = easy.choose(view, rng)
        history.append(action)
        state = state.apply(action)
    return None


def _kontra_moment(rules: SkatRules = KONTRA_RULES) -> tuple[SkatState, list[Action]]:
    for seed in range(200):
        found = _to_kontra(rules, seed)
        if found is not None:
            return found
    raise AssertionError("no deal with a Kontra moment for Vorhand")


def _swapped(state: SkatState, history: list[Action], a: int, b: int) -> SkatState:
    """The deal of ``state`` with one card swapped between seats ``a`` and ``b`` (none
    of them played, none put away), replayed through ``history``."""
    hands, skat = state.deal
    away = next((x.cards for x in history if isinstance(x, Discard)), 0)
    free = [[c for c in bits(hands[s]) if not (away >> c & 1)] for s in (a, b)]
    x, y = free[0][0], free[1][0]
    new = list(hands)
    new[a] = hands[a] & ~(1 << x) | 1 << y
    new[b] = hands[b] & ~(1 << y) | 1 << x
    other = SkatState.new(state.rules, hands=new, skat=skat)
    for action in history:
        other = other.apply(action)
    return other


def test_kontra_uses_only_the_view() -> None:
    state, history = _kontra_moment()
    declarer = state.declarer
    partner = 3 - declarer  # the other defender (Vorhand is seat 0)
    other = _swapped(state, history, declarer, partner)
    assert other.hands != state.hands  # the hidden cards differ ...
    view, view2 = state.view(0), other.view(0)
    assert view == view2  # ... and Vorhand sees the same
    settings = StrongSettings()
    estimates = [doubling.estimate(v, random.Random(5), SolverClock(1.0, 1.5, WORLDS, WORLDS,
                                                                    _frozen, settings),
                                   settings) for v in (view, view2)]
    assert estimates[0] is not None and estimates[0] == estimates[1]
    assert estimates[0].worlds == WORLDS
    said = [_strong().choose(v, random.Random(5)) for v in (view, view2)]
    assert said[0] == said[1]
    assert said[0] is KONTRA or said[0] in view.legal_actions


def test_re_uses_only_the_view() -> None:
    state, history = _kontra_moment()
    history = [*history, KONTRA]
    state = state.apply(KONTRA)
    declarer = state.declarer
    assert state.to_move == declarer and set(state.legal_actions()) == {RE, PASS}
    other = _swapped(state, history, 0, 3 - declarer)  # between the two defenders
    assert other.hands != state.hands
    view, view2 = state.view(declarer), other.view(declarer)
    assert view == view2
    said = [_strong().choose(v, random.Random(9)) for v in (view, view2)]
    assert said[0] == said[1] and said[0] in (RE, PASS)


def test_without_a_world_the_rule_based_estimate_decides() -> None:
    state, _ = _kontra_moment()
    bot = _strong(worlds=0)
    view = state.view(0)
    settings = StrongSettings()
    clock = SolverClock(1.0, 1.5, 0, 0, _frozen, settings)
    assert doubling.kontra(view, random.Random(1), clock, settings) is None
    said = bot.choose(view, random.Random(1))
    assert (said is KONTRA) == kontra_wanted(view)
    after = state.apply(KONTRA)
    answer = after.view(after.to_move)
    assert bot.choose(answer, random.Random(1)) is (RE if re_wanted(answer) else PASS)


def test_the_thresholds_decide() -> None:
    """A defender who would say Kontra at any chance below 1 (and no margin for the
    spread) says it where the declarer's expected score is negative; one who needs a
    chance of 0 never does."""
    state, _ = _kontra_moment()
    view = state.view(0)
    settings = StrongSettings()
    e = doubling.estimate(view, random.Random(3), SolverClock(1.0, 1.5, WORLDS, WORLDS,
                                                              _frozen, settings), settings)
    assert e is not None and 0.0 <= e.chance <= 1.0 and e.se >= 0.0
    eager = StrongSettings(kontra_chance=1.0, kontra_se=0.0)
    never = StrongSettings(kontra_chance=-1.0)
    clock = SolverClock(1.0, 1.5, WORLDS, WORLDS, _frozen, eager)
    assert doubling.kontra(view, random.Random(3), clock, eager) is (
        e.score < 0.0 and e.chance < doubling.BREAK_EVEN)
    clock = SolverClock(1.0, 1.5, WORLDS, WORLDS, _frozen, never)
    assert doubling.kontra(view, random.Random(3), clock, never) is False


def test_no_kontra_on_a_null() -> None:
    for seed in range(400):
        state = SkatState.new(KONTRA_RULES, seed=seed)
        easy = SkatHeuristicBot()
        rng = random.Random(seed)
        while not state.is_over:
            view = state.view(state.to_move)
            if KONTRA in view.legal_actions and view.game is GameType.NULL:
                settings = StrongSettings(kontra_chance=1.0, kontra_se=0.0)
                clock = SolverClock(1.0, 1.5, 1, 1, _frozen, settings)
                assert doubling.kontra(view, rng, clock, settings) is False
                return
            state = state.apply(easy.choose(view, rng))
    pytest.fail("no Null with a Kontra moment in 400 deals")


@pytest.mark.parametrize("rules", [HOUSE, BID18], ids=["house", "bid18"])
def test_strong_plays_kontra_games_to_the_end(rules: SkatRules) -> None:
    """Whole games with ``strong`` in one seat, in two, and against a defender who always
    says Kontra (so that ``strong`` answers Re or pass): every action legal, each game
    over and scored, Kontra and Re on the outcome as said."""
    asked = {"kontra": 0, "re": 0}
    for seed in range(30):  # at least 6 deals, on until both questions came up
        if seed >= 6 and asked["kontra"] and asked["re"]:
            break
        for lineup in ("s e e", "e s s", "k s k"):
            bots = [_strong(2) if b == "s" else AlwaysKontra() if b == "k"
                    else SkatHeuristicBot() for b in lineup.split()]
            state = SkatState.new(rules, seed=seed)
            rng = random.Random(seed)
            said: list[Action] = []
            while not state.is_over:
                s = state.to_move
                view = state.view(s)
                if isinstance(bots[s], SkatStrongBot):
                    asked["kontra"] += KONTRA in view.legal_actions
                    asked["re"] += RE in view.legal_actions
                action = bots[s].choose(view, rng)
                # legal, or the rule-based bot's sure claim of the rest
                assert action in view.legal_actions or action in view.claims
                if action is KONTRA or action is RE:
                    said.append(action)
                state = state.apply(action)
            outcome = state.outcome()
            assert outcome.kontra is (KONTRA in said)
            assert outcome.re is (RE in said)
            assert len(outcome.scores) == 3
    assert asked["kontra"] > 0 and asked["re"] > 0
