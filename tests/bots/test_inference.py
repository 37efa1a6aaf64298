"""The world counter and the log-likelihood measure of ``strong``'s inference
(``stich.bots.inference``): counted against brute force, sampled uniformly, and the
measure's defining properties."""

from __future__ import annotations

import collections
import itertools
import math
import random

import pytest

from stich.bots import SkatHeuristicBot
from stich.bots.inference import InferenceLog, true_world, world_log_likelihood
from stich.bots.skat_eval import best_bid
from stich.bots.strong import DEFAULT_SETTINGS, count_worlds, sample_world, world_weigher
from stich.bots.strong.weights import bid_values, pass_limits, world_weight
from stich.cards import bits
from stich.core import ArgumentError
from stich.skat import SkatRules, SkatState, SkatView

_ALL = (1 << 32) - 1


def _late(seed: int, tricks: int) -> SkatState:
    """A declared game of three heuristic bots after ``tricks`` tricks (lothar)."""
    rng = random.Random(seed)
    h = SkatHeuristicBot()
    for k in itertools.count(seed * 1000):
        s = SkatState.new(SkatRules.preset("lothar"), seed=k)
        while not s.is_over and (s.phase_name != "PLAY" or len(s.tricks) < tricks):
            s = s.apply(h.choose(s.view(s.to_move), rng))
        if not s.is_over and s.declarer >= 0:
            return s
    raise AssertionError("unreachable")


def _brute_worlds(view: SkatView) -> set[tuple[tuple[int, int, int], int]]:
    """Every world that agrees with ``view``, by trying every split of the unseen
    cards: the seat's own hand, hand sizes, voids, a known Skat."""
    known = view.hand | view.played | view.skat_seen | view.discarded
    unseen = [c for c in bits(_ALL & ~known)]
    others = [s for s in range(3) if s != view.seat]
    played_in_trick = {s for s, _ in view.trick}
    size = {s: 10 - len(view.tricks) - (s in played_in_trick) for s in others}
    voids = view.voids()
    out = set()
    for a in itertools.combinations(unseen, size[others[0]]):
        rest = [c for c in unseen if c not in a]
        for b in itertools.combinations(rest, size[others[1]]):
            skat_cards = [c for c in rest if c not in b]
            hands = [0, 0, 0]
            hands[view.seat] = view.hand
            hands[others[0]] = sum(1 << c for c in a)
            hands[others[1]] = sum(1 << c for c in b)
            if any(hands[s] & voids[s] for s in others):
                continue
            skat = sum(1 << c for c in skat_cards)
            if view.discarded:
                assert skat == 0
                skat = view.discarded
            out.add(((hands[0], hands[1], hands[2]), skat))
    return out


@pytest.mark.parametrize(("seed", "tricks"), [(1, 7), (2, 7), (3, 8), (4, 6), (5, 8)])
def test_count_worlds_is_the_number_of_agreeing_worlds(seed: int, tricks: int) -> None:
    s = _late(seed, tricks)
    for seat in range(3):
        view = s.view(seat)
        worlds = _brute_worlds(view)
        assert count_worlds(view) == len(worlds) > 0
        assert true_world(s, seat) in worlds


def test_sample_world_draws_every_agreeing_world_alike() -> None:
    s = _late(3, 8)
    view = s.view(s.to_move)
    worlds = _brute_worlds(view)
    n = len(worlds)
    rng = random.Random(9)
    draws = collections.Counter(sample_world(view, rng) for _ in range(300 * n))
    assert set(draws) == worlds
    # 300 expected per world: a uniform sampler stays well inside 200..400 (6 sigma)
    assert min(draws.values()) > 200 and max(draws.values()) < 400


def test_uniform_weights_gain_nothing_and_give_log_one_over_n() -> None:
    s = _late(1, 7)
    view = s.view(s.to_move)
    b = world_log_likelihood(view, true_world(s, s.to_move), lambda hands: 1.0,
                             random.Random(1), samples=20)
    assert b.uniform == pytest.approx(-math.log(len(_brute_worlds(view))))
    assert b.gain == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(ArgumentError) as e:
        world_log_likelihood(view, true_world(s, s.to_move), lambda hands: 1.0,
                             random.Random(1), samples=0)
    assert e.value.code == "bots.few_samples"
    assert str(e.value) == "samples must be at least 1, not 0"


