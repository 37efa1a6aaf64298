"""Messages of the Skat engine (see :mod:`stich.messages`).

``seat`` is the :class:`~stich.messages.Seat` the refusal is about (the forms ending
in ``_you`` address that player); ``action`` is an action's text form (``pass``,
``declare grand``), the same in every language; game names (Hand, Ouvert, Schneider,
Schwarz, Null) are the game's own terms in both languages.
"""

from stich.messages import define

# The names of the Null games, e.g. inside "Null Hand (35) is refused".
define({
    "skat.null": {"en": "{game}", "de": "{game}"},
    "skat.null_hand": {"en": "{game} Hand", "de": "{game} Hand"},
    "skat.null_ouvert": {"en": "{game} Ouvert", "de": "{game} Ouvert"},
    "skat.null_ouvert_hand": {"en": "{game} Ouvert Hand", "de": "{game} Ouvert Hand"},
    "skat.trump": {"en": "trump", "de": "Trumpf"},
})

# What a declaration is worth for the declarer's hand (stich.skat.declaring), shown on
# the browser's declare buttons: ``game`` the declaration's name ("Eichel Hand"), ``n``
# the matadors, ``extra`` ", Schneider" or ", Schwarz" when only that wins, ``score`` the
# list score of a certain loss.
define({
    "skat.value_with": {"en": "{game} with {n}{extra}: {value}",
                        "de": "{game} mit {n}{extra}: {value}"},
    "skat.value_without": {"en": "{game} without {n}{extra}: {value}",
                           "de": "{game} ohne {n}{extra}: {value}"},
    "skat.value_hand_with": {
        "en": "{game} with {n}{extra}: at least {value} (depending on the Skat)",
        "de": "{game} mit {n}{extra}: mindestens {value} (je nach Skat)"},
    "skat.value_hand_without": {
        "en": "{game} without {n}{extra}: at least {value} (depending on the Skat)",
        "de": "{game} ohne {n}{extra}: mindestens {value} (je nach Skat)"},
    "skat.value_null": {"en": "{game}: {value}", "de": "{game}: {value}"},
    "skat.value_lost": {
        "en": "{game}: lost whatever happens (bid {bid}): {score}",
        "de": "{game}: auf jeden Fall verloren (gereizt bis {bid}): {score}",
    },
})

# Reading actions, games and deals.
define({
    "skat.unknown_game": {
        "en": "unknown game {text!r}: say eichel, gruen, herz, schellen, grand or null",
        "de": "Unbekanntes Spiel „{text}“: möglich sind eichel, gruen, herz, schellen, grand "
              "und null",
    },
    "skat.declare_which_game": {
        "en": "say which game, e.g. 'declare grand'",
        "de": "Welches Spiel? Z. B. „declare grand“",
    },
    "skat.declare_unknown_word": {
        "en": "unknown word {word!r} in a declaration",
        "de": "Unbekanntes Wort „{word}“ in der Spielansage",
    },
    "skat.discard_size": {
        "en": "a discard is exactly two cards, not {n}",
        "de": "Gedrückt werden genau zwei Karten, nicht {n}",
    },
    "skat.deal_parts": {
        "en": "give three hands and the Skat",
        "de": "Zum Geben gehören drei Hände und der Skat",
    },
    "skat.deal_sizes": {
        "en": "a deal is three hands of 10 and a Skat of 2 cards, not {sizes} and {skat}",
        "de": "Gegeben werden dreimal 10 Karten und 2 in den Skat, nicht {sizes} und {skat}",
    },
    "skat.deal_cards": {
        "en": "the hands and the Skat must hold all 32 cards once",
        "de": "Die Hände und der Skat enthalten jede der 32 Karten genau einmal",
    },
})

