"""What the front ends share (:mod:`stich.present`): the languages and the one choice
of a language, players' initials, and cards named in words in a card style.

The language cases below were pinned on the two choosers that existed before
(``server.guard.request_lang`` for the API and the socket, ``web.i18n.page_lang`` for the
pages), then run on :func:`~stich.present.languages.choose_lang`, which replaced both.
They differed in one thing: the API read only the first 20 tags of ``Accept-Language``,
the pages every tag.  The one choice keeps the bound (a browser sends a handful; what a
request costs stays small whatever a client puts in the header)."""

from __future__ import annotations

import pytest

from stich.present.initials import initials
from stich.present.languages import ACCEPT_TAGS, DEFAULT_LANG, LANGS, choose_lang
from stich.present.styles import STYLES, card_style


def request_lang(query: str | None, accept: str | None) -> str:
    """How the API and the socket ask: no cookie."""
    return choose_lang(query, accept=accept)


def page_lang(query: str | None, cookie: str | None, accept: str | None) -> str:
    return choose_lang(query, cookie, accept)

# (query, accept) -> language, as the API and the table's socket choose it
API_CASES = [
    ((None, None), "de"),
    ((None, ""), "de"),
    (("en", None), "en"),
    (("de", "en"), "de"),
    (("xx", "en-GB,en;q=0.9"), "en"),
    (("EN", None), "de"),  # the query's value is taken as written
    ((None, "en-GB,en;q=0.9"), "en"),
    ((None, "EN-us"), "en"),
    ((None, "fr-FR,fr;q=0.9,de;q=0.8,en;q=0.5"), "de"),
    ((None, "fr, it"), "de"),
    ((None, " en ; q=0.1 , de"), "en"),  # the first the site speaks, whatever its weight
    ((None, "english"), "en"),  # (the first two letters of a tag)
    ((None, "de-CH"), "de"),
    ((None, ",".join(["fr"] * 19 + ["en"])), "en"),  # the 20th tag is read
]

# (query, cookie, accept) -> language, as the pages choose it
PAGE_CASES = [
    ((None, None, None), "de"),
    ((None, None, "en-US,en;q=0.9"), "en"),
    (("de", "en", "en"), "de"),  # a choice on the page wins
    ((None, "en", "de"), "en"),  # then the choice kept in the cookie
    (("xx", "en", "de"), "en"),
    ((None, "xx", "en"), "en"),
    ((None, None, "fr, it"), "de"),
    ((None, None, "fr-FR,fr;q=0.9,de;q=0.8"), "de"),
    (("en", None, None), "en"),
]


@pytest.mark.parametrize(("given", "lang"), API_CASES)
def test_the_api_chooses_the_language(given: tuple[str | None, str | None],
                                      lang: str) -> None:
    assert request_lang(*given) == lang


@pytest.mark.parametrize(("given", "lang"), PAGE_CASES)
def test_a_page_chooses_the_language(given: tuple[str | None, str | None, str | None],
                                     lang: str) -> None:
    assert page_lang(*given) == lang


def test_only_the_first_twenty_tags_count_for_the_api() -> None:
    assert request_lang(None, ",".join(["fr"] * 20 + ["en"])) == "de"


def test_the_pages_read_the_same_twenty_tags() -> None:
    """Where the two choosers drifted apart: the pages read every tag before."""
    assert ACCEPT_TAGS == 20
    assert page_lang(None, None, ",".join(["fr"] * 19 + ["en"])) == "en"
    assert page_lang(None, None, ",".join(["fr"] * 20 + ["en"])) == "de"


def test_one_list_of_languages() -> None:
    from stich.cli.i18n import TEXTS
    from stich.messages import LANGS as MESSAGE_LANGS
    from stich.web.i18n import catalog

    assert LANGS == ("de", "en") and DEFAULT_LANG == "de"
    assert MESSAGE_LANGS is LANGS  # the catalogue's languages are the front ends'
    assert sorted(TEXTS) == sorted(LANGS)
    for lang in LANGS:
        assert len(catalog(lang)) > 10


def test_initials() -> None:
    assert initials(["Kurt", "Helga", "Hans", "Otto"]) == ["K", "He", "Ha", "O"]
    assert initials(["Du", "Kurt", "Helga"], least=3) == ["Du", "Kur", "Hel"]
    assert initials(["Ann", "Anna", "Bo"]) == ["Ann", "Anna", "B"]  # a name inside another
    assert initials([]) == []


def test_card_styles() -> None:
    assert STYLES == ("german", "french4", "french2")
    assert [card_style(s) for s in (*STYLES, "French2", "", None)] == [
        *STYLES, "german", "german", "german"]
