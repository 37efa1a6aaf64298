"""Every worked example of the rule text (seeds/004) and of RULES.md, as a named test.

Each example is played on a deal built card by card, so that the outcome follows from the
deal and the scripted play (or from the deal alone, where it is forced whatever is played).
"""

from __future__ import annotations

import random

import pytest

from stich.cards import Card, card_points, parse_cards
from stich.skat import Declare, GameType, IllegalActionError, Phase
from stich.skat.lookup import TABLES
from stich.skat.scoring import settle_game

from .helpers import ISKO, LOTHAR, act, bid_up, deal, play, play_out

# --- The cards -----------------------------------------------------------------------


def test_eichel_ass_is_11_schellen_neun_is_0() -> None:
    assert Card.parse("Eichel-Ass").points == 11
    assert Card.parse("Schellen-Neun").points == 0
    assert card_points((1 << 32) - 1) == 120


def test_eichel_sieben_trumps_the_ass_of_every_other_suit() -> None:
    t = TABLES[GameType.EICHEL]
    seven = Card.parse("C7").index
    for ace in ("SA", "HA", "DA"):
        led = Card.parse(ace).index
        assert t.winner((led, seven, Card.parse(ace[0] + "T").index)) == 1


# --- The Herz-Ass trick ---------------------------------------------------------------

# The dealer (Hinterhand) holds no Herz at all, but the Schellen-Unter.
HERZ_ASS_DEAL = (
    "HA HT HK CA CT CK SA ST SK CJ",  # Vorhand
    "H9 H8 H7 HQ C9 C8 C7 S9 S8 S7",  # Mittelhand
    "DJ SJ DA DT DK DQ D9 D8 CQ SQ",  # Hinterhand, the dealer
    "HJ D7",  # Skat
)


@pytest.mark.parametrize("game", ["eichel", "gruen", "schellen", "grand"])
def test_herz_ass_trick_won_by_schellen_unter(game: str) -> None:
    s = deal(LOTHAR, *HERZ_ASS_DEAL)
    s = act(s, "pass", "pass", "18", "hand", f"declare {game} hand")
    assert s.phase is Phase.PLAY and s.to_move == 0
    s = play(s, "HA H9")
    # the dealer has no Herz, so every card is allowed, the Unter included
    assert Card.parse("DJ") in s.legal_actions()
    assert len(s.legal_actions()) == 10
    s = play(s, "DJ")
    leader, cards, winner = s.tricks[-1]
    assert (leader, winner) == (0, 2)
    assert cards == tuple(Card.parse(c).index for c in ("HA", "H9", "DJ"))
    assert s.to_move == 2  # the winner leads the next trick
    assert s.points == (0, 0, 11 + 0 + 2)


@pytest.mark.parametrize("game", ["eichel", "gruen", "schellen", "grand"])
def test_herz_unter_does_not_follow_herz(game: str) -> None:
    # Mittelhand holds the Herz-Unter and the Herz-Neun: only the Neun follows Herz
    s = deal(LOTHAR, "HA HT HK CA CT CK SA ST SK C9", "HJ H9 H8 C8 C7 S9 S8 S7 DA DT",
             "CJ SJ DJ DK DQ D9 D8 D7 CQ SQ", "H7 HQ")
    s = act(s, "pass", "pass", "18", "hand", f"declare {game} hand", "HA")
    assert {str(c) for c in s.legal_actions()} == {"H9", "H8"}
    with pytest.raises(IllegalActionError, match="Mittelhand must follow Herz"):
        act(s, "HJ")


# --- Game values ----------------------------------------------------------------------

# Vorhand holds the Eichel-Unter and the Grün-Unter, not the Herz-Unter: mit 2.
EICHEL_MIT_2 = (
    "CJ SJ CA CT CK CQ C9 SA ST HA",
    "HJ DJ C8 C7 SK SQ S9 HT HK HQ",
    "S8 S7 H9 H8 H7 DA DT DK DQ D9",
    "D8 D7",
)
EICHEL_MIT_2_PLAY = (
    "CJ C7 D9  SJ C8 DQ  HA HQ H7  SA S9 S7  ST SQ S8 "
    "C9 DJ DA  HT H9 CQ  CA HJ DT  SK DK CK  CT HK H8"
)
# The same with the Unter swapped: Vorhand holds Herz- and Schellen-Unter: ohne 2.
EICHEL_OHNE_2 = (
    "HJ DJ CA CT CK CQ C9 SA ST HA",
    "CJ SJ C8 C7 SK SQ S9 HT HK HQ",
    "S8 S7 H9 H8 H7 DA DT DK DQ D9",
    "D8 D7",
)
EICHEL_OHNE_2_PLAY = (
    "HA HQ H7  SA S9 S7  ST SQ S8  C9 C7 D9  CQ C8 DQ "
    "CK SJ DK  HT H9 DJ  CA CJ DT  SK DA HJ  CT HK H8"
)


