"""RULES.md, Skat / Counting and game value, and Ramsch."""

from __future__ import annotations

import random

import pytest

from stich.cards import CARDS, Rank, card_points, parse_cards
from stich.skat import Declare, GameType
from stich.skat.scoring import (
    matadors,
    overbid_value,
    ramsch_result,
    settle_game,
    settle_null_overbid,
)

from .helpers import ALL_CARDS, ISKO, LOTHAR, act, deal, play, play_out, trick_points

# --- card points ----------------------------------------------------------------------


def test_card_points() -> None:
    expected = {Rank.ASS: 11, Rank.ZEHN: 10, Rank.KOENIG: 4, Rank.OBER: 3, Rank.UNTER: 2,
                Rank.NINE: 0, Rank.EIGHT: 0, Rank.SEVEN: 0}
    for card in CARDS:
        assert card.points == expected[card.rank]
    assert card_points(ALL_CARDS) == 120
    assert card_points(parse_cards("CA HT SK DQ CJ H9 D8 S7")) == 11 + 10 + 4 + 3 + 2


# --- the Skat counts for the declarer -------------------------------------------------

# Vorhand takes every trick (four Unter, six clubs, the Kreuz-Sieben must follow);
# the Skat holds 21 points.
SKAT_POINTS_DEAL = (
    "CJ SJ HJ DJ CA CT CK CQ C9 C8",
    "C7 SA ST SK SQ S9 S8 S7 HA HT",
    "HK HQ H9 H8 H7 D9 D8 D7 DQ DK",
    "DA DT",
)


def test_hand_skat_counts_for_the_declarer_unseen() -> None:
    s = act(deal(LOTHAR, *SKAT_POINTS_DEAL), "pass", "pass", "18", "hand",
            "declare grand hand")
    s = play_out(s, random.Random(1))
    o = s.outcome()
    assert s.points == (99, 0, 0)  # the tricks
    assert o.declarer_points == 120 and o.defender_points == 0  # plus the Skat's 21
    assert o.won and o.schneider and o.schwarz
    assert o.multiplier == 4 + 1 + 1 + 1 + 1  # mit 4, game, Hand, Schneider, Schwarz
    assert o.scores == (24 * 8, 0, 0)


def test_discarded_cards_count_for_the_declarer() -> None:
    s = act(deal(LOTHAR, *SKAT_POINTS_DEAL), "pass", "pass", "18", "pickup",
            "discard DA DT", "declare grand")
    o = play_out(s, random.Random(2)).outcome()
    assert o.declarer_points == 120
    assert o.multiplier == 4 + 1 + 1 + 1  # no Hand
    s2 = act(deal(LOTHAR, *SKAT_POINTS_DEAL), "pass", "pass", "18", "pickup",
             "discard C9 C8", "declare grand")
    s2 = play_out(s2, random.Random(2))
    assert s2.points[0] == 120 and s2.outcome().declarer_points == 120


# --- matadors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("owned", "game", "expected"),
    [
        ("CJ SJ D7 D8 D9 DQ DK S7 S8 S9 H7 H8", GameType.EICHEL, 2),  # the text's example
        ("CJ SJ HJ DJ C7 C8 C9 S7 S8 S9 H7 H8", GameType.GRAND, 4),
        ("CJ SJ HJ DJ CA CT CK CQ C9 C8 C7 H7", GameType.EICHEL, 11),
        ("CJ SJ HJ DJ CA CT CK CQ C9 C8 C7 H7", GameType.GRAND, 4),
        ("CJ HJ DJ CA CT CK CQ C9 C8 C7 H7 H8", GameType.EICHEL, 1),
        ("HJ D7 D8 D9 DQ DK S7 S8 S9 H7 H8 H9", GameType.EICHEL, -2),
        ("DJ CA D7 D8 D9 DQ DK S7 S8 S9 H7 H8", GameType.EICHEL, -3),
        ("DJ CA D7 D8 D9 DQ DK S7 S8 S9 H7 H8", GameType.GRAND, -3),
        ("D7 D8 D9 DQ DK DT DA S7 S8 S9 H7 H8", GameType.GRAND, -4),
        ("D7 D8 D9 DQ DK DT DA S7 S8 S9 H7 H8", GameType.EICHEL, -11),
        ("D7 D8 D9 DQ DK DT DA S7 S8 S9 H7 H8", GameType.SCHELLEN, -4),
        ("CJ SJ HJ DJ HA HT HK S7 S8 S9 H7 H8", GameType.HERZ, 7),
    ],
)
def test_matadors(owned, game, expected) -> None:
    assert matadors(parse_cards(owned), game) == expected


