"""RULES.md, Skat / Bidding (Reizen)."""

from __future__ import annotations

import pytest

from stich.messages import Seat
from stich.skat import HOLD, PASS, Bid, GameType, IllegalActionError, Phase, bidding_ladder

from ..refusals import refused
from .helpers import ISKO, LOTHAR, act, deal

DEAL = (
    "CJ SJ CA CT CK CQ C9 SA ST HA",
    "HJ DJ C8 C7 SK SQ S9 HT HK HQ",
    "S8 S7 H9 H8 H7 DA DT DK DQ D9",
    "D8 D7",
)


def new(rules=LOTHAR):
    return deal(rules, *DEAL)


def labels(state) -> list[str]:
    return [str(a) for a in state.legal_actions()]


# --- the strict ladder (lothar) and jumps (isko) --------------------------------------


def test_lothar_first_value_is_18() -> None:
    s = new(LOTHAR)
    assert s.phase is Phase.BIDDING and s.to_move == 1
    assert labels(s) == ["18", "pass"]
    with refused("skat.next_bid", IllegalActionError, value=18) as e:
        act(s, "20")
    assert str(e.value) == "next bid must be 18"
    assert e.value.text("de") == "Als Nächstes wird 18 gereizt"


def test_lothar_every_bid_is_the_next_ladder_value() -> None:
    s = act(new(LOTHAR), "18", "hold")
    assert labels(s) == ["20", "pass"]
    with pytest.raises(IllegalActionError) as err:
        act(s, "22")
    assert "next bid must be 20" in str(err.value)
    with pytest.raises(IllegalActionError, match="next bid must be 20"):
        act(s, "18")  # not the same value again either
    s = act(s, "20", "hold", "22", "hold", "23")
    assert s.bid_value == 23


def test_lothar_strict_ladder_runs_across_both_duels() -> None:
    # duel 1 ends at 20 (held by Vorhand); Hinterhand must go on with 22
    s = act(new(LOTHAR), "18", "hold", "20", "hold", "pass")
    assert s.to_move == 2 and s.bid_value == 20
    assert labels(s) == ["22", "pass"]
    with pytest.raises(IllegalActionError, match="next bid must be 22"):
        act(s, "18")
    with pytest.raises(IllegalActionError, match="next bid must be 22"):
        act(s, "24")


def test_lothar_ladder_is_walked_to_its_top() -> None:
    s = new(LOTHAR)
    for v in bidding_ladder(LOTHAR):
        s = act(s, str(v), "hold")
    assert s.bid_value == 216
    assert labels(s) == ["pass"]  # nothing above 216 exists at Lothar's table
    with pytest.raises(IllegalActionError):
        act(s, "240")


def test_isko_bids_may_jump() -> None:
    s = new(ISKO)
    assert labels(s) == [str(v) for v in bidding_ladder(ISKO)] + ["pass"]
    s = act(s, "30")
    assert s.bid_value == 30 and s.to_move == 0
    s = act(s, "hold", "48")
    assert s.bid_value == 48
    s = act(s, "hold")
    assert labels(s)[0] == "50"


def test_isko_bid_must_be_above_the_highest_so_far() -> None:
    s = act(new(ISKO), "30", "hold")
    with refused("skat.bid_above", IllegalActionError, value=30) as e:
        act(s, "30")
    assert str(e.value) == "a bid must be above 30"
    assert e.value.text("de") == "Gereizt wird höher als 30"
    with pytest.raises(IllegalActionError, match="above 30"):
        act(s, "27")


@pytest.mark.parametrize("rules", [ISKO, LOTHAR], ids=["isko", "lothar"])
def test_only_ladder_values_can_be_said(rules) -> None:
    with refused("skat.not_a_game_value", IllegalActionError, value=19) as e:
        act(new(rules), "19")
    assert str(e.value) == "19 is not a game value: the ladder goes 18, 20, 22, 23, 24, 27, …"
    assert e.value.text("de") == ("19 ist kein Reizwert: die Reizwerte sind "
                                  "18, 20, 22, 23, 24, 27, …")
    with pytest.raises(IllegalActionError, match="not a game value"):
        act(new(rules), "300")


# --- duel order -----------------------------------------------------------------------


@pytest.mark.parametrize("rules", [ISKO, LOTHAR], ids=["isko", "lothar"])
def test_duel_order(rules) -> None:
    s = new(rules)
    seen = []
    for text in ("18", "hold", "20", "pass", "22", "hold", "23", "pass"):
        seen.append(s.to_move)
        s = act(s, text)
    # duel 1: Mittelhand says to Vorhand; Vorhand passes at 20, Mittelhand survives;
    # duel 2: Hinterhand says to Mittelhand, who answers
    assert seen == [1, 0, 1, 0, 2, 1, 2, 1]
    assert s.phase is Phase.SKAT and s.declarer == 2 and s.bid_value == 23