def test_weights_that_favour_the_truth_gain_and_those_against_it_lose() -> None:
    s = _late(2, 7)
    seat = s.to_move
    view = s.view(seat)
    truth = true_world(s, seat)
    n = count_worlds(view)
    # nearly all belief on the true world: log P close to 0, never above
    only = world_log_likelihood(view, truth, lambda h: 1.0 if h == truth[0] else 1e-9,
                                random.Random(2), samples=50)
    assert only.gain == pytest.approx(math.log(n), abs=1e-5) and only.model <= 0
    # a hundredth of the others' weight: log P falls by log 100 (nearly)
    against = world_log_likelihood(view, truth, lambda h: 0.01 if h == truth[0] else 1.0,
                                   random.Random(2), samples=50)
    assert against.gain == pytest.approx(math.log(0.01) - math.log((0.01 + n - 1) / n))


def test_strong_weights_gain_on_the_first_tricks_of_heuristic_games() -> None:
    """The auction weights of ``strong`` (its ``world_weight``) put more belief on the
    true cards than uniform sampling in games of three heuristic bots (whose bids and
    games the weights model): bench/tuning/skat_inference.py measures it at scale."""
    log = InferenceLog()
    for seed in range(6):
        s = _late(seed + 10, 0)
        view = s.view(s.to_move)
        log.add(0, world_log_likelihood(view, true_world(s, s.to_move),
                                        world_weigher(view, s.rules), random.Random(seed),
                                        samples=100))
    row = log.table()[0]
    assert row["decisions"] == log.decisions() == 6 and row["gain"] > 0
    assert log.mean_gain() == pytest.approx(row["gain"])


def test_pass_limits_are_the_values_each_seat_refused() -> None:
    rules = SkatRules.preset("lothar")
    s = SkatState.new(rules, seed=4)
    # Mittelhand says 18 and 20 to Vorhand, Vorhand holds 18 and passes at 20;
    # Hinterhand passes at once (it would have had to say 22)
    for text in ("18", "hold", "20", "pass", "pass"):
        s = s.apply_text(text)
    assert [(seat, said) for seat, said in s.view(0).bidding] == [
        (1, "18"), (0, "hold"), (1, "20"), (0, "pass"), (2, "pass")]
    assert pass_limits(s.view(0), rules) == [20, 0, 22]
    # nobody says anything: each refused 18
    t = SkatState.new(rules, seed=4)
    for text in ("pass", "pass", "pass"):
        t = t.apply_text(text)
    assert pass_limits(t.view(1), rules) == [18, 18, 18]


def test_a_pass_on_cards_that_would_bid_weighs_less() -> None:
    """Vorhand passed at 20 and Hinterhand at 22 (above): a world in which one of them
    holds cards the rule-based evaluation would bid that high on weighs ``unlikely_pass``
    less for each, on top of the other weights."""
    rules = SkatRules.preset("lothar")
    seen = set()
    for seed in range(60):
        s = SkatState.new(rules, seed=seed)
        for text in ("18", "hold", "20", "pass", "pass", "hand"):
            s = s.apply_text(text)
        s = s.apply(s.legal_actions()[0])  # a declaration
        view = s.view(1)  # the declarer
        played_by, said = view.played_by(), bid_values(view)
        refused = pass_limits(view, rules)
        assert refused == [20, 0, 22]
        base = world_weight(view, s.hands, played_by, said, rules)
        w = world_weight(view, s.hands, played_by, said, rules, refused)
        would = sum(best_bid(s.hands[seat], rules) >= refused[seat] for seat in (0, 2))
        assert w == pytest.approx(base * DEFAULT_SETTINGS.unlikely_pass ** would)
        seen.add(would)
    assert seen >= {0, 1}  # deals where no passing hand would have bid, and where one would