# Vorhand holds every Eichel trump but the Grün-Unter, which lies in the Skat.
SKAT_UNTER_DEAL = (
    "CJ HJ DJ CA CT CK CQ C9 C8 C7",
    "SA ST SK SQ S9 S8 S7 HA HT HK",
    "HQ H9 H8 H7 DA DT DK DQ D9 D8",
    "SJ D7",
)


def test_matadors_count_the_unseen_skat() -> None:
    s = act(deal(LOTHAR, *SKAT_UNTER_DEAL), "pass", "pass", "18", "hand",
            "declare eichel hand")
    o = play_out(s, random.Random(3)).outcome()
    assert o.matadors == 11  # with the Skat's Grün-Unter: mit 11, not mit 1
    assert o.won and o.schwarz
    assert o.multiplier == 11 + 1 + 1 + 1 + 1
    assert o.value == 12 * 15 and o.scores == (180, 0, 0)


def test_matadors_count_the_discarded_cards() -> None:
    s = act(deal(LOTHAR, *SKAT_POINTS_DEAL), "pass", "pass", "18", "pickup",
            "discard CJ SJ", "declare eichel")
    assert s.game_info.owned & parse_cards("CJ SJ") == parse_cards("CJ SJ")
    o = play_out(s, random.Random(4)).outcome()
    assert o.matadors == 10  # CJ SJ HJ DJ CA CT CK CQ C9 C8, not C7


# --- won, lost, Schneider and Schwarz ------------------------------------------------


GRAND = Declare(GameType.GRAND)


def settle(contract=GRAND, rules=LOTHAR, *, bid=18, mats=1, dp, dt=5, ft=5):
    return settle_game(rules, contract, bid=bid, matadors=mats, declarer_points=dp,
                       declarer_tricks=dt, defender_tricks=ft)


@pytest.mark.parametrize(
    ("dp", "dt", "ft", "won", "schneider", "schwarz", "mult"),
    [
        (61, 5, 5, True, False, False, 2),
        (60, 5, 5, False, False, False, 2),
        (89, 7, 3, True, False, False, 2),
        (90, 8, 2, True, True, False, 3),  # defenders 30: Schneider
        (120, 9, 1, True, True, False, 3),  # a trick without points is no Schwarz
        (120, 10, 0, True, True, True, 4),
        (31, 3, 7, False, False, False, 2),
        (30, 3, 7, False, True, False, 3),  # declarer 30: Schneider against him
        (0, 0, 10, False, True, True, 4),
        (11, 0, 10, False, True, True, 4),  # the Skat's points, but not one trick
    ],
)
def test_thresholds(dp, dt, ft, won, schneider, schwarz, mult) -> None:
    r = settle(dp=dp, dt=dt, ft=ft)
    assert (r.won, r.schneider, r.schwarz, r.multiplier) == (won, schneider, schwarz, mult)
    assert r.value == 24 * mult
    assert r.score == (24 * mult if won else -2 * 24 * mult)


GRAND_DEAL = (
    "CJ SJ HJ DJ C7 C8 C9 S7 S8 S9",
    "CA CT CK CQ SA ST SK SQ HA HT",
    "HK HQ H9 DA DT DK DQ D9 D8 D7",
    "H8 H7",
)
GRAND_LOST_SCHNEIDER = (
    "CJ SQ D7  SJ CQ D8  HJ SK D9  DJ CK DQ  C7 CA DK "
    "SA DT S7  ST DA S8  HA H9 S9  HT HQ C8  CT HK C9"
)


def test_declarer_schneider_loses_with_schneider_counted() -> None:
    s = act(deal(LOTHAR, *GRAND_DEAL), "pass", "pass", "18", "hand", "declare grand hand")
    o = play(s, GRAND_LOST_SCHNEIDER).outcome()
    assert (o.declarer_points, o.defender_points) == (25, 95)
    assert not o.won and o.schneider and not o.schwarz
    assert o.multiplier == 4 + 1 + 1 + 1  # mit 4, game, Hand, Schneider
    assert o.scores == (-2 * 24 * 7, 0, 0)


