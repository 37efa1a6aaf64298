"""Scoring: exact bid +stake else -stake, trick scoring (variant 3), the ranking with
shared places, the scoresheet as JSON, and states that never change."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest

from stich.baptisten import (
    BaptistenRules,
    BaptistenState,
    BBid,
    bid_action,
    ranking,
    scoresheet,
)
from stich.core import IllegalActionError

from .game_helpers import act, new_game, play_out, play_round, to_round

HANDS = (["R20 R19 R18", "G1 G2 G3", "B1 B2 B3"], "Y20")  # seat 2 takes every trick


def _round_3(rules: BaptistenRules, *bids: str) -> BaptistenState:
    s = to_round(new_game(rules, {3: HANDS}), 3)
    before = s.totals
    s = act(s, *bids, "B1", "R20", "G1", "B2", "R19", "G2", "B3", "R18", "G3")
    assert s.round_no == 4
    row = s.sheet[-1]
    assert row.round == 3 and row.tricks == (0, 0, 3)
    assert row.totals == tuple(t + d for t, d in zip(before, row.scores, strict=True))
    assert s.totals == row.totals
    return s


def test_exact_bid_wins_the_stake_otherwise_loses_it() -> None:
    s = _round_3(BaptistenRules(players=3, max_cards=6),
                 "bid 3 stake 7", "bid 1 stake 4", "bid 0 stake 20")
    row = s.sheet[-1]
    assert row.bids == (1, 0, 3) and row.stakes == (4, 20, 7)
    assert row.scores == (-4, 20, 7)


def test_a_40_counts_like_any_stake() -> None:
    s = _round_3(BaptistenRules(players=3, max_cards=6),
                 "bid 3 stake 40", "bid 1 stake 40", "bid 0 stake 40")
    assert s.sheet[-1].scores == (-40, 40, 40)
    assert s.owed == (2, 2, 2)  # a lost 40 counts as staked


def test_trick_scoring() -> None:
    s = _round_3(BaptistenRules(players=3, max_cards=6, trick_scoring=True),
                 "bid 2", "bid 0", "bid 0")
    row = s.sheet[-1]
    assert row.stakes == (None, None, None)
    # seat 2: 3 tricks, bid 2 -> 2 x 3; seats 0 and 1: exact 0 -> 20
    assert row.scores == (20, 20, 6)
    s = _round_3(BaptistenRules(players=3, max_cards=6, trick_scoring=True),
                 "bid 3", "bid 0", "bid 1")
    # seat 2: exact 3 -> 2 x 3 + 10; seat 0: exact 0 -> 20; seat 1: bid 1, none -> 0
    assert s.sheet[-1].scores == (20, 0, 16)


def test_trick_scoring_with_other_points() -> None:
    rules = BaptistenRules(players=3, max_cards=6, trick_scoring=True, points_per_trick=3,
                           exact_bonus=5, exact_zero_bonus=7)
    s = _round_3(rules, "bid 3", "bid 0", "bid 1")
    assert s.sheet[-1].scores == (7, 0, 14)


def test_ohhell_scoring_one_point_per_trick_and_10_for_exact() -> None:
    s = BaptistenState.new(BaptistenRules.preset("ohhell"), seed=5)
    s = play_out(s)
    (row,) = s.sheet
    assert sum(row.tricks) == 7
    for p in range(3):
        exact = row.bids[p] == row.tricks[p]
        assert row.scores[p] == row.tricks[p] + (10 if exact else 0)


@pytest.mark.parametrize("seed", range(4))
def test_whole_game_scores_follow_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    s = BaptistenState.new(BaptistenRules(players=5, max_cards=6), seed=seed)
    while not s.is_over:
        s = s.apply(rng.choice(list(s.legal_actions())))
    totals = [0] * 5
    for row in s.sheet:
        for p in range(5):
            stake = row.stakes[p]
            assert stake is not None
            assert row.scores[p] == (stake if row.bids[p] == row.tricks[p] else -stake)
            totals[p] += row.scores[p]
            assert row.totals[p] == totals[p]
    assert s.outcome().totals == tuple(totals) == s.totals


def test_ranking_shares_places() -> None:
    assert ranking((12, 30, 12, -5)) == [(1, 30, 1), (0, 12, 2), (2, 12, 2), (3, -5, 4)]
    assert ranking((0, 0, 0)) == [(0, 0, 1), (1, 0, 1), (2, 0, 1)]
    assert ranking((5, 9, 9, 9, 1)) == [(1, 9, 1), (2, 9, 1), (3, 9, 1), (0, 5, 4),
                                        (4, 1, 5)]


def test_outcome_only_at_the_end() -> None:
    s = new_game(BaptistenRules(players=3, max_cards=3), seed=1)
    with pytest.raises(IllegalActionError, match="not over"):
        s.outcome()
    end = play_out(s)
    out = end.outcome()
    assert out.rounds == end.sheet and out.totals == end.totals
    assert list(out.ranking) == ranking(end.totals)
    assert end.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="the game is over"):
        end.apply(bid_action(0, 1))


ENTRY_KEYS = ["player", "bid", "stake", "forced", "tricks", "score", "total"]


def _check_shape(sheet: dict[str, Any], players: int) -> None:
    assert list(sheet) == ["rules", "players", "rounds", "ranking"]
    for rnd in sheet["rounds"]:
        assert list(rnd) == ["round", "cards", "first", "trump", "entries"]
        assert [list(e) for e in rnd["entries"]] == [ENTRY_KEYS] * players
        assert [e["player"] for e in rnd["entries"]] == list(range(players))
    for entry in sheet["ranking"]:
        assert list(entry) == ["player", "total", "place"]
    assert json.loads(json.dumps(sheet)) == sheet


def test_scoresheet_json_shape() -> None:
    rules = BaptistenRules(players=3, max_cards=6)
    s = _round_3(rules, "bid 3 stake 7", "bid 1 stake 4", "bid 0 stake 20")
    names = ["Anna", "Ben", "Cem"]
    sheet = scoresheet(s, names)
    _check_shape(sheet, 3)
    assert sheet["rules"] == str(rules) == "baptisten(preset=default,players=3,max_cards=6)"
    assert sheet["players"] == names
    assert sheet["ranking"] == []  # not over yet
    assert len(sheet["rounds"]) == 3
    r3 = sheet["rounds"][2]
    assert {k: r3[k] for k in ("round", "cards", "first", "trump")} == {
        "round": 3, "cards": 3, "first": 2, "trump": "gelb"}
    before = sheet["rounds"][1]["entries"]
    assert r3["entries"][2] == {"player": 2, "bid": 3, "stake": 7, "forced": False,
                                "tricks": 3, "score": 7, "total": before[2]["total"] + 7}
    assert r3["entries"][0] == {"player": 0, "bid": 1, "stake": 4, "forced": False,
                                "tricks": 0, "score": -4, "total": before[0]["total"] - 4}
    end = play_out(s)
    final = scoresheet(end, names)
    _check_shape(final, 3)
    assert len(final["rounds"]) == 11
    assert final["ranking"] == [{"player": p, "total": t, "place": pl}
                                for p, t, pl in ranking(end.totals)]
    assert [e["total"] for e in final["rounds"][-1]["entries"]] == list(end.totals)


def test_scoresheet_stake_null_under_trick_scoring() -> None:
    rules = BaptistenRules(players=4, max_cards=3, trick_scoring=True, forehead=True)
    end = play_out(new_game(rules, seed=2))
    sheet = scoresheet(end, ["A", "B", "C", "D"])
    _check_shape(sheet, 4)
    assert all(e["stake"] is None and e["forced"] is False
               for r in sheet["rounds"] for e in r["entries"])
    assert '"stake": null' in json.dumps(sheet)
    assert sheet["rules"] == "baptisten(preset=default,max_cards=3,variants=2+3)"


def _snapshot(s: BaptistenState) -> tuple[Any, ...]:
    return (s.round_no, s.cards, s.first, s.phase, s.to_move, s.hands, s.bids, s.stakes,
            s.forced, s.trick, s.leader, s.follow_suit, s.tricks_won, s.totals, s.owed,
            s.sheet, tuple(s.history), tuple(s.round_tricks), tuple(s.legal_actions()),
            s.hooked_bid(), s.is_over)


@pytest.mark.parametrize("rules", [
    BaptistenRules(players=3, max_cards=4, forehead=True, must_overtrump=True),
    BaptistenRules(deck="romme-double-joker", players=4, max_cards=4, trick_scoring=True,
                   hook_always=True),
])
def test_apply_never_mutates(rules: BaptistenRules) -> None:
    rng = random.Random(7)
    s = BaptistenState.new(rules, seed=3)
    wrong = [bid_action(99, 1), bid_action(0, 33), rules.card_deck.cards[0]]
    while not s.is_over:
        snap = _snapshot(s)
        views = [s.view(p) for p in range(rules.players)]
        for action in wrong:
            with contextlib.suppress(IllegalActionError):
                s.apply(action)
        nxt = s.apply(rng.choice(list(s.legal_actions())))
        assert _snapshot(s) == snap
        assert [s.view(p) for p in range(rules.players)] == views
        assert nxt is not s
        s = nxt


def test_play_round_helper_reaches_every_round() -> None:
    # a sanity check of the scripted policy used by the other tests
    s = new_game(BaptistenRules(players=3, max_cards=4), seed=4)
    rounds = []
    while not s.is_over:
        rounds.append(s.round_no)
        s = play_round(s)
    assert rounds == list(range(1, 8))
    assert isinstance(s.sheet[0].bids[0], int) and BBid(0, 1) == bid_action(0, 1)
