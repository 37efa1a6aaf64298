"""Messages of the iss area (see :mod:`stich.messages`): reading and replaying records of
the International Skat Server, and the ``stich iss`` commands."""

from stich.messages import define

define({
    # --- reading a record line -------------------------------------------------------
    "iss.not_a_record": {
        "en": "not an ISS record: a record starts with '(;' and ends with ';)'",
        "de": "kein ISS-Datensatz: ein Datensatz beginnt mit '(;' und endet mit ';)'",
    },
    "iss.not_skat": {
        "en": "not a Skat record (GM[{game}])",
        "de": "kein Skat-Datensatz (GM[{game}])",
    },
    "iss.missing_property": {
        "en": "the record has no {key}[...]",
        "de": "dem Datensatz fehlt {key}[...]",
    },
    "iss.moves_not_pairs": {
        "en": "MV[...] must be pairs 'who what'",
        "de": "MV[...] muss aus Paaren 'wer was' bestehen",
    },
    "iss.unknown_mover": {
        "en": "unknown mover in move '{move}'",
        "de": "unbekannter Spieler im Zug '{move}'",
    },
    "iss.result_not_number": {
        "en": "result field {field} is not a number",
        "de": "das Ergebnisfeld {field} ist keine Zahl",
    },
    "iss.result_unknown_words": {
        "en": "unknown result {n:plural:word|words} {words}",
        "de": "{n:plural:unbekanntes Ergebniswort|unbekannte Ergebniswörter} {words}",
    },
    "iss.no_deal": {
        "en": "the first move must be the server's deal 'w C1.C2...'",
        "de": "der erste Zug muss das Geben des Servers sein: 'w C1.C2...'",
    },
    "iss.deal_size": {
        "en": "the deal has {n} cards, not 32",
        "de": "das Geben hat {n} Karten statt 32",
    },
    "iss.deal_twice": {
        "en": "the deal names a card twice",
        "de": "das Geben nennt eine Karte zweimal",
    },
    "iss.bad_card": {
        "en": "{word!r} is not a card",
        "de": "{word!r} ist keine Karte",
    },
    "iss.hidden_card": {
        "en": "hidden card '??': the record does not say which card",
        "de": "verdeckte Karte '??': der Datensatz sagt nicht, welche Karte",
    },
    # --- replaying the moves ---------------------------------------------------------
    "iss.at_move": {
        "en": "move {n} '{move}': {reason}",
        "de": "Zug {n} '{move}': {reason}",
    },
    "iss.moves_after_end": {
        "en": "moves after the end of the game",
        "de": "Züge nach dem Ende des Spiels",
    },
    "iss.skat_not_shown": {
        "en": "the server must show the Skat first",
        "de": "der Server muss zuerst den Skat zeigen",
    },
    "iss.player_left": {
        "en": "{seat} left the table: the game cannot be finished",
        "de": "{seat} hat den Tisch verlassen: das Spiel lässt sich nicht beenden",
    },
    "iss.game_over": {
        "en": "the game is already over",
        "de": "das Spiel ist schon zu Ende",
    },
    "iss.wrong_turn": {
        "en": "it is {seat}'s turn",
        "de": "{seat} ist am Zug",
    },
    "iss.unexpected_move": {
        "en": "unexpected in phase {phase}",
        "de": "in der Phase {phase} nicht erwartet",
    },
    "iss.unexpected_server_move": {
        "en": "unexpected server move",
        "de": "unerwarteter Zug des Servers",
    },
    "iss.wrong_skat": {
        "en": "the Skat is {cards}",
        "de": "im Skat liegen {cards}",
    },
    "iss.resign_not_in_play": {
        "en": "resigning is only possible in card play",
        "de": "aufgeben geht nur im Kartenspiel",
    },
    "iss.show_not_declarer": {
        "en": "only the declarer shows his cards, in card play",
        "de": "nur der Alleinspieler zeigt seine Karten, und nur im Kartenspiel",
    },
    "iss.expected_bid": {
        "en": "a bid, 'y' or 'p' was expected",
        "de": "erwartet war ein Reizwert, 'y' oder 'p'",
    },
    "iss.expected_pickup_or_declaration": {
        "en": "'s' or a declaration was expected",
        "de": "erwartet war 's' oder eine Spielansage",
    },
    "iss.expected_declaration": {
        "en": "a declaration was expected",
        "de": "erwartet war eine Spielansage",
    },
    "iss.discard_two": {
        "en": "the discard is two cards",
        "de": "gedrückt werden zwei Karten",
    },
    "iss.discard_twice": {
        "en": "a card cannot be discarded twice",
        "de": "eine Karte kann nicht zweimal gedrückt werden",
    },
    "iss.expected_card": {
        "en": "a card was expected",
        "de": "erwartet war eine Karte",
    },
    "iss.decl_repeats": {
        "en": "declaration {decl!r} repeats a letter",
        "de": "die Ansage {decl!r} wiederholt einen Buchstaben",
    },
    "iss.decl_hand_after_pickup": {
        "en": "declaration {decl!r} says Hand after the Skat was picked up",
        "de": "die Ansage {decl!r} sagt Hand, obwohl der Skat aufgenommen wurde",
    },
    "iss.decl_null_announcement": {
        "en": "declaration {decl!r}: Null has no Schneider or Schwarz",
        "de": "Ansage {decl!r}: Null kennt weder Schneider noch Schwarz",
    },
    "iss.cards_not_ouvert": {
        "en": "cards after a declaration that is not Ouvert",
        "de": "Karten nach einer Ansage, die nicht Ouvert ist",
    },
    "iss.ouvert_size": {
        "en": "an Ouvert hand is 10 cards, not {n}",
        "de": "ein offenes Blatt hat 10 Karten, nicht {n}",
    },
    "iss.ouvert_not_held": {
        "en": "the declarer does not hold {cards}",
        "de": "der Alleinspieler hat {cards} nicht",
    },
    "iss.stops_in_declaration": {
        "en": "the moves stop in the middle of the declaration",
        "de": "die Züge enden mitten in der Spielansage",
    },
    "iss.unfinished": {
        "en": "the moves stop before the game is over (phase {phase})",
        "de": "die Züge enden vor dem Ende des Spiels (Phase {phase})",
    },
    "iss.timeout_unreadable": {
        "en": "the timeout {what!r} names no seat",
        "de": "die Zeitüberschreitung {what!r} nennt keinen Platz",
    },
    "iss.timeout_not_in_play": {
        "en": "{seat} ran out of time before the card play: no game to settle",
        "de": "{seat} hat die Zeit vor dem Kartenspiel überschritten: kein Spiel "
              "abzurechnen",
    },
    "iss.timeout_without_move": {
        "en": "R[...] names {seat} as timed out, but no TI move says when",
        "de": "R[...] nennt {seat} mit Zeitüberschreitung, aber kein TI-Zug sagt, wann",
    },
    # --- why a record is skipped -----------------------------------------------------
    "iss.skip.passed": {"en": "everybody passed", "de": "alle haben gepasst"},
    "iss.skip.penalty": {
        "en": "{why}; penalty points {points}",
        "de": "{why}; Strafpunkte {points}",
    },
    "iss.skip.seat_left": {"en": "{seat} left", "de": "{seat} ist gegangen"},
    "iss.skip.seat_timed_out": {
        "en": "{seat} ran out of time",
        "de": "{seat} hat die Zeit überschritten",
    },
    "iss.skip.penalty_points": {"en": "penalty points", "de": "Strafpunkte"},
    "iss.skip.left": {
        "en": "{seat} left the table",
        "de": "{seat} hat den Tisch verlassen",
    },
    "iss.skip.left_hidden": {
        "en": "{seat} left the table; a card is hidden as ??",
        "de": "{seat} hat den Tisch verlassen; eine Karte ist als ?? verdeckt",
    },
    "iss.skip.unreadable": {
        "en": "cannot read the record: {reason}",
        "de": "der Datensatz ist nicht lesbar: {reason}",
    },
    # the reasons of a skipped record and the fields of R[...], as a person reads them
    "iss.reason.passed": {"en": "passed", "de": "eingepasst"},
    "iss.reason.left": {"en": "left", "de": "verlassen"},
    "iss.reason.timeout": {"en": "timeout", "de": "Zeitüberschreitung"},
    "iss.reason.penalty": {"en": "penalty", "de": "Strafpunkte"},
    "iss.reason.corrupt": {"en": "corrupt", "de": "fehlerhaft"},
    "iss.field.declarer": {"en": "declarer", "de": "Alleinspieler"},
    "iss.field.won": {"en": "won", "de": "gewonnen"},
    "iss.field.value": {"en": "value", "de": "Wert"},
    "iss.field.matadors": {"en": "matadors", "de": "Spitzen"},
    "iss.field.overbid": {"en": "overbid", "de": "überreizt"},
    "iss.field.points": {"en": "points", "de": "Augen"},
    "iss.field.tricks": {"en": "tricks", "de": "Stiche"},
    "iss.field.schneider": {"en": "schneider", "de": "Schneider"},
    "iss.field.schwarz": {"en": "schwarz", "de": "Schwarz"},
    "iss.field.resigned": {"en": "resigned", "de": "aufgegeben"},
    "iss.field.timeout": {"en": "timeout", "de": "Zeitüberschreitung"},
    "iss.field.passed": {"en": "passed", "de": "eingepasst"},
    "iss.yes": {"en": "yes", "de": "ja"},
    "iss.no": {"en": "no", "de": "nein"},
    # --- the stich iss commands ------------------------------------------------------
    "iss.cli.summary": {
        "en": "{n} {n:plural:record|records}: {agree} agree, {disagree} disagree, "
              "{skipped} skipped",
        "de": "{n} {n:plural:Datensatz|Datensätze}: {agree} "
              "{agree:plural:stimmt|stimmen} überein, {disagree} "
              "{disagree:plural:weicht|weichen} ab, {skipped} übersprungen",
    },
    "iss.cli.diff": {
        "en": "{id}: {field}: ours {ours}, theirs {theirs}",
        "de": "{id}: {field}: bei uns {ours}, beim Server {theirs}",
    },
    "iss.cli.skipped": {
        "en": "skipped {id}: {reason} ({detail})",
        "de": "übersprungen {id}: {reason} ({detail})",
    },
    "iss.cli.no_records": {
        "en": "{path} holds no ISS record (a record is a line '(;GM[Skat]...;)', "
              "possibly after a protocol prefix such as 'table .3 x end ')",
        "de": "{path} enthält keinen ISS-Datensatz (ein Datensatz ist eine Zeile "
              "'(;GM[Skat]...;)', gegebenenfalls nach einem Protokoll-Präfix wie "
              "'table .3 x end ')",
    },
    "iss.cli.ignored_lines": {
        "en": "note: {path}: {n} {n:plural:line|lines} without an ISS record ignored "
              "(line {lines})",
        "de": "Hinweis: {path}: {n} {n:plural:Zeile|Zeilen} ohne ISS-Datensatz "
              "übergangen (Zeile {lines})",
    },
    "iss.export.where": {
        "en": "{path} record {n}",
        "de": "{path} Datensatz {n}",
    },
    "iss.export.not_object": {
        "en": "a record is a JSON object",
        "de": "ein Datensatz ist ein JSON-Objekt",
    },
    "iss.export.not_isko": {
        "en": "the game uses {rules}; ISS records are ISkO games ({isko})",
        "de": "das Spiel folgt {rules}; ISS-Datensätze sind ISkO-Spiele ({isko})",
    },
    "iss.export.unfinished": {
        "en": "the game is not finished ({actions} actions, phase {phase})",
        "de": "das Spiel ist nicht beendet ({actions} Aktionen, Phase {phase})",
    },
})
