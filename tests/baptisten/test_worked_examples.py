"""The seed text's worked example and the table procedure: the 1 … N … 1 schedule, the
first player moving on, and trump from the turned (or drawn) card."""

from __future__ import annotations

import pytest

from stich.baptisten import BaptistenRules, BaptistenState, BBid, Deal, scoresheet
from stich.cards import PlainCard
from stich.core import IllegalActionError

from .game_helpers import DEFAULT, act, new_game, play_cards, play_round, to_round


def test_round_5_hook_rule_refuses_bid_1() -> None:
    # "In der 5. Runde sind bis zum vorletzten Spieler 4 Stiche angesagt. Der letzte
    # Spieler darf jetzt nicht einen Stich ansagen. ... muß er eben 2 oder 0 ansagen"
    s = to_round(new_game(DEFAULT, seed=5), 5)
    assert (s.round_no, s.cards, s.first, s.phase.name) == (5, 5, 0, "BIDDING")
    s = act(s, "bid 2 stake 10", "bid 1 stake 5", "bid 1 stake 3")
    assert s.to_move == 3
    assert s.hooked_bid() == 1
    with pytest.raises(IllegalActionError) as e:
        act(s, "bid 1 stake 5")
    assert e.value.code == "baptisten.hooked_bid"
    assert str(e.value) == "the bids may not add up to 5: seat 4 may bid 0, 2–5, not 1"
    assert e.value.text("en", you=3) == "the bids may not add up to 5: bid 0, 2–5, not 1"
    assert e.value.text("de", you=3) == (
        "Die Ansagen dürfen zusammen nicht 5 ergeben: sag 0, 2–5 an, nicht 1")
    assert {b.tricks for b in s.legal_actions() if isinstance(b, BBid)} == {0, 2, 3, 4, 5}
    for text in ("bid 0 stake 5", "bid 2 stake 5"):
        after = act(s, text)
        assert after.phase.name == "PLAY" and after.to_move == 0
    assert s.view(3).hooked == 1


def test_hook_message_when_the_refused_bid_is_0() -> None:
    s = to_round(new_game(DEFAULT, seed=2), 3)
    s = act(s, "bid 1 stake 1", "bid 1 stake 1", "bid 1 stake 1")
    with pytest.raises(IllegalActionError) as e:
        act(s, "bid 0 stake 1")
    assert e.value.params["allowed"] == "1–3" and e.value.params["bid"] == 0
    assert e.value.text("en", you=s.to_move) == "the bids may not add up to 3: bid 1–3, not 0"


@pytest.mark.parametrize("first", [0, 2])
def test_schedule_up_and_down_and_first_player_moves_on(first: int) -> None:
    rules = BaptistenRules(players=4, max_cards=10)
    s = BaptistenState.new(rules, seed=11, first=first)
    seen = []
    while not s.is_over:
        r = s.round_no
        assert s.first == (first + r - 1) % 4
        assert s.to_move == s.first  # deals and bids first
        # every hand holds the round's number of cards
        assert all(h.bit_count() == s.cards for h in s.hands)
        seen.append(s.cards)
        s = play_round(s)
        if not s.is_over:
            assert s.round_no == r + 1
    assert seen == [*range(1, 11), *range(9, 0, -1)]
    assert len(s.sheet) == 19
    assert [row.cards for row in s.sheet] == seen
    assert [row.first for row in s.sheet] == [(first + i) % 4 for i in range(19)]
    sheet = scoresheet(s, ["Anna", "Ben", "Cem", "Dora"])
    assert [rnd["first"] for rnd in sheet["rounds"]] == [(first + i) % 4 for i in range(19)]


def test_first_player_leads_the_first_trick() -> None:
    s = BaptistenState.new(BaptistenRules(players=5, max_cards=6), seed=4)
    while not s.is_over:
        first = s.first
        while s.phase.name == "BIDDING":
            s = s.apply(s.legal_actions()[0])
        assert s.to_move == first and s.leader == first
        card = s.legal_actions()[0]
        assert isinstance(card, PlainCard) and s.hands[first] & card.bit
        s = s.apply(card)
        assert s.trick == (card.index,) and s.to_move == (first + 1) % 5
        rounds = len(s.sheet)
        s = play_round(s)
        assert len(s.sheet) == rounds + 1


def test_trump_is_the_suit_of_the_turned_card() -> None:
    # round 3 with three players: the card after the deal is turned, blau 7
    rules = BaptistenRules(players=3, max_cards=6)
    s = new_game(rules, {3: (["R1 R2 R3", "G1 G2 G3", "Y1 Y2 Y3"], "B7")})
    s = to_round(s, 3)
    assert str(s.trump_card) == "B7"
    assert rules.card_deck.suit_names[s.trump] == "blau"
    # blau is trump: a blau 1 beats the rot 3 that was led
    s = act(s, "bid 0 stake 1", "bid 0 stake 1", "bid 0 stake 1")
    assert s.to_move == 2  # round 3: the third seat starts
    s = play_cards(s, "Y3", "R1", "G1")
    assert s.round_tricks[-1][2] == 2  # nobody trumped: the led suit wins
    # rounds dealt from a seed: the turned card is never in a hand
    for deal in BaptistenState.new(rules, seed=9).deals:
        assert not any(h >> deal.trump_card & 1 for h in deal.hands)


