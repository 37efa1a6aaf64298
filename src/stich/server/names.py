"""Player names: what may be a name, and when two names are the same name.

A name is taken in Unicode NFKC (so full-width ``Ａｌｉｃｅ`` is ``Alice``), with its spaces
collapsed: 1 to 24 letters, digits, spaces and ``. _ -``, starting with a letter or digit.

Two names are the same when one of their two keys is:

- :func:`name_key`: case folded, then reduced to a confusables *skeleton* in the sense of
  Unicode TR 39 (section 4), so ``аlice`` with a Cyrillic ``а``, ``ALICE`` and ``Alice``
  are one name (and ``БОРИС`` and ``Борис``: the case of any script does not count);
- :func:`look_key`: the skeleton first, then case folded (until nothing changes), so that
  a capital that looks like a Latin capital is that letter whatever its own small letter
  looks like: ``Кarl`` with a Cyrillic ``К`` (whose small ``к`` looks like no ``k``),
  ``ΚΑΤΕ`` in Greek capitals and ``Kate`` are one name.

One key cannot do both: a Greek ``Ν`` looks like ``N`` and its small ``ν`` like ``v``, so
a key that made both one would make ``Anna`` and ``Avva`` one name.  The database keeps
both keys, each unique.  The confusables data is the Unicode Consortium's
``confusables.txt`` as the maintained package ``confusable_homoglyphs`` ships it; a
skeleton maps every character of a class of confusable characters to one of them (a
letter before a digit: ``0`` becomes ``O``), or to the sequence the data names (``m``
becomes ``rn``), over the NFD form.  A skeleton is for comparing only, never shown.

Letters the data does not count as confusable can still look alike in a word of
another script (a Cyrillic ``п`` in ``Sveп``, a Greek ``ω`` in ``Uωe``): a new name must
write each of its words in one script (:func:`mixed_scripts`, TR 39 section 5's "highly
restrictive" level: Latin may go with Han, Hiragana, Katakana, Hangul or Bopomofo as
Japanese, Chinese and Korean names do).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from stich.core import ArgumentError

__all__ = ["GUEST_KEY", "KEY_MAX", "NAME_MAX", "check_name", "check_new_name", "look_key",
           "mixed_scripts", "name_key", "skeleton"]

NAME_MAX = 24
KEY_MAX = 100  # the users.name_key column
GUEST_KEY = "guest:"  # how the random keys of guests that hold no name start
NAME_RE = re.compile(r"^\w[\w .\-]*$")


@cache
def _table() -> dict[str, str]:
    """Each confusable character → its class's representative (or a sequence)."""
    from confusable_homoglyphs.utils import load  # type: ignore[import-untyped]

    data: dict[str, list[dict[str, str]]] = load("confusables.json")
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            parent[c] = parent.get(parent[c], parent[c])
            c = parent[c]
        return c

    def rank(c: str) -> tuple[bool, bool, int]:
        return (not c.isascii(), not c.isalpha(), ord(c))

    sequences: dict[str, str] = {}
    for key, entries in data.items():
        k = key.replace("\u200e", "")
        for entry in entries:
            c = entry["c"].replace("\u200e", "")
            if len(k) == 1 and len(c) == 1:
                a, b = find(k), find(c)
                if a != b:
                    keep, drop = (a, b) if rank(a) <= rank(b) else (b, a)
                    parent[drop] = keep
            elif len(k) == 1 and len(c) > 1:
                sequences[k] = c  # a character whose prototype is a sequence (m → rn)
    table = {c: find(c) for c in list(parent)}
    table.update(sequences)
    return {c: t for c, t in table.items() if c != t}


def skeleton(text: str) -> str:
    """The TR 39 skeleton: NFD, every character mapped by the confusables data, NFD.

    >>> skeleton("\\u0430lice") == skeleton("alice")   # Cyrillic а
    True
    >>> skeleton("B0B") == skeleton("BOB"), skeleton("Otto") == skeleton("Anna")
    (True, False)
    """
    table = _table()
    out = unicodedata.normalize("NFD", text)
    for _ in range(2):  # a mapped sequence may hold characters of another class
        out = "".join(table.get(c, c) for c in out)
    return unicodedata.normalize("NFD", out)