# The auction.  ``value`` is a bid value; ``ladder`` a ready list of values.
define({
    "skat.answer_hold_or_pass": {
        "en": "{seat} answers {value}: hold or pass, not {action}",
        "en_you": "you answer {value}: hold or pass, not {action}",
        "de": "{seat} antwortet auf {value}: ja oder passe, nicht „{action}“",
        "de_you": "Du antwortest auf {value}: ja oder passe, nicht „{action}“",
    },
    "skat.say_or_pass": {
        "en": "{seat} bids: say a value or pass, not {action}",
        "en_you": "you bid: say a value or pass, not {action}",
        "de": "{seat} reizt: einen Wert sagen oder passen, nicht „{action}“",
        "de_you": "Du reizt: sag einen Wert oder passe, nicht „{action}“",
    },
    "skat.vorhand_18_or_pass": {
        "en": "{seat} may only play at 18 or pass",
        "en_you": "you may only play at 18 or pass",
        "de": "{seat} kann nur 18 spielen oder passen",
        "de_you": "Du kannst nur 18 spielen oder passen",
    },
    "skat.not_a_game_value": {
        "en": "{value} is not a game value: the ladder goes {ladder}",
        "de": "{value} ist kein Reizwert: die Reizwerte sind {ladder}",
    },
    "skat.nothing_above": {
        "en": "no value above {value} exists: {seat} can only pass",
        "en_you": "no value above {value} exists: pass",
        "de": "Über {value} gibt es keinen Reizwert: {seat} kann nur passen",
        "de_you": "Über {value} gibt es keinen Reizwert: passe",
    },
    "skat.next_bid": {
        "en": "next bid must be {value}",
        "de": "Als Nächstes wird {value} gereizt",
    },
    "skat.bid_above": {
        "en": "a bid must be above {value}",
        "de": "Gereizt wird höher als {value}",
    },
})

# Hand or Skat, discarding, declaring.
define({
    "skat.hand_or_pickup": {
        "en": "the declarer ({seat}) plays Hand or picks up the Skat, not {action}",
        "en_you": "you play Hand or pick up the Skat, not {action}",
        "de": "Der Alleinspieler ({seat}) spielt Hand oder nimmt den Skat auf, "
              "nicht „{action}“",
        "de_you": "Du spielst Hand oder nimmst den Skat auf, nicht „{action}“",
    },
    "skat.discard_two": {
        "en": "{seat} discards two cards (e.g. 'discard {example}'), not {action}",
        "en_you": "discard two cards (e.g. 'discard {example}'), not {action}",
        "de": "{seat} drückt zwei Karten (z. B. „discard {example}“), nicht „{action}“",
        "de_you": "Drück zwei Karten (z. B. „discard {example}“), nicht „{action}“",
    },
    "skat.discard_not_held": {
        "en": "{seat} cannot discard {cards}: not in the hand",
        "en_you": "you cannot discard {cards}: not in your hand",
        "de": "{seat} kann {cards} nicht drücken: nicht auf der Hand",
        "de_you": "Du kannst {cards} nicht drücken: nicht auf deiner Hand",
    },
    "skat.declare_a_game": {
        "en": "{seat} declares a game (e.g. 'declare grand'), not {action}",
        "en_you": "declare a game (e.g. 'declare grand'), not {action}",
        "de": "{seat} sagt ein Spiel an (z. B. „declare grand“), nicht „{action}“",
        "de_you": "Sag ein Spiel an (z. B. „declare grand“), nicht „{action}“",
    },
    "skat.no_hand_after_pickup": {
        "en": "{seat} picked up the Skat: no Hand game",
        "en_you": "you picked up the Skat: no Hand game",
        "de": "{seat} hat den Skat aufgenommen: kein Handspiel",
        "de_you": "Du hast den Skat aufgenommen: kein Handspiel",
    },
    "skat.hand_declare": {
        "en": "{seat} plays Hand: say e.g. 'declare grand hand'",
        "en_you": "you play Hand: say e.g. 'declare grand hand'",
        "de": "{seat} spielt Hand: z. B. „declare grand hand“",
        "de_you": "Du spielst Hand: sag z. B. „declare grand hand“",
    },
    "skat.ramsch_not_declared": {
        "en": "Ramsch is not declared: it is played when everybody passes",
        "de": "Ramsch sagt man nicht an: er wird gespielt, wenn alle passen",
    },
    "skat.null_no_announcements": {
        "en": "Schneider and Schwarz cannot be announced in Null",
        "de": "Im Null wird nicht Schneider oder Schwarz angesagt",
    },
    "skat.ouvert_needs_hand": {
        "en": "Ouvert in a suit game or Grand needs Hand",
        "de": "Ouvert im Farbspiel oder Grand gibt es nur Hand",
    },
    "skat.no_announcements": {
        "en": "Schneider and Schwarz are not announced at this table",
        "de": "An diesem Tisch werden Schneider und Schwarz nicht angesagt",
    },
    "skat.announce_needs_hand": {
        "en": "Schneider and Schwarz can only be announced with Hand",
        "de": "Schneider und Schwarz kann man nur im Handspiel ansagen",
    },
    "skat.schwarz_includes_schneider": {
        "en": "announcing Schwarz includes Schneider: 'declare ... schneider schwarz'",
        "de": "Wer Schwarz ansagt, sagt auch Schneider an: „declare … schneider schwarz“",
    },
    "skat.ouvert_implies_schwarz": {
        "en": "Ouvert implies Schneider and Schwarz announced",
        "de": "Ouvert heißt Schneider und Schwarz angesagt",
    },
    "skat.null_refused": {
        "en": "{game} ({value}) is refused: the bid is {bid}",
        "de": "{game} ({value}) ist nicht erlaubt: gereizt wurde bis {bid}",
    },
    "skat.null_above_59": {
        "en": "{game} is refused above 59: the bid is {bid}",
        "de": "{game} gibt es nicht über 59: gereizt wurde bis {bid}",
    },
})