def _eichel_game(cards: tuple[str, str, str, str], script: str):
    s = deal(LOTHAR, *cards)
    s = act(s, "pass", "pass", "18", "pickup", "discard D8 D7", "declare eichel")
    return play(s, script)


def test_eichel_mit_2_is_36() -> None:
    s = _eichel_game(EICHEL_MIT_2, EICHEL_MIT_2_PLAY)
    assert s.is_over
    o = s.outcome()
    assert o.kind == "game" and o.declarer == 0 and o.game is GameType.EICHEL
    assert o.matadors == 2 and o.mit
    assert o.multiplier == 3  # mit 2, Spiel 3
    assert o.value == 36  # 3 x 12
    assert (o.declarer_points, o.defender_points) == (84, 36)
    assert (o.declarer_tricks, o.defender_tricks) == (8, 2)
    assert o.won and not o.schneider and not o.schwarz and not o.overbid
    assert o.scores == (36, 0, 0)


def test_mit_and_ohne_count_alike() -> None:
    mit = _eichel_game(EICHEL_MIT_2, EICHEL_MIT_2_PLAY).outcome()
    ohne = _eichel_game(EICHEL_OHNE_2, EICHEL_OHNE_2_PLAY).outcome()
    assert (mit.matadors, ohne.matadors) == (2, -2)
    assert mit.mit and not ohne.mit
    assert ohne.won and (ohne.declarer_points, ohne.defender_points) == (87, 33)
    assert mit.multiplier == ohne.multiplier == 3
    assert mit.value == ohne.value == 36
    assert mit.scores == ohne.scores == (36, 0, 0)
    # "ohne 4 wird zu Spiel 5", like mit 4
    for mats in (4, -4):
        r = settle_game(LOTHAR, Declare(GameType.GRAND), bid=18, matadors=mats,
                        declarer_points=70, declarer_tricks=6, defender_tricks=4)
        assert (r.multiplier, r.value, r.score) == (5, 120, 120)


# --- Bidding --------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [LOTHAR, ISKO], ids=["lothar", "isko"])
def test_bidding_example_18_20_22(rules) -> None:
    s = deal(rules, *EICHEL_MIT_2)
    s = act(s, "18", "hold", "20", "hold", "22", "pass")
    # Mittelhand won the first duel and meets the dealer with 22
    assert s.phase is Phase.BIDDING and s.to_move == 2 and s.bid_value == 22
    s = act(s, "pass")
    assert s.phase is Phase.SKAT
    assert s.declarer == 1 and s.to_move == 1
    assert s.bid_value == 22


@pytest.mark.parametrize("rules", [LOTHAR, ISKO], ids=["lothar", "isko"])
def test_vorhandrecht_plays_at_18(rules) -> None:
    s = deal(rules, *EICHEL_MIT_2)
    s = act(s, "pass", "pass")
    assert s.phase is Phase.BIDDING and s.to_move == 0
    assert [str(a) for a in s.legal_actions()] == ["18", "pass"]
    s = act(s, "18")
    assert s.phase is Phase.SKAT and s.declarer == 0 and s.bid_value == 18


# --- Overbid --------------------------------------------------------------------------

# Vorhand holds the Eichel-Unter but not the Grün-Unter: Schellen mit 1, Spiel 2, 18.
SCHELLEN_MIT_1 = (
    "CJ HJ DA DT DK DQ D9 SA ST HA",
    "SJ DJ D8 D7 SK SQ S9 HT HK HQ",
    "S8 S7 H9 H8 H7 CA CT CK CQ C9",
    "C8 C7",
)
SCHELLEN_MIT_1_PLAY = (
    "CJ D7 C9  HJ D8 CQ  HA HQ H7  SA S9 S7  ST SQ S8 "
    "D9 DJ CA  HT H9 DQ  DA SJ CT  SK CK DK  DT HK H8"
)


