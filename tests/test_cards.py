"""Cards and card sets: every text form of every card reads back to the same card."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stich.cards import (
    CARDS,
    PLAIN_DECKS,
    Card,
    CardError,
    Rank,
    Suit,
    card_points,
    cards_of,
    format_cards,
    mask_of,
    parse_cards,
    plain_deck,
)
from stich.messages import Cards
from stich.skat.actions import parse_action
from tests.refusals import refused


@pytest.mark.parametrize("style", ["code", "german", "french", "english", "symbol"])
def test_every_skat_card_round_trips_in_every_style(style: str) -> None:
    for card in CARDS:
        assert Card.parse(card.name_in(style)) is card


def test_names_of_the_rule_text() -> None:
    assert Card.parse("CJ").german == "Eichel Unter"
    assert Card.parse("CJ").french == "Kreuz Bube"
    assert Card.parse("HT").german == "Herz 10"
    assert Card.parse("D7").french == "Karo 7"
    assert Card.parse("Grün Ass") is Card.parse("gruen-ass") is Card.parse("Pik Ass")
    assert Card.parse("Schellen Ober") is Card.parse("Karo Dame") is Card.parse("DQ")
    assert [s.german for s in Suit] == ["Schellen", "Herz", "Grün", "Eichel"]
    assert [s.french for s in Suit] == ["Karo", "Herz", "Pik", "Kreuz"]


def test_card_points_total_120() -> None:
    assert card_points((1 << 32) - 1) == 120
    assert [Rank.parse(r).points for r in ("A", "T", "K", "Q", "J", "9", "8", "7")] == [
        11, 10, 4, 3, 2, 0, 0, 0]


def test_unknown_cards_are_refused_with_a_reason() -> None:
    with refused("cards.unknown_card", CardError, text="XZ") as e:
        Card.parse(" XZ ")
    assert str(e.value) == "unknown card 'XZ': write e.g. CJ, HT, D7 or 'Eichel Unter'"
    assert e.value.text("de") == ("Unbekannte Karte „XZ“: schreib z. B. CJ, HT, D7 oder "
                                  "„Eichel Unter“")
    with refused("cards.given_twice", CardError, card=Cards(Card.parse("CJ").bit)) as e:
        parse_cards("CJ CJ")
    assert str(e.value) == "card CJ given twice"
    assert e.value.text("de") == "Die Karte CJ ist doppelt angegeben"
    with refused("cards.unknown_suit", CardError, text="Blatt"):
        Suit.parse("Blatt")
    with refused("cards.unknown_rank", CardError, text="Bube7"):
        Rank.parse("Bube7")
    with refused("cards.unknown_style", CardError, style="klingon"):
        CARDS[0].name_in("klingon")
    assert isinstance(e.value, ValueError)  # callers catching ValueError keep working


def test_unknown_deck_cards_and_decks_are_refused() -> None:
    deck = plain_deck("elferraus")
    with refused("cards.unknown_deck_card", CardError, text="R21", deck="elferraus") as e:
        deck.parse("R21")
    assert str(e.value) == "unknown card 'R21' in the elferraus deck (e.g. R1 B20)"
    assert e.value.text("de") == "Unbekannte Karte „R21“ im Blatt elferraus (z. B. R1 B20)"
    with refused("cards.too_many_copies", CardError, copies=1) as e:
        deck.parse_set("R1 R1")
    assert str(e.value) == "card R1 given more often than the deck has it (1 copy)"
    with refused("cards.unknown_deck", CardError, name="tarot") as e:
        plain_deck("tarot")
    assert e.value.text("de").startswith("Unbekanntes Blatt „tarot“: möglich sind elferraus,")


@given(st.integers(min_value=0, max_value=(1 << 32) - 1))
def test_sets_round_trip_through_text(mask: int) -> None:
    assert parse_cards(format_cards(mask)) == mask
    assert mask_of(cards_of(mask)) == mask


def test_a_card_is_an_action_whose_text_is_its_code() -> None:
    for card in CARDS:
        assert parse_action(str(card)) is card


@pytest.mark.parametrize("name", sorted(PLAIN_DECKS))
def test_every_plain_deck_card_round_trips(name: str) -> None:
    deck = plain_deck(name)
    for card in deck.cards:
        first = deck.same_kind(card)[0]
        for text in (card.code, card.german, card.english):
            assert deck.parse(text) is first
    both = deck.full_mask
    assert deck.parse_set(deck.format(both)) == both


def test_plain_deck_sizes() -> None:
    sizes = {n: d.size for n, d in PLAIN_DECKS.items()}
    assert sizes == {"elferraus": 80, "elferraus-double": 160, "skat": 32, "skat-double": 64,
                     "romme": 52, "romme-double": 104, "romme-double-joker": 105}
