"""What a tournament says when it refuses something (``tournament.*``)."""

from stich.messages import define

define({
    "tournament.name": {
        "en": "a tournament needs a name of 1 to {most} characters",
        "de": "Ein Turnier braucht einen Namen mit 1 bis {most} Zeichen",
    },
    "tournament.scoring": {
        "en": "a tournament is scored by 'seeger' (Preisskat) or 'list', not {given!r}",
        "de": "Ein Turnier wird nach „seeger“ (Preisskat) oder „list“ (Liste) gewertet, "
              "nicht {given!r}",
    },
    "tournament.seating": {
        "en": "later rounds are seated by 'results' or a new 'draw', not {given!r}",
        "de": "Spätere Runden werden nach „results“ (Ergebnis) oder neu „draw“ (Los) "
              "gesetzt, nicht {given!r}",
    },
    "tournament.rounds": {
        "en": "a tournament has 1 to {most} rounds, not {given}",
        "de": "Ein Turnier hat 1 bis {most} Runden, nicht {given}",
    },
    "tournament.series": {
        "en": "a series at a table of {seats} has a multiple of {seats} games, at most "
              "{most}, not {given}",
        "de": "Eine Serie am Tisch mit {seats} Plätzen hat ein Vielfaches von {seats} "
              "Spielen, höchstens {most}, nicht {given}",
    },
    "tournament.started": {
        "en": "the tournament has started: registering and withdrawing are over",
        "de": "Das Turnier hat begonnen: An- und Abmelden geht nicht mehr",
    },
    "tournament.registered": {
        "en": "you are registered for this tournament already",
        "de": "Du bist für dieses Turnier schon angemeldet",
    },
    "tournament.not_registered": {
        "en": "you are not registered for this tournament",
        "de": "Du bist für dieses Turnier nicht angemeldet",
    },
    "tournament.full": {
        "en": "the tournament is full: it takes at most {most} players",
        "de": "Das Turnier ist voll: es nimmt höchstens {most} Spieler",
    },
    "tournament.too_few": {
        "en": "a round needs at least 3 players, the tournament has {count}",
        "de": "Eine Runde braucht mindestens 3 Spieler, das Turnier hat {count}",
    },
    "tournament.five": {
        "en": "5 players make no tables of three and four; allow bots (one fills a seat) "
              "or find a sixth player",
        "de": "5 Spieler ergeben keine Dreier- und Vierertische; erlaube Bots (einer "
              "nimmt einen Platz ein) oder finde einen sechsten Spieler",
    },
    "tournament.over": {
        "en": "the tournament is over",
        "de": "Das Turnier ist beendet",
    },
    "tournament.paused": {
        "en": "the tournament is paused: resume it first",
        "de": "Das Turnier ist unterbrochen: setze es zuerst fort",
    },
    "tournament.round_running": {
        "en": "a round is still being played: its tables must finish their series first",
        "de": "Eine Runde läuft noch: ihre Tische müssen zuerst ihre Serie beenden",
    },
    "tournament.no_rounds_left": {
        "en": "all {rounds} rounds have been played",
        "de": "Alle {rounds} Runden sind gespielt",
    },
    "tournament.bad_table": {
        "en": "a table's results do not match its seats",
        "de": "Die Ergebnisse eines Tisches passen nicht zu seinen Plätzen",
    },
    "tournament.no_such_tournament": {
        "en": "there is no tournament {tournament}",
        "de": "Ein Turnier {tournament} gibt es nicht",
    },
    "tournament.not_organiser": {
        "en": "only the tournament's organiser may do that",
        "de": "Das darf nur die Turnierleitung",
    },
    "tournament.not_playing": {
        "en": "that player does not sit at a table of the running round",
        "de": "Dieser Spieler sitzt an keinem Tisch der laufenden Runde",
    },
    "tournament.not_paused": {
        "en": "the tournament is not paused",
        "de": "Das Turnier ist nicht unterbrochen",
    },
    "tournament.open_tournaments": {
        "en": "you have {count} tournaments that are not over; at most {most}",
        "de": "Du hast {count} Turniere, die nicht beendet sind; höchstens {most}",
    },
    "tournament.busy": {
        "en": "the tournament changed at the same moment; try again",
        "de": "Das Turnier hat sich im selben Moment geändert; versuch es noch einmal",
    },
})
