"""The pages' catalogues: every text of the templates and the scripts has a German and an
English translation, with the same placeholders, and nothing stale stays behind."""

from __future__ import annotations

import re

from stich.present.languages import LANGS, choose_lang
from stich.web.i18n import catalog, extract, js_strings, translations

PLACEHOLDER = re.compile(r"\{(\w+)\}|%\((\w+)\)s")


def _ids() -> set[str]:
    return {mid for mid, _ in extract()}


def test_every_text_is_translated_in_both_languages() -> None:
    ids = _ids()
    assert len(ids) >= 10  # the templates and scripts were found at all
    for lang in LANGS:
        cat = catalog(lang)
        missing = sorted(m for m in ids if not (cat.get(m) and cat.get(m).string))
        assert missing == [], (lang, missing)


def test_no_stale_entries_and_the_same_placeholders() -> None:
    ids = _ids()
    for lang in LANGS:
        cat = catalog(lang)
        stale = sorted(str(m.id) for m in cat if m.id and m.id not in ids)
        assert stale == [], (lang, stale)
        for m in cat:
            if not m.id:
                continue
            want = set(PLACEHOLDER.findall(str(m.id)))
            assert set(PLACEHOLDER.findall(str(m.string))) == want, (lang, m.id, m.string)


def test_german_is_german_and_the_scripts_get_their_texts() -> None:
    assert translations("de").gettext("Log in") == "Anmelden"
    assert translations("en").gettext("Log in") == "Log in"
    js = js_strings("de")
    js_ids = {mid for mid, where in extract() if where.endswith(".js")}
    assert set(js) == js_ids


def test_the_page_language() -> None:
    assert choose_lang(None, None, None) == "de"  # German by default
    assert choose_lang(None, None, "en-GB,en;q=0.8,de;q=0.5") == "en"
    assert choose_lang(None, None, "fr-FR,fr;q=0.9,de;q=0.8") == "de"
    assert choose_lang("en", "de", "de") == "en"  # a choice on the page wins
    assert choose_lang("xx", "en", "de") == "en"


def test_scripts_keep_their_texts_where_babel_finds_them() -> None:
    """Babel's JavaScript extractor does not look inside template literals: a text there
    would never reach the catalogues."""
    from stich.web.i18n import HERE

    inside = re.compile(r"`[^`]*\$\{[^`]*\b_\(")
    for path in sorted((HERE / "static" / "js").glob("*.js")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not inside.search(line), f"{path.name}:{n}: _() inside a template literal"
