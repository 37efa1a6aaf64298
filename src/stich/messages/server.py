"""What the online table says (``server.*``) and its accounts (``auth.*``).  Seats are
given counted from 1, as people count them."""

from stich.messages import define

# The table: seats, turns, pauses, the event log.
define({
    "server.seat_count": {
        "en": "the rules are for {players} players, but the table has {seats} seats",
        "de": "Die Regeln sind für {players} Spieler, der Tisch hat aber {seats} Plätze",
    },
    "server.no_such_seat": {
        "en": "there is no seat {seat}: the table has seats 1 to {seats}",
        "de": "Einen Platz {seat} gibt es nicht: der Tisch hat die Plätze 1 bis {seats}",
    },
    "server.seat_taken": {
        "en": "seat {seat} is taken",
        "de": "Platz {seat} ist besetzt",
    },
    "server.no_free_seat": {
        "en": "every seat at this table is taken; you can watch",
        "de": "An diesem Tisch ist kein Platz mehr frei; du kannst zuschauen",
    },
    "server.already_seated": {
        "en": "you already sit at this table",
        "de": "Du sitzt schon an diesem Tisch",
    },
    "server.not_started": {
        "en": "the table has not started: seats are still free",
        "de": "Der Tisch hat noch nicht angefangen: es sind noch Plätze frei",
    },
    "server.started": {
        "en": "the table has started: seats can no longer be changed",
        "de": "Der Tisch hat angefangen: die Plätze können nicht mehr geändert werden",
    },
    "server.table_over": {
        "en": "this table is over",
        "de": "Dieser Tisch ist beendet",
    },
    "server.not_running": {
        "en": "the table is not running",
        "de": "Der Tisch läuft nicht",
    },
    "server.paused": {
        "en": "the table is paused; a player can resume it",
        "de": "Der Tisch ist angehalten; ein Spieler kann ihn fortsetzen",
    },
    "server.already_paused": {
        "en": "the table is paused already",
        "de": "Der Tisch ist schon angehalten",
    },
    "server.pause_absent": {
        "en": "only a player who is at the table can pause it",
        "de": "Anhalten kann nur, wer am Tisch sitzt und da ist",
    },
    "server.pause_used": {
        "en": "you can pause {most:plural:once|{most} times} a game at most; a player can "
              "go on at any time",
        "de": "Du kannst höchstens {most:plural:einmal|{most}-mal} pro Spiel anhalten; "
              "fortsetzen kann jeder Spieler jederzeit",
    },
    "server.not_paused": {
        "en": "the table is not paused",
        "de": "Der Tisch ist nicht angehalten",
    },
    "server.not_your_turn": {
        "en": "it is not your turn",
        "de": "Du bist nicht am Zug",
    },
    "server.spectator": {
        "en": "you are watching this table; only its players can do that",
        "de": "Du schaust an diesem Tisch nur zu; das können nur die Spieler",
    },
    "server.stale": {
        "en": "the table has moved on (event {current}, you saw {seen}): look again",
        "de": "Am Tisch ist inzwischen etwas passiert (Ereignis {current}, du kanntest "
              "{seen}): schau noch einmal",
    },
    "server.not_saved": {
        "en": "the table could not save that just now; nothing happened: try again",
        "de": "Der Tisch konnte das gerade nicht speichern; es ist nichts passiert: "
              "versuch es noch einmal",
    },
    "server.unavailable": {
        "en": "the site cannot reach its database just now; nothing happened: try again "
              "in a few seconds",
        "de": "Die Seite erreicht ihre Datenbank gerade nicht; es ist nichts passiert: "
              "versuch es in ein paar Sekunden noch einmal",
    },
    "server.event_gap": {
        "en": "event {given} does not follow event {expected}",
        "de": "Ereignis {given} folgt nicht auf Ereignis {expected}",
    },
    "server.unknown_event": {
        "en": "unknown event {kind!r}",
        "de": "Unbekanntes Ereignis „{kind}“",
    },
    "server.bad_event": {
        "en": "event {seq} ({kind}) lacks {keys}",
        "de": "Dem Ereignis {seq} ({kind}) fehlt {keys}",
    },
    "server.no_such_table": {
        "en": "there is no table {table}",
        "de": "Einen Tisch {table} gibt es nicht",
    },
    "server.no_such_path": {
        "en": "there is no {method} {path} here",
        "de": "{method} {path} gibt es hier nicht",
    },
    "server.no_such_game": {
        "en": "there is no finished game {game}",
        "de": "Ein beendetes Spiel {game} gibt es nicht",
    },
    "server.no_such_player": {
        "en": "there is no player {name!r}",
        "de": "Einen Spieler „{name}“ gibt es nicht",
    },
    "server.not_skat": {
        "en": "only Skat games can be analysed",
        "de": "Nur Skatspiele können analysiert werden",
    },
    "server.no_analysis": {
        "en": "this game has not been analysed yet: start its analysis first",
        "de": "Dieses Spiel ist noch nicht analysiert: starte zuerst seine Analyse",
    },
    "server.games_count": {
        "en": "a Skat list has a multiple of 3 games (or 0 for open-ended), not {games}",
        "de": "Eine Skatliste hat ein Vielfaches von 3 Spielen (oder 0 für offen), "
              "nicht {games}",
    },
    "server.scoring": {
        "en": "a Skat table scores by the list (list) or the Preisskat list (seeger), "
              "not {given}",
        "de": "Ein Skattisch wertet nach der Skatliste (list) oder der Preisskat-Liste "
              "(seeger), nicht {given}",
    },
    "server.scoring_skat": {
        "en": "only a Skat table can score by the Preisskat list",
        "de": "Nur ein Skattisch kann nach der Preisskat-Liste werten",
    },
    "server.games_count_seats": {
        "en": "at a table of {seats} every seat deals as often: a multiple of {seats} games "
              "(or 0 for open-ended), not {games}",
        "de": "An einem Tisch mit {seats} Plätzen gibt jeder gleich oft: ein Vielfaches von "
              "{seats} Spielen (oder 0 für offen), nicht {games}",
    },
    "server.skat_seats": {
        "en": "Skat is played at a table of three or four (the dealer sits out), not with "
              "{given} seats",
        "de": "Skat spielt man zu dritt oder zu viert (der Geber setzt aus), nicht mit "
              "{given} Plätzen",
    },
    "server.dealer_sees": {
        "en": "what the dealer who sits out sees is 'nothing' or 'all', not {given!r}",
        "de": "Was der aussetzende Geber sieht, ist „nothing“ (nichts) oder „all“ (alle "
              "Karten), nicht „{given}“",
    },
    "server.dealer_sees_four": {
        "en": "only a Skat table of four has a dealer who sits out (dealer_sees)",
        "de": "Nur an einem Skattisch zu viert setzt der Geber aus (dealer_sees)",
    },
    "server.shortcut_skat": {
        "en": "only a Skat table can end a game once its rest is certain (shortcut)",
        "de": "Nur ein Skattisch kürzt ein Spiel ab, dessen Rest feststeht (shortcut)",
    },
    "server.daily_day": {
        "en": "no Tagesskat for {given!r}: a day is written YYYY-MM-DD, and not one to come",
        "de": "Kein Tagesskat für {given!r}: ein Tag wird JJJJ-MM-TT geschrieben, und "
              "kein kommender",
    },
    "server.shortcut_by_table": {
        "en": "only the table ends a game whose rest is certain (shortcut), by itself",
        "de": "Ein Spiel, dessen Rest feststeht, kürzt nur der Tisch selbst ab (shortcut)",
    },
    "server.seats_given": {
        "en": "{game} needs {need} seats, {given} were given",
        "de": "{game} braucht {need} Plätze, angegeben waren {given}",
    },
    "server.bad_seat_spec": {
        "en": "a seat is 'me', 'person' or 'bot:<level>', not {spec!r}",
        "de": "Ein Platz ist „me“, „person“ oder „bot:<Stufe>“, nicht „{spec}“",
    },
    "server.grace": {
        "en": "the grace time is 5 to 3600 seconds, not {grace}",
        "de": "Die Wartezeit ist 5 bis 3600 Sekunden, nicht {grace}",
    },
    "server.next_after": {
        "en": "the wait after a game is 0 to 120 seconds, not {given}",
        "de": "Die Wartezeit nach einem Spiel ist 0 bis 120 Sekunden, nicht {given}",
    },
    "server.clock": {
        "en": "the thinking time is 0 (off) to 300 seconds per action, not {given}",
        "de": "Die Bedenkzeit ist 0 (aus) bis 300 Sekunden je Zug, nicht {given}",
    },
    "server.bank": {
        "en": "the time bank is 0 to 600 seconds per game, not {given}",
        "de": "Das Zeitkonto ist 0 bis 600 Sekunden je Spiel, nicht {given}",
    },
    "server.on_timeout": {
        "en": "when the thinking time runs out, 'bot' plays the move or 'away' marks "
              "the seat away, not {given!r}",
        "de": "Wenn die Bedenkzeit abläuft, spielt „bot“ den Zug oder „away“ meldet den "
              "Platz als weg, nicht „{given}“",
    },
    "server.between": {
        "en": "the game is over: the next one starts when everyone is ready",
        "de": "Das Spiel ist vorbei: das nächste beginnt, wenn alle bereit sind",
    },
    "server.not_between": {
        "en": "there is nothing to be ready for now: no game has just ended",
        "de": "Gerade ist kein Spiel zu Ende, auf das es weitergehen könnte",
    },
    "server.chat_anonymous": {
        "en": "only players and watchers with a name can chat: sit down or play as a guest",
        "de": "Nur Spieler und Zuschauer mit Namen können schreiben: setz dich oder "
              "spiel als Gast",
    },
    "server.chat_length": {
        "en": "a chat line has 1 to {most} characters, not {given}",
        "de": "Eine Chatzeile hat 1 bis {most} Zeichen, nicht {given}",
    },
    "server.chat_control": {
        "en": "a chat line cannot contain control or invisible characters (such as line "
              "breaks or zero-width spaces)",
        "de": "Eine Chatzeile darf keine Steuerzeichen oder unsichtbaren Zeichen (etwa "
              "Zeilenumbrüche oder Leerzeichen ohne Breite) enthalten",
    },
    "server.chat_blank": {
        "en": "a chat line needs something to read",
        "de": "Eine Chatzeile braucht etwas zum Lesen",
    },
    "server.chat_marks": {
        "en": "a chat line can have at most {most} accents on one letter",
        "de": "Eine Chatzeile darf höchstens {most} Akzente auf einem Buchstaben haben",
    },
    "server.bad_db": {
        "en": "the database must be sqlite:///FILE or postgresql://…, not {url!r}",
        "de": "Die Datenbank muss sqlite:///DATEI oder postgresql://… sein, nicht „{url}“",
    },
    "server.bad_variant": {
        "en": "the variants are numbered 1 to 5, not {given}",
        "de": "Die Varianten haben die Nummern 1 bis 5, nicht {given}",
    },
    "server.variant_deck": {
        "en": "variant 1 is the double Rommé deck with the joker (romme-double-joker), "
              "not {deck}: leave out the deck or variant 1",
        "de": "Variante 1 ist das doppelte Rommé-Blatt mit Joker (romme-double-joker), "
              "nicht {deck}: lass das Blatt oder die Variante 1 weg",
    },
    "server.bad_period": {
        "en": "the period is all, year or month, not {given!r}",
        "de": "Der Zeitraum ist all, year oder month, nicht „{given}“",
    },
    "server.bad_order": {
        "en": "the order is bilanz or rating, not {given!r}",
        "de": "Die Reihenfolge ist bilanz oder rating, nicht „{given}“",
    },
    "server.me_twice": {
        "en": "you can sit at one seat of a table: \"me\" once",
        "de": "Du kannst an einem Tisch nur einen Platz haben: „me“ einmal",
    },
    "server.bad_status": {
        "en": "the tables to list are open, waiting, running or over, not {given!r}",
        "de": "Aufgelistet werden open, waiting, running oder over, nicht „{given}“",
    },
    "server.custom_needs_rules": {
        "en": "games under different house rules are not ranked together: name the rules "
              "(rules=skat(…))",
        "de": "Spiele unter verschiedenen Hausregeln kommen nicht in eine Liste: nenne die "
              "Regeln (rules=skat(…))",
    },
    "server.rule_sets_guest": {
        "en": "a guest cannot save rule sets: register (on your account page) to keep your "
              "rules",
        "de": "Als Gast kannst du keine Regelsätze speichern: registriere dich (auf deiner "
              "Kontoseite), dann bleiben deine Regeln",
    },
    "server.rule_set_name": {
        "en": "a rule set's name has 1 to {most} characters, not {given}",
        "de": "Der Name eines Regelsatzes hat 1 bis {most} Zeichen, nicht {given}",
    },
    "server.rule_set_name_chars": {
        "en": "a rule set's name holds letters, digits, spaces and punctuation only",
        "de": "Der Name eines Regelsatzes besteht nur aus Buchstaben, Ziffern, Leerzeichen "
              "und Satzzeichen",
    },
    "server.rule_set_name_taken": {
        "en": "you already have a rule set named {name!r}",
        "de": "Du hast schon einen Regelsatz namens „{name}“",
    },
    "server.rule_sets_full": {
        "en": "you have {most} rule sets, the most one account keeps: delete one first",
        "de": "Du hast {most} Regelsätze, mehr hat ein Konto nicht: lösche zuerst einen",
    },
    "server.no_such_rule_set": {
        "en": "you have no such rule set ({rule_set})",
        "de": "Einen solchen Regelsatz hast du nicht ({rule_set})",
    },
    "server.bad_preset": {
        "en": "the Skat rules are lothar, isko or custom, not {given!r}",
        "de": "Die Skatregeln sind lothar, isko oder custom, nicht „{given}“",
    },
    "server.bad_json": {
        "en": "the message is not JSON: {reason}",
        "de": "Die Nachricht ist kein JSON: {reason}",
    },
    "server.bad_message": {
        "en": "the message does not fit the protocol: {reason}",
        "de": "Die Nachricht passt nicht zum Protokoll: {reason}",
    },
    # why (the reason of server.bad_json and server.bad_message: stich.server.problems)
    "server.why_json_at": {"en": "invalid at character {at}", "de": "ungültig bei Zeichen {at}"},
    "server.why_not_json": {"en": "it cannot be read", "de": "sie ist nicht lesbar"},
    "server.why_too_deep": {"en": "nested too deeply", "de": "zu tief verschachtelt"},
    "server.why_not_utf8": {"en": "not UTF-8 text", "de": "kein UTF-8-Text"},
    "server.why_missing": {"en": "{field}: missing", "de": "{field}: fehlt"},
    "server.why_extra": {"en": "{field}: not a field of this message",
                         "de": "{field}: gehört nicht zu dieser Nachricht"},
    "server.why_type": {"en": "{field}: must be {kind}", "de": "{field}: muss {kind} sein"},
    "server.why_too_long": {"en": "{field}: too long (at most {most})",
                            "de": "{field}: zu lang (höchstens {most})"},
    "server.why_too_short": {"en": "{field}: too short (at least {least})",
                             "de": "{field}: zu kurz (mindestens {least})"},
    "server.why_unknown": {"en": "{field}: not a known value", "de": "{field}: unbekannter Wert"},
    "server.why_invalid": {"en": "{field}: not valid", "de": "{field}: ungültig"},
    "server.kind_text": {"en": "a text", "de": "ein Text"},
    "server.kind_int": {"en": "a whole number", "de": "eine ganze Zahl"},
    "server.kind_number": {"en": "a number", "de": "eine Zahl"},
    "server.kind_bool": {"en": "true or false", "de": "true oder false"},
    "server.kind_list": {"en": "a list", "de": "eine Liste"},
    "server.kind_object": {"en": "an object", "de": "ein Objekt"},
    "server.too_large": {
        "en": "the message is too long ({size} bytes, at most {limit})",
        "de": "Die Nachricht ist zu lang ({size} Bytes, höchstens {limit})",
    },
    "server.not_seated": {
        "en": "you do not sit at this table",
        "de": "Du sitzt nicht an diesem Tisch",
    },
    "server.not_open_ended": {
        "en": "only an open-ended list can be ended early",
        "de": "Nur eine offene Liste kann vorzeitig beendet werden",
    },
    "server.rate_limited": {
        "en": "too many requests: try again in {seconds} s",
        "de": "Zu viele Anfragen: versuch es in {seconds} s noch einmal",
    },
    "server.busy": {
        "en": "the server is busy just now: try again in {seconds} s",
        "de": "Der Server ist gerade ausgelastet: versuch es in {seconds} s noch einmal",
    },
    "server.bad_origin": {
        "en": "refused: the request does not come from this site's pages",
        "de": "Abgelehnt: die Anfrage kommt nicht von den Seiten dieser Website",
    },
    "server.open_tables": {
        "en": "there are {count} open tables of yours already (at most {most}): "
              "close one, or wait until one is over",
        "de": "Du hast schon {count} offene Tische (höchstens {most}): schließ einen, "
              "oder warte, bis einer beendet ist",
    },
    "server.bot_tables": {
        "en": "a table of bots alone is open already (at most {most} at a time): "
              "close it, or wait until it is over",
        "de": "Ein Tisch nur mit Bots ist schon offen (höchstens {most} zugleich): "
              "schließ ihn, oder warte, bis er beendet ist",
    },
    "server.bot_games": {
        "en": "bots alone play a list of 3 to {most} games, not an open-ended one",
        "de": "Bots allein spielen eine Liste von 3 bis {most} Spielen, keine offene",
    },
    "server.metrics_token": {
        "en": "the metrics need the operator's token (Authorization: Bearer …)",
        "de": "Die Metriken brauchen das Token des Betreibers (Authorization: Bearer …)",
    },
    "server.not_creator": {
        "en": "only the player who opened the table can close it",
        "de": "Nur wer den Tisch eröffnet hat, kann ihn schließen",
    },
})

