"""The messages' plain names of cards, suits and games (:data:`stich.messages.PLAIN`,
what ``str(error)`` and every front end without a card style show) are the decks' own
text forms, for every card of every deck, in both languages.

Pinned on the code before the messages stopped importing :mod:`stich.cards`: the plain
namer then asked the decks themselves, as the right-hand sides below do."""

from __future__ import annotations

import random

import pytest

from stich.cards import CARDS, PLAIN_DECKS, Suit, format_cards, plain_deck
from stich.messages import LANGS, PLAIN, Cards, GameName, StichError, SuitName

GAMES = ["grand", "null", "ramsch", "eichel", "gruen", "herz", "schellen"]


@pytest.mark.parametrize("lang", LANGS)
def test_skat_cards_by_their_codes(lang: str) -> None:
    rng = random.Random(7)
    masks = [c.bit for c in CARDS] + [0, (1 << 32) - 1]
    masks += [rng.getrandbits(32) for _ in range(200)]
    for mask in masks:
        assert PLAIN.cards(Cards(mask), lang) == format_cards(mask)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(PLAIN_DECKS))
def test_plain_deck_cards_by_their_codes(name: str, lang: str) -> None:
    deck = plain_deck(name)
    rng = random.Random(name)
    masks = [c.bit for c in deck.cards] + [0, deck.full_mask]
    masks += [rng.getrandbits(deck.size) for _ in range(100)]
    for mask in masks:
        assert PLAIN.cards(Cards(mask, name), lang) == deck.format(mask)


@pytest.mark.parametrize("lang", LANGS)
def test_suits_and_games(lang: str) -> None:
    for s in Suit:
        assert PLAIN.suit(SuitName(int(s)), lang) == s.german
    for name, deck in PLAIN_DECKS.items():
        names = deck.suit_names_en if lang == "en" else deck.suit_names
        for i in range(len(deck.suit_codes)):
            assert PLAIN.suit(SuitName(i, name), lang) == names[i]
        assert PLAIN.suit(SuitName(-1, name), lang) == "Joker"
    special = {"grand": "Grand", "null": "Null", "ramsch": "Ramsch"}
    for g in GAMES:
        want = special.get(g) or Suit[g.upper()].german
        assert PLAIN.game(GameName(g), lang) == want


def test_an_unknown_deck_is_a_refusal() -> None:
    with pytest.raises(StichError) as e:
        PLAIN.cards(Cards(1, "tarot"), "en")
    assert e.value.code == "cards.unknown_deck"
    assert str(e.value) == ("unknown deck 'tarot': use one of "
                            "elferraus, elferraus-double, skat, skat-double, romme, "
                            "romme-double, romme-double-joker")
