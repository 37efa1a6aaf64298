"""Skat rules in words, in German and English: a rule string as a person reads it, and
the house rules with their choices and a short help each (what the lobby's form offers).

Every page, the lobby's list and the table's header name a table's rules with
:func:`rules_words`, never with the raw rule string:

>>> rules_words("skat(preset=lothar,kontra_re=yes,schieberamsch=yes,bock=grand_hand+kontra_won)")
'Lothars Regeln · Kontra/Re · Schieberamsch · Bock (Grand Hand, Kontra gewonnen)'
>>> rules_words("skat(preset=lothar,kontra_re=yes,schieberamsch=yes,bock=grand_hand)", "en")
"Lothar's rules · Kontra/Re · Schieberamsch · Bock (Grand Hand)"
>>> rules_words("skat(preset=isko)", "de")
'ISkO'

Where space is tight (a phone's header, a row of the lobby's list) the short form names
the preset and at most :data:`SHORT_MOST` rules, then how many more:

>>> rules_words("skat(preset=lothar,kontra_re=yes,jungfrau=yes,klopfen=yes,bock=hundred,"
...             "bock_ramsch=yes)", "de", short=True)
'Lothar · Kontra/Re · Jungfrau · Klopfen · +2'
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from stich.skat import NAME as SKAT_NAME
from stich.skat.rules import BOCK_EVENTS, PRESETS, SkatRules

__all__ = ["HOUSE_RULES", "SHORT_MOST", "house_fields", "rules_catalogue", "rules_words"]

SHORT_MOST = 3
"""Rules the short form names before it says how many more there are."""

HOUSE_RULES: tuple[str, ...] = (
    "kontra_re", "spitze", "schenken", "revolution", "jungfrau", "durchmarsch", "ramsch_skat",
    "schieberamsch", "klopfen", "bock", "bock_games", "bock_overlap", "bock_ramsch",
)
"""The house-rule fields of :class:`~stich.skat.rules.SkatRules`, in the order the form
offers them and the words name them (both presets leave them at their defaults)."""

_PRESET = {
    "lothar": {"de": "Lothars Regeln", "en": "Lothar's rules", "short": "Lothar"},
    "isko": {"de": "ISkO", "en": "ISkO", "short": "ISkO"},
}
_PRESET_ABOUT = {
    "lothar": {"de": "Lothars Tisch (ISkO mit Hausregeln, Ramsch wenn alle passen)",
               "en": "Lothar's table (ISkO with house rules, Ramsch when all pass)"},
    "isko": {"de": "Internationale Skatordnung (offizielle Regeln)",
             "en": "International Skat Order (official rules)"},
}

# per field: its label, a help text, and the words of each choice in the form
# ("choices") and in the rules in words ("words": None = not named, the default)
_FIELDS: dict[str, dict[str, Any]] = {
    "kontra_re": {
        "label": {"de": "Kontra und Re", "en": "Kontra and Re"},
        "help": {"de": "Ein Gegenspieler darf vor seiner ersten Karte Kontra sagen "
                       "(verdoppelt), der Alleinspieler mit Re antworten (verdoppelt noch "
                       "einmal).",
                 "en": "A defender may say Kontra before playing his first card (doubles "
                       "the score); the declarer may answer Re (doubles it again)."},
        "choices": {"no": {"de": "aus", "en": "off"},
                    "yes": {"de": "jeder Gegenspieler", "en": "any defender"},
                    "bid18": {"de": "nur wer mitgereizt hat (ab 18)",
                              "en": "only a defender who bid (18 or more)"}},
        "words": {"yes": {"de": "Kontra/Re", "en": "Kontra/Re"},
                  "bid18": {"de": "Kontra/Re ab 18", "en": "Kontra/Re from 18"}},
    },
    "spitze": {
        "label": {"de": "Spitze", "en": "Spitze"},
        "help": {"de": "Wer die niedrigste Trumpfkarte hält (Trumpf-Sieben, im Grand den "
                       "Schellen-Unter), darf Spitze ansagen: gewonnen nur, wenn er mit ihr "
                       "den letzten Stich macht; eine Stufe mehr.",
                 "en": "A declarer holding the lowest trump (the trump Sieben, in Grand the "
                       "Schellen-Unter) may declare Spitze: won only if he takes the last "
                       "trick with it; one level more."},
        "choices": {"no": {"de": "aus", "en": "off"},
                    "yes": {"de": "eine Stufe", "en": "one level"},
                    "double": {"de": "zwei Stufen", "en": "two levels"}},
        "words": {"yes": {"de": "Spitze", "en": "Spitze"},
                  "double": {"de": "Spitze (2 Stufen)", "en": "Spitze (2 levels)"}},
    },
    "schenken": {
        "label": {"de": "Schenken", "en": "Schenken (giving the game away)"},
        "help": {"de": "Im ersten Stich eines Farb- oder Grandspiels ohne Ansage darf ein "
                       "Gegenspieler das Spiel schenken; stimmt sein Partner zu, nimmt der "
                       "Alleinspieler an (einfach gewonnen) oder spielt weiter: dann muss er "
                       "Schneider machen (gewertet wie angesagt), nach einem zweiten "
                       "Schenken Schwarz.",
                 "en": "In the first trick of a suit game or Grand without announcement a "
                       "defender may offer to give the game away; when his partner agrees, "
                       "the declarer accepts (won simply) or plays on: then he must make "
                       "Schneider (scored as announced), after a second offer Schwarz."},
        "words": {"yes": {"de": "Schenken", "en": "Schenken"}},
    },
    "revolution": {
        "label": {"de": "Revolution", "en": "Revolution"},
        "help": {"de": "Ein Null ouvert für 92: Die Gegenspieler sehen die Karten des "
                       "anderen; vor der ersten Karte gibt der erste dem Partner beliebig "
                       "viele Karten, der gibt ebenso viele zurück.",
                 "en": "A Null Ouvert worth 92: the defenders see each other's cards; "
                       "before the first card the first gives his partner any number of "
                       "cards, the partner gives back as many."},
        "words": {"yes": {"de": "Revolution", "en": "Revolution"}},
    },
    "jungfrau": {
        "label": {"de": "Jungfrau", "en": "Jungfrau"},
        "help": {"de": "Ramsch: Hat ein anderer Spieler keinen Stich bekommen, zählt der "
                       "Verlust des Verlierers doppelt.",
                 "en": "Ramsch: when another player took no trick, the loser's loss "
                       "counts double."},
        "words": {"yes": {"de": "Jungfrau", "en": "Jungfrau"}},
    },
    "durchmarsch": {
        "label": {"de": "Durchmarsch", "en": "Durchmarsch"},
        "help": {"de": "Ramsch: Wer alle zehn Stiche macht, bekommt +120 (sonst verliert "
                       "er seine Augen wie jeder Verlierer).",
                 "en": "Ramsch: a player who takes all ten tricks scores +120 (otherwise "
                       "he loses his points like any loser)."},
        "words": {"no": {"de": "ohne Durchmarsch", "en": "no Durchmarsch"}},
    },
    "ramsch_skat": {
        "label": {"de": "Skat im Ramsch", "en": "The Skat in Ramsch"},
        "help": {"de": "Wem die Augen im Skat zählen: dem Gewinner des letzten Stichs "
                       "oder dem Verlierer.",
                 "en": "Whom the Skat's points count for: the winner of the last trick or "
                       "the loser."},
        "choices": {"last_trick": {"de": "an den letzten Stich", "en": "to the last trick"},
                    "loser": {"de": "an den Verlierer", "en": "to the loser"}},
        "words": {"loser": {"de": "Skat an den Verlierer", "en": "Skat to the loser"}},
    },
    "schieberamsch": {
        "label": {"de": "Schieberamsch", "en": "Schieberamsch"},
        "help": {"de": "Vor dem Ramsch nimmt jeder reihum den Skat auf und drückt zwei "
                       "Karten (keinen Unter) oder schiebt ihn ungesehen weiter: jedes "
                       "Schieben verdoppelt.",
                 "en": "Before a Ramsch each player in turn picks up the Skat and puts two "
                       "cards back (no Unter), or pushes it on unseen: each push doubles."},
        "words": {"yes": {"de": "Schieberamsch", "en": "Schieberamsch"}},
    },
    "klopfen": {
        "label": {"de": "Klopfen", "en": "Klopfen"},
        "help": {"de": "Ramsch: Vor seiner ersten Karte darf jeder einmal klopfen; jedes "
                       "Klopfen verdoppelt.",
                 "en": "Ramsch: before his first card each player may knock once; each "
                       "knock doubles."},
        "words": {"yes": {"de": "Klopfen", "en": "Klopfen"}},
    },
    "bock": {
        "label": {"de": "Bock", "en": "Bock"},
        "help": {"de": "Nach einem Spiel mit einem der gewählten Ereignisse zählen die "
                       "nächsten Spiele (eine Bockrunde) doppelt.",
                 "en": "After a game with one of the chosen events the next games (a Bock "
                       "round) count double."},
        "choices": {
            "lost_60": {"de": "verloren mit 60 Augen", "en": "lost with 60 points"},
            "grand_hand": {"de": "Grand Hand", "en": "Grand Hand"},
            "kontra_won": {"de": "Kontra gewonnen", "en": "Kontra won"},
            "kontra_re": {"de": "Kontra und Re", "en": "Kontra and Re"},
            "triple": {"de": "Schnapszahl", "en": "three equal digits"},
            "hundred": {"de": "volle Hundert", "en": "a multiple of 100"},
            "value72": {"de": "Spielwert ab 72", "en": "worth 72 or more"},
            "value96": {"de": "Spielwert ab 96", "en": "worth 96 or more"},
        },
        "event_help": {
            "lost_60": {"de": "ein Spiel mit 60 Augen verloren",
                        "en": "a game lost with 60 points"},
            "grand_hand": {"de": "ein Grand Hand gewonnen", "en": "a Grand Hand won"},
            "kontra_won": {"de": "ein Kontra, das die Gegenspieler gewinnen",
                           "en": "a Kontra the defenders win"},
            "kontra_re": {"de": "ein Spiel mit Kontra und Re",
                          "en": "a game with Kontra and Re"},
            "triple": {"de": "ein Punktestand aus drei gleichen Ziffern (111, 222, …)",
                       "en": "a total of three equal digits (111, 222, …)"},
            "hundred": {"de": "ein Punktestand von vollen Hundert (nicht 0)",
                        "en": "a total that is a multiple of 100 (not 0)"},
            "value72": {"de": "ein Spiel im Wert von 72 oder mehr",
                        "en": "a game worth 72 or more"},
            "value96": {"de": "ein Spiel im Wert von 96 oder mehr",
                        "en": "a game worth 96 or more"},
        },
    },
    "bock_games": {
        "label": {"de": "Spiele je Bockrunde", "en": "Games per Bock round"},
        "help": {"de": "0: so viele Spiele wie Spieler am Tisch.",
                 "en": "0: as many games as players at the table."},
    },
    "bock_overlap": {
        "label": {"de": "Bockrunde während einer Bockrunde", "en": "A Bock round during one"},
        "help": {"de": "Eine Bockrunde, die während einer anderen beginnt, wird danach "
                       "gespielt, oder die Spiele beider zählen noch einmal doppelt.",
                 "en": "A Bock round started during another one is played after it, or "
                       "the games both cover double again."},
        "choices": {"queue": {"de": "danach spielen", "en": "played after it"},
                    "stack": {"de": "doppelt verdoppeln", "en": "doubled again"}},
    },
    "bock_ramsch": {
        "label": {"de": "Ramschrunde nach Bock", "en": "Ramsch round after Bock"},
        "help": {"de": "Nach jeder Bockrunde eine Runde Pflichtramsch (so viele Spiele wie "
                       "Spieler); jeder darf stattdessen Grand Hand spielen.",
                 "en": "After each Bock round a round of compulsory Ramsch (as many games "
                       "as players); each player may play Grand Hand instead."},
        "words": {"yes": {"de": "Bockramsch", "en": "Bockramsch"}},
    },
}

# the fields both presets set, named when a rule string changes one of them
_BASE_WORDS: dict[str, dict[str, dict[str, str]]] = {
    "bidding_jumps": {"yes": {"de": "Reizsprünge", "en": "jump bids"},
                      "no": {"de": "ohne Reizsprünge", "en": "no jump bids"}},
    "all_pass": {"ramsch": {"de": "Ramsch, wenn alle passen", "en": "Ramsch when all pass"},
                 "redeal": {"de": "neu geben, wenn alle passen",
                            "en": "new deal when all pass"}},
    "announcements": {"yes": {"de": "Ansagen", "en": "announcements"},
                      "no": {"de": "ohne Ansagen", "en": "no announcements"}},
    "null_overbid": {"refused": {"de": "überreizter Null abgelehnt",
                                 "en": "overbid Null refused"},
                     "next_level": {"de": "überreizter Null verloren",
                                    "en": "overbid Null lost"}},
}


def _lang(lang: str) -> str:
    return "en" if lang == "en" else "de"


def _text(value: object) -> str:
    """A field's value as the rule string writes it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def house_fields(rules: SkatRules) -> dict[str, str]:
    """Every house rule's value as the rule string writes it (``yes``/``no``, a choice,
    the Bock events joined by ``+`` or ``""``, a number), for the form to show a saved rule
    set.

    >>> house_fields(SkatRules.parse("skat(preset=isko,klopfen=yes)"))["klopfen"]
    'yes'
    """
    return {name: _text(getattr(rules, name)) for name in HOUSE_RULES}