def name_key(name: str) -> str:
    """What makes two names the same whatever their case: the case-folded skeleton of the
    NFKC form (twice, so that case folding after the skeleton changes nothing more).

    >>> name_key("Ａｌｉｃｅ") == name_key("alice") == name_key("ALICE") == name_key("\\u0430lice")
    True
    >>> name_key("Hans") == name_key("Hanz"), name_key("БОРИС") == name_key("Борис")
    (False, True)
    """
    key = unicodedata.normalize("NFKC", name)
    for _ in range(2):
        key = skeleton(key.casefold()).casefold()
    return key


def look_key(name: str) -> str:
    """What makes two names look the same: the skeleton of the NFKC form, case folded,
    and again until nothing changes (a capital is mapped before its case is folded: a
    Cyrillic ``К`` is a ``K``, then a ``k``, although a Cyrillic ``к`` is no ``k``).

    >>> look_key("\\u041aarl") == look_key("Karl") == look_key("KARL")   # Cyrillic К
    True
    >>> name_key("\\u041aarl") == name_key("Karl")   # the small к looks like no k
    False
    """
    key = unicodedata.normalize("NFKC", name)
    for _ in range(LOOK_ROUNDS):
        again = skeleton(key).casefold()
        if again == key:
            break
        key = again
    return key


LOOK_ROUNDS = 8  # a name's look key is stable after at most three (tests/server/test_names.py)
# scripts that may share a word (TR 39, 5.2 "highly restrictive"); COMMON (digits, . _ -)
# and INHERITED (combining marks) go with any script
_SCRIPTS_TOGETHER = (frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
                     frozenset({"LATIN", "HAN", "BOPOMOFO"}),
                     frozenset({"LATIN", "HAN", "HANGUL"}))


def mixed_scripts(name: str) -> bool:
    """Whether a word of the name mixes scripts (Latin with Cyrillic or Greek: a letter
    that looks like a Latin one in a Latin word); words are parted by spaces and
    ``. _ -``.  Names of one script per word are fine in any script.

    >>> mixed_scripts("Sve\\u043f"), mixed_scripts("U\\u03c9e"), mixed_scripts("Sven Свен")
    (True, True, False)
    >>> mixed_scripts("Jürgen-Öß_2"), mixed_scripts("Δημήτρης"), mixed_scripts("田中さんTaro")
    (False, False, False)
    """
    from confusable_homoglyphs.categories import alias  # type: ignore[import-untyped]

    for word in re.split(r"[\s._\-]+", name):
        scripts = {str(alias(c)) for c in word} - {"COMMON", "INHERITED"}
        if len(scripts) > 1 and not any(scripts <= ok for ok in _SCRIPTS_TOGETHER):
            return True
    return False


def check_name(name: str) -> tuple[str, str]:
    """A name as it is kept and shown (NFKC, spaces collapsed), and its key; refused
    when it is not 1–24 letters, digits, spaces and ``. _ -`` starting with a letter or
    digit, or when its key does not fit the database.

    >>> check_name("  Ａｌｉｃｅ   Meier ")[0]
    'Alice Meier'
    """
    shown = " ".join(unicodedata.normalize("NFKC", name[:200]).split())
    if not 1 <= len(shown) <= NAME_MAX or not NAME_RE.match(shown):
        raise ArgumentError("auth.name_invalid")
    key = name_key(shown)
    if not key or len(key) > KEY_MAX:
        raise ArgumentError("auth.name_invalid")
    return shown, key


def check_new_name(name: str) -> tuple[str, str, str]:
    """:func:`check_name` for a name to be taken (a registration, a guest): the name as
    shown, its :func:`name_key` and its :func:`look_key` (refused when that does not fit
    the database).  Whether its words mix scripts is asked after whether it is taken
    (:func:`mixed_scripts`): a look-alike of a taken name is told that it is taken.

    >>> check_new_name("Ｋarl")  # l looks like I, whose small letter is i
    ('Karl', 'kari', 'kari')
    """
    shown, key = check_name(name)
    look = look_key(shown)
    if not look or len(look) > KEY_MAX or key.startswith(GUEST_KEY) \
            or look.startswith(GUEST_KEY):
        raise ArgumentError("auth.name_invalid")  # (a guest holding no name: "guest:…")
    return shown, key, look
