"""Messages shared by every area."""

from stich.messages import define

define({
    # an error from outside the catalogue (e.g. the operating system), as it came
    "text": {"en": "{text}", "de": "{text}"},
    # a number and a noun in the right form, e.g. for building other texts
    "plural": {"en": "{n} {n:plural:{one}|{many}}", "de": "{n} {n:plural:{one}|{many}}"},
    # the command line: an error line on stderr
    "cli.error": {"en": "error: {text}", "de": "Fehler: {text}"},
})