def _named(rules: SkatRules, lang: str) -> list[tuple[str, str]]:
    """The rules that differ from the preset, as (field, words), in the fields' order;
    the Bock round's details in brackets after "Bock"."""
    base = PRESETS[rules.preset_name]
    out: list[tuple[str, str]] = []
    for f in fields(SkatRules):
        name = f.name
        value = getattr(rules, name)
        if value == getattr(base, name):
            continue
        if name in _BASE_WORDS:
            out.append((name, _BASE_WORDS[name][_text(value)][lang]))
        elif name == "bock":
            events = [_FIELDS["bock"]["choices"][e][lang] for e in BOCK_EVENTS
                      if e in rules.bock_events]
            details = ", ".join(events)
            if rules.bock_games:
                details += "; " + (f"{rules.bock_games} Spiele" if lang == "de"
                                   else f"{rules.bock_games} games")
            if rules.bock_overlap == "stack":
                details += "; " + ("überlappend doppelt" if lang == "de"
                                   else "overlapping doubled")
            out.append((name, f"Bock ({details})"))
        elif name in ("bock_games", "bock_overlap"):
            if not rules.bock:  # (Bock off: these say nothing; with Bock: in its brackets)
                continue
        else:
            words = _FIELDS[name].get("words", {}).get(_text(value))
            if words is not None:
                out.append((name, words[lang]))
    return out


