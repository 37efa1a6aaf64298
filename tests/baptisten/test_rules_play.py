"""Play: following suit, trump, the later identical card, the joker, forehead rounds
(variant 2) and must-overtrump (variant 5)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from stich.baptisten import FOREHEAD_PLAY, BaptistenRules, BaptistenState, BBid
from stich.core import IllegalActionError
from stich.messages import Cards, Seat, SuitName

from ..refusals import refused
from .game_helpers import act, new_game, play_round, to_round

ELFER = BaptistenRules(players=3, max_cards=6)
JOKER = BaptistenRules(deck="romme-double-joker", players=3, max_cards=6)


def round_3(rules: BaptistenRules, hands: Sequence[str], trump: str) -> BaptistenState:
    """Round 3 of three players after everybody bid 0: seat 2 leads, then 0, then 1."""
    s = to_round(new_game(rules, {3: (hands, trump)}), 3)
    s = act(s, *(["bid 0"] if rules.trick_scoring else ["bid 0 stake 1"]) * 3)
    assert s.phase.name == "PLAY" and s.to_move == 2
    return s


def codes(state: BaptistenState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def refusal(state: BaptistenState, text: str, lang: str = "en") -> str:
    """The refusal of ``text`` as the player to move reads it."""
    with pytest.raises(IllegalActionError) as e:
        act(state, text)
    return e.value.text(lang, you=state.to_move)


def winner(state: BaptistenState) -> int:
    return state.round_tricks[-1][2]


def test_follow_suit() -> None:
    s = round_3(ELFER, ["B3 R20 G1", "B9 Y2 Y3", "B5 R1 R2"], "Y20")
    s = act(s, "B5")
    assert codes(s) == ["B3"]
    assert refusal(s, "R20") == "you must follow blue: you hold B3"
    assert refusal(s, "R20", "de") == "Du musst blau bedienen: du hast B3"
    with refused("baptisten.must_follow", IllegalActionError,
                 seat=Seat(0, 3, named=False), suit=SuitName(3, "elferraus"),
                 cards=Cards(ELFER.card_deck.parse("B3").bit, "elferraus")) as e:
        act(s, "R20")
    assert str(e.value) == "seat 1 must follow blue: seat 1 holds B3"
    assert e.value.text("de") == "Platz 1 muss blau bedienen: Platz 1 hat B3"
    s = act(s, "B3")
    assert refusal(s, "Y2") == "you must follow blue: you hold B9"
    s = act(s, "B9")
    assert winner(s) == 1  # the highest card of the led suit


def test_without_the_led_suit_any_card_trump_included() -> None:
    s = round_3(ELFER, ["R20 G1 Y1", "Y2 G2 G3", "B5 R1 R2"], "Y20")
    s = act(s, "B5")
    assert sorted(codes(s)) == ["G1", "R20", "Y1"]
    assert winner(act(s, "R20", "G2")) == 2  # off-suit cards do not win
    assert winner(act(s, "Y1", "G2")) == 0  # a trump beats the led suit
    assert winner(act(s, "Y1", "Y2")) == 1  # the highest trump wins


def test_low_trump_beats_the_highest_card_of_the_led_suit() -> None:
    s = round_3(ELFER, ["R20 G1 G2", "Y1 G3 G4", "R19 B1 B2"], "Y20")
    s = act(s, "R19", "R20", "Y1")
    assert winner(s) == 1


def test_trump_led() -> None:
    s = round_3(ELFER, ["Y1 R20 G1", "R2 G2 G3", "Y5 R1 B1"], "Y20")
    s = act(s, "Y5")
    assert codes(s) == ["Y1"]
    s = act(s, "Y1", "R2")
    assert winner(s) == 2


@pytest.mark.parametrize(("deck", "card"), [
    ("elferraus-double", "B5"), ("skat-double", "HA"), ("romme-double", "S7"),
    ("romme-double-joker", "C2"),
])
def test_later_identical_card_beats_the_earlier(deck: str, card: str) -> None:
    rules = BaptistenRules(deck=deck, players=3, max_cards=6)
    d = rules.card_deck
    suit = d.parse(card).suit
    others = [c.code for c in d.cards if 0 <= c.suit != suit][:8]
    low = next(c.code for c in d.cards if c.suit == suit)  # the lowest of the suit
    if low == card:
        low = others.pop()  # cannot follow: an off-suit card
    hands = [f"{card} {others[0]} {others[1]}", f"{low} {others[2]} {others[3]}",
             f"{card} {others[4]} {others[5]}"]
    side = d.parse(others[0]).suit
    trump = next(c.code for c in d.cards if 0 <= c.suit != suit and c.suit != side)
    s = round_3(rules, hands, trump)
    t = act(s, card, card, low)
    lead_copy, second_copy = t.round_tricks[-1][1][:2]
    assert lead_copy != second_copy and d.cards[lead_copy].kind == d.cards[second_copy].kind
    assert winner(t) == 0


def test_later_identical_trump_beats_the_earlier() -> None:
    rules = BaptistenRules(deck="elferraus-double", players=3, max_cards=6)
    s = round_3(rules, ["Y7 G1 G2", "Y7 G3 G4", "R3 R1 R2"], "Y20")
    s = act(s, "R3", "Y7", "Y7")
    assert winner(s) == 1


def test_joker_beats_every_card() -> None:
    # Herz is trump; the joker beats the Herz Ass that was led and a Kreuz Ass
    s = round_3(JOKER, ["JK C2 C3", "HK D2 D3", "HA CA S3"], "H2")
    assert s.trump == JOKER.card_deck.parse("H2").suit
    assert winner(act(s, "HA", "JK", "HK")) == 0
    s2 = round_3(JOKER, ["JK D4 D5", "CA D2 D3", "C5 S2 S3"], "H2")
    assert winner(act(s2, "C5", "JK", "CA")) == 0


def test_joker_led_the_next_card_fixes_the_suit() -> None:
    s = round_3(JOKER, ["D3 HA S4", "D9 HK C2", "JK S2 S3"], "H2")
    s = act(s, "JK")
    assert sorted(codes(s)) == ["D3", "HA", "S4"]  # no suit to follow yet
    s = act(s, "D3")
    assert codes(s) == ["D9"]
    assert refusal(s, "HK") == "you must follow Diamonds: you hold D9"
    assert refusal(s, "HK", "de") == "Du musst Karo bedienen: du hast D9"
    s = act(s, "D9")
    assert winner(s) == 2  # the joker wins the trick it led
    t = act(round_3(JOKER, ["D3 H5 S4", "D9 HK C2", "JK S2 S3"], "H2"), "JK", "H5")
    assert codes(t) == ["HK"]  # a trump after the joker: trump must be followed


def test_joker_follows_the_follow_suit_rule() -> None:
    # "Follow suit if you can; otherwise play any card": the joker has no suit, so it is
    # played only by a player who cannot follow (or leads it)
    s = round_3(JOKER, ["C2 JK D4", "CA D2 D3", "C5 S2 S3"], "H2")
    s = act(s, "C5")
    assert codes(s) == ["C2"]
    assert refusal(s, "JK") == "you must follow Clubs: you hold C2"
    void = act(round_3(JOKER, ["JK D4 D5", "CA D2 D3", "C5 S2 S3"], "H2"), "C5")
    assert "JK" in codes(void)


def test_card_not_held() -> None:
    s = round_3(ELFER, ["B3 R20 G1", "B9 Y2 Y3", "B5 R1 R2"], "Y20")
    assert refusal(s, "G7") == "you do not hold G7"
    assert refusal(s, "G7", "de") == "Du hast G7 nicht"
    with refused("baptisten.not_held", IllegalActionError, seat=Seat(2, 3, named=False),
                 cards=Cards(ELFER.card_deck.parse("G7").bit, "elferraus")) as e:
        act(s, "G7")
    assert str(e.value) == "seat 3 does not hold G7"
    assert e.value.text("de") == "Platz 3 hat G7 nicht"
    with refused("game.play_a_card", IllegalActionError, action="bid 0 stake 1"):
        s.apply(BBid(0, 1))


# --- variant 5: must overtrump ----------------------------------------------------------

OVER = BaptistenRules(players=3, max_cards=6, must_overtrump=True)


def test_must_overtrump_when_trump_is_led() -> None:
    s = round_3(OVER, ["Y5 Y15 R1", "Y12 B1 B2", "Y10 R2 R3"], "Y20")
    s = act(s, "Y10")
    assert codes(s) == ["Y15"]
    assert refusal(s, "Y5") == "you must overtrump: play a higher yellow (Y15)"
    assert refusal(s, "Y5", "de") == (
        "Du musst überstechen, also einen höheren Trumpf (gelb) spielen: Y15")
    s = act(s, "Y15")
    # the Y12 cannot beat the Y15: any trump, and it must still be a trump
    assert codes(s) == ["Y12"]
    assert refusal(s, "B1") == "you must follow yellow: you hold Y12"
    assert winner(act(s, "Y12")) == 0


def test_must_overtrump_without_trump_any_card() -> None:
    s = round_3(OVER, ["R5 G15 R1", "Y12 B1 B2", "Y10 R2 R3"], "Y20")
    s = act(s, "Y10")
    assert sorted(codes(s)) == ["G15", "R1", "R5"]


def test_without_variant_5_any_trump_may_follow_trump() -> None:
    s = round_3(ELFER, ["Y5 Y15 R1", "Y12 B1 B2", "Y10 R2 R3"], "Y20")
    s = act(s, "Y10")
    assert sorted(codes(s)) == ["Y15", "Y5"]
    assert winner(act(s, "Y5", "Y12")) == 1


def test_must_overtrump_only_when_trump_is_led() -> None:
    s = round_3(OVER, ["B1 B9 R1", "Y12 Y3 B2", "B5 R2 R3"], "Y20")
    s = act(s, "B5")
    assert sorted(codes(s)) == ["B1", "B9"]  # follow suit, no need to beat
    s = act(s, "B1")
    # a player who trumps in a non-trump trick may use any trump
    assert sorted(codes(s)) == ["B2"]
    t = act(round_3(OVER, ["Y5 Y15 R1", "Y12 G1 G2", "B5 R2 R3"], "Y20"), "B5", "Y15")
    assert sorted(codes(t)) == ["G1", "G2", "Y12"]


def test_must_overtrump_an_identical_trump_is_higher() -> None:
    # of two identical cards the later wins, so it counts as higher
    rules = BaptistenRules(deck="elferraus-double", players=3, max_cards=6,
                           must_overtrump=True)
    s = round_3(rules, ["Y10 Y5 R1", "Y2 G1 G2", "Y10 R2 R3"], "Y20")
    s = act(s, "Y10")
    assert codes(s) == ["Y10"]
    assert winner(act(s, "Y10", "Y2")) == 0


# --- variant 2: forehead rounds ---------------------------------------------------------

FOREHEAD = BaptistenRules(players=3, max_cards=3, forehead=True)


def test_forehead_round_view_shows_the_others_cards_not_the_own() -> None:
    s = new_game(FOREHEAD, {1: (["R7", "G9", "B2"], "Y1")})
    assert s.is_forehead_round
    for seat in range(3):
        v = s.view(seat)
        assert v.hand == 0
        assert v.others[seat] == 0
        assert [v.others[p] for p in range(3) if p != seat] == [
            s.hands[p] for p in range(3) if p != seat]
    s = act(s, "bid 1 stake 5", "bid 0 stake 5")
    v = s.view(2)
    assert all(isinstance(a, BBid) for a in v.legal_actions)
    s = act(s, "bid 1 stake 5")
    assert s.phase.name == "PLAY"
    v = s.view(0)
    assert v.legal_actions == (FOREHEAD_PLAY,) and str(v.legal_actions[0]) == "play"
    s = act(s, "play")
    assert s.trick == (FOREHEAD.card_deck.parse("R7").index,)
    assert s.view(1).legal_actions == (FOREHEAD_PLAY,)
    s = s.apply(FOREHEAD_PLAY).apply(s.parse_action("play"))
    assert s.round_no == 2
    assert s.sheet[0].tricks == (1, 0, 0)  # the led rot 7: nobody followed, nobody trumped


def test_forehead_only_in_rounds_with_one_card() -> None:
    s = play_round(new_game(FOREHEAD, seed=3))
    assert s.cards == 2 and not s.is_forehead_round
    v = s.view(s.to_move)
    assert v.hand == s.hands[s.to_move] and not any(v.others)
    s = act(s, "bid 0 stake 1", "bid 0 stake 1", "bid 0 stake 1")
    assert refusal(s, "play") == "'play' without naming a card is only for forehead rounds"
    s = to_round(s, 5)
    assert s.cards == 1 and s.is_forehead_round  # the last round too
    assert s.view(0).hand == 0


def test_without_variant_2_the_one_card_round_is_seen() -> None:
    s = new_game(BaptistenRules(players=3, max_cards=3), {1: (["R7", "G9", "B2"], "Y1")})
    assert not s.is_forehead_round
    assert s.view(0).hand == s.hands[0] and not any(s.view(0).others)
    s = act(s, "bid 0 stake 1", "bid 0 stake 1", "bid 0 stake 1")
    assert s.view(0).legal_actions == (FOREHEAD.card_deck.parse("R7"),)
    assert refusal(s, "play") == "'play' without naming a card is only for forehead rounds"