# Card play.  ``what`` is the suit to follow or the message skat.trump.
define({
    "skat.not_held": {
        "en": "{seat} does not hold {cards}",
        "en_you": "you do not hold {cards}",
        "de": "{seat} hat {cards} nicht",
        "de_you": "Du hast {cards} nicht",
    },
    "skat.must_follow": {
        "en": "{seat} must follow {what}: {seat} holds {cards}",
        "en_you": "you must follow {what}: you hold {cards}",
        "de": "{seat} muss {what} bedienen: {seat} hat {cards}",
        "de_you": "Du musst {what} bedienen: du hast {cards}",
    },
})

# Writing a game as an ISS record (stich.skat.iss_write).
define({
    "skat.export.not_isko": {
        "en": "ISS records are ISkO games; this game uses {rules}",
        "de": "ISS-Datensätze sind ISkO-Spiele; dieses Spiel hat die Regeln {rules}",
    },
    "skat.export.ended_early": {
        "en": "a game ended by a claim or by giving up ({reason}) is not exported to the "
              "ISS yet",
        "de": "Ein durch Beanspruchen oder Aufgeben beendetes Spiel ({reason}) wird noch "
              "nicht ins ISS-Format übertragen",
    },
    "skat.export.players": {
        "en": "an ISS record names three players: Vorhand, Mittelhand, Hinterhand, not {n}",
        "de": "Ein ISS-Datensatz nennt drei Spieler: Vorhand, Mittelhand, Hinterhand, "
              "nicht {n}",
    },
    "skat.export.player_name": {
        "en": "player name {name!r} cannot be written (no spaces or brackets)",
        "de": "Der Spielername „{name}“ lässt sich nicht schreiben (keine Leerzeichen "
              "oder Klammern)",
    },
})

