"""Messages about rule sets and rule strings, shared by Skat and Baptistenskat
(:class:`stich.core.RulesError`; see :mod:`stich.messages`).  ``game`` is ``Skat`` or
``Baptistenskat``; option names, preset names and option values are the words of the
rule string (``all_pass``, ``lothar``, ``redeal``) and stay as they are in every
language."""

from stich.messages import define

define({
    "rules.not_a_rule_string": {
        "en": "not a {game} rule string: {text!r} (expected {example})",
        "de": "Keine {game}-Regelangabe: „{text}“ (erwartet: {example})",
    },
    "rules.option_needs_value": {
        "en": "rule option {item!r} needs a value (name=value)",
        "de": "Die Regeloption „{item}“ braucht einen Wert (name=wert)",
    },
    "rules.unknown_option": {
        "en": "unknown {game} rule option {key!r}",
        "de": "Unbekannte {game}-Regeloption „{key}“",
    },
    "rules.unknown_preset": {
        "en": "unknown {game} preset {name!r}: use one of {choices}",
        "de": "Unbekannte {game}-Regelvorgabe „{name}“: möglich sind {choices}",
    },
    "rules.option_yes_no": {
        "en": "option {key} must be yes or no, not {value!r}",
        "de": "Die Option {key} muss yes oder no sein, nicht „{value}“",
    },
    "rules.option_number": {
        "en": "option {key} must be a number, not {value!r}",
        "de": "Die Option {key} muss eine Zahl sein, nicht „{value}“",
    },
    "rules.option_choice": {
        "en": "{key} must be one of {choices}, not {value!r}",
        "de": "{key} muss eines von {choices} sein, nicht „{value}“",
    },
    "rules.bock_ramsch_needs_bock": {
        "en": "bock_ramsch plays a Ramsch round after each Bock round: name the Bock events "
              "too (bock=…)",
        "de": "bock_ramsch spielt nach jeder Bockrunde eine Ramschrunde: nenne auch die "
              "Bock-Ereignisse (bock=…)",
    },
    "rules.option_range": {
        "en": "{key} must be from {low} to {high}, not {value}",
        "de": "{key} muss zwischen {low} und {high} liegen, nicht {value}",
    },
})