@pytest.mark.parametrize(
    ("contract", "mats", "mult"),
    [
        (Declare(GameType.HERZ), 1, 2),
        (Declare(GameType.HERZ), -3, 4),
        (Declare(GameType.HERZ, hand=True), 2, 4),
        (Declare(GameType.GRAND, hand=True, ouvert=True), 1, 4),
        (Declare(GameType.EICHEL, hand=True, ouvert=True), -11, 14),
    ],
)
def test_multiplier_is_matadors_plus_game_plus_levels(contract, mats, mult) -> None:
    r = settle(contract, mats=mats, dp=70, dt=7, ft=3)
    assert r.multiplier == mult and r.won
    assert r.value == contract.game.base_value * mult
    assert r.score == r.value


@pytest.mark.parametrize(("game", "base"), [(GameType.SCHELLEN, 9), (GameType.HERZ, 10),
                                            (GameType.GRUEN, 11), (GameType.EICHEL, 12),
                                            (GameType.GRAND, 24)])
def test_base_values(game, base) -> None:
    assert game.base_value == base
    assert settle(Declare(game), mats=1, dp=70).value == 2 * base


# --- announcements (isko) -------------------------------------------------------------

SCHNEIDER = Declare(GameType.GRAND, hand=True, schneider=True)
SCHWARZ = Declare(GameType.GRAND, hand=True, schneider=True, schwarz=True)
OUVERT = Declare(GameType.GRAND, hand=True, schneider=True, schwarz=True, ouvert=True)


@pytest.mark.parametrize(
    ("contract", "dp", "dt", "ft", "won", "mult"),
    [
        # mit 4 + game + Hand = 6 before the levels
        (SCHNEIDER, 63, 6, 4, False, 8),  # missed: Schneider and announced count
        (SCHNEIDER, 90, 8, 2, True, 8),  # made: Schneider once, announced once
        (SCHNEIDER, 120, 10, 0, True, 9),  # Schwarz made on top
        (SCHNEIDER, 40, 4, 6, False, 8),  # lost on points, still counts the announcement
        (SCHNEIDER, 25, 3, 7, False, 8),  # declarer Schneider: never counted twice
        (SCHWARZ, 120, 10, 0, True, 10),
        (SCHWARZ, 115, 9, 1, False, 10),  # one trick lost: the Schwarz is missed
        (SCHWARZ, 70, 7, 3, False, 10),
        (OUVERT, 120, 10, 0, True, 11),
        (OUVERT, 118, 9, 1, False, 11),
    ],
)
def test_isko_announced_levels(contract, dp, dt, ft, won, mult) -> None:
    r = settle(contract, ISKO, mats=4, dp=dp, dt=dt, ft=ft)
    assert (r.won, r.multiplier) == (won, mult)
    assert r.value == 24 * mult
    assert r.score == (r.value if won else -2 * r.value)


def test_rules_example_grand_hand_schneider_announced_mit_4_missed() -> None:
    r = settle(SCHNEIDER, ISKO, mats=4, dp=80, dt=7, ft=3)
    assert (r.multiplier, r.value, r.won, r.score) == (8, 192, False, -384)


def test_lothar_ouvert_without_announcement_is_won_with_61() -> None:
    r = settle(Declare(GameType.GRAND, hand=True, ouvert=True), LOTHAR, mats=4, dp=61)
    assert r.won and r.multiplier == 4 + 1 + 1 + 1 and r.score == 24 * 7


# --- overbid --------------------------------------------------------------------------


@pytest.mark.parametrize(("base", "bid", "value"), [(9, 24, 27), (9, 27, 27), (10, 22, 30),
                                                    (24, 50, 72), (12, 18, 24), (11, 23, 33)])
def test_overbid_value_is_the_smallest_multiple_reaching_the_bid(base, bid, value) -> None:
    assert overbid_value(base, bid) == value


def test_overbid_is_lost_whatever_the_points() -> None:
    r = settle(Declare(GameType.SCHELLEN), bid=24, mats=1, dp=84, dt=8, ft=2)
    assert r.overbid and not r.won and r.multiplier == 2
    assert r.value == 27 and r.score == -54


def test_overbid_is_checked_against_the_value_at_the_end() -> None:
    # Schellen mit 1 is 18, but with Schneider made it is 27 and reaches a bid of 27
    r = settle(Declare(GameType.SCHELLEN), bid=27, mats=1, dp=95, dt=8, ft=2)
    assert not r.overbid and r.won and r.value == 27 and r.score == 27
    # a lost game that also falls short of the bid is settled at the overbid value
    r = settle(Declare(GameType.HERZ), bid=30, mats=1, dp=50)
    assert r.overbid and not r.won and r.value == 30 and r.score == -60