def test_schellen_mit_1_overbid_at_24_is_minus_54() -> None:
    s = deal(LOTHAR, *SCHELLEN_MIT_1)
    s = bid_up(s, 24, winner=0)
    s = act(s, "pickup", "discard C8 C7", "declare schellen")
    s = play(s, SCHELLEN_MIT_1_PLAY)
    o = s.outcome()
    assert o.bid == 24 and o.matadors == 1 and o.multiplier == 2  # 2 x 9 = 18 < 24
    # the declarer made 84 points, but overbid games are lost whatever the points
    assert (o.declarer_points, o.defender_points) == (84, 36)
    assert o.overbid and not o.won
    assert o.value == 27  # 3 x 9, the smallest multiple of 9 reaching 24
    assert o.scores == (-54, 0, 0)


# --- Null -----------------------------------------------------------------------------

# Mittelhand holds only the lowest cards of every suit: it can never take a trick.
NULL_DEAL = (
    "CT CJ CQ CK CA ST SJ SQ SK SA",
    "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7",
    "HT HJ HQ HK HA DT DJ DQ DK DA",
    "D8 D9",
)


@pytest.mark.parametrize(
    ("take", "declaration", "value"),
    [
        (("pickup", "discard D8 D9"), "declare null", 23),
        (("hand",), "declare null hand", 35),
        (("pickup", "discard D8 D9"), "declare null ouvert", 46),
        (("hand",), "declare null hand ouvert", 59),
    ],
    ids=["null", "null-hand", "null-ouvert", "null-ouvert-hand"],
)
@pytest.mark.parametrize("play_seed", [None, 1, 2, 3])
def test_null_values(take, declaration, value, play_seed) -> None:
    s = deal(LOTHAR, *NULL_DEAL)
    s = act(s, "18", "pass", "pass", *take, declaration)
    assert s.game is GameType.NULL and s.phase is Phase.PLAY
    rng = None if play_seed is None else random.Random(play_seed)
    s = play_out(s, rng)
    assert s.end_reason == "played" and len(s.tricks) == 10
    o = s.outcome()
    assert o.declarer == 1 and o.declarer_tricks == 0 and o.won
    assert o.value == value
    assert o.scores == (0, value, 0)


def test_null_values_are_the_same_under_isko() -> None:
    for take, declaration, value in [
        (("pickup", "discard D8 D9"), "declare null", 23),
        (("hand",), "declare null hand", 35),
        (("pickup", "discard D8 D9"), "declare null ouvert", 46),
        (("hand",), "declare null hand ouvert", 59),
    ]:
        s = act(deal(ISKO, *NULL_DEAL), "18", "pass", "pass", *take, declaration)
        assert play_out(s).outcome().scores == (0, value, 0)


# --- Ramsch ---------------------------------------------------------------------------

# Vorhand holds the four Unter and the six best clubs; the Kreuz-Sieben is elsewhere.
DURCHMARSCH_DEAL = (
    "CJ SJ HJ DJ CA CT CK CQ C9 C8",
    "C7 SA ST SK SQ S9 S8 S7 HA HT",
    "HK HQ H9 H8 H7 DA DT DK DQ D9",
    "D8 D7",
)


def test_ramsch_when_all_pass_lothar() -> None:
    s = deal(LOTHAR, *EICHEL_MIT_2)
    s = act(s, "pass", "pass", "pass")
    assert s.phase is Phase.PLAY and s.game is GameType.RAMSCH
    assert s.declarer == -1 and s.to_move == 0
    # played like Grand: only the Unter are trumps, so Herz is followed by Herz alone
    s = play(s, "HA")
    assert {str(c) for c in s.legal_actions()} == {"HT", "HK", "HQ"}
    s = play_out(s)
    o = s.outcome()
    assert o.kind == "ramsch" and o.declarer is None
    assert sum(o.points) == 120
    loser = max(range(3), key=lambda seat: (o.points[seat], -seat))
    assert o.loser == loser
    expected = [0, 0, 0]
    expected[loser] = -o.points[loser]
    assert o.scores == tuple(expected)


