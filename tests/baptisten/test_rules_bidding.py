"""Bids and stakes: 0..cards tricks, 1..20 points or 40, the hook rule (variant 4 in every
round), the mandatory 40s and the forced 40s."""

from __future__ import annotations

import pytest

from stich.baptisten import BaptistenRules, BaptistenState, BBid, bid_action, scoresheet
from stich.core import IllegalActionError
from stich.messages import Seat

from ..refusals import refused
from .game_helpers import DEFAULT, act, new_game, play_out, play_round, to_round


def _bids(state: BaptistenState) -> set[int]:
    return {a.tricks for a in state.legal_actions() if isinstance(a, BBid)}


def _stakes(state: BaptistenState) -> set[int | None]:
    return {a.stake for a in state.legal_actions() if isinstance(a, BBid)}


def _refusal(state: BaptistenState, text: str) -> str:
    """The refusal of ``text`` in English, as the player to move reads it."""
    with pytest.raises(IllegalActionError) as e:
        act(state, text)
    return e.value.text("en", you=state.to_move)


def test_bids_are_0_to_cards() -> None:
    s = to_round(new_game(DEFAULT, seed=3), 4)
    assert _bids(s) == {0, 1, 2, 3, 4}
    assert act(s, "bid 4 stake 3").bids[s.to_move] == 4
    assert _refusal(s, "bid 5 stake 3") == "a bid is 0..4 tricks in a round with 4 cards"
    one = new_game(DEFAULT, seed=3)
    assert _bids(one) == {0, 1}
    assert _refusal(one, "bid 2 stake 1") == "a bid is 0..1 tricks in a round with 1 card"


def test_stakes_are_1_to_20_or_40() -> None:
    s = to_round(new_game(DEFAULT, seed=3), 3)
    assert _stakes(s) == {*range(1, 21), 40}
    for stake in (1, 20, 40):
        assert act(s, f"bid 1 stake {stake}").stakes[s.to_move] == stake
    for stake in (0, 21, 39, 41):
        assert _refusal(s, f"bid 1 stake {stake}") == "a stake is 1..20 points, or 40"
    assert _refusal(s, "bid 1").startswith("say your stake too")


@pytest.mark.parametrize("round_no", [1, 2])
def test_no_40_in_rounds_with_1_or_2_cards(round_no: int) -> None:
    s = to_round(new_game(DEFAULT, seed=3), round_no)
    assert _stakes(s) == set(range(1, 21))
    assert _refusal(s, "bid 0 stake 40") == "no 40 in a round with 1 or 2 cards"


def test_hook_rule_only_from_3_cards() -> None:
    s = new_game(DEFAULT, seed=8)
    # round 1: three players bid 0, the last may still bid 1 (the bids add up to 1)
    s = act(s, "bid 0 stake 1", "bid 0 stake 1", "bid 0 stake 1")
    assert s.hooked_bid() is None and _bids(s) == {0, 1}
    s = act(s, "bid 1 stake 1")
    assert sum(s.bids) == 1
    s = to_round(s, 2)
    s = act(s, "bid 1 stake 1", "bid 0 stake 1", "bid 1 stake 1")
    assert s.hooked_bid() is None and _bids(s) == {0, 1, 2}
    s = act(s, "bid 0 stake 1")
    assert sum(s.bids) == 2 and s.phase.name == "PLAY"
    s = to_round(s, 3)
    s = act(s, "bid 1 stake 1", "bid 0 stake 1", "bid 1 stake 1")
    assert s.hooked_bid() == 1 and _bids(s) == {0, 2, 3}
    assert _refusal(s, "bid 1 stake 1") == "the bids may not add up to 3: bid 0, 2, 3, not 1"
    seat = Seat(s.to_move, 4, named=False)
    with refused("baptisten.hooked_bid", IllegalActionError, seat=seat, k=3, bid=1,
                 allowed="0, 2, 3") as e:
        act(s, "bid 1 stake 1")
    n = s.to_move + 1
    assert str(e.value) == f"the bids may not add up to 3: seat {n} may bid 0, 2, 3, not 1"
    assert e.value.text("de") == (f"Die Ansagen dürfen zusammen nicht 3 ergeben: Platz {n} "
                                  "darf 0, 2, 3 ansagen, nicht 1")
    assert e.value.text("de", you=s.to_move) == (
        "Die Ansagen dürfen zusammen nicht 3 ergeben: sag 0, 2, 3 an, nicht 1")


