"""Messages about cards, card sets and decks (:class:`stich.cards.CardError`; see
:mod:`stich.messages`)."""

from stich.messages import define

define({
    "cards.unknown_suit": {
        "en": "unknown suit {text!r}",
        "de": "Unbekannte Farbe „{text}“",
    },
    "cards.unknown_rank": {
        "en": "unknown rank {text!r}",
        "de": "Unbekannter Kartenwert „{text}“",
    },
    "cards.unknown_style": {
        "en": "unknown card naming style {style!r}; use one of {choices}",
        "de": "Unbekannte Schreibweise der Karten „{style}“: möglich sind {choices}",
    },
    "cards.unknown_card": {
        "en": "unknown card {text!r}: write e.g. CJ, HT, D7 or 'Eichel Unter'",
        "de": "Unbekannte Karte „{text}“: schreib z. B. CJ, HT, D7 oder „Eichel Unter“",
    },
    "cards.given_twice": {
        "en": "card {card} given twice",
        "de": "Die Karte {card} ist doppelt angegeben",
    },
    "cards.unknown_deck_card": {
        "en": "unknown card {text!r} in the {deck} deck (e.g. {examples})",
        "de": "Unbekannte Karte „{text}“ im Blatt {deck} (z. B. {examples})",
    },
    "cards.too_many_copies": {
        "en": "card {card} given more often than the deck has it "
              "({copies} {copies:plural:copy|copies})",
        "de": "Die Karte {card} ist öfter angegeben, als das Blatt sie hat "
              "({copies}-mal)",
    },
    "cards.unknown_deck": {
        "en": "unknown deck {name!r}: use one of {choices}",
        "de": "Unbekanntes Blatt „{name}“: möglich sind {choices}",
    },
})