# Open-hand positions (stich.skat.solver) and their line format (stich.skat.ddformat).
define({
    "skat.solver.trick_size": {
        "en": "an open trick has at most two cards, not {n}",
        "de": "Ein offener Stich hat höchstens zwei Karten, nicht {n}",
    },
    "skat.solver.hand_sizes": {
        "en": "hand sizes {sizes} do not fit a trick of {n} {n:plural:card|cards}",
        "de": "Die Handgrößen {sizes} passen nicht zu einem Stich mit {n} "
              "{n:plural:Karte|Karten}",
    },
    "skat.solver.ramsch": {
        "en": "Ramsch has no declarer to solve for",
        "de": "Ramsch hat keinen Alleinspieler, für den man lösen könnte",
    },
    "skat.solver.null_points": {
        "en": "Null has no card points: use null_won",
        "de": "Null hat keine Augen: dafür gibt es null_won",
    },
    "skat.solver.null_tricks": {
        "en": "in Null the declarer wants no trick: use null_won",
        "de": "Im Null will der Alleinspieler keinen Stich: dafür gibt es null_won",
    },
    "skat.solver.not_null": {
        "en": "null_won is for Null games, not {game}",
        "de": "null_won ist für Nullspiele, nicht für {game}",
    },
    "skat.solver.no_c_core": {
        "en": "the compiled solver core stich.skat._dds is not built (reinstall with a C "
              "compiler, or use --engine python)",
        "de": "Der kompilierte Kern des Lösers (stich.skat._dds) ist nicht gebaut (mit einem "
              "C-Compiler neu installieren oder --engine python nehmen)",
    },
    "skat.solver.unknown_engine": {
        "en": "engine must be auto, c or python, not {engine!r}",
        "de": "Die Suche muss auto, c oder python sein, nicht „{engine}“",
    },
    "skat.dd.fields": {
        "en": "line {line}: expected 7 comma-separated numbers, got {n}",
        "de": "Zeile {line}: 7 durch Kommas getrennte Zahlen erwartet, nicht {n}",
    },
    "skat.dd.numbers": {
        "en": "line {line}: not all fields are numbers",
        "de": "Zeile {line}: nicht alle Felder sind Zahlen",
    },
    "skat.dd.leader_game": {
        "en": "line {line}: leader must be 0..2 and game 0..5",
        "de": "Zeile {line}: leader muss 0..2 und game 0..5 sein",
    },
    "skat.dd.mask": {
        "en": "line {line}: a card mask is not a 32-bit number",
        "de": "Zeile {line}: eine Kartenmaske ist keine 32-Bit-Zahl",
    },
    "skat.dd.card_twice": {
        "en": "line {line}: a card is in two hands (or a hand and the Skat)",
        "de": "Zeile {line}: eine Karte steckt in zwei Händen (oder in einer Hand und "
              "im Skat)",
    },
    "skat.dd.null_result": {
        "en": "line {line}: a Null position's result must be 0 or 1",
        "de": "Zeile {line}: das Ergebnis einer Null-Stellung muss 0 oder 1 sein",
    },
    "skat.dd.position": {
        "en": "line {line}: {reason}",
        "de": "Zeile {line}: {reason}",
    },
})

# House rules: Kontra and Re, Schieberamsch.
define({
    "skat.no_kontra_here": {
        "en": "Kontra is not played at this table (or not in this game)",
        "de": "Kontra wird an diesem Tisch (oder in diesem Spiel) nicht gegeben",
    },
    "skat.kontra_once": {
        "en": "Kontra has already been said in this game",
        "de": "In diesem Spiel wurde schon Kontra gegeben",
    },
    "skat.kontra_defenders": {
        "en": "only a defender may say Kontra, not the declarer ({seat})",
        "en_you": "only a defender may say Kontra; you are the declarer",
        "de": "Kontra gibt nur ein Gegenspieler, nicht der Alleinspieler ({seat})",
        "de_you": "Kontra gibt nur ein Gegenspieler; du bist Alleinspieler",
    },
    "skat.kontra_before_first_card": {
        "en": "{seat} may say Kontra only before playing the first card",
        "en_you": "you may say Kontra only before playing your first card",
        "de": "{seat} kann Kontra nur vor der ersten eigenen Karte geben",
        "de_you": "Kontra geht nur vor deiner ersten Karte",
    },
    "skat.kontra_bid18": {
        "en": "{seat} may not say Kontra: at this table only a defender who bid or held "
              "18 or more may",
        "en_you": "you may not say Kontra: at this table only a defender who bid or held "
                  "18 or more may",
        "de": "{seat} darf kein Kontra geben: an diesem Tisch nur, wer mindestens 18 "
              "gereizt oder gehalten hat",
        "de_you": "Du darfst kein Kontra geben: an diesem Tisch nur, wer mindestens 18 "
                  "gereizt oder gehalten hat",
    },
    "skat.re_or_pass": {
        "en": "the declarer ({seat}) answers the Kontra: re or pass, not {action}",
        "en_you": "answer the Kontra: re or pass, not {action}",
        "de": "Der Alleinspieler ({seat}) antwortet auf Kontra: re oder passe, "
              "nicht „{action}“",
        "de_you": "Antworte auf Kontra: re oder passe, nicht „{action}“",
    },
    "skat.pickup_or_schieben": {
        "en": "{seat} picks up the Skat or pushes it on (schieben), not {action}",
        "en_you": "pick up the Skat or push it on (schieben), not {action}",
        "de": "{seat} nimmt den Skat auf oder schiebt ihn weiter, nicht „{action}“",
        "de_you": "Nimm den Skat auf oder schieb ihn weiter, nicht „{action}“",
    },
    "skat.no_unter_pushed": {
        "en": "{seat} may not pass on an Unter in Schieberamsch: {cards}",
        "en_you": "you may not pass on an Unter in Schieberamsch: {cards}",
        "de": "{seat} darf im Schieberamsch keinen Unter weitergeben: {cards}",
        "de_you": "Im Schieberamsch darfst du keinen Unter weitergeben: {cards}",
    },
})