def test_hook_rule_binds_only_the_last_bidder() -> None:
    s = to_round(new_game(DEFAULT, seed=8), 3)
    s = act(s, "bid 3 stake 1")  # the bids add up to 3 already, nobody is hooked yet
    assert s.hooked_bid() is None
    s = act(s, "bid 0 stake 1", "bid 0 stake 1")
    assert s.hooked_bid() == 0 and _bids(s) == {1, 2, 3}
    over = to_round(new_game(DEFAULT, seed=8), 3)
    over = act(over, "bid 2 stake 1", "bid 2 stake 1", "bid 2 stake 1")
    assert over.hooked_bid() is None and _bids(over) == {0, 1, 2, 3}


@pytest.mark.parametrize("round_no", [1, 2])
def test_variant_4_hook_in_every_round(round_no: int) -> None:
    rules = BaptistenRules(hook_always=True)
    s = to_round(new_game(rules, seed=8), round_no)
    s = act(s, "bid 0 stake 1", "bid 0 stake 1", "bid 0 stake 1")
    assert s.hooked_bid() == round_no
    assert round_no not in _bids(s)
    expected = "bid 0" if round_no == 1 else "bid 0, 1"
    assert _refusal(s, f"bid {round_no} stake 1") == (
        f"the bids may not add up to {round_no}: {expected}, not {round_no}")


def test_variant_4_with_trick_scoring_in_the_ohhell_preset() -> None:
    s = BaptistenState.new(BaptistenRules.preset("ohhell"), seed=2)
    s = act(s, "bid 3", "bid 2")
    assert s.hooked_bid() == 2
    assert _refusal(s, "bid 2") == "the bids may not add up to 7: bid 0, 1, 3–7, not 2"
    assert act(s, "bid 3").phase.name == "PLAY"


@pytest.mark.parametrize(("max_cards", "required"), [
    (1, 0), (2, 0), (3, 1), (4, 3), (5, 3), (10, 3), (11, 4), (12, 4), (13, 4), (14, 3),
])
def test_number_of_mandatory_40s(max_cards: int, required: int) -> None:
    rules = BaptistenRules(max_cards=max_cards)
    assert rules.forties_required == required
    s = BaptistenState.new(rules, seed=1)
    assert s.owed == (required,) * 4
    assert BaptistenRules(max_cards=max_cards, trick_scoring=True).forties_required == 0


def test_40_as_often_as_required_and_never_more() -> None:
    s = to_round(new_game(BaptistenRules(max_cards=7), seed=4), 3)
    for _ in range(3):  # seat 0 stakes 40 in rounds 3, 4 and 5
        s = play_round(s, {0: 40})
    assert s.owed[0] == 0 and s.owed[1] == 3
    assert s.cards == 6
    s = act(s, *["bid 0 stake 1"] * ((0 - s.first) % 4))
    assert s.to_move == 0
    assert 40 not in _stakes(s)
    assert _refusal(s, "bid 1 stake 40") == "you have staked 40 as often as required"
    end = play_out(s)
    stakes40 = [sum(1 for row in end.sheet if row.stakes[p] == 40) for p in range(4)]
    assert stakes40 == [3, 3, 3, 3]
    forced = [[row.round for row in end.sheet if row.forced[p]] for p in range(4)]
    # seats 1..3 never chose 40: it was entered in the last three rounds with 3+ cards
    assert forced == [[], [9, 10, 11], [9, 10, 11], [9, 10, 11]]
    assert [row.cards for row in end.sheet][8:11] == [5, 4, 3]


