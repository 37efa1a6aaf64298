"""When two names are one (``stich.server.names``), from the confusables data itself:
every character the data names as a look-alike of a Latin letter, capital or small,
makes a name one with the name of that letter (issue 38: the case was folded before the
skeleton, so most Latin capitals had look-alikes with another key: a Cyrillic ``К``
folds to a ``к``, which looks like no ``k``)."""

from __future__ import annotations

import string
import unicodedata

import pytest
from confusable_homoglyphs.utils import load  # type: ignore[import-untyped]

from stich.core import ArgumentError
from stich.server.names import (
    LOOK_ROUNDS,
    check_new_name,
    look_key,
    mixed_scripts,
    name_key,
    skeleton,
)


def _one(name: str, other: str) -> bool:
    """Whether the site takes two names for one (either key: as the database does)."""
    return name_key(name) == name_key(other) or look_key(name) == look_key(other)


def look_alikes() -> dict[str, set[str]]:
    """Each Latin letter A–Z, a–z → the single characters the confusables data maps to
    it or from it (the package lists both ways), as the characters appear in a name:
    a name is kept in NFKC, so a character NFKC changes never shows in one as itself
    (``ſ`` is kept as ``s``, and is that letter's)."""
    data: dict[str, list[dict[str, str]]] = load("confusables.json")
    out: dict[str, set[str]] = {c: set() for c in string.ascii_letters}
    for key, entries in data.items():
        k = key.replace("\u200e", "")
        for entry in entries:
            c = entry["c"].replace("\u200e", "")
            if len(k) != 1 or len(c) != 1:
                continue
            for letter, other in ((k, c), (c, k)):
                if letter in out and other != letter \
                        and unicodedata.normalize("NFKC", other) == other:
                    out[letter].add(other)
    return out


def test_every_look_alike_of_a_latin_letter_is_that_letter() -> None:
    alikes = look_alikes()
    assert sum(map(len, alikes.values())) > 300  # the data, not a few by hand
    assert "\u041a" in alikes["K"] and "\u039a" in alikes["K"]  # Cyrillic К, Greek Κ
    wrong = [(letter, c, unicodedata.name(c, "?"))
             for letter, cs in sorted(alikes.items()) for c in sorted(cs)
             if look_key(f"Sve{c}x") != look_key(f"Sve{letter}x")]
    assert wrong == []
    # the capitals whose look-alikes the case fold before the skeleton misses (17 of
    # 26 in this data, of the characters a name can show): one name by the look key
    missed = {letter for letter in string.ascii_uppercase
              if any(name_key(f"Sve{c}x") != name_key(f"Sve{letter}x")
                     for c in alikes[letter])}
    assert len(missed) > 10, sorted(missed)
    assert all(_one(f"Sve{c}x", f"sve{letter.lower()}x")
               for letter in missed for c in alikes[letter])


def test_the_case_of_any_script_does_not_count() -> None:
    for a, b in (("ALICE", "alice"), ("БОРИС", "Борис"), ("ΝΊΚΟΣ", "Νίκος"),
                 ("JÜRGEN", "jürgen"), ("Ｋarl", "karl"), ("ΚΑΤΕ", "Kate"),
                 ("\u041aarl", "KARL")):
        assert _one(a, b), (a, b)
    for a, b in (("Anna", "Avva"), ("Hans", "Hanz"), ("Sven", "Svea")):
        assert not _one(a, b), (a, b)


def test_a_look_key_is_stable() -> None:
    """A look key is the skeleton and case fold repeated until nothing changes: for
    every character within a few rounds (the loop's bound is above it)."""
    for cp in range(0x20, 0x30000):
        key = unicodedata.normalize("NFKC", chr(cp))
        for _ in range(LOOK_ROUNDS):
            again = skeleton(key).casefold()
            if again == key:
                break
            key = again
        else:
            pytest.fail(f"U+{cp:04X} is not stable after {LOOK_ROUNDS} rounds")


def test_words_of_one_script_each() -> None:
    """``Sveп`` (a Cyrillic п) and ``Uωe`` (a Greek ω) look like ``Sven`` and ``Uwe``,
    but the confusables data does not count those letters alike: a name whose word
    mixes scripts is refused (TR 39's "highly restrictive" level)."""
    assert not _one("Sve\u043f", "Sven") and not _one("U\u03c9e", "Uwe")  # the data's
    for mixed in ("Sve\u043f", "U\u03c9e", "\u0430lice", "Pet\u0435r-Paul", "Ivan Ив\u0430n"):
        assert mixed_scripts(mixed), mixed
    for fine in ("Sven", "Иван", "Δημήτρης", "Jürgen Öß", "Ivan Иванов", "田中さん", "Kim 김",
                 "Tanaka田中", "x_1.y-2"):
        assert not mixed_scripts(fine), fine


def test_no_name_has_the_key_of_a_guest_that_holds_none() -> None:
    """A guest without a live session has random keys ``guest:…``; no name may have
    one (``ː`` is a colon in the skeleton)."""
    with pytest.raises(ArgumentError):
        check_new_name("guest\u02d0abc")
    assert check_new_name("Gast\u02d0abc")[0] == "Gast\u02d0abc"
