"""Messages of the arena (``stich arena``, :mod:`stich.arena`): what it refuses to run.

``choices`` is a ready list of bot names."""

from stich.messages import define

define({
    "arena.unknown_bot": {
        "en": "unknown bot {name!r} for {game}: use one of {choices}",
        "de": "Unbekannter Bot „{name}“ für {game}: möglich sind {choices}",
    },
    "arena.entry_point": {
        "en": "bot {name!r}: {problem} (a bot from Python is py:package.module:factory, "
              "the factory returning an object with choose(view, rng))",
        "de": "Bot „{name}“: {problem} (ein Bot aus Python ist py:paket.modul:fabrik, "
              "die Fabrik gibt ein Objekt mit choose(view, rng) zurück)",
    },
    "arena.no_bots": {
        "en": "name the bots, separated by commas (e.g. easy,random,random)",
        "de": "Nenne die Bots durch Kommas getrennt (z. B. easy,random,random)",
    },
    "arena.skat_three": {
        "en": "Skat is played by three bots, not {n}",
        "de": "Skat spielen drei Bots, nicht {n}",
    },
    "arena.baptisten_players": {
        "en": "{players} players need {players} bots, not {n}",
        "de": "{players} Spieler brauchen {players} Bots, nicht {n}",
    },
    "arena.deals": {
        "en": "the number of deals must be at least 1, not {n}",
        "de": "Die Zahl der Austeilungen muss mindestens 1 sein, nicht {n}",
    },
    "arena.jobs": {
        "en": "the number of jobs must be at least 1, not {n}",
        "de": "Die Zahl der Prozesse muss mindestens 1 sein, nicht {n}",
    },
    "arena.game": {
        "en": "the arena plays skat or baptisten, not {game!r}",
        "de": "Die Arena spielt skat oder baptisten, nicht „{game}“",
    },
})