def test_forced_40_message_and_flag() -> None:
    rules = BaptistenRules(max_cards=5)  # rounds with 3+ cards: 3, 4, 5, 6, 7
    s = to_round(new_game(rules, seed=6), 5)
    assert s.owed == (3, 3, 3, 3)
    assert all(s.must_stake_40(p) for p in range(4))  # three owed, three rounds left
    s = play_round(s)
    assert s.round_no == 6 and s.owed == (2, 2, 2, 2)
    seat = s.to_move
    assert s.must_stake_40(seat)
    assert _stakes(s) == {40}
    assert _refusal(s, "bid 1 stake 5") == (
        "you still owe 2× 40 and only 2 rounds with 3 or more cards are left: "
        "your stake is 40")
    with refused("baptisten.forced_40", IllegalActionError, owed=2, left=2) as e:
        act(s, "bid 1 stake 5")
    assert e.value.text("de", you=seat) == (
        "Du musst noch 2-mal 40 setzen und es bleiben nur 2 Runden mit 3 oder mehr Karten: "
        "dein Einsatz ist 40")
    s = act(s, "bid 1 stake 40")
    assert s.stakes[seat] == 40 and s.forced[seat]
    s = to_round(s, 7)
    sheet = scoresheet(s, ["A", "B", "C", "D"])
    entries = {r["round"]: r["entries"] for r in sheet["rounds"]}
    assert [e["forced"] for e in entries[5]] == [True] * 4
    assert [e["stake"] for e in entries[6]] == [40] * 4
    assert [e["forced"] for e in entries[4]] == [False] * 4


def test_a_chosen_40_is_not_forced() -> None:
    rules = BaptistenRules(max_cards=5)
    s = to_round(new_game(rules, seed=6), 3)
    s = play_round(s, {1: 40})
    row = s.sheet[-1]
    assert row.stakes[1] == 40 and not row.forced[1]
    assert s.owed == (3, 2, 3, 3)
    s = play_round(s)  # round 4: three rounds with 3+ cards left after it
    assert not s.must_stake_40(1) and s.must_stake_40(0)
    assert _stakes(s) == {40}  # seat 0 starts round 5
    s = act(s, "bid 0 stake 40")
    assert s.to_move == 1 and _stakes(s) == {*range(1, 21), 40}


def test_forced_40_capped_with_a_small_n() -> None:
    # N = 3: one round with 3 cards, one 40 each, entered by force if nobody chose it
    s = to_round(new_game(BaptistenRules(max_cards=3), seed=2), 3)
    assert all(s.must_stake_40(p) for p in range(4))
    assert _refusal(s, "bid 0 stake 3") == (
        "you still owe 1× 40 and only 1 round with 3 or more cards is left: your stake is 40")
    with refused("baptisten.forced_40", IllegalActionError) as e:
        act(s, "bid 0 stake 3")
    assert e.value.text("de") == (
        f"Platz {s.to_move + 1} muss noch 1-mal 40 setzen und es bleibt nur 1 Runde mit 3 oder "
        "mehr Karten: der Einsatz ist 40")
    end = play_out(s)
    assert [row.stakes for row in end.sheet][2] == (40, 40, 40, 40)
    assert all(row.stakes == (1, 1, 1, 1) for i, row in enumerate(end.sheet) if i != 2)


def test_no_stakes_under_trick_scoring() -> None:
    rules = BaptistenRules(trick_scoring=True, max_cards=5)
    s = to_round(new_game(rules, seed=1), 3)
    assert s.owed == (0, 0, 0, 0)
    assert _stakes(s) == {None}
    assert set(s.legal_actions()) == {bid_action(t, None) for t in range(4)}
    assert _refusal(s, "bid 1 stake 5") == (
        "no stakes under trick scoring: bid just a number of tricks")
    assert act(s, "bid 1").stakes == (None,) * 4
    end = play_out(s)
    assert all(st is None for row in end.sheet for st in row.stakes)
    assert not any(f for row in end.sheet for f in row.forced)


def test_a_card_is_refused_while_bidding() -> None:
    s = new_game(DEFAULT, seed=1)
    card = s.deck.cards[(s.hands[0] & -s.hands[0]).bit_length() - 1]
    with refused("baptisten.bid_now", IllegalActionError, action=str(card)) as e:
        s.apply(card)
    assert e.value.text("de") == f"Jetzt wird angesagt (z. B. „bid 1 stake 5“), nicht „{card}“"
    with pytest.raises(IllegalActionError, match="cannot read bid"):
        s.parse_action("bid many")
