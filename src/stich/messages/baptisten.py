"""Messages of the Baptistenskat engine (see :mod:`stich.messages`).

``seat`` is the :class:`~stich.messages.Seat` (``game`` "baptisten") the refusal is
about (the forms ending in ``_you`` address that player); ``deck`` is a deck's name
(``elferraus``, ``romme-double``), the same in every language; ``allowed`` a ready list
of numbers such as ``0, 2–5``.  A bid is an Ansage, a stake an Einsatz.
"""

from stich.messages import define

# The rule set (a stich.core.RulesError).
define({
    "baptisten.too_few_players": {
        "en": "Baptistenskat needs at least {least} players, not {players}",
        "de": "Baptistenskat braucht mindestens {least} Spieler, nicht {players}",
    },
    "baptisten.too_many_players": {
        "en": "at most {most} players with the {deck} deck ({size} cards ÷ 7)",
        "de": "Mit dem Blatt {deck} höchstens {most} Spieler ({size} Karten ÷ 7)",
    },
    "baptisten.max_cards": {
        "en": "max_cards must be 1..{limit} with {players} players and the {deck} deck",
        "de": "max_cards muss bei {players} Spielern und dem Blatt {deck} 1..{limit} sein",
    },
    "baptisten.variant_1": {
        "en": "variant 1 is the deck: choose it with deck=… (--deck)",
        "de": "Variante 1 ist das Blatt: wähle es mit deck=… (--deck)",
    },
    "baptisten.unknown_variant": {
        "en": "unknown variant {word!r}: the variants are 2, 3, 4 and 5",
        "de": "Unbekannte Variante „{word}“: die Varianten sind 2, 3, 4 und 5",
    },
})

# Given deals and seats (a stich.core.ArgumentError).
define({
    "baptisten.bad_first": {
        "en": "first must be a seat 0..{last}, not {given}",
        "de": "first muss ein Platz 0..{last} sein, nicht {given}",
    },
    "baptisten.redeal_begun": {
        "en": "round {round} has begun: only a round nobody has bid in can be dealt again",
        "de": "Runde {round} hat schon begonnen: neu geben lässt sich nur eine Runde, "
              "in der noch niemand angesagt hat",
    },
    "baptisten.deal_count": {
        "en": "{rounds} {rounds:plural:round needs|rounds need} {rounds} "
              "{rounds:plural:deal|deals}, not {deals}",
        "de": "{rounds} {rounds:plural:Runde braucht|Runden brauchen} {rounds} "
              "{rounds:plural:Kartenverteilung|Kartenverteilungen}, nicht {deals}",
    },
    "baptisten.deal_hands": {
        "en": "round {round}: {players} hands expected, not {hands}",
        "de": "Runde {round}: {players} Hände erwartet, nicht {hands}",
    },
    "baptisten.deal_hand_size": {
        "en": "round {round}: {seat} has {n} {n:plural:card|cards}, not {k}",
        "de": "Runde {round}: {seat} hat {n} {n:plural:Karte|Karten}, nicht {k}",
    },
    "baptisten.deal_twice": {
        "en": "round {round}: a card is dealt twice or is not in the deck",
        "de": "Runde {round}: eine Karte ist doppelt gegeben oder nicht im Blatt",
    },
    "baptisten.trump_not_in_deck": {
        "en": "round {round}: the trump card is not in the deck",
        "de": "Runde {round}: die Trumpfkarte ist nicht im Blatt",
    },
    "baptisten.trump_dealt": {
        "en": "round {round}: the turned trump card was dealt to a player",
        "de": "Runde {round}: die aufgedeckte Trumpfkarte wurde an einen Spieler gegeben",
    },
})

