"""Players' initials: the shortest prefixes of their names that tell them apart, as the
Anschreibezettel writes who begins a round (in the terminal and on the printable page).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["initials"]


def initials(names: Sequence[str], least: int = 1) -> list[str]:
    """The shortest prefixes (of at least ``least`` letters) that tell the names apart.

    >>> initials(["Kurt", "Helga", "Hans", "Otto"])
    ['K', 'He', 'Ha', 'O']
    >>> initials(["Du", "Kurt", "Helga"], least=3)
    ['Du', 'Kur', 'Hel']
    """
    out = []
    for name in names:
        for size in range(min(least, len(name)), len(name) + 1):
            prefix = name[:size]
            if sum(1 for other in names if other[:size] == prefix) == 1:
                out.append(prefix)
                break
        else:
            out.append(name)
    return out
