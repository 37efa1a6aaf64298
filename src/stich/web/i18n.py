"""The pages' languages: Babel catalogues read at start from the package's ``.po`` files
(nothing is compiled at install), one per language the site speaks; German by default,
English when the browser asks (:mod:`stich.present.languages`).

Every text of the templates (``_("…")`` in Jinja2) and of the table's ES modules
(``_("…")`` in JavaScript) is an English message id with a German and an English
translation.  ``python -m stich.web.i18n`` extracts the ids from the templates and the
scripts and merges them into both catalogues (new ids arrive untranslated in German:
the tests fail until someone translates them; the English text is the id itself unless
the English catalogue says otherwise).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.support import Translations

from stich.present.languages import LANGS

__all__ = ["HERE", "catalog", "extract", "js_strings", "translations", "update"]

HERE = Path(__file__).resolve().parent
LOCALE = HERE / "locale"
METHODS = [("templates/**.html", "jinja2"), ("static/js/**.js", "javascript")]
OPTIONS = {"templates/**.html": {"extensions": "jinja2.ext.do"}}


def _po(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "messages.po"


@cache
def catalog(lang: str) -> Catalog:
    """The ``.po`` catalogue of ``lang`` as Babel reads it."""
    with _po(lang).open("rb") as f:
        return read_po(f, locale=lang)


@cache
def translations(lang: str) -> Translations:
    """The gettext translations of ``lang`` (for Jinja2's ``_``)."""
    buf = io.BytesIO()
    write_mo(buf, catalog(lang))
    buf.seek(0)
    return Translations(buf)


@cache
def js_strings(lang: str) -> dict[str, str]:
    """The translations of the texts the scripts use (message id -> text)."""
    wanted = {msgid for msgid, where in extract() if where.endswith(".js")}
    cat = catalog(lang)
    out: dict[str, str] = {}
    for m in cat:
        if isinstance(m.id, str) and m.id in wanted and isinstance(m.string, str):
            out[m.id] = m.string or m.id
    return out


@cache
def extract() -> tuple[tuple[str, str], ...]:
    """Every message id of the templates and the scripts, with the file it is in."""
    found: list[tuple[str, str]] = []
    for filename, _line, message, _comments, _context in extract_from_dir(
            HERE, METHODS, options_map=OPTIONS):
        ids: Iterator[str] = iter(message) if isinstance(message, tuple) else iter((message,))
        for mid in ids:
            if mid:
                found.append((mid, filename))
    return tuple(found)


def update() -> list[str]:
    """Merge the extracted ids into both catalogues; returns what is untranslated."""
    extract.cache_clear()
    ids = sorted({mid for mid, _ in extract()})
    missing: list[str] = []
    for lang in LANGS:
        path = _po(lang)
        old = catalog(lang) if path.exists() else Catalog(locale=lang)
        new = Catalog(locale=lang, project="stich", charset="utf-8", fuzzy=False,
                      copyright_holder="the stich authors", version="1",
                      creation_date=old.creation_date, revision_date=old.revision_date)
        for mid in ids:
            m = old.get(mid)
            text = m.string if m is not None and m.string else ""
            if not text and lang == "en":
                text = mid  # the ids are English
            new.add(mid, text)
            if not text:
                missing.append(f"{lang}: {mid}")
        path.parent.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        write_po(buf, new, width=0, omit_header=False, sort_output=True)
        path.write_bytes(buf.getvalue())
    catalog.cache_clear()
    translations.cache_clear()
    js_strings.cache_clear()
    return missing


if __name__ == "__main__":
    gaps = update()
    for g in gaps:
        print("untranslated", g)
    sys.exit(1 if gaps else 0)