@pytest.mark.parametrize("rules", [ISKO, LOTHAR], ids=["isko", "lothar"])
def test_answerer_may_only_hold_or_pass(rules) -> None:
    s = act(new(rules), "18")
    assert s.to_move == 0
    assert list(s.legal_actions()) == [HOLD, PASS]
    with refused("skat.answer_hold_or_pass", IllegalActionError, seat=Seat(0), value=18,
                 action="20") as e:
        s.apply(Bid(20))
    assert str(e.value) == "Vorhand answers 18: hold or pass, not 20"
    assert e.value.text("de") == "Vorhand antwortet auf 18: ja oder passe, nicht „20“"
    assert e.value.text("de", you=0) == "Du antwortest auf 18: ja oder passe, nicht „20“"
    s2 = act(s, "hold")
    with refused("skat.say_or_pass", IllegalActionError, seat=Seat(1), action="hold") as e:
        s2.apply(HOLD)  # the bidder says values, it does not hold
    assert str(e.value) == "Mittelhand bids: say a value or pass, not hold"
    assert e.value.text("de", you=1) == "Du reizt: sag einen Wert oder passe, nicht „hold“"


@pytest.mark.parametrize("rules", [ISKO, LOTHAR], ids=["isko", "lothar"])
def test_mittelhand_may_pass_at_once(rules) -> None:
    s = act(new(rules), "pass")
    # Hinterhand now says to Vorhand, starting at 18
    assert s.to_move == 2 and s.bid_value == 0
    assert labels(s)[0] == "18"
    s = act(s, "18")
    assert s.to_move == 0
    s = act(s, "hold", "20", "pass")
    assert s.declarer == 2 and s.bid_value == 20


# --- the bid value --------------------------------------------------------------------


@pytest.mark.parametrize("rules", [ISKO, LOTHAR], ids=["isko", "lothar"])
def test_bid_value_is_the_highest_value_held(rules) -> None:
    # Vorhand holds 20, Mittelhand gives up; Hinterhand passes: Vorhand plays at 20
    s = act(new(rules), "18", "hold", "20", "hold", "pass", "pass")
    assert s.phase is Phase.SKAT and s.declarer == 0 and s.bid_value == 20


@pytest.mark.parametrize("rules", [ISKO, LOTHAR], ids=["isko", "lothar"])
def test_bid_value_is_the_highest_value_said(rules) -> None:
    # Hinterhand says 22 and Vorhand passes: Hinterhand plays at 22
    s = act(new(rules), "18", "hold", "20", "hold", "pass", "22", "pass")
    assert s.phase is Phase.SKAT and s.declarer == 2 and s.bid_value == 22
    # the declaration keeps the bid: the outcome is settled against it
    s = act(s, "hand", "declare grand hand")
    assert s.game_info.bid == 22


@pytest.mark.parametrize("rules", [ISKO, LOTHAR], ids=["isko", "lothar"])
def test_duel_1_winner_keeps_value_when_hinterhand_passes(rules) -> None:
    s = act(new(rules), "18", "pass", "pass")
    assert s.declarer == 1 and s.bid_value == 18


# --- nobody bids ----------------------------------------------------------------------


@pytest.mark.parametrize("rules", [ISKO, LOTHAR], ids=["isko", "lothar"])
def test_vorhandrecht_is_only_18_or_pass(rules) -> None:
    s = act(new(rules), "pass", "pass")
    assert s.to_move == 0 and labels(s) == ["18", "pass"]
    with refused("skat.vorhand_18_or_pass", IllegalActionError, seat=Seat(0)) as e:
        act(s, "20")
    assert str(e.value) == "Vorhand may only play at 18 or pass"
    assert e.value.text("de", you=0) == "Du kannst nur 18 spielen oder passen"
    with refused("skat.say_or_pass", IllegalActionError, seat=Seat(0)):
        s.apply(HOLD)


def test_isko_all_pass_is_a_redeal() -> None:
    s = act(new(ISKO), "pass", "pass", "pass")
    assert s.is_over and s.end_reason == "passed"
    assert s.declarer == -1 and s.to_move == -1
    assert list(s.legal_actions()) == []
    o = s.outcome()
    assert o.kind == "passed" and o.scores == (0, 0, 0)
    with pytest.raises(IllegalActionError, match="over"):
        s.apply(PASS)


def test_lothar_all_pass_is_ramsch() -> None:
    s = act(new(LOTHAR), "pass", "pass", "pass")
    assert not s.is_over and s.phase is Phase.PLAY
    assert s.game is GameType.RAMSCH and s.declarer == -1 and s.contract is None
    assert s.to_move == 0  # Vorhand leads


def test_all_pass_option_is_honoured_whatever_the_preset() -> None:
    import dataclasses

    lothar_redeal = dataclasses.replace(LOTHAR, all_pass="redeal")
    assert act(new(lothar_redeal), "pass", "pass", "pass").outcome().kind == "passed"
    isko_ramsch = dataclasses.replace(ISKO, all_pass="ramsch")
    assert act(new(isko_ramsch), "pass", "pass", "pass").game is GameType.RAMSCH


@pytest.mark.parametrize("rules", [ISKO, LOTHAR], ids=["isko", "lothar"])
def test_no_cards_and_no_skat_actions_while_bidding(rules) -> None:
    s = new(rules)
    with pytest.raises(IllegalActionError):
        act(s, "CJ")
    with pytest.raises(IllegalActionError):
        act(s, "hand")
    with pytest.raises(IllegalActionError):
        act(s, "declare grand")
