"""Messages of the Skat engine (see :mod:`stich.messages`)."""

from stich.messages import define

define({
    "skat.trump": {"en": "trump", "de": "Trumpf"},
    "skat.must_follow": {
        "en": "{seat} must follow {what}: {seat} holds {cards}",
        "en_you": "you must follow {what}: you hold {cards}",
        "de": "{seat} muss {what} bedienen: {seat} hat {cards}",
        "de_you": "Du musst {what} bedienen: du hast {cards}",
    },
})
