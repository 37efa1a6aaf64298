"""Player names: what may be a name, and when two names are the same name.

A name is taken in Unicode NFKC (so full-width ``Ａｌｉｃｅ`` is ``Alice``), with its spaces
collapsed: 1 to 24 letters, digits, spaces and ``. _ -``, starting with a letter or digit.

Two names are the same when their :func:`name_key` is: case folded and reduced to a
confusables *skeleton* in the sense of Unicode TR 39 (section 4), so ``аlice`` with a
Cyrillic ``а``, ``ALICE`` and ``Alice`` are one name and cannot sit side by side.  The
confusables data is the Unicode Consortium's ``confusables.txt`` as the maintained
package ``confusable_homoglyphs`` ships it; a skeleton maps every character of a class
of confusable characters to one of them (a letter before a digit: ``0`` becomes ``O``),
or to the sequence the data names (``m`` becomes ``rn``), over the NFD form.  A skeleton
is for comparing only, never shown.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from stich.core import ArgumentError

__all__ = ["KEY_MAX", "NAME_MAX", "check_name", "name_key", "skeleton"]

NAME_MAX = 24
KEY_MAX = 100  # the users.name_key column
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
    """What makes two names the same: the case-folded skeleton of the NFKC form
    (twice, so that case folding after the skeleton changes nothing more).

    >>> name_key("Ａｌｉｃｅ") == name_key("alice") == name_key("ALICE") == name_key("\\u0430lice")
    True
    >>> name_key("Hans") == name_key("Hanz")
    False
    """
    key = unicodedata.normalize("NFKC", name)
    for _ in range(2):
        key = skeleton(key.casefold()).casefold()
    return key


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