# House rules: Klopfen, the compulsory Ramsch round.
define({
    "skat.no_klopfen_here": {
        "en": "Klopfen is not played at this table (or not in this game: only in Ramsch)",
        "de": "Klopfen gibt es an diesem Tisch nicht (oder nicht in diesem Spiel: nur im "
              "Ramsch)",
    },
    "skat.klopfen_once": {
        "en": "{seat} has already knocked",
        "en_you": "you have already knocked",
        "de": "{seat} hat schon geklopft",
        "de_you": "Du hast schon geklopft",
    },
    "skat.klopfen_before_first_card": {
        "en": "{seat} may knock only before playing the first card",
        "en_you": "you may knock only before playing your first card",
        "de": "{seat} kann nur vor der ersten eigenen Karte klopfen",
        "de_you": "Klopfen geht nur vor deiner ersten Karte",
    },
    "skat.klopfen_after_schieben": {
        "en": "{seat} pushed the Skat on unseen and may not knock",
        "en_you": "you pushed the Skat on unseen and may not knock",
        "de": "{seat} hat den Skat ungesehen weitergeschoben und darf nicht klopfen",
        "de_you": "Du hast den Skat ungesehen weitergeschoben und darfst nicht klopfen",
    },
    "skat.grand_hand_or_pass": {
        "en": "in the Ramsch round {seat} declares Grand Hand or passes, not {action}",
        "en_you": "in the Ramsch round you declare Grand Hand or pass, not {action}",
        "de": "In der Ramschrunde sagt {seat} Grand Hand an oder passt, nicht „{action}“",
        "de_you": "In der Ramschrunde sagst du Grand Hand an oder passt, nicht „{action}“",
    },
})

# Claiming the rest and giving up.
define({
    "skat.claim_in_ramsch": {
        "en": "in Ramsch nobody can claim the rest or give up",
        "de": "Im Ramsch kann niemand den Rest beanspruchen oder aufgeben",
    },
    "skat.claim_declarer": {
        "en": "only the declarer claims the rest, not {seat}",
        "en_you": "only the declarer claims the rest",
        "de": "Den Rest beansprucht nur der Alleinspieler, nicht {seat}",
        "de_you": "Den Rest beansprucht nur der Alleinspieler",
    },
    "skat.gave_up_already": {
        "en": "{seat} has already given up (or may not now)",
        "en_you": "you have already given up (or may not now)",
        "de": "{seat} hat schon aufgegeben (oder kann es jetzt nicht)",
        "de_you": "Du hast schon aufgegeben (oder kannst es jetzt nicht)",
    },
})

