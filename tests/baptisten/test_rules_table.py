"""The table: players, N, the decks and their rank order, presets and rule strings."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from stich.baptisten import PRESETS, BaptistenRules, BaptistenState, Deal
from stich.cards import PLAIN_DECKS, plain_deck
from stich.core import ArgumentError, RulesError
from stich.messages import Seat

from ..refusals import refused
from .game_helpers import act, new_game, to_round

DECK_SIZES = {
    "elferraus": 80, "skat": 32, "romme": 52, "elferraus-double": 160, "skat-double": 64,
    "romme-double": 104, "romme-double-joker": 105,
}


def test_every_deck_has_its_size() -> None:
    assert {name: d.size for name, d in PLAIN_DECKS.items()} == DECK_SIZES
    assert BaptistenRules().deck == "elferraus"


@pytest.mark.parametrize("name", sorted(DECK_SIZES))
def test_players_3_up_to_deck_size_over_7(name: str) -> None:
    most = DECK_SIZES[name] // 7
    BaptistenRules(deck=name, players=3, max_cards=1)
    BaptistenRules(deck=name, players=most, max_cards=1)
    with refused("baptisten.too_few_players", RulesError, least=3, players=2) as e:
        BaptistenRules(deck=name, players=2, max_cards=1)
    assert str(e.value) == "Baptistenskat needs at least 3 players, not 2"
    assert e.value.text("de") == "Baptistenskat braucht mindestens 3 Spieler, nicht 2"
    with refused("baptisten.too_many_players", RulesError, most=most, deck=name) as e:
        BaptistenRules(deck=name, players=most + 1, max_cards=1)
    assert str(e.value).startswith(f"at most {most} players with the {name} deck")


def test_player_limits_named_in_the_seed() -> None:
    # Elfer raus: at most 11 players; 13 players with 104 cards; 15 with 2 x 52 + joker
    assert BaptistenRules(players=11, max_cards=7).players == 11
    assert BaptistenRules(deck="romme-double", players=13, max_cards=8).players == 13
    joker = BaptistenRules(deck="romme-double-joker", players=15, max_cards=7)
    assert joker.max_cards * joker.players == 105  # everybody gets 7 cards
    with pytest.raises(ValueError):
        BaptistenRules(deck="romme-double", players=15, max_cards=6)


@pytest.mark.parametrize(("deck", "players"), [
    ("elferraus", 4), ("elferraus", 11), ("skat", 3), ("skat", 4), ("romme", 5),
    ("romme-double-joker", 15), ("elferraus-double", 22),
])
def test_max_cards_1_up_to_deck_size_over_players(deck: str, players: int) -> None:
    most = DECK_SIZES[deck] // players
    assert BaptistenRules(deck=deck, players=players, max_cards=most).max_cards == most
    assert BaptistenRules(deck=deck, players=players, max_cards=1).schedule() == (1,)
    for bad in (0, most + 1):
        with pytest.raises(ValueError, match=rf"max_cards must be 1\.\.{most}"):
            BaptistenRules(deck=deck, players=players, max_cards=bad)


def test_schedule() -> None:
    assert BaptistenRules(max_cards=10).schedule() == (
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
    assert BaptistenRules(max_cards=3).schedule() == (1, 2, 3, 2, 1)
    assert len(BaptistenRules(max_cards=13).schedule()) == 25
    assert BaptistenRules(max_cards=7, rounds="single").schedule() == (7,)


def _ranks(deck: str) -> list[str]:
    d = plain_deck(deck)
    return [d.cards[i].code[1:] for i in range(len(d.rank_codes))]


def test_rank_order_of_each_deck() -> None:
    # the cards of one suit, lowest first (card index order within a suit is rank order)
    assert _ranks("skat") == ["7", "8", "9", "T", "J", "Q", "K", "A"]
    assert _ranks("romme") == ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K",
                               "A"]
    assert _ranks("elferraus") == [str(n) for n in range(1, 21)]
    for name in DECK_SIZES:
        d = plain_deck(name)
        for c in d.cards:
            if not c.is_joker:
                assert c.rank == c.kind % len(d.rank_codes)
    skat = plain_deck("skat")
    assert skat.parse("Herz 10").rank > skat.parse("Herz 9").rank
    assert skat.parse("Herz Bube").rank > skat.parse("Herz 10").rank
    assert skat.parse("Herz Dame").rank > skat.parse("Herz Bube").rank
    assert skat.parse("Herz Ass").rank > skat.parse("Herz König").rank


@pytest.mark.parametrize(("deck", "lead", "low", "high"), [
    ("skat", "HT", "H9", "HJ"),  # the 10 between 9 and Bube
    ("skat", "HQ", "HJ", "HK"),
    ("skat-double", "CK", "CQ", "CA"),
    ("romme", "ST", "S9", "SJ"),
    ("romme", "DK", "DQ", "DA"),
    ("romme-double", "C2", "C2", "C3"),
    ("elferraus", "R10", "R9", "R11"),
    ("elferraus", "G19", "G18", "G20"),
    ("elferraus-double", "B1", "B1", "B2"),
])
def test_each_deck_plays_in_its_rank_order(deck: str, lead: str, low: str,
                                           high: str) -> None:
    # round 3 of three players, trump from a fourth suit card that nobody plays
    d = plain_deck(deck)
    rules = BaptistenRules(deck=deck, players=3, max_cards=6)
    suit_of_lead = d.parse(lead).suit
    other = next(s for s in range(4) if s != suit_of_lead)
    spare = [c.code for c in d.cards if c.suit == other]
    trump_code = spare[-1]
    # seat 2 leads in round 3; seat 0 plays low, seat 1 plays high
    hands = [f"{low} {spare[0]} {spare[1]}", f"{high} {spare[2]} {spare[3]}",
             f"{lead} {spare[4]} {spare[5]}"]
    s = to_round(new_game(rules, {3: (hands, trump_code)}), 3)
    s = act(s, "bid 0 stake 1", "bid 0 stake 1", "bid 0 stake 1", lead, low, high)
    assert s.round_tricks[0][2] == 1


def test_ohhell_preset() -> None:
    r = PRESETS["ohhell"]
    assert BaptistenRules.preset("ohhell") is r
    assert (r.players, r.max_cards, r.deck) == (3, 7, "romme")
    assert r.trick_scoring and r.hook_always
    assert not r.forehead and not r.must_overtrump
    assert (r.points_per_trick, r.exact_bonus, r.exact_zero_bonus) == (1, 10, 10)
    assert r.rounds == "single" and r.trump_card == "after_deal"
    assert r.schedule() == (7,) and r.forties_required == 0
    assert str(r) == "baptisten(preset=ohhell)"
    assert BaptistenRules.parse("ohhell") == r
    s = BaptistenState.new(r, seed=1)
    assert s.cards == 7 and len(s.deals) == 1


def test_default_preset() -> None:
    r = BaptistenRules()
    assert PRESETS["default"] == r
    assert (r.deck, r.players, r.max_cards, r.variants) == ("elferraus", 4, 10, ())
    assert (r.rounds, r.trump_card) == ("updown", "baptisten")
    assert str(r) == "baptisten(preset=default)"
    with pytest.raises(ValueError, match="unknown Baptistenskat preset"):
        BaptistenRules.preset("bridge")


@pytest.mark.parametrize("rules", [
    BaptistenRules(),
    BaptistenRules(deck="romme", max_cards=7, forehead=True, must_overtrump=True),
    BaptistenRules(deck="skat", players=3, max_cards=5, trick_scoring=True),
    BaptistenRules(deck="romme-double-joker", players=15, max_cards=7, hook_always=True),
    BaptistenRules(deck="elferraus-double", players=6, max_cards=13, forehead=True,
                   trick_scoring=True, hook_always=True, must_overtrump=True),
    BaptistenRules(trick_scoring=True, points_per_trick=3, exact_bonus=5,
                   exact_zero_bonus=7),
    BaptistenRules(players=3, max_cards=9, rounds="single", trump_card="after_deal"),
    dataclasses.replace(PRESETS["ohhell"], players=4),
    dataclasses.replace(PRESETS["ohhell"], hook_always=False, forehead=True),
])
def test_rule_strings_round_trip(rules: BaptistenRules) -> None:
    text = str(rules)
    assert text.startswith("baptisten(preset=")
    assert BaptistenRules.parse(text) == rules


def test_rule_string_with_variants() -> None:
    r = BaptistenRules.parse("baptisten(deck=romme,max_cards=7,variants=2+5)")
    assert r == BaptistenRules(deck="romme", max_cards=7, forehead=True, must_overtrump=True)
    assert r.variants == (2, 5)
    assert str(r) == "baptisten(preset=default,deck=romme,max_cards=7,variants=2+5)"
    assert BaptistenRules.parse("baptisten(variants=3+4)") == BaptistenRules(
        trick_scoring=True, hook_always=True)
    assert BaptistenRules.parse("baptisten(preset=ohhell,variants=none)").variants == ()
    assert BaptistenRules.parse("baptisten(forehead=yes)").variants == (2,)


@pytest.mark.parametrize(("text", "code", "message"), [
    ("skat", "rules.not_a_rule_string", "not a Baptistenskat rule string"),
    ("baptisten(variants=1)", "baptisten.variant_1", "variant 1 is the deck"),
    ("baptisten(variants=6)", "baptisten.unknown_variant", "unknown variant"),
    ("baptisten(colour=red)", "rules.unknown_option", "unknown Baptistenskat rule option"),
    ("baptisten(max_cards=ten)", "rules.option_number", "must be a number"),
    ("baptisten(forehead=maybe)", "rules.option_yes_no", "must be yes or no"),
    ("baptisten(deck=tarot)", "cards.unknown_deck", "unknown deck"),
    ("baptisten(players)", "rules.option_needs_value", "needs a value"),
    ("baptisten(players=12)", "baptisten.too_many_players", "at most 11 players"),
    ("baptisten(preset=x)", "rules.unknown_preset", "unknown Baptistenskat preset"),
    ("baptisten(rounds=twice)", "rules.option_choice", "rounds must be one of updown, single"),
])
def test_bad_rule_strings(text: str, code: str, message: str) -> None:
    with refused(code) as e:
        BaptistenRules.parse(text)
    assert isinstance(e.value, ValueError)  # callers that catch ValueError keep working
    assert message in str(e.value)
    assert e.value.text("de") != str(e.value)


def test_given_deals_are_checked() -> None:
    rules = BaptistenRules(players=3, max_cards=3)
    deals = list(BaptistenState.new(rules, seed=1).deals)
    with refused("baptisten.deal_count", ArgumentError, rounds=5, deals=4) as e:
        BaptistenState.new(rules, deals=deals[:4])
    assert str(e.value) == "5 rounds need 5 deals, not 4"
    assert e.value.text("de") == "5 Runden brauchen 5 Kartenverteilungen, nicht 4"
    d = rules.card_deck
    bad = [*deals]
    bad[1] = Deal((d.parse_set("R1 R2"), d.parse_set("R3"), d.parse_set("R4 R5")), 79)
    with refused("baptisten.deal_hand_size", ArgumentError, round=2, n=1, k=2,
                 seat=Seat(1, 3, named=False)) as e:
        BaptistenState.new(rules, deals=bad)
    assert str(e.value) == "round 2: seat 2 has 1 card, not 2"
    assert e.value.text("de") == "Runde 2: Platz 2 hat 1 Karte, nicht 2"
    bad[1] = Deal((d.parse_set("R1 R2"), d.parse_set("R2 R3"), d.parse_set("R4 R5")), 79)
    with refused("baptisten.deal_twice", ArgumentError, round=2):
        BaptistenState.new(rules, deals=bad)
    bad[1] = Deal((d.parse_set("R1 R2"), d.parse_set("R3 R6")), 79)
    with refused("baptisten.deal_hands", ArgumentError, round=2, players=3, hands=2):
        BaptistenState.new(rules, deals=bad)
    bad[1] = Deal((d.parse_set("R1 R2"), d.parse_set("R3 R6"), d.parse_set("R4 R5")), 80)
    with refused("baptisten.trump_not_in_deck", ArgumentError, round=2):
        BaptistenState.new(rules, deals=bad)
    with refused("baptisten.bad_first", ArgumentError, last=2, given=3) as e:
        BaptistenState.new(rules, seed=1, first=3)
    assert str(e.value) == "first must be a seat 0..2, not 3"


def test_a_round_not_yet_begun_can_be_dealt_again() -> None:
    rules = BaptistenRules(players=3, max_cards=3)
    other = BaptistenState.new(rules, seed=2, first=1).deals
    s = to_round(BaptistenState.new(rules, seed=1, first=1), 2)
    again = s.redealt(other[1])
    assert again.hands == other[1].hands and again.deals[1] == other[1]
    assert again.deals[0] == s.deals[0] and again.deals[2:] == s.deals[2:]
    assert again.trump_card == rules.card_deck.cards[other[1].trump_card]
    assert again.trump == rules.card_deck.cards[other[1].trump_card].suit
    assert again.to_move == s.to_move and again.round_no == 2
    assert s.hands == s.deals[1].hands  # the state it came from is unchanged
    # the round is played with the new cards, the replay too
    done = to_round(again, 3)
    assert done.sheet == to_round(BaptistenState.new(rules, deals=done.deals, first=1),
                                  3).sheet
    d = rules.card_deck
    with refused("baptisten.deal_twice", ArgumentError, round=2):
        s.redealt(Deal((d.parse_set("R1 R2"), d.parse_set("R2 R3"),
                        d.parse_set("R4 R5")), 79))
    begun = s.apply(s.legal_actions()[0])
    with refused("baptisten.redeal_begun", ArgumentError, round=2) as e:
        begun.redealt(other[1])
    assert str(e.value) == ("round 2 has begun: only a round nobody has bid in can be "
                            "dealt again")


def test_draw_for_the_first_player_highest_card_starts_ties_draw_again() -> None:
    import random

    from stich.baptisten import draw_first_player

    rules = BaptistenRules(players=4, max_cards=5, deck="skat")  # 8 ranks: ties are common
    ties = 0
    for seed in range(200):
        first, draws = draw_first_player(rules, random.Random(seed))
        deck = rules.card_deck
        last = draws[-1]
        top = max(deck.cards[c].rank for _, c in last)
        assert [s for s, c in last if deck.cards[c].rank == top] == [first]
        for earlier, later in itertools.pairwise(draws):
            top_e = max(deck.cards[c].rank for _, c in earlier)
            tied = [s for s, c in earlier if deck.cards[c].rank == top_e]
            assert len(tied) > 1 and [s for s, _ in later] == tied
            ties += 1
    assert ties > 0