@pytest.mark.parametrize("play_seed", [None, 4, 5, 6, 7])
def test_durchmarsch_scores_plus_120(play_seed) -> None:
    s = deal(LOTHAR, *DURCHMARSCH_DEAL)
    s = act(s, "pass", "pass", "pass")
    s = play_out(s, None if play_seed is None else random.Random(play_seed))
    o = s.outcome()
    assert o.kind == "ramsch" and o.durchmarsch
    assert o.tricks == (10, 0, 0) and o.points == (120, 0, 0)
    assert o.loser is None
    assert o.scores == (120, 0, 0)


# --- The examples of RULES.md ---------------------------------------------------------

GRAND_DEAL = (
    "CJ SJ HJ DJ C7 C8 C9 S7 S8 S9",
    "CA CT CK CQ SA ST SK SQ HA HT",
    "HK HQ H9 DA DT DK DQ D9 D8 D7",
    "H8 H7",
)
GRAND_PLAY = (
    "CJ HA DA  SJ HT DT  HJ CQ DK  DJ SQ DQ  C7 CA D7 "
    "SA D8 S7  ST D9 S8  CT H9 C8  CK HQ C9  SK HK S9"
)


def test_grand_hand_schneider_announced_mit_4_missed_is_minus_384() -> None:
    s = deal(ISKO, *GRAND_DEAL)
    s = act(s, "pass", "pass", "18", "hand", "declare grand hand schneider")
    assert s.contract is not None and s.contract.schneider and not s.contract.schwarz
    s = play(s, GRAND_PLAY)
    o = s.outcome()
    assert o.matadors == 4 and o.hand and o.schneider_announced
    # 63 points would win a plain game, but the defenders are not Schneider
    assert (o.declarer_points, o.defender_points) == (63, 57)
    assert not o.schneider and not o.won and not o.overbid
    assert o.multiplier == 8  # mit 4, game, Hand, Schneider, Schneider announced
    assert o.value == 24 * 8
    assert o.scores == (-384, 0, 0)


def test_bid_24_null_declared_is_minus_70_lothar() -> None:
    s = bid_up(deal(LOTHAR, *NULL_DEAL), 24, winner=1)
    s = act(s, "pickup", "discard D8 D9")
    assert any(str(a) == "declare null" for a in s.legal_actions())
    s = act(s, "declare null")
    # lost at once, no card played, settled at Null Hand (35), doubled
    assert s.is_over and s.end_reason == "null_overbid" and s.tricks == []
    o = s.outcome()
    assert o.overbid and not o.won and o.value == 35
    assert o.scores == (0, -70, 0)


def test_null_refused_above_59_lothar() -> None:
    s = bid_up(deal(LOTHAR, *NULL_DEAL), 60, winner=1)
    s = act(s, "hand")
    assert not [a for a in s.legal_actions() if a.game is GameType.NULL]
    with pytest.raises(IllegalActionError, match="refused above 59"):
        act(s, "declare null hand ouvert")
    # at 59 the Null Ouvert Hand is still possible
    s59 = act(bid_up(deal(LOTHAR, *NULL_DEAL), 59, winner=1), "hand", "declare null ouvert")
    assert s59.phase is Phase.PLAY


def test_null_refused_below_bid_isko() -> None:
    s = act(deal(ISKO, *NULL_DEAL), "24", "pass", "pass", "pickup", "discard D8 D9")
    assert s.bid_value == 24
    nulls = [str(a) for a in s.legal_actions() if a.game is GameType.NULL]
    assert nulls == ["declare null ouvert"]  # 46 reaches 24, 23 does not
    with pytest.raises(IllegalActionError, match="refused"):
        act(s, "declare null")
    assert s.phase is Phase.DECLARE  # the refused declaration changed nothing
    s = act(s, "declare null ouvert")
    assert s.phase is Phase.PLAY and s.contract.ouvert


def test_hand_cards_of_worked_deals_are_valid() -> None:
    for cards in (HERZ_ASS_DEAL, EICHEL_MIT_2, EICHEL_OHNE_2, SCHELLEN_MIT_1, NULL_DEAL,
                  DURCHMARSCH_DEAL, GRAND_DEAL):
        masks = [parse_cards(c) for c in cards]
        assert [m.bit_count() for m in masks] == [10, 10, 10, 2]
        assert masks[0] | masks[1] | masks[2] | masks[3] == (1 << 32) - 1
