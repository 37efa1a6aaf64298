"""Messages shared by every area: free text, plurals, the command line's error line,
what every game engine says (``game.*``), the table (``table.*``) and the bots
(``bots.*``)."""

from stich.messages import define

define({
    # an error from outside the catalogue (e.g. the operating system), as it came
    "text": {"en": "{text}", "de": "{text}"},
    # a number and a noun in the right form, e.g. for building other texts
    "plural": {"en": "{n} {n:plural:{one}|{many}}", "de": "{n} {n:plural:{one}|{many}}"},
    # the command line: an error line on stderr
    "cli.error": {"en": "error: {text}", "de": "Fehler: {text}"},
    # a command of the site (serve, admin) where only the command line is installed
    "cli.needs_server": {
        "en": "this command needs the site's packages ({package} is not installed): "
              "pip install 'stich[server]'",
        "de": "dieser Befehl braucht die Pakete der Seite ({package} ist nicht "
              "installiert): pip install 'stich[server]'",
    },
    # a file that cannot be read (stich.textfile), for every command
    "file.missing": {
        "en": "there is no file {file}",
        "de": "die Datei {file} gibt es nicht",
    },
    "file.folder": {
        "en": "{file} is a folder, not a file",
        "de": "{file} ist ein Ordner, keine Datei",
    },
    "file.no_permission": {
        "en": "the file {file} may not be read (no permission)",
        "de": "die Datei {file} darf nicht gelesen werden (keine Berechtigung)",
    },
    "file.unreadable": {
        "en": "the file {file} cannot be read ({reason})",
        "de": "die Datei {file} kann nicht gelesen werden ({reason})",
    },
    "file.not_utf8": {
        "en": "{file} is not a UTF-8 text file: byte {offset} is not UTF-8",
        "de": "{file} ist keine UTF-8-Textdatei: Byte {offset} ist kein UTF-8",
    },
})

# What the Skat and the Baptistenskat engine both say.  ``action`` is an action's text
# form (``pass``, ``declare grand``, ``bid 2 stake 5``), the same in every language.
define({
    "game.over": {
        "en": "the game is over",
        "de": "Das Spiel ist vorbei",
    },
    "game.not_over": {
        "en": "the game is not over yet",
        "de": "Das Spiel ist noch nicht zu Ende",
    },
    "game.empty_action": {
        "en": "empty action",
        "de": "Keine Aktion angegeben",
    },
    "game.unreadable_action": {
        "en": "cannot read action {text!r}: {reason}",
        "de": "„{text}“ nicht verstanden: {reason}",
    },
    "game.play_a_card": {
        "en": "it is time to play a card, not {action}",
        "de": "Jetzt wird eine Karte gespielt, nicht „{action}“",
    },
    "game.bad_seat": {
        "en": "seat must be 0..{last}, not {given}",
        "de": "Der Platz muss 0..{last} sein, nicht {given}",
    },
})

# A sitting at a Skat table (stich.skat_list): ``names`` and ``positions`` are ready lists.
define({
    "table.three_players": {
        "en": "a Skat table seats three or four players, not {n}",
        "de": "An einem Skattisch sitzen drei oder vier Spieler, nicht {n}",
    },
    "table.first_dealer": {
        "en": "first_dealer is a player index from 0 to the number of players − 1, not "
              "{given}",
        "de": "first_dealer muss ein Spieler von 0 bis Spielerzahl − 1 sein, nicht {given}",
    },
    "table.positions": {
        "en": "positions must name three different players of the table, not {positions}",
        "de": "Die Positionen nennen drei verschiedene Spieler des Tisches, nicht {positions}",
    },
    "table.bilanz_three": {
        "en": "the Bilanz is defined for a table of three players, not {n}",
        "de": "Die Bilanz gibt es für einen Tisch mit drei Spielern, nicht mit {n}",
    },
    "table.preisskat_games": {
        "en": "a Preisskat series has a positive multiple of {seats} games (every player "
              "deals as often; 36 at three seats, 48 at four by default), not {games}",
        "de": "Eine Preisskat-Serie hat ein positives Vielfaches von {seats} Spielen (jeder "
              "gibt gleich oft; sonst 36 am Dreier-, 48 am Vierertisch), nicht {games}",
    },
    "table.game_players": {
        "en": "a game has three different players, not {names}",
        "de": "An einem Spiel sind drei verschiedene Spieler beteiligt, nicht {names}",
    },
    "table.unknown_lang": {
        "en": "unknown language {lang!r}: use de or en",
        "de": "Unbekannte Sprache „{lang}“: möglich sind de und en",
    },
})

# The bots (stich.bots); ``choices`` is a ready list of bot names.
define({
    "games.unknown": {
        "en": "unknown game {name!r}: use one of {choices}",
        "de": "Unbekanntes Spiel „{name}“: möglich sind {choices}",
    },
    "bots.unknown": {
        "en": "unknown bot {name!r}: use one of {choices}",
        "de": "Unbekannter Bot „{name}“: möglich sind {choices}",
    },
    # a trained network's file (stich.bots.learned) that does not fit
    "bots.policy_file": {
        "en": "the policy file cannot be played: {reason}",
        "de": "Die Strategiedatei lässt sich nicht spielen: {reason}",
    },
    "bots.few_samples": {
        "en": "samples must be at least 1, not {given}",
        "de": "samples muss mindestens 1 sein, nicht {given}",
    },
    "bots.nothing_to_do": {
        "en": "{seat} has nothing to do (phase {phase})",
        "de": "{seat} ist nicht am Zug (Phase {phase})",
    },
    "bots.inconsistent_view": {
        "en": "no deal of the unseen cards agrees with what {seat} sees (phase {phase})",
        "de": "Keine Verteilung der ungesehenen Karten passt zu dem, was {seat} sieht "
              "(Phase {phase})",
    },
    "bots.bad_budget": {
        "en": "a bot's time budget is more than 0 and at most {most} s, not {budget}",
        "de": "Das Zeitbudget eines Bots ist größer als 0 und höchstens {most} s, "
              "nicht {budget}",
    },
    "bots.no_strength": {
        "en": "the bidding bot rates suit games and Grand, not {game}",
        "de": "Der Reiz-Bot bewertet Farbspiele und Grand, nicht {game}",
    },
})