# Accounts and sessions.
define({
    "auth.name_invalid": {
        "en": "a name has 1 to 24 characters: letters, digits, spaces and . _ -",
        "de": "Ein Name hat 1 bis 24 Zeichen: Buchstaben, Ziffern, Leerzeichen und . _ -",
    },
    "auth.name_taken": {
        "en": "the name {name!r} is taken",
        "de": "Der Name „{name}“ ist schon vergeben",
    },
    "auth.name_scripts": {
        "en": "each word of a name is written in one script: {name!r} mixes letters of "
              "several (such as Latin and Cyrillic or Greek ones that look alike)",
        "de": "Jedes Wort eines Namens ist in einer Schrift geschrieben: „{name}“ mischt "
              "Buchstaben mehrerer (etwa lateinische und kyrillische oder griechische, die "
              "gleich aussehen)",
    },
    "auth.password_short": {
        "en": "a password has at least {least} characters",
        "de": "Ein Passwort hat mindestens {least} Zeichen",
    },
    "auth.password_long": {
        "en": "a password has at most {most} characters",
        "de": "Ein Passwort hat höchstens {most} Zeichen",
    },
    "auth.bad_login": {
        "en": "wrong name or password",
        "de": "Name oder Passwort falsch",
    },
    "auth.not_logged_in": {
        "en": "please log in, or join a table as a guest",
        "de": "Bitte melde dich an, oder setz dich als Gast an einen Tisch",
    },
    "auth.registered_only": {
        "en": "only registered players can do that; a guest can register",
        "de": "Das können nur angemeldete Spieler; ein Gast kann sich registrieren",
    },
    "auth.too_many_attempts": {
        "en": "too many attempts: try again in {seconds} s",
        "de": "Zu viele Versuche: versuch es in {seconds} s noch einmal",
    },
    "auth.wrong_password": {
        "en": "that is not your password",
        "de": "Das ist nicht dein Passwort",
    },
    "auth.still_seated": {
        "en": "you still sit at a table that is not over: finish or close it first",
        "de": "Du sitzt noch an einem Tisch, der nicht beendet ist: beende oder schließ "
              "ihn zuerst",
    },
})