# House rules: Spitze.
define({
    "skat.no_spitze": {
        "en": "Spitze is not played at this table",
        "de": "Spitze wird an diesem Tisch nicht gespielt",
    },
    "skat.spitze_card": {
        "en": "Spitze needs the lowest trump in the hand ({card}; in Grand not with all four "
              "Unter), and no Null",
        "de": "Spitze braucht den niedrigsten Trumpf auf der Hand ({card}; im Grand nicht mit "
              "allen vier Untern), und keinen Null",
    },
})

# House rules: Revolution and Schenken.
define({
    "skat.no_revolution": {
        "en": "Revolution is not played at this table",
        "de": "Revolution wird an diesem Tisch nicht gespielt",
    },
    "skat.revolution_null_ouvert": {
        "en": "a Revolution is a Null Ouvert: declare null ouvert revolution",
        "de": "Eine Revolution ist ein Null ouvert: spiel null ouvert revolution",
    },
    "skat.revolution_give": {
        "en": "Revolution: {seat} gives the partner cards first (give …, or give alone "
              "for none), not {action}",
        "en_you": "Revolution: give your partner cards first (give …, or give alone for "
                  "none), not {action}",
        "de": "Revolution: {seat} gibt dem Partner erst Karten (give …, oder give allein "
              "für keine), nicht „{action}“",
        "de_you": "Revolution: gib deinem Partner erst Karten (give …, oder give allein "
                  "für keine), nicht „{action}“",
    },
    "skat.no_give_here": {
        "en": "cards are given only in a Revolution, before the first card",
        "de": "Karten werden nur in einer Revolution vor der ersten Karte gegeben",
    },
    "skat.give_not_held": {
        "en": "{seat} cannot give cards not of his own hand: {cards}",
        "en_you": "you can give only cards of your own hand, not {cards}",
        "de": "{seat} kann nur Karten der eigenen Hand geben, nicht {cards}",
        "de_you": "Du kannst nur Karten deiner eigenen Hand geben, nicht {cards}",
    },
    "skat.give_as_many": {
        "en": "{seat} gives back as many cards as he was given: {n}",
        "en_you": "give back as many cards as you were given: {n}",
        "de": "{seat} gibt so viele Karten zurück, wie er bekam: {n}",
        "de_you": "Gib so viele Karten zurück, wie du bekommen hast: {n}",
    },
    "skat.no_schenken_here": {
        "en": "Schenken is possible only at a table that plays it, for a defender in the "
              "first trick of a suit game or Grand without announcement, once per level",
        "de": "Schenken geht nur an einem Tisch, der es spielt, für einen Gegenspieler "
              "im ersten Stich eines Farb- oder Grandspiels ohne Ansage, einmal je Stufe",
    },
    "skat.schenken_or_pass": {
        "en": "{seat} answers the partner's offer to give the game away: schenken or "
              "pass, not {action}",
        "en_you": "answer your partner's offer to give the game away: schenken or pass, "
                  "not {action}",
        "de": "{seat} antwortet auf das Angebot des Partners zu schenken: schenken oder "
              "passe, nicht „{action}“",
        "de_you": "Antworte auf das Angebot deines Partners zu schenken: schenken oder "
                  "passe, nicht „{action}“",
    },
    "skat.no_shortcut": {
        "en": "the rest is still open: a shortcut needs every remaining trick to go to one "
              "side whatever anyone plays",
        "de": "Der Rest ist noch offen: abgekürzt wird nur, wenn alle übrigen Stiche an "
              "eine Seite gehen, wie auch immer gespielt wird",
    },
    "skat.accept_or_pass": {
        "en": "the declarer ({seat}) accepts the gift or plays on: accept or pass, not "
              "{action}",
        "en_you": "accept the gift or play on: accept or pass, not {action}",
        "de": "Der Alleinspieler ({seat}) nimmt das Geschenk an oder spielt weiter: "
              "accept oder passe, nicht „{action}“",
        "de_you": "Nimm das Geschenk an oder spiel weiter: accept oder passe, nicht "
                  "„{action}“",
    },
})
