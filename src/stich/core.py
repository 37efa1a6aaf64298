"""The protocol every game engine implements, its errors, and the game registry.

A game is played by immutable states: ``state.apply(action)`` returns a new state and
never changes the old one.  Chance (the shuffle) is a seeded input, so every game
replays exactly.  Actions are small value types whose ``str()`` parses back to the same
action with the game's ``parse_action``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

from stich.messages import StichError

__all__ = [
    "consecutive_runs",
    "kept_text",
    "unwind",
    "ArgumentError",
    "GameState",
    "IllegalActionError",
    "RecordError",
    "RulesError",
    "StichError",
]


class IllegalActionError(StichError):
    """An action that the rules do not allow in this state; the code and message say
    why (see :mod:`stich.messages`)."""


class RecordError(StichError):
    """A game record (or a line of a position file) that cannot be read or replayed; the
    message says where and why."""


class RulesError(StichError):
    """A rule set that cannot be read or does not exist: an unknown preset or option, a
    value an option does not take, a combination the game does not allow."""


class ArgumentError(StichError):
    """Something given to an engine that does not fit it: a deal, a seat, the players of
    a table, a bot's name, a solver position (card texts are a
    :class:`stich.cards.CardError`)."""


@runtime_checkable
class GameState(Protocol):
    """What every game state offers to bots, records, the CLI and the server."""

    @property
    def to_move(self) -> int:
        """The seat whose turn it is, or -1 once the game is over."""
        ...

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def apply(self, action: Any) -> GameState: ...

    def parse_action(self, text: str) -> Any: ...

    def view(self, seat: int) -> Any: ...

    def outcome(self) -> Any: ...


def kept_text(obj: object, make: Callable[[], str]) -> str:
    """A frozen object's text, made once and kept on it (not a field: equality and
    hashing ignore it; a changed copy makes its own)."""
    text: str | None = obj.__dict__.get("_text")
    if text is None:
        text = make()
        object.__setattr__(obj, "_text", text)
    return text


def unwind(node: tuple[Any, ...] | None) -> list[Any]:
    """The items of a persistent list of (item, rest) pairs, oldest first.

    Engine states keep their history as such pairs, so that ``apply`` adds an action in
    constant time and shares everything before it with the old state.

    >>> unwind(("c", ("b", ("a", None))))
    ['a', 'b', 'c']
    """
    out = []
    while node is not None:
        out.append(node[0])
        node = node[1]
    out.reverse()
    return out


def consecutive_runs(values: Iterable[int]) -> list[tuple[int, int]]:
    """Sorted values as runs of consecutive numbers, for messages such as "0 or 2..5".

    >>> consecutive_runs([5, 0, 2, 3, 4])
    [(0, 0), (2, 5)]
    """
    runs: list[tuple[int, int]] = []
    for v in sorted(values):
        if runs and v == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs
