"""The languages every front end speaks, the default, and the one choice of a language
for a request (the pages, the API's refusals and the table's socket).

The list is the message catalogue's (:data:`stich.messages.LANGS`: every message has a
text in each), so a front end cannot offer a language the messages lack.

>>> LANGS, DEFAULT_LANG
(('de', 'en'), 'de')
>>> choose_lang(accept="fr-FR,fr;q=0.9,en;q=0.5"), choose_lang("de", accept="en")
('en', 'de')
>>> choose_lang(None, "en", "de"), choose_lang(accept="fr, it")
('en', 'de')
"""

from __future__ import annotations

from typing import Final

from stich.messages import LANGS

__all__ = ["ACCEPT_TAGS", "DEFAULT_LANG", "LANGS", "choose_lang"]

DEFAULT_LANG: Final = "de"
"""German, where nothing asks for another language."""

ACCEPT_TAGS: Final = 20
"""How many of ``Accept-Language``'s tags are read: a browser sends a few, and a
request's header costs the same small work whatever a client puts in it."""


def choose_lang(query: str | None = None, cookie: str | None = None,
                accept: str | None = None) -> str:
    """The language of a request: ``query`` (``?lang=``, a choice just made), else
    ``cookie`` (the choice a page keeps; the API passes none), else the first of the
    first :data:`ACCEPT_TAGS` tags of ``accept`` (``Accept-Language``, by their first
    two letters, in the order written) that the site speaks, else :data:`DEFAULT_LANG`.
    """
    for given in (query, cookie):
        if given in LANGS:
            return given
    for part in (accept or "").split(",")[:ACCEPT_TAGS]:
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LANGS:
            return tag
    return DEFAULT_LANG