# Bidding (Ansage and Einsatz).
define({
    "baptisten.unreadable_bid": {
        "en": "cannot read bid {text!r}: write e.g. 'bid 2 stake 5'",
        "de": "Ansage „{text}“ nicht verstanden: z. B. „bid 2 stake 5“",
    },
    "baptisten.bid_now": {
        "en": "it is time to bid (e.g. 'bid 1 stake 5'), not {action}",
        "de": "Jetzt wird angesagt (z. B. „bid 1 stake 5“), nicht „{action}“",
    },
    "baptisten.bid_range": {
        "en": "a bid is 0..{k} tricks in a round with {k} {k:plural:card|cards}",
        "de": "Angesagt werden 0 bis {k} {k:plural:Stich|Stiche} in einer Runde mit {k} "
              "{k:plural:Karte|Karten}",
    },
    "baptisten.hooked_bid": {
        "en": "the bids may not add up to {k}: {seat} may bid {allowed}, not {bid}",
        "en_you": "the bids may not add up to {k}: bid {allowed}, not {bid}",
        "de": "Die Ansagen dürfen zusammen nicht {k} ergeben: {seat} darf {allowed} "
              "ansagen, nicht {bid}",
        "de_you": "Die Ansagen dürfen zusammen nicht {k} ergeben: sag {allowed} an, "
                  "nicht {bid}",
    },
    "baptisten.no_stakes": {
        "en": "no stakes under trick scoring: bid just a number of tricks",
        "de": "Bei der Abrechnung nach Stichen gibt es keinen Einsatz: nur die Zahl der "
              "Stiche ansagen",
    },
    "baptisten.stake_missing": {
        "en": "{seat} must say a stake too, e.g. 'bid 1 stake 5' (1..20, or 40)",
        "en_you": "say your stake too, e.g. 'bid 1 stake 5' (1..20, or 40)",
        "de": "{seat} muss auch einen Einsatz ansagen, z. B. „bid 1 stake 5“ (1 bis 20 oder "
              "40)",
        "de_you": "Sag auch deinen Einsatz an, z. B. „bid 1 stake 5“ (1 bis 20 oder 40)",
    },
    "baptisten.forced_40": {
        "en": "{seat} still owes {owed}× 40 and only {left} {left:plural:round|rounds} "
              "with 3 or more cards {left:plural:is|are} left: the stake is 40",
        "en_you": "you still owe {owed}× 40 and only {left} {left:plural:round|rounds} "
                  "with 3 or more cards {left:plural:is|are} left: your stake is 40",
        "de": "{seat} muss noch {owed}-mal 40 setzen und es {left:plural:bleibt|bleiben} "
              "nur {left} {left:plural:Runde|Runden} mit 3 oder mehr Karten: der Einsatz "
              "ist 40",
        "de_you": "Du musst noch {owed}-mal 40 setzen und es {left:plural:bleibt|bleiben} "
                  "nur {left} {left:plural:Runde|Runden} mit 3 oder mehr Karten: dein "
                  "Einsatz ist 40",
    },
    "baptisten.no_40_small": {
        "en": "no 40 in a round with 1 or 2 cards",
        "de": "In einer Runde mit 1 oder 2 Karten wird nicht 40 gesetzt",
    },
    "baptisten.no_40_left": {
        "en": "{seat} has staked 40 as often as required",
        "en_you": "you have staked 40 as often as required",
        "de": "{seat} hat schon so oft 40 gesetzt wie vorgeschrieben",
        "de_you": "Du hast schon so oft 40 gesetzt wie vorgeschrieben",
    },
    "baptisten.stake_range": {
        "en": "a stake is 1..20 points, or 40",
        "de": "Der Einsatz ist 1 bis 20 Punkte oder 40",
    },
})

# Card play.  ``suit`` is a SuitName of the deck.
define({
    "baptisten.forehead_only": {
        "en": "'play' without naming a card is only for forehead rounds",
        "de": "„play“ ohne eine Karte zu nennen gibt es nur in Stirnrunden",
    },
    "baptisten.not_held": {
        "en": "{seat} does not hold {cards}",
        "en_you": "you do not hold {cards}",
        "de": "{seat} hat {cards} nicht",
        "de_you": "Du hast {cards} nicht",
    },
    "baptisten.must_follow": {
        "en": "{seat} must follow {suit}: {seat} holds {cards}",
        "en_you": "you must follow {suit}: you hold {cards}",
        "de": "{seat} muss {suit} bedienen: {seat} hat {cards}",
        "de_you": "Du musst {suit} bedienen: du hast {cards}",
    },
    "baptisten.must_overtrump": {
        "en": "{seat} must overtrump: a higher {suit} ({cards})",
        "en_you": "you must overtrump: play a higher {suit} ({cards})",
        "de": "{seat} muss überstechen, also einen höheren Trumpf ({suit}) spielen: {cards}",
        "de_you": "Du musst überstechen, also einen höheren Trumpf ({suit}) spielen: {cards}",
    },
    "baptisten.position_mismatch": {
        "en": "the cards or bids given for a position do not agree with what {seat} sees",
        "de": "Die für eine Stellung gegebenen Karten oder Gebote passen nicht zu dem, "
              "was {seat} sieht",
    },
})