@pytest.mark.parametrize(("bid", "level"), [(24, 35), (35, 35), (36, 46), (46, 46), (48, 59),
                                            (59, 59)])
def test_lothar_null_overbid_levels(bid, level) -> None:
    r = settle_null_overbid(bid)
    assert r.value == level and not r.won and r.overbid and r.score == -2 * level


def test_null_scores() -> None:
    for hand, ouvert, value in ((False, False, 23), (True, False, 35), (False, True, 46),
                                (True, True, 59)):
        c = Declare(GameType.NULL, hand=hand, ouvert=ouvert)
        won = settle(c, dp=0, dt=0, ft=10)
        lost = settle(c, dp=0, dt=1, ft=2)
        assert (won.won, won.value, won.score) == (True, value, value)
        assert (lost.won, lost.value, lost.score) == (False, value, -2 * value)


def test_opponents_scores_do_not_change() -> None:
    s = act(deal(LOTHAR, *GRAND_DEAL), "pass", "pass", "18", "hand", "declare grand hand")
    o = play(s, GRAND_LOST_SCHNEIDER).outcome()
    assert o.scores[1] == o.scores[2] == 0 and o.scores[0] < 0
    s = act(deal(LOTHAR, *SKAT_POINTS_DEAL), "pass", "18", "pass", "hand",
            "declare grand hand")
    o = play_out(s, random.Random(5)).outcome()
    assert o.declarer == 2 and o.scores[0] == o.scores[1] == 0


# --- Ramsch ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "tricks", "scores", "loser"),
    [
        ((50, 40, 30), (4, 3, 3), (-50, 0, 0), 0),
        ((20, 70, 30), (2, 5, 3), (0, -70, 0), 1),
        ((30, 40, 50), (3, 3, 4), (0, 0, -50), 2),
        ((40, 40, 40), (4, 3, 3), (-40, 0, 0), 0),  # tie: Vorhand loses
        ((20, 50, 50), (2, 4, 4), (0, -50, 0), 1),  # tie: Mittelhand before Hinterhand
        ((50, 20, 50), (4, 2, 4), (-50, 0, 0), 0),
        ((0, 60, 60), (0, 5, 5), (0, -60, 0), 1),
    ],
)
def test_ramsch_most_points_loses(points, tricks, scores, loser) -> None:
    assert ramsch_result(points, tricks) == (scores, loser, False)


def test_ramsch_durchmarsch() -> None:
    assert ramsch_result((0, 120, 0), (0, 10, 0)) == ((0, 120, 0), None, True)


# The Skat holds 21 points in this Ramsch.
RAMSCH_DEAL = (
    "CJ C7 C8 C9 S7 S8 S9 H7 H8 H9",
    "SJ CA CT CK CQ SA ST SK SQ D7",
    "HJ DJ HA HT HK HQ D9 D8 DK DQ",
    "DA DT",
)


@pytest.mark.parametrize("play_seed", range(6))
def test_ramsch_skat_goes_to_the_winner_of_the_last_trick(play_seed) -> None:
    s = act(deal(LOTHAR, *RAMSCH_DEAL), "pass", "pass", "pass")
    s = play_out(s, random.Random(play_seed))
    tricks = s.tricks
    assert len(tricks) == 10
    expected = [0, 0, 0]
    for _, cards, won_by in tricks:
        expected[won_by] += trick_points(cards)
    expected[tricks[-1][2]] += 21
    o = s.outcome()
    assert o.points == tuple(expected) and sum(o.points) == 120
    assert o.tricks == tuple(sum(1 for t in tricks if t[2] == seat) for seat in range(3))
    if 10 in o.tricks:
        assert o.durchmarsch and o.scores == tuple(120 if t == 10 else 0 for t in o.tricks)
    else:
        loser = max(range(3), key=lambda seat: (expected[seat], -seat))
        assert o.loser == loser and not o.durchmarsch
        assert o.scores == tuple(-expected[seat] if seat == loser else 0 for seat in range(3))


def test_ramsch_has_no_declarer_and_hides_the_skat() -> None:
    s = act(deal(LOTHAR, *RAMSCH_DEAL), "pass", "pass", "pass")
    skat = parse_cards("DA DT")
    for seat in range(3):
        assert s.view(seat).known_cards() & skat == 0
    s = play_out(s)
    for seat in range(3):
        assert s.view(seat).known_cards() == ALL_CARDS