def test_trump_scoresheet_column_names_the_suit() -> None:
    rules = BaptistenRules(players=3, max_cards=3)
    s = new_game(rules, {1: (["R5", "G5", "Y5"], "G9")})
    s = play_round(s)
    sheet = scoresheet(s, ["A", "B", "C"])
    assert sheet["rounds"][0]["trump"] == "grün"
    assert sheet["rounds"][0]["entries"][1]["tricks"] == 1  # grün 5 is trump


@pytest.mark.parametrize("seed", range(8))
def test_trump_drawn_before_dealing_when_the_middle_round_uses_the_whole_deck(
        seed: int) -> None:
    rules = BaptistenRules(players=4, max_cards=20)  # 4 x 20 = all 80 Elfer raus cards
    s = BaptistenState.new(rules, seed=seed)
    deck = rules.card_deck
    for r, deal in enumerate(s.deals, 1):
        dealt = 0
        for h in deal.hands:
            dealt |= h
        if r == 20:
            # the drawn card was shuffled back and dealt like every other card
            assert dealt == deck.full_mask
            assert dealt >> deal.trump_card & 1
        else:
            assert not dealt >> deal.trump_card & 1
    mid = to_round(s, 20)
    assert mid.cards == 20
    assert mid.trump == deck.cards[s.deals[19].trump_card].suit >= 0


def test_given_deals_may_hold_the_drawn_trump_card_only_in_a_whole_deck_round() -> None:
    rules = BaptistenRules(players=4, max_cards=20)
    deals = list(BaptistenState.new(rules, seed=1).deals)
    mid = deals[19]
    holder = next(p for p in range(4) if mid.hands[p] >> 0 & 1)
    deals[19] = Deal(mid.hands, 0)  # R1, in a hand: drawn before the deal
    s = to_round(BaptistenState.new(rules, deals=deals), 20)
    assert s.trump == 0 and s.hands[holder] & 1
    third = deals[2]
    in_hand = (third.hands[0] & -third.hands[0]).bit_length() - 1
    deals[2] = Deal(third.hands, in_hand)
    with pytest.raises(ValueError, match="round 3: the turned trump card was dealt"):
        BaptistenState.new(rules, deals=deals)


def test_after_deal_trump_needs_a_card_left() -> None:
    BaptistenRules(players=4, max_cards=20)  # the card is drawn before the deal
    with pytest.raises(ValueError, match=r"max_cards must be 1\.\.19"):
        BaptistenRules(players=4, max_cards=20, trump_card="after_deal")


def test_no_trump_when_the_joker_is_turned() -> None:
    rules = BaptistenRules(deck="romme-double-joker", players=3, max_cards=6)
    s = new_game(rules, {3: (["HA S2 S3", "C3 H4 H5", "C5 D2 D3"], "JK")})
    s = to_round(s, 3)
    assert s.trump_card.is_joker and s.trump == -1
    s = act(s, "bid 0 stake 1", "bid 0 stake 1", "bid 0 stake 1")
    assert s.first == 2
    # no trump: the Herz Ass of a player without Kreuz does not beat the led Kreuz 5
    s = play_cards(s, "C5", "HA", "C3")
    assert s.round_tricks[-1][2] == 2
    s = play_cards(s, "D2", "S2", "H4")
    assert s.round_tricks[-1][2] == 2  # off-suit cards never win without trump
    s = play_cards(s, "D3", "S3", "H5")
    assert s.round_no == 4
    sheet = scoresheet(s, ["A", "B", "C"])
    assert sheet["rounds"][2]["trump"] is None
    assert sheet["rounds"][2]["entries"][2]["tricks"] == 3


def test_the_drawn_card_differs_from_game_to_game() -> None:
    rules = BaptistenRules(players=4, max_cards=20)
    drawn = {BaptistenState.new(rules, seed=seed).deals[19].trump_card for seed in range(8)}
    assert len(drawn) > 1


def test_no_trump_when_the_joker_is_drawn_before_a_whole_deck_round() -> None:
    # 15 players with 2 x 52 + joker: the middle round deals all 105 cards
    rules = BaptistenRules(deck="romme-double-joker", players=15, max_cards=7)
    deck = rules.card_deck
    joker = deck.parse("JK")
    deals = list(BaptistenState.new(rules, seed=3).deals)
    mid = deals[6]
    assert sum(h.bit_count() for h in mid.hands) == 105
    deals[6] = Deal(mid.hands, joker.index)  # the joker was drawn and shuffled back
    s = to_round(BaptistenState.new(rules, deals=deals), 7)
    assert s.cards == 7 and s.trump == -1 and s.trump_card.is_joker
    s = play_round(s)
    assert scoresheet(s, [str(p) for p in range(15)])["rounds"][6]["trump"] is None