def rules_words(text: str, lang: str = "de", *, short: bool = False) -> str:
    """A Skat rule string in words: the preset, then each rule that differs from it
    (``short``: the preset's short name and at most :data:`SHORT_MOST` rules, the Bock
    events left out).  A string that is not a Skat rule string is returned as it is."""
    try:
        rules = SkatRules.parse(text)
    except ValueError:
        return text
    lang = _lang(lang)
    preset = _PRESET[rules.preset_name]
    named = _named(rules, lang)
    if not short:
        return " · ".join([preset[lang], *(w for _, w in named)])
    words = ["Bock" if name == "bock" else w for name, w in named]
    more = len(words) - SHORT_MOST
    if more > 1:
        words = [*words[:SHORT_MOST], f"+{more}"]
    return " · ".join([preset["short"], *words])


def rules_catalogue(lang: str = "de") -> dict[str, Any]:
    """What the lobby's form offers, in ``lang``: the presets (``name``, ``label``,
    ``about``) and every house rule (``name``, ``label``, ``help``, ``kind`` — ``yes_no``,
    ``choice``, ``events`` or ``number`` —, ``default``, and ``choices`` with their
    words, or ``min``/``max``), the defaults as the rule string writes them.

    >>> [f["name"] for f in rules_catalogue("en")["fields"]][:3]
    ['kontra_re', 'spitze', 'schenken']
    """
    lang = _lang(lang)
    default = SkatRules()
    out_fields: list[dict[str, Any]] = []
    for name in HOUSE_RULES:
        spec = _FIELDS[name]
        value = getattr(default, name)
        entry: dict[str, Any] = {"name": name, "label": spec["label"][lang],
                                 "help": spec["help"][lang], "default": _text(value)}
        if name == "bock":
            entry["kind"] = "events"
            entry["choices"] = [{"value": e, "label": spec["choices"][e][lang],
                                 "help": spec["event_help"][e][lang]} for e in BOCK_EVENTS]
        elif isinstance(value, bool):
            entry["kind"] = "yes_no"
        elif isinstance(value, int):
            entry.update(kind="number", min=0, max=12)
        else:
            entry["kind"] = "choice"
            entry["choices"] = [{"value": v, "label": w[lang]}
                                for v, w in spec["choices"].items()]
        out_fields.append(entry)
    presets = [{"name": n, "label": _PRESET[n][lang], "about": _PRESET_ABOUT[n][lang]}
               for n in PRESETS]
    return {"game": SKAT_NAME, "presets": presets, "fields": out_fields}
